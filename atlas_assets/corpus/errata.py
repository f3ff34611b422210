"""Corpus errata: rows of published datasets whose answer key is not trustworthy.

Published dataset bytes never change (datasets/_gen/published.lock.json), so a wrong or
ambiguous answer key is not fixed in the dataset: it is recorded as an erratum in one
file beside the datasets, `datasets/errata.json` (outside every dataset folder, so no
content hash moves), and a workload that wants it pins it:

    errata:                       # in workloads/<id>.yaml
      ids: [err-0001]
      sha256: <pin_sha256 of exactly those entries>

A run applies only the errata its workload pins, and refuses to start when a pinned entry
is missing or its content no longer hashes to the pin. So a later erratum never changes
an old workload's scoring, and an edited erratum is caught like edited dataset bytes.
An applied erratum's row is still sent and recorded, but it is taken out of the scores
(not in total, correct or accuracy) and listed with its reason; results.json records the
applied errata, the rows they took out, the pin and the errata file's sha256.

Errata are append-only: an entry, once pinned by a workload, is never edited or removed;
a correction is a new id (and a new pin in the workloads that want it).

Standard library + pydantic only (and the stdlib-only atlas_assets.core.hashing):
`datasets/_gen/check.py` imports this under a bare `uv run` to verify that every erratum
names an existing dataset and row (`check_errata`).

    python -m atlas_assets.corpus.errata                 # list errata and each dataset's pin
    python -m atlas_assets.corpus.errata --write-schema  # publish schemas/errata/1/errata_schema.json
    python -m atlas_assets.corpus.errata --check-schema  # exit 1 when the published schema drifted
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Iterable, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, model_validator

from atlas_assets.core.documents import load_document
from atlas_assets.core.documents import render_schema as render_document_schema
from atlas_assets.core.errors import AtlasError
from atlas_assets.core.hashing import sha256_file, sha256_json

REPO_ROOT = Path(__file__).resolve().parents[2]
ERRATA_FILE = "errata.json"  # relative to the datasets root
FORMAT_VERSION: Final = 1
SCHEMA_REL = Path("schemas") / "errata" / str(FORMAT_VERSION) / "errata_schema.json"
ERRATUM_ID = r"^err-[0-9]{4}$"


class ErrataError(AtlasError, ValueError):
    """An errata file or an errata pin that cannot be used; the message names the file and field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Erratum(_Strict):
    """One row of one published dataset whose answer key is not trustworthy."""

    id: str = Field(pattern=ERRATUM_ID, description="err-NNNN, unique in the file; never reused")
    dataset: str = Field(min_length=1, description="a dataset folder under datasets/")
    row: str = Field(min_length=1, description="the row id in that dataset's rows file")
    action: Literal["exclude"] = Field("exclude", description="exclude: the row is taken out of scoring")
    reason: str = Field(min_length=10, description="why the key is wrong or ambiguous, precisely")
    reference: str = Field(min_length=1, description="what the reason rests on (a standard's section, the generator line)")
    date: _dt.date = Field(description="when the erratum was recorded (ISO date)")


class ErrataFile(_Strict):
    """datasets/errata.json: the corpus's errata, in id order, append-only."""

    format_version: Literal[1] = Field(description="version of this file format")
    comment: str = ""
    errata: list[Erratum] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> "ErrataFile":
        ids: set[str] = set()
        rows: dict[tuple[str, str], str] = {}
        for i, e in enumerate(self.errata):
            if e.id in ids:
                raise ValueError(f"errata[{i}].id: {e.id} is used twice")
            ids.add(e.id)
            if (e.dataset, e.row) in rows:
                raise ValueError(f"errata[{i}].row: {e.dataset} row {e.row} already has erratum {rows[(e.dataset, e.row)]}")
            rows[(e.dataset, e.row)] = e.id
        return self

    def by_id(self) -> dict[str, Erratum]:
        return {e.id: e for e in self.errata}

    def for_dataset(self, dataset: str) -> list[Erratum]:
        return [e for e in self.errata if e.dataset == dataset]


