# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-format-v1: structured-output tasks scored by `json`.

The model reads a small generated record (a paragraph, a table, a config block, a list, an
indented tree, a line of text with quotes and backslashes) and replies with one JSON value
whose shape the prompt pins exactly: key names, value types, list order, and how each
source field maps to a value. The `json` scorer parses the reply (after the spec's answer
extraction) and compares it with `answer` structurally: key order is free, numbers compare
by value, booleans only equal booleans, strings are exact.

Eight task families x easy/medium/hard, 240 rows:

* record      -- a prose paragraph -> a flat object (strings, numbers, a boolean)
* table       -- a pipe table -> an array of objects (medium: filter; hard: filter + sort)
* config      -- `key = value` lines -> typed values (yes/no -> booleans, none -> null)
* numbers     -- a list of integers -> sorted/unique/min/max/sum (computed)
* ledger      -- transactions -> totals per category (hard: nested per-month totals)
* tree        -- an indented outline -> nested {"name", "children"} objects
* escape      -- a line of text with quotes, backslashes and non-ASCII letters -> a string
* template    -- a JSON skeleton with typed placeholders -> the filled object

The proof: every answer is computed from the generator's own data, then the prompt is
parsed back with an independent reader (regular expressions over the text the model
sees) and the answer recomputed from what was read; the row is kept only when both agree.

    python datasets/_gen/gen_eval_format_v1.py [--out DIR]
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402

DATASET_ID = "eval-format-v1"
SEED = 5_200_101
PER_FAMILY = {"easy": 10, "medium": 10, "hard": 10}

ONSETS = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "kl", "st", "tr", "gr"]
VOWELS = ["a", "e", "i", "o", "u", "ai", "ei", "ou"]
CODAS = ["", "", "n", "r", "l", "s", "k", "m", "nd", "rt", "sk", "lm"]


def word(rng: random.Random, syllables: int) -> str:
    return "".join(rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS) for _ in range(syllables))


def place(rng: random.Random) -> str:
    return word(rng, rng.choice((2, 2, 3))).capitalize()


def person(rng: random.Random) -> str:
    return f"{word(rng, 2).capitalize()} {word(rng, rng.choice((2, 3))).capitalize()}"


def code(rng: random.Random) -> str:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    return f"{rng.choice(letters)}{rng.choice(letters)}-{rng.randrange(1000, 10000)}"


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# --- families ----------------------------------------------------------------------------
# Each maker returns (prompt, answer, meta, reread) where reread(prompt) recomputes the
# answer from the prompt text alone.


