"""Do the media a recording battle points at actually exist? (spec 3.1)

A recording battle names up to three objects per slot (video_key, trace_key,
screenshot_key), relative to the platform's artifacts bucket. The dump does not carry
the media; this module asks the bucket, with one boto3 HeadObject per distinct key,
and reports every key that is not there, grouped by battle id.

Plain functions, no Dagster import. The S3 endpoint, credentials and region come from
boto3's usual configuration (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, ...), which is how
the tests point it at a moto server on 127.0.0.1.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol

from atlas_assets.core.parallel import bounded_map

KEY_FIELDS: tuple[str, ...] = ("video_key", "trace_key", "screenshot_key")
_NOT_FOUND = {"404", "NoSuchKey", "NotFound"}


class _Recording(Protocol):
    @property
    def video_key(self) -> str | None: ...
    @property
    def trace_key(self) -> str | None: ...
    @property
    def screenshot_key(self) -> str | None: ...


class _RecordingBattle(Protocol):
    """The slice of atlas_assets.ratings.dump.RecordingBattle this module reads."""

    @property
    def battle_id(self) -> str: ...
    @property
    def recording_a(self) -> _Recording: ...
    @property
    def recording_b(self) -> _Recording: ...


@dataclass(frozen=True)
class MediaRef:
    """One object reference of a battle: which slot, which field, which key."""

    battle_id: str
    slot: str  # "a" or "b"
    field: str  # one of KEY_FIELDS
    key: str  # as written in the dump (relative to the bucket prefix)


@dataclass(frozen=True)
class MediaReport:
    bucket: str
    prefix: str
    battles_checked: int
    objects_checked: int  # distinct keys asked for
    references: int  # key references in the dump (a key shared by two battles counts twice)
    missing: dict[str, list[MediaRef]] = field(default_factory=dict)  # battle id -> refs, dump order
    errors: dict[str, str] = field(default_factory=dict)  # key -> error other than "not found"
    bucket_error: str | None = None  # the bucket itself could not be reached; nothing was checked

    @property
    def missing_count(self) -> int:
        return sum(len(refs) for refs in self.missing.values())

    @property
    def ok(self) -> bool:
        return not self.missing and not self.errors and self.bucket_error is None

    def as_dict(self) -> dict[str, Any]:
        return {
            "bucket": self.bucket,
            "prefix": self.prefix,
            "battles_checked": self.battles_checked,
            "objects_checked": self.objects_checked,
            "references": self.references,
            "missing": {
                battle_id: [{"slot": r.slot, "field": r.field, "key": r.key} for r in refs] for battle_id, refs in self.missing.items()
            },
            "errors": dict(self.errors),
            "bucket_error": self.bucket_error,
        }


def parse_bucket_uri(uri: str) -> tuple[str, str]:
    """`s3://bucket[/prefix]` -> (bucket, prefix without surrounding slashes)."""
    if not uri.startswith("s3://"):
        raise ValueError(f"media bucket {uri!r}: expected s3://bucket[/prefix]")
    bucket, _, prefix = uri[len("s3://") :].partition("/")
    if not bucket:
        raise ValueError(f"media bucket {uri!r}: an S3 URI needs a bucket (s3://bucket[/prefix])")
    return bucket, prefix.strip("/")


def media_refs(battles: Iterable[_RecordingBattle]) -> tuple[int, list[MediaRef]]:
    """Every non-null key of every recording battle, in dump order; and the battle count."""
    refs: list[MediaRef] = []
    count = 0
    for battle in battles:
        count += 1
        for slot, recording in (("a", battle.recording_a), ("b", battle.recording_b)):
            if recording is None:
                continue
            for name in KEY_FIELDS:
                key = getattr(recording, name, None)
                if key:
                    refs.append(MediaRef(battle.battle_id, slot, name, key))
    return count, refs


def _object_key(prefix: str, key: str) -> str:
    key = key.lstrip("/")
    return f"{prefix}/{key}" if prefix else key


def _head(client: Any, bucket: str, key: str) -> tuple[bool, str | None]:
    """(exists, error): error is set for any failure other than 'not found'."""
    from botocore.exceptions import ClientError

    try:
        client.head_object(Bucket=bucket, Key=key)
    except ClientError as error:
        code = str(error.response.get("Error", {}).get("Code", ""))
        if code in _NOT_FOUND:
            return False, None
        return False, f"{code or 'error'}: {error}"
    return True, None


def check_recording_media(
    battles: Iterable[_RecordingBattle],
    bucket_uri: str,
    *,
    client: Any = None,
    max_workers: int = 16,
) -> MediaReport:
    """Resolve every recording battle's media keys against `bucket_uri` (s3://bucket[/prefix]).

    The bucket is asked for first (HeadBucket): S3 answers a HeadObject in a missing
    bucket with the same 404 as a missing key, so an unreachable bucket is reported once
    in `bucket_error` instead of as every key missing. Then each distinct key is asked for
    once (HeadObject, `max_workers` in parallel, a bounded number queued: core.parallel).
    A key that does not exist is reported under every battle that references it. Any other failure (access denied, throttling,
    ...) is reported in `errors` by key, and those keys are not counted as missing: the
    check cannot tell.
    """
    bucket, prefix = parse_bucket_uri(bucket_uri)
    battle_count, refs = media_refs(battles)
    keys = sorted({_object_key(prefix, ref.key) for ref in refs})
    if client is None:
        import boto3

        client = boto3.client("s3")
    if keys:
        from botocore.exceptions import ClientError

        try:
            client.head_bucket(Bucket=bucket)
        except ClientError as error:
            code = str(error.response.get("Error", {}).get("Code", "")) or "error"
            return MediaReport(
                bucket=bucket,
                prefix=prefix,
                battles_checked=battle_count,
                objects_checked=0,
                references=len(refs),
                bucket_error=f"bucket {bucket!r} cannot be reached ({code}): {error}",
            )
    heads = bounded_map(functools.partial(_head, client, bucket), keys, workers=max(1, min(max_workers, len(keys))))
    status = dict(zip(keys, heads))
    missing: dict[str, list[MediaRef]] = {}
    errors: dict[str, str] = {}
    for ref in refs:
        full = _object_key(prefix, ref.key)
        exists, head_error = status[full]
        if head_error is not None:
            errors[full] = head_error
        elif not exists:
            missing.setdefault(ref.battle_id, []).append(ref)
    return MediaReport(
        bucket=bucket,
        prefix=prefix,
        battles_checked=battle_count,
        objects_checked=len(keys),
        references=len(refs),
        missing=missing,
        errors=errors,
    )


def missing_markdown(report: MediaReport, limit: int = 50) -> str:
    """A markdown table of missing objects by battle id (first `limit` battles)."""
    if not report.missing:
        return "All referenced media objects exist."
    lines = ["| battle | slot | field | key |", "|---|---|---|---|"]
    for index, (battle_id, refs) in enumerate(report.missing.items()):
        if index == limit:
            lines.append(f"| … {len(report.missing) - limit} more battles | | | |")
            break
        for ref in refs:
            lines.append(f"| {battle_id} | {ref.slot} | {ref.field} | `{ref.key}` |")
    return "\n".join(lines)
