"""Autobench: generate reviewed benchmark datasets, then run benchmarks on them.

Generation is a separate, deliberate step (`autobench dataset generate`); `autobench run`
only reads frozen, hash-verified datasets and never generates. Spec:
specs/autobench-generated-datasets.md; the README's "Autobench" section.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Sequence, cast

from atlas_assets.core.shell import DEBUG_VARIABLE, Parser, guarded

EXIT_OK, EXIT_FAILED, EXIT_INCOMPLETE, EXIT_USAGE = 0, 1, 2, 64


class _Parser(Parser):
    """Usage errors exit 64: the spec gives 2 to an incomplete generation."""

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
    return cast(Callable[..., Any], target)


def _generate(args: argparse.Namespace) -> int:
    from atlas_assets.core.progress import ProgressDisplay
    from autobench import files
    from autobench.generation import PublicationError, generate_dataset_sync, output_paths, write_generation_result

    paths = output_paths(args.output)
    try:
        request = files.load_request(args.request)
    except files.DocumentError as exc:
        print(f"autobench: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    existing = [p for p in (paths.dataset, paths.manifest) if p.exists()]
    if existing and not args.force:
        print(
            "autobench: error: refusing to replace existing output(s): "
            + ", ".join(map(str, existing))
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
        with ProgressDisplay(quiet=args.quiet) as display:
            result = generate_dataset_sync(generator, request, generator_id=args.generator, dataset_id=args.id, version=args.version,
                                           progress=display.log())  # fmt: skip
    except Exception as exc:  # noqa: BLE001 - an exception is a failed generation: nothing is written
        if os.environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
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


def _freeze(args: argparse.Namespace) -> int:
    from autobench import files

    try:
        written, dataset, before = files.freeze_dataset(args.file, args.output)
    except files.DocumentError as exc:
        print(f"autobench: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as exc:
        print(f"autobench: error: cannot write {args.output or args.file}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILED
    change = "unchanged" if before == dataset.sha256 else (f"was {before}" if before else "was unstamped")
    print(
        f"wrote {written} ({dataset.source} dataset {dataset.id}@{dataset.version}, {len(dataset.cases)} cases, sha256 {dataset.sha256}; {change})"
    )
    return EXIT_OK


def _export(args: argparse.Namespace) -> int:
    from atlas_assets.core.atomic import atomic_write_bytes
    from autobench import evals_format, files

    if args.output.exists() and not args.force:
        print(f"autobench: error: refusing to replace {args.output} (use --force)", file=sys.stderr)
        return EXIT_FAILED
    try:
        dataset = files.load_dataset(args.file).dataset
        data = evals_format.export_bytes(evals_format.export(dataset), args.output)
    except (files.DocumentError, files.DatasetIntegrityError, evals_format.FormatError) as exc:
        print(f"autobench: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        atomic_write_bytes(args.output, data)
    except OSError as exc:
        print(f"autobench: error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILED
    print(
        f"wrote {args.output} ({args.format} dataset {dataset.id!r}, {len(dataset.cases)} cases, from {dataset.id}@{dataset.version} sha256 {dataset.sha256})"
    )
    return EXIT_OK


def _run(args: argparse.Namespace) -> int:
    from atlas_assets.core.progress import ProgressDisplay
    from autobench import benchmark, files

    try:
        with ProgressDisplay(quiet=args.quiet) as display:
            outcomes = benchmark.run_benchmark_file(
                args.benchmark_file, only=args.benchmark, results_dir=args.results, out=sys.stdout, progress=display.log()
            )
    except (files.DocumentError, files.DatasetIntegrityError, benchmark.BenchmarkError, FileNotFoundError) as exc:
        print(f"autobench: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK if outcomes else EXIT_FAILED


def _schemas(args: argparse.Namespace) -> int:
    from autobench import schemas

    where = schemas.schema_dir(args.dir)
    if args.check:
        stale = schemas.drift(args.dir)
        if stale:
            print(f"autobench: schemas in {where} out of date: " + ", ".join(stale) + " (run `autobench schemas`)", file=sys.stderr)
            return EXIT_FAILED
        print(f"schemas up to date ({where})")
        return EXIT_OK
    try:
        written = schemas.write(args.dir)
    except OSError as exc:
        print(f"autobench: error: cannot write the schemas to {where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILED
    for path in written:
        print(f"wrote {path}")
    return EXIT_OK


EXIT_CODES = """exit codes:
  0   success
  1   failed operation: unreadable or invalid input (named with its file and line), generator
      exception or not importable, refused overwrite, refused dataset, failed check
  2   incomplete generation: only <stem>.incomplete.yaml was written
  64  command-line usage error (so 2 means only "incomplete")
  70  an internal error (a bug; ATLAS_DEBUG=1 for the traceback)
  130 interrupted (Ctrl-C): nothing is published"""

DATASET_EPILOG = f"""examples:
  autobench dataset generate autobench.examples.routing:generate_cases \\
      --request generation-request.yaml --output datasets/generated-routing.yaml --id generated-routing --version v1
  autobench dataset freeze datasets/curated-routing.yaml
  autobench dataset export datasets/generated-routing.yaml --format pydantic-evals --output routing.evals.yaml

