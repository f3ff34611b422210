"""Measure the code_exec sandbox: rows/s for the eval-code references.

    python bench/sandbox_bench.py [--dataset eval-code-v1] [--threads 2] [--repeat 1] [--json]

Runs every row's reference answer against its tests through `run_python` (one sandbox and
one judge per row), --threads at a time like the eval runner, and prints rows/s, the
per-item latency percentiles (wall time of `run_python`, sandbox start to verdict) and the
sandbox mode. Exits 1 when any reference fails, so a faster-but-wrong sandbox cannot post a
number. No target is asserted: the figure depends on the machine (recorded in the README).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atlas_assets.corpus.sandbox import SandboxResult, run_python, sandbox_mode  # noqa: E402

DATASETS = Path(__file__).resolve().parents[1] / "datasets"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="eval-code-v1")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="run the whole set this many times")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    lines = (DATASETS / args.dataset / "rows.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()] * args.repeat
    mode = sandbox_mode()
    run_python("", "")  # warm the imports outside the measurement

    def one(row: dict) -> SandboxResult:
        return run_python(row["answer"], row["tests"])

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.threads) as pool:
        results = list(pool.map(one, rows))
    elapsed = time.perf_counter() - start

    latencies = sorted(r.wall_seconds for r in results)
    failed = [row["id"] for row, r in zip(rows, results) if not r.passed]
    report = {
        "dataset": args.dataset,
        "rows": len(rows),
        "threads": args.threads,
        "mode": mode,
        "seconds": round(elapsed, 2),
        "rows_per_second": round(len(rows) / elapsed, 1),
        "latency_ms_p50": round(1000 * statistics.median(latencies), 1),
        "latency_ms_p95": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 1),
        "failed": failed,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{args.dataset}: {len(rows)} references, {args.threads} threads, mode {mode}")
        print(
            f"  {report['rows_per_second']} rows/s ({report['seconds']} s); "
            f"latency p50 {report['latency_ms_p50']} ms, p95 {report['latency_ms_p95']} ms"
        )
        if failed:
            print(f"  FAILED: {len(failed)} references: {', '.join(failed[:10])}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
