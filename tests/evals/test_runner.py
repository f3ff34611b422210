"""The runner against the real simulator: results.json, failures, resume, stale fingerprints,
interruption, rescoring and comparison."""

from __future__ import annotations

import json
import threading
from collections import Counter

import orjson
import pytest

from atlas_assets.core.hashing import sha256_file
from atlas_assets.corpus import registry
from atlas_assets.evals.compare import compare_runs
from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.engines import Engine, resolve_engine
from atlas_assets.evals.results import CHECKPOINT, RESULTS, RESULTS_SHA, read_checkpoint
from atlas_assets.evals.runner import Progress, rescore_run, run_eval
from atlas_assets.evals.workloads import load_workload, resolve_workload
from atlas_assets.simulator.handle import start_simulator
from atlas_assets.simulator.profiles import SimulatorProfile
from tests.helpers.evals import prompt_rows, write_dataset, write_workload

PERFECT = {"name": "sim-test", "skill": {"easy": 1, "medium": 1, "hard": 1}}


def _profile(**fields):
    return SimulatorProfile.from_block({**PERFECT, **fields})


def _eval_rows(n):
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


@pytest.fixture
def synthetic(tmp_path, datasets_root):
    write_dataset(datasets_root, "syn-eval-v1", "eval", _eval_rows(60), default_scorer="numeric")
    path = write_workload(
        tmp_path / "workloads", datasets_root, "syn-eval-v1", scorer="numeric", concurrency=8, request={"max_tokens": 64, "stream": True}
    )
    return datasets_root, load_workload(path)


def _sent(sim):
    return Counter(entry.row_id for entry in sim.request_log())


def test_results_json_holds_every_documented_field(tmp_path):
    workload = resolve_workload("eval-instruction-v1")
    engine = Engine(name="sim-test", kind="simulator", simulator={**PERFECT, "skill": {"easy": 1, "medium": 0.5, "hard": 0}})
    outcome = run_eval(workload, engine, tmp_path / "run", limit=24)
    run_dir = tmp_path / "run"
    res = json.loads((run_dir / RESULTS).read_text())
    assert outcome.sha256 == sha256_file(run_dir / RESULTS)
    assert (run_dir / RESULTS_SHA).read_text() == f"{outcome.sha256}  results.json\n"
    assert res["harness"]["name"] and res["harness"]["version"]
    assert res["complete"] is True
    assert res["workload"]["id"] == "eval-instruction-v1"
    assert res["engine"]["name"] == "sim-test" and res["engine"]["base_url"].startswith("http://127.0.0.1:")
    assert res["engine"]["identity"] == engine.identity()
    assert res["model"] == "sim-test"
    assert res["dataset"] == {"id": "eval-instruction-v1", "sha256": workload.dataset.sha256, "kind": "eval"}
    assert res["sampling"] == {"max_tokens": 1536, "temperature": 0.0, "stream": True, "stop": None}
    assert res["server_models"]["data"][0]["id"] == "sim-test"
    m = res["metrics"]
    for key in (
        "requests_total",
        "requests_failed",
        "input_tokens_total",
        "output_tokens_total",
        "request_throughput",
        "output_token_throughput",
        "total_token_throughput",
        "duration_s",
    ):
        assert key in m
    for key in ("ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"):
        assert set(m[key]) == {"mean", "p50", "p90", "p99"} and m[key]["p50"] is not None
    assert m["requests_total"] == 24 and m["requests_failed"] == 0 and m["input_tokens_total"] > 0
    s = res["scores"]
    assert s["total"] == 24 and s["accuracy"] == pytest.approx(s["correct"] / 24) and 0 < s["correct"] < 24
    assert s["failures"] == []
    assert s["by_difficulty"]["easy"]["accuracy"] == 1.0 and s["by_difficulty"]["hard"]["accuracy"] == 0.0
    assert sum(v["total"] for v in s["by_category"].values()) == 24
    assert res["run"]["row_ids"] == [
        r["id"] for r in registry.read_rows(next(x for x in registry.discover() if x.id == "eval-instruction-v1"))[:24]
    ]
    records, torn = read_checkpoint(run_dir / CHECKPOINT)
    assert torn == 0 and len(records) == 24
    record = orjson.loads((run_dir / CHECKPOINT).read_bytes().splitlines()[0])
    assert record["format_version"] == 1 and res["format_version"] == 1
    for key in (
        "id",
        "fingerprint",
        "content",
        "reasoning_content",
        "tool_calls",
        "finish_reason",
        "usage",
        "input_tokens",
        "output_tokens",
        "reasoning_tokens",
        "ttft_s",
        "itl_s",
        "e2e_s",
        "error",
        "score",
    ):
        assert key in record


