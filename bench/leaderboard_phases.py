"""The two phases of `humaneval-ratings compute`, timed apart in one process.

    python bench/leaderboard_phases.py BATTLES VOTES SEED ROUNDS

prints one JSON line: {"read_seconds": .., "fit_seconds": .., "categories": ..}.
read_seconds is `read_dump` (validation, the reader's worker processes, the reduction to
per-battle arrays); fit_seconds is `fit_categories` on the arrays `build_document` gives
it, with the seed and rounds given and the same threads. leaderboard_bench.py runs it to show where the
time goes, and what the fit alone costs: the fit's arithmetic is what the published bytes
depend on, so its time is a floor that no faster reader lowers.
"""

from __future__ import annotations

import json
import sys
import time

from atlas_assets.ratings.dump import read_dump
from atlas_assets.ratings.fitting import fit_categories
from atlas_assets.ratings.leaderboard import ComputeParams, category_inputs


def main(argv: list[str]) -> int:
    battles, votes, seed, rounds = argv[0], argv[1], int(argv[2]), int(argv[3])
    started = time.perf_counter()
    dump = read_dump(battles, votes)
    read_seconds = time.perf_counter() - started
    params = ComputeParams(seed=seed, bootstrap_rounds=rounds)
    categories = [data for _, data in category_inputs(dump, params)]
    started = time.perf_counter()
    fit_categories(categories, seed=params.seed, rounds=params.bootstrap_rounds)
    fit_seconds = time.perf_counter() - started
    print(json.dumps({"read_seconds": read_seconds, "fit_seconds": fit_seconds, "categories": len(categories)}))
    return 0


if __name__ == "__main__":  # the reader's workers are spawned: they import this module
    sys.exit(main(sys.argv[1:]))
