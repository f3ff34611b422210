"""Artifact storage: one interface over a local folder or an `s3://bucket/prefix` URI.

Local writes are atomic (temp file + rename); an S3 write is a single PutObject, which S3
makes visible all at once. Every `put` returns the sha256 of what it stored, so callers
can report it as the artifact's data version. The S3 endpoint comes from boto3's usual
configuration (`AWS_ENDPOINT_URL`, `AWS_ENDPOINT_URL_S3`, credentials, region), which is
how tests point it at a moto server on 127.0.0.1.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.hashing import sha256_bytes


@dataclass(frozen=True)
class StoredArtifact:
    uri: str
    sha256: str
    size: int


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
            s3_client().put_object(
                Bucket=self._bucket,
                Key=self._key(relpath),
                Body=data,
                ContentType=content_type,
                Metadata={"sha256": digest},
            )
        return StoredArtifact(uri=self.uri(relpath), sha256=digest, size=len(data))

    def get_bytes(self, relpath: str) -> bytes:
        if self._local is not None:
            return self._path(relpath).read_bytes()
        response = s3_client().get_object(Bucket=self._bucket, Key=self._key(relpath))
        return response["Body"].read()

    def exists(self, relpath: str) -> bool:
        if self._local is not None:
            return self._path(relpath).is_file()
        from botocore.exceptions import ClientError

        try:
            s3_client().head_object(Bucket=self._bucket, Key=self._key(relpath))
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return False
            raise
        return True

    def list(self, relprefix: str = "") -> Iterator[str]:
        """Relative paths of every artifact under `relprefix`, sorted."""
        if self._local is not None:
            base = self._path(relprefix) if relprefix else self._local
            if not base.exists():
                return iter(())
            return iter(sorted(str(p.relative_to(self._local)) for p in base.rglob("*") if p.is_file()))
        paginator = s3_client().get_paginator("list_objects_v2")
        prefix = self._key(relprefix)
        strip = len(self._prefix) + 1 if self._prefix else 0
        keys = [
            item["Key"][strip:]
            for page in paginator.paginate(Bucket=self._bucket, Prefix=prefix)
            for item in page.get("Contents", [])
        ]
        return iter(sorted(keys))

    def fetch_to(self, relpath: str, destination: Path) -> Path:
        """Copy an artifact to a local path (atomically) and return it."""
        return atomic_write_bytes(destination, self.get_bytes(relpath))


def s3_client():
    """A boto3 S3 client configured from the environment (endpoint, credentials, region)."""
    import boto3

    return boto3.client("s3")
