"""Dataset cards that tell the truth: card corrections and the scoring block the code implies.

A dataset card (``dataset.json``) is part of a published dataset's bytes, so a card that
describes scoring wrongly cannot be edited in place (that would move the content hash every
workload pins). A wrong documentary field is corrected instead in one file beside the
datasets, ``datasets/card-corrections.json`` (append-only, like the row errata):

    {"format_version": 1, "corrections": [
        {"id": "card-0001", "dataset": "eval-code-v1", "field": "scoring",
         "value": {...}, "reason": "...", "date": "2026-12-01"}]}

`effective_card` applies a dataset's corrections in file order, and every reader that shows
a card's scoring (check.py, the Dagster dataset metadata) reads the effective card. Only the
documentary fields ``scoring``, ``description`` and ``tests_contract`` can be corrected; what changes a verdict
(default_scorer, limits, rows) never is.

`scoring_block` is what a card's ``scoring`` must say: derived from the scorer registry
(each scorer's extraction and its steps), so check.py fails the moment the code and a card
disagree -- which is how the corpus found that every card claimed extraction was skipped for
instruction and splice only, while code_exec and tool_call take their own.

Standard library + pydantic only: check.py imports this under a bare ``uv run``.

    python -m atlas_assets.corpus.cards --write          # append corrections for cards that disagree
    python -m atlas_assets.corpus.cards --write-schema   # publish schemas/card-corrections/1/...
"""

from __future__ import annotations

import argparse
import copy
import datetime as _dt
import json
from pathlib import Path
from types import ModuleType
from typing import Any, Final, Iterable, Literal, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, model_validator

from atlas_assets.core.documents import load_document
from atlas_assets.core.documents import render_schema as render_document_schema
from atlas_assets.core.errors import AtlasError
from atlas_assets.corpus import registry

REPO_ROOT = Path(__file__).resolve().parents[2]
CORRECTIONS_FILE = "card-corrections.json"  # relative to the datasets root
FORMAT_VERSION: Final = 1
SCHEMA_REL = Path("schemas") / "card-corrections" / str(FORMAT_VERSION) / "card_corrections_schema.json"
# The legacy claim every first-wave card made; superseded by the per-scorer extraction map.
_LEGACY_KEYS = ("extraction", "extraction_skipped_for")

__all__ = [
    "CardCorrection",
    "CardCorrections",
    "CardsError",
    "card_scorers",
    "corrected_card",
    "effective_card",
    "load_corrections",
    "scoring_block",
    "scoring_problems",
]


class CardsError(AtlasError, ValueError):
    """A card-corrections file that cannot be used; the message names the file and field."""


