"""The simulator's translation behaviour: answering translation prompts from the
translation corpora it indexes.

A chat request whose last user turn was made by the translation prompt template
(atlas_assets/translation/prompt.py, `translate-v1`) is parsed for (source language,
target language, source text) and looked up among the indexed corpora's segments
(entries sharing a variant_class are one segment with several references; a multi-target
corpus is indexed once per target, each target's draws keyed apart). The reply is

* with probability skill[tier] -- tiers 1-2 use `skill.easy`, 3 `skill.medium`, 4-5
  `skill.hard` -- one of the segment's gold references (which one is drawn too);
* otherwise a deterministically degraded reference: about a third of its words dropped
  and two neighbours swapped (a single word is left untranslated: the source is echoed);
* for a recognised template whose source no corpus holds: the source itself, untranslated.

Every draw is keyed by (profile seed, "translation/<dataset>/<segment id>"), so a retry
sees the same answer. Other requests are untouched: the eval corpus index answers them.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from atlas_assets.simulator.index import RequestView
from atlas_assets.simulator.profiles import SimulatorProfile
from atlas_assets.simulator.replies import Draws, Reply

__all__ = ["TranslationIndex", "TranslationRow", "compose_translation", "default_translation_index"]


@dataclass(frozen=True, slots=True)
class TranslationRow:
    dataset: str
    segment_id: int
    references: tuple[str, ...]
    difficulty: int
    source: str

    @property
    def key(self) -> str:
        return f"translation/{self.dataset}/{self.segment_id}"


class TranslationIndex:
    """(source language, target language, source text) -> segment, over corpus files."""

    def __init__(self, paths: Iterable[str | Path] = ()) -> None:
        from atlas_assets.translation.schema import CorpusError, load_corpus
        from atlas_assets.translation.scoring import segments

        self._rows: dict[tuple[str, str, str], TranslationRow] = {}
        self.paths: list[Path] = []
        for path in paths:
            try:
                loaded = load_corpus(path)
            except CorpusError:
                continue  # an invalid corpus is not served
            self.paths.append(Path(path))
            for target in loaded.targets:
                corpus = loaded.corpus.for_target(target)
                block = corpus.dataset
                name = f"{block.id}/{target}" if loaded.corpus.is_multi_target else block.id  # draws differ by target
                for seg in segments(corpus):
                    key = (block.source_language, target, seg.source.strip())
                    self._rows.setdefault(key, TranslationRow(name, seg.id, seg.references, seg.difficulty, seg.source))

    def __len__(self) -> int:
        return len(self._rows)

    def identify(self, view: RequestView) -> tuple[TranslationRow | None, str] | None:
        """None when the request is not a translation prompt; else (row or None, source)."""
        from atlas_assets.translation.prompt import parse_user_turn

        last = view.last_user
        if last is None:
            return None
        parsed = parse_user_turn(last)
        if parsed is None:
            return None
        source_language, target_language, source = parsed
        return self._rows.get((source_language, target_language, source.strip())), source


def _tier_skill(profile: SimulatorProfile, difficulty: int) -> float:
    return profile.skill.easy if difficulty <= 2 else profile.skill.medium if difficulty == 3 else profile.skill.hard


def degrade(reference: str, source: str, rng: Draws) -> str:
    words = reference.split()
    if len(words) <= 1:
        return source
    keep = [w for w in words if rng.random() >= 1 / 3]
    if len(keep) == len(words):
        del keep[rng.below(len(keep))]
    if not keep:
        keep = [words[0]]
    if len(keep) >= 2:
        i = rng.below(len(keep) - 1)
        keep[i], keep[i + 1] = keep[i + 1], keep[i]
    return " ".join(keep)


def compose_translation(profile: SimulatorProfile, row: TranslationRow | None, source: str, row_key: str) -> Reply:
    if row is None:
        return Reply(content=source)
    rng = Draws(profile.seed, row_key, "answer")
    reference = row.references[rng.below(len(row.references))]
    if rng.random() < _tier_skill(profile, row.difficulty):
        return Reply(content=reference)
    return Reply(content=degrade(reference, row.source, rng))


_DEFAULT: dict[tuple[str, ...], TranslationIndex] = {}
_LOCK = threading.Lock()


def default_translation_index(paths: Sequence[str | Path] | None = None) -> TranslationIndex:
    """The index of `paths` (default: every corpus in the translation folder), cached per process."""
    if paths is None:
        from atlas_assets.translation.corpora import discover

        paths = discover()
    key = tuple(f"{Path(p).resolve()}:{Path(p).stat().st_mtime_ns}" for p in paths if Path(p).is_file())
    with _LOCK:
        if key not in _DEFAULT:
            _DEFAULT[key] = TranslationIndex(paths)
        return _DEFAULT[key]
