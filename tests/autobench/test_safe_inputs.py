"""Hostile inputs: every YAML file Autobench reads goes through `autobench.yamlio`, and every
refusal is an error naming the file (exit 1 from the CLI, never a traceback or a hang);
publication re-validates the result; a stale incomplete sidecar does not outlive a complete
publication."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from autobench import yamlio
from autobench.examples.routing import generate_cases
from autobench.files import DocumentError, load_dataset, load_document, load_request
from autobench.generation import PublicationError, generate_dataset_sync, write_generation_result
from autobench.models import CaseGeneratorInput, ReviewStatus
from autobench.project import load_project_report
from tests.helpers.autobench import REQUEST_YAML, run_cli

GEN = "autobench.examples.routing:generate_cases"
BOMB = "generation:\n  request:\n    seed: 1\n    settings:\n      a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"      {n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi")
)


def _request(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "request.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def _refused(path: Path, match: str) -> str:
    started = time.monotonic()
    with pytest.raises(DocumentError, match=match) as info:
        load_request(path)
    assert time.monotonic() - started < 5
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    return message


def test_alias_bomb_is_refused_at_once(tmp_path: Path) -> None:
    assert len(BOMB.splitlines()) == 13
    message = _refused(_request(tmp_path, BOMB), "aliases expand the document by")
    assert "\n" not in message and "(line " in message


def test_small_aliases_and_merge_keys_still_load(tmp_path: Path) -> None:
    data, _ = yamlio.parse_yaml(b"base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  x: 3\ne: *b\n", "t.yaml")
    assert data == {"base": {"x": 1, "y": 2}, "d": {"x": 3, "y": 2}, "e": {"x": 1, "y": 2}}
    with pytest.raises(yamlio.YamlError, match="recursive alias"):
        yamlio.parse_yaml(b"a: &a [1, *a]\n", "t.yaml")


def test_duplicate_keys_are_refused_with_their_line(tmp_path: Path) -> None:
    text = REQUEST_YAML.replace("    seed: 17\n", "    seed: 17\n    seed: 18\n")
    message = _refused(_request(tmp_path, text), "duplicate key 'seed'")
    assert "(line 5)" in message


def test_booleans_and_huge_numbers_are_not_seeds(tmp_path: Path) -> None:
    message = _refused(_request(tmp_path, REQUEST_YAML.replace("seed: 17", "seed: true")), r"generation\.request\.seed")
    assert "valid integer" in message and "(line 4)" in message
    _refused(_request(tmp_path, REQUEST_YAML.replace("seed: 17", "seed: " + "9" * 5000)), "an integer of 5000 digits")
    _refused(_request(tmp_path, REQUEST_YAML.replace("seed: 17", "seed: " + "9" * 30)), r"generation\.request\.seed.*less than or equal")
    with pytest.raises(ValueError):
        CaseGeneratorInput(seed=True)
    with pytest.raises(ValueError):
        CaseGeneratorInput(seed=10**5000)


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    for depth in (150, 10_000):
        nested = "[" * depth + "]" * depth
        _refused(_request(tmp_path, REQUEST_YAML.replace("count: 4", f"count: {nested}")), "nest")
        # a '*' in the text takes the alias-accounting walk, which checks the depth too
        _refused(_request(tmp_path, REQUEST_YAML.replace("count: 4", f"count: {nested}\n      star: '*'")), "nest")


def test_unreadable_inputs_are_one_line_errors(tmp_path: Path) -> None:
    _refused(_request(tmp_path, REQUEST_YAML.encode().replace(b"billing", b"bill\xffing", 1)), r"not UTF-8 text: byte 0xff at line 9")
    _refused(tmp_path, "a directory")
    _refused(Path("/dev/zero"), "a character device")
    _refused(tmp_path / "missing.yaml", "no such file")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)  # no writer: opening it for reading would block
    _refused(fifo, "a FIFO")
    _refused(_request(tmp_path, "generation: [1\n"), "not valid YAML")


def test_size_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _request(tmp_path, REQUEST_YAML)
    monkeypatch.setenv(yamlio.ENV_MAX_BYTES, "100")
    _refused(path, "is more than the limit of 100 bytes")
    with pytest.raises(yamlio.YamlError, match="limit of 100 bytes"):
        yamlio.parse_yaml(b"#" * 101, "x.yaml")
    monkeypatch.delenv(yamlio.ENV_MAX_BYTES)
    assert yamlio.max_bytes() == yamlio.MAX_YAML_BYTES
    assert load_request(path).seed == 17


def test_cli_refusals_exit_1_with_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    hostile = {
        "bomb.yaml": BOMB.encode(),
        "dup.yaml": REQUEST_YAML.replace("    seed: 17\n", "    seed: 17\n    seed: 18\n").encode(),
        "bool.yaml": REQUEST_YAML.replace("seed: 17", "seed: true").encode(),
        "latin1.yaml": REQUEST_YAML.encode().replace(b"billing", b"bill\xe9ing"),
    }
    for name, data in hostile.items():
        (tmp_path / name).write_bytes(data)
    for request in [*hostile, str(tmp_path), "/dev/zero", str(fifo)]:
        done = run_cli(
            "dataset", "generate", GEN, "--request", request, "--output", "out.yaml", "--id", "d", "--version", "v1", cwd=tmp_path
        )
        assert done.returncode == 1, (request, done.stderr)
        assert "Traceback" not in done.stderr and done.stderr.startswith("autobench: error: "), done.stderr
        assert request in done.stderr.splitlines()[0]
        assert not (tmp_path / "out.yaml").exists()


def test_every_yaml_reader_uses_the_safe_loader(tmp_path: Path) -> None:
    (tmp_path / "dup.yaml").write_text("benchmark: {}\nbenchmark: {}\n")
    with pytest.raises(DocumentError, match="duplicate key"):
        load_document(tmp_path / "dup.yaml", __import__("autobench.files").files.BenchmarkFile)
    project = tmp_path / "autobench.yaml"
    project.write_text("generations: {}\nbenchmarks: [dup.yaml]\nbenchmarks: []\n")
    report = load_project_report(project)
    assert [p.message for p in report.problems] == [
        "not valid YAML: duplicate key 'benchmarks' (keys of a mapping must be unique) (line 3)"
    ]
    project.write_text("generations: {}\nbenchmarks: [dup.yaml]\n")
    assert "duplicate key" in str(load_project_report(project).problems[0])
    import autobench.llm as llm

    (tmp_path / "prices.yaml").write_text("prices: {}\nprices: {}\n")
    with pytest.raises(yamlio.YamlError, match="duplicate key"):
        llm.load_prices(tmp_path / "prices.yaml")
    assert llm.load_prices()  # the shipped table still loads


def _result(**settings: object):
    request = CaseGeneratorInput(seed=3, settings={"count": 4, **settings})
    return generate_dataset_sync(generate_cases, request, generator_id=GEN, dataset_id="d", version="v1")


def test_publication_revalidates_an_edited_result(tmp_path: Path) -> None:
    result = _result(reject=["generated-001"])
    rejected = next(i for i, r in enumerate(result.records) if r.status is ReviewStatus.REJECTED)
    records = list(result.records)
    records[rejected] = records[rejected].model_copy(update={"published": True})
    edits = [
        result.model_copy(update={"records": tuple(records)}),  # model_copy does not validate
        result.model_copy(update={"dataset_sha256": "0" * 64}),
    ]
    smuggled = result.model_copy(deep=True)
    smuggled.dataset["cases"].append(dict(smuggled.dataset["cases"][0], id="smuggled"))  # a mutable mapping
    edits.append(smuggled)
    for edited in edits:
        with pytest.raises(PublicationError, match="no longer validates"):
            write_generation_result(edited, tmp_path / "d.yaml")
        assert not any(tmp_path.iterdir())
    written = write_generation_result(result, tmp_path / "d.yaml")
    assert "generated-001" not in [c.id for c in load_dataset(written.dataset).dataset.cases]


def test_complete_publication_removes_a_stale_incomplete_sidecar(tmp_path: Path) -> None:
    out = tmp_path / "d.yaml"
    partial = write_generation_result(_result(incomplete_after=2), out)
    assert partial.incomplete.is_file()
    done = write_generation_result(_result(), out)
    assert done.removed_incomplete == partial.incomplete and not partial.incomplete.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.generation.yaml", "d.yaml"]


def test_cli_reports_the_removed_sidecar(tmp_path: Path) -> None:
    request = tmp_path / "r.yaml"
    request.write_text(REQUEST_YAML.replace("count: 4", "count: 4\n      incomplete_after: 1"))
    args = ("dataset", "generate", GEN, "--request", str(request), "--output", "d.yaml", "--id", "d", "--version", "v1")
    assert run_cli(*args, cwd=tmp_path).returncode == 2
    request.write_text(REQUEST_YAML)
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "removed " in done.stdout and not (tmp_path / "d.incomplete.yaml").exists()
