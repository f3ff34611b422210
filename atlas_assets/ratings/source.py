"""Where a votes dump comes from: a local folder, or an `s3://bucket/prefix` streamed into a
local cache (re-fetched only when an object's ETag changes). No Dagster import."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.hashing import sha256_bytes, sha256_file
from atlas_assets.core.storage import ArtifactStore

DUMP_FILES = ("battles.jsonl", "votes.jsonl")


def dump_data_version(battles_sha256: str, votes_sha256: str) -> str:
    """The votes dump's data version: sha256 of "<battles sha256>:<votes sha256>"."""
    return sha256_bytes(f"{battles_sha256}:{votes_sha256}".encode("ascii"))


@dataclass
class DumpFiles:
    """A votes dump made local: the two files on disk, where they came from, their digests.

    The digests of a local source are computed on first use (a multi-gigabyte dump is
    hashed only by whoever needs the hash; the rating engine hashes while it parses); those
    of an S3 source come with the download.
    """

    source: str  # the configured folder or s3:// prefix
    battles: Path  # local file to parse (the source itself, or the cached copy of an S3 object)
    votes: Path
    battles_uri: str  # where the file lives in the source (path or s3:// URI)
    votes_uri: str
    known_battles_sha256: str | None = field(default=None, repr=False)
    known_votes_sha256: str | None = field(default=None, repr=False)

    @property
    def battles_sha256(self) -> str:
        if self.known_battles_sha256 is None:
            self.known_battles_sha256 = sha256_file(self.battles)
        return self.known_battles_sha256

    @property
    def votes_sha256(self) -> str:
        if self.known_votes_sha256 is None:
            self.known_votes_sha256 = sha256_file(self.votes)
        return self.known_votes_sha256

    @property
    def data_version(self) -> str:
        return dump_data_version(self.battles_sha256, self.votes_sha256)

    def source_name(self, local_path: str | Path) -> str:
        """Map a local (possibly cached) file path back to its source URI, for messages."""
        local = str(local_path)
        if local == str(self.battles):
            return self.battles_uri
        if local == str(self.votes):
            return self.votes_uri
        return local


def _cached_copy(store: ArtifactStore, name: str, folder: Path, download: bool = True) -> tuple[Path, str] | None:
    """The local cached copy of one S3 object and its sha256, downloading only when its ETag changed.

    Each file has a sidecar `<name>.meta.json` (etag, sha256, size), written after the data
    file; a copy whose sidecar matches the object's current ETag and size is reused as is.
    With download=False a stale or absent copy gives None instead of a download.
    """
    info = store.head(name)
    if info is None:
        raise FileNotFoundError(f"votes dump file {store.uri(name)} does not exist")
    local, sidecar = folder / name, folder / f"{name}.meta.json"
    try:
        meta = json.loads(sidecar.read_text("utf-8"))
        if meta.get("etag") == info.tag and meta.get("size") == info.size and local.stat().st_size == info.size:
            return local, str(meta["sha256"])
    except (OSError, ValueError, KeyError):
        pass
    if not download:
        return None
    got = store.download(name, local)
    record = {"uri": store.uri(name), "etag": got.tag, "sha256": got.sha256, "size": got.size}
    atomic_write_bytes(sidecar, json.dumps(record, sort_keys=True).encode())
    return local, got.sha256


def _cache_folder(source: str, cache_dir: str | Path) -> Path:
    return Path(cache_dir).expanduser().resolve() / "votes-dump" / sha256_bytes(source.encode("utf-8"))[:16]


def fetch_dump(source: str, cache_dir: str | Path) -> DumpFiles:
    """Make the dump at `source` (folder or s3://bucket/prefix) available as two local files.

    A local folder is read in place. S3 objects are streamed into
    `<cache_dir>/votes-dump/<sha256(source)[:16]>/` (atomically, re-fetched only when their
    ETag changes). Raises FileNotFoundError naming the missing file.
    """
    store = ArtifactStore(source)
    uris = [store.uri(name) for name in DUMP_FILES]
    if not store.is_s3:
        for uri in uris:
            if not Path(uri).is_file():
                raise FileNotFoundError(f"votes dump file {uri} does not exist (source {source})")
        return DumpFiles(source, Path(uris[0]), Path(uris[1]), uris[0], uris[1])
    folder = _cache_folder(source, cache_dir)
    (battles, battles_sha), (votes, votes_sha) = (_cached_copy(store, name, folder) for name in DUMP_FILES)  # type: ignore[misc]
    return DumpFiles(source, battles, votes, uris[0], uris[1], battles_sha, votes_sha)


def peek_dump_version(source: str, cache_dir: str | Path) -> str | None:
    """The dump's data version without downloading anything; None when it cannot be known cheaply.

    A local folder is hashed in place. On S3 only the objects' ETags are read: when both
    match the cached copies, their recorded digests give the version; otherwise (a new
    export, or nothing cached yet) the answer is None, meaning "changed, fetch it". This
    keeps a schedule tick (which has a time limit) from streaming gigabytes.
    """
    store = ArtifactStore(source)
    if not store.is_s3:
        return fetch_dump(source, cache_dir).data_version
    folder = _cache_folder(source, cache_dir)
    found = [_cached_copy(store, name, folder, download=False) for name in DUMP_FILES]
    if found[0] is None or found[1] is None:
        return None
    return dump_data_version(found[0][1], found[1][1])


def read_header(path: Path) -> dict[str, Any]:
    """The header object of a JSONL dump file, or {} when it is unreadable (validation reports that)."""
    try:
        with open(path, "rb") as handle:
            line = handle.readline(1 << 16)
        value = json.loads(line)
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}
