"""`atlas eval ...`: run a workload against an engine, rescore a run, compare two runs."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from atlas_assets.core.shell import positive_int, resumable_interruption

if TYPE_CHECKING:
    from atlas_assets.evals.documents import RunResults

EVAL_DESCRIPTION = """\
Eval runs: send a workload's rows to an OpenAI-compatible chat-completions engine, score
every answer with the corpus scorers, and record how it was served (TTFT, TPOT, ITL, e2e
with vLLM's definitions, throughput, server-reported tokens).

A workload is a file in workloads/ (one per dataset; workloads/README.md). An engine is
a name from engines.yaml (simulator profiles and your own engines) or a URL of any
OpenAI-compatible server (vLLM, SGLang, llama.cpp server, OpenAI, ...).
"""

RUN_DESCRIPTION = """\
Run a workload against an engine. Every finished row is appended to
RUN_DIR/checkpoint.jsonl at once, with its request fingerprint (sha256 of the exact
request body + engine identity + dataset sha256). Run the same command again after a
crash or Ctrl-C and it resumes: rows whose fingerprint matches are not sent again, and
a row whose request changed (dataset bytes, parameters, engine, model) is re-sent, never
reused. At the end RUN_DIR/results.json (+ results.json.sha256) holds the metrics and
scores; a failed request (timeout, 5xx, context overflow) scores incorrect and is listed
in scores.failures and metrics.requests_failed.
"""

RUN_EPILOG = """\
examples:
  atlas eval run --workload eval-instruction-v1 --engine sim-strong
  atlas eval run --workload eval-longctx-v1 --engine http://127.0.0.1:8000 --model Qwen/Qwen3-8B
  atlas eval run --workload prompts-mix-v1 --engine vllm-local --concurrency 128 --out runs/mix-c128
  atlas eval run --workload eval-instruction-v1 --engine sim-flaky --limit 50 --retry-failed

Ctrl-C (or SIGTERM) stops sending, waits for the requests in flight and records them,
writes a partial results.json ("complete": false) and exits 130; a second Ctrl-C
abandons the requests in flight.

exit status: 0 the run finished (failed requests are results, not errors); 1 a workload,
engine or dataset problem (the message names the file and field); 2 usage; 130 interrupted.
"""

COMPARE_EPILOG = """\
Rows are paired by id. b = rows only RUN_A answered correctly, c = rows only RUN_B did;
the exact McNemar test is the two-sided binomial test of b in b + c at p = 0.5. Both runs
must have seen the same dataset bytes. A row either run took out of scoring under a corpus
erratum is not paired, and runs that applied different errata are flagged.

example:
  atlas eval compare runs/sim-strong/eval-instruction-v1 runs/sim-weak/eval-instruction-v1

exit status: 0 compared; 1 a run folder cannot be read or the runs saw different dataset
bytes; 2 usage.
"""

EVAL_EPILOG = """\
examples:
  atlas eval list
  atlas eval run --workload eval-instruction-v1 --engine sim-strong
  atlas eval show runs/sim-strong/eval-instruction-v1 --wrong

exit status: 0 done; 1 a workload, engine, dataset or run folder problem (named with its
file and field); 2 usage; 130 an interrupted run.
"""

RESCORE_EPILOG = """\
examples:
  atlas eval rescore runs/sim-strong/eval-instruction-v1
  atlas eval rescore runs/sim-strong/eval-commonsense-v2 --errata-from-workload --json

exit status: 0 re-scored; 1 the run folder, its dataset or the errata cannot be used; 2 usage.
"""

SHOW_EPILOG = """\
examples:
  atlas eval show runs/sim-weak/eval-math-v1 --wrong
  atlas eval show runs/sim-weak/eval-math-v1 --id math-0007
  atlas eval show runs/sim-weak/eval-math-v1 --vs runs/sim-strong/eval-math-v1 --html diff.html

exit status: 0 shown; 1 the run folder cannot be read or --vs saw other dataset bytes; 2 usage.
"""

LIST_EPILOG = """\
examples:
  atlas eval list
  atlas eval list --write-missing

exit status: 0 every file is valid and every dataset has a pinned workload; 1 a problem
(each named with its file and field); 2 usage.
"""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="run, rescore and compare eval runs",
        description=EVAL_DESCRIPTION,
        epilog=EVAL_EPILOG,
    )
    commands = parser.add_subparsers(dest="eval_command", metavar="COMMAND", required=True)

    run = commands.add_parser(
        "run",
        help="run a workload against an engine (resumable)",
        description=RUN_DESCRIPTION,
        epilog=RUN_EPILOG,
    )
    run.add_argument("--workload", required=True, metavar="W", help="workload id (workloads/W.yaml) or path to a workload file")
    run.add_argument("--engine", required=True, metavar="NAME|URL", help="engine name from the engines file, or http(s)://host:port[/v1]")
    run.add_argument("--model", metavar="M", help="model id to request (default: the engine's; a URL engine asks its /v1/models)")
    run.add_argument("--limit", type=positive_int, metavar="N", help="run only the first N rows of the workload's selection")
    run.add_argument("--concurrency", type=positive_int, metavar="C", help="requests in flight (default: min(workload, engine))")
    run.add_argument("--out", type=Path, metavar="DIR", help="run folder (default: runs/<engine>/<workload>)")
    run.add_argument("--retry-failed", action="store_true", help="also re-send rows whose recorded request failed")
    run.add_argument("--no-progress", action="store_true", help="no progress (a bar on a terminal, else a line every 10 s on stderr)")
    run.add_argument("--json", action="store_true", help="print results.json instead of the table")
    _common(run)
    run.set_defaults(func=_cmd_run)

    rescore = commands.add_parser(
        "rescore",
        help="score a run's stored outputs again, without calling the engine",
        description="Re-score RUN_DIR's stored outputs with the current scorers and rewrite its results.json "
        "(the engine is not contacted; serving metrics are unchanged). The corpus errata applied are the ones "
        "the run's workload pinned (datasets/errata.json); --errata-from-workload applies the current workload "
        "file's pin instead.",
        epilog=RESCORE_EPILOG,
    )
    rescore.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    rescore.add_argument("--datasets", type=Path, metavar="DIR", help="datasets root (default: $ATLAS_DATASETS or <repo>/datasets)")
    rescore.add_argument("--json", action="store_true", help="print results.json instead of the table")
    rescore.add_argument(
        "--errata-from-workload",
        action="store_true",
        help="apply the corpus errata the current workload file pins, instead of those the run's workload pinned",
    )
    rescore.add_argument("--workloads", type=Path, metavar="DIR", help="workloads folder (default: $ATLAS_WORKLOADS or <repo>/workloads)")
    rescore.set_defaults(func=_cmd_rescore)

    compare = commands.add_parser(
        "compare",
        help="per-row differences of two runs and an exact McNemar test",
        description="Compare the accuracy of two runs of the same workload row by row.",
        epilog=COMPARE_EPILOG,
    )
    compare.add_argument("run_a", type=Path, metavar="RUN_A")
    compare.add_argument("run_b", type=Path, metavar="RUN_B")
    compare.add_argument("--show", type=int, default=20, metavar="N", help="rows that differ to list (default 20; 0: none)")
    compare.add_argument("--json", action="store_true", help="print the comparison as JSON")
    compare.set_defaults(func=_cmd_compare)

    show = commands.add_parser(
        "show",
        help="each row of a run: prompt, output, extracted and expected answer, verdict and why",
        description="Print a run's samples: the prompt as sent (rebuilt from the dataset), the raw output, the "
        "extracted and expected answers, the verdict and its reason, the error and latencies. --vs prints the rows "
        "whose verdict differs from another run of the same dataset bytes. --html writes the report page "
        "(every run also writes one, report.html beside results.json).",
        epilog=SHOW_EPILOG,
    )
    show.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    show.add_argument("--wrong", action="store_true", help="only wrong answers")
    show.add_argument("--failed", action="store_true", help="only failed requests")
    show.add_argument("--id", action="append", default=[], metavar="ID", help="only this row (repeatable)")
    show.add_argument("--vs", type=Path, metavar="OTHER_RUN", help="rows whose verdict differs from this run's")
    show.add_argument("--html", type=Path, metavar="FILE", help="write the report page (with --vs: its differences too)")
    show.add_argument("--datasets", type=Path, metavar="DIR", help="datasets root (default: <repo>/datasets)")
    show.set_defaults(func=_cmd_show)

    listing = commands.add_parser(
        "list",
        help="the engines and workloads, and whether every dataset has a pinned workload",
        description="List the engines file's engines and the workloads, checking each workload's pin against "
        "the corpus. An engine or workload file with a problem (a name Dagster cannot take as a partition key "
        "included) is an error naming the file and field, and the exit status is 1; the others are still listed. "
        "--write-missing drafts a workload file for every dataset that has none.",
        epilog=LIST_EPILOG,
    )
    _common(listing)
    listing.add_argument("--write-missing", action="store_true", help="draft workloads/<id>.yaml for datasets without one")
    listing.set_defaults(func=_cmd_list)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engines", type=Path, metavar="FILE", help="engines file (default: $ATLAS_ENGINES or <repo>/engines.yaml)")
    parser.add_argument("--workloads", type=Path, metavar="DIR", help="workloads folder (default: $ATLAS_WORKLOADS or <repo>/workloads)")
    parser.add_argument("--datasets", type=Path, metavar="DIR", help="datasets root (default: $ATLAS_DATASETS or <repo>/datasets)")


def _datasets_root(value: Path | None) -> Path:
    from atlas_assets.corpus import registry

    env = os.environ.get("ATLAS_DATASETS", "").strip()
    return (value or (Path(env) if env else registry.DEFAULT_DATASETS_ROOT)).resolve()


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-._" else "_" for c in name).strip("_") or "engine"


# --------------------------------------------------------------------------- progress


# --------------------------------------------------------------------------- tables


def _count(n: int | None) -> str:
    return "—" if n is None else str(n)


def _verdict(correct: bool) -> str:
    return "right" if correct else "wrong"


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:,.1f}"


def results_table(results: RunResults, path: Path | None = None, sha: str | None = None) -> str:
    from atlas_assets.evals.documents import in_reading_order
    from atlas_assets.evals.report import group_failures

    m, s, run = results.metrics, results.scores, results.run
    lines = [
        f"workload    {results.workload.id} ({results.workload.kind})   dataset {results.dataset.id} sha256 {results.dataset.sha256[:16]}…",
        f"engine      {results.engine.name} ({results.engine.kind})   model {results.model}",
        f"rows        {run.rows_done}/{run.rows_selected} done ({run.resumed_rows} resumed, {run.sent_rows} sent)"
        + ("" if results.complete else "   INCOMPLETE: run the same command again to resume"),
    ]
    if s is not None:
        acc = "—" if s.accuracy is None else f"{s.accuracy * 100:.2f}%"
        lines.append(f"accuracy    {acc} ({s.correct}/{s.total})   failed requests {s.failed}")
        if len(s.by_difficulty) > 1:
            parts = [f"{k} {v.accuracy * 100:.1f}% ({v.correct}/{v.total})" for k, v in in_reading_order("difficulty", s.by_difficulty)]
            lines.append("            " + "   ".join(parts))
        for reason, members in group_failures(s.failures):
            lines.append(f"  failed    {len(members):>5}  {reason}: {str(members[0].error)[:100]}")
        if results.errata.pinned:
            out = [e.id for e in s.excluded]
            lines.append(
                f"errata      {', '.join(results.errata.pinned)} applied: {len(out)} row(s) out of scoring"
                + (f" ({', '.join(out)})" if out else "")
            )
    else:
        lines.append(f"requests    {m.requests_completed} completed, {m.requests_failed} failed (serve workload: not scored)")
    lines.append("")
    lines.append(f"{'latency ms':<12}{'mean':>10}{'p50':>10}{'p90':>10}{'p99':>10}")
    for name, stats in (("TTFT", m.ttft_ms), ("TPOT", m.tpot_ms), ("ITL", m.itl_ms), ("E2E", m.e2e_ms)):
        lines.append(f"{name:<12}{_ms(stats.mean):>10}{_ms(stats.p50):>10}{_ms(stats.p90):>10}{_ms(stats.p99):>10}")
    lines.append("")
    tokens = f"input {_count(m.input_tokens_total)} / output {_count(m.output_tokens_total)} tokens (server-reported)"
    lines.append(f"duration    {m.duration_s:,.2f} s (benchmark duration: the union of the requests' send-to-last-byte intervals)")
    lines.append(f"throughput  {_ms(m.request_throughput)} req/s   {_ms(m.output_token_throughput)} output tok/s   "
                 f"{_ms(m.total_token_throughput)} total tok/s   {tokens}")  # fmt: skip
    for warning in results.warnings:
        lines.append(f"WARNING     {warning}")
    if path is not None:
        lines.append(f"results     {path}   sha256 {sha}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- commands


def _cmd_run(args: argparse.Namespace) -> int:
    from atlas_assets.evals.engines import is_url, load_engines, resolve_engine
    from atlas_assets.evals.results import RESULTS
    from atlas_assets.evals.runner import Progress, run_eval
    from atlas_assets.evals.workloads import resolve_workload

    workload = resolve_workload(args.workload, args.workloads)
    engine = resolve_engine(args.engine, None if is_url(args.engine) else load_engines(args.engines), args.model)
    run_dir = args.out or Path("runs") / _safe(engine.name) / workload.id
    _say_sandbox_mode(workload, _datasets_root(args.datasets))
    from atlas_assets.core.progress import ProgressDisplay

    progress = Progress()
    started = time.perf_counter()
    with ProgressDisplay(quiet=args.no_progress) as display:
        display.track(progress, f"{workload.id} @ {engine.name}")
        outcome = run_eval(
            workload,
            engine,
            run_dir,
            limit=args.limit,
            concurrency=args.concurrency,
            datasets_root=_datasets_root(args.datasets),
            retry_failed=args.retry_failed,
            progress=progress,
            handle_signals=True,
        )
    if args.json:
        print(json.dumps(outcome.results.model_dump(mode="json"), indent=2, sort_keys=True))
    else:
        print(results_table(outcome.results, run_dir / RESULTS, outcome.sha256))
        print(f"wall time   {time.perf_counter() - started:.1f} s")
    if not outcome.complete:
        return resumable_interruption(outcome.results.run.rows_done, outcome.results.run.rows_selected, "rows")
    return 0


def _say_sandbox_mode(workload: Any, datasets_root: Path) -> None:
    """One line on stderr when the workload's rows run code and this machine's sandbox is
    not fully isolated (every verdict and results.json record the mode too)."""
    import warnings

    from atlas_assets.corpus.cards import card_scorers
    from atlas_assets.corpus.sandbox import sandbox_mode
    from atlas_assets.corpus.scorers import SCORERS
    from atlas_assets.evals.workloads import dataset_spec

    if workload.kind != "eval":
        return
    spec = dataset_spec(workload, datasets_root)
    if not any(SCORERS[name].runs_code for name in card_scorers(spec.card) if name in SCORERS):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mode = sandbox_mode()
    if mode != "isolated":
        print(
            f"warning: code_exec runs in the sandbox's {mode!r} mode on this machine: verdicts cannot be gamed, "
            "but the program may read host files and reach the network (README: The code_exec sandbox)",
            file=sys.stderr,
        )


def _cmd_rescore(args: argparse.Namespace) -> int:
    from atlas_assets.evals.results import RESULTS
    from atlas_assets.evals.runner import rescore_run

    outcome = rescore_run(
        args.run_dir, _datasets_root(args.datasets), errata_from_workload=args.errata_from_workload, workloads_dir=args.workloads
    )
    if args.json:
        print(json.dumps(outcome.results.model_dump(mode="json"), indent=2, sort_keys=True))
    else:
        print(results_table(outcome.results, args.run_dir / RESULTS, outcome.sha256))
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from atlas_assets.evals.compare import compare_runs

    c = compare_runs(args.run_a, args.run_b)
    if args.json:
        print(c.model_dump_json(indent=2))
        return 0

    def pct(x: float | None) -> str:
        return "—" if x is None else f"{x * 100:.2f}%"

    print(f"workload  {c.workload}   dataset sha256 {c.dataset_sha256[:16]}…   paired rows {c.paired}")
    print(f"A  {c.engine_a} / {c.model_a}: {pct(c.accuracy_a)}   ({c.run_a})")
    print(f"B  {c.engine_b} / {c.model_b}: {pct(c.accuracy_b)}   ({c.run_b})")
    delta = None if c.accuracy_a is None or c.accuracy_b is None else (c.accuracy_b - c.accuracy_a) * 100
    print(f"both correct {c.both_correct}   only A {c.only_a}   only B {c.only_b}   both wrong {c.both_wrong}")
    print(
        f"B - A = {'—' if delta is None else f'{delta:+.2f} pp'}   exact McNemar p = {c.mcnemar_p:.4g}"
        + ("   (significant at 0.05)" if c.mcnemar_p < 0.05 else "")
    )
    for name, (a, b) in c.parameter_differences.items():
        print(f"note: {name} differs: A {a}  B {b}")
    if c.excluded_rows:
        print(f"note: {len(c.excluded_rows)} row(s) under corpus errata not paired: {', '.join(c.excluded_rows)}")
    if args.show and c.differences:
        print(f"\nrows that differ ({len(c.differences)}; first {min(args.show, len(c.differences))}):")
        print(f"{'id':<20}{'A':<8}{'B':<8}{'A extracted':<30}B extracted")
        for d in c.differences[: args.show]:
            a = d.a_error and f"error: {d.a_error}" or (d.a_extracted or "")
            b = d.b_error and f"error: {d.b_error}" or (d.b_extracted or "")
            print(f"{d.id:<20}{_verdict(d.a_correct):<8}{_verdict(d.b_correct):<8}{a[:28]:<30}{b[:40]}")
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from atlas_assets.core.atomic import atomic_write_text
    from atlas_assets.corpus import registry
    from atlas_assets.evals import samples

    root = args.datasets or registry.DEFAULT_DATASETS_ROOT
    run = samples.load_run(args.run_dir, root)
    other = samples.load_run(args.vs, root) if args.vs else None
    if args.html:
        atomic_write_text(args.html, samples.render_html(run, other))
        print(f"wrote {args.html}")
        return 0
    if other is not None:
        keep = {s.id for s in samples.select(run.samples, wrong=args.wrong, failed=args.failed, ids=args.id)}
        pairs = [(a, b) for a, b in samples.differing(run, other) if a.id in keep]
        print(f"A {run.title}\nB {other.title}\n{len(pairs)} row(s) whose verdict differs\n")
        print(samples.render_pairs(pairs, run, other))
        return 0
    chosen = samples.select(run.samples, wrong=args.wrong, failed=args.failed, ids=args.id)
    print(f"{run.title}: {len(chosen)} of {len(run.samples)} rows\n")
    print(samples.render_text(chosen))
    return 0


def _print_problems(problems: list[Any]) -> None:
    """A file's problems, one line each on stderr (the entry they concern was left out)."""
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)


