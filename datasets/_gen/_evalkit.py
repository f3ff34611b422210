"""Row building shared by the capability eval generators (standard library only).

Used by gen_eval_{math,reasoning,knowledge}_v1.py and the -v2 wave (math, reasoning,
knowledge, science, commonsense, security). It holds no content, only mechanics:

* `EvalSet.add` / `EvalSet.add_mc` build rows in the spec's eval schema, assign ids, refuse
  a repeated prompt, and check the answer against the row's scorer before accepting it
  (a numeric answer parses, an mc answer is the label of the one correct choice, an
  exact answer survives answer extraction unchanged);
* `number_answer` turns an exact Fraction into a numeric answer: an integer, an exact
  decimal string when the denominator has only the factors 2 and 5, otherwise a 12-place
  decimal with `meta.tolerance` 1e-6 and `meta.exact` "p/q", plus the sentence that tells
  the model which forms are accepted;
* `EvalSet.write` checks the difficulty spread and the unique-text rule, then emits the
  card through `_lib.eval_dataset_json` and the rows through `_lib.write_jsonl`.

Every generator keeps its own fixed seed and proves its own answers; this module only
refuses rows whose answer could not be scored as written.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import _lib

SECOND_WAVE_DATE = "2026-09-01"  # the -v2 wave (datasets specification, index)
SCORERS = ("exact", "numeric", "mc")
LABELS = "ABCDEFGH"
MC_INSTRUCTION = "Reply with the letter of the correct option only."
TOLERANCE = 1e-6


def norm(text: Any) -> str:
    """How the exact scorer compares: NFKC, case-folded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", str(text)).casefold().split())


def _survives_extraction(answer: str) -> bool:
    """An exact answer must come back unchanged from extraction step 4 (no surrounding
    quotes, no trailing . or !) and must not itself look like an Answer: line."""
    s = answer.strip()
    if s != answer or not s:
        return False
    if s.endswith((".", "!")) or s[0] in "\"'`“‘«„「":
        return False
    return not re.match(r"^\s*(?:final answer|answer)\s*[:\-]", s, re.I)


# --- numbers ---------------------------------------------------------------------------


def is_terminating(q: Fraction) -> bool:
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def decimal_string(q: Fraction, places: int | None = None) -> str:
    """The exact decimal expansion of a terminating fraction, or `q` rounded half away
    from zero to `places` decimals. No exponent, no trailing zeros."""
    sign = "-" if q < 0 else ""
    q = abs(q)
    if places is None:
        if not is_terminating(q):
            raise ValueError(f"{q} has no finite decimal expansion")
        places = 0
        while (q * 10**places).denominator != 1:
            places += 1
        scaled = int(q * 10**places)
    else:
        scaled = int(q * 10**places + Fraction(1, 2))
    whole, frac = divmod(scaled, 10**places) if places else (scaled, 0)
    text = str(whole)
    if places:
        digits = str(frac).rjust(places, "0").rstrip("0")
        if digits:
            text += "." + digits
    if text == "0":
        sign = ""
    return sign + text


def number_answer(q: Fraction | int) -> tuple[int | str, dict[str, Any], str]:
    """(answer, meta additions, answer-form sentence) for an exact value."""
    q = Fraction(q)
    if q.denominator == 1:
        return int(q), {}, "Reply with the number only."
    if is_terminating(q):
        return decimal_string(q), {"exact": f"{q.numerator}/{q.denominator}"}, "Reply with the number only (an exact decimal or fraction)."
    return (
        decimal_string(q, 12),
        {"exact": f"{q.numerator}/{q.denominator}", "tolerance": TOLERANCE},
        "Answer with a fraction a/b or a decimal to at least 6 places.",
    )


def sig_figs(x: float, figures: int = 4) -> str:
    """`x` rounded to `figures` significant figures, as a plain decimal string."""
    if x == 0:
        return "0"
    text = f"{x:.{figures}g}"
    if "e" in text or "E" in text:
        text = decimal_string(Fraction(float(text)).limit_denominator(10**15), 15)
    return text


# --- the set ---------------------------------------------------------------------------


