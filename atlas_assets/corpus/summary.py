"""What a dataset looks like at a glance: breakdown tables and sample rows (for Dagster
metadata and reports). Standard library only."""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any, Callable, Mapping, Sequence

BUCKETS = (("xs", 128), ("s", 512), ("m", 2048), ("l", 8192), ("xl", 32768), ("xxl", None))
BUCKET_ORDER = [name for name, _ in BUCKETS]


def bucket_of(tokens: int) -> str:
    for name, high in BUCKETS:
        if high is None or tokens <= high:
            return name
    return "xxl"


def sent_tokens(row: Mapping[str, Any]) -> int:
    """approx_tokens of what the harness sends for a row (chars/4 heuristic)."""
    approx = row.get("approx_tokens")
    if isinstance(approx, int) and "messages" in row:
        return approx
    raw_meta = row.get("meta")
    meta: Mapping[str, Any] = raw_meta if isinstance(raw_meta, Mapping) else {}
    sent = meta.get("sent_approx_tokens")
    if isinstance(sent, int):
        return sent
    haystack = meta.get("haystack")
    if isinstance(haystack, Mapping):
        return int(haystack.get("approx_tokens", 0)) + math.ceil(len(str(row.get("prompt", ""))) / 4)
    if isinstance(approx, int):
        return approx
    chars = len(row["prompt"]) if isinstance(row.get("prompt"), str) else 0
    for message in row.get("messages") or []:
        if isinstance(message, Mapping) and isinstance(message.get("content"), str):
            chars += len(message["content"])
    return max(1, math.ceil(chars / 4))


def _pivot(
    rows: Sequence[Mapping[str, Any]],
    row_key: Callable[[Mapping[str, Any]], object],
    col_key: Callable[[Mapping[str, Any]], object],
    col_order: Sequence[str] | None,
    title: str,
) -> str:
    counts: Counter[tuple[str, str]] = Counter((str(row_key(r)), str(col_key(r))) for r in rows)
    row_values = sorted({k[0] for k in counts}, key=_natural)
    col_values = [c for c in (col_order or []) if any(k[1] == c for k in counts)]
    col_values += sorted({k[1] for k in counts} - set(col_values), key=_natural)
    lines = [f"| {title} | " + " | ".join(col_values) + " | total |", "|---|" + "---:|" * (len(col_values) + 1)]
    for rv in row_values:
        cells = [counts.get((rv, cv), 0) for cv in col_values]
        lines.append(f"| {rv} | " + " | ".join(str(c) if c else "·" for c in cells) + f" | {sum(cells)} |")
    totals = [sum(counts.get((rv, cv), 0) for rv in row_values) for cv in col_values]
    lines.append("| **total** | " + " | ".join(str(t) for t in totals) + f" | {sum(totals)} |")
    return "\n".join(lines)


def _natural(value: str) -> tuple[int, int, str]:
    return (0, int(value), "") if value.isdigit() else (1, 0, value)


def breakdown_markdown(kind: str, rows: Sequence[Mapping[str, Any]]) -> str:
    """Markdown tables by category/difficulty/bucket (eval), topic/bucket/lang (prompts),
    size/kind (haystack)."""
    if not rows:
        return "_no rows_"
    if kind == "eval":
        return (
            _pivot(rows, lambda r: r.get("category"), lambda r: r.get("difficulty"), ("easy", "medium", "hard"), "category \\ difficulty")
            + "\n\n"
            + _pivot(rows, lambda r: r.get("category"), lambda r: bucket_of(sent_tokens(r)), BUCKET_ORDER, "category \\ bucket")
        )
    if kind == "prompts":
        extra = ""
        if any("code_lang" in r for r in rows):
            extra = "\n\n" + _pivot(rows, lambda r: r.get("code_lang"), lambda r: r.get("task"), None, "code_lang \\ task")
        return (
            _pivot(rows, lambda r: r.get("topic"), lambda r: r.get("bucket"), BUCKET_ORDER, "topic \\ bucket")
            + "\n\n"
            + _pivot(rows, lambda r: r.get("lang"), lambda r: r.get("bucket"), BUCKET_ORDER, "lang \\ bucket")
            + extra
        )
    if kind == "haystack":
        return _pivot(rows, lambda r: r.get("target_tokens"), lambda r: r.get("kind"), ("single", "multi"), "target_tokens \\ kind")
    return f"{len(rows)} rows"


def _trim(value: Any, limit: int) -> Any:
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + f"… (+{len(value) - limit} chars)"
    if isinstance(value, list):
        return [_trim(v, limit) for v in value[:8]] + ([f"… (+{len(value) - 8} items)"] if len(value) > 8 else [])
    if isinstance(value, dict):
        return {k: _trim(v, limit) for k, v in value.items()}
    return value


def sample_rows(rows: Sequence[Mapping[str, Any]], count: int = 3, limit: int = 240) -> list[Any]:
    """A few rows spread over the dataset, long strings trimmed."""
    if not rows:
        return []
    step = max(1, len(rows) // count)
    picked = [rows[i] for i in range(0, len(rows), step)][:count]
    return [_trim(json.loads(json.dumps(r)), limit) for r in picked]
