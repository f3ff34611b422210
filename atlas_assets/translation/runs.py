"""Translation runs: a corpus -> an engine -> a checkpoint -> a run card.

    run_translation(corpus, engine, run_dir) -> TranslationOutcome

1. Load and validate the corpus (refused when invalid); its sha256 is the file's bytes.
2. Start the engine when it is a simulator profile (in-process, 127.0.0.1, answering
   translation prompts from this corpus), ask GET /models.
3. Build each segment's request (prompt.py template `translate-v1`, `params`) and its
   fingerprint = sha256 of the canonical body + engine identity + corpus sha256.
4. Resume: checkpoint records (run_dir/checkpoint.jsonl) with the expected fingerprint
   and no error are kept and not sent again; failed requests are re-sent; records of
   another corpus version, template, model or parameters are stale and dropped.
5. Send the rest with at most `concurrency` in flight (the eval-runs EngineClient:
   retries, timeouts), appending each record to the checkpoint as it arrives.
6. Score (scoring.py) and write run_card.json + run_card.json.sha256 atomically.

Interrupting (the `stop` event, or SIGINT/SIGTERM with `handle_signals`) stops sending;
the card is written with `"complete": false` and scores over the segments done so far.

The card records `content_sha256`, the sha256 of its scored content (`card_content`):
the corpus (without its path on disk), model, template, parameters, the scores with their
signatures, breakdowns, per-entry outputs and the failed segments' error classes; not
when it ran, the engine's URL, the run's counts or error messages. It is the data version
of a translation run: a resumed or repeated run with the same outputs keeps it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping

import orjson

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.documents import parse_document
from atlas_assets.core.hashing import sha256_bytes, sha256_json
from atlas_assets.core.progress import Counts, ProgressLog
from atlas_assets.evals import HARNESS, HARNESS_VERSION
from atlas_assets.evals.client import Completion
from atlas_assets.evals.documents import CheckpointRecord, EngineBlock, Harness
from atlas_assets.evals.engines import Engine
from atlas_assets.evals.requests import fingerprint
from atlas_assets.evals.results import compact_checkpoint, make_record, now_iso
from atlas_assets.evals.send import Connected, Needs, run_session, send_all
from atlas_assets.translation import prompt
from atlas_assets.translation.card import LEGACY_FORMAT, CardDataset, CardFailure, CardOutput, CardRun, RunCard, Template
from atlas_assets.translation.schema import LoadedCorpus, load_corpus
from atlas_assets.translation.scoring import (
    PRIMARY,
    Segment,
    breakdowns,
    corpus_chrfpp,
    corpus_scores,
    segments,
    sentence_chrfpp,
)

__all__ = [
    "CARD",
    "CARD_SHA",
    "CHECKPOINT",
    "Progress",
    "TranslationOutcome",
    "card_content",
    "card_from_records",
    "read_card",
    "run_translation",
]

CARD = "run_card.json"
CARD_SHA = "run_card.json.sha256"
CHECKPOINT = "checkpoint.jsonl"
DEFAULT_PARAMS: dict[str, Any] = {"temperature": 0.0, "max_tokens": 512}
_ENTRY_FIELDS = {"id", "variant_class", "difficulty", "register", "context", "source", "reference"}  # of a card's output


@dataclass
class Progress(Counts):
    """Live counters of a translation run (segments)."""

    unit: ClassVar[str] = "segments"
    rate_unit: ClassVar[str] = "segments/s"


@dataclass(frozen=True)
class PlannedSegment:
    """A segment's request, ready to send."""

    segment: Segment
    data: bytes
    fingerprint: str

    @property
    def id(self) -> str:
        return str(self.segment.id)

    @property
    def request_id(self) -> str:
        return self.fingerprint[:32]


@dataclass
class TranslationOutcome:
    run_dir: Path
    card: RunCard
    sha256: str
    sent: int
    resumed: int
    stale: int

    @property
    def complete(self) -> bool:
        return self.card.complete

    @property
    def content_sha256(self) -> str:
        """The card's scored content sha256: the run's data version."""
        return self.card.content_sha256


def request_body(seg: Segment, loaded: LoadedCorpus, model: str, params: Mapping[str, Any]) -> dict[str, Any]:
    block = loaded.corpus.dataset
    target = block.target_language
    assert target is not None, "a run reads a single-target corpus (for_target): target_language is set"
    return {"model": model, "messages": prompt.messages(seg.source, block.source_language, target), **params, "stream": False}


def hypothesis(record: CheckpointRecord) -> str:
    """The translation a record holds: the cleaned reply, or "" for a failed request."""
    return prompt.clean_output(record.content) if record.error is None else ""


