"""Autobench generation at scale: linear time, bounded memory (issue 14, deliverable 4).

    python bench/autobench_bench.py [--sizes 2000,20000,200000] [--target-s 30]

For each size N, in a fresh child process (so peak RSS is that size's own): a request file
with N seed cases (what the issue measured: the example routing generator carries every
seed case over, reviewed `accepted`), then

  baseline  PyYAML's own load of the request file (`yaml.load`, CSafeLoader when libyaml is
            there), no checks: what reading it cost before autobench.blockyaml (measured in a
            child process of its own, so its garbage does not weigh on the steps below);
  load      `files.load_request`: the safe loader (`autobench.yamlio`) + validation;
  generate  `generate_dataset_sync`: the generator + the validated `GenerationResult`;
  publish   `write_generation_result`: re-validation + dataset and manifest YAML, atomically;
  verify    `files.load_dataset` of the published file (safe load, validation, sha256s).

"total" = load + generate + publish (the issue's "generate, validate and publish"); the
target is total(200k) < --target-s. Printed per size: each step's wall time, cases/s of the
total, peak RSS, total/baseline; then time(20k)/time(2k) and time(200k)/time(20k) (linear
is ~10x). The machine's load average is printed too: the figures are wall times.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STEPS = ("baseline", "load", "generate", "publish", "verify")


def write_request(path: Path, n: int) -> None:
    with open(path, "w", encoding="utf-8") as sink:
        sink.write(
            "generation:\n  request:\n    seed: 17\n    prompt: Generate support routing cases.\n"
            "    settings: {count: 0}\n    seed_cases:\n"
        )
        for i in range(n):
            sink.write(
                f"      - id: seed-{i:07d}\n        input: {{message: 'Refund duplicate charge number {i}'}}\n"
                f"        expected: {{route: billing}}\n        metadata: {{n: {i}}}\n"
            )


def baseline(n: int, folder: Path) -> float:
    """PyYAML's bare load of the request file for `n` cases (written by `one`), in seconds."""
    import yaml

    from autobench import yamlio

    loader = yaml.CSafeLoader if yamlio.WITH_LIBYAML else yaml.SafeLoader
    started = time.perf_counter()
    data = yaml.load((folder / f"request-{n}.yaml").read_bytes(), Loader=loader)
    elapsed = time.perf_counter() - started
    assert len(data["generation"]["request"]["seed_cases"]) == n
    return elapsed


def one(n: int, folder: Path) -> dict:
    """Run every step but the baseline for `n` cases in this process; the figures as a dict."""
    sys.path.insert(0, str(REPO))
    from autobench import files, yamlio
    from autobench.examples.routing import generate_cases
    from autobench.generation import generate_dataset_sync, write_generation_result

    request_path = folder / f"request-{n}.yaml"
    write_request(request_path, n)
    times: dict[str, float] = {}

    def timed(step: str, fn):
        started = time.perf_counter()
        value = fn()
        times[step] = time.perf_counter() - started
        return value

    request = timed("load", lambda: files.load_request(request_path))
    result = timed(
        "generate",
        lambda: generate_dataset_sync(
            generate_cases, request, generator_id="autobench.examples.routing:generate_cases", dataset_id="bench", version="v1"
        ),
    )
    written = timed("publish", lambda: write_generation_result(result, folder / f"out-{n}" / "bench.yaml"))
    result = request = None  # free them before verify (the lambdas above have run)
    dataset = timed("verify", lambda: files.load_dataset(written.dataset))
    assert len(dataset.dataset.cases) == n
    return {
        "n": n,
        "times": times,
        "total": times["load"] + times["generate"] + times["publish"],
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "request_mib": request_path.stat().st_size / 2**20,
        "dataset_mib": written.dataset.stat().st_size / 2**20,
        "libyaml": yamlio.WITH_LIBYAML,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="2000,20000,200000")
    parser.add_argument("--target-s", type=float, default=30.0)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--baseline", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        sys.path.insert(0, str(REPO))
        print(json.dumps(baseline(args.one, args.dir) if args.baseline else one(args.one, args.dir)))
        return 0
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(
        f"{'cases':>8} "
        + " ".join(f"{s:>9}" for s in STEPS)
        + f" {'total s':>8} {'cases/s':>8} {'x base':>7} {'RSS MiB':>8} {'req MiB':>8} {'out MiB':>8}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="autobench-bench-") as tmp:
        for n in sizes:
            child = subprocess.run([sys.executable, __file__, "--one", str(n), "--dir", tmp], capture_output=True, text=True, check=False)
            if child.returncode:
                print(child.stderr, file=sys.stderr)
                return 1
            r = json.loads(child.stdout.splitlines()[-1])
            floor = subprocess.run(
                [sys.executable, __file__, "--one", str(n), "--dir", tmp, "--baseline"], capture_output=True, text=True, check=True
            )
            r["times"]["baseline"] = json.loads(floor.stdout.splitlines()[-1])
            rows.append(r)
            t = r["times"]
            print(
                f"{r['n']:>8} "
                + " ".join(f"{t[s]:>9.2f}" for s in STEPS)
                + f" {r['total']:>8.2f} {r['n'] / r['total']:>8.0f} {r['total'] / t['baseline']:>7.1f} {r['peak_rss_mib']:>8.0f}"
                f" {r['request_mib']:>8.1f} {r['dataset_mib']:>8.1f}",
                flush=True,
            )
    print(f"libyaml: {rows[0]['libyaml']}; load average now {os.getloadavg()[0]:.1f}")
    for a, b in zip(rows, rows[1:]):
        print(
            f"time({b['n']})/time({a['n']}) = {b['total'] / a['total']:.1f}  (cases x{b['n'] / a['n']:.0f}; "
            f"baseline {b['times']['baseline'] / a['times']['baseline']:.1f}, RSS {b['peak_rss_mib'] / a['peak_rss_mib']:.1f})"
        )
    last = rows[-1]
    verdict = "met" if last["total"] < args.target_s else "NOT met"
    print(f"target: {last['n']} cases in < {args.target_s:.0f} s: {verdict} ({last['total']:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
