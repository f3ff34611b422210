"""Needles for haystack-v1 and eval-longctx-v1 (standard library only).

A needle is one line stating a key -> five-digit value fact. Generators never type an
answer: they build the document with haystack-v1/build.py and read the answer back out of
it with `read_answer`, which also proves the key and the value occur exactly once.
"""

from __future__ import annotations

import hashlib
import importlib.util
import random
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent

# family -> (statement, question); "{key}" and "{value}" are filled in.
FAMILIES: dict[str, tuple[str, str]] = {
    "vault": (
        "The access code for the {key} vault is {value}.",
        "What is the access code for the {key} vault? Reply with the five-digit code only.",
    ),
    "serial": (
        "The serial number stamped on the {key} is {value}.",
        "What serial number is stamped on the {key}? Reply with the five-digit number only.",
    ),
    "locker": (
        "Locker {key} in the east corridor opens with the combination {value}.",
        "Which combination opens locker {key} in the east corridor? Reply with the five-digit combination only.",
    ),
}

KEYS: dict[str, tuple[str, ...]] = {
    "vault": (
        "amber", "cobalt", "crimson", "jade", "ivory", "saffron", "indigo", "scarlet",
        "teal", "violet", "ochre", "silver", "maroon", "olive", "bronze", "azure",
    ),
    "serial": (
        "brass telescope", "green typewriter", "walnut music box", "pewter compass",
        "enamel sewing machine", "oak barometer", "tin wind-up robot", "marble chess clock",
        "leather camera case", "cast-iron scale", "porcelain inkwell", "steel sextant",
    ),
    "locker": (
        "Amsel", "Brook", "Corvid", "Delphin", "Egret", "Fennel", "Garnet", "Hollis",
        "Ibex", "Juniper", "Karst", "Larkspur",
    ),
}


def load_builder(datasets_root: Path | None = None) -> ModuleType:
    """Import haystack-v1/build.py by path (its folder name is not a Python identifier)."""
    root = datasets_root or HERE.parent
    path = root / "haystack-v1" / "build.py"
    name = "_haystack_v1_build_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def make_needles(rng: random.Random, family: str, count: int, depths: list[float]) -> list[dict[str, Any]]:
    """`count` needles of one family with distinct keys and distinct five-digit values."""
    statement, _ = FAMILIES[family]
    keys = rng.sample(KEYS[family], count)
    values = rng.sample(range(10000, 100000), count)
    return [
        {"depth": depth, "text": statement.format(key=key, value=value), "key": key}
        for depth, key, value in zip(depths, keys, values)
    ]


def question_for(family: str, key: str) -> str:
    return FAMILIES[family][1].format(key=key)


def read_answer(document: str, family: str, key: str) -> tuple[str, int]:
    """Prove the answer from the built document: the one line stating `key`, its value.

    Returns (value, 1-based line number). Raises AssertionError unless the key occurs
    exactly once in the whole document (so no filler line or other needle mentions it),
    its line is exactly "Line NNNNNN: <statement>", and the value occurs exactly once
    outside the zero-padded line prefixes.
    """
    statement = FAMILIES[family][0]
    head = statement.split("{value}")[0].format(key=key)
    mentions = document.count(key)
    assert mentions == 1, f"key {key!r} occurs {mentions} times"
    at = document.find(head)
    assert at >= 0, f"no line states {head!r}"
    line = document[document.rfind("\n", 0, at) + 1 : (document.find("\n", at) + 1 or len(document) + 1) - 1]
    pattern = r"Line (\d{6}): " + re.escape(statement).replace(r"\{key\}", re.escape(key)).replace(r"\{value\}", r"(\d{5})")
    match = re.fullmatch(pattern, line)
    assert match, f"line {line!r} is not the statement for {key!r}"
    line_number, value = int(match.group(1)), match.group(2)
    # line prefixes are zero-padded to six digits, so " <five digits>" never matches one
    occurrences = document.count(" " + value)
    assert occurrences == 1, f"value {value} occurs {occurrences} times"
    return value, line_number
