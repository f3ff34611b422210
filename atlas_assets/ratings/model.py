"""The in-memory dump: plain numpy arrays, one row per voted battle (no per-vote objects)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DumpHeader:
    schema_version: int
    generated_at: str
    categories: tuple[str, ...]


@dataclass(frozen=True)
class Dump:
    """A validated dump, reduced to what the ratings need.

    Battles with zero votes are dropped. Row i describes the i-th voted battle in file
    order. `models` is every model slug seen in a voted battle, sorted ascending
    (bytewise == code-point order); model_a/model_b index into it, category into
    `header.categories`.
    """

    header: DumpHeader
    battles_sha256: str
    votes_sha256: str
    models: tuple[str, ...]
    category: np.ndarray  # int32 (n,)
    model_a: np.ndarray  # int32 (n,)
    model_b: np.ndarray  # int32 (n,)
    features_a: np.ndarray  # float64 (n, 4): COVARIATES of response_a; zeros for recording battles
    features_b: np.ndarray  # float64 (n, 4)
    wins_a: np.ndarray  # float64 (n,): sum of weight x (1 for win_a, 0.5 for tie)
    wins_b: np.ndarray  # float64 (n,): sum of weight x (1 for win_b, 0.5 for tie)
    vote_count: np.ndarray  # int64 (n,): number of votes on the battle
    battles_in_file: int  # data records in battles.jsonl, voted or not
    votes_in_file: int  # data records in votes.jsonl

    @property
    def n_battles(self) -> int:
        return int(self.category.shape[0])