{EXIT_CODES}"""

MAIN_EPILOG = f"""examples:
  autobench dataset generate autobench.examples.routing:generate_cases \\
      --request generation-request.yaml --output datasets/generated-routing.yaml \\
      --id generated-routing --version v1
  autobench run routing.benchmark.yaml
  autobench schemas --check

Every YAML input is read safely: regular UTF-8 files of at most 256 MiB
($AUTOBENCH_MAX_YAML_BYTES), no duplicate keys, bounded aliases and nesting.
ATLAS_DEBUG=1 prints the traceback of a failed generation (and of any error).

{EXIT_CODES}"""

GENERATE_EPILOG = f"""Runs MODULE:FUNCTION (sync or async; the current folder is importable) once on the
request, validates the batch, and writes the dataset YAML at --output and its manifest
<stem>.generation.yaml (the review state, provenance, usage, cost and hashes of every case,
rejected ones included). Rejected cases are not published. An incomplete batch writes only
<stem>.incomplete.yaml and leaves the dataset untouched, even with --force; a complete one
removes a stale <stem>.incomplete.yaml.

examples:
  autobench dataset generate autobench.examples.routing:generate_cases \\
      --request autobench/examples/generated-routing.request.yaml \\
      --output datasets/generated-routing.yaml --id generated-routing --version v1
  autobench dataset generate mygen:generate_cases --request r.yaml --output d.yaml \\
      --id d --version v2 --force      # replace d.yaml and d.generation.yaml (both)

{EXIT_CODES}"""

FREEZE_EPILOG = f"""Validates a curated (hand-written) or imported dataset YAML -- dataset: {{id, version,
source: curated, cases: [{{id, input, expected, metadata}}]}} -- and stamps its content sha256
(the canonical JSON of the `dataset` mapping without `sha256`), in place or at --output.
`autobench run` refuses a dataset whose content no longer matches that sha256, so freeze
again (deliberately, after review) whenever you edit it, and pin the new sha256 in the
benchmark if you pin one. Generated datasets are refused: regenerate them instead.

examples:
  autobench dataset freeze datasets/routing-curated.yaml
  autobench dataset freeze draft.yaml --output datasets/routing-curated.yaml

{EXIT_CODES}"""

EXPORT_EPILOG = f"""Writes a verified Autobench dataset (generated, curated or imported) as a Pydantic Evals
dataset file that `pydantic_evals.Dataset.from_file` loads: JSON for a .json --output, else
YAML. Each case: name = id, inputs = input, expected_output = expected, metadata = metadata
plus `autobench: {{dataset, version, dataset_sha256}}`. The other way needs no command: a
benchmark's dataset.source may be a Pydantic Evals file (README "Pydantic Evals").

examples:
  autobench dataset export datasets/routing.yaml --format pydantic-evals --output routing.pe.yaml
  autobench dataset export datasets/routing.yaml --format pydantic-evals --output routing.json --force

{EXIT_CODES}"""

RUN_EPILOG = f"""Runs every case x variant of each benchmark in the file (sync or async `run(case,
variant_config)`), resuming recorded cells, and prints pass rate, mean score and latency per
variant. The dataset must exist, match its sha256 and version: it is never generated.
Results: <benchmark folder>/.autobench/results/<name>/results.jsonl and summary.json.

examples:
  autobench run autobench/examples/routing.benchmark.yaml
  autobench run benchmarks.yaml --benchmark routing --results /tmp/results

