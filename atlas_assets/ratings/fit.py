"""Weighted Bradley-Terry fits, style control and the battle bootstrap (METHODOLOGY.md §2-§9).

Plain numpy/scipy on the arrays of one category's voted battles. Parameters are logits
internally and go to the Elo scale only at the end:

    rating = 1000 + ELO_PER_LOGIT * (r - mean(r)),   ELO_PER_LOGIT = 400 / ln 10

The objective minimised (negative penalised log-likelihood) over battles i = 1..n is

    L(r, beta) = sum_i [ wa_i * softplus(-d_i) + wb_i * softplus(d_i) ]
                 + PRIOR_LAMBDA/2 * |r|^2 + BETA_RIDGE/2 * |beta|^2,
    d_i = r[a_i] - r[b_i] + beta . z_i

with wa_i / wb_i the battle's weighted wins (ties split 0.5 / 0.5 by the reader) and z_i the
normalised A-B style differences (absent without style control).

Speed: (a) the plain model only sees per-pair win totals, so a bootstrap replicate is two
np.bincount calls and all replicates are solved together by batched Newton on a stack of
m x m systems; (b) a style-controlled replicate takes its first, exact Newton step from
per-battle quantities precomputed at the full-data solution (no exp/log), then chord steps
reusing that step's Cholesky factor, each verified against the true gradient. Reductions
are np.add.reduceat / np.bincount / np.sum (fixed order, single thread) and np.dot over the
covariate rows, which goes to BLAS, held at one thread by the callers, so results are
bit-identical from run to run.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, NamedTuple, ParamSpec, Sequence, TypeVar

import numpy as np
import numpy.typing as npt
from scipy.linalg import cho_factor, cho_solve
from threadpoolctl import threadpool_limits

from atlas_assets.core.errors import AtlasError
from atlas_assets.ratings import COVARIATES, ELO_PER_LOGIT

__all__ = [
    "BETA_RIDGE",
    "FitConvergenceError",
    "FitPart",
    "FitResult",
    "MAX_ITER",
    "PRIOR_LAMBDA",
    "STD_FLOOR",
    "STEP_TOL",
    "GRAD_FLOOR",
    "bt_logits",
    "combine_parts",
    "fit_part",
    "point_fit",
    "PointFit",
    "style_design",
    "style_logits",
]

PRIOR_LAMBDA = 0.01
"""L2 prior on the rating logits in vote-weight units, i.e. a N(0, 1/0.01) prior: sd 10
logits = 1737 Elo points. Near an even match it weighs as much as 0.04 votes of 'tie with
a model rated at the mean'."""

BETA_RIDGE = 1e-6
"""Negligible ridge on the style coefficients (vote-weight units): it only keeps a covariate
that perfectly separates wins from losses finite. The data curvature of a normalised
covariate is about 0.2 x (category weight), so the relative shrinkage is far below 1e-6."""

STEP_TOL = 1e-8
"""Convergence: a fit stops when the Newton step computed from the gradient at the current
iterate, H^-1 grad, is at most STEP_TOL logits (1.7e-6 Elo) in every coordinate; that step
is then applied. This is the gradient test in the scale-free inverse-Hessian metric."""

GRAD_FLOOR = 1e-14
"""...or when max |grad| <= GRAD_FLOOR x (vote weight of the fit + PRIOR_LAMBDA): the gradient
is down to floating-point rounding of its sums, so no further step can be computed reliably.
This only decides in nearly flat directions (e.g. a covariate that separates wins from
losses, whose curvature is just BETA_RIDGE)."""

MAX_ITER = 50
"""Newton steps allowed per fit; beyond that FitConvergenceError is raised."""

STD_FLOOR = 1e-12
"""A normalised covariate whose standard deviation over the category's battles is at or
below this is treated as constant and dropped (its coefficient is reported as 0)."""

_CHORD_MAX = 40  # chord steps per style-controlled replicate before exact Newton takes over
_CHORD_RATE = 0.5  # each chord step must at least halve the step size, else exact Newton
_REFRESH_RATE = 0.05  # a chord step that shrinks the step less than this refactors the Hessian
_BATCH_ELEMENTS = 1 << 21  # float64 elements per batched-Newton chunk: rounds x max(m*m, pairs)
_ARMIJO = 1e-4
# Armijo tolerance for rounding in the loss: a step may raise the loss by this x (|loss| +
# vote weight). Near the optimum the decrease of a Newton step falls below the rounding of
# a sum over battles, and backtracking on rounding noise would stall the fit.
_LOSS_SLACK = 1e-12
_HALVINGS = 60

Progress = Callable[[int, int], None]
P = ParamSpec("P")
T = TypeVar("T")


class FitConvergenceError(AtlasError, RuntimeError):
    """A Newton solve did not reach STEP_TOL within its iteration budget."""


