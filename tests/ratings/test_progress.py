"""Leaderboard progress lines: units, lines that move, the final line, unchanged bytes."""

from __future__ import annotations

import io
import re
import sys

from atlas_assets.core.progress import ProgressLog
from atlas_assets.ratings import cli, sample
from atlas_assets.ratings.leaderboard import ComputeParams, compute_leaderboard
from atlas_assets.ratings.progress import LeaderboardProgress


def reporter(clock) -> tuple[LeaderboardProgress, list[str]]:
    lines: list[str] = []
    return LeaderboardProgress(ProgressLog(lines.append, 10.0, clock), clock), lines


def test_reading_lines_carry_byte_units_percent_rate_and_end_with_the_whole_file(fake_clock):
    clock = fake_clock
    progress, lines = reporter(clock)
    for done in range(12_000_000, 120_000_001, 12_000_000):
        clock.now += 4.0
        progress.read("battles.jsonl", done, 120_000_000)
    assert lines[0] == "reading battles.jsonl: 12.0 of 120.0 MB (10 %) · 3.0 MB/s · ETA 36 s"
    assert lines[-1] == "reading battles.jsonl: 120.0 of 120.0 MB (100 %) in 40 s"
    assert 2 < len(lines) < 10  # rate-limited in between, not one line per range
    progress.read("votes.jsonl", 800, 1_500)  # a small file reads in kB; its clock starts anew
    assert lines[-1].startswith("reading votes.jsonl: 0.8 of 1.5 kB (53 %)")


def test_bootstrap_is_one_stage_across_categories_whose_count_moves_and_ends(fake_clock):
    clock = fake_clock
    progress, lines = reporter(clock)
    progress.fitting(1_204_113, ["chat-coding", "chat-writing"], 50)
    assert lines == ["votes read: 1,204,113 in 2 categories · 50 bootstrap rounds each"]
    progress.category("chat-writing", 58, 5_915, True)
    assert lines[-1] == "category 2 of 2 (chat-writing): fitting 58 models on 5,915 votes, style control on"
    for k in range(1, 51):  # the two categories' rounds interleave, as in the threads
        for slug in ("chat-coding", "chat-writing"):
            clock.now += 0.5
            progress.bootstrap(slug, k, 50)
    rounds = [line for line in lines if line.startswith("bootstrap:")]
    counts = [int(re.match(r"bootstrap: (\d+) of 100 rounds across 2 categories", line)[1]) for line in rounds]
    assert counts[0] == 1 and counts[-1] == 100
    assert counts == sorted(set(counts)) and len(counts) > 3  # the line updates, k increases
    assert rounds[1] == "bootstrap: 21 of 100 rounds across 2 categories (21 %) · 2.0 rounds/s · ETA 40 s"
    assert rounds[-1] == "bootstrap: 100 of 100 rounds across 2 categories (100 %) in 50 s"
    progress.finished()
    assert lines[-1] == "leaderboard: 2 categories rated in 50 s"


def test_compute_leaderboard_reports_every_stage_without_changing_a_byte(tmp_path):
    sample.generate_dump(tmp_path, n_votes=2000, n_models=10, seed=3)
    battles, votes = tmp_path / "battles.jsonl", tmp_path / "votes.jsonl"
    params = ComputeParams(bootstrap_rounds=20)
    lines: list[str] = []
    reported = compute_leaderboard(battles, votes, params, progress=ProgressLog(lines.append, every_seconds=3600))
    assert reported == compute_leaderboard(battles, votes, params)
    assert re.fullmatch(r"reading battles\.jsonl: [\d.]+ of [\d.]+ (kB|MB) \(100 %\) in .+", lines[0])
    assert lines[1].startswith("reading votes.jsonl: ") and "(100 %)" in lines[1]
    categories = int(re.match(r"votes read: 2,000 in (\d+) categories · 20 bootstrap rounds each", lines[2])[1])
    assert sum(line.startswith("category ") for line in lines) == categories
    assert f"bootstrap: {20 * categories} of {20 * categories} rounds" in lines[-2]
    assert lines[-1].startswith(f"leaderboard: {categories} categories rated in ")


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_cli_draws_one_status_line_on_a_terminal_and_clears_it(tmp_path, monkeypatch):
    sample.generate_dump(tmp_path, n_votes=500, n_models=6, seed=4)
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert (
        cli.main(
            [
                "compute",
                "--battles",
                str(tmp_path / "battles.jsonl"),
                "--votes",
                str(tmp_path / "votes.jsonl"),
                "--out",
                str(tmp_path / "lb.json"),
                "--bootstrap-rounds",
                "5",
            ]
        )
        == 0
    )
    drawn = terminal.getvalue().split("\r\x1b[K")
    assert drawn[1].startswith("reading battles.jsonl: ")
    assert any(line.startswith("bootstrap: ") and " rounds across " in line for line in drawn)
    assert drawn[-2].startswith("leaderboard: ")  # the final line is drawn...
    assert drawn[-1].startswith("wrote ")  # ...and cleared before the summary
