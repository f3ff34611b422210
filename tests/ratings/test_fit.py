"""The rating mathematics (atlas_assets/ratings/fit.py, METHODOLOGY.md §2-§8)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.stats import spearmanr

from atlas_assets.ratings import ELO_PER_LOGIT
from atlas_assets.ratings.fit import (
    BETA_RIDGE,
    PRIOR_LAMBDA,
    FitConvergenceError,
    bt_logits,
    combine_parts,
    fit_part,
    point_fit,
    style_design,
    style_logits,
)


def simulate(m=20, n=20_000, seed=0, sd=0.6, tie_rate=0.0, weights=False):
    """Vectorised Bradley-Terry battles with known logits (mean zero)."""
    rng = np.random.default_rng(seed)
    true = rng.normal(0.0, sd, m)
    true -= true.mean()
    a = rng.integers(0, m, n)
    b = rng.integers(0, m - 1, n)
    b += b >= a
    p_a = 1.0 / (1.0 + np.exp(-(true[a] - true[b])))
    tie = rng.random(n) < tie_rate
    win_a = rng.random(n) < p_a
    w = rng.choice([0.5, 1.0, 1.0, 2.0], n) if weights else np.ones(n)
    wa = np.where(tie, 0.5, win_a.astype(float)) * w
    wb = np.where(tie, 0.5, (~win_a).astype(float)) * w
    return a, b, wa, wb, true


def zeros(n):
    return np.zeros((n, 4))


def fit(a, b, wa, wb, m, *, seed=1, rounds=20, style=False, fa=None, fb=None, **kw):
    fa = zeros(len(a)) if fa is None else fa
    fb = zeros(len(a)) if fb is None else fb
    return fit_rounds(a, b, wa, wb, fa, fb, m, rounds, np.random.default_rng(seed), style, **kw)


def fit_rounds(a, b, wa, wb, fa, fb, m, rounds, rng, style, progress=None, **kw):
    """One category's FitResult over `rounds` bootstrap rounds, fitted as one part."""
    point = point_fit(a, b, wa, wb, fa, fb, m, style_control=style, **kw)
    return combine_parts([fit_part(point, rounds=range(rounds), rng=rng, progress=progress)])


def penalised_nll(theta, a, b, wa, wb, m, z=None):
    """Independent per-battle reference of the objective fit.py minimises, with its gradient."""
    r, beta = theta[:m], theta[m:]
    d = r[a] - r[b] + (beta @ z if z is not None else 0.0)
    f = np.sum(wa * np.logaddexp(0, -d) + wb * np.logaddexp(0, d))
    f += 0.5 * PRIOR_LAMBDA * r @ r + 0.5 * BETA_RIDGE * beta @ beta
    gd = (wa + wb) / (1 + np.exp(-d)) - wa
    g = np.zeros_like(theta)
    np.add.at(g, a, gd)
    np.subtract.at(g, b, gd)
    g[:m] += PRIOR_LAMBDA * r
    if z is not None:
        g[m:] = z @ gd + BETA_RIDGE * beta
    return f, g


# ---------------------------------------------------------------- accuracy


def test_recovers_known_strengths_with_calibrated_cis():
    # ties independent of strength would attenuate the estimand, so none here (weights vary)
    a, b, wa, wb, true = simulate(m=20, n=20_000, seed=3, weights=True)
    res = fit(a, b, wa, wb, 20, rounds=100, seed=7)
    truth = 1000 + ELO_PER_LOGIT * true
    assert spearmanr(res.rating, truth).statistic >= 0.95
    covered = np.mean((res.ci_low <= truth) & (truth <= res.ci_high))
    assert 0.75 <= covered <= 1.0
    width = res.ci_high - res.ci_low
    assert np.all(width > 5) and np.all(width < 80)
    assert np.max(np.abs(res.rating - truth)) < 40


