"""The on-disk documents: request YAML, dataset YAML, generation manifest, benchmark YAML.

Their pydantic models are the source of the published JSON Schemas (package data in
autobench/schema_files/0.3.0/; the repo's schemas/0.3.0 links there), and
every reader validates through them, so an error names the offending field. YAML is
written deterministically (fixed key order, block style) with a leading
`# yaml-language-server: $schema=...` comment.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, TypeVar, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue, StrictInt, ValidationError, model_validator

from atlas_assets.core.collector import without_collector
from atlas_assets.core.errors import AtlasError, validation_messages
from atlas_assets.core.hashing import canonical_json_with, sha256_bytes, sha256_json
from atlas_assets.core.names import AssetKeyPart
from autobench import yamlio
from autobench.evaluators import EvaluatorSpec
from autobench.models import Case, CaseGeneratorInput, GenerationCost, GenerationDeterminism, GenerationUsage, ReviewStatus, Seed

SCHEMA_VERSION = "0.3.0"
SCHEMA_DIR = Path("schemas") / SCHEMA_VERSION  # where a project keeps them (the repo: a link to the package's)
PACKAGE_SCHEMA_DIR = Path(__file__).resolve().parent / "schema_files" / SCHEMA_VERSION  # package data: always installed
REQUEST_SCHEMA = "generation_request_schema.json"
DATASET_SCHEMA = "dataset_schema.json"
MANIFEST_SCHEMA = "generation_manifest_schema.json"
BENCHMARK_SCHEMA = "benchmark_schema.json"


class DocumentError(AtlasError, ValueError):
    """A document that does not match its schema; the message names the field(s)."""


class _Doc(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- request YAML ----------------------------------------------------------------------


class PromptSpec(_Doc):
    content: str = Field(min_length=1, description="The prompt text given to the generator.")
    asset_version: Optional[str] = Field(default=None, description="Tracked prompt asset version, e.g. prompt.routing@v1.")


class PydanticEvalsSeedCase(_Doc):
    """A seed case in Pydantic Evals' shape (read as {id: name, input: inputs, expected: expected_output, metadata})."""

    name: str = Field(min_length=1)
    inputs: JsonValue
    expected_output: JsonValue = None
    metadata: Optional[dict[str, JsonValue]] = None


def _seed_case(value: Any) -> Any:
    if type(value) is dict and "input" in value:  # the Autobench shape (is_seed_case is False): nothing to map
        return value
    from autobench import evals_format

    if evals_format.is_seed_case(value):
        if value.get("evaluators"):
            raise ValueError("evaluators: a seed case's evaluators cannot be mapped (a seed case is an example, not a judged case)")
        try:
            return evals_format.case_from(value, "(Pydantic Evals case)")
        except evals_format.FormatError as exc:
            raise ValueError(str(exc)) from None
    return value


SeedCase = Annotated[Case, BeforeValidator(_seed_case, json_schema_input_type=Union[Case, PydanticEvalsSeedCase])]


class RequestSpec(_Doc):
    seed: Optional[Seed] = None
    prompt: Optional[Union[PromptSpec, str]] = None
    settings: dict[str, JsonValue] = Field(default_factory=dict)
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
    seed_cases: list[SeedCase] = Field(
        default_factory=list,
        description="Autobench cases {id, input, expected, metadata} or Pydantic Evals ones {name, inputs, expected_output, metadata}.",
    )


class GenerationRequestBody(_Doc):
    request: RequestSpec


