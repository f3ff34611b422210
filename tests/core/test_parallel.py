"""core.parallel.bounded_map: ordered, bounded in flight, and quick to stop."""

from __future__ import annotations

import itertools
import random
import threading
import time

import pytest

from atlas_assets.core.parallel import bounded_map


def test_results_come_in_item_order_whatever_the_finishing_order():
    delays = random.Random(3).choices([0.0, 0.001, 0.005], k=300)

    def slow_square(index: int) -> int:
        time.sleep(delays[index])
        return index * index

    assert list(bounded_map(slow_square, range(300), workers=4)) == [index * index for index in range(300)]


def test_an_endless_input_is_pulled_only_a_window_ahead_of_the_consumer():
    """ThreadPoolExecutor.map would submit the whole (here endless) input before yielding."""
    pulled = 0

    def endless():
        nonlocal pulled
        for item in itertools.count():
            pulled += 1
            yield item

    results = bounded_map(lambda item: item + 1, endless(), workers=2, window=5)
    for consumed, value in enumerate(itertools.islice(results, 200), start=1):
        assert value == consumed
        assert pulled <= consumed + 5, "more calls queued than the window"
    results.close()


def test_an_error_stops_the_queue_and_is_raised_as_itself():
    calls = 0
    lock = threading.Lock()

    def fails_at_ten(item: int) -> int:
        nonlocal calls
        with lock:
            calls += 1
        if item == 10:
            raise LookupError("item 10")
        return item

    with pytest.raises(LookupError, match="item 10"):
        list(bounded_map(fails_at_ten, range(1_000_000), workers=2, window=8))
    assert calls < 30, f"{calls} calls: the queue went on after the error"


def test_a_consumer_that_stops_early_leaves_no_running_threads():
    before = threading.active_count()
    started = []

    def slow(item: int) -> int:
        started.append(item)
        time.sleep(0.01)
        return item

    results = bounded_map(slow, range(10_000), workers=3)
    assert next(results) == 0
    results.close()  # what a KeyboardInterrupt in the consumer's loop does to the generator
    assert threading.active_count() == before
    assert len(started) <= 1 + 12, "queued calls ran after the consumer stopped"


@pytest.mark.parametrize("kwargs", [{"workers": 0}, {"workers": 2, "window": 0}])
def test_bad_sizes_are_refused(kwargs):
    with pytest.raises(ValueError, match="must be >= 1"):
        list(bounded_map(str, [1], **kwargs))
