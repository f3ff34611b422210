"""`atlas translation ...`: validate corpora, import FLORES+, run an engine, compare run cards."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

DESCRIPTION = """\
Translation evaluation (specs/rosetta-eval-datasets.md).

  atlas translation validate PATH...                  every problem of each corpus file; summary when clean
  atlas translation import-flores --dir D --source eng_Latn --target fra_Latn --out FILE
  atlas translation run --dataset PATH --engine NAME|URL   translate every source, score, write a run card (resumable)
  atlas translation compare CARD_A CARD_B              paired bootstrap; refused on different dataset versions
"""


def _positive(value: str) -> int:
    n = int(value)
    if n < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return n


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("translation", help="translation corpora, runs and run cards", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="translation_command", metavar="COMMAND", required=True)

    validate = commands.add_parser("validate", help="validate translation corpus files (exit 1 on any error)")
    validate.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    validate.add_argument("-q", "--quiet", action="store_true", help="problems only, no summaries")
    validate.set_defaults(func=cmd_validate)

    imp = commands.add_parser("import-flores", help="FLORES+ dev/devtest line files -> a corpus file", description=__import__("atlas_assets.translation.flores", fromlist=["x"]).__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    imp.add_argument("--dir", type=Path, help="FLORES directory (with --source/--target codes and --split)")
    imp.add_argument("--source-file", type=Path, help="source line file (instead of --dir)")
    imp.add_argument("--target-file", type=Path, help="target line file (instead of --dir)")
    imp.add_argument("--source", default="eng_Latn", help="FLORES source code (default eng_Latn)")
    imp.add_argument("--target", required=True, help="FLORES target code, e.g. fra_Latn")
    imp.add_argument("--split", default="devtest", choices=["dev", "devtest"])
    imp.add_argument("--source-language", help="BCP 47 tag (default from the FLORES code)")
    imp.add_argument("--target-language", help="BCP 47 tag (default from the FLORES code)")
    imp.add_argument("--id", dest="dataset_id", help="dataset id (default flores-plus-SPLIT-SRC-TGT)")
    imp.add_argument("--version", default="1.0")
    imp.add_argument("--created", help="ISO date (default today)")
    imp.add_argument("--difficulty", type=int, default=3, choices=range(1, 6))
    imp.add_argument("--register", default="formal")
    imp.add_argument("--context", default="sentence")
    imp.add_argument("--limit", type=_positive, help="first N sentences only")
    imp.add_argument("--out", type=Path, required=True, help="corpus file to write (atomically)")
    imp.set_defaults(func=cmd_import_flores)

    from atlas_assets.translation import importer

    import_epilog = "\n".join([
        "",
        "examples:",
        "  atlas translation import edtekla-dev-v1.json --difficulty-map easy=1,medium=3,hard=5 \\",
        "      --license CC-BY-NC-SA-4.0 --out translation/edtekla-dev-v1.json",
        "  atlas translation import phrases.csv --column source=english,reference=cree \\",
        "      --difficulty-map easy=1,medium=3,hard=5 --default-provenance textbook --id phrases-dev-v1 \\",
        "      --source-language en --target-language crk --license CC-BY-4.0 --out translation/phrases-dev-v1.json",
        "",
        "exit codes: 0 written; 1 the input has a problem (each one named: file, line or entry, field;",
        "nothing is written); 2 usage (a malformed --difficulty-map or --column, an unknown format)",
    ])  # fmt: skip
    labelled = commands.add_parser("import", help="a JSON/CSV/TSV corpus with labelled difficulty tiers -> a corpus file",
                                   description=importer.__doc__ + import_epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    labelled.add_argument("file", type=Path, metavar="FILE", help="the corpus-like file to read")
    labelled.add_argument("--format", choices=importer.FORMATS, help="default: from the extension (.json, .csv, .tsv/.tab)")
    labelled.add_argument("--difficulty-map", metavar="LABEL=TIER,...", help="e.g. easy=1,medium=3,hard=5 (labels compared ignoring case)")
    labelled.add_argument("--column", action="append", default=[], metavar="FIELD=COLUMN,...", help="read FIELD from COLUMN (JSON: key), e.g. source=english,reference=cree")
    labelled.add_argument("--ignore-column", action="append", default=[], metavar="COLUMN", help="drop this column (JSON: key); repeatable")
    for name, text in importer.DATASET_OPTIONS.items():
        labelled.add_argument(importer.option_flag(name), dest=f"dataset_{name}", metavar="VALUE", help=text)
    for name in importer.DEFAULTABLE:
        labelled.add_argument(importer.option_flag(f"default_{name}"), dest=f"default_{name}", metavar="VALUE", help=f"{name} of every entry without one")
    labelled.add_argument("--out", type=Path, required=True, help="corpus file to write (atomically; nothing is written when the input has a problem)")
    labelled.set_defaults(func=cmd_import)

    run = commands.add_parser("run", help="run a corpus through an engine and write a run card (resumable)")
    run.add_argument("--dataset", required=True, type=Path, metavar="PATH", help="translation corpus file")
    run.add_argument("--engine", required=True, metavar="NAME|URL", help="engine name from the engines file, or http(s)://host:port[/v1]")
    run.add_argument("--model", help="model id (default: the engine's)")
    run.add_argument("--engines", type=Path, help="engines file (default $ATLAS_ENGINES or engines.yaml)")
    run.add_argument("--out", type=Path, help="run folder (default runs/translation/<engine>/<dataset id>)")
    run.add_argument("--limit", type=_positive, help="first N segments only")
    run.add_argument("--concurrency", type=_positive)
    run.add_argument("--temperature", type=float, default=0.0)
    run.add_argument("--max-tokens", type=_positive, default=512)
    run.add_argument("--no-progress", action="store_true")
    run.add_argument("--json", action="store_true", help="print the run card")
    run.set_defaults(func=cmd_run)

    cmp_ = commands.add_parser("compare", help="compare two run cards (paired bootstrap)")
    cmp_.add_argument("card_a", type=Path, metavar="CARD_A", help="run_card.json (or its folder): the baseline")
    cmp_.add_argument("card_b", type=Path, metavar="CARD_B")
    cmp_.add_argument("--samples", type=_positive, default=1000, help="bootstrap resamples (default 1000)")
    cmp_.add_argument("--json", action="store_true")
    cmp_.set_defaults(func=cmd_compare)


def cmd_validate(args: argparse.Namespace) -> int:
    from atlas_assets.translation.corpora import duplicate_ids
    from atlas_assets.translation.schema import summary_text, validate_file

    reports = [validate_file(path) for path in args.paths]
    clashes = duplicate_ids(reports)
    failed = 0
    for path, report in zip(args.paths, reports):
        report.problems.extend(p for p in clashes if p.path == report.path)
        for problem in report.problems:
            print(f"{problem.severity.upper()} {problem}", file=sys.stderr if problem.severity == "error" else sys.stdout)
        if report.errors or report.corpus is None:
            failed += 1
            print(f"{path}: INVALID ({len(report.errors)} error(s))", file=sys.stderr)
        elif not args.quiet:
            print(summary_text(report.corpus, report.sha256))
    return 1 if failed else 0


def cmd_import_flores(args: argparse.Namespace) -> int:
    from atlas_assets.translation import flores
    from atlas_assets.translation.languages import label
    from atlas_assets.translation.schema import CorpusError

    if not args.dir and not (args.source_file and args.target_file):
        print("atlas translation import-flores: give --dir, or --source-file and --target-file", file=sys.stderr)
        return 2
    try:
        if args.dir:
            src = flores.find_flores_file(args.dir, args.split, args.source)
            tgt = flores.find_flores_file(args.dir, args.split, args.target)
        else:
            src, tgt = args.source_file, args.target_file
        doc = flores.import_flores(
            src, tgt, source_code=args.source, target_code=args.target, split=args.split,
            source_language=args.source_language, target_language=args.target_language, dataset_id=args.dataset_id,
            version=args.version, created=args.created, difficulty=args.difficulty, register=args.register,
            context=args.context, limit=args.limit,
        )  # fmt: skip
    except (flores.FloresError, CorpusError) as exc:
        print(f"atlas translation import-flores: {exc}", file=sys.stderr)
        return 1
    try:
        flores.write_corpus(doc, args.out)
    except OSError as exc:
        print(f"atlas translation import-flores: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    block = doc["dataset"]
    print(f"wrote {args.out}: {len(doc['entries'])} entries, {block['id']} ({label(block['source_language'])} → {label(block['target_language'])})")
    return 0


def _progress_line(p: Any, last: list[float], force: bool = False) -> None:
    now = time.perf_counter()
    if not force and now - last[0] < 0.2:
        return
    last[0] = now
    width = 30
    filled = int(width * p.done / p.total) if p.total else width
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {p.done}/{p.total} segments, {p.failed} failed, {p.rate:.1f}/s", end="", file=sys.stderr, flush=True)


def cmd_run(args: argparse.Namespace) -> int:
    import orjson

    from atlas_assets.evals.engines import load_engines, resolve_engine
    from atlas_assets.translation.runs import Progress, run_translation
    from atlas_assets.translation.schema import CorpusError, load_corpus

    try:
        loaded = load_corpus(args.dataset)
    except CorpusError as exc:
        print(f"atlas translation run: {exc}", file=sys.stderr)
        return 1
    engines = load_engines(args.engines) if not args.engine.startswith(("http://", "https://")) else None
    engine = resolve_engine(args.engine, engines, args.model)
    safe = args.engine.replace("://", "_").replace("/", "_").replace(":", "_")
    out = args.out or Path("runs") / "translation" / safe / loaded.id
    progress = Progress()
    show = not args.no_progress
    last = [0.0]
    outcome = run_translation(
        args.dataset, engine, out, params={"temperature": args.temperature, "max_tokens": args.max_tokens},
        limit=args.limit, concurrency=args.concurrency, progress=progress,
        on_record=(lambda _r: _progress_line(progress, last)) if show else None, handle_signals=True,
    )  # fmt: skip
    if show:
        _progress_line(progress, last, force=True)
        print(file=sys.stderr)
    card = outcome.card
    if args.json:
        sys.stdout.write(card.json_bytes(orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print(f"{card.dataset.id} v{card.dataset.version} × {card.engine.name} ({card.model}): "
              f"{card.run.segments_done}/{card.dataset.segments} segments, sent {outcome.sent}, resumed {outcome.resumed}, failed {card.run.failed}")  # fmt: skip
        for name in ("chrf++", "chrf", "bleu"):
            if name in card.scores:
                print(f"  {card.scores[name].text}")
        print(f"run card: {out / 'run_card.json'} (sha256 {outcome.sha256})")
        if not outcome.complete:
            print("incomplete: run the same command again to resume", file=sys.stderr)
    return 0 if outcome.complete else 3


def cmd_compare(args: argparse.Namespace) -> int:
    import orjson

    from atlas_assets.translation.compare import CompareRefused, compare_cards, render
    from atlas_assets.translation.runs import read_card

    try:
        result = compare_cards(read_card(args.card_a), read_card(args.card_b), n_samples=args.samples)
    except (CompareRefused, ValueError) as exc:
        print(f"atlas translation compare: {exc}", file=sys.stderr)
        return 2
    print(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode() if args.json else render(result))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from atlas_assets.translation import flores, importer
    from atlas_assets.translation.schema import summary_text

    try:
        options = importer.ImportOptions(
            format=importer.format_of(args.file, args.format),
            difficulty_map=importer.parse_difficulty_map(args.difficulty_map) if args.difficulty_map is not None else None,
            columns=importer.parse_columns(args.column),
            ignore_columns=tuple(args.ignore_column),
            dataset=importer.DatasetFields(**{name: getattr(args, f"dataset_{name}") for name in importer.DATASET_OPTIONS}),
            defaults={name: getattr(args, f"default_{name}") for name in importer.DEFAULTABLE if getattr(args, f"default_{name}") is not None},
        )  # fmt: skip
    except ValueError as exc:
        print(f"atlas translation import: {exc}", file=sys.stderr)
        return 2
    result = importer.import_corpus(args.file, options)
    for problem in result.warnings:
        print(f"WARNING {problem}")
    for problem in result.errors:
        print(f"ERROR {problem}", file=sys.stderr)
    if not result.ok:
        print(f"{args.file}: not imported ({len(result.errors)} error(s)); nothing written", file=sys.stderr)
        return 1
    assert result.corpus is not None
    flores.write_corpus(importer.document(result.corpus), args.out)
    print(f"wrote {args.out}")
    print(summary_text(result.corpus))
    return 0
