"""Time the corpus machinery against its targets (issue 3, part 1).

    python bench/corpus_bench.py [--repeat N] [--json]

* regeneration of part 1's datasets (haystack-v1, eval-longctx-v1, prompts-mix-v1,
  prompts-code-v1, prompts-shared-prefix-v1): every generator run into a temp dir, as
  `check.py --regenerate` runs them (two in parallel), target < 30 s;
* `python datasets/_gen/check.py` on the whole corpus, end to end (a fresh process),
  target < 15 s;
* building the 256k-token haystack document, target "well under a second" (< 0.5 s);
* the nine capability-eval generators (eval-math/reasoning/knowledge v1 and v2, science,
  commonsense, security), run one after another, target < 20 s together (was a timed
  unit test; wall-time targets live here).

Prints seconds (best of --repeat) and the ratio to the target; exits 1 when a target is
missed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATASETS = REPO / "datasets"
PART1 = ("haystack-v1", "eval-longctx-v1", "prompts-mix-v1", "prompts-code-v1", "prompts-shared-prefix-v1")
CAPABILITY = (
    "eval-math-v1",
    "eval-reasoning-v1",
    "eval-knowledge-v1",
    "eval-math-v2",
    "eval-reasoning-v2",
    "eval-knowledge-v2",
    "eval-science-v2",
    "eval-commonsense-v2",
    "eval-security-v2",
)
TARGETS = {"regenerate_part1": 30.0, "check_py": 15.0, "haystack_256k_build": 0.5, "capability_generators": 20.0}


def _generators(ids: tuple[str, ...] = PART1) -> list[Path]:
    out = []
    for dataset_id in ids:
        card = json.loads((DATASETS / dataset_id / "dataset.json").read_text(encoding="utf-8"))
        out.append(DATASETS / card["provenance"]["generator"])
    return out


def time_regeneration() -> float:
    generators = _generators()
    with tempfile.TemporaryDirectory(prefix="corpus-bench-") as tmp:
        started = time.perf_counter()

        def run(path: Path) -> int:
            return subprocess.run([sys.executable, str(path), "--out", str(Path(tmp) / path.stem)], capture_output=True).returncode

        with ThreadPoolExecutor(max_workers=2) as pool:
            codes = list(pool.map(run, generators))
        elapsed = time.perf_counter() - started
    if any(codes):
        raise SystemExit(f"a generator failed: {dict(zip((g.name for g in generators), codes))}")
    return elapsed


def time_capability_generators() -> float:
    """The nine generators one after another, each a fresh process into a temp dir."""
    with tempfile.TemporaryDirectory(prefix="corpus-bench-") as tmp:
        started = time.perf_counter()
        for path in _generators(CAPABILITY):
            proc = subprocess.run([sys.executable, str(path), "--out", str(Path(tmp) / path.stem)], capture_output=True)
            if proc.returncode:
                raise SystemExit(f"{path.name} failed: {proc.stderr[-500:]!r}")
        return time.perf_counter() - started


def time_check() -> float:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, str(DATASETS / "_gen" / "check.py"), "-q"], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        print(proc.stdout[-2000:], file=sys.stderr)
        print("warning: check.py reported errors (timed anyway)", file=sys.stderr)
    return elapsed


def time_haystack() -> float:
    import importlib.util

    spec = importlib.util.spec_from_file_location("haystack_build", DATASETS / "haystack-v1" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    rows = [json.loads(line) for line in (DATASETS / "haystack-v1" / "rows.jsonl").read_text().splitlines()]
    row = next(r for r in rows if r["target_tokens"] == 262144)
    started = time.perf_counter()
    built = build.build(row)
    elapsed = time.perf_counter() - started
    assert built.sha256 == row["sha256"]
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    results = {
        "regenerate_part1": min(time_regeneration() for _ in range(args.repeat)),
        "check_py": min(time_check() for _ in range(args.repeat)),
        "haystack_256k_build": min(time_haystack() for _ in range(args.repeat)),
        "capability_generators": min(time_capability_generators() for _ in range(args.repeat)),
    }
    missed = [name for name, seconds in results.items() if seconds >= TARGETS[name]]
    if args.json:
        print(
            json.dumps(
                {
                    name: {"seconds": round(s, 3), "target": TARGETS[name], "ratio": round(s / TARGETS[name], 4)}
                    for name, s in results.items()
                }
            )
        )
    else:
        for name, seconds in results.items():
            print(f"{name:22s} {seconds:8.3f} s   target < {TARGETS[name]:5.1f} s   ratio {seconds / TARGETS[name]:.3f}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
