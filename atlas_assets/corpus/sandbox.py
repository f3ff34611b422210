"""Run model-written Python against a row's tests in a sandboxed subprocess.

The layers, each applied where the platform allows it and reported per run in
`SandboxResult.isolation`:

* **Linux namespaces** (``unshare(2)`` via ctypes; a user namespace is added when not
  root): a new network namespace (no interfaces up: no network, not even loopback to the
  host), a new PID namespace whose init is our supervisor (when it exits the kernel kills
  every process left inside, so a fork bomb or a daemonised child cannot outlive the
  item), a fresh ``/proc`` (the parent's processes and their environments are invisible),
  and a private mount namespace where every mount is remounted read-only except the
  scratch directory, which is a fresh size-limited tmpfs.
* **An unprivileged uid** when the harness runs as root: the code runs as a throw-away uid
  (no groups, ``PR_SET_NO_NEW_PRIVS``), so ``RLIMIT_NPROC`` actually applies (root is
  exempt from it) and file permissions apply.
* **rlimits**: CPU seconds (``RLIMIT_CPU``), address space (``RLIMIT_AS``), processes
  (``RLIMIT_NPROC``), file size (``RLIMIT_FSIZE``), open files, no core dumps.
* **wall time**: the parent kills the whole process group at the deadline, and the
  supervisor's own ``alarm()`` ends the PID namespace even if the parent died.
* **a scrubbed environment**: only PATH, HOME/TMPDIR (the scratch dir), a UTF-8 locale and
  PYTHONHASHSEED; the interpreter runs with ``-I -S`` (no user site, no site-packages, no
  PYTHON* variables), so only the standard library is importable.

Without namespaces (non-Linux, or no user namespaces for a non-root user) the code still
runs under the rlimits, the wall-time kill, the scrubbed environment and a scratch working
directory, but network and filesystem isolation are *not* available; `isolation` says so
and `require_isolation=True` refuses to run in that case.

Contract of a code_exec row: ``tests`` is Python source executed after the program, in the
same namespace (the program runs with ``__name__ == "solution"``, so a ``__main__`` block
does not run); the item passes when both run to completion (an ``assert`` failing, any
exception, ``sys.exit``/``os._exit`` before the end, a limit or the deadline is a fail).
Containment, not score integrity against code written to game the harness, is the goal.
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
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["SandboxLimits", "SandboxResult", "is_isolated", "probe_isolation", "run_python"]


class SandboxLimits(BaseModel):
    model_config = ConfigDict(frozen=True)

    wall_seconds: float = Field(10.0, gt=0, description="deadline for the whole run")
    cpu_seconds: int = Field(5, ge=1, description="RLIMIT_CPU of the program")
    memory_bytes: int = Field(512 * 2**20, ge=32 * 2**20, description="RLIMIT_AS of each process")
    max_processes: int = Field(32, ge=1, description="RLIMIT_NPROC (effective for non-root uids)")
    max_file_bytes: int = Field(8 * 2**20, ge=0, description="RLIMIT_FSIZE: largest file it may write")
    scratch_bytes: int = Field(32 * 2**20, ge=2**20, description="size of the scratch tmpfs")
    max_open_files: int = Field(64, ge=16, description="RLIMIT_NOFILE")
    capture_bytes: int = Field(16 * 1024, ge=0, description="stdout/stderr kept in the result")


class SandboxResult(BaseModel):
    passed: bool
    exit_code: int | None = None
    timed_out: bool = False
    wall_seconds: float
    stdout: str = ""
    stderr: str = ""
    isolation: dict[str, str] = Field(default_factory=dict)
    error: str | None = None


# The supervisor: runs as the harness user, sets up namespaces, then forks the init of the
# PID namespace, which mounts, applies limits, drops the uid and executes the runner.
_SUPERVISOR = r'''
import ctypes, json, os, resource, signal, sys
cfg = json.loads(sys.stdin.read())
report = {}
def say(**kw):
    report.update(kw)
out_fd = os.open(cfg["out"] + "/stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
err_fd = os.open(cfg["out"] + "/stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
done_fd = os.open(cfg["out"] + "/done", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
NEWNS, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET = 0x20000, 0x4000000, 0x8000000, 0x10000000, 0x20000000, 0x40000000
try:
    libc = ctypes.CDLL(None, use_errno=True)
    unshare = libc.unshare
except (OSError, AttributeError):
    libc = unshare = None
root = os.geteuid() == 0
ns = False
if unshare is not None and sys.platform.startswith("linux"):
    flags = NEWNS | NEWNET | NEWPID | NEWIPC | NEWUTS | (0 if root else NEWUSER)
    if unshare(flags) == 0:
        ns = True
        if not root:
            uid, gid = cfg["host_uid"], cfg["host_gid"]
            with open("/proc/self/setgroups", "w") as f: f.write("deny")
            with open("/proc/self/uid_map", "w") as f: f.write(f"0 {uid} 1")
            with open("/proc/self/gid_map", "w") as f: f.write(f"0 {gid} 1")
    else:
        say(namespace_error=os.strerror(ctypes.get_errno()))
say(network="isolated (empty network namespace)" if ns else "NOT isolated (no namespaces)",
    pid_namespace="yes" if ns else "no")

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_NOATIME, MS_NODIRATIME, MS_BIND, MS_REC, MS_PRIVATE = 1024, 2048, 4096, 16384, 1 << 18
MS_RELATIME, MS_STRICTATIME = 1 << 21, 1 << 24
_OPT = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC, "noatime": MS_NOATIME,
        "nodiratime": MS_NODIRATIME, "relatime": MS_RELATIME, "strictatime": MS_STRICTATIME}

def mount(src, target, fstype, flags, data):
    enc = lambda s: None if s is None else s.encode()
    if libc.mount(enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)) != 0:
        return os.strerror(ctypes.get_errno())
    return None

def unescape(path):
    return path.encode().decode("unicode_escape") if "\\" in path else path

def setup_mounts(scratch, drop_uid):
    if mount("none", "/", None, MS_REC | MS_PRIVATE, None):
        return "private propagation failed"
    opts = f"size={cfg['scratch_bytes']},mode=0700"
    if drop_uid is not None:
        opts += f",uid={drop_uid},gid={drop_uid}"
    err = mount("tmpfs", scratch, "tmpfs", MS_NOSUID | MS_NODEV, opts)
    if err:
        return f"scratch tmpfs failed: {err}"
    python = cfg["python"]
    if drop_uid is not None and cfg["py_prefix"]:
        # The interpreter may live where the throw-away uid cannot reach (e.g. under a
        # 0700 /root): show it to the sandbox through a read-only bind mount.
        err = mount(cfg["py_prefix"], cfg["py_mount"], None, MS_BIND | MS_REC, None)
        if not err:
            python = cfg["py_mount"] + "/" + cfg["py_rel"]
            cfg["env"]["LD_LIBRARY_PATH"] = cfg["py_mount"] + "/lib"
    cfg["python"] = python
    failed = []
    with open("/proc/self/mountinfo") as f:
        entries = [line.split() for line in f]
    for fields in entries:
        point, per_mount = unescape(fields[4]), fields[5].split(",")
        if point == scratch or "ro" in per_mount:
            continue
        flags = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID
        for opt in per_mount:
            flags |= _OPT.get(opt, 0)
        if mount(None, point, None, flags, None):
            failed.append(point)
    if failed:
        return "read-only remount failed for " + ", ".join(failed[:5])
    return None

def init():
    # PID 1 of the sandbox (or a plain child without namespaces).
    if libc is not None and sys.platform.startswith("linux"):
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    signal.signal(signal.SIGALRM, lambda *a: os._exit(137))
    signal.alarm(int(cfg["wall_seconds"]) + 2)
    scratch = cfg["scratch"]
    drop = cfg["drop_uid"] if root else None
    if ns:
        err = setup_mounts(scratch, drop)
        say(filesystem=("read-only except a fresh scratch tmpfs" if not err else f"PARTIAL: {err}"))
        err = mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
        say(proc=("private /proc" if not err else f"host /proc ({err})"))
    else:
        if drop is not None:
            os.chown(scratch, drop, drop)
        say(filesystem="NOT isolated: scratch working directory only")
    say(uid=(f"dropped to {drop}" if drop is not None else "unchanged (not root)"))
    os.write(2, (json.dumps(report) + "\n").encode())
    child = os.fork()
    if child == 0:
        stage = "limits"
        report_fd = os.dup(2)
        os.set_inheritable(report_fd, False)
        try:
            if ns:
                os.setsid()  # without a PID namespace, stay in the group the parent kills
            for res, value in ((resource.RLIMIT_CPU, (cfg["cpu_seconds"], cfg["cpu_seconds"] + 1)),
                               (resource.RLIMIT_AS, (cfg["memory_bytes"],) * 2),
                               (resource.RLIMIT_NPROC, (cfg["max_processes"],) * 2),
                               (resource.RLIMIT_FSIZE, (cfg["max_file_bytes"],) * 2),
                               (resource.RLIMIT_NOFILE, (cfg["max_open_files"],) * 2),
                               (resource.RLIMIT_CORE, (0, 0))):
                resource.setrlimit(res, value)
            stage = "uid"
            if drop is not None:
                os.setgroups([])
                os.setresgid(drop, drop, drop)
                os.setresuid(drop, drop, drop)
            if libc is not None and sys.platform.startswith("linux"):
                libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
                libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG (reset by the uid change)
            stage = "chdir"
            os.chdir(scratch)
            stage = "exec"
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
            os.dup2(out_fd, 1)
            os.dup2(err_fd, 2)
            os.dup2(done_fd, 3)
            os.closerange(4, report_fd)
            os.closerange(report_fd + 1, 1 << 16)
            os.execve(cfg["python"], [cfg["python"], "-I", "-S", "-B", "-c", cfg["runner"], cfg["in"], cfg["nonce"]], cfg["env"])
        except BaseException as exc:
            os.write(report_fd, f"sandbox setup failed at {stage}: {exc!r}\n".encode())
        os._exit(126)
    code = 125
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        if pid == child:
            code = os.waitstatus_to_exitcode(status)
            code = 128 - code if code < 0 else code
            break
    os._exit(code)

if libc is not None and sys.platform.startswith("linux"):
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come back to us to be reaped
pid = os.fork()
if pid == 0:
    try:
        init()
    finally:
        os._exit(124)

def stop(signum, frame):
    # The parent's deadline: kill the sandbox's init (with a PID namespace that ends every
    # process inside) and stay alive to reap it, so nothing is left as a zombie.
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass

signal.signal(signal.SIGTERM, stop)
while True:
    try:
        done, status = os.waitpid(pid, 0)
        break
    except InterruptedError:
        continue
code = os.waitstatus_to_exitcode(status)
while True:  # reap whatever was re-parented to us
    try:
        if os.waitpid(-1, os.WNOHANG)[0] == 0:
            break
    except ChildProcessError:
        break
sys.exit(128 - code if code < 0 else code)
'''

# The runner: the only code that runs as the sandbox uid before the program.
_RUNNER = r'''
import os, sys
in_dir, nonce = sys.argv[1], sys.argv[2]
del sys.argv[1:]
with open(os.path.join(in_dir, "solution.py"), encoding="utf-8") as f:
    program = f.read()
with open(os.path.join(in_dir, "tests.py"), encoding="utf-8") as f:
    tests = f.read()
namespace = {"__name__": "solution", "__builtins__": __builtins__}
exec(compile(program, "solution.py", "exec"), namespace)
exec(compile(tests, "tests.py", "exec"), namespace)
sys.stdout.flush()
os.write(3, nonce.encode())
'''

_UID_BASE = 1_500_000


def _scrubbed_env(scratch: str) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": scratch,
        "TMPDIR": scratch,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
    }


def _read_head(path: Path, limit: int) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(limit).decode("utf-8", "replace")
    except OSError:
        return ""


def _kill_uid(uid: int) -> None:
    """Kill every process still running as the throw-away uid (the no-namespace fallback)."""
    try:
        subprocess.run(
            [sys.executable, "-I", "-S", "-c", "import os, signal\ntry:\n os.kill(-1, signal.SIGKILL)\nexcept OSError:\n pass"],
            user=uid, group=uid, extra_groups=[], env={}, timeout=5, check=False,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        pass


def is_isolated(isolation: dict[str, str]) -> bool:
    """Network and filesystem both isolated (namespaces worked)."""
    return isolation.get("network", "").startswith("isolated") and isolation.get("filesystem", "").startswith("read-only")


@functools.lru_cache(maxsize=1)
def probe_isolation() -> dict[str, str]:
    """What this platform's sandbox achieves, from one trivial run (cached per process)."""
    return dict(run_python("", "", SandboxLimits(wall_seconds=10)).isolation)


