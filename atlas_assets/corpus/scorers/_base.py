"""What every scorer shares: the boundary models, the `Scorer` base class and the registry.

A scorer is one object that owns everything the rest of the product asks of it, so no
caller branches on a scorer's name:

* ``name`` and ``extraction`` (which `corpus.extract.Extraction` turns a reply into the
  text it judges -- the dataset cards print it);
* ``check_row``: the row shape it needs (check.py and corpus validation);
* ``judge``: the verdict on one reply;
* ``reference`` / ``perturb``: a right and a wrong reply derived from the row (the corpus
  tests and the simulator engine);
* ``fence_language``, ``answer_line`` and ``max_tokens``: how a reply to it is dressed and
  how long a request for it may run (the simulator and workload drafts);
* ``row_fields``: the row fields only this scorer's rows carry (``choices``, ``tests``);
* ``runs_code`` (scoring is expensive: the runner scores it off the event loop),
  ``reads_tool_calls`` (it judges tool calls, not text) and ``needs_rules`` (its row check
  needs the corpus's instruction rules, `RowContext.rules`).

`register` adds an instance to `SCORERS`; each scorer lives in its own module of this
package, and the package imports every module in it, so adding a scorer is one new module.
Standard library and pydantic only: check.py imports this under a bare ``uv run``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar, Iterator, Mapping

from pydantic import BaseModel, ConfigDict, Field

from atlas_assets.corpus.extract import Extraction

__all__ = [
    "SCORERS",
    "ItemScore",
    "ModelOutput",
    "Problem",
    "RowContext",
    "ScoreSummary",
    "Scorer",
    "ToolCall",
    "Verdict",
    "accepted_answers",
    "register",
]


class ToolCall(BaseModel):
    """One tool call as the engine returned it; arguments as sent (JSON text) or parsed."""

    model_config = ConfigDict(frozen=True)

    name: str
    arguments: dict[str, Any] | str | None = None


class ModelOutput(BaseModel):
    """What an engine returned for one item. `error` set means the request failed."""

    model_config = ConfigDict(frozen=True)

    text: str | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    error: str | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None


class ItemScore(BaseModel):
    """The verdict on one item."""

    id: str | None = None
    scorer: str
    correct: bool
    failed: bool = False
    error: str | None = None
    extracted: str | None = None
    detail: str | None = None
    sandbox: str | None = Field(None, description="code_exec: the sandbox mode the verdict was reached in")


class ScoreSummary(BaseModel):
    total: int
    correct: int
    accuracy: float
    requests_failed: int
    failures: list[str] = Field(default_factory=list, description="ids of failed requests")
    by_scorer: dict[str, dict[str, int]] = Field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Verdict:
    correct: bool
    extracted: str | None = None
    detail: str | None = None
    sandbox: str | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a row, for the validation report: the field and why."""

    field: str
    message: str


@dataclass(frozen=True, slots=True)
class RowContext:
    """What row checks may need beyond the row: the instruction rules of the corpus being
    checked (None when they could not be loaded)."""

    rules: ModuleType | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


def accepted_answers(answer: Any) -> list[Any]:
    """A row's accepted answers: the list it gives, or the one answer."""
    return answer if isinstance(answer, list) else [answer]


class Scorer:
    """The base of every scorer; subclasses set the class attributes and override judge,
    reference and perturb (and check_row when the answer has a shape to check)."""

    name: ClassVar[str]
    extraction: ClassVar[Extraction]
    fence_language: ClassVar[str] = ""
    answer_line: ClassVar[bool] = False
    max_tokens: ClassVar[int] = 1024
    row_fields: ClassVar[frozenset[str]] = frozenset()
    runs_code: ClassVar[bool] = False
    reads_tool_calls: ClassVar[bool] = False
    needs_rules: ClassVar[bool] = False

    def check_row(self, row: Mapping[str, Any], context: RowContext) -> Iterator[Problem]:
        return iter(())

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        raise NotImplementedError

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        raise NotImplementedError

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        """The scorer as a dataset card prints it."""
        return {"extraction": self.extraction.name, "steps": list(self.extraction.steps)}

    def __repr__(self) -> str:
        return f"<scorer {self.name} ({self.extraction.name} extraction)>"


SCORERS: dict[str, Scorer] = {}


def register(cls: type[Scorer]) -> type[Scorer]:
    """Class decorator: one instance of `cls` becomes `SCORERS[cls.name]`."""
    if cls.name in SCORERS:
        raise ValueError(f"two scorers named {cls.name!r}: {type(SCORERS[cls.name]).__module__} and {cls.__module__}")
    SCORERS[cls.name] = cls()
    return cls
