"""The table of contents of the product: every domain's Dagster definitions, merged."""

import dagster as dg

from atlas_assets.orchestration import autobench, datasets, evals, leaderboard, translation

defs = dg.Definitions.merge(
    leaderboard.defs,
    datasets.defs,
    evals.defs,
    translation.defs,
    autobench.defs,
)
