"""`autobench run` through the real CLI: matrix identity, resume, refusal, table."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.autobench import run_cli

BENCH = """\
benchmark:
  routing:
    dataset:
      source: file://datasets/generated-routing.yaml
      version: v1
    run:
      python: autobench.examples.benchmark_task:run
      concurrency: 1
    variants:
      current: {}
      candidate:
        keywords: [refund]
        default_route: support
"""


def _setup(tmp_path: Path, request_file: Path) -> Path:
    gen = run_cli(
        "dataset",
        "generate",
        "autobench.examples.routing:generate_cases",
        "--request",
        str(request_file),
        "--output",
        "datasets/generated-routing.yaml",
        "--id",
        "generated-routing",
        "--version",
        "v1",
        cwd=tmp_path,
    )
    assert gen.returncode == 0, gen.stderr
    bench = tmp_path / "benchmark.yaml"
    bench.write_text(BENCH)
    return bench


def _rows(tmp_path: Path) -> list[dict]:
    path = tmp_path / ".autobench" / "results" / "routing" / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_run_resume_table_and_identity(tmp_path: Path, request_file: Path) -> None:
    bench = _setup(tmp_path, request_file)
    dataset_bytes = (tmp_path / "datasets" / "generated-routing.yaml").read_bytes()
    killed = run_cli("run", str(bench), cwd=tmp_path, env={"AUTOBENCH_EXAMPLE_INTERRUPT_AFTER": "3"})
    assert killed.returncode == 130
    assert len(_rows(tmp_path)) == 3
    done = run_cli("run", str(bench), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "resuming, 3 cells" in done.stderr
    rows = _rows(tmp_path)
    assert len(rows) == 2 * 5  # 5 cases (1 seed + 4 generated) x 2 variants, none twice
    assert len({(r["variant"], r["case_id"]) for r in rows}) == 10
    assert len({r["dataset_sha256"] for r in rows}) == 1
    assert len({r["variant_config_sha256"] for r in rows}) == 2
    assert "pass rate" in done.stdout and "current" in done.stdout and "candidate" in done.stdout
    current = next(line for line in done.stdout.splitlines() if line.startswith("current"))
    assert "100.0%" in current
    summary = json.loads((tmp_path / ".autobench/results/routing/summary.json").read_text())
    assert {v["variant"] for v in summary["variants"]} == {"current", "candidate"}
    again = run_cli("run", str(bench), cwd=tmp_path)
    assert again.returncode == 0 and len(_rows(tmp_path)) == 10  # nothing re-run
    assert (tmp_path / "datasets" / "generated-routing.yaml").read_bytes() == dataset_bytes  # never regenerated
    assert not (tmp_path / "datasets" / "generated-routing.incomplete.yaml").exists()


def test_tampered_dataset_refused(tmp_path: Path, request_file: Path) -> None:
    bench = _setup(tmp_path, request_file)
    path = tmp_path / "datasets" / "generated-routing.yaml"
    path.write_text(path.read_text().replace("route: billing", "route: sales", 1))
    refused = run_cli("run", str(bench), cwd=tmp_path)
    assert refused.returncode == 1 and "does not match" in refused.stderr
    assert not (tmp_path / ".autobench").exists()


def test_missing_dataset_and_version_mismatch_refused(tmp_path: Path, request_file: Path) -> None:
    bench = tmp_path / "benchmark.yaml"
    bench.write_text(BENCH)
    missing = run_cli("run", str(bench), cwd=tmp_path)
    assert missing.returncode == 1 and "never runs implicitly" in missing.stderr
    assert not (tmp_path / "datasets").exists()  # run never generates
    _setup(tmp_path, request_file)
    bench.write_text(BENCH.replace("version: v1", "version: v2"))
    mismatch = run_cli("run", str(bench), cwd=tmp_path)
    assert mismatch.returncode == 1 and "version" in mismatch.stderr
