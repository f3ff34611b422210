"""Eval-harness performance against the reference simulator (issue 4, "Performance").

    python bench/eval_bench.py [--rows 10000] [--latency-rows 3200] [--repeat 3] [--json]

(a) Harness overhead: the eval runner (atlas_assets.evals.runner.run_eval: request
    building, the aiohttp client with SSE streaming, scoring, the JSONL checkpoint) sends
    --rows eval rows at concurrency 256 to the `sim-zero-latency` simulator. Target:
    >= 1,000 scored requests/s. The simulator runs as a child process (`python -m
    atlas_assets.simulator`), so client and server share this machine's cores the way a
    harness and a local engine do; the same run against a simulator in a thread of the
    runner's own process (what `atlas eval run --engine sim-...` does) is reported too.
(b) Concurrency efficiency: a simulator with a fixed 200 ms latency (ttft_ms=200, no
    per-token delay), concurrency 64, --latency-rows rows. The ideal is 64 / 0.2 s =
    320 requests/s; target: achieved >= 95 % of it.

Rates are rows / (time of the last record - the moment the runner starts sending), the
median of --repeat runs. The rows are a synthetic eval dataset written to a temp folder
(exact, numeric and mc scorers; streaming requests, max_tokens 256), pinned by its
content sha256 like any workload.

Results: a table on stdout and bench/results/eval-<YYYY-MM-DD>[-N].json (git-ignored).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from atlas_assets.corpus import registry  # noqa: E402
from atlas_assets.evals.engines import Engine  # noqa: E402
from atlas_assets.evals.runner import Progress, run_eval  # noqa: E402
from atlas_assets.evals.workloads import Workload  # noqa: E402
from atlas_assets.simulator import PRESETS, SimulatorProfile, start_simulator  # noqa: E402

TARGET_RPS = 1000.0
TARGET_EFFICIENCY = 0.95
DATASET = "bench-mix-v1"


def write_dataset(root: Path, rows: int) -> str:
    """A synthetic eval dataset of `rows` rows under root; returns its content sha256."""
    (root / "_gen").symlink_to(registry.DEFAULT_DATASETS_ROOT / "_gen", target_is_directory=True)
    folder = root / DATASET
    folder.mkdir()
    card = {"id": DATASET, "kind": "eval", "default_scorer": "exact", "rows_file": "rows.jsonl"}
    (folder / "dataset.json").write_text(json.dumps(card), encoding="utf-8")
    difficulties = ("easy", "medium", "hard")
    with open(folder / "rows.jsonl", "w", encoding="utf-8") as sink:
        for i in range(rows):
            a, b = 1000 + 7 * i, 3 + i % 97
            kind = i % 3
            row: dict[str, Any] = {"id": f"bench-{i:06d}", "difficulty": difficulties[i % 3], "category": ("exact", "numeric", "mc")[kind]}
            if kind == 0:
                row.update(
                    prompt=f"Item {i}: write the word 'token{i}' in capitals. Reply with the word only.", answer=f"TOKEN{i}", scorer="exact"
                )
            elif kind == 1:
                row.update(prompt=f"Item {i}: what is {a} + {b}? Reply with the number only.", answer=str(a + b), scorer="numeric")
            else:
                choices = [str(a - 1), str(a), str(a + 1), str(a + 2)]
                row.update(prompt=f"Item {i}: which number equals {a - 1} + 1?", choices=choices, answer="B", scorer="mc")
            sink.write(json.dumps(row) + "\n")
    return registry.content_sha256(folder, root)


def workload(sha256: str, concurrency: int) -> Workload:
    return Workload.model_validate(
        {
            "id": DATASET,
            "dataset": {"id": DATASET, "sha256": sha256},
            "kind": "eval",
            "request": {"max_tokens": 256, "temperature": 0.0, "stream": True},
            "input_tokens": 16,
            "concurrency": concurrency,
            "scorer": "exact",
        }
    )


def timed_run(work: Workload, engine: Engine, root: Path, run_dir: Path, concurrency: int, limit: int | None) -> dict[str, Any]:
    last = [0.0]

    def on_record(_: Any) -> None:
        last[0] = time.perf_counter()

    progress = Progress()
    outcome = run_eval(
        work, engine, run_dir, limit=limit, concurrency=concurrency, datasets_root=root, progress=progress, on_record=on_record
    )
    elapsed = last[0] - progress.started
    scores, metrics = outcome.results.scores, outcome.results.metrics
    return {
        "rows": outcome.sent,
        "seconds": round(elapsed, 3),
        "rps": round(outcome.sent / elapsed, 1),
        "accuracy": scores.accuracy if scores else None,
        "failed": metrics.requests_failed,
    }


def measure(work: Workload, engine: Engine, root: Path, concurrency: int, limit: int | None, repeat: int) -> dict[str, Any]:
    runs = []
    with tempfile.TemporaryDirectory(prefix="eval-bench-run-") as scratch:
        for n in range(repeat):
            runs.append(timed_run(work, engine, root, Path(scratch) / f"run{n}", concurrency, limit))
    return {"median_rps": statistics.median(r["rps"] for r in runs), "runs": runs}


def simulator_engine(name: str, base_url: str, model: str, concurrency: int) -> Engine:
    return Engine(name=name, kind="openai", base_url=base_url, model=model, concurrency=concurrency, timeout_s=60, max_retries=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=10_000, help="rows for the overhead bench (default %(default)s)")
    parser.add_argument("--latency-rows", type=int, default=3200, help="rows for the 200 ms bench (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median is reported (default %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the result document instead of the table")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()
    report: dict[str, Any] = {
        "date": dt.date.today().isoformat(),
        "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before],
    }
    with tempfile.TemporaryDirectory(prefix="eval-bench-data-") as tmp:
        root = Path(tmp)
        sha = write_dataset(root, max(args.rows, args.latency_rows))

        zero = PRESETS["sim-zero-latency"]
        with start_simulator(zero, datasets_root=root, process=True) as sim:
            engine = simulator_engine("bench-zero-latency", sim.base_url, zero.model, 256)
            report["overhead_child_process"] = measure(workload(sha, 256), engine, root, 256, args.rows, args.repeat)
        in_process = Engine(
            name="sim-zero-latency",
            kind="simulator",
            concurrency=256,
            timeout_s=60,
            max_retries=0,
            simulator={"preset": "sim-zero-latency"},
        )
        report["overhead_in_process"] = measure(workload(sha, 256), in_process, root, 256, args.rows, args.repeat)

        fixed = SimulatorProfile(name="sim-fixed-200ms", ttft_ms=200, skill=zero.skill, max_context=zero.max_context)
        with start_simulator(fixed, datasets_root=root, process=True) as sim:
            engine = simulator_engine("bench-fixed-200ms", sim.base_url, fixed.model, 64)
            report["latency_200ms"] = measure(workload(sha, 64), engine, root, 64, args.latency_rows, args.repeat)
    report["load_after"] = [round(x, 2) for x in os.getloadavg()]

    overhead = report["overhead_child_process"]["median_rps"]
    efficiency = report["latency_200ms"]["median_rps"] / 320.0
    report["targets"] = {
        "overhead_rps": {
            "target": TARGET_RPS,
            "achieved": overhead,
            "ratio": round(overhead / TARGET_RPS, 2),
            "met": overhead >= TARGET_RPS,
        },
        "efficiency": {
            "target": TARGET_EFFICIENCY,
            "achieved": round(efficiency, 4),
            "ratio": round(efficiency / TARGET_EFFICIENCY, 3),
            "met": efficiency >= TARGET_EFFICIENCY,
        },
    }

    results_dir = REPO / "bench" / "results"
    results_dir.mkdir(parents=True, exist_ok=True)
    path = results_dir / f"eval-{report['date']}.json"
    n = 2
    while path.exists():
        path = results_dir / f"eval-{report['date']}-{n}.json"
        n += 1
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")

    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"load average before {report['load_before']}, after {report['load_after']} ({report['cpus']} cpus)")
        print(f"{'measurement':<46} {'median':>10} {'runs (req/s)':<28} target   ratio")
        rows = [
            (
                "(a) overhead, simulator in a child process",
                report["overhead_child_process"],
                f">= {TARGET_RPS:,.0f}/s",
                report["targets"]["overhead_rps"]["ratio"],
            ),
            ("    overhead, simulator in the runner's thread", report["overhead_in_process"], "(info)", ""),
            (
                "(b) 200 ms latency, concurrency 64",
                report["latency_200ms"],
                f">= {TARGET_EFFICIENCY:.0%} of 320/s",
                report["targets"]["efficiency"]["ratio"],
            ),
        ]
        for label, data, target, ratio in rows:
            runs = ", ".join(f"{r['rps']:.0f}" for r in data["runs"])
            print(f"{label:<46} {data['median_rps']:>8.0f}/s {runs:<28} {target} {ratio}")
        print(f"(b) efficiency: {efficiency:.1%} of the ideal 320 requests/s")
        print(f"written to {path.relative_to(REPO)}")
    return 0 if all(t["met"] for t in report["targets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
