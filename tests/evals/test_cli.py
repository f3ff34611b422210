"""`atlas eval ...` in subprocesses: run, interrupt and resume (SIGTERM and SIGKILL),
rescore, compare, list, errors and help."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from atlas_assets.evals.documents import Failure
from atlas_assets.evals.results import CHECKPOINT, RESULTS, read_checkpoint
from atlas_assets.simulator.handle import start_simulator
from atlas_assets.simulator.profiles import SimulatorProfile
from tests.helpers.evals import REPO, partial_results, prompt_rows, write_dataset, write_workload

ROWS = 10_000  # the figure: a 10,000-row run killed halfway
CONCURRENCY = 64


def _atlas(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "atlas_assets.cli", *args],
        capture_output=True,
        text=True,
        cwd=kwargs.pop("cwd", REPO),
        timeout=kwargs.pop("timeout", 60),
        **kwargs,
    )


def _spawn(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "atlas_assets.cli", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO
    )


@pytest.fixture
def serve_setup(tmp_path, datasets_root):
    write_dataset(datasets_root, "syn-prompts-v1", "prompts", prompt_rows(ROWS))
    workload = write_workload(
        tmp_path / "workloads",
        datasets_root,
        "syn-prompts-v1",
        kind="serve",
        scorer=None,
        request={"max_tokens": 8},
        concurrency=CONCURRENCY,
    )
    profile = SimulatorProfile.from_block({"name": "sim-cli", "ttft_ms": 25, "per_token_ms": 0})
    with start_simulator(profile, datasets_root=datasets_root) as sim:
        yield sim, workload, datasets_root, tmp_path / "run"


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen, timeout: float = 120.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.is_file():
            count = path.read_bytes().count(b"\n")
            if count >= n:
                return count
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)
    raise AssertionError(f"{path} did not reach {n} lines")


def _run_args(sim, workload, root, out):
    return (
        "eval",
        "run",
        "--workload",
        str(workload),
        "--engine",
        sim.base_url,
        "--datasets",
        str(root),
        "--out",
        str(out),
        "--no-progress",
    )


def test_sigterm_halfway_then_resume_sends_every_row_exactly_once(serve_setup):
    sim, workload, root, out = serve_setup
    proc = _spawn(*_run_args(sim, workload, root, out))
    _wait_for_lines(out / CHECKPOINT, ROWS // 2, proc)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "run the same command again to resume" in stderr
    partial = json.loads((out / RESULTS).read_text())
    assert partial["complete"] is False and ROWS // 2 <= partial["run"]["rows_done"] < ROWS
    resumed = _atlas(*_run_args(sim, workload, root, out))
    assert resumed.returncode == 0, resumed.stderr
    final = json.loads((out / RESULTS).read_text())
    assert final["complete"] is True and final["run"]["resumed_rows"] == partial["run"]["rows_done"]
    assert final["metrics"]["requests_completed"] == ROWS
    sent = Counter(entry.body_sha256 for entry in sim.request_log())
    assert len(sent) == ROWS and set(sent.values()) == {1}


def test_sigkill_loses_at_most_the_requests_in_flight(serve_setup):
    sim, workload, root, out = serve_setup
    proc = _spawn(*_run_args(sim, workload, root, out))
    _wait_for_lines(out / CHECKPOINT, ROWS // 2, proc)
    proc.kill()
    proc.communicate(timeout=30)
    recorded, _ = read_checkpoint(out / CHECKPOINT)
    recorded_ids = {r.id for r in recorded}
    resumed = _atlas(*_run_args(sim, workload, root, out))
    assert resumed.returncode == 0, resumed.stderr
    by_row = Counter(entry.row_id for entry in sim.request_log())
    assert set(by_row) == {f"syn-{i:05d}" for i in range(ROWS)}
    assert all(by_row[row_id] == 1 for row_id in recorded_ids)  # a recorded row is never re-sent
    assert sum(by_row.values()) - ROWS <= CONCURRENCY  # only requests that were in flight at the kill


def test_run_table_rescore_compare_and_list(tmp_path, capsys):
    strong = _atlas(
        "eval", "run", "--workload", "eval-instruction-v1", "--engine", "sim-strong", "--limit", "12", "--out", str(tmp_path / "a")
    )
    assert strong.returncode == 0, strong.stderr
    for expected in ("accuracy", "TTFT", "TPOT", "ITL", "E2E", "req/s", "results.json", "sha256"):
        assert expected in strong.stdout
    weak = _atlas(
        "eval", "run", "--workload", "eval-instruction-v1", "--engine", "sim-weak", "--limit", "12", "--out", str(tmp_path / "b"), "--json"
    )
    assert weak.returncode == 0 and json.loads(weak.stdout)["scores"]["total"] == 12
    code, out, _ = _main(capsys, "eval", "rescore", str(tmp_path / "a"))
    assert code == 0 and "12/12 done" in out
    code, out, err = _main(capsys, "eval", "compare", str(tmp_path / "a"), str(tmp_path / "b"))
    assert code == 0, err
    assert "paired rows 12" in out and "exact McNemar p =" in out
    as_json = json.loads(_main(capsys, "eval", "compare", str(tmp_path / "a"), str(tmp_path / "b"), "--json")[1])
    assert as_json["paired"] == 12 and 0 <= as_json["mcnemar_p"] <= 1
    _, out, _ = _main(capsys, "eval", "list")  # its exit status is test_workloads.py's business
    assert "sim-strong" in out and "eval-instruction-v1" in out and "pinned" in out


def test_list_is_a_table_with_headers_row_counts_and_pins(capsys):
    import re

    from atlas_assets.corpus import registry
    from atlas_assets.evals.workloads import load_workloads

    _, out, _ = _main(capsys, "eval", "list")
    lines = out.splitlines()
    assert re.fullmatch(r"engines: \d+ in .*engines\.yaml", lines[0]) and lines[1].split() == ["ENGINE", "KIND", "WHERE", "MODEL"]
    header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["WORKLOAD", "KIND"])
    assert lines[header].split() == ["WORKLOAD", "KIND", "DATASET", "ROWS", "PIN", "SHA256", "STATUS"]
    workload = load_workloads()["eval-math-v1"]
    spec = next(s for s in registry.discover(registry.DEFAULT_DATASETS_ROOT) if s.id == "eval-math-v1")
    row = next(line.split() for line in lines[header:] if line.split()[:1] == ["eval-math-v1"])
    assert row[3] == f"{spec.card['rows']:,}" and row[4] == workload.dataset.sha256[:12] and row[5] == "pinned"
    columns = lines[header].index("ROWS") + len("ROWS")  # right-aligned under its header
    assert all(line[columns - 1].isdigit() for line in lines[header + 1 : header + 4])


def _main(capsys, *args: str) -> tuple[int, str, str]:
    from atlas_assets.cli import main

    try:
        code = main(list(args))
    except SystemExit as exit_:  # argparse: --help and usage errors
        code = exit_.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_errors_name_the_file_and_field_and_exit_1(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ndataset: {id: x, sha256: '" + "0" * 64 + "'}\nkind: eval\ninput_tokens: 3\nscorer: exact\nconcurrency: 0\n")
    code, _, err = _main(capsys, "eval", "run", "--workload", str(bad), "--engine", "sim-strong")
    assert code == 1 and f"{bad}: concurrency: Input should be greater than or equal to 1" in err
    code, _, err = _main(capsys, "eval", "run", "--workload", "eval-instruction-v1", "--engine", "nope")
    assert code == 1 and "unknown engine 'nope'" in err
    code, _, err = _main(capsys, "eval", "run", "--workload", "x", "--engine", "y", "--limit", "0")
    assert code == 2 and "must be >= 1, got 0" in err
    code, _, err = _main(capsys, "eval", "rescore", str(tmp_path))
    assert code == 1 and f"{tmp_path / 'results.json'}: no results.json (not a run folder" in err


def test_help_teaches(capsys):
    code, out, _ = _main(capsys, "--help")
    assert code == 0 and "atlas eval run" in out and "atlas sim serve" in out
    _, out, _ = _main(capsys, "eval", "run", "--help")
    for expected in ("fingerprint", "resumes", "examples:", "exit status", "--limit", "--model", "Ctrl-C"):
        assert expected in out
    assert "McNemar" in _main(capsys, "eval", "compare", "--help")[1]


def test_the_atlas_cli_does_not_import_dagster():
    code = (
        "import sys; from atlas_assets.cli import build_parser; build_parser(); "
        "import atlas_assets.evals.runner, atlas_assets.evals.compare; print('dagster' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "False", result.stderr


def test_list_reports_names_dagster_cannot_take_and_still_lists_the_rest(tmp_path, datasets_root):
    import yaml

    from tests.core.hostile import GOOD_UNICODE, HOSTILE_NAMES

    write_dataset(datasets_root, "syn-v1", "prompts", prompt_rows(3))
    workloads = tmp_path / "workloads"
    write_workload(workloads, datasets_root, "syn-v1", kind="serve", scorer=None)
    write_workload(workloads, datasets_root, "syn-v1", workload_id="x...y", kind="serve", scorer=None)
    engine = {"kind": "openai", "base_url": "http://127.0.0.1:9"}
    engines = tmp_path / "engines.yaml"
    engines.write_text(
        yaml.safe_dump({"engines": {"good": engine, GOOD_UNICODE: engine, **{n: engine for n, _, _ in HOSTILE_NAMES}}}, allow_unicode=True)
    )
    where = ("--engines", str(engines), "--workloads", str(workloads), "--datasets", str(datasets_root))
    listed = _atlas("eval", "list", *where)
    assert listed.returncode == 1, listed.stderr
    assert "good " in listed.stdout and GOOD_UNICODE in listed.stdout and "syn-v1" in listed.stdout and "pinned" in listed.stdout
    errors = [line for line in listed.stderr.splitlines() if line.startswith("error: ")]
    for _name, shown, says in HOSTILE_NAMES:
        assert f"error: {engines}: engines.{shown}: engine name: {says}" in listed.stderr
    assert f"error: {workloads / 'x...y.yaml'}: id: workload id: contains '...' (Dagster's partition-range separator) (line 1)" in errors
    assert len(errors) == len(HOSTILE_NAMES) + 1
    refused = _atlas("eval", "run", "--workload", "syn-v1", "--engine", "a|b", *where)  # a command that runs: refuses the file
    assert refused.returncode == 1 and f"{engines}: engines.'a|b': engine name: contains '|'" in refused.stderr
    refused = _atlas("eval", "run", "--workload", "x...y", "--engine", "http://127.0.0.1:9", *where)
    assert refused.returncode == 1 and "x...y.yaml: id: workload id: contains '...'" in refused.stderr


def test_write_missing_never_overwrites_a_workload_file_that_has_problems(tmp_path, datasets_root, capsys):
    write_dataset(datasets_root, "syn-v1", "prompts", prompt_rows(3))
    broken = tmp_path / "workloads" / "syn-v1.yaml"
    broken.parent.mkdir()
    broken.write_text("id: syn-v1\nkind: serve\n")
    code, out, err = _main(capsys, "eval", "list", "--write-missing", "--workloads", str(broken.parent), "--datasets", str(datasets_root))
    assert code == 1 and f"error: {broken}: dataset: required field is missing" in err
    assert f"NOT DRAFTED: {broken} exists" in out and broken.read_text() == "id: syn-v1\nkind: serve\n"


def test_the_run_table_groups_failed_requests_by_reason():
    from atlas_assets.evals.cli import results_table

    results = partial_results(
        "abc",
        failures=[
            Failure(id="a", error="HTTP 400: context", error_kind="http_4xx", status=400),
            Failure(id="b", error="HTTP 400: context", error_kind="http_4xx", status=400),
            Failure(id="c", error="connection reset", error_kind="connection", status=None),
        ],
    )
    lines = results_table(results).splitlines()
    failed = [line for line in lines if line.startswith("  failed")]
    assert failed[0].split()[1:4] == ["2", "http_4xx", "(HTTP"] and "connection" in failed[1] and len(failed) == 2


def test_the_run_table_reads_like_vllm_bench_serve_and_orders_difficulties():
    from atlas_assets.evals.cli import results_table
    from atlas_assets.evals.documents import Breakdown

    results = partial_results("abc", failures=[])
    groups = {k: Breakdown(total=4, correct=c, failed=0, accuracy=c / 4) for k, c in (("easy", 4), ("hard", 1), ("medium", 2))}
    results = results.model_copy(update={
        "scores": results.scores.model_copy(update={"by_difficulty": groups}),
        "metrics": results.metrics.model_copy(update={"duration_s": 12.5, "request_throughput": 0.96, "output_token_throughput": 40.0,
                                                      "total_token_throughput": 52.25}),
    })  # fmt: skip
    lines = results_table(results).splitlines()
    assert next(line for line in lines if line.startswith("duration")).startswith("duration    12.50 s (benchmark duration")
    assert "52.2 total tok/s" in next(line for line in lines if line.startswith("throughput"))
    breakdown = next(line for line in lines if "easy" in line)
    assert breakdown.index("easy") < breakdown.index("medium") < breakdown.index("hard")
