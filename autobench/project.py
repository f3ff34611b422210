"""The Autobench project file: which generation requests and benchmarks the graph knows.

    generations:
      <dataset id>: {generator: MODULE:FUNCTION, request: PATH, output: PATH, version: V}
    benchmarks:
      - PATH.benchmark.yaml

Paths are relative to the project file.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from autobench import files

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
    generations: dict[str, GenerationEntry] = Field(default_factory=dict)
    benchmarks: list[str] = Field(default_factory=list)


def project_path() -> Path:
    value = os.environ.get(ENV_PROJECT, "").strip()
    return Path(value).resolve() if value else DEFAULT_PROJECT


def load_project(path: Path | None = None) -> tuple[Path, ProjectFile]:
    path = path or project_path()
    return path.parent, files.load_document(path, ProjectFile)
