"""Published datasets recorded at their locked bytes, so a fresh instance shows them current.

A dataset counts as published here when its folder's content sha256 equals its entry in
datasets/_gen/published.lock.json. CI regenerates every published dataset from its
generator and compares the bytes (tests/corpus/test_regenerate.py), so the current
generator code makes these bytes: the record carries the current code version. A folder
that differs from the lock is not recorded: materialize it to regenerate and verify.
"""

from pathlib import Path

from atlas_assets.corpus import registry
from atlas_assets.orchestration import shell
from atlas_assets.orchestration.datasets.assets import dataset_code_version, dataset_key


def published_datasets(root: Path) -> list[shell.Published]:
    lock = registry.read_lock(root)
    items = []
    for spec in registry.discover(root):
        locked = lock.get(spec.id)
        if locked is None or registry.content_sha256(spec.folder, root) != locked:
            continue
        items.append(
            shell.Published(
                key=dataset_key(spec.id),
                data_version=locked,
                code_version=dataset_code_version(spec),
                facts={"content_sha256": locked, "published_lock": "datasets/_gen/published.lock.json", "path": str(spec.folder)},
            )
        )
    return items


def make_published_sensor(root: Path):
    return shell.on_disk_sensor(
        "published_datasets",
        "Records each published dataset (its folder's bytes equal its published.lock.json entry) at "
        "its content sha256 without a run, so the corpus shows as current on a fresh instance. "
        "Never regenerates anything: materialize a dataset to regenerate and verify it.",
        lambda: published_datasets(root),
    )
