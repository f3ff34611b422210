"""The eval run's documents as pydantic models: a checkpoint line (`CheckpointRecord`) and
results.json (`RunResults`). Their JSON Schemas are published in schemas/eval-run/1/
(`python -m atlas_assets.schemas --write` renders them; a test fails when they drift).

Format version: each document carries `format_version` (1). A document without the field
was written before it existed and reads as version 1 (same shape); a version above the one
this harness knows is refused, naming the file, rather than misread. `Harness` and
`EngineBlock` are shared with the translation run card (translation/card.py).
"""

from __future__ import annotations

from typing import Any, Final, Literal, Mapping

import orjson
from pydantic import BaseModel, ConfigDict, Field, field_validator

from atlas_assets.corpus.errata import AppliedErrata, Erratum
from atlas_assets.evals.workloads import RequestParams, Workload

__all__ = [
    "FORMAT_VERSION",
    "Breakdown",
    "CheckpointRecord",
    "DatasetBlock",
    "EngineBlock",
    "ErrataBlock",
    "Excluded",
    "Failure",
    "Harness",
    "LatencyStats",
    "Metrics",
    "RowScore",
    "RunBlock",
    "RunResults",
    "SandboxModes",
    "Scores",
    "VersionedDocument",
]

FORMAT_VERSION: Final = 1
SHA256 = r"^[0-9a-f]{64}$"


