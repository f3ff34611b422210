"""Many target languages as one set: a multi-target corpus (schema.py: one dataset, a
`targets` list, each entry's `references` by target) run through one engine, the
cross-language report, and two engines compared language by language. No Dagster import.

    run_translation_set(corpus, engine, run_dir)  one run per target, in run_dir/<target>/
                                                  (each an ordinary run: resumable, its own
                                                  run card), then the report beside them
    language_report(cards)                        languages.json: per language chrF++ and BLEU
                                                  with signatures and 95 % intervals, and
                                                  their mean over the languages with its interval
    compare_sets(cards_a, cards_b)                per language sacreBLEU's paired bootstrap
                                                  (compare.compare_cards), p-values Holm-adjusted
                                                  over the languages

Intervals are sacreBLEU's own bootstrap (`sacrebleu.significance`: `n_samples` resamples of
the segments, seed $SACREBLEU_SEED or 12345, the interval half-width `estimate_ci` reports),
so a language's interval is the one `sacrebleu --confidence` prints for its card. The mean's
interval resamples every language at once and averages each resample over the languages:
the resample indices come from the same seed, so languages with the same segments (FLORES+
is multi-way parallel) are resampled by the same sentences, as a paired design should.
BLEU's tokenizer follows each target (scoring.bleu_tokenizer), so its mean averages scores
of different signatures: the report lists them; chrF++ (the primary metric) has one.
"""

from __future__ import annotations

import html
import math
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import orjson
from pydantic import Field
from sacrebleu.significance import _bootstrap_resample, estimate_ci

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.facts import Fact, fact
from atlas_assets.core.hashing import sha256_bytes, sha256_json
from atlas_assets.core.markdown import cell, table
from atlas_assets.evals.documents import SHA256, Block, VersionedDocument
from atlas_assets.evals.engines import Engine
from atlas_assets.translation.card import RunCard
from atlas_assets.translation.compare import CompareRefused, compare_cards
from atlas_assets.translation.languages import language_name
from atlas_assets.translation.runs import CARD, TranslationOutcome, read_card, run_translation
from atlas_assets.translation.schema import LoadedCorpus, load_corpus
from atlas_assets.translation.scoring import PRIMARY, make_metrics, reference_streams

__all__ = [
    "REPORT",
    "REPORT_MD",
    "REPORT_SHA",
    "REPORT_SVG",
    "LanguageReport",
    "SetOutcome",
    "compare_sets",
    "language_report",
    "read_set",
    "render_compare",
    "render_markdown",
    "render_svg",
    "run_translation_set",
    "set_facts",
    "set_resamples",
    "write_report",
]

REPORT, REPORT_SHA, REPORT_MD, REPORT_SVG = "languages.json", "languages.json.sha256", "languages.md", "languages.svg"
METRICS = ("chrf++", "bleu")  # reported per language and averaged; chrF is on each card


class LanguageScore(Block):
    score: float
    ci95: float | None = Field(description="half-width of sacreBLEU's 95 % bootstrap interval; null without a segment")
    signature: str


class LanguageRow(Block):
    target_language: str
    name: str = Field(description="the target's English name (languages.language_name)")
    complete: bool
    segments: int = Field(description="segments scored")
    segments_in_corpus: int
    failed: int
    scores: dict[str, LanguageScore]
    card_content_sha256: str = Field(pattern=SHA256)


class MeanScore(Block):
    score: float = Field(description="the mean of the languages' corpus scores")
    ci95: float = Field(description="half-width of the 95 % interval of the mean (joint bootstrap)")
    languages: int
    signatures: list[str] = Field(description="the distinct signatures averaged (one for chrF++)")


class ReportDataset(Block):
    id: str
    version: str
    sha256: str = Field(pattern=SHA256)
    source_language: str
    targets: list[str] = Field(description="every target the corpus has, in its order")


class Bootstrap(Block):
    n_samples: int
    seed: str


class LanguageReport(VersionedDocument):
    """languages.json: one engine over the targets of one corpus (module docstring)."""

    dataset: ReportDataset
    engine: str
    model: str
    bootstrap: Bootstrap
    languages: list[LanguageRow] = Field(description="in the corpus's target order")
    missing: list[str] = Field(description="targets of the corpus with no run card")
    mean: dict[str, MeanScore] = Field(description="over the languages with at least one scored segment")
    content_sha256: str = Field(pattern=SHA256, description="sha256 of the report without this field")


