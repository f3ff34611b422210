"""The sandbox mode reaches every code_exec verdict, results.json, and (once) the user."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from atlas_assets.corpus.sandbox import sandbox_mode
from atlas_assets.evals.results import CHECKPOINT, RESULTS, read_checkpoint
from tests.helpers.evals import REPO


def _run(out, **env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "atlas_assets.cli",
            "eval",
            "run",
            "--workload",
            "eval-code-v1",
            "--engine",
            "sim-strong",
            "--limit",
            "4",
            "--out",
            str(out),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=180,
        env={**os.environ, **env},
    )


def test_a_contained_sandbox_is_said_once_and_recorded_everywhere(tmp_path):
    proc = _run(tmp_path, ATLAS_SANDBOX_CONTAINED="1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("code_exec runs in the sandbox's 'contained' mode") == 1
    results = json.loads((tmp_path / RESULTS).read_text())
    assert results["scores"]["sandbox"] == {"modes": {"contained": 4}, "all_isolated": False}
    records, _ = read_checkpoint(tmp_path / CHECKPOINT)
    assert [r.score.sandbox for r in records] == ["contained"] * 4


def test_the_platform_mode_is_recorded_and_silent_when_isolated(tmp_path):
    proc = _run(tmp_path)
    assert proc.returncode == 0, proc.stderr
    mode = sandbox_mode()
    results = json.loads((tmp_path / RESULTS).read_text())
    assert results["scores"]["sandbox"]["modes"] == {mode: 4}
    assert ("code_exec runs in the sandbox's" in proc.stderr) == (mode != "isolated")


def test_rows_that_run_no_code_record_no_sandbox(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "atlas_assets.cli",
            "eval",
            "run",
            "--workload",
            "eval-math-v1",
            "--engine",
            "sim-strong",
            "--limit",
            "3",
            "--out",
            str(tmp_path),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / RESULTS).read_text())["scores"]["sandbox"] is None
    assert "sandbox" not in proc.stderr