def make_record(rng: random.Random, difficulty: str) -> tuple[str, Any, dict, Callable[[str], Any]]:
    kind = rng.choice(("parcel", "booking", "sensor"))
    if kind == "parcel":
        fields = {
            "tracking_code": code(rng),
            "weight_kg": rng.randrange(105, 2400) / 100,
            "origin": place(rng),
            "destination": place(rng),
            "fragile": rng.random() < 0.5,
        }
        if fields["origin"] == fields["destination"]:
            fields["destination"] += "ia"
        sentences = [
            f"Parcel {fields['tracking_code']} left {fields['origin']} this morning.",
            f"It is bound for {fields['destination']}.",
            f"The scale showed {fields['weight_kg']:g} kg.",
            "The sender ticked the fragile box." if fields["fragile"] else "Nobody marked it as fragile.",
        ]
        types = {"tracking_code": "string", "weight_kg": "number (kilograms)", "origin": "string", "destination": "string", "fragile": "boolean"}
    elif kind == "booking":
        fields = {
            "guest": person(rng),
            "nights": rng.randrange(1, 15),
            "room": rng.randrange(101, 650),
            "breakfast": rng.random() < 0.5,
            "hotel": f"Hotel {place(rng)}",
        }
        sentences = [
            f"{fields['guest']} booked room {fields['room']} at {fields['hotel']}.",
            f"The stay lasts {fields['nights']} night{'s' if fields['nights'] != 1 else ''}.",
            "Breakfast is included in the rate." if fields["breakfast"] else "The rate does not include breakfast.",
        ]
        types = {"guest": "string (full name)", "hotel": "string (as written, including the word Hotel)", "room": "integer", "nights": "integer", "breakfast": "boolean"}
    else:
        fields = {
            "sensor_id": code(rng),
            "site": place(rng),
            "temperature_c": rng.randrange(-150, 400) / 10,
            "humidity_pct": rng.randrange(5, 100),
            "battery_low": rng.random() < 0.5,
        }
        sentences = [
            f"Sensor {fields['sensor_id']} at {fields['site']} reported {fields['temperature_c']:g} degrees Celsius.",
            f"Relative humidity stood at {fields['humidity_pct']} percent.",
            "Its battery warning light was on." if fields["battery_low"] else "Its battery level was normal.",
        ]
        types = {"sensor_id": "string", "site": "string", "temperature_c": "number", "humidity_pct": "integer", "battery_low": "boolean"}
    rng.shuffle(sentences)
    keys = list(types)
    if difficulty != "easy":
        rng.shuffle(keys)
    wanted = keys if difficulty != "hard" else keys[:-1]
    answer = {k: fields[k] for k in wanted}
    spec = "; ".join(f'"{k}": {types[k]}' for k in wanted)
    label = code(rng)
    extra = ""
    if difficulty == "hard":
        extra = f" Leave out the field {keys[-1]!r}; add nothing else."
    prompt = (
        " ".join(sentences)
        + f"\n\nReturn this {kind} record as one JSON object (request {label}).\nKeys: {spec}.{extra}\nReply with the JSON only."
    )

    def reread(text: str) -> Any:
        body, instructions = text.split("\n\n", 1)
        keyline = re.search(r"^Keys: (.*)$", instructions, re.M).group(1)
        keyspec = dict(re.findall(r'"(\w+)": ([^;.]+)', keyline.split("Leave out")[0]))
        got: dict[str, Any] = {}
        for key, typ in keyspec.items():
            got[key] = _read_record_field(body, kind, key)
            if typ.startswith("integer"):
                assert float(got[key]).is_integer()
                got[key] = int(got[key])
        return got

    meta = {"family": "record", "record_kind": kind, "why": "every value is stated once in the paragraph; types are fixed by the key list"}
    return prompt, answer, meta, reread


def _read_record_field(body: str, kind: str, key: str) -> Any:
    patterns = {
        "tracking_code": (r"Parcel (\S+) left", str),
        "origin": (r"left (\w+) this morning", str),
        "destination": (r"bound for (\w+)\.", str),
        "weight_kg": (r"showed ([\d.]+) kg", float),
        "guest": (r"^(?:.*?\. )?([A-Z]\w+ [A-Z]\w+) booked", str),
        "room": (r"booked room (\d+)", int),
        "hotel": (r"at (Hotel \w+)\.", str),
        "nights": (r"lasts (\d+) night", int),
        "sensor_id": (r"Sensor (\S+) at", str),
        "site": (r"Sensor \S+ at (\w+) reported", str),
        "temperature_c": (r"reported (-?[\d.]+) degrees", float),
        "humidity_pct": (r"stood at (\d+) percent", int),
    }
    if key == "fragile":
        return "ticked the fragile box" in body
    if key == "breakfast":
        return "Breakfast is included" in body
    if key == "battery_low":
        return "warning light was on" in body
    pattern, cast = patterns[key]
    found = re.findall(pattern, body)
    assert len(found) == 1, (key, found)
    return cast(found[0])


PRODUCTS = ["lamp", "kettle", "stool", "mirror", "basket", "clock", "vase", "rug", "bench", "shelf", "tray", "jar"]
FINISHES = ["oak", "brass", "linen", "slate", "copper", "walnut", "clay", "cedar", "steel", "wool"]


