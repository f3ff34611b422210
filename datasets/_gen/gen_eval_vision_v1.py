# /// script
# requires-python = ">=3.11"
# dependencies = ["pillow>=10"]
# ///
"""Generate eval-vision-v1: questions about small generated images.

Every row carries `image` (a PNG in images/, relative to the dataset folder; the harness
sends it as an image part after the prompt text) and `meta.ground_truth`, the record of
what was drawn (shape list with colours and boxes, bar values, clock hands, dice faces,
filled cells), for debugging a disagreement; scoring uses only `answer`.

Categories (250 rows):

* shape_count  (numeric) count all shapes / shapes of a colour / shapes of a colour and kind
* shape_kind   (mc)      name the single shape / the shape of a colour / the kind drawn twice
* position     (exact)   colour of the leftmost / topmost / lowest shape
* bar_chart    (exact, numeric) tallest bar's label / one bar's value / tallest - shortest
* clock        (exact)   the time on an analogue clock (numerals, then ticks only)
* dice         (numeric) total of the pips on 1-5 dice
* grid         (numeric) filled cells in a grid / in one row

Drawing: Pillow's ImageDraw on a palette image with no anti-aliasing (every pixel is one
of a dozen flat colours), text in a 5x7 bitmap font defined in this file (so no font file
or Pillow version shapes the glyphs), shapes placed in separate cells so none touch. The
PNG bytes are written by this script (palette PNG, 4 bits per pixel, zlib level 9), so
the files depend on the drawing, not on Pillow's encoder. A test re-detects shapes,
colours, pips, bar heights and filled cells from the pixels (tests/corpus/test_g2_suites.py).

    python datasets/_gen/gen_eval_vision_v1.py [--out DIR]
"""

from __future__ import annotations

import math
import random
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402

DATASET_ID = "eval-vision-v1"
SEED = 5_500_101
SIZE = 160

# Palette index -> (name, RGB). Index 0 is the white background.
PALETTE: list[tuple[str, tuple[int, int, int]]] = [
    ("white", (255, 255, 255)),
    ("black", (20, 20, 20)),
    ("red", (215, 38, 38)),
    ("blue", (36, 84, 214)),
    ("green", (34, 150, 60)),
    ("yellow", (240, 196, 20)),
    ("orange", (245, 128, 20)),
    ("purple", (136, 56, 176)),
    ("lightgrey", (215, 215, 215)),
    ("grey", (128, 128, 128)),
    ("ivory", (250, 246, 232)),
]
INDEX = {name: i for i, (name, _) in enumerate(PALETTE)}
SHAPE_COLOURS = ["red", "blue", "green", "yellow", "orange", "purple"]
COLOUR_ANSWERS = {"red": ["red"], "blue": ["blue"], "green": ["green"], "yellow": ["yellow"], "orange": ["orange"], "purple": ["purple", "violet"]}
SIDES = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}
KINDS = ["circle", "square", "triangle", "pentagon", "hexagon", "star"]

# --- a 5x7 bitmap font (digits and the letters the images use) -------------------------------

