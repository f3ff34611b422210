"""Loading the declarative files (workloads/*.yaml, engines.yaml) into pydantic models.

Every error names the file and the field (a dotted path such as
`engines.sim-default.simulator.skill.easy`), so a typo is found without reading a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


class ConfigError(ValueError):
    """A workload or engines file that cannot be read or does not validate."""


def read_document(path: str | Path) -> Any:
    """The parsed content of a .yaml/.yml or .json file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        if path.suffix == ".json":
            return json.loads(text)
        return yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {exc}") from None


def describe_validation_error(path: str | Path, error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "(top level)"
        lines.append(f"{path}: {field}: {item['msg']}")
    return "\n".join(lines)


def load_model(path: str | Path, model: type[M], **context: Any) -> M:
    """Validate a file against `model`; raise ConfigError naming the file and every bad field."""
    data = read_document(path)
    if data is None:
        raise ConfigError(f"{path}: the file is empty")
    try:
        return model.model_validate(data, context=context or None)
    except ValidationError as exc:
        raise ConfigError(describe_validation_error(path, exc)) from None
