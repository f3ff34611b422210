"""Metrics (vLLM's definitions), scores and the checkpoint, on hand-made records."""

from __future__ import annotations

import numpy as np
import pytest

from atlas_assets.evals.results import busy_seconds, compact_checkpoint, compute_metrics, compute_scores, read_checkpoint
from tests.helpers.evals import checkpoint_record


def _rec(i, *, ttft=0.1, e2e=0.5, itl=(0.1, 0.1), out=5, inp=20, error=None, start=0.0, correct=True, fingerprint=None, content=None):
    return checkpoint_record(
        f"r{i}",
        fingerprint=fingerprint or f"f{i}",
        content=content,
        ttft_s=None if error else ttft,
        e2e_s=None if error else e2e,
        itl_s=[] if error else list(itl),
        output_tokens=None if error else out,
        input_tokens=None if error else inp,
        usage=None if error else {"prompt_tokens": inp, "completion_tokens": out},
        started_at=start,
        ended_at=start + (e2e if not error else 1.0),
        status=None,
        error=error,
        score={"scorer": "exact", "correct": correct and not error, "failed": bool(error), "extracted": None, "detail": None},
    )


def test_latency_metrics_follow_vllm_definitions():
    records = [
        _rec(0, ttft=0.1, e2e=0.5, itl=(0.2, 0.2), out=5),
        _rec(1, ttft=0.3, e2e=0.7, itl=(0.1,), out=3, start=0.2),
        _rec(2, ttft=0.2, e2e=0.2, itl=(), out=1, start=0.4),
        _rec(3, error="HTTP 503: busy", start=0.5),
    ]
    m = compute_metrics(records).model_dump()
    assert (m["requests_total"], m["requests_completed"], m["requests_failed"]) == (4, 3, 1)
    assert (m["input_tokens_total"], m["output_tokens_total"]) == (60, 9)
    assert m["ttft_ms"]["p50"] == pytest.approx(200.0) and m["ttft_ms"]["mean"] == pytest.approx(200.0)
    # TPOT = (e2e - ttft) / (output_tokens - 1), only for requests with more than one output token
    tpots = [(0.5 - 0.1) / 4 * 1000, (0.7 - 0.3) / 2 * 1000]
    assert m["tpot_ms"]["p50"] == pytest.approx(float(np.percentile(tpots, 50)))
    assert m["tpot_ms"]["p99"] == pytest.approx(float(np.percentile(tpots, 99)))
    # ITL pools every gap of every successful request
    assert m["itl_ms"]["p90"] == pytest.approx(float(np.percentile([200, 200, 100], 90)))
    assert m["e2e_ms"]["p50"] == pytest.approx(500.0)
    # busy time: union of [0, .5], [.2, .9], [.4, .6], [.5, 1.5] = 1.5 s
    assert m["duration_s"] == pytest.approx(1.5)
    assert m["request_throughput"] == pytest.approx(2.0)
    assert m["output_token_throughput"] == pytest.approx(6.0)
    assert m["total_token_throughput"] == pytest.approx(46.0)


def test_busy_time_leaves_out_the_gap_between_sessions():
    assert busy_seconds([(0, 1), (0.5, 2), (10, 11)]) == pytest.approx(3.0)
    assert busy_seconds([]) == 0.0


def test_no_successful_request_means_no_latency_numbers():
    m = compute_metrics([_rec(0, error="timeout after 1 s")]).model_dump()
    assert m["ttft_ms"] == {"mean": None, "p50": None, "p90": None, "p99": None}
    assert m["input_tokens_total"] is None and m["request_throughput"] == 0.0


def test_scores_count_failures_as_wrong_and_list_them_with_breakdowns():
    rows = [
        {"id": "r0", "category": "a", "difficulty": "easy"},
        {"id": "r1", "category": "a", "difficulty": "hard"},
        {"id": "r2", "category": "b", "difficulty": "hard"},
        {"id": "r3"},
    ]
    records = {"r0": _rec(0), "r1": _rec(1, correct=False), "r2": _rec(2, error="HTTP 500: boom")}
    s = compute_scores(rows, records).model_dump()
    assert (s["accuracy"], s["correct"], s["total"], s["failed"]) == (pytest.approx(1 / 3), 1, 3, 1)
    assert s["failures"] == [{"id": "r2", "error": "HTTP 500: boom", "error_kind": None, "status": None}]
    assert s["by_category"] == {
        "a": {"total": 2, "correct": 1, "failed": 0, "accuracy": 0.5},
        "b": {"total": 1, "correct": 0, "failed": 1, "accuracy": 0.0},
    }
    assert s["by_difficulty"]["hard"] == {"total": 2, "correct": 0, "failed": 1, "accuracy": 0.0}


def test_compaction_drops_stale_torn_and_duplicate_lines_but_keeps_other_rows(tmp_path):
    path = tmp_path / "checkpoint.jsonl"

    def line(row_id, fingerprint, n):
        return _rec(0, fingerprint=fingerprint, content=str(n)).model_copy(update={"id": row_id})

    lines = [line("a", "old", 1), line("a", "new", 2), line("b", "new-b", 3), line("b", "new-b", 4), line("z", "zz", 5)]
    path.write_bytes(b"".join(r.line() for r in lines) + b'{"id": "c", "finger')
    valid, stale = compact_checkpoint(path, {"a": "new", "b": "new-b", "c": "new-c"})
    assert stale == 1
    assert {k: v.content for k, v in valid.items()} == {"a": "2", "b": "4"}
    kept, torn = read_checkpoint(path)
    assert torn == 0
    assert sorted((r.id, r.content) for r in kept) == [("a", "2"), ("b", "4"), ("z", "5")]
    before = path.read_bytes()
    compact_checkpoint(path, {"a": "new", "b": "new-b"})
    assert path.read_bytes() == before  # nothing to drop: the file is not rewritten
