"""Fitting a dump's categories side by side.

Each category is fitted on its own random stream (`category_rng`), and its bootstrap rounds
are cut into parts (fit.fit_part) whose replicates are exactly those of one run over all
rounds, so the results are the same bytes however the work is spread. A category's point
fits (fit.point_fit) are computed once and shared by its parts. The fits run on a
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
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, CancelledError, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from atlas_assets.core.cpus import usable_cpus
from atlas_assets.ratings.fit import FitConvergenceError, FitPart, FitResult, PointFit, combine_parts, fit_part, point_fit

__all__ = ["CategoryData", "category_rng", "fit_categories"]

_MAX_WORKERS = 8
_POLL_SECONDS = 0.1  # the longest the main thread waits in one go (see _wait_for_all_or_a_failure)
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
        point = points[index].result()

        def round_done(_done: int, _total: int) -> None:
            if stop.is_set():
                raise CancelledError()
            if progress is not None:
                with lock:
                    done[index] += 1
                    progress(category.slug, done[index], rounds)

        return _part(category, point, part, seed, round_done)

    points: dict[int, Future[PointFit]] = {}
    futures: dict[tuple[int, int], Future[FitPart]] = {}
    with threadpool_limits(limits=1, user_api="blas"), ThreadPoolExecutor(max(1, min(workers, len(tasks)))) as pool:
        # Submitting is inside the try: a Ctrl-C between two submits must stop the parts
        # already running (the pool's exit waits for them), not leave them to run every round.
        try:
            # Every point fit is queued before any part (the pool takes tasks in order), so a
            # part waiting for its category's point fit waits for a running or finished task.
            for index in sorted(range(len(categories)), key=lambda index: -categories[index].battles):
                points[index] = pool.submit(_point, categories[index])
            for index, share in tasks:
                futures[index, share.start] = pool.submit(run, index, share)
            failure = _wait_for_all_or_a_failure(list(futures.values()))
            if failure is not None:
                raise failure
            results = {key: future.result() for key, future in futures.items()}
        except BaseException:
            stop.set()
            for point in points.values():
                point.cancel()
            for future in futures.values():
                future.cancel()
            raise
    by_category: list[list[FitPart]] = [[] for _ in categories]
    for (index, _start), part in sorted(results.items()):
        by_category[index].append(part)
    return [combine_parts(parts) for parts in by_category]


def _wait_for_all_or_a_failure(futures: list[Future[FitPart]]) -> BaseException | None:
    """Wait until every part is done (None) or one has failed (its exception), in waits of at
    most _POLL_SECONDS. The kernel hands a Ctrl-C to whichever thread it picks, but Python
    runs the handler on the main thread only: a main thread blocked on a lock without a
    timeout is not woken by a signal that one of the pool's threads took, and would sit
    through every remaining round before it raised KeyboardInterrupt."""
    while True:
        done, running = wait(futures, timeout=_POLL_SECONDS, return_when=FIRST_EXCEPTION)
        failure = next((error for error in (future.exception() for future in done) if error is not None), None)
        if failure is not None or not running:
            return failure


def _point(category: CategoryData) -> PointFit:
    with _singular_is_not_converged(category.slug):
        return point_fit(
            category.model_a,
            category.model_b,
            category.wins_a,
            category.wins_b,
            category.features_a,
            category.features_b,
            category.n_models,
            style_control=category.style_control,
        )


def _part(category: CategoryData, point: PointFit, rounds: range, seed: int, progress: Callable[[int, int], None]) -> FitPart:
    with _singular_is_not_converged(category.slug):
        return fit_part(point, rounds=rounds, rng=category_rng(seed, category.slug), progress=progress)


@contextmanager
def _singular_is_not_converged(slug: str) -> Iterator[None]:
    """A last line of defence: MAX_VOTE_WEIGHT keeps a singular Newton system out of reach."""
    try:
        yield
    except np.linalg.LinAlgError as error:
        raise FitConvergenceError(f"category {slug}: the Newton system is numerically singular ({error})") from None


def _parts(category: CategoryData, rounds: int, workers: int) -> list[range]:
    """The category's rounds cut into `workers` parts (one for a small category)."""
    count = workers if category.battles >= _PART_MIN_BATTLES else 1
    bounds = [rounds * index // count for index in range(count + 1)]
    return [range(start, stop) for start, stop in zip(bounds, bounds[1:]) if stop > start] or [range(0)]
