"""The eval runner: a workload's rows -> an engine -> a checkpoint -> results.json.

    run_eval(workload, engine, run_dir) -> RunOutcome

1. Resolve the dataset, refuse it unless its bytes hash to the workload's pin, select rows.
2. Start the engine when it is a simulator profile (in-process, 127.0.0.1, a free port),
   ask `GET /models` (recorded; it names the model when none is given).
3. Build every row's exact request body (requests.py) and its fingerprint = sha256 of
   the canonical body + engine identity + dataset sha256.
4. Load the checkpoint: rows whose last record carries the same fingerprint are done and
   are not sent again; stale lines of selected rows are dropped (never reused).
5. Send the remaining rows with at most `concurrency` in flight, score each response as it
   arrives (code_exec in a worker thread) and append its record to the checkpoint at once.
6. Write results.json (and results.json.sha256) atomically. The corpus errata the workload
   pins (checked before anything is sent) take their rows out of `scores` (listed in
   `scores.excluded`); results.json's `errata` block records what was applied.

Interrupting (SIGINT/SIGTERM with `handle_signals`, or the `stop` event) stops sending
new rows, lets the requests in flight finish and be recorded, and writes a results.json
with `"complete": false`; running the same command again resumes. A hard kill loses at
most the requests that were in flight.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping, Sequence

import orjson

from atlas_assets.core.atomic import atomic_write_text
from atlas_assets.core.cpus import usable_cpus
from atlas_assets.core.facts import Fact
from atlas_assets.core.progress import Counts, ProgressLog
from atlas_assets.corpus import longctx, registry
from atlas_assets.corpus.errata import AppliedErrata
from atlas_assets.corpus.scorers import SCORERS, ItemScore, score, scorer_name
from atlas_assets.evals import HARNESS, HARNESS_VERSION, samples
from atlas_assets.evals.client import Completion
from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.documents import CheckpointRecord, DatasetBlock, EngineBlock, ErrataBlock, Harness, RunBlock, RunResults
from atlas_assets.evals.dropped import dropped_input_warnings
from atlas_assets.evals.engines import Engine
from atlas_assets.evals.report import run_facts
from atlas_assets.evals.requests import build_body, fingerprint
from atlas_assets.evals.results import (
    CHECKPOINT,
    compact_checkpoint,
    compute_metrics,
    compute_scores,
    content_sha256,
    kept_records,
    make_record,
    now_iso,
    output_of,
    read_checkpoint,
    read_results,
    row_score,
    valid_records,
    write_checkpoint,
    write_results,
)
from atlas_assets.evals.send import Connected, Needs, run_session, send_all
from atlas_assets.evals.workloads import (
    Workload,
    dataset_spec,
    resolve_workload,
    select_rows,
    verify_errata,
    verify_pin,
)

__all__ = ["Planned", "Progress", "RunOutcome", "plan_requests", "rescore_run", "run_eval"]


@dataclass(frozen=True)
class Planned:
    row: Mapping[str, Any]
    body: dict[str, Any]
    data: bytes
    fingerprint: str

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def request_id(self) -> str:
        return self.fingerprint[:32]


class CircuitBreaker:
    """Stops a run after `limit` failures in a row with the same cause (error kind and HTTP
    status class): a dead engine, a wrong URL or a model that cannot take the input fails fast, with
    the cause said once, instead of recording every remaining row as failed. The rows not sent
    stay pending: running again resumes. A success or a different cause resets the count."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.cause: tuple[Any, Any] | None = None
        self.count = 0
        self.tripped: str | None = None

    def see(self, record: CheckpointRecord) -> bool:
        """Count one record; True when this record trips the breaker."""
        if record.error is None:
            self.cause, self.count = None, 0
            return False
        status = record.status
        cause = (record.error_kind, f"{status // 100}xx" if isinstance(status, int) else None)
        self.count = self.count + 1 if cause == self.cause else 1
        self.cause = cause
        if self.limit and self.count >= self.limit and self.tripped is None:
            http = f" (HTTP {cause[1]})" if cause[1] else ""
            self.tripped = (
                f"stopped after {self.count} failed requests in a row with one cause: "
                f"{cause[0] or 'error'}{http}: {record.error[:200]}; fix the engine and run again to resume"
            )
            return True
        return False