def card_from_records(
    loaded: LoadedCorpus,
    engine: EngineBlock,
    model: str,
    params: Mapping[str, Any],
    records: Mapping[str, CheckpointRecord],
    run: Mapping[str, Any],
) -> RunCard:
    """The run card of the segments that have a record (outputs, scores, breakdowns).
    `records`: those of the selected segments; `run`: the session's facts (CardRun)."""
    block = loaded.corpus.dataset
    segs = segments(loaded.corpus)
    done = [s for s in segs if str(s.id) in records]
    hyps = {s.id: hypothesis(records[str(s.id)]) for s in done}
    scores = corpus_scores([hyps[s.id] for s in done], [s.references for s in done], block.target_language)  # type: ignore[arg-type]  # a run reads a single-target corpus (for_target): target_language is set
    entry_of = {e.id: e for e in loaded.corpus.entries}
    outputs = []
    failures = []
    for seg in done:
        record = records[str(seg.id)]
        if record.error is not None:
            failures.append(CardFailure(segment=seg.id, error=record.error, error_kind=record.error_kind, status=record.status))
        sentence = sentence_chrfpp(hyps[seg.id], seg.references)
        for entry_id in seg.entry_ids:
            entry = entry_of[entry_id]
            outputs.append(
                CardOutput(
                    **entry.model_dump(include=_ENTRY_FIELDS),
                    segment=seg.id,
                    output=hyps[seg.id],
                    error=record.error,
                    chrfpp=sentence,  # sentence-level, against every reference of the segment
                )
            )
    draft = RunCard(
        harness=Harness(name=HARNESS, version=HARNESS_VERSION),
        created_at=now_iso(),
        complete=len(done) == run["segments_selected"],
        dataset=CardDataset(
            id=block.id,
            version=block.version,
            sha256=loaded.sha256,
            language_pair=block.language_pair,
            source_language=block.source_language,
            target_language=block.target_language,
            entries=len(loaded.corpus.entries),
            segments=len(segs),
            path=str(loaded.path),
        ),
        engine=engine,
        model=model,
        template=Template.model_validate(prompt.template_info()),
        params=dict(params),
        run=CardRun(
            **run,
            segments_done=len(done),
            failed=len(failures),
            partial_selection=run["segments_selected"] < len(segs) if run["limit"] else None,
        ),
        primary_metric=PRIMARY,
        scores=scores,
        breakdowns=breakdowns(done, hyps, block.target_language) if done else {},  # type: ignore[arg-type]  # a run reads a single-target corpus (for_target): target_language is set
        failures=failures,
        outputs=outputs,
        content_sha256="0" * 64,  # a placeholder: the scored content leaves its own hash out
    )
    return draft.model_copy(update={"content_sha256": sha256_json(card_content(draft))})


def card_content(card: RunCard) -> dict[str, Any]:
    """What a run card's scores and outputs depend on (module docstring)."""
    doc = card.model_dump(mode="json")
    return {
        "format": f"{LEGACY_FORMAT}{card.format_version}",  # named so since before format_version: content_sha256 values stay
        "complete": doc["complete"],
        "dataset": {k: v for k, v in doc["dataset"].items() if k != "path"},
        "model": doc["model"],
        "template": doc["template"],
        "params": doc["params"],
        "primary_metric": doc["primary_metric"],
        "scores": doc["scores"],
        "breakdowns": doc["breakdowns"],
        "failures": [{"segment": f["segment"], "error_kind": f["error_kind"]} for f in doc["failures"]],
        "outputs": [{k: v for k, v in o.items() if k != "error"} for o in doc["outputs"]],
    }


def write_card(run_dir: Path, card: RunCard) -> str:
    data = card.json_bytes(orjson.OPT_INDENT_2) + b"\n"
    sha = sha256_bytes(data)
    atomic_write_bytes(run_dir / CARD, data)
    atomic_write_bytes(run_dir / CARD_SHA, f"{sha}  {CARD}\n".encode())
    return sha


def read_card(path: str | Path) -> RunCard:
    """A run card from its file (or its run folder); ValueError naming the file when its
    .sha256 disagrees (the card was modified) or it is not a valid card (and which field)."""
    path = Path(path)
    if path.is_dir():
        path = path / CARD
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: not readable: {exc}") from None
    sha_file = path.with_name(path.name + ".sha256")
    if sha_file.is_file():
        recorded = sha_file.read_text().split()[0]
        if recorded != sha256_bytes(data):
            raise ValueError(f"{path}: its sha256 does not match {sha_file.name} (the card was modified)")
    return parse_document(path, data, RunCard, ValueError)


