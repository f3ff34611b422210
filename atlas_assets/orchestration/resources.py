"""Dagster resources: where artifacts are written, where the votes dump comes from, where
the recording media live.

Every setting is a resource field that defaults to an environment variable, then to the
embedded default, resolved when a run, observation, check or schedule tick uses it (so a
code server picks up a changed environment on reload):

| field                         | environment variable | embedded default              |
|-------------------------------|----------------------|-------------------------------|
| artifact_store.root           | ATLAS_ARTIFACTS      | <repo>/artifacts              |
| votes_dump_source.source      | ATLAS_VOTES_DUMP     | <repo>/datasets/arena-sample  |
| votes_dump_source.cache_dir   | ATLAS_CACHE_DIR      | <repo>/.cache                 |
| media_bucket.uri              | ATLAS_MEDIA_BUCKET   | unset: the media check is skipped |

A root or source is a local folder or an `s3://bucket/prefix` URI. S3 is reached with
boto3's usual configuration (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
AWS_REGION / AWS_DEFAULT_REGION).

Other domains reuse these resource *instances* (RESOURCES): Definitions.merge accepts the
same resource key from several Definitions only when it is the same object.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import dagster as dg
from pydantic import Field

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.hashing import sha256_bytes, sha256_file
from atlas_assets.core.storage import ArtifactStore, s3_client

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ARTIFACTS = REPO_ROOT / "artifacts"
DEFAULT_VOTES_DUMP = REPO_ROOT / "datasets" / "arena-sample"
DEFAULT_CACHE_DIR = REPO_ROOT / ".cache"

ENV_ARTIFACTS = "ATLAS_ARTIFACTS"
ENV_VOTES_DUMP = "ATLAS_VOTES_DUMP"
ENV_CACHE_DIR = "ATLAS_CACHE_DIR"
ENV_MEDIA_BUCKET = "ATLAS_MEDIA_BUCKET"

DUMP_FILES = ("battles.jsonl", "votes.jsonl")
_CHUNK = 1 << 20


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


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


def _split_s3(uri: str) -> tuple[str, str]:
    bucket, _, key = uri[len("s3://") :].partition("/")
    return bucket, key


def _download_atomic(bucket: str, key: str, destination: Path) -> tuple[str, str, int]:
    """Stream one S3 object to `destination` via a temp file + rename; (etag, sha256, size).

    Constant memory (1 MiB chunks), so a multi-gigabyte dump is never held in RAM, and the
    digest is computed from the same stream that is written.
    """
    import hashlib

    destination.parent.mkdir(parents=True, exist_ok=True)
    response = s3_client().get_object(Bucket=bucket, Key=key)
    digest = hashlib.sha256()
    size = 0
    fd, tmp_name = tempfile.mkstemp(prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            body = response["Body"]
            while chunk := body.read(_CHUNK):
                digest.update(chunk)
                handle.write(chunk)
                size += len(chunk)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, destination)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    return str(response.get("ETag", "")), digest.hexdigest(), size


def _fetch_s3_file(uri: str, cache_folder: Path, download: bool = True) -> tuple[Path, str] | None:
    """The local cached copy of an S3 object and its sha256, downloading only when its ETag changed.

    Each file has a sidecar `<name>.meta.json` (etag, sha256, size), written after the data
    file; a copy whose sidecar matches the object's current ETag and size is reused as is.
    With download=False a stale or absent copy gives None instead of a download.
    """
    from botocore.exceptions import ClientError

    bucket, key = _split_s3(uri)
    name = key.rsplit("/", 1)[-1]
    local = cache_folder / name
    sidecar = cache_folder / f"{name}.meta.json"
    try:
        head = s3_client().head_object(Bucket=bucket, Key=key)
    except ClientError as error:
        if str(error.response.get("Error", {}).get("Code")) in ("404", "NoSuchKey", "NotFound"):
            raise FileNotFoundError(f"votes dump file {uri} does not exist") from None
        raise
    etag, size = str(head.get("ETag", "")), int(head.get("ContentLength", -1))
    try:
        meta = json.loads(sidecar.read_text("utf-8"))
        if meta.get("etag") == etag and meta.get("size") == size and local.is_file() and local.stat().st_size == size:
            return local, str(meta["sha256"])
    except (OSError, ValueError, KeyError):
        pass
    if not download:
        return None
    got_etag, digest, got_size = _download_atomic(bucket, key, local)
    atomic_write_bytes(
        sidecar,
        json.dumps({"uri": uri, "etag": got_etag, "sha256": digest, "size": got_size}, sort_keys=True).encode(),
    )
    return local, digest


def _cache_folder(source: str, cache_dir: str | Path) -> Path:
    return Path(cache_dir).expanduser().resolve() / "votes-dump" / sha256_bytes(source.encode("utf-8"))[:16]


def fetch_dump(source: str, cache_dir: str | Path) -> DumpFiles:
    """Make the dump at `source` (folder or s3://bucket/prefix) available as two local files.

    A local folder is read in place. S3 objects are streamed into
    `<cache_dir>/votes-dump/<sha256(source)[:16]>/` (atomically, re-fetched only when their
    ETag changes). Raises FileNotFoundError naming the missing file.
    """
    store = ArtifactStore(source)
    if not store.is_s3:
        paths = [Path(store.uri(name)) for name in DUMP_FILES]
        for path in paths:
            if not path.is_file():
                raise FileNotFoundError(f"votes dump file {path} does not exist (source {source})")
        battles, votes = paths
        return DumpFiles(
            source=source,
            battles=battles,
            votes=votes,
            battles_uri=str(battles),
            votes_uri=str(votes),
        )
    uris = [store.uri(name) for name in DUMP_FILES]
    (battles, battles_sha), (votes, votes_sha) = (_fetch_s3_file(uri, _cache_folder(source, cache_dir)) for uri in uris)  # type: ignore[misc]
    return DumpFiles(
        source=source,
        battles=battles,
        votes=votes,
        battles_uri=uris[0],
        votes_uri=uris[1],
        known_battles_sha256=battles_sha,
        known_votes_sha256=votes_sha,
    )


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
    found = [_fetch_s3_file(store.uri(name), folder, download=False) for name in DUMP_FILES]
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


class ArtifactStoreResource(dg.ConfigurableResource):
    """Where artifacts (leaderboard.json, leaderboard.png, ...) are written: a local folder or
    an s3://bucket/prefix. Local writes are atomic (temp file + rename); an S3 write is one
    PutObject. Unset: $ATLAS_ARTIFACTS, else <repo>/artifacts."""

    root: Optional[str] = Field(
        default=None,
        description="Folder or s3://bucket/prefix. Unset: $ATLAS_ARTIFACTS, else <repo>/artifacts.",
    )

    def resolved_root(self) -> str:
        return self.root or _env(ENV_ARTIFACTS) or str(DEFAULT_ARTIFACTS)

    def store(self) -> ArtifactStore:
        return ArtifactStore(self.resolved_root())


class VotesDumpResource(dg.ConfigurableResource):
    """Where the platform's nightly votes dump (battles.jsonl + votes.jsonl) is read from: a
    local folder or an s3://bucket/prefix whose objects are streamed into a local cache
    before parsing. Unset: $ATLAS_VOTES_DUMP, else the shipped sample <repo>/datasets/arena-sample."""

    source: Optional[str] = Field(
        default=None,
        description="Folder or s3://bucket/prefix holding battles.jsonl and votes.jsonl. "
        "Unset: $ATLAS_VOTES_DUMP, else <repo>/datasets/arena-sample.",
    )
    cache_dir: Optional[str] = Field(
        default=None,
        description="Local cache for a dump on S3. Unset: $ATLAS_CACHE_DIR, else <repo>/.cache.",
    )

    def resolved_source(self) -> str:
        return self.source or _env(ENV_VOTES_DUMP) or str(DEFAULT_VOTES_DUMP)

    def resolved_cache_dir(self) -> Path:
        return Path(self.cache_dir or _env(ENV_CACHE_DIR) or DEFAULT_CACHE_DIR)

    def fetch(self) -> DumpFiles:
        return fetch_dump(self.resolved_source(), self.resolved_cache_dir())

    def peek_version(self) -> str | None:
        return peek_dump_version(self.resolved_source(), self.resolved_cache_dir())


class MediaBucketResource(dg.ConfigurableResource):
    """The platform's artifacts bucket that recording battles' video/trace/screenshot keys are
    relative to, as s3://bucket[/prefix]. Unset: $ATLAS_MEDIA_BUCKET; when neither is set the
    recording-media check passes with the note "media bucket not configured"."""

    uri: Optional[str] = Field(
        default=None,
        description="s3://bucket[/prefix] of the recording media. Unset: $ATLAS_MEDIA_BUCKET, else not checked.",
    )

    def resolved_uri(self) -> str | None:
        return self.uri or _env(ENV_MEDIA_BUCKET)


artifact_store = ArtifactStoreResource()
votes_dump_source = VotesDumpResource()
media_bucket = MediaBucketResource()

RESOURCES: dict[str, Any] = {
    "artifact_store": artifact_store,
    "votes_dump_source": votes_dump_source,
    "media_bucket": media_bucket,
}
