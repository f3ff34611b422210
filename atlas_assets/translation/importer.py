"""Import a corpus-like file -- JSON, CSV or TSV, difficulty given as labels such as
Easy/Medium/Hard -- into a translation corpus (specs/rosetta-eval-datasets.md).

Input
* JSON: the spec's `{"dataset": {...}, "entries": [...]}` (its block is kept; options
  override its fields) or a bare list of entry objects.
* CSV / TSV: a header row, then one entry per row; UTF-8 with or without a BOM; a quoted
  field (in TSV too) may hold delimiters, doubled quotes and line breaks; a stray or
  unclosed quote is an error, as is a field longer than Python's csv field size limit
  (csv.field_size_limit(), 131072 characters unless raised), named as such. An empty cell is an absent value; rows whose cells are all
  empty are skipped. The file is read row by row.

Names: columns (JSON keys) are the entry fields' names, matched after stripping, ignoring
case; `references` (a multi-target corpus's {tag: text}, with a JSON block's `targets`) only
from JSON: a CSV/TSV row gives one `reference`. `--column FIELD=NAME` reads a field from a differently named column
(`--column source=english,reference=cree`); `--ignore-column NAME` drops one. Any other
name is an error: a typo must not lose a column silently.

Difficulty: with `--difficulty-map easy=1,medium=3,hard=5` every value is a label, looked
up stripped and ignoring case; a value not in the map is an error, an integer included
(list it to keep it: `3=3`). Without a map every value must be an integer tier. The map is
explicit because the tiers are the run cards' breakdown axis: which tier one dataset's
"Medium" is, is a judgement for the person importing it, not a default.

Ids: kept when given (an integer or the text of one: CSV cells are text); a file without
an id column (JSON: no entry with an `id`) is numbered 1..N in file order.
Provenance, register and context come from the file; an entry without one (no column or
key, an empty cell) gets --default-provenance/--default-register/--default-context when
given, and is an error otherwise: nothing is invented.
Dataset block: the options (over a JSON file's block); `version` defaults to 1.0,
`created` to today, `language_pair` to SRC→TGT from the tags (en, crk: EN→CRK) and
`provenance` to the entries' tags (sorted).

Every problem is reported, each naming the file, the field and the row: `(line N)`, the
line where a CSV/TSV row starts, or the entry's path in a JSON file (`entries.3.difficulty`).
The result is checked by `schema.validate_data`, the same rules as `atlas translation validate`.
"""

from __future__ import annotations

import csv
import datetime as _dt
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, BinaryIO, Iterable, Literal, Optional, get_args

import orjson
from pydantic import BaseModel, ConfigDict, Field, field_validator

from atlas_assets.core.problems import FileProblem, field_path
from atlas_assets.translation.schema import Corpus, DatasetBlock, Entry, validate_data

__all__ = [
    "DATASET_OPTIONS",
    "DEFAULTABLE",
    "FORMATS",
    "DatasetFields",
    "ImportOptions",
    "ImportResult",
    "document",
    "entry_fields",
    "format_of",
    "import_corpus",
    "option_flag",
    "parse_columns",
    "parse_difficulty_map",
]

Format = Literal["json", "csv", "tsv"]
FORMATS: tuple[str, ...] = get_args(Format)
_EXTENSIONS = {".json": "json", ".csv": "csv", ".tsv": "tsv", ".tab": "tsv"}
_DIALECTS = {"csv": "excel", "tsv": "excel-tab"}
ENTRY_FIELDS: tuple[str, ...] = tuple(Entry.model_fields)
# A CSV/TSV cell is text: `references` ({tag: text}, a multi-target corpus's) comes from JSON only.
_CELL_FIELDS: tuple[str, ...] = tuple(name for name in ENTRY_FIELDS if name != "references")
Defaultable = Literal["provenance", "register", "context"]  # entry fields an option may fill
DEFAULTABLE: tuple[str, ...] = get_args(Defaultable)
_SHOWN_LABELS = 20
_INTEGER = re.compile(r"-?[0-9]{1,18}")  # int() of a longer string may refuse (sys.set_int_max_str_digits)
_REQUIRED: tuple[str, ...] = tuple(n for n, f in Entry.model_fields.items() if f.is_required() and n != "id")

