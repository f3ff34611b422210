"""Pydantic Evals, both ways (#14 deliverable 2), against the real `pydantic-evals` package."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic_evals import Case as PECase
from pydantic_evals import Dataset
from pydantic_evals.evaluators import Contains, EqualsExpected, IsInstance, MaxDuration

from autobench import evals_format, files
from tests.helpers.autobench import CURATED, run_cli

BENCH = """\
benchmark:
  routing:
    dataset:
      source: file://{source}
      version: v1
    run:
      python: autobench.examples.benchmark_task:run
      concurrency: 1
    variants:
      current: {{}}
"""


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_export_round_trip_through_pydantic_evals(tmp_path: Path, suffix: str, request_file: Path) -> None:
    curated = tmp_path / "curated.yaml"
    curated.write_text(CURATED)
    assert run_cli("dataset", "freeze", "curated.yaml", cwd=tmp_path).returncode == 0
    gen = run_cli(
        "dataset",
        "generate",
        "autobench.examples.routing:generate_cases",
        "--request",
        str(request_file),
        "--output",
        "gen.yaml",
        "--id",
        "gen",
        "--version",
        "v1",
        cwd=tmp_path,
    )
    assert gen.returncode == 0, gen.stderr
    for source in ("curated.yaml", "gen.yaml"):
        out = tmp_path / (source + ".pe" + suffix)
        done = run_cli("dataset", "export", source, "--format", "pydantic-evals", "--output", out.name, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        ours = files.load_dataset(tmp_path / source).dataset
        theirs = Dataset[object, object, object].from_file(out)
        assert theirs.name == ours.id
        assert [(c.name, c.inputs, c.expected_output) for c in theirs.cases] == [(c.id, c.input, c.expected) for c in ours.cases]
        for mine, pe in zip(ours.cases, theirs.cases):
            assert pe.metadata == {**mine.metadata, "autobench": {"dataset": ours.id, "version": "v1", "dataset_sha256": ours.sha256}}
    refused = run_cli("dataset", "export", "gen.yaml", "--format", "pydantic-evals", "--output", out.name, cwd=tmp_path)
    assert refused.returncode == 1 and "--force" in refused.stderr


def _pe_dataset() -> Dataset:
    return Dataset[object, object, object](
        name="pe-routing",
        cases=[
            PECase(
                name="refund",
                inputs={"message": "Refund a duplicate charge"},
                expected_output={"route": "billing"},
                metadata={"owner": "evals"},
                evaluators=(Contains(value={"route": "billing"}),),
            ),
            PECase(name="login", inputs={"message": "I cannot log in"}, expected_output={"route": "support"}),
        ],
        evaluators=[EqualsExpected(), IsInstance(type_name="dict"), MaxDuration(seconds=5)],
    )


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_run_consumes_a_file_pydantic_evals_wrote(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / ("pe" + suffix)
    _pe_dataset().to_file(path)
    bench = tmp_path / "benchmark.yaml"
    bench.write_text(BENCH.format(source=path.name))
    done = run_cli("run", str(bench), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "pe-routing@v1" in done.stdout and "100.0%" in done.stdout
    rows = [json.loads(line) for line in (tmp_path / ".autobench/results/routing/results.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and all(r["passed"] for r in rows)
    names = {r["case_id"]: sorted(e["name"] for e in r["evaluators"]) for r in rows}
    assert names == {
        "refund": ["contains", "equals-expected", "is-instance", "max-duration"],
        "login": ["equals-expected", "is-instance", "max-duration"],
    }
    imported = evals_format.read(path, version="v1")
    assert imported.dataset.source == "imported" and imported.dataset.imported_from.format == "pydantic-evals"
    assert imported.dataset.cases[0].metadata == {"owner": "evals"}
    # a pinned sha256 refuses an edited file
    bench.write_text(BENCH.format(source=path.name).replace("version: v1", f"version: v1\n      sha256: '{imported.dataset.sha256}'"))
    assert run_cli("run", str(bench), cwd=tmp_path).returncode == 0
    path.write_text(path.read_text().replace("I cannot log in", "I cannot sign in"))
    pinned = run_cli("run", str(bench), cwd=tmp_path)
    assert pinned.returncode == 1 and "does not match the pinned" in pinned.stderr


def test_unmappable_evaluators_are_clear_errors(tmp_path: Path) -> None:
    path = tmp_path / "pe.yaml"
    data = _pe_dataset()
    data.cases[1].evaluators = [Contains(value="x", as_strings=True)]
    data.to_file(path)
    bench = tmp_path / "benchmark.yaml"
    bench.write_text(BENCH.format(source=path.name))
    refused = run_cli("run", str(bench), cwd=tmp_path)
    assert refused.returncode == 1
    assert f"{path}: cases.1.evaluators.0.Contains.as_strings" in refused.stderr
    assert not (tmp_path / ".autobench").exists()
    cases = [
        ({"HasMatchingSpan": {"query": {"name_equals": "x"}}}, "evaluator 'HasMatchingSpan' cannot be mapped"),
        ({"IsInstance": "MyModel"}, "IsInstance.type_name: 'MyModel' cannot be mapped"),
        ({"LLMJudge": {"rubric": "polite", "model": "openai:gpt-4o"}}, "LLMJudge.model"),
        ({"LLMJudge": "polite"}, "set dataset.judge_engine"),
    ]
    for spec, message in cases:
        raw = {"name": "d", "cases": [{"name": "a", "inputs": 1}], "evaluators": [spec]}
        with pytest.raises(evals_format.FormatError, match="evaluators.0"):
            evals_format.read(path, version="v1", raw=raw)
        with pytest.raises(evals_format.FormatError) as info:
            evals_format.read(path, version="v1", raw=raw)
        assert message in str(info.value) and str(path) in str(info.value)
    mapped = evals_format.read(
        path,
        version="v1",
        judge_engine="sim",
        raw={"cases": [{"name": "a", "inputs": 1}], "evaluators": ["LLMJudge" and {"LLMJudge": "polite"}]},
    )
    assert mapped.evaluators == [{"llm-judge": {"rubric": "polite", "engine": "sim", "include_input": False, "include_expected": False}}]
    with pytest.raises(evals_format.FormatError, match="cases.0.name"):
        evals_format.read(path, version="v1", raw={"cases": [{"inputs": 1}]})


def test_evaluators_export_loads_in_pydantic_evals(tmp_path: Path) -> None:
    bench = files.BenchmarkSpec.model_validate(
        {
            "dataset": {"source": "file://d.yaml", "version": "v1"},
            "run": {"python": "m:f"},
            "variants": {"a": {}},
            "evaluators": [
                "equals-expected",
                {"contains": {"value": "x", "case_sensitive": False}},
                {"is-instance": "null"},
                {"max-duration": 2},
            ],
        }
    )
    curated = tmp_path / "c.yaml"
    curated.write_text(CURATED)
    files.freeze_dataset(curated)
    dataset = files.load_dataset(curated).dataset
    out = tmp_path / "out.yaml"
    out.write_bytes(evals_format.export_bytes(evals_format.export(dataset, bench.evaluators), out))
    theirs = Dataset[object, object, object].from_file(out)
    assert [type(e).__name__ for e in theirs.evaluators] == ["EqualsExpected", "Contains", "IsInstance", "MaxDuration"]
    assert theirs.evaluators[1].case_sensitive is False and theirs.evaluators[2].type_name == "NoneType"
    back = evals_format.read(out, version="v1")
    assert back.evaluators == [
        "equals-expected",
        {"contains": {"value": "x", "case_sensitive": False}},
        {"is-instance": {"type": "null"}},
        {"max-duration": {"seconds": 2}},
    ]
    python = files.BenchmarkSpec.model_validate(
        {**bench.model_dump(by_alias=True, exclude={"evaluators"}), "evaluators": [{"python": "m:f"}]}
    )
    with pytest.raises(evals_format.FormatError, match="benchmark.evaluators.0: evaluator 'python' has no Pydantic Evals equivalent"):
        evals_format.export(dataset, python.evaluators)


def test_seed_cases_in_both_shapes(tmp_path: Path) -> None:
    request = tmp_path / "request.yaml"
    request.write_text("""\
generation:
  request:
    seed_cases:
      - {id: ours, input: {message: a}, expected: {route: billing}}
      - {name: theirs, inputs: {message: b}, expected_output: {route: support}, metadata: {k: 1}}
""")
    loaded = files.load_request(request)
    assert [(c.id, c.input, c.expected, c.metadata) for c in loaded.seed_cases] == [
        ("ours", {"message": "a"}, {"route": "billing"}, {}),
        ("theirs", {"message": "b"}, {"route": "support"}, {"k": 1}),
    ]
    request.write_text("generation:\n  request:\n    seed_cases:\n      - {name: x, inputs: 1, evaluators: [EqualsExpected]}\n")
    with pytest.raises(files.DocumentError, match=r"seed_cases\.0.*evaluators cannot be mapped"):
        files.load_request(request)
    request.write_text("generation:\n  request:\n    seed_cases:\n      - {inputs: 1}\n")
    with pytest.raises(files.DocumentError, match=r"seed_cases\.0.*needs a name"):
        files.load_request(request)
