"""Parsers the scorers share: numbers, multiple-choice labels, text normalisation.

All operate on text that has already been through answer extraction (extract.py).
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction
from typing import Any, Sequence

__all__ = [
    "choice_labels",
    "normalize_text",
    "parse_choice",
    "parse_number",
    "to_fraction",
]

_SPACES = "\u00a0\u202f\u2009\u2007"  # no-break, narrow no-break, thin, figure space
_MINUS = "\u2212\u2012\u2013"  # minus sign, figure dash, en dash used as minus
_CURRENCY = "$€£¥₹₩"
_BOXED_RE = re.compile(r"^\\(?:boxed|fbox)\{(.*)\}$", re.S)
_FRAC_RE = re.compile(r"^(-?)\\d?frac\{\s*([^{}]+?)\s*\}\{\s*([^{}]+?)\s*\}$")
_TEXT_RE = re.compile(r"\\(?:text|mathrm)\{([^{}]*)\}")
_UNIT_RE = re.compile(r"^(.*?\d\.?)\s*(%|[A-Za-z°µ][A-Za-z°µ²³/]{0,11}\.?)$")
_NUMBER_RE = re.compile(
    r"""^
    (?P<sign>[+-]?)
    (?:
        (?P<grouped>\d{1,3}(?:(?P<sep>[,\ '])\d{3})(?:(?P=sep)\d{3})*)(?:\.(?P<gfrac>\d+))?
      | (?P<int>\d+)(?:\.(?P<frac>\d*))?
      | \.(?P<onlyfrac>\d+)
    )
    (?:[eE](?P<exp>[+-]?\d+))?
    $""",
    re.X,
)
_RATIO_RE = re.compile(r"^(?P<sign>[+-]?)(?P<num>\d+)\s*/\s*(?P<den>\d+)$")
_DECIMAL_COMMA_RE = re.compile(r"^([+-]?\d+),(\d{1,2})$")


def _strip_math(s: str) -> str:
    s = s.strip()
    for opener, closer in (("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")):
        if len(s) > len(opener) + len(closer) and s.startswith(opener) and s.endswith(closer):
            s = s[len(opener) : -len(closer)].strip()
            break
    boxed = _BOXED_RE.match(s)
    if boxed:
        s = boxed.group(1).strip()
    s = _TEXT_RE.sub(r"\1", s)
    return s.replace("\\,", "").replace("\\!", "").replace("{,}", ",").strip()


def parse_number(text: str | None) -> Fraction | None:
    """The exact value of an answer that is a number, or None.

    Accepted: optional sign (also U+2212), optional currency symbol, integers, decimals
    (".5", "5."), thousands grouped by commas, spaces or apostrophes ("1,234,567",
    "1 234", "1'234"), a decimal comma when unambiguous ("3,5", "2,75" but not "3,500"),
    scientific notation ("1.5e3"), ratios ("3/4"), LaTeX wrappers ($..$, \\boxed{..},
    \\frac{a}{b}), and one trailing unit or "%" ("42 km", "12%", "7 apples"). Anything else
    -- words before the number, two numbers -- is not a number.
    """
    if text is None:
        return None
    s = unicodedata.normalize("NFKC", str(text)).strip()
    for ch in _MINUS:
        s = s.replace(ch, "-")
    for ch in _SPACES:
        s = s.replace(ch, " ")
    s = _strip_math(s)
    frac = _FRAC_RE.match(s)
    if frac:
        num, den = parse_number(frac.group(2)), parse_number(frac.group(3))
        if num is None or den is None or den == 0:
            return None
        value = num / den
        return -value if frac.group(1) else value
    unit = _UNIT_RE.match(s)
    if unit and not re.fullmatch(r"[eE][+-]?\d*", unit.group(2)):
        s = unit.group(1).strip()
    sign = ""
    if s and s[0] in "+-":
        sign, s = s[0], s[1:].strip()
    if s[:1] and s[0] in _CURRENCY:
        s = s[1:].strip()
    elif s[-1:] and s[-1] in _CURRENCY:
        s = s[:-1].strip()
    if s and s[0] in "+-" and not sign:
        sign, s = s[0], s[1:].strip()
    if not s:
        return None
    s = sign + s
    m = _NUMBER_RE.match(s)
    if m:
        if m.group("grouped"):
            digits = m.group("grouped").replace(m.group("sep"), "")
            value = Fraction(digits + ("." + m.group("gfrac") if m.group("gfrac") else ""))
        elif m.group("int") is not None:
            value = Fraction(m.group("int") + ("." + m.group("frac") if m.group("frac") else ""))
        else:
            value = Fraction("0." + m.group("onlyfrac"))
        if m.group("exp"):
            exp = int(m.group("exp"))
            if abs(exp) > 400:
                return None
            value *= Fraction(10) ** exp
        return -value if m.group("sign") == "-" else value
    m = _DECIMAL_COMMA_RE.match(s)
    if m:
        return Fraction(f"{m.group(1)}.{m.group(2)}")
    m = _RATIO_RE.match(s)
    if m and int(m.group("den")) != 0:
        value = Fraction(int(m.group("num")), int(m.group("den")))
        return -value if m.group("sign") == "-" else value
    return None


def to_fraction(value: Any) -> Fraction | None:
    """A row's numeric answer (int, float or string) as an exact Fraction."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value)) if value == value and abs(value) != float("inf") else None
    if isinstance(value, str):
        return parse_number(value)
    return None


def choice_labels(n: int) -> list[str]:
    """A, B, C, ... for n choices (at most 26)."""
    if not 0 < n <= 26:
        raise ValueError(f"a multiple-choice row needs 1..26 choices, got {n}")
    return [chr(ord("A") + i) for i in range(n)]


_CHOICE_RE = re.compile(
    r"""^(?:(?:option|choice|answer)\s*[:\-]?\s*)?   # optional word before the label
    [(\[]?(?P<label>[A-Za-z])[)\]]?                 # B, (B), [B], B)
    (?:\s*$|(?<=[)\]])\s+\S|\s*[.:\-]\s*\S.*$|\s*[.:]\s*$)""",
    re.X | re.I | re.S,
)


def parse_choice(text: str | None, choices: Sequence[str]) -> str | None:
    """The label (A, B, ...) a reply picks, or None.

    Accepted: the label alone ("B", "b", "(B)", "[B]", "B)", "B."), the label then the
    choice text ("B) Paris", "B. Paris", "B: Paris", "(B) Paris"), "Option B", or exactly
    the text of one choice (any case). A label outside the row's range is None.
    """
    if text is None:
        return None
    s = " ".join(unicodedata.normalize("NFKC", text).split())
    if not s:
        return None
    labels = choice_labels(len(choices))
    folded = s.casefold()
    for label, choice in zip(labels, choices):
        if folded == " ".join(unicodedata.normalize("NFKC", str(choice)).split()).casefold():
            return label
    m = _CHOICE_RE.match(s)
    if m:
        label = m.group("label").upper()
        return label if label in labels else None
    return None


def normalize_text(text: Any) -> str:
    """NFKC, case-folded, whitespace collapsed: how exact and contains compare."""
    return " ".join(unicodedata.normalize("NFKC", str(text)).casefold().split())
