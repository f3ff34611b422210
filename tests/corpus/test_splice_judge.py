"""judge_generation: the eval-longgen-integrity-v1 verdict (empty, prose-only and near-empty
replies are not "clean"; otherwise find_splices decides)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from atlas_assets.corpus.splice.detection import find_splices, judge_generation, module_lines
from atlas_assets.corpus.splice.injection import inject_splice
from atlas_assets.corpus.splice.tokens import without_prose

ROWS_FILE = Path(__file__).resolve().parents[2] / "datasets" / "eval-longgen-integrity-v1" / "rows.jsonl"
ROWS = [json.loads(line) for line in ROWS_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
ROW = ROWS[0]
META = ROW["meta"]
CONTEXT = META["context_identifiers"]
MODULE = META["example_pass"]  # the reference output (atlas_assets/corpus/reference.py returns it)


@pytest.mark.parametrize("code", [None, "", "   ", "\n\n\t \n"])
def test_empty_output_is_not_clean(code):
    assert judge_generation(code, CONTEXT, META) == (False, "empty output")


@pytest.mark.parametrize(
    "reply",
    [
        "I'm sorry, I can't help with that.",
        "I'm sorry.",
        "I can't write that module (it would need the whole project), sorry!",
        "As an AI model I cannot produce that file.\n\nPlease ask for something else.",
        # a paragraph of prose that without_prose does not blank (parentheses, semicolons)
        "The module you describe would compare two lists of slot records and report\n"
        "what changed between them. To write it, I would import the helpers (orderBy,\n"
        "pageSlice) from the project, walk both lists; however the request is ambiguous\n"
        "about what counts as a difference, so please clarify first.\n",
        "## Plan\n- Import the helpers.\n- Compare the lists.\n- Report the differences.\n",
    ],
)
def test_a_refusal_or_prose_only_reply_is_not_clean(reply):
    assert judge_generation(reply, CONTEXT, META) == (False, "no code: the reply is prose only (refusal?)")


def test_a_stub_is_near_empty():
    stub = "import { orderBy } from './query.js';\n\nexport function reconcile(a, b) {\n  return orderBy(a.concat(b), (x) => x.id);\n}\n"
    assert find_splices(stub, CONTEXT) == []  # today's scorer calls this clean
    assert judge_generation(stub, CONTEXT, META) == (False, "near-empty: 4 module lines, the item asks for 150-190 lines")


def test_near_empty_threshold_is_half_the_requested_minimum():
    lines = MODULE.split("\n")
    _, whole = module_lines(MODULE)
    assert whole >= META["min_lines"] / 2
    # the longest cut of the reference with fewer module lines than half the minimum
    cut = next(n for n in range(len(lines), 0, -1) if module_lines("\n".join(lines[:n]))[1] < META["min_lines"] / 2)
    short = "\n".join(lines[:cut])
    verdict = judge_generation(short, CONTEXT, META)
    assert verdict[0] is False and verdict[1].startswith("near-empty: 74 module lines")
    at_half = "\n".join(lines[: cut + 1])
    assert module_lines(at_half)[1] == 75
    # merely short (half the minimum or more) is judged for splices only
    assert judge_generation(at_half, CONTEXT, META) == judge_generation(at_half, CONTEXT, {})


def test_without_a_requested_range_only_empty_and_prose_are_refused():
    stub = "export const answer = () => 42;\n"
    assert judge_generation(stub, CONTEXT, {}) == (True, None)
    assert judge_generation(stub, CONTEXT) == (True, None)
    assert judge_generation("I'm sorry, I can't help with that.", CONTEXT) == (False, "no code: the reply is prose only (refusal?)")


def test_a_chatty_but_complete_module_is_clean():
    reply = (
        "Here is the complete module you asked for:\n\n```javascript\n" + MODULE + "```\n\n"
        "It exports the reconciler class and the helpers, built from the imports.\nLet me know if you need any changes.\n"
    )
    assert judge_generation(reply, CONTEXT, META) == (True, None)
    code, whole = module_lines(reply)
    assert (code, whole) == module_lines(MODULE)  # the prose and the fences count as no line


def test_comment_lines_count_as_module_lines():
    body = "\n".join(f"// note {k}: keeps the ledger in step with the source." for k in range(100))
    code = body + "\nexport const ledger = [];\n"
    assert module_lines(code) == (1, 101)
    assert judge_generation(code, CONTEXT, META) == (True, None)


def test_a_spliced_module_gives_the_findings_described():
    damaged = inject_splice(MODULE, CONTEXT, random.Random(7))
    found = find_splices(damaged, CONTEXT)
    assert found
    assert judge_generation(damaged, CONTEXT, META) == (False, "; ".join(s.describe() for s in found[:3]))


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_reference_output_is_clean_and_its_perturbation_is_not(row):
    meta = row["meta"]
    assert judge_generation(meta["example_pass"], meta["context_identifiers"], meta) == (True, None)
    damaged = inject_splice(meta["example_pass"], meta["context_identifiers"], random.Random(0))
    ok, why = judge_generation(damaged, meta["context_identifiers"], meta)
    assert not ok and why and "line " in why


@pytest.mark.parametrize(
    "preamble",
    [
        "Sure! Here is the complete module you asked for:",
        "Certainly. Below is `src/slotReconciler.js`, which imports six of the project's exports:",
        "Here is the module (about 180 lines, standard library only):",
    ],
)
def test_the_prose_real_models_open_with_is_not_judged(preamble):
    reply = preamble + "\n\n```javascript\n" + MODULE + "```\n"
    assert without_prose(preamble) == ""
    assert judge_generation(reply, CONTEXT, META) == (True, None)
    damaged = inject_splice(MODULE, CONTEXT, random.Random(11))
    assert judge_generation(preamble + "\n\n" + damaged, CONTEXT, META)[0] is False  # a weld is still found


@pytest.mark.parametrize("line", ["  Alpha: alpha, beta, gamma", "Foo(a, b);", "const x = (a, b) => c;", "Label: for (;;) break Label;"])
def test_code_lines_are_never_taken_for_prose(line):
    assert without_prose(line) == line
