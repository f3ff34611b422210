"""The checkpoint mirror: seeding an empty work folder from the store, and whole lines
uploaded while a run appends."""

from __future__ import annotations

import threading
from pathlib import Path

from atlas_assets.core.mirror import mirror_to_store, seed_from_store
from atlas_assets.core.storage import ArtifactStore

KEY = "evals/e/w/checkpoint.jsonl"


def test_seed_copies_only_into_an_empty_place(tmp_path: Path):
    store = ArtifactStore(str(tmp_path / "store"))
    local = tmp_path / "work" / "checkpoint.jsonl"
    assert not seed_from_store(store, KEY, local)  # nothing stored
    store.put_bytes(KEY, b'{"id": "a"}\n')
    assert seed_from_store(store, KEY, local) and local.read_bytes() == b'{"id": "a"}\n'
    local.write_bytes(b'{"id": "b"}\n')
    assert not seed_from_store(store, KEY, local)  # a local checkpoint is never overwritten
    assert local.read_bytes() == b'{"id": "b"}\n'


class _RecordingStore(ArtifactStore):
    def __init__(self, root: str):
        super().__init__(root)
        self.uploads: list[bytes] = []
        self.uploaded = threading.Event()

    def put_bytes(self, relpath, data, content_type="application/octet-stream"):
        self.uploads.append(data)
        self.uploaded.set()
        return super().put_bytes(relpath, data, content_type)


def test_mirror_uploads_whole_lines_while_the_block_runs(tmp_path: Path):
    store = _RecordingStore(str(tmp_path / "store"))
    local = tmp_path / "checkpoint.jsonl"
    local.write_bytes(b'{"id": "a"}\n{"id": "b"}\n{"id": "c", "torn')  # a line being written
    with mirror_to_store(local, store, KEY, every_seconds=0.01):
        assert store.uploaded.wait(30)
        store.uploaded.clear()
        with open(local, "ab") as handle:
            handle.write(b'"}\n')
        assert store.uploaded.wait(30)
    assert store.uploads[0] == b'{"id": "a"}\n{"id": "b"}\n'
    assert store.uploads[-1].endswith(b'{"id": "c", "torn"}\n')
    assert store.get_bytes(KEY) == local.read_bytes()


def test_a_failing_store_never_stops_the_block(tmp_path: Path):
    class Broken(ArtifactStore):
        calls = 0

        def put_bytes(self, relpath, data, content_type="application/octet-stream"):
            Broken.calls += 1
            raise ConnectionError("endpoint unreachable")

    local = tmp_path / "checkpoint.jsonl"
    local.write_bytes(b'{"id": "a"}\n')
    done = []
    with mirror_to_store(local, Broken(str(tmp_path / "store")), KEY, every_seconds=0.01):
        for _ in range(3000):  # the uploads keep being tried (bounded wait, no timing assertion)
            if Broken.calls >= 3:
                break
            threading.Event().wait(0.01)
        done.append(True)
    assert done == [True] and Broken.calls >= 3
