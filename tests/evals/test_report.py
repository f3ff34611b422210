"""Content versions, progress lines and the facts a user reads first, against the real
simulator (started by the runner on 127.0.0.1, a free port each run)."""

from __future__ import annotations

import json
import math
import re
import threading

import pytest

from atlas_assets.core.progress import ProgressLog
from atlas_assets.evals.documents import Excluded, Failure, RunResults
from atlas_assets.evals.engines import Engine
from atlas_assets.evals.report import accuracy_interval, failures_by_reason, run_facts, wilson_interval
from atlas_assets.evals.results import RESULTS, content_sha256
from atlas_assets.evals.runner import Progress, run_eval
from atlas_assets.evals.workloads import load_workload
from tests.helpers.evals import checkpoint_record, partial_results, prompt_rows, write_dataset, write_workload

ROWS = 40


def _rows(n):
    return [
        {
            "id": f"q-{i:04d}",
            "category": ["alpha", "beta"][i % 2],
            "difficulty": ["easy", "medium", "hard"][i % 3],
            "prompt": f"What is {i} plus {i + 1}? Reply with the number only.",
            "answer": str(2 * i + 1),
            "scorer": "numeric",
        }
        for i in range(n)
    ]


def _sim(name="sim-report", **fields):
    block = {"name": name, "skill": {"easy": 0.9, "medium": 0.6, "hard": 0.3}, **fields}
    return Engine(name=name, kind="simulator", simulator=block, max_retries=0)


@pytest.fixture
def synthetic(tmp_path, datasets_root):
    write_dataset(datasets_root, "syn-report-v1", "eval", _rows(ROWS), default_scorer="numeric")
    path = write_workload(
        tmp_path / "workloads", datasets_root, "syn-report-v1", scorer="numeric", concurrency=4, request={"max_tokens": 64, "stream": True}
    )
    return datasets_root, load_workload(path)


# --------------------------------------------------------------------------- content versions


def test_repeated_and_resumed_runs_keep_the_content_digest_and_change_the_bytes(tmp_path, synthetic):
    root, workload = synthetic
    engine = _sim()
    full = run_eval(workload, engine, tmp_path / "a", datasets_root=root)
    again = run_eval(workload, engine, tmp_path / "a", datasets_root=root)  # a new simulator, another port
    stop = threading.Event()
    partial = run_eval(workload, engine, tmp_path / "b", datasets_root=root, concurrency=1, stop=stop, on_record=lambda record: stop.set())
    resumed = run_eval(workload, engine, tmp_path / "b", datasets_root=root)

    assert again.sent == 0 and again.resumed == ROWS
    assert 1 <= partial.sent < ROWS and resumed.resumed == partial.sent and resumed.complete
    assert len({o.results.engine.base_url for o in (full, again, partial, resumed)}) == 4
    assert full.content_sha256 == again.content_sha256 == resumed.content_sha256
    assert len({full.sha256, again.sha256, resumed.sha256}) == 3
    assert partial.content_sha256 != full.content_sha256  # fewer rows recorded is other content
    on_disk = json.loads((tmp_path / "a" / RESULTS).read_text())
    assert on_disk["content_sha256"] == again.content_sha256 == content_sha256(RunResults.model_validate(on_disk), again.records)


