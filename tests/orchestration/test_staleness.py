"""Staleness means the bytes changed, for every asset family, on a real SQLite instance.

For each family: a run launched without any prior observation records the version of the
bytes it read; observing or recording unchanged bytes leaves everything fresh; a no-op
re-materialization keeps the data version; a changed input makes exactly its dependents
stale."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import dagster as dg
import pytest
import yaml
from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleStatus
from dagster._core.definitions.observe import observe
from dagster._core.loader import LoadingContextForTest

from atlas_assets.corpus import rebuild, registry
from atlas_assets.evals.engines import DEFAULT_ENGINES_FILE
from atlas_assets.evals.workloads import DEFAULT_WORKLOADS_DIR
from atlas_assets.orchestration import datasets as dataset_package
from atlas_assets.orchestration.datasets.assets import CorpusResource, dataset_key
from atlas_assets.orchestration.evals import assets as evals
from atlas_assets.orchestration.leaderboard.assets import browser_use_telemetry, leaderboard, votes_dump
from atlas_assets.orchestration.leaderboard.schedules import nightly_leaderboard
from atlas_assets.orchestration.resources import ArtifactStoreResource, MediaBucketResource, VotesDumpResource
from atlas_assets.orchestration.shell import record_on_disk_inputs
from atlas_assets.orchestration.translation import assets as translation

FAST = {"bootstrap_rounds": 4, "min_votes": 1, "style_min_votes": 1}


def _status(instance, defs: dg.Definitions, key: dg.AssetKey, partition: str | None = None) -> StaleStatus:
    resolver = CachingStaleStatusResolver(instance, defs.resolve_asset_graph(), LoadingContextForTest(instance))
    return resolver.get_status(key, partition)


def _version(instance, key: dg.AssetKey, partition: str | None = None) -> str:
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=key, asset_partitions=[partition] if partition else None), limit=1
    ).records
    return records[0].asset_materialization.tags["dagster/data_version"]


# --------------------------------------------------------------------------- leaderboard


def test_leaderboard_launched_alone_records_the_dump_it_read(dagster_instance, make_dump, tmp_path):
    dump = make_dump()
    resources = {
        "votes_dump_source": VotesDumpResource(source=str(dump)),
        "artifact_store": ArtifactStoreResource(root=str(tmp_path / "art")),
        "media_bucket": MediaBucketResource(),
    }
    defs = dg.Definitions(assets=[votes_dump, leaderboard, browser_use_telemetry], schedules=[nightly_leaderboard], resources=resources)
    lb, telemetry = dg.AssetKey("leaderboard"), dg.AssetKey("browser_use_telemetry")
    run_config = {"ops": {"leaderboard": {"config": FAST}}}

    # as `dagster asset materialize --select leaderboard` or the UI's Materialize: no observe first
    assert dg.materialize(
        [votes_dump, leaderboard, browser_use_telemetry],
        selection=[lb, telemetry],
        instance=dagster_instance,
        resources=resources,
        run_config=run_config,
    ).success
    first = _version(dagster_instance, lb)
    assert _status(dagster_instance, defs, lb) is StaleStatus.FRESH

    # "Observe" of the unchanged dump: nothing becomes stale, and the schedule agrees
    assert observe([votes_dump], instance=dagster_instance, resources=resources).success
    assert _status(dagster_instance, defs, lb) is StaleStatus.FRESH
    assert _status(dagster_instance, defs, telemetry) is StaleStatus.FRESH
    tick = nightly_leaderboard(dg.build_schedule_context(instance=dagster_instance, resources=resources))
    assert isinstance(tick, dg.SkipReason) and "unchanged" in tick.skip_message

    # a no-op re-materialization keeps the version
    assert dg.materialize(
        [votes_dump, leaderboard], selection=[lb], instance=dagster_instance, resources=resources, run_config=run_config
    ).success
    assert _version(dagster_instance, lb) == first

    # new bytes: both dependents are stale after the observation, the schedule requests a run
    with open(dump / "votes.jsonl", "a", encoding="utf-8") as handle:
        handle.write("\n")
    assert observe([votes_dump], instance=dagster_instance, resources=resources).success
    assert _status(dagster_instance, defs, lb) is StaleStatus.STALE
    assert _status(dagster_instance, defs, telemetry) is StaleStatus.STALE
    assert isinstance(nightly_leaderboard(dg.build_schedule_context(instance=dagster_instance, resources=resources)), dg.RunRequest)


# --------------------------------------------------------------------------- datasets


def test_published_datasets_are_current_on_a_fresh_instance(dagster_instance, tmp_path):
    root = rebuild.copy_corpus(registry.DEFAULT_DATASETS_ROOT, tmp_path / "datasets", ids=["eval-format-v1", "eval-math-v1"])
    defs = dataset_package.build_defs(root)
    key = dataset_key("eval-format-v1")
    assert _status(dagster_instance, defs, key) is StaleStatus.MISSING

    recorded = record_on_disk_inputs(dagster_instance, defs)
    copied = {s.id for s in registry.discover(root)}
    assert {e.asset_key for e in recorded} == {dataset_key(d) for d in copied} >= {key, dataset_key("eval-math-v1")}
    assert _version(dagster_instance, key) == registry.read_lock(root)["eval-format-v1"]
    assert _status(dagster_instance, defs, key) is StaleStatus.FRESH
    assert record_on_disk_inputs(dagster_instance, defs) == []  # same bytes: nothing new to record

    # a folder that no longer matches its lock is not recorded as published
    rows = root / "eval-math-v1" / "rows.jsonl"
    rows.write_text(rows.read_text() + "\n")
    assert record_on_disk_inputs(dagster_instance, defs) == []


# --------------------------------------------------------------------------- eval runs


@pytest.fixture
def eval_graph(tmp_path, monkeypatch):
    """Two small workloads over two datasets of a corpus copy, the shipped simulator engines."""
    root = rebuild.copy_corpus(registry.DEFAULT_DATASETS_ROOT, tmp_path / "datasets", ids=["eval-instruction-v1", "eval-format-v1"])
    workloads = tmp_path / "workloads"
    workloads.mkdir()
    for workload_id in ("eval-instruction-v1", "eval-format-v1"):
        body = yaml.safe_load((DEFAULT_WORKLOADS_DIR / f"{workload_id}.yaml").read_text())
        body["sample"] = {"limit": 4, "seed": 1}
        (workloads / f"{workload_id}.yaml").write_text(yaml.safe_dump(body))
    defs = evals.build_defs(DEFAULT_ENGINES_FILE, workloads, root)
    resources = {
        "evals": evals.EvalsResource(engines_file=str(DEFAULT_ENGINES_FILE), workloads_dir=str(workloads), work_dir=str(tmp_path / "work")),
        "corpus": CorpusResource(datasets_root=str(root)),
        "artifact_store": ArtifactStoreResource(root=str(tmp_path / "art")),
    }
    return root, dg.Definitions(assets=defs.assets, sensors=defs.sensors, resources=resources), resources


def _key(engine: str, workload: str) -> dg.MultiPartitionKey:
    return dg.MultiPartitionKey({"engine": engine, "workload": workload})


def test_eval_runs_are_stale_exactly_when_their_own_bytes_change(dagster_instance, eval_graph):
    root, defs, resources = eval_graph
    run, matrix = dg.AssetKey("eval_run"), dg.AssetKey("eval_matrix")
    assets = list(defs.assets)
    changed, other = _key("sim-strong", "eval-format-v1"), _key("sim-strong", "eval-instruction-v1")
    for partition in (changed, other):
        assert dg.materialize(assets, selection=[run], partition_key=partition, instance=dagster_instance, resources=resources).success
    assert dg.materialize(assets, selection=[matrix], instance=dagster_instance, resources=resources).success
    before = _version(dagster_instance, run, str(changed))
    assert _status(dagster_instance, defs, run, str(changed)) is StaleStatus.FRESH

    # the sensor finds the bytes already recorded by the runs themselves
    assert record_on_disk_inputs(dagster_instance, defs) == []

    # re-materializing sends nothing (checkpoint) and keeps the version: the matrix stays fresh
    assert dg.materialize(assets, selection=[run], partition_key=changed, instance=dagster_instance, resources=resources).success
    assert _version(dagster_instance, run, str(changed)) == before
    assert _status(dagster_instance, defs, matrix) is StaleStatus.FRESH

    # new bytes in one dataset: exactly the runs reading it become stale
    rows = root / "eval-format-v1" / "rows.jsonl"
    rows.write_text(rows.read_text() + "\n")
    recorded = record_on_disk_inputs(dagster_instance, defs)
    assert [(e.asset_key, e.partition) for e in recorded] == [(evals.WORKLOAD_KEY, "eval-format-v1")]
    assert _status(dagster_instance, defs, run, str(changed)) is StaleStatus.STALE
    assert _status(dagster_instance, defs, run, str(other)) is StaleStatus.FRESH


# --------------------------------------------------------------------------- translation runs


def test_translation_runs_are_stale_exactly_when_their_corpus_changes(dagster_instance, tmp_path):
    from tests.helpers.translation import EXAMPLE

    corpora = tmp_path / "corpora"
    corpora.mkdir()
    shutil.copy(EXAMPLE, corpora / EXAMPLE.name)
    second = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    second["dataset"]["id"] = "example-en-fr-copy-v1"
    (corpora / "copy.json").write_text(json.dumps(second, ensure_ascii=False), encoding="utf-8")
    engines = tmp_path / "engines.yaml"
    engines.write_text(yaml.safe_dump({"engines": {"sim-a": {"kind": "simulator", "simulator": {"preset": "sim-zero-latency"}}}}))
    built = translation.build_defs(corpora, engines)
    resources = {
        "translation": translation.TranslationResource(
            corpora_dir=str(corpora), engines_file=str(engines), work_dir=str(tmp_path / "work")
        ),
        "artifact_store": ArtifactStoreResource(root=str(tmp_path / "art")),
    }
    defs = dg.Definitions(assets=built.assets, sensors=built.sensors, resources=resources)
    run = dg.AssetKey(["translation", "translation_run"])
    changed = dg.MultiPartitionKey({"engine": "sim-a", "corpus": "example-en-fr-v1"})
    other = dg.MultiPartitionKey({"engine": "sim-a", "corpus": "example-en-fr-copy-v1"})
    for partition in (changed, other):
        assert dg.materialize(
            list(defs.assets), selection=[run], partition_key=partition, instance=dagster_instance, resources=resources
        ).success
    before = _version(dagster_instance, run, str(changed))
    assert record_on_disk_inputs(dagster_instance, defs) == []
    assert dg.materialize(list(defs.assets), selection=[run], partition_key=changed, instance=dagster_instance, resources=resources).success
    assert _version(dagster_instance, run, str(changed)) == before  # scored content, not run facts

    doc = json.loads((corpora / EXAMPLE.name).read_text(encoding="utf-8"))
    doc["entries"][0]["reference"] = "Bonjour !"
    (corpora / EXAMPLE.name).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    assert len(record_on_disk_inputs(dagster_instance, defs)) == 1
    assert _status(dagster_instance, defs, run, str(changed)) is StaleStatus.STALE
    assert _status(dagster_instance, defs, run, str(other)) is StaleStatus.FRESH


def test_every_on_disk_sensor_only_records_and_never_requests_runs(dagster_instance):
    from atlas_assets import defs

    sensors = [s for s in defs.sensors if dict(s.tags or {}) == {"atlas/records": "inputs-on-disk"}]
    assert {s.name for s in sensors} == {"published_datasets", "workloads_on_disk", "translation_corpora_on_disk"}
    for sensor in sensors:
        result = sensor(dg.build_sensor_context(instance=dagster_instance))
        assert isinstance(result, dg.SensorResult) and not result.run_requests and result.asset_events


def test_a_fresh_instance_has_no_missing_upstream_for_eval_run(dagster_instance):
    """What the UI's "may fail, upstream never materialized" dialog checks, after `make dev`."""
    from atlas_assets import defs

    record_on_disk_inputs(dagster_instance, defs)
    graph = defs.resolve_asset_graph()
    for workload in graph.get(evals.WORKLOAD_KEY).partitions_def.get_partition_keys():
        assert _status(dagster_instance, defs, evals.WORKLOAD_KEY, workload) is StaleStatus.FRESH, workload
    for key in graph.get_all_asset_keys():
        if key.path[0] == "datasets" and key.path[-1] != "index" and key.path[-1] in registry.read_lock():
            assert _status(dagster_instance, defs, key) is StaleStatus.FRESH, key
    assert Path(registry.DEFAULT_DATASETS_ROOT).is_dir()
