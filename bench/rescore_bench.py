"""Rescoring throughput of the non-exec scorers (issue 3: target >= 20,000 rows/s).

    python bench/rescore_bench.py [--rows N] [--repeat R] [--json]

The workload is stored outputs as a results file would hold them (strings, or OpenAI-style
dicts for tool calls), read from a JSONL file and rescored with
`atlas_assets.corpus.scorers.score`:

* every row of every eval dataset in datasets/ whose scorer is not code_exec, each with
  three stored outputs: the reference answer, a perturbed (wrong) one, and a realistic
  chatty one (a <think> block, a preamble, markdown, an "Answer:" line; for instruction
  rows a full-length reply in the wrong case);
* synthetic rows (fixed seed) for every short-answer scorer the corpus does not yet
  exercise, so each scorer is timed.

Prints rows/s (best of --repeat) overall and per scorer, and the ratio to the target.
The headline covers the short-answer scorers (exact, numeric, mc, contains, json,
instruction, tool_call). `splice` judges whole generated source files (6-10k characters
per row, not a short answer), so it is reported apart in rows/s and characters/s.
Exits 1 when the headline misses the target.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from atlas_assets.corpus.reference import perturbed_output, reference_output  # noqa: E402
from atlas_assets.corpus.scorers import SCORERS, score, scorer_name  # noqa: E402

TARGET = 20_000
SHORT_ANSWER = ("exact", "numeric", "mc", "contains", "json", "instruction", "tool_call")
SEED = 20_000


def _stored(output) -> object:
    """A ModelOutput as a results file stores it: the text, or an OpenAI-style message."""
    if output.tool_calls:
        return {
            "content": output.text,
            "tool_calls": [{"type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in output.tool_calls],
        }
    return output.text


def _chatty(text: str, rng: random.Random) -> str:
    thought = " ".join(rng.choice(["let", "me", "check", "the", "numbers", "again", "carefully"]) for _ in range(rng.randint(20, 60)))
    return f"<think>{thought}</think>\nSure! Let me work through it.\n\n**Reasoning.** It follows from the question.\n\nAnswer: {text}"


def corpus_workload(rng: random.Random) -> list[tuple[dict, object, str | None]]:
    items = []
    for card_path in sorted((REPO / "datasets").glob("*/dataset.json")):
        card = json.loads(card_path.read_text(encoding="utf-8"))
        if card.get("kind") != "eval":
            continue
        rows_path = card_path.parent / card.get("rows_file", "rows.jsonl")
        default = card.get("default_scorer")
        for line in rows_path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            name = scorer_name(row, default)
            if SCORERS[name].runs_code:
                continue
            good = reference_output(row, default)
            items.append((row, _stored(good), default))
            items.append((row, _stored(perturbed_output(row, default)), default))
            if name in ("exact", "numeric", "mc", "contains") and good.text is not None:
                items.append((row, _chatty(good.text, rng), default))
            if name == "instruction":  # a full-length reply that breaks the rules differently
                items.append((row, _chatty(good.text.swapcase(), rng), default))
    return items


def synthetic_workload(rng: random.Random, present: set[str]) -> list[tuple[dict, object, str | None]]:
    items = []
    words = ["copper", "harbour", "violet", "granite", "meadow", "lantern", "orchid", "falcon"]
    for i in range(300):
        if "numeric" not in present:
            value = rng.choice([rng.randint(-(10**6), 10**6), round(rng.uniform(-1000, 1000), 3)])
            row = {"id": f"num-{i}", "scorer": "numeric", "answer": value}
            items += [(row, _chatty(f"{value:,}", rng), None), (row, str(value), None), (row, "I cannot tell.", None)]
        if "mc" not in present:
            choices = rng.sample(words, 4)
            label = rng.choice("ABCD")
            row = {"id": f"mc-{i}", "scorer": "mc", "answer": label, "choices": choices}
            items += [(row, _chatty(f"({label}) {choices['ABCD'.index(label)]}", rng), None), (row, rng.choice("ABCD"), None)]
        if "contains" not in present:
            row = {"id": f"con-{i}", "scorer": "contains", "answer": rng.choice(words)}
            items += [(row, f"I believe it is the {row['answer']} one, clearly.", None), (row, "No idea.", None)]
        if "json" not in present:
            answer = {"name": rng.choice(words), "count": rng.randint(0, 99), "tags": rng.sample(words, 2), "ok": True}
            row = {"id": f"json-{i}", "scorer": "json", "answer": answer}
            items += [(row, "```json\n" + json.dumps(answer, indent=2) + "\n```", None), (row, json.dumps({**answer, "ok": False}), None)]
        if "tool_call" not in present:
            args = {"city": rng.choice(words), "days": rng.randint(1, 9)}
            row = {"id": f"tool-{i}", "scorer": "tool_call", "answer": {"tool_call": {"name": "get_weather", "arguments": args}}}
            call = {
                "content": None,
                "tool_calls": [{"type": "function", "function": {"name": "get_weather", "arguments": json.dumps(args)}}],
            }
            items += [(row, call, None), (row, "It will be sunny.", None)]
    return items


def splice_workload(rng: random.Random) -> list[tuple[dict, object, str | None]]:
    """Synthetic ES modules of ~8k characters (the scale of a longgen generation)."""
    from atlas_assets.corpus.splice import inject_splice

    items = []
    for i in range(20):
        names = [
            f"{rng.choice(['load', 'save', 'parse', 'format', 'compute'])}{rng.choice(['Invoice', 'Customer', 'Report', 'Ledger'])}{rng.choice(['Rows', 'Total', 'Date', 'Index'])}{k}"
            for k in range(40)
        ]
        body = [f"import {{ {', '.join(names[:6])} }} from './lib.js';", ""]
        for k in range(60):
            a, b = rng.sample(names, 2)
            body.append(
                f"export function step{k}(input, options = {{}}) {{\n  const value = {a}(input) + {b}(options);\n  return value > {k * 3} ? `${{value}} items` : value;\n}}\n"
            )
        code = "\n".join(body)
        row = {"id": f"splice-{i}", "scorer": "splice", "answer": "clean", "meta": {"context_identifiers": names}}
        items += [(row, code, None), (row, inject_splice(code, names, rng), None)]
    return items


def _run(items, n: int) -> tuple[float, dict[str, tuple[int, float]]]:
    """Score n items cycling through `items`; (seconds, per-scorer (count, seconds))."""
    k = len(items)
    start = time.perf_counter()
    for i in range(n):
        row, out, default = items[i % k]
        score(row, out, default)
    total = time.perf_counter() - start  # the headline: the whole loop, nothing excluded
    by_scorer: dict[str, list] = defaultdict(list)
    for item in items:
        by_scorer[scorer_name(item[0], item[2])].append(item)
    per: dict[str, tuple[int, float]] = {}
    for name, group in by_scorer.items():
        m = max(len(group), min(n // max(1, len(by_scorer)), 20_000))
        t0 = time.perf_counter()
        for i in range(m):
            row, out, default = group[i % len(group)]
            score(row, out, default)
        per[name] = (m, time.perf_counter() - t0)
    return total, per


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000, help="stored outputs to rescore per repeat (default 100000)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    rng = random.Random(SEED)
    items = corpus_workload(rng)
    present = {scorer_name(row, default) for row, _, default in items}
    items += synthetic_workload(rng, present)
    short = [it for it in items if scorer_name(it[0], it[2]) in SHORT_ANSWER]
    splices = [it for it in items if scorer_name(it[0], it[2]) == "splice"] or splice_workload(rng)

    # the stored file: write, then time reading it back (JSON parsing is part of rescoring)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "outputs.jsonl"
        with open(path, "w", encoding="utf-8") as handle:
            for i in range(args.rows):
                row, out, default = short[i % len(short)]
                handle.write(json.dumps({"id": row.get("id"), "output": out}) + "\n")
        t0 = time.perf_counter()
        with open(path, encoding="utf-8") as handle:
            loaded = [json.loads(line)["output"] for line in handle]
        read_s = time.perf_counter() - t0
    assert len(loaded) == args.rows

    best = None
    for _ in range(args.repeat):
        total, per = _run(short, args.rows)
        if best is None or total < best[0]:
            best = (total, per)
    total, per = best
    rows_per_s = args.rows / total
    with_read = args.rows / (total + read_s)
    splice_total, splice_per = _run(splices, len(splices) * 3)
    splice_chars = sum(len(out) for _, out, _ in splices) * 3
    splice_rows_s = len(splices) * 3 / splice_total

    report = {
        "rows": args.rows,
        "rows_per_s": round(rows_per_s),
        "rows_per_s_including_jsonl_read": round(with_read),
        "target_rows_per_s": TARGET,
        "ratio_to_target": round(rows_per_s / TARGET, 2),
        "per_scorer_rows_per_s": {name: round(c / s) for name, (c, s) in sorted(per.items())},
        "per_scorer_distinct_items": {name: sum(1 for it in short if scorer_name(it[0], it[2]) == name) for name in sorted(per)},
        "distinct_items": len(short),
        "splice_rows_per_s": round(splice_rows_s, 1),
        "splice_chars_per_s": round(splice_chars / splice_total),
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"rescoring {args.rows} stored outputs ({len(short)} distinct) with the short-answer scorers:")
        print(f"  {rows_per_s:,.0f} rows/s  ({rows_per_s / TARGET:.2f}x the {TARGET:,} rows/s target)")
        print(f"  {with_read:,.0f} rows/s including reading the JSONL file")
        for name, (c, s) in sorted(per.items()):
            print(f"    {name:12s} {c / s:>12,.0f} rows/s")
        print(f"splice (whole source files): {splice_rows_s:,.1f} rows/s, {splice_chars / splice_total / 1e6:.2f} M chars/s")
    return 0 if rows_per_s >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
