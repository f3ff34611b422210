"""The errors a user can cause, and the one way they are worded.

`AtlasError` is the base of every error that means "what you gave is wrong" (a file, an
option, a dump, a corpus, an engine that cannot be reached): the command lines print
`str(error)` as one `<prog>: error: ...` line and exit 1 (core/shell.py); Dagster fails the
step with the same text. Each domain keeps its own subclass (DumpError, ConfigError,
CorpusError, ...) so callers can catch one kind; each also stays a ValueError where it was
one, so older `except ValueError` callers keep working.

`located(...)` is the one shape of a message that points into the input:

    --votes: votes.jsonl:12: field 'weight': must be > 0

(the option, the file, the 1-based line, the field, then the message; each part only when
known). `validation_messages(error)` is the one reading of a pydantic ValidationError:
(field path, message) pairs with the same wording everywhere.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["AtlasError", "located", "validation_messages"]


class AtlasError(Exception):
    """A problem with what the user gave; `str()` is the complete message, naming the
    option, file, line and field it concerns."""


def located(message: str, *, option: str | None = None, path: str | None = None, line: int | None = None, field: str | None = None) -> str:
    """`[option: ][path[:line]: ][field 'f': ]message`."""
    where = "" if path is None else (f"{path}:{line}: " if line is not None else f"{path}: ")
    what = f"field '{field}': {message}" if field else message
    return f"{option + ': ' if option else ''}{where}{what}"


def _shown(value: Any, limit: int = 40) -> str:
    return repr(str(value)[:limit])


def validation_messages(error: Any, prefix: Sequence[Any] = ()) -> list[tuple[str, str]]:
    """(field, message) for each problem of a pydantic ValidationError, the field a dotted
    path (`prefix` + its location; "" for the document itself). A missing field says
    "required field is missing", an unknown one "unknown field (not in the schema)", a wrong
    type names the type it got; validator messages lose pydantic's "Value error, "."""
    from atlas_assets.core.problems import field_path

    out = []
    for item in error.errors(include_url=False):
        loc = tuple(item["loc"])
        if loc and loc[-1] == "[key]":  # a mapping key's own check: the field is that entry
            loc = loc[:-1]
        kind, message = item["type"], item["msg"]
        if kind == "missing":
            message = "required field is missing"
        elif kind == "extra_forbidden":
            message = "unknown field (not in the schema)"
        elif kind.endswith("_type") and "input" in item:
            message = f"{message} (got {type(item['input']).__name__}: {_shown(item['input'])})"
        out.append((field_path((*prefix, *loc)), message.removeprefix("Value error, ")))
    return out
