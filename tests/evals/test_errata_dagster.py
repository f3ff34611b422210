"""The Dagster eval_run asset shows the corpus errata a run applied (real instance, simulator on 127.0.0.1)."""

from __future__ import annotations

import dagster as dg
import yaml

from atlas_assets.corpus import registry
from atlas_assets.evals.engines import DEFAULT_ENGINES_FILE
from atlas_assets.evals.workloads import DEFAULT_WORKLOADS_DIR
from atlas_assets.orchestration.datasets.assets import dataset_key
from atlas_assets.orchestration.evals import assets as eval_defs
from tests.helpers.evals import eval_run_resources

WORKLOAD = "eval-commonsense-v2"
ENGINE = "sim-strong"


def test_eval_run_metadata_names_the_applied_errata(tmp_path, dagster_home):
    workloads_dir = tmp_path / "workloads"
    workloads_dir.mkdir()
    body = yaml.safe_load((DEFAULT_WORKLOADS_DIR / f"{WORKLOAD}.yaml").read_text())
    assert body["errata"]["ids"]
    (workloads_dir / f"{WORKLOAD}.yaml").write_text(yaml.safe_dump(body))
    defs = eval_defs.build_defs(DEFAULT_ENGINES_FILE, workloads_dir)
    run_asset = next(a for a in defs.assets if a.key == dg.AssetKey("eval_run"))
    resources = eval_run_resources(tmp_path, workloads_dir)
    instance = dg.DagsterInstance.get()
    instance.report_runless_asset_event(
        dg.AssetMaterialization(dataset_key(WORKLOAD), tags={"dagster/data_version": registry.read_lock()[WORKLOAD]})
    )
    key = dg.MultiPartitionKey({"engine": ENGINE, "workload": WORKLOAD})
    assert dg.materialize([run_asset], instance=instance, resources=resources, partition_key=key).success
    metadata = instance.get_latest_materialization_event(dg.AssetKey("eval_run")).asset_materialization.metadata
    ids = body["errata"]["ids"]
    assert metadata["errata"].value == ", ".join(ids)
    assert metadata["errata_excluded_rows"].value == len(ids)
    assert metadata["total"].value == 252 - len(ids)
