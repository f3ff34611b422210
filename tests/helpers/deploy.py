"""Shared helpers of tests/deploy (test modules import these; fixtures stay in conftest.py)."""

from __future__ import annotations

import os
import pwd
import re
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from glob import glob
from pathlib import Path
from typing import Mapping, Sequence

import pytest

POSTGRES_GLOB = "/usr/lib/postgresql/*/bin"


INSTALL_HINT = "install Debian's PostgreSQL server: apt-get install -y --no-install-recommends postgresql (.ci/run does this)"


START_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return f"({path} unreadable)"
    return "\n".join(text.splitlines()[-lines:])


@dataclass
class Service:
    """A child process in its own session (process group), output in a log file."""

    name: str
    process: subprocess.Popen
    log: Path

    def alive(self) -> bool:
        return self.process.poll() is None

    def describe(self) -> str:
        state = "running" if self.alive() else f"exited with {self.process.returncode}"
        return f"--- {self.name} (pid {self.process.pid}, {state}), last lines of {self.log}:\n{tail(self.log)}"

    def send(self, sig: int) -> None:
        """Signal the whole process group: the process and whatever it started."""
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            pass


def start_service(
    name: str, command: Sequence[str], env: Mapping[str, str], log: Path, *, cwd: Path | None = None, stdout_pipe: bool = False
) -> Service:
    handle = open(log, "ab")
    process = subprocess.Popen(
        list(command),
        env=dict(env),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE if stdout_pipe else handle,
        stderr=handle,
        start_new_session=True,
    )
    handle.close()
    return Service(name, process, log)


class Services:
    """Children started by one test; stopped in reverse order of starting."""

    def __init__(self) -> None:
        self.started: list[Service] = []

    def start(self, *args, **kwargs) -> Service:
        service = start_service(*args, **kwargs)
        self.started.append(service)
        return service

    def describe(self) -> str:
        return "\n".join(s.describe() for s in self.started)

    def stop_all(self, timeout: float = 15.0) -> None:
        """SIGTERM to every group at once (newest first), then SIGKILL to what is left."""
        for service in reversed(self.started):
            service.send(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for service in reversed(self.started):
            try:
                service.process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            service.send(signal.SIGKILL)  # stragglers of the group, if any
            service.process.wait()
            if service.process.stdout is not None:
                service.process.stdout.close()


def postgres_bin() -> Path:
    """The newest /usr/lib/postgresql/<version>/bin that has initdb and postgres."""

    def version(path: str) -> tuple[int, ...]:
        match = re.search(r"/postgresql/([0-9.]+)/bin", path)
        return tuple(int(p) for p in match.group(1).split(".") if p) if match else (0,)

    found = [
        Path(p) for p in sorted(glob(POSTGRES_GLOB), key=version) if (Path(p) / "initdb").is_file() and (Path(p) / "postgres").is_file()
    ]
    if not found:
        pytest.fail(f"no PostgreSQL server binaries (initdb, postgres) under {POSTGRES_GLOB}: {INSTALL_HINT}", pytrace=False)
    return found[-1]


@dataclass
class Postgres:
    host: str
    port: int
    user: str
    database: str
    log: Path

    def connect(self, database: str | None = None):
        import psycopg2

        return psycopg2.connect(host=self.host, port=self.port, user=self.user, dbname=database or self.database, connect_timeout=5)


def _unprivileged() -> dict:
    """Popen arguments that run a PostgreSQL binary as `nobody` when we are root."""
    if os.geteuid() != 0:
        return {}
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.fail("running as root, and there is no `nobody` user to run initdb/postgres as (they refuse root)", pytrace=False)
    return {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}


def _owned_tmpdir(as_user: dict) -> Path:
    # Not pytest's tmp_path: its parents are private to root, and `nobody` must reach the folder.
    folder = Path(tempfile.mkdtemp(prefix="atlas-pg-"))
    if as_user:
        os.chown(folder, as_user["user"], as_user["group"])
    return folder


def _stop_postgres(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGINT)  # "fast" shutdown: disconnect clients, stop
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    try:  # its background workers, if the postmaster went first
        os.killpg(server.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