class Block(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class VersionedDocument(Block):
    """A whole document (a file or a checkpoint line): it says its format version."""

    format_version: Literal[1] = Field(
        FORMAT_VERSION,
        description="version of this document's format; a document without it was written before the field and is version 1",
    )

    @field_validator("format_version", mode="before")
    @classmethod
    def _known_version(cls, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value > FORMAT_VERSION:
            raise ValueError(f"format version {value} is newer than this harness reads ({FORMAT_VERSION}): upgrade inference-atlas")
        return value

    def json_bytes(self, option: int = 0) -> bytes:
        """The document as JSON (orjson over `model_dump(mode="json")`)."""
        return orjson.dumps(self.model_dump(mode="json"), option=option)


# --------------------------------------------------------------------------- checkpoint


class RowScore(Block):
    """A row's verdict (null for serve workloads)."""

    scorer: str = Field(description="the scorer that judged the row")
    correct: bool
    failed: bool = Field(description="the request failed (scored incorrect)")
    extracted: str | None = Field(description="the answer the scorer read from the output")
    detail: str | None = Field(description="why the scorer judged as it did, when it says")
    sandbox: str | None = Field(
        None, exclude_if=lambda v: v is None, description="code_exec: the sandbox mode the verdict was reached in (absent otherwise)"
    )


class CheckpointRecord(VersionedDocument):
    """One line of checkpoint.jsonl: a finished row's request fingerprint, raw output, serving
    facts and verdict. A row's result is its last line whose fingerprint the run expects."""

    id: str = Field(description="the dataset row id")
    fingerprint: str = Field(description="sha256 of the canonical {request body, engine identity, dataset sha256}")
    content: str | None = Field(description="the output text")
    reasoning_content: str | None = Field(description="the reasoning text, when the server sends it apart")
    tool_calls: list[dict[str, Any]] = Field(description="the tool calls of the output (OpenAI shape)")
    finish_reason: str | None
    usage: dict[str, Any] | None = Field(description="the server's usage block as sent")
    input_tokens: int | None = Field(description="server-reported prompt tokens")
    output_tokens: int | None = Field(description="server-reported completion tokens")
    reasoning_tokens: int | None = Field(description="server-reported reasoning tokens")
    ttft_s: float | None = Field(description="send to the first output chunk (final attempt)")
    itl_s: list[float] = Field(description="gaps between later output chunks")
    e2e_s: float | None = Field(description="send to the last byte (final attempt)")
    started_at: float = Field(description="wall clock (epoch s) at the first attempt's send")
    ended_at: float = Field(description="wall clock (epoch s) at the last byte")
    attempts: int = Field(description="attempts made (retries + 1)")
    retry_wait_s: float = Field(description="time spent waiting between attempts")
    status: int | None = Field(description="HTTP status of the final attempt")
    error: str | None = Field(description="why the request failed; null when it did not")
    error_kind: str | None = Field(description="the failure's class (timeout, http_5xx, protocol, ...)")
    score: RowScore | None

    def line(self) -> bytes:
        """The checkpoint line: compact JSON and a newline. Written once per row while
        requests are in flight, so orjson reads the fields as they are (the nested score
        through its own dump) instead of a full `model_dump` first: the same bytes, less time."""
        return orjson.dumps(self.__dict__, default=RowScore.model_dump) + b"\n"


# --------------------------------------------------------------------------- results.json


class Harness(Block):
    name: str
    version: str


class EngineBlock(Block):
    """The engine a run used; further keys are its kind's details (a simulator's profile)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str
    kind: str
    base_url: str = Field(description="the base URL requests went to")
    identity: dict[str, Any] = Field(description="what the row fingerprints use to name the engine (never a secret)")


class DatasetBlock(Block):
    id: str
    sha256: str = Field(pattern=SHA256, description="content sha256 of the dataset bytes the run read")
    kind: str


class RunBlock(Block):
    rows_selected: int
    rows_done: int = Field(description="selected rows with a record")
    row_ids: list[str] = Field(description="the selected rows, in run order")
    checkpoint: str = Field(description="the checkpoint's file name in the run folder")
    concurrency: int
    limit: int | None
    resumed_rows: int
    sent_rows: int
    stale_dropped: int = Field(description="checkpoint lines of other requests dropped")
    circuit_breaker: str | None = Field(None, description="why the circuit breaker stopped the run; null when it did not")
    rescored_at: str | None = Field(None, description="when `atlas eval rescore` last scored the outputs")
    errata_from: str | None = Field(None, description="where a rescore took the errata pin from, when not the run's workload")


class LatencyStats(Block):
    """Milliseconds over the successful requests; null without any."""

    mean: float | None
    p50: float | None
    p90: float | None
    p99: float | None


class Metrics(Block):
    """vLLM benchmark_serving's definitions (results.py)."""

    requests_total: int
    requests_completed: int
    requests_failed: int
    requests_retried: int
    usage_missing: int = Field(description="successful responses without a usage block")
    input_tokens_total: int | None
    output_tokens_total: int | None
    reasoning_tokens_total: int | None
    duration_s: float = Field(description="length of the union of the requests' [start, end] intervals")
    request_throughput: float | None = Field(description="completed requests per second of duration_s")
    output_token_throughput: float | None
    total_token_throughput: float | None
    ttft_ms: LatencyStats
    tpot_ms: LatencyStats
    itl_ms: LatencyStats
    e2e_ms: LatencyStats


class Failure(Block):
    id: str
    error: str | None
    error_kind: str | None = None
    status: int | None = None


class Breakdown(Block):
    total: int
    correct: int
    failed: int
    accuracy: float


DIFFICULTY_ORDER = ("easy", "medium", "hard")  # the corpus's tiers (datasets/_gen/_lib.py), easiest first


def in_reading_order(dimension: str, groups: Mapping[str, Breakdown]) -> list[tuple[str, Breakdown]]:
    """A breakdown's groups as a reader expects them: difficulties easiest first (then any
    other key), every other dimension alphabetically. results.json keeps its sorted keys."""
    rank = {key: i for i, key in enumerate(DIFFICULTY_ORDER)} if dimension == "difficulty" else {}
    return sorted(groups.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))


class Excluded(Block):
    id: str
    erratum: str
    reason: str


class SandboxModes(Block):
    modes: dict[str, int] = Field(description="code_exec verdicts per sandbox mode")
    all_isolated: bool


class Scores(Block):
    """Over the rows with a record that no applied erratum excludes; a failed request is incorrect."""

    accuracy: float | None
    correct: int
    total: int
    failed: int
    failures: list[Failure]
    by_category: dict[str, Breakdown]
    by_difficulty: dict[str, Breakdown]
    by_scorer: dict[str, Breakdown]
    excluded: list[Excluded] = Field(description="rows an applied erratum takes out of every count")
    sandbox: SandboxModes | None = Field(description="null when no row ran code")


class ErrataBlock(Block):
    """The corpus errata a run applied (datasets/errata.json, corpus/errata.py)."""

    file: str
    file_sha256: str | None
    pinned: list[str] = Field(description="the erratum ids the workload pins")
    pin_sha256: str | None
    applied: list[Erratum]
    excluded_rows: list[str] = Field(description="rows of this run's selection the errata exclude")

    @classmethod
    def of(cls, errata: AppliedErrata, row_ids: list[str]) -> "ErrataBlock":
        return cls(
            file=errata.file,
            file_sha256=errata.file_sha256,
            pinned=list(errata.pin.ids) if errata.pin else [],
            pin_sha256=errata.pin.sha256 if errata.pin else None,
            applied=list(errata.entries),
            excluded_rows=sorted(errata.excluded(row_ids)),
        )


class RunResults(VersionedDocument):
    """results.json: what an eval run was and what it measured (README "results.json")."""

    harness: Harness
    created_at: str = Field(description="UTC time of writing (ISO 8601)")
    complete: bool = Field(description="every selected row has a record")
    workload: Workload = Field(description="the workload file as validated")
    engine: EngineBlock
    model: str = Field(description="the model id requested")
    dataset: DatasetBlock
    sampling: RequestParams
    server_models: dict[str, Any] | None = Field(description="the server's GET /v1/models answer")
    run: RunBlock
    metrics: Metrics
    scores: Scores | None = Field(description="null for serve workloads")
    errata: ErrataBlock
    warnings: list[str] = Field(description="inputs the engine's prompt-token counts show it dropped; the circuit breaker's reason first")
    content_sha256: str = Field(pattern=SHA256, description="sha256 of the run's scored content: its data version")
