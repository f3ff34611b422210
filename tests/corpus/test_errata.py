"""Corpus errata (datasets/errata.json, atlas_assets/corpus/errata.py): the published file
is valid and names real rows, the lock still holds, faults are errors naming the file and
the field, a pin catches an edited erratum, and the published JSON Schema has not drifted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from atlas_assets.core.hashing import sha256_file
from atlas_assets.corpus import errata, registry, validate
from tests.helpers.corpus import ROOT, read_rows

CHECK = ROOT / "_gen" / "check.py"
REPO = ROOT.parent

# the three rows the corpus review found (rows themselves verified in the test below)
REVIEWED = {("eval-security-v2", "sec2-0209"), ("eval-commonsense-v2", "common2-0114"), ("eval-commonsense-v2", "common2-0124")}


def _entry(eid: str, dataset: str, row: str, reason: str = "the key is ambiguous for a stated reason") -> dict:
    return {"id": eid, "dataset": dataset, "row": row, "action": "exclude", "reason": reason, "reference": "a test", "date": "2026-12-01"}


def _write(root: Path, *entries: dict) -> Path:
    path = root / errata.ERRATA_FILE
    path.write_text(json.dumps({"format_version": 1, "errata": list(entries)}, indent=2))
    return path


def test_the_published_errata_are_valid_name_real_rows_and_cover_the_review():
    published = errata.load_errata(ROOT / errata.ERRATA_FILE)
    assert errata.check_errata(ROOT) == []
    assert validate.errata_problems(ROOT) == []
    pairs = {(e.dataset, e.row) for e in published.errata}
    assert REVIEWED <= pairs
    ids = [e.id for e in published.errata]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    # the three reviewed rows are what the errata say they are
    rows = {r["id"]: r for r in read_rows(ROOT / "eval-security-v2")}
    row = rows["sec2-0209"]
    choices = dict(zip("ABC", row["choices"]))
    assert choices[row["answer"]].startswith("The routing table") and "Main memory (RAM)" in row["choices"]
    rows = {r["id"]: r for r in read_rows(ROOT / "eval-commonsense-v2")}
    for rid, posts in (("common2-0114", 15), ("common2-0124", 35)):
        assert "replaced by gateposts" in rows[rid]["prompt"] and rows[rid]["answer"] == posts


def test_the_errata_file_lives_outside_every_dataset_and_the_lock_holds():
    """Adding errata changed no published byte: every dataset still hashes to its lock entry."""
    lock = registry.read_lock(ROOT)
    specs = {s.id: s for s in registry.discover(ROOT)}
    assert lock and set(lock) <= set(specs)
    for dataset_id, sha in lock.items():
        assert registry.content_sha256(specs[dataset_id].folder, ROOT) == sha, dataset_id
        assert errata.ERRATA_FILE not in registry.dataset_files(specs[dataset_id].folder, ROOT)
    assert [str(p) for p in validate.lock_problems(ROOT, list(specs.values())) if p.severity == "error"] == []


def test_a_missing_row_or_dataset_is_an_error_naming_the_file_and_the_field(tmp_path):
    root = tmp_path / "datasets"
    (root / "eval-commonsense-v2").mkdir(parents=True)
    for name in ("dataset.json", "rows.jsonl"):
        (root / "eval-commonsense-v2" / name).write_bytes((ROOT / "eval-commonsense-v2" / name).read_bytes())
    path = _write(
        root,
        _entry("err-0001", "eval-commonsense-v2", "common2-0114"),
        _entry("err-0002", "eval-commonsense-v2", "common2-9999"),
        _entry("err-0003", "eval-nope-v9", "nope-0001"),
    )
    problems = [str(p) for p in errata.check_errata(root)]
    assert problems == [
        f"{path}: errata[1].row: err-0002: eval-commonsense-v2 has no row 'common2-9999'",
        f"{path}: errata[2].dataset: err-0003: no dataset 'eval-nope-v9' in {root}",
    ]
    # the corpus validation reports them as corpus problems on errata.json's field
    assert [str(p) for p in validate.errata_problems(root)] == [
        "corpus field errata.json:errata[1].row: err-0002: eval-commonsense-v2 has no row 'common2-9999'",
        f"corpus field errata.json:errata[2].dataset: err-0003: no dataset 'eval-nope-v9' in {root}",
    ]
    # a partial check looks only at the errata of the checked datasets
    assert [p.field for p in errata.check_errata(root, only={"eval-commonsense-v2"})] == ["errata[1].row"]


def test_check_py_fails_on_an_erratum_naming_a_missing_row(corpus_copy):
    root = corpus_copy("eval-commonsense-v2")
    _write(root, _entry("err-0001", "eval-commonsense-v2", "common2-9999"))
    proc = subprocess.run(
        [sys.executable, str(CHECK), "--root", str(root), "--dataset", "eval-commonsense-v2", "-q"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "ERROR corpus field errata.json:errata[0].row: err-0001: eval-commonsense-v2 has no row 'common2-9999'" in proc.stdout


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda body: body["errata"][0].update(date="yesterday"), "errata.0.date: Input should be a valid date"),
        (lambda body: body["errata"][0].update(colour="red"), "errata.0.colour: unknown field (not in the schema)"),
        (lambda body: body["errata"][0].update(id="E1"), "errata.0.id: String should match pattern"),
        (lambda body: body["errata"].append(dict(body["errata"][0], row="common2-0124")), "errata[1].id: err-0001 is used twice"),
        (
            lambda body: body["errata"].append(dict(body["errata"][0], id="err-0002")),
            "errata[1].row: eval-commonsense-v2 row common2-0114 already has erratum err-0001",
        ),
        (lambda body: body.update(format_version=2), "format_version: Input should be 1"),
    ],
)
def test_an_invalid_errata_file_names_the_file_and_the_field(tmp_path, mutate, expected):
    body = {"format_version": 1, "errata": [_entry("err-0001", "eval-commonsense-v2", "common2-0114")]}
    mutate(body)
    path = tmp_path / "errata.json"
    path.write_text(json.dumps(body))
    with pytest.raises(errata.ErrataError) as caught:
        errata.load_errata(path)
    assert f"{path}: {expected}" in str(caught.value)
    assert [f"{p}" for p in errata.check_errata(tmp_path, path)][0].startswith(f"{path}: ")


def test_a_pin_applies_only_its_entries_and_catches_an_edited_erratum(tmp_path):
    path = _write(tmp_path, _entry("err-0001", "eval-commonsense-v2", "common2-0114"), _entry("err-0002", "eval-security-v2", "sec2-0209"))
    file = errata.load_errata(path)
    pin = errata.ErrataPin.model_validate(errata.pin_for(file, "eval-commonsense-v2"))
    applied = errata.apply_pin(pin, "eval-commonsense-v2", tmp_path, "workload w")
    assert [e.id for e in applied.entries] == ["err-0001"] and applied.file_sha256 == sha256_file(path)
    assert applied.excluded(["common2-0113", "common2-0114"]).keys() == {"common2-0114"}
    assert errata.apply_pin(None, "eval-commonsense-v2", tmp_path, "workload w").entries == ()
    # a later erratum of the same dataset does not enter an existing pin
    body = json.loads(path.read_text())
    body["errata"].append(_entry("err-0003", "eval-commonsense-v2", "common2-0124"))
    path.write_text(json.dumps(body))
    assert [e.id for e in errata.apply_pin(pin, "eval-commonsense-v2", tmp_path, "workload w").entries] == ["err-0001"]
    # editing a pinned erratum is refused, naming the field
    body["errata"][0]["row"] = "common2-0113"
    path.write_text(json.dumps(body))
    with pytest.raises(errata.ErrataError, match=r"workload w: errata.sha256: pins [0-9a-f]{64} but the entries err-0001 of .* hash to"):
        errata.apply_pin(pin, "eval-commonsense-v2", tmp_path, "workload w")
    with pytest.raises(errata.ErrataError, match=r"workload w: errata.ids: err-0099 not in"):
        errata.apply_pin(errata.ErrataPin(ids=["err-0099"], sha256=pin.sha256), "eval-commonsense-v2", tmp_path, "workload w")
    with pytest.raises(errata.ErrataError, match=r"errata.ids.0: err-0002 is an erratum of eval-security-v2, not of eval-commonsense-v2"):
        errata.apply_pin(errata.ErrataPin(ids=["err-0002"], sha256=pin.sha256), "eval-commonsense-v2", tmp_path, "workload w")


def test_the_published_json_schema_has_not_drifted_and_validates_the_file():
    assert not errata.schema_drift(REPO), "run python -m atlas_assets.corpus.errata --write-schema"
    schema = json.loads((REPO / errata.SCHEMA_REL).read_text())
    assert schema["$id"] == "schemas/errata/1/errata_schema.json"
    assert set(schema["required"]) == {"format_version"} and schema["additionalProperties"] is False
    entry = schema["$defs"]["Erratum"]
    assert {"id", "dataset", "row", "reason", "reference", "date"} <= set(entry["required"])
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(json.loads((ROOT / errata.ERRATA_FILE).read_text()), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"format_version": 1, "errata": [{"id": "err-0001"}]}, schema)


@pytest.mark.parametrize("content", [b"[" * 100_000, b"\xff\xfe not utf-8", b'{"format_version": 1, "errata": ['])
def test_hostile_errata_bytes_are_an_error_naming_the_file(tmp_path, content):
    path = tmp_path / "errata.json"
    path.write_bytes(content)
    with pytest.raises(errata.ErrataError, match=f"^{path}: not readable JSON: "):
        errata.load_errata(path)
