"""A PNG picture of leaderboard.json: per category, every model's rating with its 95% CI.

`render_leaderboard_png(document)` is a pure function of the leaderboard dict (the parsed
leaderboard.json) and returns PNG bytes, drawn with Pillow only. One panel per category,
in file order; inside a panel the entries appear in their published `order` (rating
descending), each row showing the rank band, the model slug, a whisker from ci_low to
ci_high with a dot at the rating, and the numbers. Provisional models (rank null) are
drawn in grey; the axis is scaled to the ranked models' CIs (and every rating), so a
provisional model's very wide CI is clipped at the edge with an arrow head (explained in
the legend). Each panel has its own x axis, labelled above the first row and below the
last one, so the scale is in view wherever a reader is in a 50-row panel: ratings are
centred at 1000 per category, so categories are not on a common scale anyway.

No Dagster import; the same bytes for the same document and Pillow version.
"""

from __future__ import annotations

import io
import math
from typing import Any, Mapping, Sequence

from PIL import Image, ImageDraw, ImageFont

WIDTH = 1000
MARGIN = 18
ROW = 20
GAP = 10
PANEL_TOP = 44  # category title + subtitle + the upper tick labels, above the first row
PANEL_BOTTOM = 30  # the lower tick labels, below the last row
AXIS_CAPTION = "x axis: Elo-scale rating, centred at 1000 in each category"
PROVISIONAL_LABEL = "provisional (too few votes, no rank)"
CLIPPED_LABEL = "CI runs past the axis"

INK = (33, 37, 41)
MUTED = (108, 117, 125)
GRID = (222, 226, 230)
STRIPE = (246, 248, 250)
RANKED = (31, 119, 180)
PROVISIONAL = (160, 166, 172)
BACKGROUND = (255, 255, 255)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: fixed-size bitmap font only
        return ImageFont.load_default()


def _text_width(font: Any, text: str) -> float:
    return float(font.getlength(text))


def nice_ticks(low: float, high: float, target: int = 6) -> list[float]:
    """Round tick positions (1, 2 or 5 x 10^k apart) covering [low, high]."""
    span = high - low
    if not math.isfinite(span) or span <= 0:
        return [low]
    raw = span / max(target, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _tick_label(value: float) -> str:
    return f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:g}"


def _axis_range(entries: Sequence[Mapping[str, Any]]) -> tuple[float, float]:
    """The x range: every rating, and the CIs of ranked models.

    Provisional models (few votes) can have CIs hundreds of points wide; letting them set
    the scale would squash the ranked models into a sliver, so their whiskers are clipped
    at the panel edge instead (drawn with an arrow head there).
    """
    ranked = [e for e in entries if e.get("rank") is not None] or list(entries)
    lows = [float(e["ci_low"]) for e in ranked] + [float(e["rating"]) for e in entries]
    highs = [float(e["ci_high"]) for e in ranked] + [float(e["rating"]) for e in entries]
    low, high = min(lows), max(highs)
    if high - low < 1e-6:
        low, high = low - 10.0, high + 10.0
    pad = (high - low) * 0.04
    return low - pad, high + pad


def _rank_label(entry: Mapping[str, Any]) -> str:
    rank = entry.get("rank")
    return "prov." if rank is None else f"#{rank}"


def _value_label(entry: Mapping[str, Any]) -> str:
    return f"{float(entry['rating']):.1f}  [{float(entry['ci_low']):.1f}, {float(entry['ci_high']):.1f}]"


def _subtitle(category: Mapping[str, Any]) -> str:
    entries = category.get("entries") or []
    ranked = sum(1 for e in entries if e.get("rank") is not None)
    style = "style control on" if category.get("style_control") else "style control off"
    return (
        f"{int(category.get('vote_count', 0)):,} votes · {len(entries)} models "
        f"({ranked} ranked, {len(entries) - ranked} provisional) · {style}"
    )


