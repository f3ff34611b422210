"""Markdown summaries of a leaderboard document, for people (the Dagster UI, notes)."""

from __future__ import annotations

from typing import Any

TOP_N = 10


def _fmt(value: Any) -> str:
    return "–" if value is None else f"{float(value):.1f}"


def top_table(category: dict[str, Any], limit: int = TOP_N) -> str:
    """Markdown: the category's first `limit` entries in published order."""
    lines = [
        f"**{category['category']}** · {category['vote_count']:,} votes · "
        f"style control {'on' if category['style_control'] else 'off'}",
        "",
        "| rank | model | rating | 95% CI | style-controlled | votes |",
        "|---:|---|---:|---|---:|---:|",
    ]
    for entry in category["entries"][:limit]:
        rank = "prov." if entry["rank"] is None else str(entry["rank"])
        lines.append(
            f"| {rank} | {entry['model']} | {_fmt(entry['rating'])} | "
            f"[{_fmt(entry['ci_low'])}, {_fmt(entry['ci_high'])}] | "
            f"{_fmt(entry['rating_style_controlled'])} | {entry['vote_count']:,} |"
        )
    hidden = len(category["entries"]) - limit
    if hidden > 0:
        lines.append(f"| | … {hidden} more in leaderboard.json | | | | |")
    return "\n".join(lines)


def categories_table(document: dict[str, Any]) -> str:
    """Markdown: one row per category (votes, models, ranked, provisional, style control)."""
    lines = [
        "| category | votes | models | ranked | provisional | style control |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for category in document["categories"]:
        ranked = sum(1 for e in category["entries"] if e["rank"] is not None)
        lines.append(
            f"| {category['category']} | {category['vote_count']:,} | {len(category['entries'])} | "
            f"{ranked} | {len(category['entries']) - ranked} | {'on' if category['style_control'] else 'off'} |"
        )
    return "\n".join(lines)
