"""Markdown summaries of a leaderboard (Dagster metadata)."""

from atlas_assets.ratings.report import categories_table, top_table


def _entry(model, rating, rank, votes):
    return {
        "model": model,
        "rating": rating,
        "ci_low": rating - 10,
        "ci_high": rating + 10,
        "rating_style_controlled": rating - 1,
        "vote_count": votes,
        "rank": rank,
    }


CATEGORY = {
    "category": "chat-writing",
    "vote_count": 12345,
    "style_control": True,
    "entries": [_entry("a", 1100.0, 1, 900), _entry("b", 1050.0, None, 4), _entry("c", 990.0, 2, 300)],
}


def test_top_table_ranks_first_by_rank_and_lists_provisional_models_apart_with_their_votes():
    # b (4 votes) has the second-highest rating but no rank: it is never among the ranked rows.
    category = {**CATEGORY, "entries": [*CATEGORY["entries"], _entry("d", 980.0, 1, 50), _entry("e", 970.0, 3, 40)]}
    table = top_table(category, limit=3, min_votes=30)
    lines = table.splitlines()
    assert lines[0] == "**chat-writing** · 12,345 votes · style control on"
    assert lines[2] == "| rank | model | rating | 95% CI | style ctrl | votes |"
    assert lines[4] == "|1|a|1100.0|1090.0–1110.0|1099.0|900|"
    # by rank, published order within a rank (d's band is rank 1 although c is rated higher)
    assert [line.split("|")[2] for line in lines[4:7]] == ["a", "d", "c"]
    # notes are paragraphs under the table (blank line first), not table rows
    assert lines[7:] == [
        "",
        "… 1 more ranked in leaderboard.json",
        "",
        "provisional (fewer than 30 votes, unranked): b (4 votes)",
    ]
    assert "|b|" not in table and "prov." not in table


def test_provisional_note_without_min_votes_and_without_provisional_models():
    assert top_table(CATEGORY).splitlines()[-1] == "provisional (unranked): b (4 votes)"
    ranked_only = {**CATEGORY, "entries": [e for e in CATEGORY["entries"] if e["rank"] is not None]}
    assert "provisional" not in top_table(ranked_only)


def test_top_table_stays_under_dagsters_inline_markdown_limit():
    # Dagster 1.13 renders markdown metadata inline only below 1,000 characters; ten rows
    # with realistic 31-character slugs and five-digit vote counts must still fit.
    long_slugs = {
        **CATEGORY,
        "entries": [_entry(f"vendor-model-{i:02d}-2026-04-preview", 1100.0 - i, i + 1, 12345) for i in range(12)],
    }
    assert len(long_slugs["entries"][0]["model"]) == 31
    assert len(top_table(long_slugs)) < 1000
    # ...and with many provisional models the note names as many as fit, then counts the rest
    crowded = {
        **long_slugs,
        "entries": long_slugs["entries"] + [_entry(f"vendor-model-{i:02d}-2026-05-preview", 900.0, None, 3) for i in range(9)],
    }
    table = top_table(crowded, min_votes=30)
    assert len(table) < 1000
    note = table.splitlines()[-1]
    assert note.startswith("provisional (fewer than 30 votes, unranked): vendor-model-00-2026-05-preview (3 votes)")
    shown = note.count("(3 votes)")
    assert 0 < shown < 9 and note.endswith(f"+{9 - shown} more")


def test_categories_table_counts_ranked_and_provisional_models():
    table = categories_table({"categories": [CATEGORY]})
    assert table.splitlines()[-1] == "| chat-writing | 12,345 | 3 | 2 | 1 | on |"
