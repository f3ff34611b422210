"""The arena assets on a real Dagster instance (SQLite in a temporary DAGSTER_HOME).

Covers: the graph and its definitions; votes_dump's data version; the leaderboard's bytes,
versions and metadata; the blocking dump check (an invalid dump writes nothing and leaves
an existing leaderboard.json untouched); S3 as dump source and artifact store (moto on
127.0.0.1); the nightly schedule's "only when the dump changed"; the recording-media
check; the telemetry summary; and the documented CLI command in a subprocess.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import dagster as dg

from atlas_assets import defs as atlas_defs
from atlas_assets.orchestration.leaderboard.assets import (
    DUMP_CHECK,
    LEADERBOARD_CODE_VERSION,
    browser_use_telemetry,
    leaderboard,
    votes_dump,
)
from atlas_assets.orchestration.leaderboard.checks import MEDIA_CHECK
from atlas_assets.orchestration.leaderboard.schedules import nightly_leaderboard
from atlas_assets.orchestration.resources import (
    ArtifactStoreResource,
    MediaBucketResource,
    VotesDumpResource,
)
from atlas_assets.ratings.leaderboard import ComputeParams, compute_leaderboard
from atlas_assets.ratings.source import dump_data_version
from tests.helpers.dumps import recording_battle, small_dump_records, text_battle, vote, write_dump

REPO = Path(__file__).resolve().parents[2]
FAST = {"seed": 42, "bootstrap_rounds": 8, "min_votes": 30, "style_min_votes": 50}
LEADERBOARD_KEY = dg.AssetKey("leaderboard")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _run_config(**overrides) -> dict:
    return {"ops": {"leaderboard": {"config": {**FAST, **overrides}}}}


def _resources(dump: str, artifacts: Path | str, media: str | None = None, cache: Path | None = None) -> dict:
    return {
        "votes_dump_source": VotesDumpResource(source=str(dump), cache_dir=str(cache) if cache else None),
        "artifact_store": ArtifactStoreResource(root=str(artifacts)),
        "media_bucket": MediaBucketResource(uri=media),
    }


def _materialize(instance, dump, artifacts, assets=None, run_config=None, **kwargs):
    return dg.materialize(
        assets or [votes_dump, leaderboard],
        instance=instance,
        resources=_resources(str(dump), artifacts, **kwargs),
        run_config=_run_config() if run_config is None else run_config,
        raise_on_error=False,
    )


def _latest_materialization(instance, key=LEADERBOARD_KEY):
    event = instance.get_latest_materialization_event(key)
    return None if event is None else event.asset_materialization


def _check_evaluation(result, name=DUMP_CHECK):
    evaluations = [e for e in result.get_asset_check_evaluations() if e.check_name == name]
    assert len(evaluations) == 1, evaluations
    return evaluations[0]


# --------------------------------------------------------------------------- definitions


def test_definitions_graph_checks_schedule_and_job():
    dg.Definitions.validate_loadable(atlas_defs)
    graph = atlas_defs.resolve_asset_graph()
    keys = {key.to_user_string() for key in graph.get_all_asset_keys()}
    assert {"votes_dump", "leaderboard", "browser_use_telemetry"} <= keys
    assert graph.get(LEADERBOARD_KEY).parent_keys == {dg.AssetKey("votes_dump")}
    assert graph.get(dg.AssetKey("browser_use_telemetry")).parent_keys == {dg.AssetKey("votes_dump")}
    assert graph.get(dg.AssetKey("votes_dump")).is_observable

    checks = {(k.asset_key.to_user_string(), k.name): k for k in graph.asset_check_keys}
    assert ("leaderboard", DUMP_CHECK) in checks and ("votes_dump", MEDIA_CHECK) in checks
    assert graph.get(checks[("leaderboard", DUMP_CHECK)]).blocking
    assert not graph.get(checks[("votes_dump", MEDIA_CHECK)]).blocking

    assert leaderboard.code_versions_by_key[LEADERBOARD_KEY] == LEADERBOARD_CODE_VERSION
    assert browser_use_telemetry.code_versions_by_key[dg.AssetKey("browser_use_telemetry")]
    for key in (LEADERBOARD_KEY, dg.AssetKey("browser_use_telemetry"), dg.AssetKey("votes_dump")):
        assert len(graph.get(key).description or "") > 200  # descriptions that teach

    schedule = atlas_defs.resolve_schedule_def("nightly_leaderboard")
    assert schedule.cron_schedule == "30 4 * * *"
    assert schedule.execution_timezone == "UTC"
    assert schedule.default_status == dg.DefaultScheduleStatus.RUNNING
    job = atlas_defs.resolve_job_def("nightly_leaderboard_job")
    assert schedule.job_name == job.name
    # each asset records the dump version it read; a separate observe step would only duplicate it
    assert {k.to_user_string() for k in job.asset_layer.selected_asset_keys} == {"leaderboard", "browser_use_telemetry"}
    assert dg.AssetCheckKey(dg.AssetKey("votes_dump"), MEDIA_CHECK) in job.asset_layer.asset_graph.asset_check_keys


def test_leaderboard_config_defaults_are_the_spec_defaults():
    from atlas_assets.orchestration.leaderboard.assets import LeaderboardConfig

    defaults = ComputeParams()
    assert LeaderboardConfig().params() == defaults == ComputeParams(42, 100, 30, 50)


# --------------------------------------------------------------------------- happy path


def test_leaderboard_materializes_the_engine_bytes_with_versions_and_metadata(dagster_instance, make_dump, tmp_path):
    dump = make_dump()
    artifacts = tmp_path / "artifacts"
    result = _materialize(dagster_instance, dump, artifacts)
    assert result.success

    written = (artifacts / "leaderboard.json").read_bytes()
    expected = compute_leaderboard(dump / "battles.jsonl", dump / "votes.jsonl", ComputeParams(**FAST))
    assert written == expected  # exactly what `humaneval-ratings compute` would write
    document = json.loads(written)
    assert [c["category"] for c in document["categories"]] == ["browser-use", "chat-writing"]

    mat = _latest_materialization(dagster_instance)
    meta = {k: v.value for k, v in mat.metadata.items()}
    assert meta["sha256"] == _sha(written)
    assert meta["path"] == str((artifacts / "leaderboard.json").resolve())
    assert meta["battles_sha256"] == _sha((dump / "battles.jsonl").read_bytes())
    assert meta["votes_sha256"] == _sha((dump / "votes.jsonl").read_bytes())
    assert meta["dump_data_version"] == dump_data_version(meta["battles_sha256"], meta["votes_sha256"])
    assert meta["bootstrap_rounds"] == 8 and meta["seed"] == 42
    assert meta["votes/chat-writing"] == 36 and meta["votes/browser-use"] == 8
    assert meta["total_votes"] == 44
    top = meta["top10/chat-writing"]
    assert "| rank | model | rating | 95% CI |" in top and all(m in top for m in ("alpha", "beta", "gamma"))
    assert "chat-writing" in meta["categories"]

    # Data and code versions are reported, so Dagster's staleness machinery works on content.
    assert mat.tags["dagster/data_version"] == _sha(written)
    assert mat.tags["dagster/code_version"] == LEADERBOARD_CODE_VERSION

    # The plot: a PNG file next to leaderboard.json and the same PNG inline in the metadata.
    png = (artifacts / "leaderboard.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    prefix = "![ratings with 95% bootstrap CIs](data:image/png;base64,"
    assert meta["plot"].startswith(prefix) and meta["plot"].endswith(")")
    assert base64.b64decode(meta["plot"][len(prefix) : -1]) == png

    check = _check_evaluation(result)
    assert check.passed

    logs = dagster_instance.all_logs(result.run_id)
    assert any(f"leaderboard.json written to {artifacts.resolve() / 'leaderboard.json'}" in (e.user_message or "") for e in logs)


def test_same_dump_gives_same_bytes_and_data_version(dagster_instance, make_dump, tmp_path):
    dump = make_dump()
    first = _materialize(dagster_instance, dump, tmp_path / "a")
    second = _materialize(dagster_instance, dump, tmp_path / "b")
    assert first.success and second.success
    assert (tmp_path / "a" / "leaderboard.json").read_bytes() == (tmp_path / "b" / "leaderboard.json").read_bytes()
    versions = {m.tags["dagster/data_version"] for r in (first, second) for m in r.asset_materializations_for_node("leaderboard")}
    assert len(versions) == 1


def test_run_config_reaches_the_engine(dagster_instance, make_dump, tmp_path):
    dump = make_dump()
    result = _materialize(dagster_instance, dump, tmp_path / "art", run_config=_run_config(seed=7, min_votes=5))
    assert result.success
    document = json.loads((tmp_path / "art" / "leaderboard.json").read_bytes())
    assert document["metadata"]["seed"] == 7 and document["metadata"]["min_votes"] == 5
    assert any(e["rank"] is not None for c in document["categories"] for e in c["entries"])


def test_observation_data_version_is_the_sha_of_both_files(dagster_instance, make_dump, tmp_path, monkeypatch):
    dump = make_dump()
    monkeypatch.setenv("ATLAS_VOTES_DUMP", str(dump))
    monkeypatch.setenv("ATLAS_ARTIFACTS", str(tmp_path / "art"))
    result = atlas_defs.resolve_job_def("nightly_leaderboard_job").execute_in_process(
        instance=dagster_instance, run_config=_run_config(), raise_on_error=False
    )
    assert result.success
    observations = [e.event_specific_data.asset_observation for e in result.all_events if e.event_type_value == "ASSET_OBSERVATION"]
    # the leaderboard and the telemetry each record the dump bytes they read
    assert len(observations) == 2
    battles_sha = _sha((dump / "battles.jsonl").read_bytes())
    votes_sha = _sha((dump / "votes.jsonl").read_bytes())
    assert {o.data_version for o in observations} == {_sha(f"{battles_sha}:{votes_sha}".encode())}
    # The leaderboard records the observed dump version as its input.
    mat = _latest_materialization(dagster_instance)
    assert mat.tags["dagster/input_data_version/votes_dump"] == observations[0].data_version


# --------------------------------------------------------------------------- the blocking check


def _invalid_dump(tmp_path) -> Path:
    battles, votes = small_dump_records()
    votes[1]["weight"] = -1.0  # votes.jsonl line 3 (line 1 is the header)
    return write_dump(tmp_path / "bad", battles, votes, categories=["browser-use", "chat-coding", "chat-writing"])


def test_invalid_dump_fails_the_run_says_why_and_leaves_leaderboard_untouched(dagster_instance, tmp_path):
    dump = _invalid_dump(tmp_path)
    artifacts = tmp_path / "artifacts"
    artifacts.mkdir()
    previous = b'{"previous": "leaderboard, must survive byte for byte"}\n'
    (artifacts / "leaderboard.json").write_bytes(previous)
    (artifacts / "leaderboard.png").write_bytes(b"old png")

    @dg.asset(deps=[leaderboard])
    def downstream_consumer():
        raise AssertionError("must not run: the blocking check failed upstream")

    result = _materialize(dagster_instance, dump, artifacts, assets=[votes_dump, leaderboard, downstream_consumer])
    assert not result.success

    check = _check_evaluation(result)
    assert not check.passed
    assert check.severity == dg.AssetCheckSeverity.ERROR
    assert "votes.jsonl:3" in check.description and "weight" in check.description
    assert check.metadata["line"].value == 3
    assert check.metadata["field"].value == "weight"
    assert check.metadata["file"].value.endswith("votes.jsonl")

    # Nothing produced or replaced; no materialization recorded; the consumer never ran.
    assert (artifacts / "leaderboard.json").read_bytes() == previous
    assert (artifacts / "leaderboard.png").read_bytes() == b"old png"
    assert sorted(p.name for p in artifacts.iterdir()) == ["leaderboard.json", "leaderboard.png"]
    assert dagster_instance.get_latest_materialization_event(LEADERBOARD_KEY) is None
    step_failures = [e for e in result.all_events if e.is_step_failure]
    assert [e.step_key for e in step_failures] == ["leaderboard"]
    assert "votes.jsonl:3" in step_failures[0].step_failure_data.error.message
    assert not any(e.is_step_success and e.step_key == "downstream_consumer" for e in result.all_events)


def test_missing_dump_file_is_a_failed_check_too(dagster_instance, tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    result = _materialize(dagster_instance, folder, tmp_path / "art")
    assert not result.success
    check = _check_evaluation(result)
    assert not check.passed and "battles.jsonl" in check.description and "does not exist" in check.description
    assert not (tmp_path / "art" / "leaderboard.json").exists()


def test_a_valid_run_after_a_rejected_one_replaces_the_leaderboard(dagster_instance, make_dump, tmp_path):
    artifacts = tmp_path / "art"
    assert not _materialize(dagster_instance, _invalid_dump(tmp_path), artifacts).success
    assert not (artifacts / "leaderboard.json").exists()
    assert _materialize(dagster_instance, make_dump(), artifacts).success
    assert (artifacts / "leaderboard.json").exists()


# --------------------------------------------------------------------------- S3 source and store


def test_dump_from_s3_and_artifacts_to_s3(dagster_instance, moto_s3, s3_client, make_dump, tmp_path):
    dump = make_dump()
    s3_client.create_bucket(Bucket="platform-dumps")
    s3_client.create_bucket(Bucket="team-artifacts")
    for name in ("battles.jsonl", "votes.jsonl"):
        s3_client.upload_file(str(dump / name), "platform-dumps", f"nightly/{name}")
    cache = tmp_path / "cache"

    result = _materialize(dagster_instance, "s3://platform-dumps/nightly", "s3://team-artifacts/atlas", cache=cache)
    assert result.success
    body = s3_client.get_object(Bucket="team-artifacts", Key="atlas/leaderboard.json")["Body"].read()
    assert body == compute_leaderboard(dump / "battles.jsonl", dump / "votes.jsonl", ComputeParams(**FAST))
    assert s3_client.head_object(Bucket="team-artifacts", Key="atlas/leaderboard.png")["ContentType"] == "image/png"
    meta = {k: v.value for k, v in _latest_materialization(dagster_instance).metadata.items()}
    assert meta["path"] == "s3://team-artifacts/atlas/leaderboard.json"
    assert meta["sha256"] == _sha(body)
    assert meta["source"] == "s3://platform-dumps/nightly"

    # The dump was fetched into the cache (whole files, no temp leftovers) ...
    cached = sorted(p.name for p in cache.rglob("*") if p.is_file())
    assert cached == ["battles.jsonl", "battles.jsonl.meta.json", "votes.jsonl", "votes.jsonl.meta.json"]
    cached_votes = next(cache.rglob("votes.jsonl"))
    assert cached_votes.read_bytes() == (dump / "votes.jsonl").read_bytes()
    # ... and is reused while the objects' ETags are unchanged.
    stamp = cached_votes.stat().st_mtime_ns
    assert _materialize(dagster_instance, "s3://platform-dumps/nightly", "s3://team-artifacts/atlas", cache=cache).success
    assert cached_votes.stat().st_mtime_ns == stamp

    # A changed object is fetched again.
    changed = make_dump("changed", extra_votes=2)
    s3_client.upload_file(str(changed / "votes.jsonl"), "platform-dumps", "nightly/votes.jsonl")
    assert _materialize(dagster_instance, "s3://platform-dumps/nightly", "s3://team-artifacts/atlas", cache=cache).success
    assert cached_votes.read_bytes() == (changed / "votes.jsonl").read_bytes()


def test_invalid_s3_dump_names_the_s3_object_and_keeps_the_s3_leaderboard(dagster_instance, moto_s3, s3_client, tmp_path):
    dump = _invalid_dump(tmp_path)
    s3_client.create_bucket(Bucket="dumps")
    s3_client.create_bucket(Bucket="art")
    for name in ("battles.jsonl", "votes.jsonl"):
        s3_client.upload_file(str(dump / name), "dumps", f"d/{name}")
    s3_client.put_object(Bucket="art", Key="leaderboard.json", Body=b"previous\n")
    result = _materialize(dagster_instance, "s3://dumps/d", "s3://art", cache=tmp_path / "cache")
    assert not result.success
    check = _check_evaluation(result)
    assert check.description.startswith("s3://dumps/d/votes.jsonl:3")
    assert s3_client.get_object(Bucket="art", Key="leaderboard.json")["Body"].read() == b"previous\n"


# --------------------------------------------------------------------------- nightly schedule


def _tick(instance, dump: Path):
    with dg.build_schedule_context(instance=instance, resources={"votes_dump_source": VotesDumpResource(source=str(dump))}) as context:
        return nightly_leaderboard.evaluate_tick(context)


def _run_nightly_job(instance, monkeypatch, dump: Path, artifacts: Path):
    monkeypatch.setenv("ATLAS_VOTES_DUMP", str(dump))
    monkeypatch.setenv("ATLAS_ARTIFACTS", str(artifacts))
    return atlas_defs.resolve_job_def("nightly_leaderboard_job").execute_in_process(
        instance=instance, run_config=_run_config(), raise_on_error=False
    )


def test_schedule_requests_a_run_only_when_the_dump_changed(dagster_instance, make_dump, tmp_path, monkeypatch):
    dump = make_dump("live")
    artifacts = tmp_path / "art"

    # Nothing built yet: a run is requested, tagged with the dump's version.
    first = _tick(dagster_instance, dump)
    assert len(first.run_requests) == 1
    version = first.run_requests[0].tags["atlas/dump_data_version"]
    assert _run_nightly_job(dagster_instance, monkeypatch, dump, artifacts).success

    # Same dump: no run, and the tick says why.
    same = _tick(dagster_instance, dump)
    assert not same.run_requests
    assert "unchanged" in same.skip_message and version in same.skip_message

    # The platform publishes a new export: a run is requested again.
    new = make_dump("new", extra_votes=3)
    for name in ("battles.jsonl", "votes.jsonl"):
        (dump / name).write_bytes((new / name).read_bytes())
    changed = _tick(dagster_instance, dump)
    assert len(changed.run_requests) == 1
    assert changed.run_requests[0].tags["atlas/dump_data_version"] != version
    assert _run_nightly_job(dagster_instance, monkeypatch, dump, artifacts).success
    assert not _tick(dagster_instance, dump).run_requests


def test_schedule_does_not_retry_a_rejected_dump_until_it_changes(dagster_instance, make_dump, tmp_path, monkeypatch):
    bad = _invalid_dump(tmp_path)
    assert len(_tick(dagster_instance, bad).run_requests) == 1
    assert not _run_nightly_job(dagster_instance, monkeypatch, bad, tmp_path / "art").success
    again = _tick(dagster_instance, bad)
    assert not again.run_requests and "rejected" in again.skip_message
    # Fixed upstream: requested again.
    good = make_dump("fixed")
    for name in ("battles.jsonl", "votes.jsonl"):
        (bad / name).write_bytes((good / name).read_bytes())
    assert len(_tick(dagster_instance, bad).run_requests) == 1


def test_schedule_on_an_s3_dump_compares_etags_without_downloading_in_the_tick(
    dagster_instance, moto_s3, s3_client, make_dump, tmp_path, monkeypatch
):
    dump = make_dump()
    s3_client.create_bucket(Bucket="dumps")
    for name in ("battles.jsonl", "votes.jsonl"):
        s3_client.upload_file(str(dump / name), "dumps", f"nightly/{name}")
    cache = tmp_path / "cache"
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(cache))
    source = "s3://dumps/nightly"

    def tick():
        resources = {"votes_dump_source": VotesDumpResource(source=source, cache_dir=str(cache))}
        with dg.build_schedule_context(instance=dagster_instance, resources=resources) as context:
            return nightly_leaderboard.evaluate_tick(context)

    first = tick()
    assert len(first.run_requests) == 1 and not cache.exists()  # nothing downloaded by the tick
    monkeypatch.setenv("ATLAS_VOTES_DUMP", source)
    monkeypatch.setenv("ATLAS_ARTIFACTS", str(tmp_path / "art"))
    run = atlas_defs.resolve_job_def("nightly_leaderboard_job").execute_in_process(
        instance=dagster_instance, run_config=_run_config(), raise_on_error=False
    )
    assert run.success
    assert not tick().run_requests  # ETags unchanged: the cached digests say "same dump"

    cached_votes = next(cache.rglob("votes.jsonl"))
    before = cached_votes.read_bytes()
    changed = make_dump("changed", extra_votes=1)
    s3_client.upload_file(str(changed / "votes.jsonl"), "dumps", "nightly/votes.jsonl")
    assert len(tick().run_requests) == 1
    assert cached_votes.read_bytes() == before  # still not downloaded by the tick


# --------------------------------------------------------------------------- recording media


def _media_job_defs():
    job = dg.define_asset_job("media_only", selection=dg.AssetSelection.checks_for_assets(dg.AssetKey("votes_dump")))
    return dg.Definitions.merge(atlas_defs, dg.Definitions(jobs=[job]))


def test_media_check_passes_with_a_note_when_no_bucket_is_configured(dagster_instance, make_dump, monkeypatch):
    monkeypatch.setenv("ATLAS_VOTES_DUMP", str(make_dump()))
    result = _media_job_defs().resolve_job_def("media_only").execute_in_process(instance=dagster_instance)
    evaluation = _check_evaluation(result, MEDIA_CHECK)
    assert evaluation.passed
    assert evaluation.metadata["note"].value == "media bucket not configured"


def test_media_check_reports_missing_objects_by_battle_and_never_fails_the_leaderboard(
    dagster_instance, moto_s3, s3_client, make_dump, tmp_path, monkeypatch
):
    dump = make_dump()
    s3_client.create_bucket(Bucket="platform")
    battles = [json.loads(line) for line in (dump / "battles.jsonl").read_text().splitlines()[1:]]
    keys = [
        (b["battle_id"], slot, field, b[f"recording_{slot}"][field])
        for b in battles
        if b.get("modality") == "recording"
        for slot in ("a", "b")
        for field in ("video_key", "trace_key", "screenshot_key")
        if b[f"recording_{slot}"][field]
    ]
    gone = {("r1", "a", "video_key"), ("r3", "b", "trace_key"), ("r3", "a", "screenshot_key")}
    for battle_id, slot, field, key in keys:
        if (battle_id, slot, field) not in gone:
            s3_client.put_object(Bucket="platform", Key=f"artifacts/{key}", Body=b"media")

    monkeypatch.setenv("ATLAS_MEDIA_BUCKET", "s3://platform/artifacts")
    result = _run_nightly_job(dagster_instance, monkeypatch, dump, tmp_path / "art")
    assert result.success  # a WARN check never fails the run
    assert (tmp_path / "art" / "leaderboard.json").exists()

    evaluation = _check_evaluation(result, MEDIA_CHECK)
    assert not evaluation.passed
    assert evaluation.severity == dg.AssetCheckSeverity.WARN
    assert evaluation.metadata["missing_objects"].value == 3
    assert evaluation.metadata["objects_checked"].value == len(keys)
    missing = evaluation.metadata["missing_by_battle"].value
    assert sorted(missing) == ["r1", "r3"]
    assert missing["r1"] == [{"slot": "a", "field": "video_key", "key": "battles/r1/a.mp4"}]
    assert {(m["slot"], m["field"]) for m in missing["r3"]} == {("b", "trace_key"), ("a", "screenshot_key")}
    assert "r3" in evaluation.description or "2 of 4" in evaluation.description


# --------------------------------------------------------------------------- telemetry


def test_browser_use_telemetry_medians_per_model(dagster_instance, tmp_path):
    tel = lambda d, s, t: {"duration_ms": d, "time_to_first_action_ms": t, "steps": s}  # noqa: E731
    battles = [
        recording_battle("1", "alpha", "beta", telemetry_a=tel(100000, 10, 5000), telemetry_b=tel(60000, 6, 3000)),
        recording_battle("2", "beta", "alpha", telemetry_a=tel(80000, 8, 1000), telemetry_b=tel(120000, 12, 7000)),
        recording_battle("3", "alpha", "gamma", telemetry_a=tel(140000, 20, 6000), telemetry_b={}),
        text_battle("4", "chat-writing", "alpha", "beta"),
    ]
    votes = [vote("1", "1", "v", "win_a"), vote("2", "4", "v", "tie")]
    dump = write_dump(tmp_path / "d", battles, votes, categories=["browser-use", "chat-writing"])
    artifacts = tmp_path / "art"
    result = _materialize(dagster_instance, dump, artifacts, assets=[votes_dump, browser_use_telemetry], run_config={})
    assert result.success
    summary = json.loads((artifacts / "browser_use_telemetry.json").read_bytes())
    rows = {row["model"]: row for row in summary["models"]}
    assert sorted(rows) == ["alpha", "beta", "gamma"]
    assert rows["alpha"]["battles"] == 3
    assert rows["alpha"]["medians"]["duration_ms"] == 120000.0
    assert rows["alpha"]["medians"]["steps"] == 12.0
    assert rows["alpha"]["medians"]["time_to_first_action_ms"] == 6000.0
    assert rows["beta"]["medians"]["duration_ms"] == 70000.0 and rows["beta"]["battles"] == 2
    assert rows["gamma"]["battles"] == 1 and rows["gamma"]["medians"]["duration_ms"] is None
    assert rows["gamma"]["samples"]["duration_ms"] == 0
    mat = _latest_materialization(dagster_instance, dg.AssetKey("browser_use_telemetry"))
    assert mat.metadata["sha256"].value == _sha((artifacts / "browser_use_telemetry.json").read_bytes())
    assert "| alpha | 3 | 120.0 s | 12 | 6.0 s |" in mat.metadata["summary"].value


# --------------------------------------------------------------------------- the documented CLI


def test_cli_asset_materialize_select_leaderboard(make_dump, tmp_path):
    dump = make_dump()
    artifacts = tmp_path / "cli-artifacts"
    home = tmp_path / "cli-home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATLAS_", "DAGSTER_"))}
    env.update(
        ATLAS_VOTES_DUMP=str(dump),
        ATLAS_ARTIFACTS=str(artifacts),
        ATLAS_CACHE_DIR=str(tmp_path / "cli-cache"),
        DAGSTER_HOME=str(home),
    )
    dagster = Path(sys.executable).with_name("dagster")
    command = [
        str(dagster) if dagster.exists() else "dagster",
        "asset",
        "materialize",
        "--select",
        "leaderboard",
        "-m",
        "atlas_assets",
        "--config-json",
        json.dumps(_run_config()),
    ]
    completed = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=240)
    output = completed.stdout + completed.stderr
    assert completed.returncode == 0, output[-4000:]
    written = artifacts / "leaderboard.json"
    assert written.exists()
    assert f"leaderboard.json written to {written.resolve()}" in output

    instance = dg.DagsterInstance.from_config(str(home))
    try:
        event = instance.get_latest_materialization_event(LEADERBOARD_KEY)
        assert event.asset_materialization.metadata["sha256"].value == _sha(written.read_bytes())
    finally:
        instance.dispose()


# --------------------------------------------------------------------------- hard edges (#16)


def _dump_with_weight(tmp_path, weight: float) -> Path:
    battles, votes = small_dump_records()
    votes[4]["weight"] = weight  # votes.jsonl line 6
    return write_dump(tmp_path / "heavy", battles, votes, categories=["browser-use", "chat-coding", "chat-writing"])


def test_an_extreme_weight_fails_the_check_naming_its_line(dagster_instance, tmp_path):
    artifacts = tmp_path / "art"
    result = _materialize(dagster_instance, _dump_with_weight(tmp_path, 1e50), artifacts)
    assert not result.success
    check = _check_evaluation(result)  # evaluated, not left planned
    assert not check.passed and check.severity == dg.AssetCheckSeverity.ERROR
    assert "votes.jsonl:6: field 'weight': 1e+50 is above 1000" in check.description
    assert check.metadata["line"].value == 6 and check.metadata["field"].value == "weight"
    assert not artifacts.exists()


def test_a_fit_that_fails_is_a_failed_check_too(dagster_instance, tmp_path, monkeypatch):
    """The last line of defence behind the weight cap: lifted, the 1e50 vote reaches the
    solver, whose singular system is a one-line failed check rather than a LinAlgError."""
    from atlas_assets.ratings import leaderboard as engine

    monkeypatch.setattr(engine, "MAX_VOTE_WEIGHT", 1e300)
    result = _materialize(dagster_instance, _dump_with_weight(tmp_path, 1e50), tmp_path / "art")
    assert not result.success
    check = _check_evaluation(result)
    assert not check.passed
    assert check.description.startswith("the votes dump could not be rated: category chat-writing: ")
    assert "numerically singular" in check.description and "\n" not in check.description
    assert not (tmp_path / "art").exists()


def test_the_pair_stays_a_pair_when_the_local_json_write_fails(dagster_instance, make_dump, tmp_path):
    artifacts = tmp_path / "art"
    artifacts.mkdir()
    (artifacts / "leaderboard.png").write_bytes(b"old png")
    (artifacts / "leaderboard.json").mkdir()  # the JSON's rename over it must fail
    (artifacts / "leaderboard.json" / "keep").write_bytes(b"x")
    result = _materialize(dagster_instance, make_dump(), artifacts)
    assert not result.success
    check = _check_evaluation(result)
    assert not check.passed and "could not be published" in check.description
    assert (artifacts / "leaderboard.png").read_bytes() == b"old png"  # put back
    assert sorted(p.name for p in artifacts.iterdir()) == ["leaderboard.json", "leaderboard.png"]


class _FailingProxy:
    """A loopback HTTP proxy in front of moto that answers 403 AccessDenied to a PUT whose
    path ends with `fail_suffix` and forwards everything else unchanged."""

    def __init__(self, upstream: str, fail_suffix: str):
        import http.client
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlsplit

        target = urlsplit(upstream)
        proxy = self
        self.refused: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                if self.command == "PUT" and self.path.split("?")[0].endswith(fail_suffix):
                    proxy.refused.append(self.path)
                    error = b"<Error><Code>AccessDenied</Code><Message>refused by the test proxy</Message></Error>"
                    self.send_response(403)
                    self.send_header("Content-Type", "application/xml")
                    self.send_header("Content-Length", str(len(error)))
                    self.end_headers()
                    self.wfile.write(error)
                    return
                connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                headers["Host"] = target.netloc
                connection.request(self.command, self.path, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
                self.send_response(response.status)
                for key, value in response.getheaders():
                    if key.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
                connection.close()

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_the_pair_stays_a_pair_on_s3_when_the_json_put_fails(dagster_instance, moto_s3, s3_client, make_dump, tmp_path, monkeypatch):
    dump = make_dump()
    s3_client.create_bucket(Bucket="art")
    s3_client.put_object(Bucket="art", Key="board/leaderboard.json", Body=b"old json\n")
    s3_client.put_object(Bucket="art", Key="board/leaderboard.png", Body=b"old png")
    proxy = _FailingProxy(moto_s3, "/leaderboard.json")
    try:
        monkeypatch.setenv("AWS_ENDPOINT_URL", proxy.url)
        result = _materialize(dagster_instance, dump, "s3://art/board")
    finally:
        proxy.close()
    assert proxy.refused, "the JSON put never reached the proxy"
    assert not result.success
    check = _check_evaluation(result)
    assert not check.passed
    assert check.description.startswith("the votes dump is valid but the leaderboard could not be published to s3://art/board: ")
    assert f"writing s3://art/board/leaderboard.json: S3 at {proxy.url} refused it (AccessDenied: " in check.description
    # Both or neither: the old pair, not a new png beside the old json.
    assert s3_client.get_object(Bucket="art", Key="board/leaderboard.json")["Body"].read() == b"old json\n"
    assert s3_client.get_object(Bucket="art", Key="board/leaderboard.png")["Body"].read() == b"old png"
    # A failed upload is no verdict on the dump: the nightly schedule requests it again.
    assert len(_tick(dagster_instance, dump).run_requests) == 1


def test_a_new_pair_on_s3_is_removed_again_when_the_json_put_fails(dagster_instance, moto_s3, s3_client, make_dump, monkeypatch):
    s3_client.create_bucket(Bucket="art")
    proxy = _FailingProxy(moto_s3, "/leaderboard.json")
    try:
        monkeypatch.setenv("AWS_ENDPOINT_URL", proxy.url)
        result = _materialize(dagster_instance, make_dump(), "s3://art")
    finally:
        proxy.close()
    assert not result.success and not _check_evaluation(result).passed
    assert s3_client.list_objects_v2(Bucket="art").get("KeyCount") == 0


def test_s3_credential_and_endpoint_errors_are_one_line_failed_checks(
    dagster_instance, moto_s3, s3_client, make_dump, tmp_path, monkeypatch
):
    dump = make_dump()
    s3_client.create_bucket(Bucket="dumps")
    for name in ("battles.jsonl", "votes.jsonl"):
        s3_client.upload_file(str(dump / name), "dumps", f"d/{name}")
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")

    def evaluate(source: str, artifacts: str):
        result = _materialize(dagster_instance, source, artifacts, cache=tmp_path / "cache")
        assert not result.success
        check = _check_evaluation(result)  # evaluated, not left planned
        assert not check.passed and "\n" not in check.description and "Traceback" not in check.description
        return check.description

    # No credentials at all: the dump cannot be read.
    import boto3

    with monkeypatch.context() as without:
        without.delenv("AWS_ACCESS_KEY_ID")
        without.delenv("AWS_SECRET_ACCESS_KEY")
        without.setattr(boto3, "DEFAULT_SESSION", None)  # boto3 keeps the credentials it found first
        message = evaluate("s3://dumps/d", str(tmp_path / "art"))
    assert message.startswith("the votes dump at s3://dumps/d could not be read: reading s3://dumps/d/battles.jsonl: ")
    assert f"S3 at {moto_s3}: Unable to locate credentials" in message

    # An endpoint nobody listens on.
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    with monkeypatch.context() as elsewhere:
        elsewhere.setenv("AWS_ENDPOINT_URL", dead)
        message = evaluate("s3://dumps/d", str(tmp_path / "art"))
    assert f"reading s3://dumps/d/battles.jsonl: S3 at {dead}: Could not connect to the endpoint URL" in message

    # The dump reads fine but the artifact bucket does not exist.
    message = evaluate("s3://dumps/d", "s3://no-such-bucket/atlas")
    assert message.startswith("the votes dump is valid but the leaderboard could not be published to s3://no-such-bucket/atlas: ")
    assert "NoSuchBucket" in message
