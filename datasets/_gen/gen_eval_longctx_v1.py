# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-longctx-v1: long-context retrieval evals that carry their own recipe.

Each row's `prompt` is the question only; `meta.haystack` is a haystack-v1 recipe (seed,
target_tokens, needles) plus the sha256/chars/lines of the document it builds. The harness
rebuilds the document with haystack-v1/build.py and sends
build_prompt(meta.haystack, question=prompt) -- see atlas_assets/corpus/longctx.py, which
also detects a request sent without the document. Six sizes (4k-128k tokens) x five
single-needle depths, plus one multi-needle row per size. Answers are read back out of the
built documents.

    python datasets/_gen/gen_eval_longctx_v1.py [--out DIR]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402
import _needles  # noqa: E402

DATASET_ID = "eval-longctx-v1"
SEED = 7_100_001
SIZES = (4096, 8192, 16384, 32768, 65536, 131072)
SINGLE_DEPTHS = (0.0, 0.25, 0.5, 0.75, 1.0)
MULTI_DEPTHS = (0.15, 0.4, 0.65, 0.9)
FAMILIES = ("vault", "serial", "locker")


def difficulty(size: int) -> str:
    return "easy" if size <= 8192 else ("medium" if size <= 32768 else "hard")


def make_rows(builder) -> list[dict]:
    rng = random.Random(SEED)
    rows: list[dict] = []
    plans = []
    for size in SIZES:
        plans += [(size, "single-needle", [d]) for d in SINGLE_DEPTHS]
        plans.append((size, "multi-needle", list(MULTI_DEPTHS)))
    for number, (size, category, depths) in enumerate(plans, start=1):
        row_id = f"longctx-{number:04d}"
        family = FAMILIES[number % len(FAMILIES)]
        needles = _needles.make_needles(rng, family, len(depths), depths)
        asked = rng.randrange(len(needles))
        seed = _lib.stable_seed(DATASET_ID, row_id)
        recipe = {"seed": seed, "target_tokens": size, "needles": needles}
        built = builder.build(recipe)
        proven = []
        for needle, line_number in zip(needles, built.line_numbers):
            value, proven_line = _needles.read_answer(built.document, family, needle["key"])
            assert proven_line == line_number, (row_id, proven_line, line_number)
            proven.append({"depth": needle["depth"], "text": needle["text"], "answer": value, "line_number": line_number})
        question = _needles.question_for(family, needles[asked]["key"])
        answer, _ = _needles.read_answer(built.document, family, needles[asked]["key"])
        sent = builder.PREAMBLE + "\n\n" + built.document + "\n\n" + question
        rows.append(
            {
                "id": row_id,
                "category": category,
                "difficulty": difficulty(size),
                "prompt": question,
                "answer": answer,
                "scorer": "exact",
                "meta": {
                    "haystack": {
                        "algorithm": builder.ALGORITHM,
                        "seed": seed,
                        "target_tokens": size,
                        "needles": proven,
                        "chars": built.chars,
                        "lines": built.lines,
                        "approx_tokens": built.approx_tokens,
                        "sha256": built.sha256,
                    },
                    "sent_approx_tokens": _lib.approx_tokens(sent),
                },
            }
        )
    return rows


def generate(out: Path) -> None:
    builder = _needles.load_builder(Path(_lib.DATASETS_ROOT))
    rows = make_rows(builder)
    card = _lib.eval_dataset_json(
        dataset_id=DATASET_ID,
        description=(
            "Long-context retrieval, 4k to 128k tokens. The prompt is the question only: "
            "the harness rebuilds the document from meta.haystack with haystack-v1/build.py "
            "and sends PREAMBLE + document + question (build_prompt). A request without the "
            "document is a harness bug that reads as a catastrophic accuracy drop; "
            "atlas_assets.corpus.longctx detects it."
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        default_scorer="exact",
        inputs=[_lib.DATASETS_ROOT / "_gen" / "_needles.py", _lib.DATASETS_ROOT / "haystack-v1" / "build.py"],
        extra={"requires_document": {"algorithm": builder.ALGORITHM, "recipe_field": "meta.haystack", "builder": "haystack-v1/build.py"}},
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
