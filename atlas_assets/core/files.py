"""Reading a file a user named, without being fooled by what it is.

A FIFO without a writer blocks a plain `open` for ever, `/dev/zero` never ends, and a
directory fails with a confusing error; `read_regular(path)` refuses all of them with an
OSError that says what the path is (checked before opening, and again on the open file
descriptor, which is opened non-blocking), and caps what it reads.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["NotARegularFile", "TooLarge", "kind_of", "read_regular"]

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
)


class NotARegularFile(OSError):
    """The path is a directory, a device, a FIFO or a socket; `strerror` says which."""


class TooLarge(OSError):
    """The file holds more than the caller's limit."""


def kind_of(mode: int) -> str:
    """What a non-regular st_mode is, for a message: "a FIFO (named pipe)", ..."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_regular(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file `path` (at most `limit` bytes when given).
    NotARegularFile / TooLarge / the usual OSError otherwise; never blocks on a FIFO."""
    path = Path(path)
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotARegularFile(0, f"{kind_of(mode)}, not a regular file", str(path))
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):  # replaced between the check and the open
            raise NotARegularFile(0, f"{kind_of(info.st_mode)}, not a regular file", str(path))
        if limit is not None and info.st_size > limit:
            raise TooLarge(0, f"{info.st_size} bytes is more than the limit of {limit} bytes", str(path))
        data = handle.read() if limit is None else handle.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise TooLarge(0, f"more than the limit of {limit} bytes", str(path))
    return data
