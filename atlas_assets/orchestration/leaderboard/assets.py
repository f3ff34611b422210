"""The arena leaderboard's assets: votes_dump -> leaderboard, browser_use_telemetry.

A thin shell over atlas_assets.ratings (reading, fitting, rendering, plotting, telemetry).

    votes_dump             observable source; data version = sha256 of the two dump files
    leaderboard            leaderboard.json + leaderboard.png; data version = sha256 of the JSON
    browser_use_telemetry  per-model medians of the computer-use telemetry

The leaderboard and the telemetry each record the dump version they read as an
observation of votes_dump (shell.record_read_version): however they are launched (CLI,
UI, schedule), their input version is the bytes they rated, so observing the unchanged
dump later never makes them stale.

(No `from __future__ import annotations` here: Dagster reads the config and resource
annotations of the decorated functions at definition time.)
"""

import json
import warnings
from typing import Any, Iterator

import dagster as dg
from pydantic import Field

from atlas_assets.core.storage import StorageError
from atlas_assets.orchestration import shell
from atlas_assets.orchestration.resources import (
    ENV_ARTIFACTS,
    ENV_VOTES_DUMP,
    ArtifactStoreResource,
    VotesDumpResource,
)
from atlas_assets.orchestration.versions import code_version, source_files
from atlas_assets.ratings import PACKAGE_VERSION
from atlas_assets.ratings.errors import DumpError
from atlas_assets.ratings.fit import FitConvergenceError
from atlas_assets.ratings.leaderboard import MAX_BOOTSTRAP_ROUNDS, ComputeParams, compute_leaderboard
from atlas_assets.ratings.plot import render_leaderboard_png
from atlas_assets.ratings.report import TOP_N, categories_table, top_table
from atlas_assets.ratings.source import DumpFiles, dump_data_version, read_header
from atlas_assets.ratings.telemetry import summarize_telemetry, telemetry_json, telemetry_markdown

GROUP = "arena"
VOTES_DUMP = dg.AssetKey("votes_dump")
LEADERBOARD_JSON = "leaderboard.json"
LEADERBOARD_PNG = "leaderboard.png"
TELEMETRY_JSON = "browser_use_telemetry.json"
DUMP_CHECK = "dump_is_valid"

# Everything that can change leaderboard.json or its picture; the CLI, the sample generator,
# media and telemetry cannot.
LEADERBOARD_CODE_VERSION = code_version(
    PACKAGE_VERSION,
    source_files("ratings", exclude=("cli.py", "sample.py", "media.py", "telemetry.py", "report.py", "source.py", "progress.py")),
)
TELEMETRY_CODE_VERSION = code_version(
    PACKAGE_VERSION, [p for p in source_files("ratings") if p.name in ("telemetry.py", "dump.py", "model.py", "errors.py")]
)


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
        default=_DEFAULTS.bootstrap_rounds,
        ge=1,
        le=MAX_BOOTSTRAP_ROUNDS,
        description=f"--bootstrap-rounds: replicates behind each 95% CI (at most {MAX_BOOTSTRAP_ROUNDS}).",
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


def _dump_facts(source: str, battles_sha256: str, votes_sha256: str) -> dict[str, Any]:
    return {
        "source": source,
        "dump_data_version": dump_data_version(battles_sha256, votes_sha256),
        "battles_sha256": battles_sha256,
        "votes_sha256": votes_sha256,
    }


def _rejected(
    context: dg.AssetExecutionContext, message: str, metadata: dict[str, Any], reason: str = "votes dump rejected"
) -> Iterator[dg.AssetCheckResult]:
    """Evaluate the blocking check as failed (it must never stay "planned") and fail the run.

    `reason` says which step failed: the dump itself (the description is then just the
    file:line: field message), rating it, or publishing the result."""
    context.log.error(f"{reason}, leaderboard.json left untouched: {message}")
    description = message if reason == "votes dump rejected" else f"{reason}: {message}"
    yield dg.AssetCheckResult(
        check_name=DUMP_CHECK,
        passed=False,
        severity=dg.AssetCheckSeverity.ERROR,
        description=description,
        metadata={"error": dg.MetadataValue.text(message), "reason": reason, **metadata},
    )
    raise dg.Failure(
        description=f"{reason}; leaderboard.json was not written: {message}",
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
and `{LEADERBOARD_PNG}`. Both are written atomically, only after the whole computation
succeeded, and as a pair: the PNG first, the JSON last, and if either write fails the
previous pair is put back (a new picture never sits beside an old JSON).

**Versions.** Data version = sha256 of leaderboard.json; code version = the engine's source
hash. Metadata carries the input digests, per-category top-{TOP_N} tables and vote counts, and
the ratings plot with CIs.

**Config** (run config, defaults are the CLI's): seed, bootstrap_rounds, min_votes, style_min_votes.

**Guard.** The blocking `{DUMP_CHECK}` check: an invalid dump fails the run with the reason
(file:line: field) and leaves any existing leaderboard.json byte-for-byte untouched. A dump
that cannot be read (S3 credentials, endpoint), rated, or published also fails the check,
with a one-line description of which step failed.""",
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
    except StorageError as error:
        source = votes_dump_source.resolved_source()
        yield from _rejected(context, str(error), {"source": source}, reason=f"the votes dump at {source} could not be read")
        return
    context.log.info(f"rating votes dump {dump.source} with {params}")
    try:
        data = compute_leaderboard(dump.battles, dump.votes, params, progress=shell.run_log(context))
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
    except FitConvergenceError as error:
        dump_facts = _dump_facts(dump.source, dump.battles_sha256, dump.votes_sha256)
        yield from _rejected(context, str(error), dump_facts, reason="the votes dump could not be rated")
        return

    document = json.loads(data)
    # The engine hashed the files while parsing them: the digests of exactly what was rated.
    digests = document["metadata"]["input_digests"]
    dump_facts = _dump_facts(dump.source, digests["battles_sha256"], digests["votes_sha256"])
    png = render_leaderboard_png(document)
    store = artifact_store.store()
    try:
        # A pair: the JSON last, and on any failure the previous pair is put back.
        stored_png, stored = store.put_set([(LEADERBOARD_PNG, png, "image/png"), (LEADERBOARD_JSON, data, "application/json")])
    except OSError as error:  # StorageError (S3) is one
        reason = f"the votes dump is valid but the leaderboard could not be published to {store.root}"
        # No dump_data_version in this evaluation: the nightly schedule skips a dump version
        # it has seen rejected, and a failed upload says nothing against the dump.
        yield from _rejected(context, str(error), {"source": dump.source, "artifact_store": store.root}, reason=reason)
        return
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
        "plot": shell.png_markdown(png, "ratings with 95% bootstrap CIs"),
    }
    for category in categories:
        metadata[f"votes/{category['category']}"] = dg.MetadataValue.int(int(category["vote_count"]))
        metadata[f"top{TOP_N}/{category['category']}"] = dg.MetadataValue.md(top_table(category, min_votes=params.min_votes))

    shell.record_read_version(context, VOTES_DUMP, dump_facts["dump_data_version"], {"source": dump.source})
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
    shell.record_read_version(context, VOTES_DUMP, dump.data_version, {"source": dump.source})
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
