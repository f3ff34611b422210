"""Run a generator, normalise its batch into case records, a review projection, a dataset
document and a manifest, and publish them.

`GenerationResult` is validated on construction: the request hash, every case record, the
review projection (rejected cases absent from the dataset and explained), the dataset
content and its hash, and the timestamps are recomputed from the request and the batch,
so a result that was edited by hand cannot be published.
"""

from __future__ import annotations

import asyncio
import inspect
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable, Iterator, Mapping, Optional, Union, cast

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, ValidationInfo, model_validator

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.collector import older_objects_frozen, without_collector
from atlas_assets.core.errors import AtlasError
from atlas_assets.core.hashing import canonical_json, canonical_json_with, sha256_bytes, sha256_json
from atlas_assets.core.progress import ProgressLog
from autobench import files
from autobench.models import Case, CaseGeneratorInput, GeneratedCaseBatch, ReviewStatus
from autobench.progress import GenerationProgress, listening

__all__ = [
    "CaseGenerator",
    "CaseRecord",
    "GenerationResult",
    "PublicationError",
    "WrittenGeneration",
    "generate_dataset",
    "generate_dataset_sync",
    "output_paths",
    "request_sha256",
    "revalidated",
    "write_generation_result",
]

CaseGenerator = Callable[[CaseGeneratorInput], Union[GeneratedCaseBatch, Awaitable[GeneratedCaseBatch]]]
PROVENANCE_KEY = "generation"
_DERIVED = {"derived": True}  # the validation context of `GenerationResult.build` (identity, not content, is checked)


def request_sha256(request: CaseGeneratorInput, known: Mapping[int, bytes] | None = None) -> str:
    """Covers the seed, the seed cases, the prompt, its version, settings and metadata: the
    sha256 of `canonical_json` of the request's fields (JSON values already), written out
    key by key so that the seed cases' canonical JSON in `known` (`_canonical_cases`) is reused."""
    known = known or {}
    seed_cases = b"[" + b",".join(known.get(id(c)) or canonical_json(files.case_json(c)) for c in request.seed_cases) + b"]"
    fields = {name: getattr(request, name) for name in CaseGeneratorInput.model_fields}
    return sha256_bytes(canonical_json_with(fields, {"seed_cases": seed_cases}))


def _canonical_cases(*groups: Iterable[Case]) -> dict[int, bytes]:
    """Each distinct case's canonical JSON, computed once (a seed case the generator carried
    over into its batch is the same object); keyed by id() while the cases are alive."""
    out: dict[int, bytes] = {}
    for cases in groups:
        for case in cases:
            if id(case) not in out:
                out[id(case)] = canonical_json(files.case_json(case))
    return out


