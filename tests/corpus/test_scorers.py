"""Each scorer, the row-scorer-wins rule and failed requests."""

from __future__ import annotations

import json

import pytest

from atlas_assets.corpus import scorers
from atlas_assets.corpus.scorers import SCORERS, ItemScore, ModelOutput, ToolCall, as_output, load_rules, score, summarize
from tests.helpers.corpus import ROOT

SPEC_SCORERS = {"exact", "numeric", "mc", "contains", "json", "instruction", "tool_call", "code_exec", "splice"}


def test_registry_names_the_spec_scorers():
    assert set(SCORERS) == SPEC_SCORERS


def ok(row, output, default=None) -> bool:
    result = score(row, output, default)
    assert isinstance(result, ItemScore) and not result.failed
    return result.correct


# --- exact / numeric / mc / contains / json ------------------------------------------------


def test_exact():
    row = {"id": "e", "answer": "New York", "scorer": "exact"}
    assert ok(row, "new   york")
    assert ok(row, '<think>hmm</think>\nAnswer: "New York".')
    assert not ok(row, "New York City")
    assert not ok(row, "The answer is New York")
    assert ok({"id": "e", "answer": ["colour", "color"], "scorer": "exact"}, "Color")


def test_numeric():
    row = {"id": "n", "answer": 1234.5, "scorer": "numeric"}
    assert ok(row, "Answer: $1,234.50")
    assert ok(row, "1234.5")
    assert not ok(row, "1234.4")
    assert not ok(row, "about 1234.5")
    assert ok({"id": "n", "answer": "3/4", "scorer": "numeric"}, "0.75")
    assert not ok({"id": "n", "answer": 1_000_000, "scorer": "numeric"}, "1000001")  # exact by default
    tol = {"id": "n", "answer": 3.14159, "scorer": "numeric", "meta": {"tolerance": 0.01}}
    assert ok(tol, "3.14") and not ok(tol, "3.1")
    rel = {"id": "n", "answer": 200, "scorer": "numeric", "meta": {"rel_tolerance": 0.05}}
    assert ok(rel, "209") and not ok(rel, "211")


def test_mc():
    row = {"id": "m", "answer": "C", "choices": ["red", "green", "blue"], "scorer": "mc"}
    for good in ("C", "(c)", "Answer: C", "C) blue", "blue", "Final answer: [C]."):
        assert ok(row, good), good
    for bad in ("B", "D", "I would pick C", "", "blue or green"):
        assert not ok(row, bad), bad


def test_contains():
    row = {"id": "c", "answer": "Paris", "scorer": "contains"}
    assert ok(row, "Die Hauptstadt ist PARIS.")
    assert not ok(row, "Parisian food")
    assert not ok({"id": "c", "answer": "4", "scorer": "contains"}, "It is 14")
    assert ok({"id": "c", "answer": "4", "scorer": "contains"}, "It is 4 or so")
    assert ok({"id": "c", "answer": "北京", "scorer": "contains"}, "首都是北京市")
    assert ok({"id": "c", "answer": ["Köln", "Cologne"], "scorer": "contains"}, "It's cologne.")


def test_json():
    row = {"id": "j", "answer": {"a": 1, "b": [True, None, "x"]}, "scorer": "json"}
    assert ok(row, '```json\n{"b": [true, null, "x"], "a": 1.0}\n```')
    assert not ok(row, '{"a": 1, "b": [1, null, "x"]}')  # true is not 1
    assert not ok(row, '{"a": 1, "b": [true, null, "x"], "c": 0}')
    assert not ok(row, 'Here you go: {"a": 1, "b": [true, null, "x"]}')
    assert not ok(row, "{'a': 1}")


# --- instruction -------------------------------------------------------------------------


