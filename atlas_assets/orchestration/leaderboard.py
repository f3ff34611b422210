"""The arena leaderboard as Dagster assets: votes_dump -> leaderboard, browser_use_telemetry.

A thin shell: all logic lives in atlas_assets.ratings (reading, fitting, rendering,
plotting, telemetry, media resolution). This module wires it up, reports data versions
and metadata, and schedules the nightly rebuild.

Graph (group "arena"):

    votes_dump (observable source; data version = sha256 of the two dump files)
      ├── check recording_media_present   (WARN, never blocks)
      ├── leaderboard                     (data version = sha256 of leaderboard.json)
      │     └── check dump_is_valid       (blocking, ERROR: an invalid dump writes nothing)
      └── browser_use_telemetry           (per-model medians of the computer-use telemetry)

    job nightly_leaderboard_job = observe votes_dump + leaderboard + browser_use_telemetry
    schedule nightly_leaderboard: 04:30 UTC, running by default; requests the job only when
    the dump's data version differs from the one the last leaderboard was built from.

(No `from __future__ import annotations` here: Dagster reads the config and resource
annotations of the decorated functions at definition time.)
"""

import base64
import hashlib
import json
import time
import warnings
from pathlib import Path
from typing import Any, Iterator

import dagster as dg
from pydantic import Field

from atlas_assets.orchestration.resources import (
    ENV_ARTIFACTS,
    ENV_MEDIA_BUCKET,
    ENV_VOTES_DUMP,
    RESOURCES,
    ArtifactStoreResource,
    MediaBucketResource,
    VotesDumpResource,
)
from atlas_assets.ratings import PACKAGE_VERSION
from atlas_assets.ratings.errors import DumpError
from atlas_assets.ratings.leaderboard import ComputeParams, compute_leaderboard
from atlas_assets.ratings.media import check_recording_media, missing_markdown
from atlas_assets.ratings.plot import render_leaderboard_png
from atlas_assets.ratings.report import TOP_N, categories_table, top_table
from atlas_assets.ratings.source import DumpFiles, dump_data_version, read_header
from atlas_assets.ratings.telemetry import summarize_telemetry, telemetry_json, telemetry_markdown

GROUP = "arena"
LEADERBOARD_JSON = "leaderboard.json"
LEADERBOARD_PNG = "leaderboard.png"
TELEMETRY_JSON = "browser_use_telemetry.json"
DUMP_CHECK = "dump_is_valid"
MEDIA_CHECK = "recording_media_present"

_RATINGS_DIR = Path(__file__).resolve().parents[1] / "ratings"


def _source_version(names: list[str]) -> str:
    """A code version from the engine's own source: a changed engine shows as such in the UI."""
    digest = hashlib.sha256()
    for name in sorted(names):
        path = _RATINGS_DIR / name
        digest.update(name.encode())
        digest.update(path.read_bytes() if path.is_file() else b"<absent>")
    return f"{PACKAGE_VERSION}+{digest.hexdigest()[:16]}"


# Everything that can change leaderboard.json or its picture; the CLI, the sample generator,
# media and telemetry cannot.
_NOT_ENGINE = {"cli.py", "sample.py", "media.py", "telemetry.py", "report.py", "source.py"}
LEADERBOARD_CODE_VERSION = _source_version(
    [p.name for p in _RATINGS_DIR.glob("*.py") if p.name not in _NOT_ENGINE]
)
TELEMETRY_CODE_VERSION = _source_version(["telemetry.py", "dump.py", "model.py", "errors.py"])


# --------------------------------------------------------------------------- votes_dump

def _observe_dump(dump: DumpFiles) -> dg.ObserveResult:
    header = read_header(dump.battles)
    metadata: dict[str, Any] = {
        "source": dump.source,
        "battles": dg.MetadataValue.path(dump.battles_uri),
        "votes": dg.MetadataValue.path(dump.votes_uri),
        "battles_sha256": dump.battles_sha256,
        "votes_sha256": dump.votes_sha256,
        "battles_bytes": dg.MetadataValue.int(dump.battles.stat().st_size),
        "votes_bytes": dg.MetadataValue.int(dump.votes.stat().st_size),
    }
    if "generated_at" in header:
        metadata["generated_at"] = str(header["generated_at"])
    if "schema_version" in header:
        metadata["schema_version"] = str(header["schema_version"])
    if isinstance(header.get("categories"), list):
        metadata["categories"] = ", ".join(str(c) for c in header["categories"])
    return dg.ObserveResult(data_version=dg.DataVersion(dump.data_version), metadata=metadata)


