"""For tests that interrupt a child process the way a terminal does."""

from __future__ import annotations

import signal


def ctrl_c_not_ignored() -> None:
    """A Popen preexec_fn: the child starts with SIGINT at its default action.

    A launcher without job control (a script's background job, `cmd &`) starts its
    processes with SIGINT ignored, exec keeps an ignored signal ignored, and Python then
    installs no KeyboardInterrupt handler: a Ctrl-C test would prove nothing, or hang."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
