"""The code that runs inside the code_exec sandbox: boot, then a call server (stdlib only).

sandbox.py starts ``python -I -S -B -c <this source> <request fd> <reply fd>`` and sends
one config frame. This interpreter is never exec'd again; it forks:

* **A** (this process, outside every namespace): ``unshare`` (net, mount, PID, IPC, UTS,
  plus a user namespace when not root), forks B, waits for it. The harness kills A's
  process group at the end of the item; B dies with it (``PR_SET_PDEATHSIG``).
* **B** (PID 1 of the new PID namespace): builds the new root -- a tmpfs holding read-only
  bind mounts of the Python runtime and the system libraries only, plus a size-limited
  scratch tmpfs -- ``pivot_root``s into it, verifies the project is gone, forks C and
  waits for it. When B exits the kernel kills everything left in the namespace.
* **C** (the candidate): rlimits, throw-away uid (or all capabilities dropped inside the
  user namespace), ``PR_SET_NO_NEW_PRIVS``, a seccomp filter that fails socket(),
  socketpair() and io_uring_setup() with EPERM, then writes the ``hello`` frame (the
  isolation report; the first frame on the reply pipe, before any candidate code runs)
  and serves requests: ``load`` executes the program as module ``solution``; the others
  look names up, get/set attributes, call, iterate, index and measure candidate objects.

Nothing here decides a verdict: the judge (judge.py) runs the tests outside and treats
every reply as untrusted data. Wire format: frames with a 4-byte big-endian length; judge to sandbox
in marshal (trusted data), sandbox to judge in JSON (decoded strictly). A value is ``null``/``true``/``false`` or a tagged list -- ``["i", hex]`` int, ``["f",
float.hex]``, ``["c", re, im]``, ``["s", str]``, ``["b", base64]`` bytes, ``["l"|"t"|"S"|
"F", [items]]`` list/tuple/set/frozenset, ``["d", [[k, v], ...]]``, ``["h", id]`` an opaque
candidate object, ``["p", id, base]`` an instance of a subclass of a plain type (its
base-type value plus a handle), ``["j", id]`` an object of the judge's.
"""

from __future__ import annotations

import _json
import _signal as signal  # type: ignore[import-not-found]  # the C module (no stub): `signal` imports enum, 9 ms of startup
import binascii
import builtins
import ctypes
import fcntl
import marshal
import os
import resource
import struct
import sys
import types

TYPE_CHECKING = False  # `typing` is not imported at run time: it would add to the sandbox's startup
if TYPE_CHECKING:
    from typing import Any, Callable

MAX_FRAME = 16 * 2**20
MAX_DEPTH = 100
REQ_FD, REP_FD = 3, 4  # the candidate's request and reply pipes

_NEWNS, _NEWUTS, _NEWIPC, _NEWUSER, _NEWPID, _NEWNET = 0x20000, 0x4000000, 0x8000000, 0x10000000, 0x20000000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REMOUNT, _MS_BIND = 1, 2, 4, 8, 32, 4096
_MS_NOATIME, _MS_NODIRATIME, _MS_REC, _MS_PRIVATE, _MS_RELATIME = 1024, 2048, 16384, 1 << 18, 1 << 21
# statvfs f_flag bits that are locked on a bind mount made inside a user namespace
_ST_TO_MS = (
    (1, _MS_RDONLY),
    (2, _MS_NOSUID),
    (4, _MS_NODEV),
    (8, _MS_NOEXEC),
    (1024, _MS_NOATIME),
    (2048, _MS_NODIRATIME),
    (4096, _MS_RELATIME),
)
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
# seccomp: (AUDIT_ARCH, (socket, socketpair, io_uring_setup)); x86_64 also denies the x32 ABI
_SECCOMP = {"x86_64": (0xC000003E, (41, 53, 425)), "aarch64": (0xC00000B7, (198, 199, 425))}

_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


# --- frames ------------------------------------------------------------------------------


def read_exact(fd: int, n: int) -> bytes:
    chunks = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def recv(fd: int) -> Any:
    """A judge frame: marshal (trusted data; keeps json and re out of the sandbox's startup)."""
    (length,) = struct.unpack(">I", read_exact(fd, 4))
    if length > MAX_FRAME:
        raise ValueError("frame too large")
    return marshal.loads(read_exact(fd, length))