@dataclass
class Progress(Counts):
    """Live counters of a run (read by the CLI's progress bar, said by `line`)."""

    unit: ClassVar[str] = "rows"
    rate_unit: ClassVar[str] = "req/s"

    correct: int = 0
    scored: int = 0
    excluded: frozenset[str] = frozenset()  # rows an applied erratum takes out of the score

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.scored if self.scored else None

    def count(self, record: CheckpointRecord) -> None:
        self.done += 1
        self.failed += record.error is not None
        if record.score is not None and record.id not in self.excluded:
            self.scored += 1
            self.correct += record.score.correct

    def score_text(self, final: bool) -> str | None:
        """`accuracy so far 71.2 %` (`accuracy 71.2 %` on the final line)."""
        accuracy = self.accuracy
        return None if accuracy is None else f"accuracy{'' if final else ' so far'} {accuracy * 100:.1f} %"


@dataclass
class RunOutcome:
    """A finished (or interrupted) session: results.json as written, its byte sha256, the
    selected rows and their records (what `run_facts` reads)."""

    run_dir: Path
    results: RunResults
    sha256: str
    sent: int
    resumed: int
    stale: int
    rows: Sequence[Mapping[str, Any]] = field(default_factory=list)
    records: dict[str, CheckpointRecord] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.results.complete

    @property
    def content_sha256(self) -> str:
        """The scored content's sha256 (results.py): the run's data version."""
        return self.results.content_sha256

    def facts(self) -> list[Fact]:
        """What a user reads first about this run (report.run_facts)."""
        return run_facts(self.results, self.records, self.rows)


def _dataset_default(workload: Workload) -> str | None:
    return workload.scorer if workload.kind == "eval" else None


def plan_requests(
    rows: Sequence[Mapping[str, Any]],
    spec: registry.DatasetSpec,
    workload: Workload,
    model: str,
    engine_identity: Mapping[str, Any],
    dataset_sha256: str,
) -> list[Planned]:
    planned = []
    for row in rows:
        body = build_body(row, spec, workload.request, model)
        planned.append(Planned(row, body, orjson.dumps(body), fingerprint(body, engine_identity, dataset_sha256)))
    return planned


def _score(planned: Planned, completion: Completion, workload: Workload) -> ItemScore | None:
    if workload.kind != "eval":
        return None
    output = {"content": completion.content, "tool_calls": completion.tool_calls, "error": completion.error}
    return score(planned.row, output, _dataset_default(workload))


def write_report(run_dir: Path, body: RunResults, planned: Sequence[Planned], records: Mapping[str, CheckpointRecord]) -> Path:
    """report.html beside results.json: the run's samples as one self-contained page."""
    run = samples.Run(run_dir, body, [samples.Sample(p.id, p.row, p.body, records.get(p.id)) for p in planned])
    return atomic_write_text(run_dir / samples.REPORT, samples.render_html(run))


async def _execute(
    pending: Sequence[Planned],
    connected: Connected,
    workload: Workload,
    concurrency: int,
    checkpoint: Path,
    progress: Progress,
    on_record: Callable[[CheckpointRecord], None] | None,
    stop: threading.Event,
    handle_signals: bool,
    breaker: CircuitBreaker,
) -> dict[str, CheckpointRecord]:
    """Send the pending rows (send.send_all); score and checkpoint each as it arrives."""
    loop = asyncio.get_running_loop()
    done: dict[str, CheckpointRecord] = {}
    executor = ThreadPoolExecutor(max_workers=usable_cpus(), thread_name_prefix="atlas-score")
    try:
        with open(checkpoint, "ab", buffering=1 << 16) as sink:

            async def finish(planned: Planned, completion: Completion) -> None:
                if workload.kind == "eval" and SCORERS[scorer_name(planned.row, workload.scorer)].runs_code:
                    item = await loop.run_in_executor(executor, _score, planned, completion, workload)
                else:
                    item = _score(planned, completion, workload)
                record = make_record(planned.id, planned.fingerprint, completion, item)
                sink.write(record.line())
                sink.flush()
                done[planned.id] = record
                progress.count(record)
                breaker.see(record)
                if on_record is not None:
                    on_record(record)

            await send_all(
                connected.client,
                pending,
                finish,
                concurrency=min(concurrency, len(pending)),
                stream=workload.request.stream,
                stop=stop,
                stop_when=lambda: breaker.tripped is not None,
                handle_signals=handle_signals,
            )
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
    return done


