"""Markdown summaries of a leaderboard document, for people (the Dagster UI, notes).

Sized for Dagster's metadata panel: the UI renders a markdown value inline only when it is
shorter than 1,000 characters (longer ones hide behind a "[Show Markdown]" dialog), in a
monospace table squeezed into the panel's value column (about 540 px on the asset's
Overview at a 1600 px window). So the top-N table stays compact: rows without padding
spaces (ten rows with ~30-character model slugs still fit the 1,000), the CI as a range
`low–high`, a short "style ctrl" header, and the "N more" and provisional notes as lines
under the table, not rows whose long text would widen the model column; the provisional
note names only as many models as still fit under the 1,000. Wider than its column, a table
gets squeezed and the browser breaks model slugs at their hyphens.
"""

from __future__ import annotations

from typing import Any

TOP_N = 10
INLINE_LIMIT = 1000  # characters: Dagster shows a longer markdown value only behind a dialog


def _fmt(value: Any) -> str:
    return "–" if value is None else f"{float(value):.1f}"


def _range(low: Any, high: Any) -> str:
    return "–" if low is None or high is None else f"{_fmt(low)}–{_fmt(high)}"


def _provisional_note(entries: list[dict[str, Any]], min_votes: int | None, room: int) -> str:
    """`provisional (fewer than 30 votes, unranked): a (3 votes), b (11 votes), +2 more`,
    naming as many as fit in `room` characters."""
    label = f"provisional ({f'fewer than {min_votes} votes, ' if min_votes is not None else ''}unranked): "
    names = [f"{entry['model']} ({entry['vote_count']:,} votes)" for entry in entries]
    for shown in range(len(names), -1, -1):
        rest = len(names) - shown
        note = label + ", ".join(names[:shown] + ([f"+{rest} more"] if rest else []))
        if len(note) <= room:
            break
    return note


def top_table(category: dict[str, Any], limit: int = TOP_N, min_votes: int | None = None) -> str:
    """Markdown: the category's first `limit` ranked entries by rank (published order within
    a rank), then its provisional models apart, with their votes, as a note under the table.

    A provisional model's rating rests on a handful of votes (rank null), so it is never
    listed among the ranked ones, however high its rating. `min_votes` (the computation's
    parameter) only labels the note."""
    ranked = sorted((e for e in category["entries"] if e["rank"] is not None), key=lambda e: e["rank"])  # stable
    provisional = [e for e in category["entries"] if e["rank"] is None]
    lines = [
        f"**{category['category']}** · {category['vote_count']:,} votes · style control {'on' if category['style_control'] else 'off'}",
        "",
        "| rank | model | rating | 95% CI | style ctrl | votes |",
        "|---:|---|---:|---|---:|---:|",
    ]
    for entry in ranked[:limit]:
        lines.append(
            f"|{entry['rank']}|{entry['model']}|{_fmt(entry['rating'])}|"
            f"{_range(entry['ci_low'], entry['ci_high'])}|"
            f"{_fmt(entry['rating_style_controlled'])}|{entry['vote_count']:,}|"
        )
    hidden = len(ranked) - limit
    if hidden > 0:
        lines += ["", f"… {hidden} more ranked in leaderboard.json"]
    text = "\n".join(lines)
    if provisional:
        text += "\n\n" + _provisional_note(provisional, min_votes, INLINE_LIMIT - 1 - len(text) - 2)
    return text


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
