"""Checkpoint records, metrics, scores and results.json.

The checkpoint (`checkpoint.jsonl` in the run folder) holds one JSON line per finished
row (`documents.CheckpointRecord`), appended as soon as the row completes. For a row, the
last line whose fingerprint matches the request the run would send now is the row's
result; any other line for it is stale and never used. A line that is not a JSON object
with an `id` and a `fingerprint` is torn (a write cut short by a hard kill) and skipped;
any other line must validate, else reading the checkpoint fails naming the file, the
line and the field.

Metrics follow vLLM's benchmark_serving, over successful requests:
TTFT = time to the first output chunk; ITL = every gap between later output chunks,
pooled over requests; TPOT = (e2e - TTFT) / (output_tokens - 1) per request with more
than one output token (server-reported output tokens); e2e = send to last byte.
Percentiles are numpy's linear interpolation, in milliseconds. Throughputs divide by
the run's busy time: the length of the union of all requests' [start, end] intervals,
which for one uninterrupted run is first send to last response and which leaves out the
gap between an interrupted session and its resumption.

The *scored content* of a run (`scored_content`) is what decides its verdicts: the
workload's definition (without its description and concurrency), the model, the dataset
bytes, the sampling parameters, the errata applied, the selected row ids, each recorded
row's output (content, reasoning, tool calls without the ids servers make up, finish
reason, error class) and verdict, and the scores. It leaves out the run's facts: when it
ran, where the engine listened (a simulator's port), durations, latencies, throughput,
token usage, how many rows were sent or resumed, error messages (they can name a host and
port). results.json records its sha256 as `content_sha256`: the data version of an
eval_run, equal for a resumed or repeated run with the same outputs, while the byte
sha256 (`results.json.sha256`) changes with every write.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import orjson
from pydantic import ValidationError

from atlas_assets.core.atomic import atomic_write_bytes, atomic_writer
from atlas_assets.core.documents import describe_validation, load_document
from atlas_assets.core.hashing import sha256_bytes, sha256_json
from atlas_assets.corpus.scorers import ItemScore
from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.documents import (
    Breakdown,
    CheckpointRecord,
    Excluded,
    Failure,
    LatencyStats,
    Metrics,
    RowScore,
    RunResults,
    SandboxModes,
    Scores,
)

CHECKPOINT = "checkpoint.jsonl"
RESULTS = "results.json"
RESULTS_SHA = "results.json.sha256"
PERCENTILES = (50, 90, 99)


# --------------------------------------------------------------------------- checkpoint


def read_checkpoint(path: Path) -> tuple[list[CheckpointRecord], int]:
    """Every record in file order, and the number of torn lines (module docstring);
    ConfigError naming the file, line and field for a line that is a record but does not validate."""
    records: list[CheckpointRecord] = []
    torn = 0
    if not path.is_file():
        return records, torn
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = orjson.loads(line)
            except orjson.JSONDecodeError:
                torn += 1
                continue
            if not (isinstance(data, dict) and "id" in data and "fingerprint" in data):
                torn += 1
                continue
            try:
                records.append(CheckpointRecord.model_validate(data))
            except ValidationError as exc:
                raise ConfigError(describe_validation(Path(f"{path}:{number}"), exc)) from None
    return records, torn


def valid_records(records: Iterable[CheckpointRecord], expected: Mapping[str, str]) -> dict[str, CheckpointRecord]:
    """row id -> its last record whose fingerprint is the one expected now."""
    return {r.id: r for r in records if expected.get(r.id) == r.fingerprint}


def compact_checkpoint(path: Path, expected: Mapping[str, str]) -> tuple[dict[str, CheckpointRecord], int]:
    """Load the checkpoint; drop torn lines, stale lines of the selected rows and their
    superseded duplicates (rewriting the file atomically when anything was dropped).
    Lines of rows outside the selection are kept as they are. Returns the valid records
    of the selected rows and the number of stale lines dropped."""
    records, torn = read_checkpoint(path)
    valid = valid_records(records, expected)
    stale = sum(1 for r in records if r.id in expected and r.fingerprint != expected[r.id])
    keep = kept_records(records, expected, valid)
    if torn or len(keep) != len(records):
        write_checkpoint(path, keep)
    return valid, stale


def kept_records(
    records: Iterable[CheckpointRecord], expected: Mapping[str, str], valid: Mapping[str, CheckpointRecord]
) -> list[CheckpointRecord]:
    """The checkpoint's lines after a compaction: rows outside the selection as they are, then `valid`."""
    return [r for r in records if r.id not in expected] + list(valid.values())


def write_checkpoint(path: Path, records: Iterable[CheckpointRecord]) -> None:
    """Replace the checkpoint atomically with `records`, one JSON line each."""
    with atomic_writer(path) as handle:
        for record in records:
            handle.write(record.line())