def test_a_failed_request_scores_incorrect_and_is_listed(tmp_path, synthetic):
    root, workload = synthetic
    with start_simulator(_profile(error_5xx=1.0), datasets_root=root) as sim:
        engine = resolve_engine(sim.base_url).model_copy(update={"max_retries": 1, "backoff_s": 0.001})
        outcome = run_eval(workload, engine, tmp_path / "run", datasets_root=root, limit=5)
    s, m = outcome.results.scores, outcome.results.metrics
    assert (s.correct, s.total, s.failed, s.accuracy) == (0, 5, 5, 0.0)
    assert [f.id for f in s.failures] == [f"q-{i:04d}" for i in range(5)]
    assert all(f.error.startswith("HTTP 50") for f in s.failures)
    assert m.requests_failed == 5 and m.requests_completed == 0


def test_resume_sends_only_unfinished_rows_and_each_row_once(tmp_path, synthetic):
    root, workload = synthetic
    with start_simulator(_profile(), datasets_root=root) as sim:
        engine = resolve_engine(sim.base_url)
        first = run_eval(workload, engine, tmp_path / "run", datasets_root=root, limit=20)
        second = run_eval(workload, engine, tmp_path / "run", datasets_root=root)
        third = run_eval(workload, engine, tmp_path / "run", datasets_root=root)
        sent = _sent(sim)
    assert (first.sent, second.sent, second.resumed, third.sent, third.resumed) == (20, 40, 20, 0, 60)
    assert set(sent) == {f"q-{i:04d}" for i in range(60)} and set(sent.values()) == {1}
    assert second.results.scores.accuracy == 1.0 and second.results.scores.total == 60
    assert third.results.scores == second.results.scores
    assert third.results.metrics == second.results.metrics


def test_a_model_picked_from_v1_models_is_the_same_identity_as_model(tmp_path, synthetic):
    """A URL engine without --model asks /v1/models; naming that model later resends nothing."""
    root, workload = synthetic
    with start_simulator(_profile(), datasets_root=root) as sim:
        picked = run_eval(workload, resolve_engine(sim.base_url), tmp_path / "run", datasets_root=root, limit=10)
        model = picked.results.model
        assert picked.results.engine.identity["model"] == model
        named = run_eval(workload, resolve_engine(sim.base_url, model=model), tmp_path / "run", datasets_root=root, limit=10)
        again = run_eval(workload, resolve_engine(sim.base_url), tmp_path / "run", datasets_root=root, limit=10)
        sent = _sent(sim)
    assert (picked.sent, named.sent, named.resumed, again.sent) == (10, 0, 10, 0)
    assert set(sent.values()) == {1}
    assert named.results.engine.identity == picked.results.engine.identity


