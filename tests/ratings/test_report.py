"""Markdown summaries of a leaderboard (Dagster metadata)."""

from atlas_assets.ratings.report import categories_table, top_table


def _entry(model, rating, rank, votes):
    return {
        "model": model, "rating": rating, "ci_low": rating - 10, "ci_high": rating + 10,
        "rating_style_controlled": rating - 1, "vote_count": votes, "rank": rank,
    }


CATEGORY = {
    "category": "chat-writing",
    "vote_count": 12345,
    "style_control": True,
    "entries": [_entry("a", 1100.0, 1, 900), _entry("b", 1050.0, None, 4), _entry("c", 990.0, 2, 300)],
}


def test_top_table_lists_entries_in_order_marks_provisional_and_counts_the_rest():
    table = top_table(CATEGORY, limit=2)
    lines = table.splitlines()
    assert lines[0] == "**chat-writing** · 12,345 votes · style control on"
    assert lines[2] == "| rank | model | rating | 95% CI | style ctrl | votes |"
    assert lines[4] == "|1|a|1100.0|1090.0–1110.0|1099.0|900|"
    assert lines[5].startswith("|prov.|b|1050.0|")
    # The note is a paragraph under the table (blank line first), not a table row.
    assert lines[6:] == ["", "… 1 more in leaderboard.json"]
    assert "|c|" not in table


def test_top_table_stays_under_dagsters_inline_markdown_limit():
    # Dagster 1.13 renders markdown metadata inline only below 1,000 characters; ten rows
    # with realistic 31-character slugs and five-digit vote counts must still fit.
    long_slugs = {
        **CATEGORY,
        "entries": [_entry(f"vendor-model-{i:02d}-2026-04-preview", 1100.0 - i, i + 1, 12345) for i in range(12)],
    }
    assert len(long_slugs["entries"][0]["model"]) == 31
    assert len(top_table(long_slugs)) < 1000


def test_categories_table_counts_ranked_and_provisional_models():
    table = categories_table({"categories": [CATEGORY]})
    assert table.splitlines()[-1] == "| chat-writing | 12,345 | 3 | 2 | 1 | on |"
