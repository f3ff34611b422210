"""Loading the declarative files (workloads/*.yaml, engines.yaml) into pydantic models.

Every error names the file and the field (a dotted path such as
`engines.sim-default.simulator.skill.easy`) and, when it is known, the line, so a typo is
found without reading a traceback. `load_model` refuses a file with any problem (the CLIs
that run something); atlas_assets.core.problems.load_entries keeps the entries that
validate and reports the rest (the Dagster load path, and listings).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence, TypeVar

from pydantic import BaseModel, ValidationError

from atlas_assets.core.errors import AtlasError
from atlas_assets.core.problems import FileProblem, read_document, validation_problems

M = TypeVar("M", bound=BaseModel)


class ConfigError(AtlasError, ValueError):
    """A workload or engines file that cannot be read or does not validate; `problems` holds
    them one by one when they come from a file."""

    def __init__(self, message: str, problems: Sequence[FileProblem] = ()):
        super().__init__(message)
        self.problems = list(problems)

    @classmethod
    def of(cls, problems: Sequence[FileProblem]) -> "ConfigError":
        return cls("\n".join(str(p) for p in problems), problems)


def load_model(path: str | Path, model: type[M], **context: Any) -> M:
    """Validate a file against `model`; raise ConfigError naming the file and every bad field."""
    data, problems = read_document(path)
    if problems:
        raise ConfigError.of(problems)
    try:
        return model.model_validate(data, context=context or None)
    except ValidationError as exc:
        raise ConfigError.of(validation_problems(path, exc)) from None
