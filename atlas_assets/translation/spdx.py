"""SPDX licence expressions, checked with the `license-expression` library (it knows the
whole SPDX licence and exception list, deprecated ids included, and parses AND/OR/WITH,
parentheses and `+`).

`check(expression)` is the one place a corpus licence is judged:

* error: not one line / leading or trailing whitespace (a `$` regex would let "MIT\\n"
  through, the library strips it); a syntax error; an id that is not on the SPDX list.
  Unknown ids are errors, not warnings: the list is complete, so an unknown id is a typo
  or an informal name ("CC BY-NC-SA 4.0", "Apache 2.0", "GPLv3"), and the error suggests
  the SPDX id ("did you mean CC-BY-NC-SA-4.0?"). A licence outside the list is written
  `LicenseRef-<name>` (or `DocumentRef-<doc>:LicenseRef-<name>`), always accepted.
* warning: a deprecated or informal id the list still resolves (GPL-3.0 -> GPL-3.0-only),
  an id in another case than the list's (mit -> MIT), operators not in upper case.

Suggestions compare spellings with case, spaces, hyphens, dots, a `v` before a version,
the words licence/license/version and trailing `.0`s of versions ignored, against every id
and alias of the list; an id ending in `-only` also suggests its `-or-later` twin (GPLv3
is either). The library's licensing object and the spelling index are built once, on the
first check (building the licensing object takes ~10 ms).
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Iterator

from license_expression import ExpressionError, Licensing, get_spdx_licensing

__all__ = ["Verdict", "check"]

_REF = re.compile(r"(?:DocumentRef-[A-Za-z0-9.\-]+:)?LicenseRef-[A-Za-z0-9.\-]+")
_OPERATOR_OR_PAREN = re.compile(r"(\s+(?:AND|OR|WITH)\s+|[()])", re.IGNORECASE)
_NOISE = frozenset({"license", "licence", "licenses", "licences", "version", "v", "the"})
_SHOWN = 60  # characters of a hostile token shown in a message
_SHOWN_ERRORS = 5  # of one expression (the same number of warnings)
_MAX_SUGGESTED_FROM = 100  # longer operands are not compared with the list (difflib is quadratic)


@dataclass(frozen=True)
class Verdict:
    error: str | None = None
    warnings: tuple[str, ...] = ()


def _show(text: str) -> str:
    return repr(text) if len(text) <= _SHOWN else repr(text[:_SHOWN]) + "…"


@cache
def _licensing() -> Licensing:
    return get_spdx_licensing()


def _spelling(name: str) -> str:
    """A licence name as compared for suggestions: 'Apache License, Version 2.0' -> 'apache 2'."""
    text = re.sub(r"(?<=[a-z])v(?=\d)", " ", name.lower())
    words = re.findall(r"[a-z]+|\d+(?:\.\d+)*", text)
    return " ".join(re.sub(r"(?:\.0)+$", "", w) for w in words if w not in _NOISE)


@cache
def _ids_by_spelling() -> dict[str, frozenset[str]]:
    """Every SPDX id and alias (not the library's LicenseRef-scancode-* names) by spelling."""
    known = _licensing().known_symbols
    index: dict[str, set[str]] = defaultdict(set)
    for symbol in set(known.values()):
        if symbol.key.startswith("LicenseRef-"):
            continue
        twin = symbol.key.removesuffix("-only") + "-or-later"
        ids = {symbol.key, twin} if symbol.key.endswith("-only") and twin in known else {symbol.key}
        for name in (symbol.key, *symbol.aliases):
            if not name.startswith("LicenseRef-"):
                index[_spelling(name)].update(ids)
    return {spelling: frozenset(ids) for spelling, ids in index.items()}


def _suggestions(operand: str) -> list[str]:
    """The SPDX ids an informal or misspelt licence name may mean (at most 3), best first."""
    if len(operand) > _MAX_SUGGESTED_FROM:
        return []
    index = _ids_by_spelling()
    spelling = _spelling(operand)
    if spelling in index:
        return sorted(index[spelling])
    longer = {i for s, ids in index.items() if s.startswith(spelling + " ") for i in ids} if spelling else set()
    if 0 < len(longer) <= 3:
        return sorted(longer)
    close = difflib.get_close_matches(spelling, list(index), n=3, cutoff=0.85)
    return sorted({i for s in close for i in index[s]})[:3]


def _did_you_mean(ids: list[str]) -> str:
    return f"did you mean {' or '.join(ids)}?"


def _rewritten(expression: str) -> str | None:
    """'did you mean' the expression with each operand replaced by its one SPDX id, when
    every operand has exactly one and the result is valid; for a single operand, its
    candidates."""
    pieces = _OPERATOR_OR_PAREN.split(expression)
    operands = [p.strip() for i, p in enumerate(pieces) if i % 2 == 0 and p.strip()]
    lowercase = _licensing().known_symbols_lowercase
    if len(operands) == 1:
        ids = [i for i in _suggestions(operands[0]) if i != expression]
        return _did_you_mean(ids) if ids else None
    out = []
    for i, piece in enumerate(pieces):
        if i % 2:
            out.append(f" {piece.strip().upper()} " if piece.strip() not in "()" else piece.strip())
        elif piece.strip():
            symbol = lowercase.get(piece.strip().lower())
            ids = [symbol.key] if symbol is not None else _suggestions(piece)
            if len(ids) != 1:
                return None
            out.append(ids[0])
    rewritten = "".join(out)
    return None if rewritten == expression or check(rewritten).error else _did_you_mean([rewritten])


def _symbols(licensing: Licensing, expression: str) -> Iterator[tuple[Any, str]]:
    """(symbol, the text it was written as) for each licence and exception of a parsed
    expression; operators as (None, text)."""
    for obj, text, _ in licensing.tokenize(expression, strict=True):
        if hasattr(obj, "license_symbol"):  # `A WITH B`, one token
            license_text, operator, exception_text = re.split(r"\s+(with)\s+", text, maxsplit=1, flags=re.IGNORECASE)
            yield obj.license_symbol, license_text
            yield None, operator
            yield obj.exception_symbol, exception_text
        elif hasattr(obj, "key"):
            yield obj, text
        elif text.strip() not in ("(", ")"):
            yield None, text


def _symbol_verdict(symbol: Any, text: str, suggest: bool) -> tuple[str | None, str | None]:
    """(error, warning) for one licence or exception id as written (`suggest`: look for the
    id an unknown one may mean)."""
    known = _licensing().known_symbols
    if _REF.fullmatch(text):
        return None, None
    if text.startswith(("LicenseRef-", "DocumentRef-")):
        return f"{_show(text)} is not a valid LicenseRef (LicenseRef- and a name of letters, digits, '.' or '-')", None
    if symbol.key not in known:
        base = known.get(symbol.key[:-1]) or _licensing().known_symbols_lowercase.get(symbol.key[:-1].lower())
        if symbol.key.endswith("+") and base is not None:  # `+`: this version or later, of any listed id
            return None, None if base.key == symbol.key[:-1] else f"{_show(text)}: write {base.key}+ (the SPDX list's id)"
        ids = _suggestions(text) if suggest else []
        return f"{_show(text)} is not an SPDX licence id" + (f" ({_did_you_mean(ids)})" if ids else ""), None
    if text == symbol.key:
        return None, None
    if text.lower() == symbol.key.lower():
        return None, f"{_show(text)}: write {symbol.key} (the SPDX list's spelling)"
    also = symbol.key.removesuffix("-only") + "-or-later"
    hint = f" (or {also} for this version or later)" if symbol.key.endswith("-only") and also in known else ""
    return None, f"{_show(text)} is a deprecated or informal SPDX id: write {symbol.key}{hint}"


@lru_cache(maxsize=1024)
def check(expression: str) -> Verdict:
    """The verdict on a licence field (see the module docstring)."""
    if not expression.strip():
        return Verdict("must be an SPDX licence expression (e.g. CC-BY-4.0, MIT OR Apache-2.0)")
    if not expression.isprintable():
        return Verdict(f"{_show(expression)} contains a newline or another control character; an SPDX expression is one line")
    if expression != expression.strip():
        return Verdict(f"{_show(expression)} has leading or trailing whitespace")
    licensing = _licensing()
    try:
        licensing.parse(expression, validate=False, strict=True)
    except (ExpressionError, IndexError, AssertionError) as exc:  # the parser raises the latter two on some malformed input
        why = str(exc) if isinstance(exc, ExpressionError) else "misplaced operators or parentheses"
        hint = _rewritten(expression)
        return Verdict(f"not a valid SPDX expression: {why[:200]}" + (f" ({hint})" if hint else ""))
    errors: list[str] = []
    warnings: list[str] = []
    for symbol, text in _symbols(licensing, expression):
        if symbol is None:
            if text.strip() != text.strip().upper():
                warnings.append(f"{_show(text.strip())}: operators are written in upper case ({text.strip().upper()})")
            continue
        error, warning = _symbol_verdict(symbol, text, suggest=len(errors) < _SHOWN_ERRORS)
        errors += [error] if error else []
        warnings += [warning] if warning else []
    if not errors:
        return Verdict(None, tuple(warnings[:_SHOWN_ERRORS]))
    more = f"; ... and {len(errors) - _SHOWN_ERRORS} more" if len(errors) > _SHOWN_ERRORS else ""
    return Verdict(
        "; ".join(errors[:_SHOWN_ERRORS]) + more + "; a licence outside the SPDX list is written LicenseRef-<name>",
        tuple(warnings[:_SHOWN_ERRORS]),
    )
