"""eval-code-v2: every row is a distinct problem, and its tests only exchange plain values.

The distinctness matrix (each reference against the tests of every other row of its
family) runs trusted generator-authored references with in-process exec; the pass/broken
proof runs every row in-process and a sample in the real sandbox.
"""

from __future__ import annotations

import ast
import builtins
import filecmp
import json
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from atlas_assets.corpus.sandbox import run_python

DATASETS = Path(__file__).resolve().parents[2] / "datasets"
FOLDER = DATASETS / "eval-code-v2"


def _rows(dataset_id: str) -> list[dict]:
    text = (DATASETS / dataset_id / "rows.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


ROWS = _rows("eval-code-v2")


def _families() -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = defaultdict(list)
    for row in ROWS:
        out[row["meta"]["family"]].append(row)
    return dict(out)


def passes(program: str, tests: str) -> bool:
    namespace: dict = {"__name__": "solution"}
    try:
        exec(compile(program, "solution.py", "exec"), namespace)  # noqa: S102 -- the dataset's own reference code
        exec(compile(tests, "tests.py", "exec"), namespace)  # noqa: S102
    except Exception:
        return False
    return True


def test_size_families_and_difficulty_mix():
    assert len(ROWS) >= 300
    families = _families()
    assert len(families) >= 30
    assert min(len(rows) for rows in families.values()) >= 8
    difficulty = Counter(r["difficulty"] for r in ROWS)
    assert set(difficulty) == {"easy", "medium", "hard"}
    assert difficulty["hard"] / len(ROWS) >= 0.35
    assert min(difficulty.values()) / len(ROWS) >= 0.25
    assert {r["scorer"] for r in ROWS} == {"code_exec"}
    assert len({r["id"] for r in ROWS}) == len(ROWS)


def test_every_reference_text_is_unique_here_and_new_against_v1():
    texts = [r["answer"] for r in ROWS]
    assert len(set(texts)) == len(texts)
    assert not set(texts) & {r["answer"] for r in _rows("eval-code-v1")}


def test_a_family_asks_every_row_for_the_same_names():
    # otherwise "fails the other rows' tests" could be a NameError, not a behaviour difference
    for family, rows in _families().items():
        assert len({tuple(r["meta"]["entry_points"]) for r in rows}) == 1, family
        for row in rows:
            assert row["meta"]["entry_point"] == row["meta"]["entry_points"][0]
            for name in row["meta"]["entry_points"]:
                assert f"{name}(" in row["prompt"], (row["id"], name)


def test_within_a_family_each_reference_fails_every_other_rows_tests():
    failures = []
    for family, rows in sorted(_families().items()):
        for i, mine in enumerate(rows):
            for j, other in enumerate(rows):
                if passes(mine["answer"], other["tests"]) != (i == j):
                    failures.append(f"{family}: {mine['id']} vs tests of {other['id']}")
    assert not failures, failures[:10]


def test_every_reference_passes_and_every_broken_version_fails_in_process():
    for row in ROWS:
        assert passes(row["answer"], row["tests"]), row["id"]
        assert row["meta"]["broken"] != row["answer"], row["id"]
        assert not passes(row["meta"]["broken"], row["tests"]), (row["id"], row["meta"]["broken_how"])


def test_a_sample_passes_and_fails_in_the_real_sandbox():
    families = _families()
    sample = [rows[k % len(rows)] for k, (_, rows) in enumerate(sorted(families.items()))][::3]
    sample.append(families["editor"][0])  # a stateful class with expected exceptions
    for row in sample:
        good = run_python(row["answer"], row["tests"])
        bad = run_python(row["meta"]["broken"], row["tests"])
        assert good.passed, (row["id"], good.stderr[-300:], good.error)
        assert not bad.passed, (row["id"], "the broken version passes in the sandbox")


ALLOWED_STATEMENTS = (ast.Assert, ast.Assign, ast.Expr, ast.Try, ast.Raise, ast.Pass)


def _plain_literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except ValueError:
        return False
    return True


def _check_call(call: ast.AST, entries: set[str], row_id: str) -> None:
    assert isinstance(call, ast.Call), (row_id, ast.unparse(call))
    func = call.func
    if isinstance(func, ast.Name):
        assert func.id in entries, (row_id, func.id)
    else:
        assert isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "obj", (row_id, ast.unparse(call))
    # arguments are literals: no test-defined function or lambda goes into the candidate
    assert all(_plain_literal(a) for a in call.args) and not call.keywords, (row_id, ast.unparse(call))


def _check_statement(stmt: ast.stmt, entries: set[str], row_id: str) -> None:
    assert isinstance(stmt, ALLOWED_STATEMENTS), (row_id, ast.unparse(stmt))
    if isinstance(stmt, ast.Assert):
        test = stmt.test
        # a plain value returned by the candidate compared with a literal, never a candidate object itself
        assert isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq), (row_id, ast.unparse(stmt))
        _check_call(test.left, entries, row_id)
        assert _plain_literal(test.comparators[0]), (row_id, ast.unparse(stmt))
    elif isinstance(stmt, ast.Assign):
        assert [t.id for t in stmt.targets if isinstance(t, ast.Name)] == ["obj"], (row_id, ast.unparse(stmt))
        _check_call(stmt.value, entries, row_id)
        assert stmt.value.func.id in entries and stmt.value.func.id[0].isupper(), (row_id, ast.unparse(stmt))
    elif isinstance(stmt, ast.Expr):
        _check_call(stmt.value, entries, row_id)
    elif isinstance(stmt, ast.Try):
        assert len(stmt.body) == 1 and len(stmt.handlers) == 1 and not stmt.finalbody, (row_id, ast.unparse(stmt))
        _check_statement(stmt.body[0], entries, row_id)
        handler = stmt.handlers[0]
        assert isinstance(handler.type, ast.Name) and isinstance(getattr(builtins, handler.type.id, None), type), (
            row_id,
            ast.unparse(stmt),
        )
        assert issubclass(getattr(builtins, handler.type.id), Exception), (row_id, handler.type.id)
        assert [type(s) for s in handler.body] == [ast.Pass], (row_id, ast.unparse(stmt))
        assert len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.Raise), (row_id, ast.unparse(stmt))
    elif isinstance(stmt, ast.Raise):
        assert isinstance(stmt.exc, ast.Call) and isinstance(stmt.exc.func, ast.Name) and stmt.exc.func.id == "AssertionError", (
            row_id,
            ast.unparse(stmt),
        )