def _results_body(
    workload: Workload,
    engine: EngineBlock,
    model: str,
    models_answer: Mapping[str, Any] | None,
    spec: registry.DatasetSpec,
    dataset_sha: str,
    planned: Sequence[Planned],
    records: Mapping[str, CheckpointRecord],
    extra: Mapping[str, Any],
    errata: AppliedErrata,
) -> RunResults:
    """results.json of the run; `extra`: the `run` block's session facts (documents.RunBlock)."""
    rows = [p.row for p in planned]
    row_ids = [p.id for p in planned]
    in_order = [records[p.id] for p in planned if p.id in records]
    warnings = longctx.undersized_requests(rows, {r.id: r.input_tokens for r in in_order})
    warnings += dropped_input_warnings({p.id: p.body for p in planned}, records)
    if extra.get("circuit_breaker"):
        warnings.insert(0, str(extra["circuit_breaker"]))
    draft = RunResults(
        harness=Harness(name=HARNESS, version=HARNESS_VERSION),
        created_at=now_iso(),
        complete=len(in_order) == len(planned),
        workload=workload,
        engine=engine,
        model=model,
        dataset=DatasetBlock(id=spec.id, sha256=dataset_sha, kind=spec.kind),
        sampling=workload.request,
        server_models=models_answer,
        run=RunBlock(rows_selected=len(planned), rows_done=len(in_order), row_ids=row_ids, checkpoint=CHECKPOINT, **extra),
        metrics=compute_metrics(in_order),
        scores=compute_scores(rows, records, errata.excluded(row_ids)) if workload.kind == "eval" else None,
        errata=ErrataBlock.of(errata, row_ids),
        warnings=warnings,
        content_sha256="0" * 64,  # a placeholder: the scored content leaves its own hash out
    )
    return draft.model_copy(update={"content_sha256": content_sha256(draft, records)})