class ErrataPin(_Strict):
    """A workload's `errata:` block: the ids it applies and the sha256 of exactly those entries."""

    ids: list[str] = Field(min_length=1, description="erratum ids applied to this workload's dataset")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="pin_sha256 of those entries (errata.json)")

    @model_validator(mode="after")
    def _ids(self) -> "ErrataPin":
        import re

        for i, value in enumerate(self.ids):
            if not re.match(ERRATUM_ID, value):
                raise ValueError(f"ids.{i}: {value!r} is not an erratum id (err-NNNN)")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError("ids: an erratum id is listed twice")
        return self


# --------------------------------------------------------------------------- reading


def errata_path(datasets_root: str | Path) -> Path:
    return Path(datasets_root) / ERRATA_FILE


def load_errata(path: str | Path) -> ErrataFile:
    """The errata file at `path`; an absent file is an empty errata list."""
    path = Path(path)
    if not path.is_file():
        return ErrataFile(format_version=FORMAT_VERSION, errata=[])
    return load_document(path, ErrataFile, ErrataError)


def pin_sha256(entries: Iterable[Erratum]) -> str:
    """sha256 of the canonical JSON of the entries, in id order: what a workload pins."""
    return sha256_json([e.model_dump(mode="json") for e in sorted(entries, key=lambda e: e.id)])


def pin_for(errata: ErrataFile, dataset: str) -> dict[str, Any] | None:
    """The `errata:` block that applies every current erratum of `dataset` (None: there are none)."""
    entries = errata.for_dataset(dataset)
    if not entries:
        return None
    return {"ids": [e.id for e in entries], "sha256": pin_sha256(entries)}


# --------------------------------------------------------------------------- corpus check


@dataclass(frozen=True)
class ErrataProblem:
    file: str
    field: str | None
    message: str
    dataset: str | None = None
    row: str | None = None

    def __str__(self) -> str:
        return f"{self.file}: {self.field + ': ' if self.field else ''}{self.message}"


