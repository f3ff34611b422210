# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-longgen-integrity-v1: long code generations scored for spliced tokens.

36 rows. Each prompt carries a generated JavaScript ES-module project of 20-25k
characters (datasets/_gen/_jsproject.py: config, three entity modules, a store, format,
validate, stats, events, dates, query, a service, fixtures and an index; every project
from its own seed and domain vocabulary, so no two prompts share text) followed by the
task: write one complete new module of a stated line range that imports at least six
named exports from the project, and reply with the file only.

* a project that would share a 200-character passage with an earlier row's is redrawn
  (the unique-text rule), so the seeds are stable_seed(id, attempt);
* difficulty by requested length: easy 150-190 lines (meta.target_output_tokens 1200),
  medium 200-240 (1800), hard 250-290 (2400); 12 rows each, the twelve domains once per
  difficulty;
* `answer` is "clean": the expected observation is "no spliced token" (scorer `splice`);
* `meta.context_identifiers` is every identifier the project defines or exports, read
  back from the rendered source by `_jsproject.declared_identifiers` (declarations,
  parameters, destructuring, imports/exports, class members, object keys, assigned
  properties); the generator checks that it contains every export it wrote and that
  every other identifier in the source is a JavaScript built-in;
* `meta.example_pass` is an intact module written against the project by the reference
  writer (`_jsproject.reference_module`): inside the line range, importing >= 6 named
  exports that exist in the project. tests/corpus/test_reference_answers.py checks that
  the scorer accepts it and rejects it with a splice injected.

    python datasets/_gen/gen_eval_longgen_integrity_v1.py [--out DIR]
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _jsproject as J  # noqa: E402
import _lib  # noqa: E402

DATASET_ID = "eval-longgen-integrity-v1"
SEED = 5_700_101
LEVELS = (("easy", 150, 190, 1200), ("medium", 200, 240, 1800), ("hard", 250, 290, 2400))
# Identifiers the project templates use without defining them: JavaScript built-ins.
BUILTINS_USED = {
    "Array", "Boolean", "Date", "Error", "Intl", "Map", "Math", "Number", "NumberFormat", "Object", "Promise", "Set",
    "String", "add", "ceil", "delete", "fill", "filter", "floor", "format", "freeze", "get", "getFullYear", "getTime",
    "getUTCDay", "has", "includes", "join", "length", "map", "max", "min", "on", "padEnd", "push", "reduce", "round",
    "set", "setTimeout", "size", "slice", "sort", "split", "test", "toISOString", "toLowerCase", "trim", "values",
    "off", "emit", "list", "id",
}
INTRO = "Here is a JavaScript project made of ES modules, one file after another, each under a '// File:' header."


def make_rows() -> list[dict]:
    rng = random.Random(SEED)
    domains = sorted(J.DOMAINS)
    rows: list[dict] = []
    passages: set[bytes] = set()
    for level, low, high, tokens in LEVELS:
        order = list(domains)
        rng.shuffle(order)
        for domain in order:
            row_id = f"longgen-{len(rows) + 1:04d}"
            for attempt in range(20):  # a project sharing a 200-char passage with an earlier one is redrawn
                seed = _lib.stable_seed(DATASET_ID, row_id, attempt)
                project = J.make_project(seed, domain)
                source = J.render_project(project)
                keys = _lib.passage_keys(source)
                if not keys & passages:
                    break
            else:
                raise AssertionError(f"{row_id}: no project with unique text")
            passages |= keys
            assert 20_000 <= len(source) <= 25_000, (row_id, len(source))
            context = J.declared_identifiers(source)
            exported = {name for names in project.exports.values() for name in names}
            assert exported <= set(context), (row_id, sorted(exported - set(context)))
            used = {t for t in J.js_tokens(source) if re.fullmatch(r"[A-Za-z_$][\w$]*", t)}
            unexplained = used - set(context) - J.JS_RESERVED - BUILTINS_USED
            assert not unexplained, (row_id, sorted(unexplained))
            module_rng = random.Random(_lib.stable_seed(DATASET_ID, row_id, "reference"))
            task = J.make_task(project, module_rng, low, high)
            example = J.reference_module(project, task, module_rng)
            lines = example.count("\n")
            assert low <= lines <= high, (row_id, lines)
            imported = re.findall(r"^import \{ (.*?) \} from ['\"]\./(.*?)['\"]", example, re.M)
            names = [(n.strip(), "src/" + path) for group, path in imported for n in group.split(",")]
            assert len(names) >= 6 and all(n in project.exports[path] for n, path in names), (row_id, names)
            prompt = f"{INTRO}\n\n{source}\n{J.task_text(project, task)}"
            rows.append(
                {
                    "id": row_id,
                    "category": f"{domain}-{task.kind.lower()}",
                    "difficulty": level,
                    "prompt": prompt,
                    "answer": "clean",
                    "scorer": "splice",
                    "meta": {
                        "domain": domain,
                        "module_path": task.path,
                        "min_lines": low,
                        "max_lines": high,
                        "target_output_tokens": tokens,
                        "project_chars": len(source),
                        "files": sorted(project.files),
                        "context_identifiers": context,
                        "example_pass": example,
                        "example_pass_lines": lines,
                        "example_pass_imports": len(names),
                        "why": "an intact generation contains no spliced identifier or number; correctness is not scored",
                    },
                }
            )
    return rows


def generate(out: Path) -> None:
    rows = make_rows()
    _lib.assert_unique_text((r["id"], r["prompt"]) for r in rows)
    card = _lib.eval_dataset_json(
        dataset_id=DATASET_ID,
        description=(
            "Long-generation integrity: 36 prompts, each a generated 20-25k-character "
            "JavaScript ES-module project plus the task of writing one new 150-290-line "
            "module; scored by splice (no identifier or number welded from two fragments). "
            "Wrong-but-intact code scores 1.0"
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        default_scorer="splice",
        inputs=[_lib.DATASETS_ROOT / "_gen" / "_jsproject.py"],
        extra={
            "target_output_tokens": {level: tokens for level, _, _, tokens in LEVELS},
            "line_ranges": {level: [low, high] for level, low, high, _ in LEVELS},
            "answer_line_extraction": "not applied (the output is a source file)",
        },
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