_OWN_FIELDS = {"format_version", "id", "fingerprint", "retry_wait_s", "score"}
_COMPLETION_FIELDS = tuple(name for name in CheckpointRecord.model_fields if name not in _OWN_FIELDS)  # read off the Completion


def make_record(row_id: str, fingerprint: str, completion: Any, item: ItemScore | None) -> CheckpointRecord:
    return CheckpointRecord(
        id=row_id,
        fingerprint=fingerprint,
        retry_wait_s=round(completion.retry_wait_s, 6),
        score=row_score(item),
        **{name: getattr(completion, name) for name in _COMPLETION_FIELDS},
    )


def row_score(item: ItemScore | None) -> RowScore | None:
    if item is None:
        return None
    return RowScore(
        scorer=item.scorer, correct=item.correct, failed=item.failed, extracted=item.extracted, detail=item.detail, sandbox=item.sandbox
    )


def output_of(record: CheckpointRecord) -> dict[str, Any]:
    """The stored output in the form the scorers accept."""
    return {"content": record.content, "tool_calls": record.tool_calls, "error": record.error}


# --------------------------------------------------------------------------- metrics


def _stats_ms(values: Sequence[float]) -> LatencyStats:
    if not values:
        return LatencyStats(mean=None, **{f"p{p}": None for p in PERCENTILES})
    arr = np.asarray(values, dtype=float) * 1000.0
    percentiles = {f"p{p}": round(float(v), 3) for p, v in zip(PERCENTILES, np.percentile(arr, PERCENTILES))}
    return LatencyStats(mean=round(float(arr.mean()), 3), **percentiles)


def busy_seconds(intervals: Iterable[tuple[float, float]]) -> float:
    """Length of the union of [start, end] intervals."""
    total = 0.0
    current_start = current_end = None
    for start, end in sorted(intervals):
        if current_end is None or start > current_end:
            if current_end is not None:
                total += current_end - current_start  # type: ignore[operator]
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None:
        total += current_end - current_start  # type: ignore[operator]
    return total


def compute_metrics(records: Sequence[CheckpointRecord]) -> Metrics:
    ok = [r for r in records if r.error is None]
    ttfts = [r.ttft_s for r in ok if r.ttft_s is not None]
    e2es = [r.e2e_s for r in ok if r.e2e_s is not None]
    itls = [gap for r in ok for gap in r.itl_s]
    tpots = [
        (r.e2e_s - r.ttft_s) / (r.output_tokens - 1)
        for r in ok
        if r.ttft_s is not None and r.e2e_s is not None and r.output_tokens is not None and r.output_tokens > 1
    ]

    def total(values: Iterable[int | None]) -> int | None:
        present = [v for v in values if v is not None]
        return int(sum(present)) if present else None

    input_total, output_total = total(r.input_tokens for r in ok), total(r.output_tokens for r in ok)
    duration = busy_seconds((r.started_at, r.ended_at) for r in records if r.ended_at)

    def per_s(n: float | None) -> float | None:
        return round(n / duration, 3) if duration > 0 and n is not None else None

    return Metrics(
        requests_total=len(records),
        requests_completed=len(ok),
        requests_failed=len(records) - len(ok),
        requests_retried=sum(1 for r in records if (r.attempts or 1) > 1),
        usage_missing=sum(1 for r in ok if r.usage is None),
        input_tokens_total=input_total,
        output_tokens_total=output_total,
        reasoning_tokens_total=total(r.reasoning_tokens for r in ok),
        duration_s=round(duration, 6),
        request_throughput=per_s(len(ok)),
        output_token_throughput=per_s(output_total),
        total_token_throughput=per_s((input_total or 0) + (output_total or 0) if input_total or output_total else None),
        ttft_ms=_stats_ms(ttfts),
        tpot_ms=_stats_ms(tpots),
        itl_ms=_stats_ms(itls),
        e2e_ms=_stats_ms(e2es),
    )


# --------------------------------------------------------------------------- scores


def _breakdown(pairs: Iterable[tuple[str, RowScore]]) -> dict[str, Breakdown]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # total, correct, failed
    for key, score in pairs:
        group = counts[key]
        group[0] += 1
        group[1] += score.correct
        group[2] += score.failed
    return {
        key: Breakdown(total=total, correct=correct, failed=failed, accuracy=round(correct / total, 6))
        for key, (total, correct, failed) in sorted(counts.items())
    }


