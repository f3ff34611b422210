"""Make `atlas_assets.corpus` importable from the _gen scripts under a bare interpreter.

Under a bare `uv run datasets/_gen/check.py` only the standard library is present and the
project is not installed, so `atlas_assets` is not on the path. When it is not already
imported this registers a bare package object whose search path is the repo's
`atlas_assets/` folder and imports the corpus modules (standard library only, no Dagster)
from there. Skipping the package's `__init__` is no longer needed for that (it imports
Dagster lazily, only for `atlas_assets.defs`), but keeps the bare run independent of what
the `__init__` may import in future.
"""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def corpus(module: str = "validate"):
    if "atlas_assets" not in sys.modules:
        package_dir = REPO_ROOT / "atlas_assets"
        if not (package_dir / "corpus").is_dir():
            raise SystemExit(f"cannot find {package_dir / 'corpus'}: run from a checkout of the repository")
        package = types.ModuleType("atlas_assets")
        package.__path__ = [str(package_dir)]  # type: ignore[attr-defined]
        package.__file__ = str(package_dir / "__init__.py")
        sys.modules["atlas_assets"] = package
    return importlib.import_module(f"atlas_assets.corpus.{module}")
