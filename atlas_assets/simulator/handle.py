"""Starting and stopping a simulator from Python: `start_simulator(...) -> SimulatorHandle`.

In-thread (default): the server runs on its own uvloop event loop in a daemon thread of
the calling process; it starts in milliseconds (the corpus index is built once per
process) and `request_log()` reads the server's memory. Tests use this.

In a child process (`process=True`): `python -m atlas_assets.simulator ... --port 0 --log
FILE` is started and its first stdout line is the base URL; the server then has its own
interpreter (its own core, no shared GIL with the client) and `request_log()` reads the log
file. Benchmarks use this, and so does anything that kills and restarts the client.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import threading
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, Mapping, Sequence

from atlas_assets.corpus.registry import DEFAULT_DATASETS_ROOT
from atlas_assets.simulator.index import corpus_index
from atlas_assets.simulator.profiles import SimulatorProfile, resolve_profile
from atlas_assets.simulator.server import LoggedRequest, SimulatorApp, bind, build_server, run, url_of

__all__ = ["SimulatorHandle", "read_request_log", "start_simulator"]

STARTUP_TIMEOUT_S = 60.0


def read_request_log(path: str | Path) -> list[LoggedRequest]:
    """The requests recorded in a simulator's --log file, in arrival order."""
    entries = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                record = json.loads(line)
                entries.append(LoggedRequest(record["row_id"], record["body_sha256"], record["outcome"]))
    return entries


class SimulatorHandle(ABC):
    """A running simulator. Use as a context manager, or call `stop()`."""

    def __init__(self, profile: SimulatorProfile, base_url: str) -> None:
        self.profile = profile
        self.base_url = base_url  # e.g. http://127.0.0.1:PORT/v1

    @property
    def model(self) -> str:
        return self.profile.model

    @abstractmethod
    def request_log(self) -> list[LoggedRequest]:
        """Every chat request received so far: (row_id or None, sha256 of the body, outcome)."""

    @abstractmethod
    def stop(self) -> None:
        """Stop serving (idempotent)."""

    def __enter__(self) -> "SimulatorHandle":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _ThreadHandle(SimulatorHandle):
    def __init__(
        self,
        profile: SimulatorProfile,
        host: str,
        port: int,
        datasets_root: Path,
        log_path: Path | None,
        translation_corpora: Sequence[str | Path] | None = None,
    ) -> None:
        self._app = SimulatorApp(profile, corpus_index(datasets_root), log_path, translation_corpora=translation_corpora)
        sock = bind(host, port)
        super().__init__(profile, url_of(sock))
        self._server = build_server(self._app)
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._serve, args=(sock,), name=f"atlas-simulator-{profile.name}", daemon=True)
        self._thread.start()
        while not self._server.started and self._thread.is_alive():
            self._thread.join(0.005)
        if not self._server.started:
            raise RuntimeError(f"the simulator did not start: {self._failure!r}")

    def _serve(self, sock: socket.socket) -> None:
        try:
            run(self._server, sock)
        except BaseException as exc:  # named in the constructor's error when startup fails
            self._failure = exc
        finally:
            sock.close()

    def request_log(self) -> list[LoggedRequest]:
        return list(self._app.log)

    def stop(self) -> None:
        if self._thread.is_alive():
            self._server.should_exit = True
            self._thread.join()
        self._app.close()


class _ProcessHandle(SimulatorHandle):
    def __init__(self, profile: SimulatorProfile, host: str, port: int, datasets_root: Path, log_path: Path | None) -> None:
        self._scratch = tempfile.TemporaryDirectory(prefix="atlas-sim-")
        scratch = Path(self._scratch.name)
        self.log_path = log_path if log_path is not None else scratch / "requests.jsonl"
        spec = scratch / f"{profile.name}.json"  # exactly this profile, whatever engines.yaml says
        spec.write_text(profile.model_dump_json(), encoding="utf-8")
        command = [
            sys.executable, "-m", "atlas_assets.simulator",
            "--profile", str(spec), "--host", host, "--port", str(port),
            "--log", str(self.log_path), "--datasets", str(datasets_root),
        ]  # fmt: skip
        self._process = subprocess.Popen(command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        assert self._process.stdout is not None
        timer = threading.Timer(STARTUP_TIMEOUT_S, self._process.kill)
        timer.start()
        try:
            first_line = self._process.stdout.readline().strip()
        finally:
            timer.cancel()
        if not first_line.startswith("http"):
            self._process.kill()
            self._process.wait()
            self._scratch.cleanup()
            raise RuntimeError(f"the simulator process did not start (exit code {self._process.returncode})")
        super().__init__(profile, first_line)

    @property
    def pid(self) -> int:
        return self._process.pid

    def request_log(self) -> list[LoggedRequest]:
        return read_request_log(self.log_path) if self.log_path.exists() else []

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()
        self._scratch.cleanup()


def start_simulator(
    profile: SimulatorProfile | Mapping[str, Any] | str,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    datasets_root: str | Path = DEFAULT_DATASETS_ROOT,
    log_path: str | Path | None = None,
    process: bool = False,
    translation_corpora: Sequence[str | Path] | None = None,
) -> SimulatorHandle:
    """Start a simulator and return once it accepts connections.

    `profile` is a SimulatorProfile, a preset name (or a profile file path), or an
    engines-file `simulator:` block (a mapping). `port=0` picks a free port; the handle's
    `base_url` says which. `log_path` also appends every request to a JSONL file.
    `process=True` runs it as a child process (see the module docstring).
    `translation_corpora`: translation corpus files it answers translation prompts from
    (simulator/translation.py; default: the translation folder). In-thread only.
    """
    if isinstance(profile, str):
        profile = resolve_profile(profile)
    elif not isinstance(profile, SimulatorProfile):
        profile = SimulatorProfile.from_block(profile)
    root = Path(datasets_root).resolve()
    log = Path(log_path) if log_path is not None else None
    if process:
        return _ProcessHandle(profile, host, port, root, log)
    return _ThreadHandle(profile, host, port, root, log, translation_corpora)
