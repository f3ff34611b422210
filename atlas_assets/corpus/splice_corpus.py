"""Measuring the splice detector: intact generations and the same generations with the
splices real serving bugs produce.

The splices are drawn by `atlas_assets.corpus.splice.injection.make_cases` (its module
docstring describes the serving-bug model: joins, duplicated and dropped sub-word tokens
at approximate BPE boundaries, donors from the output, the project and a foreign
project). A `Corpus` holds intact outputs with their context identifiers and the spliced
cases drawn from them; `measure(corpus)` applies `find_splices` and returns detection per
kind and the false-positive rate on the intact outputs. bench/splice_bench.py runs it at
full size; tests/corpus/test_g2_suites.py asserts the thresholds on a smaller corpus.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from atlas_assets.corpus.splice.detection import find_splices
from atlas_assets.corpus.splice.injection import KINDS, Case, Word, code_words, make_cases, subword_pieces

# KINDS, Case, Word, code_words, make_cases and subword_pieces live in splice.injection;
# they are re-exported here for importers that read them from this module.
__all__ = ["KINDS", "Case", "Corpus", "Measurement", "Word", "code_words", "make_cases", "measure", "subword_pieces"]


@dataclass
class Corpus:
    intact: list[tuple[str, list[str]]] = field(default_factory=list)  # (text, context identifiers)
    cases: list[tuple[int, Case]] = field(default_factory=list)  # (index into intact, case)
    invisible_draws: int = 0


@dataclass
class Measurement:
    intact: int
    false_positives: int
    fp_examples: list[str]
    by_kind: dict[str, tuple[int, int]]  # kind -> (detected, total)
    by_subkind: dict[str, tuple[int, int]]
    misses: list[str]

    @property
    def detected(self) -> int:
        return sum(d for d, _ in self.by_kind.values())

    @property
    def spliced(self) -> int:
        return sum(t for _, t in self.by_kind.values())

    @property
    def detection_rate(self) -> float:
        return self.detected / self.spliced if self.spliced else 0.0

    @property
    def false_positive_rate(self) -> float:
        return self.false_positives / self.intact if self.intact else 0.0


def _findings(text: str, context: Sequence[str]) -> set[tuple[str, str]]:
    return {(s.kind, s.token) for s in find_splices(text, context)}


def measure(corpus: Corpus, keep_misses: int = 20) -> Measurement:
    baseline = []
    false_positives = 0
    fp_examples: list[str] = []
    for text, context in corpus.intact:
        found = _findings(text, context)
        baseline.append(found)
        if found:
            false_positives += 1
            if len(fp_examples) < keep_misses:
                fp_examples.append("; ".join(s.describe() for s in find_splices(text, context)))
    by_kind: dict[str, list[int]] = {}
    by_subkind: dict[str, list[int]] = {}
    misses: list[str] = []
    for index, case in corpus.cases:
        _, context = corpus.intact[index]
        new = _findings(case.text, context) - baseline[index]
        hit = bool(new)
        for table, key in ((by_kind, case.kind), (by_subkind, f"{case.kind}/{case.subkind}")):
            row = table.setdefault(key, [0, 0])
            row[0] += hit
            row[1] += 1
        if not hit and len(misses) < keep_misses:
            misses.append(f"{case.kind}/{case.subkind}: {case.original!r} -> {case.spliced!r}")
    return Measurement(
        intact=len(corpus.intact),
        false_positives=false_positives,
        fp_examples=fp_examples,
        by_kind={k: (v[0], v[1]) for k, v in sorted(by_kind.items())},
        by_subkind={k: (v[0], v[1]) for k, v in sorted(by_subkind.items())},
        misses=misses,
    )
