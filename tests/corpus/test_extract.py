"""The four extraction steps of the datasets spec, as a table, the scorer subsets, and
property tests against plain line-by-line and tag-stack reference implementations."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas_assets.corpus.extract import EXTRACTIONS, answer_line, extract_code, strip_think, strip_wrapping
from atlas_assets.corpus.scorers import SCORERS, extract_answer

# (raw model output, extracted answer) -- generic scorers (exact, numeric, mc, contains, json)
CASES = [
    # step 1: think blocks
    ("<think>2+2 is 4, so</think>4", "4"),
    ("<THINK>\nlong\nreasoning\n</think>\n\nParis", "Paris"),
    ("<think>a</think>B<think>c</think>", "B"),
    ("<think>the output never closes its reasoning... Answer: 42", ""),
    ("   <think>unterminated leading block", ""),
    ("reasoning opened by the chat template</think>\nAnswer: 7", "7"),
    ("Paris <think>a second thought that never ends", "Paris"),  # unterminated later block: dropped to the end
    ("<think>outer <think>inner</think> still outer</think>Answer: 5", "5"),  # nested
    ("<think>a<think>b</think>c</think>d", "d"),
    ("<think>one</think>Answer: 1\n<think>two</think>\nAnswer: 2", "2"),  # several blocks
    ("<think>x</think>Answer: 3</think>", "3"),  # a stray closing tag is removed alone
    # step 2: code fences dropped, content kept
    ("```\n42\n```", "42"),
    ('```json\n{"a": 1}\n```', '{"a": 1}'),
    ("~~~text\nhello\n~~~", "hello"),
    ("Here:\n```python\nx = 1\n```", "Here:\nx = 1"),
    # step 3: the last answer line wins, capture only, one line at a time
    ("Let me think.\nAnswer: 42", "42"),
    ("answer: 1\nsome text\nFinal answer: 2", "2"),
    ("Final Answer - B", "B"),
    ("  ANSWER:  Paris  ", "Paris"),
    ("final answer:\tthe blue one.", "the blue one"),
    ("The answer is 42", "The answer is 42"),  # not an answer *line*: nothing to capture
    ("**Answer:** 42", "**Answer:** 42"),  # the spec's regex needs the word at line start
    ("Answer:", "Answer:"),  # no capture after the colon
    ("Answer:\nFinal answer: 9", "9"),  # a bare Answer: line does not swallow the next line
    ("Answer:\n42", "Answer:\n42"),  # ...nor reach the value below it: no line matches
    ("Answer: 8\nAnswer:\n", "8"),  # the last *matching* line wins
    ("Answer: 4\r\nmore\r\n", "4"),  # CRLF: the \r goes with step 4's whitespace strip
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


@pytest.mark.parametrize("scorer", ["exact", "numeric", "mc", "contains", "json"])
def test_generic_scorers_share_the_steps(scorer):
    assert extract_answer("<think>x</think>```\nAnswer: 'B'.\n```", scorer) == "B"


def test_every_scorer_names_a_known_extraction():
    assert {s.extraction.name for s in SCORERS.values()} <= set(EXTRACTIONS)
    assert {n: s.extraction.name for n, s in SCORERS.items()} == {
        "exact": "answer",
        "numeric": "answer",
        "mc": "answer",
        "contains": "answer",
        "json": "answer",
        "instruction": "raw",
        "splice": "source",
        "code_exec": "code",
        "tool_call": "none",
    }


def test_instruction_gets_the_raw_text():
    raw = '<think>plan</think>\n```\nAnswer: "x".\n```\n'
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
    assert extract_answer(None, "instruction") == ""


def test_building_blocks():
    assert strip_think("x</think>y</think>z") == "yz"
    assert strip_wrapping(" 'B'! ") == "B"


def test_unknown_scorer_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown scorer 'nope'"):
        extract_answer("x", "nope")


# --- property tests against independent reference implementations -----------------------

SPEC_PATTERN = r"^\s*(?:final answer|answer)\s*[:\-]\s*(.+)$"


def reference_answer_line(text: str) -> str | None:
    """The spec read literally: look at each line on its own; the last match wins."""
    found = None
    for line in text.split("\n"):
        m = re.match(SPEC_PATTERN, line, flags=re.IGNORECASE | re.DOTALL)
        if m:
            found = m.group(1)
    return found


def reference_strip_think(text: str) -> str:
    """A character-by-character tag stack, written independently of extract.py."""
    lower = text.lower()
    out: list[str] = []
    depth, i, tag_seen = 0, 0, False
    while i < len(text):
        if lower.startswith("<think", i) and re.match(r"<think\b[^>]*>", lower[i:]):
            i += re.match(r"<think\b[^>]*>", lower[i:]).end()
            depth += 1
            tag_seen = True
        elif lower.startswith("</think", i) and re.match(r"</think\s*>", lower[i:]):
            i += re.match(r"</think\s*>", lower[i:]).end()
            if depth:
                depth -= 1
            elif not tag_seen:
                out.clear()
            tag_seen = True
        else:
            if depth == 0:
                out.append(text[i])
            i += 1
    return "".join(out)


LINE_PIECES = st.sampled_from(
    [
        "Answer:",
        "answer: 7",
        "Final answer - B",
        "FINAL ANSWER:",
        " answer :x",
        "text",
        "",
        " ",
        "\t",
        "Answer: ",
        "final answer:\t\tq",
        "answers: no",
        "The answer: 3",
        "\r",
        "x\r",
        "Answer:\r",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(LINE_PIECES, st.text(alphabet="aA:-\t \r", max_size=8)), max_size=8))
def test_answer_line_matches_a_line_by_line_reading(lines):
    text = "\n".join(lines)
    assert answer_line(text) == reference_answer_line(text)


THINK_PIECES = st.sampled_from(["<think>", "</think>", "<THINK x=1>", "</think >", "a", "Answer: 1", "\n", " ", "b<", ">"])


@settings(max_examples=400, deadline=None)
@given(st.lists(THINK_PIECES, max_size=12))
def test_think_stripping_matches_a_tag_stack(pieces):
    text = "".join(pieces)
    assert strip_think(text) == reference_strip_think(text)
