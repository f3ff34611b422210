"""Workloads: one declarative file per dataset in `workloads/` (documented in workloads/README.md).

A workload names a dataset and pins the sha256 of its bytes (the corpus content hash,
the dataset's entry in datasets/_gen/published.lock.json), says whether its rows are
scored (`eval`) or only served (`serve`), and fixes the request parameters, the nominal
input size, the concurrency, the dataset's default scorer and an optional seeded sample.
A run refuses a workload whose pin does not match the dataset on disk: two results are
comparable only when they saw the same bytes. An eval workload may also pin corpus errata
(`errata: {ids, sha256}`, datasets/errata.json, atlas_assets/corpus/errata.py): the rows
they name are taken out of its scores; without the block every row is scored.

A workload id is a Dagster partition key (engine x workload), so besides its pattern it
obeys atlas_assets/core/names.py (`x...y` is refused).
"""

from __future__ import annotations

import math
import os
import random
from pathlib import Path
from typing import Any, Literal, Mapping, Sequence

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from atlas_assets.core.names import PartitionKey
from atlas_assets.core.problems import FileProblem, Loaded, line_of
from atlas_assets.corpus import errata as corpus_errata
from atlas_assets.corpus import registry
from atlas_assets.corpus.errata import ErrataPin
from atlas_assets.corpus.scorers import SCORERS, Scorer
from atlas_assets.evals.config import ConfigError, load_model

DEFAULT_WORKLOADS_DIR = registry.REPO_ROOT / "workloads"
ENV_WORKLOADS_DIR = "ATLAS_WORKLOADS"
SUFFIXES = (".yaml", ".yml", ".json")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DatasetPin(_Strict):
    id: str = Field(min_length=1)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="content sha256 of the dataset folder")


class RequestParams(_Strict):
    """Sampling and transport parameters sent with every request of the workload."""

    max_tokens: int = Field(1024, ge=1)
    temperature: float = Field(0.0, ge=0, le=2)
    stream: bool = True
    stop: list[str] | None = None

    def body_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"max_tokens": self.max_tokens, "temperature": self.temperature}
        if self.stop:
            fields["stop"] = list(self.stop)
        return fields


class Sample(_Strict):
    """Which rows run: all (default), or `limit` of them -- the first ones, or a seeded
    random choice kept in file order when `seed` is set."""

    limit: int | None = Field(None, ge=1)
    seed: int | None = None


class Workload(_Strict):
    id: PartitionKey("workload id") = Field(pattern=r"^[a-z0-9][a-z0-9._-]*$")  # type: ignore[valid-type]
    description: str = ""
    dataset: DatasetPin
    kind: Literal["eval", "serve"]
    request: RequestParams = RequestParams()
    input_tokens: int = Field(ge=1, description="nominal prompt size (chars/4 heuristic, mean over rows as sent)")
    concurrency: int = Field(64, ge=1, le=4096)
    scorer: str | None = Field(None, description="the dataset's default scorer; a row's own scorer wins")
    sample: Sample = Sample()
    errata: ErrataPin | None = Field(
        None, description="corpus errata applied (datasets/errata.json ids + sha256 of those entries); null: every row is scored"
    )

    @model_validator(mode="after")
    def _scorer(self) -> "Workload":
        if self.kind == "eval":
            if self.scorer is None:
                raise ValueError("an eval workload names its dataset's default scorer (scorer)")
            if self.scorer not in SCORERS:
                raise ValueError(f"unknown scorer {self.scorer!r}; known: {', '.join(sorted(SCORERS))}")
        elif self.scorer is not None:
            raise ValueError("a serve workload is not scored: leave scorer out")
        if self.kind != "eval" and self.errata is not None:
            raise ValueError("errata: a serve workload is not scored, so it applies no errata: leave errata out")
        return self


def workloads_dir(path: str | Path | None = None) -> Path:
    if path:
        return Path(path)
    env = os.environ.get(ENV_WORKLOADS_DIR, "").strip()
    return Path(env) if env else DEFAULT_WORKLOADS_DIR


def workload_files(directory: str | Path | None = None) -> list[Path]:
    directory = workloads_dir(directory)
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES and p.is_file())


def load_workload(path: str | Path) -> Workload:
    path = Path(path)
    workload = load_model(path, Workload)
    if workload.id != path.stem:
        raise ConfigError.of(
            [FileProblem(str(path), "id", f"is {workload.id!r} but the file is named {path.name} (they must match)", line_of(path, ["id"]))]
        )
    return workload


def load_workloads_report(directory: str | Path | None = None) -> Loaded[Workload, FileProblem]:
    """The workloads of the folder that validate, by id, and every problem of the others (an
    id Dagster cannot take as a partition key included; of two files with one id, the first
    in name order is kept): for the Dagster load path and listings."""
    found: dict[str, Workload] = {}
    sources: dict[str, Path] = {}
    problems: list[FileProblem] = []
    for path in workload_files(directory):
        try:
            workload = load_workload(path)
        except ConfigError as exc:
            problems.extend(exc.problems)
            continue
        if workload.id in found:
            problems.append(
                FileProblem(
                    str(path), "id", f"{workload.id!r} is defined twice (also by {sources[workload.id].name})", line_of(path, ["id"])
                )
            )
            continue
        found[workload.id], sources[workload.id] = workload, path
    return Loaded(found, problems)


