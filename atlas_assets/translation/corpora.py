"""Where translation corpora live: `translation/` at the repository root (one JSON file
per corpus), else $ATLAS_TRANSLATION, else a folder given explicitly.

They are kept out of `datasets/`: that folder is the synthetic eval corpus whose
check.py requires every folder to be a dataset with a dataset.json and a generator.

`load_corpora_report(root)`: the valid corpora by dataset id plus the problems of the
others, for the Dagster load path (a corpus id is a partition key and an asset-key part).
`duplicate_ids(reports)`: files that share a dataset id; none of them is loaded (keeping
one would make the other silently disappear), and `atlas translation validate` fails.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Sequence

from atlas_assets.core.problems import Loaded
from atlas_assets.translation.schema import LoadedCorpus, Problem, ValidationReport, validate_file

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


def duplicate_ids(reports: Sequence[ValidationReport]) -> list[Problem]:
    """An error for each valid file whose dataset id another file also has, naming all of
    them (the same file given twice is one file)."""
    by_id: dict[str, dict[Path, str]] = defaultdict(dict)
    for report in reports:
        if report.ok:
            by_id[report.corpus.dataset.id].setdefault(Path(report.path).resolve(), report.path)  # type: ignore[union-attr]
    problems: list[Problem] = []
    for corpus_id, files in by_id.items():
        if len(files) > 1:
            named = ", ".join(files.values())
            message = f"{corpus_id!r} is the dataset id of {len(files)} files ({named}): an id names one corpus, so none of them is used until each has its own"
            problems.extend(Problem(path, None, "dataset.id", message) for path in files.values())
    return problems


def load_corpora_report(root: str | Path | None = None) -> Loaded[LoadedCorpus, Problem]:
    """Every valid corpus in `root` by dataset id, and the errors of the others: a file with
    any error is left out whole, and so are files that share an id (`duplicate_ids`).
    Each file is read and validated once."""
    reports = [validate_file(path) for path in discover(root)]
    clashes = duplicate_ids(reports)
    found: dict[str, LoadedCorpus] = {}
    problems: list[Problem] = []
    for report in reports:
        clash = [p for p in clashes if p.path == report.path]
        problems.extend(report.errors or clash)
        if report.ok and not clash:
            assert report.corpus is not None and report.sha256 is not None
            found[report.corpus.dataset.id] = LoadedCorpus(Path(report.path), report.corpus, report.sha256)
    return Loaded(found, problems)
