"""Progress lines for long work, written to a log at a bounded rate.

Domain code knows what a line should say (rows done, accuracy so far, ETA); the caller
knows where it goes (a Dagster run log, stderr). `ProgressLog` sits between them: it
emits the first line of every stage at once, then at most one line per `every_seconds`,
and always the final line of a stage (done == total), so a log shows work starting,
moving and ending without flooding. Thread-safe: stages fitted side by side share it.
"""

from __future__ import annotations

import threading
import time
from typing import Callable


def eta_seconds(done: int, total: int, rate_per_second: float) -> float | None:
    """Seconds left at the current rate, or None when the rate says nothing yet."""
    if rate_per_second <= 0 or total <= done:
        return None if total > done else 0.0
    return (total - done) / rate_per_second


def format_duration(seconds: float | None) -> str:
    """`42 s`, `3 min 05 s`, `1 h 02 min`; `?` when unknown."""
    if seconds is None:
        return "?"
    whole = int(round(seconds))
    if whole < 60:
        return f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class ProgressLog:
    """Rate-limited progress lines: `log(stage, line, final=False)`."""

    def __init__(
        self,
        emit: Callable[[str], None],
        every_seconds: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._emit = emit
        self._every = every_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._last: float | None = None
        self._stages: set[str] = set()

    def log(self, stage: str, line: str, final: bool = False) -> bool:
        """Emit `line` if it opens or closes `stage` or the interval has passed; True if emitted."""
        with self._lock:
            now = self._clock()
            due = self._last is None or now - self._last >= self._every
            if not (final or stage not in self._stages or due):
                return False
            self._stages.add(stage)
            self._last = now
        self._emit(line)
        return True
