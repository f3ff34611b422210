"""Fixtures for the corpus tests: the real corpus, and throw-away copies to corrupt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest

from atlas_assets.corpus import rebuild, registry

ROOT = registry.DEFAULT_DATASETS_ROOT
MY_DATASETS = ["eval-longctx-v1", "haystack-v1", "prompts-code-v1", "prompts-mix-v1", "prompts-shared-prefix-v1"]


@pytest.fixture(scope="session")
def lib():
    return registry.load_lib(ROOT)


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Callable[..., Path]:
    """copy(ids) -> a datasets root under tmp_path holding _gen, README and those datasets."""

    def copy(*ids: str) -> Path:
        return rebuild.copy_corpus(ROOT, tmp_path / "datasets", ids=list(ids) or None)

    return copy


def read_rows(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "rows.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def write_rows(folder: Path, rows: list[dict]) -> None:
    (folder / "rows.jsonl").write_text("".join(json.dumps(r, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows), encoding="utf-8")