def run_eval(
    workload: Workload,
    engine: Engine,
    run_dir: str | Path,
    *,
    limit: int | None = None,
    concurrency: int | None = None,
    datasets_root: str | Path = registry.DEFAULT_DATASETS_ROOT,
    retry_failed: bool = False,
    progress: Progress | None = None,
    progress_log: ProgressLog | None = None,
    on_record: Callable[[CheckpointRecord], None] | None = None,
    stop: threading.Event | None = None,
    handle_signals: bool = False,
) -> RunOutcome:
    """Run (or resume) `workload` against `engine` in `run_dir` (module docstring).

    `progress` is updated as rows finish; `progress_log` gets a line when sending starts,
    at most one per its interval while rows finish, and a final one (`Progress.line`)."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    spec = dataset_spec(workload, datasets_root)
    dataset_sha = verify_pin(workload, spec)
    errata = verify_errata(workload, datasets_root)
    rows = select_rows(registry.read_rows(spec), workload.sample, limit)
    in_flight = concurrency or min(workload.concurrency, engine.concurrency)
    progress = progress or Progress()
    progress.excluded = frozenset(errata.excluded(str(r["id"]) for r in rows))
    stop = stop or threading.Event()
    label = f"{workload.id} on {engine.name}"

    def observe(record: CheckpointRecord) -> None:
        if on_record is not None:
            on_record(record)
        if progress_log is not None:
            progress_log.log(label, lambda: progress.line(label))

    breaker = CircuitBreaker(engine.circuit_breaker)

    async def session(connected: Connected) -> tuple[Connected, list[Planned], dict[str, CheckpointRecord], int, int]:
        planned = plan_requests(rows, spec, workload, connected.model, connected.engine.identity(), dataset_sha)
        checkpoint = run_dir / CHECKPOINT
        expected = {p.id: p.fingerprint for p in planned}
        valid, stale = compact_checkpoint(checkpoint, expected)
        if retry_failed:
            valid = {k: v for k, v in valid.items() if v.error is None}
        pending = [p for p in planned if p.id not in valid]
        progress.total, progress.resumed = len(planned), len(planned) - len(pending)
        for record in valid.values():
            progress.count(record)
        progress.start()
        if progress_log is not None:
            progress_log.log(label, progress.line(label))
        fresh = await _execute(pending, connected, workload, in_flight, checkpoint, progress, observe, stop, handle_signals, breaker)
        return connected, planned, {**valid, **fresh}, stale, len(fresh)

    connected, planned, records, stale, sent = run_session(engine, Needs(Path(datasets_root)), in_flight, session)
    model = connected.model
    extra = {
        "concurrency": in_flight,
        "limit": limit,
        "resumed_rows": progress.resumed,
        "sent_rows": sent,
        "stale_dropped": stale,
        "circuit_breaker": breaker.tripped,
    }
    engine_block = EngineBlock.model_validate(connected.record())
    body = _results_body(workload, engine_block, model, connected.models_answer, spec, dataset_sha, planned, records, extra, errata)
    sha = write_results(run_dir, body)
    write_report(run_dir, body, planned, records)
    if progress_log is not None:
        progress_log.log(label, progress.line(label, final=True), final=True)
    return RunOutcome(run_dir, body, sha, sent, progress.resumed, stale, [p.row for p in planned], records)


def rescore_run(
    run_dir: str | Path,
    datasets_root: str | Path = registry.DEFAULT_DATASETS_ROOT,
    *,
    errata_from_workload: bool = False,
    workloads_dir: str | Path | None = None,
) -> RunOutcome:
    """Score a run's stored outputs again with the current scorers, without the engine.

    The rows' request fingerprints are rebuilt from results.json (workload, engine
    identity, model, dataset); only records that match them are rescored, so outputs of
    other dataset bytes never are. The checkpoint's scores and results.json are
    rewritten atomically; the serving metrics come from the same records, unchanged.

    The errata applied are the ones the run's recorded workload pins (checked against the
    errata file as at run time). With `errata_from_workload` they are instead the ones the
    current workload file of the same id pins (it must pin the same dataset bytes); the
    recorded workload's `errata` is replaced and `run.errata_from` names the source.
    """
    run_dir = Path(run_dir)
    previous = read_results(run_dir)
    workload = previous.workload
    errata_from = None
    if errata_from_workload:
        current = resolve_workload(workload.id, workloads_dir)
        if current.dataset != workload.dataset:
            raise ConfigError(
                f"workload {workload.id}: the current file pins dataset {current.dataset.sha256} but the run saw "
                f"{workload.dataset.sha256}: its errata are not for these bytes"
            )
        workload = workload.model_copy(update={"errata": current.errata})
        errata_from = f"workload {current.id} (current file)"
    spec = dataset_spec(workload, datasets_root)
    dataset_sha = verify_pin(workload, spec)
    errata = verify_errata(workload, datasets_root)
    if dataset_sha != previous.dataset.sha256:
        raise ConfigError(f"{run_dir}: the run saw dataset {previous.dataset.sha256}, the corpus now has {dataset_sha}")
    by_id = {str(r["id"]): r for r in registry.read_rows(spec)}
    rows = [by_id[i] for i in previous.run.row_ids if i in by_id]
    planned = plan_requests(rows, spec, workload, previous.model, previous.engine.identity, dataset_sha)
    expected = {p.id: p.fingerprint for p in planned}
    all_records, _ = read_checkpoint(run_dir / CHECKPOINT)
    records = valid_records(all_records, expected)
    if workload.kind == "eval":
        for p in planned:
            if p.id in records:
                item = score(p.row, output_of(records[p.id]), _dataset_default(workload))
                records[p.id] = records[p.id].model_copy(update={"score": row_score(item)})
    write_checkpoint(run_dir / CHECKPOINT, kept_records(all_records, expected, records))
    kept = {"concurrency", "limit", "resumed_rows", "sent_rows", "stale_dropped"}
    extra = {**previous.run.model_dump(include=kept), "rescored_at": now_iso(), "errata_from": errata_from or previous.run.errata_from}
    body = _results_body(
        workload, previous.engine, previous.model, previous.server_models, spec, dataset_sha, planned, records, extra, errata
    )
    sha = write_results(run_dir, body)
    write_report(run_dir, body, planned, records)
    return RunOutcome(run_dir, body, sha, 0, len(records), 0, rows, records)
