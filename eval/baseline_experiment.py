#!/usr/bin/env python3
"""The spec's entry point (specs/rosetta-eval-datasets.md, "6. Validate the file"):

    python eval/baseline_experiment.py --dataset path/to/your-dataset.json

validates the corpus with `atlas translation validate` (the same code: the same messages
and exit codes) and, with --engine, then runs it as `atlas translation run` does. It
needs the project's environment: run it with .venv/bin/python; another python3 without
the dependencies re-executes it with .venv/bin/python when the repo's .venv exists.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parents[1]
VENV = REPO / ".venv"
SETUP = "make .venv/.installed"
REEXECUTED = "ATLAS_BASELINE_REEXECUTED"  # set before re-executing: a venv that lacks them too is said, not looped on

EPILOG = """\
examples:
  python eval/baseline_experiment.py --dataset translation/example-en-fr-v1.json
  python eval/baseline_experiment.py --dataset my-corpus.json --engine sim-strong
  python eval/baseline_experiment.py --dataset my-corpus.json --engine http://127.0.0.1:8000 --model Qwen/Qwen3-8B --limit 50

Without --engine it prints what `atlas translation validate FILE` prints. With --engine a
valid corpus is then run (resumable: run the same command again after Ctrl-C) and its run
card written; `atlas translation run --help` says more.

exit status: 0 the corpus is valid (and the run finished); 1 the corpus is invalid or
cannot be read, or an engine or file problem (or the project is not set up); 2 usage;
130 the run was interrupted.
"""


def _project() -> None:
    """Import this checkout's project; without its dependencies re-execute with the repo's
    venv python, or exit with one line saying how to set it up."""
    sys.path.insert(0, str(REPO))
    try:
        import atlas_assets.translation.runs  # noqa: F401  (imports what validate and run need)
    except ImportError as exc:
        python = VENV / "bin" / "python"
        if python.is_file() and not os.environ.get(REEXECUTED):
            os.environ[REEXECUTED] = "1"
            os.execv(python, [str(python), str(Path(__file__).resolve()), *sys.argv[1:]])
        sys.exit(
            f"{Path(__file__).name}: the project's dependencies are missing ({exc}); "
            f"set up the environment with `{SETUP}` in {REPO}, then run .venv/bin/python eval/{Path(__file__).name}"
        )


def build_parser() -> tuple[argparse.ArgumentParser, list[argparse.Action]]:
    """The parser and the run options it forwards to `atlas translation run`."""
    from atlas_assets.core.shell import Parser
    from atlas_assets.translation import cli

    parser = Parser(description=__doc__, epilog=EPILOG)
    parser.add_argument("--dataset", required=True, type=Path, metavar="FILE", help="translation corpus file (JSON) to validate")
    parser.add_argument(
        "--engine", metavar="NAME|URL", help="then run a baseline: an engine name from the engines file, or http(s)://host:port[/v1]"
    )
    return parser, cli.add_run_options(parser)


def main(argv: Sequence[str] | None = None) -> int:
    from atlas_assets.cli import main as atlas

    parser, run_options = build_parser()
    args = parser.parse_args(argv)
    forwarded = [(action.option_strings[0], getattr(args, action.dest)) for action in run_options if getattr(args, action.dest) is not None]
    if args.engine is None and forwarded:
        parser.error(f"{', '.join(option for option, _ in forwarded)}: only with --engine")
    status = atlas(["translation", "validate", str(args.dataset)])
    if status or args.engine is None:
        return status
    return atlas(
        [
            "translation",
            "run",
            "--dataset",
            str(args.dataset),
            "--engine",
            args.engine,
            *(part for option, value in forwarded for part in (option, str(value))),
        ]
    )


if __name__ == "__main__":
    _project()
    sys.exit(main())