class CaseRecord(BaseModel):
    """One generated case as the manifest keeps it: content hash, review, published flag."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    case: Case
    sha256: str
    status: ReviewStatus
    reason: Optional[str] = None
    reviewer: Optional[str] = None
    published: bool


def _records(batch: GeneratedCaseBatch, known: Mapping[int, bytes] | None = None) -> tuple[CaseRecord, ...]:
    known = known or {}
    out = []
    reviews = {review.case_id: review for review in batch.reviews}  # one lookup per case, not a scan
    candidate = ReviewStatus.CANDIDATE
    for case in batch.cases:
        review = reviews.get(case.id)
        status = review.status if review is not None else candidate
        out.append(
            CaseRecord(
                case=case,
                sha256=sha256_bytes(known[id(case)]) if id(case) in known else files.case_sha256(case),
                status=status,
                reason=review.reason if review is not None else None,
                reviewer=review.reviewer if review is not None else None,
                published=status is not ReviewStatus.REJECTED,
            )
        )
    return tuple(out)


def _dataset_body(
    batch: GeneratedCaseBatch,
    records: tuple[CaseRecord, ...],
    generator_id: str,
    dataset_id: str,
    version: str,
    req_sha: str,
    known: Mapping[int, bytes] | None = None,
) -> dict[str, Any]:
    """The published dataset mapping. `known` (`_canonical_cases`): each case's canonical
    JSON ends with its metadata's (`metadata` is the last key in sorted order), so a published
    case's canonical JSON is that with the provenance-carrying metadata put in its place."""
    provenance = {  # the batch's part of each case's provenance, checked once by the model
        status: files.CaseProvenance(
            review_status=status,
            generator=generator_id,
            generator_asset_version=batch.generator_asset_version,
            model_provider=batch.model_provider,
            model_name=batch.model_name,
            case_sha256="0" * 64,
        ).model_dump(mode="json")
        for status in (ReviewStatus.CANDIDATE, ReviewStatus.ACCEPTED)
    }
    cases = []
    cases_json: list[bytes] | None = [] if known else None
    for record in records:
        if not record.published:
            continue
        case = record.case
        if PROVENANCE_KEY in case.metadata:
            raise ValueError(f"case {case.id!r}: metadata key {PROVENANCE_KEY!r} is reserved for Autobench provenance")
        meta = {**case.metadata, PROVENANCE_KEY: {**provenance[record.status], "case_sha256": record.sha256}}
        cases.append({"id": case.id, "input": case.input, "expected": case.expected, "metadata": meta})
        if cases_json is not None:
            whole, own = known.get(id(case)), canonical_json(case.metadata)  # type: ignore[union-attr]
            if whole is not None and whole.endswith(own + b"}"):
                cases_json.append(whole[: len(whole) - len(own) - 1] + canonical_json(meta) + b"}")
            else:
                cases_json.append(canonical_json(cases[-1]))
    body: dict[str, Any] = {
        "id": dataset_id,
        "version": version,
        "sha256": "",
        "source": "generated",
        "generation": files.DatasetGeneration(
            generator=generator_id,
            request_sha256=req_sha,
            generator_asset_version=batch.generator_asset_version,
            model_provider=batch.model_provider,
            model_name=batch.model_name,
            determinism=batch.determinism,
        ).model_dump(mode="json"),
        "cases": cases,
    }
    body["sha256"] = files.dataset_sha256(body, cases_json)
    return body