@dataclass
class SetOutcome:
    run_dir: Path
    targets: list[str]  # the targets chosen to run (the report covers every card in run_dir)
    outcomes: dict[str, TranslationOutcome]
    report: LanguageReport
    sha256: str

    @property
    def complete(self) -> bool:
        """Every chosen target ran to the end."""
        return all(t in self.outcomes and self.outcomes[t].complete for t in self.targets)


def _segments(card: RunCard) -> tuple[list[str], list[list[str]]]:
    """The card's scored segments: (hypotheses, references per segment), in segment order."""
    by_segment: dict[int, tuple[str, list[str]]] = {}
    for row in card.outputs:
        by_segment.setdefault(row.segment, (row.output, []))[1].append(row.reference)
    order = sorted(by_segment)
    return [by_segment[s][0] for s in order], [by_segment[s][1] for s in order]


def _resampled(card: RunCard, metric_name: str, n_samples: int) -> tuple[str, np.ndarray]:
    """sacreBLEU's bootstrap resamples of one card's corpus score: (seed, scores)."""
    hypotheses, references = _segments(card)
    metric = make_metrics(card.dataset.target_language)[metric_name]
    stats = metric._extract_corpus_statistics(hypotheses, reference_streams(references))
    seed, scores = _bootstrap_resample(stats, metric, n_samples)
    return seed, np.array([s.score for s in scores], dtype=np.float64)


def language_report(cards: Sequence[RunCard], targets: Sequence[str] | None = None, *, n_samples: int = 1000) -> LanguageReport:
    """The cross-language report of one engine's cards over one corpus (`targets`: the
    corpus's, to name those without a card; default: the cards' own)."""
    if not cards:
        raise ValueError("no run cards to report on")
    first = cards[0]
    identity = (first.dataset.id, first.dataset.version, first.dataset.sha256, first.engine.name, first.model)
    seen: set[str] = set()
    for card in cards:
        other = (card.dataset.id, card.dataset.version, card.dataset.sha256, card.engine.name, card.model)
        if other != identity:
            raise ValueError(f"the cards are not one engine over one corpus: {identity[:2]} {identity[3:]} and {other[:2]} {other[3:]}")
        if card.dataset.target_language in seen:
            raise ValueError(f"two run cards for target {card.dataset.target_language}")
        seen.add(card.dataset.target_language)
    order = list(targets) if targets is not None else [c.dataset.target_language for c in cards]
    by_target = {c.dataset.target_language: c for c in cards}
    rows: list[LanguageRow] = []
    resamples: dict[str, list[tuple[float, np.ndarray, str]]] = {m: [] for m in METRICS}  # (score, resampled scores, signature)
    seed = os.environ.get("SACREBLEU_SEED", "12345").lower()
    for target in (t for t in order if t in by_target):
        card = by_target[target]
        scores = {}
        for name in METRICS:
            if name not in card.scores:
                continue
            seed, resampled = _resampled(card, name, n_samples)
            resamples[name].append((card.scores[name].score, resampled, card.scores[name].signature))
            scores[name] = LanguageScore(
                score=card.scores[name].score, ci95=round(float(estimate_ci(resampled)[1]), 4), signature=card.scores[name].signature
            )
        rows.append(
            LanguageRow(
                target_language=target, name=language_name(target), complete=card.complete, segments=card.run.segments_done,
                segments_in_corpus=card.dataset.segments, failed=card.run.failed, scores=scores, card_content_sha256=card.content_sha256,
            )
        )  # fmt: skip
    mean = {
        name: MeanScore(
            score=round(float(np.mean([score for score, _, _ in found])), 4),
            ci95=round(float(estimate_ci(np.mean([r for _, r, _ in found], axis=0))[1]), 4),
            languages=len(found),
            signatures=sorted({signature for _, _, signature in found}),
        )
        for name, found in resamples.items()
        if found
    }
    draft = LanguageReport(
        dataset=ReportDataset(id=first.dataset.id, version=first.dataset.version, sha256=first.dataset.sha256,
                              source_language=first.dataset.source_language, targets=order),
        engine=first.engine.name, model=first.model, bootstrap=Bootstrap(n_samples=n_samples, seed=seed),
        languages=rows, missing=[t for t in order if t not in by_target], mean=mean, content_sha256="0" * 64,
    )  # fmt: skip
    return draft.model_copy(update={"content_sha256": sha256_json(draft.model_dump(mode="json", exclude={"content_sha256"}))})


