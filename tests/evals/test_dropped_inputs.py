"""Warnings for inputs an engine silently dropped (tools, images), from its own token counts."""

from __future__ import annotations

from atlas_assets.evals.dropped import dropped_input_warnings
from atlas_assets.evals.engines import Engine
from atlas_assets.evals.runner import run_eval
from atlas_assets.evals.workloads import resolve_workload
from tests.helpers.evals import checkpoint_record

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "convert",
            "description": "convert a temperature " * 10,
            "parameters": {"type": "object", "properties": {"celsius": {"type": "number"}}},
        },
    }
]


def _body(text: str, tools=None, images: int = 0) -> dict:
    parts = [{"type": "text", "text": text}] + [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}] * images
    return {"messages": [{"role": "user", "content": parts}], **({"tools": tools} if tools else {})}


def test_tools_without_any_call_and_flat_prompt_tokens_are_reported():
    bodies = {f"r{i}": _body("What is 20 C in F? " * 4, TOOLS) for i in range(5)}
    text_only = {f"r{i}": checkpoint_record(f"r{i}", input_tokens=20) for i in range(5)}
    assert any("tools were probably dropped" in w for w in dropped_input_warnings(bodies, text_only))
    with_schemas = {k: v.model_copy(update={"input_tokens": 20 + 200}) for k, v in text_only.items()}
    assert dropped_input_warnings(bodies, with_schemas) == []
    one_call = {**text_only, "r0": text_only["r0"].model_copy(update={"tool_calls": [{"name": "convert"}]})}
    assert dropped_input_warnings(bodies, one_call) == []  # the engine saw the tools


def test_too_few_measured_rows_say_nothing():
    bodies = {f"r{i}": _body("x" * 40, images=1) for i in range(2)}
    records = {k: checkpoint_record(k, input_tokens=10) for k in bodies}
    assert dropped_input_warnings(bodies, records) == []
    assert dropped_input_warnings(bodies | {"r9": _body("x" * 40, images=1)}, records | {"r9": checkpoint_record("r9")}) == []


def test_a_text_only_engine_on_the_vision_suite_is_reported_and_a_vision_engine_is_not(tmp_path):
    workload = resolve_workload("eval-vision-v1")
    text_only = run_eval(workload, Engine(name="t", kind="simulator", simulator={"preset": "sim-text-only"}), tmp_path / "t", limit=12)
    vision = run_eval(workload, Engine(name="v", kind="simulator", simulator={"preset": "sim-strong"}), tmp_path / "v", limit=12)
    assert any("images were probably dropped" in w for w in text_only.results.warnings)
    assert not any("dropped" in w for w in vision.results.warnings)


def test_an_engine_that_calls_tools_is_not_reported(tmp_path):
    outcome = run_eval(
        resolve_workload("eval-tools-v1"), Engine(name="s", kind="simulator", simulator={"preset": "sim-strong"}), tmp_path / "s", limit=12
    )
    assert not any("tools were probably dropped" in w for w in outcome.results.warnings)
