"""The corpus scorers: one item is correct or it is not.

    score(row, output, dataset_default_scorer) -> ItemScore

* The row's own ``scorer`` always wins; the dataset default applies only to rows without
  one.
* A failed request (timeout, 5xx, context overflow -- an output carrying ``error``) is
  incorrect and flagged ``failed=True`` so it can be listed apart (``scores.failures``,
  ``metrics.requests_failed``). Malformed output is simply a wrong answer.
* Answer extraction (extract.py) runs before every scorer except ``instruction``; see
  extract.py for the subsets ``splice`` and ``code_exec`` use.

SCORERS maps every scorer name to its function ``(row, output) -> Verdict``:

exact        extracted text == answer after NFKC, case folding and whitespace collapsing
numeric      extracted text parses as a number (parsing.parse_number) equal to the answer:
             exactly (rationals) unless meta.tolerance (absolute) or meta.rel_tolerance
mc           the label parsed from the text (parsing.parse_choice) == answer (a letter)
contains     the answer (or any of a list of answers) occurs in the extracted text, any case;
             an answer starting/ending with a letter or digit must not touch another one
json         the extracted text parses as JSON equal to the answer (key order free, numbers
             by value, booleans only equal booleans)
instruction  datasets/eval-instruction-v1/rules.py evaluate(answer, raw output) -- the one
             normative implementation, loaded by path
tool_call    the first tool call against answer.tool_call (see `score_tool_call`)
code_exec    the program plus the row's ``tests`` in the sandbox (sandbox.py)
splice       no spliced token in the generation (splice.py); needs meta.context_identifiers

Plain functions and pydantic models at the boundary; no Dagster import.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import threading
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from atlas_assets.corpus import extract as _extract
from atlas_assets.corpus.parsing import normalize_text, parse_choice, parse_number, to_fraction

__all__ = [
    "SCORERS",
    "ItemScore",
    "ModelOutput",
    "ScoreSummary",
    "ToolCall",
    "Verdict",
    "as_output",
    "load_rules",
    "rescore",
    "score",
    "summarize",
]


# --- boundary models -------------------------------------------------------------------


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


# --- normalising engine output ---------------------------------------------------------


def _tool_call_from(obj: Any) -> ToolCall:
    if isinstance(obj, ToolCall):
        return obj
    if isinstance(obj, Mapping):
        fn = obj.get("function") if isinstance(obj.get("function"), Mapping) else obj
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


# --- the scorers -----------------------------------------------------------------------


def score_exact(row: Mapping[str, Any], out: ModelOutput) -> Verdict:
    got = _extract.extract_answer(out.text, "exact")
    answers = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
    target = {normalize_text(a) for a in answers}
    return Verdict(normalize_text(got) in target, got)


def score_numeric(row: Mapping[str, Any], out: ModelOutput) -> Verdict:
    got = _extract.extract_answer(out.text, "numeric")
    value = parse_number(got)
    if value is None:
        return Verdict(False, got, "not a number")
    expected = to_fraction(row["answer"])
    if expected is None:
        raise ValueError(f"row {row.get('id')}: numeric answer {row['answer']!r} is not a number")
    meta = row.get("meta") or {}
    tol, rel = meta.get("tolerance"), meta.get("rel_tolerance")
    if tol is None and rel is None:
        return Verdict(value == expected, got)
    diff = abs(value - expected)
    ok = (tol is not None and diff <= to_fraction(tol)) or (
        rel is not None and diff <= to_fraction(rel) * abs(expected)
    )
    return Verdict(bool(ok), got)


def score_mc(row: Mapping[str, Any], out: ModelOutput) -> Verdict:
    got = _extract.extract_answer(out.text, "mc")
    label = parse_choice(got, row["choices"])
    if label is None:
        return Verdict(False, got, "no choice label")
    return Verdict(label == str(row["answer"]).strip().upper(), got, f"picked {label}")


_EDGE = re.compile(r"[0-9a-z]")


def _contains(haystack: str, needle: str) -> bool:
    if not needle:
        return False
    start = 0
    while True:
        i = haystack.find(needle, start)
        if i < 0:
            return False
        before = haystack[i - 1] if i else ""
        after = haystack[i + len(needle)] if i + len(needle) < len(haystack) else ""
        ok_before = not (_EDGE.match(needle[0]) and before and _EDGE.match(before))
        ok_after = not (_EDGE.match(needle[-1]) and after and _EDGE.match(after))
        if ok_before and ok_after:
            return True
        start = i + 1


def score_contains(row: Mapping[str, Any], out: ModelOutput) -> Verdict:
    got = _extract.extract_answer(out.text, "contains")
    hay = normalize_text(got)
    answers = row["answer"] if isinstance(row["answer"], list) else [row["answer"]]
    return Verdict(any(_contains(hay, normalize_text(a)) for a in answers), got)


def _json_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def score_json(row: Mapping[str, Any], out: ModelOutput) -> Verdict:
    got = _extract.extract_answer(out.text, "json")
    try:
        value = json.loads(got)
    except ValueError as exc:
        return Verdict(False, got, f"invalid JSON: {exc}")
    return Verdict(_json_equal(value, row["answer"]), got)


_RULES: ModuleType | None = None
_RULES_LOCK = threading.Lock()
RULES_PATH = Path(__file__).resolve().parents[2] / "datasets" / "eval-instruction-v1" / "rules.py"


def load_rules(path: str | Path | None = None) -> ModuleType:
    """datasets/eval-instruction-v1/rules.py, imported by path (the single implementation)."""
    global _RULES
    if _RULES is not None and path is None:
        return _RULES
    target = Path(path) if path is not None else RULES_PATH
    with _RULES_LOCK:
        if _RULES is not None and path is None:
            return _RULES
        if not target.is_file():
            raise FileNotFoundError(f"the instruction rules are missing: {target}")
        spec = importlib.util.spec_from_file_location("atlas_instruction_rules", target)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if path is None:
            _RULES = module
        return module


def score_instruction(row: Mapping[str, Any], out: ModelOutput) -> Verdict:
    rules = load_rules()
    text = out.text or ""
    ok, failed = rules.evaluate(row["answer"], text)
    detail = None if ok else "failed: " + ", ".join(str(r.get("rule", r)) for r in failed)
    return Verdict(ok, None, detail)


def _parse_arguments(arguments: Any) -> dict[str, Any] | None:
    if arguments is None or arguments == "":
        return {}
    if isinstance(arguments, Mapping):
        return dict(arguments)
    if isinstance(arguments, str):
        try:
            value = json.loads(arguments)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None
    return None


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return to_fraction(value)
    if isinstance(value, str):
        return parse_number(value) if re.fullmatch(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*", value) else None
    return None


def _arg_match(expected: Any, actual: Any, exact: bool) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if isinstance(expected, (int, float)) or isinstance(actual, (int, float)):
        a, b = _number(expected), _number(actual)
        return a is not None and b is not None and a == b
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.strip().casefold() == actual.strip().casefold()
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return _args_match(expected, actual, exact)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(_arg_match(e, a, exact) for e, a in zip(expected, actual))
    return expected is None and actual is None


def _args_match(expected: Mapping[str, Any], actual: Mapping[str, Any], exact: bool) -> bool:
    if exact and set(expected) != set(actual):
        return False
    return all(k in actual and _arg_match(v, actual[k], exact) for k, v in expected.items())


def score_tool_call(row: Mapping[str, Any], out: ModelOutput) -> Verdict:
    """answer = {"tool_call": {"name", "arguments"}} or {"tool_call": null}.

    With a call expected, tool_calls[0] must carry the same name and matching arguments:
    subset by default (the reply may add arguments the answer does not name), the same
    key set when meta.arguments_match == "exact". Strings compare case-insensitively after
    stripping, numbers by value (5 == 5.0 == "5"), booleans only with booleans, nested
    objects and lists recursively. With null, correct only when there is no tool call at
    all; the reply's text is not scored.
    """
    answer = row["answer"]
    expected = answer.get("tool_call") if isinstance(answer, Mapping) else None
    calls = out.tool_calls
    if expected is None:
        if calls:
            return Verdict(False, calls[0].name, "called a tool where none was expected")
        return Verdict(True, None)
    if not calls:
        return Verdict(False, None, "no tool call")
    call = calls[0]
    if call.name != expected["name"]:
        return Verdict(False, call.name, f"called {call.name!r}, expected {expected['name']!r}")
    actual = _parse_arguments(call.arguments)
    if actual is None:
        return Verdict(False, call.name, "arguments are not a JSON object")
    exact = ((row.get("meta") or {}).get("arguments_match", "subset")) == "exact"
    ok = _args_match(expected.get("arguments") or {}, actual, exact)
    return Verdict(ok, call.name, None if ok else f"arguments differ ({'exact' if exact else 'subset'} match)")


def score_code_exec(row: Mapping[str, Any], out: ModelOutput) -> Verdict:
    from atlas_assets.corpus.sandbox import SandboxLimits, run_python

    program = _extract.extract_answer(out.text, "code_exec")
    limits = (row.get("meta") or {}).get("limits")
    result = run_python(program, row["tests"], SandboxLimits(**limits) if limits else None)
    if result.passed:
        return Verdict(True, None)
    if result.timed_out:
        why = "wall-time limit"
    elif result.error:
        why = result.error
    else:
        tail = result.stderr.strip().splitlines()[-1:] or [f"exit code {result.exit_code}"]
        why = tail[0][:300]
    return Verdict(False, None, why)


def score_splice(row: Mapping[str, Any], out: ModelOutput) -> Verdict:
    from atlas_assets.corpus.splice import find_splices

    meta = row.get("meta") or {}
    if "context_identifiers" not in meta:
        raise ValueError(f"row {row.get('id')}: splice rows need meta.context_identifiers")
    code = _extract.extract_answer(out.text, "splice")
    found = find_splices(code, meta["context_identifiers"])
    if found:
        return Verdict(False, None, "; ".join(s.describe() for s in found[:3]))
    return Verdict(True, None)


SCORERS: dict[str, Callable[[Mapping[str, Any], ModelOutput], Verdict]] = {
    "exact": score_exact,
    "numeric": score_numeric,
    "mc": score_mc,
    "contains": score_contains,
    "json": score_json,
    "instruction": score_instruction,
    "tool_call": score_tool_call,
    "code_exec": score_code_exec,
    "splice": score_splice,
}
EXEC_SCORERS = frozenset({"code_exec"})


def scorer_name(row: Mapping[str, Any], dataset_default_scorer: str | None = None) -> str:
    """The scorer that judges `row`: its own, else the dataset default."""
    name = row.get("scorer") or dataset_default_scorer
    if name is None:
        raise ValueError(f"row {row.get('id')}: no scorer on the row and no dataset default")
    if name not in SCORERS:
        raise ValueError(f"row {row.get('id')}: unknown scorer {name!r}; known: {', '.join(SCORERS)}")
    return name


def score(row: Mapping[str, Any], output: Any, dataset_default_scorer: str | None = None) -> ItemScore:
    """Judge one item. `output` is a ModelOutput, a string, None or an OpenAI-style dict."""
    name = scorer_name(row, dataset_default_scorer)
    out = as_output(output)
    row_id = row.get("id")
    if out.error is not None:
        return ItemScore(id=row_id, scorer=name, correct=False, failed=True, error=out.error, detail="request failed")
    verdict = SCORERS[name](row, out)
    return ItemScore(
        id=row_id,
        scorer=name,
        correct=bool(verdict.correct),
        failed=False,
        error=None,
        extracted=verdict.extracted,
        detail=verdict.detail,
    )


def rescore(
    rows: Sequence[Mapping[str, Any]], outputs: Sequence[Any], dataset_default_scorer: str | None = None
) -> list[ItemScore]:
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
