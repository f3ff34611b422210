"""autobench.blockyaml against PyYAML, the reference: whatever the fast reader returns is
what PyYAML returns for the same text, and whatever the writer writes reads back (with
PyYAML and with the fast reader) as the value written."""

from __future__ import annotations

import math
import random
from pathlib import Path
from unittest import mock

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autobench import blockyaml, yamlio

REPO = Path(__file__).resolve().parents[2]
LOADER = yaml.CSafeLoader if yamlio.WITH_LIBYAML else yaml.SafeLoader

# Text that exercises YAML 1.1's typing, indicators, escapes and line breaks.
TRICKY = [
    "yes",
    "no",
    "on",
    "Off",
    "null",
    "~",
    "1e5",
    "1.0e+5",
    "0o17",
    "017",
    "0x1F",
    "1_000",
    "12:30",
    "2026-01-01",
    "<<",
    "=",
    ".inf",
    "-",
    "- x",
    "a: b",
    "a #b",
    "a#b",
    "",
    " ",
    "\n",
    "x\n",
    "x\n\n",
    "\nx",
    " x\n",
    "a\n b\n",
    "a\tb\n",
    "'q'",
    '"dq"',
    "\\",
    "{a}",
    "[1]",
    "&a",
    "*a",
    "!t",
    "%d",
    "@x",
    "`x",
    "?",
    "? x",
    "|",
    ">",
    "\u2028",
    "\x85",
    "\x7f",
    "\ufeff",
    "\u00e9t\u00e9",
    "\U0001f600",
    "x" * 1100,
]
ALPHABET = list("ab yes0123.:-#'\"\\|>{}[],&*!%@`?~\t\n ") + ["\u00e9", "\u2028", "\x85", "\x7f", "x", "\u00a0"]
texts = st.one_of(
    st.text(st.sampled_from(ALPHABET), max_size=12),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8),
    st.sampled_from(TRICKY),
)
values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), texts),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)),
    max_leaves=20,
)
documents = st.dictionaries(texts, values, min_size=1, max_size=5)
PIECES = [
    " ",
    "-",
    ":",
    "#",
    "'",
    '"',
    "|",
    "{",
    "}",
    "[",
    "]",
    ",",
    "\n",
    "\t",
    "- ",
    ": ",
    "\n  ",
    "\n- ",
    " #",
    "|-\n",
    "---\n",
    "&a ",
    "*a",
    "?",
    "x",
    "\n\n",
    "  ",
    "yes",
    "1",
    "''",
    "\\",
    "|+\n",
    "!!str ",
]


def same(a, b) -> bool:
    """Equal JSON values, type for type (1 is not True, nan equals nan)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys(item)


def agrees_with_pyyaml(text: str) -> bool:
    """True when the fast reader read `text` (and then it must equal PyYAML's reading)."""
    try:
        fast = blockyaml.loads(text)
    except blockyaml.Unsupported:
        return False
    reference = yaml.load(text, Loader=LOADER)  # must not raise: the fast reader accepted it
    assert same(fast, reference), (text, fast, reference)
    return True


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents)
def test_what_is_written_reads_back_the_same_with_both_readers(doc):
    try:
        text = blockyaml.dumps(doc)
    except blockyaml.Unsupported:  # only a key too long for one line (then yamlio writes it with PyYAML)
        assert any(len(key) > 166 for key in keys(doc))
        assert same(yaml.load(yamlio.dump_yaml(doc), Loader=LOADER), doc)
        return
    assert same(yaml.load(text, Loader=LOADER), doc), text
    assert same(blockyaml.loads(text), doc), text


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents)
def test_long_sequences_written_as_json_lines_read_back_the_same(doc):
    with mock.patch.object(blockyaml, "JSON_ITEMS_FROM", 1):  # every collection item as one JSON line
        try:
            text = blockyaml.dumps(doc)
        except blockyaml.Unsupported:
            assert any(len(key) > 166 for key in keys(doc))
            return
    assert same(yaml.load(text, Loader=LOADER), doc), text
    assert same(blockyaml.loads(text), doc), text