class CardCorrection(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^card-[0-9]{4}$", description="card-NNNN, unique in the file; never reused")
    dataset: str = Field(min_length=1, description="a dataset folder under datasets/")
    field: Literal["scoring", "description", "tests_contract"] = Field(description="the documentary card field replaced")
    value: Any = Field(description="the field's corrected value, replacing the published one whole")
    reason: str = Field(min_length=10, description="what the published value got wrong")
    date: _dt.date


class CardCorrections(BaseModel):
    """datasets/card-corrections.json: corrections of documentary card fields, append-only."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format_version: Literal[1]
    comment: str = ""
    corrections: list[CardCorrection] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> "CardCorrections":
        seen: set[str] = set()
        for i, c in enumerate(self.corrections):
            if c.id in seen:
                raise ValueError(f"corrections[{i}].id: {c.id} is used twice")
            seen.add(c.id)
        return self

    def for_dataset(self, dataset: str) -> list[CardCorrection]:
        return [c for c in self.corrections if c.dataset == dataset]


def corrections_path(datasets_root: str | Path) -> Path:
    return Path(datasets_root) / CORRECTIONS_FILE


def load_corrections(datasets_root: str | Path) -> CardCorrections:
    """The corrections of `datasets_root`; an absent file is no corrections."""
    path = corrections_path(datasets_root)
    if not path.is_file():
        return CardCorrections(format_version=FORMAT_VERSION)
    return load_document(path, CardCorrections, CardsError)


def effective_card(card: Mapping[str, Any], corrections: Iterable[CardCorrection]) -> dict[str, Any]:
    """The card as published, with its corrections applied in file order."""
    out = copy.deepcopy(dict(card))
    for correction in corrections:
        out[correction.field] = copy.deepcopy(correction.value)
    return out


def corrected_card(datasets_root: str | Path, dataset_id: str, card: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The effective card of `dataset_id` and the ids of the corrections applied to it."""
    corrections = load_corrections(datasets_root).for_dataset(dataset_id)
    return effective_card(card, corrections), [c.id for c in corrections]


def card_scorers(card: Mapping[str, Any]) -> list[str]:
    """The scorers a card's rows use: its `scorers` list, else its kind's default."""
    listed = card.get("scorers")
    if isinstance(listed, list) and listed:
        return sorted(str(s) for s in listed)
    default = registry.default_scorer(card)
    return [default] if default else []


def scoring_block(lib: ModuleType, scorers: Sequence[str]) -> dict[str, Any]:
    """What a scored card's `scoring` must say: the shared rules of `_lib.SCORING`, and per
    scorer the extraction the registry gives it, step by step."""
    from atlas_assets.corpus.scorers import SCORERS

    block = {k: v for k, v in lib.SCORING.items() if k not in _LEGACY_KEYS}
    block["extraction"] = {
        name: {"extraction": SCORERS[name].extraction.name, "steps": list(SCORERS[name].extraction.steps)}
        for name in sorted(scorers)
        if name in SCORERS
    }
    return block


def scoring_problems(lib: ModuleType, card: Mapping[str, Any], corrections: Iterable[CardCorrection]) -> list[str]:
    """Why the effective card's scoring block disagrees with the code (empty: it agrees)."""
    if card.get("kind") not in registry.SCORED_KINDS:
        return []
    effective = effective_card(card, corrections)
    expected = scoring_block(lib, card_scorers(card))
    if effective.get("scoring") == expected:
        return []
    if "scoring" not in effective:
        return ["has no scoring block (add a card correction: python -m atlas_assets.corpus.cards --write)"]
    return [
        "does not describe extraction per scorer as the code does it (python -m atlas_assets.corpus.cards --write records a correction)"
    ]


def render_schema() -> bytes:
    return render_document_schema(CardCorrections, SCHEMA_REL.as_posix())


def write_corrections(datasets_root: Path, lib: ModuleType, cards: Mapping[str, Mapping[str, Any]], today: _dt.date) -> list[str]:
    """Append a scoring correction for every scored card whose effective block disagrees
    with the code; returns the new ids. Existing entries are never rewritten."""
    from atlas_assets.core.atomic import atomic_write_bytes

    current = load_corrections(datasets_root)
    entries = [c.model_dump(mode="json") for c in current.corrections]
    next_number = 1 + max((int(c.id.split("-")[1]) for c in current.corrections), default=0)
    added = []
    for dataset_id, card in sorted(cards.items()):
        if not scoring_problems(lib, card, current.for_dataset(dataset_id)):
            continue
        had = "scoring" in effective_card(card, current.for_dataset(dataset_id))
        correction_id = f"card-{next_number:04d}"
        next_number += 1
        entries.append(
            {
                "id": correction_id,
                "dataset": dataset_id,
                "field": "scoring",
                "value": scoring_block(lib, card_scorers(card)),
                "reason": (
                    "The published scoring block said answer extraction was skipped for instruction and splice only; "
                    "the code gives each scorer its own extraction (code_exec takes the fenced code, tool_call reads "
                    "no text, splice skips the answer-line step, instruction reads the raw reply), listed here per scorer."
                    if had
                    else "The published card has no scoring block; this is the scoring its rows are judged by."
                ),
                "date": today.isoformat(),
            }
        )
        added.append(correction_id)
    if added:
        body = CardCorrections.model_validate(
            {
                "format_version": FORMAT_VERSION,
                "comment": current.comment
                or (
                    "Corrections of documentary dataset-card fields (scoring, description). Published dataset bytes "
                    "never change, so a card that describes its scoring wrongly is corrected here; readers apply the "
                    "entries in order (atlas_assets/corpus/cards.py). Append-only."
                ),
                "corrections": entries,
            }
        )
        text = json.dumps(body.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
        atomic_write_bytes(corrections_path(datasets_root), text.encode("utf-8"))
    return added


def main(argv: Sequence[str] | None = None) -> int:
    from atlas_assets.core.atomic import atomic_write_bytes

    parser = argparse.ArgumentParser(prog="python -m atlas_assets.corpus.cards", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=registry.DEFAULT_DATASETS_ROOT, help="datasets folder")
    parser.add_argument("--write", action="store_true", help="append corrections for every card that disagrees with the code")
    parser.add_argument("--write-schema", action="store_true", help=f"publish {SCHEMA_REL}")
    args = parser.parse_args(argv)
    if args.write_schema:
        target = REPO_ROOT / SCHEMA_REL
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(target, render_schema())
        print(f"wrote {target}")
    lib = registry.load_lib(args.root)
    cards = {s.id: s.card for s in registry.discover(args.root)}
    if args.write:
        added = write_corrections(args.root, lib, cards, _dt.date.today())
        print(f"added {', '.join(added)}" if added else "every card agrees with the code")
        return 0
    corrections = load_corrections(args.root)
    disagree = [d for d, card in sorted(cards.items()) if scoring_problems(lib, card, corrections.for_dataset(d))]
    for dataset_id in disagree:
        print(f"{dataset_id}: the card's scoring disagrees with the code")
    return 1 if disagree else 0


if __name__ == "__main__":
    raise SystemExit(main())
