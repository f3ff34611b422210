"""The LLM-backed generator against the reference simulator (a real HTTP server on loopback)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from atlas_assets.simulator import start_simulator
from autobench import CaseGeneratorInput, GenerationDeterminism, generate_dataset_sync
from autobench.llm import generate_cases, parse_proposals
from tests.helpers.autobench import run_cli


@pytest.fixture(scope="module")
def sim():
    with start_simulator("sim-zero-latency") as handle:
        yield handle


def _request(sim, **llm) -> CaseGeneratorInput:
    return CaseGeneratorInput(
        seed=3,
        prompt="Generate support routing cases.",
        prompt_asset_version="prompt.routing@v1",
        settings={"llm": {"engine": sim.base_url, "per_request": 4, **llm}},
    )


def test_complete_batch_with_provenance_usage_cost(sim) -> None:
    result = generate_dataset_sync(
        generate_cases,
        _request(
            sim,
            count=3,
            max_requests=10,
            case_schema={
                "type": "object",
                "required": ["id", "input", "expected"],
                "properties": {"input": {"type": "object", "required": ["message"]}},
            },
        ),
        generator_id="autobench.llm:generate_cases",
        dataset_id="llm-routing",
        version="v1",
    )
    batch = result.batch
    assert batch.complete and len(batch.cases) == 3
    assert batch.determinism is GenerationDeterminism.NOT_GUARANTEED
    assert batch.model_provider == "inference-atlas-simulator" and batch.model_name == sim.model
    assert batch.usage.requests >= 1 and batch.usage.input_tokens > 0 and batch.usage.output_tokens > 0
    expected_cost = (batch.usage.input_tokens * 0.5 + batch.usage.output_tokens * 1.5) / 1e6
    assert batch.cost.amount == pytest.approx(expected_cost) and batch.cost.currency == "usd"
    assert not any(c.id.startswith("sim-malformed") for c in batch.cases)  # schema-invalid proposals dropped
    contents = [(c.input["message"], c.expected["route"]) for c in batch.cases]
    assert len(set(contents)) == len(contents) and len({c.id for c in batch.cases}) == 3  # deduplicated


def test_budget_gives_incomplete_batch_via_cli(sim, tmp_path: Path) -> None:
    request = tmp_path / "req.yaml"
    request.write_text(
        yaml.safe_dump(
            {
                "generation": {
                    "request": {
                        "seed": 1,
                        "prompt": {"content": "Generate cases.", "asset_version": "p@v1"},
                        "settings": {"llm": {"engine": sim.base_url, "count": 50, "per_request": 4, "max_requests": 2}},
                    }
                }
            }
        )
    )
    done = run_cli(
        "dataset",
        "generate",
        "autobench.llm:generate_cases",
        "--request",
        str(request),
        "--output",
        "out/llm.yaml",
        "--id",
        "llm",
        "--version",
        "v1",
        "--force",
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["llm.incomplete.yaml"]
    sidecar = yaml.safe_load((tmp_path / "out" / "llm.incomplete.yaml").read_text())["generation"]
    assert "max_requests=2" in sidecar["incomplete_reason"] and sidecar["usage"]["requests"] == 2
    assert 0 < len(sidecar["cases"]) <= 8


def test_unreachable_engine_fails_and_writes_nothing(tmp_path: Path) -> None:
    request = tmp_path / "req.yaml"
    request.write_text(
        yaml.safe_dump(
            {
                "generation": {
                    "request": {
                        "prompt": "x",
                        "settings": {"llm": {"engine": "http://127.0.0.1:9/v1", "count": 1, "timeout_s": 2}},
                    }
                }
            }
        )
    )
    failed = run_cli(
        "dataset",
        "generate",
        "autobench.llm:generate_cases",
        "--request",
        str(request),
        "--output",
        "out/llm.yaml",
        "--id",
        "llm",
        "--version",
        "v1",
        cwd=tmp_path,
    )
    assert failed.returncode == 1 and "generation failed" in failed.stderr
    assert not (tmp_path / "out").exists()


def test_parse_proposals_tolerates_fences() -> None:
    assert parse_proposals('```json\n{"cases": [{"id": "a"}]}\n```') == [{"id": "a"}]
    assert parse_proposals("not json") == [] and parse_proposals(None) == []
