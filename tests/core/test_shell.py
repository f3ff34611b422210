"""The shared command-line shell: one exit-code table, one-line errors, tracebacks only
with ATLAS_DEBUG=1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from atlas_assets.core.errors import AtlasError
from atlas_assets.core.shell import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    OptionError,
    guarded,
    input_file,
    output_file,
)


def _raise(exc: BaseException):
    def body() -> int:
        raise exc

    return body


@pytest.mark.parametrize(
    "exc, status, line",
    [
        (
            AtlasError("--votes: v.jsonl:3: field 'weight': must be > 0"),
            EXIT_INPUT,
            "prog: error: --votes: v.jsonl:3: field 'weight': must be > 0",
        ),
        (FileNotFoundError(2, "No such file or directory", "/nope"), EXIT_INPUT, "prog: error: /nope: No such file or directory"),
        (KeyboardInterrupt(), EXIT_INTERRUPTED, "prog: interrupted"),
        (ZeroDivisionError("division by zero"), EXIT_INTERNAL, "prog: internal error: ZeroDivisionError: division by zero"),
    ],
)
def test_each_kind_of_failure_is_one_line_and_its_exit_status(exc, status, line, capsys, monkeypatch):
    monkeypatch.delenv("ATLAS_DEBUG", raising=False)
    assert guarded("prog", _raise(exc)) == status
    err = capsys.readouterr().err
    assert [text for text in err.splitlines() if text] == [line if status != EXIT_INTERNAL else err.strip()]
    assert err.strip().startswith(line) and "Traceback" not in err


def test_atlas_debug_prints_the_traceback_too(capsys, monkeypatch):
    monkeypatch.setenv("ATLAS_DEBUG", "1")
    assert guarded("prog", _raise(ZeroDivisionError("boom"))) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and err.rstrip().splitlines()[-1].startswith(
        "prog: internal error: ZeroDivisionError: boom"
    )
    assert guarded("prog", lambda: EXIT_OK) == EXIT_OK


def test_files_an_option_names_are_checked_before_use(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    for path, says in [(tmp_path / "nope", "no such file"), (tmp_path / "dir", "is a folder"), (fifo, "FIFO")]:
        with pytest.raises(OptionError, match=f"^--in: .*{says}"):
            input_file("--in", path)
    assert input_file("--in", tmp_path / "file") == tmp_path / "file"
    for path, says in [(tmp_path / "dir", "is a folder"), (tmp_path / "link", "symbolic link"), (Path(os.devnull), "device"),
                       (tmp_path / "file" / "below", "is a file, so")]:  # fmt: skip
        with pytest.raises(OptionError, match=f"^--out: .*{says}"):
            output_file("--out", path)
    assert output_file("--out", tmp_path / "new.json") == tmp_path / "new.json"


def test_a_reader_that_goes_away_ends_the_command_quietly():
    """`... | head -1` on a command with more output than a pipe holds: exit 141, no
    'Broken pipe' message, no traceback (Python's own at-exit flush included)."""
    code = "import sys; from atlas_assets.core.shell import guarded; sys.exit(guarded('prog', lambda: [print('x' * 99) for _ in range(100_000)] and 0))"
    script = f"'{sys.executable}' -c \"{code}\" | head -1; exit ${{PIPESTATUS[0]}}"
    done = subprocess.run(script, shell=True, executable="/bin/bash", capture_output=True, text=True, timeout=120)
    assert done.stdout == "x" * 99 + "\n" and done.stderr == "" and done.returncode == 141


def test_sigterm_takes_the_ctrl_c_path_and_the_default_action_comes_back_afterwards():
    """`kill PID` (or a scheduler stopping the command) mid-body: the same one line and exit
    130 as Ctrl-C, the body's cleanup runs (a finally block), and once guarded returns,
    SIGTERM has its default action again."""
    code = (
        "import os, signal, sys, time\n"
        "from atlas_assets.core.shell import guarded\n"
        "def body():\n"
        "    try:\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "        time.sleep(30)\n"
        "        return 0\n"
        "    finally:\n"
        "        print('cleaned up')\n"
        "status = guarded('prog', body)\n"
        "print(status, signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["cleaned up", f"{EXIT_INTERRUPTED} True"]
    assert done.stderr.strip() == "prog: interrupted"


def test_a_sigterm_handler_the_command_installed_itself_is_left_alone():
    code = (
        "import os, signal\n"
        "from atlas_assets.core.shell import guarded\n"
        "seen = []\n"
        "signal.signal(signal.SIGTERM, lambda *_: seen.append('own'))\n"
        "status = guarded('prog', lambda: os.kill(os.getpid(), signal.SIGTERM) or 0)\n"
        "print(status, seen)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "0 ['own']", "")
