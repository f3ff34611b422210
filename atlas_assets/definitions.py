"""The table of contents of the product: every domain's Dagster definitions, merged.

orchestration/leaderboard   votes_dump -> leaderboard, browser_use_telemetry; nightly schedule
orchestration/datasets      datasets/<id>, datasets/index; published_datasets sensor
orchestration/evals         evals/workload -> eval_run -> eval_matrix; workloads_on_disk sensor
orchestration/translation   translation/corpus -> translation_run -> leaderboard; corpora sensor
orchestration/autobench     generation_request -> batch -> review -> dataset -> benchmarks
"""

import dagster as dg

from atlas_assets.orchestration import autobench, datasets, evals, leaderboard, translation

defs = dg.Definitions.merge(leaderboard.defs, datasets.defs, evals.defs, translation.defs, autobench.defs)
