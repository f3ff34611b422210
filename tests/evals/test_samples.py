"""The per-sample viewer: `atlas eval show` and the report.html every run writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from atlas_assets.evals import samples
from atlas_assets.evals.engines import Engine
from atlas_assets.evals.runner import run_eval
from atlas_assets.evals.workloads import resolve_workload
from tests.helpers.evals import checkpoint_record, partial_results


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    workload = resolve_workload("eval-math-v1")
    for name, preset in (("weak", "sim-weak"), ("strong", "sim-strong")):
        run_eval(workload, Engine(name=name, kind="simulator", simulator={"preset": preset}), root / name, limit=20)
    return root / "weak", root / "strong"


def _atlas(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "atlas_assets.cli", "eval", *args], capture_output=True, text=True, timeout=120)


def test_every_run_writes_a_report_page_with_each_row(two_runs):
    weak, _ = two_runs
    page = (weak / samples.REPORT).read_text(encoding="utf-8")
    run = samples.load_run(weak)
    assert len(run.samples) == 20 and all(f"id='{s.id}'" in page for s in run.samples)
    wrong = [s for s in run.samples if s.verdict == "wrong"]
    assert wrong and f"accuracy <b>{run.results.scores.accuracy * 100:.1f} %</b>" in page
    assert "<script>" in page.split("</head>")[0] and "<script" not in page.split("</head>")[1]


def test_show_prints_prompt_output_answers_and_reason(two_runs):
    weak, _ = two_runs
    result = _atlas("show", str(weak), "--wrong")
    assert result.returncode == 0, result.stderr
    run = samples.load_run(weak)
    wrong = [s for s in run.samples if s.verdict == "wrong"]
    assert f"{len(wrong)} of 20 rows" in result.stdout
    assert result.stdout.count("=== ") == len(wrong) and "--- prompt\nuser: " in result.stdout
    assert f"expected {wrong[0].expected!r}" in result.stdout
    one = _atlas("show", str(weak), "--id", run.samples[0].id)
    assert one.stdout.count("=== ") == 1 and run.samples[0].id in one.stdout


def test_vs_lists_rows_whose_verdict_differs_and_refuses_other_bytes(two_runs, tmp_path):
    weak, strong = two_runs
    pairs = samples.differing(samples.load_run(weak), samples.load_run(strong))
    result = _atlas("show", str(weak), "--vs", str(strong))
    assert result.returncode == 0 and f"{len(pairs)} row(s) whose verdict differs" in result.stdout
    assert pairs and all(a.verdict != b.verdict for a, b in pairs)
    page = tmp_path / "vs.html"
    assert _atlas("show", str(weak), "--vs", str(strong), "--html", str(page)).returncode == 0
    assert f"{len(pairs)} rows differ" in page.read_text(encoding="utf-8")
    other = tmp_path / "other"
    other.mkdir()
    doc = json.loads((strong / "results.json").read_text())
    doc["dataset"]["sha256"] = "0" * 64
    (other / "results.json").write_text(json.dumps(doc))
    refused = _atlas("show", str(weak), "--vs", str(other))
    assert refused.returncode != 0 and "read different bytes" in refused.stderr


def test_model_output_cannot_inject_markup_into_the_page():
    row = {"id": "x<1>", "prompt": "p", "answer": "<b>"}
    record = checkpoint_record(
        "x<1>",
        content="<script>alert(1)</script><img src=x onerror=alert(2)>",
        score={"scorer": "exact", "correct": False, "failed": False, "extracted": "</td><script>", "detail": "wrong <i>"},
    )
    body = {"messages": [{"role": "user", "content": "<iframe src=//evil>"}]}
    page = samples.render_html(samples.Run(Path("."), partial_results(), [samples.Sample("x<1>", row, body, record)]))
    body_html = page.split("</head>")[1]
    for hostile in ("<script", "<img", "<iframe", "</td><script>", "<i>"):
        assert hostile not in body_html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body_html


def test_show_on_a_folder_without_results_is_a_clear_error(tmp_path):
    result = _atlas("show", str(tmp_path))
    assert result.returncode != 0 and "no results.json" in result.stderr


@pytest.mark.parametrize(
    "damage, says",
    [(lambda raw: raw[:300], "results.json: not readable JSON"), (lambda raw: b"[]", "results.json: Input should be a valid dictionary")],
)
def test_a_damaged_results_file_is_a_clear_error(two_runs, tmp_path, damage, says):
    weak, _ = two_runs
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "results.json").write_bytes(damage((weak / "results.json").read_bytes()))
    result = _atlas("show", str(broken))
    assert result.returncode != 0 and says in result.stderr and "Traceback" not in result.stderr


def test_torn_and_huge_checkpoint_lines_are_skipped(two_runs, tmp_path):
    import shutil

    weak, _ = two_runs
    copy = tmp_path / "copy"
    shutil.copytree(weak, copy)
    with open(copy / "checkpoint.jsonl", "ab") as handle:
        handle.write(b"\xff\xfe" + b"x" * 5_000_000 + b'\n[1, 2]\n{"id": 5}\n')
    run = samples.load_run(copy)
    assert len(run.samples) == 20 and all(s.record is not None for s in run.samples)


def test_a_table_cell_is_escaped_cut_and_never_reads_none():
    from atlas_assets.evals.samples import CELL_LIMIT, _cell

    assert _cell(None) == "—"
    assert _cell("<b>" + "x" * 500) == "&lt;b&gt;" + "x" * (CELL_LIMIT - 3) + "…"
    assert _cell(42) == "42"
