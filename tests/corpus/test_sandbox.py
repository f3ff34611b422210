"""Adversarial sandbox tests: each attack ends contained, quickly (short limits)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atlas_assets.corpus.sandbox import SandboxLimits, is_isolated, probe_isolation, run_python

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox targets Linux")

SHORT = SandboxLimits(wall_seconds=5, cpu_seconds=1, memory_bytes=256 * 2**20, max_processes=8, max_file_bytes=2**20, scratch_bytes=4 * 2**20)
TIGHT = SHORT.model_copy(update={"wall_seconds": 1.5})  # for the attacks that run into the deadline
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def isolation():
    return probe_isolation()


def needs_isolation(isolation):
    if not is_isolated(isolation):
        pytest.skip(f"namespaces unavailable here: {isolation}")


def _alive_as(result) -> list[str]:
    """Processes still running as the throw-away uid of `result` (other sandboxes running
    at the same time on this machine have other uids). Waits up to 3 s for the kernel to
    finish tearing a killed namespace down."""
    uid_text = result.isolation.get("uid", "")
    if not uid_text.startswith("dropped to "):
        return []
    uid = uid_text.split()[-1]
    for _ in range(30):
        out = subprocess.run(["ps", "-eo", "uid=,pid=,args="], capture_output=True, text=True).stdout
        alive = [line for line in out.splitlines() if line.split() and line.split()[0] == uid]
        if not alive:
            return []
        time.sleep(0.1)
    return alive


def test_a_correct_program_passes_and_a_wrong_one_fails():
    good = run_python("def f(x):\n    return x + 1\n", "assert f(1) == 2", SHORT)
    assert good.passed, good
    bad = run_python("def f(x):\n    return x\n", "assert f(1) == 2", SHORT)
    assert not bad.passed and "AssertionError" in bad.stderr


def test_exiting_early_is_not_a_pass():
    for program in ("import os\nos._exit(0)", "import sys\nsys.exit(0)", "raise SystemExit"):
        result = run_python(program, "assert False", SHORT)
        assert not result.passed, program


def test_infinite_loop_hits_the_cpu_limit():
    start = time.perf_counter()
    result = run_python("while True:\n    pass\n", "", SHORT)
    assert not result.passed
    assert time.perf_counter() - start < SHORT.wall_seconds + 1.5


def test_sleeping_forever_hits_the_wall_time():
    start = time.perf_counter()
    result = run_python("import time\ntime.sleep(60)\n", "", TIGHT)
    assert not result.passed and result.timed_out
    assert time.perf_counter() - start < TIGHT.wall_seconds + 1.5


def test_fork_bomb_is_contained_and_leaves_nothing_behind():
    bomb = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    start = time.perf_counter()
    result = run_python(bomb, "", TIGHT)
    assert not result.passed
    assert time.perf_counter() - start < TIGHT.wall_seconds + 2
    assert _alive_as(result) == []


def test_daemonised_child_does_not_outlive_the_item(isolation):
    program = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    time.sleep(30)\n"
        "    os._exit(0)\n"
    )
    result = run_python(program, "", SHORT)
    assert result.passed
    assert _alive_as(result) == []


def test_memory_hog_is_refused():
    for hog in ("x = bytearray(2 * 1024 ** 3)", "chunks = []\nwhile True:\n    chunks.append(bytearray(50 * 1024 ** 2))"):
        start = time.perf_counter()
        result = run_python(hog, "", SHORT)
        assert not result.passed and "MemoryError" in result.stderr, result
        assert time.perf_counter() - start < SHORT.wall_seconds + 1


def test_file_size_limit():
    result = run_python("open('big.bin', 'wb').write(b'0' * (8 * 1024 ** 2))", "", SHORT)
    assert not result.passed


def test_the_scratch_dir_is_writable():
    program = "import os, tempfile\nopen('notes.txt', 'w').write('ok')\nwith tempfile.NamedTemporaryFile() as f:\n    f.write(b'x')\n"
    assert run_python(program, "assert open('notes.txt').read() == 'ok'", SHORT).passed


def test_writing_outside_the_scratch_dir_fails(isolation, tmp_path):
    needs_isolation(isolation)
    targets = [REPO / "sandbox_escape.txt", Path("/tmp") / f"sandbox_escape_{os.getpid()}.txt", tmp_path / "escape.txt"]
    for target in targets:
        program = f"import os\nopen({str(target)!r}, 'w').write('escaped')\n"
        result = run_python(program, "", SHORT)
        assert not result.passed, target
        assert not target.exists(), target
    # and the parent of the scratch dir (the sandbox's own bookkeeping) is off limits too
    result = run_python("open('../out/stdout', 'w').write('forged')\nopen('../escape.txt', 'w').write('x')", "", SHORT)
    assert not result.passed


def test_the_parents_environment_is_invisible(isolation, monkeypatch):
    secret = "atlas-secret-4f1c2d"
    monkeypatch.setenv("ATLAS_TEST_SECRET", secret)
    program = (
        "import glob, os\n"
        "seen = [repr(dict(os.environ))]\n"
        "for path in glob.glob('/proc/*/environ'):\n"
        "    try:\n"
        "        seen.append(open(path, 'rb').read().decode('latin-1'))\n"
        "    except OSError:\n"
        "        pass\n"
        "print('\\n'.join(seen))\n"
    )
    result = run_python(program, "", SHORT)
    assert result.passed, result
    assert secret not in result.stdout
    assert "ATLAS_TEST_SECRET" not in result.stdout
    assert "HOME" in result.stdout  # the scrubbed environment is there, and only it


def test_no_network(isolation):
    needs_isolation(isolation)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        program = f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
        result = run_python(program, "", SHORT)
        assert not result.passed
        assert "unreachable" in result.stderr.lower() or "refused" in result.stderr.lower()


def test_only_the_standard_library_is_importable():
    result = run_python("import pydantic\n", "", SHORT)
    assert not result.passed and "ModuleNotFoundError" in result.stderr
    assert run_python("import json, math, re, collections\n", "", SHORT).passed


def test_isolation_is_reported(isolation):
    result = run_python("", "", SHORT)
    assert set(result.isolation) >= {"network", "filesystem", "uid"}
    if os.geteuid() == 0 and is_isolated(isolation):
        assert result.isolation["uid"].startswith("dropped to")
