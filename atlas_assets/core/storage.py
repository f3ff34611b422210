"""Artifact storage: one interface over a local folder or an `s3://bucket/prefix` URI.

Local writes are atomic (temp file + rename); an S3 write is a single PutObject, which S3
makes visible all at once. Every `put` returns the sha256 of what it stored, so callers
can report it as the artifact's data version. The S3 endpoint comes from boto3's usual
configuration (`AWS_ENDPOINT_URL`, `AWS_ENDPOINT_URL_S3`, credentials, region), which is
how tests point it at a moto server on 127.0.0.1. A failed S3 request (credentials,
endpoint, bucket, permissions) raises StorageError: one line naming the object and the
endpoint.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from atlas_assets.core.atomic import atomic_write_bytes, atomic_writer
from atlas_assets.core.hashing import sha256_bytes

_CHUNK = 1 << 20


@dataclass(frozen=True)
class ObjectInfo:
    tag: str
    size: int


@dataclass(frozen=True)
class Downloaded:
    path: Path
    tag: str
    sha256: str
    size: int


@dataclass(frozen=True)
class StoredArtifact:
    uri: str
    sha256: str
    size: int


class StorageError(OSError):
    """An S3 request that failed, in one line: what was asked, of which endpoint, and why."""


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


@contextmanager
def _s3_request(what: str) -> Iterator[Any]:
    """A configured S3 client; botocore errors inside the block become StorageError."""
    from botocore.exceptions import BotoCoreError, ClientError

    try:
        client = s3_client()
    except (BotoCoreError, ValueError) as error:  # e.g. a malformed AWS_ENDPOINT_URL
        raise StorageError(f"{what}: cannot set up the S3 client: {_one_line(error)}") from error
    endpoint = client.meta.endpoint_url
    try:
        yield client
    except ClientError as error:
        detail = error.response.get("Error", {})
        reason = f"{detail.get('Code', '?')}: {detail.get('Message') or 'no message'}"
        raise StorageError(f"{what}: S3 at {endpoint} refused it ({_one_line(reason)})") from error
    except BotoCoreError as error:  # no credentials, unreachable endpoint, broken stream
        raise StorageError(f"{what}: S3 at {endpoint}: {_one_line(error)}") from error


class ArtifactStore:
    """Read and write artifacts under a root that is a local folder or `s3://bucket/prefix`."""

    def __init__(self, root: str | Path):
        root = str(root)
        self.root = root
        if root.startswith("s3://"):
            bucket, _, prefix = root[len("s3://") :].partition("/")
            if not bucket:
                raise ValueError(f"artifact root {root!r}: an S3 URI needs a bucket (s3://bucket/prefix)")
            self._bucket = bucket
            self._prefix = prefix.strip("/")
            self._local: Path | None = None
        else:
            self._local = Path(root).expanduser().resolve()

    @property
    def is_s3(self) -> bool:
        return self._local is None

    def _key(self, relpath: str) -> str:
        relpath = relpath.lstrip("/")
        return f"{self._prefix}/{relpath}" if self._prefix else relpath

    def _path(self, relpath: str) -> Path:
        assert self._local is not None
        path = (self._local / relpath).resolve()
        if self._local not in path.parents and path != self._local:
            raise ValueError(f"artifact path {relpath!r} escapes the store root {self.root}")
        return path

    def uri(self, relpath: str) -> str:
        if self._local is not None:
            return str(self._path(relpath))
        return f"s3://{self._bucket}/{self._key(relpath)}"

    def put_bytes(self, relpath: str, data: bytes, content_type: str = "application/octet-stream") -> StoredArtifact:
        digest = sha256_bytes(data)
        if self._local is not None:
            atomic_write_bytes(self._path(relpath), data)
        else:
            with _s3_request(f"writing {self.uri(relpath)}") as s3:
                s3.put_object(
                    Bucket=self._bucket,
                    Key=self._key(relpath),
                    Body=data,
                    ContentType=content_type,
                    Metadata={"sha256": digest},
                )
        return StoredArtifact(uri=self.uri(relpath), sha256=digest, size=len(data))

    def put_set(self, items: Sequence[tuple[str, bytes, str]]) -> list[StoredArtifact]:
        """Publish artifacts that belong together, as (relpath, data, content_type), in order:
        put the one readers look for last. If a write fails, the earlier ones are put back
        as they were (or removed if they were new) before the error is raised, so a failure
        leaves the previous set, never a new file beside an old one."""
        previous = [self.get_bytes(relpath) if self.head(relpath) else None for relpath, _, _ in items]
        stored: list[StoredArtifact] = []
        try:
            for relpath, data, content_type in items:
                stored.append(self.put_bytes(relpath, data, content_type))
        except Exception as error:
            for (relpath, _, content_type), old in reversed(list(zip(items, previous))[: len(stored)]):
                try:
                    if old is None:
                        self.delete(relpath)
                    else:
                        self.put_bytes(relpath, old, content_type)
                except Exception as undo:
                    raise StorageError(f"{error}; putting back {self.uri(relpath)} failed too, the set is mixed: {undo}") from error
            raise
        return stored

    def delete(self, relpath: str) -> None:
        if self._local is not None:
            self._path(relpath).unlink(missing_ok=True)
        else:
            with _s3_request(f"deleting {self.uri(relpath)}") as s3:
                s3.delete_object(Bucket=self._bucket, Key=self._key(relpath))

    def get_bytes(self, relpath: str) -> bytes:
        if self._local is not None:
            return self._path(relpath).read_bytes()
        with _s3_request(f"reading {self.uri(relpath)}") as s3:
            body: bytes = s3.get_object(Bucket=self._bucket, Key=self._key(relpath))["Body"].read()
            return body

    def exists(self, relpath: str) -> bool:
        return self.head(relpath) is not None

    def list(self, relprefix: str = "") -> Iterator[str]:
        """Relative paths of every artifact under `relprefix`, sorted."""
        if self._local is not None:
            base = self._path(relprefix) if relprefix else self._local
            if not base.exists():
                return iter(())
            return iter(sorted(str(p.relative_to(self._local)) for p in base.rglob("*") if p.is_file()))
        prefix = self._key(relprefix)
        strip = len(self._prefix) + 1 if self._prefix else 0
        with _s3_request(f"listing s3://{self._bucket}/{prefix}") as s3:
            keys = [
                item["Key"][strip:]
                for page in s3.get_paginator("list_objects_v2").paginate(Bucket=self._bucket, Prefix=prefix)
                for item in page.get("Contents", [])
            ]
        return iter(sorted(keys))

    def head(self, relpath: str) -> ObjectInfo | None:
        """Size and version tag of an artifact without reading it; None when it does not exist.

        The tag is the S3 ETag, or for a local file its size and modification time: either
        changes when the content is replaced.
        """
        if self._local is not None:
            path = self._path(relpath)
            if not path.is_file():
                return None
            stat = path.stat()
            return ObjectInfo(tag=f"{stat.st_size}-{stat.st_mtime_ns}", size=stat.st_size)
        from botocore.exceptions import ClientError

        with _s3_request(f"reading {self.uri(relpath)}") as s3:
            try:
                head = s3.head_object(Bucket=self._bucket, Key=self._key(relpath))
            except ClientError as error:
                if str(error.response.get("Error", {}).get("Code")) in ("404", "NoSuchKey", "NotFound"):
                    return None
                raise
        return ObjectInfo(tag=str(head.get("ETag", "")), size=int(head.get("ContentLength", -1)))

    def download(self, relpath: str, destination: Path) -> Downloaded:
        """Stream an artifact to a local file (atomically, constant memory), hashing as it goes."""
        if self._local is not None:
            tag = self.head(relpath).tag  # type: ignore[union-attr]
            with open(self._path(relpath), "rb") as source:
                digest, size = _copy(source, destination)
        else:
            with _s3_request(f"reading {self.uri(relpath)}") as s3:
                response = s3.get_object(Bucket=self._bucket, Key=self._key(relpath))
                tag = str(response.get("ETag", ""))
                with response["Body"] as source:
                    digest, size = _copy(source, destination)
        return Downloaded(path=Path(destination), tag=tag, sha256=digest.hexdigest(), size=size)


def _copy(source: Any, destination: Path) -> tuple[Any, int]:
    """Stream `source` into `destination` atomically; (sha256 object, bytes copied)."""
    digest, size = hashlib.sha256(), 0
    with atomic_writer(destination) as handle:
        while chunk := source.read(_CHUNK):
            digest.update(chunk)
            handle.write(chunk)
            size += len(chunk)
    return digest, size


def s3_client() -> Any:  # boto3 ships no types (and is not stubbed here)
    """A boto3 S3 client configured from the environment (endpoint, credentials, region)."""
    import boto3

    return boto3.client("s3")
