"""Scoring translations with sacreBLEU: chrF++ (primary), chrF and BLEU at corpus level,
each with its signature string; sentence-level chrF++ per segment; breakdowns.

Segments and multiple references: entries that share a `variant_class` are alternative
references of one source (the validator enforces one source per class). They form one
*segment*: the source is sent once and its output is scored against all of the class's
references (sacreBLEU multi-reference; segments with fewer references are padded with
None, which sacreBLEU skips, signature `nrefs:var`). An entry without a variant_class is
a segment of its own. Every score is over segments, so a source with three accepted
variants weighs as much as a source with one.

Metrics (sacreBLEU defaults unless said): chrF++ = CHRF(word_order=2), chrF =
CHRF(), BLEU = BLEU(tokenize=...) where the tokenizer follows the target language:
`zh` for Chinese, `char` for Japanese, Korean, Thai, Burmese, Khmer and Lao (scripts
without spaces; `ja-mecab`/`ko-mecab` need extra packages), `13a` otherwise. A failed
request is scored as an empty hypothesis.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from sacrebleu.metrics import BLEU, CHRF

from atlas_assets.translation.schema import Corpus, Entry

__all__ = [
    "PRIMARY",
    "Segment",
    "bleu_tokenizer",
    "breakdowns",
    "corpus_chrfpp",
    "corpus_scores",
    "make_metrics",
    "reference_streams",
    "segments",
    "sentence_chrfpp",
]

PRIMARY = "chrf++"
_CHAR_LANGS = frozenset({"ja", "jpn", "ko", "kor", "th", "tha", "my", "mya", "km", "khm", "lo", "lao"})


@dataclass(frozen=True)
class Segment:
    id: int  # the first entry's id
    entry_ids: tuple[int, ...]
    source: str
    references: tuple[str, ...]
    difficulty: int
    register: str
    context: str
    variant_class: str | None


def segments(corpus: Corpus) -> list[Segment]:
    """The corpus's segments in file order (a variant class at its first entry)."""
    groups: dict[Any, list[Entry]] = {}
    for entry in corpus.entries:
        key = ("class", entry.variant_class) if entry.variant_class else ("entry", entry.id)
        groups.setdefault(key, []).append(entry)
    out = []
    for members in groups.values():
        first = members[0]
        out.append(
            Segment(
                id=first.id,
                entry_ids=tuple(m.id for m in members),
                source=first.source,
                references=tuple(m.reference for m in members),  # type: ignore[misc]  # a single-target corpus (for_target): every entry has its reference
                difficulty=first.difficulty,
                register=first.register,
                context=first.context,
                variant_class=first.variant_class,
            )
        )
    return out


def bleu_tokenizer(target_language: str) -> str:
    primary = target_language.split("-")[0].lower()
    if primary in ("zh", "zho", "cmn", "yue"):
        return "zh"
    if primary in _CHAR_LANGS:
        return "char"
    return "13a"


def make_metrics(target_language: str) -> dict[str, Any]:
    return {"chrf++": CHRF(word_order=2), "chrf": CHRF(), "bleu": BLEU(tokenize=bleu_tokenizer(target_language))}


def reference_streams(references: Sequence[Sequence[str]]) -> list[list[str | None]]:
    """Per-segment reference lists -> sacreBLEU's reference streams (padded with None)."""
    width = max((len(r) for r in references), default=1)
    return [[refs[k] if k < len(refs) else None for refs in references] for k in range(width)]


def corpus_scores(hypotheses: Sequence[str], references: Sequence[Sequence[str]], target_language: str) -> dict[str, dict[str, Any]]:
    """{metric: {score, signature, text}} for chrF++, chrF and BLEU over the segments."""
    if len(hypotheses) != len(references):
        raise ValueError("one hypothesis per segment")
    if not hypotheses:
        return {}
    streams = reference_streams(references)
    out = {}
    for name, metric in make_metrics(target_language).items():
        result = metric.corpus_score(list(hypotheses), streams)
        out[name] = {
            "score": round(float(result.score), 4),
            "signature": str(metric.get_signature()),
            "text": result.format(signature=str(metric.get_signature())),
        }
    return out


_CHRFPP = CHRF(word_order=2)


def sentence_chrfpp(hypothesis: str, references: Sequence[str]) -> float:
    return round(float(_CHRFPP.sentence_score(hypothesis, list(references)).score), 4)


def corpus_chrfpp(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> float | None:
    """Corpus chrF++ alone (a run's score so far); None without segments."""
    if not hypotheses:
        return None
    streams = reference_streams(references)
    return round(float(_CHRFPP.corpus_score(list(hypotheses), streams).score), 4)  # type: ignore[arg-type]  # sacreBLEU takes None-padded streams; its annotation says str


def breakdowns(segs: Sequence[Segment], hypotheses: Mapping[int, str], target_language: str) -> dict[str, dict[str, dict[str, Any]]]:
    """chrF++ and BLEU per difficulty tier, register and context (corpus-level within each group)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for dimension in ("difficulty", "register", "context"):
        groups: dict[str, list[Segment]] = defaultdict(list)
        for seg in segs:
            groups[str(getattr(seg, dimension))].append(seg)
        table = {}
        for value in sorted(groups, key=lambda v: (len(v), v) if dimension == "difficulty" else v):
            members = groups[value]
            scores = corpus_scores([hypotheses[s.id] for s in members], [s.references for s in members], target_language)
            table[value] = {"segments": len(members), "chrf++": scores["chrf++"]["score"], "bleu": scores["bleu"]["score"]}
        out[dimension] = table
    return out
