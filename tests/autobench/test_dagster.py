"""The Dagster shell on a real (ephemeral) instance: dynamic request partitions, sha256 data
versions and staleness, the blocking review check, the shared artifact store, benchmarks
that never generate."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import dagster as dg
import pytest
import yaml
from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleStatus
from dagster._core.definitions.observe import observe
from dagster._core.loader import LoadingContextForTest

from tests.helpers.autobench import REPO

warnings.filterwarnings("ignore", category=dg.BetaWarning) if hasattr(dg, "BetaWarning") else None

GID = "generated-routing"
BENCH = dg.AssetKey(["autobench", "benchmark", "routing"])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name in ("autobench.yaml", "generated-routing.request.yaml", "routing.benchmark.yaml"):
        shutil.copy(REPO / "autobench" / "examples" / name, tmp_path / name)
    return tmp_path / "autobench.yaml"


class Env:
    def __init__(self, project: Path):
        from atlas_assets.orchestration import autobench
        from atlas_assets.orchestration.autobench import assets as ab
        from atlas_assets.orchestration.resources import ArtifactStoreResource

        self.ab = ab
        self.project = project
        self.defs = autobench.build_defs(project)
        self.store_root = project.parent / "store"
        self.resources = {"artifact_store": ArtifactStoreResource(root=str(self.store_root))}
        self.instance = dg.DagsterInstance.ephemeral()
        self.graph = self.defs.resolve_asset_graph()

    @property
    def assets(self) -> list:
        return [*self.defs.assets, *self.defs.asset_checks]

    def observe_requests(self) -> None:
        source = [a for a in self.defs.assets if getattr(a, "key", None) == self.ab.REQUEST_KEY]
        assert observe(source, instance=self.instance, resources=self.resources).success

    def materialize(self, selection, partition: str | None = GID, **kwargs):
        return dg.materialize(
            self.assets, instance=self.instance, resources=self.resources, selection=selection, partition_key=partition, **kwargs
        )

    def generation(self):
        return self.materialize(dg.AssetSelection.assets(self.ab.BATCH_KEY, self.ab.MANIFEST_KEY, self.ab.DATASET_KEY))

    def status(self, key: dg.AssetKey, partition: str | None = GID) -> StaleStatus:
        resolver = CachingStaleStatusResolver(self.instance, self.graph, LoadingContextForTest(self.instance))
        return resolver.get_status(key, partition)

    def stored(self, relpath: str) -> Path:
        return self.store_root / relpath


@pytest.fixture
def env(project: Path) -> Env:
    return Env(project)


def test_partitions_come_from_the_request_files(env: Env) -> None:
    ab = env.ab
    assert isinstance(env.graph.get(ab.BATCH_KEY).partitions_def, dg.DynamicPartitionsDefinition)
    for key in (ab.REQUEST_KEY, ab.BATCH_KEY, ab.MANIFEST_KEY, ab.DATASET_KEY):
        assert env.graph.get(key).partitions_def.name == ab.PARTITIONS_NAME
    assert not env.graph.get(BENCH).is_partitioned
    # the sensor proposes exactly the project's generations; it never requests a run
    sensor = env.defs.resolve_sensor_def("autobench_generation_requests")
    result = sensor(dg.build_sensor_context(instance=env.instance))
    assert not result.run_requests
    assert [r.partition_keys for r in result.dynamic_partitions_requests] == [[GID]]
    # observing the requests adds the partitions and records one sha256 per request file
    env.observe_requests()
    assert env.instance.get_dynamic_partitions(ab.PARTITIONS_NAME) == [GID]
    record = env.instance.get_latest_data_version_record(ab.REQUEST_KEY, True, GID)
    from dagster._core.definitions.data_version import extract_data_version_from_entry

    from atlas_assets.core.hashing import sha256_file

    assert extract_data_version_from_entry(record.event_log_entry).value == sha256_file(
        env.project.parent / "generated-routing.request.yaml"
    )


def test_materialize_generation_then_benchmark_through_the_store(env: Env) -> None:
    from autobench.files import load_dataset

    env.observe_requests()
    result = env.generation()
    assert result.success
    checks = result.get_asset_check_evaluations()
    assert checks and all(c.passed for c in checks)
    folder = f"autobench/generations/{GID}"
    dataset_file = env.stored(f"{folder}/dataset/generated-routing.yaml")
    dataset = load_dataset(dataset_file).dataset  # hash-verified
    assert "generated-003" not in {c.id for c in dataset.cases}  # rejected, not published
    manifest = yaml.safe_load(env.stored(f"{folder}/dataset/generated-routing.generation.yaml").read_text())["generation"]
    assert {c["id"]: c["status"] for c in manifest["cases"]}["generated-003"] == "rejected"
    assert env.stored(f"{folder}/batch/result.json").is_file() and env.stored(f"{folder}/review_manifest.yaml").is_file()
    event = env.instance.get_latest_materialization_event(env.ab.DATASET_KEY)
    assert event.asset_materialization.partition == GID
    assert event.asset_materialization.tags["dagster/data_version"] == dataset.sha256
    assert not (env.project.parent / ".autobench").exists() and not (env.project.parent / "generated-routing.yaml").exists()

    bench = env.materialize(dg.AssetSelection.assets(BENCH), partition=None)
    assert bench.success
    summary = json.loads(env.stored("autobench/benchmarks/routing/summary.json").read_text())
    assert summary["dataset"]["sha256"] == dataset.sha256
    rows = env.stored("autobench/benchmarks/routing/results.jsonl").read_text().splitlines()
    assert len(rows) == 2 * len(dataset.cases)
    assert env.graph.get(BENCH).parent_keys == {env.ab.DATASET_KEY}


def test_benchmark_never_generates(env: Env) -> None:
    result = env.materialize(dg.AssetSelection.assets(BENCH), partition=None, raise_on_error=False)
    assert not result.success
    assert not env.stored("autobench/generations").exists()
    assert env.instance.get_latest_materialization_event(env.ab.BATCH_KEY) is None
    assert not (env.project.parent / "generated-routing.yaml").exists()


def test_changed_request_marks_batch_stale_new_batch_marks_dataset_stale(env: Env) -> None:
    ab = env.ab
    env.observe_requests()
    assert env.generation().success
    assert env.materialize(dg.AssetSelection.assets(BENCH), partition=None).success
    for key in (ab.BATCH_KEY, ab.MANIFEST_KEY, ab.DATASET_KEY):
        assert env.status(key) is StaleStatus.FRESH
    assert env.status(BENCH, None) is StaleStatus.FRESH

    env.observe_requests()  # same bytes: same data version, nothing stale
    assert env.status(ab.BATCH_KEY) is StaleStatus.FRESH

    request = env.project.parent / "generated-routing.request.yaml"
    request.write_text(request.read_text().replace("count: 8", "count: 9"))
    env.observe_requests()
    assert env.status(ab.BATCH_KEY) is StaleStatus.STALE
    assert env.status(ab.DATASET_KEY) is StaleStatus.FRESH  # not regenerated yet

    assert env.materialize(dg.AssetSelection.assets(ab.BATCH_KEY)).success
    assert env.status(ab.BATCH_KEY) is StaleStatus.FRESH
    assert env.status(ab.MANIFEST_KEY) is StaleStatus.STALE
    assert env.status(ab.DATASET_KEY) is StaleStatus.STALE

    assert env.materialize(dg.AssetSelection.assets(ab.MANIFEST_KEY, ab.DATASET_KEY)).success
    assert env.status(ab.DATASET_KEY) is StaleStatus.FRESH
    assert env.status(BENCH, None) is StaleStatus.STALE  # a new dataset hash


def _tamper_reason(case: dict) -> None:
    case["reason"] = None


def _tamper_published(case: dict) -> None:
    case["published"] = True


@pytest.mark.parametrize("tamper", [_tamper_reason, _tamper_published], ids=["rejected-without-reason", "rejected-published"])
def test_failing_review_check_blocks_the_dataset(env: Env, tamper) -> None:
    ab = env.ab
    env.observe_requests()
    assert env.materialize(dg.AssetSelection.assets(ab.BATCH_KEY, ab.MANIFEST_KEY)).success
    path = env.stored(f"autobench/generations/{GID}/review_manifest.yaml")
    manifest = yaml.safe_load(path.read_text())
    for case in manifest["generation"]["cases"]:
        if case["status"] == "rejected":
            tamper(case)
    path.write_text(yaml.safe_dump(manifest, sort_keys=False))

    result = env.materialize(
        dg.AssetSelection.checks_for_assets(ab.MANIFEST_KEY) | dg.AssetSelection.assets(ab.DATASET_KEY), raise_on_error=False
    )
    assert not result.success
    [evaluation] = result.get_asset_check_evaluations()
    assert not evaluation.passed and "generated-003" in evaluation.metadata["problems"].value
    started = {e.step_key for e in result.all_events if e.event_type_value == "STEP_START"}
    assert "autobench__dataset" not in started  # blocked, never ran
    assert env.instance.get_latest_materialization_event(ab.DATASET_KEY) is None
    assert not env.stored(f"autobench/generations/{GID}/dataset").exists()


def test_incomplete_batch_writes_only_the_sidecar(env: Env) -> None:
    request = env.project.parent / "generated-routing.request.yaml"
    request.write_text(request.read_text().replace("count: 8", "count: 8\n      incomplete_after: 2"))
    env.observe_requests()
    result = env.materialize(dg.AssetSelection.assets(env.ab.BATCH_KEY, env.ab.MANIFEST_KEY, env.ab.DATASET_KEY), raise_on_error=False)
    assert not result.success
    folder = env.stored(f"autobench/generations/{GID}/dataset")
    assert sorted(p.name for p in folder.iterdir()) == ["generated-routing.incomplete.yaml"]

    request.write_text(request.read_text().replace("\n      incomplete_after: 2", ""))  # complete now
    env.observe_requests()
    assert env.materialize(dg.AssetSelection.assets(env.ab.BATCH_KEY, env.ab.MANIFEST_KEY, env.ab.DATASET_KEY)).success
    metadata = env.instance.get_latest_materialization_event(env.ab.DATASET_KEY).asset_materialization.metadata
    assert metadata["stale_incomplete_sidecar"].value.endswith("generated-routing.incomplete.yaml")  # the store cannot delete: reported


def test_a_fresh_benchmark_rerun_keeps_its_data_version(env: Env) -> None:
    """The version is the verdicts: a re-run from scratch (new latencies, new row order) keeps it."""
    env.observe_requests()
    assert env.generation().success
    assert env.materialize(dg.AssetSelection.assets(BENCH), partition=None).success
    first = env.instance.get_latest_materialization_event(BENCH).asset_materialization
    env.stored("autobench/benchmarks/routing/results.jsonl").unlink()  # nothing to resume from
    assert env.materialize(dg.AssetSelection.assets(BENCH), partition=None).success
    second = env.instance.get_latest_materialization_event(BENCH).asset_materialization
    assert second.tags["dagster/data_version"] == first.tags["dagster/data_version"]
    assert list(second.metadata)[0].endswith(".pass_rate")
    assert env.status(BENCH, None) is StaleStatus.FRESH
