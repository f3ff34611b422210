"""Progress lines of a generation and a benchmark run, and content digests that a re-run keeps."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from atlas_assets.core.progress import ProgressLog
from autobench import CaseGeneratorInput, GenerationCost, GenerationUsage, generate_dataset_sync
from autobench.benchmark import benchmark_facts, content_sha256, run_benchmark, verified_dataset
from autobench.examples.routing import generate_cases, generate_cases_async
from autobench.files import BenchmarkFile, load_document
from autobench.generation import write_generation_result
from autobench.progress import GenerationProgress

REQ = CaseGeneratorInput(seed=17, settings={"route": "billing", "count": 6, "reject": ["generated-002"]})
BENCH = """\
benchmark:
  routing:
    dataset:
      source: file://generated-routing.yaml
      version: v1
    run:
      python: autobench.examples.benchmark_task:run
      concurrency: 3
    variants:
      current: {}
      candidate:
        fail_on: generated-001
"""


def test_generation_lines_count_cases_with_rate_and_eta_then_the_review_states(fake_clock):
    clock, lines = fake_clock, []
    progress = GenerationProgress(ProgressLog(lines.append, 10.0, clock), "routing", "mod:gen", clock)
    for done in range(1, 41):
        clock.now += 1.0
        progress.cases(done, 40, "3 invalid")
    progress.finished(40, {"candidate": 30, "accepted": 9, "rejected": 1}, None)
    assert lines[0] == "generating routing with mod:gen"
    assert lines[1] == "generating routing: 1 of 40 cases (2 %) · 1.0 cases/s · ETA 39 s · 3 invalid"
    counts = [int(re.match(r"generating routing: (\d+) of 40", line)[1]) for line in lines[1:-1]]
    assert counts == sorted(set(counts)) and len(counts) >= 4  # the line moves on, k increases
    assert lines[-1] == "generated routing: 40 cases in 40 s (30 candidate, 9 accepted, 1 rejected) · complete"


@pytest.mark.parametrize("generator", [generate_cases, generate_cases_async], ids=["sync", "async"])
def test_generate_dataset_sync_sends_the_generators_reports_to_the_log(generator):
    lines: list[str] = []
    result = generate_dataset_sync(
        generator, REQ, generator_id="routing:gen", dataset_id="r", version="v1", progress=ProgressLog(lines.append, every_seconds=0)
    )
    assert lines[0] == "generating r with routing:gen"
    assert [int(re.match(r"generating r: (\d+) of 6 cases", line)[1]) for line in lines[1:-1]] == [1, 2, 3, 4, 5, 6]
    assert re.fullmatch(r"generated r: 6 cases in \d+ s \(5 candidate, 0 accepted, 1 rejected\) · complete", lines[-1])
    assert result.review_counts == {"candidate": 5, "accepted": 0, "rejected": 1}


def test_batch_content_digest_leaves_out_timestamps_usage_and_cost():
    first = generate_dataset_sync(generate_cases, REQ, generator_id="g", dataset_id="r", version="v1")
    again = generate_dataset_sync(generate_cases, REQ, generator_id="g", dataset_id="r", version="v1")
    assert first.started_at != again.started_at  # a new execution...
    assert (first.content_sha256, first.review_sha256) == (again.content_sha256, again.review_sha256)  # ...same content
    costly = first.batch.model_copy(update={"usage": GenerationUsage(requests=3), "cost": GenerationCost(amount=0.5)})
    assert first.model_copy(update={"batch": costly}).content_sha256 == first.content_sha256
    other = generate_dataset_sync(generate_cases, REQ.model_copy(update={"seed": 18}), generator_id="g", dataset_id="r", version="v1")
    assert other.content_sha256 != first.content_sha256


def _benchmark(tmp_path: Path):
    write_generation_result(
        generate_dataset_sync(generate_cases, REQ, generator_id="g", dataset_id="generated-routing", version="v1"),
        tmp_path / "generated-routing.yaml",
    )
    (tmp_path / "bench.yaml").write_text(BENCH)
    spec = load_document(tmp_path / "bench.yaml", BenchmarkFile).benchmark["routing"]
    return spec, verified_dataset(spec, tmp_path)


def _summary(results: Path) -> dict:
    return json.loads((results / "routing" / "summary.json").read_text())


def test_benchmark_lines_say_cells_failed_pass_rate_and_resume(tmp_path):
    spec, dataset = _benchmark(tmp_path)
    lines: list[str] = []
    run_benchmark("routing", spec, tmp_path, tmp_path / "results", progress=ProgressLog(lines.append, every_seconds=0))
    cells = 2 * len(dataset.cases)
    assert lines[0] == f"routing: {cells} cells to run (2 variants x {len(dataset.cases)} cases, concurrency 3)"
    done = [int(re.match(rf"routing: (\d+)/{cells} cells \(\d failed, 0 resumed\) · pass rate so far ", line)[1]) for line in lines[1:-1]]
    assert done == list(range(1, cells + 1))
    assert re.fullmatch(
        rf"routing: {cells}/{cells} cells \(1 failed, 0 resumed\) · pass rate [\d.]+% · [\d.]+ cells/s · done in \d+ s", lines[-1]
    )

    lines.clear()
    run_benchmark("routing", spec, tmp_path, tmp_path / "results", progress=ProgressLog(lines.append, every_seconds=0))
    assert lines[0].startswith(f"routing: resuming, {cells} cells already recorded, 0 to run")
    [final] = lines[1:]  # nothing ran: the resumed cells' counts, with no rate
    assert re.fullmatch(rf"routing: {cells}/{cells} cells \(1 failed, {cells} resumed\) · pass rate [\d.]+% · done in \d+ s", final)


def test_benchmark_content_digest_is_kept_by_a_fresh_rerun_and_moved_by_a_new_score(tmp_path):
    spec, dataset = _benchmark(tmp_path)
    run_benchmark("routing", spec, tmp_path, tmp_path / "a")
    run_benchmark("routing", spec, tmp_path, tmp_path / "b")  # a fresh run: other latencies, maybe another order
    first, second = _summary(tmp_path / "a"), _summary(tmp_path / "b")
    assert first["content_sha256"] == second["content_sha256"]
    rows = [json.loads(line) for line in (tmp_path / "a" / "routing" / "results.jsonl").read_text().splitlines()]
    assert content_sha256(rows, spec, dataset.sha256) == first["content_sha256"]
    shuffled = random.Random(1).sample(rows, len(rows))
    slower = [{**r, "latency_s": r["latency_s"] + 1.0, "error": r["error"] and r["error"] + " after 30 s"} for r in shuffled]
    earlier = {**rows[0], "dataset_sha256": "0" * 64, "passed": not rows[0]["passed"]}  # another dataset's row
    assert content_sha256([*slower, earlier], spec, dataset.sha256) == first["content_sha256"]
    rescored = [{**rows[0], "score": 0.5}, *rows[1:]]
    assert content_sha256(rescored, spec, dataset.sha256) != first["content_sha256"]


def test_benchmark_facts_put_pass_rate_and_mean_score_per_variant_first(tmp_path):
    spec, _ = _benchmark(tmp_path)
    run_benchmark("routing", spec, tmp_path, tmp_path / "results")
    summary = _summary(tmp_path / "results")
    facts = benchmark_facts(summary)
    assert [f.key for f in facts[:4]] == ["current.pass_rate", "current.mean_score", "candidate.pass_rate", "candidate.mean_score"]
    assert all(f.kind == "float" for f in facts[:4]) and facts[0].value == summary["variants"][0]["pass_rate"]
    table = next(f for f in facts if f.key == "variants")
    assert table.kind == "md" and "| candidate | " in table.value and " | 1 | " in table.value  # candidate's one error
    assert facts[-1].key == "content_sha256" and facts[-1].value == summary["content_sha256"]
