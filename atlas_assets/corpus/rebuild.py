"""Regenerate one dataset, re-verify it, and publish it into its folder -- unless it is
published and the bytes changed. The plain-function core of the Dagster dataset assets.

Flow: run the generator into a staging folder (plus the card's hand-written sources) ->
validate the staged dataset -> compare its content sha256 with the lock. Only a valid
dataset whose bytes are unpublished or equal to the published ones is written into
`datasets/<id>/`; a published dataset that regenerates to different bytes is left
untouched and reported, with the instruction to publish a new -vN id.
Standard library only.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from atlas_assets.corpus import registry, validate
from atlas_assets.corpus.registry import DatasetSpec, Diff

if TYPE_CHECKING:
    from atlas_assets.corpus.cards import CardCorrections
    from atlas_assets.corpus.scorers import Scorer


@dataclass
class Outcome:
    dataset_id: str
    content_sha256: str  # of datasets/<id>/ after this run (what the asset now is)
    regenerated_sha256: str | None
    published_sha256: str | None
    immutable_ok: bool
    immutable_message: str
    valid: bool
    problems: list[validate.Problem]
    diff: Diff | None
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    size_bytes: int = 0
    generator_seconds: float = 0.0


def next_version_id(dataset_id: str) -> str:
    match = re.fullmatch(r"(.*-v)(\d+)", dataset_id)
    return f"{match.group(1)}{int(match.group(2)) + 1}" if match else f"{dataset_id}-v2"


def externals(
    root: Path,
) -> tuple[dict[str, Scorer] | None, ModuleType | None, ModuleType | None, CardCorrections | None, list[validate.Problem]]:
    """(the scorer registry, rules module, haystack builder, card corrections, problems loading them)."""
    corrections, problems = validate.load_card_corrections(root)
    try:
        scorers: dict[str, Scorer] | None = validate.load_scorers()
    except validate.ExternalMissing as error:
        scorers = None
        problems.append(validate.Problem("corpus", None, "scorer", str(error)))
    try:
        rules = validate.load_rules(root)
    except validate.ExternalMissing:
        rules = None  # only instruction rows need it; they report it themselves
    try:
        builder = registry.load_path_module(root / "haystack-v1" / "build.py", "_atlas_haystack_v1_build")
    except (OSError, ImportError):
        builder = None
    return scorers, rules, builder, corrections, problems


def rebuild(spec: DatasetSpec, *, write: bool = True) -> Outcome:
    root = spec.root
    lock = registry.read_lock(root)
    published = lock.get(spec.id)
    scorers, rules, builder, corrections, problems = externals(root)
    with tempfile.TemporaryDirectory(prefix=f"atlas-{spec.id}-") as tmp:
        staged_dir = Path(tmp) / spec.id
        result = registry.regenerate(spec, staged_dir)
        if result.returncode != 0:
            tail = " | ".join(result.stderr.strip().splitlines()[-5:])
            problems.append(validate.Problem(spec.id, None, "provenance.generator", f"generator failed (exit {result.returncode}): {tail}"))
            current = registry.content_sha256(spec.folder, root) if spec.folder.is_dir() else ""
            return Outcome(
                spec.id,
                current,
                None,
                published,
                published is None or current == published,
                "generator failed; nothing written",
                False,
                problems,
                None,
                generator_seconds=result.seconds,
            )
        staged = spec.staged(staged_dir)
        row_problems, rows = validate.validate_dataset(staged, scorers=scorers, rules=rules, builder=builder, corrections=corrections)
        problems.extend(row_problems)
        regenerated = registry.content_sha256(staged_dir, root)
        diff = registry.diff_folders(spec, staged_dir) if spec.folder.is_dir() else Diff([], [], [])
        valid = not [p for p in problems if p.severity == "error"]
        if published is not None and regenerated != published:
            changed = diff.changed + diff.missing + diff.extra
            message = (
                f"{spec.id} is published (sha256 {published}) but regenerating it produced different bytes "
                f"(sha256 {regenerated}; files: {', '.join(changed) or 'layout'}). Published datasets are immutable: "
                f"revert the generator change, or publish the new bytes under a new id such as {next_version_id(spec.id)}."
            )
            immutable_ok = False
        else:
            message = (
                "unpublished: run python datasets/_gen/lock.py to publish"
                if published is None
                else f"matches the published sha256 {published}"
            )
            immutable_ok = True
        written: list[str] = []
        removed: list[str] = []
        if write and valid and immutable_ok:
            written, removed = _sync(spec, staged_dir)
        current = registry.content_sha256(spec.folder, root) if spec.folder.is_dir() else regenerated
        size = sum((spec.folder / rel).stat().st_size for rel in registry.dataset_files(spec.folder, root)) if spec.folder.is_dir() else 0
        return Outcome(
            dataset_id=spec.id,
            content_sha256=current,
            regenerated_sha256=regenerated,
            published_sha256=published,
            immutable_ok=immutable_ok,
            immutable_message=message,
            valid=valid,
            problems=problems,
            diff=diff,
            written=written,
            removed=removed,
            rows=rows,
            size_bytes=size,
            generator_seconds=result.seconds,
        )


def _sync(spec: DatasetSpec, staged_dir: Path) -> tuple[list[str], list[str]]:
    """Make datasets/<id>/ byte-equal to the staged output (atomic per file)."""
    lib = registry.load_lib(spec.root)
    produced = set(lib.dataset_files(staged_dir))
    written = []
    for rel in sorted(produced):
        target = spec.folder / rel
        data = (staged_dir / rel).read_bytes()
        if not target.is_file() or target.read_bytes() != data:
            lib.atomic_write_bytes(target, data)
            written.append(rel)
    removed = []
    if spec.folder.is_dir():
        for rel in lib.dataset_files(spec.folder):
            if rel not in produced:
                (spec.folder / rel).unlink()
                removed.append(rel)
    return written, removed


def copy_corpus(root: Path, destination: Path, ids: list[str] | None = None) -> Path:
    """Copy a datasets root (generators, lock, README and the chosen dataset folders)."""
    destination.mkdir(parents=True, exist_ok=True)
    shutil.copytree(
        root / registry.GEN_DIR, destination / registry.GEN_DIR, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True
    )
    for item in root.iterdir():
        if item.is_file():
            shutil.copy2(item, destination / item.name)
    always = {"haystack-v1", "eval-instruction-v1"}  # hold builders other datasets import
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))):
        if ids is None or folder.name in ids or folder.name in always:
            shutil.copytree(folder, destination / folder.name, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    return destination
