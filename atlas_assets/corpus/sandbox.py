"""Run a model-written Python program against a code_exec row's tests.

Two sides, and the tests never cross to the untrusted one:

* **the sandbox** (sandbox_server.py): one ``python -I -S -B`` interpreter that forks
  into a namespace supervisor and the candidate process. The candidate runs the program
  alone (as module ``solution``, so a ``__main__`` block does not run) and then answers
  requests on a pipe: look a name up, call it, get an attribute, iterate, ...
* **the judge** (judge.py, in this process): executes the tests here, with the names they
  need from the program bound to the values and opaque proxies the sandbox returns. Only
  plain values cross back, strictly decoded; candidate objects are never asked ``==``,
  ``bool()`` or ``hash()``. The verdict is the judge's: every test statement ran without
  exception. Nothing the candidate prints, writes to any fd, exits with or registers with
  ``atexit`` can make a pass (there is no token to forge: no success signal comes from
  the sandbox at all).

`SandboxResult.mode` (and `sandbox_mode()` for the platform) says what else holds:

* ``"isolated"`` -- Linux namespaces (net, mount, PID, IPC, UTS; user when not root): the
  candidate sees a new root holding only read-only binds of the Python runtime
  (``sys.base_prefix``), /usr/lib(64) with the /lib links and /etc/ld.so.cache, plus a
  size-limited scratch tmpfs at /tmp (/scratch when the runtime lives under /tmp); the
  project checkout and the corpus were verified absent; no /proc, no /dev. An empty network namespace plus a seccomp filter make
  socket(), socketpair() and io_uring_setup() fail with EPERM (no TCP, UDP, IPv6, Unix
  socket of any kind). It runs as a throw-away uid (or with every capability dropped in
  the user namespace) under ``PR_SET_NO_NEW_PRIVS``; when it ends, the PID namespace ends
  and with it every process the program started, daemonised or not.
* ``"contained"`` -- whatever of the above failed (see `isolation`): still rlimits (CPU,
  address space, processes, file size, open files, no core), the judge's per-request and
  total deadlines (the sandbox is killed at the deadline), a scrubbed environment, the
  interpreter in isolated mode (standard library only), a scratch working directory, the
  throw-away uid when the harness is root, and the seccomp filter where it installs. NOT
  guaranteed: the program may read the host's files (the corpus included) and, without
  seccomp, reach the network; without a PID namespace a child that calls setsid() can
  outlive the item unless the harness is root (then the throw-away uid is swept).

Verdict integrity holds in both modes. ``ATLAS_SANDBOX_CONTAINED=1`` forces the weaker
mode (no namespaces, no seccomp), for tests and for platforms where probing misbehaves.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import IO

from pydantic import BaseModel, ConfigDict, Field

from atlas_assets.corpus import sandbox_server
from atlas_assets.corpus.judge import Channel, Judge, SandboxLost

__all__ = ["SandboxLimits", "SandboxResult", "probe_isolation", "run_python", "sandbox_mode"]

_SERVER_SOURCE = Path(sandbox_server.__file__).read_text(encoding="utf-8")
_REPO = Path(__file__).resolve().parents[2]
_UID_BASE = 1_500_000


class SandboxLimits(BaseModel):
    model_config = ConfigDict(frozen=True)

    wall_seconds: float = Field(10.0, gt=0, description="deadline for the whole item (start, program, every test call)")
    call_seconds: float | None = Field(
        None, gt=0, description="deadline of one request (the program's load, one call); None: the whole budget"
    )
    cpu_seconds: int = Field(5, ge=1, description="RLIMIT_CPU of the program")
    memory_bytes: int = Field(512 * 2**20, ge=32 * 2**20, description="RLIMIT_AS of each process")
    max_processes: int = Field(32, ge=1, description="RLIMIT_NPROC (effective for non-root uids)")
    max_file_bytes: int = Field(8 * 2**20, ge=0, description="RLIMIT_FSIZE: largest file it may write")
    scratch_bytes: int = Field(32 * 2**20, ge=2**20, description="size of the scratch tmpfs")
    max_open_files: int = Field(64, ge=16, description="RLIMIT_NOFILE")
    capture_bytes: int = Field(16 * 1024, ge=0, description="stdout/stderr kept in the result")


class SandboxResult(BaseModel):
    passed: bool
    mode: str = Field("contained", description='"isolated" or "contained" (see the module docstring)')
    exit_code: int | None = Field(None, description="the sandbox's exit status if it ended before the verdict")
    timed_out: bool = False
    wall_seconds: float
    stdout: str = ""
    stderr: str = Field("", description="the program's stderr, then one `judge: ...` line when it failed")
    isolation: dict[str, str] = Field(default_factory=dict)
    failure: str | None = Field(None, description="why the judge failed the item")
    error: str | None = Field(None, description="the sandbox could not run the item at all")


def _forced_contained() -> bool:
    return os.environ.get("ATLAS_SANDBOX_CONTAINED", "") not in ("", "0")


def _runtime_view() -> tuple[list[str], list[tuple[str, str]], str | None]:
    """What the new root shows: (read-only bind sources, symlinks, problem). The problem is
    set when the project or the corpus would be under a bind (then no new root)."""
    binds = [os.path.realpath(sys.base_prefix)]
    links: list[tuple[str, str]] = []
    for path in ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/etc/ld.so.cache"):
        if os.path.islink(path) and not path.startswith("/usr"):
            links.append((path, os.readlink(path)))
        elif os.path.exists(path):
            binds.append(os.path.realpath(path))
    binds = sorted(set(binds))
    for hidden in _hidden_paths():
        for source in binds:
            if hidden == source or hidden.startswith(source.rstrip("/") + "/"):
                return binds, links, f"{hidden} would be visible under the bind of {source}"
    return binds, links, None


def _hidden_paths() -> list[str]:
    paths = {str(_REPO), str(_REPO / "datasets"), os.path.realpath(_REPO), os.path.realpath(_REPO / "datasets")}
    return sorted(paths)


def _mode(report: dict[str, str]) -> str:
    ok = (
        report.get("pid_namespace") == "yes"
        and report.get("filesystem", "").startswith("new root")
        and report.get("seccomp", "").startswith("active")
        and not report.get("privileges", "unchanged").startswith("unchanged")
    )
    return "isolated" if ok else "contained"


def _kill_uid(uid: int) -> None:
    """Kill every process still running as the throw-away uid (the no-namespace fallback).
    kill(1), not Python: the uid may not be able to reach the interpreter (under /root)."""
    killer = shutil.which("kill", path="/usr/bin:/bin")
    if killer is None:
        return
    try:
        subprocess.run(
            [killer, "-KILL", "-1"],
            user=uid,
            group=uid,
            extra_groups=[],
            env={},
            timeout=5,
            check=False,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        pass


@functools.lru_cache(maxsize=2)
def _probe(contained: bool) -> SandboxResult:
    return run_python("", "", SandboxLimits(wall_seconds=10))


def probe_isolation() -> dict[str, str]:
    """What this platform's sandbox achieves (the `isolation` of one trivial run, cached)."""
    return dict(_probe(_forced_contained()).isolation)


