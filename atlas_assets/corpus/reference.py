"""A right and a wrong model output for any eval row, derived from the row itself.

Used by the corpus tests (every dataset: the reference passes its own scorer, a perturbed
one fails) and by the simulator engine (answering with a configurable skill).

Reference per scorer: exact/numeric/contains -> the answer (the first, for a list);
mc -> the label; json -> the answer serialised; instruction -> meta.example_pass;
tool_call -> a call with the answer's name and arguments, or plain text when none is
expected; code_exec -> meta.example_pass, else the answer when it is source code;
splice -> meta.example_pass (a clean generation).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any, Mapping

from atlas_assets.corpus.parsing import choice_labels, to_fraction
from atlas_assets.corpus.scorers import ModelOutput, ToolCall, scorer_name

__all__ = ["perturbed_output", "reference_output"]


def _format_fraction(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.12g}"
    return text if Fraction(text) == value else f"{value.numerator}/{value.denominator}"


def reference_output(row: Mapping[str, Any], dataset_default_scorer: str | None = None) -> ModelOutput:
    name = scorer_name(row, dataset_default_scorer)
    answer = row.get("answer")
    meta = row.get("meta") or {}
    if name in ("exact", "contains"):
        first = answer[0] if isinstance(answer, list) else answer
        return ModelOutput(text=str(first))
    if name == "numeric":
        value = to_fraction(answer)
        return ModelOutput(text=_format_fraction(value) if value is not None else str(answer))
    if name == "mc":
        return ModelOutput(text=str(answer))
    if name == "json":
        return ModelOutput(text=json.dumps(answer, ensure_ascii=False))
    if name == "instruction":
        return ModelOutput(text=meta["example_pass"])
    if name == "tool_call":
        call = answer.get("tool_call") if isinstance(answer, Mapping) else None
        if call is None:
            return ModelOutput(text="No tool is needed for this request.")
        return ModelOutput(tool_calls=[ToolCall(name=call["name"], arguments=json.dumps(call.get("arguments") or {}))])
    if name in ("code_exec", "splice"):
        if "example_pass" in meta:
            return ModelOutput(text=meta["example_pass"])
        if name == "code_exec" and isinstance(answer, str):
            return ModelOutput(text=answer)
        raise ValueError(f"row {row.get('id')}: a {name} row needs meta.example_pass for a reference output")
    raise ValueError(f"no reference output for scorer {name!r}")


def perturbed_output(row: Mapping[str, Any], dataset_default_scorer: str | None = None, seed: int = 0) -> ModelOutput:
    """An output the row's scorer must reject."""
    name = scorer_name(row, dataset_default_scorer)
    answer = row.get("answer")
    meta = row.get("meta") or {}
    if name == "exact":
        first = answer[0] if isinstance(answer, list) else answer
        return ModelOutput(text=f"{first} (not quite)")
    if name == "numeric":
        value = to_fraction(answer)
        assert value is not None
        tol = to_fraction(meta.get("tolerance", 0)) or Fraction(0)
        rel = to_fraction(meta.get("rel_tolerance", 0)) or Fraction(0)
        return ModelOutput(text=_format_fraction(value + 1 + 2 * tol + 2 * rel * abs(value)))
    if name == "mc":
        labels = choice_labels(len(row["choices"]))
        wrong = labels[(labels.index(str(answer).strip().upper()) + 1) % len(labels)]
        return ModelOutput(text=wrong)
    if name == "contains":
        return ModelOutput(text="I do not know.")
    if name == "json":
        return ModelOutput(text=json.dumps({"unexpected": answer}))
    if name == "instruction":
        return ModelOutput(text="")
    if name == "tool_call":
        call = answer.get("tool_call") if isinstance(answer, Mapping) else None
        tools = meta.get("tools") or []
        if call is None:
            fn = tools[0]["function"]["name"] if tools else "some_tool"
            return ModelOutput(tool_calls=[ToolCall(name=fn, arguments="{}")])
        return ModelOutput(tool_calls=[ToolCall(name=call["name"] + "_x", arguments=json.dumps(call.get("arguments") or {}))])
    if name == "code_exec":
        return ModelOutput(text="raise SystemExit('perturbed: no solution')\n")
    if name == "splice":
        from atlas_assets.corpus.splice import inject_splice

        clean = reference_output(row, dataset_default_scorer).text or ""
        return ModelOutput(text=inject_splice(clean, meta["context_identifiers"], random.Random(seed)))
    raise ValueError(f"no perturbation for scorer {name!r}")
