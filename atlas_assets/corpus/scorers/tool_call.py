"""tool_call: the reply's first tool call against answer.tool_call.

With a call expected, tool_calls[0] must carry the same name and matching arguments:
subset by default (the reply may add arguments the answer does not name), the same key set
when meta.arguments_match == "exact". Strings compare case-insensitively after stripping,
numbers by value (5 == 5.0 == "5"), booleans only with booleans, nested objects and lists
recursively. With null, correct only when there is no tool call at all; the reply's text
is not scored.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any, Iterator, Mapping

from atlas_assets.corpus.extract import EXTRACTIONS
from atlas_assets.corpus.parsing import parse_number, to_fraction
from atlas_assets.corpus.scorers._base import ModelOutput, Problem, RowContext, Scorer, ToolCall, Verdict, register

_NUMBER_TEXT = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*")


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
        return parse_number(value) if _NUMBER_TEXT.fullmatch(value) else None
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


def _expected_call(row: Mapping[str, Any]) -> Mapping[str, Any] | None:
    answer = row.get("answer")
    return answer.get("tool_call") if isinstance(answer, Mapping) else None


@register
class ToolCallMatch(Scorer):
    name = "tool_call"
    extraction = EXTRACTIONS["none"]
    reads_tool_calls = True

    def check_row(self, row: Mapping[str, Any], context: RowContext) -> Iterator[Problem]:
        answer = row.get("answer")
        meta = row.get("meta") or {}
        if not isinstance(answer, dict) or "tool_call" not in answer:
            yield Problem("answer", 'a tool_call answer must be {"tool_call": {name, arguments} | null}')
            return
        call = answer["tool_call"]
        if call is not None and (
            not isinstance(call, dict) or not isinstance(call.get("name"), str) or not isinstance(call.get("arguments"), dict)
        ):
            yield Problem("answer.tool_call", "must be null or {name: str, arguments: object}")
        match = meta.get("arguments_match", "subset")
        if match not in ("subset", "exact"):
            yield Problem("meta.arguments_match", f"{match!r} is not subset or exact")
        if not isinstance(meta.get("tools"), list):
            yield Problem("meta.tools", "a tool_call row needs meta.tools (OpenAI function schemas)")

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        expected = _expected_call(row)
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

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        call = _expected_call(row)
        if call is None:
            return ModelOutput(text="No tool is needed for this request.")
        return ModelOutput(tool_calls=[ToolCall(name=call["name"], arguments=json.dumps(call.get("arguments") or {}))])

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        call = _expected_call(row)
        tools = (row.get("meta") or {}).get("tools") or []
        if call is None:
            fn = tools[0]["function"]["name"] if tools else "some_tool"
            return ModelOutput(tool_calls=[ToolCall(name=fn, arguments="{}")])
        return ModelOutput(tool_calls=[ToolCall(name=call["name"] + "_x", arguments=json.dumps(call.get("arguments") or {}))])
