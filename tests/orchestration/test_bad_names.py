"""A name Dagster cannot take as a partition key never breaks the code location: the bad
entry is left out and named, the rest of the graph loads."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from atlas_assets.orchestration.evals import assets as evals
from atlas_assets.orchestration.translation import assets as translation

REPO = Path(__file__).resolve().parents[2]
GOOD = {"kind": "simulator", "simulator": {"preset": "sim-zero-latency"}}


def _engines(tmp_path: Path) -> Path:
    path = tmp_path / "engines.yaml"
    path.write_text(yaml.safe_dump({"engines": {"good-engine": GOOD, "a|b": GOOD, "x...y": GOOD}}))
    return path


def test_eval_graph_leaves_out_bad_engines_and_names_them(tmp_path):
    defs = evals.build_defs(_engines(tmp_path))
    node = defs.resolve_asset_graph().get(evals.dg.AssetKey("eval_run"))
    engines = node.partitions_def.get_partitions_def_for_dimension("engine").get_partition_keys()
    assert engines == ["good-engine"]
    assert "Not loaded" in node.description and "a|b" in node.description and "x...y" in node.description


def test_translation_graph_leaves_out_a_bad_corpus_id(tmp_path):
    from tests.helpers.translation import EXAMPLE

    corpora = tmp_path / "corpora"
    corpora.mkdir()
    shutil.copy(EXAMPLE, corpora / EXAMPLE.name)
    bad = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    bad["dataset"]["id"] = "fr|en"
    (corpora / "bad.json").write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    defs = translation.build_defs(corpora, _engines(tmp_path))
    node = defs.resolve_asset_graph().get(translation.dg.AssetKey(["translation", "translation_run"]))
    assert node.partitions_def.get_partitions_def_for_dimension("corpus").get_partition_keys() == ["example-en-fr-v1"]
    assert "bad.json" in node.description and "dataset.id" in node.description


def test_the_code_location_loads_with_a_hostile_engines_file(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DAGSTER_MODULE_NAME"}
    env.update({"DAGSTER_HOME": str(tmp_path), "ATLAS_ENGINES": str(_engines(tmp_path))})
    result = subprocess.run(
        [str(Path(sys.executable).with_name("dagster")), "definitions", "validate", "-w", "workspace.yaml"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "engines or workloads not loaded" in out and "a|b" in out
