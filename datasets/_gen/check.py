# /// script
# requires-python = ">=3.11"
# dependencies = ["pydantic>=2.7"]
# ///
"""Validate the whole corpus; exit non-zero on any error.

    uv run datasets/_gen/check.py          # or: python datasets/_gen/check.py
    python datasets/_gen/check.py --regenerate

Checks every row of every dataset against its schema (unique ids, buckets consistent with
approx_tokens, scorer names known, choices/answer consistent, referenced files inside the
dataset folder), re-verifies every haystack sha256 (haystack-v1 rows and eval rows'
meta.haystack), runs the instruction rules' self-test and each instruction row's
meta.example_pass, enforces the unique-text rule corpus-wide, checks published datasets
against _gen/published.lock.json and the corpus index against the folders, and prints the
corpus size against the 25 MB budget. With --regenerate it also runs every generator into
a temp dir and diffs the bytes. Every error names the dataset, the row id and the field.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bootstrap  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Validate the Inference Atlas corpus.")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent, help="datasets folder (default: this checkout's datasets/)")
    parser.add_argument("--regenerate", action="store_true", help="regenerate every dataset into a temp dir and diff bytes")
    parser.add_argument("--dataset", action="append", metavar="ID", help="check only this dataset (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel generators for --regenerate (default 2)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print errors and the verdict only")
    args = parser.parse_args(argv)

    validate = _bootstrap.corpus("validate")
    started = time.perf_counter()
    report = validate.validate_corpus(args.root, regenerate=args.regenerate, only=args.dataset, jobs=args.jobs)
    elapsed = time.perf_counter() - started

    for problem in report.errors:
        print(f"ERROR {problem}")
    if not args.quiet:
        for problem in report.warnings:
            print(f"warning {problem}")
        share = 100 * report.corpus_bytes / report.budget_bytes
        print(
            f"corpus size: {report.corpus_bytes / 1e6:.2f} MB of the {report.budget_bytes / 1e6:.0f} MB budget ({share:.1f} %)"
        )
        timings = ", ".join(f"{k} {v:.2f}s" for k, v in report.timings.items())
        print(f"checked {len(report.datasets)} datasets, {report.rows} rows in {elapsed:.2f} s ({timings})")
    if report.errors:
        print(f"FAILED: {len(report.errors)} error(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