def test_json_lines_that_pyyaml_reads_otherwise_take_the_general_path():
    lines = {
        '- {"a": 1e5}\n': {"a": "1e5"},  # PyYAML: a string (no dot); json: a float
        '- {"a": 1.5e3}\n': {"a": "1.5e3"},  # unsigned exponent
        '- {"a": 1.5e+3}\n': {"a": 1500.0},
        '- {"a": NaN}\n': {"a": "NaN"},
        '- {"a": "x\\/y"}\n': None,  # \/ : left to PyYAML, whatever it makes of it
        '- {"a": 1, "a": 2}\n': None,  # a duplicate key: PyYAML's path refuses it
    }
    for text, expected in lines.items():
        agrees_with_pyyaml(text)
        if expected is not None:
            assert blockyaml.loads(text) == [expected] == yaml.load(text, Loader=LOADER)
    with pytest.raises(blockyaml.Unsupported):
        blockyaml.loads('- {"a": 1, "a": 2}\n')
    with mock.patch.object(blockyaml, "JSON_ITEMS_FROM", 1):
        text = blockyaml.dumps({"x": [{"f": 1e16, "g": 1.5e-7, "s": "\u2028\x85"}]})
    assert "1e+16" not in text and yaml.load(text, Loader=LOADER) == {"x": [{"f": 1e16, "g": 1.5e-7, "s": "\u2028\x85"}]}


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(documents, st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(PIECES), st.booleans()), min_size=1, max_size=3))
def test_an_edited_document_is_read_as_pyyaml_reads_it_or_left_to_pyyaml(doc, edits):
    try:
        text = blockyaml.dumps(doc)
    except blockyaml.Unsupported:
        text = yamlio.dump_yaml(doc).decode("utf-8")
    for position, piece, delete in edits:
        position %= len(text) + 1
        text = text[:position] + text[position + len(piece) :] if delete else text[:position] + piece + text[position:]
    agrees_with_pyyaml(text)


def test_every_yaml_file_in_the_repository_and_its_mutations():
    rng = random.Random(7)
    read_fast = 0
    for path in sorted(p for p in REPO.rglob("*.y*ml") if ".venv" not in p.parts and "build" not in p.parts):
        text = path.read_text(encoding="utf-8")
        read_fast += agrees_with_pyyaml(text)
        for _ in range(60):
            edited = text
            for _ in range(rng.randint(1, 3)):
                at = rng.randint(0, len(edited))
                edited = (
                    edited[:at] + edited[at + rng.randint(1, 4) :] if rng.random() < 0.3 else edited[:at] + rng.choice(PIECES) + edited[at:]
                )
            agrees_with_pyyaml(edited)
    assert read_fast >= 5  # the autobench examples are in the fast subset


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchors and aliases
        "a: !!str 1\n",  # tags
        "a: >\n  folded\n",  # folded blocks
        "a: 'two\n  lines'\n",  # multi-line quoted
        "a: plain\n  continued\n",  # multi-line plain
        "a: 1\na: 2\n",  # duplicate keys (PyYAML's path refuses them)
        "a:\n\t- 1\n",  # a tab in the indentation
        "--- \na: 1\n",  # document markers
        "%YAML 1.1\n---\na: 1\n",  # directives
        'a: "\\ud83d"\n',  # a surrogate escape
        "? a\n: 1\n",  # explicit keys
        "a: |2\n   x\n",  # an indentation indicator
        "yes: 1\n",  # a key that is not a string
        "a: b: c\n",  # a mapping where a scalar was
        "a: 1\r\nb: 2\r\n",  # CR LF line breaks
        "a: \x85\n",  # a YAML 1.1 line break character
    ],
)
def test_outside_the_subset_is_left_to_pyyaml(text):
    with pytest.raises(blockyaml.Unsupported):
        blockyaml.loads(text)


@pytest.mark.parametrize(
    "text", ["- " * 5000 + "x\n", "a:\n" + "".join("  " * i + "- b:\n" for i in range(300)), "a: " + "[" * 5000 + "]" * 5000 + "\n"]
)
def test_deep_nesting_of_every_kind_is_a_one_line_refusal(text):
    with pytest.raises(blockyaml.Unsupported):
        blockyaml.loads(text)
    with pytest.raises(yamlio.YamlError, match="deep.yaml: not valid YAML: .*(nest|depth)"):
        yamlio.parse_yaml(text.encode(), "deep.yaml")


def test_yaml_1_1_typing_is_pyyaml_s():
    text = "a: yes\nb: 0o17\nc: 017\nd: 1_000\ne: 12:30\nf: 2026-01-01\ng: ~\nh: 1.5\ni: .inf\nj: '1'\nk: \"yes\"\nl: x y\n"
    assert agrees_with_pyyaml(text)
    assert blockyaml.loads(text)["c"] == 15 and blockyaml.loads(text)["e"] == 750


def test_the_writer_refuses_what_is_not_json_and_yamlio_falls_back_to_pyyaml():
    import datetime

    value = {"when": datetime.date(2026, 1, 1)}
    with pytest.raises(blockyaml.Unsupported):
        blockyaml.dumps(value)
    assert yaml.load(yamlio.dump_yaml(value), Loader=LOADER) == value


def test_yamlio_reads_the_fast_subset_and_explains_the_rest(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("a:\n- 1\n- {x: 'y', z: [1, 2]}\nb: |\n  two\n  lines\n", encoding="utf-8")
    assert yamlio.read_yaml(good) == ({"a": [1, {"x": "y", "z": [1, 2]}], "b": "two\nlines\n"}, None)
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: 1\nb: [1, 2\n", encoding="utf-8")
    with pytest.raises(yamlio.YamlError, match=r"bad\.yaml: not valid YAML: .*\(line \d+\)"):
        yamlio.read_yaml(bad)
