"""Which transform of the style covariates should style control use? (METHODOLOGY.md §7.6)

Style control enters, per covariate k, a standardised A-B difference z_k = t(x_a, x_b) / s_k.
Candidates for t (s_k makes z unit-free; coefficients are Elo per unit of z):

  reldiff  (x_a - x_b) / (x_a + x_b), 0 when both are 0; s_k = sd of t over the battles.
           Methodology 1.1 (before this study). Bounded: saturates at +-1 whenever one side
           is 0, whatever the other side has.
  log1p    log1p(x_a) - log1p(x_b); s_k = sd of t. A log ratio for counts and length that
           stays finite at 0; for markdown_density (a fraction, mostly < 0.1) it is
           practically the plain difference.
  pooled   x_a - x_b; s_k = sd of x over all responses of the battles (both slots pooled).

Part A, synthetic battles with a known truth: true strengths and true style effects are
generated through one transform ("gen"), then every candidate is fitted ("fit"). Reported
per (gen, fit): RMSE of the style-controlled ratings against the true strengths (Elo),
Spearman of the ratings against the truth, RMSE of the fitted style term against the true
one on all battles and on the battles where exactly one side has no markup (the case
reldiff saturates), and, where fit == gen, the largest coefficient error (Elo per unit z).

Part B, real and sample votes: held-out log-likelihood per vote (nats; higher is better)
under K-fold cross-validation over votes (votes of one battle can fall in different
folds) and over battles (a battle's votes stay together), repeated with several fold
seeds; reported as the difference to reldiff with its standard error over the folds.
Per-covariate rows change one covariate's transform and keep reldiff for the others.
Dumps: the LLMFAO crowd set (bench/llmfao_dump.py) and the shipped sample dump, whose
simulated voters use reldiff (a check that the test can find the generating transform).

    .venv/bin/python bench/llmfao_dump.py --out bench/data/llmfao
    .venv/bin/python bench/style_transform_study.py --llmfao bench/data/llmfao

Everything is seeded; the same command prints the same table.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atlas_assets.ratings import COVARIATES, ELO_PER_LOGIT  # noqa: E402
from atlas_assets.ratings.features import response_features  # noqa: E402
from atlas_assets.ratings.fit import STD_FLOOR, style_design, style_logits  # noqa: E402

TRANSFORMS = ("reldiff", "log1p", "pooled")
MD = COVARIATES.index("markdown_density")


def transform_design(name: str, fa: np.ndarray, fb: np.ndarray) -> np.ndarray:
    """(k, n) standardised differences of (n, k) features under one transform."""
    a, b = fa.T, fb.T
    if name == "reldiff":
        total = a + b
        d = np.divide(a - b, total, out=np.zeros_like(total), where=total != 0)
        scale = d.std(axis=1)
    elif name == "log1p":
        d = np.log1p(a) - np.log1p(b)
        scale = d.std(axis=1)
    elif name == "pooled":
        d = a - b
        scale = np.concatenate([a, b], axis=1).std(axis=1)
    else:
        raise ValueError(name)
    z = np.zeros_like(d)
    ok = scale > STD_FLOOR
    z[ok] = d[ok] / scale[ok, None]
    return z


def mixed_design(names: tuple[str, ...], fa: np.ndarray, fb: np.ndarray) -> np.ndarray:
    """Covariate k under transform names[k]."""
    z = np.zeros((fa.shape[1], fa.shape[0]))
    for k, name in enumerate(names):
        z[k] = transform_design(name, fa[:, k : k + 1], fb[:, k : k + 1])[0]
    return z


def fit_z(a, b, wa, wb, z, m):
    """Style-controlled fit on the varying rows of z: (r logits, full beta)."""
    keep = np.flatnonzero(np.any(z != 0, axis=1))
    r, beta = style_logits(a, b, wa, wb, z[keep], m)
    full = np.zeros(z.shape[0])
    full[keep] = beta
    return r, full


# ------------------------------------------------------------------------------ part A


def simulate_features(rng: np.random.Generator, m: int, n: int):
    """Battles between m models with realistic style habits: (a, b, fa, fb).

    Lengths log-normal around a per-model verbosity; a per-model share of responses is
    markdown-structured (lists, headers, markup), the others carry only stray markup
    characters (an underscore in a name, an asterisk), so "one side has (almost) no markup"
    is common, as in the LLMFAO set (41 % of its battles)."""
    verbosity = rng.normal(0.0, 0.5, m)
    md_rate = rng.beta(0.8, 1.2, m)
    a = rng.integers(0, m, n)
    b = rng.integers(0, m - 1, n)
    b += b >= a
    sides = []
    for who in (a, b):
        length = np.floor(np.exp(rng.normal(np.log(500.0) + verbosity[who], 0.7))) + 1.0
        md = rng.random(n) < md_rate[who]
        lists = md * rng.poisson(length / 150.0)
        headers = md * (rng.random(n) < 0.4) * rng.poisson(1.0 + length / 600.0)
        rate = np.where(md, np.exp(rng.normal(np.log(0.01), 0.7, n)), 0.0005)
        markup = rng.poisson(length * rate) + lists + headers
        sides.append(np.stack([length, markup / length, lists, headers], axis=1).astype(np.float64))
    return a, b, sides[0], sides[1]


TRUE_EFFECTS = np.array([60.0, 40.0, 20.0, 0.0])  # Elo per unit z of the generating transform, COVARIATES order


def part_a(seeds: int, m: int, n: int) -> tuple[list[dict], float]:
    """Per (gen, fit) lists of the metrics over the seeds, and the one-sided share."""
    rows, shares = [], []
    for gen in TRANSFORMS:
        for fit in TRANSFORMS:
            rows.append({"gen": gen, "fit": fit, "rmse": [], "rho": [], "style": [], "style_1s": [], "coef": []})
    for seed in range(seeds):
        rng = np.random.default_rng([seed, 0x57])
        a, b, fa, fb = simulate_features(rng, m, n)
        one_sided = (fa[:, MD] == 0) ^ (fb[:, MD] == 0)
        shares.append(float(one_sided.mean()))
        true = rng.normal(0.0, 100.0, m)
        true -= true.mean()
        u = rng.random(n)
        for gen in TRANSFORMS:
            style_true = TRUE_EFFECTS @ transform_design(gen, fa, fb)
            p = 1.0 / (1.0 + np.exp(-(true[a] - true[b] + style_true) / ELO_PER_LOGIT))
            win = (u < p).astype(np.float64)
            for fit in TRANSFORMS:
                z = transform_design(fit, fa, fb)
                r, beta = fit_z(a, b, win, 1.0 - win, z, m)
                rating = ELO_PER_LOGIT * (r - r.mean())
                style_fit = ELO_PER_LOGIT * beta @ z
                row = next(x for x in rows if x["gen"] == gen and x["fit"] == fit)
                row["rmse"].append(float(np.sqrt(np.mean((rating - true) ** 2))))
                row["rho"].append(float(spearmanr(rating, true).statistic))
                row["style"].append(float(np.sqrt(np.mean((style_fit - style_true) ** 2))))
                row["style_1s"].append(float(np.sqrt(np.mean((style_fit - style_true)[one_sided] ** 2))))
                if fit == gen:
                    row["coef"].append(float(np.max(np.abs(ELO_PER_LOGIT * beta - TRUE_EFFECTS))))
    return rows, float(np.mean(shares))


def print_part_a(rows: list[dict], share: float, seeds: int, m: int, n: int) -> None:
    print(
        f"\nA. synthetic: {seeds} seeds x {n:,} battles, {m} models, true strengths sd 100 Elo, "
        f"true effects {dict(zip(COVARIATES, TRUE_EFFECTS.tolist()))} Elo per unit z; "
        f"{share:.0%} of battles one-sided in markup"
    )
    print(
        "| generated by | fitted with | rating RMSE (Elo) | Spearman | style-term RMSE (Elo) | "
        "same, one-sided markup | max coefficient error (Elo) |"
    )
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        coef = f"{np.mean(row['coef']):.1f}" if row["coef"] else ""
        print(
            f"| {row['gen']} | {row['fit']} | {np.mean(row['rmse']):.1f} | {np.mean(row['rho']):.4f} | "
            f"{np.mean(row['style']):.1f} | {np.mean(row['style_1s']):.1f} | {coef} |"
        )


# ------------------------------------------------------------------------------ part B


def load_dump(folder: Path):
    """Text battles of a dump per category, with per-vote outcomes (category -> dict)."""
    lines = (folder / "battles.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    index, cats = {}, {}
    for line in lines:
        rec = json.loads(line)
        if rec.get("modality", "text") != "text":
            continue
        c = cats.setdefault(rec["category_slug"], {"models": {}, "a": [], "b": [], "fa": [], "fb": []})
        for slot in ("model_a", "model_b"):
            c["models"].setdefault(rec[slot], len(c["models"]))
        c["a"].append(c["models"][rec["model_a"]])
        c["b"].append(c["models"][rec["model_b"]])
        c["fa"].append(response_features(rec["response_a"], rec["normalization_mode"]))
        c["fb"].append(response_features(rec["response_b"], rec["normalization_mode"]))
        index[rec["battle_id"]] = (rec["category_slug"], len(c["a"]) - 1)
    score = {"win_a": 1.0, "win_b": 0.0, "tie": 0.5}
    for c in cats.values():
        c["vote_battle"], c["vote_score"], c["vote_weight"] = [], [], []
    for line in (folder / "votes.jsonl").read_text(encoding="utf-8").splitlines()[1:]:
        vote = json.loads(line)
        if vote["battle_id"] not in index:
            continue
        slug, i = index[vote["battle_id"]]
        cats[slug]["vote_battle"].append(i)
        cats[slug]["vote_score"].append(score[vote["choice"]])
        cats[slug]["vote_weight"].append(float(vote["weight"]))
    for c in cats.values():
        for key in ("a", "b", "vote_battle"):
            c[key] = np.array(c[key], dtype=np.int64)
        for key in ("fa", "fb", "vote_score", "vote_weight"):
            c[key] = np.array(c[key], dtype=np.float64)
    return {slug: c for slug, c in sorted(cats.items()) if c["vote_battle"].size}


def held_out_ll(c: dict, names: tuple[str, ...] | None, test: np.ndarray) -> tuple[float, float]:
    """(sum of held-out vote log-likelihoods, held-out vote weight) of one split."""
    n, m = c["a"].size, len(c["models"])
    vb, s, w = c["vote_battle"], c["vote_score"], c["vote_weight"]
    train = ~test
    wa = np.bincount(vb[train], w[train] * s[train], n)
    wb = np.bincount(vb[train], w[train] * (1.0 - s[train]), n)
    used = (wa + wb) > 0
    rows = np.flatnonzero(used)
    a, b = c["a"], c["b"]
    if names is None:
        r, beta = style_logits(a[rows], b[rows], wa[rows], wb[rows], np.zeros((0, rows.size)), m)
        d = r[a] - r[b]
    else:
        # scales from the features of all battles: they carry no outcome, so nothing leaks
        z = mixed_design(names, c["fa"], c["fb"])
        r, beta = fit_z(a[rows], b[rows], wa[rows], wb[rows], z[:, rows], m)
        d = r[a] - r[b] + beta @ z
    dv = d[vb[test]]
    ll = s[test] * -np.logaddexp(0.0, -dv) + (1.0 - s[test]) * -np.logaddexp(0.0, dv)
    return float(np.sum(w[test] * ll)), float(np.sum(w[test]))


def candidates() -> list[tuple[str, tuple[str, ...] | None]]:
    out: list[tuple[str, tuple[str, ...] | None]] = [("no style control", None)]
    out += [(f"{t} (all four)", (t,) * 4) for t in TRANSFORMS]
    for k, cov in enumerate(COVARIATES):
        for t in TRANSFORMS[1:]:
            names = ["reldiff"] * 4
            names[k] = t
            out.append((f"{cov} only -> {t}", tuple(names)))
    out.append(("log1p counts+length, pooled density", ("log1p", "pooled", "log1p", "log1p")))
    return out


def part_b(name: str, cats: dict, folds: int, repeats: int) -> None:
    votes = sum(c["vote_battle"].size for c in cats.values())
    print(
        f"\nB. {name}: {votes:,} votes, {len(cats)} text categor{'y' if len(cats) == 1 else 'ies'}; "
        f"{folds}-fold CV x {repeats} fold seeds; held-out log-likelihood per vote, difference to reldiff "
        "(x 1000; + = better than reldiff; +- one standard error over the folds)"
    )
    cands = candidates()
    results = {}
    for unit in ("votes", "battles"):
        per_fold = np.zeros((len(cands), folds * repeats))
        for rep in range(repeats):
            rng = np.random.default_rng([rep, 0xCF])
            assign = {}
            for slug, c in cats.items():
                if unit == "votes":
                    assign[slug] = rng.integers(0, folds, c["vote_battle"].size)
                else:
                    assign[slug] = rng.integers(0, folds, c["a"].size)[c["vote_battle"]]
            for f in range(folds):
                for j, (_, names) in enumerate(cands):
                    total = weight = 0.0
                    for slug, c in cats.items():
                        ll, wt = held_out_ll(c, names, assign[slug] == f)
                        total, weight = total + ll, weight + wt
                    per_fold[j, rep * folds + f] = total / weight
        results[unit] = per_fold
    base = next(j for j, (label, _) in enumerate(cands) if label.startswith("reldiff"))
    print("| candidate | CV over votes: LL/vote | diff x1000 | CV over battles: LL/vote | diff x1000 |")
    print("|---|---|---|---|---|")
    for j, (label, _) in enumerate(cands):
        cells = []
        for unit in ("votes", "battles"):
            pf = results[unit]
            diff = (pf[j] - pf[base]) * 1000.0
            se = diff.std(ddof=1) / np.sqrt(diff.size) if j != base else 0.0
            cells += [f"{pf[j].mean():.5f}", "0 (reference)" if j == base else f"{diff.mean():+.2f} +- {se:.2f}"]
        print(f"| {label} | " + " | ".join(cells) + " |")


def check_engine(cats: dict) -> None:
    """The engine's style_design is one of the candidates: name it."""
    c = next(iter(cats.values()))
    engine, _ = style_design(c["fa"], c["fb"])
    for t in TRANSFORMS:
        if np.allclose(engine, transform_design(t, c["fa"], c["fb"]), rtol=1e-12, atol=1e-12):
            print(f"\nthe engine (fit.style_design) uses: {t}")
            return
    print("\nthe engine (fit.style_design) uses: none of the candidates exactly (mixed)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llmfao", type=Path, default=Path("bench/data/llmfao"), help="dump from bench/llmfao_dump.py")
    parser.add_argument("--sample", type=Path, default=Path("datasets/arena-sample"), help="the shipped sample dump")
    parser.add_argument("--seeds", type=int, default=5, help="synthetic replicates")
    parser.add_argument("--battles", type=int, default=20_000, help="battles per synthetic replicate")
    parser.add_argument("--models", type=int, default=40)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=4, help="fold seeds per CV")
    args = parser.parse_args(argv)
    rows, share = part_a(args.seeds, args.models, args.battles)
    print_part_a(rows, share, args.seeds, args.models, args.battles)
    llmfao = load_dump(args.llmfao)
    part_b("LLMFAO crowd votes", llmfao, args.folds, args.repeats)
    part_b("sample dump (simulated voters use reldiff)", load_dump(args.sample), args.folds, args.repeats)
    check_engine(llmfao)
    return 0


if __name__ == "__main__":
    sys.exit(main())
