"""Translation evaluation (specs/rosetta-eval-datasets.md): corpus schema and validation
(schema.py), FLORES+ import (flores.py), the prompt template (prompt.py), sacreBLEU
scoring (scoring.py), resumable runs and run cards (runs.py), run-card comparison
(compare.py), the `atlas translation` commands (cli.py). No Dagster import."""
