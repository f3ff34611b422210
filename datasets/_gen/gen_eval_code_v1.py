# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-code-v1: small Python functions with hidden tests, scored by `code_exec`.

Each row's prompt specifies one function (or one small class) -- name, signature,
behaviour, two worked examples -- and asks for the code only. `tests` is Python source run
after the model's program in the same namespace (see atlas_assets/corpus/sandbox.py):
plain `assert` statements. 31 task families (10 easy, 10 medium, 11 hard), 10 variants
each; a variant changes the behaviour through parameters (divisors, directions, bracket
sets, tie-break rules, weekend days, cost models, delimiters, ...), so two rows of a
family are different problems, not reworded ones.

The proof, per row:

1. every expected value in `tests` (and in the prompt's examples) comes from an *oracle*
   written independently of the reference solution -- brute force over subsets or
   permutations, the `csv` module, Python's own expression evaluator, a step-by-step
   simulation, a closed formula;
2. the reference solution (`answer`, what the corpus test feeds the scorer as the right
   output) is *executed* against the tests and must pass;
3. a plausible broken solution (`meta.broken`: an off-by-one, a missed edge case, the
   wrong tie-break or direction; `meta.broken_how` says which) is executed against the
   same tests and must fail -- the tests discriminate.

Execution in the generator: the generator must stay standard-library only (PEP 723,
`dependencies = []`), and atlas_assets/corpus/sandbox.py needs pydantic, so steps 2-3 run
in one child interpreter started like the sandbox's (`python -I -S -B`, scrubbed
environment, a scratch working directory) that forks once per program and applies the
sandbox's default limits before executing it (RLIMIT_CPU 5 s, RLIMIT_AS 512 MiB,
RLIMIT_FSIZE 8 MiB, RLIMIT_NOFILE 64, no core dumps, a 10 s alarm) with the same contract
(program as module "solution", then the tests, pass iff both complete). The real sandbox
proves the same on the committed rows in tests/corpus/test_g2_suites.py (references pass,
broken versions fail) and in tests/corpus/test_reference_answers.py.

    python datasets/_gen/gen_eval_code_v1.py [--out DIR]
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import itertools
import json
import math
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402

DATASET_ID = "eval-code-v1"
SEED = 5_600_101
VARIANTS = 10
LIMITS = {"cpu_seconds": 5, "memory_bytes": 512 * 2**20, "max_file_bytes": 8 * 2**20, "max_open_files": 64, "wall_seconds": 10}


@dataclass
class Task:
    name: str  # function or class name
    signature: str  # e.g. "sum_multiples(n)"
    spec: str  # behaviour, one or more sentences
    reference: str
    broken: str
    broken_how: str
    cases: list[tuple[tuple, Any]] = field(default_factory=list)  # (args, expected) from the oracle
    tests: str | None = None  # custom tests (classes); else built from cases
    examples: list[str] = field(default_factory=list)  # custom example lines
    oracle: str = ""


def call_repr(name: str, args: tuple) -> str:
    return f"{name}({', '.join(repr(a) for a in args)})"


# ==== easy =====================================================================================


