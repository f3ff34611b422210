"""The published JSON Schemas of the run documents, beside autobench's in schemas/:

    schemas/eval-run/1/results_schema.json             results.json (evals/documents.RunResults)
    schemas/eval-run/1/checkpoint_record_schema.json   a checkpoint.jsonl line (CheckpointRecord)
    schemas/translation-run/1/run_card_schema.json     run_card.json (translation/card.RunCard)
    schemas/translation-run/1/languages_schema.json    languages.json (translation/multilingual.LanguageReport)

The folder's number is the documents' format version. The files are rendered from the
models (core/documents.render_schema) and never edited by hand; a test fails when they
drift. `python -m atlas_assets.schemas --write` renders them again; without `--write`
it lists the drifted ones and exits 1 when there is any.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

from pydantic import BaseModel

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.documents import render_schema
from atlas_assets.corpus.registry import REPO_ROOT
from atlas_assets.evals.documents import CheckpointRecord, RunResults
from atlas_assets.translation.card import RunCard
from atlas_assets.translation.multilingual import LanguageReport

__all__ = ["PUBLISHED", "drifted", "render", "write"]

PUBLISHED: dict[Path, type[BaseModel]] = {
    Path("schemas/eval-run/1/results_schema.json"): RunResults,
    Path("schemas/eval-run/1/checkpoint_record_schema.json"): CheckpointRecord,
    Path("schemas/translation-run/1/run_card_schema.json"): RunCard,
    Path("schemas/translation-run/1/languages_schema.json"): LanguageReport,
}


def render(rel: Path) -> bytes:
    return render_schema(PUBLISHED[rel], rel.as_posix())


def drifted(repo_root: Path = REPO_ROOT) -> list[Path]:
    """The published schemas whose committed bytes are not the rendered ones."""
    return [rel for rel in PUBLISHED if not (repo_root / rel).is_file() or (repo_root / rel).read_bytes() != render(rel)]


def write(repo_root: Path = REPO_ROOT) -> list[Path]:
    for rel in PUBLISHED:
        (repo_root / rel).parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(repo_root / rel, render(rel))
    return list(PUBLISHED)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m atlas_assets.schemas", description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="render every run document schema into schemas/")
    args = parser.parse_args(argv)
    if args.write:
        for rel in write():
            print(f"wrote {rel}")
        return 0
    stale = drifted()
    for rel in stale:
        print(f"{rel}: drifted from its model (python -m atlas_assets.schemas --write)")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
