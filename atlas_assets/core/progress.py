"""Progress lines for long work, written to a log at a bounded rate.

Domain code knows what a line should say (rows done, accuracy so far, ETA); the caller
knows where it goes (a Dagster run log, stderr). `ProgressLog` sits between them: it
emits the first line of every stage at once, then at most one line per `every_seconds`,
and always the final line of a stage (done == total), so a log shows work starting,
moving and ending without flooding. Thread-safe: stages fitted side by side share it.

`Counts` holds the live counters of a run over rows or segments (read by a CLI's bar)
and says them as one line: `done/total unit (failed, resumed) · score · rate · ETA`.
`ProgressDisplay` is where the command lines show them: a bar on a terminal, plain lines
otherwise, nothing when quiet.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, ClassVar, TextIO


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

    def log(self, stage: str, line: str | Callable[[], str], final: bool = False) -> bool:
        """Emit `line` if it opens or closes `stage` or the interval has passed; True if emitted.

        `line` may be a function building it: called only when the line is emitted, so a
        caller can log after every row without formatting (or scoring) every time."""
        with self._lock:
            now = self._clock()
            due = self._last is None or now - self._last >= self._every
            if not (final or stage not in self._stages or due):
                return False
            self._stages.add(stage)
            self._last = now
        self._emit(line() if callable(line) else line)
        return True


@dataclass
class Counts:
    """Live counters of a run: `done` includes the `resumed` items (recorded by an earlier
    session, not sent now); the rate counts only what this session sent. Subclasses name
    their `unit` and `rate_unit` and may say a score so far (`score_text`)."""

    unit: ClassVar[str] = "items"
    rate_unit: ClassVar[str] = "items/s"

    total: int = 0
    resumed: int = 0
    done: int = 0
    failed: int = 0
    started: float | None = None  # clock() when sending began (None: at creation)
    clock: Callable[[], float] = field(default=time.perf_counter, repr=False)

    def __post_init__(self) -> None:
        if self.started is None:
            self.started = self.clock()

    def start(self) -> None:
        self.started = self.clock()

    @property
    def elapsed(self) -> float:
        return self.clock() - (self.started or 0.0)

    @property
    def rate(self) -> float:
        elapsed = self.elapsed
        return (self.done - self.resumed) / elapsed if elapsed > 0 else 0.0

    def score_text(self, final: bool) -> str | None:
        return None

    def line(self, label: str, final: bool = False, score: str | None = None) -> str:
        """`label: 120/328 rows (3 failed, 40 resumed) · score · 14.3 req/s · ETA 16 s`; the
        rate and ETA once this session has sent something; a final line says how it ended.
        `score` defaults to `score_text(final)`."""
        parts = [f"{label}: {self.done}/{self.total} {self.unit} ({self.failed} failed, {self.resumed} resumed)"]
        score = score if score is not None else self.score_text(final)
        if score:
            parts.append(score)
        rate = self.rate
        if self.done > self.resumed:
            parts.append(f"{rate:.1f} {self.rate_unit}")
        if final:
            took = format_duration(self.elapsed)
            parts.append(f"done in {took}" if self.done >= self.total else f"stopped after {took}: run again to resume")
        elif self.done > self.resumed:
            parts.append(f"ETA {format_duration(eta_seconds(self.done, self.total, rate))}")
        return " · ".join(parts)


class ProgressDisplay:
    """The one live progress display of the command lines; every long command uses it.

    * On a terminal: one line on stderr redrawn in place ten times a second. `track(counts,
      label)` draws a bar, `label [████░░░░] 120/328 rows · 3 failed · accuracy so far
      71.2 % · 14.3 req/s · ETA 16 s`, once the total is known (no "0/0" frame) and keeps
      its last frame; `log()` gives a ProgressLog whose lines (a computation's stages)
      replace each other on the line, which is cleared at the end.
    * Not a terminal (a log file, CI): the same as plain lines, the first and last of each
      stage and at most one per `every_seconds`.
    * `quiet`: nothing.
    """

    def __init__(self, stream: TextIO | None = None, *, quiet: bool = False, every_seconds: float = 10.0, interval: float = 0.1) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.terminal = not quiet and self.stream.isatty()
        self._every = interval if self.terminal else every_seconds
        self._interval = interval
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._tracked: tuple[Counts, str] | None = None
        self._drawn = ""  # what the terminal line shows now
        self._log: ProgressLog | None = None

    # -- what to show

    def track(self, counts: Counts, label: str) -> None:
        """Show `counts` (polled) from now on, under `label`."""
        self._tracked = (counts, label)

    def log(self) -> ProgressLog:
        """A ProgressLog for stage lines (rate-limited to the display's pace)."""
        if self._log is None:
            self._log = ProgressLog(self._say, every_seconds=self._every)
        return self._log

    # -- drawing

    def _write(self, line: str) -> None:
        with self._lock:
            if self.terminal:
                self.stream.write(f"\r\x1b[K{line}")
                self._drawn = line
            else:
                self.stream.write(line + "\n")
            self.stream.flush()

    def _say(self, line: str) -> None:
        if not self.quiet:
            self._write(line)

    def bar(self, counts: Counts, label: str, width: int = 24) -> str:
        filled = int(width * min(counts.done, counts.total) / counts.total) if counts.total else 0
        parts = [f"{label} [{'█' * filled}{'░' * (width - filled)}] {counts.done}/{counts.total} {counts.unit}", f"{counts.failed} failed"]
        score = counts.score_text(False)
        if score:
            parts.append(score)
        rate = counts.rate
        parts.append(f"{rate:.1f} {counts.rate_unit}")
        parts.append(f"ETA {format_duration(eta_seconds(counts.done, counts.total, rate))}")
        return " · ".join(parts)

    def _tick(self, final: bool = False) -> None:
        if self._tracked is None:
            return
        counts, label = self._tracked
        if counts.total <= 0:
            return
        if self.terminal:
            self._write(self.bar(counts, label))
        else:
            self.log().log(f"track {label}", lambda: counts.line(label, final=final), final=final)

    def _loop(self) -> None:
        while not self._stop.wait(self._interval):
            self._tick()

    def __enter__(self) -> "ProgressDisplay":
        if not self.quiet:
            self._thread = threading.Thread(target=self._loop, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.quiet:
            return
        self._tick(final=True)
        if self.terminal and self._drawn:
            with self._lock:  # a bar's last frame stays; stage lines make way for what follows
                self.stream.write("\n" if self._tracked is not None else "\r\x1b[K")
                self.stream.flush()
