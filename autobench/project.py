"""The Autobench project file: which generation requests and benchmarks the graph knows.

    generations:
      <dataset id>: {generator: MODULE:FUNCTION, request: PATH, output: PATH, version: V}
    benchmarks:
      - PATH.benchmark.yaml

Paths are relative to the project file. A generation id is a Dagster partition key (the
`autobench_generation_requests` dynamic partitions) and a benchmark name a part of its
asset's key, so both obey atlas_assets/core/names.py.

`load_project` refuses a project file with any problem; `load_project_report` keeps what
validates -- the generations, and the benchmarks of every benchmark file -- and reports the
rest, for the Dagster load path. Both read YAML with `autobench.yamlio` (the safe loader).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from atlas_assets.core.names import PartitionKey
from atlas_assets.core.problems import FileProblem, field_path, line_of, validate_entries
from autobench import files, yamlio

ENV_PROJECT = "AUTOBENCH_PROJECT"
DEFAULT_PROJECT = Path(__file__).resolve().parent / "examples" / "autobench.yaml"


class GenerationEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    generator: str = Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
    request: str
    output: str
    version: str


class ProjectFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    generations: dict[PartitionKey("generation id"), GenerationEntry] = Field(default_factory=dict)  # type: ignore[valid-type]
    benchmarks: list[str] = Field(default_factory=list)


@dataclass(frozen=True)
class ProjectReport:
    """What of a project validates: `project` holds only the generations that do;
    `benchmarks` every valid benchmark of its benchmark files by name, with its file."""

    base: Path
    project: ProjectFile
    benchmarks: dict[str, tuple[Path, files.BenchmarkSpec]]
    problems: list[FileProblem]


def project_path() -> Path:
    value = os.environ.get(ENV_PROJECT, "").strip()
    return Path(value).resolve() if value else DEFAULT_PROJECT


def load_project(path: Path | None = None) -> tuple[Path, ProjectFile]:
    path = path or project_path()
    return path.parent, files.load_document(path, ProjectFile)


def load_project_report(path: Path | None = None) -> ProjectReport:
    """The project's valid generations and benchmarks and the problems of the rest (a bad
    generation id or benchmark name included; of two benchmarks with one name, the first is
    kept). A project file that cannot be read or has a bad `benchmarks` list yields none."""
    path = path or project_path()
    project, problems = _load_entries(path, ProjectFile, "generations")
    project = project or ProjectFile()
    benchmarks: dict[str, tuple[Path, files.BenchmarkSpec]] = {}
    for relative in project.benchmarks:
        bench_file = path.parent / relative
        document, found = _load_entries(bench_file, files.BenchmarkFile, "benchmark")
        problems.extend(found)
        for name, spec in document.benchmark.items() if document else ():
            if name in benchmarks:
                problems.append(
                    FileProblem(
                        str(bench_file),
                        field_path(["benchmark", name]),
                        f"benchmark name: also defined in {benchmarks[name][0]} (kept there; the name is its asset's key)",
                        line_of(bench_file, ["benchmark", name]),
                    )
                )
            else:
                benchmarks[name] = (bench_file, spec)
    return ProjectReport(path.parent, project, benchmarks, problems)


def _load_entries(path: Path, model: type[BaseModel], field: str) -> tuple[Any, list[FileProblem]]:
    """`validate_entries` of a file read with Autobench's safe YAML loader."""
    try:
        data, _ = yamlio.read_yaml(path)
    except yamlio.YamlError as exc:
        return None, [FileProblem(str(path), None, str(exc).removeprefix(f"{path}: "))]
    if data is None:
        return None, [FileProblem(str(path), None, "the file is empty")]
    return validate_entries(path, data, model, field)
