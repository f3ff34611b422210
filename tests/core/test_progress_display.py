"""The one progress display: a bar on a terminal (drawn once the total is known), plain
lines when not a terminal, nothing when quiet."""

from __future__ import annotations

import io
import time

from atlas_assets.core.progress import ProgressDisplay
from atlas_assets.evals.runner import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_bar_with_rows_failures_accuracy_rate_and_eta():
    progress = Progress(total=10, done=4, failed=1, correct=3, scored=4)
    stream = Terminal()
    with ProgressDisplay(stream) as display:
        display.track(progress, "w @ e")
    frames = [f for f in stream.getvalue().split("\r\x1b[K") if f]
    last = frames[-1]
    assert last.endswith("\n") and last.startswith("w @ e [")  # the last frame stays
    assert "4/10 rows" in last and "1 failed" in last and "accuracy so far 75.0 %" in last and "req/s" in last and "ETA" in last


def test_no_frame_before_the_real_total():
    """No "0/0" while the run loads its rows; a run that never learnt its total leaves nothing."""
    progress, stream = Progress(), Terminal()
    with ProgressDisplay(stream) as display:
        display.track(progress, "w @ e")
        time.sleep(0.35)  # several refreshes with the total unknown
        assert stream.getvalue() == ""
        progress.total = 7
        time.sleep(0.25)
    frames = [f for f in stream.getvalue().split("\r\x1b[K") if f]
    assert frames and all("/7 rows" in f for f in frames) and not any("0/0" in f for f in frames)
    empty = Terminal()
    with ProgressDisplay(empty) as display:
        display.track(Progress(), "w @ e")
    assert empty.getvalue() == ""


def test_not_a_terminal_gets_plain_lines_and_quiet_gets_nothing():
    progress = Progress(total=3)
    stream = io.StringIO()  # not a terminal: a log file, CI
    with ProgressDisplay(stream, every_seconds=3600) as display:
        display.track(progress, "w @ e")
        time.sleep(0.25)
        progress.done = 3
        stages = display.log()
        stages.log("stage", "reading: 1 of 2", final=False)
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue() and "\x1b" not in stream.getvalue()
    assert lines[0].startswith("w @ e: 0/3 rows") and lines[-1].startswith("w @ e: 3/3 rows") and "done in" in lines[-1]
    assert "reading: 1 of 2" in lines  # a stage's first line is said at once
    assert len(lines) == 3  # and nothing in between: the interval is an hour
    quiet = Terminal()
    with ProgressDisplay(quiet, quiet=True) as display:
        display.track(progress, "w @ e")
        display.log().log("stage", "x", final=True)
    assert quiet.getvalue() == ""


def test_stage_lines_replace_each_other_on_a_terminal_and_are_cleared():
    stream = Terminal()
    with ProgressDisplay(stream) as display:
        log = display.log()
        log.log("a", "reading: 10 %", final=True)
        log.log("b", "fitting", final=True)
    assert stream.getvalue() == "\r\x1b[Kreading: 10 %\r\x1b[Kfitting\r\x1b[K"
