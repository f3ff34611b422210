"""What a user reads first about a translation run card, as ordered facts (no Dagster import).

    run_facts(card) -> list[Fact]

chrF++ (the primary metric), chrF and BLEU, each metric's sacreBLEU signature (a score
without its signature cannot be compared with another), chrF++ and BLEU by difficulty,
register and context, the segments done, sent, resumed and failed (failures grouped by
reason), then what the run was (model, corpus, its languages by name and tag, e.g.
"English (eng-Latn) → Russian (rus-Cyrl)", template, the content sha256).
"""

from __future__ import annotations

from typing import Mapping

from atlas_assets.core.facts import Fact, fact
from atlas_assets.core.markdown import cell, table
from atlas_assets.evals.report import failures_by_reason
from atlas_assets.translation.card import GroupScore, RunCard
from atlas_assets.translation.languages import label

__all__ = ["METRICS", "breakdown_table", "run_facts"]

METRICS = (("chrf++", "chrF++"), ("chrf", "chrF"), ("bleu", "BLEU"))


def breakdown_table(breakdowns: Mapping[str, Mapping[str, GroupScore]]) -> str:
    """The card's `breakdowns` (difficulty, register, context) as one table."""
    rows = [
        [dimension, cell(value), str(group.segments), f"{group.chrfpp:.2f}", f"{group.bleu:.2f}"]
        for dimension, groups in breakdowns.items()
        for value, group in groups.items()
    ]
    return table(["by", "value", "segments", "chrF++", "BLEU"], rows, "llrrr")


def run_facts(card: RunCard) -> list[Fact]:
    """A run card's facts in reading order (module docstring)."""
    scores, run, dataset = card.scores, card.run, card.dataset
    facts = [fact(key, scores[key].score) for key, _ in METRICS if key in scores]
    facts += [fact(f"{key}_signature", scores[key].signature) for key, _ in METRICS if key in scores]
    if card.breakdowns:
        facts.append(fact("scores_by_group", breakdown_table(card.breakdowns), "md"))
    facts += [
        fact("segments", run.segments_done),
        fact("segments_selected", run.segments_selected),
        fact("segments_sent", run.sent),
        fact("segments_resumed", run.resumed),
        fact("segments_failed", run.failed),
    ]
    if card.failures:
        facts.append(fact("failures_by_reason", failures_by_reason(card.failures, id_field="segment"), "md"))
    facts += [
        fact("model", card.model),
        fact("dataset", f"{dataset.id} v{dataset.version} {dataset.sha256}"),
        fact("languages", f"{label(dataset.source_language)} → {label(dataset.target_language)}"),
        fact("template", f"{card.template.id} {card.template.sha256}"),
        fact("content_sha256", card.content_sha256),
    ]
    return facts
