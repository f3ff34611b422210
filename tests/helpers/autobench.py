"""Shared helpers of tests/autobench (test modules import these; fixtures stay in conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def run_cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {})}
    return subprocess.run([*AUTOBENCH, *args], cwd=cwd, env=full_env, capture_output=True, text=True, timeout=60)


CURATED = """\
dataset:
  id: routing-curated
  version: v1
  source: curated
  cases:
    - id: refund
      input: {message: Refund a duplicate charge}
      expected: {route: billing}
    - id: login
      input: {message: I cannot log in}
      expected: {route: support}
"""
