"""Workload files: one per corpus dataset, pinned to its bytes, validated with useful errors."""

from __future__ import annotations

import pytest

from atlas_assets.corpus import registry
from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.workloads import (
    DEFAULT_WORKLOADS_DIR,
    Sample,
    load_workload,
    load_workloads,
    load_workloads_report,
    resolve_workload,
    select_rows,
    verify_pin,
)
from tests.helpers.evals import prompt_rows, write_dataset, write_workload


def test_every_corpus_dataset_has_a_workload_and_every_pin_matches():
    workloads = load_workloads(DEFAULT_WORKLOADS_DIR)
    specs = {s.id: s for s in registry.discover(registry.DEFAULT_DATASETS_ROOT)}
    covered = {w.dataset.id for w in workloads.values()}
    missing = sorted(set(specs) - covered)
    assert not missing, f"datasets without a workload (atlas eval list --write-missing drafts them): {missing}"
    lock = registry.read_lock(registry.DEFAULT_DATASETS_ROOT)
    for workload in workloads.values():
        assert workload.dataset.id in specs, f"{workload.id}: dataset {workload.dataset.id} is not in the corpus"
        spec = specs[workload.dataset.id]
        assert verify_pin(workload, spec) == workload.dataset.sha256
        if spec.id in lock:
            assert lock[spec.id] == workload.dataset.sha256, f"{workload.id}: pin differs from the published lock"
        expected_kind = "serve" if spec.kind == "prompts" else "eval"
        assert workload.kind == expected_kind, workload.id
        if workload.kind == "eval" and spec.card.get("default_scorer"):
            assert workload.scorer == spec.card["default_scorer"], workload.id


def test_workload_id_is_the_file_name_and_resolves_by_id_or_path(tmp_path, datasets_root):
    write_dataset(datasets_root, "syn-v1", "prompts", prompt_rows(3))
    path = write_workload(tmp_path / "w", datasets_root, "syn-v1", kind="serve", scorer=None)
    assert resolve_workload("syn-v1", tmp_path / "w").id == "syn-v1"
    assert resolve_workload(str(path)).id == "syn-v1"
    renamed = path.with_name("other.yaml")
    path.rename(renamed)
    with pytest.raises(ConfigError, match=r"other\.yaml: id: is 'syn-v1' but the file is named other\.yaml"):
        load_workload(renamed)
    with pytest.raises(ConfigError, match="unknown workload 'nope'"):
        resolve_workload("nope", tmp_path / "w")


@pytest.mark.parametrize(
    "patch, message",
    [
        ({"request": {"temperature": 5}}, r"bad\.yaml: request\.temperature: Input should be less than or equal to 2"),
        ({"request": {"max_tokns": 5}}, r"bad\.yaml: request\.max_tokns: unknown field \(not in the schema\)"),
        ({"dataset": {"id": "x", "sha256": "abc"}}, r"bad\.yaml: dataset\.sha256: String should match pattern"),
        ({"scorer": None}, r"bad\.yaml: \(top level\): an eval workload names its dataset's default scorer"),
        ({"scorer": "fuzzy"}, r"unknown scorer 'fuzzy'"),
        ({"kind": "bench"}, r"bad\.yaml: kind: Input should be 'eval' or 'serve'"),
        ({"sample": {"limit": 0}}, r"bad\.yaml: sample\.limit: Input should be greater than or equal to 1"),
    ],
)
def test_errors_name_the_file_and_the_field(tmp_path, patch, message):
    import yaml

    body = {"id": "bad", "dataset": {"id": "x", "sha256": "0" * 64}, "kind": "eval", "input_tokens": 5, "scorer": "exact"}
    body.update(patch)
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump(body))
    with pytest.raises(ConfigError, match=message):
        load_workload(tmp_path / "bad.yaml")


