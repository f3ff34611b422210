"""The `atlas` command: `atlas eval ...` (eval runs) and `atlas sim ...` (the reference simulator).

Each domain registers its own subcommands (`register(subparsers)`), imported here when
the parser is built, so `atlas` starts without importing Dagster or the HTTP stack.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

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


def build_parser() -> argparse.ArgumentParser:
    from atlas_assets.evals import cli as eval_cli
    from atlas_assets.simulator import cli as sim_cli
    from atlas_assets.translation import cli as translation_cli

    parser = argparse.ArgumentParser(prog="atlas", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    eval_cli.register(commands)
    sim_cli.register(commands)
    translation_cli.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from atlas_assets.evals.config import ConfigError

    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ConfigError, FileNotFoundError, ConnectionError) as exc:
        print(f"atlas: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
