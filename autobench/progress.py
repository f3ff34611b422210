"""Progress reporting from inside a generator: `report_progress(done, total, note)`.

A no-op unless a listener is installed (the CLI installs one that draws a status line on
a TTY), so generators can call it unconditionally.
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, Optional, TextIO

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


class TtyProgress:
    """A one-line status (elapsed time, cases so far) redrawn on stderr, only on a TTY."""

    def __init__(self, label: str, stream: TextIO = sys.stderr, interval: float = 0.5) -> None:
        self.label, self.stream, self.interval = label, stream, interval
        self.enabled = stream.isatty()
        self._state: tuple[int, Optional[int], str] = (0, None, "")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = time.monotonic()

    def __call__(self, done: int, total: int | None, note: str) -> None:
        self._state = (done, total, note)

    def _draw(self) -> None:
        done, total, note = self._state
        count = f"{done}/{total}" if total else f"{done}"
        elapsed = time.monotonic() - self._start
        self.stream.write(f"\r\x1b[2K{self.label}: {count} cases, {elapsed:5.1f}s {note}"[:200])
        self.stream.flush()

    def __enter__(self) -> "TtyProgress":
        if self.enabled:
            def loop() -> None:
                while not self._stop.wait(self.interval):
                    self._draw()
            self._thread = threading.Thread(target=loop, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
