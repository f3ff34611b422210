"""read_regular: a path a user named is read only when it is a regular file (never blocks)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from atlas_assets.core.files import NotARegularFile, TooLarge, read_regular


def test_fifos_devices_and_folders_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # no writer: a plain open() would block for ever
    for path, says in [(fifo, "a FIFO (named pipe)"), (Path("/dev/zero"), "a character device"), (tmp_path, "a directory")]:
        with pytest.raises(NotARegularFile) as caught:
            read_regular(path)
        assert caught.value.strerror == f"{says}, not a regular file" and caught.value.filename == str(path)
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "nope")


def test_a_regular_file_is_read_whole_or_up_to_its_limit(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert read_regular(path) == b"x" * 10 and read_regular(path, limit=10) == b"x" * 10
    with pytest.raises(TooLarge, match="10 bytes is more than the limit of 9 bytes"):
        read_regular(path, limit=9)


def test_atlas_translation_validate_refuses_a_fifo_instead_of_hanging(tmp_path):
    fifo = tmp_path / "corpus.json"
    os.mkfifo(fifo)
    atlas = Path(sys.executable).with_name("atlas")
    done = subprocess.run([str(atlas), "translation", "validate", str(fifo)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and f"ERROR {fifo}: file: cannot read: a FIFO (named pipe), not a regular file" in done.stderr
