"""The leaderboard's checks that stand apart from a materialization.

    recording_media_present   on votes_dump: every recording battle's media key resolves to
                              an object in the media bucket (WARN, never blocks)

The blocking dump_is_valid check is evaluated by the leaderboard asset itself (assets.py),
before anything is written.
"""

import dagster as dg

from atlas_assets.orchestration.leaderboard.assets import votes_dump
from atlas_assets.orchestration.resources import ENV_MEDIA_BUCKET, MediaBucketResource, VotesDumpResource
from atlas_assets.ratings.media import check_recording_media, missing_markdown

MEDIA_CHECK = "recording_media_present"


@dg.asset_check(
    asset=votes_dump,
    name=MEDIA_CHECK,
    blocking=False,
    description=f"""Every recording battle's video_key / trace_key / screenshot_key resolves to an
object in the platform's artifacts bucket (`{ENV_MEDIA_BUCKET}` = s3://bucket[/prefix]; one
HeadObject per distinct key). Missing objects are listed by battle id in the metadata and
the check WARNs; it never blocks or fails the leaderboard (the engine does not read media).
Unconfigured, it passes with the note "media bucket not configured".""",
)
def recording_media_present(
    context: dg.AssetCheckExecutionContext,
    votes_dump_source: VotesDumpResource,
    media_bucket: MediaBucketResource,
) -> dg.AssetCheckResult:
    from atlas_assets.ratings.dump import iter_recording_battles

    bucket_uri = media_bucket.resolved_uri()
    if not bucket_uri:
        return dg.AssetCheckResult(
            passed=True,
            description=f"media bucket not configured (set {ENV_MEDIA_BUCKET}=s3://bucket[/prefix])",
            metadata={"note": "media bucket not configured"},
        )
    dump = votes_dump_source.fetch()
    report = check_recording_media(iter_recording_battles(dump.battles), bucket_uri)
    missing_ids = list(report.missing)
    missing_refs = report.as_dict()["missing"]
    if report.bucket_error:
        description = f"media not checked: {report.bucket_error}"
    elif report.ok:
        description = f"all {report.objects_checked} media objects of {report.battles_checked} recording battles exist"
    else:
        description = (
            f"{report.missing_count} media objects missing in {len(missing_ids)} of "
            f"{report.battles_checked} recording battles" + (f"; {len(report.errors)} keys could not be checked" if report.errors else "")
        )
    context.log.info(description)
    return dg.AssetCheckResult(
        passed=report.ok,
        severity=dg.AssetCheckSeverity.WARN,
        description=description,
        metadata={
            "bucket": bucket_uri,
            "dump_data_version": dump.data_version,
            "recording_battles": dg.MetadataValue.int(report.battles_checked),
            "objects_checked": dg.MetadataValue.int(report.objects_checked),
            "missing_objects": dg.MetadataValue.int(report.missing_count),
            "battles_with_missing_media": dg.MetadataValue.int(len(missing_ids)),
            # By battle id; capped so a badly broken bucket cannot bloat the event log.
            "missing_by_battle": dg.MetadataValue.json({bid: missing_refs[bid] for bid in missing_ids[:200]}),
            "missing": dg.MetadataValue.md(missing_markdown(report)),
            "errors": dg.MetadataValue.json(dict(list(report.errors.items())[:50])),
            **({"bucket_error": dg.MetadataValue.text(report.bucket_error)} if report.bucket_error else {}),
        },
    )
