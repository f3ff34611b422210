"""Pause Python's cyclic garbage collector while bulk work builds millions of objects.

The collector runs whenever allocations outnumber deallocations by a threshold, and each
older-generation pass walks every live object: building a 200,000-case document (millions
of dicts and strings, none of them in a reference cycle) spends a large share of its time
there, growing faster than the document. Reference counting still frees everything as
usual; only the search for cycles waits until the work is done.
"""

from __future__ import annotations

import functools
import gc
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

__all__ = ["collector_paused", "older_objects_frozen", "without_collector"]

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector inside the block (re-entrant; the previous state is restored)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def older_objects_frozen() -> Iterator[None]:
    """Inside the block the collector runs as usual but only over objects created inside it:
    everything alive before is set aside (`gc.freeze`) and put back after (`gc.unfreeze`).
    For code we do not own (a user's generator): its garbage cycles are still collected, but
    a 200,000-case request read before it is not walked again and again."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def without_collector(fn: F) -> F:
    """`fn` run inside `collector_paused()`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with collector_paused():
            return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
