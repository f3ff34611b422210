"""Fitting a dump's categories side by side (atlas_assets/ratings/fitting.py)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from atlas_assets.ratings import fitting
from atlas_assets.ratings.fit import FitConvergenceError
from atlas_assets.ratings.fitting import CategoryData, fit_categories
from tests.helpers.signals import ctrl_c_not_ignored


def category(slug: str, n: int, m: int, seed: int, style: bool = True) -> CategoryData:
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 0.5, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    win = rng.random(n) < 1 / (1 + np.exp(strength[b] - strength[a]))
    features_a, features_b = rng.lognormal(5, 1, (n, 4)), rng.lognormal(5, 1, (n, 4))
    return CategoryData(slug, a, b, win.astype(float), (~win).astype(float), features_a, features_b, m, style)


CATEGORIES = [category("big", 3000, 9, 1), category("plain", 1500, 6, 2, style=False), category("small", 400, 5, 3)]
FIELDS = ("rating", "ci_low", "ci_high", "rating_sc", "ci_low_sc", "ci_high_sc", "style_coefficients")


def assert_same(first, second):
    for one, other in zip(first, second, strict=True):
        for name in FIELDS:
            left, right = getattr(one, name), getattr(other, name)
            assert (left is None) == (right is None), name
            if left is not None:
                assert np.array_equal(left, right), name


def test_results_do_not_depend_on_threads_or_parts(monkeypatch):
    serial = fit_categories(CATEGORIES, seed=5, rounds=17, workers=1)
    monkeypatch.setattr(fitting, "_PART_MIN_BATTLES", 1000)  # "big" and "plain" are cut into parts
    assert [len(fitting._parts(c, 17, 3)) for c in CATEGORIES] == [3, 3, 1]
    assert_same(serial, fit_categories(CATEGORIES, seed=5, rounds=17, workers=3))
    assert_same(serial, fit_categories(CATEGORIES, seed=5, rounds=17, workers=2))
    other_seed = fit_categories(CATEGORIES, seed=6, rounds=17, workers=1)
    assert not np.array_equal(serial[0].ci_low, other_seed[0].ci_low)


def test_progress_counts_every_round_of_every_category_once(monkeypatch):
    monkeypatch.setattr(fitting, "_PART_MIN_BATTLES", 1000)
    seen: dict[str, list[int]] = {}
    lock = threading.Lock()

    def progress(slug: str, done: int, total: int) -> None:
        assert total == 11
        with lock:
            seen.setdefault(slug, []).append(done)

    fit_categories(CATEGORIES, seed=1, rounds=11, progress=progress, workers=2)
    assert {slug: sorted(values) for slug, values in seen.items()} == {c.slug: list(range(1, 12)) for c in CATEGORIES}


def test_zero_rounds_and_no_categories():
    assert fit_categories([], seed=1, rounds=5) == []
    (result,) = fit_categories(CATEGORIES[:1], seed=1, rounds=0, workers=2)
    assert np.array_equal(result.ci_low, result.rating) and result.rating_sc is not None
    with pytest.raises(ValueError, match="workers"):
        fit_categories(CATEGORIES, seed=1, rounds=1, workers=0)


def test_a_failing_part_stops_the_others_and_its_error_is_raised(monkeypatch):
    """The first failure is raised as itself; parts still running stop at their next round."""
    started = threading.Event()
    rounds_after_failure = []
    real_part = fitting._part

    def failing(category, point, rounds, seed, progress):
        if category.slug == "small":
            started.wait(10)
            raise FitConvergenceError("did not converge (injected)")

        def counting(done, total):
            started.set()
            progress(done, total)
            rounds_after_failure.append(done)

        return real_part(category, point, rounds, seed, counting)

    monkeypatch.setattr(fitting, "_part", failing)
    with pytest.raises(FitConvergenceError, match="injected"):
        fit_categories(CATEGORIES, seed=1, rounds=400, workers=2)
    assert len(rounds_after_failure) < 400 * 2, "the other parts ran to the end"


def test_each_category_is_point_fitted_once_however_many_parts(monkeypatch):
    monkeypatch.setattr(fitting, "_PART_MIN_BATTLES", 1000)
    fitted = []
    real_point = fitting._point

    def counting(category):
        fitted.append(category.slug)
        return real_point(category)

    monkeypatch.setattr(fitting, "_point", counting)
    fit_categories(CATEGORIES, seed=5, rounds=17, workers=3)
    assert sorted(fitted) == ["big", "plain", "small"]


def test_a_singular_point_fit_is_a_convergence_error_naming_its_category(monkeypatch):
    def singular(*args, **kwargs):
        raise np.linalg.LinAlgError("25-th leading minor not positive definite")

    monkeypatch.setattr(fitting, "point_fit", singular)
    with pytest.raises(FitConvergenceError, match="category big: the Newton system is numerically singular"):
        fit_categories(CATEGORIES[:1], seed=1, rounds=3, workers=2)


def test_a_ctrl_c_while_parts_are_being_submitted_stops_the_parts_already_running(monkeypatch):
    """A terminal's Ctrl-C can land between two submits (the CLI prints "bootstrap rounds"
    just before fitting starts). The parts already running must stop at their next round
    instead of keeping the pool's exit -- and the user -- waiting for every round."""
    rounds_done = []

    class InterruptedPool(fitting.ThreadPoolExecutor):
        submitted = 0

        def submit(self, fn, /, *args, **kwargs):
            InterruptedPool.submitted += fn is not fitting._point
            if InterruptedPool.submitted == 2:  # one part is in
                deadline = time.monotonic() + 10
                while not rounds_done and time.monotonic() < deadline:
                    time.sleep(0.01)  # that part is running
                raise KeyboardInterrupt
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(fitting, "ThreadPoolExecutor", InterruptedPool)
    with pytest.raises(KeyboardInterrupt):
        fit_categories(CATEGORIES, seed=1, rounds=2000, workers=2, progress=lambda slug, done, total: rounds_done.append(done))
    assert rounds_done, "no part had started: the test proves nothing"
    assert len(rounds_done) < 2000, "the running part went on to its last round"


def test_a_ctrl_c_that_the_kernel_hands_to_a_fitting_thread_stops_the_fit_within_a_second():
    """The kernel may deliver a terminal's SIGINT to any thread; Python runs the handler on the
    main thread only. Here the signal is sent to a fitting thread itself (pthread_kill): the
    main thread must still raise KeyboardInterrupt within a fraction of a second, not after
    the last of 20000 rounds (a main thread blocked without a timeout never wakes for it)."""
    import subprocess
    import sys

    script = """
import signal, threading, time
import tests.ratings.test_fitting as t
from atlas_assets.ratings.fitting import fit_categories

rounds, sent = [], []

def progress(slug, done, total):
    rounds.append(done)
    if len(rounds) == 5 and not sent:
        sent.append(time.monotonic())
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # to this fitting thread, not the main one

try:
    fit_categories(t.CATEGORIES, seed=1, rounds=20000, workers=2, progress=progress)
except KeyboardInterrupt:
    print(threading.current_thread() is threading.main_thread(), time.monotonic() - sent[0], len(rounds))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, preexec_fn=ctrl_c_not_ignored)
    assert done.returncode == 0, done.stderr
    on_main, seconds, rounds = done.stdout.split()
    assert on_main == "True"
    assert float(seconds) < 1.0 and int(rounds) < 3 * 20000, done.stdout
