"""The project file: generation ids are Dagster partition keys and benchmark names parts of
asset keys; the report keeps what validates, the strict loader refuses the file."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from autobench import files
from autobench.project import load_project, load_project_report
from tests.core.hostile import GOOD_UNICODE, HOSTILE_NAMES

ENTRY = {"generator": "autobench.examples.routing:generate_cases", "request": "r.yaml", "output": "o.yaml", "version": "v1"}
SPEC = {
    "dataset": {"source": "file://o.yaml", "version": "v1"},
    "run": {"python": "autobench.examples.benchmark_task:run"},
    "variants": {"current": {}},
}


def _project(folder: Path, generations: dict, benchmark_files: dict[str, dict]) -> Path:
    for name, benchmarks in benchmark_files.items():
        (folder / name).write_text(yaml.safe_dump({"benchmark": benchmarks}, allow_unicode=True))
    path = folder / "autobench.yaml"
    path.write_text(yaml.safe_dump({"generations": generations, "benchmarks": list(benchmark_files)}, allow_unicode=True))
    return path


@pytest.mark.parametrize("name, shown, says", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_a_generation_id_dagster_cannot_take_is_reported_and_the_rest_loads(tmp_path, name, shown, says):
    path = _project(tmp_path, {"good": ENTRY, GOOD_UNICODE: ENTRY, name: ENTRY}, {"b.benchmark.yaml": {"routing": SPEC}})
    report = load_project_report(path)
    assert sorted(report.project.generations) == ["good", GOOD_UNICODE]
    assert list(report.benchmarks) == ["routing"] and report.benchmarks["routing"][0] == tmp_path / "b.benchmark.yaml"
    (problem,) = report.problems
    assert str(problem).startswith(f"{path}: generations.{shown}: generation id: {says}")
    with pytest.raises(files.DocumentError, match="generation id: "):  # the strict loader refuses the file
        load_project(path)


def test_benchmark_names_are_asset_key_parts_and_one_name_is_one_asset(tmp_path):
    path = _project(
        tmp_path,
        {"good": ENTRY},
        {  # written with sorted keys: modèle, routing, two words
            "a.benchmark.yaml": {"routing": SPEC, "two words": SPEC, "modèle": SPEC},
            "b.benchmark.yaml": {"routing": SPEC, "other": SPEC},
        },
    )
    report = load_project_report(path)
    assert list(report.project.generations) == ["good"]
    assert {name: file.name for name, (file, _) in report.benchmarks.items()} == {
        "routing": "a.benchmark.yaml",
        "other": "b.benchmark.yaml",
    }
    a, b = tmp_path / "a.benchmark.yaml", tmp_path / "b.benchmark.yaml"
    assert [str(p) for p in report.problems] == [
        f"{a}: benchmark.'modèle': benchmark name: contains 'è': a Dagster asset-key part may hold only ASCII letters, "
        "digits, '_', '-' and '.' (Dagster names the asset's op after its key) (line 2)",
        f"{a}: benchmark.'two words': benchmark name: contains ' ': a Dagster asset-key part may hold only ASCII letters, "
        "digits, '_', '-' and '.' (Dagster names the asset's op after its key) (line 11)",
        f"{b}: benchmark.routing: benchmark name: also defined in {a} (kept there; the name is its asset's key) (line 10)",
    ]
    with pytest.raises(files.DocumentError, match="benchmark name: contains ' '"):  # `autobench run` refuses the file
        files.load_document(a, files.BenchmarkFile)


def test_a_project_file_that_cannot_be_read_yields_nothing(tmp_path):
    (tmp_path / "autobench.yaml").write_text("generations: [unclosed\n")
    report = load_project_report(tmp_path / "autobench.yaml")
    assert report.project.generations == {} and report.benchmarks == {}
    assert str(report.problems[0]).startswith(f"{tmp_path / 'autobench.yaml'}: not valid YAML")
    missing = _project(tmp_path, {"good": ENTRY}, {})
    missing.write_text(yaml.safe_dump({"generations": {"good": ENTRY}, "benchmarks": ["nope.benchmark.yaml"]}))
    report = load_project_report(missing)
    assert list(report.project.generations) == ["good"] and report.benchmarks == {}
    assert [p.message.split(":")[0] for p in report.problems] == ["cannot read"]