class GenerationResult(BaseModel):
    """A normalised generation, validated before it can be published."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    generator_id: str = Field(min_length=1)
    dataset_id: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    version: str = Field(min_length=1)
    request: CaseGeneratorInput
    request_sha256: str
    batch: GeneratedCaseBatch
    records: tuple[CaseRecord, ...]
    dataset: Optional[dict[str, Any]] = Field(
        description="The dataset mapping; None when the batch is incomplete (checked against the projection of the batch)."
    )
    dataset_sha256: Optional[str]
    started_at: datetime
    finished_at: datetime
    _sealed: Optional[str] = PrivateAttr(default=None)

    @classmethod
    @without_collector
    def build(
        cls,
        request: CaseGeneratorInput,
        batch: GeneratedCaseBatch,
        *,
        generator_id: str,
        dataset_id: str,
        version: str,
        started_at: datetime,
        finished_at: datetime,
    ) -> "GenerationResult":
        known = _canonical_cases(request.seed_cases, batch.cases)
        req_sha = request_sha256(request, known)
        records = _records(batch, known)
        body = _dataset_body(batch, records, generator_id, dataset_id, version, req_sha, known) if batch.complete else None
        fields = {
            "generator_id": generator_id,
            "dataset_id": dataset_id,
            "version": version,
            "request": request,
            "request_sha256": req_sha,
            "batch": batch,
            "records": records,
            "dataset": body,
            "dataset_sha256": body["sha256"] if body else None,
            "started_at": started_at,
            "finished_at": finished_at,
        }
        result = cls.model_validate(fields, context=_DERIVED)
        result._sealed = result._fingerprint()
        return result

    def _fingerprint(self) -> str:
        """sha256 of the result's content: equal only while nothing was edited since the seal.

        What can change in place is JSON (a case's input, expected and metadata, the request's
        settings and metadata, the `dataset` mapping): serialized here. The rest is frozen
        models of immutable values (records, reviews): their identity is enough, so the
        records' and reviews' tuples are named by id(), and a case that the batch holds
        (each record's case, the seed cases it carried over) is serialized once, through the batch.
        """
        cases = self.batch.cases
        records_share = len(self.records) == len(cases) and all(r.case is c for r, c in zip(self.records, cases))
        seeds = self.request.seed_cases
        seeds_share = len(seeds) <= len(cases) and all(a is b for a, b in zip(seeds, cases))
        exclude: dict[str, Any] = {"batch": {"reviews"}}
        if records_share:
            exclude["records"] = True
        if seeds_share:
            exclude["request"] = {"seed_cases"}
        body = self.__pydantic_serializer__.to_json(self, exclude=exclude)
        identities = (records_share, seeds_share, id(self), id(self.records), id(self.batch), id(self.batch.reviews), id(self.request))
        return sha256_bytes(repr(identities).encode() + body)

    @property
    def sealed(self) -> bool:
        """True while the result is exactly as `build` derived and checked it (`model_copy`,
        a mutated `dataset` mapping or case value, or a result assembled by hand is not)."""
        return self._sealed is not None and self._sealed == self._fingerprint()

    @model_validator(mode="after")
    def _verify(self, info: ValidationInfo) -> "GenerationResult":
        derived = info.context is _DERIVED  # `build` computed the derived fields from the rest just now
        if not derived and request_sha256(self.request) != self.request_sha256:
            raise ValueError("request_sha256 does not match the request")
        if not derived and self.records != _records(self.batch):
            raise ValueError("case records do not match the batch (content hash, review or published flag)")
        for record in self.records:
            if record.status is ReviewStatus.REJECTED and (record.published or not (record.reason or "").strip()):
                raise ValueError(f"rejected case {record.case.id!r} must be unpublished and explained")
        for moment in (self.started_at, self.finished_at):
            if moment.tzinfo is None:
                raise ValueError("timestamps must be timezone-aware")
        if self.finished_at < self.started_at:
            raise ValueError("finished_at is before started_at")
        if not self.batch.complete:
            if self.dataset is not None or self.dataset_sha256 is not None:
                raise ValueError("an incomplete batch publishes no dataset")
            return self
        if derived:
            return self
        expected = _dataset_body(self.batch, self.records, self.generator_id, self.dataset_id, self.version, self.request_sha256)
        if self.dataset != expected:
            raise ValueError("dataset content does not match the published projection of the batch")
        if self.dataset_sha256 != files.dataset_sha256(expected) or expected["sha256"] != self.dataset_sha256:
            raise ValueError("dataset_sha256 does not match the dataset content")
        published = [c["id"] for c in expected["cases"]]
        if published != [r.case.id for r in self.records if r.status is not ReviewStatus.REJECTED]:
            raise ValueError("review projection is inconsistent")
        return self

    @property
    def complete(self) -> bool:
        return self.batch.complete

    @property
    def review_counts(self) -> dict[str, int]:
        """How many cases are in each review state (every state present, zero included)."""
        return {s.value: sum(1 for r in self.records if r.status is s) for s in ReviewStatus}

    @property
    def content_sha256(self) -> str:
        """The batch's content identity: the request hash and the batch without `usage` and
        `cost` (accounting of one execution, like the timestamps, which it leaves out too), so
        a re-run that returns the same cases keeps it."""
        return sha256_json({"request": self.request_sha256, "batch": self.batch.model_dump(mode="json", exclude={"usage", "cost"})})

    @property
    def review_sha256(self) -> str:
        """The review projection's identity: the case records (hash, state, reason, reviewer,
        published), not the manifest's timestamps."""
        return sha256_json([record.model_dump(mode="json") for record in self.records])

    @property
    def published_cases(self) -> tuple[Case, ...]:
        return tuple(r.case for r in self.records if r.published)

    def dataset_yaml(self, path: Path | None = None) -> bytes:
        if self.dataset is None:
            raise ValueError(f"incomplete generation ({self.batch.incomplete_reason}): there is no dataset to write")
        ref = files.schema_ref(path, files.DATASET_SCHEMA) if path else (files.SCHEMA_DIR / files.DATASET_SCHEMA).as_posix()
        return files.dump_yaml({"dataset": self.dataset}, ref)

    def manifest(self) -> dict[str, Any]:
        batch, request = self.batch, self.request
        body = files.ManifestBody(
            status="complete" if batch.complete else "incomplete",
            incomplete_reason=batch.incomplete_reason,
            dataset=files.ManifestDataset(id=self.dataset_id, version=self.version, sha256=self.dataset_sha256),
            generator=files.ManifestGenerator(
                id=self.generator_id,
                asset_version=batch.generator_asset_version,
                model_provider=batch.model_provider,
                model_name=batch.model_name,
                determinism=batch.determinism,
            ),
            request=files.ManifestRequest(
                sha256=self.request_sha256,
                seed=request.seed,
                prompt_sha256=sha256_bytes(request.prompt.encode("utf-8")) if request.prompt is not None else None,
                prompt_asset_version=request.prompt_asset_version,
                settings=request.settings,
                metadata=request.metadata,
            ),
            usage=batch.usage,
            cost=batch.cost,
            timestamps=files.ManifestTimestamps(started_at=_iso(self.started_at), finished_at=_iso(self.finished_at)),
            review_counts=self.review_counts,
            cases=[],
        ).model_dump(mode="json")
        # The per-case lists, in the models' field order, from fields that are validated already.
        known = {id(r.case): r.sha256 for r in self.records}  # a seed case carried over is hashed once
        body["request"]["seed_cases"] = [{"id": c.id, "sha256": known.get(id(c)) or files.case_sha256(c)} for c in request.seed_cases]
        body["cases"] = [
            {
                "id": r.case.id,
                "sha256": r.sha256,
                "status": r.status.value,
                "reason": r.reason,
                "reviewer": r.reviewer,
                "published": r.published,
                "case": files.case_json(r.case),
            }
            for r in self.records
        ]
        return {"generation": body}

    def manifest_yaml(self, path: Path | None = None) -> bytes:
        ref = files.schema_ref(path, files.MANIFEST_SCHEMA) if path else (files.SCHEMA_DIR / files.MANIFEST_SCHEMA).as_posix()
        return files.dump_yaml(self.manifest(), ref)


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _is_async(generator: CaseGenerator) -> bool:
    return inspect.iscoroutinefunction(generator) or inspect.iscoroutinefunction(type(generator).__call__)


