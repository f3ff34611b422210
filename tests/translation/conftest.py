from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.translation import EXAMPLE


@pytest.fixture
def example_doc() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


@pytest.fixture
def write_corpus(tmp_path):
    def write(doc: dict, name: str = "corpus.json") -> Path:
        path = tmp_path / name
        path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        return path

    return write
