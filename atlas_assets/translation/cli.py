"""`atlas translation ...`: validate corpora, import FLORES+, run an engine, compare run cards.

Errors in what the user gave (a missing file, an unknown engine, a run folder that is a
file) raise ConfigError naming the option; `atlas` prints it on one line and exits 1, as
for `atlas eval`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from atlas_assets.core.shell import input_file, output_file, positive_int, resumable_interruption
from atlas_assets.evals.config import ConfigError

DESCRIPTION = """\
Translation evaluation (specs/rosetta-eval-datasets.md): corpora of source -> gold
reference pairs, validated strictly; runs that send every source to an engine, score the
outputs with sacreBLEU (chrF++, chrF, BLEU) and write a run card; paired comparisons of
two run cards.

  atlas translation validate PATH...                  every problem of each corpus file; summary when clean
  atlas translation import-flores --dir D --source eng_Latn --target fra_Latn|fra_Latn,deu_Latn|all --out FILE
  atlas translation import FILE --difficulty-map easy=1,medium=3,hard=5 --out FILE   a JSON/CSV/TSV corpus with labelled tiers
  atlas translation run --dataset PATH --engine NAME|URL   translate every source, score, write a run card (resumable);
                                                       a multi-target corpus runs as a set, one card per target
  atlas translation report RUN_DIR                     a set's cross-language report (chrF++ and BLEU per language, the mean)
  atlas translation compare CARD_A CARD_B              paired bootstrap of two run cards, or of two sets language by language

