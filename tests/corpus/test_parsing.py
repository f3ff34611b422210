"""Property tests (hypothesis) for the numeric and multiple-choice parsers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from atlas_assets.corpus.parsing import choice_labels, parse_choice, parse_number, to_fraction
from atlas_assets.corpus.scorers import extract_answer

FAST = settings(max_examples=150, deadline=None)


def _grouped(n: int, sep: str) -> str:
    s = str(n)
    head = len(s) % 3 or 3
    return sep.join([s[:head]] + [s[i : i + 3] for i in range(head, len(s), 3)])


decimals = st.decimals(min_value=Decimal("-1e9"), max_value=Decimal("1e9"), places=4, allow_nan=False, allow_infinity=False)


@FAST
@given(
    st.integers(min_value=-(10**15), max_value=10**15),
    st.sampled_from(["", "+", "$", "€", "£"]),
    st.sampled_from(["", " km", "%", " apples"]),
)
def test_integers_round_trip_in_many_dresses(n, prefix, unit):
    sign = "-" if n < 0 else ("+" if prefix == "+" else "")
    currency = prefix if prefix not in ("", "+") else ""
    assert parse_number(f"{sign}{currency}{abs(n)}{unit}") == n
    if currency:
        assert parse_number(f"{currency}{sign}{abs(n)}{unit}") == n


@FAST
@given(st.integers(min_value=1000, max_value=10**12), st.sampled_from([",", " ", "'", "\u202f", "\u00a0"]))
def test_thousands_separators(n, sep):
    assert parse_number(_grouped(n, sep)) == n
    assert parse_number("-" + _grouped(n, sep)) == -n
    assert parse_number("\u2212" + _grouped(n, sep)) == -n


@FAST
@given(decimals)
def test_decimals_are_exact(d):
    text = format(d, "f")
    assert parse_number(text) == Fraction(text)
    assert parse_number(f"€ {text}") == Fraction(text)
    assert parse_number(f"\\boxed{{{text}}}") == Fraction(text)
    assert parse_number(f"${text}$") == Fraction(text)


@FAST
@given(decimals)
def test_scientific_notation(d):
    assume(d != 0)
    text = f"{d:e}"
    assert parse_number(text) == Fraction(Decimal(text))


@FAST
@given(st.integers(-(10**6), 10**6), st.integers(1, 10**6))
def test_ratios_and_latex_fractions(num, den):
    assert parse_number(f"{num}/{den}") == Fraction(num, den)
    sign = "-" if num < 0 else ""
    assert parse_number(f"{sign}\\frac{{{abs(num)}}}{{{den}}}") == Fraction(num, den)


@FAST
@given(st.text(alphabet="abcxyz .,-", min_size=1, max_size=12))
@example("the answer is 42")
@example("42 and 43")
@example("4 2")
@example("1,23,456")
@example("-")
@example("1/0")
@example("e5")
def test_non_numbers_are_rejected(text):
    # words, two numbers, bad grouping, a lone sign: never a number
    assert parse_number(text) is None


@pytest.mark.parametrize(
    "text, value",
    [
        ("3,5", Fraction(7, 2)),
        ("2,75", Fraction(11, 4)),
        ("3,500", 3500),
        (".5", Fraction(1, 2)),
        ("5.", 5),
        ("1.5e3", 1500),
        ("1E-2", Fraction(1, 100)),
        ("+7", 7),
        ("-$12.50", Fraction(-25, 2)),
        ("12 %", 12),
        ("$$\\frac{3}{4}$$", Fraction(3, 4)),
        ("\\(0.25\\)", Fraction(1, 4)),
        ("\\boxed{1{,}000}", 1000),
        ("42 m/s", 42),
    ],
)
def test_number_examples(text, value):
    assert parse_number(text) == value


def test_to_fraction_reads_row_answers():
    assert to_fraction(0.1) == Fraction(1, 10)
    assert to_fraction("2.50") == Fraction(5, 2)
    assert to_fraction(True) is None
    assert to_fraction(float("nan")) is None


@FAST
@given(st.integers(2, 26), st.data())
def test_choice_labels_in_every_dress(n, data):
    choices = [f"choice number {i}" for i in range(n)]
    labels = choice_labels(n)
    label = data.draw(st.sampled_from(labels))
    text = choices[labels.index(label)]
    dress = data.draw(
        st.sampled_from(
            [
                "{L}",
                "({L})",
                "[{L}]",
                "{L})",
                "{L}.",
                "{l}",
                "Option {L}",
                "{L}) {T}",
                "{L}. {T}",
                "{L}: {T}",
                "({L}) {T}",
                "{T}",
                "Answer: {L}",
            ]
        )
    )
    raw = dress.format(L=label, l=label.lower(), T=text)
    assert parse_choice(extract_answer(raw, "mc"), choices) == label


@FAST
@given(st.integers(2, 6), st.text(alphabet="abcdefghij klm", min_size=2, max_size=20))
def test_choice_rejects_prose_and_out_of_range(n, prose):
    choices = [f"opt{i}" for i in range(n)]
    assert parse_choice("I think " + prose, choices) is None
    assert parse_choice("Z", choices) is None
    assert parse_choice("", choices) is None


def test_choice_examples():
    choices = ["Paris", "Lyon", "Nice", "Lille"]
    assert parse_choice("a cat", choices) is None  # an article, not a label
    assert parse_choice("paris", choices) == "A"
    assert parse_choice("B) Paris", choices) == "B"  # the label decides, not the text
    assert parse_choice("E", choices) is None