def test_the_content_digest_follows_outputs_verdicts_and_scores_only(tmp_path, synthetic):
    root, workload = synthetic
    outcome = run_eval(workload, _sim(), tmp_path / "a", datasets_root=root, limit=12)
    results, records = outcome.results, outcome.records
    digest = content_sha256(results, records)
    assert digest == outcome.content_sha256

    facts_changed = results
    for field, value in (
        ("created_at", "1999-01-01T00:00:00Z"),
        ("engine.base_url", "http://127.0.0.1:1/v1"),
        ("metrics.duration_s", results.metrics.duration_s * 3),
        ("run.sent_rows", 0),
        ("run.resumed_rows", 12),
        ("run.concurrency", 99),
        ("workload.concurrency", 99),
    ):
        facts_changed = _set(facts_changed, field, value)
    timed = {k: r.model_copy(update={"e2e_s": 9.9, "ttft_s": 1.0, "started_at": 0.0, "attempts": 3}) for k, r in records.items()}
    assert content_sha256(facts_changed, timed) == digest

    first = next(iter(records))
    output = {**records, first: _set(records[first], "content", (records[first].content or "") + " and more")}
    verdict = {**records, first: _set(records[first], "score.correct", not records[first].score.correct)}
    scores = _set(results, "scores.correct", results.scores.correct + 1)
    model = _set(results, "model", "another-model")
    assert (
        len(
            {
                digest,
                content_sha256(results, output),
                content_sha256(results, verdict),
                content_sha256(scores, records),
                content_sha256(model, records),
            }
        )
        == 5
    )

    failed = {
        **records,
        first: records[first].model_copy(
            update={"error": "connection error: Cannot connect to host 127.0.0.1:4242", "error_kind": "connection"}
        ),
    }
    moved = {**failed, first: _set(failed[first], "error", "connection error: Cannot connect to host 127.0.0.1:5353")}
    assert content_sha256(results, failed) == content_sha256(results, moved) != digest
    call = {"type": "function", "function": {"name": "f", "arguments": "{}"}}
    with_id = {**records, first: _set(records[first], "tool_calls", [{"id": "call_1", **call}])}
    other_id = {**records, first: _set(records[first], "tool_calls", [{"id": "call_2", **call}])}
    assert content_sha256(results, with_id) == content_sha256(results, other_id) != digest


def _set(model, field, value):
    """`model` with the dotted `field` replaced (the documents are frozen)."""
    head, _, rest = field.partition(".")
    return model.model_copy(update={head: _set(getattr(model, head), rest, value) if rest else value})


# --------------------------------------------------------------------------- progress lines


_LINE = re.compile(
    r"^syn-report-v1 on sim-report: (?P<done>\d+)/40 rows \((?P<failed>\d+) failed, (?P<resumed>\d+) resumed\)"
    r"(?: · accuracy(?P<sofar> so far)? (?P<acc>\d+\.\d) %)?(?: · (?P<rate>\d+\.\d) req/s)?"
    r"(?: · ETA (?P<eta>\S+ s|\S+ min \d\d s)| · done in (?P<took>.+ s))?$"
)


def test_progress_lines_open_move_and_close_a_run(tmp_path, synthetic):
    root, workload = synthetic
    lines: list[str] = []
    outcome = run_eval(workload, _sim(), tmp_path / "a", datasets_root=root, progress_log=ProgressLog(lines.append, 0))
    parsed = [_LINE.match(line) for line in lines]
    assert all(parsed), [line for line, m in zip(lines, parsed) if not m]
    assert lines[0] == "syn-report-v1 on sim-report: 0/40 rows (0 failed, 0 resumed)"
    assert len(lines) == ROWS + 2  # interval 0: the opening line, one per row, the final line
    assert [int(m["done"]) for m in parsed[1:-1]] == list(range(1, ROWS + 1))
    assert all(m["sofar"] and m["rate"] and m["eta"] for m in parsed[1:-1])
    last = parsed[-1]
    assert last["done"] == "40" and last["took"] and not last["sofar"] and not last["eta"]
    assert last["acc"] == f"{outcome.results.scores.accuracy * 100:.1f}"

    quiet: list[str] = []
    run_eval(workload, _sim(), tmp_path / "a", datasets_root=root, progress_log=ProgressLog(quiet.append, 3600))
    assert len(quiet) == 2
    assert quiet[0].startswith("syn-report-v1 on sim-report: 40/40 rows (0 failed, 40 resumed) · accuracy so far ")
    assert " req/s" not in quiet[0] and quiet[1].endswith(" s") and " · done in " in quiet[1]


def test_an_interrupted_run_ends_with_a_line_that_says_so(tmp_path, synthetic):
    root, workload = synthetic
    lines: list[str] = []
    stop = threading.Event()
    run_eval(
        workload,
        _sim(),
        tmp_path / "a",
        datasets_root=root,
        concurrency=1,
        stop=stop,
        on_record=lambda record: stop.set(),
        progress_log=ProgressLog(lines.append, 3600),
    )
    assert re.search(r": [1-9]\d*/40 rows .* · stopped after \d+ s: run again to resume$", lines[-1])


