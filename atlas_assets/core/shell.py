"""The shell every command line shares (`atlas`, `humaneval-ratings`, `autobench`): help
that teaches, one exit-code table, and errors that reach the user as one line.

    0    done
    1    a problem with what was given: a file, an option, a dump, a corpus, an engine
         that cannot be reached (the message names the option, file, line and field)
    2    usage (a missing or malformed option); autobench: an incomplete generation, as
         its spec fixes, so its usage errors are 64
    70   an internal error (a bug: please report it with the ATLAS_DEBUG=1 traceback)
    130  interrupted (Ctrl-C or SIGTERM); what was finished is kept
    141  the reader of the output went away (`... | head`), silently

`guarded(prog, body)` runs a command's body under that table: an AtlasError (core/errors.py)
or an OSError is one `<prog>: error: ...` line, Ctrl-C or SIGTERM one `<prog>: interrupted` line, and
any other exception one `<prog>: internal error: ...` line; with ATLAS_DEBUG=1 in the
environment the traceback is printed as well. `HelpFormatter` keeps descriptions and
epilogs as written and marks required options "(required)".
"""

from __future__ import annotations

import argparse
import os
import signal
import stat
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, Callable

from atlas_assets.core.errors import AtlasError

__all__ = [
    "DEBUG_VARIABLE",
    "EXIT_INPUT",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_PIPE",
    "EXIT_STATUS_HELP",
    "EXIT_USAGE",
    "DefaultsHelpFormatter",
    "HelpFormatter",
    "Parser",
    "OptionError",
    "guarded",
    "input_file",
    "output_file",
    "positive_int",
    "resumable_interruption",
    "whole_number",
]

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_PIPE = 0, 1, 2, 70, 130, 141
DEBUG_VARIABLE = "ATLAS_DEBUG"

EXIT_STATUS_HELP = f"""\
exit status (every command): 0 done; 1 a problem with what was given (the message names the
option, file, line and field); 2 usage; 70 an internal error (a bug); 130 interrupted (what
was finished is kept); 141 the output's reader went away. No traceback unless {DEBUG_VARIABLE}=1.
"""


class OptionError(AtlasError):
    """A file or folder an option names cannot be used; the message starts with the option."""


def input_file(option: str, path: Path) -> Path:
    """`path` when it is a readable regular file; OptionError naming `option` otherwise
    (missing, a folder, a FIFO or device: those would block or never end)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise OptionError(f"{option}: no such file: {path}") from None
    except OSError as exc:
        raise OptionError(f"{option}: {path}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise OptionError(f"{option}: {path} is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise OptionError(f"{option}: {path} is a device, FIFO or socket, not a regular file")
    return path


def output_file(option: str, path: Path) -> Path:
    """`path` when a regular file can be written there (atomically: a new file replaces it);
    OptionError naming `option` for a folder, a symbolic link, a device, or a file standing
    where a folder above it must be."""
    if path.is_symlink():
        raise OptionError(f"{option}: {path} is a symbolic link; give the path of the file itself (a link is never replaced)")
    if path.is_dir():
        raise OptionError(f"{option}: {path} is a folder, not a file")
    if path.exists() and not path.is_file():
        raise OptionError(f"{option}: {path} is a device, FIFO or socket, not a regular file")
    blocking = next((p for p in path.parents if p.exists()), None)
    if blocking is not None and not blocking.is_dir():
        raise OptionError(f"{option}: {blocking} is a file, so {path} cannot be created")
    return path


def whole_number(minimum: int = 0, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse `type` for a whole number in [minimum, maximum] (a bad one is a usage error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum or (maximum is not None and value > maximum):
            bounds = f"between {minimum} and {maximum}" if maximum is not None else f">= {minimum}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its messages
    return parse


positive_int = whole_number(1)  # the argparse type of a count, a limit, a concurrency


def resumable_interruption(done: int, total: int, unit: str) -> int:
    """Say on stderr that a resumable run stopped after `done` of `total` `unit`; EXIT_INTERRUPTED."""
    print(f"interrupted: {done}/{total} {unit} recorded; run the same command again to resume", file=sys.stderr)
    return EXIT_INTERRUPTED


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and epilogs as written (they hold examples and tables); a required
    option's help ends with "(required)"."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help
        if text is not None and action.required and action.option_strings and "(required)" not in text:
            text = f"{text} (required)"
        return text


class DefaultsHelpFormatter(HelpFormatter):
    """HelpFormatter plus "(default: X)" for options whose default means something (not
    None, not False, not already stated in the help)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        default = action.default
        if text is None or default in (None, False, argparse.SUPPRESS) or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: {default})"


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help is formatted by HelpFormatter unless told otherwise;
    its subcommands' parsers are Parsers too (argparse makes them of the parent's type)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


def _debug() -> bool:
    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


def guarded(prog: str, body: Callable[[], int], interrupted: str = "interrupted") -> int:
    """`body()`'s exit status, or the table's for what it raised (module docstring);
    `interrupted`: what to say after Ctrl-C or SIGTERM (e.g. that nothing was written)."""
    with _sigterm_as_ctrl_c():
        return _guarded(prog, body, interrupted)


@contextmanager
def _sigterm_as_ctrl_c() -> Iterator[None]:
    """SIGTERM (`kill`, a scheduler or a container stopping the command) takes Ctrl-C's path:
    the same clean stop, one line and exit 130, instead of dying where it stands (exit 143)
    and leaving worker processes behind. Only where SIGTERM still has its default action, on
    the main thread (the only one that may set handlers); the previous action is restored."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _raise_keyboard_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _guarded(prog: str, body: Callable[[], int], interrupted: str) -> int:
    try:
        return body()
    except KeyboardInterrupt:
        print(f"\n{prog}: {interrupted}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        try:  # the reader is gone: nothing more can be said to it, and Python must not try at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return EXIT_PIPE
    except AtlasError as exc:
        if _debug():
            traceback.print_exc()
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except OSError as exc:
        if _debug():
            traceback.print_exc()
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"{prog}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT
    except Exception as exc:  # noqa: BLE001 - the last line of defence: a bug, said in one line
        if _debug():
            traceback.print_exc()
        print(f"{prog}: internal error: {type(exc).__name__}: {exc} (set {DEBUG_VARIABLE}=1 for the traceback; please report it)",
              file=sys.stderr)  # fmt: skip
        return EXIT_INTERNAL