def make_table(rng: random.Random, difficulty: str) -> tuple[str, Any, dict, Callable[[str], Any]]:
    n = {"easy": 3, "medium": 5, "hard": 6}[difficulty]
    names: list[str] = []
    while len(names) < n:
        name = f"{rng.choice(FINISHES)} {rng.choice(PRODUCTS)}"
        if name not in names:
            names.append(name)
    prices = rng.sample(range(5, 400), n)
    stocks = [rng.randrange(0, 40) for _ in range(n)]
    skus = [f"{word(rng, 1).upper()}{rng.randrange(10, 99)}" for _ in range(n)]
    while len(set(skus)) < n:
        skus = [f"{word(rng, 1).upper()}{rng.randrange(10, 99)}" for _ in range(n)]
    rows = [{"sku": s, "item": it, "price": p, "stock": st} for s, it, p, st in zip(skus, names, prices, stocks)]
    limit = rng.randrange(8, 25)
    if difficulty in ("medium", "hard") and not (0 < sum(r["stock"] < limit for r in rows) < n):
        rows[0]["stock"] = limit - 1 - rng.randrange(0, 3)
        rows[-1]["stock"] = limit + rng.randrange(0, 9)
    table = "| sku | item | price | stock |\n|---|---|---|---|\n" + "\n".join(
        f"| {r['sku']} | {r['item']} | {r['price']} | {r['stock']} |" for r in rows
    )
    if difficulty == "easy":
        ask = "Convert every row to a JSON object with the keys sku (string), item (string), price (integer) and stock (integer), and reply with a JSON array of them in table order."
        answer = rows
    elif difficulty == "medium":
        ask = f"Keep only the rows whose stock is below {limit}. Reply with a JSON array, in table order, of objects with the keys sku (string) and stock (integer)."
        answer = [{"sku": r["sku"], "stock": r["stock"]} for r in rows if r["stock"] < limit]
    else:
        ask = f"Keep only the rows whose stock is below {limit}, sort them by price from highest to lowest, and reply with a JSON array of objects with the keys item (string) and price (integer)."
        answer = [{"item": r["item"], "price": r["price"]} for r in sorted((r for r in rows if r["stock"] < limit), key=lambda r: -r["price"])]
    prompt = f"Warehouse table {skus[0]}-{limit}:\n\n{table}\n\n{ask} Output the JSON only."

    def reread(text: str) -> Any:
        lines = [ln for ln in text.splitlines() if ln.startswith("| ") and not ln.startswith("| sku")]
        got = []
        for ln in lines:
            sku, item, price, stock = [c.strip() for c in ln.strip("|").split("|")]
            got.append({"sku": sku, "item": item, "price": int(price), "stock": int(stock)})
        m = re.search(r"stock is below (\d+)", text)
        if m is None:
            return got
        kept = [r for r in got if r["stock"] < int(m.group(1))]
        if "sort them by price" in text:
            return [{"item": r["item"], "price": r["price"]} for r in sorted(kept, key=lambda r: -r["price"])]
        return [{"sku": r["sku"], "stock": r["stock"]} for r in kept]

    meta = {"family": "table", "limit": limit, "why": "rows copied, filtered on stock < limit and (hard) sorted by price; prices are distinct so the order is unique"}
    return prompt, answer, meta, reread


CONFIG_KEYS = ["retries", "verbose", "label", "ratio", "timeout", "mirror", "port", "region", "cache", "owner", "threshold", "backup"]