The spec's entry point, `python eval/baseline_experiment.py --dataset FILE [--engine E]`,
runs the same validate (and run) code. `atlas translation COMMAND --help` explains each
command.
"""

EPILOG = """\
examples:
  atlas translation validate translation/*.json
  atlas translation run --dataset translation/example-en-fr-v1.json --engine sim-strong

exit status: 0 success; 1 a corpus, card, engine or file problem (the message names the
option or file and the field); 2 usage; 130 an interrupted run.
"""

VALIDATE_DESCRIPTION = """\
Validate translation corpus files against the spec's schema. Every problem of every file
is printed, one line each: errors on stderr (`ERROR path: entry 12 field difficulty: ...`),
warnings on stdout; a valid file prints its summary (entries by difficulty, register,
provenance) unless --quiet.

Rules: required fields, exact JSON types (no "3" for 3, no booleans), unknown fields
rejected, difficulty 1-5, unique integer ids, BCP 47 language tags, SPDX licence, ISO 8601
`created`, semantic `version`, slug `id`, provenance tags, one source per `variant_class`.
"""

VALIDATE_EPILOG = """\
examples:
  atlas translation validate translation/*.json
  atlas translation validate -q translation/my-corpus.json
  python eval/baseline_experiment.py --dataset translation/my-corpus.json   (the same check)

exit status: 0 every file is valid (warnings allowed); 1 a file is invalid or cannot be
read; 2 usage.
"""

IMPORT_FLORES_EPILOG = """\
examples:
  atlas translation import-flores --dir ~/flores_plus --split devtest --target fra_Latn --out translation/flores-devtest-fra.json
  atlas translation import-flores --source-file eng.txt --target-file deu.txt --source eng_Latn --target deu_Latn --limit 100 --out de.json
  atlas translation import-flores --dir ~/flores_plus --target fra_Latn,deu_Latn,jpn_Jpan --out translation/flores-devtest-3.json
  atlas translation import-flores --dir ~/flores_plus --target all --out translation/flores-devtest-multi.json

exit status: 0 the corpus was written; 1 an input problem (a missing or misaligned file,
a target given twice, `all` finding no target, an entry the schema refuses, --out a
folder); 2 usage (also --target-language or --target-file with several targets).
"""

RUN_DESCRIPTION = """\
Run a corpus through an engine and write a run card. Every source is sent once (entries
sharing a `variant_class` are one segment) with the prompt template translate-v1; each
finished segment is appended to RUN_DIR/checkpoint.jsonl at once, with its request
fingerprint (sha256 of the request body + engine identity + corpus sha256). Run the same
command again after a crash or Ctrl-C and it resumes: segments whose fingerprint matches
are not sent again; failed requests and records of another corpus version, template,
model or parameters are re-sent. At the end RUN_DIR/run_card.json (+ .sha256) holds the
scores (chrF++, chrF, BLEU with their signatures), breakdowns and every output.
"""

RUN_EPILOG = """\
A multi-target corpus (dataset.targets) runs as a set: each target in turn, in
RUN_DIR/<target>/ (an ordinary resumable run with its own card), then the cross-language
report RUN_DIR/languages.json (+ .sha256, .md, .svg) over every card there, printed as a
table; --targets runs some of them (the report names the rest as not run).

examples:
  atlas translation run --dataset translation/example-en-fr-v1.json --engine sim-strong
  atlas translation run --dataset flores-devtest-multi.json --engine sim-strong --targets fra-Latn,deu-Latn
  atlas translation run --dataset my-corpus.json --engine http://127.0.0.1:8000 --model Qwen/Qwen3-8B
  atlas translation run --dataset my-corpus.json --engine vllm-local --limit 20 --out runs/translation/try

Ctrl-C (or SIGTERM) stops sending, waits for the requests in flight and records them,
writes run_card.json ("complete": false, scores over the segments done) and exits 130;
a second Ctrl-C abandons the requests in flight.

exit status: 0 the run finished (failed requests are results, listed in the card's
failures); 1 a corpus, engine or file problem (the message names the option, file and
field); 2 usage; 130 interrupted.
"""

COMPARE_DESCRIPTION = """\
Compare two run cards of the same corpus: chrF++ and BLEU differences with sacreBLEU's
paired bootstrap resampling (p-values; A is the baseline). Refused when the cards' dataset
id, version or sha256 differ, or they cover different segments; a template, parameter or
model difference is a note.

Two set folders (runs of a multi-target corpus) are compared language by language: the
same paired bootstrap per target, its chrF++ p-values Holm-adjusted over the languages
(the family-wise error stays at alpha however many languages there are); a target only
one side ran is listed, not compared.
"""

COMPARE_EPILOG = """\
examples:
  atlas translation compare runs/translation/sim-weak/example-en-fr-v1 runs/translation/sim-strong/example-en-fr-v1
  atlas translation compare runs/translation/sim-weak/flores-multi runs/translation/sim-strong/flores-multi   (two sets)

exit status: 0 compared; 1 a card cannot be read or was modified, or the cards cannot be
compared; 2 usage.
"""


REPORT_DESCRIPTION = """\
The cross-language report of a set's folder (the RUN_DIR of `atlas translation run` on a
multi-target corpus): every RUN_DIR/<target>/run_card.json is read and verified against its
.sha256, then per language chrF++ and BLEU with their signatures and sacreBLEU's 95 %
bootstrap interval, and their mean over the languages with a joint-bootstrap interval.
Written to RUN_DIR/languages.json (+ .sha256), languages.md and languages.svg (a bar per
language), and printed as a table. With --dataset the corpus's target order is used and
its targets without a card are named as not run; without it, the order of the folders.
"""

REPORT_EPILOG = """\
examples:
  atlas translation report runs/translation/sim-strong/flores-multi
  atlas translation report runs/translation/sim-strong/flores-multi --dataset flores-multi.json --json

exit status: 0 written; 1 the folder has no card, a card was modified, or the cards are not
one engine over one corpus; 2 usage.
"""


def _command(
    commands: argparse._SubParsersAction[Any], name: str, help: str, description: str | None, epilog: str
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(name, help=help, description=description, epilog=epilog)
    return parser


def add_run_options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The engine-side run options `atlas translation run` shares with eval/baseline_experiment.py."""
    return [
        parser.add_argument("--model", metavar="M", help="model id to request (default: the engine's; a URL engine asks its /v1/models)"),
        parser.add_argument("--engines", type=Path, metavar="FILE", help="engines file (default: $ATLAS_ENGINES or <repo>/engines.yaml)"),
        parser.add_argument("--out", type=Path, metavar="DIR", help="run folder (default: runs/translation/<engine>/<dataset id>)"),
        parser.add_argument("--limit", type=positive_int, metavar="N", help="first N segments only"),
        parser.add_argument("--concurrency", type=positive_int, metavar="C", help="requests in flight (default: min(engine, 32))"),
        parser.add_argument("--targets", metavar="TAG,...", help="a multi-target corpus: run only these targets (default: every one)"),
    ]


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    from atlas_assets.translation import flores

    parser = subparsers.add_parser("translation", help="translation corpora, runs and run cards", description=DESCRIPTION, epilog=EPILOG)
    commands = parser.add_subparsers(dest="translation_command", metavar="COMMAND", required=True)

    validate = _command(
        commands, "validate", "validate translation corpus files (exit 1 on any error)", VALIDATE_DESCRIPTION, VALIDATE_EPILOG
    )
    validate.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="corpus files (JSON)")
    validate.add_argument("-q", "--quiet", action="store_true", help="problems only, no summaries")
    validate.set_defaults(func=cmd_validate)

    imp = _command(
        commands, "import-flores", "FLORES+ dev/devtest files -> a corpus file (one target or many)", flores.__doc__, IMPORT_FLORES_EPILOG
    )
    imp.add_argument("--dir", type=Path, help="FLORES directory (with --source/--target codes and --split)")
    imp.add_argument("--source-file", type=Path, help="source line file (instead of --dir)")
    imp.add_argument("--target-file", type=Path, help="target line file (instead of --dir)")
    imp.add_argument("--source", default="eng_Latn", help="FLORES source code (default eng_Latn)")
    imp.add_argument(
        "--target",
        required=True,
        metavar="CODE[,CODE...]|all",
        help="FLORES target code(s), e.g. fra_Latn or fra_Latn,deu_Latn (one multi-target corpus), or all (with --dir)",
    )
    imp.add_argument("--split", default="devtest", choices=["dev", "devtest"])
    imp.add_argument("--source-language", help="BCP 47 tag (default from the FLORES code)")
    imp.add_argument("--target-language", help="BCP 47 tag (default from the FLORES code; one target only)")
    imp.add_argument(
        "--id", dest="dataset_id", help="dataset id (default flores-plus-SPLIT-SRC-TGT; several targets: flores-plus-SPLIT-SRC-multi)"
    )
    imp.add_argument("--version", default="1.0")
    imp.add_argument("--created", help="ISO date (default today)")
    imp.add_argument("--difficulty", type=int, default=3, choices=range(1, 6))
    imp.add_argument("--register", default="formal")
    imp.add_argument("--context", default="sentence")
    imp.add_argument("--limit", type=positive_int, help="first N sentences only")
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
    labelled = commands.add_parser(
        "import", help="a JSON/CSV/TSV corpus with labelled difficulty tiers -> a corpus file", description=importer.__doc__ + import_epilog
    )
    labelled.add_argument("file", type=Path, metavar="FILE", help="the corpus-like file to read")
    labelled.add_argument("--format", choices=importer.FORMATS, help="default: from the extension (.json, .csv, .tsv/.tab)")
    labelled.add_argument("--difficulty-map", metavar="LABEL=TIER,...", help="e.g. easy=1,medium=3,hard=5 (labels compared ignoring case)")
    labelled.add_argument(
        "--column",
        action="append",
        default=[],
        metavar="FIELD=COLUMN,...",
        help="read FIELD from COLUMN (JSON: key), e.g. source=english,reference=cree",
    )
    labelled.add_argument("--ignore-column", action="append", default=[], metavar="COLUMN", help="drop this column (JSON: key); repeatable")
    for name, text in importer.DATASET_OPTIONS.items():
        labelled.add_argument(importer.option_flag(name), dest=f"dataset_{name}", metavar="VALUE", help=text)
    for name in importer.DEFAULTABLE:
        labelled.add_argument(
            importer.option_flag(f"default_{name}"), dest=f"default_{name}", metavar="VALUE", help=f"{name} of every entry without one"
        )
    labelled.add_argument(
        "--out", type=Path, required=True, help="corpus file to write (atomically; nothing is written when the input has a problem)"
    )
    labelled.set_defaults(func=cmd_import)

    run = _command(commands, "run", "run a corpus through an engine and write a run card (resumable)", RUN_DESCRIPTION, RUN_EPILOG)
    run.add_argument("--dataset", required=True, type=Path, metavar="PATH", help="translation corpus file")
    run.add_argument("--engine", required=True, metavar="NAME|URL", help="engine name from the engines file, or http(s)://host:port[/v1]")
    add_run_options(run)
    run.add_argument("--temperature", type=float, default=0.0, metavar="T", help="sampling temperature (default 0)")
    run.add_argument("--max-tokens", type=positive_int, default=512, metavar="N", help="max_tokens per request (default 512)")
    run.add_argument("--no-progress", action="store_true", help="no progress (a bar on a terminal, else a line every 10 s on stderr)")
    run.add_argument("--json", action="store_true", help="print the run card (a set: the cross-language report)")
    run.set_defaults(func=cmd_run)

    rep = _command(commands, "report", "the cross-language report of a set's run folder", REPORT_DESCRIPTION, REPORT_EPILOG)
    rep.add_argument(
        "run_dir", type=Path, metavar="RUN_DIR", help="the run folder of a multi-target corpus (RUN_DIR/<target>/run_card.json)"
    )
    rep.add_argument("--dataset", type=Path, metavar="PATH", help="the corpus: its target order, and its targets not run")
    rep.add_argument("--samples", type=positive_int, default=1000, metavar="N", help="bootstrap resamples (default 1000)")
    rep.add_argument("--json", action="store_true", help="print the report as JSON")
    rep.set_defaults(func=cmd_report)

    cmp_ = _command(
        commands,
        "compare",
        "compare two run cards, or two sets language by language (paired bootstrap)",
        COMPARE_DESCRIPTION,
        COMPARE_EPILOG,
    )
    cmp_.add_argument("card_a", type=Path, metavar="CARD_A", help="run_card.json (or its folder), or a set's folder: the baseline")
    cmp_.add_argument("card_b", type=Path, metavar="CARD_B", help="run_card.json (or its folder), or a set's folder")
    cmp_.add_argument(
        "--samples",
        type=positive_int,
        metavar="N",
        help="bootstrap resamples (default 1000; two sets: max(1000, 2 x languages / 0.05), so Holm can reach significance)",
    )
    cmp_.add_argument("--json", action="store_true", help="print the comparison as JSON")
    cmp_.set_defaults(func=cmd_compare)


# --------------------------------------------------------------------------- what the user named


def _run_folder(option: str, path: Path) -> Path:
    """`path`, created, when it is (or can be) a writable folder; ConfigError naming `option` otherwise."""
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{option}: {path} is a file, not a run folder")
    blocking = next((p for p in path.parents if p.exists()), None)
    if blocking is not None and not blocking.is_dir():
        raise ConfigError(f"{option}: {blocking} is a file, so {path} cannot be created")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{option}: cannot create the run folder {path}: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ConfigError(f"{option}: the run folder {path} is not writable")
    return path


def _card_file(option: str, path: Path) -> Path:
    """A run card's file: `path`, or run_card.json in the run folder `path`."""
    from atlas_assets.translation.runs import CARD

    if path.is_dir():
        if not (path / CARD).is_file():
            raise ConfigError(f"{option}: {path} has no {CARD} (not a translation run folder)")
        return path / CARD
    return input_file(option, path)


def _is_set(path: Path) -> bool:
    """Whether `path` is a set's folder: no run_card.json of its own, one in a subfolder."""
    from atlas_assets.translation.runs import CARD

    return path.is_dir() and not (path / CARD).exists() and any(path.glob(f"*/{CARD}"))


