"""From a validated dump to the byte-exact leaderboard.json (spec section 6).

The document is built from rounded values only, so that sorting and rank bands can be
re-derived from the published file alone (spec 6.3).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from atlas_assets.core.progress import ProgressLog
from atlas_assets.ratings import COVARIATES, LEADERBOARD_SCHEMA_VERSION, PACKAGE, PACKAGE_VERSION
from atlas_assets.ratings.dump import read_dump
from atlas_assets.ratings.errors import DumpError
from atlas_assets.ratings.fit import FitResult
from atlas_assets.ratings.fitting import CategoryData, fit_categories
from atlas_assets.ratings.model import Dump
from atlas_assets.ratings.progress import LeaderboardProgress

MAX_BOOTSTRAP_ROUNDS = 100_000
"""The most bootstrap rounds compute and verify run: time and memory grow linearly with
rounds (a 5M-vote category takes about a second per 10 rounds), and past this the CI
percentiles no longer move at the published four decimals in any realistic dump."""

MAX_VOTE_WEIGHT = 1000.0
"""The heaviest vote the engine fits. Full-quality votes weigh 1.0 (spec 4.2); the prior
(fit.PRIOR_LAMBDA) is in vote-weight units, and once a category's data curvature is ~1e14
times it the Newton systems are singular in double precision. Capping each vote at 1000
keeps that out of reach for any dump up to 1e9 votes; a heavier vote is rejected before
fitting, naming its line."""


@dataclass(frozen=True)
class ComputeParams:
    """Every knob that affects the numbers; all of them are echoed in the metadata."""

    seed: int = 42
    bootstrap_rounds: int = 100
    min_votes: int = 30
    style_min_votes: int = 50

    def __post_init__(self) -> None:
        for name in ("seed", "bootstrap_rounds", "min_votes", "style_min_votes"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"{name.replace('_', '-')} must be a whole number >= 0, got {value!r}")
        if self.bootstrap_rounds < 1:
            raise ValueError("bootstrap-rounds must be at least 1 (the CIs are bootstrap percentiles)")
        if self.bootstrap_rounds > MAX_BOOTSTRAP_ROUNDS:
            raise ValueError(f"bootstrap-rounds must be at most {MAX_BOOTSTRAP_ROUNDS}, got {self.bootstrap_rounds}")


def round4(value: float) -> float:
    """Round half-even to 4 decimals (Python's round), folding -0.0 into 0.0."""
    rounded = round(float(value), 4)
    return rounded + 0.0


def build_document(
    dump: Dump, params: ComputeParams, progress: LeaderboardProgress | None = None, *, workers: int | None = None
) -> dict[str, Any]:
    """The leaderboard as a JSON-ready dict of rounded values (spec section 6).

    Categories are fitted by ratings.fitting (in-process, or over worker processes for a
    large dump; `workers` as there); each has its own random stream and the results are
    placed in slug order, so the bytes depend on neither."""
    inputs = category_inputs(dump, params)
    categories = [data for _, data in inputs]
    if progress:
        progress.fitting(dump.votes_in_file, [data.slug for data in categories], params.bootstrap_rounds)
        for index, data in inputs:
            progress.category(data.slug, data.n_models, int(dump.vote_count[dump.category == index].sum()), data.style_control)
    fits = fit_categories(
        categories, seed=params.seed, rounds=params.bootstrap_rounds, progress=progress.bootstrap if progress else None, workers=workers
    )
    sections = [_category_section(dump, index, data, fit, params) for (index, data), fit in zip(inputs, fits)]
    if progress:
        progress.finished()
    return {
        "metadata": {
            "package": PACKAGE,
            "package_version": PACKAGE_VERSION,
            "leaderboard_schema_version": LEADERBOARD_SCHEMA_VERSION,
            "dump_schema_version": dump.header.schema_version,
            "dump_generated_at": dump.header.generated_at,
            "seed": params.seed,
            "bootstrap_rounds": params.bootstrap_rounds,
            "min_votes": params.min_votes,
            "style_min_votes": params.style_min_votes,
            "input_digests": {
                "battles_sha256": dump.battles_sha256,
                "votes_sha256": dump.votes_sha256,
            },
        },
        "categories": sections,
    }


def category_inputs(dump: Dump, params: ComputeParams) -> list[tuple[int, CategoryData]]:
    """What the fits take: every category with votes, in slug order, with its index in the header."""
    voted = sorted((slug, index) for index, slug in enumerate(dump.header.categories) if np.any(dump.category == index))
    return [(index, _category_data(dump, slug, index, params)) for slug, index in voted]


def _members(dump: Dump, index: int) -> tuple[np.ndarray, np.ndarray]:
    """(the category's rows, its models' global indices in slug order)."""
    rows = np.flatnonzero(dump.category == index)
    members = np.unique(np.concatenate([dump.model_a[rows], dump.model_b[rows]]))  # sorted => slug order
    return rows, members


def _category_data(dump: Dump, slug: str, index: int, params: ComputeParams) -> CategoryData:
    rows, members = _members(dump, index)
    return CategoryData(
        slug=slug,
        model_a=np.searchsorted(members, dump.model_a[rows]),
        model_b=np.searchsorted(members, dump.model_b[rows]),
        wins_a=dump.wins_a[rows],
        wins_b=dump.wins_b[rows],
        features_a=dump.features_a[rows],
        features_b=dump.features_b[rows],
        n_models=int(members.size),
        style_control=int(dump.vote_count[rows].sum()) >= params.style_min_votes,
    )


def _category_section(dump: Dump, index: int, data: CategoryData, fit: FitResult, params: ComputeParams) -> dict[str, Any]:
    rows, members = _members(dump, index)
    votes = dump.vote_count[rows]
    model_votes = np.bincount(data.model_a, weights=votes, minlength=data.n_models) + np.bincount(
        data.model_b, weights=votes, minlength=data.n_models
    )
    entries = _entries([dump.models[g] for g in members], model_votes.astype(np.int64), fit, params)
    coefficients = (
        {name: round4(value) for name, value in zip(COVARIATES, fit.style_coefficients)}
        if data.style_control and fit.style_coefficients is not None
        else None
    )
    return {
        "category": data.slug,
        "vote_count": int(votes.sum()),
        "style_control": data.style_control,
        "style_coefficients": coefficients,
        "entries": entries,
    }


def _entries(slugs: list[str], model_votes: np.ndarray, fit: FitResult, params: ComputeParams) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for i, slug in enumerate(slugs):
        raw = (round4(fit.rating[i]), round4(fit.ci_low[i]), round4(fit.ci_high[i]))
        sc = (
            (round4(fit.rating_sc[i]), round4(fit.ci_low_sc[i]), round4(fit.ci_high_sc[i]))
            if fit.rating_sc is not None and fit.ci_low_sc is not None and fit.ci_high_sc is not None
            else raw
        )
        entries.append(
            {
                "model": slug,
                "rating": raw[0],
                "ci_low": raw[1],
                "ci_high": raw[2],
                "rating_style_controlled": sc[0],
                "ci_low_sc": sc[1],
                "ci_high_sc": sc[2],
                "vote_count": int(model_votes[i]),
                "provisional": bool(model_votes[i] < params.min_votes),
            }
        )
    entries.sort(key=lambda entry: (-entry["rating"], entry["model"].encode("utf-8")))
    ranked_lows = [entry["ci_low"] for entry in entries if not entry["provisional"]]
    for order, entry in enumerate(entries, start=1):
        entry["order"] = order
        entry["rank"] = None if entry["provisional"] else 1 + sum(1 for low in ranked_lows if low > entry["ci_high"])
    return entries


def render(document: Any) -> bytes:
    """leaderboard.json bytes per spec 6.4.

    The layout is exactly `json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True,
    separators=(", ", ": "))` plus a trailing LF, except that every float is written with
    exactly four decimals (-?d+.dddd), which json.dumps cannot do.
    """
    return (_encode(document, 0) + "\n").encode("ascii")


def _encode(value: Any, depth: int) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return json.dumps(value, ensure_ascii=True)
    if isinstance(value, float):
        if not np.isfinite(value):
            raise ValueError(f"leaderboard values must be finite, got {value!r}")
        return f"{round4(value):.4f}"
    inner = "\n" + "  " * (depth + 1)
    outer = "\n" + "  " * depth
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = sorted(value.items())  # code-point order == UTF-8 byte order
        body = (", " + inner).join(f"{json.dumps(key, ensure_ascii=True)}: {_encode(item, depth + 1)}" for key, item in items)
        return "{" + inner + body + outer + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        return "[" + inner + (", " + inner).join(_encode(item, depth + 1) for item in value) + outer + "]"
    raise TypeError(f"cannot serialise {type(value).__name__} into leaderboard.json")


def compute_leaderboard(
    battles: str | Path,
    votes: str | Path,
    params: ComputeParams = ComputeParams(),
    progress: ProgressLog | None = None,
) -> bytes:
    """Read, validate and rate a dump; return the exact leaderboard.json bytes.

    `progress` gets lines with units (bytes read, votes, categories, bootstrap rounds with
    an ETA; see ratings.progress). Raises DumpError (file, line, field) for a dump the spec
    rejects.
    """
    report = LeaderboardProgress(progress) if progress else None
    names = {"battles": Path(battles).name, "votes": Path(votes).name}
    dump = read_dump(battles, votes, progress=(lambda stage, done, total: report.read(names[stage], done, total)) if report else None)
    _check_weights(dump, votes)
    return render(build_document(dump, params, report))


def _check_weights(dump: Dump, votes: str | Path) -> None:
    """Reject a vote heavier than MAX_VOTE_WEIGHT (DumpError naming its line) before any fit.

    No vote outweighs its battle, so the per-battle sums settle it for every usual dump; only
    when a battle's votes add up past the cap is votes.jsonl (already validated) scanned
    for the line."""
    totals = dump.wins_a + dump.wins_b
    if not totals.size or float(totals.max()) <= MAX_VOTE_WEIGHT:
        return
    with open(votes, "rb") as handle:
        handle.readline()  # the header
        for line_number, line in enumerate(handle, start=2):
            weight = orjson.loads(line)["weight"]
            if weight > MAX_VOTE_WEIGHT:
                raise DumpError(
                    str(votes),
                    line_number,
                    "weight",
                    f"{weight!r} is above {MAX_VOTE_WEIGHT:g}, the heaviest vote this engine fits "
                    "(full-quality votes weigh 1.0; README, humaneval-ratings limits)",
                )
