"""Read a small typed JSON document (a pydantic model) from a file, with one error shape.

`load_document(path, model, error)` returns the validated model (`parse_document` the same
for bytes already read), or raises `error` with a message that names the file and the field (``errata.json: errata.1.row: ...``); an
unreadable file, invalid UTF-8, malformed or absurdly nested JSON and a value the model
refuses all end that way, never as a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from atlas_assets.core.errors import validation_messages

__all__ = ["describe_validation", "load_document", "parse_document", "render_schema"]

M = TypeVar("M", bound=BaseModel)


def describe_validation(path: Path, error: ValidationError) -> str:
    """One line per problem: ``<path>: <field>: <message>``."""
    return "\n".join(f"{path}: {field + ': ' if field else ''}{message}" for field, message in validation_messages(error))


def render_schema(model: type[BaseModel], schema_id: str) -> bytes:
    """The published JSON Schema of `model`: draft 2020-12, `$id` = its path in the repo,
    sorted keys, 2-space indent, one trailing LF (so a drift check compares bytes)."""
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": schema_id, **model.model_json_schema()}
    return (json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def load_document(path: str | Path, model: type[M], error: type[Exception]) -> M:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise error(f"{path}: not readable JSON: {exc}") from None
    return parse_document(path, data, model, error)


def parse_document(path: str | Path, data: bytes, model: type[M], error: type[Exception]) -> M:
    """`data` (the bytes of the document `path` names) validated as `model`."""
    try:
        loaded = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise error(f"{path}: not readable JSON: {why}") from None
    try:
        return model.model_validate(loaded)
    except ValidationError as exc:
        raise error(describe_validation(Path(path), exc)) from None
