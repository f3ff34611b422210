"""The one Definitions object loads every way a user reaches it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_workspace_yaml_loads_the_definitions(tmp_path):
    dagster = Path(sys.executable).with_name("dagster")
    result = subprocess.run(
        [str(dagster), "definitions", "validate", "-w", "workspace.yaml"],
        cwd=REPO,
        env={**_without_module_name(), "DAGSTER_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Validation successful for code location atlas_assets" in result.stdout + result.stderr


def test_module_name_from_the_environment_loads_the_definitions(tmp_path):
    # What `make leaderboard` relies on: DAGSTER_MODULE_NAME instead of -m or -w.
    dagster = Path(sys.executable).with_name("dagster")
    result = subprocess.run(
        [str(dagster), "definitions", "validate"],
        cwd=tmp_path,
        env={**_without_module_name(), "DAGSTER_HOME": str(tmp_path), "DAGSTER_MODULE_NAME": "atlas_assets"},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _without_module_name() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "DAGSTER_MODULE_NAME"}


def test_module_exposes_one_definitions_with_the_documented_keys():
    import dagster as dg

    import atlas_assets

    assert "defs" in dir(atlas_assets)
    defs = atlas_assets.defs
    assert isinstance(defs, dg.Definitions)
    keys = {key.to_user_string() for key in defs.resolve_all_asset_keys()}
    assert {"votes_dump", "leaderboard", "browser_use_telemetry"} <= keys
    assert any(key.startswith("datasets/") for key in keys)
    assert defs.resolve_schedule_def("nightly_leaderboard").cron_schedule == "30 4 * * *"


def test_the_ratings_cli_does_not_import_dagster():
    code = "import sys, atlas_assets.ratings.cli; print('dagster' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr
