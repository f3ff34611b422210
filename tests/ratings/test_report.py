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
    assert lines[4] == "| 1 | a | 1100.0 | [1090.0, 1110.0] | 1099.0 | 900 |"
    assert lines[5].startswith("| prov. | b | 1050.0 |")
    assert "1 more in leaderboard.json" in lines[6]
    assert "| c |" not in table


def test_categories_table_counts_ranked_and_provisional_models():
    table = categories_table({"categories": [CATEGORY]})
    assert table.splitlines()[-1] == "| chat-writing | 12,345 | 3 | 2 | 1 | on |"
