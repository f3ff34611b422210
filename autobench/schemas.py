"""JSON Schemas generated from the document models.

They are package data (`autobench/schema_files/0.3.0/`, so every install has them, and
`autobench schemas --check` works in any install); the repo's `schemas/0.3.0` is a link to
that folder. `write(root)` / `drift(root)` act on `<root>/schemas/0.3.0/` instead: a
project's own copy, which makes the `$schema` lines written below `root` relative.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from atlas_assets.core.documents import render_schema
from autobench import files

SCHEMAS: dict[str, type[BaseModel]] = {
    files.REQUEST_SCHEMA: files.GenerationRequestFile,
    files.DATASET_SCHEMA: files.DatasetFile,
    files.MANIFEST_SCHEMA: files.GenerationManifestFile,
    files.BENCHMARK_SCHEMA: files.BenchmarkFile,
}


def render(name: str) -> bytes:
    return render_schema(SCHEMAS[name], f"schemas/{files.SCHEMA_VERSION}/{name}")


def schema_dir(root: Path | None = None) -> Path:
    """`<root>/schemas/0.3.0`, or the package's own folder when `root` is None."""
    return root / files.SCHEMA_DIR if root is not None else files.PACKAGE_SCHEMA_DIR


def drift(root: Path | None = None) -> list[str]:
    """Names of schema files that differ from (or are missing versus) the models."""
    folder = schema_dir(root)
    return [name for name in SCHEMAS if not (folder / name).is_file() or (folder / name).read_bytes() != render(name)]


def write(root: Path | None = None) -> list[Path]:
    from atlas_assets.core.atomic import atomic_write_bytes

    folder = schema_dir(root)
    return [atomic_write_bytes(folder / name, render(name)) for name in SCHEMAS]