def test_a_progress_line_with_a_fake_clock():
    progress = Progress(total=328, resumed=40, done=120, failed=3, correct=85, scored=120, started=100.0, clock=lambda: 105.6)
    assert progress.line("eval-instruction-v1 on sim-strong") == (
        "eval-instruction-v1 on sim-strong: 120/328 rows (3 failed, 40 resumed) · accuracy so far 70.8 % · 14.3 req/s · ETA 15 s"
    )
    progress.done = progress.scored = 328
    progress.correct = 200
    assert progress.line("w on e", final=True) == "w on e: 328/328 rows (3 failed, 40 resumed) · accuracy 61.0 % · 51.4 req/s · done in 6 s"


# --------------------------------------------------------------------------- facts


def _wilson_closed_form(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_wilson_interval_matches_the_closed_form():
    for k, n in ((234, 328), (0, 10), (10, 10), (1, 3)):
        assert wilson_interval(k, n) == pytest.approx(_wilson_closed_form(k, n), abs=1e-9)
    assert wilson_interval(0, 0) is None
    low, high = _wilson_closed_form(234, 328)
    assert accuracy_interval(234, 328) == f"71.3 % [{low * 100:.1f}, {high * 100:.1f}] (Wilson, n=328)"


def test_eval_facts_come_in_reading_order_with_their_content(tmp_path, synthetic):
    root, workload = synthetic
    engine = _sim(error_5xx=0.2, rate_limit_429=0.15, retry_after_s=0)
    outcome = run_eval(workload, engine, tmp_path / "a", datasets_root=root)
    facts = outcome.facts()
    keys = [f.key for f in facts]
    by_key = {f.key: f for f in facts}
    s, m = outcome.results.scores, outcome.results.metrics
    assert keys[:4] == ["accuracy", "accuracy_95ci", "correct", "total"]
    assert keys.index("accuracy_by_difficulty") < keys.index("failures_by_reason") < keys.index("requests_retried")
    assert keys.index("request_throughput (req/s)") < keys.index("latency (ms)") < keys.index("wrong_or_failed_rows")
    assert keys[-1] == "content_sha256" and by_key["content_sha256"].value == outcome.content_sha256
    assert (by_key["accuracy"].value, by_key["accuracy"].kind) == (s.accuracy, "float")
    assert by_key["accuracy_95ci"].value == accuracy_interval(s.correct, s.total)
    assert (by_key["correct"].value, by_key["total"].value) == (s.correct, ROWS)
    difficulty = by_key["accuracy_by_difficulty"].value.splitlines()
    assert [line.split(" | ")[0].lstrip("| ") for line in difficulty[2:]] == ["easy", "medium", "hard"]
    easy = s.by_difficulty["easy"]
    assert f"| easy | {easy.correct}/{easy.total} | {easy.accuracy * 100:.1f} % |" in difficulty[2]
    assert "| alpha |" in by_key["accuracy_by_category"].value and "| beta |" in by_key["accuracy_by_category"].value
    assert "accuracy_by_scorer" not in by_key  # one scorer only

    reasons = by_key["failures_by_reason"].value.splitlines()[2:]
    counts = {line.split(" | ")[0].lstrip("| "): int(line.split(" | ")[1]) for line in reasons}
    assert sum(counts.values()) == m.requests_failed == s.failed > 0
    assert set(counts) <= {"http_5xx (HTTP 500)", "http_5xx (HTTP 503)", "rate_limit (HTTP 429)"}
    assert by_key["requests_failed"].value == m.requests_failed
    assert by_key["retries"].value == 0 and by_key["requests_retried"].value == 0  # max_retries 0
    assert by_key["request_throughput (req/s)"].value == m.request_throughput
    assert by_key["output_throughput (tok/s)"].value == m.output_token_throughput
    assert "| TTFT |" in by_key["latency (ms)"].value

    wrong = [r for r in outcome.results.run.row_ids if not outcome.records[r].score.correct]
    table = by_key["wrong_or_failed_rows"].value.splitlines()
    body = [line for line in table if line.startswith("| `")]
    assert len(body) == min(20, len(wrong))
    assert [line.split("`")[1] for line in body] == wrong[:20]
    answers = {r["id"]: r["answer"] for r in _rows(ROWS)}
    for line in body:
        row_id = line.split("`")[1]
        assert line.split(" | ")[1] == answers[row_id]
        if outcome.records[row_id].error:
            assert outcome.records[row_id].error_kind + ": HTTP " in line
    assert (by_key["rows"].value, by_key["rows_sent"].value, by_key["rows_resumed"].value) == (ROWS, ROWS, 0)


def test_retries_come_from_the_records(tmp_path, synthetic):
    root, workload = synthetic
    engine = _sim(error_5xx=0.3).model_copy(update={"max_retries": 3, "backoff_s": 0.001, "backoff_max_s": 0.002})
    outcome = run_eval(workload, engine, tmp_path / "a", datasets_root=root)
    facts = {f.key: f.value for f in outcome.facts()}
    attempts = [r.attempts for r in outcome.records.values()]
    assert facts["retries"] == sum(a - 1 for a in attempts) > 0
    assert facts["requests_retried"] == sum(1 for a in attempts if a > 1) == outcome.results.metrics.requests_retried
    assert facts["retry_wait (s)"] == pytest.approx(sum(r.retry_wait_s for r in outcome.records.values()), abs=1e-3)


def test_serve_workloads_get_serving_facts_only(tmp_path, datasets_root):
    write_dataset(datasets_root, "syn-serve-v1", "prompts", prompt_rows(8))
    workload = load_workload(
        write_workload(tmp_path / "w", datasets_root, "syn-serve-v1", kind="serve", scorer=None, request={"max_tokens": 16})
    )
    outcome = run_eval(workload, _sim(), tmp_path / "a", datasets_root=datasets_root)
    keys = [f.key for f in outcome.facts()]
    assert keys[0] == "requests_failed"
    assert not {"accuracy", "accuracy_95ci", "correct", "accuracy_by_difficulty", "wrong_or_failed_rows"} & set(keys)
    assert {"request_throughput (req/s)", "output_throughput (tok/s)", "latency (ms)", "content_sha256"} <= set(keys)


def test_wrong_rows_cells_are_escaped_and_cut_and_excluded_rows_left_out():
    ids = [f"r{i}" for i in range(25)]
    rows = [{"id": i, "answer": "a|b\nc" if i == "r0" else {"k": "x" * 200}} for i in ids]
    score = {"scorer": "exact", "correct": False, "failed": False, "extracted": "pipe | here", "detail": None}
    records = {i: checkpoint_record(i, score=score) for i in ids}
    excluded = [Excluded(id="r1", erratum="err-0001", reason="the key is ambiguous")]
    facts = {f.key: f.value for f in run_facts(partial_results(ids, excluded=excluded), records, rows)}
    table = facts["wrong_or_failed_rows"].splitlines()
    assert table[0] == "20 of 24 wrong or failed rows, in run order"
    body = [line for line in table if line.startswith("| `")]
    assert len(body) == 20 and "`r1`" not in facts["wrong_or_failed_rows"]
    assert body[0] == "| `r0` | a\\|b ⏎ c | pipe \\| here | wrong answer |"
    long_cell = body[1].split(" | ")[1]
    assert len(long_cell) == 80 and long_cell.endswith("…")
    assert all(line.count(" | ") == 3 for line in body)  # no cell broke its row


def test_failures_by_reason_counts_each_class_and_status():
    failures = [Failure(id=f"r{i}", error_kind="http_5xx", status=503, error="HTTP 503: busy") for i in range(7)]
    failures += [
        Failure(id="t", error_kind="timeout", status=None, error="timeout after 60 s"),
        Failure(id="c", error_kind="http_4xx", status=400, error="HTTP 400: context | too long"),
    ]
    lines = failures_by_reason(failures).splitlines()
    assert lines[2] == "| http_5xx (HTTP 503) | 7 | `r0`, `r1`, `r2`, `r3`, `r4` +2 more | HTTP 503: busy |"
    assert lines[3] == "| http_4xx (HTTP 400) | 1 | `c` | HTTP 400: context \\| too long |"
    assert lines[4] == "| timeout | 1 | `t` | timeout after 60 s |"