def fam_sum_multiples(rng: random.Random, i: int) -> Task:
    a, b = sorted(rng.sample([2, 3, 4, 5, 6, 7, 9, 11, 13], 2))
    while b % a == 0:
        a, b = sorted(rng.sample([2, 3, 4, 5, 6, 7, 9, 11, 13], 2))
    name = f"sum_multiples_{a}_{b}"
    ref = f"def {name}(n):\n    return sum(k for k in range(1, n) if k % {a} == 0 or k % {b} == 0)\n"
    broken = f"def {name}(n):\n    return sum(k for k in range(1, n + 1) if k % {a} == 0 or k % {b} == 0)\n"

    def oracle(n: int) -> int:
        s = lambda d: d * ((n - 1) // d) * ((n - 1) // d + 1) // 2 if n > 0 else 0  # noqa: E731
        return s(a) + s(b) - s(a * b // math.gcd(a, b))

    ns = [0, 1, rng.randrange(10, 60), a * b, rng.randrange(100, 1000), a, b, rng.randrange(1000, 5000)]
    return Task(name, f"{name}(n)", f"returns the sum of all positive integers strictly below n that are divisible by {a} or by {b} (0 when there are none).",
                ref, broken, "counts n itself (range up to n inclusive)", [((n,), oracle(n)) for n in ns], oracle="inclusion-exclusion closed formula")


def fam_count_chars(rng: random.Random, i: int) -> Task:
    chars = rng.choice(["aeiou", "xyz", "rstln", "bcd", "mnp", "aeiouy", "qwj", "hkv"])
    insensitive = i % 2 == 0
    name = f"count_{chars}"
    if insensitive:
        spec = f"returns how many characters of the string s are one of the letters {', '.join(chars)}, ignoring case (so upper-case letters count too)."
        ref = f"def {name}(s):\n    return sum(1 for c in s.lower() if c in {chars!r})\n"
        broken = f"def {name}(s):\n    return sum(1 for c in s if c in {chars!r})\n"
        how = "forgets to ignore case"
    else:
        spec = f"returns how many characters of the string s are one of the lower-case letters {', '.join(chars)}; upper-case letters do not count."
        ref = f"def {name}(s):\n    return sum(1 for c in s if c in {chars!r})\n"
        broken = f"def {name}(s):\n    return sum(1 for c in s.lower() if c in {chars!r})\n"
        how = "counts upper-case letters too"
    pool = chars + chars.upper() + "abcdefghijklmnopqrstuvwxyz ABCXYZ.,!"

    def oracle(s: str) -> int:
        counts = Counter(s.lower() if insensitive else s)
        return sum(counts[c] for c in set(chars))

    inputs = ["", chars.upper()] + ["".join(rng.choice(pool) for _ in range(rng.randrange(5, 30))) for _ in range(4)] + [chars]
    return Task(name, f"{name}(s)", spec, ref, broken, how, [((s,), oracle(s)) for s in inputs], oracle="collections.Counter")


def fam_rotate(rng: random.Random, i: int) -> Task:
    left = i % 2 == 0
    name = f"rotate_{'left' if left else 'right'}"
    direction = "left (the first k items move to the end)" if left else "right (the last k items move to the front)"
    spec = f"returns a new list: items rotated {direction}. The shift k may be larger than the list (rotation wraps around), and an empty list gives []."
    body = "items[k:] + items[:k]" if left else "items[-k:] + items[:-k] if k else list(items)"
    ref = f"def {name}(items, k):\n    if not items:\n        return []\n    k %= len(items)\n    return {body}\n"
    broken = f"def {name}(items, k):\n    if not items:\n        return []\n    return {body}\n"

    def oracle(items: list, k: int) -> list:
        out = list(items)
        for _ in range(k):
            if out:
                out = out[1:] + out[:1] if left else out[-1:] + out[:-1]
        return out

    cases = []
    for n, k in [(0, 3), (1, 5), (5, 2), (5, 5), (6, 13), (rng.randrange(3, 9), rng.randrange(9, 30)), (4, 0)]:
        items = [rng.randrange(0, 50) for _ in range(n)]
        cases.append(((items, k), oracle(items, k)))
    return Task(name, f"{name}(items, k)", spec, ref, broken, "no wrap-around: k larger than the list is not reduced", cases, oracle="k single-step rotations")


def fam_fizz(rng: random.Random, i: int) -> Task:
    a, b = rng.sample([2, 3, 4, 5, 7], 2)
    w1, w2 = rng.sample(["Fizz", "Buzz", "Bang", "Pop", "Zap", "Ping", "Boom"], 2)
    name = f"say_{w1.lower()}_{w2.lower()}"
    spec = f"returns '{w1}{w2}' when n is divisible by both {a} and {b}, '{w1}' when only by {a}, '{w2}' when only by {b}, and otherwise str(n)."
    ref = f"def {name}(n):\n    out = ''\n    if n % {a} == 0:\n        out += {w1!r}\n    if n % {b} == 0:\n        out += {w2!r}\n    return out or str(n)\n"
    broken = f"def {name}(n):\n    if n % {a} == 0:\n        return {w1!r}\n    if n % {b} == 0:\n        return {w2!r}\n    return str(n)\n"

    def oracle(n: int) -> str:
        table = {(True, True): w1 + w2, (True, False): w1, (False, True): w2, (False, False): str(n)}
        return table[(n % a == 0, n % b == 0)]

    ns = [1, a, b, a * b, 2 * a * b, rng.randrange(11, 99), rng.randrange(100, 999)]
    return Task(name, f"{name}(n)", spec, ref, broken, "checks the single divisors first, so a multiple of both returns only the first word", [((n,), oracle(n)) for n in ns], oracle="lookup table on the two divisibility tests")


def fam_digit_sum(rng: random.Random, i: int) -> Task:
    base = [2, 3, 5, 6, 7, 8, 9, 12, 16, 4][i]
    name = f"digit_sum_base{base}"
    spec = f"returns the sum of the digits of the non-negative integer n written in base {base} (digit values, so in base 16 the digit f counts 15)."
    ref = f"def {name}(n):\n    total = 0\n    while n > 0:\n        n, d = divmod(n, {base})\n        total += d\n    return total\n"
    broken = f"def {name}(n):\n    total = 0\n    while n >= {base}:\n        n, d = divmod(n, {base})\n        total += d\n    return total\n"

    def oracle(n: int) -> int:
        digits, power = [], 1
        while power * base <= n:
            power *= base
        while power >= 1:
            d = n // power
            digits.append(d)
            n -= d * power
            power //= base
        return sum(digits)

    ns = [0, 1, base - 1, base, base**3 + 1, rng.randrange(100, 10**6), rng.randrange(10**6, 10**9)]
    return Task(name, f"{name}(n)", spec, ref, broken, "stops one digit early (loop condition n >= base)", [((n,), oracle(n)) for n in ns], oracle="greedy powers of the base")


def fam_palindrome(rng: random.Random, i: int) -> Task:
    digits = i % 2 == 0
    name = "is_palindrome_alnum" if digits else "is_palindrome_letters"
    keep = "letters and digits" if digits else "letters (digits are ignored too)"
    spec = f"returns True when the string s reads the same forwards and backwards. Compare {keep} only, ignoring case, spaces and punctuation."
    cond = "c.isalnum()" if digits else "c.isalpha()"
    ref = f"def {name}(s):\n    kept = [c.lower() for c in s if {cond}]\n    return kept == kept[::-1]\n"
    broken = f"def {name}(s):\n    kept = [c for c in s if {cond}]\n    return kept == kept[::-1]\n"

    def oracle(s: str) -> bool:
        kept = [c.lower() for c in s if (c.isalnum() if digits else c.isalpha())]
        i_, j = 0, len(kept) - 1
        while i_ < j:
            if kept[i_] != kept[j]:
                return False
            i_, j = i_ + 1, j - 1
        return True

    def pal() -> str:
        w = "".join(rng.choice("abcdefgh") for _ in range(rng.randrange(2, 6)))
        return w + rng.choice(["", "x"]) + w[::-1]

    p = pal()
    inputs = ["", "A", f"{p[0].upper()}{p[1:]}", f"{p[:2]}, {p[2:]}!", "ab" + "1" + "ba", "Ab1c2Ba" if digits else "Ab1c2bA", pal() + "q", "No lemon, no melon"]
    return Task(name, f"{name}(s)", spec, ref, broken, "forgets to fold case", [((s,), oracle(s)) for s in inputs], oracle="two-pointer comparison")


def fam_chunk(rng: random.Random, i: int) -> Task:
    mode = ["keep", "drop", "pad"][i % 3]
    fill = rng.choice([0, None, "-", -1])
    name = {"keep": "chunks", "drop": "full_chunks", "pad": "padded_chunks"}[mode]
    if mode == "keep":
        spec = "splits the list items into consecutive chunks of length size (size >= 1) and returns the list of chunks. The last chunk may be shorter."
        ref = f"def {name}(items, size):\n    return [items[i:i + size] for i in range(0, len(items), size)]\n"
        broken = f"def {name}(items, size):\n    return [items[i:i + size] for i in range(0, len(items) - size + 1, size)]\n"
        how = "drops a short last chunk"
    elif mode == "drop":
        spec = "splits the list items into consecutive chunks of length size (size >= 1) and returns only the complete chunks. Leftover items at the end are dropped."
        ref = f"def {name}(items, size):\n    return [items[i:i + size] for i in range(0, len(items) - size + 1, size)]\n"
        broken = f"def {name}(items, size):\n    return [items[i:i + size] for i in range(0, len(items), size)]\n"
        how = "keeps the incomplete last chunk"
    else:
        spec = f"splits the list items into consecutive chunks of length size (size >= 1). A short last chunk is padded with {fill!r} up to length size."
        ref = f"def {name}(items, size):\n    out = [items[i:i + size] for i in range(0, len(items), size)]\n    if out and len(out[-1]) < size:\n        out[-1] = out[-1] + [{fill!r}] * (size - len(out[-1]))\n    return out\n"
        broken = f"def {name}(items, size):\n    return [items[i:i + size] for i in range(0, len(items), size)]\n"
        how = "does not pad the last chunk"

    def oracle(items: list, size: int) -> list:
        out: list[list] = []
        for x in items:
            if not out or len(out[-1]) == size:
                out.append([])
            out[-1].append(x)
        if out and len(out[-1]) < size:
            if mode == "drop":
                out.pop()
            elif mode == "pad":
                out[-1] += [fill] * (size - len(out[-1]))
        return out

    cases = []
    for n, size in [(0, 2), (6, 3), (7, 3), (5, 1), (3, 5), (rng.randrange(8, 20), rng.randrange(2, 6))]:
        items = [rng.randrange(1, 99) for _ in range(n)]
        cases.append(((items, size), oracle(items, size)))
    return Task(name, f"{name}(items, size)", spec, ref, broken, how, cases, oracle="item-by-item accumulation")


def fam_rle(rng: random.Random, i: int) -> Task:
    style = ["count_first", "char_first", "omit_one"][i % 3]
    name = {"count_first": "rle_count_char", "char_first": "rle_char_count", "omit_one": "rle_compact"}[style]
    spec = {
        "count_first": "run-length encodes the string s. Each run of a repeated character becomes the run length followed by the character.",
        "char_first": "run-length encodes the string s. Each run of a repeated character becomes the character followed by the run length.",
        "omit_one": "run-length encodes the string s. Each run becomes the run length followed by the character, but a run of length 1 is just the character.",
    }[style] + " The empty string encodes to ''. Characters are letters only."
    piece = {"count_first": "str(n) + c", "char_first": "c + str(n)", "omit_one": "(str(n) if n > 1 else '') + c"}[style]
    ref = (f"def {name}(s):\n    out = []\n    i = 0\n    while i < len(s):\n        j = i\n        while j < len(s) and s[j] == s[i]:\n            j += 1\n"
           f"        c, n = s[i], j - i\n        out.append({piece})\n        i = j\n    return ''.join(out)\n")
    broken = (f"def {name}(s):\n    out = []\n    n = 1\n    for k in range(1, len(s)):\n        if s[k] == s[k - 1]:\n            n += 1\n        else:\n            c = s[k - 1]\n"
              f"            out.append({piece})\n            n = 1\n    return ''.join(out)\n")

    def oracle(s: str) -> str:
        parts = []
        for c, grp in itertools.groupby(s):
            n = len(list(grp))
            parts.append({"count_first": f"{n}{c}", "char_first": f"{c}{n}", "omit_one": (f"{n}" if n > 1 else "") + c}[style])
        return "".join(parts)

    inputs = ["", "a", "".join(rng.choice("xyz") * rng.randrange(1, 5) for _ in range(6)), "".join(rng.choice("pq") * rng.randrange(1, 13) for _ in range(4)), "aaab", "abc"]
    return Task(name, f"{name}(s)", spec, ref, broken, "never emits the final run", [((s,), oracle(s)) for s in inputs], oracle="itertools.groupby")


def fam_kth_largest(rng: random.Random, i: int) -> Task:
    k = [2, 3][i % 2]
    word = {2: "second", 3: "third"}[k]
    name = f"{word}_largest"
    spec = f"returns the {word} largest distinct value in the list nums, where repeated values count once. Return None when nums has fewer than {k} distinct values."
    ref = f"def {name}(nums):\n    values = sorted(set(nums), reverse=True)\n    return values[{k - 1}] if len(values) >= {k} else None\n"
    broken = f"def {name}(nums):\n    values = sorted(nums, reverse=True)\n    return values[{k - 1}] if len(values) >= {k} else None\n"

    def oracle(nums: list) -> Any:
        rest = list(nums)
        for _ in range(k - 1):
            if not rest:
                return None
            top = max(rest)
            rest = [x for x in rest if x != top]
        return max(rest) if rest else None

    top = rng.randrange(50, 100)
    inputs = [[], [5], [top, top, top - 3, 1], [4, 4, 4], [rng.randrange(-20, 20) for _ in range(8)], [top, top, top - 1, top - 1, top - 2, 0]]
    return Task(name, f"{name}(nums)", spec, ref, broken, "does not remove duplicates", [((x,), oracle(x)) for x in inputs], oracle="repeatedly drop the maximum")


SMALL_WORD_SETS = [["a", "an", "the", "of"], ["and", "or", "of", "in"], ["to", "the", "on", "at"], ["a", "of", "by", "for"], ["the", "in", "with"]]


def fam_title_case(rng: random.Random, i: int) -> Task:
    small = SMALL_WORD_SETS[i % len(SMALL_WORD_SETS)]
    name = "headline"
    spec = ("returns the string s (words separated by single spaces) with every word capitalised: first letter upper-case, the rest lower-case. "
            f"The words {', '.join(small)} stay all lower-case unless they are the first word.")
    small_set = "{" + ", ".join(repr(w) for w in sorted(small)) + "}"  # not repr(set): its order follows the hash seed
    ref = (f"SMALL = {small_set}\n\ndef {name}(s):\n    words = s.split(' ')\n    out = []\n    for i, w in enumerate(words):\n"
           f"        lw = w.lower()\n        out.append(lw if i > 0 and lw in SMALL else lw.capitalize())\n    return ' '.join(out)\n")
    broken = (f"SMALL = {small_set}\n\ndef {name}(s):\n    return ' '.join(w.lower() if w.lower() in SMALL else w.lower().capitalize() for w in s.split(' '))\n")

    def oracle(s: str) -> str:
        out = []
        for idx, w in enumerate(s.split(" ")):
            lw = w.lower()
            out.append(lw if idx and lw in small else (lw[:1].upper() + lw[1:]))
        return " ".join(out)

    vocab = ["river", "LIGHT", "stone", "garden", "Winter", "quiet", "harbour", "MAP"]
    inputs = [f"{small[0]} {rng.choice(vocab)} {small[-1]} {rng.choice(vocab)}", " ".join(rng.sample(vocab, 3)), f"{rng.choice(vocab)} {small[1].upper()} {rng.choice(vocab)}", small[0], f"{small[-1].capitalize()} {small[0]} {rng.choice(vocab)}"]
    return Task(name, f"{name}(s)", spec, ref, broken, "keeps a small word lower-case even as the first word", [((s,), oracle(s)) for s in inputs], oracle="word-by-word rule")


# ==== medium =================================================================================


def fam_merge_intervals(rng: random.Random, i: int) -> Task:
    mode = ["overlap_or_touch", "strict_overlap", "adjacent_ints"][i % 3]
    name = "merge_intervals"
    rule = {
        "overlap_or_touch": "Two intervals merge when they overlap or touch, so [1, 3] and [3, 5] become [1, 5].",
        "strict_overlap": "Two intervals merge only when they share more than an end point: [1, 3] and [3, 5] stay separate, [1, 4] and [3, 5] become [1, 5].",
        "adjacent_ints": "The intervals are sets of integers, so two intervals merge when they overlap or are adjacent: [1, 3] and [4, 6] become [1, 6].",
    }[mode]
    cond = {"overlap_or_touch": "s <= out[-1][1]", "strict_overlap": "s < out[-1][1]", "adjacent_ints": "s <= out[-1][1] + 1"}[mode]
    spec = f"merges a list of [start, end] pairs (integers, start <= end, in any order) and returns a list of [start, end] lists sorted by start. {rule}"
    ref = (f"def {name}(intervals):\n    out = []\n    for s, e in sorted(intervals):\n        if out and {cond}:\n            out[-1][1] = max(out[-1][1], e)\n"
           f"        else:\n            out.append([s, e])\n    return out\n")
    broken = (f"def {name}(intervals):\n    out = []\n    for s, e in intervals:\n        if out and {cond}:\n            out[-1][1] = max(out[-1][1], e)\n"
              f"        else:\n            out.append([s, e])\n    return out\n")

    def oracle(intervals: list) -> list:
        # merge any two groups the rule joins, until nothing changes (no sorting involved)
        groups = [list(iv) for iv in intervals]
        changed = True
        while changed:
            changed = False
            for a, b in itertools.combinations(range(len(groups)), 2):
                (s1, e1), (s2, e2) = groups[a], groups[b]
                lo, hi = max(s1, s2), min(e1, e2)
                joined = {"overlap_or_touch": lo <= hi, "strict_overlap": lo < hi, "adjacent_ints": lo <= hi + 1}[mode]
                if joined:
                    groups[a] = [min(s1, s2), max(e1, e2)]
                    del groups[b]
                    changed = True
                    break
        return sorted(groups)

    cases = []
    for n in (0, 1, 3, 5, 6, 8):
        while True:
            ivs = []
            for _ in range(n):
                s = rng.randrange(0, 30)
                ivs.append([s, s + rng.randrange(1, 8)])
            if n < 3 or len(oracle(ivs)) < n:
                break
        cases.append(((ivs,), oracle(ivs)))
    cases.append((([[5, 7], [1, 3], [3, 5], [8, 9]],), oracle([[5, 7], [1, 3], [3, 5], [8, 9]])))
    return Task(name, f"{name}(intervals)", spec, ref, broken, "does not sort the intervals first", cases, oracle="pairwise merging until nothing changes")


UNIT_SETS = [
    {"h": 3600, "m": 60, "s": 1},
    {"d": 86400, "h": 3600, "m": 60},
    {"w": 604800, "d": 86400, "h": 3600},
    {"h": 3600, "m": 60, "s": 1, "d": 86400},
    {"m": 60, "s": 1},
]


def fam_parse_duration(rng: random.Random, i: int) -> Task:
    units = UNIT_SETS[i % len(UNIT_SETS)]
    order = sorted(units, key=lambda u: -units[u])
    name = "duration_seconds"
    meaning = ", ".join(f"{u} = {units[u]} s" for u in order)
    spec = (f"parses a duration such as '{''.join(f'{k + 2}{u}' for k, u in enumerate(order))}' and returns the total in seconds. "
            f"The units are {meaning}; each unit appears at most once, in that order, with one or more digits before it.")
    ref = (f"import re\n\nUNITS = {units!r}\n\ndef {name}(text):\n    total = 0\n    for number, unit in re.findall(r'(\\d+)([a-z])', text):\n"
           f"        total += int(number) * UNITS[unit]\n    return total\n")
    broken = (f"import re\n\nUNITS = {units!r}\n\ndef {name}(text):\n    total = 0\n    for number, unit in re.findall(r'(\\d)([a-z])', text):\n"
              f"        total += int(number) * UNITS[unit]\n    return total\n")

    def oracle(text: str) -> int:
        total, digits = 0, ""
        for ch in text:
            if ch.isdigit():
                digits += ch
            else:
                total += int(digits) * units[ch]
                digits = ""
        return total

    cases = []
    for _ in range(6):
        chosen = [u for u in order if rng.random() < 0.7] or [order[0]]
        text = "".join(f"{rng.randrange(1, 60) if rng.random() < 0.6 else rng.randrange(1, 10)}{u}" for u in chosen)
        cases.append(((text,), oracle(text)))
    text = f"{rng.randrange(10, 99)}{order[-1]}"
    cases.append(((text,), oracle(text)))
    return Task(name, f"{name}(text)", spec, ref, broken, "reads only one digit per number", cases, oracle="character scan")


ROMAN_TABLE = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def roman_oracle(n: int) -> str:
    ones = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    tens = ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"]
    hundreds = ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"]
    return "M" * (n // 1000) + hundreds[n // 100 % 10] + tens[n // 10 % 10] + ones[n % 10]


def fam_roman(rng: random.Random, i: int) -> Task:
    to_roman = i % 2 == 0
    if to_roman:
        name = "to_roman"
        spec = "returns the standard Roman numeral of n (1 <= n <= 3999) in upper case, using subtractive pairs such as IV, IX, XL, XC, CD and CM."
        ref = f"TABLE = {ROMAN_TABLE!r}\n\ndef {name}(n):\n    out = ''\n    for value, letters in TABLE:\n        while n >= value:\n            out += letters\n            n -= value\n    return out\n"
        plain = [(v, s) for v, s in ROMAN_TABLE if len(s) == 1]
        broken = f"TABLE = {plain!r}\n\ndef {name}(n):\n    out = ''\n    for value, letters in TABLE:\n        while n >= value:\n            out += letters\n            n -= value\n    return out\n"
        how = "no subtractive pairs (writes IIII for 4)"
        ns = [1, 4] + [rng.randrange(1, 4000) for _ in range(3)] + [9, 14, 40, 90, 400, 1994, 3999]
        cases = [((n,), roman_oracle(n)) for n in ns]
    else:
        name = "from_roman"
        spec = "returns the integer value of a valid upper-case Roman numeral string (1 to 3999). A smaller numeral before a larger one is subtracted (IV = 4, CM = 900)."
        ref = ("VALUES = {'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}\n\ndef " + name + "(s):\n    total = 0\n    for i, ch in enumerate(s):\n"
               "        v = VALUES[ch]\n        if i + 1 < len(s) and VALUES[s[i + 1]] > v:\n            total -= v\n        else:\n            total += v\n    return total\n")
        broken = "VALUES = {'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}\n\ndef " + name + "(s):\n    return sum(VALUES[ch] for ch in s)\n"
        how = "adds every numeral, ignoring subtraction"
        ns = [3, 4] + [rng.randrange(1, 4000) for _ in range(4)] + [9, 58, 1994, 1024, 3888]
        lookup = {roman_oracle(n): n for n in range(1, 4000)}
        cases = [((roman_oracle(n),), lookup[roman_oracle(n)]) for n in ns]
    return Task(name, f"{name}({'n' if to_roman else 's'})", spec, ref, broken, how, cases, oracle="digit-by-digit tables (and their inverse over 1..3999)")


BRACKET_SETS = ["()[]", "(){}<>", "()[]{}", "[]{}", "()<>", "{}<>[]"]


def fam_balanced(rng: random.Random, i: int) -> Task:
    pairs = BRACKET_SETS[i % len(BRACKET_SETS)]
    opens, closes = pairs[0::2], pairs[1::2]
    name = "brackets_balanced"
    spec = ("returns True when every bracket in the string s is matched and properly nested. "
            f"The bracket pairs are {' '.join(pairs[k:k + 2] for k in range(0, len(pairs), 2))}; all other characters are ignored.")
    ref = (f"def {name}(s):\n    match = {dict(zip(closes, opens))!r}\n    stack = []\n    for ch in s:\n        if ch in {opens!r}:\n            stack.append(ch)\n"
           f"        elif ch in match:\n            if not stack or stack.pop() != match[ch]:\n                return False\n    return not stack\n")
    broken = (f"def {name}(s):\n    depth = {{o: 0 for o in {opens!r}}}\n    match = {dict(zip(closes, opens))!r}\n    for ch in s:\n        if ch in depth:\n            depth[ch] += 1\n"
              f"        elif ch in match:\n            depth[match[ch]] -= 1\n            if depth[match[ch]] < 0:\n                return False\n    return all(v == 0 for v in depth.values())\n")

    def oracle(s: str) -> bool:
        t = "".join(c for c in s if c in pairs)
        while True:
            u = t
            for k in range(0, len(pairs), 2):
                u = u.replace(pairs[k : k + 2], "")
            if u == t:
                return not t
            t = u

    o1, c1, o2, c2 = opens[0], closes[0], opens[1], closes[1]
    noise = ["".join(rng.choice(pairs + "ab") for _ in range(rng.randrange(6, 11))) for _ in range(2)]
    inputs = ["", f"x{o1}y{c1}", noise[0], f"{o1}{o2}{c2}{c1}", noise[1], f"{o1}{o2}{c1}{c2}", f"{c1}{o1}", f"{o1}{o1}{c1}", f"a{o2}b{o1}c{c1}d{c2}e"]
    return Task(name, f"{name}(s)", spec, ref, broken, "counts each kind separately, so crossed pairs like ([)] pass", [((s,), oracle(s)) for s in inputs], oracle="repeatedly delete adjacent matching pairs")


TEXT_WORDS = ["ash", "birch", "cedar", "elm", "fir", "hazel", "larch", "maple", "oak", "pine", "rowan", "yew"]


def fam_top_words(rng: random.Random, i: int) -> Task:
    tie = ["alphabetical", "first"][i % 2]
    n = rng.randrange(2, 4)
    name = f"top_{n}_words"
    tie_text = "alphabetical order" if tie == "alphabetical" else "the order of their first appearance in the text"
    spec = (f"returns the {n} most frequent words of text as a list, most frequent first. Words are maximal runs of letters a-z after lower-casing; "
            f"ties are broken by {tie_text}. Fewer distinct words means a shorter list.")
    key = "(-counts[w], w)" if tie == "alphabetical" else "(-counts[w], first[w])"
    ref = (f"import re\n\ndef {name}(text):\n    words = re.findall(r'[a-z]+', text.lower())\n    counts, first = {{}}, {{}}\n    for i, w in enumerate(words):\n"
           f"        counts[w] = counts.get(w, 0) + 1\n        first.setdefault(w, i)\n    return sorted(counts, key=lambda w: {key})[:{n}]\n")
    other = "(-counts[w], first[w])" if tie == "alphabetical" else "(-counts[w], w)"
    broken = ref.replace(key, other)

    def oracle(text: str) -> list:
        words = re.findall(r"[a-z]+", text.lower())
        distinct = list(dict.fromkeys(words))
        c = Counter(words)
        ranked = sorted(distinct, key=lambda w: (-c[w], w if tie == "alphabetical" else distinct.index(w)))
        return ranked[:n]

    cases = []
    for _ in range(6):
        while True:
            pool = rng.sample(TEXT_WORDS, 5)
            words = [rng.choice(pool) for _ in range(rng.randrange(6, 16))]
            text = " ".join(w.capitalize() if rng.random() < 0.3 else w for w in words)
            text = text.replace(" ", rng.choice([" ", ", ", ". "]), 3)
            cnt = Counter(w.lower() for w in words)
            vals = sorted(cnt.values(), reverse=True)
            if len(vals) > n and vals[n - 1] == vals[n]:
                break  # a tie at the cut makes the tie rule matter
            if len(cases) >= 4:
                break
        cases.append(((text,), oracle(text)))
    cases.append((("",), []))
    return Task(name, f"{name}(text)", spec, ref, broken, "breaks ties by the other rule", cases, oracle="Counter + explicit ranking")


def fam_flatten(rng: random.Random, i: int) -> Task:
    full = i % 2 == 0
    name = "flatten" if full else "flatten_once"
    spec = ("returns a flat list of all non-list values inside the nested list items, at any depth, in left-to-right order." if full else
            "removes exactly one level of nesting from the list items. Elements that are lists are replaced by their own elements (which may themselves be lists); other elements are kept.")
    if full:
        ref = f"def {name}(items):\n    out = []\n    for x in items:\n        if isinstance(x, list):\n            out.extend({name}(x))\n        else:\n            out.append(x)\n    return out\n"
        broken = f"def {name}(items):\n    out = []\n    for x in items:\n        if isinstance(x, list):\n            out.extend(x)\n        else:\n            out.append(x)\n    return out\n"
        how = "flattens one level only"
    else:
        ref = f"def {name}(items):\n    out = []\n    for x in items:\n        if isinstance(x, list):\n            out.extend(x)\n        else:\n            out.append(x)\n    return out\n"
        broken = f"def {name}(items):\n    out = []\n    for x in items:\n        if isinstance(x, list):\n            out.extend({name}(x))\n        else:\n            out.append(x)\n    return out\n"
        how = "flattens every level"

    def oracle(items: list) -> list:
        if not full:
            return [y for x in items for y in (x if isinstance(x, list) else [x])]
        text = json.dumps(items)
        return json.loads("[" + ",".join(t for t in re.split(r"[\[\],]", text) if t.strip()) + "]")

    def nested(depth: int) -> list:
        return [nested(depth - 1) if depth and rng.random() < 0.4 else rng.randrange(0, 99) for _ in range(rng.randrange(1, 4))]

    inputs = [[], [1, [2, [3, [4]]], 5], nested(3), nested(3), [[[]], 7], [[1, 2], [3, [4, 5]]]]
    return Task(name, f"{name}(items)", spec, ref, broken, how, [((x,), oracle(x)) for x in inputs], oracle="re-parse of the JSON text without brackets (full) / comprehension (one level)")


def fam_longest_run(rng: random.Random, i: int) -> Task:
    mode = ["strict_up", "non_decreasing", "strict_down"][i % 3]
    name = {"strict_up": "longest_increasing_run", "non_decreasing": "longest_nondecreasing_run", "strict_down": "longest_decreasing_run"}[mode]
    rel = {"strict_up": "each element is strictly greater than the one before", "non_decreasing": "each element is greater than or equal to the one before", "strict_down": "each element is strictly smaller than the one before"}[mode]
    op = {"strict_up": ">", "non_decreasing": ">=", "strict_down": "<"}[mode]
    bad_op = {"strict_up": ">=", "non_decreasing": ">", "strict_down": "<="}[mode]
    spec = f"returns the length of the longest contiguous run of nums in which {rel}. An empty list gives 0; a list with no qualifying neighbours gives 1."
    ref = (f"def {name}(nums):\n    if not nums:\n        return 0\n    best = run = 1\n    for a, b in zip(nums, nums[1:]):\n        run = run + 1 if b {op} a else 1\n"
           f"        best = max(best, run)\n    return best\n")
    broken = ref.replace(f"if b {op} a", f"if b {bad_op} a")

    def oracle(nums: list) -> int:
        best = 0
        for s in range(len(nums)):
            for e in range(s, len(nums)):
                seg = nums[s : e + 1]
                ok = all({"strict_up": y > x, "non_decreasing": y >= x, "strict_down": y < x}[mode] for x, y in zip(seg, seg[1:]))
                if ok:
                    best = max(best, len(seg))
        return best

    inputs = [[], [4], [rng.randrange(0, 6) for _ in range(12)], [rng.randrange(0, 6) for _ in range(15)], [1, 2, 2, 3, 4, 1], [5, 4, 4, 3, 2, 6], [3, 3, 3]]
    return Task(name, f"{name}(nums)", spec, ref, broken, "uses the wrong comparison for equal neighbours", [((x,), oracle(x)) for x in inputs], oracle="brute force over all sub-arrays")


def fam_insert_index(rng: random.Random, i: int) -> Task:
    right = i % 2 == 0
    name = "insert_after_equals" if right else "insert_before_equals"
    where = "after any existing entries equal to x" if right else "before any existing entries equal to x"
    spec = f"returns the index at which x should be inserted into the ascending list values to keep it sorted. Place x {where}. Use binary search; do not modify values."
    cmp_ = "values[mid] <= x" if right else "values[mid] < x"
    ref = f"def {name}(values, x):\n    lo, hi = 0, len(values)\n    while lo < hi:\n        mid = (lo + hi) // 2\n        if {cmp_}:\n            lo = mid + 1\n        else:\n            hi = mid\n    return lo\n"
    broken = ref.replace(cmp_, "values[mid] < x" if right else "values[mid] <= x")

    def oracle(values: list, x: int) -> int:
        idx = 0
        for v in values:
            if v < x or (right and v == x):
                idx += 1
        return idx

    cases = []
    for n in (0, 1, 5, 8, 12):
        values = sorted(rng.randrange(0, 10) for _ in range(n))
        x = rng.choice(values) if values else 3
        cases.append(((values, x), oracle(values, x)))
    cases.append((([1, 2, 2, 2, 3], 2), oracle([1, 2, 2, 2, 3], 2)))
    cases.append((([1, 3, 5], 6), 3))
    return Task(name, f"{name}(values, x)", spec, ref, broken, "places x on the wrong side of equal entries", cases, oracle="linear count")


def fam_compress_ranges(rng: random.Random, i: int) -> Task:
    rsep = ["-", "..", "~"][i % 3]
    isep = [",", ", ", ";"][(i // 3) % 3]
    min_run = [2, 3][i % 2]
    name = "describe_ranges"
    spec = (f"takes a sorted list of distinct integers and returns a description string. Runs of at least {min_run} consecutive numbers become 'first{rsep}last'; "
            f"other numbers appear alone. The parts are joined with {isep!r}, and an empty list gives ''.")
    ref = (f"def {name}(nums):\n    parts, i = [], 0\n    while i < len(nums):\n        j = i\n        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:\n            j += 1\n"
           f"        if j - i + 1 >= {min_run}:\n            parts.append(f'{{nums[i]}}{rsep}{{nums[j]}}')\n        else:\n            parts.extend(str(n) for n in nums[i:j + 1])\n"
           f"        i = j + 1\n    return {isep!r}.join(parts)\n")
    broken = ref.replace(f">= {min_run}", f">= {5 - min_run}")

    def oracle(nums: list) -> str:
        groups: list[list[int]] = []
        for n in nums:
            if groups and groups[-1][-1] == n - 1:
                groups[-1].append(n)
            else:
                groups.append([n])
        parts: list[str] = []
        for g in groups:
            parts += [f"{g[0]}{rsep}{g[-1]}"] if len(g) >= min_run else [str(n) for n in g]
        return isep.join(parts)

    inputs = [[], [7]]
    for _ in range(2):
        start = rng.randrange(-5, 20)
        nums = sorted(set(start + rng.randrange(0, 25) for _ in range(12)))
        inputs.append(nums)
    inputs += [[1, 2], [1, 2, 3, 5, 7, 8], [-3, -2, -1, 0, 4, 5, 9]]
    return Task(name, f"{name}(nums)", spec, ref, broken, "uses the wrong minimum run length", [((x,), oracle(x)) for x in inputs], oracle="grouping of consecutive numbers")


WEEKENDS = [("Saturday and Sunday", (5, 6)), ("Friday and Saturday", (4, 5)), ("Sunday only", (6,)), ("Thursday and Friday", (3, 4))]


def fam_business_days(rng: random.Random, i: int) -> Task:
    label, weekend = WEEKENDS[i % len(WEEKENDS)]
    name = "add_working_days"
    spec = (f"takes an ISO date string 'YYYY-MM-DD' and an integer n >= 0 and returns the ISO date of the n-th working day after it. The weekend is {label}. "
            "A call with n = 0 returns the input date unchanged, even on a weekend. Use the datetime module.")
    ref = (f"import datetime\n\nWEEKEND = {{{', '.join(str(d) for d in sorted(weekend))}}}\n\ndef {name}(date, n):\n    day = datetime.date.fromisoformat(date)\n    while n > 0:\n"
           f"        day += datetime.timedelta(days=1)\n        if day.weekday() not in WEEKEND:\n            n -= 1\n    return day.isoformat()\n")
    broken = (f"import datetime\n\ndef {name}(date, n):\n    day = datetime.date.fromisoformat(date)\n    while n > 0:\n"
              f"        day += datetime.timedelta(days=1)\n        if day.weekday() < 5:\n            n -= 1\n    return day.isoformat()\n") if weekend != (5, 6) else (
              f"import datetime\n\ndef {name}(date, n):\n    return (datetime.date.fromisoformat(date) + datetime.timedelta(days=n)).isoformat()\n")

    def oracle(date: str, n: int) -> str:
        start = dt.date.fromisoformat(date)
        if n == 0:
            return date
        days = [start + dt.timedelta(days=k) for k in range(1, 3 * n + 10)]
        working = [d for d in days if d.weekday() not in weekend]
        return working[n - 1].isoformat()

    cases = []
    for n in (0, 1, 3, 5, 9, rng.randrange(10, 40)):
        d = (dt.date(2030, 1, 1) + dt.timedelta(days=rng.randrange(0, 1500))).isoformat()
        cases.append(((d, n), oracle(d, n)))
    return Task(name, f"{name}(date, n)", spec, ref, broken, "uses the wrong weekend (Saturday/Sunday) or ignores weekends", cases, oracle="list of the following working days")


# ==== hard =====================================================================================


COSTS = [(1, 1, 1), (1, 1, 2), (2, 2, 1), (1, 2, 1), (2, 1, 3)]


def fam_edit_distance(rng: random.Random, i: int) -> Task:
    ins, dele, sub = COSTS[i % len(COSTS)]
    name = "edit_cost"
    spec = (f"returns the minimum total cost of turning string a into string b. Inserting a character costs {ins}, deleting one costs {dele}, "
            f"and replacing one with a different character costs {sub}. Keeping a matching character is free.")
    ref = (f"def {name}(a, b):\n    prev = [j * {ins} for j in range(len(b) + 1)]\n    for i in range(1, len(a) + 1):\n        cur = [i * {dele}] + [0] * len(b)\n"
           f"        for j in range(1, len(b) + 1):\n            same = prev[j - 1] + (0 if a[i - 1] == b[j - 1] else {sub})\n"
           f"            cur[j] = min(same, prev[j] + {dele}, cur[j - 1] + {ins})\n        prev = cur\n    return prev[-1]\n")
    broken = ref.replace(f"prev = [j * {ins} for j in range(len(b) + 1)]", "prev = [0] * (len(b) + 1)").replace(f"cur = [i * {dele}] + [0] * len(b)", "cur = [0] * (len(b) + 1)")

    @functools.lru_cache(maxsize=None)
    def oracle(a: str, b: str) -> int:
        if not a:
            return len(b) * ins
        if not b:
            return len(a) * dele
        return min(oracle(a[1:], b[1:]) + (0 if a[0] == b[0] else sub), oracle(a[1:], b) + dele, oracle(a, b[1:]) + ins)

    def w(n: int) -> str:
        return "".join(rng.choice("abcd") for _ in range(n))

    pairs = [("", ""), ("", "abc"), (w(5), w(7)), (w(8), w(6)), ("abcd", ""), ("kitten", "sitting"), ("flaw", "lawn")]
    return Task(name, f"{name}(a, b)", spec, ref, broken, "initialises the first row and column with zeros", [((x, y), oracle(x, y)) for x, y in pairs], oracle="memoised recursion")


def fam_rpn(rng: random.Random, i: int) -> Task:
    floor = i % 2 == 0
    name = "eval_rpn"
    rule = "floor division (rounding towards negative infinity, like Python's //)" if floor else "integer division that truncates towards zero (-7 / 2 is -3)"
    spec = f"evaluates a list of tokens in reverse Polish notation and returns the integer result. Tokens are integers (as strings) and the operators + - * /. Division / is {rule}."
    div = "a // b" if floor else "int(a / b) if a * b >= 0 else -(abs(a) // abs(b))"
    bad = "-(abs(a) // abs(b)) if a * b < 0 else a // b" if floor else "a // b"
    ref = (f"def {name}(tokens):\n    stack = []\n    for t in tokens:\n        if t in ('+', '-', '*', '/'):\n            b = stack.pop()\n            a = stack.pop()\n"
           f"            if t == '+':\n                stack.append(a + b)\n            elif t == '-':\n                stack.append(a - b)\n            elif t == '*':\n                stack.append(a * b)\n"
           f"            else:\n                stack.append({div})\n        else:\n            stack.append(int(t))\n    return stack[0]\n")
    broken = ref.replace(div, bad)

    def oracle(tokens: list) -> int:
        def ev(idx: int) -> tuple[int, int]:
            t = tokens[idx]
            if t not in "+-*/" or t.lstrip("-").isdigit():
                return int(t), idx - 1
            b, j = ev(idx - 1)
            a, k = ev(j)
            if t == "/":
                q = math.floor(a / b) if floor else math.trunc(a / b)
                return q, k
            return {"+": a + b, "-": a - b, "*": a * b}[t], k

        value, rest = ev(len(tokens) - 1)
        assert rest == -1
        return value

    def expr(depth: int) -> list:
        if depth == 0:
            return [str(rng.randrange(-9, 20))]
        op = rng.choice("+-*/")
        left, right = expr(depth - 1), expr(rng.randrange(0, depth))
        if op == "/":
            right = [str(rng.choice([2, 3, 4, -3, 5]))]
        return left + right + [op]

    cases = [((["7", "-2", "/"],), oracle(["7", "-2", "/"])), ((["-7", "2", "/", "3", "+"],), oracle(["-7", "2", "/", "3", "+"]))]
    for _ in range(4):
        t = expr(3)
        cases.append(((t,), oracle(t)))
    cases.append(((["4"],), 4))
    return Task(name, f"{name}(tokens)", spec, ref, broken, "uses the other division rounding for negative operands", cases, oracle="recursive evaluation from the last token")


COIN_SETS = [[1, 3, 4], [1, 5, 6, 9], [2, 5, 10], [1, 7, 10], [3, 5, 7], [1, 4, 6], [2, 3, 7], [1, 6, 10], [4, 5, 9], [1, 5, 8]]


def fam_coins(rng: random.Random, i: int) -> Task:
    coins = COIN_SETS[i]
    ways = i % 2 == 1
    name = "coin_ways" if ways else "fewest_coins"
    if ways:
        spec = f"returns in how many different ways amount can be paid with coins of values {coins}, each available without limit. The order of the coins does not matter, and amount 0 has exactly one way."
        ref = f"def {name}(amount):\n    ways = [1] + [0] * amount\n    for c in {coins!r}:\n        for v in range(c, amount + 1):\n            ways[v] += ways[v - c]\n    return ways[amount]\n"
        broken = f"def {name}(amount):\n    ways = [1] + [0] * amount\n    for v in range(1, amount + 1):\n        for c in {coins!r}:\n            if c <= v:\n                ways[v] += ways[v - c]\n    return ways[amount]\n"
        how = "counts orderings (sequences) instead of combinations"
    else:
        spec = f"returns the smallest number of coins of values {coins}, each available without limit, that add up exactly to amount. Return -1 when it cannot be done; amount 0 needs 0 coins."
        ref = (f"def {name}(amount):\n    best = [0] + [None] * amount\n    for v in range(1, amount + 1):\n        options = [best[v - c] for c in {coins!r} if c <= v and best[v - c] is not None]\n"
               f"        best[v] = min(options) + 1 if options else None\n    return -1 if best[amount] is None else best[amount]\n")
        broken = (f"def {name}(amount):\n    count = 0\n    for c in sorted({coins!r}, reverse=True):\n        count += amount // c\n        amount %= c\n    return count if amount == 0 else -1\n")
        how = "greedy: takes the largest coin first"

    @functools.lru_cache(maxsize=None)
    def combos(amount: int, k: int) -> int:  # ways using coins[:k]
        if amount == 0:
            return 1
        if k == 0:
            return 0
        c = coins[k - 1]
        return sum(combos(amount - m * c, k - 1) for m in range(amount // c + 1))

    def fewest(amount: int) -> int:
        for n in range(0, amount + 1):
            for combo in itertools.combinations_with_replacement(coins, n):
                if sum(combo) == amount:
                    return n
        return -1

    def greedy(amount: int) -> int:
        count = 0
        for c in sorted(coins, reverse=True):
            count, amount = count + amount // c, amount % c
        return count if amount == 0 else -1

    trap = next(a for a in range(1, 60) if greedy(a) != fewest(a))  # where largest-coin-first goes wrong
    amounts = [0, 1] + sorted({2, trap, coins[-1] + coins[0], 2 * coins[1], rng.randrange(8, 20), rng.randrange(15, 26)}, key=lambda a: rng.random())
    cases = [((a,), combos(a, len(coins)) if ways else fewest(a)) for a in amounts]
    return Task(name, f"{name}(amount)", spec, ref, broken, how, cases, oracle="recursion over coin multiplicities" if ways else "search by increasing coin count")


def fam_topo(rng: random.Random, i: int) -> Task:
    name = "task_order"
    spec = ("returns an order for a set of tasks as a list. The dict deps maps each task name to the list of tasks that must come before it; every task is a key. "
            "Return the alphabetically smallest valid order: at each step take the smallest task whose requirements are done. "
            "Return None when the requirements contain a cycle.")
    ref = (f"import heapq\n\ndef {name}(deps):\n    waiting = {{t: set(p) for t, p in deps.items()}}\n    users = {{t: [] for t in deps}}\n    for t, pre in deps.items():\n"
           f"        for p in pre:\n            users[p].append(t)\n    ready = [t for t, p in waiting.items() if not p]\n    heapq.heapify(ready)\n    order = []\n"
           f"    while ready:\n        t = heapq.heappop(ready)\n        order.append(t)\n        for u in users[t]:\n            waiting[u].discard(t)\n"
           f"            if not waiting[u]:\n                heapq.heappush(ready, u)\n    return order if len(order) == len(deps) else None\n")
    broken = (f"from collections import deque\n\ndef {name}(deps):\n    waiting = {{t: set(p) for t, p in deps.items()}}\n    users = {{t: [] for t in deps}}\n    for t, pre in deps.items():\n"
              f"        for p in pre:\n            users[p].append(t)\n    ready = deque(sorted(t for t, p in waiting.items() if not p))\n    order = []\n"
              f"    while ready:\n        t = ready.popleft()\n        order.append(t)\n        for u in users[t]:\n            waiting[u].discard(t)\n"
              f"            if not waiting[u]:\n                ready.append(u)\n    return order if len(order) == len(deps) else None\n")

    def oracle(deps: dict) -> Any:
        for perm in itertools.permutations(sorted(deps)):
            pos = {t: k for k, t in enumerate(perm)}
            if all(pos[p] < pos[t] for t, pre in deps.items() for p in pre):
                return list(perm)
        return None

    def graph(n: int, cyclic: bool) -> dict:
        names = sorted(rng.sample(TEXT_WORDS, n))
        shuffled = rng.sample(names, n)
        deps = {t: [] for t in names}
        for k, t in enumerate(shuffled):
            for p in shuffled[:k]:
                if rng.random() < 0.35:
                    deps[t].append(p)
        if cyclic:
            a, b = shuffled[0], shuffled[-1]
            deps[a].append(b)
            if a not in deps[b]:
                deps[b].append(a)
        return {t: sorted(p) for t, p in deps.items()}

    cases = [(({"b": [], "a": ["b"]},), ["b", "a"]), (({"x": ["y"], "y": ["x"]},), None)]
    for n, cyc in [(4, False), (5, False), (6, False), (6, False), (5, True)]:
        g = graph(n, cyc)
        cases.append(((g,), oracle(g)))
    cases.append((({"c": [], "a": ["c"], "b": [], "d": ["b"]},), oracle({"c": [], "a": ["c"], "b": [], "d": ["b"]})))
    return Task(name, f"{name}(deps)", spec, ref, broken, "first-in-first-out queue instead of always the smallest available task", cases, oracle="first valid permutation in sorted order")


def fam_knapsack(rng: random.Random, i: int) -> Task:
    name = "best_value"
    spec = ("returns the largest total value of a subset of items whose total weight is at most capacity. Items are (weight, value) pairs of positive integers. "
            "Each item may be used at most once.")
    ref = (f"def {name}(items, capacity):\n    best = [0] * (capacity + 1)\n    for w, v in items:\n        for c in range(capacity, w - 1, -1):\n"
           f"            best[c] = max(best[c], best[c - w] + v)\n    return best[capacity]\n")
    broken = (f"def {name}(items, capacity):\n    total = 0\n    for w, v in sorted(items, key=lambda it: it[1] / it[0], reverse=True):\n        if w <= capacity:\n"
              f"            capacity -= w\n            total += v\n    return total\n")

    def oracle(items: list, capacity: int) -> int:
        best = 0
        for mask in range(1 << len(items)):
            w = sum(items[k][0] for k in range(len(items)) if mask >> k & 1)
            if w <= capacity:
                best = max(best, sum(items[k][1] for k in range(len(items)) if mask >> k & 1))
        return best

    cases = [(([], 10), 0), (([(5, 10)], 4), 0)]
    for _ in range(4):
        items = [(rng.randrange(1, 12), rng.randrange(1, 30)) for _ in range(rng.randrange(5, 11))]
        cap = rng.randrange(10, 30)
        cases.append(((items, cap), oracle(items, cap)))
    cases.append((([(3, 4), (4, 5), (2, 3)], 6), oracle([(3, 4), (4, 5), (2, 3)], 6)))
    cases.append((([(6, 30), (5, 20), (5, 20)], 10), 40))
    return Task(name, f"{name}(items, capacity)", spec, ref, broken, "greedy by value per weight", cases, oracle="brute force over all subsets")


def fam_grid_path(rng: random.Random, i: int) -> Task:
    diag = i % 2 == 1
    name = "fewest_steps"
    moves = "one of the 8 neighbouring cells (diagonals included)" if diag else "one of the 4 cells up, down, left or right (no diagonals)"
    spec = ("returns the fewest steps from S to E in a grid. The grid is a list of equal-length strings: '.' is open, '#' is a wall, and there is one 'S' and one 'E'. "
            f"A step moves to {moves} that is not a wall. Return -1 when E cannot be reached.")
    dirs4 = "[(1, 0), (-1, 0), (0, 1), (0, -1)]"
    dirs8 = "[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]"
    template = (f"from collections import deque\n\ndef {name}(grid):\n    rows, cols = len(grid), len(grid[0])\n"
                f"    start = next((r, c) for r in range(rows) for c in range(cols) if grid[r][c] == 'S')\n    dist = {{start: 0}}\n    queue = deque([start])\n"
                f"    while queue:\n        r, c = queue.popleft()\n        if grid[r][c] == 'E':\n            return dist[(r, c)]\n        for dr, dc in DIRS:\n"
                f"            nr, nc = r + dr, c + dc\n            if 0 <= nr < rows and 0 <= nc < cols and grid[nr][nc] != '#' and (nr, nc) not in dist:\n"
                f"                dist[(nr, nc)] = dist[(r, c)] + 1\n                queue.append((nr, nc))\n    return -1\n")
    ref = template.replace("DIRS", dirs8 if diag else dirs4)
    broken = template.replace("DIRS", dirs4 if diag else dirs8)

    def oracle(grid: list) -> int:
        rows, cols = len(grid), len(grid[0])
        cells = {(r, c) for r in range(rows) for c in range(cols) if grid[r][c] != "#"}
        start = next(p for p in cells if grid[p[0]][p[1]] == "S")
        end = next(p for p in cells if grid[p[0]][p[1]] == "E")
        # Bellman-Ford style relaxation until nothing changes
        inf = 10**9
        dist = {p: inf for p in cells}
        dist[start] = 0
        changed = True
        while changed:
            changed = False
            for (r, c) in cells:
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        if (dr, dc) == (0, 0) or (not diag and dr and dc):
                            continue
                        q = (r + dr, c + dc)
                        if q in cells and dist[(r, c)] + 1 < dist[q]:
                            dist[q] = dist[(r, c)] + 1
                            changed = True
        return -1 if dist[end] == inf else dist[end]

    cases = []
    while len(cases) < 6:
        h, w = rng.randrange(3, 7), rng.randrange(3, 8)
        cells = [["#" if rng.random() < 0.25 else "." for _ in range(w)] for _ in range(h)]
        (sr, sc), (er, ec) = rng.sample([(r, c) for r in range(h) for c in range(w)], 2)
        cells[sr][sc], cells[er][ec] = "S", "E"
        grid = ["".join(row) for row in cells]
        cases.append(((grid,), oracle(grid)))
    blocked = ["S#.", "##.", "..E"]
    cases.append(((blocked,), oracle(blocked)))
    open_ = ["S...", "....", "...E"]
    cases.append(((open_,), oracle(open_)))
    return Task(name, f"{name}(grid)", spec, ref, broken, "uses the other move set (diagonals or not)", cases, oracle="relaxation until no distance changes")


def fam_calc(rng: random.Random, i: int) -> Task:
    power = i % 2 == 1
    name = "calculate"
    ops = "+, -, * and **" if power else "+, - and *"
    spec = (f"evaluates an arithmetic expression string and returns the integer result. It contains non-negative integers, spaces, parentheses and the operators {ops}. "
            "Use the usual precedence: * before + and -, left to right otherwise. "
            + ("The power operator ** binds tighter than * and is right-associative. " if power else "")
            + "Do not use eval or exec.")
    ref = (f"import re\n\ndef {name}(text):\n    tokens = re.findall(r'\\d+|\\*\\*|[-+*()]', text)\n    pos = 0\n\n    def peek():\n        return tokens[pos] if pos < len(tokens) else None\n\n"
           f"    def take():\n        nonlocal pos\n        pos += 1\n        return tokens[pos - 1]\n\n    def atom():\n        if peek() == '(':\n            take()\n            value = expr()\n            take()\n            return value\n"
           f"        return int(take())\n\n    def power():\n        base = atom()\n        if peek() == '**':\n            take()\n            return base ** power()\n        return base\n\n"
           f"    def term():\n        value = power()\n        while peek() == '*':\n            take()\n            value *= power()\n        return value\n\n"
           f"    def expr():\n        value = term()\n        while peek() in ('+', '-'):\n            if take() == '+':\n                value += term()\n            else:\n                value -= term()\n        return value\n\n"
           f"    return expr()\n")
    broken = ref.replace("            return base ** power()", "            return base ** atom()") if power else ref.replace(
        "    def expr():\n        value = term()\n        while peek() in ('+', '-'):\n            if take() == '+':\n                value += term()\n            else:\n                value -= term()\n        return value\n",
        "    def expr():\n        value = term()\n        while peek() in ('+', '-', '*'):\n            op = take()\n            rhs = atom()\n            value = value + rhs if op == '+' else value - rhs if op == '-' else value * rhs\n        return value\n").replace(
        "    def term():\n        value = power()\n        while peek() == '*':\n            take()\n            value *= power()\n        return value\n", "    def term():\n        return power()\n")

    def build(depth: int) -> str:
        if depth == 0 or rng.random() < 0.25:
            return str(rng.randrange(0, 15))
        op = rng.choice(["+", "-", "*"] + (["**"] if power else []))
        if op == "**":
            return f"{rng.randrange(2, 4)} ** {rng.choice(['2', '(1 + 1)', '2 ** 1'])}"
        left, right = build(depth - 1), build(depth - 1)
        expr_ = f"{left} {op} {right}"
        return f"({expr_})" if rng.random() < 0.35 else expr_

    def oracle(text: str) -> int:
        assert re.fullmatch(r"[\d\s()+\-*]+", text)
        return eval(text, {"__builtins__": {}}, {})  # noqa: S307 - generator-built arithmetic only

    cases = [(("2 + 3 * 4",), 14), (("(2 + 3) * 4",), 20), (("10 - 4 - 3",), 3)]
    if power:
        cases += [(("2 ** 3 ** 2",), 512), (("2 * 3 ** 2",), 18)]
    while len(cases) < 9:
        t = build(3)
        if re.search(r"[-+*]", t):
            cases.insert(2, ((t,), oracle(t)))  # random expressions lead the shown examples
    for (t,), expected in cases:
        assert oracle(t) == expected
    return Task(name, f"{name}(text)", spec, ref, broken, "power is left-associative" if power else "no precedence: evaluates strictly left to right", cases, oracle="Python's own evaluator on the generated expression")


def fam_csv(rng: random.Random, i: int) -> Task:
    delim = [",", ";", "|", "\t", ":"][i % 5]
    shown = {"\t": "a tab character"}.get(delim, repr(delim))
    name = "split_record"
    spec = (f"splits one line of delimited text into a list of field strings. The delimiter is {shown}. A field may be wrapped in double quotes; then it may contain the delimiter. "
            "Inside quotes, a doubled quote \"\" stands for one quote character. The wrapping quotes are not part of the result.")
    ref = (f"def {name}(line):\n    fields, field, quoted, i = [], '', False, 0\n    while i < len(line):\n        ch = line[i]\n        if quoted:\n"
           f"            if ch == '\"' and i + 1 < len(line) and line[i + 1] == '\"':\n                field += '\"'\n                i += 1\n            elif ch == '\"':\n                quoted = False\n"
           f"            else:\n                field += ch\n        elif ch == '\"':\n            quoted = True\n        elif ch == {delim!r}:\n            fields.append(field)\n            field = ''\n"
           f"        else:\n            field += ch\n        i += 1\n    fields.append(field)\n    return fields\n")
    broken = f"def {name}(line):\n    return [f.strip('\"') for f in line.split({delim!r})]\n"

    def oracle(line: str) -> list:
        return next(csv.reader(io.StringIO(line), delimiter=delim, quotechar='"', doublequote=True, strict=True))

    def field_text() -> str:
        kind = rng.randrange(4)
        base = rng.choice(TEXT_WORDS) + rng.choice(["", " " + rng.choice(TEXT_WORDS)])
        if kind == 0:
            return base
        if kind == 1:
            return f'"{base}{delim}{rng.choice(TEXT_WORDS)}"'
        if kind == 2:
            return f'"say ""{base}"""'
        return str(rng.randrange(0, 999))

    cases = []
    for n in (1, 2, 3, 4, 5):
        line = delim.join(field_text() for _ in range(n))
        cases.append(((line,), oracle(line)))
    special = f'a{delim}"b{delim}c"{delim}"d ""e"""'
    cases.append(((special,), oracle(special)))
    cases.append(((f"x{delim}{delim}y",), oracle(f"x{delim}{delim}y")))
    return Task(name, f"{name}(line)", spec, ref, broken, "plain split on the delimiter", cases, oracle="the standard csv module")


FACTOR_STYLES = [(" * ", "^"), ("*", "^"), (" x ", "^"), (" * ", "**"), ("·", "^")]


def fam_factors(rng: random.Random, i: int) -> Task:
    sep, exp = FACTOR_STYLES[i % len(FACTOR_STYLES)]
    name = "factor_string"
    spec = (f"returns the prime factorisation of an integer n >= 2 as a string. Primes appear in ascending order, joined by {sep!r}. "
            f"A prime that divides n more than once is written as prime{exp}count, as in {'2' + exp + '3' + sep + '5'} for 40.")
    ref = (f"def {name}(n):\n    parts, p = [], 2\n    while p * p <= n:\n        k = 0\n        while n % p == 0:\n            n //= p\n            k += 1\n"
           f"        if k:\n            parts.append(str(p) if k == 1 else f'{{p}}{exp}{{k}}')\n        p += 1\n    if n > 1:\n        parts.append(str(n))\n    return {sep!r}.join(parts)\n")
    broken = ref.replace("    if n > 1:\n        parts.append(str(n))\n", "")

    def oracle(n: int) -> str:
        counts: dict[int, int] = {}
        for d in range(2, n + 1):
            if all(d % q for q in range(2, int(d**0.5) + 1)):
                m = n
                while m % d == 0:
                    counts[d] = counts.get(d, 0) + 1
                    m //= d
        return sep.join(str(p) if k == 1 else f"{p}{exp}{k}" for p, k in sorted(counts.items()))

    ns = [2, 12, rng.randrange(1000, 5000), rng.randrange(5000, 9000), rng.choice([2 * 101, 3 * 997, 6 * 53]), 97, 360]
    return Task(name, f"{name}(n)", spec, ref, broken, "forgets the last prime factor larger than the square root", [((n,), oracle(n)) for n in ns], oracle="trial division by every prime up to n")


def fam_schedule(rng: random.Random, i: int) -> Task:
    closed = i % 2 == 1
    name = "max_meetings"
    kind = ("closed intervals [start, end]. Two meetings conflict when they share any moment, so one ending at 5 conflicts with one starting at 5." if closed else
            "half-open intervals [start, end). A meeting ending at 5 does not conflict with one starting at 5.")
    spec = f"returns the largest number of meetings that can be attended without conflicts. Meetings are (start, end) integer pairs with start < end. Treat them as {kind}"
    cmp_ = ">" if closed else ">="
    ref = (f"def {name}(meetings):\n    count, last = 0, None\n    for s, e in sorted(meetings, key=lambda m: m[1]):\n        if last is None or s {cmp_} last:\n"
           f"            count += 1\n            last = e\n    return count\n")
    broken = ref.replace("key=lambda m: m[1]", "key=lambda m: m[0]")

    def oracle(meetings: list) -> int:
        best = 0
        for r in range(len(meetings) + 1):
            for combo in itertools.combinations(sorted(meetings), r):
                if all((b[0] > a[1]) if closed else (b[0] >= a[1]) for a, b in zip(combo, combo[1:])):
                    best = max(best, r)
        return best

    cases = [(([],), 0), (([(1, 5), (5, 8)],), oracle([(1, 5), (5, 8)]))]
    for _ in range(4):
        ms = []
        for _ in range(rng.randrange(4, 9)):
            s = rng.randrange(0, 20)
            ms.append((s, s + rng.randrange(1, 7)))
        cases.append(((ms,), oracle(ms)))
    cases.append((([(1, 10), (2, 3), (4, 5)],), 2))
    return Task(name, f"{name}(meetings)", spec, ref, broken, "greedy by start time instead of end time", cases, oracle="brute force over all subsets")


def fam_lru(rng: random.Random, i: int) -> Task:
    cap = rng.randrange(2, 5)
    missing = rng.choice([-1, None, 0])
    cls = "RecentCache"
    spec = (f"implements a class {cls}(capacity) with methods get(key) and put(key, value). Get returns the stored value, or {missing!r} when the key is absent. "
            "Put stores or updates a value. Both a get of a present key and a put count as a use. "
            "A put of a new key into a full cache first evicts the least recently used key.")
    ref = (f"from collections import OrderedDict\n\nclass {cls}:\n    def __init__(self, capacity):\n        self.capacity = capacity\n        self.data = OrderedDict()\n\n"
           f"    def get(self, key):\n        if key not in self.data:\n            return {missing!r}\n        self.data.move_to_end(key)\n        return self.data[key]\n\n"
           f"    def put(self, key, value):\n        if key in self.data:\n            self.data.move_to_end(key)\n        self.data[key] = value\n"
           f"        if len(self.data) > self.capacity:\n            self.data.popitem(last=False)\n")
    broken = ref.replace("        self.data.move_to_end(key)\n        return self.data[key]\n", "        return self.data[key]\n")

    def simulate(ops: list) -> list:
        return simulate_with(cap, ops)

    def simulate_with(cap: int, ops: list) -> list:
        order: list = []  # least recent first
        store: dict = {}
        out = []
        for op in ops:
            if op[0] == "get":
                if op[1] in store:
                    order.remove(op[1])
                    order.append(op[1])
                    out.append(store[op[1]])
                else:
                    out.append(missing)
            else:
                _, k, v = op
                if k in store:
                    order.remove(k)
                elif len(store) == cap:
                    del store[order.pop(0)]
                order.append(k)
                store[k] = v
        return out

    ops: list = []
    keys = [chr(ord("a") + k) for k in range(cap + 2)]
    for k in keys[:cap]:
        ops.append(("put", k, rng.randrange(1, 99)))
    ops.append(("get", keys[0]))  # refresh the oldest, so a correct cache evicts keys[1] next
    ops.append(("put", keys[cap], rng.randrange(1, 99)))
    ops += [("get", keys[0]), ("get", keys[1])]
    for _ in range(10):
        k = rng.choice(keys)
        ops.append(("get", k) if rng.random() < 0.5 else ("put", k, rng.randrange(1, 99)))
    expected = simulate(ops)
    lines = [f"cache = {cls}({cap})", "got = []"]
    for op in ops:
        lines.append(f"got.append(cache.get({op[1]!r}))" if op[0] == "get" else f"cache.put({op[1]!r}, {op[2]!r})")
    lines.append(f"assert got == {expected!r}, got")
    lines.append(f"small = {cls}(1)\nsmall.put('x', 1)\nsmall.put('y', 2)\nassert small.get('x') == {missing!r} and small.get('y') == 2")
    tests = "\n".join(lines) + "\n"
    v1, v2, v3 = rng.sample(range(1, 99), 3)
    demo = [("put", "p", v1), ("put", "q", v2), ("get", "p"), ("put", "r", v3), ("get", "q")]
    got = simulate_with(2, demo)
    examples = [f"c = {cls}(2); c.put('p', {v1}); c.put('q', {v2}); c.get('p') -> {got[0]!r}; c.put('r', {v3}); c.get('q') -> {got[1]!r}"]
    w1, w2 = rng.sample(range(1, 99), 2)
    got = simulate_with(1, [("put", "m", w1), ("get", "m"), ("put", "n", w2), ("get", "m"), ("get", "n")])
    examples.append(f"d = {cls}(1); d.put('m', {w1}); d.get('m') -> {got[0]!r}; d.put('n', {w2}); d.get('m') -> {got[1]!r}; d.get('n') -> {got[2]!r}")
    u1, u2, u3 = rng.sample(range(1, 99), 3)
    got = simulate_with(2, [("put", "x", u1), ("put", "y", u2), ("put", "x", u3), ("put", "z", u1), ("get", "y"), ("get", "x")])
    examples.append(f"e = {cls}(2); e.put('x', {u1}); e.put('y', {u2}); e.put('x', {u3}); e.put('z', {u1}); e.get('y') -> {got[0]!r}; e.get('x') -> {got[1]!r}")
    return Task(cls, f"class {cls}", spec, ref, broken, "get does not refresh recency", tests=tests, examples=examples, oracle="list-based simulation")


FAMILIES: list[tuple[str, str, Callable[[random.Random, int], Task]]] = [
    ("easy", "arithmetic", fam_sum_multiples), ("easy", "strings", fam_count_chars), ("easy", "lists", fam_rotate),
    ("easy", "arithmetic", fam_fizz), ("easy", "arithmetic", fam_digit_sum), ("easy", "strings", fam_palindrome),
    ("easy", "lists", fam_chunk), ("easy", "strings", fam_rle), ("easy", "lists", fam_kth_largest), ("easy", "strings", fam_title_case),
    ("medium", "intervals", fam_merge_intervals), ("medium", "parsing", fam_parse_duration), ("medium", "parsing", fam_roman),
    ("medium", "parsing", fam_balanced), ("medium", "strings", fam_top_words), ("medium", "lists", fam_flatten),
    ("medium", "lists", fam_longest_run), ("medium", "search", fam_insert_index), ("medium", "strings", fam_compress_ranges),
    ("medium", "dates", fam_business_days),
    ("hard", "dynamic_programming", fam_edit_distance), ("hard", "parsing", fam_rpn), ("hard", "dynamic_programming", fam_coins),
    ("hard", "graphs", fam_topo), ("hard", "dynamic_programming", fam_knapsack), ("hard", "graphs", fam_grid_path),
    ("hard", "parsing", fam_calc), ("hard", "parsing", fam_csv), ("hard", "arithmetic", fam_factors),
    ("hard", "intervals", fam_schedule), ("hard", "classes", fam_lru),
]


# --- execution (the sandbox's contract and default limits, standard library only) ------------

RUNNER = r'''
import json, os, resource, signal, sys
limits = json.loads(sys.argv[1])
items = json.loads(sys.stdin.read())
results = []
for program, tests in items:
    pid = os.fork()
    if pid == 0:
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (limits["cpu_seconds"], limits["cpu_seconds"] + 1))
            resource.setrlimit(resource.RLIMIT_AS, (limits["memory_bytes"],) * 2)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limits["max_file_bytes"],) * 2)
            resource.setrlimit(resource.RLIMIT_NOFILE, (limits["max_open_files"],) * 2)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            signal.alarm(int(limits["wall_seconds"]))
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            namespace = {"__name__": "solution", "__builtins__": __builtins__}
            exec(compile(program, "solution.py", "exec"), namespace)
            exec(compile(tests, "tests.py", "exec"), namespace)
        except BaseException:
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    results.append(os.waitstatus_to_exitcode(status) == 0)
print(json.dumps(results))
'''


def execute(pairs: list[tuple[str, str]]) -> list[bool]:
    """Run each (program, tests) pair in a forked child of one isolated interpreter."""
    with tempfile.TemporaryDirectory(prefix="atlas-codegen-") as scratch:
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": scratch, "TMPDIR": scratch, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "0"}
        proc = subprocess.run(
            [sys.executable, "-I", "-S", "-B", "-c", RUNNER, json.dumps(LIMITS)],
            input=json.dumps(pairs), capture_output=True, text=True, env=env, cwd=scratch, timeout=600,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"runner failed: {proc.stderr[-2000:]}")
    results = json.loads(proc.stdout)
    assert len(results) == len(pairs)
    return results


# --- assembly --------------------------------------------------------------------------------


MAX_FIXED = 150  # longest run of spec text between two worked examples (unique-text rule)


def _inline(example: str) -> str:
    """'f(x) -> y' as a sentence; a multi-step example (a class session) stays as written."""
    if ";" in example:
        return f"For example: {example}."
    call, _, result = example.partition(" -> ")
    return f"For example, {call} returns {result}." if result else f"For example: {call}."


def render(task: Task) -> tuple[str, str]:
    """The prompt: the spec sentence by sentence, with a worked example inserted whenever
    the fixed text since the last one would pass MAX_FIXED characters (so variants of one
    family never share a 200-character passage), then more examples and the instruction."""
    if task.tests is None:
        lines = [f"assert {call_repr(task.name, args)} == {expected!r}" for args, expected in task.cases]
        tests = "\n".join(lines) + "\n"
        examples = [f"{call_repr(task.name, args)} -> {expected!r}" for args, expected in task.cases[2:]]
    else:
        tests = task.tests
        examples = list(task.examples)
    what = "class" if task.signature.startswith("class ") else "function"
    sig = task.signature.removeprefix("class ")
    sentences = [x.strip() for x in re.split(r"(?<=\.) (?=[A-Z0-9'])", task.spec) if x.strip()]
    head = f"Write a Python {what} `{sig}` that " if what == "function" else "Write Python code that "
    parts: list[str] = []
    fixed = len(head)
    pending = list(examples)
    assert len(head) + len(sentences[0]) <= 199, (task.name, sentences[0])
    for k, sentence in enumerate(sentences):
        assert len(sentence) <= MAX_FIXED, (task.name, sentence)
        if k and pending and fixed + len(sentence) > MAX_FIXED:
            parts.append(_inline(pending.pop(0)))
            fixed = 0
        parts.append(sentence)
        fixed += len(sentence) + 1
    if not any(p.startswith("For example") for p in parts):
        parts.insert(1, _inline(pending.pop(0)))
    prompt = head + " ".join(parts)
    shown = pending[:3]
    if shown:
        prompt += "\n\nMore examples:\n" + "\n".join(shown)
    prompt += "\n\nReply with the code only; use the standard library only."
    return prompt, tests


def make_rows() -> list[dict]:
    tasks = []
    prompts: set[str] = set()
    for difficulty, category, family in FAMILIES:
        rng = random.Random(_lib.stable_seed(DATASET_ID, SEED, family.__name__))
        for i in range(VARIANTS):
            for _attempt in range(50):  # a variant whose prompt repeats an earlier one is redrawn
                task = family(rng, i)
                prompt, tests = render(task)
                if prompt not in prompts:
                    break
            else:
                raise AssertionError(f"{family.__name__}: no new variant {i}")
            prompts.add(prompt)
            tasks.append((difficulty, category, family.__name__.removeprefix("fam_"), task, prompt, tests))
    results = execute([(t.reference, tests) for *_, t, _p, tests in tasks] + [(t.broken, tests) for *_, t, _p, tests in tasks])
    n = len(tasks)
    rows = []
    for k, (difficulty, category, family, task, prompt, tests) in enumerate(tasks):
        assert results[k], f"{family} variant {k}: the reference fails its tests\n{task.reference}\n{tests}"
        assert not results[n + k], f"{family} variant {k}: the broken version passes the tests\n{task.broken}\n{tests}"
        rows.append({
            "id": f"code-{k + 1:04d}",
            "category": category,
            "difficulty": difficulty,
            "prompt": prompt,
            "answer": task.reference,
            "scorer": "code_exec",
            "tests": tests,
            "meta": {
                "family": family,
                "entry_point": task.name,
                "broken": task.broken,
                "broken_how": task.broken_how,
                "oracle": task.oracle,
                "proof": "reference passes and broken fails when executed (sandbox contract, default limits)",
            },
        })
    return rows


def generate(out: Path) -> None:
    rows = make_rows()
    _lib.assert_unique_text((r["id"], r["prompt"]) for r in rows)
    card = _lib.eval_dataset_json(
        dataset_id=DATASET_ID,
        description=(
            "Small Python functions and one class per row, scored by code_exec: the model's "
            "code runs in the sandbox followed by the row's hidden assert tests. Expected "
            "values come from independent oracles; the reference passes and a plausible "
            "broken version fails, both executed by the generator"
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        default_scorer="code_exec",
        extra={"tests_contract": "tests run after the program in the same namespace (__name__ == 'solution'); pass iff both complete", "limits": LIMITS},
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
