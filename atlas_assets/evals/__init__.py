"""Eval runs: workloads, the request builder, the engine client, the runner and results.

Plain typed modules with no Dagster import (the Dagster shell is
atlas_assets/orchestration/evals.py; the command line is `atlas eval`).
"""

HARNESS = "inference-atlas-evals"
HARNESS_VERSION = "1.0.0"