def test_a_changed_request_never_reuses_a_stale_row(tmp_path, synthetic):
    root, workload = synthetic
    run_dir = tmp_path / "run"
    with start_simulator(_profile(), datasets_root=root) as sim:
        engine = resolve_engine(sim.base_url)
        run_eval(workload, engine, run_dir, datasets_root=root, limit=10)
        changed = workload.model_copy(update={"request": workload.request.model_copy(update={"max_tokens": 65})})
        outcome = run_eval(changed, engine, run_dir, datasets_root=root, limit=10)
        sent = _sent(sim)
    assert outcome.sent == 10 and outcome.resumed == 0 and outcome.stale == 10
    assert set(sent.values()) == {2}
    records, _ = read_checkpoint(run_dir / CHECKPOINT)
    assert len(records) == 10  # the stale lines were dropped, not kept beside the new ones


def test_changed_dataset_bytes_are_refused_then_rerun_under_a_new_pin(tmp_path, synthetic):
    root, workload = synthetic
    run_dir = tmp_path / "run"
    with start_simulator(_profile(), datasets_root=root) as sim:
        engine = resolve_engine(sim.base_url)
        run_eval(workload, engine, run_dir, datasets_root=root, limit=5)
        rows = _eval_rows(60)
        rows[59]["prompt"] += " "  # a row the run does not select: still different dataset bytes
        write_dataset(root, "syn-eval-v1", "eval", rows, default_scorer="numeric")
        with pytest.raises(ConfigError, match="dataset.sha256: pins"):
            run_eval(workload, engine, run_dir, datasets_root=root, limit=5)
        repinned = load_workload(write_workload(tmp_path / "w2", root, "syn-eval-v1", scorer="numeric", request={"max_tokens": 64}))
        outcome = run_eval(repinned, engine, run_dir, datasets_root=root, limit=5)
    assert outcome.sent == 5 and outcome.resumed == 0


def test_stopping_records_the_rows_in_flight_and_resuming_sends_each_row_once(tmp_path, synthetic):
    root, workload = synthetic
    stop = threading.Event()

    def on_record(record):
        if progress.done >= 15:
            stop.set()

    progress = Progress()
    with start_simulator(_profile(ttft_ms=20), datasets_root=root) as sim:
        engine = resolve_engine(sim.base_url)
        partial = run_eval(workload, engine, tmp_path / "run", datasets_root=root, stop=stop, progress=progress, on_record=on_record)
        assert not partial.complete and 15 <= partial.sent < 60
        assert partial.results.complete is False and partial.results.run.rows_done == partial.sent
        finished = run_eval(workload, engine, tmp_path / "run", datasets_root=root)
        sent = _sent(sim)
    assert finished.complete and finished.resumed == partial.sent and finished.sent == 60 - partial.sent
    assert len(sent) == 60 and set(sent.values()) == {1}


def test_failed_rows_are_results_unless_retry_failed(tmp_path, synthetic):
    root, workload = synthetic
    with start_simulator(_profile(error_5xx=0.5), datasets_root=root) as sim:
        engine = resolve_engine(sim.base_url).model_copy(update={"max_retries": 0})
        first = run_eval(workload, engine, tmp_path / "run", datasets_root=root, limit=30)
        failed = {f.id for f in first.results.scores.failures}
        kept = run_eval(workload, engine, tmp_path / "run", datasets_root=root, limit=30)
        before = len(sim.request_log())
        retried = run_eval(workload, engine, tmp_path / "run", datasets_root=root, limit=30, retry_failed=True)
        resent = {entry.row_id for entry in sim.request_log()[before:]}
    assert 0 < len(failed) < 30
    assert kept.sent == 0 and {f.id for f in kept.results.scores.failures} == failed
    assert retried.sent == len(failed) and resent == failed


def test_serve_workloads_are_measured_not_scored(tmp_path, datasets_root):
    write_dataset(datasets_root, "syn-prompts-v1", "prompts", prompt_rows(12))
    workload = load_workload(
        write_workload(tmp_path / "w", datasets_root, "syn-prompts-v1", kind="serve", scorer=None, request={"max_tokens": 16})
    )
    with start_simulator(_profile(), datasets_root=datasets_root) as sim:
        outcome = run_eval(workload, resolve_engine(sim.base_url), tmp_path / "run", datasets_root=datasets_root)
    assert outcome.results.scores is None
    assert outcome.results.metrics.requests_completed == 12
    assert outcome.results.metrics.output_tokens_total > 0