def make_config(rng: random.Random, difficulty: str) -> tuple[str, Any, dict, Callable[[str], Any]]:
    n = {"easy": 4, "medium": 6, "hard": 8}[difficulty]
    keys = rng.sample(CONFIG_KEYS, n)
    kinds = ["int", "bool", "string", "float", "null"] * 2
    rng.shuffle(kinds)
    if difficulty != "easy":
        kinds[:5] = ["int", "bool", "string", "float", "null"]
        rng.shuffle(kinds)
    values: dict[str, Any] = {}
    lines = []
    for key, kind in zip(keys, kinds):
        if kind == "int":
            v = rng.randrange(1, 9000)
            raw = str(v)
        elif kind == "bool":
            v = rng.random() < 0.5
            raw = "yes" if v else "no"
        elif kind == "string":
            v = f"{word(rng, 2)} {word(rng, 2)}"
            raw = f"'{v}'"
        elif kind == "float":
            v = rng.randrange(1, 999) / 100
            if float(v).is_integer():
                v += 0.5
            raw = f"{v:g}"
        else:
            v = None
            raw = "none"
        values[key] = v
        lines.append(f"{key} = {raw}")
    block = rng.randrange(100, 999)
    rules = "Map yes/no to true/false, none to null, quoted text to a string without the quotes, and numbers to JSON numbers."
    answer: Any = dict(values)
    tail = f"Reply with one JSON object holding every key of block #{block}."
    if difficulty == "hard":
        group = rng.choice(("settings", "options", "params"))
        tail = (
            f'Reply with one JSON object {{"{group}": {{...}}, "count": N}} for block #{block}.\n'
            f"The inner object holds every key and count is how many keys block #{block} has."
        )
        answer = {group: dict(values), "count": len(values)}
    prompt = f"Config block #{block}:\n\n" + "\n".join(lines) + f"\n\n{rules}\n{tail}"

    def reread(text: str) -> Any:
        got: dict[str, Any] = {}
        for key, raw in re.findall(r"^(\w+) = (.+)$", text, re.M):
            if raw in ("yes", "no"):
                got[key] = raw == "yes"
            elif raw == "none":
                got[key] = None
            elif raw.startswith("'"):
                got[key] = raw.strip("'")
            else:
                got[key] = float(raw) if "." in raw else int(raw)
        m = re.search(r'\{"(\w+)": \{\.\.\.\}, "count": N\}', text)
        return {m.group(1): got, "count": len(got)} if m else got

    meta = {"family": "config", "why": "each line maps to one key with the type rule stated in the prompt"}
    return prompt, answer, meta, reread


def make_numbers(rng: random.Random, difficulty: str) -> tuple[str, Any, dict, Callable[[str], Any]]:
    n = {"easy": 6, "medium": 9, "hard": 12}[difficulty]
    nums = [rng.randrange(-40, 120) for _ in range(n)]
    nums[rng.randrange(n)] = nums[rng.randrange(n)]  # at least one chance of a repeat
    listing = ", ".join(str(x) for x in nums)
    label = code(rng)
    if difficulty == "easy":
        ask = f'Reply with a JSON object {{"min": ..., "max": ..., "count": ...}} for list {label}.'
        answer = {"min": min(nums), "max": max(nums), "count": len(nums)}
    elif difficulty == "medium":
        ask = f'Reply with a JSON object {{"sorted": [...], "sum": ...}} for list {label}, where sorted lists its numbers in ascending order (repeats kept).'
        answer = {"sorted": sorted(nums), "sum": sum(nums)}
    else:
        ask = (
            f'Reply with a JSON object {{"distinct_desc": [...], "evens": N, "negatives": N}} for list {label}.\n'
            "distinct_desc lists each value once, largest first.\n"
            f"evens counts the even entries of {label} and negatives its entries below zero (both counting repeats)."
        )
        answer = {"distinct_desc": sorted(set(nums), reverse=True), "evens": sum(x % 2 == 0 for x in nums), "negatives": sum(x < 0 for x in nums)}
    prompt = f"List {label}: {listing}\n\n{ask} JSON only, no commentary."

    def reread(text: str) -> Any:
        got = [int(x) for x in re.search(r"^List [A-Z]{2}-\d+: (.+)$", text, re.M).group(1).split(", ")]
        if '"min"' in text:
            return {"min": min(got), "max": max(got), "count": len(got)}
        if '"sorted"' in text:
            return {"sorted": sorted(got), "sum": sum(got)}
        return {"distinct_desc": sorted(set(got), reverse=True), "evens": sum(x % 2 == 0 for x in got), "negatives": sum(x < 0 for x in got)}

    meta = {"family": "numbers", "numbers": nums, "why": "computed from the list"}
    return prompt, answer, meta, reread


CATEGORIES = ["food", "travel", "books", "tools", "garden", "music"]
MONTHS = ["January", "February", "March", "April", "May", "June"]


