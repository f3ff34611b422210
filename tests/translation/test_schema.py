from __future__ import annotations

import copy

import pytest

from atlas_assets.cli import main
from atlas_assets.translation.schema import is_bcp47, summary, validate_data, validate_file
from tests.helpers.translation import EXAMPLE


def problems(doc):
    return [(p.entry, p.field, p.message) for p in validate_data(doc, "t.json").errors]


def test_example_corpus_is_valid_and_marked_as_example():
    report = validate_file(EXAMPLE)
    assert report.ok and not report.problems
    assert "EXAMPLE" in report.corpus.dataset.description
    s = summary(report.corpus)
    assert set(s["by_difficulty"]) == {"1", "2", "3", "4", "5"}
    assert s["variant_classes"] == 3


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda d: d["dataset"].pop("license"), (None, "dataset.license", "required field is missing")),
        (lambda d: d["entries"][0].pop("reference"), ("1", "reference", "required field is missing")),
        (lambda d: d["entries"][0].update(difficulty=6), ("1", "difficulty", "less than or equal to 5")),
        (lambda d: d["entries"][0].update(difficulty=0), ("1", "difficulty", "greater than or equal to 1")),
        (lambda d: d["entries"][0].update(difficulty="2"), ("1", "difficulty", "valid integer")),
        (lambda d: d["entries"][0].update(id="1"), ("#0", "id", "valid integer")),
        (lambda d: d["entries"][0].update(id=True), ("#0", "id", "valid integer")),
        (lambda d: d["entries"][1].update(id=1), ("1", "id", "duplicate id")),
        (lambda d: d["entries"][0].update(provenance="hearsay"), ("1", "provenance", "not one of the dataset block's provenance tags")),
        (lambda d: d["entries"][0].update(colour="red"), ("1", "colour", "unknown field")),
        (lambda d: d["entries"][0].update(source="  "), ("1", "source", "must not be empty")),
        (lambda d: d["entries"][0].update(notes=3), ("1", "notes", "valid string")),
        (lambda d: d["entries"][1].update(source="Hi"), ("2", "variant_class", "source differs")),
        (lambda d: d["dataset"].update(source_language="en_GB"), (None, "dataset.source_language", "BCP 47")),
        (lambda d: d["dataset"].update(target_language="fr_FR"), (None, "dataset.target_language", "BCP 47")),
        (
            lambda d: d["dataset"].update(license="CC BY 4.0"),
            (None, "dataset.license", "'CC BY 4.0' is not an SPDX licence id (did you mean CC-BY-4.0?)"),
        ),
        (lambda d: d["dataset"].update(created="01/06/2025"), (None, "dataset.created", "ISO 8601")),
        (lambda d: d["dataset"].update(version="v1"), (None, "dataset.version", "semantic version")),
        (lambda d: d["dataset"].update(id="My Dataset"), (None, "dataset.id", "slug")),
        (lambda d: d["dataset"].update(provenance=[]), (None, "dataset.provenance", "at least one")),
        (lambda d: d["dataset"].update(provenance=["authored", "authored"]), (None, "dataset.provenance", "duplicate tag")),
        (lambda d: d["dataset"].update(extra=1), (None, "dataset.extra", "unknown field")),
        (lambda d: d.update(meta={}), (None, "meta", "unknown top-level field")),
        (lambda d: d.pop("entries"), (None, "entries", "required list is missing")),
        (lambda d: d.update(entries=[]), (None, "entries", "no entries")),
        (lambda d: d.pop("dataset"), (None, "dataset", "required block is missing")),
    ],
)
def test_every_error_class_names_entry_and_field(example_doc, mutate, expected):
    mutate(example_doc)
    found = problems(example_doc)
    entry, field, fragment = expected
    assert any(e == entry and f == field and fragment in m for e, f, m in found), found


def test_every_problem_is_reported_not_just_the_first(example_doc):
    doc = copy.deepcopy(example_doc)
    doc["dataset"]["source_language"] = "??"
    doc["entries"][0]["difficulty"] = 9
    doc["entries"][3].pop("context")
    doc["entries"][5]["id"] = doc["entries"][4]["id"]
    found = problems(doc)
    assert {(e, f) for e, f, _ in found} >= {(None, "dataset.source_language"), ("1", "difficulty"), ("4", "context"), ("5", "id")}


