"""numeric: the extracted text parses as a number (parsing.parse_number) equal to the
answer: exactly (rationals) unless meta.tolerance (absolute) or meta.rel_tolerance."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterator, Mapping

from atlas_assets.corpus.extract import EXTRACTIONS
from atlas_assets.corpus.parsing import parse_number, to_fraction
from atlas_assets.corpus.scorers._base import ModelOutput, Problem, RowContext, Scorer, Verdict, register


def format_fraction(value: Fraction) -> str:
    """The shortest decimal that is exactly `value`, else p/q."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.12g}"
    return text if Fraction(text) == value else f"{value.numerator}/{value.denominator}"


def _finite_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _numeric_string(value: str) -> bool:
    try:
        float(value.replace(",", "").strip())
    except ValueError:
        return False
    return True


def _expected(row: Mapping[str, Any]) -> Fraction:
    expected = to_fraction(row["answer"])
    if expected is None:
        raise ValueError(f"row {row.get('id')}: numeric answer {row['answer']!r} is not a number")
    return expected


def _tolerance(row: Mapping[str, Any], key: str) -> Fraction:
    """meta[key] as a Fraction; an unreadable tolerance is a broken row, like an unreadable answer."""
    tolerance = to_fraction(row["meta"][key])
    if tolerance is None:
        raise ValueError(f"row {row.get('id')}: {key} {row['meta'][key]!r} is not a number")
    return tolerance


@register
class Numeric(Scorer):
    name = "numeric"
    extraction = EXTRACTIONS["answer"]
    answer_line = True

    def check_row(self, row: Mapping[str, Any], context: RowContext) -> Iterator[Problem]:
        answer = row.get("answer")
        if not (_finite_number(answer) or (isinstance(answer, str) and _numeric_string(answer))):
            yield Problem("answer", f"{answer!r} is not a number")

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        value = parse_number(text)
        if value is None:
            return Verdict(False, text, "not a number")
        expected = _expected(row)
        meta = row.get("meta") or {}
        tol, rel = meta.get("tolerance"), meta.get("rel_tolerance")
        if tol is None and rel is None:
            return Verdict(value == expected, text)
        diff = abs(value - expected)
        ok = (tol is not None and diff <= _tolerance(row, "tolerance")) or (
            rel is not None and diff <= _tolerance(row, "rel_tolerance") * abs(expected)
        )
        return Verdict(bool(ok), text)

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        value = to_fraction(row["answer"])
        return ModelOutput(text=format_fraction(value) if value is not None else str(row["answer"]))

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        value = _expected(row)
        meta = row.get("meta") or {}
        tol = to_fraction(meta.get("tolerance", 0)) or Fraction(0)
        rel = to_fraction(meta.get("rel_tolerance", 0)) or Fraction(0)
        return ModelOutput(text=format_fraction(value + 1 + 2 * tol + 2 * rel * abs(value)))