FONT = {
    "0": ["01110", "10001", "10011", "10101", "11001", "10001", "01110"],
    "1": ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
    "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
    "3": ["11110", "00001", "00001", "01110", "00001", "00001", "11110"],
    "4": ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
    "5": ["11111", "10000", "11110", "00001", "00001", "10001", "01110"],
    "6": ["00110", "01000", "10000", "11110", "10001", "10001", "01110"],
    "7": ["11111", "00001", "00010", "00100", "01000", "01000", "01000"],
    "8": ["01110", "10001", "10001", "01110", "10001", "10001", "01110"],
    "9": ["01110", "10001", "10001", "01111", "00001", "00010", "01100"],
    "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
    "B": ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
    "C": ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
    "D": ["11100", "10010", "10001", "10001", "10001", "10010", "11100"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "F": ["11111", "10000", "10000", "11110", "10000", "10000", "10000"],
    "G": ["01110", "10001", "10000", "10111", "10001", "10001", "01111"],
    "H": ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
}


def draw_text(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, colour: int, scale: int = 1) -> int:
    """Draw `text` with its top-left at (x, y); returns the width in pixels."""
    cx = x
    for ch in text:
        glyph = FONT[ch]
        for gy, row in enumerate(glyph):
            for gx, bit in enumerate(row):
                if bit == "1":
                    draw.rectangle([cx + gx * scale, y + gy * scale, cx + gx * scale + scale - 1, y + gy * scale + scale - 1], fill=colour)
        cx += 6 * scale
    return cx - x - scale


def text_width(text: str, scale: int = 1) -> int:
    return len(text) * 6 * scale - scale


# --- PNG -------------------------------------------------------------------------------------


def png_bytes(image: Image.Image) -> bytes:
    """A palette PNG (bit depth 4, filter 0 on every row, zlib level 9) of a 'P' image."""
    assert image.mode == "P"
    width, height = image.size
    pixels = image.tobytes()
    assert max(pixels) < 16
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        row = pixels[y * width : (y + 1) * width]
        if width % 2:
            row += b"\x00"
        raw.extend((row[i] << 4) | row[i + 1] for i in range(0, len(row), 2))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    palette = b"".join(bytes(rgb) for _, rgb in PALETTE)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 4, 3, 0, 0, 0))
        + chunk(b"PLTE", palette)
        + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + chunk(b"IEND", b"")
    )


def canvas(width: int = SIZE, height: int = SIZE, background: str = "white") -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("P", (width, height), INDEX[background])
    image.putpalette([c for _, rgb in PALETTE for c in rgb])
    return image, ImageDraw.Draw(image)


# --- shapes ----------------------------------------------------------------------------------


def polygon_points(kind: str, cx: int, cy: int, r: int) -> list[tuple[int, int]]:
    if kind == "star":
        pts = []
        for k in range(10):
            rad = r if k % 2 == 0 else r * 0.45
            a = -math.pi / 2 + k * math.pi / 5
            pts.append((round(cx + rad * math.cos(a)), round(cy + rad * math.sin(a))))
        return pts
    n = SIDES[kind]
    start = -math.pi / 2 if kind != "square" else -math.pi / 4
    if kind == "square":
        return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    return [(round(cx + r * math.cos(start + 2 * math.pi * k / n)), round(cy + r * math.sin(start + 2 * math.pi * k / n))) for k in range(n)]


def draw_shape(draw: ImageDraw.ImageDraw, kind: str, colour: str, cx: int, cy: int, r: int) -> list[int]:
    fill = INDEX[colour]
    if kind == "circle":
        box = [cx - r, cy - r, cx + r, cy + r]
        draw.ellipse(box, fill=fill)
        return box
    if kind == "square":
        r = round(r * 0.85)
        box = [cx - r, cy - r, cx + r, cy + r]
        draw.rectangle(box, fill=fill)
        return box
    pts = polygon_points(kind, cx, cy, r)
    draw.polygon(pts, fill=fill)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return [min(xs), min(ys), max(xs), max(ys)]


