"""A run's local checkpoint mirrored to the artifact store, so a run re-executed on another
machine (a new pod, another worker) resumes instead of starting over.

`seed_from_store` copies the stored checkpoint into an empty work folder before a run;
`mirror_to_store` uploads the local file every `every_seconds` while the run appends to it.
Only whole lines are uploaded: a line being written at that moment waits for the next
upload (and a checkpoint reader skips a torn line anyway).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.storage import ArtifactStore


def seed_from_store(store: ArtifactStore, key: str, path: Path) -> bool:
    """Copy the stored checkpoint to `path` when there is none locally; True if copied."""
    if path.exists() or not store.exists(key):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, store.get_bytes(key))
    return True


def _whole_lines(path: Path) -> bytes:
    data = path.read_bytes() if path.is_file() else b""
    return data[: data.rfind(b"\n") + 1]


@contextmanager
def mirror_to_store(path: Path, store: ArtifactStore, key: str, every_seconds: float = 30.0) -> Iterator[None]:
    """Upload `path`'s whole lines to `key` every `every_seconds` until the block ends."""
    stop = threading.Event()
    sent = {"size": -1}

    def upload() -> None:
        data = _whole_lines(path)
        if data and len(data) != sent["size"]:
            store.put_bytes(key, data, "application/x-ndjson")
            sent["size"] = len(data)

    def loop() -> None:
        while not stop.wait(every_seconds):
            try:
                upload()
            except Exception:  # noqa: BLE001 - a failed upload (network, S3) is retried at the next tick; the run goes on
                continue

    thread = threading.Thread(target=loop, name=f"mirror {key}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