def test_plain_fit_matches_scipy_reference():
    a, b, wa, wb, _ = simulate(m=8, n=600, seed=11, tie_rate=0.2, weights=True)
    ref = minimize(penalised_nll, np.zeros(8), args=(a, b, wa, wb, 8), jac=True, method="BFGS", options={"gtol": 1e-11, "maxiter": 10_000})
    ours = bt_logits(a, b, wa, wb, 8)
    np.testing.assert_allclose(ours, ref.x, atol=1e-6)
    assert abs(ours.mean()) < 1e-9  # the prior's optimum is centred
    res = fit(a, b, wa, wb, 8, rounds=2)
    np.testing.assert_allclose(res.rating, 1000 + ELO_PER_LOGIT * (ref.x - ref.x.mean()), atol=1e-4)


def test_style_fit_matches_scipy_reference():
    a, b, wa, wb, _ = simulate(m=6, n=800, seed=12, tie_rate=0.1)
    rng = np.random.default_rng(5)
    fa, fb = rng.lognormal(5, 1, (800, 4)), rng.lognormal(5, 1, (800, 4))
    z, _ = style_design(fa, fb)
    ref = minimize(
        penalised_nll, np.zeros(10), args=(a, b, wa, wb, 6, z), jac=True, method="BFGS", options={"gtol": 1e-11, "maxiter": 10_000}
    )
    r, beta = style_logits(a, b, wa, wb, z, 6)
    np.testing.assert_allclose(np.concatenate([r, beta]), ref.x, atol=1e-6)
    res = fit(a, b, wa, wb, 6, rounds=2, style=True, fa=fa, fb=fb)
    np.testing.assert_allclose(res.style_coefficients, ELO_PER_LOGIT * ref.x[6:], atol=1e-4)


def test_style_control_recovers_planted_length_effect():
    m, n, gamma = 10, 20_000, 0.4
    rng = np.random.default_rng(21)
    true = rng.normal(0, 0.5, m)
    true -= true.mean()
    a = rng.integers(0, m, n)
    b = rng.integers(0, m - 1, n)
    b += b >= a
    verbose = 0  # model 0 writes three times as much, but is no better
    length_a = rng.lognormal(6, 0.5, n) * np.where(a == verbose, 3.0, 1.0)
    length_b = rng.lognormal(6, 0.5, n) * np.where(b == verbose, 3.0, 1.0)
    fa, fb = zeros(n), zeros(n)
    fa[:, 0], fb[:, 0] = length_a, length_b
    z, _ = style_design(fa, fb)
    win_a = rng.random(n) < 1 / (1 + np.exp(-(true[a] - true[b] + gamma * z[0])))
    res = fit(a, b, win_a.astype(float), (~win_a).astype(float), m, rounds=30, style=True, fa=fa, fb=fb)
    coef = res.style_coefficients
    assert coef[0] == pytest.approx(gamma * ELO_PER_LOGIT, rel=0.2)
    np.testing.assert_array_equal(coef[1:], 0.0)  # constant covariates are dropped
    truth = 1000 + ELO_PER_LOGIT * true
    assert res.rating[verbose] - truth[verbose] > 60  # raw rating rewards verbosity
    assert abs(res.rating_sc[verbose] - truth[verbose]) < 25
    assert res.ci_low_sc[verbose] <= truth[verbose] <= res.ci_high_sc[verbose]
    assert spearmanr(res.rating_sc, truth).statistic >= 0.95


# ---------------------------------------------------------------- invariances


def test_swapping_slots_gives_the_same_ratings():
    a, b, wa, wb, _ = simulate(m=12, n=3000, seed=4, tie_rate=0.1)
    rng = np.random.default_rng(9)
    fa, fb = rng.lognormal(4, 1, (3000, 4)), rng.lognormal(4, 1, (3000, 4))
    one = fit(a, b, wa, wb, 12, style=True, fa=fa, fb=fb)
    two = fit(b, a, wb, wa, 12, style=True, fa=fb, fb=fa)
    for name in ("rating", "ci_low", "ci_high", "rating_sc", "ci_low_sc", "ci_high_sc", "style_coefficients"):
        np.testing.assert_allclose(getattr(one, name), getattr(two, name), rtol=0, atol=1e-9, err_msg=name)