def run_translation(
    corpus: str | Path | LoadedCorpus,
    engine: Engine,
    run_dir: str | Path,
    *,
    params: Mapping[str, Any] | None = None,
    limit: int | None = None,
    concurrency: int | None = None,
    progress: Progress | None = None,
    progress_log: ProgressLog | None = None,
    on_record: Callable[[CheckpointRecord], None] | None = None,
    stop: threading.Event | None = None,
    handle_signals: bool = False,
    target: str | None = None,
) -> TranslationOutcome:
    """Run (or resume) the corpus through `engine` in `run_dir` (module docstring).
    `corpus`: its file, or the corpus loaded from it already (not read again).
    `target`: which target of a multi-target corpus (its single-target view is run; a set of
    targets is multilingual.run_translation_set); required for such a corpus.

    `progress_log` gets a line when sending starts, at most one per its interval as
    segments finish (with the corpus chrF++ of the segments done so far, computed only
    for a line that is emitted) and a final one with the card's chrF++."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    loaded = corpus if isinstance(corpus, LoadedCorpus) else load_corpus(corpus)
    if target is None and loaded.corpus.is_multi_target:
        raise ValueError(f"{loaded.path}: the corpus has {len(loaded.targets)} targets: name one, or run them as a set")
    loaded = loaded.for_target(target) if target is not None else loaded
    params = {**DEFAULT_PARAMS, **(params or {})}
    segs = segments(loaded.corpus)[:limit] if limit else segments(loaded.corpus)
    in_flight = concurrency or min(engine.concurrency, 32)
    progress = progress or Progress()
    stop = stop or threading.Event()
    checkpoint = run_dir / CHECKPOINT
    label = f"{loaded.id}{f' ({target})' if target else ''} on {engine.name}"

    def chrfpp_so_far(records: Mapping[str, CheckpointRecord]) -> str | None:
        done = [s for s in segs if str(s.id) in records]
        score = corpus_chrfpp([hypothesis(records[str(s.id)]) for s in done], [s.references for s in done])
        return None if score is None else f"chrF++ so far {score:.1f}"

    async def session(connected: Connected) -> tuple[Connected, dict[str, CheckpointRecord], int, int]:
        planned = []
        identity = connected.engine.identity()
        for seg in segs:
            body = request_body(seg, loaded, connected.model, params)
            planned.append(PlannedSegment(seg, orjson.dumps(body), fingerprint(body, identity, loaded.sha256)))
        valid, stale = compact_checkpoint(checkpoint, {p.id: p.fingerprint for p in planned})
        valid = {k: v for k, v in valid.items() if v.error is None}
        pending = [p for p in planned if p.id not in valid]
        progress.total, progress.resumed, progress.done = len(planned), len(planned) - len(pending), len(planned) - len(pending)
        progress.start()
        fresh: dict[str, CheckpointRecord] = {}
        if progress_log is not None:
            progress_log.log(label, progress.line(label, score=chrfpp_so_far(valid)))
        with open(checkpoint, "ab") as sink:

            async def finish(planned_segment: PlannedSegment, completion: Completion) -> None:
                record = make_record(planned_segment.id, planned_segment.fingerprint, completion, None)
                sink.write(record.line())
                sink.flush()
                fresh[planned_segment.id] = record
                progress.done += 1
                progress.failed += record.error is not None
                if on_record is not None:
                    on_record(record)
                if progress_log is not None:
                    progress_log.log(label, lambda: progress.line(label, score=chrfpp_so_far({**valid, **fresh})))

            await send_all(
                connected.client, pending, finish, concurrency=min(in_flight, len(pending)), stop=stop, handle_signals=handle_signals
            )
        return connected, {**valid, **fresh}, stale, len(fresh)

    connected, records, stale, sent = run_session(engine, Needs(translation_corpora=(loaded.path,)), in_flight, session)
    selected = {str(s.id) for s in segs}
    records = {k: v for k, v in records.items() if k in selected}
    run = {
        "limit": limit,
        "concurrency": in_flight,
        "segments_selected": len(segs),
        "sent": sent,
        "resumed": progress.resumed,
        "stale_dropped": stale,
        "checkpoint": CHECKPOINT,
    }
    card = card_from_records(loaded, EngineBlock.model_validate(connected.record()), connected.model, params, records, run)
    sha = write_card(run_dir, card)
    if progress_log is not None:
        final = card.scores.get(PRIMARY)
        score = None if final is None else f"chrF++ {final.score:.1f}"
        progress_log.log(label, progress.line(label, final=True, score=score), final=True)
    return TranslationOutcome(run_dir, card, sha, sent, progress.resumed, stale)