@contextmanager
def _reported(progress: ProgressLog | None, dataset_id: str, generator_id: str) -> Iterator[GenerationProgress | None]:
    """While the generator runs, its `report_progress` calls become lines on `progress`."""
    if progress is None:
        yield None
        return
    report = GenerationProgress(progress, dataset_id, generator_id)
    with listening(report.cases):
        yield report


def _result(
    request: CaseGeneratorInput,
    batch: Any,
    report: GenerationProgress | None,
    started: datetime,
    *,
    generator_id: str,
    dataset_id: str,
    version: str,
) -> GenerationResult:
    if not isinstance(batch, GeneratedCaseBatch):
        raise TypeError(f"generator {generator_id} returned {type(batch).__name__}, expected GeneratedCaseBatch")
    result = GenerationResult.build(
        request, batch, generator_id=generator_id, dataset_id=dataset_id, version=version, started_at=started, finished_at=_now()
    )
    if report is not None:
        report.finished(len(result.records), result.review_counts, batch.incomplete_reason)
    return result


async def generate_dataset(
    generator: CaseGenerator,
    request: CaseGeneratorInput,
    *,
    generator_id: str,
    dataset_id: str,
    version: str,
    progress: ProgressLog | None = None,
) -> GenerationResult:
    """Run a sync or async generator once and return the validated result. A sync generator
    runs in a worker thread so it does not block the event loop. Exceptions propagate:
    an exception is a failed generation, never a partial result. `progress` gets a start
    line, the generator's `report_progress` counts and the review counts at the end."""
    started = _now()
    with _reported(progress, dataset_id, generator_id) as report, older_objects_frozen():
        if _is_async(generator):
            batch = await cast(Awaitable[GeneratedCaseBatch], generator(request))  # _is_async: a coroutine function
        else:
            returned = await asyncio.to_thread(generator, request)
            batch = await returned if inspect.isawaitable(returned) else returned
    return _result(request, batch, report, started, generator_id=generator_id, dataset_id=dataset_id, version=version)