with warnings.catch_warnings():
    # observable_source_asset is marked beta in Dagster 1.13; it is the documented way to
    # give an external input a data version, which is exactly what the dump is.
    warnings.simplefilter("ignore", category=dg.BetaWarning)

    @dg.observable_source_asset(
        key="votes_dump",
        group_name=GROUP,
        description=f"""The platform's nightly arena export: `battles.jsonl` + `votes.jsonl`
(HumanEval dump format v1/v2), produced at 04:00 UTC.

**Source.** A local folder or an `s3://bucket/prefix`, set by `{ENV_VOTES_DUMP}`
(default: the shipped sample `datasets/arena-sample/`). Objects on S3 are streamed into a
local cache (`ATLAS_CACHE_DIR`, default `.cache/`) and re-fetched only when their ETag changes.

**Data version** = sha256 of `"<sha256 of battles.jsonl>:<sha256 of votes.jsonl>"`, so
the leaderboard shows as stale exactly when the dump's bytes change. Observing only hashes
the files; validation is the leaderboard's blocking `{DUMP_CHECK}` check.""",
    )
    def votes_dump(context, votes_dump_source: VotesDumpResource) -> dg.ObserveResult:
        dump = votes_dump_source.fetch()
        context.log.info(f"votes dump {dump.source}: data version {dump.data_version}")
        return _observe_dump(dump)


# --------------------------------------------------------------------------- leaderboard

_DEFAULTS = ComputeParams()


class LeaderboardConfig(dg.Config):
    """The `humaneval-ratings compute` parameters; every one is echoed in leaderboard.json."""

    seed: int = Field(default=_DEFAULTS.seed, ge=0, description="--seed: seeds each category's random stream.")
    bootstrap_rounds: int = Field(
        default=_DEFAULTS.bootstrap_rounds, ge=1, description="--bootstrap-rounds: replicates behind each 95% CI."
    )
    min_votes: int = Field(
        default=_DEFAULTS.min_votes, ge=0, description="--min-votes: fewer votes in a category => provisional, rank null."
    )
    style_min_votes: int = Field(
        default=_DEFAULTS.style_min_votes,
        ge=0,
        description="--style-min-votes: fewer votes in a category => style control off (SC fields mirror raw).",
    )

    def params(self) -> ComputeParams:
        return ComputeParams(
            seed=self.seed,
            bootstrap_rounds=self.bootstrap_rounds,
            min_votes=self.min_votes,
            style_min_votes=self.style_min_votes,
        )


def _progress_logger(context: dg.AssetExecutionContext, every_seconds: float = 15.0):
    """A `progress(label, done, total)` callback: logs each new stage once, then at most one
    line every N s (categories are fitted side by side, so stages interleave)."""
    seen: set[str] = set()
    state: dict[str, float] = {"at": 0.0}

    def progress(label: str, done: int, total: int) -> None:
        now = time.monotonic()
        if label not in seen or now - state["at"] >= every_seconds:
            context.log.debug(f"{label}: {done}/{total}")
            seen.add(label)
            state["at"] = now

    return progress


def _dump_facts(source: str, battles_sha256: str, votes_sha256: str) -> dict[str, Any]:
    return {
        "source": source,
        "dump_data_version": dump_data_version(battles_sha256, votes_sha256),
        "battles_sha256": battles_sha256,
        "votes_sha256": votes_sha256,
    }


def _rejected(
    context: dg.AssetExecutionContext, message: str, metadata: dict[str, Any]
) -> Iterator[dg.AssetCheckResult]:
    context.log.error(f"votes dump rejected, leaderboard.json left untouched: {message}")
    yield dg.AssetCheckResult(
        check_name=DUMP_CHECK,
        passed=False,
        severity=dg.AssetCheckSeverity.ERROR,
        description=message,
        metadata={"error": dg.MetadataValue.text(message), **metadata},
    )
    raise dg.Failure(
        description=f"votes dump rejected; leaderboard.json was not written: {message}",
        metadata={"error": dg.MetadataValue.text(message)},
        allow_retries=False,
    )


