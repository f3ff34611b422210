"""Shared helpers of tests/corpus (test modules import these; fixtures stay in conftest.py)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from atlas_assets.corpus import registry

ROOT = registry.DEFAULT_DATASETS_ROOT


MY_DATASETS = ["eval-longctx-v1", "haystack-v1", "prompts-code-v1", "prompts-mix-v1", "prompts-shared-prefix-v1"]


def read_rows(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "rows.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def write_rows(folder: Path, rows: list[dict]) -> None:
    (folder / "rows.jsonl").write_text(
        "".join(json.dumps(r, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows), encoding="utf-8"
    )


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
