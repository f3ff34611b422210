"""`autobench run`: every case x variant of a benchmark over one frozen, hash-verified dataset.

Never generates. The dataset file (`dataset.source: file://PATH`, relative to the benchmark
file's folder) must verify against its own sha256 and carry the declared `version` (and
the pinned `sha256` when given); otherwise the run is refused before any case runs.

`run.python: module:function` is called as `function(case, variant)` with the `Case` and
the variant's config mapping (sync or async). It returns either the output (passed when
it equals `case.expected`, score 1/0) or a mapping with `output` and optional `passed`
and `score`. An exception is recorded as an error (not passed, score 0).

Results: one JSON line per (case, variant) in `<results>/<benchmark>/results.jsonl`, each
carrying the matrix identity -- dataset sha256, variant name, variant config sha256, case
id and case sha256. A rerun skips cells already recorded under the same identity, so an
interrupted run resumes; a changed dataset or variant config starts new cells. The
comparison table (pass rate, mean score, mean latency per variant) is printed and
written atomically to `summary.json`, with `content_sha256`: the digest of the scored
cells only (not latencies, error texts or row order), so a re-run that scores the same
keeps it. `benchmark_facts(summary)` is what a reader wants first of a summary.

Evaluators (`evaluators:` for every case, `case_evaluators: {case id: [...]}` for one;
autobench/evaluators.py): when a case has any, each cell records every evaluator's
name, score and reason (an LLM judge's prompt sha256 and model too) and their
`evaluators_sha256` (part of the cell's identity, so changed evaluators re-run it);
`passed` is then "every assertion passed" and `score` the mean of the scores, and a
task's own `passed`/`score` is recorded as the result named `task`. Without evaluators a
cell is as before. The summary adds each evaluator per variant and paired tests between
variants (autobench/compare.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence, TextIO
from urllib.parse import unquote, urlparse

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.errors import AtlasError
from atlas_assets.core.facts import Fact, fact
from atlas_assets.core.hashing import sha256_json
from atlas_assets.core.markdown import cell as md_cell
from atlas_assets.core.markdown import table as md_table
from atlas_assets.core.progress import ProgressLog
from autobench import compare, files
from autobench import evaluators as evals
from autobench.models import Case
from autobench.progress import BenchmarkCounts

if TYPE_CHECKING:
    from autobench.evals_format import Imported


class BenchmarkError(AtlasError, ValueError):
    pass


def dataset_path(spec: files.BenchmarkSpec, base: Path) -> Path:
    parsed = urlparse(spec.dataset.source)
    raw = unquote((parsed.netloc or "") + parsed.path)
    path = Path(raw)
    return path if path.is_absolute() else base / path


def verified_dataset(spec: files.BenchmarkSpec, base: Path) -> files.DatasetBody:
    """The dataset the spec points at, refused unless its hash, version (and pin) match."""
    path = dataset_path(spec, base)
    if not path.is_file():
        raise BenchmarkError(
            f"dataset {spec.dataset.source} not found at {path}; generation never runs implicitly -- run `autobench dataset generate` (or write a curated one and `autobench dataset freeze` it) first"
        )
    dataset = _load(spec, path).dataset
    if dataset.version != spec.dataset.version:
        raise BenchmarkError(f"{path}: dataset version {dataset.version!r} does not match the benchmark's {spec.dataset.version!r}")
    if spec.dataset.sha256 and spec.dataset.sha256 != dataset.sha256:
        raise BenchmarkError(f"{path}: dataset sha256 {dataset.sha256} does not match the pinned {spec.dataset.sha256}")
    return dataset


def _load(spec: files.BenchmarkSpec, path: Path) -> files.DatasetFile | Imported:
    """An autobench dataset file (`files.load_dataset`) or a Pydantic Evals one (an `imported`
    dataset of the benchmark's version, its evaluators mapped: `evals_format.Imported`)."""
    from autobench import evals_format, yamlio

    try:
        raw, _ = yamlio.read_yaml(path)
    except yamlio.YamlError as exc:
        raise files.DocumentError(str(exc)) from None
    if not evals_format.looks_like(raw):
        return files.load_dataset(path, raw)
    try:
        return evals_format.read(path, version=spec.dataset.version, judge_engine=spec.dataset.judge_engine, raw=raw)
    except evals_format.FormatError as exc:
        raise BenchmarkError(str(exc)) from None


def resolved(spec: files.BenchmarkSpec, base: Path) -> tuple[files.BenchmarkSpec, files.DatasetBody]:
    """`verified_dataset`, and the spec with the evaluators of a Pydantic Evals dataset file
    added (its dataset-level ones after the benchmark's, its cases' after theirs)."""
    dataset = verified_dataset(spec, base)
    loaded = _load(spec, dataset_path(spec, base)) if dataset.source == "imported" and dataset.imported_from else None
    if loaded is None or isinstance(loaded, files.DatasetFile):  # only a Pydantic Evals file maps evaluators
        return spec, dataset
    from pydantic import TypeAdapter, ValidationError

    entries = TypeAdapter(list[evals.EvaluatorSpec])
    try:
        shared = entries.validate_python(loaded.evaluators)
        mapped = {cid: entries.validate_python(own) for cid, own in loaded.case_evaluators.items()}
    except ValidationError as exc:
        raise BenchmarkError(f"{dataset_path(spec, base)}: a mapped evaluator is invalid:\n{files.describe(exc)}") from None
    own = {cid: [*spec.case_evaluators.get(cid, ()), *mapped.get(cid, ())] for cid in sorted({*spec.case_evaluators, *mapped})}
    return spec.model_copy(update={"evaluators": [*spec.evaluators, *shared], "case_evaluators": own}), dataset


def variant_sha256(config: Mapping[str, Any]) -> str:
    return sha256_json(dict(config))


@dataclass
class VariantSummary:
    variant: str
    config_sha256: str
    cases: int
    passed: int
    errors: int
    mean_score: float | None
    mean_latency_s: float | None

    @property
    def pass_rate(self) -> float | None:
        return self.passed / self.cases if self.cases else None


def _read_results(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_bytes().splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:  # a torn last line from an interrupted run
            continue
    return rows


def _cell_key(row: Mapping[str, Any]) -> tuple[str, str, str, str, str, str | None]:
    return (
        row["dataset_sha256"],
        row["variant"],
        row["variant_config_sha256"],
        row["case_id"],
        row["case_sha256"],
        row.get("evaluators_sha256"),
    )


def evaluator_entries(spec: files.BenchmarkSpec, case_id: str) -> list[Any]:
    return [*spec.evaluators, *spec.case_evaluators.get(case_id, ())]


def evaluators_sha256(spec: files.BenchmarkSpec, case_id: str) -> str | None:
    """The digest of the evaluators a case is judged by (None: it has none)."""
    entries = evaluator_entries(spec, case_id)
    return sha256_json(evals.spec_json(entries)) if entries else None


def build_evaluators(name: str, spec: files.BenchmarkSpec, dataset: files.DatasetBody, base: Path) -> dict[str, list[evals.Evaluator[Any]]]:
    """Each case's evaluators (the benchmark's, shared, then its own); BenchmarkError names
    the YAML field of one that cannot run (a python evaluator that does not import, ...)."""
    where = f"benchmark.{name}"
    ids = {case.id for case in dataset.cases}
    unknown = sorted(set(spec.case_evaluators) - ids)
    if unknown:
        raise BenchmarkError(f"{where}.case_evaluators: no case {', '.join(map(repr, unknown))} in dataset {dataset.id}@{dataset.version}")
    try:
        shared = evals.build(spec.evaluators, f"{where}.evaluators", base)
        own = {cid: evals.build(entries, f"{where}.case_evaluators.{cid}", base) for cid, entries in spec.case_evaluators.items()}
        plan = {case.id: [*shared, *own.get(case.id, ())] for case in dataset.cases}
        for cid, built in plan.items():
            evals.check_names(built, f"{where}.case_evaluators.{cid}" if cid in own else f"{where}.evaluators")
    except evals.EvaluatorConfigError as exc:
        raise BenchmarkError(str(exc)) from None
    return plan


def _task_record(value: Any) -> list[dict[str, Any]]:
    """A task's own passed/score, as the evaluator result named `task` (none when it gave neither)."""
    if not (isinstance(value, Mapping) and "output" in value and ("passed" in value or "score" in value)):
        return []
    score = bool(value["passed"]) if "passed" in value else float(value["score"])
    return [{"name": "task", "evaluator": "task", "score": score, "reason": "returned by the task"}]


def _score(case: Case, value: Any) -> tuple[Any, bool, float]:
    if isinstance(value, Mapping) and "output" in value:
        output = value["output"]
        passed = bool(value["passed"]) if "passed" in value else output == case.expected
        score = float(value["score"]) if "score" in value else (1.0 if passed else 0.0)
        return output, passed, score
    passed = value == case.expected
    return value, passed, 1.0 if passed else 0.0


async def _call(fn: Any, case: Case, config: Mapping[str, Any]) -> Any:
    if inspect.iscoroutinefunction(fn):
        return await fn(case, dict(config))
    value = await asyncio.to_thread(fn, case, dict(config))
    return await value if inspect.isawaitable(value) else value


async def _run_cells(
    name: str,
    spec: files.BenchmarkSpec,
    dataset: files.DatasetBody,
    fn: Any,
    results: Path,
    progress: ProgressLog | None,
    judged: Mapping[str, Sequence[evals.Evaluator[Any]]] | None = None,
) -> None:
    judged = judged or {}
    esha = {case.id: evaluators_sha256(spec, case.id) for case in dataset.cases}
    recorded = {_cell_key(r): r for r in _read_results(results)}
    counts = BenchmarkCounts(total=len(spec.variants) * len(dataset.cases))
    todo = []
    for variant, config in spec.variants.items():
        vsha = variant_sha256(config)
        for case in dataset.cases:
            meta = case.metadata.get("generation")
            recorded_sha = meta.get("case_sha256") if isinstance(meta, dict) else None
            csha = recorded_sha if isinstance(recorded_sha, str) and recorded_sha else files.case_sha256(case)
            row = recorded.get((dataset.sha256, variant, vsha, case.id, csha, esha[case.id]))
            if row is None:
                todo.append((variant, config, vsha, case, csha))
            else:
                counts.count(bool(row["passed"]), row["error"] is not None)
    counts.resumed = counts.done
    if progress is not None:
        matrix = f"{len(spec.variants)} variants x {len(dataset.cases)} cases, concurrency {spec.run.concurrency}"
        start = f"resuming, {counts.resumed} cells already recorded, {len(todo)} to run" if counts.resumed else f"{len(todo)} cells to run"
        progress.log("start", f"{name}: {start} ({matrix})", final=True)
    async with contextlib.AsyncExitStack() as stack:
        if todo:  # start what the evaluators need (an LLM judge's engine) once, before any cell
            used = {id(e): e for item in todo for e in judged.get(item[3].id) or ()}
            try:
                await evals.open_all(list(used.values()), stack, spec.run.concurrency)
            except evals.EvaluatorConfigError as exc:
                raise BenchmarkError(str(exc)) from None
        results.parent.mkdir(parents=True, exist_ok=True)
        lock = asyncio.Lock()
        semaphore = asyncio.Semaphore(spec.run.concurrency)
        with open(results, "ab") as sink:

            async def cell(variant: str, config: Mapping[str, Any], vsha: str, case: Case, csha: str) -> None:
                async with semaphore:
                    start = time.perf_counter()
                    error, value = None, None
                    try:
                        value = await _call(fn, case, config)
                        output, passed, score = _score(case, value)
                    except Exception as exc:  # noqa: BLE001 - a failing cell is a result
                        output, passed, score, error = None, False, 0.0, f"{type(exc).__name__}: {exc}"
                    latency = time.perf_counter() - start
                    mine = judged.get(case.id) or ()
                    if mine:
                        records = await evals.evaluate_all(mine, case, output, latency, error) + _task_record(value)
                        passed, score = evals.cell_verdict(records)
                        passed = passed and error is None
                row = {
                    "benchmark": name,
                    "dataset_id": dataset.id,
                    "dataset_version": dataset.version,
                    "dataset_sha256": dataset.sha256,
                    "variant": variant,
                    "variant_config_sha256": vsha,
                    "case_id": case.id,
                    "case_sha256": csha,
                    "output": output,
                    "passed": passed,
                    "score": score,
                    "latency_s": round(latency, 6),
                    "error": error,
                }
                if mine:
                    row.update(evaluators=records, evaluators_sha256=esha[case.id])
                line = json.dumps(row, sort_keys=True, default=str).encode() + b"\n"
                async with lock:
                    sink.write(line)
                    sink.flush()
                    os.fsync(sink.fileno())
                    counts.count(passed, error is not None)
                if progress is not None:
                    progress.log("cells", lambda: counts.line(name))

            counts.start()
            try:
                await asyncio.gather(*(cell(*item) for item in todo))
            finally:
                if progress is not None:
                    progress.log("cells", counts.line(name, final=True), final=True)


def _matrix_rows(
    rows: Iterable[Mapping[str, Any]], spec: files.BenchmarkSpec, dataset_sha: str
) -> dict[tuple[str, str], list[Mapping[str, Any]]]:
    """The rows of each (variant, config sha256) of the spec on this dataset, in file order;
    rows of other datasets, configs or evaluators (an earlier experiment in the same file)
    are left out."""
    matrix: dict[tuple[str, str], list[Mapping[str, Any]]] = {
        (variant, variant_sha256(config)): [] for variant, config in spec.variants.items()
    }
    esha: dict[str, str | None] = {}
    for row in rows:
        mine = matrix.get((row["variant"], row["variant_config_sha256"]))
        if mine is None or row["dataset_sha256"] != dataset_sha:
            continue
        if row["case_id"] not in esha:
            esha[row["case_id"]] = evaluators_sha256(spec, row["case_id"])
        if row.get("evaluators_sha256") == esha[row["case_id"]]:
            mine.append(row)
    return matrix


def summarize(rows: Iterable[Mapping[str, Any]], spec: files.BenchmarkSpec, dataset_sha: str) -> list[VariantSummary]:
    out = []
    for (variant, vsha), mine in _matrix_rows(rows, spec, dataset_sha).items():
        n = len(mine)
        out.append(
            VariantSummary(
                variant,
                vsha,
                n,
                sum(1 for r in mine if r["passed"]),
                sum(1 for r in mine if r["error"]),
                sum(r["score"] for r in mine) / n if n else None,
                sum(r["latency_s"] for r in mine) / n if n else None,
            )
        )
    return out


def content_sha256(rows: Iterable[Mapping[str, Any]], spec: files.BenchmarkSpec, dataset_sha: str) -> str:
    """The digest of what a run scored: the dataset, each variant's config and, per cell,
    its identity, output, passed, score and whether it raised, and (when it has evaluators)
    each evaluator's name, score and whether it errored -- not latencies, error texts or
    reasons (they may carry durations or addresses) or the order cells finished in. A
    re-run that scores the same (a no-op resume, or a fresh run of a deterministic task)
    keeps it; it is the benchmark's data version."""
    matrix = _matrix_rows(rows, spec, dataset_sha)
    cells = sorted(
        (
            {
                "variant": r["variant"],
                "variant_config_sha256": r["variant_config_sha256"],
                "case_id": r["case_id"],
                "case_sha256": r["case_sha256"],
                "output": r["output"],
                "passed": r["passed"],
                "score": r["score"],
                "errored": r["error"] is not None,
                **_judged_content(r),
            }
            for mine in matrix.values()
            for r in mine
        ),
        key=lambda c: (c["variant"], c["variant_config_sha256"], c["case_id"], c["case_sha256"]),
    )
    return sha256_json({"dataset_sha256": dataset_sha, "variants": [list(identity) for identity in matrix], "cells": cells})


def _judged_content(row: Mapping[str, Any]) -> dict[str, Any]:
    if "evaluators" not in row:
        return {}
    judged = [{"name": e["name"], "score": e["score"], "errored": bool(e.get("error"))} for e in row["evaluators"]]
    return {"evaluators_sha256": row["evaluators_sha256"], "evaluators": judged}


def benchmark_facts(summary: Mapping[str, Any]) -> list[Fact]:
    """A summary.json as facts: pass rate and mean score per variant first, then the table
    (cases, errors, latency), the dataset and the content digest."""
    variants = summary["variants"]
    facts = [fact(f"{v['variant']}.{key}", float(v[key])) for v in variants for key in ("pass_rate", "mean_score") if v[key] is not None]
    rows = [
        [
            md_cell(v["variant"]),
            str(v["cases"]),
            "-" if v["pass_rate"] is None else f"{v['pass_rate']:.1%}",
            "-" if v["mean_score"] is None else f"{v['mean_score']:.3f}",
            str(v["errors"]),
            "-" if v["mean_latency_s"] is None else f"{v['mean_latency_s'] * 1000:.1f}",
        ]
        for v in variants
    ]
    dataset = summary["dataset"]
    judged = [
        [md_cell(variant), md_cell(name), _rate(e["pass_rate"]), f"{e['mean_score']:.3f}", str(e["errors"])]
        for variant, mine in (summary.get("evaluators") or {}).items()
        for name, e in mine.items()
    ]
    tests = [[md_cell(compare.describe(c))] for c in summary.get("pairwise") or ()]
    return facts + [
        fact("variants", md_table(["variant", "cases", "pass rate", "mean score", "errors", "latency ms"], rows, "lrrrrr"), "md"),
        *(
            [fact("evaluators", md_table(["variant", "evaluator", "pass rate", "mean score", "errors"], judged, "llrrr"), "md")]
            if judged
            else []
        ),
        *([fact("pairwise", md_table(["paired comparison"], tests), "md")] if tests else []),
        fact("dataset", f"{dataset['id']}@{dataset['version']}"),
        fact("dataset_sha256", dataset["sha256"]),
        fact("content_sha256", summary["content_sha256"]),
    ]


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def format_evaluators(summary: Mapping[str, Any]) -> str:
    """Each evaluator per variant, then the paired comparisons (empty: nothing to show)."""
    lines = []
    judged = summary.get("evaluators") or {}
    if judged:
        lines.append(f"{'variant':<20} {'evaluator':<24} {'cases':>5} {'pass rate':>9} {'mean score':>10} {'errors':>6}")
        for variant, mine in judged.items():
            for name, e in mine.items():
                lines.append(
                    f"{variant:<20} {name:<24} {e['cases']:>5} {_rate(e['pass_rate']):>9} {e['mean_score']:>10.3f} {e['errors']:>6}"
                )
    tests = summary.get("pairwise") or ()
    if tests:
        lines.append("paired comparisons (over the same cases):")
        lines.extend("  " + compare.describe(c) for c in tests)
    return "\n".join(lines)


def format_table(name: str, dataset: files.DatasetBody, summaries: Sequence[VariantSummary]) -> str:
    head = f"benchmark {name}  dataset {dataset.id}@{dataset.version} sha256 {dataset.sha256[:12]}  ({len(dataset.cases)} cases)"
    lines = [head, f"{'variant':<20} {'config':<12} {'cases':>5} {'pass rate':>9} {'mean score':>10} {'latency ms':>10} {'errors':>6}"]
    for s in summaries:
        rate = f"{s.pass_rate:.1%}" if s.pass_rate is not None else "-"
        score = f"{s.mean_score:.3f}" if s.mean_score is not None else "-"
        lat = f"{s.mean_latency_s * 1000:.1f}" if s.mean_latency_s is not None else "-"
        lines.append(f"{s.variant:<20} {s.config_sha256[:12]:<12} {s.cases:>5} {rate:>9} {score:>10} {lat:>10} {s.errors:>6}")
    return "\n".join(lines)


def run_benchmark(
    name: str,
    spec: files.BenchmarkSpec,
    base: Path,
    results_dir: Path,
    *,
    out: TextIO | None = None,
    progress: ProgressLog | None = None,
    dataset: files.DatasetBody | None = None,
    evaluators: Mapping[str, Sequence[evals.Evaluator[Any]]] | None = None,
) -> list[VariantSummary]:
    """`dataset`: the spec's dataset already returned by `verified_dataset` (else it is verified here);
    `evaluators`: what `build_evaluators` returned for it (else built here).
    `progress` gets the cells done of all, failed (raised), pass rate so far, cells/s and ETA."""
    from autobench.cli import load_callable

    if dataset is None:  # refused before anything runs
        spec, dataset = resolved(spec, base)
    judged = evaluators if evaluators is not None else build_evaluators(name, spec, dataset, base)
    fn = load_callable(spec.run.python, search=(base,))
    results = results_dir / name / "results.jsonl"
    asyncio.run(_run_cells(name, spec, dataset, fn, results, progress, judged))
    rows = _read_results(results)
    summaries = summarize(rows, spec, dataset.sha256)
    matrix = _matrix_rows(rows, spec, dataset.sha256)
    summary = {
        "benchmark": name,
        "dataset": {"id": dataset.id, "version": dataset.version, "sha256": dataset.sha256},
        "variants": [{**s.__dict__, "pass_rate": s.pass_rate} for s in summaries],
        "evaluators": compare.evaluator_summary(matrix),
        "pairwise": compare.pairwise(matrix),
        "content_sha256": content_sha256(rows, spec, dataset.sha256),
    }
    atomic_write_bytes(results_dir / name / "summary.json", (json.dumps(summary, indent=2, sort_keys=True) + "\n").encode())
    if out is not None:
        extra = format_evaluators(summary)
        print(format_table(name, dataset, summaries) + ("\n" + extra if extra else ""), file=out)
    return summaries


def run_benchmark_file(
    path: str | Path,
    *,
    only: Sequence[str] | None = None,
    results_dir: Path | None = None,
    out: TextIO | None = sys.stdout,
    progress: ProgressLog | None = None,
) -> dict[str, list[VariantSummary]]:
    path = Path(path)
    document = files.load_document(path, files.BenchmarkFile)
    base = path.resolve().parent
    names = list(only or document.benchmark)
    unknown = [n for n in names if n not in document.benchmark]
    if unknown:
        raise BenchmarkError(f"{path}: no benchmark named {', '.join(unknown)} (have {', '.join(document.benchmark)})")
    # verify every dataset first: one tampered dataset refuses the whole run
    both = {name: resolved(document.benchmark[name], base) for name in names}
    specs = {name: both[name][0] for name in names}
    datasets = {name: both[name][1] for name in names}
    # and every benchmark's evaluators: one that cannot run refuses the whole run
    judged = {name: build_evaluators(name, specs[name], datasets[name], base) for name in names}
    results_dir = results_dir or base / ".autobench" / "results"
    return {
        name: run_benchmark(
            name, specs[name], base, results_dir, out=out, progress=progress, dataset=datasets[name], evaluators=judged[name]
        )
        for name in names
    }
