"""Markdown tables for facts a user reads in the Dagster UI or a terminal.

A cell holds model output and error messages, so every cell is made safe: `|` escaped,
line breaks shown as `⏎` (a raw newline ends the table row), long text cut with `…`.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

import orjson

_BREAKS = re.compile(r"\r\n|\r|\n")


def cell(value: Any, limit: int = 80) -> str:
    """One table cell: None -> `—`; str as it is; anything else as compact JSON."""
    if value is None:
        return "—"
    text = value if isinstance(value, str) else orjson.dumps(value).decode()
    text = _BREAKS.sub(" ⏎ ", text).replace("|", "\\|")
    if len(text) > limit:
        text = text[: limit - 1].rstrip("\\") + "…"
    return text


def table(header: Sequence[str], rows: Iterable[Sequence[str]], align: str | None = None) -> str:
    """A GFM table; `align` is one letter a column, `l` or `r` (default: all left).
    Cells are written as given: pass them through `cell` when they hold foreign text."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