def test_tests_only_call_the_named_entry_points_and_compare_plain_values():
    for row in ROWS:
        entries = set(row["meta"]["entry_points"])
        tree = ast.parse(row["tests"])
        for node in ast.walk(tree):
            assert not isinstance(node, (ast.Import, ast.ImportFrom, ast.Lambda, ast.FunctionDef, ast.ClassDef)), row["id"]
            assert not (isinstance(node, ast.Name) and node.id in {"isinstance", "type", "id", "hash", "bool"}), row["id"]
            assert not (isinstance(node, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot, ast.Lt, ast.Gt)) for op in node.ops)), row[
                "id"
            ]
        for stmt in tree.body:
            _check_statement(stmt, entries, row["id"])


def test_the_card_says_it_supersedes_v1_and_how_it_was_proved():
    card = json.loads((FOLDER / "dataset.json").read_text(encoding="utf-8"))
    assert "supersedes eval-code-v1" in card["description"]
    assert card["rows"] == len(ROWS)
    assert card["provenance"]["generator"] == "_gen/gen_eval_code_v2.py"
    for row in ROWS:
        meta = row["meta"]
        assert {"broken", "broken_how", "entry_point", "family", "oracle", "proof"} <= set(meta), row["id"]
        assert "matrix" in meta["proof"] and meta["oracle"], row["id"]


def test_the_generator_reproduces_the_committed_bytes(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(DATASETS / "_gen" / "gen_eval_code_v2.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    comparison = filecmp.dircmp(tmp_path, FOLDER)
    assert comparison.left_only == comparison.right_only == [], (comparison.left_only, comparison.right_only)
    for name in ("rows.jsonl", "dataset.json"):
        assert (tmp_path / name).read_bytes() == (FOLDER / name).read_bytes(), name