def test_a_tie_counts_half_a_win_each():
    a, b, wa, wb, _ = simulate(m=5, n=300, seed=5)
    tie_a, tie_b = np.array([0, 2, 3]), np.array([1, 4, 2])
    with_ties = bt_logits(np.r_[a, tie_a], np.r_[b, tie_b], np.r_[wa, 0.5, 0.5, 0.5], np.r_[wb, 0.5, 0.5, 0.5], 5)
    halves = bt_logits(
        np.r_[a, tie_a, tie_b],
        np.r_[b, tie_b, tie_a],
        np.r_[wa, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
        np.r_[wb, 0, 0, 0, 0, 0, 0],
        5,
    )
    np.testing.assert_allclose(with_ties, halves, atol=1e-12)


def test_weights_multiply():
    a, b, wa, wb, _ = simulate(m=5, n=300, seed=6)
    doubled = bt_logits(a, b, np.r_[wa[:-1], 2 * wa[-1]], np.r_[wb[:-1], 2 * wb[-1]], 5)
    twice = bt_logits(np.r_[a, a[-1]], np.r_[b, b[-1]], np.r_[wa, wa[-1]], np.r_[wb, wb[-1]], 5)
    np.testing.assert_allclose(doubled, twice, atol=1e-12)
    z = np.random.default_rng(1).normal(size=(4, 300))
    r1, b1 = style_logits(a, b, np.r_[wa[:-1], 2 * wa[-1]], np.r_[wb[:-1], 2 * wb[-1]], z, 5)
    r2, b2 = style_logits(np.r_[a, a[-1]], np.r_[b, b[-1]], np.r_[wa, wa[-1]], np.r_[wb, wb[-1]], np.c_[z, z[:, -1]], 5)
    np.testing.assert_allclose(np.r_[r1, b1], np.r_[r2, b2], atol=1e-12)


def test_mean_is_1000():
    a, b, wa, wb, _ = simulate(m=30, n=2000, seed=8, sd=2.0)
    rng = np.random.default_rng(3)
    res = fit(a, b, wa, wb, 30, style=True, fa=rng.random((2000, 4)), fb=rng.random((2000, 4)))
    assert res.rating.mean() == pytest.approx(1000.0, abs=1e-9)
    assert res.rating_sc.mean() == pytest.approx(1000.0, abs=1e-9)


# ---------------------------------------------------------------- edge cases


def test_undefeated_model_stays_finite():
    a, b, wa, wb, _ = simulate(m=6, n=500, seed=9)
    involved = (a == 0) | (b == 0)
    wa = np.where(involved, (a == 0).astype(float), wa)
    wb = np.where(involved, (b == 0).astype(float), wb)
    res = fit(a, b, wa, wb, 6, rounds=30)
    for arr in (res.rating, res.ci_low, res.ci_high):
        assert np.all(np.isfinite(arr))
    assert res.rating[0] == res.rating.max()
    assert res.rating[0] < 1000 + 20 * ELO_PER_LOGIT  # the N(0, 100) prior on logits binds


@pytest.mark.parametrize("style", [False, True])
def test_degenerate_inputs(style):
    one = fit(np.array([0]), np.array([1]), np.array([1.0]), np.array([0.0]), 2, style=style)
    assert one.rating[0] > one.rating[1] and np.all(np.isfinite(one.ci_low))
    pair = fit(np.array([0, 1, 0]), np.array([1, 0, 1]), np.array([1.0, 1.0, 0.5]), np.array([0.0, 0.0, 0.5]), 2, style=style)
    assert pair.rating.mean() == pytest.approx(1000.0)
    # model 2 has only ties; models 3 and 4 are not connected to the rest
    ties = fit(np.array([0, 2, 3]), np.array([1, 0, 4]), np.array([1.0, 0.5, 1.0]), np.array([0.0, 0.5, 0.0]), 5, style=style)
    assert np.all(np.isfinite(ties.rating)) and np.all(np.isfinite(ties.ci_high))
    assert ties.rating[0] > ties.rating[1] and ties.rating[3] > ties.rating[4]
    if style:  # features without variance: SC mirrors the raw fit, coefficients are 0
        np.testing.assert_array_equal(ties.rating_sc, ties.rating)
        np.testing.assert_array_equal(ties.style_coefficients, 0.0)


def test_style_off_leaves_sc_fields_none_and_recordings_mirror():
    a, b, wa, wb, _ = simulate(m=5, n=400, seed=10)
    off = fit(a, b, wa, wb, 5)
    assert off.rating_sc is None and off.ci_low_sc is None and off.style_coefficients is None
    recordings = fit(a, b, wa, wb, 5, style=True)  # all-zero covariates
    np.testing.assert_array_equal(recordings.rating_sc, off.rating)
    np.testing.assert_array_equal(recordings.ci_high_sc, off.ci_high)
    np.testing.assert_array_equal(recordings.style_coefficients, np.zeros(4))


def test_separating_covariate_stays_finite():
    a, b, _, _, _ = simulate(m=6, n=400, seed=13)
    rng = np.random.default_rng(2)
    fa, fb = zeros(400), zeros(400)
    fa[:, 0], fb[:, 0] = rng.integers(1, 100, 400), rng.integers(1, 100, 400)
    longer_wins = (fa[:, 0] > fb[:, 0]).astype(float)
    wa, wb = longer_wins, 1 - longer_wins
    res = fit(a, b, wa, wb, 6, rounds=10, style=True, fa=fa, fb=fb)
    assert np.all(np.isfinite(res.rating_sc)) and np.isfinite(res.style_coefficients[0])
    assert res.style_coefficients[0] > 100


def test_style_design_definition():
    fa = np.array([[10.0, 0.0, 3.0, 5.0], [0.0, 0.0, 1.0, 5.0], [30.0, 0.0, 0.0, 5.0]])
    fb = np.array([[30.0, 0.0, 1.0, 5.0], [0.0, 0.0, 1.0, 5.0], [10.0, 0.0, 2.0, 5.0]])
    z, std = style_design(fa, fb)
    d_len = np.log1p([10.0, 0.0, 30.0]) - np.log1p([30.0, 0.0, 10.0])
    assert std[0] == pytest.approx(d_len.std())
    np.testing.assert_allclose(z[0], d_len / d_len.std())
    np.testing.assert_array_equal(z[1], 0.0)  # no variance
    np.testing.assert_array_equal(z[3], 0.0)  # equal everywhere
    d_list = np.log1p([3.0, 1.0, 0.0]) - np.log1p([1.0, 1.0, 2.0])
    np.testing.assert_allclose(z[2], d_list / d_list.std())  # not mean-centred


def test_style_difference_does_not_saturate_when_one_side_has_no_markup():
    """Methodology 1.2: a response with 40 list items against one with none is further
    apart than one with a single item against none (the relative difference of 1.1 gave
    both the same +1)."""
    fa = np.array([[100.0, 0.2, 40.0, 0.0], [100.0, 0.01, 1.0, 0.0], [100.0, 0.0, 0.0, 0.0]])
    fb = np.array([[100.0, 0.0, 0.0, 0.0], [100.0, 0.0, 0.0, 0.0], [100.0, 0.0, 0.0, 0.0]])
    z, _ = style_design(fa, fb)
    assert z[2, 0] > 3 * z[2, 1] > 0 and z[1, 0] > 3 * z[1, 1] > 0
    assert z[2, 2] == 0.0


# ---------------------------------------------------------------- bootstrap and determinism


def test_determinism_and_rng_contract():
    a, b, wa, wb, _ = simulate(m=10, n=3000, seed=14, tie_rate=0.1)
    rng = np.random.default_rng(0)
    fa, fb = rng.lognormal(4, 1, (3000, 4)), rng.lognormal(4, 1, (3000, 4))
    one = fit(a, b, wa, wb, 10, seed=123, style=True, fa=fa, fb=fb)
    two = fit(a, b, wa, wb, 10, seed=123, style=True, fa=fa, fb=fb)
    other = fit(a, b, wa, wb, 10, seed=124, style=True, fa=fa, fb=fb)
    for name in ("rating", "ci_low", "ci_high", "rating_sc", "ci_low_sc", "ci_high_sc", "style_coefficients"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
    np.testing.assert_array_equal(one.rating, other.rating)  # the point fit uses no randomness
    assert not np.array_equal(one.ci_low, other.ci_low)
    assert not np.array_equal(one.ci_high_sc, other.ci_high_sc)
    # exactly one rng.integers(0, n, size=n) draw per round
    used = np.random.default_rng(5)
    fit_rounds(a, b, wa, wb, fa, fb, 10, 7, used, True)
    reference = np.random.default_rng(5)
    for _ in range(7):
        reference.integers(0, 3000, size=3000)
    assert used.bit_generator.state == reference.bit_generator.state


def test_bootstrap_brackets_point_rating_and_reports_progress():
    a, b, wa, wb, _ = simulate(m=15, n=15_000, seed=15)
    rng = np.random.default_rng(1)
    fa, fb = rng.lognormal(4, 1, (15_000, 4)), rng.lognormal(4, 1, (15_000, 4))
    calls = []
    res = fit(a, b, wa, wb, 15, rounds=50, style=True, fa=fa, fb=fb, progress=lambda d, t: calls.append((d, t)))
    assert np.all(res.ci_low < res.rating) and np.all(res.rating < res.ci_high)
    assert np.all(res.ci_low_sc < res.rating_sc) and np.all(res.rating_sc < res.ci_high_sc)
    assert calls == [(k, 50) for k in range(1, 51)]


def test_a_battle_resamples_as_a_unit():
    # two votes on one battle (wins 2.0 in one row) move together: with a single battle the
    # bootstrap can only redraw that battle, so every replicate equals the point fit
    res = fit(np.array([0]), np.array([1]), np.array([2.0]), np.array([0.0]), 2, rounds=10)
    np.testing.assert_allclose(res.ci_low, res.rating, atol=1e-9)
    np.testing.assert_allclose(res.ci_high, res.rating, atol=1e-9)


@pytest.mark.parametrize("style", [False, True])
def test_non_convergence_raises(style):
    a, b, wa, wb, _ = simulate(m=8, n=2000, seed=16, sd=1.5)
    rng = np.random.default_rng(4)
    fa, fb = rng.random((2000, 4)), rng.random((2000, 4))
    with pytest.raises(FitConvergenceError, match="did not converge"):
        fit(a, b, wa, wb, 8, style=style, fa=fa, fb=fb, max_iter=1)
    if style:  # the joint Newton on its own (started at the plain solution) also checks
        z, _ = style_design(fa, fb)
        wa = wa * np.exp(z[0])  # make style matter so one step cannot be enough
        with pytest.raises(FitConvergenceError, match="style-controlled"):
            style_logits(a, b, wa, wb, z, 8, max_iter=1)
        assert np.all(np.isfinite(style_logits(a, b, wa, wb, z, 8)[1]))


def test_fast_replicate_paths_agree_with_exact_newton(monkeypatch):
    """Chord steps (SC) and batched warm starts (raw) reach the same optimum as plain Newton."""
    import atlas_assets.ratings.fit as fit_module

    a, b, wa, wb, _ = simulate(m=12, n=6000, seed=17, tie_rate=0.1, weights=True)
    rng = np.random.default_rng(8)
    fa, fb = rng.lognormal(5, 1, (6000, 4)), rng.lognormal(5, 1, (6000, 4))
    fast = fit(a, b, wa, wb, 12, rounds=15, style=True, fa=fa, fb=fb)
    monkeypatch.setattr(fit_module, "_CHORD_MAX", 0)  # every SC replicate: exact damped Newton
    monkeypatch.setattr(fit_module, "_BATCH_ELEMENTS", 1)  # raw replicates one at a time
    exact = fit(a, b, wa, wb, 12, rounds=15, style=True, fa=fa, fb=fb)
    for name in ("rating", "ci_low", "ci_high", "rating_sc", "ci_low_sc", "ci_high_sc", "style_coefficients"):
        np.testing.assert_allclose(getattr(fast, name), getattr(exact, name), rtol=0, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("style", [False, True])
def test_replicates_without_a_models_battles_do_not_pull_its_ci_to_the_centre(style):
    # Twelve well-measured models plus "rare", whose single battle is a clear win over the
    # strongest one. The bootstrap leaves that battle out of ~37% of replicates; there the
    # model's value is the prior's 1000, not an estimate, and must not enter its CI.
    a, b, wa, wb, true = simulate(m=12, n=6_000, seed=5)
    top = int(np.argmax(true))
    rare = 12
    a = np.append(a, rare)
    b = np.append(b, top)
    wa, wb = np.append(wa, 3.0), np.append(wb, 0.0)
    features = np.random.default_rng(1).random((a.size, 4)) * 100
    fit = fit_rounds(a, b, wa, wb, features, features[::-1], 13, 60, np.random.default_rng(2), style)
    for low, rating in ((fit.ci_low, fit.rating), (fit.ci_low_sc, fit.rating_sc)):
        if low is None:
            continue
        assert rating[rare] > rating[top] > 1000.0
        assert low[rare] > 1050.0, "replicates without the model's battle leaked into its CI"


@pytest.mark.parametrize("style", [False, True])
def test_rounds_cut_into_parts_give_the_replicates_of_one_run(style):
    """fit_part skips the draws of the rounds before its own, so parts computed anywhere
    (sharing one point fit, as fitting.py's threads do) and combined in round order are
    bit-identical to one run over every round."""
    a, b, wa, wb, _ = simulate(m=10, n=4000, seed=21, tie_rate=0.1, weights=True)
    rng = np.random.default_rng(4)
    fa, fb = rng.lognormal(5, 1, (4000, 4)), rng.lognormal(5, 1, (4000, 4))
    whole = fit_rounds(a, b, wa, wb, fa, fb, 10, 23, np.random.default_rng(9), style)
    cuts = (range(0, 5), range(5, 6), range(6, 23))
    shared = point_fit(a, b, wa, wb, fa, fb, 10, style_control=style)
    parts = [fit_part(shared, rounds=r, rng=np.random.default_rng(9)) for r in reversed(cuts)]
    combined = combine_parts(parts[::-1])
    for name in ("rating", "ci_low", "ci_high", "rating_sc", "ci_low_sc", "ci_high_sc", "style_coefficients"):
        expected, got = getattr(whole, name), getattr(combined, name)
        assert (expected is None) == (got is None), name
        if expected is not None:
            assert np.array_equal(expected, got), name
    # A part that starts later really draws different battles: its replicates differ.
    first, last = parts[2], parts[0]
    assert not np.allclose(first.replicates[0], last.replicates[0], equal_nan=True)


def test_fit_part_rejects_a_stepped_or_negative_range():
    a, b, wa, wb, _ = simulate(m=4, n=200, seed=2)
    features = zeros(200)
    point = point_fit(a, b, wa, wb, features, features, 4, style_control=False)
    for rounds in (range(0, 10, 2), range(-1, 3)):
        with pytest.raises(ValueError, match="range of step 1"):
            fit_part(point, rounds=rounds, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="at least one part"):
        combine_parts([])
