"""Progress lines of one leaderboard computation, with units a reader can follow.

    reading battles.jsonl: 41.2 of 120.0 MB (34 %) · 12.1 MB/s · ETA 6 s
    votes read: 1,204,113 in 6 categories · 100 bootstrap rounds each
    category 3 of 6 (coding): fitting 58 models on 5,915 votes, style control on
    bootstrap: 240 of 600 rounds across 6 categories (40 %) · 20.0 rounds/s · ETA 18 s
    leaderboard: 6 categories rated in 31 s

Categories are fitted side by side, so the bootstrap is one stage counting the rounds of
all categories: a stage per category would open once and then lose every later line to
the other categories' lines under the shared rate limit. Where the lines go and how often
is the caller's `ProgressLog`; nothing here changes a computed number.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Sequence

from atlas_assets.core.progress import ProgressLog, eta_seconds, format_duration

_UNITS = (("GB", 1e9), ("MB", 1e6), ("kB", 1e3))


def _scale(total: int) -> tuple[str, float]:
    """The unit a byte count of this size reads best in."""
    return next(((unit, size) for unit, size in _UNITS if total >= size), ("bytes", 1.0))


def _percent(done: int, total: int) -> str:
    """Rounded down, so 100 % means done."""
    return f"{100 * done // total if total else 100} %"


class LeaderboardProgress:
    """Says how far `compute_leaderboard` is; one instance per computation, thread-safe."""

    def __init__(self, log: ProgressLog, clock: Callable[[], float] = time.monotonic) -> None:
        self._log = log
        self._clock = clock
        self._lock = threading.Lock()
        self._started = self._stage_started = clock()
        self._slugs: tuple[str, ...] = ()
        self._rounds = 0
        self._round_done: dict[str, int] = {}
        self._rounds_done = 0

    def _elapsed(self) -> float:
        return self._clock() - self._stage_started

    def _pace(self, done: int, total: int, rate_text: str, rate: float) -> str:
        """`· 12.1 MB/s · ETA 6 s` while running, `in 10 s` once done."""
        if done >= total:
            return f" in {format_duration(self._elapsed())}"
        return f" · {rate_text} · ETA {format_duration(eta_seconds(done, total, rate))}"

    def read(self, name: str, done: int, total: int) -> None:
        """After each parsed range of the file `name`: bytes read of its size."""
        unit, size = _scale(total)
        with self._lock:
            rate = done / max(self._elapsed(), 1e-9)
            line = f"reading {name}: {done / size:.1f} of {total / size:.1f} {unit} ({_percent(done, total)})" + self._pace(
                done, total, f"{rate / size:.1f} {unit}/s", rate
            )
            final = done >= total
            self._log.log(f"read {name}", line, final=final)
            if final:
                self._stage_started = self._clock()

    def fitting(self, votes: int, categories: Sequence[str], rounds: int) -> None:
        """The dump is read: how many votes, in which categories, how many rounds each."""
        with self._lock:
            self._slugs, self._rounds = tuple(categories), rounds
            self._round_done = dict.fromkeys(self._slugs, 0)
            self._stage_started = self._clock()
            line = f"votes read: {votes:,} in {len(self._slugs)} categories · {rounds} bootstrap rounds each"
            self._log.log("votes", line, final=True)

    def category(self, slug: str, models: int, votes: int, style_control: bool) -> None:
        """A category's fit starts."""
        line = (
            f"category {self._slugs.index(slug) + 1} of {len(self._slugs)} ({slug}): fitting {models} models "
            f"on {votes:,} votes, style control {'on' if style_control else 'off'}"
        )
        with self._lock:
            self._log.log(f"category {slug}", line, final=True)

    def bootstrap(self, slug: str, done: int, total: int) -> None:
        """After each bootstrap round of `slug` (fit_part's progress)."""
        with self._lock:
            self._rounds_done += done - self._round_done[slug]
            self._round_done[slug] = done
            done_all, total_all = self._rounds_done, self._rounds * len(self._slugs)
            rate = done_all / max(self._elapsed(), 1e-9)
            line = (
                f"bootstrap: {done_all} of {total_all} rounds across {len(self._slugs)} categories "
                f"({_percent(done_all, total_all)})" + self._pace(done_all, total_all, f"{rate:.1f} rounds/s", rate)
            )
            self._log.log("bootstrap", line, final=done_all >= total_all)

    def finished(self) -> None:
        """Every category is rated (the document is about to be rendered)."""
        with self._lock:
            took = format_duration(self._clock() - self._started)
            self._log.log("leaderboard", f"leaderboard: {len(self._slugs)} categories rated in {took}", final=True)
