"""The `humaneval-ratings` command: compute a leaderboard from a dump, or verify one."""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.hashing import sha256_bytes
from atlas_assets.core.progress import ProgressLog
from atlas_assets.ratings import PACKAGE, PACKAGE_VERSION
from atlas_assets.ratings.errors import DumpError
from atlas_assets.ratings.fit import FitConvergenceError
from atlas_assets.ratings.leaderboard import ComputeParams, compute_leaderboard

DESCRIPTION = """\
Rate the models of an arena votes dump (battles.jsonl + votes.jsonl, dump format v1 or v2)
and write leaderboard.json: weighted Bradley-Terry ratings on the Elo scale with
percentile-bootstrap CIs, style-controlled ratings and rank bands (METHODOLOGY.md).
The output is a pure function of the input bytes and the parameters: anyone can
recompute the official file and compare sha256 digests (`verify` does exactly that).
"""

EPILOG = """\
examples:
  humaneval-ratings compute --battles battles.jsonl --votes votes.jsonl --out leaderboard.json
  humaneval-ratings compute --battles b.jsonl --votes v.jsonl --out lb.json --seed 7 --bootstrap-rounds 200
  humaneval-ratings verify --battles battles.jsonl --votes votes.jsonl --leaderboard leaderboard.json

exit status: 0 success; 1 the dump was rejected, an input is unreadable, or verify found a
difference; 2 bad command-line usage. A rejected dump never writes or replaces --out.
"""


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="humaneval-ratings",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"{PACKAGE} {PACKAGE_VERSION}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    compute = commands.add_parser(
        "compute",
        help="rate a dump and write leaderboard.json",
        description="Validate the dump, fit every category and write leaderboard.json atomically.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    _dump_arguments(compute)
    compute.add_argument("--out", required=True, type=Path, metavar="FILE", help="where to write leaderboard.json")
    defaults = ComputeParams()
    compute.add_argument("--seed", type=_non_negative, default=defaults.seed, help="seed of the bootstrap's random streams")
    compute.add_argument(
        "--bootstrap-rounds", type=_positive, default=defaults.bootstrap_rounds,
        help="bootstrap replicates behind each confidence interval",
    )
    compute.add_argument(
        "--min-votes", type=_non_negative, default=defaults.min_votes,
        help="models with fewer votes in a category are provisional (rank null)",
    )
    compute.add_argument(
        "--style-min-votes", type=_non_negative, default=defaults.style_min_votes,
        help="categories with fewer votes get no style control (SC fields mirror the raw ones)",
    )
    compute.add_argument("--quiet", action="store_true", help="no progress or summary on stderr")

    verify = commands.add_parser(
        "verify",
        help="recompute a leaderboard.json and check it byte for byte",
        description=(
            "Recompute the leaderboard from the dump with the parameters recorded in the file's "
            "metadata; exit 0 only when the bytes are identical, otherwise name the first "
            "differing field."
        ),
    )
    _dump_arguments(verify)
    verify.add_argument("--leaderboard", required=True, type=Path, metavar="FILE", help="the leaderboard.json to check")
    verify.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def _dump_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--battles", required=True, type=Path, metavar="FILE", help="battles.jsonl of the dump")
    parser.add_argument("--votes", required=True, type=Path, metavar="FILE", help="votes.jsonl of the dump")


@contextmanager
def _status_line(quiet: bool) -> Iterator[ProgressLog | None]:
    """Progress as one line on stderr redrawn in place (at most ten times a second) and
    cleared at the end, only on a terminal: a redirected stderr gets no progress."""
    stream = sys.stderr
    if quiet or not stream.isatty():
        yield None
        return

    def draw(line: str) -> None:
        stream.write(f"\r\x1b[K{line}")
        stream.flush()

    try:
        yield ProgressLog(draw, every_seconds=0.1)
    finally:
        draw("")


def _compute(args: argparse.Namespace) -> int:
    params = ComputeParams(
        seed=args.seed,
        bootstrap_rounds=args.bootstrap_rounds,
        min_votes=args.min_votes,
        style_min_votes=args.style_min_votes,
    )
    started = time.monotonic()
    with _status_line(args.quiet) as progress:
        data = compute_leaderboard(args.battles, args.votes, params, progress=progress)
    atomic_write_bytes(args.out, data)
    if not args.quiet:
        document = json.loads(data)
        summary = ", ".join(f"{c['category']} ({len(c['entries'])} models)" for c in document["categories"])
        print(
            f"wrote {args.out} in {time.monotonic() - started:.1f} s "
            f"(sha256 {sha256_bytes(data)}): {summary or 'no voted categories'}",
            file=sys.stderr,
        )
    return 0


def _verify(args: argparse.Namespace) -> int:
    published = args.leaderboard.read_bytes()
    try:
        metadata = json.loads(published)["metadata"]
        params = ComputeParams(
            seed=metadata["seed"],
            bootstrap_rounds=metadata["bootstrap_rounds"],
            min_votes=metadata["min_votes"],
            style_min_votes=metadata["style_min_votes"],
        )
    except (ValueError, KeyError, TypeError) as error:
        print(f"error: {args.leaderboard}: not a leaderboard.json with metadata parameters ({error})", file=sys.stderr)
        return 1
    with _status_line(args.quiet) as progress:
        recomputed = compute_leaderboard(args.battles, args.votes, params, progress=progress)
    if recomputed == published:
        print(f"OK: {args.leaderboard} reproduces byte for byte (sha256 {sha256_bytes(published)})")
        return 0
    where = first_difference(json.loads(recomputed), json.loads(published))
    if where is None:
        offset = next(
            (i for i, (a, b) in enumerate(zip(recomputed, published)) if a != b),
            min(len(recomputed), len(published)),
        )
        where = f"same values, different bytes from byte offset {offset} (the file is not in canonical form)"
    print(f"MISMATCH: {args.leaderboard}: {where}", file=sys.stderr)
    return 1


def first_difference(expected: Any, found: Any, path: str = "") -> str | None:
    """The first field (in document order) where two JSON values differ, described for a person."""
    if type(expected) is not type(found):
        return f"{path or '<root>'}: recomputed {json.dumps(expected)[:80]}, file has {json.dumps(found)[:80]}"
    if isinstance(expected, dict):
        # metadata first: a digest or parameter mismatch explains every later difference
        for key in sorted(set(expected) | set(found), key=lambda k: (k != "metadata", k)):
            child = f"{path}.{key}" if path else key
            if key not in found:
                return f"{child}: missing from the file"
            if key not in expected:
                return f"{child}: not produced by the recomputation"
            difference = first_difference(expected[key], found[key], child)
            if difference:
                return difference
        return None
    if isinstance(expected, list):
        for index, (a, b) in enumerate(zip(expected, found)):
            difference = first_difference(a, b, f"{path}[{index}]")
            if difference:
                return difference
        if len(expected) != len(found):
            return f"{path}: recomputed {len(expected)} items, file has {len(found)}"
        return None
    if expected != found:
        return f"{path}: recomputed {json.dumps(expected)}, file has {json.dumps(found)}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _compute(args) if args.command == "compute" else _verify(args)
    except DumpError as error:
        print(f"error: dump rejected: {error}", file=sys.stderr)
    except FitConvergenceError as error:
        print(f"error: a fit did not converge, nothing was written: {error}", file=sys.stderr)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
