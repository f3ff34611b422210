"""The real `humaneval-ratings` command in a subprocess: spec section 7 and the CLI contract."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from atlas_assets.core.hashing import sha256_file
from tests.helpers.signals import ctrl_c_not_ignored

BATTLES = """\
{"kind": "battles", "schema_version": 1, "generated_at": "2026-08-23T04:00:00Z", "categories": ["chat-writing"]}
{"battle_id": "1", "category_slug": "chat-writing", "model_a": "gpt-alpha", "model_b": "claude-beta", "created_at": "2026-08-22T10:00:00Z", "normalization_mode": "rendered", "response_a": "## Plan\\n\\n- step one\\n- step two", "response_b": "Do step one, then step two."}
{"battle_id": "2", "category_slug": "chat-writing", "model_a": "claude-beta", "model_b": "gpt-alpha", "created_at": "2026-08-22T11:00:00Z", "normalization_mode": "raw", "response_a": "Short answer.", "response_b": "A considerably longer answer with more detail."}
"""

VOTES = """\
{"kind": "votes", "schema_version": 1, "generated_at": "2026-08-23T04:00:00Z"}
{"vote_id": "10", "battle_id": "1", "voter_id": "v_a1", "choice": "win_a", "created_at": "2026-08-22T10:05:00Z", "weight": 1.0}
{"vote_id": "11", "battle_id": "1", "voter_id": "v_b2", "choice": "tie", "created_at": "2026-08-22T10:06:00Z", "weight": 0.5}
{"vote_id": "12", "battle_id": "2", "voter_id": "v_a1", "choice": "win_b", "created_at": "2026-08-22T11:09:00Z", "weight": 1.0}
"""


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "atlas_assets.ratings.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONHASHSEED": "random"},
        timeout=300,
    )


@pytest.fixture
def worked_example(tmp_path: Path) -> tuple[Path, Path]:
    battles, votes = tmp_path / "battles.jsonl", tmp_path / "votes.jsonl"
    battles.write_text(BATTLES, encoding="utf-8")
    votes.write_text(VOTES, encoding="utf-8")
    return battles, votes


def compute(battles: Path, votes: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_cli("compute", "--battles", str(battles), "--votes", str(votes), "--out", str(out), *extra)


def test_worked_example_of_spec_section_7(worked_example, tmp_path):
    battles, votes = worked_example
    out = tmp_path / "leaderboard.json"
    result = compute(battles, votes, out, "--seed", "42")
    assert result.returncode == 0, result.stderr
    document = json.loads(out.read_text())
    meta = document["metadata"]
    assert meta["package"] == "humaneval-ratings"
    assert meta["dump_schema_version"] == 1
    assert meta["dump_generated_at"] == "2026-08-23T04:00:00Z"
    assert (meta["seed"], meta["bootstrap_rounds"], meta["min_votes"], meta["style_min_votes"]) == (42, 100, 30, 50)
    assert meta["input_digests"] == {"battles_sha256": sha256_file(battles), "votes_sha256": sha256_file(votes)}
    [category] = document["categories"]
    assert category["category"] == "chat-writing"
    assert category["vote_count"] == 3
    assert category["style_control"] is False
    assert category["style_coefficients"] is None
    first, second = category["entries"]
    assert (first["model"], first["order"], second["model"], second["order"]) == ("gpt-alpha", 1, "claude-beta", 2)
    for entry in category["entries"]:
        assert entry["provisional"] is True and entry["rank"] is None
        assert entry["vote_count"] == 3
        assert entry["rating_style_controlled"] == entry["rating"]
        assert (entry["ci_low_sc"], entry["ci_high_sc"]) == (entry["ci_low"], entry["ci_high"])
    assert first["rating"] > 1000 > second["rating"]
    assert round(first["rating"] + second["rating"], 3) == 2000.0


def test_output_is_byte_identical_across_processes_and_verifies(worked_example, tmp_path):
    battles, votes = worked_example
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert compute(battles, votes, first).returncode == 0
    assert compute(battles, votes, second).returncode == 0
    data = first.read_bytes()
    assert data == second.read_bytes()
    assert data.endswith(b"}\n") and not data.endswith(b"\n\n")
    data.decode("ascii")
    result = run_cli("verify", "--battles", str(battles), "--votes", str(votes), "--leaderboard", str(first))
    assert result.returncode == 0, result.stderr
    assert "reproduces byte for byte" in result.stdout


def test_verify_names_the_first_differing_field(worked_example, tmp_path):
    battles, votes = worked_example
    out = tmp_path / "leaderboard.json"
    assert compute(battles, votes, out).returncode == 0
    text = out.read_text()
    document = json.loads(text)
    ci_high = document["categories"][0]["entries"][1]["ci_high"]
    tampered = text.replace(f'"ci_high": {ci_high:.4f}', f'"ci_high": {ci_high + 0.0001:.4f}', 1)
    assert tampered != text
    out.write_text(tampered)
    result = run_cli("verify", "--battles", str(battles), "--votes", str(votes), "--leaderboard", str(out))
    assert result.returncode == 1
    assert "categories[0].entries[1].ci_high" in result.stderr


def test_verify_reports_a_changed_dump_by_its_digest(worked_example, tmp_path):
    battles, votes = worked_example
    out = tmp_path / "leaderboard.json"
    assert compute(battles, votes, out).returncode == 0
    votes.write_text(VOTES.replace('"weight": 0.5', '"weight": 0.25'))
    result = run_cli("verify", "--battles", str(battles), "--votes", str(votes), "--leaderboard", str(out))
    assert result.returncode == 1
    assert "metadata.input_digests.votes_sha256" in result.stderr


def test_rejected_dump_writes_nothing_and_keeps_an_existing_output(worked_example, tmp_path):
    battles, votes = worked_example
    out = tmp_path / "leaderboard.json"
    out.write_bytes(b"previous leaderboard\n")
    votes.write_text(VOTES.replace('"weight": 1.0}\n{"vote_id": "11"', '"weight": true}\n{"vote_id": "11"'))
    result = compute(battles, votes, out)
    assert result.returncode == 1
    assert "votes.jsonl:2" in result.stderr and "weight" in result.stderr
    assert out.read_bytes() == b"previous leaderboard\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["battles.jsonl", "leaderboard.json", "votes.jsonl"]


def test_parameters_change_the_numbers_and_are_recorded(worked_example, tmp_path):
    battles, votes = worked_example
    default, other = tmp_path / "a.json", tmp_path / "b.json"
    assert compute(battles, votes, default).returncode == 0
    assert compute(battles, votes, other, "--seed", "7", "--bootstrap-rounds", "20", "--min-votes", "2").returncode == 0
    meta = json.loads(other.read_text())["metadata"]
    assert (meta["seed"], meta["bootstrap_rounds"], meta["min_votes"]) == (7, 20, 2)
    entries = json.loads(other.read_text())["categories"][0]["entries"]
    assert all(e["provisional"] is False for e in entries)
    # gpt-alpha's published ci_low lies above claude-beta's ci_high: two separate bands.
    assert entries[0]["ci_low"] > entries[1]["ci_high"]
    assert [(e["model"], e["rank"]) for e in entries] == [("gpt-alpha", 1), ("claude-beta", 2)]
    assert default.read_bytes() != other.read_bytes()


def test_help_teaches_and_bad_usage_exits_2(tmp_path):
    result = run_cli("compute", "--help")
    assert result.returncode == 0
    for flag in ("--battles", "--votes", "--out", "--seed", "--bootstrap-rounds", "--min-votes", "--style-min-votes"):
        assert flag in result.stdout
    bad = run_cli("compute", "--battles", "b", "--votes", "v", "--out", "o", "--bootstrap-rounds", "0")
    assert bad.returncode == 2 and "bootstrap-rounds" in bad.stderr


def test_missing_input_file_is_a_clear_error(tmp_path):
    result = compute(tmp_path / "nope.jsonl", tmp_path / "nope2.jsonl", tmp_path / "out.json")
    assert result.returncode == 1
    assert result.stderr == f"humaneval-ratings: error: --battles: no such file: {tmp_path / 'nope.jsonl'}\n"
    assert not (tmp_path / "out.json").exists()
    fifo = tmp_path / "votes.fifo"
    os.mkfifo(fifo)  # no writer: reading it would block for ever
    battles = tmp_path / "battles.jsonl"
    battles.write_text("")
    result = compute(battles, fifo, tmp_path / "out.json")
    assert result.returncode == 1 and "--votes: " in result.stderr and "FIFO" in result.stderr


# --------------------------------------------------------------------------- hard edges (#16)


@pytest.mark.parametrize("weight", ["1e50", "1e308", "1000.5"])
def test_a_vote_above_the_weight_cap_is_rejected_before_fitting_naming_its_line(worked_example, tmp_path, weight):
    """Spec-valid but beyond the engine's numeric range: one line naming file:line:field,
    never a linear-algebra error, nothing written."""
    battles, votes = worked_example
    votes.write_text(VOTES.replace('"weight": 0.5', f'"weight": {weight}'))
    out = tmp_path / "leaderboard.json"
    result = compute(battles, votes, out, "--quiet")
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"{votes}:3: field 'weight'" in result.stderr and "above 1000" in result.stderr
    assert not out.exists()


def test_weights_at_the_cap_and_tiny_weights_are_fitted(worked_example, tmp_path):
    battles, votes = worked_example
    text = VOTES.replace('"weight": 0.5', '"weight": 1000').replace(
        '"weight": 1.0}\n{"vote_id": "11"', '"weight": 5e-324}\n{"vote_id": "11"'
    )
    assert "1000}" in text and "5e-324}" in text
    votes.write_text(text)
    result = compute(battles, votes, tmp_path / "leaderboard.json")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("kind", ["symlink", "device", "folder"])
def test_out_that_is_a_link_a_device_or_a_folder_is_refused_naming_out(worked_example, tmp_path, kind):
    battles, votes = worked_example
    if kind == "symlink":
        target = tmp_path / "real.json"
        target.write_bytes(b"the link's target\n")
        out = tmp_path / "link.json"
        out.symlink_to(target)
    elif kind == "device":
        out = Path(os.devnull)
    else:
        out = tmp_path / "folder"
        out.mkdir()
    result = compute(battles, votes, out)
    assert result.returncode == 1
    assert f"humaneval-ratings: error: --out: {out} is a" in result.stderr and "Traceback" not in result.stderr
    if kind == "symlink":
        assert out.is_symlink() and (tmp_path / "real.json").read_bytes() == b"the link's target\n"
    elif kind == "device":
        assert Path(os.devnull).is_char_device()
    else:
        assert list(out.iterdir()) == []


def test_bootstrap_rounds_has_a_documented_cap(worked_example, tmp_path):
    battles, votes = worked_example
    help_text = run_cli("compute", "--help").stdout + run_cli("--help").stdout
    assert "100000" in help_text
    over = compute(battles, votes, tmp_path / "o.json", "--bootstrap-rounds", "100001")
    assert over.returncode == 2 and "between 1 and 100000" in over.stderr


def _verify(battles: Path, votes: Path, leaderboard: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("verify", "--battles", str(battles), "--votes", str(votes), "--leaderboard", str(leaderboard), "--quiet")


def test_verify_does_not_trust_the_file_it_checks(worked_example, tmp_path):
    battles, votes = worked_example
    good = tmp_path / "leaderboard.json"
    assert compute(battles, votes, good).returncode == 0
    text = good.read_text()

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    rounds = tmp_path / "rounds.json"
    rounds.write_text(text.replace('"bootstrap_rounds": 100,', '"bootstrap_rounds": 10000000,', 1))
    nested = tmp_path / "nested.json"
    start = text.index('"input_digests": {')
    nested.write_text(text[:start] + '"input_digests": ' + "[" * 1000 + "]" * 1000 + text[text.index("}", start) + 1 :])
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    expected = {
        deep: "depth limit exceeded",
        rounds: "bootstrap-rounds must be at most 100000, got 10000000",
        nested: "metadata.input_digests: recomputed {",
        fifo: "not a regular file",
        Path("/dev/zero"): "not a regular file",
    }
    for path, message in expected.items():
        result = _verify(battles, votes, path)
        assert result.returncode == 1, (path, result.stderr)
        assert message in result.stderr and "Traceback" not in result.stderr, (path, result.stderr)
        assert result.stderr.count("\n") == 1, result.stderr


def test_ctrl_c_exits_130_with_one_line_and_writes_nothing(tmp_path):
    """A real SIGINT to the process group (what a terminal's Ctrl-C sends) in the middle of
    the bootstrap: exit 130 within seconds, one line, no traceback, no --out."""
    import pty
    import select
    import signal
    import time

    from atlas_assets.ratings import sample

    sample.generate_dump(tmp_path, n_votes=3000, n_models=14, seed=11)
    out = tmp_path / "leaderboard.json"
    leader, follower = pty.openpty()  # a terminal on stderr, so progress shows when the bootstrap starts
    command = [
        sys.executable,
        "-m",
        "atlas_assets.ratings.cli",
        "compute",
        "--battles",
        str(tmp_path / "battles.jsonl"),
        "--votes",
        str(tmp_path / "votes.jsonl"),
        "--out",
        str(out),
        "--bootstrap-rounds",
        "100000",
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=follower, start_new_session=True, preexec_fn=ctrl_c_not_ignored)
    os.close(follower)

    def read(until: bytes | None, timeout: float) -> bytes:
        seen, deadline = b"", time.monotonic() + timeout
        while (until is None or until not in seen) and time.monotonic() < deadline:
            if select.select([leader], [], [], 0.5)[0]:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                seen += chunk
        return seen

    try:
        # The last category's line comes just before the bootstrap's first round.
        assert b"category 4 of 4 (chat-writing)" in read(b"category 4 of 4 (chat-writing)", 120)
        os.killpg(process.pid, signal.SIGINT)
        interrupted = time.monotonic()
        assert process.wait(timeout=60) == 130
        assert time.monotonic() - interrupted < 10
        rest = read(None, 2).decode()
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)
    lines = [line for line in rest.replace("\x1b[K", "").replace("\r", "\n").split("\n") if line.strip()]
    assert lines == ["humaneval-ratings: interrupted, nothing was written"], rest
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["battles.jsonl", "truth.json", "votes.jsonl"]


def test_a_redirected_stderr_gets_plain_progress_lines_and_quiet_none(worked_example, tmp_path):
    battles, votes = worked_example
    said = compute(battles, votes, tmp_path / "a.json").stderr.splitlines()
    assert said[0].startswith("reading battles.jsonl: ") and any(line.startswith("bootstrap: ") for line in said)
    assert said[-1].startswith("wrote ") and not any("\r" in line or "\x1b" in line for line in said)
    assert compute(battles, votes, tmp_path / "b.json", "--quiet").stderr == ""


def test_repeated_key_is_rejected_with_file_line_field(worked_example, tmp_path):
    battles, votes = worked_example
    lines = votes.read_text().splitlines()
    lines[2] = lines[2].replace('"weight": 0.5', '"weight": -5, "weight": 0.75')
    votes.write_text("\n".join(lines) + "\n")
    out = tmp_path / "leaderboard.json"
    result = compute(battles, votes, out)
    assert result.returncode == 1
    assert f"{votes}:3: field 'weight': the key appears twice in one object" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_devices_and_fifos_are_refused_without_reading(worked_example, tmp_path, kind):
    battles, _ = worked_example
    if kind == "device":
        votes = Path("/dev/zero")
    else:
        votes = tmp_path / "votes.fifo"
        os.mkfifo(votes)  # no writer: opening it for reading would block forever
    out = tmp_path / "leaderboard.json"
    result = compute(battles, votes, out)  # run_cli's timeout fails the test if it hangs
    assert result.returncode == 1
    assert f"humaneval-ratings: error: --votes: {votes} is a device, FIFO or socket, not a regular file" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_over_long_line_is_a_bounded_clear_error(worked_example, tmp_path):
    from atlas_assets.ratings.dump import MAX_LINE_BYTES

    battles, votes = worked_example
    with open(votes, "ab") as handle:
        handle.write(b'{"vote_id": "' + b"9" * MAX_LINE_BYTES + b'"}')  # and no LF: one endless line
    out = tmp_path / "leaderboard.json"
    result = compute(battles, votes, out)
    assert result.returncode == 1
    assert f"{votes}:5: line longer than 16 MiB" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_sigterm_mid_bootstrap_exits_130_with_one_line_and_writes_nothing(tmp_path):
    """`kill PID` (a scheduler, a container stopping) while the bootstrap runs: Ctrl-C's clean
    stop, not a death by signal (exit 143) with half the work still running."""
    import signal
    import time

    from atlas_assets.ratings import sample

    sample.generate_dump(tmp_path, n_votes=3000, n_models=14, seed=11)
    out = tmp_path / "leaderboard.json"
    command = [sys.executable, "-m", "atlas_assets.ratings.cli", "compute", "--battles", str(tmp_path / "battles.jsonl")]
    command += ["--votes", str(tmp_path / "votes.jsonl"), "--out", str(out), "--bootstrap-rounds", "100000"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if line.startswith("category 4 of 4"):
                break
        else:
            raise AssertionError("no category lines: the bootstrap never started")
        process.send_signal(signal.SIGTERM)
        terminated = time.monotonic()
        assert process.wait(timeout=60) == 130
        assert time.monotonic() - terminated < 10
        rest = [line for line in process.stderr.read().split("\n") if line.strip()]
    finally:
        if process.poll() is None:
            process.kill()
    assert rest == ["humaneval-ratings: interrupted, nothing was written"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["battles.jsonl", "truth.json", "votes.jsonl"]  # no --out, no temp file