# The dataset block's fields (all of them, in DatasetBlock's order) with their options'
# help; the flag is option_flag(field).
DATASET_OPTIONS: dict[str, str] = {
    "id": "dataset id, a slug (e.g. edtekla-dev-v1)",
    "version": "semantic version (default: the file's, else 1.0)",
    "language_pair": "display label (default SRC→TGT from the tags, e.g. EN→CRK)",
    "description": "human-readable summary",
    "source_language": "BCP 47 source tag, e.g. en",
    "target_language": "BCP 47 target tag, e.g. crk",
    "created": "ISO 8601 date (default: the file's, else today)",
    "license": "SPDX licence identifier, e.g. CC-BY-NC-SA-4.0",
    "provenance": "the block's provenance tags, comma-separated (default: the entries' tags)",
}


def entry_fields(fmt: str) -> tuple[str, ...]:
    """The entry fields a file of this format can give (its columns or keys, --column)."""
    return ENTRY_FIELDS if fmt == "json" else _CELL_FIELDS


def option_flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _fold(name: str) -> str:
    return name.strip().casefold()


# ---------------------------------------------------------------- options


class DatasetFields(BaseModel):
    """Dataset-block values given as options (None: not given); validated with the corpus."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Optional[str] = None
    version: Optional[str] = None
    language_pair: Optional[str] = None
    description: Optional[str] = None
    source_language: Optional[str] = None
    target_language: Optional[str] = None
    created: Optional[str] = None
    license: Optional[str] = None
    provenance: Optional[list[str]] = None

    @field_validator("provenance", mode="before")
    @classmethod
    def _tags(cls, value: Any) -> Any:
        return [tag.strip() for tag in value.split(",")] if isinstance(value, str) else value


class ImportOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Optional[Format] = Field(None, description="default: from the file's extension")
    difficulty_map: Optional[dict[str, Annotated[int, Field(ge=1, le=5)]]] = Field(None, description="label -> tier (parse_difficulty_map)")
    columns: dict[str, str] = Field(default_factory=dict, description="entry field -> the column (JSON key) holding it")
    ignore_columns: tuple[str, ...] = ()
    dataset: DatasetFields = Field(default_factory=DatasetFields)
    defaults: dict[Defaultable, str] = Field(default_factory=dict, description="for the entries without the field")

    @field_validator("difficulty_map")
    @classmethod
    def _folded(cls, value: dict[str, int] | None) -> dict[str, int] | None:
        return None if value is None else {_fold(label): tier for label, tier in value.items()}


def parse_difficulty_map(text: str) -> dict[str, int]:
    """`easy=1,medium=3,hard=5` -> {"easy": 1, "medium": 3, "hard": 5}; ValueError when malformed."""
    mapping: dict[str, int] = {}
    for item in text.split(","):
        label, sep, tier = item.rpartition("=")
        key = _fold(label)
        if not sep or not key:
            raise ValueError(f"{item.strip()!r} is not LABEL=TIER (e.g. easy=1,medium=3,hard=5)")
        if tier.strip() not in {"1", "2", "3", "4", "5"}:
            raise ValueError(f"{item.strip()!r}: the tier must be an integer 1-5")
        if key in mapping:
            raise ValueError(f"label {label.strip()!r} is given twice (labels are compared ignoring case)")
        mapping[key] = int(tier)
    return mapping


def parse_columns(items: Iterable[str], fields: tuple[str, ...] = ENTRY_FIELDS) -> dict[str, str]:
    """`source=english,reference=cree` (one or more items) -> {field: column}, each a field of
    `fields` (entry_fields(format)); ValueError when malformed."""
    columns: dict[str, str] = {}
    for item in (part for text in items for part in text.split(",")):
        name, sep, column = item.partition("=")
        name = name.strip()
        if not sep or not column.strip():
            raise ValueError(f"{item.strip()!r} is not FIELD=COLUMN (e.g. source=english)")
        if name not in fields:
            raise ValueError(f"{name!r} is not an entry field ({', '.join(fields)})")
        if name in columns:
            raise ValueError(f"field {name} is mapped twice")
        if _fold(column) in {_fold(c) for c in columns.values()}:
            raise ValueError(f"column {column.strip()!r} is mapped to two fields")
        columns[name] = column.strip()
    return columns


def format_of(path: str | Path, given: str | None = None) -> str:
    if given:
        return given
    suffix = Path(path).suffix.lower()
    if suffix not in _EXTENSIONS:
        raise ValueError(f"{path}: cannot tell the format from the extension {suffix or '(none)'!r}: give --format {'|'.join(FORMATS)}")
    return _EXTENSIONS[suffix]


# ---------------------------------------------------------------- reading


@dataclass
class _Row:
    """One input entry: where it is (JSON path or CSV line), its values by entry field, and
    whether it could not be read as an entry at all (then it is left out of the check)."""

    loc: tuple[Any, ...]
    line: int | None
    values: dict[str, Any] = field(default_factory=dict)
    broken: bool = False


@dataclass
class _Problems:
    """Every problem, the file's first, then by row; a field named once per row, and a
    field missing from the whole file named once for the file."""

    path: str
    file: list[FileProblem] = field(default_factory=list)
    rows: dict[int, list[FileProblem]] = field(default_factory=dict)
    reported: set[tuple[int, str]] = field(default_factory=set)
    missing: set[str] = field(default_factory=set)

    def at_file(self, fld: str | None, message: str, line: int | None = None) -> None:
        self.file.append(FileProblem(self.path, fld, message, line))

    def at_row(self, position: int, row: _Row, fld: str | None, message: str) -> None:
        if fld is not None:
            if (position, fld) in self.reported or fld in self.missing:
                return
            self.reported.add((position, fld))
        where = field_path((*row.loc, fld) if fld else row.loc) or fld
        self.rows.setdefault(position, []).append(FileProblem(self.path, where, message, row.line))

    def all(self) -> list[FileProblem]:
        return self.file + [p for position in sorted(self.rows) for p in self.rows[position]]


class _Names:
    """Input column / key names -> entry fields, per the options."""

    def __init__(self, options: ImportOptions, fields: tuple[str, ...]):
        self.fields = fields
        self.by_column = {_fold(c): f for f, c in options.columns.items()}
        self.mapped = set(options.columns)
        self.ignored = {_fold(c) for c in options.ignore_columns}

    def field(self, name: str) -> str | None:
        """The entry field, "" for an ignored name, None for an unknown one."""
        key = _fold(name)
        if key in self.ignored:
            return ""
        if key in self.by_column:
            return self.by_column[key]
        return key if key in self.fields and key not in self.mapped else None

    def unknown(self, name: str) -> str:
        return (f"{name.strip()!r} is not an entry field ({', '.join(self.fields)}): map it with --column FIELD={name.strip()} "
                f"or drop it with --ignore-column {name.strip()}")  # fmt: skip

    def not_found(self, seen: set[str]) -> list[str]:
        """The --column mappings whose column is none of the (folded) names seen."""
        return [f"--column {f}={c}" for c, f in self.by_column.items() if c not in seen]


def _read_json(path: Path, names: _Names, problems: _Problems) -> tuple[dict[str, Any], list[_Row], dict[str, Any]]:
    """(the file's dataset block, its rows, its other top-level fields)."""
    try:
        data = orjson.loads(path.read_bytes().removeprefix(b"\xef\xbb\xbf"))
    except OSError as exc:
        problems.at_file(None, f"cannot read: {exc.strerror or exc}")
        return {}, [], {}
    except orjson.JSONDecodeError as exc:
        problems.at_file(None, f"not valid JSON: {exc}")
        return {}, [], {}
    prefix: tuple[str, ...]
    if isinstance(data, list):
        block, entries, prefix, rest = {}, data, (), {}
    elif isinstance(data, dict) and isinstance(data.get("entries"), list):
        block, entries, prefix = data.get("dataset", {}), data["entries"], ("entries",)
        rest = {k: v for k, v in data.items() if k not in ("dataset", "entries")}
        if not isinstance(block, dict):
            problems.at_file("dataset", f"must be an object, got {type(block).__name__}")
            block = {}
    else:
        problems.at_file(None, "expected a list of entry objects, or an object with an `entries` list (and a `dataset` block)")
        return {}, [], {}
    rows: list[_Row] = []
    unknown: dict[str, list[str]] = {}  # key -> the entries having it
    seen: set[str] = set()
    for index, raw in enumerate(entries):
        row = _Row((*prefix, index), None)
        rows.append(row)
        if not isinstance(raw, dict):
            row.broken = True
            problems.at_row(index, row, None, f"an entry must be an object, got {type(raw).__name__}")
            continue
        for key, value in raw.items():
            seen.add(_fold(key))
            name = names.field(key)
            if name is None:
                unknown.setdefault(key, []).append(field_path(row.loc))
            elif name in row.values:
                problems.at_row(index, row, name, f"two keys give field {name} (names are compared ignoring case; check --column)")
            elif name:
                row.values[name] = value
    for key, where in unknown.items():
        problems.at_file(None, f"key {names.unknown(key)} (in {len(where)} entr{'y' if len(where) == 1 else 'ies'}, first {where[0]})")
    for option in names.not_found(seen):
        problems.at_file(None, f"{option}: no entry has that key")
    return block, rows, rest


class _Utf8Lines:
    """The lines of a binary file decoded one by one (a BOM dropped), so that a byte that is
    not UTF-8 is named by its line."""

    def __init__(self, handle: BinaryIO):
        self._handle = handle
        self.line = 0

    def __iter__(self) -> _Utf8Lines:
        return self

    def __next__(self) -> str:
        raw = next(self._handle)
        self.line += 1
        return (raw.removeprefix(b"\xef\xbb\xbf") if self.line == 1 else raw).decode("utf-8")


def _read_delimited(path: Path, fmt: str, names: _Names, problems: _Problems) -> tuple[list[_Row], set[str]]:
    """(the rows, the fields that have a column), streaming the file; no rows when the
    header is unusable."""
    rows: list[_Row] = []
    fields: list[str] | None = None
    try:
        handle = open(path, "rb")
    except OSError as exc:
        problems.at_file(None, f"cannot read: {exc.strerror or exc}")
        return [], set()
    with handle:
        lines = _Utf8Lines(handle)
        reader = csv.reader(lines, dialect=_DIALECTS[fmt], strict=True)
        while True:
            start = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                break
            except UnicodeDecodeError as exc:
                problems.at_file(
                    None, f"not UTF-8: {exc.reason} at byte {exc.start + 1} of the line; nothing after it was read", lines.line
                )
                break
            except csv.Error as exc:
                if str(exc).startswith("field larger than field limit"):  # _csv's message for csv.field_size_limit()
                    past = f" (by line {lines.line})" if lines.line != start else ""
                    problems.at_file(None, f"a field of the row starting here is longer than Python's csv field size limit, {csv.field_size_limit()} "
                                     f"characters{past}; nothing after it was read", start)  # fmt: skip
                else:
                    problems.at_file(
                        None,
                        f"not valid {fmt.upper()} in the row starting here (a stray or unclosed quote?): {exc}; nothing after it was read",
                        start,
                    )
                break
            if not any(cells):
                continue
            if fields is None:
                fields = _header_fields(cells, start, names, problems)
                if fields is None:
                    return [], set()
                continue
            row = _Row((), start)
            rows.append(row)
            if len(cells) != len(fields):
                row.broken = True
                problems.at_row(
                    len(rows) - 1,
                    row,
                    None,
                    f"the row has {len(cells)} field(s), the header {len(fields)} (an unquoted delimiter or line break, or a missing field?)",
                )
                continue
            row.values = {name: cell for name, cell in zip(fields, cells) if name and cell != ""}
    if fields is None:
        if not problems.file:
            problems.at_file(None, "the file is empty: expected a header row naming the columns")
        return [], set()
    return rows, {f for f in fields if f}


def _header_fields(header: list[str], line: int, names: _Names, problems: _Problems) -> list[str] | None:
    """The entry field of each column ("" when ignored); None (and the problems) when the header is unusable."""
    fields: list[str] = []
    first: dict[str, int] = {}
    before = len(problems.file)
    for number, name in enumerate(header, 1):
        field_name = names.field(name)
        if not name.strip():
            problems.at_file(None, f"column {number} has no name", line)
        elif _fold(name) in first:
            problems.at_file(
                None,
                f"column {name.strip()!r} appears twice (columns {first[_fold(name)]} and {number}; names are compared ignoring case)",
                line,
            )
        elif field_name is None:
            problems.at_file(None, f"column {names.unknown(name)}", line)
        first.setdefault(_fold(name), number)
        fields.append(field_name or "")
    for option in names.not_found(set(first)):
        problems.at_file(None, f"{option}: no such column (columns: {', '.join(c.strip() for c in header)})", line)
    return None if len(problems.file) > before else fields


# ---------------------------------------------------------------- converting


def _integer(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        return int(value.strip())
    return None


def _label(value: Any) -> str | None:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _map_text(mapping: dict[str, int]) -> str:
    return ",".join(f"{k}={v}" for k, v in mapping.items())


def _convert(rows: list[_Row], options: ImportOptions, has_ids: bool, problems: _Problems) -> None:
    """Ids and difficulty tiers, in place; a value that cannot be converted is named and left out."""
    ids: dict[int, _Row] = {}
    unmapped: list[tuple[int, _Row, str]] = []
    labels: dict[str, None] = {}  # every difficulty value seen, in order
    dmap = options.difficulty_map
    for position, row in enumerate(rows):
        values = row.values
        if not has_ids:
            values["id"] = position + 1
        elif "id" in values:
            ident = _integer(values["id"])
            if ident is None:
                problems.at_row(position, row, "id", f"{values.pop('id')!r} is not an integer id")
            elif ident in ids:
                other = ids[ident]
                problems.at_row(
                    position, row, "id", f"duplicate id {ident} (also {f'line {other.line}' if other.line else field_path(other.loc)})"
                )
                del values["id"]
            else:
                values["id"] = ident
                ids[ident] = row
        if "difficulty" not in values:
            continue
        raw = values.pop("difficulty")
        label = _label(raw)
        if label is None:
            problems.at_row(position, row, "difficulty", f"must be a label or an integer tier, got {type(raw).__name__}: {raw!r}")
            continue
        labels.setdefault(label, None)
        tier = _integer(raw) if dmap is None else dmap.get(label.casefold())
        if tier is None:
            unmapped.append((position, row, label))
        else:
            values["difficulty"] = tier
    shown = ", ".join(list(labels)[:_SHOWN_LABELS]) + (", ..." if len(labels) > _SHOWN_LABELS else "")
    for position, row, label in unmapped:
        if dmap is None:
            message = f"{label!r} is not a difficulty tier 1-5: map the labels to tiers with --difficulty-map LABEL=TIER,... (labels seen: {shown})"
        else:
            message = f"{label!r} is not in the difficulty map {_map_text(dmap)} (labels seen: {shown})"
        problems.at_row(position, row, "difficulty", message)


def _block(file_block: dict[str, Any], entries: list[dict[str, Any]], options: ImportOptions) -> dict[str, Any]:
    block = {**file_block, **options.dataset.model_dump(exclude_none=True)}
    block.setdefault("version", "1.0")
    block.setdefault("created", _dt.date.today().isoformat())
    source, target = block.get("source_language"), block.get("target_language")
    if "language_pair" not in block and isinstance(source, str) and isinstance(target, str):
        block["language_pair"] = f"{source.split('-')[0].upper()}→{target.split('-')[0].upper()}"
    if "provenance" not in block:
        tags = {e["provenance"] for e in entries if isinstance(e.get("provenance"), str) and e["provenance"].strip()}
        if tags:
            block["provenance"] = sorted(tags)
    return {name: block[name] for name in dict.fromkeys([*DatasetBlock.model_fields, *block]) if name in block}


def _with_defaults(values: dict[str, Any], defaults: dict[Defaultable, str]) -> dict[str, Any]:
    for name, value in defaults.items():
        values.setdefault(name, value)
    return values


# ---------------------------------------------------------------- import


@dataclass(frozen=True)
class ImportResult:
    corpus: Corpus | None
    errors: list[FileProblem]
    warnings: list[FileProblem]

    @property
    def ok(self) -> bool:
        return self.corpus is not None and not self.errors


def import_corpus(path: str | Path, options: ImportOptions | None = None) -> ImportResult:
    """The validated corpus of `path` per `options`, or every problem found."""
    options = options or ImportOptions()
    path = Path(path)
    fmt = format_of(path, options.format)
    names = _Names(options, entry_fields(fmt))
    problems = _Problems(str(path))
    if fmt == "json":
        file_block, rows, rest = _read_json(path, names, problems)
        present = {f for r in rows for f in r.values}
        has_ids = "id" in present
    else:
        file_block, rest = {}, {}
        rows, present = _read_delimited(path, fmt, names, problems)
        has_ids = "id" in present
    if problems.file and not rows:
        return ImportResult(None, problems.all(), [])
    for name in _REQUIRED:
        if name not in present and name not in options.defaults:
            default = f", or give {option_flag('default_' + name)} VALUE" if name in DEFAULTABLE else ""
            problems.at_file(
                name,
                f"{'no entry has' if fmt == 'json' else 'no column for'} this required field: add it or map it with --column {name}=NAME{default}",
            )
            problems.missing.add(name)
    _convert(rows, options, has_ids, problems)
    kept = [i for i, r in enumerate(rows) if not r.broken]
    entries = [_with_defaults(rows[i].values, options.defaults) for i in kept]
    report = validate_data({"dataset": _block(file_block, entries, options), "entries": entries, **rest}, str(path))
    by_label = {str(rows[i].values["id"]): i for i in kept if isinstance(rows[i].values.get("id"), int)}
    warnings: list[FileProblem] = []
    for problem in report.problems:
        if problem.entry is not None:
            position = kept[int(problem.entry[1:])] if problem.entry.startswith("#") else by_label[problem.entry]
            problems.at_row(position, rows[position], problem.field, problem.message)
            continue
        block_field = problem.field.removeprefix("dataset.") if problem.field and problem.field.startswith("dataset.") else None
        if block_field in problems.missing:
            continue  # the block's provenance, derived from the entries': named once above
        if block_field == "targets" and "neither" in problem.message:  # the importer writes single-target corpora
            block_field, problem = "target_language", replace(problem, field="dataset.target_language", message="required field is missing")
        message = problem.message + (f" (set it with {option_flag(block_field)})" if block_field in DATASET_OPTIONS else "")
        (warnings if problem.severity == "warning" else problems.file).append(FileProblem(str(path), problem.field, message))
    errors = problems.all()
    return ImportResult(None if errors else report.corpus, errors, warnings)


def document(corpus: Corpus) -> dict[str, Any]:
    """The corpus as written: the schema's field order, absent optional fields left out."""
    return corpus.model_dump(exclude_none=True)
