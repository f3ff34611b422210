"""sha256 of files, bytes and canonical JSON: the data version of every artifact."""

from __future__ import annotations

import hashlib
import json
import json.encoder
from pathlib import Path
from typing import Any, Callable

_CHUNK = 1 << 20


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file's bytes, read in 1 MiB chunks (constant memory)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def json_encoder(*, sort_keys: bool, separators: tuple[str, str], ensure_ascii: bool) -> Callable[[Any], str]:
    """`json.JSONEncoder(...).encode` without its per-call set-up: the C encoder that
    `json.dumps` uses, made once (same output; no NaN, no circular check: the values are
    trees of JSON types). The pure-Python encoder where CPython's C one is missing."""
    python = json.JSONEncoder(sort_keys=sort_keys, separators=separators, ensure_ascii=ensure_ascii, allow_nan=False)
    make = json.encoder.c_make_encoder  # type: ignore[attr-defined]  # CPython's C accelerator, not in typeshed
    if make is None:
        return python.encode
    strings: Callable[[str], str] = (
        json.encoder.c_encode_basestring_ascii  # type: ignore[attr-defined]  # C accelerator, not in typeshed
        if ensure_ascii
        else json.encoder.c_encode_basestring  # type: ignore[attr-defined]  # C accelerator, not in typeshed
    )
    encode = make(None, python.default, strings, None, separators[1], separators[0], sort_keys, False, False)

    def run(value: Any) -> str:
        if isinstance(value, str):
            return strings(value)
        return "".join(encode(value, 0))

    return run


_CANONICAL = json_encoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical_json(value: Any) -> bytes:
    """Canonical JSON bytes: sorted keys, no insignificant whitespace, ASCII, no NaN (what
    `json.dumps(value, sort_keys=True, separators=(",", ":"))` writes)."""
    return _CANONICAL(value).encode("ascii")


def canonical_json_with(fields: dict[str, Any], known: dict[str, bytes]) -> bytes:
    """`canonical_json(fields)` for a mapping some of whose values' canonical JSON is `known`
    already (a long list of cases): the same bytes, written out key by key."""
    pieces = [canonical_json(key) + b":" + (known[key] if key in known else canonical_json(fields[key])) for key in sorted(fields)]
    return b"{" + b",".join(pieces) + b"}"


def sha256_json(value: Any) -> str:
    """sha256 of `canonical_json(value)`: equal for equal JSON values, whatever their key order."""
    return sha256_bytes(canonical_json(value))