def _header(document: Mapping[str, Any]) -> str:
    meta = document.get("metadata") or {}
    parts = ["Arena leaderboard"]
    if meta.get("dump_generated_at"):
        parts.append(f"dump {meta['dump_generated_at']}")
    if meta.get("bootstrap_rounds") is not None:
        parts.append(f"{meta['bootstrap_rounds']} bootstrap rounds")
    if meta.get("seed") is not None:
        parts.append(f"seed {meta['seed']}")
    return " · ".join(parts)


def render_leaderboard_png(document: Mapping[str, Any], *, width: int = WIDTH) -> bytes:
    """PNG bytes: one panel per category of `document` (a parsed leaderboard.json)."""
    title_font, category_font, label_font, small_font = _font(18), _font(15), _font(13), _font(11)
    categories: list[Mapping[str, Any]] = list(document.get("categories") or [])

    all_entries = [e for c in categories for e in (c.get("entries") or [])]
    rank_w = max([_text_width(label_font, _rank_label(e)) for e in all_entries] + [_text_width(label_font, "prov.")])
    name_w = max([_text_width(label_font, str(e["model"])) for e in all_entries] + [80.0])
    value_w = max([_text_width(small_font, _value_label(e)) for e in all_entries] + [120.0])
    name_w = min(name_w, width * 0.35)

    x_rank = MARGIN
    x_name = x_rank + rank_w + 10
    x_plot0 = x_name + name_w + 14
    x_value = width - MARGIN - value_w
    x_plot1 = x_value - 14
    if x_plot1 - x_plot0 < 200:  # very long slugs: widen the picture rather than squash the axis
        width = int(width + (200 - (x_plot1 - x_plot0)))
        x_value = width - MARGIN - value_w
        x_plot1 = x_value - 14

    # The legend line: rating dot, CI whisker, provisional dot, clipped CI; then the axis
    # caption, right-aligned on that line or, if it does not fit, on a line of its own.
    legend_y = 38
    lx = MARGIN + 70
    px = lx + 160
    ax = px + 14 + _text_width(small_font, PROVISIONAL_LABEL) + 20
    legend_end = ax + 38 + _text_width(small_font, CLIPPED_LABEL)
    caption_w = _text_width(small_font, AXIS_CAPTION)
    header_h = 56
    if width - MARGIN - caption_w >= legend_end + 20:
        caption_xy = (width - MARGIN - caption_w, legend_y)
    else:
        caption_xy = (MARGIN, legend_y + 16)
        header_h += 16
    panel_heights = [PANEL_TOP + ROW * max(1, len(c.get("entries") or [])) + PANEL_BOTTOM for c in categories]
    height = header_h + sum(panel_heights) + GAP * len(categories) + MARGIN
    if not categories:
        height = header_h + 40 + MARGIN

    image = Image.new("RGB", (int(width), int(height)), BACKGROUND)
    draw = ImageDraw.Draw(image)

    draw.text((MARGIN, 12), _header(document), font=title_font, fill=INK)
    draw.ellipse((MARGIN, legend_y + 3, MARGIN + 8, legend_y + 11), fill=RANKED)
    draw.text((MARGIN + 14, legend_y), "rating", font=small_font, fill=MUTED)
    draw.line((lx, legend_y + 7, lx + 30, legend_y + 7), fill=RANKED, width=2)
    draw.line((lx, legend_y + 3, lx, legend_y + 11), fill=RANKED, width=2)
    draw.line((lx + 30, legend_y + 3, lx + 30, legend_y + 11), fill=RANKED, width=2)
    draw.text((lx + 38, legend_y), "95% bootstrap CI", font=small_font, fill=MUTED)
    draw.ellipse((px, legend_y + 3, px + 8, legend_y + 11), fill=PROVISIONAL)
    draw.text((px + 14, legend_y), PROVISIONAL_LABEL, font=small_font, fill=MUTED)
    draw.line((ax, legend_y + 7, ax + 24, legend_y + 7), fill=PROVISIONAL, width=2)
    draw.polygon([(ax + 30, legend_y + 7), (ax + 24, legend_y + 3), (ax + 24, legend_y + 11)], fill=PROVISIONAL)
    draw.text((ax + 38, legend_y), CLIPPED_LABEL, font=small_font, fill=MUTED)
    draw.text(caption_xy, AXIS_CAPTION, font=small_font, fill=MUTED)

    if not categories:
        draw.text((MARGIN, header_h + 10), "No category has votes in this dump.", font=label_font, fill=MUTED)

    y = header_h
    for category, panel_h in zip(categories, panel_heights):
        entries = list(category.get("entries") or [])
        draw.text((MARGIN, y + 2), str(category.get("category", "")), font=category_font, fill=INK)
        draw.text(
            (MARGIN + _text_width(category_font, str(category.get("category", ""))) + 12, y + 5),
            _subtitle(category),
            font=small_font,
            fill=MUTED,
        )
        top = y + PANEL_TOP
        bottom = top + ROW * max(1, len(entries))
        low, high = _axis_range(entries) if entries else (990.0, 1010.0)

        def to_x(value: float, low: float = low, high: float = high) -> float:
            return x_plot0 + (value - low) / (high - low) * (x_plot1 - x_plot0)

        for index in range(len(entries)):
            if index % 2 == 1:
                row_top = top + index * ROW
                draw.rectangle((MARGIN, row_top, width - MARGIN, row_top + ROW - 1), fill=STRIPE)
        for tick in nice_ticks(low, high):
            tx = to_x(tick)
            draw.line((tx, top, tx, bottom), fill=GRID, width=1)
            label = _tick_label(tick)
            label_x = tx - _text_width(small_font, label) / 2
            draw.text((label_x, top - 15), label, font=small_font, fill=MUTED)
            draw.text((label_x, bottom + 4), label, font=small_font, fill=MUTED)
        draw.line((x_plot0, top, x_plot1, top), fill=MUTED, width=1)
        draw.line((x_plot0, bottom, x_plot1, bottom), fill=MUTED, width=1)

        for index, entry in enumerate(entries):
            cy = top + index * ROW + ROW // 2
            color = PROVISIONAL if entry.get("rank") is None else RANKED
            text_color = MUTED if entry.get("rank") is None else INK
            draw.text((x_rank, cy - 8), _rank_label(entry), font=label_font, fill=text_color)
            name = str(entry["model"])
            while _text_width(label_font, name) > name_w and len(name) > 4:
                name = name[:-2] + "…"
            draw.text((x_name, cy - 8), name, font=label_font, fill=text_color)
            x0, x1 = to_x(float(entry["ci_low"])), to_x(float(entry["ci_high"]))
            xr = to_x(float(entry["rating"]))
            clip_low, clip_high = x0 < x_plot0, x1 > x_plot1
            x0, x1 = max(x0, x_plot0), min(x1, x_plot1)
            draw.line((x0, cy, x1, cy), fill=color, width=2)
            for x_end, clipped, direction in ((x0, clip_low, -1), (x1, clip_high, 1)):
                if clipped:  # the CI goes on beyond the axis: an arrow head, not a cap
                    draw.polygon([(x_end + 6 * direction, cy), (x_end, cy - 4), (x_end, cy + 4)], fill=color)
                else:
                    draw.line((x_end, cy - 4, x_end, cy + 4), fill=color, width=2)
            draw.ellipse((xr - 4, cy - 4, xr + 4, cy + 4), fill=color)
            draw.text((x_value, cy - 7), _value_label(entry), font=small_font, fill=text_color)
        y += panel_h + GAP

    # A 32-colour palette is visually identical here (flat colours, anti-aliased text) and
    # about a quarter of the RGB size, which matters for the copy embedded in Dagster metadata.
    palette = image.quantize(colors=32, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    palette.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
