"""json: the extracted text parses as JSON equal to the answer (key order free, numbers by
value, booleans only equal booleans)."""

from __future__ import annotations

import json
import math
from typing import Any, Iterator, Mapping

from atlas_assets.corpus.extract import EXTRACTIONS
from atlas_assets.corpus.scorers._base import ModelOutput, Problem, RowContext, Scorer, Verdict, register


def json_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@register
class JsonValue(Scorer):
    name = "json"
    extraction = EXTRACTIONS["answer"]
    answer_line = True
    fence_language = "json"

    def check_row(self, row: Mapping[str, Any], context: RowContext) -> Iterator[Problem]:
        if not isinstance(row.get("answer"), (dict, list)):
            yield Problem("answer", "a json answer must be an object or array")

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        try:
            value = json.loads(text)
        except ValueError as exc:
            return Verdict(False, text, f"invalid JSON: {exc}")
        return Verdict(json_equal(value, row["answer"]), text)

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        return ModelOutput(text=json.dumps(row["answer"], ensure_ascii=False))

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        return ModelOutput(text=json.dumps({"unexpected": row["answer"]}))
