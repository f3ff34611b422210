"""Streamed, validating reader of the arena votes dump (humaneval-dump-format-v2.md §1-5).

`read_dump(battles_path, votes_path)` validates both files and reduces them to a
`Dump`: one row of plain numbers per voted battle. `iter_recording_battles(path)`
streams the recording battles of an accepted v2 dump for the media check and the
telemetry summary.

Validation (a rejection raises DumpError naming the path as given, the 1-based line
and the field of the FIRST problem in file order; battles.jsonl is validated in full
before votes.jsonl):

* Files: both must be regular files (symlinks to them are fine); a FIFO, a device, a
  directory or a socket is refused before it is opened (a FIFO without a writer would
  block the open forever, /dev/zero never ends).
* Lines: UTF-8 (no BOM), one JSON object per line, LF endings -- a line ending in
  CRLF, a blank or whitespace-only line, a line longer than MAX_LINE_BYTES (16 MiB,
  LF excluded), or a last line without its trailing LF is rejected. JSON is strict:
  NaN/Infinity literals and numbers overflowing a double (1e999) are rejected, naming
  the field that holds them. An object that repeats a key (at any depth, escaped
  spellings included, unknown fields too) is rejected naming the first repeat in
  document order (e.g. recording_a.video_key), before the field checks of its line:
  parsers disagree on which occurrence counts, so such a line has no single meaning.
* Headers (line 1): an object with kind "battles"/"votes", schema_version the
  integer 1 or 2 (booleans rejected), generated_at a timestamp; the battles header
  also needs categories, a list of distinct strings. The two headers' versions are
  not required to match: both versions have identical vote records.
* Required strings: battle_id, category_slug, model_a, model_b, created_at (battles);
  vote_id, battle_id, voter_id, created_at (votes). Timestamps are exactly
  YYYY-MM-DDTHH:MM:SSZ and a real UTC date and time (no leap second).
* Enumerations: normalization_mode rendered|raw, choice win_a|win_b|tie, and in v2
  modality text|recording (absent means text; in v1 modality is an unknown field and
  every battle is a text battle).
* Text battle: response_a/response_b strings. Recording battle (v2): recording_a/
  recording_b objects {video_key: str, trace_key: str, screenshot_key: str|null
  (optional), assisted: bool}, no response_a/response_b, and telemetry_a/telemetry_b,
  if present, objects whose known members are numbers >= 0 or null.
* weight: a JSON number (not a boolean), finite and > 0.
* Relations: model_a != model_b; category_slug listed in the header; battle_id and
  vote_id unique within their file (the error is on the line of the second
  occurrence and names the line of the first); every vote's battle_id present in
  battles.jsonl.
* Within one line, fields are checked in the order battle_id, category_slug, model_a,
  model_b, created_at, normalization_mode, modality, then response_* or recording_*
  and telemetry_* (battles), and vote_id, battle_id, voter_id, choice, created_at,
  weight (votes); the duplicate and unknown-battle checks come after all of them.
* A JSON null counts as absent for optional fields (modality, telemetry_*, their
  members, screenshot_key, a recording battle's response_*) and is a wrong type for
  required ones. Unknown fields are ignored everywhere.

Two readers, one result: each byte range is first read by a fast reader (msgspec
decodes every line into a typed Struct, the remaining checks run on whole columns) that
either vouches for the whole range or hands it to the explaining reader (orjson, record
by record, the only source of error messages). The fast reader hands over on any
problem and on anything merely unusual -- an unknown field, a CR byte, a v2 field in a
v1 dump -- so a rejection, and the numbers of an accepted dump, are exactly the
explaining reader's; a dump with unknown fields is read at the explaining reader's speed.

Streaming: files are read in byte ranges of `chunk_bytes` cut on line boundaries.
A range's parse keeps per-record numbers in array.array and its IDs in one pyarrow
string array, so no Python object per record outlives its range; duplicate IDs and
the vote -> battle join are found with pyarrow.compute once all ranges are in.
Ranges are parsed in order in-process, or -- for large dumps -- by a pool of "spawn"
worker processes whose results are merged in file order, so the Dump and every error
are identical whatever the worker count. The files' sha256 are computed by a
background thread while they are parsed.

Multiprocessing note: with workers > 1, a script calling read_dump must guard its
entry point with ``if __name__ == "__main__":`` (the usual "spawn" rule).
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import operator
import os
import re
import signal
import stat
import threading
from array import array
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import BaseModel, ConfigDict

from atlas_assets.core.cpus import usable_cpus
from atlas_assets.ratings import SUPPORTED_DUMP_VERSIONS
from atlas_assets.ratings.errors import DumpError
from atlas_assets.ratings.features import NORMALIZATION_MODES, response_features
from atlas_assets.ratings.model import Dump, DumpHeader

__all__ = [
    "CHUNK_BYTES",
    "MAX_LINE_BYTES",
    "PARALLEL_MIN_BYTES",
    "Recording",
    "RecordingBattle",
    "Telemetry",
    "iter_recording_battles",
    "read_dump",
]

CHUNK_BYTES = 8 << 20
"""Size of the byte ranges a file is parsed in; progress is reported once per range."""

PARALLEL_MIN_BYTES = 256 << 20
"""With workers=None, dumps smaller than this (both files together) are parsed
in-process: below it, starting worker processes costs more than it saves."""

MAX_LINE_BYTES = 16 << 20
"""The longest line accepted (LF excluded), so that a file without newlines (e.g. a
device or a corrupted dump) is rejected with a line number instead of read into memory."""

_MAX_AUTO_WORKERS = 8
# pyarrow's default allocator (mimalloc) keeps freed memory for reuse; the system
# allocator hands large buffers back at once, which cuts peak RSS here by ~25%.
_POOL = pa.system_memory_pool()
_HASH_BLOCK = 1 << 20
_READ_BLOCK = 512 << 10

Progress = Callable[[str, int, int], None]


# --- recording battles ------------------------------------------------------------


class Recording(BaseModel):
    """One contestant's recording: object keys in the artifacts bucket."""

    model_config = ConfigDict(frozen=True)

    video_key: str
    trace_key: str
    screenshot_key: str | None = None
    assisted: bool


class Telemetry(BaseModel):
    """One contestant's run telemetry; every member is optional."""

    model_config = ConfigDict(frozen=True)

    duration_ms: int | float | None = None
    time_to_first_action_ms: int | float | None = None
    steps: int | float | None = None
    median_step_ms: int | float | None = None
    model_ms_total: int | float | None = None
    harness_ms_total: int | float | None = None


