"""The translation leaderboard: per corpus, the engines' run cards ranked by chrF++ (per
corpus and target language when the cards of one corpus id cover several targets: a
multi-target corpus, keyed "<id> (<target>)").

    leaderboard(cards) -> Leaderboard(markdown, payload)

Each corpus gets a table (rank, engine, model, chrF++, chrF, BLEU, segments scored of
the corpus's, corpus version and sha256) and each metric's sacreBLEU signature under it; when the cards of one
corpus were scored with different signatures, each one is listed with its engines: those
scores are not comparable. Ties rank by engine name; a card with no scored segment is
listed last without a rank. `payload` holds the same rows as canonical JSON, without run
facts (times, URLs), so its sha256 (the asset's data version) changes only with them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from atlas_assets.core.hashing import canonical_json, sha256_bytes
from atlas_assets.core.markdown import cell, table
from atlas_assets.translation.card import RunCard
from atlas_assets.translation.report import METRICS

__all__ = ["Leaderboard", "leaderboard"]


@dataclass(frozen=True)
class Leaderboard:
    markdown: str
    payload: dict[str, list[dict[str, Any]]]  # corpus id -> ranked rows

    @property
    def data(self) -> bytes:
        return canonical_json(self.payload)

    @property
    def sha256(self) -> str:
        return sha256_bytes(self.data)

    @property
    def runs(self) -> int:
        return sum(len(rows) for rows in self.payload.values())


def _row(card: RunCard) -> dict[str, Any]:
    return {
        "engine": card.engine.name,
        "model": card.model,
        "dataset_version": card.dataset.version,
        "dataset_sha256": card.dataset.sha256,
        "complete": card.complete,
        "segments": card.run.segments_done,
        "segments_in_corpus": card.dataset.segments,
        "scores": {
            key: {"score": card.scores[key].score, "signature": card.scores[key].signature} for key, _ in METRICS if key in card.scores
        },
    }


def _ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    scored = sorted((r for r in rows if "chrf++" in r["scores"]), key=lambda r: (-r["scores"]["chrf++"]["score"], r["engine"]))
    unscored = sorted((r for r in rows if "chrf++" not in r["scores"]), key=lambda r: r["engine"])
    return [{**r, "rank": i} for i, r in enumerate(scored, 1)] + [{**r, "rank": None} for r in unscored]


def _score(row: Mapping[str, Any], key: str) -> str:
    return f"{row['scores'][key]['score']:.2f}" if key in row["scores"] else "—"


def _signatures(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for key, name in METRICS:
        engines: dict[str, list[str]] = defaultdict(list)
        for r in rows:
            if key in r["scores"]:
                engines[r["scores"][key]["signature"]].append(r["engine"])
        if len(engines) == 1:
            lines.append(f"- {name}: `{next(iter(engines))}`")
        elif engines:
            lines.append(f"- {name}: **signatures differ, these scores are not comparable**")
            lines += [f"  - `{sig}`: {', '.join(names)}" for sig, names in sorted(engines.items())]
    return lines


def _corpus_markdown(corpus_id: str, rows: list[dict[str, Any]]) -> str:
    body = [
        [
            "—" if r["rank"] is None else str(r["rank"]),
            cell(r["engine"]),
            cell(r["model"]),
            *(_score(r, key) for key, _ in METRICS),
            f"{r['segments']}/{r['segments_in_corpus']}" + ("" if r["complete"] else " (incomplete)"),
            f"v{cell(r['dataset_version'])} `{r['dataset_sha256'][:12]}`",
        ]
        for r in rows
    ]
    header = ["#", "engine", "model", *(name for _, name in METRICS), "segments", "corpus"]
    return "\n".join([f"### {cell(corpus_id)}", "", table(header, body, "rllrrrrl"), "", *_signatures(rows)])


def leaderboard(cards: Iterable[RunCard]) -> Leaderboard:
    """Rank run cards per corpus (module docstring)."""
    cards = list(cards)
    targets: dict[str, set[str]] = defaultdict(set)
    for card in cards:
        targets[card.dataset.id].add(card.dataset.target_language)
    by_corpus: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for card in cards:  # the cards of a multi-target corpus: one table per target
        key = card.dataset.id if len(targets[card.dataset.id]) == 1 else f"{card.dataset.id} ({card.dataset.target_language})"
        by_corpus[key].append(_row(card))
    payload = {corpus_id: _ranked(rows) for corpus_id, rows in sorted(by_corpus.items())}
    markdown = "\n\n".join(_corpus_markdown(c, rows) for c, rows in payload.items()) or "no run cards yet"
    return Leaderboard(markdown, payload)
