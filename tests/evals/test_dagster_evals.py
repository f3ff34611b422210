"""eval_run and eval_matrix on a real Dagster instance (SQLite in a temporary DAGSTER_HOME),
with the simulator started by the asset on 127.0.0.1."""

from __future__ import annotations

import hashlib
import io
import json

import dagster as dg
import pyarrow.parquet as pq
import yaml
from PIL import Image

from atlas_assets.corpus import registry
from atlas_assets.evals.engines import DEFAULT_ENGINES_FILE
from atlas_assets.evals.workloads import DEFAULT_WORKLOADS_DIR
from atlas_assets.orchestration.evals import assets as eval_defs
from tests.helpers.evals import eval_run_resources

WORKLOAD = "eval-instruction-v1"
ENGINE = "sim-strong"


def test_the_graph_partitions_engines_by_workloads_and_reads_its_workload_partition():
    from atlas_assets import defs

    graph = defs.resolve_asset_graph()
    node = graph.get(dg.AssetKey("eval_run"))
    partitions = node.partitions_def
    assert isinstance(partitions, dg.MultiPartitionsDefinition)
    engines = yaml.safe_load(DEFAULT_ENGINES_FILE.read_text())["engines"]
    workloads = sorted(p.stem for p in DEFAULT_WORKLOADS_DIR.glob("*.yaml"))
    assert len(partitions.get_partition_keys()) == len(engines) * len(workloads)
    assert node.parent_keys == {eval_defs.WORKLOAD_KEY}
    mapping = graph.get_partition_mapping(dg.AssetKey("eval_run"), eval_defs.WORKLOAD_KEY)
    assert isinstance(mapping, dg.MultiToSingleDimensionPartitionMapping)  # inferred: the workload dimension
    assert graph.get(eval_defs.WORKLOAD_KEY).partitions_def.get_partition_keys() == workloads
    assert node.group_name == "evals" and node.code_version == eval_defs.EVAL_RUN_CODE_VERSION
    assert defs.resolve_assets_def("eval_run").op.pool == "eval_run"
    assert dg.AssetKey("eval_run") in graph.get(dg.AssetKey("eval_matrix")).parent_keys


def test_materialize_one_partition_and_the_matrix(tmp_path, dagster_home):
    workloads_dir = tmp_path / "workloads"
    workloads_dir.mkdir()
    body = yaml.safe_load((DEFAULT_WORKLOADS_DIR / f"{WORKLOAD}.yaml").read_text())
    body["sample"] = {"limit": 12, "seed": 3}
    (workloads_dir / f"{WORKLOAD}.yaml").write_text(yaml.safe_dump(body))
    defs = eval_defs.build_defs(DEFAULT_ENGINES_FILE, workloads_dir)
    by_key = {a.key: a for a in defs.assets}
    run_asset, matrix_asset = by_key[dg.AssetKey("eval_run")], by_key[dg.AssetKey("eval_matrix")]
    resources = eval_run_resources(tmp_path, workloads_dir)
    instance = dg.DagsterInstance.get()
    (expected,) = eval_defs.workload_versions(
        {WORKLOAD: eval_defs.load_workloads_report(workloads_dir).entries[WORKLOAD]}, registry.DEFAULT_DATASETS_ROOT
    )
    key = dg.MultiPartitionKey({"engine": ENGINE, "workload": WORKLOAD})
    result = dg.materialize([run_asset], instance=instance, resources=resources, partition_key=key)
    assert result.success
    results_path = tmp_path / "artifacts" / "evals" / ENGINE / WORKLOAD / "results.json"
    sha = hashlib.sha256(results_path.read_bytes()).hexdigest()
    event = instance.get_latest_materialization_event(dg.AssetKey("eval_run")).asset_materialization
    assert event.partition == key
    # the data version is the scored content, recorded in results.json; the file keeps its byte sha
    assert event.tags["dagster/data_version"] == json.loads(results_path.read_bytes())["content_sha256"] != sha
    # the workload partition was never recorded: eval_run recorded the bytes it read
    # Dagster records a partitioned input as the version itself or as its digest of the
    # partitions' versions, depending on how the step reads it; either names these bytes
    recorded = event.tags["dagster/input_data_version/evals/workload"]
    assert recorded in (expected.data_version, hashlib.sha256(expected.data_version.encode()).hexdigest())
    assert expected.facts["dataset_content_sha256"] == registry.read_lock()[WORKLOAD]
    metadata = event.metadata
    assert metadata["total"].value == 12 and 0 < metadata["accuracy"].value <= 1
    assert metadata["results_sha256"].value == sha
    assert "| TTFT |" in metadata["latency (ms)"].value and "failures_by_reason" not in metadata
    assert list(metadata)[:2] == ["accuracy", "accuracy_95ci"] and "Wilson" in metadata["accuracy_95ci"].value
    assert (tmp_path / "artifacts" / "evals" / ENGINE / WORKLOAD / "checkpoint.jsonl").is_file()

    matrix = dg.materialize([matrix_asset], instance=instance, resources=resources)
    assert matrix.success
    table = pq.read_table(tmp_path / "artifacts" / "evals" / "eval_matrix.parquet").to_pylist()
    assert len(table) == 1 and table[0]["engine"] == ENGINE and table[0]["results_sha256"] == sha
    assert table[0]["accuracy"] == metadata["accuracy"].value
    picture = Image.open(io.BytesIO((tmp_path / "artifacts" / "evals" / "eval_matrix.png").read_bytes()))
    assert picture.format == "PNG" and picture.width > 300
    md = instance.get_latest_materialization_event(dg.AssetKey("eval_matrix")).asset_materialization.metadata["matrix"].value
    assert f"| `{WORKLOAD}` |" in md and f"{metadata['accuracy'].value * 100:.1f}%" in md and "—" in md


def test_a_run_on_another_machine_resumes_from_the_stored_checkpoint(tmp_path, dagster_home):
    """Two work folders stand for two machines sharing one artifact store."""
    workloads_dir = tmp_path / "workloads"
    workloads_dir.mkdir()
    body = yaml.safe_load((DEFAULT_WORKLOADS_DIR / f"{WORKLOAD}.yaml").read_text())
    body["sample"] = {"limit": 8, "seed": 5}
    (workloads_dir / f"{WORKLOAD}.yaml").write_text(yaml.safe_dump(body))
    run_asset = next(a for a in eval_defs.build_defs(DEFAULT_ENGINES_FILE, workloads_dir).assets if a.key == dg.AssetKey("eval_run"))
    key = dg.MultiPartitionKey({"engine": ENGINE, "workload": WORKLOAD})
    instance = dg.DagsterInstance.get()
    first = eval_run_resources(tmp_path / "machine-a", workloads_dir)
    second = {**eval_run_resources(tmp_path / "machine-b", workloads_dir), "artifact_store": first["artifact_store"]}
    assert dg.materialize([run_asset], instance=instance, resources=first, partition_key=key).success
    assert not (tmp_path / "machine-b" / "work").exists()
    assert dg.materialize([run_asset], instance=instance, resources=second, partition_key=key).success
    metadata = instance.get_latest_materialization_event(dg.AssetKey("eval_run")).asset_materialization.metadata
    assert metadata["rows_resumed"].value == 8 and metadata["rows_sent"].value == 0
