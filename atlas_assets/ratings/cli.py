"""The `humaneval-ratings` command: compute a leaderboard from a dump, or verify one."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.errors import AtlasError
from atlas_assets.core.hashing import sha256_bytes
from atlas_assets.core.progress import ProgressDisplay
from atlas_assets.core.shell import DefaultsHelpFormatter, Parser, guarded, input_file, output_file, whole_number
from atlas_assets.ratings import PACKAGE, PACKAGE_VERSION
from atlas_assets.ratings.errors import DumpError

# numpy/scipy (fit, leaderboard) are imported inside main(): a Ctrl-C while they load is
# then the same one-line exit 130 as a Ctrl-C later on.

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

limits: --bootstrap-rounds at most {rounds}; a vote weighing more than {weight:g} is rejected
(naming its line) before any fit; --out must be a regular file or not exist yet (a symbolic
link, a device or a folder is refused, never replaced).

exit status: 0 success; 1 the dump was rejected, an input is unreadable, or verify found a
difference; 2 bad command-line usage; 130 interrupted (Ctrl-C). A rejected dump or an
interrupted run never writes or replaces --out.
"""


COMPUTE_EPILOG = """\
examples:
  humaneval-ratings compute --battles battles.jsonl --votes votes.jsonl --out leaderboard.json
  humaneval-ratings compute --battles b.jsonl --votes v.jsonl --out lb.json --bootstrap-rounds 1000 --quiet

exit status: 0 written; 1 the dump was rejected (file:line: field), an input is unreadable,
or --out cannot be written (a link, device or folder is refused); 2 usage; 130 interrupted
(nothing written).
"""

VERIFY_EPILOG = """\
example:
  humaneval-ratings verify --battles battles.jsonl --votes votes.jsonl --leaderboard leaderboard.json

exit status: 0 the file reproduces byte for byte; 1 a difference (the first differing field
is named), a rejected dump or an unreadable input; 2 usage; 130 interrupted.
"""


_non_negative = whole_number(0)


def build_parser() -> argparse.ArgumentParser:
    from atlas_assets.ratings.leaderboard import MAX_BOOTSTRAP_ROUNDS, MAX_VOTE_WEIGHT, ComputeParams

    parser = Parser(
        prog="humaneval-ratings",
        description=DESCRIPTION,
        epilog=EPILOG.format(rounds=MAX_BOOTSTRAP_ROUNDS, weight=MAX_VOTE_WEIGHT),
    )
    parser.add_argument("--version", action="version", version=f"{PACKAGE} {PACKAGE_VERSION}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    compute = commands.add_parser(
        "compute",
        help="rate a dump and write leaderboard.json",
        description="Validate the dump, fit every category and write leaderboard.json atomically.",
        epilog=COMPUTE_EPILOG,
        formatter_class=DefaultsHelpFormatter,
    )
    _dump_arguments(compute)
    compute.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="FILE",
        help="where to write leaderboard.json (a regular file or a new name; never a link, device or folder)",
    )
    defaults = ComputeParams()
    compute.add_argument("--seed", type=_non_negative, default=defaults.seed, help="seed of the bootstrap's random streams")
    compute.add_argument(
        "--bootstrap-rounds",
        type=whole_number(1, MAX_BOOTSTRAP_ROUNDS),
        default=defaults.bootstrap_rounds,
        help=f"bootstrap replicates behind each confidence interval (1 to {MAX_BOOTSTRAP_ROUNDS})",
    )
    compute.add_argument(
        "--min-votes",
        type=_non_negative,
        default=defaults.min_votes,
        help="models with fewer votes in a category are provisional (rank null)",
    )
    compute.add_argument(
        "--style-min-votes",
        type=_non_negative,
        default=defaults.style_min_votes,
        help="categories with fewer votes get no style control (SC fields mirror the raw ones)",
    )
    compute.add_argument("--quiet", action="store_true", help="no progress or summary on stderr")

    verify = commands.add_parser(
        "verify",
        help="recompute a leaderboard.json and check it byte for byte",
        description=(
            "Recompute the leaderboard from the dump with the parameters recorded in the file's "
            "metadata; exit 0 only when the bytes are identical, otherwise name the first "
            f"differing field. The file is not trusted: it must be a regular file of JSON nested "
            f"at most 1024 deep, with bootstrap_rounds at most {MAX_BOOTSTRAP_ROUNDS}."
        ),
        epilog=VERIFY_EPILOG,
    )
    _dump_arguments(verify)
    verify.add_argument("--leaderboard", required=True, type=Path, metavar="FILE", help="the leaderboard.json to check")
    verify.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def _dump_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--battles", required=True, type=Path, metavar="FILE", help="battles.jsonl of the dump")
    parser.add_argument("--votes", required=True, type=Path, metavar="FILE", help="votes.jsonl of the dump")


