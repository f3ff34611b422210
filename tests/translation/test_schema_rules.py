"""Validation rules of #15 d6: one difficulty/register/context per variant class, no stray
newlines or whitespace in ids, tags, versions and licences, one file per dataset id."""

from __future__ import annotations

import copy
import subprocess

import pytest

from atlas_assets.translation.corpora import duplicate_ids, load_corpora_report
from atlas_assets.translation.schema import is_bcp47, validate_data, validate_file
from tests.helpers.translation import EXAMPLE, REPO

ATLAS = str(REPO / ".venv" / "bin" / "atlas")


def problems(doc):
    return [(p.entry, p.field, p.message) for p in validate_data(doc, "t.json").errors]


def class_members(doc, name):
    return [e for e in doc["entries"] if e.get("variant_class") == name]


@pytest.mark.parametrize("field, value", [("difficulty", 5), ("register", "ceremonial"), ("context", "farewell")])
def test_a_variant_class_has_one_difficulty_register_and_context(example_doc, field, value):
    first, second, *_ = class_members(example_doc, "hello")
    assert first[field] != value
    second[field] = value
    assert problems(example_doc) == [
        (
            str(second["id"]),
            field,
            f"{value!r} differs from {first[field]!r} of entry {first['id']}, the first of variant class 'hello': "
            f"a class is one scored segment with one {field} (give every entry of the class the same)",
        )
    ]


def test_every_conflict_of_a_class_is_reported(example_doc):
    first, *rest = class_members(example_doc, "hello")
    for entry in rest:
        entry.update(difficulty=5 if first["difficulty"] != 5 else 4, register="x", context="y", source="Other")
    found = {(e, f) for e, f, _ in problems(example_doc)}
    assert found == {(str(e["id"]), f) for e in rest for f in ("difficulty", "register", "context", "variant_class")}


def test_a_multi_target_class_follows_the_same_rule(example_doc):
    from tests.helpers.translation import multi

    doc = multi(example_doc)
    first, second, *_ = class_members(doc, "hello")
    second["register"] = "formal" if first["register"] != "formal" else "conversational"
    assert [(e, f) for e, f, _ in problems(doc)] == [(str(second["id"]), "register")]


STRAY = ["\n", "\r\n", " ", "\t"]


@pytest.mark.parametrize(
    "where, field, value",
    [
        ("dataset", "id", "example-en-fr-v1"),
        ("dataset", "version", "1.0"),
        ("dataset", "created", "2025-06-01"),
        ("dataset", "license", "CC0-1.0"),
        ("dataset", "source_language", "en"),
        ("dataset", "target_language", "fr"),
        ("dataset", "language_pair", "EN→FR"),
        ("provenance", "provenance.0", "authored"),
        ("entry", "provenance", "authored"),
        ("entry", "register", "conversational"),
        ("entry", "context", "greeting"),
        ("entry", "variant_class", "hello"),
    ],
)
@pytest.mark.parametrize("stray", STRAY)
@pytest.mark.parametrize("end", ["after", "before"])
def test_a_stray_newline_or_space_is_an_error_of_its_field(example_doc, where, field, value, stray, end):
    bad = value + stray if end == "after" else stray + value
    if where == "dataset":
        example_doc["dataset"][field] = bad
    elif where == "provenance":
        example_doc["dataset"]["provenance"] = [bad]
        for entry in example_doc["entries"]:
            entry["provenance"] = bad
    else:
        example_doc["entries"][0][field] = bad
    found = problems(example_doc)
    expected_field = field if where == "entry" else f"dataset.{field}"
    mine = [m for e, f, m in found if f == expected_field]
    assert mine, found
    assert any(w in mine[0] for w in ("newline", "control character", "leading or trailing whitespace")), mine
    assert repr(bad) in mine[0] or field == "id", mine  # the value is shown with its newline escaped
    if where == "entry":  # the field's own error: not a provenance mismatch or a variant-class conflict on top
        assert [f for e, f, _ in found] == [field] or field in ("provenance", "variant_class"), found


