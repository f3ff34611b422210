"""Fixtures for the team-deployment tests: a real PostgreSQL server on a free loopback port,
and long-running child processes (servers, the daemon) that are stopped at teardown.

PostgreSQL comes from Debian's `postgresql` package: the binaries are found by globbing
/usr/lib/postgresql/*/bin (the newest version wins). .ci/run installs the package when no
`initdb` is there. initdb and postgres refuse to run as root, so as root they run as the
unprivileged `nobody` user in a temporary folder that user owns. If the server cannot be
found or started, the test fails (never skips) and says why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from tests.helpers.deploy import (
    START_TIMEOUT_S,
    Postgres,
    Services,
    _owned_tmpdir,
    _stop_postgres,
    _unprivileged,
    free_port,
    postgres_bin,
    tail,
)


@pytest.fixture
def services():
    started = Services()
    try:
        yield started
    finally:
        started.stop_all()


@pytest.fixture(scope="module")
def postgres():
    """A PostgreSQL server on 127.0.0.1:<free port> (trust auth, superuser `postgres`) with an
    empty database `dagster`; stopped and deleted at teardown."""
    bindir = postgres_bin()
    as_user = _unprivileged()
    folder = _owned_tmpdir(as_user)
    data, sockets, log = folder / "data", folder / "sockets", folder / "postgres.log"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"}
    server: subprocess.Popen | None = None
    try:
        init = subprocess.run(
            [
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
                "--no-sync",
                "--no-instructions",
            ],
            env=env,
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=120,
            **as_user,
        )
        if init.returncode != 0:
            pytest.fail(f"initdb ({bindir}) failed with exit code {init.returncode}:\n{init.stdout}\n{init.stderr}", pytrace=False)
        sockets.mkdir()
        if as_user:
            os.chown(sockets, as_user["user"], as_user["group"])
        errors = []
        for _attempt in range(3):  # a free port can be taken between probing and binding
            port = free_port()
            with open(log, "ab") as handle:
                server = subprocess.Popen(
                    [
                        str(bindir / "postgres"),
                        "-D",
                        str(data),
                        "-c",
                        "listen_addresses=127.0.0.1",
                        "-p",
                        str(port),
                        "-k",
                        str(sockets),
                        "-c",
                        "fsync=off",
                        "-c",
                        "synchronous_commit=off",
                        "-c",
                        "full_page_writes=off",
                        "-c",
                        "max_connections=200",
                    ],
                    env=env,
                    cwd=folder,
                    stdin=subprocess.DEVNULL,
                    stdout=handle,
                    stderr=handle,
                    start_new_session=True,
                    **as_user,
                )
            pg = Postgres("127.0.0.1", port, "postgres", "dagster", log)
            deadline, last = time.monotonic() + START_TIMEOUT_S, None
            while server.poll() is None and time.monotonic() < deadline:
                try:
                    connection = pg.connect("postgres")
                except Exception as exc:  # psycopg2.OperationalError while it starts
                    last = exc
                    time.sleep(0.1)
                    continue
                connection.autocommit = True
                with connection.cursor() as cursor:
                    cursor.execute("CREATE DATABASE dagster")
                connection.close()
                break
            else:
                errors.append(
                    f"port {port}: {'exited with ' + str(server.returncode) if server.poll() is not None else 'no connection: ' + repr(last)}"
                )
                _stop_postgres(server)
                server = None
                continue
            break
        if server is None:
            pytest.fail(f"PostgreSQL ({bindir}/postgres) did not start: {'; '.join(errors)}\n{tail(log)}", pytrace=False)
        yield pg
    finally:
        if server is not None:
            _stop_postgres(server)
        shutil.rmtree(folder, ignore_errors=True)
