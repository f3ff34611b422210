"""The two phases of `humaneval-ratings compute`, timed apart in one process.

    python bench/leaderboard_phases.py BATTLES VOTES SEED ROUNDS

prints one JSON line: {"decode_seconds": .., "read_seconds": .., "fit_seconds": .., "categories": ..}.

decode_seconds: a bare single-process loop of the reader's own msgspec decoders over every
    data line of both files, nothing kept -- parsing alone, before any check, feature or
    merge (msgspec's typed decoding is the fastest parser measured here: 1.9 s against the
    orjson loop's 2.4 s on the 1M dump).
read_seconds: `read_dump` (validation, the reader's worker processes, the reduction to
    per-battle arrays).
fit_seconds: `fit_categories` on the arrays `build_document` gives it, with the seed and
    rounds given and the same threads.

leaderboard_bench.py runs it to show where the time goes, and what can not go: the fit's
arithmetic is what the published bytes depend on, so its time is a floor no faster reader
lowers, and a reader on msgspec parses no faster than decode_seconds spread over every CPU.
"""

from __future__ import annotations

import json
import sys
import time

from atlas_assets.ratings.dump import _BATTLE_DECODER, _VOTE_DECODER, read_dump
from atlas_assets.ratings.fitting import fit_categories
from atlas_assets.ratings.leaderboard import ComputeParams, category_inputs


def decode_seconds(battles: str, votes: str) -> float:
    started = time.perf_counter()
    for path, decode in ((battles, _BATTLE_DECODER.decode), (votes, _VOTE_DECODER.decode)):
        with open(path, "rb") as handle:
            handle.readline()  # the header line is not a record
            for line in handle:
                decode(line)
    return time.perf_counter() - started


def main(argv: list[str]) -> int:
    battles, votes, seed, rounds = argv[0], argv[1], int(argv[2]), int(argv[3])
    decode = decode_seconds(battles, votes)
    started = time.perf_counter()
    dump = read_dump(battles, votes)
    read_seconds = time.perf_counter() - started
    params = ComputeParams(seed=seed, bootstrap_rounds=rounds)
    categories = [data for _, data in category_inputs(dump, params)]
    started = time.perf_counter()
    fit_categories(categories, seed=params.seed, rounds=params.bootstrap_rounds)
    fit_seconds = time.perf_counter() - started
    print(json.dumps({"decode_seconds": decode, "read_seconds": read_seconds, "fit_seconds": fit_seconds, "categories": len(categories)}))
    return 0


if __name__ == "__main__":  # the reader's workers are spawned: they import this module
    sys.exit(main(sys.argv[1:]))
