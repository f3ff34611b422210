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

import os
from pathlib import Path
from typing import Any, Optional

import dagster as dg
from pydantic import Field

from atlas_assets.core.storage import ArtifactStore
from atlas_assets.ratings.source import DumpFiles, fetch_dump, peek_dump_version

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ARTIFACTS = REPO_ROOT / "artifacts"
DEFAULT_VOTES_DUMP = REPO_ROOT / "datasets" / "arena-sample"
DEFAULT_CACHE_DIR = REPO_ROOT / ".cache"

ENV_ARTIFACTS = "ATLAS_ARTIFACTS"
ENV_VOTES_DUMP = "ATLAS_VOTES_DUMP"
ENV_CACHE_DIR = "ATLAS_CACHE_DIR"
ENV_MEDIA_BUCKET = "ATLAS_MEDIA_BUCKET"


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def default_cache_dir() -> Path:
    """The local cache root: $ATLAS_CACHE_DIR, else <repo>/.cache (read at each call)."""
    return Path(_env(ENV_CACHE_DIR) or DEFAULT_CACHE_DIR)


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
        return Path(self.cache_dir) if self.cache_dir else default_cache_dir()

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