def _row_ids(folder: Path) -> set[str]:
    card = json.loads((folder / "dataset.json").read_text(encoding="utf-8"))
    ids = set()
    with open(folder / card.get("rows_file", "rows.jsonl"), encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                if isinstance(row, dict) and "id" in row:
                    ids.add(str(row["id"]))
    return ids


def check_errata(datasets_root: str | Path, path: str | Path | None = None, only: Iterable[str] | None = None) -> list[ErrataProblem]:
    """Every problem of the errata file: unreadable or invalid, or an erratum whose dataset
    is not a dataset folder of `datasets_root` or whose row is not in that dataset. With
    `only` (a partial check), errata of other datasets are not looked at."""
    wanted = set(only) if only is not None else None
    root = Path(datasets_root)
    path = Path(path) if path is not None else errata_path(root)
    try:
        errata = load_errata(path)
    except ErrataError as exc:
        return [ErrataProblem(str(path), None, line.split(": ", 1)[1] if ": " in line else line) for line in str(exc).splitlines()]
    problems = []
    rows: dict[str, set[str] | None] = {}
    for i, e in enumerate(errata.errata):
        if wanted is not None and e.dataset not in wanted:
            continue
        folder = root / e.dataset
        if e.dataset.startswith(("_", ".")) or "/" in e.dataset or not (folder / "dataset.json").is_file():
            problems.append(ErrataProblem(str(path), f"errata[{i}].dataset", f"{e.id}: no dataset {e.dataset!r} in {root}", e.dataset))
            continue
        if e.dataset not in rows:
            try:
                rows[e.dataset] = _row_ids(folder)
            except (OSError, ValueError) as exc:
                rows[e.dataset] = None
                problems.append(
                    ErrataProblem(str(path), f"errata[{i}].dataset", f"{e.id}: cannot read the rows of {e.dataset}: {exc}", e.dataset)
                )
        ids = rows[e.dataset]
        if ids is not None and e.row not in ids:
            problems.append(ErrataProblem(str(path), f"errata[{i}].row", f"{e.id}: {e.dataset} has no row {e.row!r}", e.dataset, e.row))
    return problems


# --------------------------------------------------------------------------- applying a pin


@dataclass(frozen=True)
class AppliedErrata:
    """The errata a run applies (its workload's pin, resolved against the errata file)."""

    file: str
    file_sha256: str | None
    pin: ErrataPin | None
    entries: tuple[Erratum, ...] = field(default=())

    def excluded(self, row_ids: Iterable[str]) -> dict[str, Erratum]:
        """row id -> its erratum, for the given rows that an applied erratum takes out."""
        by_row = {e.row: e for e in self.entries}
        return {r: by_row[r] for r in row_ids if r in by_row}


def apply_pin(pin: ErrataPin | None, dataset: str, datasets_root: str | Path, where: str) -> AppliedErrata:
    """Resolve a workload's errata pin. `where` names the workload (for messages).

    No pin: nothing is applied, whatever the file holds. Else every pinned id must be in
    the file, name this dataset, and the entries must hash to the pin."""
    path = errata_path(datasets_root)
    file_sha = sha256_file(path) if path.is_file() else None
    if pin is None:
        return AppliedErrata(ERRATA_FILE, file_sha, None, ())
    errata = load_errata(path)
    known = errata.by_id()
    missing = [i for i in pin.ids if i not in known]
    if missing:
        raise ErrataError(f"{where}: errata.ids: {', '.join(missing)} not in {path}")
    entries = tuple(known[i] for i in pin.ids)
    for i, e in enumerate(entries):
        if e.dataset != dataset:
            raise ErrataError(f"{where}: errata.ids.{i}: {e.id} is an erratum of {e.dataset}, not of {dataset}")
    actual = pin_sha256(entries)
    if actual != pin.sha256:
        raise ErrataError(
            f"{where}: errata.sha256: pins {pin.sha256} but the entries {', '.join(pin.ids)} of {path} hash to "
            f"{actual}; a pinned erratum never changes (add a new erratum id and pin it instead)"
        )
    return AppliedErrata(ERRATA_FILE, file_sha, pin, entries)


# --------------------------------------------------------------------------- the published JSON Schema


def render_schema() -> bytes:
    return render_document_schema(ErrataFile, SCHEMA_REL.as_posix())


def schema_drift(repo_root: str | Path = REPO_ROOT) -> bool:
    path = Path(repo_root) / SCHEMA_REL
    return not path.is_file() or path.read_bytes() != render_schema()


def write_schema(repo_root: str | Path = REPO_ROOT) -> Path:
    path = Path(repo_root) / SCHEMA_REL
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(render_schema())
    tmp.replace(path)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m atlas_assets.corpus.errata", description="List the corpus errata and each dataset's workload pin."
    )
    parser.add_argument("--datasets", type=Path, default=REPO_ROOT / "datasets", help="datasets root")
    parser.add_argument("--write-schema", action="store_true", help=f"write {SCHEMA_REL}")
    parser.add_argument("--check-schema", action="store_true", help=f"exit 1 when {SCHEMA_REL} differs from the model")
    args = parser.parse_args(argv)
    if args.write_schema:
        print(write_schema())
        return 0
    if args.check_schema:
        drift = schema_drift()
        print(f"{SCHEMA_REL}: {'DRIFTED (run --write-schema)' if drift else 'up to date'}")
        return 1 if drift else 0
    problems = check_errata(args.datasets)
    for problem in problems:
        print(f"ERROR {problem}")
    try:
        errata = load_errata(errata_path(args.datasets))
    except ErrataError:
        return 1
    for e in errata.errata:
        print(f"{e.id}  {e.dataset:<24} {e.row:<16} {e.date}  {e.reason}")
    for dataset in sorted({e.dataset for e in errata.errata}):
        pin = pin_for(errata, dataset)
        print(f"\n{dataset} pin:\nerrata:\n  ids: [{', '.join(pin['ids'])}]\n  sha256: {pin['sha256']}")  # type: ignore[index]
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