def _set_cards(option: str, path: Path) -> list[Any]:
    """The verified run cards of the set folder `path`; ConfigError naming `option`."""
    from atlas_assets.translation.multilingual import read_set

    if not path.exists():
        raise ConfigError(f"{option}: no such folder: {path}")
    try:
        return read_set(path)
    except ValueError as exc:
        raise ConfigError(f"{option}: {exc}") from None


def _engine(value: str, engines_file: Path | None, model: str | None) -> Any:
    """The engine `--engine` names; ConfigError naming --engine (and the known engines) when it names none."""
    from atlas_assets.evals.engines import engines_path, is_url, load_engines, load_engines_report, normalize_base_url, resolve_engine

    path = engines_path(engines_file)
    if is_url(value):
        try:
            normalize_base_url(value)
        except ConfigError as exc:
            known = ", ".join(sorted(load_engines_report(path).entries)) or "none"
            raise ConfigError(f"--engine: {exc}; or an engine name from {path}: {known}") from None
        return resolve_engine(value, None, model)
    engines = load_engines(input_file("--engines", path))
    try:
        return resolve_engine(value, engines, model)
    except ConfigError as exc:
        raise ConfigError(f"--engine: {exc}") from None


# --------------------------------------------------------------------------- commands


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


def _flores_targets(args: argparse.Namespace) -> list[str] | None:
    """The target codes --target names (a list, or `all` in --dir); None after a usage
    error is printed."""
    from atlas_assets.translation import flores

    usage = "atlas translation import-flores: "
    if args.target.strip() == "all":
        if not args.dir:
            print(usage + "--target all needs --dir (every FLORES file of the split found there)", file=sys.stderr)
            return None
        try:
            codes = flores.discover_targets(args.dir, args.split, args.source)
        except flores.FloresError as exc:
            raise ConfigError(f"--target all: {exc}") from None
    else:
        codes = [code.strip() for code in args.target.split(",")]
        if not all(codes):
            print(
                usage + f"--target {args.target!r}: an empty code in the list (FLORES codes separated by commas, e.g. fra_Latn,deu_Latn)",
                file=sys.stderr,
            )
            return None
    if len(codes) > 1:
        for option, value in (("--target-language", args.target_language), ("--target-file", args.target_file)):
            if value is not None:
                print(
                    usage
                    + f"{option} takes one target; --target names {len(codes)} ({', '.join(codes[:5])}{', ...' if len(codes) > 5 else ''})",
                    file=sys.stderr,
                )
                return None
    return codes