@dataclass(frozen=True)
class FitResult:
    rating: np.ndarray  # (m,) Elo scale, mean over the category's models = 1000
    ci_low: np.ndarray  # (m,) 2.5th percentile of bootstrap ratings
    ci_high: np.ndarray  # (m,) 97.5th
    rating_sc: np.ndarray | None  # style-controlled; None when style control is off
    ci_low_sc: np.ndarray | None
    ci_high_sc: np.ndarray | None
    style_coefficients: np.ndarray | None  # (4,) COVARIATES order, Elo points per unit of normalised difference


# --------------------------------------------------------------------------------------------
# Public entry point
# --------------------------------------------------------------------------------------------


def _one_blas_thread(function: Callable[P, T]) -> Callable[P, T]:
    """Run the small dense solves single-threaded.

    The Newton systems are at most a few hundred rows; on a busy machine a multi-threaded
    OpenBLAS makes them up to 10x slower, and a single thread keeps LAPACK's rounding
    independent of the CPU count.
    """

    @functools.wraps(function)
    def single_threaded(*args: P.args, **kwargs: P.kwargs) -> T:
        with threadpool_limits(limits=1, user_api="blas"):
            return function(*args, **kwargs)

    return single_threaded


@dataclass(frozen=True)
class FitPart:
    """A category's point fits and the bootstrap replicates of some of its rounds.

    Logits centred over the models present; a replicate's row is NaN for a model none of
    whose battles it drew.
    """

    point: np.ndarray  # (m,) plain model on all battles
    replicates: np.ndarray  # (rounds, m)
    style_control: bool
    point_sc: np.ndarray | None  # (m,) None without style control, or when no covariate varies
    replicates_sc: np.ndarray | None
    coefficients: np.ndarray | None  # (4,) Elo points per unit of normalised difference


@dataclass(frozen=True, eq=False)
class PointFit:
    """A category's battles in pair order and its fits on all of them: where every part of
    its bootstrap rounds starts. Read-only, so the parts of one category share it."""

    n_models: int
    style_control: bool
    order: np.ndarray  # battle indices in pair order (stable: file order within a pair)
    pairs: _PairIndex
    w_lo: np.ndarray  # per battle in pair order: weighted wins of the pair's lower model
    w_hi: np.ndarray
    r_hat: np.ndarray  # (m,) plain model, logits
    keep: np.ndarray  # indices of the covariates that vary (empty without style control)
    battles: _Battles | None  # the oriented battles of the style-controlled model, or None
    theta_hat: np.ndarray | None  # (m + keep.size,) style-controlled model, logits
    max_iter: int


@_one_blas_thread
def point_fit(
    model_a: npt.ArrayLike,
    model_b: npt.ArrayLike,
    wins_a: npt.ArrayLike,
    wins_b: npt.ArrayLike,
    features_a: npt.ArrayLike,
    features_b: npt.ArrayLike,
    n_models: int,
    *,
    style_control: bool,
    max_iter: int = MAX_ITER,
) -> PointFit:
    """The point fits of one category (no randomness), for fit_part.

    Inputs are the category's voted battles: local model indices 0..n_models-1, weighted
    wins per battle (ties already split), raw (n, 4) covariates per slot. Raises
    FitConvergenceError rather than return an unconverged fit.
    """
    m = int(n_models)
    a, b, wa, wb = _battle_arrays(model_a, model_b, wins_a, wins_b, m)
    n = a.shape[0]
    # Battles sorted by pair (stably: within a pair, file order), so that per-pair sums are
    # np.add.reduceat over runs; the bootstrap draws still index battles in input order.
    order, pairs = _PairIndex.build(a, b, m).sorted()
    a, b, wa, wb = a[order], b[order], wa[order], wb[order]
    wlo = np.where(pairs.a_is_lo, wa, wb)
    whi = np.where(pairs.a_is_lo, wb, wa)
    r_hat = _newton_pairs(
        pairs,
        np.bincount(pairs.p, wlo, pairs.n_pairs)[None, :],
        np.bincount(pairs.p, whi, pairs.n_pairs)[None, :],
        np.zeros((1, m)),
        max_iter,
    )[0]
    keep = np.zeros(0, dtype=np.int64)
    if style_control:
        z, _ = style_design(features_a, features_b)
        keep = np.flatnonzero([bool(np.any(row)) for row in z])
    battles, theta_hat = None, None
    if keep.size:  # with no varying covariate (e.g. only recording battles) the joint model is the plain one
        battles = _oriented_battles(pairs, z[keep][:, order], wlo, wa + wb)
        theta0 = np.concatenate([r_hat, np.zeros(keep.size)])
        theta_hat = _newton_battles(battles, pairs, theta0, max_iter, _Workspace(n, keep.size))
    return PointFit(m, style_control, order, pairs, wlo, whi, r_hat, keep, battles, theta_hat, max_iter)