def scatter(rng: random.Random, n: int, grid: int) -> list[tuple[int, int, int]]:
    """n non-touching (cx, cy, r) positions: one per cell of a grid x grid layout."""
    cell = SIZE // grid
    cells = rng.sample(range(grid * grid), n)
    out = []
    for c in cells:
        gx, gy = c % grid, c // grid
        r = rng.randrange(max(7, cell // 4), cell // 2 - 3)
        slack = cell // 2 - 2 - r
        cx = gx * cell + cell // 2 + rng.randrange(-slack, slack + 1)
        cy = gy * cell + cell // 2 + rng.randrange(-slack, slack + 1)
        out.append((cx, cy, r))
    return out


def shapes_image(rng: random.Random, specs: list[tuple[str, str]], grid: int) -> tuple[Image.Image, list[dict]]:
    image, draw = canvas()
    truth = []
    for (kind, colour), (cx, cy, r) in zip(specs, scatter(rng, len(specs), grid)):
        box = draw_shape(draw, kind, colour, cx, cy, r)
        truth.append({"kind": kind, "colour": colour, "centre": [cx, cy], "box": box})
    return image, truth


def shape_count(rng: random.Random, difficulty: str) -> dict:
    if difficulty == "easy":
        n = rng.randrange(2, 7)
        kind = rng.choice(["circle", "square", "triangle"])
        specs = [(kind, rng.choice(SHAPE_COLOURS)) for _ in range(n)]
        image, truth = shapes_image(rng, specs, 3)
        return {"image": image, "truth": truth, "prompt": f"How many {kind}s are in the picture? Reply with the number only.", "answer": n, "scorer": "numeric"}
    if difficulty == "medium":
        colour = rng.choice(SHAPE_COLOURS)
        k = rng.randrange(1, 6)
        n = rng.randrange(max(k + 2, 6), 10)
        others = [c for c in SHAPE_COLOURS if c != colour]
        specs = [(rng.choice(["circle", "square", "triangle"]), colour) for _ in range(k)] + [(rng.choice(["circle", "square", "triangle"]), rng.choice(others)) for _ in range(n - k)]
        rng.shuffle(specs)
        image, truth = shapes_image(rng, specs, 4)
        return {"image": image, "truth": truth, "prompt": f"How many {colour} shapes are in the picture? Reply with the number only.", "answer": k, "scorer": "numeric"}
    colour = rng.choice(SHAPE_COLOURS)
    kind = rng.choice(["circle", "square", "triangle"])
    n = rng.randrange(9, 14)
    specs = [(rng.choice(["circle", "square", "triangle"]), rng.choice(SHAPE_COLOURS)) for _ in range(n)]
    for i in rng.sample(range(n), rng.randrange(1, 4)):
        specs[i] = (kind, colour)
    image, truth = shapes_image(rng, specs, 4)
    k = sum(1 for s in specs if s == (kind, colour))
    return {"image": image, "truth": truth, "prompt": f"How many {colour} {kind}s are there? Other colours and other shapes do not count. Reply with the number only.", "answer": k, "scorer": "numeric"}


def shape_kind(rng: random.Random, difficulty: str) -> dict:
    if difficulty == "easy":
        kind = rng.choice(KINDS)
        colour = rng.choice(SHAPE_COLOURS)
        image, draw = canvas()
        r = rng.randrange(38, 60)
        cx, cy = SIZE // 2 + rng.randrange(-8, 9), SIZE // 2 + rng.randrange(-8, 9)
        box = draw_shape(draw, kind, colour, cx, cy, r)
        truth = [{"kind": kind, "colour": colour, "centre": [cx, cy], "box": box}]
        target = kind
        prompt = "What shape is drawn?"
    elif difficulty == "medium":
        kinds = rng.sample(KINDS, 3)
        colours = rng.sample(SHAPE_COLOURS, 3)
        image, truth = shapes_image(rng, list(zip(kinds, colours)), 3)
        pick = rng.randrange(3)
        target = kinds[pick]
        prompt = f"What shape is the {colours[pick]} one?"
    else:
        kinds = rng.sample(KINDS, 4)
        specs_kinds = kinds + [kinds[0]]
        rng.shuffle(specs_kinds)
        specs = [(k, rng.choice(SHAPE_COLOURS)) for k in specs_kinds]
        image, truth = shapes_image(rng, specs, 3)
        target = kinds[0]
        prompt = "Exactly one kind of shape appears twice in the picture (colours may differ). Which kind is it?"
    choices = [target] + rng.sample([k for k in KINDS if k != target], 3)
    rng.shuffle(choices)
    label = "ABCD"[choices.index(target)]
    prompt += "\n\n" + "\n".join(f"{'ABCD'[i]}. {c}" for i, c in enumerate(choices)) + "\n\nReply with the letter only."
    return {"image": image, "truth": truth, "prompt": prompt, "answer": label, "choices": choices, "scorer": "mc"}


def position(rng: random.Random, difficulty: str) -> dict:
    n = {"easy": 2, "medium": 3, "hard": 5}[difficulty]
    colours = rng.sample(SHAPE_COLOURS, n)
    specs = [(rng.choice(["circle", "square", "triangle"]), c) for c in colours]
    while True:
        image, truth = shapes_image(rng, specs, 3)
        axis, word = rng.choice([(0, "leftmost"), (0, "rightmost"), (1, "topmost"), (1, "lowest")])
        coords = [t["centre"][axis] for t in truth]
        best = min(coords) if word in ("leftmost", "topmost") else max(coords)
        gap = sorted(abs(c - best) for c in coords)[1]
        if gap >= 18:  # the winner is clear by at least 18 pixels
            break
    colour = truth[coords.index(best)]["colour"]
    return {"image": image, "truth": truth, "prompt": f"What colour is the {word} shape? Reply with the colour only.", "answer": COLOUR_ANSWERS[colour], "scorer": "exact", "meta": {"rule": f"{word} by centre, margin {gap} px"}}


# --- bar charts ------------------------------------------------------------------------------

BAR_W, BAR_H = 200, 160


def bar_chart(rng: random.Random, difficulty: str) -> dict:
    n = {"easy": 4, "medium": 5, "hard": 6}[difficulty]
    labels = list("ABCDEFGH"[:n])
    step = 10
    top = rng.choice([t for t in (50, 60, 80, 100) if t // step >= n])
    values = rng.sample(range(step, top + 1, step), n)
    image, draw = canvas(BAR_W, BAR_H)
    left, bottom, plot_top = 26, BAR_H - 16, 12
    scale = (bottom - plot_top) / top
    for v in range(0, top + 1, step):
        y = round(bottom - v * scale)
        draw.line([(left, y), (BAR_W - 6, y)], fill=INDEX["lightgrey"])
        draw_text(draw, left - 4 - text_width(str(v)), y - 3, str(v), INDEX["black"])
    draw.line([(left, plot_top - 4), (left, bottom)], fill=INDEX["black"])
    draw.line([(left, bottom), (BAR_W - 6, bottom)], fill=INDEX["black"])
    slot = (BAR_W - 6 - left) // n
    width = slot - 8
    colour = rng.choice(SHAPE_COLOURS)
    bars = []
    for i, (label, v) in enumerate(zip(labels, values)):
        x0 = left + 4 + i * slot
        y0 = round(bottom - v * scale)
        draw.rectangle([x0, y0, x0 + width, bottom - 1], fill=INDEX[colour])
        draw_text(draw, x0 + width // 2 - 2, bottom + 5, label, INDEX["black"])
        bars.append({"label": label, "value": v, "box": [x0, y0, x0 + width, bottom - 1]})
    truth = {"bars": bars, "axis_max": top, "gridline_step": step, "plot": {"left": left, "bottom": bottom, "pixels_per_unit": scale}}
    if difficulty == "easy":
        best = max(bars, key=lambda b: b["value"])
        return {"image": image, "truth": truth, "prompt": "Which bar is the tallest? Reply with its letter label only.", "answer": best["label"], "scorer": "exact"}
    if difficulty == "medium":
        pick = rng.choice(bars)
        return {"image": image, "truth": truth, "prompt": f"What value does bar {pick['label']} show? The bars end exactly on gridlines. Reply with the number only.", "answer": pick["value"], "scorer": "numeric"}
    hi, lo = max(values), min(values)
    return {"image": image, "truth": truth, "prompt": "What is the difference between the tallest and the shortest bar? The bars end exactly on gridlines. Reply with the number only.", "answer": hi - lo, "scorer": "numeric"}


# --- clocks ----------------------------------------------------------------------------------


def clock(rng: random.Random, difficulty: str) -> dict:
    hour = rng.randrange(1, 13)
    minute = {"easy": rng.choice([0, 30]), "medium": rng.randrange(0, 60, 5), "hard": rng.randrange(0, 60, 5)}[difficulty]
    image, draw = canvas(background="white")
    c, R = SIZE // 2, 70
    draw.ellipse([c - R, c - R, c + R, c + R], fill=INDEX["ivory"], outline=INDEX["black"], width=3)
    for k in range(60):
        a = math.radians(k * 6 - 90)
        r0 = R - (12 if k % 5 == 0 else 6)
        if k % 5 and difficulty != "hard":
            continue
        draw.line([(round(c + r0 * math.cos(a)), round(c + r0 * math.sin(a))), (round(c + (R - 4) * math.cos(a)), round(c + (R - 4) * math.sin(a)))], fill=INDEX["black"], width=3 if k % 5 == 0 else 1)
    if difficulty != "hard":
        for k in range(1, 13):
            a = math.radians(k * 30 - 90)
            tx, ty = c + (R - 24) * math.cos(a), c + (R - 24) * math.sin(a)
            text = str(k)
            draw_text(draw, round(tx - text_width(text) / 2), round(ty - 3.5), text, INDEX["black"])
    minute_angle = minute * 6
    hour_angle = (hour % 12) * 30 + minute * 0.5
    for angle, length, width, colour in ((hour_angle, R * 0.5, 6, "black"), (minute_angle, R * 0.82, 3, "black")):
        a = math.radians(angle - 90)
        draw.line([(c, c), (round(c + length * math.cos(a)), round(c + length * math.sin(a)))], fill=INDEX[colour], width=width)
    draw.ellipse([c - 4, c - 4, c + 4, c + 4], fill=INDEX["red"])
    answers = [f"{hour}:{minute:02d}", f"{hour:02d}:{minute:02d}"]
    if hour == 12:
        answers.append(f"0:{minute:02d}")
        answers.append(f"00:{minute:02d}")
    else:
        answers.append(f"{hour + 12}:{minute:02d}")
    prompt = "What time does the clock show? Reply as H:MM (for example 7:05), nothing else."
    if difficulty == "hard":
        prompt = "This clock face has no numbers, only tick marks; 12 o'clock is at the top. What time does it show? Reply as H:MM (for example 7:05), nothing else."
    truth = {"hour": hour, "minute": minute, "hour_hand_degrees": hour_angle, "minute_hand_degrees": minute_angle, "centre": [c, c], "radius": R, "numerals": difficulty != "hard"}
    return {"image": image, "truth": truth, "prompt": prompt, "answer": sorted(set(answers), key=answers.index), "scorer": "exact", "meta": {"accepted": "12-hour H:MM or HH:MM; the 24-hour reading of the same dial position is accepted too"}}


# --- dice ------------------------------------------------------------------------------------

PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def dice(rng: random.Random, difficulty: str) -> dict:
    n = {"easy": rng.randrange(1, 3), "medium": 3, "hard": rng.randrange(4, 6)}[difficulty]
    faces = [rng.randrange(1, 7) for _ in range(n)]
    image, draw = canvas(background="lightgrey")
    side = 44 if n <= 3 else 40
    positions = [(14 + (i % 3) * 48, 30 + (i // 3) * 56) if n > 3 else (12 + i * 50, 58) for i in range(n)]
    truth = []
    for (x, y), face in zip(positions, faces):
        draw.rectangle([x, y, x + side, y + side], fill=INDEX["white"], outline=INDEX["black"], width=2)
        cx, cy, off, pr = x + side // 2, y + side // 2, side // 4 + 1, 4
        for dx, dy in PIPS[face]:
            px, py = cx + dx * off, cy + dy * off
            draw.ellipse([px - pr, py - pr, px + pr, py + pr], fill=INDEX["black"])
        truth.append({"face": face, "box": [x, y, x + side, y + side]})
    what = "die" if n == 1 else f"{n} dice"
    return {"image": image, "truth": truth, "prompt": f"Add up the pips on the {what} shown. Reply with the total only.", "answer": sum(faces), "scorer": "numeric"}


# --- grids -----------------------------------------------------------------------------------


def grid(rng: random.Random, difficulty: str) -> dict:
    n = {"easy": 4, "medium": 5, "hard": 7}[difficulty]
    cell = (SIZE - 20) // n
    origin = (SIZE - cell * n) // 2
    density = rng.uniform(0.25, 0.6)
    filled = [[rng.random() < density for _ in range(n)] for _ in range(n)]
    colour = rng.choice(SHAPE_COLOURS)
    image, draw = canvas()
    for r in range(n):
        for c in range(n):
            if filled[r][c]:
                x0, y0 = origin + c * cell, origin + r * cell
                draw.rectangle([x0, y0, x0 + cell, y0 + cell], fill=INDEX[colour])
    for k in range(n + 1):
        p = origin + k * cell
        draw.line([(origin, p), (origin + n * cell, p)], fill=INDEX["black"], width=2)
        draw.line([(p, origin), (p, origin + n * cell)], fill=INDEX["black"], width=2)
    truth = {"size": n, "cell_pixels": cell, "origin": origin, "colour": colour, "filled": [[int(v) for v in row] for row in filled]}
    if difficulty == "hard":
        row = rng.randrange(n)
        ordinal = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh"][row]
        return {"image": image, "truth": truth, "prompt": f"In the {ordinal} row from the top, how many cells are filled with {colour}? Reply with the number only.", "answer": sum(filled[row]), "scorer": "numeric"}
    return {"image": image, "truth": truth, "prompt": f"How many cells of the {n} by {n} grid are filled with {colour}? Reply with the number only.", "answer": sum(map(sum, filled)), "scorer": "numeric"}


# --- assembly --------------------------------------------------------------------------------

PLAN = [  # (category, maker, easy, medium, hard)
    ("shape_count", shape_count, 14, 14, 12),
    ("shape_kind", shape_kind, 12, 12, 11),
    ("position", position, 10, 10, 10),
    ("bar_chart", bar_chart, 13, 14, 13),
    ("clock", clock, 12, 16, 12),
    ("dice", dice, 12, 12, 11),
    ("grid", grid, 10, 10, 10),
]


def make_rows() -> tuple[list[dict], dict[str, bytes]]:
    rows: list[dict] = []
    files: dict[str, bytes] = {}
    digests: set[str] = set()
    for category, maker, *counts in PLAN:
        rng = random.Random(_lib.stable_seed(DATASET_ID, SEED, category))
        for difficulty, count in zip(_lib.DIFFICULTIES, counts):
            made = 0
            while made < count:
                item = maker(rng, difficulty)
                data = png_bytes(item["image"])
                digest = _lib.sha256_bytes(data)
                if digest in digests:
                    continue
                digests.add(digest)
                made += 1
                row_id = f"vis-{len(rows) + 1:04d}"
                rel = f"images/{row_id}.png"
                files[rel] = data
                row: dict[str, Any] = {"id": row_id, "category": category, "difficulty": difficulty, "prompt": item["prompt"], "image": rel, "answer": item["answer"], "scorer": item["scorer"]}
                if "choices" in item:
                    row["choices"] = item["choices"]
                row["meta"] = {"ground_truth": item["truth"], "width": item["image"].size[0], "height": item["image"].size[1], **item.get("meta", {})}
                rows.append(row)
    return rows, files


def generate(out: Path) -> None:
    rows, files = make_rows()
    images = out / "images"
    if images.is_dir():
        for old in images.glob("*.png"):
            if f"images/{old.name}" not in files:
                old.unlink()
    for rel, data in files.items():
        _lib.atomic_write_bytes(out / rel, data)
    card = _lib.eval_dataset_json(
        dataset_id=DATASET_ID,
        description=(
            "Questions about small generated PNGs (shapes, positions, bar charts, analogue "
            "clocks, dice, grids); the image is sent as an image part, meta.ground_truth "
            "records what was drawn. A text-only model scores near zero"
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        default_scorer="exact",
        extra={"images_dir": "images", "image_format": "png, palette, 4 bits per pixel"},
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
