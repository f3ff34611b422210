"""A benchmark through the Python API; written YAML against the published JSON Schema
files (jsonschema, not the pydantic models); package data declared for the YAML files."""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

from autobench import CaseGeneratorInput, generate_dataset_sync, write_generation_result
from autobench.benchmark import BenchmarkError, run_benchmark_file
from autobench.examples.routing import generate_cases
from autobench.files import SCHEMA_DIR, DatasetIntegrityError
from tests.helpers.autobench import REPO

REQ = CaseGeneratorInput(
    seed=17,
    prompt="Generate privacy-safe support routing cases.",
    prompt_asset_version="prompt.routing-generator@v1",
    settings={"route": "billing", "count": 4, "reject": ["generated-001"]},
)

BENCH = """\
# yaml-language-server: $schema=schemas/0.3.0/benchmark_schema.json
benchmark:
  routing:
    dataset:
      source: file://datasets/generated-routing.yaml
      version: v1
    run:
      python: autobench.examples.benchmark_task:run
      concurrency: 2
    variants:
      current: {}
      failing:
        fail_on: generated-000
"""


def _generate(folder: Path, request: CaseGeneratorInput = REQ):
    result = generate_dataset_sync(
        generate_cases, request, generator_id="autobench.examples.routing:generate_cases", dataset_id="generated-routing", version="v1"
    )
    return write_generation_result(result, folder / "datasets" / "generated-routing.yaml", force=True)


def test_benchmark_through_the_python_api(tmp_path: Path) -> None:
    written = _generate(tmp_path)
    bench = tmp_path / "routing.benchmark.yaml"
    bench.write_text(BENCH)
    results = tmp_path / "results"
    out = io.StringIO()
    summaries = run_benchmark_file(bench, results_dir=results, out=out)["routing"]
    by_variant = {s.variant: s for s in summaries}
    assert set(by_variant) == {"current", "failing"}
    assert by_variant["current"].cases == 3 and by_variant["current"].pass_rate == 1.0 and by_variant["current"].errors == 0
    assert by_variant["failing"].errors == 1 and by_variant["failing"].pass_rate == pytest.approx(2 / 3)
    assert by_variant["current"].config_sha256 != by_variant["failing"].config_sha256
    assert "pass rate" in out.getvalue() and "failing" in out.getvalue()
    rows = [json.loads(line) for line in (results / "routing" / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 6 and "generated-001" not in {r["case_id"] for r in rows}  # rejected: not in the dataset
    dataset_sha = yaml.safe_load(written.dataset.read_text())["dataset"]["sha256"]
    assert {r["dataset_sha256"] for r in rows} == {dataset_sha}
    assert all(len(r["case_sha256"]) == 64 and len(r["variant_config_sha256"]) == 64 for r in rows)
    # resume: a rerun records nothing new, the dataset is never regenerated
    before = written.dataset.read_bytes()
    run_benchmark_file(bench, results_dir=results, out=None)
    assert len((results / "routing" / "results.jsonl").read_text().splitlines()) == 6
    assert written.dataset.read_bytes() == before
    summary = json.loads((results / "routing" / "summary.json").read_text())
    assert summary["dataset"]["sha256"] == dataset_sha


def test_python_api_refuses_tampered_and_missing_datasets(tmp_path: Path) -> None:
    bench = tmp_path / "routing.benchmark.yaml"
    bench.write_text(BENCH)
    with pytest.raises(BenchmarkError, match="never runs implicitly"):
        run_benchmark_file(bench, results_dir=tmp_path / "results", out=None)
    assert not (tmp_path / "datasets").exists()
    written = _generate(tmp_path)
    written.dataset.write_text(written.dataset.read_text().replace("route: billing", "route: sales", 1))
    with pytest.raises(DatasetIntegrityError):
        run_benchmark_file(bench, results_dir=tmp_path / "results", out=None)
    assert not (tmp_path / "results").exists()


def _schema(name: str) -> dict:
    return json.loads((REPO / SCHEMA_DIR / name).read_text())


def _validate(path: Path, name: str) -> None:
    text = path.read_text()
    first = text.splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=") and first.endswith(name)
    schema = _schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(yaml.safe_load(text))


def test_written_yaml_validates_against_the_published_json_schemas(tmp_path: Path, request_file: Path) -> None:
    written = _generate(tmp_path)
    _validate(written.dataset, "dataset_schema.json")
    _validate(written.manifest, "generation_manifest_schema.json")
    _validate(request_file, "generation_request_schema.json")
    examples = REPO / "autobench" / "examples"
    _validate(examples / "generated-routing.request.yaml", "generation_request_schema.json")
    _validate(examples / "routing.benchmark.yaml", "benchmark_schema.json")
    incomplete = write_generation_result(
        generate_dataset_sync(
            generate_cases,
            REQ.model_copy(update={"settings": {"count": 4, "incomplete_after": 2}}),
            generator_id="g:f",
            dataset_id="generated-routing",
            version="v1",
        ),
        tmp_path / "datasets" / "generated-routing.yaml",
    )
    _validate(incomplete.incomplete, "generation_manifest_schema.json")
    # the schemas do reject what the models reject
    dataset = yaml.safe_load(written.dataset.read_text())
    del dataset["dataset"]["sha256"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(dataset, _schema("dataset_schema.json"))
    manifest = yaml.safe_load(written.manifest.read_text())
    manifest["generation"]["cases"][0]["status"] = "maybe"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(manifest, _schema("generation_manifest_schema.json"))


def test_yaml_files_are_declared_package_data() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["autobench"]
    package = REPO / "autobench"
    declared = {p.relative_to(package).as_posix() for pattern in patterns for p in package.glob(pattern)}
    needed = {"prices.yaml", "examples/autobench.yaml", "examples/generated-routing.request.yaml", "examples/routing.benchmark.yaml"}
    assert needed <= declared
