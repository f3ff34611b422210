"""`atlas sim ...`: run the reference simulator engine from the command line.

`register(subparsers)` adds the `sim` command group to an argparse parser (atlas_assets/
cli.py calls it); every leaf parser sets `func`, a callable `(args) -> int` exit code.
`python -m atlas_assets.simulator` takes the same options as `atlas sim serve`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from atlas_assets.core.shell import Parser
from atlas_assets.corpus.registry import DEFAULT_DATASETS_ROOT

__all__ = ["add_serve_arguments", "main", "register", "serve"]

DEFAULT_ENGINES_FILE = Path("engines.yaml")

SIM_HELP = """\
The reference simulator engine: an OpenAI-compatible chat-completions server that
pretends to be a model. It is NOT a model: it recognises the corpus rows it is asked
(datasets/), answers them right or wrong with a configurable skill per difficulty,
streams tokens on a latency model, and injects failures at configured rates, so eval
runs, demos and tests work offline and reproducibly. Every response carries the header
`x-atlas-simulator: 1`, and /v1/models reports owned_by "inference-atlas-simulator".
"""

SERVE_EPILOG = """\
examples:
  atlas sim serve --profile sim-strong --port 8000
  atlas sim serve --profile sim-flaky --engines engines.yaml --log /tmp/sim-requests.jsonl
  atlas sim serve --profile my-profile.yaml          # a file holding one profile

  curl -s http://127.0.0.1:8000/v1/models
  curl -s http://127.0.0.1:8000/v1/chat/completions -H 'content-type: application/json' \\
    -d '{"model": "sim-strong", "messages": [{"role": "user", "content": "Hello"}]}'

The first line on stdout is the base URL (http://HOST:PORT/v1), also with --port 0,
which picks a free port. `atlas sim profiles` lists the presets; README.md ("The reference simulator engine")
explains profiles, the failure modes and determinism.

exit status: 0 stopped (Ctrl-C or SIGTERM: a server's normal end); 1 an unknown profile, an
engines file with a problem, or the port cannot be bound; 2 usage.
"""

SIM_EPILOG = """\
examples:
  atlas sim profiles
  atlas sim serve --profile sim-strong --port 0

exit status: as each command's --help says (0 done, 1 a problem with what was given, 2 usage).
"""

PROFILES_EPILOG = """\
examples:
  atlas sim profiles
  atlas sim profiles --engines engines.yaml --json

exit status: 0 listed; 1 the engines file has a problem (named with its field); 2 usage.
"""


def add_serve_arguments(parser: argparse.ArgumentParser, default_port: int = 8000) -> None:
    parser.add_argument(
        "--profile",
        required=True,
        metavar="NAME",
        help="an engine of --engines with a `simulator:` block, a preset (sim-strong, sim-weak, sim-flaky, "
        "sim-text-only, sim-zero-latency), or a .json/.yaml file holding one profile",
    )
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default: %(default)s, loopback only)")
    parser.add_argument("--port", type=int, default=default_port, help="TCP port; 0 picks a free one (default: %(default)s)")
    parser.add_argument(
        "--engines",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"engines file whose `simulator:` blocks define profiles (default: ./{DEFAULT_ENGINES_FILE} when it exists)",
    )
    parser.add_argument(
        "--datasets",
        type=Path,
        default=DEFAULT_DATASETS_ROOT,
        metavar="DIR",
        help="the corpus to recognise (default: the repository's datasets/)",
    )
    parser.add_argument(
        "--log",
        type=Path,
        default=None,
        metavar="FILE",
        help="append one JSON line per chat request (row id, body sha256, outcome, attempt)",
    )


def _engines_file(args: argparse.Namespace) -> Path | None:
    if args.engines is not None:
        engines: Path = args.engines
        return engines
    return DEFAULT_ENGINES_FILE if DEFAULT_ENGINES_FILE.is_file() else None


def serve(args: argparse.Namespace) -> int:
    from atlas_assets.simulator.index import corpus_index
    from atlas_assets.simulator.profiles import ProfileError, resolve_profile
    from atlas_assets.simulator.server import SimulatorApp, bind, build_server, run, url_of

    try:
        profile = resolve_profile(args.profile, _engines_file(args))
    except ProfileError as exc:
        print(f"atlas sim serve: error: --profile: {exc}", file=sys.stderr)
        return 1
    index = corpus_index(args.datasets.resolve())
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        print(f"atlas sim serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    app = SimulatorApp(profile, index, args.log, keep_log=False)  # the --log file is the record
    url = url_of(sock)
    print(url, flush=True)
    print(
        f"Inference Atlas SIMULATOR (not a model): profile {profile.name}, model id {profile.model}, "
        f"{index.rows} corpus rows indexed; OpenAI-compatible API at {url} (Ctrl+C stops)",
        file=sys.stderr,
        flush=True,
    )
    try:
        run(build_server(app), sock)
    finally:
        app.close()
    return 0


def profiles(args: argparse.Namespace) -> int:
    from atlas_assets.simulator.profiles import PRESETS, ProfileError, load_engine_profiles

    found: dict[str, Any] = {name: p.model_dump(mode="json") for name, p in PRESETS.items()}
    engines = _engines_file(args)
    if engines is not None:
        try:
            found.update({name: p.model_dump(mode="json") for name, p in load_engine_profiles(engines).items()})
        except ProfileError as exc:
            print(f"atlas sim profiles: error: --engines: {exc}", file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    print(f"{'profile':<18} {'model':<18} {'skill e/m/h':<16} {'ttft+tok ms':<12} {'5xx/t-o/429/drop':<20} {'text_only':<9} max_context")
    for name, p in found.items():
        skill = "/".join(f"{p['skill'][d]:.2f}" for d in ("easy", "medium", "hard"))
        latency = f"{p['ttft_ms']:g}+{p['per_token_ms']:g}"
        failures = "/".join(f"{p[k]:g}" for k in ("error_5xx", "timeout", "rate_limit_429", "drop"))
        print(f"{name:<18} {p['model']:<18} {skill:<16} {latency:<12} {failures:<20} {str(p['text_only']).lower():<9} {p['max_context']}")
    return 0


def register(subparsers: Any) -> None:
    """Add `sim serve` and `sim profiles` to an argparse subparsers object."""
    sim = subparsers.add_parser(
        "sim", help="the reference simulator engine (an OpenAI-compatible fake model)", description=SIM_HELP, epilog=SIM_EPILOG
    )
    commands = sim.add_subparsers(dest="sim_command", required=True, metavar="COMMAND")
    serve_parser = commands.add_parser(
        "serve",
        help="serve a simulator profile over HTTP",
        description=SIM_HELP,
        epilog=SERVE_EPILOG,
    )
    add_serve_arguments(serve_parser)
    serve_parser.set_defaults(func=serve)
    profiles_parser = commands.add_parser(
        "profiles",
        help="list the preset profiles (and those of an engines file)",
        description="List simulator profiles: the presets, plus the `simulator:` blocks of an engines file.",
        epilog=PROFILES_EPILOG,
    )
    profiles_parser.add_argument(
        "--engines",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"also list this engines file's simulator profiles (default: ./{DEFAULT_ENGINES_FILE} when it exists)",
    )
    profiles_parser.add_argument("--json", action="store_true", help="print every field of every profile as JSON")
    profiles_parser.set_defaults(func=profiles)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m atlas_assets.simulator`: the options of `atlas sim serve`."""
    parser = Parser(prog="python -m atlas_assets.simulator", description=SIM_HELP, epilog=SERVE_EPILOG)
    add_serve_arguments(parser)
    return serve(parser.parse_args(argv))
