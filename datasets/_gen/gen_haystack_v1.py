# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate haystack-v1: recipes for needle-in-a-haystack documents, 2k to 256k tokens.

Per size: three single-needle rows (depths 0.1, 0.5, 0.9) and one multi-needle row (three
needles of the same family, the question asks for one of them, the others are
distractors). Every row is built with haystack-v1/build.py; the answer and each needle's
line number are read back out of the built document, never typed. Documents of at most
32k tokens are also written to static/<id>.txt with one trailing newline outside the hash.

    python datasets/_gen/gen_haystack_v1.py [--out DIR]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402
import _needles  # noqa: E402

DATASET_ID = "haystack-v1"
SEED = 7_000_001
SIZES = (2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144)
SINGLE_DEPTHS = (0.1, 0.5, 0.9)
MULTI_DEPTHS = (0.2, 0.55, 0.85)
STATIC_MAX_TOKENS = 32768


def make_rows(builder) -> tuple[list[dict], dict[str, str]]:
    rng = random.Random(SEED)
    rows: list[dict] = []
    statics: dict[str, str] = {}
    for size_index, size in enumerate(SIZES):
        label = f"{size // 1024}k"
        plans = [(f"hay-{label}-d{round(d * 100):02d}", "single", [d], 0) for d in SINGLE_DEPTHS]
        plans.append((f"hay-{label}-multi", "multi", list(MULTI_DEPTHS), size_index % len(MULTI_DEPTHS)))
        for row_id, kind, depths, asked in plans:
            family = "vault" if kind == "single" else ("serial", "locker", "vault")[size_index % 3]
            needles = _needles.make_needles(rng, family, len(depths), depths)
            seed = _lib.stable_seed(DATASET_ID, row_id)
            recipe = {"seed": seed, "target_tokens": size, "needles": needles}
            built = builder.build(recipe)
            proven = []
            for needle, line_number in zip(needles, built.line_numbers):
                value, proven_line = _needles.read_answer(built.document, family, needle["key"])
                assert proven_line == line_number, (row_id, proven_line, line_number)
                proven.append({"depth": needle["depth"], "text": needle["text"], "answer": value, "line_number": line_number})
            key = needles[asked]["key"]
            answer, _ = _needles.read_answer(built.document, family, key)
            assert built.approx_tokens >= size, (row_id, built.approx_tokens)
            static_file = f"static/{row_id}.txt" if size <= STATIC_MAX_TOKENS else None
            rows.append(
                {
                    "id": row_id,
                    "kind": kind,
                    "target_tokens": size,
                    "seed": seed,
                    "algorithm": builder.ALGORITHM,
                    "needles": proven,
                    "question": _needles.question_for(family, key),
                    "answer": answer,
                    "chars": built.chars,
                    "lines": built.lines,
                    "approx_tokens": built.approx_tokens,
                    "sha256": built.sha256,
                    "static_file": static_file,
                }
            )
            if static_file:
                statics[static_file] = built.document + "\n"
    return rows, statics


def generate(out: Path) -> None:
    builder = _needles.load_builder(Path(_lib.DATASETS_ROOT))
    rows, statics = make_rows(builder)
    card = _lib.base_dataset_json(
        dataset_id=DATASET_ID,
        kind="haystack",
        description=(
            "Needle-in-a-haystack recipes for eight sizes from 2k to 256k tokens: single "
            "needles at depths 0.1/0.5/0.9 and a multi-needle row with distractors. The "
            "harness rebuilds each document with build.py (steps 1-7 of the haystack-v1 "
            "algorithm) and sends build_prompt(row)."
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        inputs=[_lib.DATASETS_ROOT / "_gen" / "_needles.py", _lib.DATASETS_ROOT / DATASET_ID / "build.py"],
        sources=["build.py"],
        extra={
            "algorithm": builder.ALGORITHM,
            "preamble": builder.PREAMBLE,
            "sizes": list(SIZES),
            "static_max_tokens": STATIC_MAX_TOKENS,
        },
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)
    for rel, text in sorted(statics.items()):
        _lib.write_text(out / rel, text)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
