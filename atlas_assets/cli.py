"""The `atlas` command: `atlas eval ...` (eval runs) and `atlas sim ...` (the reference simulator).

Each domain registers its own subcommands (`register(subparsers)`), imported here when
the parser is built, so `atlas` starts without importing Dagster or the HTTP stack.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from atlas_assets.core.shell import EXIT_STATUS_HELP, Parser, guarded

DESCRIPTION = """\
Inference Atlas command line.

  atlas eval run --workload W --engine NAME|URL   run a workload against an engine (resumable)
  atlas eval rescore RUN_DIR                      score stored outputs again, offline
  atlas eval compare RUN_A RUN_B                  per-row differences + exact McNemar test
  atlas eval list                                 engines, workloads and their dataset pins
  atlas sim serve --profile NAME --port P         the reference simulator engine (OpenAI-compatible)
  atlas translation validate|import|import-flores|run|report|compare   translation corpora, runs, sets and run cards

`atlas COMMAND --help` explains each command.
"""

EPILOG = f"""\
examples:
  atlas eval list
  atlas eval run --workload eval-instruction-v1 --engine sim-strong
  atlas translation run --dataset translation/example-en-fr-v1.json --engine sim-strong

{EXIT_STATUS_HELP}"""


def build_parser() -> argparse.ArgumentParser:
    from atlas_assets.evals import cli as eval_cli
    from atlas_assets.simulator import cli as sim_cli
    from atlas_assets.translation import cli as translation_cli

    parser = Parser(prog="atlas", description=DESCRIPTION, epilog=EPILOG)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    eval_cli.register(commands)
    sim_cli.register(commands)
    translation_cli.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return guarded("atlas", lambda: int(args.func(args) or 0))


if __name__ == "__main__":
    sys.exit(main())
