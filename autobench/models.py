"""The Autobench generator contract: typed, portable evidence of how cases were generated.

Everything here is a pydantic model (frozen, extra fields forbidden). A generator receives
one `CaseGeneratorInput` and returns one `GeneratedCaseBatch`; no Dagster import.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, Optional

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictInt, field_validator, model_validator

__all__ = [
    "Case",
    "CaseGeneratorInput",
    "GeneratedCaseBatch",
    "GeneratedCaseReview",
    "GenerationCost",
    "GenerationDeterminism",
    "GenerationUsage",
    "ReviewStatus",
    "Seed",
]

Seed = Annotated[
    StrictInt,
    Field(ge=-(2**63), le=2**63 - 1, description='A signed 64-bit integer (true/false and "17" are not integers).'),
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ReviewStatus(str, Enum):
    """`candidate` and `accepted` cases are published; `rejected` ones are not."""

    CANDIDATE = "candidate"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class GenerationDeterminism(str, Enum):
    """An evidence claim made by the generator adapter; Autobench never upgrades it."""

    GUARANTEED = "guaranteed"
    NOT_GUARANTEED = "not_guaranteed"
    UNKNOWN = "unknown"


class Case(_Frozen):
    """One benchmark case: a unique id, an input, an optional expected value, metadata."""

    id: str = Field(min_length=1, description="Unique within a dataset.")
    input: JsonValue = Field(description="What the task under test receives.")
    expected: JsonValue = Field(default=None, description="The expected output (null: none).")
    metadata: dict[str, JsonValue] = Field(default_factory=dict)

    @field_validator("id")
    @classmethod
    def _id_text(cls, value: str) -> str:
        if value != value.strip():
            raise ValueError("case id must not start or end with whitespace")
        return value


class CaseGeneratorInput(_Frozen):
    """What a generator receives. The request hash covers every field."""

    seed: Optional[Seed] = None
    prompt: Optional[str] = None
    prompt_asset_version: Optional[str] = None
    settings: dict[str, JsonValue] = Field(default_factory=dict)
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
    seed_cases: tuple[Case, ...] = ()

    @model_validator(mode="after")
    def _unique_seed_cases(self) -> "CaseGeneratorInput":
        _unique_ids(self.seed_cases, "seed_cases")
        return self


class GeneratedCaseReview(_Frozen):
    """The review state of one generated case; a rejection needs a non-empty reason."""

    case_id: str = Field(min_length=1)
    status: ReviewStatus = ReviewStatus.CANDIDATE
    reason: Optional[str] = None
    reviewer: Optional[str] = None

    @model_validator(mode="after")
    def _rejection_reason(self) -> "GeneratedCaseReview":
        if self.status is ReviewStatus.REJECTED and not (self.reason or "").strip():
            raise ValueError(f"review of case {self.case_id!r}: a rejected case needs a non-empty reason")
        return self


class GenerationUsage(_Frozen):
    input_tokens: StrictInt = Field(default=0, ge=0)
    output_tokens: StrictInt = Field(default=0, ge=0)
    requests: StrictInt = Field(default=0, ge=0)


class GenerationCost(_Frozen):
    amount: float = Field(ge=0, allow_inf_nan=False)
    currency: str = Field(default="usd", min_length=1)


class GeneratedCaseBatch(_Frozen):
    """What a generator returns: cases, provenance, usage, cost, reviews, completeness."""

    cases: tuple[Case, ...] = ()
    generator_asset_version: Optional[str] = None
    model_provider: Optional[str] = None
    model_name: Optional[str] = None
    determinism: GenerationDeterminism = GenerationDeterminism.UNKNOWN
    usage: Optional[GenerationUsage] = None
    cost: Optional[GenerationCost] = None
    reviews: tuple[GeneratedCaseReview, ...] = ()
    complete: bool = True
    incomplete_reason: Optional[str] = None

    @model_validator(mode="after")
    def _consistent(self) -> "GeneratedCaseBatch":
        _unique_ids(self.cases, "cases")
        ids = {case.id for case in self.cases}
        seen: set[str] = set()
        for review in self.reviews:
            if review.case_id not in ids:
                raise ValueError(f"review for unknown case id {review.case_id!r}")
            if review.case_id in seen:
                raise ValueError(f"more than one review for case id {review.case_id!r}")
            seen.add(review.case_id)
        if self.complete and self.incomplete_reason is not None:
            raise ValueError("incomplete_reason is only allowed when complete is false")
        if not self.complete and not (self.incomplete_reason or "").strip():
            raise ValueError("an incomplete batch (complete: false) needs a non-empty incomplete_reason")
        return self

    def review_of(self, case_id: str) -> GeneratedCaseReview:
        """The case's review; a case nobody reviewed is a `candidate`."""
        for review in self.reviews:
            if review.case_id == case_id:
                return review
        return GeneratedCaseReview(case_id=case_id, status=ReviewStatus.CANDIDATE)


def _unique_ids(cases: Any, field: str) -> None:
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise ValueError(f"{field}: duplicate case id {case.id!r}")
        seen.add(case.id)
