"""Tables for facts a user reads in the Dagster UI (Markdown) or a terminal (aligned text).

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


def aligned(header: Sequence[str], rows: Iterable[Sequence[str]], align: str | None = None, indent: str = "  ") -> str:
    """A plain-text table for a terminal: a header row, then one row per item, columns padded
    to their widest cell (`align` as for `table`); the last column is not padded."""
    body = [list(header), *(list(row) for row in rows)]
    align = align or "l" * len(header)
    widths = [max(len(row[i]) for row in body) for i in range(len(header))]
    lines = []
    for row in body:
        parts = [c.rjust(w) if a == "r" else c.ljust(w) for c, w, a in zip(row, widths, align)]
        lines.append((indent + "  ".join(parts)).rstrip())
    return "\n".join(lines)
