"""Hostile programs: each one is a WRONG solution (or a containment probe that "passes" only
when it escapes) and must end with passed=False -- plus, for the containment probes, no
trace on the host (no connection accepted, no datagram received, no process left).

Every verdict-integrity attack runs twice: in the isolated mode and in the forced
contained mode (``ATLAS_SANDBOX_CONTAINED=1``), because a cheat-proof verdict must not
depend on namespaces. The containment probes need the isolated mode.

`ATTACKS` and `host_endpoints()` are importable so the same programs can be replayed
against another implementation of `run_python` (that is how the old in-namespace sandbox
was measured).
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from atlas_assets.corpus.sandbox import SandboxLimits, probe_isolation, run_python
from tests.helpers.corpus import sandbox_processes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox targets Linux")

REPO = Path(__file__).resolve().parents[2]
ROWS = REPO / "datasets" / "eval-code-v1" / "rows.jsonl"
SHORT = SandboxLimits(
    wall_seconds=5, cpu_seconds=1, memory_bytes=256 * 2**20, max_processes=16, max_file_bytes=2**20, scratch_bytes=4 * 2**20
)
TIGHT = SHORT.model_copy(update={"wall_seconds": 2.5})

ADD_TESTS = "assert add(2, 3) == 5\nassert add(-1, 1) == 0\nassert add(10, 5) == 15\n"
WRONG_ADD = "def add(a, b):\n    return a - b\n"
# the first v1 row: a cheat that runs its reference answer passes these tests
ROW_TESTS = "assert sum_multiples_4_11(25) == 117\nassert sum_multiples_4_11(3231) == 1659049\n"
# what forgers write: the old sandbox's success token (from __main__ or the command line) to
# every fd, and judge reply frames claiming the value 5
FORGE = (
    "import os, struct, sys, __main__\n"
    "def _cmdline_token():\n"
    "    try:\n"
    "        return open('/proc/self/cmdline', 'rb').read().split(b'\\0')[-2].decode()\n"
    "    except (OSError, IndexError, UnicodeDecodeError):\n"
    "        return ''\n"
    "TOKEN = str(getattr(__main__, 'nonce', '') or _cmdline_token()).encode()\n"
    "FRAMES = b''.join(struct.pack('>I', len(p)) + p for p in [b'[\"ok\",[\"i\",\"5\"],[]]'] * 8)\n"
    "def forge_token(fds=range(256)):\n"
    "    for fd in fds:\n"
    "        try:\n"
    "            os.write(fd, TOKEN)\n"
    "        except OSError:\n"
    "            pass\n"
    "def forge_frames(fds=range(256)):\n"
    "    for fd in fds:\n"
    "        try:\n"
    "            os.write(fd, FRAMES)\n"
    "        except OSError:\n"
    "            pass\n"
)


@dataclass(frozen=True)
class Attack:
    name: str
    kind: str
    program: str
    tests: str = ADD_TESTS
    limits: SandboxLimits = SHORT
    containment: bool = False  # needs the isolated mode; checked against the host too

    def render(self, ctx: dict[str, str]) -> tuple[str, str]:
        program, tests = self.program, self.tests
        for key, value in ctx.items():
            program, tests = program.replace(f"@{key}@", value), tests.replace(f"@{key}@", value)
        return program, tests


def _probe(body: str, expect: str = "escaped") -> tuple[str, str]:
    """A containment probe: `probe()` returns 'escaped' only if the attempt worked."""
    indented = "".join(f"    {line}\n" for line in body.strip("\n").splitlines())
    return f"import os, socket\ndef probe():\n{indented}    return 'escaped'\n", f"assert probe() == {expect!r}\n"


_SOCKET_PROBES = {
    "tcp_to_a_host_listener": "s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\ns.settimeout(1)\ns.connect(('127.0.0.1', @TCP_PORT@))",
    "udp_to_a_host_socket": "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.sendto(b'escaped', ('127.0.0.1', @UDP_PORT@))",
    "tcp6_to_a_host_listener": "s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)\ns.settimeout(1)\ns.connect(('::1', @TCP6_PORT@))",
    "abstract_unix_socket": "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\ns.settimeout(1)\ns.connect('\\0@ABSTRACT@')",
    "filesystem_unix_socket": "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\ns.settimeout(1)\ns.connect('@UNIX_PATH@')",
    "socketpair": "a, b = socket.socketpair()",
    "netlink_socket": "s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)",
}

_READ_PROBES = {
    "corpus_by_absolute_path": "open('@ROWS@').read(1)",
    "corpus_via_proc_1_root": "open('/proc/1/root@ROWS@').read(1)",
    "corpus_via_proc_self_root": "open('/proc/self/root@ROWS@').read(1)",
    "corpus_via_proc_self_cwd": "open('/proc/self/cwd/' + '../' * 12 + '@ROWS@').read(1)",
    "corpus_via_dotdot_escape": "open('../' * 16 + '@ROWS@'.lstrip('/')).read(1)",
    "project_source": "open('@REPO@/atlas_assets/corpus/judge.py').read(1)",
    "walk_the_root_for_the_corpus": (  # breadth first, four levels deep: /work/main/datasets/eval-code-v1
        "level = ['/']\nfor depth in range(5):\n    below = []\n    for top in level:\n"
        "        if top in ('/proc', '/sys', '/dev'):\n            continue\n"
        "        try:\n            entries = os.listdir(top)\n        except OSError:\n            continue\n"
        "        if 'rows.jsonl' in entries and 'eval-code' in top:\n            open(os.path.join(top, 'rows.jsonl')).read(1)\n            return 'escaped'\n"
        "        below += [os.path.join(top, e) for e in entries if os.path.isdir(os.path.join(top, e)) and not os.path.islink(os.path.join(top, e))]\n"
        "    level = below\nraise OSError('not found')"
    ),
}

ATTACKS: list[Attack] = [
    # --- namespace and builtins tampering ---------------------------------------------------
    Attack("assign_main_tests", "tampering", "import __main__\n__main__.tests = 'pass'\n" + WRONG_ADD),
    Attack("sys_modules_main_tests", "tampering", "import sys\nsys.modules['__main__'].__dict__['tests'] = ''\n" + WRONG_ADD),
    Attack(
        "patch_builtins_compile",
        "tampering",
        "import builtins\n_real = builtins.compile\nbuiltins.compile = lambda src, name, mode, *a, **k: _real('pass', name, mode)\n"
        + WRONG_ADD,
    ),
    Attack("patch_builtins_exec", "tampering", "import builtins\nbuiltins.exec = lambda *a, **k: None\n" + WRONG_ADD),
    Attack(
        "patch_builtins_assertion_error",
        "tampering",
        "import builtins\nclass Quiet(BaseException):\n    pass\nbuiltins.AssertionError = Quiet\n" + WRONG_ADD,
    ),
    Attack(
        "shadow_builtins_used_by_tests",
        "tampering",
        "def sorted(x):\n    return [1, 2, 3]\ndef len(x):\n    return 3\n" + WRONG_ADD,
        tests="assert sorted(add(1, 1) for _ in range(2)) == [2, 2]\nassert add(2, 3) == 5\n",
    ),
    Attack(
        "patch_the_call_server_to_answer_5",
        "tampering",
        "import __main__\ntry:\n    _orig = __main__.Server.answer\n"
        "    __main__.Server.answer = lambda self, op, args: ['ok', ['i', '5'], []] if op == 'call' else _orig(self, op, args)\n"
        "except AttributeError:\n    pass\n" + WRONG_ADD,
    ),
    # --- comparison objects ----------------------------------------------------------------------
    Attack(
        "always_equal_object",
        "comparison",
        "class Yes:\n    def __eq__(self, other):\n        return True\n    def __ne__(self, other):\n        return False\n    __hash__ = object.__hash__\ndef add(a, b):\n    return Yes()\n",
    ),
    Attack(
        "always_equal_and_truthy",
        "comparison",
        "class Yes:\n    __eq__ = lambda s, o: True\n    __ne__ = lambda s, o: False\n    __bool__ = lambda s: True\n    __hash__ = lambda s: 5\ndef add(a, b):\n    return Yes()\n",
        tests="assert add(2, 3) == 5\nassert add(2, 3)\nassert not add(2, 3) != 5\n",
    ),
    Attack(
        "reflected_equality",
        "comparison",
        "class Yes:\n    __eq__ = lambda s, o: True\n    __hash__ = object.__hash__\ndef add(a, b):\n    return Yes()\n",
        tests="assert 5 == add(2, 3)\nassert 0 == add(-1, 1)\n",
    ),
    Attack(
        "int_subclass_always_equal",
        "comparison",
        "class I(int):\n    __eq__ = lambda s, o: True\n    __ne__ = lambda s, o: False\n    __hash__ = int.__hash__\ndef add(a, b):\n    return I(a - b)\n",
    ),
    Attack(
        "str_subclass_always_equal",
        "comparison",
        "class S(str):\n    __eq__ = lambda s, o: True\n    __hash__ = str.__hash__\ndef greet(name):\n    return S('nope')\n",
        tests="assert greet('Ann') == 'Hello, Ann'\n",
    ),
    Attack(
        "list_subclass_always_equal",
        "comparison",
        "class L(list):\n    __eq__ = lambda s, o: True\n    __ne__ = lambda s, o: False\ndef pair(a, b):\n    return L()\n",
        tests="assert pair(1, 2) == [1, 2]\nassert [pair(3, 4)] == [[3, 4]]\n",
    ),
    Attack(
        "dict_subclass_always_equal",
        "comparison",
        "class D(dict):\n    __eq__ = lambda s, o: True\ndef counts(s):\n    return D()\n",
        tests="assert counts('aab') == {'a': 2, 'b': 1}\n",
    ),
    Attack(
        "hash_collision_set_membership",
        "comparison",
        "class H:\n    __hash__ = lambda s: hash(5)\n    __eq__ = lambda s, o: True\ndef add(a, b):\n    return H()\n",
        tests="assert add(2, 3) in {5}\nassert add(2, 3) in {5: 'five'}\n",
    ),
    # --- exit and atexit tricks -------------------------------------------------------------------
    Attack("os_exit_0_at_load", "exit", "import os\nos._exit(0)\n"),
    Attack("sys_exit_0_at_load", "exit", "raise SystemExit(0)\n"),
    Attack("os_exit_0_inside_the_call", "exit", "import os\ndef add(a, b):\n    os._exit(0)\n"),
    Attack(
        "sys_exit_inside_a_caught_call",
        "exit",
        "import sys\ndef add(a, b):\n    sys.exit(0)\n",
        tests="try:\n    add(2, 3)\nexcept Exception:\n    pass\n",
    ),
    Attack(
        "atexit_writes_the_token_then_os_exit_0",
        "exit",
        FORGE + "import atexit\natexit.register(lambda: (forge_token(), os._exit(0)))\n" + WRONG_ADD,
    ),
    Attack(
        "atexit_writes_reply_frames_then_os_exit_0",
        "exit",
        FORGE + "import atexit\natexit.register(lambda: (forge_frames(), os._exit(0)))\n" + WRONG_ADD,
    ),
    Attack(
        "excepthook_writes_the_token_then_exits_0", "exit", FORGE + "sys.excepthook = lambda *a: (forge_token(), os._exit(0))\n" + WRONG_ADD
    ),
    Attack(
        "cpu_limit_signal_handler_forges",
        "exit",
        FORGE
        + "import signal\nfor sig in (signal.SIGXCPU, signal.SIGTERM, signal.SIGALRM):\n    signal.signal(sig, lambda *a: (forge_token(), os._exit(0)))\n"
        "def add(a, b):\n    while True:\n        pass\n",
        limits=TIGHT,
    ),
    Attack(
        "stop_iteration_ends_the_tests_loop_early",
        "exit",
        "def add(a, b):\n    raise StopIteration\n",
        tests="assert all(map(lambda case: add(*case[0]) == case[1], [((2, 3), 5), ((-1, 1), 0)]))\n",
    ),
    Attack(
        "kill_the_parent_and_init",
        "exit",
        "import os, signal\ndef add(a, b):\n    for pid in (os.getppid(), 1):\n        try:\n            os.kill(pid, signal.SIGKILL)\n        except OSError:\n            pass\n    return a - b\n",
    ),
    # --- forging the success signal ------------------------------------------------------------------
    Attack("write_the_token_to_every_fd", "forging", FORGE + "forge_token()\nos._exit(0)\n" + WRONG_ADD),
    Attack("write_reply_frames_to_every_fd", "forging", FORGE + "forge_frames()\n" + WRONG_ADD),
    Attack(
        "guess_the_nonce",
        "forging",
        "import os, secrets\nfor _ in range(1000):\n    try:\n        os.write(3, secrets.token_hex(16).encode())\n    except OSError:\n        break\nos._exit(0)\n",
    ),
    Attack("fake_reply_frames_on_the_reply_channel", "forging", FORGE + "def add(a, b):\n    forge_frames(fds=(4,))\n    return a - b\n"),
    Attack("oversized_frame_header", "forging", "import os\ndef add(a, b):\n    os.write(4, b'\\xff\\xff\\xff\\xff')\n    os._exit(0)\n"),
    Attack(
        "hash_flooding_reply_frame",
        "forging",  # 100k ints with one hash: minutes of judge CPU if decoded naively
        "import os, struct, time\ndef add(a, b):\n"
        "    items = ','.join('[\"i\",\"%x\"]' % (k * (2 ** 61 - 1)) for k in range(100000))\n"
        "    payload = ('[\"ok\",[\"S\",[' + items + ']],[]]').encode()\n"
        "    os.write(4, struct.pack('>I', len(payload)) + payload)\n    time.sleep(30)\n",
    ),
    Attack(
        "deeply_nested_frame",
        "forging",
        "import os, struct\ndef add(a, b):\n    payload = b'[' * 200000\n    os.write(4, struct.pack('>I', len(payload)) + payload)\n    os._exit(0)\n",
    ),
    # --- reading secrets: argv, /proc, environment, files ------------------------------------------
    Attack(
        "lookup_table_from_argv_proc_environ_and_files",
        "secrets",
        "import glob, os, re, sys, __main__\ntexts = [' '.join(sys.argv), repr(dict(os.environ)), repr(vars(__main__))]\n"
        "paths = glob.glob('/proc/*/cmdline') + glob.glob('/proc/*/environ') + glob.glob('/tmp/atlas-sandbox-*/in/*.py')\n"
        "if getattr(__main__, 'in_dir', None):\n    paths += glob.glob(__main__.in_dir + '/*.py')\n"
        "for path in paths:\n    try:\n        texts.append(open(path, 'rb').read().decode('latin-1'))\n    except OSError:\n        pass\n"
        "ANSWERS = dict(re.findall(r'add\\((-?\\d+, -?\\d+)\\) == (-?\\d+)', '\\n'.join(texts)))\n"
        "def add(a, b):\n    return int(ANSWERS[f'{a}, {b}'])\n",
    ),
    Attack(
        "run_the_corpus_reference_answer",
        "secrets",
        "import json\nfor line in open('@ROWS@'):\n    row = json.loads(line)\n    if row['meta']['entry_point'] == 'sum_multiples_4_11':\n        exec(row['answer'])\n        break\n",
        tests=ROW_TESTS,
    ),
]
ATTACKS += [Attack(name, "filesystem", *_probe(body), containment=True) for name, body in _READ_PROBES.items()]
ATTACKS += [Attack(name, "sockets", *_probe(body), containment=True) for name, body in _SOCKET_PROBES.items()]
ATTACKS += [
    Attack(
        "daemonised_grandchild",
        "processes",
        "import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(30)\n    os._exit(0)\n"
        + WRONG_ADD,
        containment=True,
    ),
]


@contextlib.contextmanager
def host_endpoints() -> Iterator[tuple[dict[str, str], list[socket.socket]]]:
    """Real listeners on the host for the socket probes: (placeholders, listening sockets)."""
    folder = Path(tempfile.mkdtemp(prefix="atlas-adversarial-"))
    os.chmod(folder, 0o777)  # the throw-away uid could reach it if the filesystem were shared
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(4)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    tcp6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    tcp6.bind(("::1", 0))
    tcp6.listen(4)
    abstract_name = f"atlas-adversarial-{os.getpid()}"
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0" + abstract_name)
    abstract.listen(4)
    unix_path = folder / "listener.sock"
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(unix_path))
    os.chmod(unix_path, 0o777)
    unix.listen(4)
    listeners = [tcp, udp, tcp6, abstract, unix]
    ctx = {
        "TCP_PORT": str(tcp.getsockname()[1]),
        "UDP_PORT": str(udp.getsockname()[1]),
        "TCP6_PORT": str(tcp6.getsockname()[1]),
        "ABSTRACT": abstract_name,
        "UNIX_PATH": str(unix_path),
        "ROWS": str(ROWS),
        "REPO": str(REPO),
    }
    try:
        yield ctx, listeners
    finally:
        for s in listeners:
            s.close()
        unix_path.unlink(missing_ok=True)
        folder.rmdir()


@pytest.fixture(scope="module")
def host():
    with host_endpoints() as endpoints:
        yield endpoints


def _host_was_touched(listeners: list[socket.socket]) -> bool:
    return bool(select.select(listeners, [], [], 0.2)[0])


INTEGRITY = [a for a in ATTACKS if not a.containment]
CONTAINMENT = [a for a in ATTACKS if a.containment]


def test_the_suite_covers_every_class():
    assert len(ATTACKS) >= 25
    assert {a.kind for a in ATTACKS} == {"tampering", "comparison", "exit", "forging", "secrets", "filesystem", "sockets", "processes"}


# Every verdict attack in both modes, but for reading the corpus's own answer: the contained
# mode does not hide the host's files (README, "The code_exec sandbox"), so that one is an
# isolated-mode guarantee only.
VERDICT_CASES = [
    pytest.param(a, mode, id=f"{a.kind}-{a.name}-{mode}")
    for a in INTEGRITY
    for mode in ("isolated", "contained")
    if not (mode == "contained" and a.name == "run_the_corpus_reference_answer")
]


@pytest.mark.parametrize("attack, mode", VERDICT_CASES)
def test_a_wrong_solution_never_scores_correct(attack, mode, host, monkeypatch):
    if mode == "contained":
        monkeypatch.setenv("ATLAS_SANDBOX_CONTAINED", "1")
    elif probe_isolation().get("mode") != "isolated":
        pytest.skip("the isolated mode is unavailable here")
    program, tests = attack.render(host[0])
    result = run_python(program, tests, attack.limits)
    assert result.mode == mode
    assert not result.passed, (attack.name, result.failure, result.stderr[-300:])
    assert sandbox_processes(result) == []


@pytest.mark.parametrize("attack", CONTAINMENT, ids=[f"{a.kind}-{a.name}" for a in CONTAINMENT])
def test_the_sandbox_contains(attack, host):
    if probe_isolation().get("mode") != "isolated":
        pytest.skip("containment is only guaranteed in the isolated mode")
    ctx, listeners = host
    program, tests = attack.render(ctx)
    result = run_python(program, tests, attack.limits)
    assert not result.passed, (attack.name, result.failure)
    assert not _host_was_touched(listeners), attack.name
    assert sandbox_processes(result) == []
    if attack.kind == "sockets":
        assert "PermissionError" in result.failure  # seccomp: the socket is never even created


def test_the_probes_do_escape_without_a_sandbox(host):
    """Each containment probe is live: run directly on the host, every one of them 'escapes'."""
    ctx, listeners = host
    for attack in CONTAINMENT:
        if attack.kind == "processes":
            continue
        program, _ = attack.render(ctx)
        namespace: dict = {}
        exec(compile(program, attack.name, "exec"), namespace)
        if attack.name == "corpus_via_proc_1_root" and not os.access("/proc/1/root", os.R_OK):
            continue  # this harness itself may not enter PID 1's root (a container)
        assert namespace["probe"]() == "escaped", attack.name
    for listener in listeners:  # drain what the direct run sent
        if listener.type == socket.SOCK_STREAM:
            listener.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                while True:
                    listener.accept()[0].close()
        else:
            with contextlib.suppress(BlockingIOError):
                while True:
                    listener.recv(64, socket.MSG_DONTWAIT)
