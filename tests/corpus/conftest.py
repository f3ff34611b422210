"""Fixtures for the corpus tests: the real corpus, and throw-away copies to corrupt."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from atlas_assets.corpus import rebuild, registry
from tests.helpers.corpus import ROOT


@pytest.fixture(scope="session")
def lib():
    return registry.load_lib(ROOT)


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Callable[..., Path]:
    """copy(ids) -> a datasets root under tmp_path holding _gen, README and those datasets."""

    def copy(*ids: str) -> Path:
        return rebuild.copy_corpus(ROOT, tmp_path / "datasets", ids=list(ids) or None)

    return copy
