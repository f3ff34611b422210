"""Fixtures for the simulator tests: a small corpus covering every scorer and request form,
servers on 127.0.0.1, and a standard-library HTTP client (so these tests depend on no
client library)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from atlas_assets.corpus.splice import find_splices
from atlas_assets.simulator import SimulatorHandle, SimulatorProfile, start_simulator
from tests.helpers.simulator import CONTEXT_IDENTIFIERS, IMAGES, LINKED, REAL, eval_rows, longgen_module


@pytest.fixture(scope="session")
def corpus_root(tmp_path_factory) -> Path:
    """A datasets root: synthetic eval datasets for every scorer and form, plus links to
    the real instruction, long-context, haystack and shared-prefix datasets."""
    root = tmp_path_factory.mktemp("sim-datasets")
    for dataset_id in LINKED:
        (root / dataset_id).symlink_to(REAL / dataset_id, target_is_directory=True)
    for dataset_id, (default, rows) in eval_rows().items():
        folder = root / dataset_id
        folder.mkdir()
        card = {"id": dataset_id, "kind": "eval", "default_scorer": default, "rows_file": "rows.jsonl"}
        (folder / "dataset.json").write_text(json.dumps(card), encoding="utf-8")
        (folder / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        for row in rows:
            if row.get("image"):
                (folder / row["image"]).parent.mkdir(exist_ok=True)
                (folder / row["image"]).write_bytes(IMAGES[row["image"]])
    assert find_splices(longgen_module(), CONTEXT_IDENTIFIERS) == []
    return root


@pytest.fixture
def serve(corpus_root) -> Iterator[Callable[..., SimulatorHandle]]:
    """serve(name="t", **profile fields) -> a running in-thread simulator over corpus_root."""
    handles: list[SimulatorHandle] = []

    def start(name: str = "sim-test", **fields: Any) -> SimulatorHandle:
        handle = start_simulator(SimulatorProfile(name=name, **fields), datasets_root=corpus_root)
        handles.append(handle)
        return handle

    yield start
    for handle in handles:
        handle.stop()
