"""Comparing two translation run cards: refused unless both ran the same corpus bytes.

A comparison is meaningful only on the same references: the cards' dataset id, version
and sha256 must agree (a new corpus version "invalidates prior run card comparisons"),
and both must cover the same segments. Otherwise `CompareRefused`.

Then chrF++ (and BLEU) differences are tested with sacreBLEU's paired bootstrap
resampling (`sacrebleu.significance.PairedTest`, test_type "bs": `n_samples` resamples of
the segments, seed $SACREBLEU_SEED or 12345; the p-value is the share of resamples where
B's advantage over A vanishes, with sacreBLEU's +1 correction). A is the baseline.
A difference in prompt template, parameters or model is reported, not refused.
"""

from __future__ import annotations

from typing import Any, Mapping, cast

from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest, Result

from atlas_assets.translation.card import RunCard
from atlas_assets.translation.scoring import bleu_tokenizer, reference_streams

__all__ = ["CompareRefused", "compare_cards", "render"]


class CompareRefused(ValueError):
    pass


def _segments(card: RunCard) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for row in card.outputs:
        seg = out.setdefault(row.segment, {"output": row.output, "references": []})
        seg["references"].append(row.reference)
    return out


def compare_cards(a: RunCard, b: RunCard, *, n_samples: int = 1000, alpha: float = 0.05) -> dict[str, Any]:
    da, db = a.dataset, b.dataset
    if (da.id, da.version, da.sha256) != (db.id, db.version, db.sha256):
        differs = next(key for key in ("id", "version", "sha256") if getattr(da, key) != getattr(db, key))
        raise CompareRefused(
            f"refusing to compare: dataset {differs} differs (A: {da.id} v{da.version} sha256 {da.sha256[:12]}, "
            f"B: {db.id} v{db.version} sha256 {db.sha256[:12]}); scores on different references are not comparable"
        )
    sa, sb = _segments(a), _segments(b)
    if set(sa) != set(sb):
        raise CompareRefused(
            f"refusing to compare: the cards cover different segments (A {len(sa)}, B {len(sb)}; only A: {len(set(sa) - set(sb))}, only B: {len(set(sb) - set(sa))})"
        )
    if not sa:
        raise CompareRefused("refusing to compare: the cards have no outputs")
    order = sorted(sa)
    streams = reference_streams([sa[s]["references"] for s in order])
    metrics = {"chrf++": CHRF(word_order=2), "bleu": BLEU(tokenize=bleu_tokenizer(da.target_language))}
    test = PairedTest(
        [("A", [sa[s]["output"] for s in order]), ("B", [sb[s]["output"] for s in order])],
        metrics, streams, test_type="bs", n_samples=n_samples,  # type: ignore[arg-type]  # sacreBLEU takes None-padded streams; its annotation says str
    )  # fmt: skip
    signatures, results = test()
    out_metrics = {}
    for name, (sig_name, signature) in zip(metrics, signatures.items()):
        base, other = cast("list[Result]", results[sig_name])  # a metric's column holds Results (only "System" holds names)
        p_value = float(other.p_value)  # type: ignore[arg-type]  # set for every system but the baseline
        out_metrics[name] = {
            "a": round(float(base.score), 4),
            "b": round(float(other.score), 4),
            "delta": round(float(other.score - base.score), 4),
            "a_ci95": round(float(base.ci), 4) if base.ci is not None else None,
            "b_ci95": round(float(other.ci), 4) if other.ci is not None else None,
            "p_value": p_value,
            "significant": p_value < alpha,
            "signature": str(signature),
        }
    notes = []
    for label, va, vb in (
        ("prompt template", a.template.sha256, b.template.sha256),
        ("parameters", a.params, b.params),
        ("model", a.model, b.model),
    ):
        if va != vb:
            notes.append(f"{label} differs: A {va!r}, B {vb!r}")
    return {
        "dataset": {"id": da.id, "version": da.version, "sha256": da.sha256},
        "segments": len(order),
        "a": {"engine": a.engine.name, "model": a.model},
        "b": {"engine": b.engine.name, "model": b.model},
        "test": {"type": "paired bootstrap resampling (sacreBLEU)", "n_samples": n_samples, "alpha": alpha},
        "metrics": out_metrics,
        "notes": notes,
    }


def render(result: Mapping[str, Any]) -> str:
    d = result["dataset"]
    lines = [
        f"dataset {d['id']} v{d['version']} (sha256 {d['sha256'][:12]}), {result['segments']} segments",
        f"A = {result['a']['engine']} ({result['a']['model']})   B = {result['b']['engine']} ({result['b']['model']})",
        f"{'metric':<8} {'A':>8} {'B':>8} {'B-A':>8} {'p':>8}  verdict",
    ]
    for name, m in result["metrics"].items():
        verdict = (
            ("B better" if m["delta"] > 0 else "A better") + f" (p < {result['test']['alpha']})"
            if m["significant"]
            else "no significant difference"
        )
        lines.append(f"{name:<8} {m['a']:>8.2f} {m['b']:>8.2f} {m['delta']:>+8.2f} {m['p_value']:>8.4f}  {verdict}")
    lines.append(f"paired bootstrap, {result['test']['n_samples']} resamples; signature {result['metrics']['chrf++']['signature']}")
    lines += [f"note: {n}" for n in result["notes"]]
    return "\n".join(lines)
