"""The leaderboard picture: a valid, deterministic PNG with a readable panel per category."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from atlas_assets.ratings.plot import PROVISIONAL, RANKED, ROW, nice_ticks, render_leaderboard_png


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
            _entry(f"model-{c}-{i}", 1100.0 - 40.0 * i, 15.0 + i, i + 1, None if i == n_models - 1 else i + 1)
            for i in range(n_models)
        ]
        cats.append(
            {"category": slug, "vote_count": 1234, "style_control": True, "style_coefficients": None, "entries": entries}
        )
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