def sandbox_mode() -> str:
    """ "isolated" or "contained" on this platform (cached); warns once when not isolated."""
    probe = _probe(_forced_contained())
    if probe.mode != "isolated":
        _warn_once(probe.mode, json.dumps(probe.isolation, sort_keys=True))
    return probe.mode


@functools.lru_cache(maxsize=4)
def _warn_once(mode: str, isolation: str) -> None:
    warnings.warn(
        f"code_exec sandbox runs in {mode!r} mode (no filesystem/network isolation guarantee): {isolation}", RuntimeWarning, stacklevel=3
    )


def _head(handle: IO[bytes], limit: int) -> str:
    handle.seek(0)
    return handle.read(limit).decode("utf-8", "replace")


def run_python(
    program: str,
    tests: str,
    limits: SandboxLimits | None = None,
    *,
    require_isolation: bool = False,
) -> SandboxResult:
    """Load `program` in the sandbox and judge `tests` against it; passed iff every test
    statement ran without exception (see the module docstring)."""
    limits = limits or SandboxLimits()
    if os.name != "posix":
        return SandboxResult(passed=False, wall_seconds=0.0, error="code_exec needs a POSIX system (rlimits)")
    if require_isolation and sandbox_mode() != "isolated":
        return SandboxResult(
            passed=False,
            wall_seconds=0.0,
            isolation=probe_isolation(),
            error=f"sandbox isolation unavailable on this platform: {probe_isolation()}",
        )
    start = time.perf_counter()
    contained = _forced_contained()
    binds, links, problem = _runtime_view()
    base = Path(tempfile.mkdtemp(prefix="atlas-sandbox-"))
    drop_uid = _UID_BASE + secrets.randbelow(1_000_000) if os.geteuid() == 0 else None
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    proc = None
    report: dict[str, str] = {}
    try:
        os.chmod(base, 0o755)
        (base / "root").mkdir()
        (base / "scratch").mkdir(mode=0o755)
        cfg = {
            "namespaces": not contained and problem is None,
            "seccomp": not contained,
            "root": str(base / "root"),
            "binds": binds,
            "links": links,
            "hidden": _hidden_paths() + [str(base)],
            "scratch": str(base / "scratch"),
            "drop_uid": drop_uid,
            "host_uid": os.getuid(),
            "host_gid": os.getgid(),
            **limits.model_dump(exclude={"call_seconds", "capture_bytes"}),
        }
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            proc = subprocess.Popen(
                [os.path.realpath(sys.executable), "-I", "-S", "-B", "-c", _SERVER_SOURCE, str(req_r), str(rep_w)],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                pass_fds=(req_r, rep_w),
                env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"},
                cwd=str(base),
                start_new_session=True,
            )
            os.close(req_r)
            os.close(rep_w)
            req_r = rep_w = -1
            channel = Channel(req_w, rep_r)
            setup_deadline = time.monotonic() + limits.wall_seconds
            error = None
            try:
                channel.send(cfg, setup_deadline)
                hello = channel.recv(setup_deadline)
                if not (isinstance(hello, list) and len(hello) == 2 and hello[0] == "hello" and isinstance(hello[1], dict)):
                    raise SandboxLost("no hello from the sandbox")
                report = {str(k): str(v) for k, v in hello[1].items()}
            except SandboxLost as exc:
                error = f"sandbox setup failed ({exc})"
            if problem is not None:
                report["filesystem"] = f"NOT isolated: {problem}"
            mode = _mode(report)
            report["mode"] = mode
            verdict = None
            if error is None and require_isolation and mode != "isolated":
                error = f"sandbox isolation unavailable: {report}"
            if error is None:
                elapsed = time.perf_counter() - start
                total = max(limits.wall_seconds - elapsed, 0.001)
                judge = Judge(channel, call_seconds=limits.call_seconds or total, total_seconds=total)
                verdict = judge.run(program, tests)
            exit_code = proc.poll()
            _stop(proc, drop_uid if report.get("pid_namespace") != "yes" else None)
            stderr = _head(err, limits.capture_bytes)
            if error is not None:
                stderr_tail = stderr.strip().splitlines()[-1:] or [""]
                error = f"{error}: {stderr_tail[0][:300]}" if stderr_tail[0] else error
            elif verdict is not None and not verdict.passed:  # a verdict whenever there is no error
                stderr = stderr + ("\n" if stderr and not stderr.endswith("\n") else "") + f"judge: {verdict.failure}\n"
            return SandboxResult(
                passed=error is None and verdict is not None and verdict.passed,
                mode=mode,
                exit_code=exit_code,
                timed_out=verdict is not None and verdict.timed_out,
                wall_seconds=round(time.perf_counter() - start, 4),
                stdout=_head(out, limits.capture_bytes),
                stderr=stderr,
                isolation=report,
                failure=None if verdict is None else verdict.failure,
                error=error,
            )
    finally:
        if proc is not None and proc.returncode is None:
            _stop(proc, drop_uid)
        for fd in (req_r, req_w, rep_r, rep_w):
            if fd >= 0:
                os.close(fd)
        shutil.rmtree(base, ignore_errors=True)


def _stop(proc: subprocess.Popen[bytes], sweep_uid: int | None) -> None:
    """Kill the sandbox: its process group (A; B follows by PDEATHSIG and takes the PID
    namespace with it) and, without a PID namespace, every process of the throw-away uid."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    if sweep_uid is not None:
        _kill_uid(sweep_uid)