def cmd_import_flores(args: argparse.Namespace) -> int:
    from atlas_assets.translation import flores
    from atlas_assets.translation.languages import label
    from atlas_assets.translation.schema import CorpusError

    out = output_file("--out", args.out)
    if not args.dir and not (args.source_file and args.target_file):
        print("atlas translation import-flores: give --dir, or --source-file and --target-file", file=sys.stderr)
        return 2
    options = dict(
        split=args.split, source_language=args.source_language, dataset_id=args.dataset_id, version=args.version,
        created=args.created, difficulty=args.difficulty, register=args.register, context=args.context, limit=args.limit,
    )  # fmt: skip
    try:
        codes = _flores_targets(args)
        if codes is None:
            return 2
        if len(codes) > 1:
            flores.target_tags(codes)  # a malformed or repeated code is named before any file is looked for
            src = flores.find_flores_file(args.dir, args.split, args.source)  # several targets: --dir (--target-file takes one)
            files = {code: flores.find_flores_file(args.dir, args.split, code) for code in codes}
            doc = flores.import_flores_multi(src, files, source_code=args.source, **options)
        else:
            if args.dir:
                src, tgt = (
                    flores.find_flores_file(args.dir, args.split, args.source),
                    flores.find_flores_file(args.dir, args.split, codes[0]),
                )
            else:
                src, tgt = input_file("--source-file", args.source_file), input_file("--target-file", args.target_file)
            doc = flores.import_flores(
                src, tgt, source_code=args.source, target_code=codes[0], target_language=args.target_language, **options
            )
    except (flores.FloresError, CorpusError) as exc:
        raise ConfigError(str(exc)) from None
    try:
        flores.write_corpus(doc, out)
    except OSError as exc:
        raise ConfigError(f"--out: cannot write {out}: {exc.strerror or exc}") from None
    block = doc["dataset"]
    into = label(block["target_language"]) if "target_language" in block else f"{len(block['targets'])} targets"
    print(f"wrote {out}: {len(doc['entries'])} entries, {block['id']} ({label(block['source_language'])} → {into})")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    import orjson

    from atlas_assets.core.progress import ProgressDisplay
    from atlas_assets.translation.runs import CARD, Progress, run_translation
    from atlas_assets.translation.schema import CorpusError, load_corpus

    try:
        loaded = load_corpus(input_file("--dataset", args.dataset))
    except CorpusError as exc:
        raise ConfigError(f"--dataset: {exc}") from None
    engine = _engine(args.engine, args.engines, args.model)
    safe = args.engine.replace("://", "_").replace("/", "_").replace(":", "_")
    out = _run_folder("--out", args.out or Path("runs") / "translation" / safe / loaded.id)
    if loaded.corpus.is_multi_target:
        return _run_set(args, loaded, engine, out)
    if args.targets is not None:
        raise ConfigError(f"--targets: {args.dataset} is a single-target corpus (dataset.target_language {loaded.corpus.dataset.target_language}); "
                          "--targets picks targets of a multi-target corpus")  # fmt: skip
    progress = Progress()
    try:
        with ProgressDisplay(quiet=args.no_progress) as display:
            display.track(progress, f"{loaded.id} @ {engine.name}")
            outcome = run_translation(
                loaded, engine, out, params={"temperature": args.temperature, "max_tokens": args.max_tokens},
                limit=args.limit, concurrency=args.concurrency, progress=progress, handle_signals=True,
            )  # fmt: skip
    except KeyboardInterrupt:  # outside the sending loop (which records and returns): starting, or scoring
        print("\ninterrupted: the segments recorded so far are kept; run the same command again to resume", file=sys.stderr)
        return 130
    card = outcome.card
    if args.json:
        sys.stdout.write(card.json_bytes(orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print(f"{card.dataset.id} v{card.dataset.version} × {card.engine.name} ({card.model}): "
              f"{card.run.segments_done}/{card.dataset.segments} segments, sent {outcome.sent}, resumed {outcome.resumed}, failed {card.run.failed}")  # fmt: skip
        for name in ("chrf++", "chrf", "bleu"):
            if name in card.scores:
                print(f"  {card.scores[name].text}")
        print(f"run card: {out / CARD} (sha256 {outcome.sha256})")
    if not outcome.complete:
        return resumable_interruption(card.run.segments_done, card.run.segments_selected, "segments")
    return 0


def _run_set(args: argparse.Namespace, loaded: Any, engine: Any, out: Path) -> int:
    """A multi-target corpus: every target in turn (out/<target>/), then the cross-language
    report (out/languages.json, .md, .svg), printed as its table."""
    import orjson

    from atlas_assets.core.progress import ProgressDisplay
    from atlas_assets.translation.languages import label
    from atlas_assets.translation.multilingual import REPORT, render_markdown, run_translation_set

    targets = None
    if args.targets is not None:
        targets = [t.strip() for t in args.targets.split(",") if t.strip()]
        unknown = [t for t in targets if t not in loaded.targets]
        if not targets or unknown:
            raise ConfigError(f"--targets: {', '.join(unknown) or 'no target given'}: not a target of {args.dataset} "
                              f"(its targets: {', '.join(loaded.targets)})")  # fmt: skip

    display = ProgressDisplay(quiet=args.no_progress)

    def announce(target: str, i: int, n: int) -> None:
        display.log().log("target", f"target {i + 1} of {n}: {label(target)}", final=True)

    try:
        with display:
            outcome = run_translation_set(
                loaded, engine, out, params={"temperature": args.temperature, "max_tokens": args.max_tokens},
                limit=args.limit, concurrency=args.concurrency, handle_signals=True, targets=targets,
                on_target=announce,
            )  # fmt: skip
    except KeyboardInterrupt:
        print("\ninterrupted: the segments recorded so far are kept; run the same command again to resume", file=sys.stderr)
        return 130
    if args.json:
        sys.stdout.write(outcome.report.json_bytes(orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print(render_markdown(outcome.report), end="")
        print(f"report: {out / REPORT} (sha256 {outcome.sha256})")
    if not outcome.complete:
        chosen = targets or loaded.targets
        print(f"interrupted: {sum(o.complete for o in outcome.outcomes.values())} of {len(chosen)} targets run; run the same command again to resume",
              file=sys.stderr)  # fmt: skip
        return 130
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    import orjson

    from atlas_assets.translation.compare import CompareRefused, compare_cards, render
    from atlas_assets.translation.multilingual import compare_sets, render_compare
    from atlas_assets.translation.runs import read_card

    given = (("CARD_A", args.card_a), ("CARD_B", args.card_b))
    sets = [_is_set(path) for _, path in given]
    if any(sets) and not all(sets):
        one, other = (given[0], given[1]) if sets[0] else (given[1], given[0])
        raise ConfigError(
            f"{one[0]}: {one[1]} is a set's folder (one card per target) but {other[0]} is one run card: compare two sets or two cards"
        )
    try:
        if all(sets):
            result = compare_sets(*(_set_cards(option, path) for option, path in given), n_samples=args.samples)
            text = render_compare(result)
        else:
            cards = []
            for option, path in given:
                card_path = _card_file(option, path)
                try:
                    cards.append(read_card(card_path))
                except ValueError as exc:
                    raise ConfigError(f"{option}: {exc}") from None
            result = compare_cards(*cards, n_samples=args.samples or 1000)
            text = render(result)
    except (CompareRefused, ValueError) as exc:
        raise ConfigError(str(exc)) from None
    print(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode() if args.json else text)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    import orjson

    from atlas_assets.translation.multilingual import REPORT, language_report, render_markdown, write_report
    from atlas_assets.translation.schema import CorpusError, load_corpus

    cards = _set_cards("RUN_DIR", args.run_dir)
    targets = None
    if args.dataset is not None:
        try:
            loaded = load_corpus(input_file("--dataset", args.dataset))
        except CorpusError as exc:
            raise ConfigError(f"--dataset: {exc}") from None
        foreign = sorted({c.dataset.target_language for c in cards if c.dataset.sha256 != loaded.sha256})
        if foreign:
            raise ConfigError(
                f"--dataset: the cards of {', '.join(foreign)} in {args.run_dir} are of another corpus (or version) than {args.dataset}"
            )
        targets = loaded.targets
    try:
        report = language_report(cards, targets, n_samples=args.samples)
    except ValueError as exc:
        raise ConfigError(f"RUN_DIR: {args.run_dir}: {exc}") from None
    sha = write_report(args.run_dir, report)
    if args.json:
        sys.stdout.write(report.json_bytes(orjson.OPT_INDENT_2).decode() + "\n")
    else:
        print(render_markdown(report), end="")
        print(f"report: {args.run_dir / REPORT} (sha256 {sha})")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from atlas_assets.translation import flores, importer
    from atlas_assets.translation.schema import summary_text

    try:
        fmt = importer.format_of(args.file, args.format)
        options = importer.ImportOptions(
            format=fmt,
            difficulty_map=importer.parse_difficulty_map(args.difficulty_map) if args.difficulty_map is not None else None,
            columns=importer.parse_columns(args.column, importer.entry_fields(fmt)),
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
