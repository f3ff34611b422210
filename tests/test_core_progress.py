"""core.progress: rate-limited lines, lazily built, and the counters' line."""

from __future__ import annotations

from atlas_assets.core.progress import Counts, ProgressLog, format_duration


def test_a_lazy_line_is_built_only_when_it_is_emitted(fake_clock):
    clock, lines, built = fake_clock, [], []

    def line(text):
        return lambda: built.append(text) or text

    log = ProgressLog(lines.append, every_seconds=10, clock=clock)
    assert log.log("s", line("opening"))
    clock.now = 4
    assert not log.log("s", line("too soon"))
    clock.now = 10
    assert log.log("s", line("due"))
    clock.now = 11
    assert log.log("s", line("final"), final=True)
    assert lines == built == ["opening", "due", "final"]


class Segments(Counts):
    unit = "segments"
    rate_unit = "segments/s"


def test_counts_say_rate_and_eta_once_something_was_sent_and_how_the_run_ended(fake_clock):
    clock = fake_clock
    counts = Segments(total=100, resumed=20, done=20, clock=clock)
    assert counts.line("c on e", score="chrF++ so far 50.0") == "c on e: 20/100 segments (0 failed, 20 resumed) · chrF++ so far 50.0"
    clock.now = 8.0
    counts.done, counts.failed = 60, 2
    assert counts.line("c on e") == "c on e: 60/100 segments (2 failed, 20 resumed) · 5.0 segments/s · ETA 8 s"
    assert (
        counts.line("c on e", final=True)
        == "c on e: 60/100 segments (2 failed, 20 resumed) · 5.0 segments/s · stopped after 8 s: run again to resume"
    )
    clock.now, counts.done = 196.0, 100
    assert counts.line("c on e", final=True) == "c on e: 100/100 segments (2 failed, 20 resumed) · 0.4 segments/s · done in 3 min 16 s"


def test_durations():
    assert [format_duration(s) for s in (None, 0.4, 59.6, 61, 3725)] == ["?", "0 s", "1 min 00 s", "1 min 01 s", "1 h 02 min"]
