"""Fixtures for the corpus tests: the real corpus, and throw-away copies to corrupt."""

from __future__ import annotations

import json
import subprocess
import time
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


def sandbox_processes(result) -> list[str]:
    """Processes still running as the throw-away uid of a sandbox run (other sandboxes
    running at the same time have other uids). Waits up to 3 s for the kernel to finish
    tearing a killed namespace down."""
    uid = result.isolation.get("privileges", "").removeprefix("dropped to uid ")
    if not uid.isdigit():
        return []
    for _ in range(30):
        out = subprocess.run(["ps", "-eo", "uid=,stat=,pid=,args="], capture_output=True, text=True).stdout
        alive = [line for line in out.splitlines() if line.split()[:1] == [uid] and not line.split()[1].startswith("Z")]
        if not alive:
            return []
        time.sleep(0.1)
    return alive
