"""The table of contents of the product: every domain's Dagster definitions, merged."""

import dagster as dg

from atlas_assets.orchestration import datasets, evals, leaderboard

defs = dg.Definitions.merge(
    leaderboard.defs,
    datasets.defs,
    evals.defs,
)