@dg.asset(
    key="leaderboard",
    group_name=GROUP,
    deps=[votes_dump],
    code_version=LEADERBOARD_CODE_VERSION,
    output_required=False,
    kinds={"python"},
    check_specs=[
        dg.AssetCheckSpec(
            DUMP_CHECK,
            asset="leaderboard",
            blocking=True,
            description="The votes dump passes every validation rule of the dump spec (section 5, "
            "plus malformed JSON/UTF-8, blank lines, wrong JSON types, non-finite weights). "
            "Evaluated before anything is written: on failure the run fails, leaderboard.json "
            "is neither produced nor replaced, and the description names file:line and field.",
        )
    ],
    description=f"""The arena leaderboard: `leaderboard.json` exactly as
`humaneval-ratings compute` writes it (dump spec section 6), plus `leaderboard.png`.

**What it is.** Per category, weighted Bradley–Terry ratings on the Elo scale (centred at
1000) with 95% percentile-bootstrap CIs, style-controlled ratings, rank bands from the
published CIs, and provisional models (rank null) below `min_votes` — see METHODOLOGY.md.
The bytes are a pure function of the dump's bytes and the four parameters, so anyone can
recompute and compare sha256 digests (`humaneval-ratings verify`).

**Where.** In the artifact store (`{ENV_ARTIFACTS}`, default `artifacts/`): `{LEADERBOARD_JSON}`
and `{LEADERBOARD_PNG}`. Both are written atomically, and only after the whole computation
succeeded.

**Versions.** Data version = sha256 of leaderboard.json; code version = the engine's source
hash. Metadata carries the input digests, per-category top-{TOP_N} tables and vote counts, and
the ratings plot with CIs.

**Config** (run config, defaults are the CLI's): seed, bootstrap_rounds, min_votes, style_min_votes.

**Guard.** The blocking `{DUMP_CHECK}` check: an invalid dump fails the run with the reason
(file:line: field) and leaves any existing leaderboard.json byte-for-byte untouched.""",
)
def leaderboard(
    context: dg.AssetExecutionContext,
    config: LeaderboardConfig,
    votes_dump_source: VotesDumpResource,
    artifact_store: ArtifactStoreResource,
):
    params = config.params()
    try:
        dump = votes_dump_source.fetch()
    except FileNotFoundError as error:
        yield from _rejected(context, str(error), {"source": votes_dump_source.resolved_source()})
        return
    context.log.info(f"rating votes dump {dump.source} with {params}")
    try:
        data = compute_leaderboard(dump.battles, dump.votes, params, progress=_progress_logger(context))
    except DumpError as error:
        dump_facts = _dump_facts(dump.source, dump.battles_sha256, dump.votes_sha256)
        # Name the file as configured (an S3 URI), not the local cache copy.
        message = str(error).replace(error.path, dump.source_name(error.path), 1)
        details: dict[str, Any] = {"file": dump.source_name(error.path)}
        if error.line is not None:
            details["line"] = dg.MetadataValue.int(error.line)
        if error.field is not None:
            details["field"] = error.field
        yield from _rejected(context, message, {**dump_facts, **details})
        return

    document = json.loads(data)
    # The engine hashed the files while parsing them: the digests of exactly what was rated.
    digests = document["metadata"]["input_digests"]
    dump_facts = _dump_facts(dump.source, digests["battles_sha256"], digests["votes_sha256"])
    png = render_leaderboard_png(document)
    store = artifact_store.store()
    stored_png = store.put_bytes(LEADERBOARD_PNG, png, content_type="image/png")
    stored = store.put_bytes(LEADERBOARD_JSON, data, content_type="application/json")
    context.log.info(f"leaderboard.json written to {stored.uri}")

    categories = document["categories"]
    metadata: dict[str, Any] = {
        "path": dg.MetadataValue.path(stored.uri),
        "sha256": stored.sha256,
        "bytes": dg.MetadataValue.int(stored.size),
        "plot_path": dg.MetadataValue.path(stored_png.uri),
        **dump_facts,
        "dump_generated_at": str(document["metadata"].get("dump_generated_at")),
        "dump_schema_version": dg.MetadataValue.int(int(document["metadata"].get("dump_schema_version", 0))),
        "seed": dg.MetadataValue.int(params.seed),
        "bootstrap_rounds": dg.MetadataValue.int(params.bootstrap_rounds),
        "min_votes": dg.MetadataValue.int(params.min_votes),
        "style_min_votes": dg.MetadataValue.int(params.style_min_votes),
        "total_votes": dg.MetadataValue.int(sum(int(c["vote_count"]) for c in categories)),
        "categories": dg.MetadataValue.md(categories_table(document)),
        "plot": dg.MetadataValue.md(
            "![ratings with 95% bootstrap CIs](data:image/png;base64,"
            + base64.b64encode(png).decode("ascii")
            + ")"
        ),
    }
    for category in categories:
        metadata[f"votes/{category['category']}"] = dg.MetadataValue.int(int(category["vote_count"]))
        metadata[f"top{TOP_N}/{category['category']}"] = dg.MetadataValue.md(top_table(category))

    yield dg.MaterializeResult(
        data_version=dg.DataVersion(stored.sha256),
        metadata=metadata,
        check_results=[
            dg.AssetCheckResult(
                check_name=DUMP_CHECK,
                passed=True,
                description="the votes dump is valid",
                metadata={**dump_facts, "categories": dg.MetadataValue.int(len(categories))},
            )
        ],
    )