def make_ledger(rng: random.Random, difficulty: str) -> tuple[str, Any, dict, Callable[[str], Any]]:
    n = {"easy": 4, "medium": 7, "hard": 9}[difficulty]
    cats = rng.sample(CATEGORIES, {"easy": 2, "medium": 3, "hard": 3}[difficulty])
    months = rng.sample(MONTHS, 2)
    entries = []
    for i in range(n):
        entries.append({"cat": cats[i % len(cats)] if i < len(cats) else rng.choice(cats), "amount": rng.randrange(3, 250), "month": rng.choice(months), "ref": f"T{rng.randrange(1000, 9999)}"})
    rng.shuffle(entries)
    lines = [f"{e['ref']}: {e['amount']} credits on {e['cat']} in {e['month']}" for e in entries]
    if difficulty == "hard":
        ask = 'Reply with a JSON object mapping each month to an object that maps each category spent on in that month to its total (integers); omit categories with no entries in a month.'
        answer: dict[str, Any] = {}
        for e in entries:
            answer.setdefault(e["month"], {}).setdefault(e["cat"], 0)
            answer[e["month"]][e["cat"]] += e["amount"]
    else:
        ask = 'Reply with a JSON object {"total": N, "by_category": {category: total, ...}} with integer totals.'
        by: dict[str, int] = {}
        for e in entries:
            by[e["cat"]] = by.get(e["cat"], 0) + e["amount"]
        answer = {"total": sum(e["amount"] for e in entries), "by_category": by}
        if difficulty == "medium":
            ask = 'Reply with a JSON object {"total": N, "by_category": {category: total, ...}, "largest_ref": "..."} with integer totals and the reference of the single largest transaction.'
            top = max(entries, key=lambda e: e["amount"])
            if sum(e["amount"] == top["amount"] for e in entries) > 1:
                top["amount"] += 251
                lines = [f"{e['ref']}: {e['amount']} credits on {e['cat']} in {e['month']}" for e in entries]
                by = {}
                for e in entries:
                    by[e["cat"]] = by.get(e["cat"], 0) + e["amount"]
            answer = {"total": sum(e["amount"] for e in entries), "by_category": by, "largest_ref": top["ref"]}
    prompt = "Transactions:\n" + "\n".join(lines) + f"\n\n{ask} Output JSON only."

    def reread(text: str) -> Any:
        got = [(ref, int(a), c, m) for ref, a, c, m in re.findall(r"^(T\d+): (\d+) credits on (\w+) in (\w+)$", text, re.M)]
        if "mapping each month" in text:
            out: dict[str, Any] = {}
            for _, a, c, m in got:
                out.setdefault(m, {}).setdefault(c, 0)
                out[m][c] += a
            return out
        by2: dict[str, int] = {}
        for _, a, c, _m in got:
            by2[c] = by2.get(c, 0) + a
        res: dict[str, Any] = {"total": sum(a for _, a, _, _ in got), "by_category": by2}
        if "largest_ref" in text:
            res["largest_ref"] = max(got, key=lambda t: t[1])[0]
        return res

    meta = {"family": "ledger", "why": "sums computed per category (and per month for hard rows)"}
    return prompt, answer, meta, reread


def make_tree(rng: random.Random, difficulty: str) -> tuple[str, Any, dict, Callable[[str], Any]]:
    depth = {"easy": 1, "medium": 2, "hard": 3}[difficulty]
    used: set[str] = set()

    def fresh() -> str:
        while True:
            w = word(rng, 2)
            if w not in used:
                used.add(w)
                return w

    def build(level: int) -> dict:
        node = {"name": fresh(), "children": []}
        if level < depth:
            for _ in range(rng.randrange(1, 4) if level else rng.randrange(2, 4)):
                node["children"].append(build(level + 1))
        return node

    root = build(0)
    lines: list[str] = []

    def render(node: dict, indent: int) -> None:
        lines.append("  " * indent + "- " + node["name"])
        for child in node["children"]:
            render(child, indent + 1)

    render(root, 0)
    prompt = (
        "Outline (two spaces per level):\n"
        + "\n".join(lines)
        + f"\n\nTurn this {len(lines)}-entry outline into nested JSON.\n"
        + 'Each entry becomes {"name": "...", "children": [...]}.\n'
        + "Keep children in outline order and give entries without children an empty list.\n"
        + f"Reply with the object of {root['name']} only."
    )

    def reread(text: str) -> Any:
        stack: list[tuple[int, dict]] = []
        top = None
        for ln in text.splitlines():
            m = re.match(r"^( *)- (\w+)$", ln)
            if not m:
                continue
            level = len(m.group(1)) // 2
            node = {"name": m.group(2), "children": []}
            while stack and stack[-1][0] >= level:
                stack.pop()
            if stack:
                stack[-1][1]["children"].append(node)
            else:
                top = node
            stack.append((level, node))
        return top

    meta = {"family": "tree", "nodes": len(lines), "why": "the outline's indentation defines the nesting"}
    return prompt, root, meta, reread


