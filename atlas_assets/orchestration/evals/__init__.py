"""Eval runs (group "evals"): evals/workload -> eval_run (engine x workload) -> eval_matrix,
and the sensor that records workloads at the version of their bytes."""

from atlas_assets.orchestration.evals.assets import build_defs

defs = build_defs()