class RecordingBattle(BaseModel):
    """A v2 recording battle (spec §3.1), as the media check and telemetry summary need it."""

    model_config = ConfigDict(frozen=True)

    battle_id: str
    category_slug: str
    model_a: str
    model_b: str
    recording_a: Recording
    recording_b: Recording
    telemetry_a: Telemetry | None = None
    telemetry_b: Telemetry | None = None


_TELEMETRY_FIELDS = tuple(Telemetry.model_fields)


def iter_recording_battles(battles_path: str | Path) -> Iterator[RecordingBattle]:
    """Yield the recording battles of a battles.jsonl that read_dump accepted, in file order.

    A v1 file has none. The file is not re-validated beyond what the models check.
    """
    with open(battles_path, "rb") as handle:
        header = orjson.loads(handle.readline())
        if header.get("schema_version") == 1:
            return
        for line in handle:
            # Cheap filter that skips parsing most text battles: a recording battle's line
            # holds the JSON string "recording", unless it is spelled with \u escapes.
            if b'"recording"' in line or b"\\u" in line:
                record = orjson.loads(line)
                if record.get("modality") == "recording":
                    yield RecordingBattle.model_validate(record)


# --- per-line validation helpers --------------------------------------------------

_TIMESTAMP = re.compile(
    r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
    r"T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z"
).fullmatch
# The per-line test: every real date except February 29th, which it leaves to the
# full check (_timestamp_ok) with its leap-year rule.
_QUICK_TIMESTAMP_PATTERN = (
    r"[0-9]{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)"
    r"T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z"
)
_QUICK_TIMESTAMP = re.compile(_QUICK_TIMESTAMP_PATTERN).fullmatch
_DAYS_IN_MONTH = (0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_CHOICES = {"win_a": 0, "win_b": 1, "tie": 2}
# What a vote credits to side A / side B, indexed by its _CHOICES code.
_SHARE_A = np.array([1.0, 0.0, 0.5])
_SHARE_B = np.array([0.0, 1.0, 0.5])
_NO_FEATURES = (0.0, 0.0, 0.0, 0.0)


class _Reject(Exception):
    """A problem with the current line: the line number is added by whoever knows it."""

    def __init__(self, field: str | None, message: str):
        super().__init__(field, message)
        self.field = field
        self.message = message


def _describe(value: Any) -> str:
    """A JSON value as it reads in an error message."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + '..."'


def _wrong(obj: dict[str, Any], key: str, expected: str, prefix: str = "") -> _Reject:
    """Missing or wrongly typed required field `key` of `obj`."""
    if key not in obj:
        return _Reject(prefix + key, "required field is missing")
    return _Reject(prefix + key, f"must be {expected}, got {_describe(obj[key])}")


def _one_of(field: str, allowed: tuple[str, ...], value: Any) -> _Reject:
    choices = ", ".join(repr(a) for a in allowed)
    return _Reject(field, f"must be one of {choices}, got {_describe(value)}")


def _real_date(ts: str) -> bool:
    """Whether a shape-checked timestamp's day exists (e.g. rejects 2026-02-30)."""
    year, month, day = int(ts[:4]), int(ts[5:7]), int(ts[8:10])
    if month == 2 and day == 29:
        return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= _DAYS_IN_MONTH[month]


def _timestamp_ok(value: Any) -> bool:
    return type(value) is str and _TIMESTAMP(value) is not None and _real_date(value)


def _bad_timestamp(obj: dict[str, Any], key: str) -> _Reject:
    if type(obj.get(key)) is not str:
        return _wrong(obj, key, "a timestamp string")
    value = obj[key]
    why = " (no such date)" if _TIMESTAMP(value) else ""
    return _Reject(key, f"must be a UTC timestamp YYYY-MM-DDTHH:MM:SSZ, got {_describe(value)}{why}")


class _NonFinite:
    """Marks a non-finite number literal while re-parsing a line orjson rejected."""

    def __init__(self, literal: str):
        self.literal = literal


def _float_or_marker(literal: str) -> float | _NonFinite:
    number = float(literal)
    return _NonFinite(literal) if math.isinf(number) else number


def _int_or_marker(literal: str) -> int | _NonFinite:
    try:
        float(int(literal))
    except OverflowError:
        return _NonFinite(literal)
    return int(literal)


def _diagnose(line: bytes, error: orjson.JSONDecodeError) -> _Reject:
    """Explain why orjson rejected `line` with `error` (the slow path: runs once, on a bad line)."""
    if not line.strip():
        return _Reject(None, "blank line: every line must hold one JSON object")
    if line.startswith(b"\xef\xbb\xbf"):
        return _Reject(None, "starts with a UTF-8 byte-order mark (BOM): the format is UTF-8 without BOM")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _Reject(None, f"invalid UTF-8: byte 0x{line[exc.start]:02x} at byte {exc.start + 1} of the line")
    syntax = f"malformed JSON at column {error.colno}: {error.msg}"
    try:
        lenient = json.loads(text, parse_constant=_NonFinite, parse_float=_float_or_marker, parse_int=_int_or_marker)
    except (ValueError, RecursionError):
        return _Reject(None, syntax)
    found = next(((where, v.literal) for where, v in _nodes(lenient) if isinstance(v, _NonFinite)), None)
    if found is None:
        return _Reject(None, syntax)
    field, literal = found
    if len(literal) > 40:
        literal = literal[:37] + "..."
    if field == "weight":
        return _Reject(field, f"must be a finite number > 0, got {literal}")
    return _Reject(field, f"non-finite number {literal} is not valid JSON")


def _check_recording(record: dict[str, Any], name: str) -> None:
    recording = record.get(name)
    if type(recording) is not dict:
        raise _wrong(record, name, "an object (recording battle)")
    prefix = name + "."
    for key in ("video_key", "trace_key"):
        if type(recording.get(key)) is not str:
            raise _wrong(recording, key, "a string", prefix)
    screenshot = recording.get("screenshot_key")
    if screenshot is not None and type(screenshot) is not str:
        raise _Reject(prefix + "screenshot_key", f"must be a string or null, got {_describe(screenshot)}")
    if type(recording.get("assisted")) is not bool:
        raise _wrong(recording, "assisted", "true or false", prefix)


def _check_telemetry(record: dict[str, Any], name: str) -> None:
    telemetry = record.get(name)
    if telemetry is None:
        return
    if type(telemetry) is not dict:
        raise _Reject(name, f"must be an object or absent, got {_describe(telemetry)}")
    for key in _TELEMETRY_FIELDS:
        value = telemetry.get(key)
        if value is not None and (type(value) not in (int, float) or value < 0):
            raise _Reject(f"{name}.{key}", f"must be a number >= 0 or null, got {_describe(value)}")


def _check_recording_battle(record: dict[str, Any]) -> None:
    for name in ("response_a", "response_b"):
        if record.get(name) is not None:
            raise _Reject(name, "must be absent in a recording battle")
    _check_recording(record, "recording_a")
    _check_recording(record, "recording_b")
    _check_telemetry(record, "telemetry_a")
    _check_telemetry(record, "telemetry_b")


# --- reading byte ranges ----------------------------------------------------------


def _too_long() -> _Reject:
    return _Reject(None, f"line longer than {MAX_LINE_BYTES >> 20} MiB, the longest this reader accepts (not a dump file?)")


class _Repeated(list[tuple[str, Any]]):
    """The (key, value) pairs of a JSON object that holds some key twice."""


_REPEAT = object()  # what _nodes yields for the second occurrence of a key in one object


def _nodes(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(field path, value) of `value` and of everything inside it, in document order. In a
    _Repeated object a key seen before yields (its path, _REPEAT) instead of its value."""
    yield path, value
    if isinstance(value, (dict, _Repeated)):
        seen: set[str] = set()
        for key, item in value.items() if isinstance(value, dict) else value:
            child = f"{path}.{key}" if path else key
            if key in seen:
                yield child, _REPEAT
                continue
            seen.add(key)
            yield from _nodes(item, child)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nodes(item, f"{path}[{index}]")


def _check_repeated_keys(line: bytes) -> None:
    """Reject a line (already parsed by orjson) whose objects repeat a key: JSON parsers
    disagree on which occurrence counts, so such a dump has no single meaning."""
    repeated = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> Any:
        nonlocal repeated
        obj = dict(pairs)
        if len(obj) == len(pairs):
            return obj
        repeated = True
        return _Repeated(pairs)

    try:
        value = json.loads(line, object_pairs_hook=pairs_hook)
    except RecursionError:
        raise _Reject(None, "JSON nested too deeply to be checked for repeated keys") from None
    if repeated:
        field = next((where for where, v in _nodes(value) if v is _REPEAT), None)
        raise _Reject(field, "the key appears twice in one object: readers disagree on which one counts")


def _range_lines(path: str, start: int, end: int) -> Iterator[list[bytes]]:
    """Yield the lines (without LF) of bytes [start, end) in lists of about _READ_BLOCK bytes.

    Raises _Reject at a CRLF line or an unterminated last line, after yielding every
    line before it. Small reads keep the working set in cache, which makes reading and
    splitting ~3x faster than one read of the whole range.
    """
    with open(path, "rb") as handle:
        handle.seek(start)
        remaining = end - start
        pieces: list[bytes] = []  # an unfinished line, possibly spanning several reads
        pending = 0  # its length so far
        while remaining > 0:
            data = handle.read(min(_READ_BLOCK, remaining))
            if not data:
                raise _Reject(None, "unexpected end of file (did the file change while it was read?)")
            remaining -= len(data)
            newline = data.find(b"\n")
            if newline < 0:
                pieces.append(data)
                pending += len(data)
                if pending > MAX_LINE_BYTES:
                    raise _too_long()
                continue
            if pending + newline > MAX_LINE_BYTES:
                raise _too_long()
            if pieces:
                pieces.append(data)
                data = b"".join(pieces)
                pieces = []
            lines = data.split(b"\n")
            tail = lines.pop()
            pending = len(tail)
            if tail:
                pieces.append(tail)
            if b"\r" in data:  # one memchr; a raw CR is rare (JSON strings escape it)
                for index, line in enumerate(lines):
                    if line.endswith(b"\r"):
                        yield lines[:index]
                        raise _Reject(None, "CRLF line ending: lines must end with LF only")
            yield lines
        if pieces:
            raise _Reject(None, "the file does not end with a newline (LF): truncated?")


def _range_records(path: str, start: int, end: int) -> Iterator[dict[str, Any]]:
    """The JSON objects of the lines in bytes [start, end), in order; _Reject at the first
    line that is not valid JSON or not an object."""
    loads, decode_error = orjson.loads, orjson.JSONDecodeError
    for lines in _range_lines(path, start, end):
        for line in lines:
            try:
                record = loads(line)
            except decode_error as exc:
                raise _diagnose(line, exc) from None
            if type(record) is not dict:
                raise _Reject(None, f"a record must be a JSON object, got {_describe(record)}")
            _check_repeated_keys(line)
            yield record


@dataclass
class _BattlePart:
    """Parse result of one byte range of battles.jsonl: the records before any error."""

    ids: pa.Array
    category: np.ndarray  # int32 index into the header categories
    model_a: np.ndarray  # int32 codes into `models`, local to this part
    model_b: np.ndarray
    models: list[str]
    features_a: np.ndarray  # float64 (k, 4)
    features_b: np.ndarray
    error: tuple[int, str | None, str] | None  # (record index within the part, field, message)


@dataclass
class _VotePart:
    """Parse result of one byte range of votes.jsonl: the records before any error."""

    vote_ids: pa.Array
    battle_ids: pa.Array
    choice: np.ndarray  # int8 _CHOICES code
    weight: np.ndarray  # float64
    error: tuple[int, str | None, str] | None


def _explain_battles(path: str, start: int, end: int, version: int, categories: tuple[str, ...]) -> _BattlePart:
    """The explaining reader of a battles range: validates record by record and stops at the first problem."""
    category_index = {slug: index for index, slug in enumerate(categories)}
    ids: list[str] = []
    category, model_a, model_b = array("i"), array("i"), array("i")
    features_a, features_b = array("d"), array("d")
    models: dict[str, int] = {}
    # Local binds: the inner loop runs once per battle.
    features = response_features
    quick_timestamp, timestamp_ok = _QUICK_TIMESTAMP, _timestamp_ok
    add_id, add_category, add_a, add_b = ids.append, category.append, model_a.append, model_b.append
    add_features_a, add_features_b = features_a.extend, features_b.extend
    no_features, v2 = _NO_FEATURES, version >= 2
    error = None
    try:
        for record in _range_records(path, start, end):
            get = record.get
            battle_id = get("battle_id")
            if type(battle_id) is not str:
                raise _wrong(record, "battle_id", "a string")
            slug = get("category_slug")
            if type(slug) is not str:
                raise _wrong(record, "category_slug", "a string")
            category_code = category_index.get(slug)
            if category_code is None:
                raise _Reject("category_slug", f"{slug!r} is not in the header's categories list")
            a = get("model_a")
            if type(a) is not str:
                raise _wrong(record, "model_a", "a string")
            b = get("model_b")
            if type(b) is not str:
                raise _wrong(record, "model_b", "a string")
            if a == b:
                raise _Reject("model_b", f"equals model_a ({a!r}): a battle needs two different models")
            created = get("created_at")
            if type(created) is not str or quick_timestamp(created) is None and not timestamp_ok(created):
                raise _bad_timestamp(record, "created_at")
            mode = get("normalization_mode")
            if mode != "rendered" and mode != "raw":
                raise _one_of("normalization_mode", NORMALIZATION_MODES, mode)
            modality = get("modality") if v2 else None
            if modality is None or modality == "text":
                text_a = get("response_a")
                if type(text_a) is not str:
                    raise _wrong(record, "response_a", "a string (text battle)")
                text_b = get("response_b")
                if type(text_b) is not str:
                    raise _wrong(record, "response_b", "a string (text battle)")
                add_features_a(features(text_a, mode))
                add_features_b(features(text_b, mode))
            elif modality == "recording":
                _check_recording_battle(record)
                add_features_a(no_features)
                add_features_b(no_features)
            else:
                raise _one_of("modality", ("text", "recording"), modality)
            code_a = models.get(a)
            if code_a is None:
                code_a = models[a] = len(models)
            code_b = models.get(b)
            if code_b is None:
                code_b = models[b] = len(models)
            add_id(battle_id)
            add_category(category_code)
            add_a(code_a)
            add_b(code_b)
    except _Reject as reject:
        error = (len(ids), reject.field, reject.message)
    return _BattlePart(
        ids=pa.array(ids, pa.string(), memory_pool=_POOL),
        category=np.frombuffer(category, dtype=np.int32),
        model_a=np.frombuffer(model_a, dtype=np.int32),
        model_b=np.frombuffer(model_b, dtype=np.int32),
        models=list(models),
        features_a=np.frombuffer(features_a, dtype=np.float64).reshape(-1, 4),
        features_b=np.frombuffer(features_b, dtype=np.float64).reshape(-1, 4),
        error=error,
    )


def _explain_votes(path: str, start: int, end: int) -> _VotePart:
    """The explaining reader of a votes range."""
    vote_ids: list[str] = []
    battle_ids: list[str] = []
    choices, weights = array("b"), array("d")
    choice_code = _CHOICES.get
    quick_timestamp, timestamp_ok = _QUICK_TIMESTAMP, _timestamp_ok
    add_vote, add_battle, add_choice, add_weight = vote_ids.append, battle_ids.append, choices.append, weights.append
    error = None
    try:
        for record in _range_records(path, start, end):
            get = record.get
            vote_id = get("vote_id")
            if type(vote_id) is not str:
                raise _wrong(record, "vote_id", "a string")
            battle_id = get("battle_id")
            if type(battle_id) is not str:
                raise _wrong(record, "battle_id", "a string")
            if type(get("voter_id")) is not str:
                raise _wrong(record, "voter_id", "a string")
            choice = get("choice")
            code = choice_code(choice) if type(choice) is str else None
            if code is None:
                raise _one_of("choice", tuple(_CHOICES), choice)
            created = get("created_at")
            if type(created) is not str or quick_timestamp(created) is None and not timestamp_ok(created):
                raise _bad_timestamp(record, "created_at")
            weight = get("weight")
            kind = type(weight)
            # orjson never yields a non-finite float, so an int or float > 0 is finite.
            if (kind is not float and kind is not int) or not weight > 0:  # type: ignore[operator]  # the kind check makes weight a number
                if "weight" not in record:
                    raise _Reject("weight", "required field is missing")
                raise _Reject("weight", f"must be a finite number > 0, got {_describe(weight)}")
            add_vote(vote_id)
            add_battle(battle_id)
            add_choice(code)
            add_weight(weight)  # type: ignore[arg-type]  # a float or int > 0, checked above
    except _Reject as reject:
        error = (len(vote_ids), reject.field, reject.message)
    return _VotePart(
        vote_ids=pa.array(vote_ids, pa.string(), memory_pool=_POOL),
        battle_ids=pa.array(battle_ids, pa.string(), memory_pool=_POOL),
        choice=np.frombuffer(choices, dtype=np.int8),
        weight=np.frombuffer(weights, dtype=np.float64),
        error=error,
    )


def _run_task(task: tuple[Any, ...]) -> _BattlePart | _VotePart:
    """Worker entry point (module level so "spawn" workers can import it): the fast reader,
    and the explaining one for a range the fast one does not vouch for."""
    kind, path, start, end, *rest = task
    with open(path, "rb") as handle:
        handle.seek(start)
        data = handle.read(end - start)
    if kind == "battles":
        return _fast_battles(data, *rest) or _explain_battles(path, start, end, *rest)
    return _fast_votes(data) or _explain_votes(path, start, end)


# --- the fast reader -----------------------------------------------------------------
#
# msgspec decodes each line straight into a typed Struct (JSON syntax, types, the
# enumerations and weight > 0 are checked in C); the rest is checked on whole columns. It returns None --
# "let the explaining reader read this range" -- for anything it does not vouch for:
# any decoding or validation failure, an unknown field (forbid_unknown_fields), a CR
# byte, a range not ending in LF, a line over MAX_LINE_BYTES, and a repeated key. It
# never explains anything, so every rejection message comes from one place.
#
# Repeated keys are found by counting: a Struct keeps one value per field, so a line
# with a repeated key holds more JSON string tokens than its decoded Struct accounts
# for. The string tokens are counted as the unescaped '"' bytes halved: every '"' of a
# dump line is a delimiter unless a backslash escapes it (JSON strings hold no raw '"').

_Missing = msgspec.UnsetType
_MISSING = msgspec.UNSET
_NonNegative = Annotated[float, msgspec.Meta(ge=0)]


class _FastVote(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    vote_id: str
    battle_id: str
    voter_id: str
    choice: Literal["win_a", "win_b", "tie"]
    created_at: str
    weight: Annotated[float, msgspec.Meta(gt=0)]


class _FastRecording(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    video_key: str
    trace_key: str
    assisted: bool
    screenshot_key: str | None | _Missing = _MISSING


class _FastTelemetry(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    duration_ms: _NonNegative | None | _Missing = _MISSING
    time_to_first_action_ms: _NonNegative | None | _Missing = _MISSING
    steps: _NonNegative | None | _Missing = _MISSING
    median_step_ms: _NonNegative | None | _Missing = _MISSING
    model_ms_total: _NonNegative | None | _Missing = _MISSING
    harness_ms_total: _NonNegative | None | _Missing = _MISSING


class _FastBattle(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    battle_id: str
    category_slug: str
    model_a: str
    model_b: str
    created_at: str
    normalization_mode: Literal["rendered", "raw"]
    modality: Literal["text", "recording"] | None | _Missing = _MISSING
    response_a: str | None | _Missing = _MISSING
    response_b: str | None | _Missing = _MISSING
    recording_a: _FastRecording | None | _Missing = _MISSING
    recording_b: _FastRecording | None | _Missing = _MISSING
    telemetry_a: _FastTelemetry | None | _Missing = _MISSING
    telemetry_b: _FastTelemetry | None | _Missing = _MISSING


_VOTE_DECODER = msgspec.json.Decoder(_FastVote)
_BATTLE_DECODER = msgspec.json.Decoder(_FastBattle)
_OPTIONAL_BATTLE_FIELDS = ("modality", "response_a", "response_b", "recording_a", "recording_b", "telemetry_a", "telemetry_b")
_V2_ONLY_FIELDS = ("modality", "recording_a", "recording_b", "telemetry_a", "telemetry_b")
_QUICK_TIMESTAMP_RE2 = "^" + _QUICK_TIMESTAMP_PATTERN + "$"


def _column(records: list[Any], name: str) -> list[Any]:
    return list(map(operator.attrgetter(name), records))


def _lines(data: bytes) -> list[bytes] | None:
    """The lines of a range, or None if the fast reader must not take it."""
    if not data.endswith(b"\n") or b"\r" in data:
        return None
    lines = data.split(b"\n")
    lines.pop()
    if len(data) > MAX_LINE_BYTES and max(map(len, lines)) > MAX_LINE_BYTES:
        return None
    return lines


def _string_tokens(data: bytes) -> int:
    """How many JSON strings (keys included) the lines of `data` hold, given they are valid JSON
    objects ending in LF (so the look-backs below never wrap onto a quote or a backslash: a
    line starts with '{' or whitespace and the last byte is LF)."""
    if b"\\" not in data:
        return data.count(b'"') // 2
    raw = np.frombuffer(data, dtype=np.uint8)
    quotes = np.flatnonzero(raw == 0x22)
    escaped = quotes[raw[quotes - 1] == 0x5C]
    delimiters = len(quotes) - len(escaped)
    # A '"' after an even run of backslashes (escaped backslashes) is a delimiter after
    # all; quotes after two or more backslashes are rare, so they are looked at one by one.
    for quote in escaped[raw[escaped - 2] == 0x5C].tolist():
        run = 2
        while quote - run > 0 and raw[quote - run - 1] == 0x5C:
            run += 1
        delimiters += run % 2 == 0
    return delimiters // 2


def _timestamps_ok(values: list[str]) -> bool:
    quick = pc.match_substring_regex(pa.array(values, pa.string()), _QUICK_TIMESTAMP_RE2)
    if quick.false_count == 0:
        return True
    misses = np.flatnonzero(~quick.to_numpy(zero_copy_only=False))
    return all(_timestamp_ok(values[index]) for index in misses.tolist())


def _fast_votes(data: bytes) -> _VotePart | None:
    lines = _lines(data)
    if lines is None:
        return None
    try:
        records = list(map(_VOTE_DECODER.decode, lines))
    except (msgspec.MsgspecError, ValueError):
        return None
    # Six keys and five string values per vote (weight is a number).
    if _string_tokens(data) != 11 * len(records):
        return None
    created = _column(records, "created_at")
    if not _timestamps_ok(created):
        return None
    return _VotePart(
        vote_ids=pa.array(_column(records, "vote_id"), pa.string(), memory_pool=_POOL),
        battle_ids=pa.array(_column(records, "battle_id"), pa.string(), memory_pool=_POOL),
        choice=np.fromiter(map(_CHOICES.__getitem__, map(operator.attrgetter("choice"), records)), np.int8, len(records)),
        weight=np.array(_column(records, "weight"), dtype=np.float64),
        error=None,
    )


def _recording_tokens(recording: _FastRecording) -> int:
    screenshot = recording.screenshot_key
    # video_key, trace_key, assisted: keys; video_key and trace_key: string values.
    return 5 + (screenshot is not _MISSING) + (type(screenshot) is str)


def _telemetry_tokens(telemetry: _FastTelemetry) -> int:
    members = msgspec.structs.astuple(telemetry)
    return len(members) - members.count(_MISSING)


_NESTED_TOKENS: tuple[tuple[str, type, Callable[[Any], int]], ...] = (
    ("recording_a", _FastRecording, _recording_tokens),
    ("recording_b", _FastRecording, _recording_tokens),
    ("telemetry_a", _FastTelemetry, _telemetry_tokens),
    ("telemetry_b", _FastTelemetry, _telemetry_tokens),
)


def _fast_battles(data: bytes, version: int, categories: tuple[str, ...]) -> _BattlePart | None:
    lines = _lines(data)
    if lines is None:
        return None
    try:
        records = list(map(_BATTLE_DECODER.decode, lines))
    except (msgspec.MsgspecError, ValueError):
        return None
    count = len(records)
    columns = {name: _column(records, name) for name in _OPTIONAL_BATTLE_FIELDS}
    if version < 2 and any(len(columns[name]) != columns[name].count(_MISSING) for name in _V2_ONLY_FIELDS):
        return None  # in v1 these are unknown fields, which only the explaining reader ignores
    # Six required keys with string values, then each optional key and its string value.
    tokens = 12 * count
    for name in ("modality", "response_a", "response_b"):
        values = columns[name]
        present = count - values.count(_MISSING)
        tokens += 2 * present - values.count(None)
    for name, kind, nested in _NESTED_TOKENS:
        values = columns[name]
        tokens += count - values.count(_MISSING)
        tokens += sum(map(nested, [value for value in values if type(value) is kind]))
    if _string_tokens(data) != tokens:
        return None
    category_index = {slug: index for index, slug in enumerate(categories)}
    category = list(map(category_index.get, _column(records, "category_slug")))
    if None in category:
        return None
    model_a = _column(records, "model_a")
    model_b = _column(records, "model_b")
    if any(map(operator.eq, model_a, model_b)):
        return None
    if not _timestamps_ok(_column(records, "created_at")):
        return None
    features_a, features_b = array("d"), array("d")
    add_a, add_b, features, no_features = features_a.extend, features_b.extend, response_features, _NO_FEATURES
    for record, modality, text_a, text_b in zip(records, columns["modality"], columns["response_a"], columns["response_b"]):
        if modality == "recording":
            if text_a is not None and text_a is not _MISSING or text_b is not None and text_b is not _MISSING:
                return None
            if type(record.recording_a) is not _FastRecording or type(record.recording_b) is not _FastRecording:
                return None
            add_a(no_features)
            add_b(no_features)
        else:
            if type(text_a) is not str or type(text_b) is not str:
                return None
            add_a(features(text_a, record.normalization_mode))
            add_b(features(text_b, record.normalization_mode))
    encoded = pa.array(model_a + model_b, pa.string()).dictionary_encode()
    codes = encoded.indices.to_numpy()
    return _BattlePart(
        ids=pa.array(_column(records, "battle_id"), pa.string(), memory_pool=_POOL),
        category=np.array(category, dtype=np.int32),
        model_a=codes[:count].astype(np.int32),
        model_b=codes[count:].astype(np.int32),
        models=encoded.dictionary.to_pylist(),
        features_a=np.frombuffer(features_a, dtype=np.float64).reshape(-1, 4),
        features_b=np.frombuffer(features_b, dtype=np.float64).reshape(-1, 4),
        error=None,
    )


# --- headers, ranges, hashing -----------------------------------------------------


@dataclass(frozen=True)
class _Header:
    schema_version: int
    generated_at: str
    categories: tuple[str, ...]
    data_start: int  # byte offset of line 2
    size: int  # file size in bytes


_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _require_regular_file(path: str) -> None:
    """Refuse anything but a regular file (after symlinks) before opening it: a FIFO
    without a writer would block the open forever, a device such as /dev/zero never ends,
    and the digests and byte ranges need a file whose size is known."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _FILE_KINDS if test(mode)), "not a regular file")
        raise DumpError(path, None, None, f"is {kind}: a dump file must be a regular file")


def _read_header(path: str, kind: str) -> _Header:
    """Read and validate line 1 of a dump file; raises DumpError."""
    with open(path, "rb") as handle:
        line = handle.readline(MAX_LINE_BYTES + 1)
        size = os.fstat(handle.fileno()).st_size
    if not line:
        raise DumpError(path, 1, None, f"empty file: the {kind} header line is missing")
    try:
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            raise _too_long()
        if not line.endswith(b"\n"):
            raise _Reject(None, "the file does not end with a newline (LF): truncated?")
        if line.endswith(b"\r\n"):
            raise _Reject(None, "CRLF line ending: lines must end with LF only")
        try:
            header = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise _diagnose(line[:-1], exc) from None
        _check_repeated_keys(line)
        return _validate_header(header, kind, line_end=len(line), size=size)
    except _Reject as reject:
        raise DumpError(path, 1, reject.field, reject.message) from None


def _validate_header(header: Any, kind: str, line_end: int, size: int) -> _Header:
    if type(header) is not dict:
        raise _Reject(None, f"the header must be a JSON object, got {_describe(header)}")
    found = header.get("kind")
    if found != kind:
        if "kind" not in header:
            raise _Reject("kind", f"missing: line 1 must be the {kind} header (header line missing?)")
        other = "votes" if kind == "battles" else "battles"
        hint = f" (the {other} file was given as the {kind} file?)" if found == other else ""
        raise _Reject("kind", f"must be {kind!r}, got {_describe(found)}{hint}")
    version = header.get("schema_version")
    if type(version) is not int:
        raise _wrong(header, "schema_version", "an integer")
    if version not in SUPPORTED_DUMP_VERSIONS:
        supported = ", ".join(str(v) for v in SUPPORTED_DUMP_VERSIONS)
        raise _Reject("schema_version", f"unsupported version {version}: this engine reads {supported}")
    if not _timestamp_ok(header.get("generated_at")):
        raise _bad_timestamp(header, "generated_at")
    categories: tuple[str, ...] = ()
    if kind == "battles":
        listed = header.get("categories")
        if type(listed) is not list or any(type(slug) is not str for slug in listed):
            raise _wrong(header, "categories", "a list of strings")
        if len(set(listed)) != len(listed):
            repeated = next(slug for index, slug in enumerate(listed) if slug in listed[:index])
            raise _Reject("categories", f"lists {repeated!r} twice")
        categories = tuple(listed)
    return _Header(version, header["generated_at"], categories, line_end, size)


def _ranges(path: str, start: int, size: int, chunk_bytes: int) -> list[tuple[int, int]]:
    """Split bytes [start, size) into ranges of about chunk_bytes, each ending just after a LF."""
    ranges = []
    with open(path, "rb") as handle:
        while start < size:
            end = start + chunk_bytes
            if end >= size:
                end = size
            else:
                handle.seek(end - 1)
                # Past this, the line is too long anyway: the range ends mid-line and its
                # parse rejects the line.
                limit = end + MAX_LINE_BYTES + 1
                while True:
                    block = handle.read(1 << 16)
                    if not block:
                        end = size
                        break
                    newline = block.find(b"\n")
                    if newline >= 0:
                        end += newline
                        break
                    end += len(block)
                    if end >= limit:
                        end = min(end, size)
                        break
            ranges.append((start, end))
            start = end
    return ranges


class _Hasher(threading.Thread):
    """sha256 of files, computed in the background (hashlib releases the GIL) and
    cancellable, so a rejected dump does not leave a thread reading a large file."""

    def __init__(self, paths: list[str]):
        super().__init__(name="dump-sha256", daemon=True)
        self.paths = paths
        self.digests: list[str] = []
        self.failure: BaseException | None = None
        self.cancelled = threading.Event()

    def run(self) -> None:
        buffer = bytearray(_HASH_BLOCK)
        view = memoryview(buffer)
        try:
            for path in self.paths:
                digest = hashlib.sha256()
                with open(path, "rb", buffering=0) as handle:
                    while not self.cancelled.is_set() and (count := handle.readinto(buffer)):
                        digest.update(view[:count])
                self.digests.append(digest.hexdigest())
        except BaseException as exc:  # re-raised by result()
            self.failure = exc

    def result(self) -> list[str]:
        self.join()
        if self.failure is not None:
            raise self.failure
        return self.digests

    def stop(self) -> None:
        self.cancelled.set()
        self.join()


def _ignore_interrupts() -> None:
    """A reader worker ignores Ctrl-C and SIGTERM: a terminal (or a service manager) signals
    the whole process group, and the parent alone stops, says "interrupted" and shuts the
    pool down; a worker would print a KeyboardInterrupt traceback of its own, or die under
    the parent and turn its clean stop into a broken pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _worker_count(workers: int | None, total_bytes: int, tasks: int) -> int:
    if workers is None:
        if total_bytes < PARALLEL_MIN_BYTES:
            return 1
        workers = min(usable_cpus(), _MAX_AUTO_WORKERS)
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if multiprocessing.current_process().daemon:
        return 1  # a daemonic process (e.g. a pool worker) may not start children
    return max(1, min(workers, tasks))


# --- cross-record checks ------------------------------------------------------------


def _one_array(ids: pa.ChunkedArray) -> pa.Array:
    """The chunks as one array (large_string past 2 GiB: string offsets are 32-bit)."""
    if ids.nbytes >= 1 << 31:
        ids = ids.cast(pa.large_string(), memory_pool=_POOL)
    return ids.combine_chunks(memory_pool=_POOL)


def _first_duplicate(ids: pa.ChunkedArray) -> tuple[int, int, str] | None:
    """(position of the earliest repeat, position of its first occurrence, the ID), or None."""
    if len(pc.unique(ids, memory_pool=_POOL)) == len(ids):
        return None
    # Rare path: index_in against the IDs themselves gives each ID's first position.
    first = pc.index_in(ids, value_set=_one_array(ids), memory_pool=_POOL).to_numpy()
    position = int(np.flatnonzero(first != np.arange(len(first)))[0])
    return position, int(first[position]), ids[position].as_py()


def _battle_duplicate_error(path: str, ids: pa.ChunkedArray) -> DumpError | None:
    duplicate = _first_duplicate(ids)
    if duplicate is None:
        return None
    second, first, value = duplicate
    return DumpError(path, second + 2, "battle_id", f"duplicate battle_id {_describe(value)} (first on line {first + 2})")


def _vote_errors(
    path: str, vote_ids: list[pa.Array], refs: list[pa.Array], battle_ids: pa.Array
) -> tuple[DumpError | None, pa.ChunkedArray]:
    """The earliest duplicate vote_id / unknown battle_id error, and the vote -> battle row join."""
    referenced = pa.chunked_array(refs, type=pa.string())
    # The two hash passes release the GIL: run them side by side.
    with ThreadPoolExecutor(1) as helper:
        duplicates = helper.submit(_first_duplicate, pa.chunked_array(vote_ids, type=pa.string()))
        join = pc.index_in(referenced, value_set=battle_ids, memory_pool=_POOL)
        duplicate = duplicates.result()
    problems: list[tuple[int, int, DumpError]] = []  # (vote index, field order, error)
    if duplicate is not None:
        second, first, value = duplicate
        message = f"duplicate vote_id {_describe(value)} (first on line {first + 2})"
        problems.append((second, 0, DumpError(path, second + 2, "vote_id", message)))
    if join.null_count:
        position = int(np.flatnonzero(join.is_null().to_numpy())[0])
        message = f"{_describe(referenced[position].as_py())} is not a battle_id in the battles file"
        problems.append((position, 1, DumpError(path, position + 2, "battle_id", message)))
    return (min(problems, key=lambda p: p[:2])[2] if problems else None), join


# --- read_dump ---------------------------------------------------------------------


def read_dump(
    battles_path: str | Path,
    votes_path: str | Path,
    progress: Progress | None = None,
    *,
    workers: int | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> Dump:
    """Validate a dump and reduce it to per-battle arrays; raises DumpError on the first problem.

    progress(stage, bytes_done, bytes_total) is called after each parsed range of
    `chunk_bytes` (stage "battles", then "votes"). workers=None parses in-process below
    PARALLEL_MIN_BYTES and with one worker per available CPU (at most 8) above; the
    result does not depend on `workers` or `chunk_bytes`.
    """
    if chunk_bytes < 1:
        raise ValueError(f"chunk_bytes must be >= 1, got {chunk_bytes}")
    battles_name, votes_name = str(battles_path), str(votes_path)
    _require_regular_file(battles_name)
    _require_regular_file(votes_name)
    hasher = _Hasher([battles_name, votes_name])
    hasher.start()
    pool = None
    try:
        battles_header = _read_header(battles_name, "battles")
        try:
            votes_header: _Header | DumpError = _read_header(votes_name, "votes")
        except DumpError as exc:  # reported only once battles.jsonl is known to be valid
            votes_header = exc
        battle_ranges = _ranges(battles_name, battles_header.data_start, battles_header.size, chunk_bytes)
        vote_ranges = (
            _ranges(votes_name, votes_header.data_start, votes_header.size, chunk_bytes) if isinstance(votes_header, _Header) else []
        )
        version, categories = battles_header.schema_version, battles_header.categories
        tasks: list[tuple[Any, ...]] = [("battles", battles_name, start, end, version, categories) for start, end in battle_ranges]
        tasks += [("votes", votes_name, start, end) for start, end in vote_ranges]
        total_bytes = battles_header.size + (votes_header.size if isinstance(votes_header, _Header) else 0)
        count = _worker_count(workers, total_bytes, len(tasks))
        if count > 1:
            # concurrent.futures rather than multiprocessing.Pool: a worker that dies
            # (e.g. killed for memory) fails the read instead of hanging it.
            pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_interrupts)
            results: Iterator[Any] = pool.map(_run_task, tasks)
        else:
            results = map(_run_task, tasks)
        # Parts come back in task order: all battle ranges, then all vote ranges.
        battles = _merge_battles(battles_name, battles_header, results, battle_ranges, progress)
        if isinstance(votes_header, DumpError):
            raise votes_header
        # The workers' memory is returned before the cross-record checks peak.
        release = pool.shutdown if pool is not None else lambda: None
        votes = _merge_votes(votes_name, votes_header, results, vote_ranges, battles.ids, progress, release)
        battles_sha256, votes_sha256 = hasher.result()
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        hasher.stop()
    return _assemble(battles_header, battles, votes, battles_sha256, votes_sha256)


@dataclass
class _Battles:
    """All of battles.jsonl, validated: one row per battle record, file order."""

    ids: pa.Array
    category: np.ndarray
    model_a: np.ndarray  # int32 codes into `models` (first-seen order)
    model_b: np.ndarray
    models: list[str]
    features_a: list[np.ndarray]  # float64 (k, 4) per part: kept in parts, see _assemble
    features_b: list[np.ndarray]


@dataclass
class _Votes:
    """All of votes.jsonl, validated and joined: one row per vote, file order."""

    battle_row: np.ndarray  # int32 row in _Battles
    choice: np.ndarray
    weight: np.ndarray


def _merge_battles(
    path: str, header: _Header, results: Iterator[Any], ranges: list[tuple[int, int]], progress: Progress | None
) -> _Battles:
    ids: list[pa.Array] = []
    category, model_a, model_b, features_a, features_b = [], [], [], [], []
    models: dict[str, int] = {}
    first_line = 2
    for _, end in ranges:
        part: _BattlePart = next(results)
        codes = np.array([models.setdefault(slug, len(models)) for slug in part.models], dtype=np.int32)
        ids.append(part.ids)
        category.append(part.category)
        model_a.append(codes[part.model_a])
        model_b.append(codes[part.model_b])
        features_a.append(part.features_a)
        features_b.append(part.features_b)
        if part.error is not None:
            index, field, message = part.error
            earlier = _battle_duplicate_error(path, pa.chunked_array(ids, type=pa.string()))
            raise earlier or DumpError(path, first_line + index, field, message)
        first_line += len(part.ids)
        if progress is not None:
            progress("battles", end, header.size)
    all_ids = _one_array(pa.chunked_array(ids, type=pa.string()))
    duplicate = _battle_duplicate_error(path, pa.chunked_array([all_ids]))
    if duplicate is not None:
        raise duplicate
    return _Battles(
        ids=all_ids,
        category=_concat(category, np.int32),
        model_a=_concat(model_a, np.int32),
        model_b=_concat(model_b, np.int32),
        models=list(models),
        features_a=features_a,
        features_b=features_b,
    )


def _merge_votes(
    path: str,
    header: _Header,
    results: Iterator[Any],
    ranges: list[tuple[int, int]],
    battle_ids: pa.Array,
    progress: Progress | None,
    parts_done: Callable[[], None],
) -> _Votes:
    vote_ids: list[pa.Array] = []
    refs: list[pa.Array] = []
    choice, weight = [], []
    first_line = 2
    for _, end in ranges:
        part: _VotePart = next(results)
        vote_ids.append(part.vote_ids)
        refs.append(part.battle_ids)
        choice.append(part.choice)
        weight.append(part.weight)
        if part.error is not None:
            index, field, message = part.error
            earlier, _ = _vote_errors(path, vote_ids, refs, battle_ids)
            raise earlier or DumpError(path, first_line + index, field, message)
        first_line += len(part.vote_ids)
        if progress is not None:
            progress("votes", end, header.size)
    parts_done()
    error, join = _vote_errors(path, vote_ids, refs, battle_ids)
    if error is not None:
        raise error
    return _Votes(
        battle_row=join.to_numpy(),
        choice=_concat(choice, np.int8),
        weight=_concat(weight, np.float64),
    )


def _concat(parts: list[np.ndarray], dtype: type) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def _select_rows(blocks: list[np.ndarray], keep: np.ndarray) -> np.ndarray:
    """The rows of vstack(blocks) where `keep`, without materialising vstack(blocks)."""
    selected = np.empty((int(np.count_nonzero(keep)), 4), dtype=np.float64)
    start = filled = 0
    for block in blocks:
        rows = block[keep[start : start + len(block)]]
        selected[filled : filled + len(rows)] = rows
        start += len(block)
        filled += len(rows)
    return selected


def _assemble(header: _Header, battles: _Battles, votes: _Votes, battles_sha256: str, votes_sha256: str) -> Dump:
    """Reduce the votes onto their battles and keep the battles that have any."""
    n = len(battles.ids)
    rows = votes.battle_row
    # weight x share is exact (shares are 1, 0.5, 0), and bincount adds in vote (file)
    # order, so the sums are deterministic.
    wins_a = np.bincount(rows, weights=votes.weight * _SHARE_A[votes.choice], minlength=n)
    wins_b = np.bincount(rows, weights=votes.weight * _SHARE_B[votes.choice], minlength=n)
    vote_count = np.bincount(rows, minlength=n).astype(np.int64, copy=False)
    voted = np.flatnonzero(vote_count > 0)
    model_a, model_b = battles.model_a[voted], battles.model_b[voted]
    seen = np.bincount(model_a, minlength=len(battles.models)) + np.bincount(model_b, minlength=len(battles.models))
    used = np.flatnonzero(seen)
    slugs = sorted(battles.models[code] for code in used)
    position = {slug: index for index, slug in enumerate(slugs)}
    remap = np.full(len(battles.models), -1, dtype=np.int32)
    remap[used] = [position[battles.models[code]] for code in used]
    return Dump(
        header=DumpHeader(header.schema_version, header.generated_at, header.categories),
        battles_sha256=battles_sha256,
        votes_sha256=votes_sha256,
        models=tuple(slugs),
        category=battles.category[voted],
        model_a=remap[model_a],
        model_b=remap[model_b],
        features_a=_select_rows(battles.features_a, vote_count > 0),
        features_b=_select_rows(battles.features_b, vote_count > 0),
        wins_a=wins_a[voted],
        wins_b=wins_b[voted],
        vote_count=vote_count[voted],
        battles_in_file=n,
        votes_in_file=len(rows),
    )
