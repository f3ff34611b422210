"""Comparing two eval runs of the same workload: per-row differences and an exact McNemar test.

Rows are paired by id over the rows both runs scored. With b = rows only run A got right
and c = rows only run B got right, the exact McNemar test is the two-sided binomial test
of b successes in b + c trials at p = 0.5 (scipy.stats.binomtest); p = 1 when b + c = 0.
Runs must have seen the same dataset bytes (same dataset sha256); differing request
parameters are reported, not refused (comparing two settings is a common question).

Corpus errata: a row that either run took out of its scores (results.json
`scores.excluded`) is not paired, so both accuracies are over the same rows; when the
runs applied different errata (results.json `errata.pinned` / `errata.pin_sha256`) the
comparison says so (`errata_differ`, and `parameter_differences["errata"]`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.documents import CheckpointRecord, RowScore, RunResults
from atlas_assets.evals.results import CHECKPOINT, read_checkpoint, read_results


class RowDiff(BaseModel):
    id: str
    a_correct: bool
    b_correct: bool
    a_extracted: str | None  # the extracted answer, or the scorer's detail when it extracts none
    b_extracted: str | None
    a_error: str | None
    b_error: str | None


class Comparison(BaseModel):
    run_a: str
    run_b: str
    workload: str
    dataset_sha256: str
    engine_a: str
    engine_b: str
    model_a: str
    model_b: str
    paired: int
    accuracy_a: float | None
    accuracy_b: float | None
    both_correct: int
    only_a: int
    only_b: int
    both_wrong: int
    mcnemar_p: float
    parameter_differences: dict[str, list[Any]]
    differences: list[RowDiff]
    errata_a: list[str] = []  # erratum ids run A applied
    errata_b: list[str] = []
    errata_differ: bool = False
    excluded_rows: list[str] = []  # rows left unpaired because either run's errata took them out


def _scored_rows(run_dir: Path, results: RunResults) -> dict[str, tuple[CheckpointRecord, RowScore]]:
    wanted = set(results.run.row_ids)
    records, _ = read_checkpoint(run_dir / CHECKPOINT)
    return {r.id: (r, r.score) for r in records if r.id in wanted and r.score is not None}


def excluded_of(results: RunResults) -> set[str]:
    return {e.id for e in results.scores.excluded} if results.scores else set()


def _verdict_text(score: RowScore) -> str | None:
    """What the scorer read from the output, else why it judged as it did."""
    return score.extracted if score.extracted is not None else score.detail


def mcnemar_exact(only_a: int, only_b: int) -> float:
    if only_a + only_b == 0:
        return 1.0
    from scipy.stats import binomtest

    return float(binomtest(only_a, only_a + only_b, 0.5, alternative="two-sided").pvalue)


def compare_runs(run_a: str | Path, run_b: str | Path) -> Comparison:
    run_a, run_b = Path(run_a), Path(run_b)
    res_a, res_b = read_results(run_a), read_results(run_b)
    if res_a.dataset.sha256 != res_b.dataset.sha256:
        raise ConfigError(
            f"the runs saw different dataset bytes ({res_a.dataset.id} {res_a.dataset.sha256[:12]} vs "
            f"{res_b.dataset.id} {res_b.dataset.sha256[:12]}): their accuracies are not comparable"
        )
    if res_a.scores is None or res_b.scores is None:
        raise ConfigError("compare needs two eval runs (a serve workload has no scores)")
    rows_a, rows_b = _scored_rows(run_a, res_a), _scored_rows(run_b, res_b)
    excluded = excluded_of(res_a) | excluded_of(res_b)
    paired = [i for i in res_a.run.row_ids if i in rows_a and i in rows_b and i not in excluded]
    counts = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}
    diffs = []
    for row_id in paired:
        (a, a_score), (b, b_score) = rows_a[row_id], rows_b[row_id]
        key = (a_score.correct, b_score.correct)
        counts[key] += 1
        if key[0] != key[1]:
            diffs.append(
                RowDiff(
                    id=row_id,
                    a_correct=key[0],
                    b_correct=key[1],
                    a_extracted=_verdict_text(a_score),
                    b_extracted=_verdict_text(b_score),
                    a_error=a.error,
                    b_error=b.error,
                )
            )
    params: dict[str, list[Any]] = {}
    if res_a.sampling != res_b.sampling:
        params["sampling"] = [res_a.sampling.model_dump(mode="json"), res_b.sampling.model_dump(mode="json")]
    if res_a.model != res_b.model:
        params["model"] = [res_a.model, res_b.model]
    errata_a, errata_b = res_a.errata, res_b.errata
    errata_differ = (errata_a.pinned, errata_a.pin_sha256) != (errata_b.pinned, errata_b.pin_sha256)
    if errata_differ:
        params["errata"] = [errata_a.pinned, errata_b.pinned]
    n = len(paired)
    return Comparison(
        run_a=str(run_a),
        run_b=str(run_b),
        workload=res_a.workload.id,
        dataset_sha256=res_a.dataset.sha256,
        engine_a=res_a.engine.name,
        engine_b=res_b.engine.name,
        model_a=res_a.model,
        model_b=res_b.model,
        paired=n,
        accuracy_a=(counts[(True, True)] + counts[(True, False)]) / n if n else None,
        accuracy_b=(counts[(True, True)] + counts[(False, True)]) / n if n else None,
        both_correct=counts[(True, True)],
        only_a=counts[(True, False)],
        only_b=counts[(False, True)],
        both_wrong=counts[(False, False)],
        mcnemar_p=mcnemar_exact(counts[(True, False)], counts[(False, True)]),
        parameter_differences=params,
        differences=diffs,
        errata_a=errata_a.pinned,
        errata_b=errata_b.pinned,
        errata_differ=errata_differ,
        excluded_rows=sorted(i for i in excluded if i in set(res_a.run.row_ids) | set(res_b.run.row_ids)),
    )