def run_python(
    program: str,
    tests: str,
    limits: SandboxLimits | None = None,
    *,
    require_isolation: bool = False,
) -> SandboxResult:
    """Execute `program` then `tests` in the sandbox; passed iff both ran to completion."""
    limits = limits or SandboxLimits()
    if os.name != "posix":
        return SandboxResult(passed=False, wall_seconds=0.0, error="code_exec needs a POSIX system (rlimits)")
    if require_isolation and not is_isolated(probe_isolation()):
        return SandboxResult(
            passed=False, wall_seconds=0.0, isolation=probe_isolation(),
            error=f"sandbox isolation unavailable on this platform: {probe_isolation()}",
        )
    start = time.perf_counter()
    base = Path(tempfile.mkdtemp(prefix="atlas-sandbox-"))
    root = os.geteuid() == 0
    drop_uid = _UID_BASE + secrets.randbelow(1_000_000) if root else None
    try:
        os.chmod(base, 0o755)
        in_dir, out_dir, scratch = base / "in", base / "out", base / "scratch"
        real_exe, py_prefix = os.path.realpath(sys.executable), os.path.realpath(sys.base_prefix)
        py_rel = os.path.relpath(real_exe, py_prefix)
        if py_rel.startswith(".."):
            py_prefix = py_rel = ""
        for folder in (in_dir, out_dir, scratch, base / "python"):
            folder.mkdir(mode=0o755)
        (in_dir / "solution.py").write_text(program, encoding="utf-8")
        (in_dir / "tests.py").write_text(tests, encoding="utf-8")
        nonce = secrets.token_hex(16)
        cfg = {
            "in": str(in_dir),
            "out": str(out_dir),
            "scratch": str(scratch),
            "nonce": nonce,
            "python": sys.executable,
            "py_prefix": py_prefix,
            "py_rel": py_rel,
            "py_mount": str(base / "python"),
            "runner": _RUNNER,
            "env": _scrubbed_env(str(scratch)),
            "drop_uid": drop_uid,
            "host_uid": os.getuid(),
            "host_gid": os.getgid(),
            "wall_seconds": limits.wall_seconds,
            "cpu_seconds": limits.cpu_seconds,
            "memory_bytes": limits.memory_bytes,
            "max_processes": limits.max_processes,
            "max_file_bytes": limits.max_file_bytes,
            "scratch_bytes": limits.scratch_bytes,
            "max_open_files": limits.max_open_files,
        }
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-B", "-c", _SUPERVISOR],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=_scrubbed_env(str(scratch)),
            cwd=str(base),
            start_new_session=True,
        )
        timed_out = False
        try:
            _, supervisor_err = proc.communicate(json.dumps(cfg).encode(), timeout=limits.wall_seconds)
        except subprocess.TimeoutExpired:
            timed_out = True
            proc.send_signal(signal.SIGTERM)  # the supervisor kills the sandbox and reaps it
            try:
                _, supervisor_err = proc.communicate(timeout=2)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                _, supervisor_err = proc.communicate()
        isolation: dict[str, str] = {}
        messages = []
        for line in supervisor_err.decode("utf-8", "replace").splitlines():
            if line.startswith("{"):
                try:
                    isolation.update(json.loads(line))
                    continue
                except ValueError:
                    pass
            messages.append(line)
        if not isolation.get("pid_namespace") == "yes" and drop_uid is not None:
            _kill_uid(drop_uid)
        done = _read_head(out_dir / "done", 64)
        error = None
        if require_isolation and not is_isolated(isolation):
            error = f"sandbox isolation unavailable: {isolation}"
        elif messages:
            error = "; ".join(messages)[:500]
        return SandboxResult(
            passed=(not timed_out and proc.returncode == 0 and done == nonce and error is None),
            exit_code=None if timed_out else proc.returncode,
            timed_out=timed_out,
            wall_seconds=round(time.perf_counter() - start, 4),
            stdout=_read_head(out_dir / "stdout", limits.capture_bytes),
            stderr=_read_head(out_dir / "stderr", limits.capture_bytes),
            isolation=isolation,
            error=error,
        )
    finally:
        shutil.rmtree(base, ignore_errors=True)