{EXIT_CODES}"""

SCHEMAS_EPILOG = f"""The JSON Schemas of the YAML files, made from the models: generation_request_schema,
dataset_schema, generation_manifest_schema and benchmark_schema (.json). They are package
data (autobench/schema_files/0.3.0/). Written YAML starts with
`# yaml-language-server: $schema=...`: relative when a folder above the file holds
schemas/0.3.0/ (put a copy there with --dir), else the installed copy's file:// URI.

examples:
  autobench schemas --check            # the installed schemas match the models
  autobench schemas --dir .            # write ./schemas/0.3.0/*.json for relative $schema lines
  autobench schemas --check --dir .    # that copy is current

{EXIT_CODES}"""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="autobench", description=__doc__, epilog=MAIN_EPILOG)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)

    dataset = commands.add_parser(
        "dataset",
        help="datasets: generate, freeze, export (see: autobench dataset COMMAND --help)",
        description="Datasets: generate one, freeze (stamp) a curated one.",
        epilog=DATASET_EPILOG,
    )
    dataset_commands = dataset.add_subparsers(dest="dataset_command", metavar="COMMAND", required=True, parser_class=_Parser)
    gen = dataset_commands.add_parser(
        "generate",
        help="run a case generator and publish a reviewed dataset",
        description="Run a case generator and publish a reviewed dataset.",
        epilog=GENERATE_EPILOG,
    )
    gen.add_argument("generator", metavar="MODULE:FUNCTION", help="a sync or async generator callable")
    gen.add_argument("--request", required=True, type=Path, help="generation request YAML")
    gen.add_argument("--output", required=True, type=Path, help="dataset YAML to write (manifest: <stem>.generation.yaml)")
    gen.add_argument("--id", required=True, help="dataset id")
    gen.add_argument("--version", required=True, help="dataset version")
    gen.add_argument("--force", action="store_true", help="replace an existing dataset and its manifest (both)")
    gen.add_argument("--quiet", action="store_true", help="no progress (a status line on a terminal, else a line every 10 s on stderr)")
    gen.set_defaults(func=_generate)

    frz = dataset_commands.add_parser(
        "freeze",
        help="stamp the sha256 of a curated or imported dataset",
        description="Stamp the content sha256 of a curated or imported dataset.",
        epilog=FREEZE_EPILOG,
    )
    frz.add_argument("file", metavar="DATASET.yaml", type=Path, help="the dataset YAML")
    frz.add_argument("--output", type=Path, help="write here instead of replacing DATASET.yaml")
    frz.set_defaults(func=_freeze)

    exp = dataset_commands.add_parser(
        "export",
        help="write a dataset as a Pydantic Evals dataset file",
        description="Write a dataset as a Pydantic Evals dataset file.",
        epilog=EXPORT_EPILOG,
    )
    exp.add_argument("file", metavar="DATASET.yaml", type=Path, help="an Autobench dataset YAML (its sha256 is verified)")
    exp.add_argument("--format", required=True, choices=["pydantic-evals"], help="the file format to write")
    exp.add_argument("--output", required=True, type=Path, help="the file to write (.json: JSON, else YAML)")
    exp.add_argument("--force", action="store_true", help="replace an existing --output")
    exp.set_defaults(func=_export)

    run = commands.add_parser(
        "run",
        help="run every case x variant of a benchmark file (never generates)",
        description="Run every case x variant of a benchmark file.",
        epilog=RUN_EPILOG,
    )
    run.add_argument("benchmark_file", metavar="BENCHMARK.yaml", type=Path)
    run.add_argument("--benchmark", action="append", help="only this benchmark (repeatable)")
    run.add_argument("--results", type=Path, help="results folder (default: <benchmark folder>/.autobench/results)")
    run.add_argument("--quiet", action="store_true", help="no progress (a status line on a terminal, else a line every 10 s on stderr)")
    run.set_defaults(func=_run)

    sch = commands.add_parser(
        "schemas", help="write or --check the JSON Schemas", description="Write, or --check, the JSON Schemas.", epilog=SCHEMAS_EPILOG
    )
    sch.add_argument("--check", action="store_true", help="compare instead of writing (exit 1 when out of date)")
    sch.add_argument("--dir", type=Path, metavar="DIR", help="act on DIR/schemas/0.3.0/ (default: the installed package's copy)")
    sch.set_defaults(func=_schemas)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return guarded("autobench", lambda: int(args.func(args) or 0))


if __name__ == "__main__":
    sys.exit(main())
