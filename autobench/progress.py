"""Progress reporting from inside a generator: `report_progress(done, total, note)`.

A no-op unless a listener is installed (`GenerationProgress` installs one that writes lines
to a `ProgressLog`; the CLI's is its ProgressDisplay's), so generators can call it
unconditionally. `BenchmarkCounts` counts the cells of a benchmark run.
"""

from __future__ import annotations

import contextvars
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, ClassVar, Iterator, Mapping, Optional

from atlas_assets.core.progress import Counts, ProgressLog, eta_seconds, format_duration

Listener = Callable[[int, Optional[int], str], None]
_listener: contextvars.ContextVar[Optional[Listener]] = contextvars.ContextVar("autobench_progress", default=None)
_global: list[Listener] = []  # also seen from worker threads started without a copied context


def report_progress(done: int, total: int | None = None, note: str = "") -> None:
    listener = _listener.get() or (_global[-1] if _global else None)
    if listener is not None:
        listener(done, total, note)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    token = _listener.set(listener)
    _global.append(listener)
    try:
        yield
    finally:
        _global.remove(listener)
        _listener.reset(token)


class GenerationProgress:
    """Lines of one generation for a `ProgressLog`: the start, the cases the generator
    reports so far (`cases` is the `report_progress` listener), then how many were accepted,
    left candidate and rejected. Review states exist only once the batch is back, so the
    lines in between count generated cases."""

    def __init__(self, log: ProgressLog, dataset_id: str, generator_id: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._log, self._id, self._label, self._clock = log, dataset_id, f"generating {dataset_id}", clock
        self._started = clock()
        log.log("start", f"{self._label} with {generator_id}", final=True)

    def cases(self, done: int, total: int | None, note: str) -> None:
        elapsed = self._clock() - self._started
        rate = done / elapsed if elapsed > 0 else 0.0
        parts = [f"{self._label}: {done} of {total} cases ({100 * done // total} %)" if total else f"{self._label}: {done} cases so far"]
        if done:
            parts.append(f"{rate:.1f} cases/s")
        if total and 0 < done < total:
            parts.append(f"ETA {format_duration(eta_seconds(done, total, rate))}")
        if note:
            parts.append(note)
        self._log.log("cases", " · ".join(parts))

    def finished(self, cases: int, review_counts: Mapping[str, int], incomplete_reason: str | None) -> None:
        counts = ", ".join(f"{n} {state}" for state, n in review_counts.items())
        ending = f"incomplete: {incomplete_reason}" if incomplete_reason else "complete"
        took = format_duration(self._clock() - self._started)
        self._log.log("cases", f"generated {self._id}: {cases} cases in {took} ({counts}) · {ending}", final=True)


@dataclass
class BenchmarkCounts(Counts):
    """Cells (case x variant) of one benchmark run; `passed` and `failed` (errors) include
    the resumed cells, so the pass rate is over every cell recorded so far."""

    unit: ClassVar[str] = "cells"
    rate_unit: ClassVar[str] = "cells/s"

    passed: int = 0

    def count(self, passed: bool, error: bool) -> None:
        self.done += 1
        self.passed += passed
        self.failed += error

    def score_text(self, final: bool) -> str | None:
        return f"pass rate{'' if final else ' so far'} {self.passed / self.done:.1%}" if self.done else None
