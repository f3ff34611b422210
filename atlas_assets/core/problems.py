"""Problems of declarative files, and the reports built from them.

- `SeverityReport`: the errors/warnings split shared by the validation reports (corpus,
  translation).
- `FileProblem`: one problem of a file: the file, the field (a dotted path), the message,
  the line when it is known; prints as one line, `<file>: <field>: <message> (line N)`.
- `read_document(path)`: a YAML or JSON file's content, or its problem.
- `validation_problems(path, error)`: a pydantic ValidationError as FileProblems.
- `validate_entries(path, data, model, field)` / `load_entries(path, model, field)`:
  validate a document whose `field` maps names to entries, leaving out the entries that do
  not validate (a bad name included); the Dagster load path uses it so one bad entry does
  not take the others with it.
- `Loaded`: the valid entries by name plus the problems of the rest.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Sequence, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")
P = TypeVar("P")

_PLAIN_PART = re.compile(r"[A-Za-z0-9_-]+")
_SHOWN_CHARS = 40


class SeverityReport:
    """Mixin for a report whose ``problems`` each carry ``severity`` "error" or "warning"."""

    problems: list[Any]

    @property
    def errors(self) -> list[Any]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Any]:
        return [p for p in self.problems if p.severity == "warning"]


@dataclass(frozen=True)
class FileProblem:
    """One problem of a file; `field` None for the file as a whole, `line` 1-based or None."""

    path: str
    field: str | None
    message: str
    line: int | None = None

    def __str__(self) -> str:
        text = f"{self.path}: {self.field}: {self.message}" if self.field else f"{self.path}: {self.message}"
        return f"{text} (line {self.line})" if self.line else text


@dataclass(frozen=True)
class Loaded(Generic[T, P]):
    """The entries of a source that validate, by name, and a problem for each that does not."""

    entries: dict[str, T]
    problems: list[P]

    @property
    def names(self) -> list[str]:
        return sorted(self.entries)


def read_document(path: str | Path) -> tuple[Any, list[FileProblem]]:
    """The parsed content of a .json (JSON) or other (YAML) file; or None and the one
    problem when it cannot be read, does not parse or is empty."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return None, [FileProblem(str(path), None, f"cannot read: {why}")]
    try:
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (ValueError, RecursionError, yaml.YAMLError) as exc:
        return None, [FileProblem(str(path), None, f"not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {exc}")]
    if data is None:
        return None, [FileProblem(str(path), None, "the file is empty")]
    return data, []


def show_part(part: Any) -> str:
    """A field-path part as printed: plain names as they are, anything else quoted (and
    cut), so `engines.'a|b'`, `engines.'x...y'` and a name with a newline stay one line."""
    text = str(part)
    if len(text) > _SHOWN_CHARS:
        return repr(text[:_SHOWN_CHARS]) + "…"
    return text if isinstance(part, int) or _PLAIN_PART.fullmatch(text) else repr(text)


def field_path(loc: Sequence[Any]) -> str:
    return ".".join(show_part(p) for p in loc)


def _document_node(path: str | Path) -> yaml.Node | None:
    try:
        return yaml.compose(Path(path).read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, ValueError, RecursionError, yaml.YAMLError):
        return None


def _line(node: yaml.Node | None, loc: Sequence[Any]) -> int | None:
    """The line of the deepest key of `loc` that the document has (a missing field: its parent's)."""
    line = None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(part)), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


def line_of(path: str | Path, loc: Sequence[Any]) -> int | None:
    """The line of field `loc` in a YAML (or JSON) file, or None."""
    return _line(_document_node(path), loc)


def validation_problems(path: str | Path, error: ValidationError) -> list[FileProblem]:
    """One FileProblem per error, with its line in the file when the file is YAML or JSON."""
    from atlas_assets.core.errors import validation_messages

    node = _document_node(path)
    problems = []
    for item, (field, message) in zip(error.errors(), validation_messages(error)):
        loc = tuple(item["loc"])
        if loc and loc[-1] == "[key]":  # a mapping key's own check: the field is that entry
            loc = loc[:-1]
        problems.append(FileProblem(str(path), field or "(top level)", message, _line(node, loc)))
    return problems


def validate_entries(path: str | Path, data: Any, model: type[M], field: str) -> tuple[M | None, list[FileProblem]]:
    """`data` validated against `model`, with the entries of mapping `field` that do not
    validate left out; and the problems. None when nothing of the document can be kept (a
    problem outside `field`'s entries, or what is left breaks a rule of the whole)."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        problems, errors = validation_problems(path, exc), exc.errors()
    entries = data.get(field) if isinstance(data, dict) else None
    if not isinstance(entries, dict) or any(len(e["loc"]) < 2 or e["loc"][0] != field for e in errors):
        return None, problems
    bad = {e["loc"][1] for e in errors}
    kept = {name: body for name, body in entries.items() if name not in bad}
    try:
        return model.model_validate({**data, field: kept}), problems
    except ValidationError:  # a rule over the whole mapping (e.g. "at least one"): nothing is kept
        return None, problems


def load_entries(path: str | Path, model: type[M], field: str) -> tuple[M | None, list[FileProblem]]:
    """`read_document` then `validate_entries`."""
    data, problems = read_document(path)
    return (None, problems) if problems else validate_entries(path, data, model, field)
