"""Facts about an artifact, in the order a reader wants them, with no Dagster import.

Domain code describes what a user should read first (accuracy with its interval, a
breakdown table, the first wrong rows) as an ordered list of `Fact`s; the Dagster shell
turns each into the matching metadata value (`orchestration.shell.metadata`), and the CLI
can print the same list. `kind` says how to show the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

FactKind = Literal["int", "float", "text", "md", "json", "path", "url"]


@dataclass(frozen=True)
class Fact:
    key: str
    value: Any
    kind: FactKind = "text"


def fact(key: str, value: Any, kind: FactKind | None = None) -> Fact:
    """A fact whose kind follows from the value unless given (bool/int -> int, float -> float,
    dict/list -> json, anything else -> text)."""
    if kind is None:
        if isinstance(value, bool | int):
            kind = "int"
        elif isinstance(value, float):
            kind = "float"
        elif isinstance(value, dict | list):
            kind = "json"
        else:
            kind = "text"
    return Fact(key, value, kind)