def test_instruction_scorer_calls_rules_py():
    rules = load_rules()
    assert scorers.RULES_PATH.name == "rules.py" and scorers.RULES_PATH.parent.name == "eval-instruction-v1"
    answer = {"all": [{"rule": "no_commas"}, {"rule": "word_count", "min": 3}]}
    row = {"id": "i", "answer": answer, "scorer": "instruction"}
    for text in ("one two three", "one, two, three", "two words", "<think>a, b</think> one two three"):
        assert ok(row, text) == rules.evaluate(answer, text)[0]
    result = score(row, "one, two")
    assert "no_commas" in result.detail and "word_count" in result.detail


def test_instruction_uses_the_raw_text():
    row = {"id": "i", "answer": {"all": [{"rule": "starts_with", "phrase": "Answer:"}]}, "scorer": "instruction"}
    assert ok(row, "Answer: fine")  # extraction would have removed the prefix


# --- tool_call ---------------------------------------------------------------------------

TOOLS_ROW = {
    "id": "t",
    "scorer": "tool_call",
    "answer": {"tool_call": {"name": "get_weather", "arguments": {"city": "Paris", "days": 3, "metric": True}}},
    "meta": {"tools": [{"type": "function", "function": {"name": "get_weather"}}]},
}


def call(name, arguments):
    return ModelOutput(tool_calls=[ToolCall(name=name, arguments=arguments)])


def test_tool_call_subset_match():
    assert ok(TOOLS_ROW, call("get_weather", '{"city": "  paris ", "days": 3.0, "metric": true}'))
    assert ok(TOOLS_ROW, call("get_weather", {"city": "PARIS", "days": "3", "metric": True, "lang": "fr"}))
    assert not ok(TOOLS_ROW, call("get_weather", {"city": "Paris", "days": 4, "metric": True}))
    assert not ok(TOOLS_ROW, call("get_weather", {"city": "Paris", "days": 3, "metric": 1}))
    assert not ok(TOOLS_ROW, call("get_weather", {"city": "Paris", "days": 3}))
    assert not ok(TOOLS_ROW, call("get_forecast", {"city": "Paris", "days": 3, "metric": True}))
    assert not ok(TOOLS_ROW, call("get_weather", "{not json"))
    assert not ok(TOOLS_ROW, "I would call get_weather for Paris.")


def test_tool_call_exact_match():
    row = {**TOOLS_ROW, "meta": {"arguments_match": "exact"}}
    assert ok(row, call("get_weather", {"city": "paris", "days": 3, "metric": True}))
    assert not ok(row, call("get_weather", {"city": "Paris", "days": 3, "metric": True, "lang": "fr"}))


def test_tool_call_null_means_no_call():
    row = {"id": "t0", "scorer": "tool_call", "answer": {"tool_call": None}}
    assert ok(row, "Paris is sunny today, no tool needed.")
    assert ok(row, None)
    assert not ok(row, call("get_weather", {}))


def test_openai_message_shapes_are_accepted():
    message = {
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps({"city": "Paris", "days": 3, "metric": True})},
            }
        ],
    }
    assert ok(TOOLS_ROW, message)
    assert as_output({"text": "hi"}).text == "hi"


def test_nested_arguments():
    row = {
        "id": "t",
        "scorer": "tool_call",
        "answer": {"tool_call": {"name": "f", "arguments": {"filter": {"tags": ["a", "B"], "min": 2}}}},
    }
    assert ok(row, call("f", {"filter": {"tags": ["A", "b"], "min": 2.0, "extra": 1}}))
    assert not ok(row, call("f", {"filter": {"tags": ["b", "a"], "min": 2}}))


# --- dispatch, failures -------------------------------------------------------------------


def test_row_scorer_wins_over_dataset_default():
    row = {"id": "r", "answer": "42", "scorer": "exact"}
    assert score(row, "42.0", "numeric").scorer == "exact"
    assert not ok(row, "42.0", "numeric")
    assert ok({"id": "r", "answer": "42"}, "42.0", "numeric")


