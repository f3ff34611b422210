"""The corpus scorers: one item is correct or it is not.

    score(row, output, dataset_default_scorer) -> ItemScore

* The row's own ``scorer`` always wins; the dataset default applies only to rows without
  one.
* A failed request (timeout, 5xx, context overflow -- an output carrying ``error``) is
  incorrect and flagged ``failed=True`` so it can be listed apart (``scores.failures``,
  ``metrics.requests_failed``). Malformed output is simply a wrong answer.
* Each scorer takes the extraction it names (extract.py) before judging.

`SCORERS` maps every scorer name to its object (see `_base.Scorer`); each lives in its own
module of this package, and every module here is imported below, so a new scorer is one new
module plus its tests:

exact        extracted text == answer after NFKC, case folding and whitespace collapsing
numeric      extracted text parses as a number equal to the answer (meta tolerances)
mc           the label parsed from the text == answer (a letter)
contains     the answer (or any of a list) occurs in the extracted text, on word edges
json         the extracted text parses as JSON equal to the answer
instruction  datasets/eval-instruction-v1/rules.py evaluate(answer, raw output)
tool_call    the first tool call against answer.tool_call
code_exec    the program against the row's tests in the sandbox (sandbox.py)
splice       an intact, complete generation: no spliced token (splice/)

Plain functions and pydantic models at the boundary; no Dagster import.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Iterable, Mapping, Sequence

from atlas_assets.corpus.scorers._base import (
    SCORERS,
    ItemScore,
    ModelOutput,
    Problem,
    RowContext,
    Scorer,
    ScoreSummary,
    ToolCall,
    Verdict,
    register,
)

__all__ = [
    "RULES_PATH",
    "SCORERS",
    "ItemScore",
    "ModelOutput",
    "Problem",
    "RowContext",
    "ScoreSummary",
    "Scorer",
    "ToolCall",
    "Verdict",
    "as_output",
    "extract_answer",
    "get_scorer",
    "load_rules",
    "register",
    "rescore",
    "score",
    "scorer_name",
    "summarize",
]

from atlas_assets.corpus.scorers.instruction import RULES_PATH, load_rules  # noqa: E402

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")):
    importlib.import_module(f"{__name__}.{_module}")


def _tool_call_from(obj: Any) -> ToolCall:
    if isinstance(obj, ToolCall):
        return obj
    if isinstance(obj, Mapping):
        function = obj.get("function")
        fn: Mapping[Any, Any] = function if isinstance(function, Mapping) else obj
        return ToolCall(name=str(fn.get("name", "")), arguments=fn.get("arguments"))
    raise TypeError(f"cannot read a tool call from {type(obj).__name__}")


_EMPTY = ModelOutput()


def as_output(output: Any) -> ModelOutput:
    """Accept a ModelOutput, a plain string, None (empty reply), or an OpenAI-style message
    / result mapping ({"content", "tool_calls"} or {"text", "tool_calls", "error"})."""
    if isinstance(output, ModelOutput):
        return output
    if output is None:
        return _EMPTY
    if isinstance(output, str):
        return ModelOutput(text=output)
    if isinstance(output, Mapping):
        text = output.get("text", output.get("content"))
        calls = [_tool_call_from(c) for c in (output.get("tool_calls") or [])]
        error = output.get("error")
        return ModelOutput(text=text, tool_calls=calls, error=None if error is None else str(error))
    raise TypeError(f"unsupported output type {type(output).__name__}")


def get_scorer(name: str) -> Scorer:
    try:
        return SCORERS[name]
    except KeyError:
        raise ValueError(f"unknown scorer {name!r}; known: {', '.join(sorted(SCORERS))}") from None


def scorer_name(row: Mapping[str, Any], dataset_default_scorer: str | None = None) -> str:
    """The scorer that judges `row`: its own, else the dataset default."""
    name = row.get("scorer") or dataset_default_scorer
    if name is None:
        raise ValueError(f"row {row.get('id')}: no scorer on the row and no dataset default")
    if name not in SCORERS:
        raise ValueError(f"row {row.get('id')}: unknown scorer {name!r}; known: {', '.join(sorted(SCORERS))}")
    return name


def extract_answer(text: str | None, scorer: str) -> str:
    """The text scorer `scorer` judges in the reply `text` (its extraction applied)."""
    return get_scorer(scorer).extraction(text)


def score(row: Mapping[str, Any], output: Any, dataset_default_scorer: str | None = None) -> ItemScore:
    """Judge one item. `output` is a ModelOutput, a string, None or an OpenAI-style dict."""
    name = scorer_name(row, dataset_default_scorer)
    out = as_output(output)
    row_id = row.get("id")
    if out.error is not None:
        return ItemScore(id=row_id, scorer=name, correct=False, failed=True, error=out.error, detail="request failed")
    scorer = SCORERS[name]
    verdict = scorer.judge(row, out, scorer.extraction(out.text))
    return ItemScore(
        id=row_id,
        scorer=name,
        correct=bool(verdict.correct),
        extracted=verdict.extracted,
        detail=verdict.detail,
        sandbox=verdict.sandbox,
    )


def rescore(rows: Sequence[Mapping[str, Any]], outputs: Sequence[Any], dataset_default_scorer: str | None = None) -> list[ItemScore]:
    """Score stored outputs against their rows (same order, same length)."""
    if len(rows) != len(outputs):
        raise ValueError(f"{len(rows)} rows but {len(outputs)} outputs")
    return [score(row, out, dataset_default_scorer) for row, out in zip(rows, outputs)]


def summarize(scores: Iterable[ItemScore]) -> ScoreSummary:
    """accuracy = correct / total, failed requests counted (incorrect) and listed."""
    total = correct = failed = 0
    failures: list[str] = []
    by_scorer: dict[str, dict[str, int]] = {}
    for s in scores:
        total += 1
        correct += s.correct
        bucket = by_scorer.setdefault(s.scorer, {"total": 0, "correct": 0, "failed": 0})
        bucket["total"] += 1
        bucket["correct"] += s.correct
        if s.failed:
            failed += 1
            bucket["failed"] += 1
            failures.append(str(s.id))
    return ScoreSummary(
        total=total,
        correct=correct,
        accuracy=correct / total if total else 0.0,
        requests_failed=failed,
        failures=failures,
        by_scorer=dict(sorted(by_scorer.items())),
    )
