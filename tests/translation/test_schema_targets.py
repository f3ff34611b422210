"""Multi-target corpora: one dataset, many targets (`dataset.targets`, entries' `references`)."""

from __future__ import annotations

import json
import subprocess

import pytest

from atlas_assets.translation.schema import load_corpus, summary, summary_text, validate_data
from atlas_assets.translation.scoring import segments
from tests.helpers.translation import REPO, multi


def problems(doc):
    return [(p.entry, p.field, p.message) for p in validate_data(doc, "t.json").errors]


@pytest.fixture
def multi_doc(example_doc):
    return multi(example_doc)


def test_a_multi_target_corpus_validates_and_names_its_targets(multi_doc):
    report = validate_data(multi_doc)
    assert report.ok and not report.problems
    corpus = report.corpus
    assert corpus.is_multi_target and corpus.targets == ("fr", "de-CH")
    assert summary(corpus)["targets"] == ["fr", "de-CH"]
    assert "  targets (2): fr, de-CH" in summary_text(corpus).splitlines()


def test_a_single_target_corpus_is_its_own_view(example_doc):
    corpus = validate_data(example_doc).corpus
    assert not corpus.is_multi_target and corpus.targets == ("fr",)
    assert corpus.for_target("fr") is corpus
    assert summary(corpus)["targets"] == ["fr"] and "targets (" not in summary_text(corpus)
    with pytest.raises(KeyError, match=r"'de' is not a target of corpus example-en-fr-v1 \(targets: fr\)"):
        corpus.for_target("de")


def test_the_view_of_one_target_is_an_ordinary_single_target_corpus(multi_doc, example_doc):
    corpus = validate_data(multi_doc).corpus
    view = corpus.for_target("de-CH")
    assert not view.is_multi_target and view.targets == ("de-CH",)
    assert (view.dataset.target_language, view.dataset.targets, view.dataset.language_pair) == ("de-CH", None, "en→de-CH")
    assert view.dataset.id == corpus.dataset.id and view.dataset.license == corpus.dataset.license
    first = view.entries[0]
    assert (first.reference, first.references) == ("[de-CH] " + example_doc["entries"][0]["reference"], None)
    dumped = json.loads(view.model_dump_json(exclude_none=True))
    assert "targets" not in dumped["dataset"] and all("references" not in e for e in dumped["entries"])
    again = validate_data(dumped)
    assert again.ok and again.corpus == view
    french = corpus.for_target("fr")
    assert [e.reference for e in french.entries] == [e["reference"] for e in example_doc["entries"]]
    assert [s.references for s in segments(french)] == [s.references for s in segments(validate_data(example_doc).corpus)]
    with pytest.raises(KeyError, match=r"'DE-CH' is not a target of corpus example-multi \(targets: fr, de-CH\)"):
        corpus.for_target("DE-CH")


def test_the_loaded_view_keeps_the_file_and_its_sha(multi_doc, write_corpus):
    path = write_corpus(multi_doc)
    loaded = load_corpus(path)
    assert loaded.targets == ("fr", "de-CH")
    view = loaded.for_target("fr")
    assert (view.path, view.sha256, view.id) == (loaded.path, loaded.sha256, "example-multi")
    assert view.corpus.dataset.target_language == "fr" and view.targets == ("fr",)
    assert loaded.for_target("de-CH").corpus.entries[0].reference.startswith("[de-CH]")
    with pytest.raises(KeyError):
        loaded.for_target("it")


def _both(d):
    d["dataset"]["target_language"] = "fr"


