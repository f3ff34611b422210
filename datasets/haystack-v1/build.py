# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""haystack-v1: the reference builder of the needle-in-a-haystack documents.

haystack-v1 stores recipes, not text. Given a recipe (seed, target_tokens, needles) this
module rebuilds the exact document, following the seven normative steps of
datasets.md "The haystack algorithm":

1. budget = target_tokens * 4 (the chars/4 token heuristic);
2. rng = random.Random(seed);
3. needle_chars = sum(len(text) + 13 + 1) over the needles (13 == len("Line 000000: "));
4. generate filler sentences one at a time -- rng.choice(TEMPLATES), then fill its slots
   left to right, one rng call each -- stopping as soon as
   filler_chars + needle_chars >= budget, counting each line as 13 + len(sentence) + 1;
5. insert the needles sorted by depth ascending: needle j (0-based) goes to index
   round(depth_j * F) + j, F the number of filler lines, clamped to [0, len(lines)];
6. number every line from 1: f"Line {i:06d}: {sentence}";
7. join with "\\n", no trailing newline.

Two implementations agree exactly when they produce the same SHA-256 of the UTF-8
document. Standard library only, so bench/ and the harness can import it directly
(`atlas_assets.corpus.longctx` loads it by path).

    python datasets/haystack-v1/build.py --verify          # rebuild every row, check sha256
    python datasets/haystack-v1/build.py --print hay-8k-d50  # write one document to stdout
