"""haystack-v1: the 7 normative steps, recorded sha256s, static files, speed."""

from __future__ import annotations

import hashlib
import random

import pytest

from atlas_assets.corpus import longctx
from tests.helpers.corpus import ROOT, read_rows

BUILD = longctx.haystack_builder(ROOT)
ROWS = read_rows(ROOT / "haystack-v1")
LONGCTX = read_rows(ROOT / "eval-longctx-v1")


def reference_document(seed: int, target_tokens: int, needles: list[dict]) -> str:
    """An independent transcription of the spec's seven steps (template data shared)."""
    budget = target_tokens * 4
    rng = random.Random(seed)
    needle_chars = sum(len(n["text"]) + 13 + 1 for n in needles)
    filler: list[str] = []
    filler_chars = 0
    while filler_chars + needle_chars < budget:
        literals, slots = rng.choice(BUILD.TEMPLATES)
        text = literals[0]
        for values, literal in zip(slots, literals[1:]):
            text += rng.choice(values) + literal
        sentence = text[0].upper() + text[1:]
        filler.append(sentence)
        filler_chars += 13 + len(sentence) + 1
    lines = list(filler)
    count = len(filler)
    for j, needle in enumerate(sorted(needles, key=lambda n: n["depth"])):
        index = min(max(round(needle["depth"] * count) + j, 0), len(lines))
        lines.insert(index, needle["text"])
    return "\n".join(f"Line {i:06d}: {s}" for i, s in enumerate(lines, start=1))


def test_eight_sizes_single_and_multi_several_depths():
    sizes = sorted({r["target_tokens"] for r in ROWS})
    assert sizes == [2048 * 2**k for k in range(8)]
    for size in sizes:
        kinds = {r["kind"] for r in ROWS if r["target_tokens"] == size}
        assert kinds == {"single", "multi"}
        depths = {r["needles"][0]["depth"] for r in ROWS if r["target_tokens"] == size and r["kind"] == "single"}
        assert len(depths) >= 3


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_every_row_rebuilds_to_its_sha256(row):
    built = BUILD.build(row)
    assert built.sha256 == row["sha256"]
    assert (built.chars, built.lines, built.approx_tokens) == (row["chars"], row["lines"], row["approx_tokens"])
    assert list(built.line_numbers) == [n["line_number"] for n in row["needles"]]
    lines = built.document.split("\n")
    for needle in row["needles"]:
        assert lines[needle["line_number"] - 1] == f"Line {needle['line_number']:06d}: {needle['text']}"
    assert row["answer"] in [n["answer"] for n in row["needles"]]


def test_reference_transcription_agrees_on_every_recipe():
    for row in ROWS[:16] + [r["meta"]["haystack"] for r in LONGCTX[:12]]:
        document = reference_document(row["seed"], row["target_tokens"], row["needles"])
        assert hashlib.sha256(document.encode()).hexdigest() == row["sha256"]


def test_static_files_up_to_32k_carry_one_newline_outside_the_hash():
    with_static = [r for r in ROWS if r["target_tokens"] <= 32768]
    assert all(r["static_file"] == f"static/{r['id']}.txt" for r in with_static)
    assert all(r["static_file"] is None for r in ROWS if r["target_tokens"] > 32768)
    for row in with_static:
        data = (ROOT / "haystack-v1" / row["static_file"]).read_bytes()
        assert data.endswith(b"\n") and not data.endswith(b"\n\n")
        assert hashlib.sha256(data[:-1]).hexdigest() == row["sha256"]


def test_document_shape():
    row = next(r for r in ROWS if r["id"] == "hay-8k-d50")
    document = BUILD.build_document(row["seed"], row["target_tokens"], row["needles"])
    assert not document.endswith("\n")
    assert document.startswith("Line 000001: ")
    assert row["approx_tokens"] >= row["target_tokens"]
    prompt = BUILD.build_prompt(row)
    assert prompt == BUILD.PREAMBLE + "\n\n" + document + "\n\n" + row["question"]


def test_needles_sorted_by_depth_and_clamped():
    needles = [{"depth": 0.9, "text": "late fact"}, {"depth": 0.0, "text": "early fact"}, {"depth": 1.0, "text": "last fact"}]
    lines, numbers = BUILD.build_lines(11, 300, needles)
    assert lines[0] == "Line 000001: early fact"
    assert lines[-1].endswith(": last fact")
    assert numbers[1] == 1 and numbers[2] == len(lines)
    assert lines[numbers[0] - 1].endswith(": late fact")


def test_256k_builds_to_its_recorded_digest():
    """The largest recipe rebuilds exactly; its build time is bench/corpus_bench.py's."""
    row = next(r for r in ROWS if r["target_tokens"] == 262144)
    assert BUILD.build(row).sha256 == row["sha256"]