def render_markdown(report: LanguageReport) -> str:
    """The report as a table (one row per language, then the mean) and its signatures."""
    d = report.dataset
    lines = [f"**{d.id}** v{d.version} on **{report.engine}** ({report.model}): {len(report.languages)} of {len(d.targets)} targets", ""]
    rows = []
    for row in report.languages:
        chrf, bleu = row.scores.get("chrf++"), row.scores.get("bleu")
        rows.append([
            cell(f"{row.name} ({row.target_language})"),
            "–" if chrf is None else f"{chrf.score:.2f} ± {chrf.ci95:.2f}",
            "–" if bleu is None else f"{bleu.score:.2f} ± {bleu.ci95:.2f}",
            f"{row.segments}/{row.segments_in_corpus}" + ("" if row.complete else " (incomplete)"),
            str(row.failed),
        ])  # fmt: skip
    for name, label in (("chrf++", "chrF++"), ("bleu", "BLEU")):
        if name in report.mean:
            m = report.mean[name]
            rows.append([f"**mean {label}** ({m.languages} languages)", f"{m.score:.2f} ± {m.ci95:.2f}" if name == "chrf++" else "",
                         f"{m.score:.2f} ± {m.ci95:.2f}" if name == "bleu" else "", "", ""])  # fmt: skip
    lines.append(table(["language", "chrF++ ± 95 % CI", "BLEU ± 95 % CI", "segments", "failed"], rows, "lrrrr"))
    if report.missing:
        lines += ["", "not run: " + ", ".join(f"{language_name(t)} ({t})" for t in report.missing)]
    lines += ["", f"bootstrap: sacreBLEU's, {report.bootstrap.n_samples} resamples, seed {report.bootstrap.seed}"]
    for name, mean in report.mean.items():
        lines.append(f"{name} signature{'s' if len(mean.signatures) > 1 else ''}: " + "; ".join(f"`{s}`" for s in mean.signatures))
    return "\n".join(lines) + "\n"


