"""A right and a wrong model output for any eval row, derived from the row itself.

Used by the corpus tests (every dataset: the reference passes its own scorer, a perturbed
one fails) and by the simulator engine (answering with a configurable skill). Each scorer
object owns how (`Scorer.reference`, `Scorer.perturb`); this module only looks it up.
"""

from __future__ import annotations

from typing import Any, Mapping

from atlas_assets.corpus.scorers import SCORERS, ModelOutput, scorer_name

__all__ = ["perturbed_output", "reference_output"]


def reference_output(row: Mapping[str, Any], dataset_default_scorer: str | None = None) -> ModelOutput:
    """An output the row's scorer accepts."""
    return SCORERS[scorer_name(row, dataset_default_scorer)].reference(row)


def perturbed_output(row: Mapping[str, Any], dataset_default_scorer: str | None = None, seed: int = 0) -> ModelOutput:
    """An output the row's scorer must reject."""
    return SCORERS[scorer_name(row, dataset_default_scorer)].perturb(row, seed)
