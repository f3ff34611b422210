"""check.py: green on the corpus, precise on injected faults."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from atlas_assets.corpus import cards, registry, validate
from tests.helpers.corpus import ROOT, read_rows, write_rows

CHECK = ROOT / "_gen" / "check.py"


def errors_of(root: Path, *ids: str) -> list[str]:
    report = validate.validate_corpus(root, only=list(ids) or None)
    return [str(p) for p in report.errors]


def test_check_py_passes_on_the_corpus():
    proc = subprocess.run([sys.executable, str(CHECK)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "corpus size:" in proc.stdout and "of the 25 MB budget" in proc.stdout
    assert proc.stdout.strip().endswith("OK")


def test_check_py_runs_without_the_package_installed(tmp_path):
    """`uv run` gives check.py a bare interpreter: the corpus modules must load without
    Dagster (the scorer registry's own dependency, pydantic, is in its PEP 723 header)."""
    code = (
        "import sys, runpy; sys.modules['dagster'] = None; "  # any Dagster import now fails
        f"sys.argv = ['check.py', '-q']; runpy.run_path({str(CHECK)!r}, run_name='__main__')"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_check_py_fails_with_dataset_row_and_field(corpus_copy):
    root = corpus_copy("prompts-mix-v1")
    rows = read_rows(root / "prompts-mix-v1")
    rows[2]["approx_tokens"] += 1
    write_rows(root / "prompts-mix-v1", rows)
    proc = subprocess.run([sys.executable, str(CHECK), "--root", str(root), "-q"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert f"ERROR prompts-mix-v1 row {rows[2]['id']} field approx_tokens:" in proc.stdout
    assert "FAILED" in proc.stdout


# each fault: (dataset, mutate(rows, folder) -> expected substring of one error)
def _approx(rows, folder):
    rows[0]["approx_tokens"] = 5
    return f"prompts-mix-v1 row {rows[0]['id']} field approx_tokens"


def _bucket(rows, folder):
    rows[1]["bucket"] = "xxl"
    return f"prompts-mix-v1 row {rows[1]['id']} field bucket"


def _dup(rows, folder):
    rows[3]["id"] = rows[2]["id"]
    return f"prompts-mix-v1 row {rows[2]['id']} field id: duplicate"


def _unknown_field(rows, folder):
    rows[0]["extra"] = 1
    return f"prompts-mix-v1 row {rows[0]['id']} field extra"


def _topic(rows, folder):
    rows[0]["topic"] = "astrology"
    return f"prompts-mix-v1 row {rows[0]['id']} field topic"


def _repeat(rows, folder):
    rows[5]["messages"][0]["content"] += "\n\n" + rows[4]["messages"][0]["content"]
    return f"prompts-mix-v1 row {rows[5]['id']} field messages[0].content: repeats a passage"


def _role(rows, folder):
    rows[0]["messages"][0]["role"] = "robot"
    return f"prompts-mix-v1 row {rows[0]['id']} field messages[0].role"


def _code_system(rows, folder):
    rows[0]["messages"][0]["content"] = "You are a helpful assistant."
    return f"prompts-code-v1 row {rows[0]['id']} field messages[0]: must be a system message naming the language"


def _prefix_tokens(rows, folder):
    rows[0]["shared_prefix"] = rows[0]["shared_prefix"] + " extra words"
    return f"prompts-shared-prefix-v1 row {rows[0]['id']} field approx_tokens"


def _hay_seed(rows, folder):
    rows[4]["seed"] += 1
    return f"haystack-v1 row {rows[4]['id']} field sha256: rebuilt document hashes to"


def _hay_line(rows, folder):
    rows[1]["needles"][0]["line_number"] += 1
    return f"haystack-v1 row {rows[1]['id']} field needles[0].line_number"


def _hay_static(rows, folder):
    path = folder / rows[0]["static_file"]
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    return f"haystack-v1 row {rows[0]['id']} field static_file: must end with exactly one newline"


def _hay_static_escape(rows, folder):
    rows[0]["static_file"] = "../prompts-mix-v1/rows.jsonl"
    return f"haystack-v1 row {rows[0]['id']} field static_file"


def _longctx_sha(rows, folder):
    rows[2]["meta"]["haystack"]["sha256"] = "0" * 64
    return f"eval-longctx-v1 row {rows[2]['id']} field meta.haystack.sha256"


def _longctx_answer(rows, folder):
    rows[3]["answer"] = "12345"
    return f"eval-longctx-v1 row {rows[3]['id']} field answer"


def _longctx_doc_in_prompt(rows, folder):
    rows[0]["prompt"] = "Line 000001: x\n" + rows[0]["prompt"]
    return f"eval-longctx-v1 row {rows[0]['id']} field prompt: must be the question only"


def _scorer(rows, folder):
    rows[0]["scorer"] = "vibes"
    return f"eval-longctx-v1 row {rows[0]['id']} field scorer: 'vibes' is not a known scorer"


def _stray_file(rows, folder):
    (folder / "notes.txt").write_text("scratch")
    return "prompts-code-v1 field notes.txt: file is neither"


FAULTS = {
    "approx_tokens": ("prompts-mix-v1", _approx),
    "bucket": ("prompts-mix-v1", _bucket),
    "duplicate_id": ("prompts-mix-v1", _dup),
    "unknown_field": ("prompts-mix-v1", _unknown_field),
    "topic": ("prompts-mix-v1", _topic),
    "unique_text": ("prompts-mix-v1", _repeat),
    "role": ("prompts-mix-v1", _role),
    "code_system_message": ("prompts-code-v1", _code_system),
    "shared_prefix_tokens": ("prompts-shared-prefix-v1", _prefix_tokens),
    "haystack_sha256": ("haystack-v1", _hay_seed),
    "haystack_line_number": ("haystack-v1", _hay_line),
    "haystack_static_newline": ("haystack-v1", _hay_static),
    "haystack_static_outside": ("haystack-v1", _hay_static_escape),
    "longctx_sha256": ("eval-longctx-v1", _longctx_sha),
    "longctx_answer": ("eval-longctx-v1", _longctx_answer),
    "longctx_document_in_prompt": ("eval-longctx-v1", _longctx_doc_in_prompt),
    "unknown_scorer": ("eval-longctx-v1", _scorer),
    "stray_file": ("prompts-code-v1", _stray_file),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_injected_fault_is_named_precisely(corpus_copy, fault):
    dataset, mutate = FAULTS[fault]
    root = corpus_copy(dataset)
    folder = root / dataset
    rows = read_rows(folder)
    expected = mutate(rows, folder)
    write_rows(folder, rows)
    errors = errors_of(root, dataset)
    assert any(expected in e for e in errors), "\n".join(errors)


def _eval_dataset(folder: Path, rows: list[dict], default_scorer: str = "mc") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    lib = registry.load_lib(folder.parent)
    used = sorted({row.get("scorer", default_scorer) for row in rows})
    card = lib.eval_dataset_json(
        dataset_id=folder.name,
        description="test",
        generator=folder.parent / "_gen" / "gen_prompts_code_v1.py",
        seed=1,
        rows=rows,
        default_scorer=default_scorer,
        scoring=cards.scoring_block(lib, used),
    )
    lib.write_card(folder / "dataset.json", card)
    lib.write_jsonl(folder / "rows.jsonl", rows)


def test_eval_schema_choices_answers_images_and_instruction_rows(corpus_copy):
    root = corpus_copy("prompts-code-v1")
    rows = [
        {"id": "t-1", "category": "logic", "difficulty": "easy", "prompt": "Pick one.", "choices": ["red", "blue"], "answer": "B"},
        {"id": "t-2", "category": "logic", "difficulty": "hard", "prompt": "Two plus two?", "answer": "4", "scorer": "numeric"},
        {
            "id": "t-3",
            "category": "fmt",
            "difficulty": "medium",
            "prompt": "No commas please.",
            "scorer": "instruction",
            "answer": {"all": [{"rule": "no_commas"}]},
            "meta": {"example_pass": "Fine and clear"},
        },
    ]
    (root / "eval-test-v1" / "images").mkdir(parents=True)
    _eval_dataset(root / "eval-test-v1", rows)
    assert errors_of(root, "eval-test-v1") == []

    broken = json.loads(json.dumps(rows))
    broken[0]["answer"] = "C"
    broken[1]["choices"] = ["1", "2"]
    broken[1]["difficulty"] = "brutal"
    broken[2]["meta"]["example_pass"] = "Fine, clear"
    broken[0]["image"] = "../../secret.png"
    broken[1]["tests"] = "assert True"
    _eval_dataset(root / "eval-test-v1", broken)
    errors = errors_of(root, "eval-test-v1")
    for expected in (
        "eval-test-v1 row t-1 field answer: 'C' is not a choice label (A, B)",
        "eval-test-v1 row t-2 field choices: only mc rows carry choices",
        "eval-test-v1 row t-2 field difficulty",
        "eval-test-v1 row t-3 field meta.example_pass: fails its own rules",
        "eval-test-v1 row t-1 field image: '../../secret.png' points outside the dataset folder",
        "eval-test-v1 row t-2 field tests: only code_exec rows carry tests",
    ):
        assert any(expected in e for e in errors), expected + "\n" + "\n".join(errors)


def test_card_must_come_from_lib(corpus_copy):
    root = corpus_copy("prompts-code-v1")
    card_path = root / "prompts-code-v1" / "dataset.json"
    card = json.loads(card_path.read_text())
    card["license"] = "CC-BY-4.0"
    card["rows"] = 3
    card_path.write_text(json.dumps(card))
    errors = errors_of(root, "prompts-code-v1")
    assert any("prompts-code-v1 field dataset.json:license" in e for e in errors)
    assert any("prompts-code-v1 field dataset.json:rows" in e for e in errors)


def test_published_dataset_that_changed_fails(corpus_copy):
    root = corpus_copy("prompts-code-v1")
    registry.write_lock({"prompts-code-v1": "f" * 64}, root)
    errors = errors_of(root, "prompts-code-v1")
    assert any("prompts-code-v1: published dataset changed" in e and "-vN" in e for e in errors), errors


def test_stale_index_and_budget(corpus_copy, monkeypatch):
    root = corpus_copy("prompts-code-v1")
    readme = root / "README.md"
    readme.write_text(readme.read_text().replace("| `prompts-code-v1` |", "| `prompts-code-v0` |"))
    lib = registry.load_lib(root)
    monkeypatch.setattr(lib, "BUDGET_BYTES", 1000)
    report = validate.validate_corpus(root)
    messages = [str(p) for p in report.errors]
    assert any("corpus index is stale" in m for m in messages), messages
    assert any("exceeds the 0 MB budget" in m or "budget" in m for m in messages), messages


def test_missing_rules_and_scorers_fail_with_a_clear_message(corpus_copy, tmp_path):
    root = corpus_copy("prompts-code-v1")
    (root / "eval-instruction-v1" / "rules.py").unlink()
    errors = errors_of(root)
    assert any("eval-instruction-v1 field rules.py: datasets/eval-instruction-v1/rules.py is missing" in e for e in errors), errors
    code = (
        "import sys, runpy; sys.modules['atlas_assets.corpus.scorers'] = None; "
        f"sys.argv = ['check.py', '-q', '--dataset', 'prompts-code-v1']; runpy.run_path({str(CHECK)!r}, run_name='__main__')"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 1
    assert "ERROR corpus field scorer: the scoring library atlas_assets/corpus/scorers/ cannot be imported" in proc.stdout


def test_lock_py_publishes_once_and_never_rewrites(corpus_copy):
    root = corpus_copy("prompts-code-v1")
    lock_py = ROOT / "_gen" / "lock.py"
    registry.write_lock({}, root)

    def run(*a: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(lock_py), "--root", str(root), *a], capture_output=True, text=True, timeout=60)

    assert run("prompts-code-v1").returncode == 0
    sha = registry.read_lock(root)["prompts-code-v1"]
    assert sha == registry.content_sha256(root / "prompts-code-v1", root)
    assert run("--check").returncode == 0
    (root / "prompts-code-v1" / "rows.jsonl").write_text("{}\n")
    proc = run("--check")
    assert proc.returncode == 1 and "publish a new -vN id" in proc.stderr
    run("prompts-code-v1")
    assert registry.read_lock(root)["prompts-code-v1"] == sha  # never rewritten
