"""Names that become Dagster partition keys or asset-key parts, and what makes one unusable.

Engine names (engines.yaml), workload ids (workloads/*.yaml), translation corpus ids and
autobench generation ids are partition keys: engine x workload and engine x corpus are
multi-partitions definitions over two static ones, autobench generations a dynamic one.
Translation corpus ids and autobench benchmark names are also parts of asset keys. A name
Dagster refuses raises while the definitions are built, and then the whole code location
fails to load. So every loader checks its names here: the Dagster load path leaves a bad
entry out and reports it, a CLI refuses it; either way the message names file and field.

What Dagster 1.13 does (tests/core/test_names.py holds these facts against the installed
package, so an upgrade that changes them fails a test):

* A static partitions definition refuses a key holding three dots in a row (the UI and
  `dagster asset materialize --partition-range` write a range of keys as FIRST...LAST) or one
  of eight escape characters the UI cannot show: NUL, BEL, BS, TAB, LF, VT, FF and CR. It
  refuses a key listed twice, too (the loaders report duplicate ids).
* A multi-partitions definition joins its dimensions' keys with `|` into one key, and
  refuses a static dimension with a key holding `|`, `,`, `[` or `]`.
* A dynamic partitions definition checks nothing: an instance or a sensor request adds any
  string. Its keys get the same rules here: a range or a multi-partitions definition over
  them would break the same way.
* There is no length limit.
* `dagster job backfill --partitions A,B` splits its argument at commas and strips
  whitespace, so a key with a comma, surrounding whitespace, or an empty key cannot be
  named there.
* `@asset(key=...)` and observable source assets name their op after the key: its parts
  joined by `__`, with `-` and `.` made `_`, and an op name must match [A-Za-z0-9_]+. So an
  asset-key part may hold only ASCII letters, digits, `_`, `-` and `.` (Dagster's check,
  a `$`-anchored regex, lets one trailing newline through; the project's rules do not).

The project's own rules on top, for every name (each is also a folder or file name: runs/
<engine>/<workload>, the artifact store's evals/<engine>/<workload>/..., workloads/<id>.yaml):

* not empty, no whitespace at either end (the backfill CLI above; the UI does not show it);
* no other invisible character (Unicode control, format, surrogate, private-use, unassigned,
  line or paragraph separator): Dagster refuses a few for not displaying, the rest hide as well;
* no `/` or `\\`, not `.` or `..`: a path separator would put two partitions' files in one
  folder, or outside the folder;
* at most MAX_NAME_BYTES bytes of UTF-8 (most filesystems cap a file name at 255 bytes).

Plain Python: no Dagster import (the CLIs check names without loading Dagster).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Callable

from pydantic import AfterValidator

__all__ = [
    "MAX_NAME_BYTES",
    "AssetKeyPart",
    "PartitionKey",
    "asset_key_part_problem",
    "dagster_asset_key_part_problem",
    "dagster_partition_key_problem",
    "partition_key_problem",
]

MAX_NAME_BYTES = 200

_RANGE_SEPARATOR = "..."
_ESCAPES = {"\0": "NUL", "\a": "BEL", "\b": "BS", "\t": "TAB", "\n": "a newline (LF)", "\v": "VT", "\f": "FF", "\r": "CR"}
_MULTI_RESERVED = {
    "|": "Dagster's multi-partition delimiter",
    ",": "Dagster refuses it in a multi-partition key; its backfill CLI splits keys at commas",
    "[": "Dagster refuses it in a multi-partition key",
    "]": "Dagster refuses it in a multi-partition key",
}
_ASSET_KEY_PART = re.compile(r"[A-Za-z0-9_.-]*")
_INVISIBLE_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def dagster_partition_key_problem(name: str) -> str | None:
    """What Dagster itself refuses in a key of a multi-partitions definition's static
    dimension (the strictest place a key of ours goes), or None."""
    if _RANGE_SEPARATOR in name:
        return "contains '...' (Dagster's partition-range separator)"
    for char in name:
        if char in _ESCAPES:
            return f"contains {_ESCAPES[char]} ({char!r}), which Dagster refuses in a partition key"
        if char in _MULTI_RESERVED:
            return f"contains {char!r} ({_MULTI_RESERVED[char]})"
    return None


def dagster_asset_key_part_problem(name: str) -> str | None:
    """What makes Dagster refuse `name` as a part of an asset key of an asset it builds an op for, or None."""
    checked = name.removesuffix("\n")  # what Dagster's `$`-anchored match lets through
    if _ASSET_KEY_PART.fullmatch(checked):
        return None
    char = next(c for c in checked if not _ASSET_KEY_PART.fullmatch(c))
    return (
        f"contains {char!r}: a Dagster asset-key part may hold only ASCII letters, digits, "
        "'_', '-' and '.' (Dagster names the asset's op after its key)"
    )


def _project_problem(name: str) -> str | None:
    if not name:
        return "is empty"
    if not name.strip():
        return "is only whitespace"
    if name != name.strip():
        return "starts or ends with whitespace (Dagster's CLI strips it; the UI does not show it)"
    for char in name:
        if unicodedata.category(char) in _INVISIBLE_CATEGORIES:
            return f"contains the invisible character U+{ord(char):04X} {unicodedata.name(char, '(unnamed)')}"
    if "/" in name or "\\" in name:
        return "contains a path separator ('/' or '\\'): the name is a folder name in run folders and the artifact store"
    if name in (".", ".."):
        return f"is {name!r}, which names a folder's own or parent folder"
    size = len(name.encode("utf-8"))
    if size > MAX_NAME_BYTES:
        return f"is {size} bytes long in UTF-8 (at most {MAX_NAME_BYTES}: the name is also a file and folder name)"
    return None


def partition_key_problem(name: str) -> str | None:
    """Why `name` cannot be a partition key here (Dagster's rules, then the project's), or None."""
    return dagster_partition_key_problem(name) or _project_problem(name)


def asset_key_part_problem(name: str) -> str | None:
    """Why `name` cannot be a part of an asset key here (Dagster's rule, then the project's), or None."""
    return dagster_asset_key_part_problem(name) or _project_problem(name)


def _checked(label: str, problem_of: Callable[[str], str | None]) -> Any:
    def check(name: str) -> str:
        problem = problem_of(name)
        if problem:
            raise ValueError(f"{label}: {problem}")
        return name

    return Annotated[str, AfterValidator(check)]


def PartitionKey(label: str) -> Any:  # CamelCase: used as a type, dict[PartitionKey("engine name"), Engine]
    """A str type for pydantic models that refuses what `partition_key_problem` refuses; the
    error reads `<label>: <problem>` (e.g. `engine name: contains '|' (...)`)."""
    return _checked(label, partition_key_problem)


def AssetKeyPart(label: str) -> Any:  # CamelCase: used as a type, like PartitionKey
    """A str type that refuses what `asset_key_part_problem` refuses."""
    return _checked(label, asset_key_part_problem)