def _neither(d):
    d["dataset"].pop("targets")


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (_both, (None, "dataset.targets", "exactly one of target_language (a single-target corpus) or targets")),
        (_both, (None, "dataset.targets", "this block has both")),
        (_neither, (None, "dataset.targets", "this block has neither")),
        (lambda d: d["dataset"].update(targets=[]), (None, "dataset.targets", "at least one target")),
        (lambda d: d["dataset"].update(targets="fr"), (None, "dataset.targets", "valid list")),
        (lambda d: d["dataset"].update(targets=["fr", "fr_CA"]), (None, "dataset.targets.1", "'fr_CA' is not a well-formed BCP 47")),
        (lambda d: d["dataset"].update(targets=["fr", 7]), (None, "dataset.targets.1", "valid string")),
        (
            lambda d: d["dataset"].update(targets=["fr", "de-CH", "FR"]),
            (None, "dataset.targets", "duplicate target(s), compared ignoring case: FR (also fr)"),
        ),
        (
            lambda d: d["dataset"].update(targets=["fr", "de-CH", "fr"]),
            (None, "dataset.targets", "duplicate target(s), compared ignoring case: fr"),
        ),
        (lambda d: d["entries"][0]["references"].pop("de-CH"), ("1", "references.de-CH", "missing: dataset.targets lists de-CH")),
        (lambda d: d["entries"][0]["references"].update(it="x"), ("1", "references.it", "not one of dataset.targets (fr, de-CH)")),
        (
            lambda d: d["entries"][0]["references"].update({"de-ch": d["entries"][0]["references"].pop("de-CH")}),
            ("1", "references.de-ch", "not one of dataset.targets (fr, de-CH) (tags are matched exactly: write de-CH)"),
        ),
        (
            lambda d: d["entries"][0]["references"].update({"de-ch": d["entries"][0]["references"].pop("de-CH")}),
            ("1", "references.de-CH", "missing"),
        ),
        (lambda d: d["entries"][0]["references"].update(fr=3), ("1", "references.fr", "valid string (got int")),
        (lambda d: d["entries"][0]["references"].update(fr=None), ("1", "references.fr", "valid string")),
        (lambda d: d["entries"][0]["references"].update(fr=["a"]), ("1", "references.fr", "valid string")),
        (lambda d: d["entries"][0]["references"].update(fr=" \n"), ("1", "references.fr", "must not be empty")),
        (lambda d: d["entries"][0].update(references=["fr", "de-CH"]), ("1", "references", "valid dictionary")),
        (lambda d: d["entries"][0].update(references={}), ("1", "references.fr", "missing")),
        (lambda d: d["entries"][0].pop("references"), ("1", "references", "required field is missing")),
        (lambda d: d["entries"][0].update(reference="x"), ("1", "reference", "gives references {tag: text}, not reference")),
        (lambda d: d["entries"][1].update(source="Hi"), ("2", "variant_class", "source differs")),
        (lambda d: d["entries"][0]["references"].update({"a\nb": "x"}), ("1", "references.'a\\nb'", "not one of dataset.targets")),
    ],
)
def test_every_multi_target_error_names_entry_and_field(multi_doc, mutate, expected):
    mutate(multi_doc)
    found = problems(multi_doc)
    entry, field, fragment = expected
    assert any(e == entry and f == field and fragment in m for e, f, m in found), found


def test_references_in_a_single_target_corpus_are_an_error(example_doc):
    example_doc["entries"][0]["references"] = {"fr": "Bonjour"}
    assert problems(example_doc) == [
        (
            "1",
            "references",
            "only an entry of a multi-target corpus (dataset.targets) has references; "
            "this corpus has dataset.target_language: give reference",
        )
    ]


def test_a_broken_block_still_gets_its_entries_checked(multi_doc):
    multi_doc["dataset"]["source_language"] = "en_GB"
    multi_doc["entries"][3]["references"].pop("fr")
    multi_doc["entries"][4]["reference"] = "x"
    assert {(e, f) for e, f, _ in problems(multi_doc)} == {(None, "dataset.source_language"), ("4", "references.fr"), ("5", "reference")}
    multi_doc["dataset"]["targets"] = ["fr", 3]  # targets not known: only the shape of each entry is checked
    assert {(e, f) for e, f, _ in problems(multi_doc)} == {
        (None, "dataset.source_language"),
        (None, "dataset.targets.1"),
        ("5", "reference"),
    }


def test_a_huge_target_list_is_validated_fast_and_reported_briefly(example_doc):
    targets = [f"x-t{n:05d}" for n in range(5000)]
    doc = multi(example_doc, targets)
    report = validate_data(doc)
    view = report.corpus.for_target("x-t04999")
    assert report.ok and len(report.corpus.targets) == 5000 and view.entries[0].reference.startswith("[x-t04999]")
    doc["entries"][0]["references"]["bogus"] = "x"
    del doc["entries"][1]["references"]["x-t00007"]
    found = problems(doc)
    ((_, _, extra),) = [p for p in found if p[1] == "references.bogus"]
    assert extra.endswith("x-t00009, ... (5000 in all))") and len(extra) < 200
    assert [p[1] for p in found if p[0] == "2"] == ["references.x-t00007"]


def test_the_cli_validates_a_multi_target_file(multi_doc, write_corpus):
    path = write_corpus(multi_doc, "multi.json")
    result = subprocess.run(
        [str(REPO / ".venv" / "bin" / "atlas"), "translation", "validate", str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "example-multi v1.0 (EN→FR): 26 entries" in result.stdout and "  targets (2): fr, de-CH" in result.stdout
    multi_doc["entries"][0]["references"]["DE-CH"] = multi_doc["entries"][0]["references"].pop("de-CH")
    result = subprocess.run(
        [str(REPO / ".venv" / "bin" / "atlas"), "translation", "validate", str(write_corpus(multi_doc, "bad.json"))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "entry 1 field references.DE-CH: not one of dataset.targets (fr, de-CH) (tags are matched exactly: write de-CH)" in result.stderr
    assert "entry 1 field references.de-CH: missing: dataset.targets lists de-CH" in result.stderr
