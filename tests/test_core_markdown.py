"""core.markdown: cells that cannot break a table."""

from __future__ import annotations

from atlas_assets.core.markdown import cell, table


def test_cells_escape_pipes_show_line_breaks_and_cut_long_text():
    assert cell(None) == "—"
    assert cell("a|b\r\nc\nd") == "a\\|b ⏎ c ⏎ d"
    assert cell({"k": [1, 2]}) == '{"k":[1,2]}'
    cut = cell("x" * 100, limit=10)
    assert cut == "x" * 9 + "…"
    assert cell("abcdefgh|z", limit=10) == "abcdefgh…"  # never ends in a lone escape


def test_table_aligns_columns():
    assert table(["a", "n"], [["x", "1"]], "lr") == "| a | n |\n| --- | ---: |\n| x | 1 |"
