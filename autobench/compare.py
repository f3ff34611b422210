"""Per-evaluator summaries of a benchmark's cells, and paired tests between variants.

A measure is the cell's own verdict (`passed`) or one evaluator's result (by its name).
Two variants are compared over the cases both recorded for that measure:

* pass/fail (every value a bool): the exact McNemar test -- a two-sided binomial test
  (p = 1/2) on the discordant cases, those only one variant passed;
* scores: a paired sign-flip permutation test on the per-case differences -- exact when at
  most 16 differences are non-zero, else 20000 random sign flips (seed 0, so a summary is
  reproducible).

Each comparison says which variant is better (more passes, or the higher mean score),
the p-value, the number of paired cases and the test; `confident` is p < 0.05.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from scipy.stats import binomtest

ALPHA = 0.05
EXACT_MAX = 16
RESAMPLES = 20000
Matrix = Mapping[tuple[str, str], Sequence[Mapping[str, Any]]]


def measures(row: Mapping[str, Any]) -> dict[str, tuple[bool | float, bool]]:
    """A cell's measures: name -> (score, errored); `passed` first."""
    out: dict[str, tuple[bool | float, bool]] = {"passed": (bool(row["passed"]), row.get("error") is not None)}
    for record in row.get("evaluators") or ():
        out[record["name"]] = (record["score"], bool(record.get("error")))
    return out


def _by_case(rows: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], dict[str, tuple[bool | float, bool]]]:
    return {(r["case_id"], r["case_sha256"]): measures(r) for r in rows}


def evaluator_summary(matrix: Matrix) -> dict[str, dict[str, dict[str, Any]]]:
    """{variant: {evaluator: {kind, cases, passed, pass_rate, mean_score, errors}}}; an
    errored result counts as a fail with score 0. Empty when no evaluator is configured."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for (variant, _), rows in matrix.items():
        values: dict[str, list[tuple[bool | float, bool]]] = {}
        for row in rows:
            for record in row.get("evaluators") or ():
                values.setdefault(record["name"], []).append((record["score"], bool(record.get("error"))))
        mine = {}
        for name, results in values.items():
            kind = "assertion" if all(isinstance(s, bool) for s, _ in results) else "score"
            passed = sum(1 for s, e in results if s is True and not e)
            mine[name] = {
                "kind": kind,
                "cases": len(results),
                "errors": sum(1 for _, e in results if e),
                "passed": passed if kind == "assertion" else None,
                "pass_rate": passed / len(results) if kind == "assertion" else None,
                "mean_score": sum(0.0 if e else float(s) for s, e in results) / len(results),
            }
        if mine:
            out[variant] = mine
    return out


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts (1 when there are none)."""
    n = a_only + b_only
    return 1.0 if n == 0 else float(binomtest(a_only, n, 0.5).pvalue)


def sign_flip_p(differences: Sequence[float]) -> tuple[float, str]:
    """Two-sided p-value that the paired differences are symmetric about 0, and the test's name."""
    d = np.array([x for x in differences if x != 0], dtype=float)
    if d.size == 0:
        return 1.0, "paired sign-flip permutation (exact)"
    observed = abs(d.sum()) - 1e-12 * max(1.0, float(np.abs(d).sum()))
    if d.size <= EXACT_MAX:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=d.size)))
        return float(np.mean(np.abs(signs @ d) >= observed)), "paired sign-flip permutation (exact)"
    signs = np.random.default_rng(0).choice((1.0, -1.0), size=(RESAMPLES, d.size))
    hits = int(np.sum(np.abs(signs @ d) >= observed))
    return (hits + 1) / (RESAMPLES + 1), f"paired sign-flip permutation ({RESAMPLES} random flips, seed 0)"


def compare(measure: str, a: str, b: str, pairs: Sequence[tuple[bool | float, bool | float]]) -> dict[str, Any]:
    """One paired comparison of variants `a` and `b` on `measure` (module docstring)."""
    n = len(pairs)
    edge: float
    if all(isinstance(x, bool) and isinstance(y, bool) for x, y in pairs):
        a_wins = sum(1 for x, y in pairs if x and not y)
        b_wins = sum(1 for x, y in pairs if y and not x)
        p, test = mcnemar_exact(a_wins, b_wins), "exact McNemar (binomial on discordant cases)"
        edge = a_wins - b_wins
    else:
        diffs = [float(x) - float(y) for x, y in pairs]
        a_wins, b_wins = sum(1 for d in diffs if d > 0), sum(1 for d in diffs if d < 0)
        p, test = sign_flip_p(diffs)
        edge = sum(diffs)
    a_mean = sum(float(x) for x, _ in pairs) / n if n else None
    b_mean = sum(float(y) for _, y in pairs) / n if n else None
    better = a if edge > 0 else b if edge < 0 else None
    return {
        "measure": measure,
        "a": a,
        "b": b,
        "cases": n,
        "a_mean": a_mean,
        "b_mean": b_mean,
        "a_better_cases": a_wins,
        "b_better_cases": b_wins,
        "better": better,
        "p_value": p,
        "confident": better is not None and p < ALPHA,
        "test": test,
    }


def pairwise(matrix: Matrix) -> list[dict[str, Any]]:
    """Every measure, every pair of variants (in the spec's order), over their common cases."""
    cells = [(variant, _by_case(rows)) for (variant, _), rows in matrix.items()]
    names: list[str] = []
    for _, by_case in cells:
        for values in by_case.values():
            names.extend(n for n in values if n not in names)
    out = []
    for name in names:
        for (a, cases_a), (b, cases_b) in itertools.combinations(cells, 2):
            common = [k for k in cases_a if k in cases_b and name in cases_a[k] and name in cases_b[k]]
            pairs = [(_value(cases_a[k][name]), _value(cases_b[k][name])) for k in sorted(common)]
            if pairs:
                out.append(compare(name, a, b, pairs))
    return out


def _value(result: tuple[bool | float, bool]) -> bool | float:
    score, errored = result
    if errored:
        return False if isinstance(score, bool) else 0.0
    return score


def describe(row: Mapping[str, Any]) -> str:
    """One comparison as a line of text."""
    p = row["p_value"]
    shown = f"{p:.3g}" if p >= 1e-4 or p == 0 else f"{p:.1e}"
    if row["better"] is None:
        verdict = f"{row['a']} and {row['b']} tie"
    else:
        worse = row["b"] if row["better"] == row["a"] else row["a"]
        verdict = f"{row['better']} better than {worse}" + ("" if row["confident"] else " (not significant)")
    wins = f"{row['a_better_cases']} vs {row['b_better_cases']} cases differ"
    return f"{row['measure']}: {verdict}; {wins} of {row['cases']}; p={shown} ({row['test']})"
