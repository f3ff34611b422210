"""Where translation corpora live: `translation/` at the repository root (one JSON file
per corpus), else $ATLAS_TRANSLATION, else a folder given explicitly.

They are kept out of `datasets/`: that folder is the synthetic eval corpus whose
check.py requires every folder to be a dataset with a dataset.json and a generator.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ROOT = REPO_ROOT / "translation"
ENV_ROOT = "ATLAS_TRANSLATION"


def default_root() -> Path:
    value = os.environ.get(ENV_ROOT, "").strip()
    return Path(value).resolve() if value else DEFAULT_ROOT


def discover(root: str | Path | None = None) -> list[Path]:
    """Every corpus file (`*.json`) directly in `root`, sorted by name."""
    folder = Path(root) if root else default_root()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.json") if p.is_file() and not p.name.startswith("."))