def test_missing_or_unknown_scorer_is_a_dataset_bug():
    with pytest.raises(ValueError, match="no scorer"):
        score({"id": "x", "answer": "a"}, "a")
    with pytest.raises(ValueError, match="unknown scorer"):
        score({"id": "x", "answer": "a", "scorer": "fuzzy"}, "a")


def test_failed_request_is_incorrect_and_listed_apart():
    row = {"id": "f1", "answer": "a", "scorer": "exact"}
    failed = score(row, ModelOutput(error="HTTP 503"))
    assert failed.correct is False and failed.failed is True and failed.error == "HTTP 503"
    malformed = score(row, "I refuse.")
    assert malformed.correct is False and malformed.failed is False
    summary = summarize([failed, malformed, score(row, "a")])
    assert summary.total == 3 and summary.correct == 1 and summary.requests_failed == 1
    assert summary.failures == ["f1"] and summary.accuracy == pytest.approx(1 / 3)
    assert summary.by_scorer["exact"] == {"total": 3, "correct": 1, "failed": 1}


def test_rescore_checks_lengths():
    with pytest.raises(ValueError):
        scorers.rescore([{"id": "a", "answer": "x", "scorer": "exact"}], [])
    assert [s.correct for s in scorers.rescore([{"id": "a", "answer": "x", "scorer": "exact"}], ["x"])] == [True]


# --- code_exec / splice dispatch (the sandbox and the detector have their own tests) -----


def test_code_exec_scorer_runs_the_tests():
    row = {"id": "c", "scorer": "code_exec", "tests": "assert add(2, 3) == 5", "meta": {"limits": {"wall_seconds": 5, "cpu_seconds": 2}}}
    assert ok(row, "Sure:\n```python\ndef add(a, b):\n    return a + b\n```")
    wrong = score(row, "```python\ndef add(a, b):\n    return a - b\n```")
    assert not wrong.correct and "AssertionError" in (wrong.detail or "")


def test_splice_scorer_needs_context_identifiers():
    code = "import { loadConfig } from './config.js';\nexport function run() { return loadConfig(); }\n"
    row = {"id": "s", "scorer": "splice", "answer": "clean", "meta": {"context_identifiers": ["loadConfig", "saveReport"]}}
    assert ok(row, f"```js\n{code}```")
    assert not ok(row, code.replace("return loadConfig()", "return loadReport()"))
    with pytest.raises(ValueError):
        score({"id": "s", "scorer": "splice", "answer": "clean"}, code)


def test_an_engine_that_returns_nothing_scores_zero_on_longgen_integrity():
    rows = [json.loads(line) for line in (ROOT / "eval-longgen-integrity-v1" / "rows.jsonl").read_text().splitlines() if line]
    for reply, reason in (
        (None, "empty output"),
        ("", "empty output"),
        ("<think>planning the module", "empty output"),
        ("I'm sorry, but I can't write that module.", "no code"),
        ("```javascript\nexport const x = 1;\n```", "near-empty"),
    ):
        verdicts = [score(row, reply) for row in rows]
        assert not any(v.correct for v in verdicts), reply
        assert all(v.detail and v.detail.startswith(reason) for v in verdicts), (reply, verdicts[0].detail)
    assert all(score(row, row["meta"]["example_pass"]).correct for row in rows)


def test_each_scorer_module_registers_one_complete_scorer():
    import pkgutil

    from atlas_assets.corpus.scorers import Scorer

    modules = sorted(m.name for m in pkgutil.iter_modules(scorers.__path__) if not m.name.startswith("_"))
    owners = sorted(type(s).__module__.rsplit(".", 1)[1] for s in SCORERS.values())
    assert owners == modules  # one module, one scorer: a new scorer is one new module
    for name, scorer in SCORERS.items():
        assert scorer.name == name
        for method in ("judge", "reference", "perturb"):
            assert getattr(type(scorer), method) is not getattr(Scorer, method), (name, method)