def generate_dataset_sync(
    generator: CaseGenerator,
    request: CaseGeneratorInput,
    *,
    generator_id: str,
    dataset_id: str,
    version: str,
    progress: ProgressLog | None = None,
) -> GenerationResult:
    """`generate_dataset` for synchronous code (raises inside a running event loop: use await)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError("generate_dataset_sync called inside a running event loop; use `await generate_dataset(...)`")
    if _is_async(generator):
        return asyncio.run(
            generate_dataset(generator, request, generator_id=generator_id, dataset_id=dataset_id, version=version, progress=progress)
        )
    started = _now()
    with _reported(progress, dataset_id, generator_id) as report, older_objects_frozen():
        batch = generator(request)
        if inspect.isawaitable(batch):
            batch = asyncio.run(_await(batch))
    return _result(request, batch, report, started, generator_id=generator_id, dataset_id=dataset_id, version=version)


async def _await(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


@dataclass(frozen=True)
class OutputPaths:
    dataset: Path
    manifest: Path
    incomplete: Path


def output_paths(path: str | Path) -> OutputPaths:
    """datasets/x.yaml -> x.yaml, x.generation.yaml, x.incomplete.yaml (same folder)."""
    path = Path(path)
    suffix = path.suffix or ".yaml"
    stem = path.stem if path.suffix else path.name
    return OutputPaths(path, path.with_name(f"{stem}.generation{suffix}"), path.with_name(f"{stem}.incomplete{suffix}"))


@dataclass(frozen=True)
class WrittenGeneration:
    complete: bool
    dataset: Optional[Path]
    manifest: Optional[Path]
    incomplete: Optional[Path]
    removed_incomplete: Optional[Path] = None  # a stale <stem>.incomplete.yaml a complete publication removed


class PublicationError(AtlasError, ValueError):
    """A result that no longer validates (edited after it was built); nothing was written."""


@without_collector
def write_generation_result(result: GenerationResult, path: str | Path, *, force: bool = False) -> WrittenGeneration:
    """Publish a result next to `path`.

    The result is validated again first, from its own fields (PublicationError, nothing
    written, when it no longer validates: a result edited after it was built, e.g. through
    `model_copy(update=...)` or its mutable `dataset` mapping, cannot be published).
    Complete: writes the dataset YAML at `path` and `<stem>.generation.yaml`; refuses
    (FileExistsError, nothing written) when either exists, unless `force`, which replaces
    both; then removes a stale `<stem>.incomplete.yaml` of an earlier incomplete run.
    Incomplete: writes only `<stem>.incomplete.yaml` (always replaced: it is an inspection
    sidecar) and never touches the dataset or its manifest, even with `force`. Every file is
    written atomically.
    """
    result = revalidated(result)
    paths = output_paths(path)
    if not result.complete:
        atomic_write_bytes(paths.incomplete, result.manifest_yaml(paths.incomplete))
        return WrittenGeneration(False, None, None, paths.incomplete)
    existing = [p for p in (paths.dataset, paths.manifest) if p.exists()]
    if existing and not force:
        raise FileExistsError(
            "refusing to replace existing output(s): " + ", ".join(map(str, existing)) + " (use --force / force=True to replace both)"
        )
    dataset_bytes = result.dataset_yaml(paths.dataset)
    manifest_bytes = result.manifest_yaml(paths.manifest)
    atomic_write_bytes(paths.dataset, dataset_bytes)
    atomic_write_bytes(paths.manifest, manifest_bytes)
    removed = None
    if paths.incomplete.is_file():
        paths.incomplete.unlink()
        removed = paths.incomplete
    return WrittenGeneration(True, paths.dataset, paths.manifest, None, removed)


def revalidated(result: GenerationResult) -> GenerationResult:
    """`result` if it is still exactly what `build` derived and checked (`sealed`), else
    `result` built again from its fields with every check of `GenerationResult` rerun."""
    if not isinstance(result, GenerationResult):
        raise PublicationError(f"expected a GenerationResult, got {type(result).__name__}")
    if result.sealed:
        return result
    try:
        return GenerationResult.model_validate(result.model_dump(round_trip=True))
    except ValidationError as exc:
        problems = "; ".join(str(e["msg"]).removeprefix("Value error, ") for e in exc.errors(include_url=False)[:3])
        raise PublicationError(
            f"refusing to publish: the generation result no longer validates (edited after it was built?): {problems}"
        ) from None
