"""The nightly leaderboard: a job and the 04:30 UTC schedule that requests it only when
the votes dump's bytes changed since the leaderboard was last built (or rejected)."""

from typing import Any

import dagster as dg

from atlas_assets.orchestration.leaderboard.assets import DUMP_CHECK
from atlas_assets.orchestration.resources import VotesDumpResource

nightly_leaderboard_job = dg.define_asset_job(
    "nightly_leaderboard_job",
    selection=dg.AssetSelection.assets("leaderboard", "browser_use_telemetry") | dg.AssetSelection.checks_for_assets("votes_dump"),
    description="Rebuild leaderboard.json and the telemetry summary (with their checks) and check the "
    "recording media; each asset records the votes dump version it read. Requested by the "
    "nightly_leaderboard schedule when the dump changed.",
)


def _metadata_value(entry: Any, key: str) -> Any:
    value = entry.get(key) if entry else None
    return getattr(value, "value", value)


def last_built_dump_version(instance: dg.DagsterInstance) -> str | None:
    """The dump data version the latest leaderboard.json was computed from (its metadata)."""
    event = instance.get_latest_materialization_event(dg.AssetKey("leaderboard"))
    if event is None or event.asset_materialization is None:
        return None
    return _metadata_value(event.asset_materialization.metadata, "dump_data_version")


def last_rejected_dump_version(instance: dg.DagsterInstance) -> str | None:
    """The dump data version the latest dump_is_valid evaluation rejected, if it failed."""
    record = instance.get_latest_asset_check_evaluation_record(dg.AssetCheckKey(dg.AssetKey("leaderboard"), DUMP_CHECK))
    if record is None or record.event is None or record.event.dagster_event is None:
        return None
    evaluation = record.event.dagster_event.event_specific_data
    if getattr(evaluation, "passed", True):
        return None
    return _metadata_value(getattr(evaluation, "metadata", None), "dump_data_version")


@dg.schedule(
    name="nightly_leaderboard",
    cron_schedule="30 4 * * *",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    target=nightly_leaderboard_job,
    description="""Every day at 04:30 UTC (after the platform's 04:00 export): find the votes
dump's data version and request nightly_leaderboard_job only if it differs from the one the
latest leaderboard.json was built from. A dump already rejected by dump_is_valid is not
retried until it changes. A local dump is hashed in the tick; an S3 dump is not downloaded
there: unchanged ETags mean the cached digests still hold, changed ones mean a new export,
which the run fetches. Skipped ticks say why.""",
)
def nightly_leaderboard(context: dg.ScheduleEvaluationContext, votes_dump_source: VotesDumpResource):
    source = votes_dump_source.resolved_source()
    current = votes_dump_source.peek_version()
    if current is None:  # an S3 dump whose objects changed since they were last fetched
        return dg.RunRequest(tags={"atlas/dump_source": source, "atlas/dump_change": "new S3 objects (ETag)"})
    if last_built_dump_version(context.instance) == current:
        return dg.SkipReason(f"votes dump unchanged (data version {current}); leaderboard.json is current")
    if last_rejected_dump_version(context.instance) == current:
        return dg.SkipReason(f"votes dump unchanged since dump_is_valid rejected it (data version {current})")
    return dg.RunRequest(tags={"atlas/dump_data_version": current, "atlas/dump_source": source})
