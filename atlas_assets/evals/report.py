"""What a user reads first about an eval run, as ordered facts (no Dagster import).

    run_facts(results, records, rows) -> list[Fact]

From results.json, the run's checkpoint records (row id -> record) and the selected
dataset rows (for the expected answers), in this order: accuracy and its 95 % Wilson
score interval, correct/total, accuracy by difficulty and by category (by scorer too when
the rows use more than one), failed requests grouped by reason, retries, throughput,
the latency table, the first wrong or failed rows, then what the run was (model, dataset,
rows sent and resumed, errata, the content sha256). A serve workload has no scores: its
facts start at the failed requests.

The interval is Wilson's score interval (`scipy.stats.binomtest(...).proportion_ci`,
method "wilson"): unlike the normal approximation it stays inside [0, 1] and keeps its
coverage near 0 % and 100 %, where small eval sets often are.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Mapping, Protocol, Sequence, TypeVar

from scipy.stats import binomtest

from atlas_assets.core.facts import Fact, fact
from atlas_assets.core.markdown import cell, table
from atlas_assets.evals.documents import Breakdown, CheckpointRecord, Metrics, RunResults, Scores, in_reading_order

__all__ = ["accuracy_interval", "failures_by_reason", "group_failures", "latency_table", "run_facts", "wilson_interval"]

WRONG_ROWS_SHOWN = 20
_LATENCIES = (("TTFT", "ttft_ms"), ("TPOT", "tpot_ms"), ("ITL", "itl_ms"), ("E2E", "e2e_ms"))


def wilson_interval(correct: int, total: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """Wilson score interval of correct/total; None without rows."""
    if total <= 0:
        return None
    ci = binomtest(correct, total).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def _bounds(correct: int, total: int) -> str:
    low, high = wilson_interval(correct, total) or (0.0, 0.0)
    return f"[{low * 100:.1f}, {high * 100:.1f}]"


def accuracy_interval(correct: int, total: int) -> str:
    """`71.2 % [66.1, 75.8] (Wilson, n=328)`."""
    if total <= 0:
        return "no scored rows"
    return f"{correct / total * 100:.1f} % {_bounds(correct, total)} (Wilson, n={total})"


def breakdown_table(dimension: str, groups: Mapping[str, Breakdown]) -> str:
    """One row per group of results.json's `scores.by_<dimension>`, with its interval."""
    rows = [
        [cell(key), f"{g.correct}/{g.total}", f"{g.accuracy * 100:.1f} %", _bounds(g.correct, g.total), str(g.failed)]
        for key, g in in_reading_order(dimension, groups)
    ]
    return table([dimension, "correct/total", "accuracy", "95 % CI (Wilson)", "failed"], rows, "lrrrr")


def latency_table(metrics: Metrics) -> str:
    """TTFT, TPOT, ITL and E2E: mean, p50, p90, p99 in milliseconds."""
    rows = []
    for name, key in _LATENCIES:
        stats = getattr(metrics, key)
        rows.append([name, *("—" if v is None else f"{v:.2f}" for v in (stats.mean, stats.p50, stats.p90, stats.p99))])
    return table(["ms", "mean", "p50", "p90", "p99"], rows, "lrrrr")


class FailedRequest(Protocol):
    """What a failure says of itself (a checkpoint record, results.json's or a run card's failure)."""

    @property
    def error(self) -> str | None: ...
    @property
    def error_kind(self) -> str | None: ...
    @property
    def status(self) -> int | None: ...


F = TypeVar("F", bound=FailedRequest)


def _reason(failure: FailedRequest) -> str:
    kind, status = failure.error_kind or "error", failure.status
    return f"{kind} (HTTP {status})" if isinstance(status, int) and status >= 400 else kind  # a drop mid-body has 200


def group_failures(failures: Iterable[F]) -> list[tuple[str, list[F]]]:
    """Failed requests by reason (the error class, with the HTTP status the server answered
    with), the largest group first."""
    groups: dict[str, list[F]] = defaultdict(list)
    for failure in failures:
        groups[_reason(failure)].append(failure)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def failures_by_reason(failures: Iterable[FailedRequest], id_field: str = "id", shown: int = 5) -> str:
    """The failures per reason as markdown: count, some of its rows (their `id_field`) and one message."""
    rows = []
    for reason, members in group_failures(failures):
        ids = ", ".join(f"`{cell(getattr(m, id_field), 40)}`" for m in members[:shown])
        more = f" +{len(members) - shown} more" if len(members) > shown else ""
        rows.append([cell(reason), str(len(members)), ids + more, cell(members[0].error, 120)])
    return table(["reason", "requests", "rows", "example"], rows, "lrll")


