"""The corpus on disk: where datasets live, what makes a dataset, its hashes and its generator.

Standard library only (check.py loads this module under a bare `uv run`).

A dataset is a folder `datasets/<id>/` holding a `dataset.json` card. Its generator is the
script the card names in `provenance.generator` (relative to the datasets root); the
generator's code version is the sha256 of that script and of every file in
`provenance.inputs`. The dataset's content hash (its Dagster data version and its entry in
`_gen/published.lock.json`) is `_lib.content_sha256` of the folder.
"""

from __future__ import annotations

import filecmp
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATASETS_ROOT = REPO_ROOT / "datasets"
GEN_DIR = "_gen"
LOCK_FILE = "_gen/published.lock.json"


def load_path_module(path: str | Path, prefix: str = "_atlas_path_module") -> ModuleType:
    """Import a file by path under a name unique to that path (cached per path)."""
    path = Path(path).resolve()
    name = f"{prefix}_{hashlib.sha256(str(path).encode()).hexdigest()[:16]}"
    module = sys.modules.get(name)
    if module is not None and getattr(module, "__atlas_mtime__", None) == path.stat().st_mtime_ns:
        return module
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    module.__atlas_mtime__ = path.stat().st_mtime_ns  # type: ignore[attr-defined]
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def load_lib(root: str | Path = DEFAULT_DATASETS_ROOT) -> ModuleType:
    """The datasets root's `_gen/_lib.py` (buckets, card constants, hashing)."""
    return load_path_module(Path(root) / GEN_DIR / "_lib.py", "_atlas_gen_lib")


# The kinds whose rows are scored, and the scorer a card of that kind implies when it names
# none: haystack rows carry one answer to match exactly.
SCORED_KINDS: dict[str, str | None] = {"eval": None, "haystack": "exact"}


def default_scorer(card: Mapping[str, Any]) -> str | None:
    """The scorer for rows without their own: the card's default_scorer, else its kind's."""
    return card.get("default_scorer") or SCORED_KINDS.get(str(card.get("kind")))


@dataclass(frozen=True)
class DatasetSpec:
    """One dataset folder and what its card says about how it is made."""

    root: Path
    id: str
    card: dict[str, Any] = field(hash=False, compare=False)
    path: Path | None = None  # a staged copy of the folder (regenerated output), if not root/id

    @property
    def folder(self) -> Path:
        return self.path if self.path is not None else self.root / self.id

    def staged(self, folder: Path) -> "DatasetSpec":
        """The same dataset read from another folder (e.g. freshly regenerated output);
        generator and inputs still resolve against the datasets root."""
        return DatasetSpec(root=self.root, id=self.id, card=read_card(folder), path=folder)

    @property
    def kind(self) -> str:
        kind: str = self.card.get("kind", "")
        return kind

    @property
    def default_scorer(self) -> str | None:
        return default_scorer(self.card)

    @property
    def generator(self) -> Path | None:
        rel = (self.card.get("provenance") or {}).get("generator")
        return (self.root / rel) if rel else None

    @property
    def inputs(self) -> list[Path]:
        rels = (self.card.get("provenance") or {}).get("inputs") or []
        return [self.root / rel for rel in rels]

    @property
    def sources(self) -> list[str]:
        return list(self.card.get("sources") or [])

    @property
    def rows_path(self) -> Path:
        rows_file: str = self.card.get("rows_file", "rows.jsonl")
        return self.folder / rows_file


def read_card(folder: Path) -> dict[str, Any]:
    with open(folder / "dataset.json", encoding="utf-8") as handle:
        card: dict[str, Any] = json.load(handle)
    return card


def discover(root: str | Path = DEFAULT_DATASETS_ROOT) -> list[DatasetSpec]:
    """Every dataset folder under `root` (a folder with a dataset.json), sorted by id."""
    root = Path(root).resolve()
    specs = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        if (folder / "dataset.json").is_file():
            try:
                card = read_card(folder)
            except (OSError, ValueError):
                card = {}
            specs.append(DatasetSpec(root=root, id=folder.name, card=card))
    return specs


def read_rows(spec: DatasetSpec) -> list[dict[str, Any]]:
    with open(spec.rows_path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def generator_files(spec: DatasetSpec) -> list[Path]:
    """What decides a dataset's bytes: its generator and every declared input (always
    including _gen/_lib.py). Their digest is the dataset asset's code version."""
    paths = [spec.generator] if spec.generator else []
    return sorted({*paths, spec.root / GEN_DIR / "_lib.py", *spec.inputs})


def content_sha256(folder: str | Path, root: str | Path = DEFAULT_DATASETS_ROOT) -> str:
    digest: str = load_lib(root).content_sha256(folder)
    return digest


def dataset_files(folder: str | Path, root: str | Path = DEFAULT_DATASETS_ROOT) -> list[str]:
    files: list[str] = load_lib(root).dataset_files(folder)
    return files


def read_lock(root: str | Path = DEFAULT_DATASETS_ROOT) -> dict[str, str]:
    path = Path(root) / LOCK_FILE
    if not path.is_file():
        return {}
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return dict(data.get("datasets", {}))


def write_lock(entries: dict[str, str], root: str | Path = DEFAULT_DATASETS_ROOT) -> Path:
    lib = load_lib(root)
    body = {
        "comment": (
            "Published datasets: id -> content sha256 (_lib.content_sha256). A published "
            "dataset never changes; publish a new -vN id instead."
        ),
        "datasets": dict(sorted(entries.items())),
    }
    written: Path = lib.write_text(Path(root) / LOCK_FILE, json.dumps(body, indent=2, sort_keys=True) + "\n")
    return written


@dataclass
class Regenerated:
    spec: DatasetSpec
    out: Path
    returncode: int
    stderr: str
    seconds: float


def run_generator(spec: DatasetSpec, out: Path, timeout: float = 600.0) -> Regenerated:
    """Run the dataset's generator as a subprocess, writing into `out`."""
    import time

    if spec.generator is None or not spec.generator.is_file():
        return Regenerated(spec, out, 127, f"generator {spec.generator} not found", 0.0)
    out.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, str(spec.generator), "--out", str(out)],
        cwd=str(spec.root),
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return Regenerated(spec, out, proc.returncode, proc.stderr, time.perf_counter() - started)


def regenerate(spec: DatasetSpec, out: Path, timeout: float = 600.0) -> Regenerated:
    """Run the generator into `out`, then copy the card's hand-written `sources` beside the
    output, so `out` is a complete dataset folder whose content hash is comparable."""
    import shutil

    result = run_generator(spec, out, timeout=timeout)
    if result.returncode == 0:
        for rel in spec.sources:
            source = spec.folder / rel
            if source.is_file():
                (out / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, out / rel)
    return result


@dataclass
class Diff:
    changed: list[str]
    missing: list[str]  # committed, generated files the generator no longer writes
    extra: list[str]  # written by the generator, absent from the committed folder

    @property
    def identical(self) -> bool:
        return not (self.changed or self.missing or self.extra)


def diff_folders(spec: DatasetSpec, regenerated: Path) -> Diff:
    """Byte comparison of a regenerated folder with the committed one.

    Hand-written `sources` listed in the card are not generated and are skipped.
    """
    committed = set(dataset_files(spec.folder, spec.root)) - set(spec.sources)
    produced = set(dataset_files(regenerated, spec.root)) - set(spec.sources)
    changed = [rel for rel in sorted(committed & produced) if not filecmp.cmp(spec.folder / rel, regenerated / rel, shallow=False)]
    return Diff(changed=changed, missing=sorted(committed - produced), extra=sorted(produced - committed))
