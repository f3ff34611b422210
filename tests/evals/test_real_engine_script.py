"""bench/real_engine.py's pure helpers: Prometheus text, the per-workload figures, the table.

Nothing here builds or starts llama-server.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "real_engine.py"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("real_engine", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["real_engine"] = module  # dataclasses resolve annotations through it
    spec.loader.exec_module(module)
    return module


METRICS = """\
# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed, excluding cached tokens
# TYPE llamacpp:prompt_tokens_total counter
llamacpp:prompt_tokens_total 1.23457e+06
llamacpp:prompt_seconds_total 12.5
llamacpp:spec_decode_num_accepted_tokens_per_pos_total{position="0"} 7

llamacpp:requests_processing NaN
bogus_line_without_value
llamacpp:tokens_predicted_total not-a-number
"""


def test_parse_prometheus_counters_labels_and_junk(script: ModuleType) -> None:
    values = script.parse_prometheus(METRICS)
    assert values["llamacpp:prompt_tokens_total"] == pytest.approx(1_234_570)
    assert values["llamacpp:prompt_seconds_total"] == 12.5
    assert values['llamacpp:spec_decode_num_accepted_tokens_per_pos_total{position="0"}'] == 7
    assert "bogus_line_without_value" not in values
    assert "llamacpp:tokens_predicted_total" not in values
    assert values["llamacpp:requests_processing"] != values["llamacpp:requests_processing"]  # NaN kept as NaN


def _results() -> dict:
    return {
        "metrics": {
            "requests_completed": 4,
            "requests_failed": 1,
            "requests_retried": 2,
            "input_tokens_total": 400,
            "output_tokens_total": 120,
            "usage_missing": 0,
            "ttft_ms": {"p50": 50.0, "mean": 60.0},
            "tpot_ms": {"p50": 10.0, "mean": 11.0},
            "e2e_ms": {"p50": 500.0, "mean": 550.0},
        },
        "scores": {"accuracy": 0.5, "correct": 2, "total": 4},
        "run": {"rows_done": 5, "rows_selected": 5},
        "warnings": ["tools were probably dropped"],
    }


def _checkpoint() -> list[dict]:
    return [
        {"id": "a", "error": None, "finish_reason": "stop"},
        {"id": "b", "error": None, "finish_reason": "length"},
        {"id": "c", "error": "HTTP 500: image input is not supported", "error_kind": "unsupported_input", "status": 500},
    ]


def test_workload_figures_set_harness_against_server_deltas(script: ModuleType) -> None:
    before = {
        script.PROMPT_SECONDS: 1.0,
        script.PREDICTED_SECONDS: 2.0,
        script.PREDICTED_TOKENS: 100,
        script.PROMPT_TOKENS: 1000,
        script.PROMPT_CACHED: 0,
    }
    after = {
        script.PROMPT_SECONDS: 1.2,
        script.PREDICTED_SECONDS: 3.2,
        script.PREDICTED_TOKENS: 220,
        script.PROMPT_TOKENS: 1300,
        script.PROMPT_CACHED: 100,
    }
    f = script.workload_figures(_results(), _checkpoint(), before, after)
    assert f["accuracy"] == 0.5 and f["failed"] == 1 and f["retried"] == 2
    assert f["failures"] == {"unsupported_input": 1}
    assert f["failure_examples"] == {"unsupported_input": "c: HTTP 500: image input is not supported"}
    assert f["length_stops"] == 1
    assert f["server_prompt_ms_per_request"] == pytest.approx(50.0)  # 0.2 s over 4 completed
    assert f["server_decode_ms_per_token"] == pytest.approx(10.0)  # 1.2 s over 120 tokens
    assert f["server_prompt_tokens"] == 400 and f["server_prompt_cached"] == 100
    assert f["harness_output_tokens"] == 120 and f["server_predicted_tokens"] == 120
    assert f["warnings"] == ["tools were probably dropped"]


def test_workload_figures_serve_workload_and_missing_counters(script: ModuleType) -> None:
    results = {**_results(), "scores": None, "warnings": []}
    results["metrics"] = {**results["metrics"], "usage_missing": 3}
    f = script.workload_figures(results, [], {}, {})
    assert f["accuracy"] is None
    assert f["server_decode_ms_per_token"] is None and f["server_predicted_tokens"] is None
    assert f["warnings"] == ["3 responses carried no usage (token counts estimated)"]


def test_report_lists_figures_errors_and_warnings(script: ModuleType) -> None:
    figures = script.workload_figures(_results(), _checkpoint(), {}, {})
    figures["wall_s"] = 12.3
    text = script.report({"eval-x": figures, "eval-y": {"error": "atlas eval run exited 1: boom"}})
    assert "50.0% (2/4)" in text
    assert "1 (unsupported_input 1)" in text
    assert "50.0 / 60.0" in text  # TTFT p50 / mean
    assert "400 / -" in text  # no server counters given
    assert "eval-x: tools were probably dropped" in text
    assert "eval-x: failed unsupported_input, e.g. c: HTTP 500: image input is not supported" in text
    assert "eval-y: atlas eval run exited 1: boom" in text


def test_render_table_aligns_columns(script: ModuleType) -> None:
    text = script.render_table(["name", "n"], [["a", "1"], ["long-name", "100"]])
    lines = text.splitlines()
    assert lines[0] == "name         n"
    assert lines[2] == "a            1"
    assert lines[3] == "long-name  100"


def test_read_checkpoint_keeps_the_last_record_per_row(script: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "checkpoint.jsonl"
    rows = [{"id": "a", "error": "x"}, {"id": "b", "error": None}, {"id": "a", "error": None}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert sorted((r["id"], r["error"]) for r in script.read_checkpoint(path)) == [("a", None), ("b", None)]
    assert script.read_checkpoint(tmp_path / "missing.jsonl") == []


def test_engines_file_is_a_valid_openai_engine(script: ModuleType, tmp_path: Path) -> None:
    from atlas_assets.evals.engines import load_engines

    path = tmp_path / "engines.yaml"
    script.write_engines_file(path, "http://127.0.0.1:12345/v1", slots=4, timeout_s=600)
    engine = load_engines(path).engines[script.ENGINE_NAME]
    assert engine.kind == "openai" and engine.base_url == "http://127.0.0.1:12345/v1"
    assert engine.model == script.MODEL_ALIAS and engine.concurrency == 4
