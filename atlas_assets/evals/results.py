"""Checkpoint records, metrics, scores and results.json.

The checkpoint (`checkpoint.jsonl` in the run folder) holds one JSON line per finished
row, appended as soon as the row completes:

    {"id", "fingerprint", "content", "reasoning_content", "tool_calls", "finish_reason",
     "usage", "input_tokens", "output_tokens", "reasoning_tokens", "ttft_s", "itl_s",
     "e2e_s", "started_at", "ended_at", "attempts", "retry_wait_s", "status", "error",
     "error_kind", "score"}

`score` is null for serve workloads, else {"scorer", "correct", "failed", "extracted",
"detail"}. For a row, the last line whose fingerprint matches the request the run would
send now is the row's result; any other line for it is stale and never used.

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

from atlas_assets.core.atomic import atomic_write_bytes, atomic_writer
from atlas_assets.core.hashing import sha256_bytes, sha256_json
from atlas_assets.corpus.scorers import ItemScore

CHECKPOINT = "checkpoint.jsonl"
RESULTS = "results.json"
RESULTS_SHA = "results.json.sha256"
PERCENTILES = (50, 90, 99)


# --------------------------------------------------------------------------- checkpoint


def read_checkpoint(path: Path) -> tuple[list[dict[str, Any]], int]:
    """Every parseable record in file order, and the number of unreadable (torn) lines."""
    records: list[dict[str, Any]] = []
    torn = 0
    if not path.is_file():
        return records, torn
    with open(path, "rb") as handle:
        for line in handle:
            if not line.strip():
                continue
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                torn += 1
                continue
            if isinstance(record, dict) and "id" in record and "fingerprint" in record:
                records.append(record)
            else:
                torn += 1
    return records, torn


def valid_records(records: Iterable[Mapping[str, Any]], expected: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """row id -> its last record whose fingerprint is the one expected now."""
    valid: dict[str, dict[str, Any]] = {}
    for record in records:
        if expected.get(record["id"]) == record["fingerprint"]:
            valid[record["id"]] = dict(record)
    return valid


def compact_checkpoint(path: Path, expected: Mapping[str, str]) -> tuple[dict[str, dict[str, Any]], int]:
    """Load the checkpoint; drop torn lines, stale lines of the selected rows and their
    superseded duplicates (rewriting the file atomically when anything was dropped).
    Lines of rows outside the selection are kept as they are. Returns the valid records
    of the selected rows and the number of stale lines dropped."""
    records, torn = read_checkpoint(path)
    valid = valid_records(records, expected)
    stale = sum(1 for r in records if r["id"] in expected and r["fingerprint"] != expected[r["id"]])
    keep = kept_records(records, expected, valid)
    if torn or len(keep) != len(records):
        write_checkpoint(path, keep)
    return valid, stale


def kept_records(
    records: Iterable[Mapping[str, Any]], expected: Mapping[str, str], valid: Mapping[str, Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """The checkpoint's lines after a compaction: rows outside the selection as they are, then `valid`."""
    return [r for r in records if r["id"] not in expected] + list(valid.values())


def write_checkpoint(path: Path, records: Iterable[Mapping[str, Any]]) -> None:
    """Replace the checkpoint atomically with `records`, one JSON line each."""
    with atomic_writer(path) as handle:
        for record in records:
            handle.write(orjson.dumps(record) + b"\n")


def make_record(row_id: str, fingerprint: str, completion: Any, item: ItemScore | None) -> dict[str, Any]:
    return {
        "id": row_id,
        "fingerprint": fingerprint,
        "content": completion.content,
        "reasoning_content": completion.reasoning_content,
        "tool_calls": completion.tool_calls,
        "finish_reason": completion.finish_reason,
        "usage": completion.usage,
        "input_tokens": completion.input_tokens,
        "output_tokens": completion.output_tokens,
        "reasoning_tokens": completion.reasoning_tokens,
        "ttft_s": completion.ttft_s,
        "itl_s": completion.itl_s,
        "e2e_s": completion.e2e_s,
        "started_at": completion.started_at,
        "ended_at": completion.ended_at,
        "attempts": completion.attempts,
        "retry_wait_s": round(completion.retry_wait_s, 6),
        "status": completion.status,
        "error": completion.error,
        "error_kind": completion.error_kind,
        "score": score_dict(item),
    }