def test_rescore_rewrites_scores_without_the_engine_and_compare_pairs_rows(tmp_path, synthetic):
    root, workload = synthetic
    with start_simulator(_profile(), datasets_root=root) as strong:
        a = run_eval(workload, resolve_engine(strong.base_url), tmp_path / "a", datasets_root=root, limit=30)
    with start_simulator(_profile(skill={"easy": 0, "medium": 0, "hard": 0}, name="sim-zero"), datasets_root=root) as weak:
        b = run_eval(workload, resolve_engine(weak.base_url), tmp_path / "b", datasets_root=root, limit=30)
    assert a.results.scores.accuracy == 1.0 and b.results.scores.accuracy == 0.0
    # tamper with a stored verdict: rescoring restores it from the stored output
    path = tmp_path / "a" / CHECKPOINT
    lines = [orjson.loads(x) for x in path.read_bytes().splitlines()]
    lines[0]["score"]["correct"] = False
    path.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in lines))
    rescored = rescore_run(tmp_path / "a", root)
    assert rescored.results.scores == a.results.scores
    assert rescored.results.metrics == a.results.metrics
    assert rescored.results.run.rescored_at is not None
    comparison = compare_runs(tmp_path / "a", tmp_path / "b")
    assert (comparison.paired, comparison.only_a, comparison.only_b, comparison.both_correct) == (30, 30, 0, 0)
    assert comparison.mcnemar_p == pytest.approx(2 * 0.5**30)
    assert len(comparison.differences) == 30 and comparison.differences[0].a_correct
    assert comparison.parameter_differences == {"model": ["sim-test", "sim-zero"]}


def test_compare_refuses_runs_of_different_dataset_bytes(tmp_path, synthetic):
    root, workload = synthetic
    with start_simulator(_profile(), datasets_root=root) as sim:
        run_eval(workload, resolve_engine(sim.base_url), tmp_path / "a", datasets_root=root, limit=3)
    results = json.loads((tmp_path / "a" / RESULTS).read_text())
    results["dataset"]["sha256"] = "0" * 64
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / RESULTS).write_text(json.dumps(results))
    with pytest.raises(ConfigError, match="different dataset bytes"):
        compare_runs(tmp_path / "a", tmp_path / "b")


def test_the_circuit_breaker_stops_a_run_failing_with_one_cause_and_a_rerun_resumes(tmp_path, synthetic):
    root, workload = synthetic
    broken = Engine(name="down", kind="simulator", max_retries=0, circuit_breaker=5, concurrency=2, simulator={**PERFECT, "error_5xx": 1.0})
    first = run_eval(workload, broken, tmp_path / "run", datasets_root=root, concurrency=2)
    assert first.results.complete is False
    assert 5 <= first.sent <= 5 + 2  # the breaker trips at 5; at most the requests in flight finish
    assert first.results.warnings[0].startswith("stopped after 5 failed requests in a row with one cause")
    assert "HTTP 5" in first.results.run.circuit_breaker
    # the rows it did not send are still pending: running again sends exactly those
    rest = run_eval(workload, broken.model_copy(update={"circuit_breaker": 0}), tmp_path / "run", datasets_root=root, concurrency=2)
    assert (rest.resumed, rest.sent, rest.results.complete) == (first.sent, 60 - first.sent, True)
    never = Engine(name="down", kind="simulator", max_retries=0, circuit_breaker=0, simulator={**PERFECT, "error_5xx": 1.0})
    off = run_eval(workload, never, tmp_path / "off", datasets_root=root, concurrency=2, limit=12)
    assert off.results.complete is True and off.results.run.circuit_breaker is None and off.sent == 12