def _cmd_list(args: argparse.Namespace) -> int:
    from atlas_assets.core.atomic import atomic_write_text
    from atlas_assets.core.markdown import aligned
    from atlas_assets.corpus import errata as corpus_errata
    from atlas_assets.corpus import registry
    from atlas_assets.evals.config import ConfigError
    from atlas_assets.evals.engines import engines_path, load_engines_report
    from atlas_assets.evals.kinds import kind_of
    from atlas_assets.evals.workloads import (
        draft_workload,
        dump_workload,
        load_workloads_report,
        verify_errata,
        workloads_dir,
    )

    engines = load_engines_report(args.engines)
    engine_rows = []
    for name, engine in engines.entries.items():
        kind = kind_of(engine)
        engine_rows.append([name, engine.kind, kind.where(engine), engine.model or kind.default_model(engine) or "(from /v1/models)"])
    print(f"engines: {len(engine_rows)} in {engines_path(args.engines)}")
    if engine_rows:
        print(aligned(["ENGINE", "KIND", "WHERE", "MODEL"], engine_rows))
    _print_problems(engines.problems)
    root = _datasets_root(args.datasets)
    loaded = load_workloads_report(args.workloads)
    workloads = loaded.entries
    specs = {s.id: s for s in registry.discover(root)}
    problems = len(engines.problems) + len(loaded.problems)
    workload_rows = []
    for wid, workload in workloads.items():
        spec = specs.get(workload.dataset.id)
        if spec is None:
            status, problems = "DATASET MISSING", problems + 1
        elif registry.content_sha256(spec.folder, root) != workload.dataset.sha256:
            status, problems = "PIN MISMATCH", problems + 1
        else:
            status = "pinned"
        if workload.errata is not None and spec is not None:
            try:
                verify_errata(workload, root)
                status += f" + errata {', '.join(workload.errata.ids)}"
            except ConfigError as exc:
                status, problems = f"ERRATA PIN MISMATCH ({exc})", problems + 1
        rows = "—" if spec is None or not isinstance(spec.card.get("rows"), int) else f"{spec.card['rows']:,}"
        workload_rows.append([wid, workload.kind, workload.dataset.id, rows, workload.dataset.sha256[:12], status])
    print(f"workloads: {len(workload_rows)} in {workloads_dir(args.workloads)} (datasets in {root})")
    if workload_rows:
        print(aligned(["WORKLOAD", "KIND", "DATASET", "ROWS", "PIN SHA256", "STATUS"], workload_rows, "lllrll"))
    _print_problems(loaded.problems)
    try:
        listed = corpus_errata.load_errata(corpus_errata.errata_path(root)).errata
    except corpus_errata.ErrataError as exc:
        print(f"errata: {exc}")
        return 1
    pinned = {i for w in workloads.values() if w.errata for i in w.errata.ids}
    unpinned = [e for e in listed if e.id not in pinned]
    if unpinned:
        print("errata no workload applies (pin them in the dataset's workload to take the rows out of its scores):")
        for e in unpinned:
            print(f"  {e.id}  {e.dataset} row {e.row}")
    covered = {w.dataset.id for w in workloads.values()}
    for missing in sorted(set(specs) - covered):
        path = workloads_dir(args.workloads) / f"{missing}.yaml"
        if args.write_missing and path.exists():  # a workload file with problems (above): never overwritten
            problems += 1
            print(f"  {missing:<28}NOT DRAFTED: {path} exists (fix the errors above)")
        elif args.write_missing:
            atomic_write_text(path, dump_workload(draft_workload(specs[missing])))
            print(f"  {missing:<28}drafted {path} (review it)")
        else:
            problems += 1
            print(f"  {missing:<28}NO WORKLOAD (atlas eval list --write-missing drafts one)")
    return 1 if problems else 0