def _compute(args: argparse.Namespace) -> int:
    from atlas_assets.ratings.leaderboard import ComputeParams, compute_leaderboard

    params = ComputeParams(
        seed=args.seed,
        bootstrap_rounds=args.bootstrap_rounds,
        min_votes=args.min_votes,
        style_min_votes=args.style_min_votes,
    )
    started = time.monotonic()
    with ProgressDisplay(quiet=args.quiet) as display:
        data = compute_leaderboard(args.battles, args.votes, params, progress=display.log())
    atomic_write_bytes(args.out, data)
    if not args.quiet:
        document = json.loads(data)
        summary = ", ".join(f"{c['category']} ({len(c['entries'])} models)" for c in document["categories"])
        print(
            f"wrote {args.out} in {time.monotonic() - started:.1f} s (sha256 {sha256_bytes(data)}): {summary or 'no voted categories'}",
            file=sys.stderr,
        )
    return 0


def _verify(args: argparse.Namespace) -> int:
    import orjson

    from atlas_assets.ratings.leaderboard import ComputeParams, compute_leaderboard

    # O_NONBLOCK: opening a FIFO with no writer returns at once (and is refused below).
    with open(os.open(args.leaderboard, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise DumpRejected(f"--leaderboard: {args.leaderboard} is a device, FIFO or socket, not a regular file")
        published = handle.read()
    try:
        # orjson, not json: it stops at 1024 levels of nesting with an error instead of
        # recursing into a RecursionError.
        document = orjson.loads(published)
        metadata = document["metadata"]
        params = ComputeParams(
            seed=metadata["seed"],
            bootstrap_rounds=metadata["bootstrap_rounds"],
            min_votes=metadata["min_votes"],
            style_min_votes=metadata["style_min_votes"],
        )
    except (ValueError, KeyError, TypeError) as error:
        raise DumpRejected(f"--leaderboard: {args.leaderboard}: not a leaderboard.json with metadata parameters ({error})") from None
    with ProgressDisplay(quiet=args.quiet) as display:
        recomputed = compute_leaderboard(args.battles, args.votes, params, progress=display.log())
    if recomputed == published:
        print(f"OK: {args.leaderboard} reproduces byte for byte (sha256 {sha256_bytes(published)})")
        return 0
    where = first_difference(orjson.loads(recomputed), document)
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
        return f"{path or '<root>'}: recomputed {_brief(expected)}, file has {_brief(found)}"
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
        return f"{path}: recomputed {_brief(expected)}, file has {_brief(found)}"
    return None


def _brief(value: Any) -> str:
    """A JSON value in at most 80 characters; a deeply nested one (from the untrusted file)
    is described rather than serialised."""
    try:
        return json.dumps(value)[:80]
    except RecursionError:
        return f"a {type(value).__name__} nested too deep to show"


def main(argv: Sequence[str] | None = None) -> int:
    return guarded("humaneval-ratings", lambda: _main(argv), interrupted="interrupted, nothing was written")


def _main(argv: Sequence[str] | None) -> int:
    from atlas_assets.ratings.fit import FitConvergenceError

    args = build_parser().parse_args(argv)
    input_file("--battles", args.battles)
    input_file("--votes", args.votes)
    if args.command == "compute":
        output_file("--out", args.out)
    else:
        input_file("--leaderboard", args.leaderboard)
    try:
        return _compute(args) if args.command == "compute" else _verify(args)
    except DumpError as error:
        raise DumpRejected(f"dump rejected: {error}") from None
    except FitConvergenceError as error:
        raise DumpRejected(f"a fit did not converge, nothing was written: {error}") from None


class DumpRejected(AtlasError):
    """What `humaneval-ratings` says about a dump it cannot rate (one line, exit 1)."""


if __name__ == "__main__":
    sys.exit(main())