"""


import hashlib
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

ALGORITHM = "haystack-v1"
CHARS_PER_TOKEN = 4
LINE_PREFIX_CHARS = 13  # len("Line 000000: ")

PREAMBLE = (
    "The document below is made of numbered lines. One or more of its lines state facts "
    "that the question after the document asks about. Read the whole document, then "
    "answer the question exactly as it asks."
)

# Filler vocabulary: calm, timeless, digit-free observations that never mention codes,
# vaults or numbers, so no filler line can be mistaken for a needle.
_SLOTS: dict[str, tuple[str, ...]] = {
    "creature": (
        "heron", "badger", "wren", "stoat", "hare", "moth", "newt", "kestrel", "beetle",
        "vole", "magpie", "salamander", "dragonfly", "lizard", "tortoise", "finch",
        "hedgehog", "cricket", "swallow", "toad",
    ),
    "place": (
        "the reed bed", "the old orchard", "the mill pond", "the hedgerow", "the gravel path",
        "the chalk slope", "the stone bridge", "the birch grove", "the quiet harbour",
        "the barley field", "the cedar lane", "the pebble beach", "the marsh edge",
        "the sheep meadow", "the ruined wall", "the fern gully", "the lantern square",
        "the willow bank", "the pine ridge", "the clay quarry",
    ),
    "motion": (
        "drifts", "wanders", "pauses", "lingers", "settles", "circles", "hurries",
        "rests", "turns", "waits", "glides", "shuffles", "climbs", "dozes", "listens",
    ),
    "time": (
        "at dawn", "before the rain", "after the tide turns", "in the late afternoon",
        "when the wind drops", "under a pale sky", "as the bells fade", "through the mist",
        "during the thaw", "near dusk", "while the kettle cools", "as the frost lifts",
        "under the first stars", "in the long shadows", "after the harvest",
    ),
    "person": (
        "the ferryman", "a potter", "the baker", "an old shepherd", "the clockmaker",
        "a weaver", "the lighthouse keeper", "a cartographer", "the beekeeper",
        "a glassblower", "the miller", "a bookbinder", "the gardener", "a fisherwoman",
        "the carpenter", "a violin maker", "the postmistress", "a stonemason",
    ),
    "action": (
        "mends a torn net", "sorts dried beans", "sketches the skyline", "sweeps the steps",
        "polishes a brass lamp", "stacks cut firewood", "hums a slow tune",
        "counts the sparrows", "waters the geraniums", "folds linen sheets",
        "tunes a battered lute", "oils the creaking gate", "reads a faded letter",
        "plants onion sets", "braids a willow basket", "carves a wooden spoon",
        "checks the weather vane", "rinses clay from the wheel", "winds a tall clock",
    ),
    "thing": (
        "the copper kettle", "a woollen scarf", "the cracked teapot", "a jar of honey",
        "the painted shutter", "a coil of rope", "the iron anchor", "a basket of pears",
        "the faded map", "a lantern", "the rusty bicycle", "a loaf of rye bread",
        "the blue umbrella", "a pair of boots", "the wicker chair", "a bundle of reeds",
        "the chipped bowl", "a spool of thread",
    ),
    "state": (
        "smells faintly of smoke", "gleams in the low light", "leans against the fence",
        "sits forgotten on the sill", "sways in the breeze", "gathers a little dust",
        "catches the morning sun", "looks older than it is", "waits by the door",
        "creaks when touched", "shows a patch of moss", "feels cool to the touch",
        "hangs from a hook", "has lost its lid", "still holds some warmth",
    ),
    "sound": (
        "a distant bell", "the patter of rain", "a gull's cry", "the hiss of the kettle",
        "a cart on cobbles", "the rustle of leaves", "a dog barking far off",
        "the slap of oars", "a door closing", "wind in the chimney", "the murmur of a stream",
        "footsteps on gravel", "a crow's complaint", "the tick of a clock",
    ),
    "mood": (
        "calm", "gentle", "drowsy", "content", "watchful", "quiet", "thoughtful",
        "patient", "sleepy", "hushed", "mild", "still",
    ),
}

_TEMPLATE_TEXT: tuple[str, ...] = (
    "A {creature} {motion} by {place} {time}.",
    "{person} {action} near {place} {time}.",
    "Over by {place}, {thing} {state}.",
    "{person} hears {sound} and {action}.",
    "The afternoon feels {mood} while a {creature} {motion} along {place}.",
    "Somewhere past {place}, {thing} {state} and {sound} carries on the air.",
    "{time}, {person} {action} and the day stays {mood}.",
    "Nobody minds that {thing} {state}; a {creature} {motion} nearby.",
    "It is {mood} at {place}, where {person} {action}.",
    "From {place} comes {sound}, and a {creature} {motion} {time}.",
    "{person} notices that {thing} {state} {time}.",
    "The path to {place} is {mood}, and {sound} drifts across it.",
    "Beside {thing}, a {creature} {motion} until {sound} breaks the silence.",
    "{person} says the evening will be {mood}, then {action}.",
    "Every so often {sound} reaches {place}, and {person} {action}.",
    "A {mood} {creature} {motion} beneath {thing} {time}.",
)

_SLOT_RE = re.compile(r"\{([a-z]+)\}")


def _compile(template: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    pieces = _SLOT_RE.split(template)
    literals = tuple(pieces[0::2])
    slots = tuple(_SLOTS[name] for name in pieces[1::2])
    return literals, slots


TEMPLATES: tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], ...] = tuple(
    _compile(t) for t in _TEMPLATE_TEXT
)


def _capitalise(sentence: str) -> str:
    return sentence[0].upper() + sentence[1:]


@dataclass(frozen=True)
class Haystack:
    """A rebuilt document and what a row records about it."""

    document: str
    line_numbers: tuple[int, ...]  # 1-based, in the recipe's needle order
    sha256: str
    chars: int
    lines: int
    approx_tokens: int


def _needle_texts(needles: Sequence[Mapping[str, Any]]) -> list[tuple[float, str]]:
    out = []
    for needle in needles:
        depth = float(needle["depth"])
        text = needle["text"]
        if "\n" in text:
            raise ValueError(f"needle text must be one line: {text!r}")
        out.append((depth, text))
    return out


def build_lines(seed: int, target_tokens: int, needles: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[int]]:
    """Steps 1-6: the numbered lines and each needle's 1-based line number (recipe order)."""
    specs = _needle_texts(needles)
    budget = target_tokens * CHARS_PER_TOKEN  # step 1
    rng = random.Random(seed)  # step 2
    needle_chars = sum(len(text) + LINE_PREFIX_CHARS + 1 for _, text in specs)  # step 3

    # step 4: filler sentences, one template choice then one rng call per slot
    choice = rng.choice
    sentences: list[str] = []
    filler_chars = 0
    while filler_chars + needle_chars < budget:
        literals, slots = choice(TEMPLATES)
        parts = [literals[0]]
        for values, literal in zip(slots, literals[1:]):
            parts.append(choice(values))
            parts.append(literal)
        sentence = _capitalise("".join(parts))
        sentences.append(sentence)
        filler_chars += LINE_PREFIX_CHARS + len(sentence) + 1

    # step 5: needles sorted by depth ascending (stable for equal depths)
    filler_count = len(sentences)
    order = sorted(range(len(specs)), key=lambda i: specs[i][0])
    lines: list[str] = list(sentences)
    is_needle: list[int] = [-1] * len(lines)
    for j, original_index in enumerate(order):
        depth, text = specs[original_index]
        index = round(depth * filler_count) + j
        index = min(max(index, 0), len(lines))
        lines.insert(index, text)
        is_needle.insert(index, original_index)

    line_numbers = [0] * len(specs)
    for position, original_index in enumerate(is_needle):
        if original_index >= 0:
            line_numbers[original_index] = position + 1

    # step 6: number every line from 1
    numbered = [f"Line {i:06d}: {sentence}" for i, sentence in enumerate(lines, start=1)]
    return numbered, line_numbers


