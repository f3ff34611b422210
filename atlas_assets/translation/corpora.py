"""Where translation corpora live: `translation/` at the repository root (one JSON file
per corpus), else $ATLAS_TRANSLATION, else a folder given explicitly.

They are kept out of `datasets/`: that folder is the synthetic eval corpus whose
check.py requires every folder to be a dataset with a dataset.json and a generator.

`load_corpora_report(root)`: the valid corpora by dataset id plus the problems of the
others, for the Dagster load path (a corpus id is a partition key and an asset-key part).
"""

from __future__ import annotations

import os
from pathlib import Path

from atlas_assets.core.problems import Loaded
from atlas_assets.translation.schema import LoadedCorpus, Problem, validate_file

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


def load_corpora_report(root: str | Path | None = None) -> Loaded[LoadedCorpus, Problem]:
    """Every valid corpus in `root` by dataset id, and the errors of the others (a file with
    any error is left out whole; of two files with one id the first in name order is kept).
    Each file is read and validated once."""
    found: dict[str, LoadedCorpus] = {}
    problems: list[Problem] = []
    for path in discover(root):
        report = validate_file(path)
        if not report.ok:
            problems.extend(report.errors)
            continue
        assert report.corpus is not None and report.sha256 is not None
        corpus_id = report.corpus.dataset.id
        if corpus_id in found:
            problems.append(Problem(str(path), None, "dataset.id", f"{corpus_id!r} is also the id of {found[corpus_id].path.name} (kept)"))
            continue
        found[corpus_id] = LoadedCorpus(path, report.corpus, report.sha256)
    return Loaded(found, problems)