def score_dict(item: ItemScore | None) -> dict[str, Any] | None:
    if item is None:
        return None
    out = {"scorer": item.scorer, "correct": item.correct, "failed": item.failed, "extracted": item.extracted, "detail": item.detail}
    if item.sandbox is not None:
        out["sandbox"] = item.sandbox  # code_exec: the sandbox mode the verdict was reached in
    return out


def output_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """The stored output in the form the scorers accept."""
    return {"content": record.get("content"), "tool_calls": record.get("tool_calls") or [], "error": record.get("error")}


# --------------------------------------------------------------------------- metrics


def _stats_ms(values: Sequence[float]) -> dict[str, float | None]:
    if not values:
        return {"mean": None, **{f"p{p}": None for p in PERCENTILES}}
    arr = np.asarray(values, dtype=float) * 1000.0
    out: dict[str, float | None] = {"mean": round(float(arr.mean()), 3)}
    for p, v in zip(PERCENTILES, np.percentile(arr, PERCENTILES)):
        out[f"p{p}"] = round(float(v), 3)
    return out


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


def compute_metrics(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    ok = [r for r in records if r.get("error") is None]
    ttfts = [r["ttft_s"] for r in ok if r.get("ttft_s") is not None]
    e2es = [r["e2e_s"] for r in ok if r.get("e2e_s") is not None]
    itls = [gap for r in ok for gap in (r.get("itl_s") or ())]
    tpots = [
        (r["e2e_s"] - r["ttft_s"]) / (r["output_tokens"] - 1)
        for r in ok
        if r.get("ttft_s") is not None and r.get("e2e_s") is not None and (r.get("output_tokens") or 0) > 1
    ]

    def total(key: str) -> int | None:
        values = [r[key] for r in ok if r.get(key) is not None]
        return int(sum(values)) if values else None

    input_total, output_total = total("input_tokens"), total("output_tokens")
    duration = busy_seconds((r["started_at"], r["ended_at"]) for r in records if r.get("ended_at"))
    per_s = (lambda n: round(n / duration, 3) if duration > 0 and n is not None else None)
    return {
        "requests_total": len(records),
        "requests_completed": len(ok),
        "requests_failed": len(records) - len(ok),
        "requests_retried": sum(1 for r in records if (r.get("attempts") or 1) > 1),
        "usage_missing": sum(1 for r in ok if r.get("usage") is None),
        "input_tokens_total": input_total,
        "output_tokens_total": output_total,
        "reasoning_tokens_total": total("reasoning_tokens"),
        "duration_s": round(duration, 6),
        "request_throughput": per_s(len(ok)),
        "output_token_throughput": per_s(output_total),
        "total_token_throughput": per_s((input_total or 0) + (output_total or 0) if input_total or output_total else None),
        "ttft_ms": _stats_ms(ttfts),
        "tpot_ms": _stats_ms(tpots),
        "itl_ms": _stats_ms(itls),
        "e2e_ms": _stats_ms(e2es),
    }


# --------------------------------------------------------------------------- scores


def _breakdown(pairs: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, dict[str, Any]]:
    groups: dict[str, dict[str, Any]] = defaultdict(lambda: {"total": 0, "correct": 0, "failed": 0})
    for key, score in pairs:
        group = groups[key]
        group["total"] += 1
        group["correct"] += bool(score["correct"])
        group["failed"] += bool(score["failed"])
    for group in groups.values():
        group["accuracy"] = round(group["correct"] / group["total"], 6)
    return dict(sorted(groups.items()))


def compute_scores(
    rows: Sequence[Mapping[str, Any]],
    records: Mapping[str, Mapping[str, Any]],
    excluded: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """accuracy = correct / total over the rows that have a record; failed requests are
    incorrect and listed in `failures` with their error.

    `excluded` maps row id -> the applied erratum (corpus/errata.Erratum) that takes the
    row out of scoring: such a row is in no count (total, correct, failed, breakdowns) and
    is listed in `excluded` with the erratum's id and reason, whether or not it has a record."""
    excluded = excluded or {}
    out = [
        {"id": row["id"], "erratum": excluded[row["id"]].id, "reason": excluded[row["id"]].reason}
        for row in rows
        if row["id"] in excluded
    ]
    scored = [(row, records[row["id"]]) for row in rows if row["id"] in records and row["id"] not in excluded]
    scores = [(row, rec["score"]) for row, rec in scored]
    correct = sum(1 for _, s in scores if s["correct"])
    failures = [
        {"id": row["id"], "error": rec.get("error"), "error_kind": rec.get("error_kind"), "status": rec.get("status")}
        for row, rec in scored
        if rec["score"]["failed"]
    ]
    return {
        "accuracy": round(correct / len(scores), 6) if scores else None,
        "correct": correct,
        "total": len(scores),
        "failed": len(failures),
        "failures": failures,
        "by_category": _breakdown((str(row.get("category", "none")), s) for row, s in scores),
        "by_difficulty": _breakdown((str(row.get("difficulty", "none")), s) for row, s in scores),
        "by_scorer": _breakdown((s["scorer"], s) for _, s in scores),
        "excluded": out,
        "sandbox": _sandbox_modes(s for _, s in scores),
    }


def _sandbox_modes(scores: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """How many verdicts each sandbox mode reached ("isolated", "contained"); None when no
    row ran code. README "The code_exec sandbox" says what each mode guarantees."""
    modes = Counter(s["sandbox"] for s in scores if s.get("sandbox"))
    return {"modes": dict(sorted(modes.items())), "all_isolated": set(modes) == {"isolated"}} if modes else None


# --------------------------------------------------------------------------- results.json

_RUN_ONLY_WORKLOAD_FIELDS = ("description", "concurrency")
_ROW_OUTPUT_FIELDS = ("content", "reasoning_content", "finish_reason", "error_kind", "score")


def _row_content(record: Mapping[str, Any]) -> dict[str, Any]:
    out = {key: record.get(key) for key in _ROW_OUTPUT_FIELDS}
    out["tool_calls"] = [{k: v for k, v in call.items() if k != "id"} for call in record.get("tool_calls") or ()]
    return out


def scored_content(results: Mapping[str, Any], records: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """What decides a run's verdicts (module docstring), from results.json and its records."""
    row_ids = results["run"]["row_ids"]
    scores = results["scores"]
    if scores is not None:  # a failure's message is a run fact; its class is in its row
        scores = {**scores, "failures": [f["id"] for f in scores["failures"]]}
    errata = results.get("errata") or {}
    return {
        "workload": {k: v for k, v in results["workload"].items() if k not in _RUN_ONLY_WORKLOAD_FIELDS},
        "model": results["model"],
        "dataset": results["dataset"],
        "sampling": results["sampling"],
        "errata": {k: errata.get(k) for k in ("pinned", "pin_sha256", "applied", "excluded_rows")},
        "row_ids": row_ids,
        "rows": {row_id: _row_content(records[row_id]) for row_id in row_ids if row_id in records},
        "scores": scores,
    }


def content_sha256(results: Mapping[str, Any], records: Mapping[str, Mapping[str, Any]]) -> str:
    """sha256 of the canonical JSON of `scored_content`."""
    return sha256_json(scored_content(results, records))



def write_results(run_dir: Path, results: Mapping[str, Any]) -> str:
    """Write results.json atomically and its sha256 beside it; return the sha256."""
    data = orjson.dumps(results, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
    digest = sha256_bytes(data)
    atomic_write_bytes(run_dir / RESULTS, data)
    atomic_write_bytes(run_dir / RESULTS_SHA, f"{digest}  {RESULTS}\n".encode())
    return digest


def read_results(run_dir: Path) -> dict[str, Any]:
    path = Path(run_dir) / RESULTS
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: is {run_dir} an eval run folder?")
    return orjson.loads(path.read_bytes())


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