class EvalSet:
    """Rows of one eval dataset, ids `<prefix>-0001` in insertion order."""

    def __init__(self, dataset_id: str, prefix: str):
        self.dataset_id = dataset_id
        self.prefix = prefix
        self.rows: list[dict[str, Any]] = []
        self._prompts: set[str] = set()
        self._passages: dict[bytes, str] = {}
        self._claimed: set[Any] = set()

    def claim(self, key: Any) -> None:
        """Reserve a question key (e.g. the question text without its answer options);
        raises Redraw when the same question was already asked in another form."""
        if key in self._claimed:
            raise Redraw(f"question already asked: {str(key)[:60]}")
        self._claimed.add(key)

    def _check(self, row: Mapping[str, Any]) -> None:
        scorer, answer = row["scorer"], row["answer"]
        assert scorer in SCORERS, row
        assert row["difficulty"] in _lib.DIFFICULTIES, row
        assert row["category"] and isinstance(row["category"], str), row
        if scorer == "exact":
            assert isinstance(answer, str) and _survives_extraction(answer), (row["id"], answer)
        elif scorer == "numeric":
            assert isinstance(answer, (int, str)) and not isinstance(answer, bool), (row["id"], answer)
            if isinstance(answer, str):
                assert re.fullmatch(r"-?\d+(?:\.\d+)?", answer), (row["id"], answer)
        else:
            choices = row["choices"]
            assert 2 <= len(choices) <= len(LABELS), row["id"]
            folded = [norm(c) for c in choices]
            assert len(set(folded)) == len(folded), (row["id"], choices)
            # a choice that is itself a bare label would read as that label: redraw
            if any(re.fullmatch(r"[(\[]?[a-z][)\].:]?", f) for f in folded):
                raise Redraw(f"a choice reads as a bare label: {choices}")
            assert answer in LABELS[: len(choices)], row["id"]

    def add(
        self,
        *,
        category: str,
        difficulty: str,
        prompt: str,
        answer: int | str,
        scorer: str,
        meta: Mapping[str, Any],
        choices: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        prompt = fix_articles(prompt)
        if prompt in self._prompts:
            raise DuplicatePrompt(prompt[:80])
        keys = _lib.passage_keys(prompt)
        clash = next((self._passages[k] for k in keys if k in self._passages), None)
        if clash is not None:  # the unique-text rule: redraw
            raise DuplicatePrompt(f"shares a passage with {clash}: {prompt[:80]}")
        row: dict[str, Any] = {
            "id": f"{self.prefix}-{len(self.rows) + 1:04d}",
            "category": category,
            "difficulty": difficulty,
            "prompt": prompt,
            "answer": answer,
            "scorer": scorer,
            "meta": dict(meta),
        }
        if choices is not None:
            row["choices"] = list(choices)
        self._check(row)
        self._prompts.add(prompt)
        for k in keys:
            self._passages[k] = row["id"]
        self.rows.append(row)
        return row

    def add_mc(
        self,
        rng: random.Random,
        *,
        category: str,
        difficulty: str,
        stem: str,
        correct: str,
        distractors: Iterable[str],
        meta: Mapping[str, Any],
        n: int = 4,
        keep_order: bool = False,
    ) -> dict[str, Any]:
        """An mc row: `correct` plus the first n-1 distinct distractors, shuffled (unless
        `keep_order`, e.g. for ordered numeric options), listed in the prompt as A) B) ..."""
        picked: list[str] = [correct]
        for d in distractors:
            if norm(d) not in {norm(p) for p in picked}:
                picked.append(d)
            if len(picked) == n:
                break
        if len(picked) < 2:
            raise ValueError(f"{self.dataset_id}: no distractor for {stem[:60]!r}")
        choices = list(picked)
        if not keep_order:
            rng.shuffle(choices)
        label = LABELS[choices.index(correct)]
        listing = "\n".join(f"{LABELS[i]}) {c}" for i, c in enumerate(choices))
        prompt = f"{stem}\n\n{listing}\n\n{MC_INSTRUCTION}"
        return self.add(
            category=category,
            difficulty=difficulty,
            prompt=prompt,
            answer=label,
            scorer="mc",
            choices=choices,
            meta={**meta, "correct_choice": correct},
        )

    def add_number(
        self, *, category: str, difficulty: str, question: str, value: Fraction | int, meta: Mapping[str, Any], form: str | None = None
    ) -> dict[str, Any]:
        """A numeric row whose prompt ends with the accepted answer forms."""
        answer, extra, sentence = number_answer(value)
        prompt = f"{question} {form or sentence}"
        return self.add(category=category, difficulty=difficulty, prompt=prompt, answer=answer, scorer="numeric", meta={**meta, **extra})

    # --- writing ---------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        cats = Counter(r["category"] for r in self.rows)
        diffs = Counter(r["difficulty"] for r in self.rows)
        scorers = Counter(r["scorer"] for r in self.rows)
        return {
            "categories": dict(sorted(cats.items())),
            "difficulties": {d: diffs[d] for d in _lib.DIFFICULTIES},
            "scorer_counts": dict(sorted(scorers.items())),
        }

    def write(
        self,
        out: Path,
        *,
        description: str,
        generator: str | Path,
        seed: int,
        default_scorer: str,
        date: str = _lib.FIRST_WAVE_DATE,
        inputs: Sequence[str | Path] = (),
        min_rows: int = 200,
        max_rows: int = 500,
    ) -> dict[str, Any]:
        rows = self.rows
        assert min_rows <= len(rows) <= max_rows, (self.dataset_id, len(rows))
        ids = [r["id"] for r in rows]
        assert len(set(ids)) == len(ids)
        summary = self.summary()
        for cat in summary["categories"]:
            for diff in _lib.DIFFICULTIES:
                assert any(r["category"] == cat and r["difficulty"] == diff for r in rows), (self.dataset_id, cat, diff)
        _lib.assert_unique_text((r["id"], r["prompt"]) for r in rows)
        here = Path(__file__).resolve()
        card = _lib.eval_dataset_json(
            dataset_id=self.dataset_id,
            description=description,
            generator=generator,
            seed=seed,
            rows=rows,
            date=date,
            default_scorer=default_scorer,
            inputs=[here, *inputs],
            extra=summary,
        )
        _lib.write_card(out / "dataset.json", card)
        _lib.write_jsonl(out / _lib.ROWS_FILE, rows)
        return card


class Redraw(ValueError):
    """Raised when a random draw is unusable (degenerate, or nothing left to ask)."""


class DuplicatePrompt(Redraw):
    """Raised by EvalSet.add for a prompt already in the set; generators redraw."""


def choose(rng: random.Random, seq: Sequence[Any]) -> Any:
    """rng.choice, raising Redraw on an empty sequence."""
    if not seq:
        raise Redraw("nothing to choose from")
    return rng.choice(seq)


def fill(S, rng: random.Random, categories: Mapping[str, Any], per_cell: int) -> None:
    """Add `per_cell` rows to S for every (category, difficulty), in that order; a
    category's families (a list, or one function) take turns; redrawn until fresh."""
    for cat, families in categories.items():
        families = families if isinstance(families, (list, tuple)) else (families,)
        for diff in _lib.DIFFICULTIES:
            for i in range(per_cell):
                family = families[i % len(families)]
                retry(lambda: family(S, rng, diff, cat))


def retry(make, attempts: int = 200):
    """Call make() until it does not raise Redraw (random redraws)."""
    last = None
    for _ in range(attempts):
        try:
            return make()
        except Redraw as error:
            last = error
    raise RuntimeError(f"could not draw a fresh item after {attempts} attempts; last: {last}")


# Given names for word problems, invented or common, chosen to be short and unambiguous.
NAMES = (
    "Ada", "Bela", "Cyrus", "Dara", "Emil", "Farah", "Gus", "Hana", "Ivo", "Jun", "Kira", "Luca",
    "Mila", "Nico", "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tove", "Uma", "Vik", "Wren", "Yara",
    "Zane", "Anouk", "Bram", "Cleo", "Dev", "Elin", "Femi", "Greta", "Hugo", "Ines", "Jalen", "Kofi",
)


def names(rng: random.Random, k: int) -> list[str]:
    return rng.sample(NAMES, k)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def join_and(items: Sequence[Any]) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def show_number(q: Fraction | int) -> str:
    """A value as text: the exact decimal when there is one, else the reduced fraction p/q."""
    q = Fraction(q)
    return decimal_string(q) if is_terminating(q) else f"{q.numerator}/{q.denominator}"


_AN_RE = re.compile(r"\b([Aa]) (?=(?:8[\d.]*|11|18)(?:\.\d+)?[\s-])")


def fix_articles(text: str) -> str:
    """'a 8 kg' -> 'an 8 kg', 'A 11 V' -> 'An 11 V' (numbers read with a leading vowel sound)."""
    return _AN_RE.sub(lambda m: m.group(1) + "n ", text)