def test_a_folder_reports_every_bad_file_and_a_broken_yaml(tmp_path):
    (tmp_path / "a.yaml").write_text("id: a\nkind: [unclosed\n")
    (tmp_path / "b.json").write_text('{"id": "b"}')
    with pytest.raises(ConfigError) as info:
        load_workloads(tmp_path)
    text = str(info.value)
    assert "a.yaml: not valid YAML" in text
    assert "b.json: dataset: required field is missing" in text and "b.json: kind: required field is missing" in text


def test_a_pin_that_does_not_match_the_bytes_is_refused(tmp_path, datasets_root):
    folder = write_dataset(datasets_root, "syn-v1", "prompts", prompt_rows(3))
    path = write_workload(tmp_path, datasets_root, "syn-v1", kind="serve", scorer=None)
    workload = load_workload(path)
    spec = registry.discover(datasets_root)[0]
    assert verify_pin(workload, spec) == workload.dataset.sha256
    (folder / "rows.jsonl").write_text((folder / "rows.jsonl").read_text().replace("teapot", "kettle"))
    with pytest.raises(ConfigError, match="dataset.sha256: pins .* but .* hashes to"):
        verify_pin(workload, spec)


def test_sample_first_n_or_seeded_in_file_order_then_limit():
    rows = [{"id": str(i)} for i in range(100)]
    assert [r["id"] for r in select_rows(rows, Sample())] == [str(i) for i in range(100)]
    assert [r["id"] for r in select_rows(rows, Sample(limit=3))] == ["0", "1", "2"]
    seeded = select_rows(rows, Sample(limit=10, seed=7))
    assert seeded == select_rows(rows, Sample(limit=10, seed=7))
    ids = [int(r["id"]) for r in seeded]
    assert ids == sorted(ids) and len(set(ids)) == 10 and ids != list(range(10))
    assert select_rows(rows, Sample(limit=10, seed=7), limit=4) == seeded[:4]


def _workload_file(directory, wid, suffix=".yaml"):
    import json

    import yaml

    body = {"id": wid, "dataset": {"id": "x", "sha256": "0" * 64}, "kind": "eval", "input_tokens": 5, "scorer": "exact"}
    path = directory / f"{wid}{suffix}"
    path.write_text(json.dumps(body) if suffix == ".json" else yaml.safe_dump(body, sort_keys=False, allow_unicode=True))
    return path


@pytest.mark.parametrize(
    "wid, says",
    [
        ("x...y", "id: workload id: contains '...' (Dagster's partition-range separator) (line 1)"),
        ("a" * 220, "id: workload id: is 220 bytes long in UTF-8"),
        ("a|b", "id: String should match pattern"),
        ("a,b", "id: String should match pattern"),
        ("a[b]", "id: String should match pattern"),
        (" lead", "id: String should match pattern"),
        ("modèle", "id: String should match pattern"),
        ("Upper", "id: String should match pattern"),
    ],
)
def test_an_id_dagster_cannot_take_is_reported_and_the_other_workloads_load(tmp_path, wid, says):
    _workload_file(tmp_path, "good")
    bad = _workload_file(tmp_path, wid)
    report = load_workloads_report(tmp_path)
    assert report.names == ["good"]
    (problem,) = report.problems
    assert str(problem).startswith(f"{bad}: {says}")
    with pytest.raises(ConfigError, match="workload id|String should match"):  # `atlas eval run --workload` refuses it
        resolve_workload(wid, tmp_path)
    with pytest.raises(ConfigError):
        load_workloads(tmp_path)


def test_two_files_with_one_id_keep_the_first(tmp_path):
    first, second = _workload_file(tmp_path, "w", ".json"), _workload_file(tmp_path, "w", ".yaml")
    _workload_file(tmp_path, "good")
    report = load_workloads_report(tmp_path)
    assert report.names == ["good", "w"] and report.entries["w"] == load_workload(first)
    assert [str(p) for p in report.problems] == [f"{second}: id: 'w' is defined twice (also by w.json) (line 1)"]
