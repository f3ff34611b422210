from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
AUTOBENCH = [sys.executable, "-m", "autobench.cli"]

REQUEST_YAML = """\
# yaml-language-server: $schema=schemas/0.3.0/generation_request_schema.json
generation:
  request:
    seed: 17
    prompt:
      content: Generate privacy-safe support routing cases.
      asset_version: prompt.routing-generator@v1
    settings:
      route: billing
      count: 4
    metadata:
      owner: evaluation
    seed_cases:
      - id: reviewed-refund
        input:
          message: Refund for a duplicate charge
        expected:
          route: billing
"""


@pytest.fixture
def request_file(tmp_path: Path) -> Path:
    path = tmp_path / "generation-request.yaml"
    path.write_text(REQUEST_YAML)
    return path


def run_cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {})}
    return subprocess.run([*AUTOBENCH, *args], cwd=cwd, env=full_env, capture_output=True, text=True, timeout=60)
