"""Monte-Carlo stability of the rank bands: how much does the bootstrap seed move them?

The point ratings do not depend on the seed (they are the fit on all battles); the CI
bounds, and through them the rank bands (METHODOLOGY.md §6), do. For each dump and round
count this computes the leaderboard for several seeds (the engine's own build_document, so
exactly the published arithmetic) and reports, per category and in total over the ranked
(non-provisional) models:

  changed/pair  models whose rank differs between two seeds: mean and range over all pairs
                of seeds
  unstable      models whose rank is not the same under every seed
  max spread    the largest (max - min) rank of one model over the seeds
  CI bound sd   Monte-Carlo standard deviation of ci_low and ci_high over the seeds
                (Elo), median over the models

    .venv/bin/python bench/llmfao_dump.py --out bench/data/llmfao
    .venv/bin/python bench/rank_band_stability.py --dump bench/data/llmfao --dump datasets/arena-sample
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atlas_assets.ratings.dump import read_dump  # noqa: E402
from atlas_assets.ratings.leaderboard import ComputeParams, build_document  # noqa: E402


def stability(dump, rounds: int, seeds: list[int]) -> dict[str, dict]:
    """category -> ranks (seeds x ranked models) and CI bounds, from one document per seed."""
    out: dict[str, dict] = {}
    for seed in seeds:
        for cat in build_document(dump, ComputeParams(seed=seed, bootstrap_rounds=rounds))["categories"]:
            ranked = sorted((e for e in cat["entries"] if e["rank"] is not None), key=lambda e: e["model"])
            slot = out.setdefault(cat["category"], {"rank": [], "low": [], "high": []})
            slot["rank"].append([e["rank"] for e in ranked])
            slot["low"].append([e["ci_low"] for e in ranked])
            slot["high"].append([e["ci_high"] for e in ranked])
    return {c: {k: np.array(v, dtype=np.float64) for k, v in s.items()} for c, s in out.items()}


def summarise(rank: np.ndarray, low: np.ndarray, high: np.ndarray) -> dict:
    pairs = [int(np.sum(rank[i] != rank[j])) for i, j in itertools.combinations(range(rank.shape[0]), 2)]
    return {
        "models": rank.shape[1],
        "changed_mean": float(np.mean(pairs)),
        "changed_min": min(pairs),
        "changed_max": max(pairs),
        "unstable": int(np.sum(rank.max(axis=0) != rank.min(axis=0))),
        "max_spread": int((rank.max(axis=0) - rank.min(axis=0)).max(initial=0)),
        "ci_sd": float(np.median(np.concatenate([low.std(axis=0, ddof=1), high.std(axis=0, ddof=1)]))),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", type=Path, action="append", required=True, help="dump folder (repeatable)")
    parser.add_argument("--rounds", default="100,1000", help="comma-separated bootstrap round counts")
    parser.add_argument("--seeds", type=int, default=20, help="seeds 0..N-1")
    args = parser.parse_args(argv)
    seeds = list(range(args.seeds))
    print(f"{args.seeds} seeds (0..{args.seeds - 1}); ranked = non-provisional models; ranks are the published bands")
    print(
        "| dump | category | rounds | ranked models | changed per seed pair: mean (min-max) | unstable over all seeds "
        "| max rank spread | CI bound MC sd (Elo, median) | s per leaderboard |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for folder in args.dump:
        dump = read_dump(folder / "battles.jsonl", folder / "votes.jsonl")
        for rounds in (int(r) for r in args.rounds.split(",")):
            started = time.monotonic()
            cats = stability(dump, rounds, seeds)
            seconds = (time.monotonic() - started) / len(seeds)
            rows = {c: summarise(v["rank"], v["low"], v["high"]) for c, v in cats.items()}
            if len(rows) > 1:
                rows["all"] = summarise(*(np.concatenate([v[k] for v in cats.values()], axis=1) for k in ("rank", "low", "high")))
            for cat, s in rows.items():
                print(
                    f"| {folder.name} | {cat} | {rounds} | {s['models']} | {s['changed_mean']:.1f} "
                    f"({s['changed_min']}-{s['changed_max']}) | {s['unstable']} | {s['max_spread']} | "
                    f"{s['ci_sd']:.2f} | {seconds:.1f} |"
                )
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