def build_document(seed: int, target_tokens: int, needles: Sequence[Mapping[str, Any]]) -> str:
    """Steps 1-7: the document text (joined with LF, no trailing newline)."""
    numbered, _ = build_lines(seed, target_tokens, needles)
    return "\n".join(numbered)  # step 7


def document_sha256(document: str) -> str:
    return hashlib.sha256(document.encode("utf-8")).hexdigest()


def build(item: Mapping[str, Any]) -> Haystack:
    """Rebuild a recipe (a haystack-v1 row, or an eval row's meta.haystack)."""
    algorithm = item.get("algorithm", ALGORITHM)
    if algorithm != ALGORITHM:
        raise ValueError(f"recipe algorithm {algorithm!r} is not {ALGORITHM}")
    numbered, line_numbers = build_lines(int(item["seed"]), int(item["target_tokens"]), item["needles"])
    document = "\n".join(numbered)
    return Haystack(
        document=document,
        line_numbers=tuple(line_numbers),
        sha256=document_sha256(document),
        chars=len(document),
        lines=len(numbered),
        approx_tokens=-(-len(document) // CHARS_PER_TOKEN),
    )


def build_prompt(item: Mapping[str, Any], question: str | None = None) -> str:
    """What a long-context eval must send: PREAMBLE, the document, the question.

    `question` defaults to the item's own `question` (haystack-v1 rows carry one; an
    eval-longctx-v1 row's question is its `prompt`).
    """
    if question is None:
        question = item["question"]
    return PREAMBLE + "\n\n" + build(item).document + "\n\n" + question


def _rows(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=Path, default=Path(__file__).resolve().parent / "rows.jsonl")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--verify", action="store_true", help="rebuild every row and compare sha256")
    group.add_argument("--print", metavar="ID", help="write one row's document to stdout")
    args = parser.parse_args(argv)
    rows = _rows(args.rows)
    if args.print:
        for row in rows:
            if row["id"] == args.print:
                sys.stdout.write(build(row).document + "\n")
                return 0
        print(f"no row {args.print!r} in {args.rows}", file=sys.stderr)
        return 2
    bad = 0
    for row in rows:
        got = build(row).sha256
        if got != row["sha256"]:
            bad += 1
            print(f"{row['id']}: sha256 {got} != recorded {row['sha256']}", file=sys.stderr)
    print(f"{len(rows) - bad}/{len(rows)} haystack documents match their sha256")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
