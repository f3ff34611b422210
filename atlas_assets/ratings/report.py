"""Markdown summaries of a leaderboard document, for people (the Dagster UI, notes).

Sized for Dagster's metadata panel: the UI renders a markdown value inline only when it is
shorter than 1,000 characters (longer ones hide behind a "[Show Markdown]" dialog), in a
monospace table squeezed into the panel's value column (about 540 px on the asset's
Overview at a 1600 px window). So the top-N table stays compact: rows without padding
spaces (ten rows with ~30-character model slugs still fit the 1,000), the CI as a range
`low–high`, a short "style ctrl" header, and the "N more" note as a line under the table,
not a row whose long text would widen the model column. Wider than its column, a table
gets squeezed and the browser breaks model slugs at their hyphens.
"""

from __future__ import annotations

from typing import Any

TOP_N = 10


def _fmt(value: Any) -> str:
    return "–" if value is None else f"{float(value):.1f}"


def _range(low: Any, high: Any) -> str:
    return "–" if low is None or high is None else f"{_fmt(low)}–{_fmt(high)}"


def top_table(category: dict[str, Any], limit: int = TOP_N) -> str:
    """Markdown: the category's first `limit` entries in published order."""
    lines = [
        f"**{category['category']}** · {category['vote_count']:,} votes · "
        f"style control {'on' if category['style_control'] else 'off'}",
        "",
        "| rank | model | rating | 95% CI | style ctrl | votes |",
        "|---:|---|---:|---|---:|---:|",
    ]
    for entry in category["entries"][:limit]:
        rank = "prov." if entry["rank"] is None else str(entry["rank"])
        lines.append(
            f"|{rank}|{entry['model']}|{_fmt(entry['rating'])}|"
            f"{_range(entry['ci_low'], entry['ci_high'])}|"
            f"{_fmt(entry['rating_style_controlled'])}|{entry['vote_count']:,}|"
        )
    hidden = len(category["entries"]) - limit
    if hidden > 0:
        lines += ["", f"… {hidden} more in leaderboard.json"]
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