ESCAPE_PIECES = [
    'the sign read "{w}"',
    "path C:\\{w}\\new\\{v}",
    "tab\\t{w} stays literal",
    "naïve {w} café",
    "{w} said: \"don't\"",
    "50% of {w}/{v}",
    "Grüße aus {W}",
    "curly {{{w}}} braces",
    "back\\slash {w}",
    "emoji-free ★ {w}",
]


def make_escape(rng: random.Random, difficulty: str) -> tuple[str, Any, dict, Callable[[str], Any]]:
    k = {"easy": 1, "medium": 2, "hard": 3}[difficulty]
    pieces = rng.sample(ESCAPE_PIECES[:4] if difficulty == "easy" else ESCAPE_PIECES, k)
    text = "; ".join(p.format(w=word(rng, 2), v=word(rng, 1), W=word(rng, 2).capitalize()) for p in pieces)
    key = rng.choice(("message", "note", "caption", "text"))
    if difficulty == "hard":
        n_chars = len(text)
        prompt = (
            f"Between the two >>> and <<< markers below is one line of text (the markers are not part of it).\n>>>{text}<<<\n\n"
            f'Reply with a JSON object {{"{key}": "<the text exactly>", "length": N}} where length is its number of characters. '
            "Every character, backslash and quote must survive, so escape them as JSON requires."
        )
        answer: Any = {key: text, "length": n_chars}
    else:
        prompt = (
            f"Between the two >>> and <<< markers below is one line of text (the markers are not part of it).\n>>>{text}<<<\n\n"
            f'Reply with the JSON object {{"{key}": "<the text exactly>"}}. Every character, backslash and quote must survive, so escape them as JSON requires.'
        )
        answer = {key: text}

    def reread(prompt_text: str) -> Any:
        got = re.search(r"^>>>(.*)<<<$", prompt_text, re.M).group(1)
        k2 = re.search(r'\{"(\w+)": "<the text exactly>"', prompt_text).group(1)
        return {k2: got, "length": len(got)} if '"length"' in prompt_text else {k2: got}

    meta = {"family": "escape", "why": "the string is copied verbatim; backslashes and quotes must be escaped in JSON"}
    return prompt, answer, meta, reread