class GenerationRequestFile(_Doc):
    """A human-authored generation request (`autobench dataset generate --request`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", title="Autobench generation request")
    generation: GenerationRequestBody

    def to_input(self) -> CaseGeneratorInput:
        spec = self.generation.request
        prompt = spec.prompt
        text, version = (prompt, None) if isinstance(prompt, str) or prompt is None else (prompt.content, prompt.asset_version)
        return CaseGeneratorInput(
            seed=spec.seed,
            prompt=text,
            prompt_asset_version=version,
            settings=spec.settings,
            metadata=spec.metadata,
            seed_cases=tuple(spec.seed_cases),
        )


# --- dataset YAML ----------------------------------------------------------------------


class CaseProvenance(_Doc):
    source: Literal["generated"] = "generated"
    review_status: ReviewStatus
    generator: str
    generator_asset_version: Optional[str] = None
    model_provider: Optional[str] = None
    model_name: Optional[str] = None
    case_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class DatasetGeneration(_Doc):
    generator: str
    request_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    generator_asset_version: Optional[str] = None
    model_provider: Optional[str] = None
    model_name: Optional[str] = None
    determinism: GenerationDeterminism


class DatasetOrigin(_Doc):
    """Where an `imported` dataset came from."""

    format: Literal["pydantic-evals"] = Field(description="The file format it was read from.")
    file: str = Field(min_length=1, description="The file it was read from (as given).")
    file_sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of that file's bytes when it was read.")
    name: Optional[str] = Field(default=None, description="The dataset name in that file.")


DatasetSource = Literal["generated", "curated", "imported"]


class DatasetBody(_Doc):
    id: str = Field(min_length=1)
    version: str = Field(min_length=1)
    sha256: str = Field(
        pattern=r"^[0-9a-f]{64}$",
        description="sha256 of the canonical JSON of this mapping without `sha256` (`autobench dataset freeze` stamps it).",
    )
    source: DatasetSource = Field(
        default="generated",
        description="generated (by `autobench dataset generate`, with `generation`), curated (written by hand), "
        "imported (from another format, with `imported_from`).",
    )
    generation: Optional[DatasetGeneration] = Field(default=None, description="Required for, and only for, source: generated.")
    imported_from: Optional[DatasetOrigin] = Field(default=None, description="Only for source: imported.")
    cases: list[Case]

    @model_validator(mode="after")
    def _consistent(self) -> "DatasetBody":
        if (self.source == "generated") != (self.generation is not None):
            raise ValueError("`generation` is required for source: generated and not allowed otherwise")
        if self.imported_from is not None and self.source != "imported":
            raise ValueError("`imported_from` is only allowed for source: imported")
        seen: set[str] = set()
        for case in self.cases:
            if case.id in seen:
                raise ValueError(f"duplicate case id {case.id!r}")
            seen.add(case.id)
        return self


class DatasetFile(_Doc):
    """A frozen, benchmark-ready dataset (`dataset.source: file://...`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", title="Autobench dataset")
    dataset: DatasetBody


# --- generation manifest / incomplete sidecar --------------------------------------------


class ManifestGenerator(_Doc):
    id: str
    asset_version: Optional[str] = None
    model_provider: Optional[str] = None
    model_name: Optional[str] = None
    determinism: GenerationDeterminism


class SeedCaseRef(_Doc):
    id: str
    sha256: str


class ManifestRequest(_Doc):
    sha256: str = Field(description="Covers seed, seed cases, prompt, prompt version, settings, metadata.")
    seed: Optional[Seed] = None
    prompt_sha256: Optional[str] = Field(default=None, description="sha256 of the prompt text (the text itself is not stored).")
    prompt_asset_version: Optional[str] = None
    settings: dict[str, JsonValue] = Field(default_factory=dict)
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
    seed_cases: list[SeedCaseRef] = Field(default_factory=list)


class ManifestDataset(_Doc):
    id: str
    version: str
    sha256: Optional[str] = Field(default=None, description="null for an incomplete generation: nothing was published.")


class ManifestTimestamps(_Doc):
    started_at: str
    finished_at: str


class ManifestCase(_Doc):
    id: str
    sha256: str
    status: ReviewStatus
    reason: Optional[str] = None
    reviewer: Optional[str] = None
    published: bool
    case: Case


class ManifestBody(_Doc):
    schema_version: Literal["0.3.0"] = "0.3.0"
    status: Literal["complete", "incomplete"]
    incomplete_reason: Optional[str] = None
    dataset: ManifestDataset
    generator: ManifestGenerator
    request: ManifestRequest
    usage: Optional[GenerationUsage] = None
    cost: Optional[GenerationCost] = None
    timestamps: ManifestTimestamps
    review_counts: dict[str, int]
    cases: list[ManifestCase]


class GenerationManifestFile(_Doc):
    """Provenance of one generation (`<stem>.generation.yaml`, or `<stem>.incomplete.yaml`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", title="Autobench generation manifest")
    generation: ManifestBody


# --- benchmark YAML --------------------------------------------------------------------


class BenchmarkDataset(_Doc):
    source: str = Field(
        pattern=r"^file://",
        description="file://PATH, relative to the benchmark file's folder: an Autobench dataset, or a Pydantic Evals dataset file (YAML or JSON).",
    )
    judge_engine: Optional[str] = Field(
        default=None, min_length=1, description="The engine of the llm-judge a Pydantic Evals file's LLMJudge evaluators become."
    )
    version: str = Field(min_length=1)
    sha256: Optional[str] = Field(default=None, description="Optional pin of the dataset hash.")


class BenchmarkRun(_Doc):
    python: str = Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$", description="module:function called per case x variant.")
    concurrency: StrictInt = Field(default=4, ge=1)


class BenchmarkSpec(_Doc):
    dataset: BenchmarkDataset
    run: BenchmarkRun
    variants: dict[str, dict[str, JsonValue]] = Field(min_length=1)
    evaluators: list[EvaluatorSpec] = Field(
        default_factory=list, description="Evaluators of every case (none: passed = equals expected, or the task's own)."
    )
    case_evaluators: dict[str, list[EvaluatorSpec]] = Field(default_factory=dict, description="More evaluators for one case id.")


class BenchmarkFile(_Doc):
    model_config = ConfigDict(frozen=True, extra="forbid", title="Autobench benchmark")
    benchmark: dict[AssetKeyPart("benchmark name"), BenchmarkSpec] = Field(min_length=1)  # type: ignore[valid-type]


# --- YAML io -------------------------------------------------------------------------------

dump_yaml = yamlio.dump_yaml


def schema_ref(document_path: Path, schema_name: str) -> str:
    """The `$schema` reference written into a YAML file: relative to the file's folder when an
    ancestor holds schemas/0.3.0/<name> (`autobench schemas --dir PROJECT` puts them there),
    else the file:// URI of the installed package's copy, so it always resolves."""
    folder = Path(os.path.abspath(document_path)).parent
    for ancestor in (folder, *folder.parents):
        if (ancestor / SCHEMA_DIR / schema_name).is_file():
            return Path(os.path.relpath(ancestor / SCHEMA_DIR / schema_name, folder)).as_posix()
    return (PACKAGE_SCHEMA_DIR / schema_name).as_uri()


def describe(exc: ValidationError, prefix: str = "", node: Any = None, base: tuple[Any, ...] = ()) -> str:
    """One line per error, `  <field>: <message>`, with ` (line N)` when `node` (the composed
    document) locates the field (`base` + the error's location)."""
    lines = []
    for error, (field, message) in zip(exc.errors(include_url=False), validation_messages(exc)):
        line = yamlio.line_of(node, (*base, *error["loc"])) if node is not None else None
        lines.append(f"  {prefix}{field or '(document)'}: {message}" + (f" (line {line})" if line else ""))
    return "\n".join(lines)


ModelT = TypeVar("ModelT", bound=BaseModel)


def load_document(path: str | Path, model: type[ModelT], raw: Any = None) -> ModelT:
    """Read YAML with the safe loader (`autobench.yamlio`) and validate it against `model`;
    DocumentError names the file, the field(s) and their lines. `raw`: the file's content,
    when the caller has read it already."""
    document, _ = load_document_node(path, model, raw)
    return document


@without_collector
def load_document_node(path: str | Path, model: type[ModelT], raw: Any = None) -> tuple[ModelT, Any]:
    """`load_document` and the composed YAML node tree (for the lines of later errors)."""
    path = Path(path)
    node = None
    if raw is None:
        try:
            raw, node = yamlio.read_yaml(path)
        except yamlio.YamlError as exc:
            raise DocumentError(str(exc)) from None
    try:
        return model.model_validate(raw), node
    except ValidationError as exc:
        node = node or yamlio.node_of(path)
        raise DocumentError(f"{path}: invalid {model.model_config.get('title', model.__name__)}:\n{describe(exc, node=node)}") from None


def load_request(path: str | Path) -> CaseGeneratorInput:
    document, node = load_document_node(path, GenerationRequestFile)
    try:
        return document.to_input()
    except ValidationError as exc:
        node = node or yamlio.node_of(path)
        raise DocumentError(
            f"{path}: invalid generation request:\n{describe(exc, 'generation.request.', node, ('generation', 'request'))}"
        ) from None


# --- hashes ----------------------------------------------------------------------------------


def case_json(case: Case, metadata: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    """A case as JSON (its fields are JSON values already: no model dump needed), with
    `metadata` in place of its own when given."""
    return {"id": case.id, "input": case.input, "expected": case.expected, "metadata": case.metadata if metadata is None else metadata}


def case_sha256(case: Case, metadata: Optional[dict[str, Any]] = None) -> str:
    """The case's own content identity: canonical JSON of id, input, expected, metadata."""
    return sha256_json(case_json(case, metadata))


def dataset_sha256(body: dict[str, Any], cases_json: Optional[list[bytes]] = None) -> str:
    """The dataset identity: canonical JSON of the `dataset` mapping without its `sha256`
    (and without the optional `generation` / `imported_from` when null, so a generated
    dataset written before they were optional keeps its hash). `cases_json`: each case's
    canonical JSON, when the caller has it already."""
    fields = {k: v for k, v in body.items() if k != "sha256" and not (k in _OPTIONAL_KEYS and v is None)}
    if cases_json is None:
        return sha256_json(fields)
    return sha256_bytes(canonical_json_with(fields, {"cases": b"[" + b",".join(cases_json) + b"]"}))


_OPTIONAL_KEYS = ("generation", "imported_from")


def dataset_json(dataset: DatasetBody) -> dict[str, Any]:
    """The `dataset` mapping as written: JSON values, null optional sections left out."""
    body = dataset.model_dump(mode="json")
    return {k: v for k, v in body.items() if not (k in _OPTIONAL_KEYS and v is None)}


def dataset_yaml(dataset: DatasetBody, path: Path | None = None) -> bytes:
    ref = schema_ref(path, DATASET_SCHEMA) if path else (SCHEMA_DIR / DATASET_SCHEMA).as_posix()
    return dump_yaml({"dataset": dataset_json(dataset)}, ref)


class DatasetIntegrityError(AtlasError, ValueError):
    """A dataset file whose content does not match the hash in its metadata."""


@without_collector
def load_dataset(path: str | Path, raw: Any = None) -> DatasetFile:
    """Read a dataset file (or validate its content `raw`, read already) and verify its
    sha256 (DatasetIntegrityError on a mismatch)."""
    document = load_document(path, DatasetFile, raw)
    actual = dataset_sha256(document.dataset.model_dump(mode="json"))
    if actual != document.dataset.sha256:
        if document.dataset.source == "generated":
            hint = "the file was edited after generation. Regenerate it deliberately."
        else:
            hint = f"the file was edited after it was frozen. Review the change, then `autobench dataset freeze {path}`."
        raise DatasetIntegrityError(
            f"{path}: dataset content hash {actual} does not match its metadata sha256 {document.dataset.sha256}; {hint}"
        )
    for case in document.dataset.cases:
        meta = case.metadata.get("generation")
        if isinstance(meta, dict) and meta.get("case_sha256"):
            own_meta = {k: v for k, v in case.metadata.items() if k != "generation"}
            if case_sha256(case, own_meta) != meta["case_sha256"]:
                raise DatasetIntegrityError(f"{path}: case {case.id!r} does not match its case_sha256")
    return document


class DatasetDraftBody(DatasetBody):
    """A dataset being frozen: `sha256` may be missing or stale."""

    sha256: Optional[str] = None  # type: ignore[assignment]


class DatasetDraftFile(_Doc):
    model_config = ConfigDict(frozen=True, extra="forbid", title="Autobench dataset (to freeze)")
    dataset: DatasetDraftBody


def freeze_dataset(path: str | Path, output: str | Path | None = None) -> tuple[Path, DatasetBody, Optional[str]]:
    """Stamp a curated or imported dataset's content sha256 (written to `output`, default
    `path` itself, atomically); returns (written path, dataset, the sha256 it had before).
    A generated dataset is refused: its hash is the generation's evidence."""
    from atlas_assets.core.atomic import atomic_write_bytes

    path = Path(path)
    draft = load_document(path, DatasetDraftFile).dataset
    if draft.source == "generated":
        raise DocumentError(
            f"{path}: dataset.source: a generated dataset is not frozen by hand (its sha256 is the generation's evidence); "
            "regenerate it, or make it source: curated"
        )
    body = draft.model_dump(mode="json")
    body["sha256"] = dataset_sha256(body)
    dataset = DatasetBody.model_validate(body)
    target = Path(output) if output is not None else path
    atomic_write_bytes(target, dataset_yaml(dataset, target))
    return target, dataset, draft.sha256
