"""The leaderboard picture: a valid, deterministic PNG with a readable panel per category."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from atlas_assets.ratings.plot import (
    MUTED,
    PANEL_TOP,
    PROVISIONAL,
    RANKED,
    ROW,
    nice_ticks,
    render_leaderboard_png,
)


def _entry(model: str, rating: float, half: float, order: int, rank: int | None, votes: int = 100) -> dict:
    return {
        "model": model,
        "rating": rating,
        "ci_low": rating - half,
        "ci_high": rating + half,
        "rating_style_controlled": rating,
        "ci_low_sc": rating - half,
        "ci_high_sc": rating + half,
        "vote_count": votes,
        "provisional": rank is None,
        "rank": rank,
        "order": order,
    }


def _document(n_models: int = 5, categories: tuple[str, ...] = ("chat-coding", "chat-writing")) -> dict:
    cats = []
    for c, slug in enumerate(categories):
        entries = [
            _entry(f"model-{c}-{i}", 1100.0 - 40.0 * i, 15.0 + i, i + 1, None if i == n_models - 1 else i + 1) for i in range(n_models)
        ]
        cats.append({"category": slug, "vote_count": 1234, "style_control": True, "style_coefficients": None, "entries": entries})
    return {
        "metadata": {"dump_generated_at": "2026-09-08T04:00:00Z", "seed": 42, "bootstrap_rounds": 100},
        "categories": cats,
    }


def _image(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_png_is_valid_and_deterministic():
    document = _document()
    first = render_leaderboard_png(document)
    assert first == render_leaderboard_png(document)
    image = _image(first)
    assert image.format == "PNG"
    assert image.width >= 800


def test_height_grows_with_models_and_categories():
    small = _image(render_leaderboard_png(_document(n_models=3, categories=("a",))))
    more_models = _image(render_leaderboard_png(_document(n_models=13, categories=("a",))))
    more_categories = _image(render_leaderboard_png(_document(n_models=3, categories=("a", "b", "c"))))
    assert more_models.height - small.height == pytest.approx(10 * ROW, abs=1)
    assert more_categories.height > small.height * 2


def test_ranked_and_provisional_models_are_drawn_in_their_colours():
    image = _image(render_leaderboard_png(_document(n_models=4, categories=("only",)))).convert("RGB")
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 16)}
    near = lambda target: any(sum(abs(a - b) for a, b in zip(colour, target)) <= 12 for colour in colours)  # noqa: E731
    assert near(RANKED)
    assert near(PROVISIONAL)


def _muted_run(image: Image.Image, y: int) -> int:
    """The longest horizontal run of axis-coloured pixels in row y."""
    best = run = 0
    for x in range(image.width):
        pixel = image.getpixel((x, y))
        run = run + 1 if sum(abs(a - b) for a, b in zip(pixel, MUTED)) <= 12 else 0
        best = max(best, run)
    return best


def _ink_rows(image: Image.Image, y0: int, y1: int, x0: int, x1: int) -> int:
    """How many rows in [y0, y1) hold dark (text) pixels between x0 and x1."""
    return sum(any(sum(image.getpixel((x, y))) < 3 * 200 for x in range(x0, x1)) for y in range(y0, y1))


def test_each_panel_has_its_scale_above_the_first_row_and_below_the_last():
    # In a 50-row panel the lower axis is a screen away from the top rows: the scale is
    # drawn on both edges (axis line + tick labels), so it is in view wherever one reads.
    n = 50
    image = _image(render_leaderboard_png(_document(n_models=n, categories=("tall",)))).convert("RGB")
    header = 56  # the caption fits on the legend line at the default width
    top = header + PANEL_TOP
    bottom = top + n * ROW
    assert _muted_run(image, top) > 200
    assert _muted_run(image, bottom) > 200
    plot_x0, plot_x1 = image.width // 3, image.width * 2 // 3  # inside the axis, clear of names/values
    assert _ink_rows(image, top - 15, top - 1, plot_x0, plot_x1) >= 5  # upper tick labels
    assert _ink_rows(image, bottom + 3, bottom + 18, plot_x0, plot_x1) >= 5  # lower tick labels


def test_a_narrow_picture_puts_the_axis_caption_on_its_own_line():
    wide = _image(render_leaderboard_png(_document(), width=1000))
    narrow = _image(render_leaderboard_png(_document(), width=800))
    assert narrow.width == 800
    assert narrow.height == wide.height + 16


def test_long_slugs_and_an_empty_leaderboard_still_render():
    document = _document(n_models=2, categories=("x",))
    document["categories"][0]["entries"][0]["model"] = "a-very-long-model-slug-" * 8
    assert _image(render_leaderboard_png(document)).width >= 800
    empty = _image(render_leaderboard_png({"metadata": {}, "categories": []}))
    assert empty.height > 50


def test_a_single_model_with_a_zero_width_ci_renders():
    document = _document(n_models=1, categories=("solo",))
    entry = document["categories"][0]["entries"][0]
    entry["ci_low"] = entry["ci_high"] = entry["rating"] = 1000.0
    _image(render_leaderboard_png(document))


def test_nice_ticks_are_round_and_cover_the_range():
    ticks = nice_ticks(912.3, 1108.7)
    assert ticks == [950.0, 1000.0, 1050.0, 1100.0]
    assert nice_ticks(995.0, 1005.0) == [996.0, 998.0, 1000.0, 1002.0, 1004.0]
    assert nice_ticks(5.0, 5.0) == [5.0]