def render_svg(report: LanguageReport, metric: str = PRIMARY) -> str:
    """A bar per language (sorted by score, best first) with its 95 % interval, and the mean
    as a dashed line: a self-contained SVG (no script, no external reference)."""
    rows = sorted((r for r in report.languages if metric in r.scores), key=lambda r: (-r.scores[metric].score, r.target_language))
    left, width, bar, top = 260, 420, 16, 48
    height = top + len(rows) * (bar + 4) + 40

    def x(value: float) -> float:
        return left + width * max(0.0, min(100.0, value)) / 100  # scores are 0-100

    d = report.dataset
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 90}" height="{height}" font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="10" y="20" font-size="14" font-weight="bold">{html.escape(f"{d.id} v{d.version} on {report.engine}: {metric} by target language")}</text>',
    ]
    for tick in range(0, 101, 20):
        parts.append(f'<line x1="{x(tick):.1f}" y1="{top - 6}" x2="{x(tick):.1f}" y2="{height - 30}" stroke="#ddd"/>')
        parts.append(f'<text x="{x(tick):.1f}" y="{height - 16}" text-anchor="middle" fill="#555">{tick}</text>')
    for i, row in enumerate(rows):
        y = top + i * (bar + 4)
        score = row.scores[metric]
        label = html.escape(f"{row.name} ({row.target_language})")
        parts.append(f'<text x="{left - 8}" y="{y + bar - 4}" text-anchor="end">{label}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{x(score.score) - left:.1f}" height="{bar}" fill="#4a7ab5"/>')
        if score.ci95:
            lo, hi = x(score.score - score.ci95), x(score.score + score.ci95)
            parts.append(f'<line x1="{lo:.1f}" y1="{y + bar / 2}" x2="{hi:.1f}" y2="{y + bar / 2}" stroke="black"/>')
        parts.append(f'<text x="{x(score.score) + 6:.1f}" y="{y + bar - 4}">{score.score:.1f}</text>')
    if metric in report.mean:
        m = report.mean[metric]
        parts.append(
            f'<line x1="{x(m.score):.1f}" y1="{top - 6}" x2="{x(m.score):.1f}" y2="{height - 30}" stroke="#c0392b" stroke-dasharray="4 3"/>'
        )
        parts.append(
            f'<text x="{x(m.score):.1f}" y="{top - 10}" text-anchor="middle" fill="#c0392b">mean {m.score:.1f} ± {m.ci95:.1f}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def set_facts(report: LanguageReport) -> list[Fact]:
    """What a user reads first about a set (Dagster metadata): the mean chrF++ with its
    interval, the per-language table, the languages run and missing, what was run."""
    facts = [fact(f"mean_{name}", report.mean[name].score) for name in METRICS if name in report.mean]
    facts += [fact(f"mean_{name}_ci95", report.mean[name].ci95) for name in METRICS if name in report.mean]
    facts += [
        fact("languages", render_markdown(report), "md"),
        fact("targets_run", len(report.languages)),
        fact("targets_missing", len(report.missing)),
        fact("model", report.model),
        fact("dataset", f"{report.dataset.id} v{report.dataset.version} {report.dataset.sha256}"),
        fact("content_sha256", report.content_sha256),
    ]
    return facts


def write_report(run_dir: Path, report: LanguageReport) -> str:
    """languages.json (+ .sha256), languages.md and languages.svg, each atomically; the json's sha256."""
    data = report.json_bytes(orjson.OPT_INDENT_2) + b"\n"
    sha = sha256_bytes(data)
    atomic_write_bytes(run_dir / REPORT, data)
    atomic_write_bytes(run_dir / REPORT_SHA, f"{sha}  {REPORT}\n".encode())
    atomic_write_bytes(run_dir / REPORT_MD, render_markdown(report).encode("utf-8"))
    atomic_write_bytes(run_dir / REPORT_SVG, render_svg(report).encode("utf-8"))
    return sha


def read_set(run_dir: str | Path) -> list[RunCard]:
    """The run cards of a set's folder (run_dir/<target>/run_card.json), each verified
    against its .sha256 (runs.read_card); ValueError naming the folder when there is none."""
    folder = Path(run_dir)
    if not folder.is_dir():
        raise ValueError(f"{folder}: not a folder of a multi-language run")
    cards = [read_card(path) for path in sorted(folder.glob(f"*/{CARD}"))]
    if not cards:
        raise ValueError(f"{folder}: no <target>/{CARD} in it (is it a multi-language run folder?)")
    return cards


def run_translation_set(
    corpus: str | Path | LoadedCorpus,
    engine: Engine,
    run_dir: str | Path,
    *,
    targets: Sequence[str] | None = None,
    stop: threading.Event | None = None,
    on_target: Callable[[str, int, int], None] | None = None,
    n_samples: int = 1000,
    **run_options: Any,
) -> SetOutcome:
    """Run (or resume) every target of the corpus (or `targets`) through `engine`, one after
    another, each in run_dir/<target>/; then write the report over every card in run_dir
    (a target run earlier counts too). The corpus is read and validated once. `run_options`
    go to runs.run_translation (one Progress would count every target: give none); a stop
    (the event, or a signal with handle_signals) ends the set after the current target."""
    run_dir = Path(run_dir)
    loaded = corpus if isinstance(corpus, LoadedCorpus) else load_corpus(corpus)
    chosen = list(targets) if targets else list(loaded.targets)
    unknown = [t for t in chosen if t not in loaded.targets]
    if unknown:
        raise ValueError(f"{loaded.path}: no target {', '.join(unknown)} (the corpus has {', '.join(loaded.targets)})")
    stop = stop or threading.Event()
    outcomes: dict[str, TranslationOutcome] = {}
    for i, target in enumerate(chosen):
        if stop.is_set():
            break
        if on_target is not None:
            on_target(target, i, len(chosen))
        outcomes[target] = run_translation(loaded, engine, run_dir / target, target=target, stop=stop, **run_options)
        if not outcomes[target].complete:
            break
    cards = (
        [card for card in read_set(run_dir) if card.dataset.sha256 == loaded.sha256 and card.engine.name == engine.name] if outcomes else []
    )
    if not cards:
        raise ValueError(f"{run_dir}: no target was run")
    report = language_report(cards, loaded.targets, n_samples=n_samples)
    return SetOutcome(run_dir, chosen, outcomes, report, write_report(run_dir, report))


def _holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment (controls the family-wise error over the languages)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted, running = [0.0] * len(p_values), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def set_resamples(languages: int, alpha: float = 0.05) -> int:
    """The default resamples for comparing `languages` languages: 1000 (sacreBLEU's), or
    more when Holm could not otherwise reach `alpha`. A bootstrap p-value is at least
    1/(n+1), so Holm over k languages is at least k/(n+1): n >= 2k/alpha keeps the smallest
    attainable adjusted p at half of alpha (39 FLORES+ targets: 1560 resamples)."""
    return max(1000, math.ceil(2 * languages / alpha))


def compare_sets(
    cards_a: Sequence[RunCard], cards_b: Sequence[RunCard], *, n_samples: int | None = None, alpha: float = 0.05
) -> dict[str, Any]:
    """Two engines' cards over one corpus, language by language (module docstring). A
    language only one side ran is listed, not compared; CompareRefused when none is shared.
    `n_samples` default: set_resamples; the result's test block gives the smallest adjusted
    p-value the resamples can reach, and a warning when it is not below alpha."""
    a = {c.dataset.target_language: c for c in cards_a}
    b = {c.dataset.target_language: c for c in cards_b}
    shared = [t for t in a if t in b]
    if not shared:
        raise CompareRefused(
            f"refusing to compare: no target language in common (A: {', '.join(a) or 'none'}; B: {', '.join(b) or 'none'})"
        )
    n_samples = n_samples or set_resamples(len(shared), alpha)
    floor = round(min(1.0, len(shared) / (n_samples + 1)), 6)
    warning = (None if floor < alpha else
               f"with {n_samples} resamples no language can be significant after Holm over {len(shared)} languages "
               f"(smallest attainable adjusted p {floor} >= alpha {alpha}): use at least {set_resamples(len(shared), alpha)} resamples")  # fmt: skip
    results = {t: compare_cards(a[t], b[t], n_samples=n_samples, alpha=alpha) for t in shared}
    adjusted = dict(zip(shared, _holm([results[t]["metrics"][PRIMARY]["p_value"] for t in shared])))
    rows = []
    for target in shared:
        metrics = results[target]["metrics"]
        rows.append({"target_language": target, "name": language_name(target), "segments": results[target]["segments"],
                     "metrics": metrics, "p_holm": adjusted[target], "significant_holm": adjusted[target] < alpha})  # fmt: skip
    deltas = [row["metrics"][PRIMARY]["delta"] for row in rows]
    first = results[shared[0]]
    return {
        "dataset": first["dataset"],
        "a": first["a"],
        "b": first["b"],
        "test": {**first["test"], "adjustment": "Holm over the languages (chrF++)", "smallest_holm_p": floor, "warning": warning},
        "languages": rows,
        "only_a": [t for t in a if t not in b],
        "only_b": [t for t in b if t not in a],
        "summary": {
            "languages": len(rows),
            "mean_delta_chrf++": round(float(np.mean(deltas)), 4),
            "b_better": sum(r["significant_holm"] and r["metrics"][PRIMARY]["delta"] > 0 for r in rows),
            "a_better": sum(r["significant_holm"] and r["metrics"][PRIMARY]["delta"] < 0 for r in rows),
            "no_significant_difference": sum(not r["significant_holm"] for r in rows),
        },
    }


def render_compare(result: Mapping[str, Any]) -> str:
    d, s = result["dataset"], result["summary"]
    labels = [f"{row['name']} ({row['target_language']})" for row in result["languages"]]
    width = max(len("language"), *(len(label) for label in labels))
    lines = [
        f"dataset {d['id']} v{d['version']} (sha256 {d['sha256'][:12]}), {s['languages']} languages",
        f"A = {result['a']['engine']} ({result['a']['model']})   B = {result['b']['engine']} ({result['b']['model']})",
        f"{'language':<{width}} {'A':>7} {'B':>7} {'B-A':>7} {'p':>7} {'p Holm':>7}  verdict (chrF++)",
    ]
    for label, row in zip(labels, result["languages"]):
        m = row["metrics"][PRIMARY]
        verdict = ("B better" if m["delta"] > 0 else "A better") if row["significant_holm"] else "no significant difference"
        lines.append(
            f"{label:<{width}} {m['a']:>7.2f} {m['b']:>7.2f} {m['delta']:>+7.2f} {m['p_value']:>7.4f} {row['p_holm']:>7.4f}  {verdict}"
        )
    lines.append(f"mean chrF++ difference {s['mean_delta_chrf++']:+.2f}; B better in {s['b_better']}, A better in {s['a_better']}, "
                 f"no significant difference in {s['no_significant_difference']} (alpha {result['test']['alpha']}, Holm-adjusted)")  # fmt: skip
    lines.append(f"paired bootstrap per language, {result['test']['n_samples']} resamples "
                 f"(smallest attainable Holm-adjusted p {result['test']['smallest_holm_p']})")  # fmt: skip
    if result["test"]["warning"]:
        lines.append(f"WARNING: {result['test']['warning']}")
    for side in ("only_a", "only_b"):
        if result[side]:
            lines.append(f"only in {side[-1].upper()}: {', '.join(result[side])} (not compared)")
    return "\n".join(lines)