@_one_blas_thread
def fit_part(point: PointFit, *, rounds: range, rng: np.random.Generator, progress: Progress | None = None) -> FitPart:
    """The replicates of bootstrap rounds `rounds` (a step-1 range) of one category.

    Each bootstrap round makes exactly one draw from `rng`, ``rng.integers(0, n, size=n)``
    over the n battles, binned into per-battle multiplicities; the raw and the
    style-controlled replicate of a round use the same multiplicities. `rng` is the
    category's generator as it stands before round 0: the draws of the rounds before
    rounds.start are made and discarded, so each round's replicate is the one a single run
    over every round computes, and the parts of range(R) fitted anywhere, in any order, and
    combined in round order (combine_parts) are one run's result. progress(done,
    len(rounds)) after each round. Raises FitConvergenceError rather than return an
    unconverged fit.
    """
    if rounds.step != 1 or rounds.start < 0:
        raise ValueError("rounds must be a range of step 1 from 0 or later")
    m, pairs, order, wlo, whi, r_hat = point.n_models, point.pairs, point.order, point.w_lo, point.w_hi, point.r_hat
    n, count, max_iter = order.shape[0], len(rounds), point.max_iter
    sc = None
    if point.battles is not None and point.theta_hat is not None:
        sc = _StyleBootstrap(point.battles, pairs, point.theta_hat, max_iter)  # its own buffers: one per part

    for _ in range(rounds.start):
        rng.integers(0, n, size=n)
    # ---- bootstrap: one multiplicity draw per round, shared by the raw and the SC replicate.
    # Raw replicates are solved together, in chunks that bound memory to ~_BATCH_ELEMENTS.
    chunk = max(1, min(count, _BATCH_ELEMENTS // max(m * m, pairs.n_pairs, 1)))
    chunk_lo = np.empty((chunk, pairs.n_pairs))
    chunk_hi = np.empty((chunk, pairs.n_pairs))
    boot_raw = np.empty((count, m))
    boot_sc = np.empty((count, m))
    present = np.empty((count, m), dtype=bool)
    for k in range(count):
        counts = np.bincount(rng.integers(0, n, size=n), minlength=n)[order]
        sel = np.flatnonzero(counts != 0)  # a bool mask: numpy finds its nonzeros ~4x faster than an int64 array's
        c = counts[sel].astype(np.float64)
        runs = _Runs.of(pairs.p[sel], pairs.n_pairs)
        present[k] = False
        present[k, pairs.lo[runs.pair]] = present[k, pairs.hi[runs.pair]] = True
        row = k % chunk
        chunk_lo[row] = runs.sums(c * wlo[sel])
        chunk_hi[row] = runs.sums(c * whi[sel])
        if sc is not None:
            boot_sc[k] = _centred(sc.replicate(sel, c, runs)[:m], present[k])
        if row == chunk - 1 or k == count - 1:
            first = k - row
            warm = np.broadcast_to(r_hat, (row + 1, m))
            boot_raw[first : k + 1] = _centred(
                _newton_pairs(pairs, chunk_lo[: row + 1], chunk_hi[: row + 1], warm, max_iter),
                present[first : k + 1],
            )
        if progress is not None:
            progress(k + 1, count)

    if sc is None:
        return FitPart(_centred(r_hat), boot_raw, point.style_control, None, None, None)
    coefficients = np.zeros(len(COVARIATES))
    coefficients[point.keep] = sc.theta_hat[m:] * ELO_PER_LOGIT
    return FitPart(_centred(r_hat), boot_raw, point.style_control, _centred(sc.theta_hat[:m]), boot_sc, coefficients)


def combine_parts(parts: Sequence[FitPart]) -> FitResult:
    """A category's FitResult from the parts of its rounds, given in round order."""
    if not parts:
        raise ValueError("combine_parts needs at least one part")
    first = parts[0]
    rating, ci_low, ci_high = _summarise(first.point, np.concatenate([part.replicates for part in parts]))
    if not first.style_control:
        return FitResult(rating, ci_low, ci_high, None, None, None, None)
    if first.point_sc is None or first.coefficients is None:
        zeros = np.zeros(len(COVARIATES))
        return FitResult(rating, ci_low, ci_high, rating.copy(), ci_low.copy(), ci_high.copy(), zeros)
    replicates_sc = np.concatenate([part.replicates_sc for part in parts if part.replicates_sc is not None])
    rating_sc, ci_low_sc, ci_high_sc = _summarise(first.point_sc, replicates_sc)
    return FitResult(rating, ci_low, ci_high, rating_sc, ci_low_sc, ci_high_sc, first.coefficients.copy())


# --------------------------------------------------------------------------------------------
# Smaller public helpers (tests, notebooks)
# --------------------------------------------------------------------------------------------


def style_design(features_a: npt.ArrayLike, features_b: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Normalised A-B style differences: (z of shape (4, n), std of shape (4,)).

    Per covariate d = log1p(a) - log1p(b), then z = d / std(d) with the (population)
    standard deviation over the battles given (METHODOLOGY.md 7; log1p rather than the
    relative difference of methodology 1.1, which saturated at +-1 whenever one side was
    0: bench/style_transform_study.py). No mean-centring: z = 0 means "equal". A
    covariate with std <= STD_FLOOR gets an all-zero row.
    """
    fa = np.asarray(features_a, dtype=np.float64)
    fb = np.asarray(features_b, dtype=np.float64)
    if fa.shape != fb.shape or fa.ndim != 2 or fa.shape[1] != len(COVARIATES):
        raise ValueError("features must be (n, 4) arrays of equal shape")
    d = np.log1p(np.ascontiguousarray(fa.T)) - np.log1p(np.ascontiguousarray(fb.T))
    std = d.std(axis=1) if d.shape[1] else np.zeros(len(COVARIATES))
    z = np.zeros_like(d)
    for k in range(len(COVARIATES)):
        if std[k] > STD_FLOOR:
            z[k] = d[k] / std[k]
    return z, std


def bt_logits(
    model_a: npt.ArrayLike, model_b: npt.ArrayLike, wins_a: npt.ArrayLike, wins_b: npt.ArrayLike, n_models: int, *, max_iter: int = MAX_ITER
) -> np.ndarray:
    """Penalised weighted Bradley-Terry logits (mean zero, a property of the prior's optimum)."""
    a, b, wa, wb = _battle_arrays(model_a, model_b, wins_a, wins_b, n_models)
    pairs = _PairIndex.build(a, b, n_models)
    w_lo = np.bincount(pairs.p, np.where(pairs.a_is_lo, wa, wb), pairs.n_pairs)
    w_hi = np.bincount(pairs.p, np.where(pairs.a_is_lo, wb, wa), pairs.n_pairs)
    logits: np.ndarray = _newton_pairs(pairs, w_lo[None], w_hi[None], np.zeros((1, n_models)), max_iter)[0]
    return logits


def style_logits(
    model_a: npt.ArrayLike,
    model_b: npt.ArrayLike,
    wins_a: npt.ArrayLike,
    wins_b: npt.ArrayLike,
    z: npt.ArrayLike,
    n_models: int,
    *,
    max_iter: int = MAX_ITER,
) -> tuple[np.ndarray, np.ndarray]:
    """Joint penalised fit of (logits, coefficients in logits per unit z) for a (k, n) design z."""
    a, b, wa, wb = _battle_arrays(model_a, model_b, wins_a, wins_b, n_models)
    z = np.ascontiguousarray(z, dtype=np.float64).reshape(-1, a.shape[0])
    order, pairs = _PairIndex.build(a, b, n_models).sorted()
    wa, wb = wa[order], wb[order]
    battles = _oriented_battles(pairs, z[:, order], np.where(pairs.a_is_lo, wa, wb), wa + wb)
    theta0 = np.concatenate([bt_logits(a, b, wa, wb, n_models), np.zeros(z.shape[0])])
    theta = _newton_battles(battles, pairs, theta0, max_iter, _Workspace(a.shape[0], z.shape[0]))
    return theta[:n_models], theta[n_models:]


# --------------------------------------------------------------------------------------------
# Internals: shared
# --------------------------------------------------------------------------------------------


def _battle_arrays(
    model_a: npt.ArrayLike, model_b: npt.ArrayLike, wins_a: npt.ArrayLike, wins_b: npt.ArrayLike, m: int
) -> tuple[np.ndarray, ...]:
    """The battle inputs as flat contiguous int64 / float64 arrays, validated."""
    a = np.ascontiguousarray(model_a, dtype=np.int64).reshape(-1)
    b = np.ascontiguousarray(model_b, dtype=np.int64).reshape(-1)
    wa = np.ascontiguousarray(wins_a, dtype=np.float64).reshape(-1)
    wb = np.ascontiguousarray(wins_b, dtype=np.float64).reshape(-1)
    n = a.shape[0]
    if not (b.shape == wa.shape == wb.shape == (n,)):
        raise ValueError("model_a, model_b, wins_a and wins_b must be equal-length 1-d arrays")
    if m < 1:
        raise ValueError("n_models must be at least 1")
    if n and (min(a.min(), b.min()) < 0 or max(a.max(), b.max()) >= m):
        raise ValueError("model indices must lie in 0..n_models-1")
    if np.any(a == b):
        raise ValueError("a battle needs two different models")
    if not (np.all(np.isfinite(wa)) and np.all(np.isfinite(wb))) or (n and min(wa.min(), wb.min()) < 0):
        raise ValueError("wins must be finite and >= 0")
    return a, b, wa, wb


def _centred(logits: np.ndarray, present: np.ndarray | None = None) -> np.ndarray:
    """Logits minus the mean over the models present; absent models (a bootstrap replicate
    that drew none of their battles) become NaN, because their value there is the prior's,
    not an estimate, and would drag their CI towards the centre."""
    if present is None:
        centred: np.ndarray = logits - logits.mean(axis=-1, keepdims=True)
        return centred
    mean = np.where(present, logits, 0.0).sum(axis=-1, keepdims=True) / present.sum(axis=-1, keepdims=True)
    return np.where(present, logits - mean, np.nan)


def _summarise(point: np.ndarray, boot: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Point rating and 2.5/97.5 percentiles over the replicates in which each model appeared
    (a model absent from every replicate, possible only with very few rounds, gets a
    zero-width interval at its point rating)."""
    rating = 1000.0 + ELO_PER_LOGIT * point
    if boot.shape[0] == 0:
        return rating, rating.copy(), rating.copy()
    seen = ~np.all(np.isnan(boot), axis=0)
    low, high = rating.copy(), rating.copy()
    if seen.any():
        low[seen], high[seen] = np.nanpercentile(1000.0 + ELO_PER_LOGIT * boot[:, seen], [2.5, 97.5], axis=0)
    return rating, low, high


class _PairIndex(NamedTuple):
    p: np.ndarray  # (n,) pair index of each battle
    a_is_lo: np.ndarray  # (n,) slot A holds the lower model index of the pair
    lo: np.ndarray  # (P,) lower model index of each pair
    hi: np.ndarray  # (P,) higher model index
    n_pairs: int
    n_models: int

    @staticmethod
    def build(a: np.ndarray, b: np.ndarray, m: int) -> "_PairIndex":
        lo_b = np.minimum(a, b)
        hi_b = np.maximum(a, b)
        keys, p = np.unique(lo_b * m + hi_b, return_inverse=True)
        return _PairIndex(p.astype(np.int64).reshape(-1), a == lo_b, keys // m, keys % m, int(keys.size), int(m))

    def sorted(self) -> tuple[np.ndarray, "_PairIndex"]:
        """(order, index of the battles reordered by pair, stably)."""
        order = np.argsort(self.p, kind="stable")
        return order, self._replace(p=self.p[order], a_is_lo=self.a_is_lo[order])


class _Runs(NamedTuple):
    """The runs of equal pair index in battles sorted by pair.

    Per-pair sums are then np.add.reduceat over the runs: about five times faster than a
    weighted np.bincount, and they take a (k, n) block of covariates in one call.
    """

    starts: np.ndarray  # (R,) first battle of each run
    pair: np.ndarray  # (R,) pair index of each run, increasing
    n_pairs: int

    @staticmethod
    def of(p: np.ndarray, n_pairs: int) -> "_Runs":
        starts = np.flatnonzero(p[1:] != p[:-1]) + 1
        starts = np.concatenate([np.zeros(min(1, p.size), dtype=np.int64), starts])
        return _Runs(starts, p[starts], n_pairs)

    def sums(self, values: np.ndarray) -> np.ndarray:
        """Per-pair sums of (n,) or (k, n) values: (P,) or (k, P), 0 for a pair without battles."""
        out = np.zeros(values.shape[:-1] + (self.n_pairs,))
        if self.starts.size:
            out[..., self.pair] = np.add.reduceat(values, self.starts, axis=-1)
        return out


def _laplacian(hp: np.ndarray, pairs: _PairIndex) -> np.ndarray:
    """Stack of m x m matrices sum_p hp[., p] (e_lo - e_hi)(e_lo - e_hi)^T + PRIOR_LAMBDA I."""
    m, lo, hi = pairs.n_models, pairs.lo, pairs.hi
    rows = hp.shape[0]
    hess = np.zeros((rows, m * m))
    hess[:, lo * m + hi] = -hp
    hess[:, hi * m + lo] = -hp
    hess[:, np.arange(m) * (m + 1)] = _scatter_rows(hp, lo, m) + _scatter_rows(hp, hi, m) + PRIOR_LAMBDA
    return hess.reshape(rows, m, m)


def _scatter_rows(values: np.ndarray, index: np.ndarray, m: int) -> np.ndarray:
    """out[k, j] = sum of values[k, q] over q with index[q] == j (sequential, deterministic)."""
    rows = values.shape[0]
    flat = (np.arange(rows, dtype=np.int64)[:, None] * m + index[None, :]).ravel()
    return np.bincount(flat, values.ravel(), rows * m).reshape(rows, m)


def _sigmoid(x: np.ndarray, out: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        np.negative(x, out=out)
        np.exp(out, out=out)
    out += 1.0
    np.reciprocal(out, out=out)
    return out


def _softplus(x: np.ndarray, out: np.ndarray, tmp: np.ndarray) -> np.ndarray:
    """log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), stable for any x."""
    np.abs(x, out=out)
    np.negative(out, out=out)
    np.exp(out, out=out)
    np.log1p(out, out=out)
    np.maximum(x, 0.0, out=tmp)
    out += tmp
    return out


# --------------------------------------------------------------------------------------------
# Plain model on pair totals, batched over rows (the full fit is a batch of one)
# --------------------------------------------------------------------------------------------


def _newton_pairs(pairs: _PairIndex, w_lo: np.ndarray, w_hi: np.ndarray, r0: np.ndarray, max_iter: int) -> np.ndarray:
    """Solve R independent penalised BT problems given per-pair win totals (R, P).

    Row k minimises sum_p [w_lo softplus(-x) + w_hi softplus(x)] + lam/2 |r|^2 with
    x = r[lo] - r[hi]: damped Newton (Armijo backtracking) vectorised over rows; a row leaves
    the batch once its Newton step is <= STEP_TOL logits (that last step is applied).
    """
    w_lo = np.ascontiguousarray(w_lo, dtype=np.float64)
    w_hi = np.ascontiguousarray(w_hi, dtype=np.float64)
    total = w_lo + w_hi
    r = np.array(r0, dtype=np.float64, copy=True)
    f, g, s = _pairs_eval(r, pairs, w_lo, total)
    weight = total.sum(axis=1)
    slack = _LOSS_SLACK * (np.abs(f) + weight)
    floor = GRAD_FLOOR * (weight + PRIOR_LAMBDA)
    active = np.arange(r.shape[0])
    for iteration in range(max_iter + 1):
        if not active.size:
            break
        hp = total[active] * s[active] * (1.0 - s[active])
        step = -np.linalg.solve(_laplacian(hp, pairs), g[active][..., None])[..., 0]
        size = np.abs(step).max(axis=1, initial=0.0)
        done = (size <= STEP_TOL) | (np.abs(g[active]).max(axis=1, initial=0.0) <= floor[active])
        r[active[done]] += step[done]
        active, step = active[~done], step[~done]
        if not active.size:
            break
        if iteration == max_iter or not np.all(np.isfinite(step)):
            raise FitConvergenceError(
                f"Bradley-Terry Newton did not converge in {max_iter} iterations: {active.size} of "
                f"{r.shape[0]} fits still take steps up to {float(np.nanmax(size)):.3g} logits"
            )
        slope = np.sum(g[active] * step, axis=1)
        t = np.ones(active.size)
        pending = np.arange(active.size)
        for _ in range(_HALVINGS):
            rows = active[pending]
            r_try = r[rows] + t[pending, None] * step[pending]
            f_try, g_try, s_try = _pairs_eval(r_try, pairs, w_lo[rows], total[rows])
            ok = f_try <= f[rows] + _ARMIJO * t[pending] * slope[pending] + slack[rows]
            accepted = rows[ok]
            r[accepted], f[accepted], g[accepted], s[accepted] = r_try[ok], f_try[ok], g_try[ok], s_try[ok]
            pending = pending[~ok]
            if not pending.size:
                break
            t[pending] *= 0.5
    return r


def _pairs_eval(r: np.ndarray, pairs: _PairIndex, w_lo: np.ndarray, total: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = r[:, pairs.lo] - r[:, pairs.hi]
    sp = _softplus(x, np.empty_like(x), np.empty_like(x))
    f = np.sum(total * sp - w_lo * x, axis=1) + 0.5 * PRIOR_LAMBDA * np.sum(r * r, axis=1)
    s = _sigmoid(x, np.empty_like(x))
    gx = total * s - w_lo  # dL/dx per pair
    m = pairs.n_models
    g = _scatter_rows(gx, pairs.lo, m) - _scatter_rows(gx, pairs.hi, m) + PRIOR_LAMBDA * r
    return f, g, s


# --------------------------------------------------------------------------------------------
# Style-controlled model, per battle
# --------------------------------------------------------------------------------------------


class _Battles(NamedTuple):
    """Battles oriented by pair: d_i = r[lo(p_i)] - r[hi(p_i)] + beta . z_i.

    Orienting (swapping slots so the pair's lower model index sits in slot A, negating z and
    swapping the wins) leaves the likelihood unchanged and lets every per-model sum go
    through one per-pair np.bincount.
    """

    p: np.ndarray  # (n,) int64 pair index, non-decreasing
    runs: _Runs  # the runs of p
    z: np.ndarray  # (k, n) oriented normalised style differences, active covariates only
    w_lo: np.ndarray  # (n,) weighted wins of the pair's lower-index model
    total: np.ndarray  # (n,) weighted wins of both sides


def _oriented_battles(pairs: _PairIndex, z: np.ndarray, w_lo: np.ndarray, total: np.ndarray) -> _Battles:
    sign = np.where(pairs.a_is_lo, 1.0, -1.0)
    return _Battles(pairs.p, _Runs.of(pairs.p, pairs.n_pairs), np.ascontiguousarray(z * sign), w_lo, total)


class _Workspace:
    """Reusable float buffers (and, for replicates, gathered copies of the battle arrays)."""

    def __init__(self, n: int, k: int, gather: bool = False):
        self.d, self.s, self.gx, self.h, self.t = (np.empty(n) for _ in range(5))
        self.hz = np.empty((k, n))
        if gather:
            self.p = np.empty(n, dtype=np.int64)
            self.z = np.empty((k, n))
            self.w_lo, self.total = np.empty(n), np.empty(n)


def _to_models(per_pair: np.ndarray, pairs: _PairIndex) -> np.ndarray:
    m = pairs.n_models
    return np.bincount(pairs.lo, per_pair, m) - np.bincount(pairs.hi, per_pair, m)


def _margin(theta: np.ndarray, bt: _Battles, pairs: _PairIndex, ws: _Workspace) -> np.ndarray:
    n, m = bt.p.shape[0], pairs.n_models
    d, t = ws.d[:n], ws.t[:n]
    np.take(theta[pairs.lo] - theta[pairs.hi], bt.p, out=d, mode="clip")
    if bt.z.shape[0]:
        d += np.dot(theta[m:], bt.z, out=t)
    return d


def _grad_from_gx(theta: np.ndarray, bt: _Battles, pairs: _PairIndex, gx: np.ndarray, ws: _Workspace) -> np.ndarray:
    m = pairs.n_models
    g = np.empty(theta.shape[0])
    g[:m] = _to_models(bt.runs.sums(gx), pairs) + PRIOR_LAMBDA * theta[:m]
    g[m:] = np.dot(bt.z, gx) + BETA_RIDGE * theta[m:]
    return g


def _grad(theta: np.ndarray, bt: _Battles, pairs: _PairIndex, ws: _Workspace) -> np.ndarray:
    """Gradient at theta; leaves sigma(d) in ws.s for a following _hessian."""
    n = bt.p.shape[0]
    s = _sigmoid(_margin(theta, bt, pairs, ws), ws.s[:n])
    gx = np.multiply(bt.total, s, out=ws.gx[:n])
    gx -= bt.w_lo
    return _grad_from_gx(theta, bt, pairs, gx, ws)


def _loss(theta: np.ndarray, bt: _Battles, pairs: _PairIndex, ws: _Workspace) -> float:
    n, m = bt.p.shape[0], pairs.n_models
    d = _margin(theta, bt, pairs, ws)
    sp = _softplus(d, ws.h[:n], ws.t[:n])
    sp *= bt.total
    sp -= np.multiply(bt.w_lo, d, out=ws.t[:n])
    penalty = 0.5 * PRIOR_LAMBDA * np.sum(theta[:m] ** 2) + 0.5 * BETA_RIDGE * np.sum(theta[m:] ** 2)
    return float(np.sum(sp) + penalty)


def _hessian_from_h(h: np.ndarray, bt: _Battles, pairs: _PairIndex, ws: _Workspace) -> np.ndarray:
    k, m, n = bt.z.shape[0], pairs.n_models, h.shape[0]
    hess = np.zeros((m + k, m + k))
    hess[:m, :m] = _laplacian(bt.runs.sums(h)[None, :], pairs)[0]
    hz = np.multiply(bt.z, h, out=ws.hz[:k, :n])
    cross = bt.runs.sums(hz)
    for j in range(k):
        hess[:m, m + j] = hess[m + j, :m] = _to_models(cross[j], pairs)
        for other in range(j, k):
            hess[m + j, m + other] = hess[m + other, m + j] = np.dot(hz[j], bt.z[other])
        hess[m + j, m + j] += BETA_RIDGE
    return hess


def _hessian(bt: _Battles, pairs: _PairIndex, ws: _Workspace) -> np.ndarray:
    """Hessian from the sigma(d) left in ws.s by the last _grad call."""
    n = bt.p.shape[0]
    s, h = ws.s[:n], ws.h[:n]
    np.subtract(1.0, s, out=h)
    h *= s
    h *= bt.total
    return _hessian_from_h(h, bt, pairs, ws)


def _converged(step_size: float, grad: np.ndarray, weight: float) -> bool:
    return step_size <= STEP_TOL or float(np.abs(grad).max(initial=0.0)) <= GRAD_FLOOR * (weight + PRIOR_LAMBDA)


def _newton_battles(bt: _Battles, pairs: _PairIndex, theta0: np.ndarray, max_iter: int, ws: _Workspace) -> np.ndarray:
    """Exact damped Newton (Armijo backtracking) on the per-battle objective."""
    theta = np.array(theta0, dtype=np.float64, copy=True)
    f = _loss(theta, bt, pairs, ws)
    g = _grad(theta, bt, pairs, ws)
    weight = float(np.sum(bt.total))
    slack = _LOSS_SLACK * (abs(f) + weight)
    for iteration in range(max_iter + 1):
        step = -cho_solve(cho_factor(_hessian(bt, pairs, ws)), g)
        size = float(np.abs(step).max(initial=0.0))
        if _converged(size, g, weight):
            return theta + step
        if iteration == max_iter or not np.isfinite(size):
            break
        slope = float(np.sum(g * step))
        t = 1.0
        for _ in range(_HALVINGS):
            theta_try = theta + t * step
            f_try = _loss(theta_try, bt, pairs, ws)
            if f_try <= f + _ARMIJO * t * slope + slack:
                break
            t *= 0.5
        theta, f = theta_try, f_try
        g = _grad(theta, bt, pairs, ws)
    raise FitConvergenceError(f"style-controlled Newton did not converge in {max_iter} iterations (last step {size:.3g} logits)")


class _StyleBootstrap:
    """Style-controlled bootstrap replicates, warm-started at the full-data solution.

    At theta_hat, a replicate's gradient and Hessian are multiplicity-weighted sums of
    per-battle quantities that do not depend on the replicate (gx_hat, h_hat), so the first,
    exact Newton step needs no exp/log. Then chord steps theta <- theta - H0^-1 grad(theta)
    reuse that Cholesky factor H0, each from a freshly evaluated gradient. A chord step that
    shrinks the step by less than _REFRESH_RATE refactors the Hessian at that point (making
    it an exact Newton step); one that fails to halve it hands the replicate to exact damped
    Newton.
    """

    def __init__(self, bt: _Battles, pairs: _PairIndex, theta_hat: np.ndarray, max_iter: int):
        self.bt, self.pairs, self.theta_hat, self.max_iter = bt, pairs, theta_hat, max_iter
        n, k = bt.p.shape[0], bt.z.shape[0]
        self.ws = _Workspace(n, k, gather=True)
        _grad(theta_hat, bt, pairs, self.ws)
        s = self.ws.s
        self.gx_hat = bt.total * s - bt.w_lo  # dL/dd per battle at theta_hat, unit multiplicity
        self.h_hat = bt.total * s * (1.0 - s)

    def _take(self, sel: np.ndarray, c: np.ndarray, runs: _Runs) -> _Battles:
        ws, src, n = self.ws, self.bt, sel.shape[0]
        p = np.take(src.p, sel, out=ws.p[:n], mode="clip")
        z = ws.z[:, :n]
        for j in range(src.z.shape[0]):
            np.take(src.z[j], sel, out=z[j], mode="clip")
        w_lo = np.take(src.w_lo, sel, out=ws.w_lo[:n], mode="clip")
        w_lo *= c
        total = np.take(src.total, sel, out=ws.total[:n], mode="clip")
        total *= c
        return _Battles(p, runs, z, w_lo, total)

    def replicate(self, sel: np.ndarray, c: np.ndarray, runs: _Runs) -> np.ndarray:
        """The solution for the battles `sel` (increasing) with multiplicities `c`; `runs` are their pairs' runs."""
        ws, pairs = self.ws, self.pairs
        n = sel.shape[0]
        bt = self._take(sel, c, runs)
        gx = np.take(self.gx_hat, sel, out=ws.gx[:n], mode="clip")
        gx *= c
        g = _grad_from_gx(self.theta_hat, bt, pairs, gx, ws)
        h = np.take(self.h_hat, sel, out=ws.h[:n], mode="clip")
        h *= c
        factor = cho_factor(_hessian_from_h(h, bt, pairs, ws))
        weight = float(np.sum(bt.total))
        step = -cho_solve(factor, g)
        size = float(np.abs(step).max(initial=0.0))
        theta = self.theta_hat + step
        if _converged(size, g, weight):
            return theta
        for _ in range(_CHORD_MAX):
            g = _grad(theta, bt, pairs, ws)
            step = -cho_solve(factor, g)
            new_size = float(np.abs(step).max(initial=0.0))
            if _converged(new_size, g, weight):
                return theta + step
            if not new_size <= _CHORD_RATE * size:  # diverging, stalling (or NaN): exact Newton
                break
            if new_size > _REFRESH_RATE * size:  # slow contraction: refactor here (a Newton step)
                factor = cho_factor(_hessian(bt, pairs, ws))
                step = -cho_solve(factor, g)
                new_size = float(np.abs(step).max(initial=0.0))
            theta, size = theta + step, new_size
        return _newton_battles(bt, pairs, theta, self.max_iter, ws)