def reason_of(record: CheckpointRecord | None) -> str:
    """Why a row is not right: its error, else the scorer's detail, else 'wrong answer'."""
    if record is None:
        return "not run"
    if record.error:
        return f"{record.error_kind or 'error'}: {record.error}"
    if record.score is not None and record.score.correct:
        return "correct"
    return str((record.score and record.score.detail) or "wrong answer")


def _wrong_rows(
    results: RunResults, records: Mapping[str, CheckpointRecord], rows: Sequence[Mapping[str, Any]]
) -> tuple[list[list[str]], int]:
    expected = {str(r["id"]): r.get("answer") for r in rows}
    excluded = {e.id for e in results.scores.excluded} if results.scores else set()
    out: list[list[str]] = []
    count = 0
    for row_id in results.run.row_ids:
        record = records.get(row_id)
        score = record.score if record else None
        if score is None or row_id in excluded or score.correct:
            continue
        count += 1
        if len(out) < WRONG_ROWS_SHOWN:
            out.append([f"`{cell(row_id, 40)}`", cell(expected.get(row_id)), cell(score.extracted), cell(reason_of(record), 120)])
    return out, count


def wrong_rows_table(results: RunResults, records: Mapping[str, CheckpointRecord], rows: Sequence[Mapping[str, Any]]) -> str | None:
    """The first WRONG_ROWS_SHOWN wrong or failed rows in run order; None when there is none."""
    shown, count = _wrong_rows(results, records, rows)
    if not count:
        return None
    head = f"{len(shown)} of {count} wrong or failed rows, in run order\n\n" if count > len(shown) else ""
    return head + table(["row", "expected", "extracted", "reason"], shown)


def _score_facts(scores: Scores) -> list[Fact]:
    facts = []
    if scores.accuracy is not None:
        facts.append(fact("accuracy", scores.accuracy))
    facts += [
        fact("accuracy_95ci", accuracy_interval(scores.correct, scores.total)),
        fact("correct", scores.correct),
        fact("total", scores.total),
    ]
    for dimension in ("difficulty", "category", "scorer"):
        groups = getattr(scores, f"by_{dimension}")
        if groups and (dimension != "scorer" or len(groups) > 1):
            facts.append(fact(f"accuracy_by_{dimension}", breakdown_table(dimension, groups), "md"))
    return facts


def _serving_facts(metrics: Metrics, records: Mapping[str, CheckpointRecord]) -> list[Fact]:
    facts = [fact("requests_failed", metrics.requests_failed)]
    failed = [r for r in records.values() if r.error is not None]
    if failed:
        facts.append(fact("failures_by_reason", failures_by_reason(failed), "md"))
    attempts = [r.attempts or 1 for r in records.values()]
    facts += [
        fact("requests_retried", sum(1 for a in attempts if a > 1)),
        fact("retries", sum(a - 1 for a in attempts)),
        fact("retry_wait (s)", round(sum(r.retry_wait_s for r in records.values()), 3)),
    ]
    for value, name in (
        (metrics.request_throughput, "request_throughput (req/s)"),
        (metrics.output_token_throughput, "output_throughput (tok/s)"),
        (metrics.total_token_throughput, "total_token_throughput (tok/s)"),
    ):
        if value is not None:
            facts.append(fact(name, value))
    facts.append(fact("latency (ms)", latency_table(metrics), "md"))
    return facts


def run_facts(results: RunResults, records: Mapping[str, CheckpointRecord], rows: Sequence[Mapping[str, Any]] = ()) -> list[Fact]:
    """An eval run's facts in reading order (module docstring). `records`: row id -> its
    checkpoint record; `rows`: the dataset rows, for the expected answers (`—` without)."""
    facts = _score_facts(results.scores) if results.scores is not None else []
    facts += _serving_facts(results.metrics, records)
    if results.scores is not None:
        wrong = wrong_rows_table(results, records, rows)
        if wrong is not None:
            facts.append(fact("wrong_or_failed_rows", wrong, "md"))
    run = results.run
    facts += [
        fact("model", results.model),
        fact("dataset", f"{results.dataset.id} {results.dataset.sha256}"),
        fact("rows", run.rows_selected),
        fact("rows_done", run.rows_done),
        fact("rows_sent", run.sent_rows),
        fact("rows_resumed", run.resumed_rows),
    ]
    if results.errata.pinned:
        facts += [fact("errata", ", ".join(results.errata.pinned)), fact("errata_excluded_rows", len(results.errata.excluded_rows))]
    if results.warnings:
        facts.append(fact("warnings", "\n".join(f"- {cell(w, 300)}" for w in results.warnings), "md"))
    facts.append(fact("content_sha256", results.content_sha256))
    return facts
