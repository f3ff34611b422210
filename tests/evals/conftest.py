"""Fixtures for the eval-run tests: throw-away datasets roots, workloads and engines files.

Every engine in these tests is the reference simulator on 127.0.0.1 (or a URL pointing at
one); nothing leaves the machine.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def datasets_root(tmp_path: Path) -> Path:
    root = tmp_path / "datasets"
    root.mkdir()
    return root
