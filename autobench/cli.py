"""The `autobench` command.

  autobench dataset generate MODULE:FUNCTION --request F --output F --id ID --version V [--force]
  autobench run BENCHMARK.yaml [--benchmark NAME] [--results DIR]
  autobench schemas [--check]

Exit codes: 0 success; 1 failed operation (generator exception, invalid request, refused
overwrite, refused dataset); 2 incomplete generation (only <stem>.incomplete.yaml was
written); 64 command-line usage error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Sequence

EXIT_OK, EXIT_FAILED, EXIT_INCOMPLETE, EXIT_USAGE = 0, 1, 2, 64


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def load_callable(spec: str, search: Sequence[Path] = ()) -> Callable[..., Any]:
    """Import `module:function` (the current folder and `search` folders are importable)."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"expected MODULE:FUNCTION, got {spec!r}")
    for folder in (Path.cwd(), *search):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    module = importlib.import_module(module_name)
    target: Any = module
    for part in attr.split("."):
        target = getattr(target, part)
    if not callable(target):
        raise TypeError(f"{spec} is not callable")
    return target


def _generate(args: argparse.Namespace) -> int:
    from autobench import files
    from autobench.generation import PublicationError, generate_dataset_sync, output_paths, write_generation_result
    from autobench.progress import TtyProgress, listening

    paths = output_paths(args.output)
    try:
        request = files.load_request(args.request)
    except files.DocumentError as exc:
        print(f"autobench: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    existing = [p for p in (paths.dataset, paths.manifest) if p.exists()]
    if existing and not args.force:
        print(
            "autobench: error: refusing to replace existing output(s): " + ", ".join(map(str, existing))
            + "\n  use --force to replace both the dataset and its generation manifest",
            file=sys.stderr,
        )
        return EXIT_FAILED
    try:
        generator = load_callable(args.generator)
    except Exception as exc:  # noqa: BLE001 - any import problem is a failed operation
        print(f"autobench: error: cannot load generator {args.generator}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        with TtyProgress(f"generating {args.id}") as progress, listening(progress):
            result = generate_dataset_sync(generator, request, generator_id=args.generator, dataset_id=args.id, version=args.version)
    except Exception as exc:  # noqa: BLE001 - an exception is a failed generation: nothing is written
        if os.environ.get("AUTOBENCH_TRACEBACK"):
            traceback.print_exc()
        print(f"autobench: error: generation failed, nothing was written: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        written = write_generation_result(result, paths.dataset, force=args.force)
    except (FileExistsError, PublicationError) as exc:  # appeared while generating / edited result
        print(f"autobench: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    counts = result.review_counts
    summary = f"{len(result.records)} cases ({counts['candidate']} candidate, {counts['accepted']} accepted, {counts['rejected']} rejected)"
    if not written.complete:
        print(f"incomplete generation: {result.batch.incomplete_reason}", file=sys.stderr)
        print(f"wrote {written.incomplete} ({summary}); {paths.dataset} was not written or changed", file=sys.stderr)
        return EXIT_INCOMPLETE
    print(f"wrote {written.dataset} (sha256 {result.dataset_sha256}, {len(result.published_cases)} published)")
    print(f"wrote {written.manifest} ({summary}, determinism {result.batch.determinism.value})")
    if written.removed_incomplete:
        print(f"removed {written.removed_incomplete} (the sidecar of an earlier incomplete generation)")
    return EXIT_OK


def _run(args: argparse.Namespace) -> int:
    from atlas_assets.core.progress import ProgressLog
    from autobench import benchmark, files

    progress = ProgressLog(lambda line: print(line, file=sys.stderr, flush=True))
    try:
        outcomes = benchmark.run_benchmark_file(
            args.benchmark_file, only=args.benchmark, results_dir=args.results, out=sys.stdout, progress=progress
        )
    except (files.DocumentError, files.DatasetIntegrityError, benchmark.BenchmarkError, FileNotFoundError) as exc:
        print(f"autobench: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK if outcomes else EXIT_FAILED


def _schemas(args: argparse.Namespace) -> int:
    from autobench import schemas

    if args.check:
        stale = schemas.drift()
        if stale:
            print("autobench: schemas out of date: " + ", ".join(stale) + " (run `autobench schemas`)", file=sys.stderr)
            return EXIT_FAILED
        print("schemas up to date")
        return EXIT_OK
    for path in schemas.write():
        print(f"wrote {path}")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="autobench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)

    dataset = commands.add_parser("dataset", help="generated datasets")
    dataset_commands = dataset.add_subparsers(dest="dataset_command", metavar="COMMAND", required=True, parser_class=_Parser)
    gen = dataset_commands.add_parser("generate", help="run a case generator and publish a reviewed dataset")
    gen.add_argument("generator", metavar="MODULE:FUNCTION", help="a sync or async generator callable")
    gen.add_argument("--request", required=True, type=Path, help="generation request YAML")
    gen.add_argument("--output", required=True, type=Path, help="dataset YAML to write (manifest: <stem>.generation.yaml)")
    gen.add_argument("--id", required=True, help="dataset id")
    gen.add_argument("--version", required=True, help="dataset version")
    gen.add_argument("--force", action="store_true", help="replace an existing dataset and its manifest (both)")
    gen.set_defaults(func=_generate)

    run = commands.add_parser("run", help="run every case x variant of a benchmark file (never generates)")
    run.add_argument("benchmark_file", metavar="BENCHMARK.yaml", type=Path)
    run.add_argument("--benchmark", action="append", help="only this benchmark (repeatable)")
    run.add_argument("--results", type=Path, help="results folder (default: <benchmark folder>/.autobench/results)")
    run.set_defaults(func=_run)

    sch = commands.add_parser("schemas", help="write (or --check) the JSON Schemas under schemas/0.3.0/")
    sch.add_argument("--check", action="store_true")
    sch.set_defaults(func=_schemas)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