def test_an_id_off_the_spdx_list_is_an_error_and_a_deprecated_one_a_warning(example_doc):
    example_doc["dataset"]["license"] = "Foo-License-1.0"
    report = validate_data(example_doc)
    assert not report.ok and [(p.field, p.message) for p in report.errors] == [
        ("dataset.license", "'Foo-License-1.0' is not an SPDX licence id; a licence outside the SPDX list is written LicenseRef-<name>")
    ]
    example_doc["dataset"]["license"] = "GPL-3.0"
    report = validate_data(example_doc)
    assert report.ok and [(p.field, p.message) for p in report.warnings] == [
        (
            "dataset.license",
            "'GPL-3.0' is a deprecated or informal SPDX id: write GPL-3.0-only (or GPL-3.0-or-later for this version or later)",
        )
    ]


@pytest.mark.parametrize(
    "tag, ok",
    [
        ("en", True),
        ("crk", True),
        ("pt-BR", True),
        ("zh-Hant-TW", True),
        ("eng-Latn", True),
        ("es-419", True),
        ("en_US", False),
        ("e", False),
        ("english1", False),
    ],
)
def test_bcp47(tag, ok):
    assert is_bcp47(tag) is ok


def test_cli_validate(tmp_path, example_doc, write_corpus, capsys):
    assert main(["translation", "validate", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "26 entries" in out and "by difficulty: 1 5" in out and "by register:" in out and "by provenance: authored 26" in out
    example_doc["entries"][2].pop("source")
    example_doc["entries"][7]["difficulty"] = 11
    bad = write_corpus(example_doc)
    assert main(["translation", "validate", str(EXAMPLE), str(bad)]) == 1
    err = capsys.readouterr().err
    assert "entry 3 field source: required field is missing" in err and "entry 8 field difficulty" in err
    (tmp_path / "broken.json").write_text("{not json")
    assert main(["translation", "validate", str(tmp_path / "broken.json")]) == 1
    assert "not valid JSON" in capsys.readouterr().err


@pytest.mark.parametrize(
    "corpus_id, says",
    [
        ("x...y", "corpus id: contains '...' (Dagster's partition-range separator)"),
        ("a" * 201, "corpus id: is 201 bytes long in UTF-8"),
        ("a|b", "must be a slug"),
        ("a,b", "must be a slug"),
        ("a[b]", "must be a slug"),
        ("", "must be a slug"),
        (" lead", "must be a slug"),
        ("a\nb", "must be a slug"),
        ("modèle", "must be a slug"),
    ],
)
def test_a_corpus_id_dagster_cannot_take_is_an_error_of_the_dataset_id(example_doc, corpus_id, says):
    example_doc["dataset"]["id"] = corpus_id
    ((entry, field, message),) = problems(example_doc)
    assert (entry, field) == (None, "dataset.id") and message.startswith(says)


def test_the_corpora_report_keeps_the_valid_corpora_and_reports_the_rest(tmp_path, example_doc, write_corpus):
    from atlas_assets.translation.corpora import load_corpora_report

    good = write_corpus(example_doc, "good.json")
    again = write_corpus(example_doc, "good-again.json")  # the same id: neither is loaded
    example_doc["dataset"]["id"] = "x...y"
    bad = write_corpus(example_doc, "x...y.json")
    example_doc["dataset"]["id"] = "other"
    other = write_corpus(example_doc, "other.json")
    (tmp_path / "a|b.json").write_text("{not json")
    report = load_corpora_report(tmp_path)
    assert report.names == ["other"] and report.entries["other"].path == other
    unreadable, *rest = map(str, report.problems)
    assert unreadable.startswith(f"{tmp_path / 'a|b.json'}: file: not valid JSON")
    clash = (
        f"'example-en-fr-v1' is the dataset id of 2 files ({again}, {good}): an id names one corpus, "
        "so none of them is used until each has its own"
    )
    assert rest == [
        f"{again}: dataset field dataset.id: {clash}",
        f"{good}: dataset field dataset.id: {clash}",
        f"{bad}: dataset field dataset.id: corpus id: contains '...' (Dagster's partition-range separator)",
    ]


def test_cli_validate_refuses_a_corpus_id_dagster_cannot_take(tmp_path, example_doc, write_corpus):
    import subprocess
    import sys

    from tests.helpers.translation import REPO

    good = write_corpus(example_doc, "good.json")
    example_doc["dataset"]["id"] = "x...y"
    bad = write_corpus(example_doc, "bad.json")
    result = subprocess.run(
        [sys.executable, "-m", "atlas_assets.cli", "translation", "validate", str(good), str(bad)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert result.returncode == 1
    assert f"ERROR {bad}: dataset field dataset.id: corpus id: contains '...' (Dagster's partition-range separator)" in result.stderr
    assert f"{bad}: INVALID (1 error(s))" in result.stderr
    assert "example-en-fr-v1 v1.0" in result.stdout and "26 entries" in result.stdout  # the good file is still summarized
