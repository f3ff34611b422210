"""For every eval dataset in datasets/: each row's reference answer passes its own scorer
and a perturbed one fails. Datasets are discovered, so part 2's datasets are covered as
soon as they land."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from atlas_assets.corpus.reference import perturbed_output, reference_output
from atlas_assets.corpus.scorers import SCORERS, score, scorer_name

DATASETS = Path(__file__).resolve().parents[2] / "datasets"


def _eval_datasets() -> list[tuple[str, dict, Path]]:
    found = []
    for card_path in sorted(DATASETS.glob("*/dataset.json")):
        card = json.loads(card_path.read_text(encoding="utf-8"))
        rows_path = card_path.parent / card.get("rows_file", "rows.jsonl")
        if card.get("kind") == "eval" and rows_path.is_file() and rows_path.stat().st_size:
            found.append((card["id"], card, rows_path))
    return found


EVAL_DATASETS = _eval_datasets()


def _rows(rows_path: Path) -> list[dict]:
    return [json.loads(line) for line in rows_path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_datasets_are_discovered():
    assert "eval-instruction-v1" in {d[0] for d in EVAL_DATASETS}


@pytest.mark.parametrize("dataset_id, card, rows_path", EVAL_DATASETS, ids=[d[0] for d in EVAL_DATASETS])
def test_reference_passes_and_perturbation_fails(dataset_id, card, rows_path):
    default = card.get("default_scorer")
    rows = _rows(rows_path)
    assert rows, dataset_id
    problems = []
    for row in rows:
        name = scorer_name(row, default)
        assert name in SCORERS
        if SCORERS[name].runs_code and len(rows) > 50 and rows.index(row) % 5:
            continue  # sandboxed execution is ~0.1 s a run: a fifth of a large code set suffices
        good = score(row, reference_output(row, default), default)
        bad = score(row, perturbed_output(row, default), default)
        if not good.correct:
            problems.append(f"{row['id']}: reference rejected ({good.detail})")
        if bad.correct:
            problems.append(f"{row['id']}: perturbed answer accepted")
    assert not problems, f"{dataset_id}: " + "; ".join(problems[:10])
