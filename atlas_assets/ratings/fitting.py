"""Fitting a dump's categories side by side.

Each category is fitted on its own random stream (`category_rng`), and its bootstrap rounds
are cut into parts (fit.fit_part) whose replicates are exactly those of one run over all
rounds, so the results are the same bytes however the work is spread. The parts run on a
pool of threads, one per usable CPU (at most _MAX_WORKERS), largest first, so that the CPUs
finish together: numpy releases the GIL in most of a fit's array work. Threads rather than
processes: on two CPUs, starting "spawn" workers and sending them the battles cost more than
the GIL does (1M votes: 3.1 s against 2.45 s). BLAS is held at one thread for the whole
fitting, so no part's rounding depends on another's timing. A part that fails, or a Ctrl-C,
stops every running part at its next round.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, CancelledError, ThreadPoolExecutor, wait
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from atlas_assets.core.cpus import usable_cpus
from atlas_assets.ratings.fit import FitConvergenceError, FitPart, FitResult, combine_parts, fit_part

__all__ = ["CategoryData", "category_rng", "fit_categories"]

_MAX_WORKERS = 8
_PART_MIN_BATTLES = 20_000  # a category this small is one part: splitting it saves less than a part's set-up

Forward = Callable[[str, int, int], None]  # progress(slug, rounds done, rounds)


@dataclass(frozen=True)
class CategoryData:
    """One category's voted battles, as fit.fit_part takes them (local model indices)."""

    slug: str
    model_a: np.ndarray
    model_b: np.ndarray
    wins_a: np.ndarray
    wins_b: np.ndarray
    features_a: np.ndarray
    features_b: np.ndarray
    n_models: int
    style_control: bool

    @property
    def battles(self) -> int:
        return int(self.model_a.shape[0])


def category_rng(seed: int, slug: str) -> np.random.Generator:
    """The category's own random stream: adding a category changes no other category's numbers."""
    slug_key = int.from_bytes(hashlib.sha256(slug.encode("utf-8")).digest()[:8], "big")
    return np.random.default_rng(np.random.SeedSequence([seed, slug_key]))


def fit_categories(
    categories: Sequence[CategoryData],
    *,
    seed: int,
    rounds: int,
    progress: Forward | None = None,
    workers: int | None = None,
) -> list[FitResult]:
    """Fit every category (results in the order given); progress(slug, done, rounds) after
    each bootstrap round of a category. workers=None uses one thread per usable CPU (at most
    8); the results do not depend on `workers`."""
    if workers is None:
        workers = min(usable_cpus(), _MAX_WORKERS)
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    tasks = [(index, part) for index, category in enumerate(categories) for part in _parts(category, rounds, workers)]
    tasks.sort(key=lambda task: -categories[task[0]].battles * max(1, len(task[1])))  # largest first
    done = [0] * len(categories)
    lock = threading.Lock()
    stop = threading.Event()

    def run(index: int, part: range) -> FitPart:
        category = categories[index]

        def round_done(_done: int, _total: int) -> None:
            if stop.is_set():
                raise CancelledError()
            if progress is not None:
                with lock:
                    done[index] += 1
                    progress(category.slug, done[index], rounds)

        return _fit(category, part, seed, round_done)

    with threadpool_limits(limits=1, user_api="blas"), ThreadPoolExecutor(max(1, min(workers, len(tasks)))) as pool:
        futures = {(index, part.start): pool.submit(run, index, part) for index, part in tasks}
        try:
            wait(futures.values(), return_when=FIRST_EXCEPTION)
            failed = next((future for future in futures.values() if future.done() and future.exception() is not None), None)
            if failed is not None:
                raise failed.exception()  # type: ignore[misc]  # checked not None
            results = {key: future.result() for key, future in futures.items()}
        except BaseException:
            stop.set()
            for future in futures.values():
                future.cancel()
            raise
    by_category: list[list[FitPart]] = [[] for _ in categories]
    for (index, _start), part in sorted(results.items()):
        by_category[index].append(part)
    return [combine_parts(parts) for parts in by_category]


def _fit(category: CategoryData, rounds: range, seed: int, progress: Callable[[int, int], None] | None) -> FitPart:
    try:
        return fit_part(
            category.model_a,
            category.model_b,
            category.wins_a,
            category.wins_b,
            category.features_a,
            category.features_b,
            category.n_models,
            rounds=rounds,
            rng=category_rng(seed, category.slug),
            style_control=category.style_control,
            progress=progress,
        )
    except np.linalg.LinAlgError as error:  # a last line of defence; MAX_VOTE_WEIGHT keeps it out of reach
        raise FitConvergenceError(f"category {category.slug}: the Newton system is numerically singular ({error})") from None


def _parts(category: CategoryData, rounds: int, workers: int) -> list[range]:
    """The category's rounds cut into `workers` parts (one for a small category)."""
    count = workers if category.battles >= _PART_MIN_BATTLES else 1
    bounds = [rounds * index // count for index in range(count + 1)]
    return [range(start, stop) for start, stop in zip(bounds, bounds[1:]) if stop > start] or [range(0)]