def make_template(rng: random.Random, difficulty: str) -> tuple[str, Any, dict, Callable[[str], Any]]:
    name = person(rng)
    city = place(rng)
    year = rng.randrange(1950, 2010)
    tickets = rng.randrange(1, 9)
    price = rng.randrange(12, 90)
    member = rng.random() < 0.5
    tags = rng.sample(["aisle", "window", "quiet", "early", "late", "front", "back"], 2)
    values = {"NAME": name, "CITY": city, "YEAR": year, "TICKETS": tickets, "PRICE": price, "MEMBER": member, "TAGS": tags}
    if difficulty == "easy":
        skeleton = '{"customer": <NAME>, "city": <CITY>, "tickets": <TICKETS>}'
        answer: Any = {"customer": name, "city": city, "tickets": tickets}
    elif difficulty == "medium":
        skeleton = '{"customer": {"name": <NAME>, "born": <YEAR>, "member": <MEMBER>}, "order": {"tickets": <TICKETS>, "unit_price": <PRICE>}}'
        answer = {"customer": {"name": name, "born": year, "member": member}, "order": {"tickets": tickets, "unit_price": price}}
    else:
        skeleton = '{"customer": {"name": <NAME>, "member": <MEMBER>}, "order": {"tickets": <TICKETS>, "total": <TICKETS x PRICE>, "seats": <TAGS>}, "city": <CITY>}'
        answer = {"customer": {"name": name, "member": member}, "order": {"tickets": tickets, "total": tickets * price, "seats": tags}, "city": city}
    facts = [
        f"The customer is {name}, born in {year}.",
        f"They live in {city}.",
        f"They bought {tickets} ticket{'s' if tickets != 1 else ''} at {price} credits each.",
        "They hold a membership card." if member else "They are not a member.",
        f"Seat preferences, in order: {tags[0]}, then {tags[1]}.",
    ]
    rng.shuffle(facts)
    prompt = (
        " ".join(facts)
        + f"\n\nFill this template for {name} and reply with the resulting JSON only:\n{skeleton}\n"
        f"Types for {name.split()[0]}'s record: names and cities are strings; counts, years and prices are integers.\n"
        "Membership is a boolean and preferences are a list of strings in order."
    )

    def reread(text: str) -> Any:
        sk = re.search(r"^\{.*\}$", text, re.M).group(0)
        vals = {
            "NAME": re.search(r"The customer is ([\w ]+), born", text).group(1),
            "YEAR": int(re.search(r"born in (\d+)", text).group(1)),
            "CITY": re.search(r"They live in (\w+)\.", text).group(1),
            "TICKETS": int(re.search(r"bought (\d+) ticket", text).group(1)),
            "PRICE": int(re.search(r"at (\d+) credits", text).group(1)),
            "MEMBER": "hold a membership card" in text,
            "TAGS": list(re.search(r"in order: (\w+), then (\w+)\.", text).groups()),
        }
        vals["TICKETS x PRICE"] = vals["TICKETS"] * vals["PRICE"]
        filled = re.sub(r"<([A-Z ]+(?:x [A-Z]+)?)>", lambda m: json.dumps(vals[m.group(1)]), sk)
        return json.loads(filled)

    meta = {"family": "template", "values": {k: v for k, v in values.items()}, "why": "placeholders filled from the stated facts; total = tickets x price"}
    return prompt, answer, meta, reread


FAMILIES: dict[str, Callable[[random.Random, str], tuple[str, Any, dict, Callable[[str], Any]]]] = {
    "record": make_record,
    "table": make_table,
    "config": make_config,
    "numbers": make_numbers,
    "ledger": make_ledger,
    "tree": make_tree,
    "escape": make_escape,
    "template": make_template,
}


def make_rows() -> list[dict]:
    rows: list[dict] = []
    seen: set[str] = set()
    for family, maker in FAMILIES.items():
        rng = random.Random(_lib.stable_seed(DATASET_ID, SEED, family))
        for difficulty, count in PER_FAMILY.items():
            made = 0
            while made < count:
                prompt, answer, meta, reread = maker(rng, difficulty)
                if prompt in seen:
                    continue
                # the proof: recompute the answer from the prompt text alone
                assert reread(prompt) == answer, (family, difficulty, prompt, answer, reread(prompt))
                assert json.loads(dump(answer)) == answer
                seen.add(prompt)
                made += 1
                rows.append(
                    {
                        "id": f"format-{len(rows) + 1:04d}",
                        "category": family,
                        "difficulty": difficulty,
                        "prompt": prompt,
                        "answer": answer,
                        "scorer": "json",
                        "meta": meta,
                    }
                )
    return rows


def generate(out: Path) -> None:
    rows = make_rows()
    _lib.assert_unique_text((r["id"], r["prompt"]) for r in rows)
    card = _lib.eval_dataset_json(
        dataset_id=DATASET_ID,
        description=(
            "Structured output scored by json: a record, table, config block, number list, "
            "ledger, outline, escaped string or template is turned into one JSON value of "
            "a shape the prompt pins exactly (keys, types, order)"
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        default_scorer="json",
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
