from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.autobench import REQUEST_YAML


@pytest.fixture
def request_file(tmp_path: Path) -> Path:
    path = tmp_path / "generation-request.yaml"
    path.write_text(REQUEST_YAML)
    return path