# --------------------------------------------------------------------------- media check

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
            f"{report.battles_checked} recording battles"
            + (f"; {len(report.errors)} keys could not be checked" if report.errors else "")
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
            "missing_by_battle": dg.MetadataValue.json(
                {bid: missing_refs[bid] for bid in missing_ids[:200]}
            ),
            "missing": dg.MetadataValue.md(missing_markdown(report)),
            "errors": dg.MetadataValue.json(dict(list(report.errors.items())[:50])),
            **({"bucket_error": dg.MetadataValue.text(report.bucket_error)} if report.bucket_error else {}),
        },
    )


# --------------------------------------------------------------------------- telemetry

@dg.asset(
    key="browser_use_telemetry",
    group_name=GROUP,
    deps=[votes_dump],
    code_version=TELEMETRY_CODE_VERSION,
    kinds={"python"},
    description=f"""How the computer-use agents behave, per model: over every recording battle
(`browser-use` category) a model played, the median wall-clock duration, number of steps,
time to first action and step time, with the battle count. Medians skip null fields, and
each median's sample size is kept in `{TELEMETRY_JSON}` (artifact store). Voted or not, every
recording battle counts: telemetry describes the agent, not the voters. The ratings never
read these numbers.""",
)
def browser_use_telemetry(
    context: dg.AssetExecutionContext,
    votes_dump_source: VotesDumpResource,
    artifact_store: ArtifactStoreResource,
) -> dg.MaterializeResult:
    from atlas_assets.ratings.dump import iter_recording_battles

    dump = votes_dump_source.fetch()
    rows = summarize_telemetry(iter_recording_battles(dump.battles))
    stored = artifact_store.store().put_bytes(TELEMETRY_JSON, telemetry_json(rows), content_type="application/json")
    context.log.info(f"{TELEMETRY_JSON} written to {stored.uri} ({len(rows)} models)")
    return dg.MaterializeResult(
        data_version=dg.DataVersion(stored.sha256),
        metadata={
            "path": dg.MetadataValue.path(stored.uri),
            "sha256": stored.sha256,
            "dump_data_version": dump.data_version,
            "models": dg.MetadataValue.int(len(rows)),
            "recording_battles": dg.MetadataValue.int(sum(r.battles for r in rows) // 2),
            "summary": dg.MetadataValue.md(telemetry_markdown(rows)),
        },
    )


# --------------------------------------------------------------------------- nightly

nightly_leaderboard_job = dg.define_asset_job(
    "nightly_leaderboard_job",
    selection=dg.AssetSelection.assets("votes_dump", "leaderboard", "browser_use_telemetry"),
    description="Observe the votes dump, then rebuild leaderboard.json and the telemetry summary "
    "(with their checks). Requested by the nightly_leaderboard schedule when the dump changed.",
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
    record = instance.get_latest_asset_check_evaluation_record(
        dg.AssetCheckKey(dg.AssetKey("leaderboard"), DUMP_CHECK)
    )
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


defs = dg.Definitions(
    assets=[votes_dump, leaderboard, browser_use_telemetry],
    asset_checks=[recording_media_present],
    jobs=[nightly_leaderboard_job],
    schedules=[nightly_leaderboard],
    resources=RESOURCES,
)
