"""datasets/eval-instruction-v1/rules.py: the definitions, every rule, the self-test, and
the eval-instruction-v1 rows it judges."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from atlas_assets.corpus.scorers import RULES_PATH, load_rules, score

R = load_rules()
ROWS_PATH = RULES_PATH.parent / "rows.jsonl"


def test_self_test_command_passes():
    proc = subprocess.run([sys.executable, str(RULES_PATH), "--self-test"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "self-test: OK" in proc.stdout


def test_self_test_fails_loudly_when_a_rule_breaks(monkeypatch):
    monkeypatch.setitem(R.RULES, "no_commas", (lambda rule, t: (True, "broken"),) + R.RULES["no_commas"][1:])
    assert any("no_commas" in failure for failure in R.self_test())


def test_rules_py_is_standard_library_only():
    source = RULES_PATH.read_text(encoding="utf-8")
    imports = {line.split()[1].split(".")[0] for line in source.splitlines() if line.startswith(("import ", "from "))}
    assert imports <= {"__future__", "json", "re", "sys", "unicodedata", "typing"}


# The spec's definitions, verbatim examples first.
def test_word_definition():
    assert R.words("don't") == ["don't"]
    assert R.words("3.5") == ["3", "5"]
    assert R.words("well-known rock’n’roll") == ["well-known", "rock’n’roll"]


def test_lines_paragraphs_sentences_bullets():
    text = "\n\nTitle line\n\n  * first point\n- second point\n*not a bullet\n   \n\nLast one. Really? Yes!\n"
    assert R.lines(text) == ["Title line", "  * first point", "- second point", "*not a bullet", "Last one. Really? Yes!"]
    assert R.paragraphs(text) == ["Title line", "  * first point\n- second point\n*not a bullet", "Last one. Really? Yes!"]
    assert R.bullets(text) == ["  * first point", "- second point"]
    assert [s.strip() for s in R.sentences("Pi is 3.14. E is 2.7!? Done")] == ["Pi is 3.14", "E is 2.7", "Done"]


@pytest.mark.parametrize("rule, good, bad", R._CASES, ids=[f"{c[0]['rule']}-{i}" for i, c in enumerate(R._CASES)])
def test_every_rule_both_ways(rule, good, bad):
    answer = {"all": [rule]}
    assert R.evaluate(answer, good) == (True, [])
    passed, failed = R.evaluate(answer, bad)
    assert not passed and failed == [rule]


def test_every_rule_has_a_case():
    assert {c[0]["rule"] for c in R._CASES} == set(R.RULES)


def test_failed_rules_are_listed_in_order_with_reasons():
    answer = {"all": [{"rule": "no_commas"}, {"rule": "title"}, {"rule": "word_count", "max": 100}]}
    passed, failed = R.evaluate(answer, "a, b")
    assert not passed and failed == answer["all"][:2]
    reasons = R.explain(answer, "a, b")
    assert [ok for _, ok, _ in reasons] == [False, False, True]
    assert "1 commas" in reasons[0][2]


@pytest.mark.parametrize(
    "answer",
    [
        {"any": [{"rule": "title"}]},
        {"all": []},
        {"all": [{"rule": "nope"}]},
        {"all": [{"rule": "word_count"}]},
        {"all": [{"rule": "word_count", "min": -1}]},
        {"all": [{"rule": "keywords_include", "keywords": []}]},
        {"all": [{"rule": "response_language", "language": "xx"}]},
        {"all": [{"rule": "title", "extra": 1}]},
        {"all": [{"rule": "paragraph_first_word", "index": 0, "word": "So"}]},
    ],
)
def test_malformed_rule_sets_raise(answer):
    assert R.validate(answer)
    with pytest.raises(R.RuleError):
        R.evaluate(answer, "text")


def test_language_detection():
    assert R.detect_language("The quick reader will find that this is one of the best ways to learn.") == "en"
    assert R.detect_language("12345") is None
    assert R.detect_language("") is None


def _rows():
    return [json.loads(line) for line in ROWS_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_dataset_rows_are_verified_and_the_scorer_agrees():
    rows = _rows()
    assert len(rows) >= 300
    covered = set()
    for row in rows:
        assert not R.validate(row["answer"]), row["id"]
        example = row["meta"]["example_pass"]
        assert R.evaluate(row["answer"], example) == (True, []), row["id"]
        assert score(row, example).correct, row["id"]
        assert not score(row, "").correct, row["id"]
        # a harness-side mutilation: the scorer agrees with rules.py either way
        shouted = example.upper()
        assert score(row, shouted).correct == R.evaluate(row["answer"], shouted)[0]
        covered.update(r["rule"] for r in row["answer"]["all"])
    assert covered == set(R.RULES)


def test_dataset_rows_compose_rules():
    rows = _rows()
    sizes = {len(r["answer"]["all"]) for r in rows}
    assert sizes >= {1, 2, 3, 4}
    assert {r["difficulty"] for r in rows} == {"easy", "medium", "hard"}
    prompts = [r["prompt"] for r in rows]
    assert len(set(prompts)) == len(prompts)