def compute_scores(
    rows: Sequence[Mapping[str, Any]],
    records: Mapping[str, CheckpointRecord],
    excluded: Mapping[str, Any] | None = None,
) -> Scores:
    """accuracy = correct / total over the rows that have a record; failed requests are
    incorrect and listed in `failures` with their error.

    `excluded` maps row id -> the applied erratum (corpus/errata.Erratum) that takes the
    row out of scoring: such a row is in no count (total, correct, failed, breakdowns) and
    is listed in `excluded` with the erratum's id and reason, whether or not it has a record."""
    excluded = excluded or {}
    out = [
        Excluded(id=row["id"], erratum=excluded[row["id"]].id, reason=excluded[row["id"]].reason) for row in rows if row["id"] in excluded
    ]
    scored = [(row, records[row["id"]]) for row in rows if row["id"] in records and row["id"] not in excluded]
    scores = [(row, rec.score) for row, rec in scored if rec.score is not None]
    correct = sum(1 for _, s in scores if s.correct)
    failures = [
        Failure(id=row["id"], error=rec.error, error_kind=rec.error_kind, status=rec.status)
        for row, rec in scored
        if rec.score is not None and rec.score.failed
    ]
    return Scores(
        accuracy=round(correct / len(scores), 6) if scores else None,
        correct=correct,
        total=len(scores),
        failed=len(failures),
        failures=failures,
        by_category=_breakdown((str(row.get("category", "none")), s) for row, s in scores),
        by_difficulty=_breakdown((str(row.get("difficulty", "none")), s) for row, s in scores),
        by_scorer=_breakdown((s.scorer, s) for _, s in scores),
        excluded=out,
        sandbox=_sandbox_modes(s for _, s in scores),
    )


def _sandbox_modes(scores: Iterable[RowScore]) -> SandboxModes | None:
    """How many verdicts each sandbox mode reached ("isolated", "contained"); None when no
    row ran code. README "The code_exec sandbox" says what each mode guarantees."""
    modes = Counter(s.sandbox for s in scores if s.sandbox)
    return SandboxModes(modes=dict(sorted(modes.items())), all_isolated=set(modes) == {"isolated"}) if modes else None


# --------------------------------------------------------------------------- results.json

_RUN_ONLY_WORKLOAD_FIELDS = ("description", "concurrency")
_ROW_OUTPUT_FIELDS = {"content", "reasoning_content", "finish_reason", "error_kind", "score"}
_SCORED_FIELDS = {"workload", "model", "dataset", "sampling", "errata", "scores"}
_ERRATA_SCORED_FIELDS = ("pinned", "pin_sha256", "applied", "excluded_rows")


def _row_content(record: CheckpointRecord) -> dict[str, Any]:
    out = record.model_dump(mode="json", include=_ROW_OUTPUT_FIELDS)
    out["tool_calls"] = [{k: v for k, v in call.items() if k != "id"} for call in record.tool_calls]
    return out


def scored_content(results: RunResults, records: Mapping[str, CheckpointRecord]) -> dict[str, Any]:
    """What decides a run's verdicts (module docstring), from results.json and its records."""
    doc = results.model_dump(mode="json", include=_SCORED_FIELDS)
    scores = doc["scores"]
    if scores is not None:  # a failure's message is a run fact; its class is in its row
        scores["failures"] = [f["id"] for f in scores["failures"]]
    row_ids = results.run.row_ids
    return {
        "workload": {k: v for k, v in doc["workload"].items() if k not in _RUN_ONLY_WORKLOAD_FIELDS},
        "model": doc["model"],
        "dataset": doc["dataset"],
        "sampling": doc["sampling"],
        "errata": {k: doc["errata"][k] for k in _ERRATA_SCORED_FIELDS},
        "row_ids": row_ids,
        "rows": {row_id: _row_content(records[row_id]) for row_id in row_ids if row_id in records},
        "scores": scores,
    }


def content_sha256(results: RunResults, records: Mapping[str, CheckpointRecord]) -> str:
    """sha256 of the canonical JSON of `scored_content`."""
    return sha256_json(scored_content(results, records))


def write_results(run_dir: Path, results: RunResults) -> str:
    """Write results.json atomically and its sha256 beside it; return the sha256."""
    data = results.json_bytes(orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
    digest = sha256_bytes(data)
    atomic_write_bytes(run_dir / RESULTS, data)
    atomic_write_bytes(run_dir / RESULTS_SHA, f"{digest}  {RESULTS}\n".encode())
    return digest


def read_results(run_dir: str | Path) -> RunResults:
    """results.json of a run folder; ConfigError naming the file (and field) when it is
    missing, not JSON, of an unknown format version or not of the results.json shape."""
    path = Path(run_dir) / RESULTS
    if not path.is_file():
        raise ConfigError(f"{path}: no {RESULTS} (not a run folder, or the run never finished a pass)")
    return load_document(path, RunResults, ConfigError)


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
