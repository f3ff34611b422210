"""Dataset cards tell the truth: the effective scoring block of every scored card is what
the scorer registry does, corrections never touch published bytes, and the budget counts
every file."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from atlas_assets.corpus import cards, registry, validate
from atlas_assets.corpus.extract import EXTRACTIONS
from atlas_assets.corpus.scorers import SCORERS
from tests.helpers.corpus import ROOT

SPECS = {s.id: s for s in registry.discover(ROOT)}
SCORED = sorted(i for i, s in SPECS.items() if s.card.get("kind") in registry.SCORED_KINDS)


@pytest.fixture(scope="module")
def corrections():
    return cards.load_corrections(ROOT)


@pytest.mark.parametrize("dataset_id", SCORED)
def test_every_scored_card_describes_its_scorers_extraction(dataset_id, corrections, lib):
    card = cards.effective_card(SPECS[dataset_id].card, corrections.for_dataset(dataset_id))
    described = card["scoring"]["extraction"]
    assert set(described) == set(cards.card_scorers(SPECS[dataset_id].card))
    for name, entry in described.items():
        assert entry == {"extraction": SCORERS[name].extraction.name, "steps": list(SCORERS[name].extraction.steps)}
    assert "extraction_skipped_for" not in card["scoring"]


def test_haystack_carries_its_scoring_block(corrections):
    card = cards.effective_card(SPECS["haystack-v1"].card, corrections.for_dataset("haystack-v1"))
    assert "scoring" not in SPECS["haystack-v1"].card  # the published bytes have none
    assert set(card["scoring"]["extraction"]) == {"exact"} and card["scoring"]["accuracy"] == "correct / total"


def test_corrections_leave_published_bytes_alone():
    lock = registry.read_lock(ROOT)
    for dataset_id in SCORED:
        if dataset_id in lock:
            assert registry.content_sha256(SPECS[dataset_id].folder, ROOT) == lock[dataset_id], dataset_id


def test_a_changed_extraction_makes_the_cards_wrong(monkeypatch, lib, corrections):
    spec = SPECS["eval-math-v1"]
    assert cards.scoring_problems(lib, spec.card, corrections.for_dataset(spec.id)) == []
    monkeypatch.setattr(type(SCORERS["numeric"]), "extraction", EXTRACTIONS["raw"])
    assert cards.scoring_problems(lib, spec.card, corrections.for_dataset(spec.id))


def test_write_records_corrections_once_and_appends(corpus_copy, lib):
    root = corpus_copy("eval-math-v1")
    (root / cards.CORRECTIONS_FILE).unlink()
    only = {s.id: s.card for s in registry.discover(root) if s.id == "eval-math-v1"}
    added = cards.write_corrections(root, lib, only, dt.date(2026, 12, 1))
    assert added == ["card-0001"]
    assert cards.write_corrections(root, lib, only, dt.date(2026, 12, 2)) == []  # nothing left to correct
    body = json.loads((root / cards.CORRECTIONS_FILE).read_text())
    assert [c["dataset"] for c in body["corrections"]] == ["eval-math-v1"]
    assert validate.validate_corpus(root, only=["eval-math-v1"]).errors == []


def test_a_card_without_its_correction_fails_check(corpus_copy):
    root = corpus_copy("eval-math-v1")
    body = json.loads((root / cards.CORRECTIONS_FILE).read_text())
    body["corrections"] = [c for c in body["corrections"] if c["dataset"] != "eval-math-v1"]
    (root / cards.CORRECTIONS_FILE).write_text(json.dumps(body))
    errors = [str(p) for p in validate.validate_corpus(root, only=["eval-math-v1"]).errors]
    assert any("eval-math-v1 field dataset.json:scoring: does not describe extraction per scorer" in e for e in errors), errors


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda c: c.update(field="default_scorer"), "corrections.0.field"),
        (lambda c: c.update(id="card-1"), "corrections.0.id"),
        (lambda c: c.update(dataset="eval-nope-v1"), "'eval-nope-v1' is not a dataset folder"),
    ],
)
def test_a_bad_correction_is_named(corpus_copy, edit, message):
    root = corpus_copy("eval-math-v1")
    body = json.loads((root / cards.CORRECTIONS_FILE).read_text())
    body["corrections"] = [c for c in body["corrections"] if c["dataset"] == "eval-math-v1"]
    edit(body["corrections"][0])
    (root / cards.CORRECTIONS_FILE).write_text(json.dumps(body))
    errors = [str(p) for p in validate.validate_corpus(root, only=["eval-math-v1", "eval-nope-v1"]).errors]
    assert any(message in e and "card-corrections.json" in e for e in errors), errors


def test_the_published_schema_is_current():
    assert (cards.REPO_ROOT / cards.SCHEMA_REL).read_bytes() == cards.render_schema()


def test_the_budget_counts_every_file_but_bytecode_caches(corpus_copy):
    root = corpus_copy("eval-math-v1")
    before = validate.corpus_bytes(root)
    (root / "eval-math-v1" / ".hidden").write_bytes(b"x" * 1234)
    (root / ".stash").mkdir()
    (root / ".stash" / "blob.bin").write_bytes(b"y" * 4321)
    (root / "_gen" / "__pycache__").mkdir(exist_ok=True)
    (root / "_gen" / "__pycache__" / "x.pyc").write_bytes(b"z" * 999)
    assert validate.corpus_bytes(root) == before + 1234 + 4321


@pytest.mark.parametrize("content", [b"[" * 100_000, b"\xff\xfe not utf-8", b'{"format_version": 1, "corr'])
def test_hostile_corrections_bytes_are_one_error_naming_the_file(corpus_copy, content):
    root = corpus_copy("eval-math-v1")
    (root / cards.CORRECTIONS_FILE).write_bytes(content)
    errors = [str(p) for p in validate.validate_corpus(root, only=["eval-math-v1"]).errors]
    assert len(errors) == 1 and "card-corrections.json" in errors[0] and "not readable JSON" in errors[0], errors
