"""The one way an asset's code version is made: a label plus a digest of the source files
that can change what the asset writes.

Dagster compares code versions to tell a user "the code changed since this was built";
the digest covers each file's path (relative to the package) and bytes, so editing, adding,
renaming or removing a listed file changes the version, and editing anything else does not.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable

PACKAGE_DIR = Path(__file__).resolve().parents[1]


def source_files(folder: str, include: Iterable[str] = ("*.py",), exclude: Iterable[str] = ()) -> list[Path]:
    """The files of `atlas_assets/<folder>` matching any `include` glob and no `exclude` name."""
    root = PACKAGE_DIR / folder
    excluded = set(exclude)
    return sorted({p for pattern in include for p in root.glob(pattern) if p.name not in excluded})


def code_version(label: str, files: Iterable[Path], base: Path = PACKAGE_DIR) -> str:
    """`<label>+<16 hex digits>` over the files' paths (relative to `base`) and bytes."""
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        name = path.relative_to(base).as_posix() if path.is_relative_to(base) else path.name
        data = path.read_bytes() if path.is_file() else b"<absent>"
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return f"{label}+{digest.hexdigest()[:16]}"
