"""Warm wall time of `make leaderboard`'s command, this checkout against a baseline commit,
measured in the same run (alternating, after one warm-up each).

    python bench/make_leaderboard_bench.py [--baseline df0c7f3] [--rounds 5]

The baseline is checked out into a temporary git worktree and imported through PYTHONPATH
with this checkout's .venv; each side runs the command its own Makefile runs, in its own
throw-away DAGSTER_HOME and artifacts folder. Prints the medians and the ratio
(current / baseline; below 1 is faster) and checks both wrote the same leaderboard.json.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DAGSTER = Path(sys.executable).with_name("dagster")
QUIET = "ignore:Function `asset_materialize_command` is superseded"


def command(checkout: Path) -> list[str]:
    """The materialize command of that checkout's Makefile (with its run config if it has one)."""
    run_config = checkout / "deploy" / "leaderboard.run.yaml"
    extra = ["-c", str(run_config)] if run_config.is_file() else []
    return [str(DAGSTER), "asset", "materialize", "--select", "leaderboard", *extra]


def run_once(checkout: Path, work: Path) -> tuple[float, str]:
    home, artifacts = work / "home", work / "artifacts"
    home.mkdir(parents=True, exist_ok=True)
    shutil.copy(checkout / "dagster.yaml", home / "dagster.yaml")
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "ATLAS_ARTIFACTS": str(artifacts),
        "DAGSTER_MODULE_NAME": "atlas_assets",
        "PYTHONPATH": str(checkout),
        "PYTHONWARNINGS": QUIET,
    }
    started = time.perf_counter()
    subprocess.run(command(checkout), cwd=checkout, env=env, check=True, capture_output=True)
    elapsed = time.perf_counter() - started
    return elapsed, hashlib.sha256((artifacts / "leaderboard.json").read_bytes()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="df0c7f3", help="git revision to compare against (default: before #12)")
    parser.add_argument("--rounds", type=int, default=5, help="timed runs per side (default 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lb-bench-") as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(base), args.baseline], check=True, capture_output=True)
        try:
            sides = {"baseline": base, "current": REPO}
            times: dict[str, list[float]] = {name: [] for name in sides}
            digests: dict[str, set[str]] = {name: set() for name in sides}
            for name, checkout in sides.items():  # warm-up: caches, .pyc files
                run_once(checkout, Path(tmp) / f"{name}-warm")
            for round_ in range(args.rounds):
                for name, checkout in sides.items():
                    elapsed, digest = run_once(checkout, Path(tmp) / f"{name}-{round_}")
                    times[name].append(elapsed)
                    digests[name].add(digest)
                    print(f"round {round_ + 1}/{args.rounds} {name}: {elapsed:.2f} s", flush=True)
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(base)], check=False, capture_output=True)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, value in medians.items():
        print(f"{name:9s} median {value:.2f} s (min {min(times[name]):.2f}, max {max(times[name]):.2f})")
    print(f"ratio current/baseline: {medians['current'] / medians['baseline']:.2f}")
    same = digests["baseline"] == digests["current"] and len(digests["current"]) == 1
    print(f"leaderboard.json identical on both sides: {same} ({next(iter(digests['current']))[:16]}…)")


if __name__ == "__main__":
    main()
