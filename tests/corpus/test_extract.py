"""The four extraction steps of the datasets spec, as a table, plus the scorer subsets."""

from __future__ import annotations

import pytest

from atlas_assets.corpus.extract import extract_answer, extract_code, strip_think, strip_wrapping

# (raw model output, extracted answer) -- generic scorers (exact, numeric, mc, contains, json)
CASES = [
    # step 1: think blocks
    ("<think>2+2 is 4, so</think>4", "4"),
    ("<THINK>\nlong\nreasoning\n</think>\n\nParis", "Paris"),
    ("<think>a</think>B<think>c</think>", "B"),
    ("<think>the output never closes its reasoning... Answer: 42", ""),
    ("   <think>unterminated leading block", ""),
    ("reasoning opened by the chat template</think>\nAnswer: 7", "7"),
    ("The tag <think> appears later and stays", "The tag <think> appears later and stays"),
    # step 2: code fences dropped, content kept
    ("```\n42\n```", "42"),
    ('```json\n{"a": 1}\n```', '{"a": 1}'),
    ("~~~text\nhello\n~~~", "hello"),
    ("Here:\n```python\nx = 1\n```", "Here:\nx = 1"),
    # step 3: the last answer line wins, capture only
    ("Let me think.\nAnswer: 42", "42"),
    ("answer: 1\nsome text\nFinal answer: 2", "2"),
    ("Final Answer - B", "B"),
    ("  ANSWER:  Paris  ", "Paris"),
    ("final answer:\tthe blue one.", "the blue one"),
    ("The answer is 42", "The answer is 42"),  # not an answer *line*: nothing to capture
    ("**Answer:** 42", "**Answer:** 42"),  # the spec's regex needs the word at line start
    ("Answer:", "Answer:"),  # no capture after the colon
    ("<think>Answer: 1</think>\nAnswer: 2", "2"),  # step 1 runs before step 3
    ("```\nAnswer: 9\n```", "9"),  # step 2 runs before step 3
    # step 4: whitespace, matching quotes, one trailing . or !
    ('  "Paris".  ', "Paris"),
    ('"Paris."', "Paris"),
    ("'yes'", "yes"),
    ("“quoted”", "quoted"),
    ("Paris.", "Paris"),
    ("Paris!!", "Paris!"),
    ("3.14", "3.14"),
    ("42.", "42"),
    ("...", ".."),
    ('"unbalanced', '"unbalanced'),
    ("'a' and 'b'", "a' and 'b"),  # the outer characters match; step 4 is purely lexical
    ("", ""),
]


@pytest.mark.parametrize("raw, expected", CASES)
def test_extraction_table(raw, expected):
    assert extract_answer(raw, "exact") == expected


@pytest.mark.parametrize("scorer", ["exact", "numeric", "mc", "contains", "json", None])
def test_generic_scorers_share_the_steps(scorer):
    assert extract_answer("<think>x</think>```\nAnswer: 'B'.\n```", scorer) == "B"


def test_instruction_gets_the_raw_text():
    raw = "<think>plan</think>\n```\nAnswer: \"x\".\n```\n"
    assert extract_answer(raw, "instruction") == raw


def test_splice_skips_the_answer_line_step():
    code = "<think>plan</think>```js\nconst answer = 1;\nanswer: for (;;) { break answer; }\n```"
    got = extract_answer(code, "splice")
    assert "answer: for" in got and "<think>" not in got and "```" not in got


def test_code_exec_takes_the_fenced_code_and_drops_prose():
    raw = "<think>hmm</think>Here is my solution:\n```python\nanswer: int = 3\ndef f():\n    return answer\n```\nIt returns 3."
    assert extract_answer(raw, "code_exec") == "answer: int = 3\ndef f():\n    return answer\n"


def test_code_exec_joins_several_blocks_and_accepts_bare_code():
    raw = "```python\nimport math\n```\nthen\n```\ndef g():\n    return math.pi\n```"
    assert extract_code(raw) == "import math\n\ndef g():\n    return math.pi\n"
    assert extract_code("def f():\n    return 1") == "def f():\n    return 1\n"
    assert extract_code("<think>all thought") == ""
    assert extract_code("```python\ndef unterminated():\n    pass\n") == "def unterminated():\n    pass\n"


def test_none_output_is_empty():
    assert extract_answer(None, "exact") == ""


def test_building_blocks():
    assert strip_think("x</think>y</think>z") == "yz"
    assert strip_wrapping(" 'B'! ") == "B"