def test_a_stray_newline_in_a_target_tag_or_a_reference_key(example_doc):
    from tests.helpers.translation import multi

    doc = multi(example_doc, targets=("fr", "de\n"))
    assert (
        "dataset.targets.1",
        "'de\\n' is not a well-formed BCP 47 language tag (e.g. en, crk, pt-BR, zh-Hant) (it contains a newline or another control character)",
    ) in [(f, m) for _, f, m in problems(doc)]
    doc = multi(example_doc)
    doc["entries"][0]["references"]["fr\n"] = doc["entries"][0]["references"].pop("fr")
    assert [(e, f) for e, f, _ in problems(doc)] == [("1", "references.fr"), ("1", "references.'fr\\n'")]


@pytest.mark.parametrize("tag", ["en\n", "en ", " en", "pt-BR\n", "x-abc\n", "en\nfr"])
def test_bcp47_refuses_a_tag_with_a_newline(tag):
    assert not is_bcp47(tag)


def test_the_dataset_id_names_a_trailing_newline(example_doc):
    example_doc["dataset"]["id"] = "example-en-fr-v1\n"
    assert problems(example_doc) == [
        (
            None,
            "dataset.id",
            "must be a slug: lowercase letters, digits, '.', '_' or '-' (e.g. edtekla-dev-v1) "
            "(it contains a newline or another control character)",
        )
    ]


def test_free_text_may_hold_newlines(example_doc):
    example_doc["entries"][0].update(source="Hello\n", reference="Bonjour\n", notes="two\nlines")
    example_doc["dataset"]["description"] += "\n"
    assert problems(example_doc) == []


def test_files_sharing_an_id_are_all_named_and_none_is_loaded(tmp_path, example_doc, write_corpus):
    paths = [write_corpus(example_doc, f"{name}.json") for name in ("a", "b", "c")]
    example_doc["dataset"]["id"] = "solo"
    solo = write_corpus(example_doc, "solo.json")
    report = load_corpora_report(tmp_path)
    assert report.names == ["solo"] and report.entries["solo"].path == solo
    assert [(p.path, p.field) for p in report.problems] == [(str(p), "dataset.id") for p in paths]
    assert all(f"'example-en-fr-v1' is the dataset id of 3 files ({', '.join(map(str, paths))})" in p.message for p in report.problems)


def test_the_same_file_twice_is_not_a_clash_but_an_invalid_file_is_not_counted(tmp_path, example_doc, write_corpus):
    path = write_corpus(example_doc, "a.json")
    assert duplicate_ids([validate_file(path), validate_file(tmp_path / "." / "a.json")]) == []
    broken = copy.deepcopy(example_doc)
    broken["entries"][0]["difficulty"] = 9  # the same id, but not a corpus: only its own error
    assert duplicate_ids([validate_file(path), validate_file(write_corpus(broken, "b.json"))]) == []


def test_the_cli_refuses_files_that_share_an_id(tmp_path, example_doc, write_corpus):
    copy_path = write_corpus(example_doc, "copy.json")
    result = subprocess.run([ATLAS, "translation", "validate", str(EXAMPLE), str(copy_path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    clash = (
        f"'example-en-fr-v1' is the dataset id of 2 files ({EXAMPLE}, {copy_path}): an id names one corpus, "
        "so none of them is used until each has its own"
    )
    assert f"ERROR {EXAMPLE}: dataset field dataset.id: {clash}" in result.stderr
    assert f"ERROR {copy_path}: dataset field dataset.id: {clash}" in result.stderr
    assert f"{EXAMPLE}: INVALID (1 error(s))" in result.stderr and f"{copy_path}: INVALID (1 error(s))" in result.stderr
    example_doc["dataset"]["id"] = "another"
    result = subprocess.run(
        [ATLAS, "translation", "validate", "-q", str(EXAMPLE), str(write_corpus(example_doc, "another.json")), str(EXAMPLE)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
