"""Time LMArena's `arena-rank` (0.1.1) on a dump the bench has already parsed.

Runs inside the separate bench venv (.venv-bench: arena-rank pulls jax, pandas and friends,
which must not enter the project's lock file), so it imports nothing from atlas_assets.
Input: an .npz written by bench/leaderboard_bench.py with one row per voted battle:

    categories (k,) str, models (m,) str,
    cat, model_a, model_b (n,) int  -- indices into categories / models
    outcome (n,) float              -- weighted share of the battle's votes won by model_a
                                       (ties count 1/2): wins_a / (wins_a + wins_b)
    weight (n,) float               -- the battle's total vote weight, wins_a + wins_b
    z (n, 4) float                  -- the engine's normalised A-B style differences

A row with outcome y and weight w has the log-likelihood w * (y*d - softplus(d)), exactly
the sum of its votes' terms (they share d), and resampling rows resamples battles, the
same bootstrap unit as the engine's.

For every category it builds arena-rank's datasets (untimed: conversion is not the
method's cost), then times, each on a fresh model object, as a user would call them:

    bt_sandwich   BradleyTerry            fit + compute_ratings_and_cis(ci_method="sandwich")
    bt_bootstrap  BradleyTerry            fit + compute_ratings_and_cis(ci_method="bootstrap")
    sc_sandwich   ContextualBradleyTerry  fit + sandwich
    sc_bootstrap  ContextualBradleyTerry  fit + bootstrap

Bootstrap calls run R rounds (--rounds). When R is smaller than --target-rounds the
result is extrapolated (and reported as such): the fit is timed on its own, the bootstrap
is timed at R rounds and at P = cpu_count rounds (one round per pool worker: the pool's
start-up and each worker's first JIT compilation), and the estimate is
fit + T(R) + (T(R) - T(P)) / (R - P) x (target - R): a fixed cost plus a cost per round.
(Scaling T(R) proportionally would charge the fixed cost once per round and overstate
arena-rank's time several-fold at small R.) Imports and jax start-up are outside the timers;
JIT compilation is inside (it is paid by every fresh process), and so is the start-up of
the bootstrap's worker pool. arena-rank's pool uses the default multiprocessing context;
under 'fork' its workers deadlock on jax's threads, so this runner selects 'spawn' (the
worker start-up is then part of the measured bootstrap time). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def _bt_dataset(PairDataset, competitors, a, b, outcome, weight):
    """Weighted PairDataset: rows aggregated by (a, b, outcome) as arena-rank's own loader does,
    counts = rows, opt_weights = summed weight."""
    import jax.numpy as jnp
    import numpy as np

    key = np.stack([a.astype(np.float64), b.astype(np.float64), outcome], axis=1)
    uniq, inverse, counts = np.unique(key, axis=0, return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    wsum = np.bincount(inverse, weights=weight, minlength=uniq.shape[0])
    counts = counts.astype(np.float64)
    return PairDataset(
        competitors=competitors,
        pairs=jnp.asarray(uniq[:, :2].astype(np.int32)),
        outcomes=jnp.asarray(uniq[:, 2]),
        counts=jnp.asarray(counts),
        weights=jnp.asarray(wsum / counts),
        opt_weights=jnp.asarray(wsum),
    )


def _sc_dataset(ContextualPairDataset, competitors, a, b, outcome, weight, z):
    import jax.numpy as jnp
    import numpy as np

    return ContextualPairDataset(
        competitors=competitors,
        pairs=jnp.asarray(np.stack([a, b], axis=1).astype(np.int32)),
        outcomes=jnp.asarray(outcome),
        features=jnp.asarray(z),
        weights=jnp.asarray(weight / weight.mean()),
    )


def _block(result) -> None:
    for key in ("ratings", "rating_lower", "rating_upper"):
        value = result.get(key)
        if value is not None and hasattr(value, "block_until_ready"):
            value.block_until_ready()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", required=True, help=".npz written by leaderboard_bench.py")
    parser.add_argument("--rounds", type=int, default=100, help="bootstrap rounds actually run")
    parser.add_argument("--target-rounds", type=int, default=100, help="rounds to extrapolate to")
    parser.add_argument("--methods", default="bt_sandwich,sc_sandwich,bt_bootstrap,sc_bootstrap")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--categories", default=None, help="comma-separated subset of categories (default all)")
    parser.add_argument(
        "--start-method",
        default="spawn",
        choices=("spawn", "forkserver", "fork"),
        help="multiprocessing start method for arena-rank's bootstrap pool (default spawn: with "
        "'fork' the pool's workers deadlock once jax's threads exist, as jax itself warns)",
    )
    args = parser.parse_args(argv)

    import multiprocessing

    multiprocessing.set_start_method(args.start_method, force=True)

    import jax
    import numpy as np

    jax.config.update("jax_enable_x64", True)
    from arena_rank.models.bradley_terry import BradleyTerry
    from arena_rank.models.contextual_bradley_terry import ContextualBradleyTerry
    from arena_rank.utils.data_utils import ContextualPairDataset, PairDataset

    try:
        from importlib.metadata import version

        ar_version = version("arena-rank")
    except Exception:  # pragma: no cover
        ar_version = "unknown"

    data = np.load(args.input, allow_pickle=False)
    categories = [str(c) for c in data["categories"]]
    models = [str(m) for m in data["models"]]
    methods = [m for m in args.methods.split(",") if m]
    out = {
        "arena_rank_version": ar_version,
        "jax_version": jax.__version__,
        "cpu_count": os.cpu_count(),
        "rounds_run": args.rounds,
        "target_rounds": args.target_rounds,
        "extrapolated": args.rounds < args.target_rounds,
        "start_method": args.start_method,
        "categories": {},
        "totals": {},
    }
    totals = {m: 0.0 for m in methods}
    extrapolate = args.rounds < args.target_rounds
    probe_rounds = os.cpu_count() or 1  # one round per pool worker: start-up + first compile
    if extrapolate:
        out["probe_rounds"] = probe_rounds if args.rounds > probe_rounds else None
    for c, cname in enumerate(categories):
        rows = np.flatnonzero(data["cat"] == c)
        if rows.size == 0 or (args.categories and cname not in args.categories.split(",")):
            continue
        a_g, b_g = data["model_a"][rows], data["model_b"][rows]
        present, local = np.unique(np.concatenate([a_g, b_g]), return_inverse=True)
        a, b = local[: rows.size], local[rows.size :]
        competitors = [models[i] for i in present]
        outcome = data["outcome"][rows].astype(np.float64)
        weight = data["weight"][rows].astype(np.float64)
        z = data["z"][rows].astype(np.float64)
        if not np.any(z):
            z = z[:, :0]  # recording category: no style covariates
        bt_ds = _bt_dataset(PairDataset, competitors, a, b, outcome, weight)
        sc_ds = _sc_dataset(ContextualPairDataset, competitors, a, b, outcome, weight, z) if z.shape[1] else None
        info = {"votes": int(rows.size), "models": len(competitors), "seconds": {}}
        for method in methods:
            kind, ci = method.split("_")
            if kind == "sc" and sc_ds is None:
                info["seconds"][method] = None  # no covariates: the contextual model does not apply
                continue
            ds = bt_ds if kind == "bt" else sc_ds
            make = (
                (lambda: BradleyTerry(n_competitors=len(competitors)))
                if kind == "bt"
                else (lambda: ContextualBradleyTerry(n_competitors=len(competitors), n_features=z.shape[1]))
            )
            model = make()
            if ci == "sandwich":
                t0 = time.perf_counter()
                _block(model.compute_ratings_and_cis(ds, ci_method="sandwich"))
                seconds = time.perf_counter() - t0
                info["seconds"][method] = seconds
            else:
                t0 = time.perf_counter()
                model.fit(ds)
                jax.block_until_ready(model.params)
                t_fit = time.perf_counter() - t0

                def boot(rounds: int) -> float:
                    t0 = time.perf_counter()
                    _block(model.compute_ratings_and_cis(ds, ci_method="bootstrap", num_bootstrap=rounds, seed=args.seed))
                    return time.perf_counter() - t0

                t_boot = boot(args.rounds)
                if not extrapolate:
                    seconds = t_fit + t_boot
                elif args.rounds > probe_rounds:  # two-point line: fixed cost + cost per round
                    t_probe = boot(probe_rounds)
                    per_round = max(t_boot - t_probe, 0.0) / (args.rounds - probe_rounds)
                    seconds = t_fit + t_boot + per_round * (args.target_rounds - args.rounds)
                    info["seconds"][method + "_probe_bootstrap"] = t_probe
                else:  # too few rounds for a line: proportional (over-estimates the fixed cost)
                    seconds = t_fit + t_boot * (args.target_rounds / args.rounds)
                info["seconds"][method] = seconds
                info["seconds"][method + "_fit"] = t_fit
                info["seconds"][method + "_measured_bootstrap"] = t_boot
            totals[method] += seconds
            print(f"[arena-rank] {cname:<16} {method:<13} {seconds:9.2f}s", file=sys.stderr, flush=True)
        out["categories"][cname] = info
    out["totals"] = totals
    out["totals"]["bootstrap"] = sum(totals.get(m, 0.0) for m in ("bt_bootstrap", "sc_bootstrap"))
    out["totals"]["sandwich"] = sum(totals.get(m, 0.0) for m in ("bt_sandwich", "sc_sandwich"))
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