def dumps(x: Any) -> str:
    """JSON for what we send: None, bool, int (small), str, list/tuple, dict of str."""
    if x is None:
        return "null"
    if x is True or x is False:
        return "true" if x else "false"
    if type(x) is int:
        return str(x)
    if type(x) is str:
        return _json.encode_basestring_ascii(x)
    if type(x) is dict:
        return "{" + ",".join(_json.encode_basestring_ascii(k) + ":" + dumps(v) for k, v in x.items()) + "}"
    return "[" + ",".join(dumps(e) for e in x) + "]"


def send(fd: int, message: Any) -> None:
    """A reply frame: JSON, the format the judge decodes strictly."""
    data = dumps(message).encode()
    if len(data) > MAX_FRAME:
        data = dumps(["fail", "reply larger than the frame limit"]).encode()
    view = memoryview(struct.pack(">I", len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


# --- boot (A, B, C) --------------------------------------------------------------------


def _mount(src: str | None, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    enc: Callable[[str | None], bytes | None] = lambda s: None if s is None else s.encode()  # noqa: E731
    assert _libc is not None  # every mount step runs on Linux, after _enter_namespaces
    if _libc.mount(enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)) != 0:
        raise OSError(ctypes.get_errno(), f"mount {target}: {os.strerror(ctypes.get_errno())}")


def _bind_read_only(source: str, target: str) -> None:
    _mount(source, target, None, _MS_BIND, None)
    flags = _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV
    locked = os.statvfs(source).f_flag
    for st, ms in _ST_TO_MS:
        if locked & st:
            flags |= ms
    _mount(None, target, None, flags, None)


def _enter_namespaces(cfg: dict[str, Any], report: dict[str, str]) -> bool:
    if not cfg["namespaces"] or _libc is None:
        report["namespaces"] = "disabled" if _libc is not None else "unavailable (not Linux)"
        return False
    root = os.geteuid() == 0
    if _libc.unshare(_NEWNS | _NEWNET | _NEWPID | _NEWIPC | _NEWUTS | (0 if root else _NEWUSER)) != 0:
        report["namespaces"] = f"unavailable: {os.strerror(ctypes.get_errno())}"
        return False
    if not root:
        with open("/proc/self/setgroups", "w") as f:
            f.write("deny")
        with open("/proc/self/uid_map", "w") as f:
            f.write(f"0 {cfg['host_uid']} 1")
        with open("/proc/self/gid_map", "w") as f:
            f.write(f"0 {cfg['host_gid']} 1")
    report["namespaces"] = "net, mount, pid, ipc, uts" + ("" if root else ", user")
    return True


def _build_root(cfg: dict[str, Any], drop: int | None) -> str:
    """Mount the new root and pivot into it; returns the scratch directory (/tmp unless the
    runtime itself lives under /tmp). Raises OSError when any step fails."""
    assert _libc is not None  # only with namespaces, which need libc
    new = cfg["root"]
    _mount("none", "/", None, _MS_REC | _MS_PRIVATE, None)
    _mount("tmpfs", new, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=1m,mode=0755")
    for source in cfg["binds"]:
        target = new + source
        if os.path.isdir(source):
            os.makedirs(target, mode=0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
            open(target, "w").close()
        _bind_read_only(source, target)
    for link, dest in cfg["links"]:
        os.makedirs(os.path.dirname(new + link), mode=0o755, exist_ok=True)
        os.symlink(dest, new + link)
    scratch = "/scratch" if any(source == "/tmp" or source.startswith("/tmp/") for source in cfg["binds"]) else "/tmp"
    os.makedirs(new + scratch, mode=0o755)
    opts = f"size={cfg['scratch_bytes']},mode=0700" + (f",uid={drop},gid={drop}" if drop is not None else "")
    _mount("tmpfs", new + scratch, "tmpfs", _MS_NOSUID | _MS_NODEV, opts)
    os.chdir(new)
    if _libc.syscall(_SYS_PIVOT_ROOT[os.uname().machine], b".", b".") != 0:
        raise OSError(ctypes.get_errno(), f"pivot_root: {os.strerror(ctypes.get_errno())}")
    if _libc.umount2(b".", 2) != 0:  # MNT_DETACH: the old root, stacked on top, goes away
        raise OSError(ctypes.get_errno(), f"umount old root: {os.strerror(ctypes.get_errno())}")
    os.chdir("/")
    _mount(None, "/", None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV, None)
    visible = [path for path in cfg["hidden"] if os.path.lexists(path)]
    if visible:
        raise OSError(0, f"still visible after pivot_root: {visible}")
    return scratch


def _drop_capabilities() -> None:
    """Inside a user namespace C is uid 0 with every capability of that namespace: drop
    them all, including the bounding set, so no mount or chroot trick is left."""
    assert _libc is not None  # only inside a user namespace, which needs libc
    for cap in range(64):
        _libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP (EINVAL past the last cap)
    _libc.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT_CLEAR_ALL

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    data = (ctypes.c_uint32 * 6)()
    if _libc.capset(ctypes.byref(Header(0x20080522, 0)), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def _install_seccomp() -> str:
    assert _libc is not None  # called only when libc is there
    machine = os.uname().machine
    if machine not in _SECCOMP:
        return f"unavailable on {machine}"
    arch, denied = _SECCOMP[machine]
    ld, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    kill, allow, eperm = 0x80000000, 0x7FFF0000, 0x00050000 | 1
    prog = [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, kill), (ld, 0, 0, 0)]
    checks = ([(jge, 0x40000000)] if machine == "x86_64" else []) + [(jeq, nr) for nr in denied]
    deny_at = len(prog) + len(checks) + 1
    for code, k in checks:
        prog.append((code, deny_at - len(prog) - 1, 0, k))
    prog += [(ret, 0, 0, allow), (ret, 0, 0, eperm)]

    class Filter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint32)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]

    filters = (Filter * len(prog))(*[Filter(*ins) for ins in prog])
    fprog = Program(len(prog), filters)
    if _libc.prctl(22, 2, ctypes.c_ulong(ctypes.addressof(fprog)), 0, 0) != 0:  # PR_SET_SECCOMP, FILTER
        return f"failed: {os.strerror(ctypes.get_errno())}"
    return "active: socket, socketpair, io_uring_setup fail with EPERM"


def _candidate(cfg: dict[str, Any], report: dict[str, str], ns: bool, drop: int | None, scratch: str, req: int, rep: int) -> None:
    """C: limits, privileges, seccomp, fds, hello; then serve. Never returns."""
    stage = "limits"
    try:
        req, rep = fcntl.fcntl(req, fcntl.F_DUPFD, 10), fcntl.fcntl(rep, fcntl.F_DUPFD, 10)  # clear of 3 and 4
        if ns:
            os.setsid()  # without a PID namespace, stay in the group the harness kills
        for res, value in (
            (resource.RLIMIT_CPU, (cfg["cpu_seconds"], cfg["cpu_seconds"] + 1)),
            (resource.RLIMIT_AS, (cfg["memory_bytes"],) * 2),
            (resource.RLIMIT_NPROC, (cfg["max_processes"],) * 2),
            (resource.RLIMIT_FSIZE, (cfg["max_file_bytes"],) * 2),
            (resource.RLIMIT_NOFILE, (cfg["max_open_files"],) * 2),
            (resource.RLIMIT_CORE, (0, 0)),
        ):
            resource.setrlimit(res, value)
        stage = "privileges"
        if drop is not None:
            os.setgroups([])
            os.setresgid(drop, drop, drop)
            os.setresuid(drop, drop, drop)
            report["privileges"] = f"dropped to uid {drop}"
        elif ns:
            _drop_capabilities()
            report["privileges"] = "all capabilities dropped (user namespace)"
        else:
            report["privileges"] = "unchanged (the harness user)"
        if _libc is not None:
            _libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
            _libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG (reset by the uid change)
        stage = "seccomp"
        report["seccomp"] = _install_seccomp() if cfg["seccomp"] and _libc is not None else "disabled"
        stage = "fds"
        os.chdir(scratch)
        os.environ.update(HOME=scratch, TMPDIR=scratch)
        os.dup2(req, REQ_FD)
        os.dup2(rep, REP_FD)
        os.closerange(REP_FD + 1, 1 << 16)
        send(REP_FD, ["hello", report])
    except BaseException as exc:
        os.write(2, f"sandbox setup failed at {stage}: {exc!r}\n".encode())
        os._exit(126)
    Server().serve()
    os._exit(0)


def _init(cfg: dict[str, Any], report: dict[str, str], ns: bool, req: int, rep: int) -> None:
    """B: PID 1 of the namespace (or a plain child without one)."""
    if _libc is not None:
        _libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG: die with A
    signal.signal(signal.SIGALRM, lambda *a: os._exit(137))
    signal.alarm(int(cfg["wall_seconds"]) + 2)
    drop = cfg["drop_uid"] if os.geteuid() == 0 else None
    scratch = cfg["scratch"]
    if ns:
        try:
            scratch = _build_root(cfg, drop)
            report["filesystem"] = f"new root: read-only Python runtime and system libraries, scratch tmpfs at {scratch}"
        except OSError as exc:
            report["filesystem"] = f"NOT isolated: {exc.strerror or exc}"
    else:
        report["filesystem"] = "NOT isolated: host filesystem, scratch working directory"
    if scratch == cfg["scratch"] and drop is not None:
        os.chown(scratch, drop, drop)
    report["network"] = "empty network namespace" if ns else "NOT isolated (host network)"
    report["pid_namespace"] = "yes" if ns else "no"
    child = os.fork()
    if child == 0:
        _candidate(cfg, report, ns, drop, scratch, req, rep)
    os.close(req)
    os.close(rep)
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            os._exit(125)
        if pid == child:
            code = os.waitstatus_to_exitcode(status)
            os._exit(128 - code if code < 0 else code)


def main() -> None:
    req, rep = int(sys.argv[1]), int(sys.argv[2])
    cfg = recv(req)
    report: dict[str, str] = {}
    ns = _enter_namespaces(cfg, report)
    pid = os.fork()
    if pid == 0:
        try:
            _init(cfg, report, ns, req, rep)
        finally:
            os._exit(124)
    os.close(req)
    os.close(rep)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    sys.exit(128 - code if code < 0 else code)


# --- the call server (C, after hello) -------------------------------------------------------


class NotPlain(Exception):
    pass


_BASES = (int, float, complex, str, bytes, tuple, list, dict, set, frozenset)
_SEQ_TAGS: dict[type, str] = {list: "l", tuple: "t", set: "S", frozenset: "F"}


class JudgeObject:
    """A judge object the tests passed in (a key function, an iterator): calls and
    iteration go back to the judge, which runs them on its side."""

    def __init__(self, server: "Server", jid: int) -> None:
        self._server, self._jid = server, jid

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._server.ask_judge(
            ["jcall", self._jid, [self._server.enc(a) for a in args], [[k, self._server.enc(v)] for k, v in kwargs.items()]]
        )

    def __iter__(self) -> Any:
        return self._server.ask_judge(["jiter", self._jid])

    def __next__(self) -> Any:
        return self._server.ask_judge(["jnext", self._jid])


class Server:
    def __init__(self) -> None:
        self.objects: dict[int, Any] = {}  # the candidate's objects: anything it made
        self.ids: dict[int, int] = {}
        self.namespace: dict[str, Any] = {}

    def handle(self, obj: object) -> int:
        hid = self.ids.get(id(obj))
        if hid is None:
            hid = self.ids[id(obj)] = len(self.objects) + 1
            self.objects[hid] = obj
        return hid

    def enc(self, x: Any, depth: int = 0, key: bool = False) -> Any:
        if x is None or x is True or x is False:
            return x
        if type(x) is JudgeObject:
            return ["j", x._jid]
        base = next((b for b in _BASES if isinstance(x, b)), None)
        try:
            if base is None or depth > MAX_DEPTH:
                raise NotPlain
            body = self.plain(x, base, depth, key)
        except NotPlain:
            if key:
                raise
            return ["h", self.handle(x)]
        return body if key or type(x) is base else ["p", self.handle(x), body]

    def plain(self, x: Any, base: type[Any], depth: int, key: bool) -> list[Any]:
        if base is int:
            return ["i", format(int(x), "x")]
        if base is float:
            return ["f", float.hex(float(x))]
        if base is complex:
            return ["c", float.hex(x.real), float.hex(x.imag)]
        if base is str:
            return ["s", str.__str__(x)]
        if base is bytes:
            return ["b", binascii.b2a_base64(bytes(x), newline=False).decode()]
        if base is dict:
            if key:
                raise NotPlain
            return ["d", [[self.enc(k, depth + 1, True), self.enc(v, depth + 1)] for k, v in dict.items(x)]]
        inner_key = key or base in (set, frozenset)
        if base is list and key:
            raise NotPlain
        return [_SEQ_TAGS[base], [self.enc(e, depth + 1, inner_key) for e in base.__iter__(x)]]

    def dec(self, v: Any) -> Any:
        if v is None or v is True or v is False:
            return v
        tag = v[0]
        if tag == "i":
            return int(v[1], 16)
        if tag == "f":
            return float.fromhex(v[1])
        if tag == "c":
            return complex(float.fromhex(v[1]), float.fromhex(v[2]))
        if tag == "s":
            return v[1]
        if tag == "b":
            return binascii.a2b_base64(v[1])
        if tag == "d":
            return {self.dec(k): self.dec(x) for k, x in v[1]}
        if tag == "h":
            return self.objects[v[1]]
        if tag == "j":
            return JudgeObject(self, v[1])
        items = [self.dec(e) for e in v[1]]
        return {"l": list, "t": tuple, "S": set, "F": frozenset}[tag](items)

    def error(self, exc: BaseException) -> list[Any]:
        builtin = next((c for c in type(exc).__mro__ if getattr(builtins, c.__name__, None) is c), BaseException)
        try:
            message = f"{type(exc).__name__}: {exc}"[:2000]
        except BaseException:
            message = type(exc).__name__
        try:
            args = self.enc(tuple(exc.args))  # so str(exc) reads the same on the judge's side
        except BaseException:
            args = ["t", []]
        return ["err", builtin.__name__, message, args]

    def ask_judge(self, message: list[Any]) -> Any:
        send(REP_FD, message)
        return self.loop()

    def loop(self) -> Any:
        """Answer requests until the judge answers our own question (or the pipe closes)."""
        while True:
            try:
                msg = recv(REQ_FD)
            except EOFError:
                os._exit(0)
            op = msg[0]
            if op == "ret":
                return self.dec(msg[1])
            if op == "raise":
                cls = getattr(builtins, msg[1], None)
                raise (cls if isinstance(cls, type) and issubclass(cls, Exception) else RuntimeError)(msg[2])
            try:
                reply = self.answer(op, msg[1:])
            except BaseException as exc:
                reply = self.error(exc)
            for stream in (sys.stdout, sys.stderr):  # the harness kills us without a goodbye
                try:
                    stream.flush()
                except BaseException:
                    pass
            send(REP_FD, reply)

    def answer(self, op: str, args: list[Any]) -> list[Any]:
        if op == "load":
            module = types.ModuleType("solution")
            sys.modules["solution"] = module
            self.namespace = module.__dict__
            exec(compile(args[0], "solution.py", "exec"), self.namespace)
            return ["ok", None]
        if op == "get":
            return ["ok", [[name, self.enc(self.namespace[name])] for name in args[0] if name in self.namespace]]
        obj = self.objects[args[0]]
        if op == "getattr":
            return ["ok", self.enc(getattr(obj, args[1]))]
        if op == "setattr":
            setattr(obj, args[1], self.dec(args[2]))
            return ["ok", None]
        if op == "call":
            call_args = [self.dec(a) for a in args[1]]
            kwargs = {k: self.dec(v) for k, v in args[2]}
            result = self.enc(obj(*call_args, **kwargs))
            # top-level list/dict/set arguments go back so in-place changes reach the tests
            back = [[i, self.enc(call_args[i])] for i, a in enumerate(args[1]) if isinstance(a, list) and a[0] in "ldS"]
            back += [[k, self.enc(kwargs[k])] for k, a in args[2] if isinstance(a, list) and a[0] in "ldS"]
            return ["ok", result, back]
        if op == "iter":
            return ["ok", self.enc(iter(obj))]
        if op == "next":
            return ["ok", self.enc(next(obj))]
        if op == "len":
            return ["ok", self.enc(len(obj))]
        if op == "getitem":
            return ["ok", self.enc(obj[self.dec(args[1])])]
        if op == "contains":
            return ["ok", self.enc(self.dec(args[1]) in obj)]
        if op == "value":
            base = next(b for b in _BASES if isinstance(obj, b))
            return ["ok", self.plain(obj, base, 0, False)]
        raise ValueError(f"unknown request {op!r}")

    def serve(self) -> None:
        self.namespace = {}
        self.loop()


if __name__ == "__main__":
    main()
