"""The translation run card (run_card.json) as a pydantic model; its JSON Schema is
published in schemas/translation-run/1/ (`python -m atlas_assets.schemas --write`).

Format version: as for the eval run's documents (evals/documents.py), `format_version` is
1. Cards written before the field named their format `"format": "atlas-translation-run-card/1"`;
they read as version 1. A version above the one this harness knows is refused.
"""

from __future__ import annotations

import warnings
from typing import Any

from pydantic import ConfigDict, Field, model_validator

from atlas_assets.evals.documents import SHA256, Block, EngineBlock, Harness, VersionedDocument

__all__ = ["CardDataset", "CardFailure", "CardOutput", "CardRun", "GroupScore", "MetricScore", "RunCard", "Template"]

LEGACY_FORMAT = "atlas-translation-run-card/"  # + the version: how cards named their format before format_version


class _Aliased(Block):
    """A block with a key that is no Python name (`chrf++`)."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)


class CardDataset(Block):
    id: str
    version: str
    sha256: str = Field(pattern=SHA256, description="sha256 of the corpus file's bytes")
    language_pair: str
    source_language: str
    target_language: str
    entries: int
    segments: int = Field(description="entries sharing a variant_class are one segment")
    path: str = Field(description="the corpus file the run read (a run fact, not scored content)")


class Template(Block):
    id: str
    system: str
    user: str
    sha256: str = Field(pattern=SHA256)


class CardRun(Block):
    limit: int | None
    concurrency: int
    segments_selected: int
    sent: int
    resumed: int
    stale_dropped: int
    checkpoint: str
    segments_done: int
    failed: int
    partial_selection: bool | None = Field(None, description="with a limit: the selection is not the whole corpus")


class MetricScore(Block):
    score: float
    signature: str = Field(description="sacreBLEU's signature: scores compare only when it matches")
    text: str


class GroupScore(_Aliased):
    segments: int
    chrfpp: float = Field(alias="chrf++")
    bleu: float


class CardFailure(Block):
    segment: int
    error: str
    error_kind: str | None
    status: int | None = Field(None, description="HTTP status of the final attempt")


with warnings.catch_warnings():  # `register` (an entry field) shadows ABCMeta.register, harmlessly
    warnings.filterwarnings("ignore", message='Field name "register"')

    class CardOutput(_Aliased):
        id: int = Field(description="the corpus entry id")
        segment: int
        variant_class: str | None
        difficulty: int
        register: str = Field(description="the entry's register (formality level)")
        context: str
        source: str
        reference: str
        output: str = Field(description="the cleaned reply; empty for a failed request")
        error: str | None
        chrfpp: float = Field(alias="chrf++", description="sentence chrF++ against every reference of the segment")


class RunCard(VersionedDocument):
    """run_card.json: a corpus through an engine, scored (README "Translation evaluation")."""

    harness: Harness
    created_at: str
    complete: bool
    dataset: CardDataset
    engine: EngineBlock
    model: str
    template: Template
    params: dict[str, Any] = Field(description="request parameters sent with every segment")
    run: CardRun
    primary_metric: str
    scores: dict[str, MetricScore] = Field(description="corpus-level chrf++, chrf and bleu; empty without a segment done")
    breakdowns: dict[str, dict[str, GroupScore]] = Field(description="dimension -> value -> its corpus-level scores")
    failures: list[CardFailure]
    outputs: list[CardOutput]
    content_sha256: str = Field(pattern=SHA256, description="sha256 of the card's scored content: its data version")

    @model_validator(mode="before")
    @classmethod
    def _legacy_format(cls, data: Any) -> Any:
        if isinstance(data, dict) and "format" in data and "format_version" not in data:
            data = dict(data)
            name = data.pop("format")
            version = name.removeprefix(LEGACY_FORMAT) if isinstance(name, str) else ""
            if not (isinstance(name, str) and name.startswith(LEGACY_FORMAT) and version.isdigit()):
                raise ValueError(f"format: {name!r} is not a run card format ({LEGACY_FORMAT}N)")
            data["format_version"] = int(version)
        return data
