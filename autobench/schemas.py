"""JSON Schemas generated from the document models, published under schemas/0.3.0/."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from atlas_assets.core.documents import render_schema
from autobench import files

REPO_ROOT = Path(__file__).resolve().parents[1]
SCHEMAS: dict[str, type[BaseModel]] = {
    files.REQUEST_SCHEMA: files.GenerationRequestFile,
    files.DATASET_SCHEMA: files.DatasetFile,
    files.MANIFEST_SCHEMA: files.GenerationManifestFile,
    files.BENCHMARK_SCHEMA: files.BenchmarkFile,
}


def render(name: str) -> bytes:
    return render_schema(SCHEMAS[name], f"schemas/{files.SCHEMA_VERSION}/{name}")


def schema_dir(root: Path | None = None) -> Path:
    return (root or REPO_ROOT) / files.SCHEMA_DIR


def drift(root: Path | None = None) -> list[str]:
    """Names of published schema files that differ from (or are missing versus) the models."""
    folder = schema_dir(root)
    return [name for name in SCHEMAS if not (folder / name).is_file() or (folder / name).read_bytes() != render(name)]


def write(root: Path | None = None) -> list[Path]:
    from atlas_assets.core.atomic import atomic_write_bytes

    folder = schema_dir(root)
    return [atomic_write_bytes(folder / name, render(name)) for name in SCHEMAS]