def load_workloads(directory: str | Path | None = None) -> dict[str, Workload]:
    """Every workload in the folder, by id; ConfigError with the problems of all files together."""
    report = load_workloads_report(directory)
    if report.problems:
        raise ConfigError.of(report.problems)
    return report.entries


def resolve_workload(value: str, directory: str | Path | None = None) -> Workload:
    """A workload by id (from the workloads folder) or by the path of its file."""
    path = Path(value)
    if path.suffix in SUFFIXES and path.is_file():
        return load_workload(path)
    for suffix in SUFFIXES:
        candidate = workloads_dir(directory) / f"{value}{suffix}"
        if candidate.is_file():
            return load_workload(candidate)
    known = ", ".join(p.stem for p in workload_files(directory)) or "none"
    raise ConfigError(f"unknown workload {value!r} in {workloads_dir(directory)}; known: {known}")


# --- the workload against the corpus ---------------------------------------------------


def dataset_spec(workload: Workload, datasets_root: str | Path = registry.DEFAULT_DATASETS_ROOT) -> registry.DatasetSpec:
    for spec in registry.discover(datasets_root):
        if spec.id == workload.dataset.id:
            return spec
    raise ConfigError(f"workload {workload.id}: dataset {workload.dataset.id!r} is not in {datasets_root}")


def verify_pin(workload: Workload, spec: registry.DatasetSpec) -> str:
    """The dataset's content sha256; ConfigError when it is not the one the workload pins."""
    actual = registry.content_sha256(spec.folder, spec.root)
    if actual != workload.dataset.sha256:
        raise ConfigError(
            f"workload {workload.id}: dataset.sha256: pins {workload.dataset.sha256} but "
            f"{spec.folder} hashes to {actual}; a published dataset never changes, so a "
            "different hash means different bytes (publish a new -vN dataset and workload)"
        )
    return actual


def verify_errata(workload: Workload, datasets_root: str | Path = registry.DEFAULT_DATASETS_ROOT) -> corpus_errata.AppliedErrata:
    """The errata the workload pins, resolved against `<datasets_root>/errata.json`;
    ConfigError when a pinned id is missing, names another dataset, or the entries no longer
    hash to the pin. A workload without `errata` applies none (every row is scored)."""
    try:
        return corpus_errata.apply_pin(workload.errata, workload.dataset.id, datasets_root, f"workload {workload.id}")
    except corpus_errata.ErrataError as exc:
        raise ConfigError(str(exc)) from None


def select_rows(rows: Sequence[Mapping[str, Any]], sample: Sample, limit: int | None = None) -> list[Mapping[str, Any]]:
    """The workload's sample, then at most `limit` of it (the first ones)."""
    chosen: list[Mapping[str, Any]] = list(rows)
    if sample.limit is not None and sample.limit < len(chosen):
        if sample.seed is None:
            chosen = chosen[: sample.limit]
        else:
            keep = sorted(random.Random(sample.seed).sample(range(len(chosen)), sample.limit))
            chosen = [chosen[i] for i in keep]
    if limit is not None:
        chosen = chosen[:limit]
    return chosen


# --- drafting a workload for a new dataset ---------------------------------------------


def draft_workload(spec: registry.DatasetSpec) -> dict[str, Any]:
    """A workload file body for a dataset: pin, kind and scorer from its card, nominal
    input_tokens from the rows as the request builder sends them. Review before committing."""
    from atlas_assets.evals.requests import approx_tokens, build_messages

    rows = registry.read_rows(spec)
    scored = spec.kind in ("eval", "haystack")
    scorer = spec.default_scorer
    sizes = [approx_tokens(build_messages(row, spec)) for row in rows]
    nominal = max(1, math.ceil(sum(sizes) / len(sizes))) if sizes else 1
    long_context = nominal > 8192
    body: dict[str, Any] = {
        "id": spec.id,
        "description": (spec.card.get("description", "").split(". ")[0].rstrip(".") + ".").strip(),
        "dataset": {"id": spec.id, "sha256": registry.content_sha256(spec.folder, spec.root)},
        "kind": "eval" if scored else "serve",
        "request": {
            "max_tokens": SCORERS.get(scorer or "", Scorer).max_tokens if scored else 256,
            "temperature": 0.0,
            "stream": True,
            "stop": None,
        },
        "input_tokens": nominal,
        "concurrency": 8 if long_context else 64,
    }
    if scored:
        body["scorer"] = scorer
    body["sample"] = {"limit": None, "seed": None}
    pin = corpus_errata.pin_for(corpus_errata.load_errata(corpus_errata.errata_path(spec.root)), spec.id) if scored else None
    if pin is not None:
        body["errata"] = pin
    return body


def dump_workload(body: Mapping[str, Any]) -> str:
    return yaml.safe_dump(dict(body), sort_keys=False, allow_unicode=True, width=100)
