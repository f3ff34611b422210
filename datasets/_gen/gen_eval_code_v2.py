# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-code-v2: genuinely distinct Python problems with hidden tests, scored by
`code_exec` (supersedes eval-code-v1, which stays published and immutable).

eval-code-v1 has 310 rows but only 132 distinct reference programs: many variants of a
family differ only in wording, so one program passes the tests of several rows. v2 fixes
that by construction *and* by proof:

* every row of a family asks for the same entry point(s) (same names, same signature), and
  its variant parameters (divisors, bases, tie-break rules, cache policies, precedence
  tables, overdraft limits, ...) change the behaviour the prompt states;
* the tests of row j start from the row's own cases; then, for every other row i of the
  family whose reference still passes them, the generator adds a case from the family's
  pool (all cases of all variants) on which reference i disagrees with row j's oracle --
  the expected value always comes from row j's oracle;
* finally the generator executes every reference against every other row's tests of its
  family (the n x n distinctness matrix) and asserts that reference i fails tests j for
  every i != j, and that no two rows anywhere share a reference text.

The proof, per row (as in v1):

1. every expected value comes from an *oracle* written independently of the reference
   (brute force over counts or subsets, the `csv` module, step-by-step simulation with
   explicit timestamps or snapshots, Bellman-Ford relaxation, closed formulas);
2. the reference is *executed* against the tests and must pass;
3. a plausible broken version (`meta.broken`, `meta.broken_how`) is executed against the
   same tests and must fail.

Hard rows ask for several functions, or for a class whose methods are called in sequence,
and state their edge cases (empty input, negatives, duplicates, ties, errors) explicitly.

Test format: tests only call the top-level functions and classes the prompt names and
compare plain return values (None, bool, int, str, list, tuple, dict); expected exceptions
are builtin types checked with try/except/else; no test passes a function into the
candidate, imports the candidate module, or compares, hashes or truth-tests a candidate
object -- so the same tests work when a trusted judge runs them outside the candidate's
process with only plain values crossing back.

Execution: the distinctness matrix runs trusted reference code with plain in-process
`exec` (a fresh namespace per pair). Steps 2-3 use the sandbox's contract and default
limits, standard library only like v1: one child interpreter (`-I -S -B`, scrubbed
environment, scratch directory) that forks per program and applies the limits.
tests/corpus/test_eval_code_v2.py repeats the proof (matrix in-process, pass/broken with
the real sandbox on a sample).

    python datasets/_gen/gen_eval_code_v2.py [--out DIR]
"""

from __future__ import annotations

import csv
import datetime as dt
import heapq
import io
import itertools
import json
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

DATASET_ID = "eval-code-v2"
DATE = "2026-12-01"
SEED = 5_600_202
VARIANTS = 10
LIMITS = {"cpu_seconds": 5, "memory_bytes": 512 * 2**20, "max_file_bytes": 8 * 2**20, "max_open_files": 64, "wall_seconds": 10}


# --- problem model ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Raises:
    """Expected outcome: the call raises this builtin exception type."""

    exc: str


# A case is ("call", function, args) or ("session", class, ctor_args, ops) with ops a tuple
# of (method, args). The oracle maps a case to its expected value (a session: one expected
# value per op; ops whose method is in `void` are called without checking the result).


@dataclass
class Problem:
    entries: list[str]  # every top-level name the prompt asks for (the first is the entry point)
    head: str  # "Write a Python function `f(x)` that" / "Write Python code that"
    spec: str
    reference: str
    broken: str
    broken_how: str
    oracle: Callable[[tuple], Any]
    cases: list[tuple]
    oracle_name: str
    void: frozenset = frozenset()
    n_examples: int = 2


def fn(name: str, *args: Any) -> tuple:
    return ("call", name, tuple(args))


def session(cls: str, ctor: tuple, ops: list) -> tuple:
    return ("session", cls, tuple(ctor), tuple((m, tuple(a)) for m, a in ops))


def _args(args: tuple) -> str:
    return ", ".join(repr(a) for a in args)


def render_case(case: tuple, expected: Any, void: frozenset) -> str:
    if case[0] == "call":
        call = f"{case[1]}({_args(case[2])})"
        if isinstance(expected, Raises):
            return f"try:\n    {call}\nexcept {expected.exc}:\n    pass\nelse:\n    raise AssertionError({(call + ' should raise ' + expected.exc)!r})\n"
        return f"assert {call} == {expected!r}\n"
    _, cls, ctor, ops = case
    lines = [f"obj = {cls}({_args(ctor)})\n"]
    for (method, args), want in zip(ops, expected):
        call = f"obj.{method}({_args(args)})"
        if isinstance(want, Raises):
            lines.append(f"try:\n    {call}\nexcept {want.exc}:\n    pass\nelse:\n    raise AssertionError({(call + ' should raise ' + want.exc)!r})\n")
        elif method in void:
            lines.append(call + "\n")
        else:
            lines.append(f"assert {call} == {want!r}\n")
    return "".join(lines)


def example_text(case: tuple, expected: Any, void: frozenset) -> str:
    if case[0] == "call":
        call = f"{case[1]}({_args(case[2])})"
        return f"{call} raises {expected.exc}" if isinstance(expected, Raises) else f"{call} -> {expected!r}"
    _, cls, ctor, ops = case
    parts = [f"c = {cls}({_args(ctor)})"]
    for (method, args), want in zip(ops, expected):
        call = f"c.{method}({_args(args)})"
        if isinstance(want, Raises):
            parts.append(f"{call} raises {want.exc}")
        elif method in void:
            parts.append(call)
        else:
            parts.append(f"{call} -> {want!r}")
    return "; ".join(parts)


def expected_of(problem: Problem, case: tuple) -> Any:
    """The oracle's value for a case, or KeyError when the case is outside this variant's domain."""
    try:
        return problem.oracle(case)
    except (KeyError, IndexError, ValueError, TypeError, ZeroDivisionError, AssertionError) as error:
        raise LookupError(f"case outside the domain: {error}") from error


def render_tests(problem: Problem, cases: list[tuple]) -> str:
    return "".join(render_case(c, expected_of(problem, c), problem.void) for c in cases)


# --- in-process execution (trusted references only) -------------------------------------------


def passes_in_process(program: str, tests: str) -> bool:
    namespace: dict[str, Any] = {"__name__": "solution"}
    try:
        exec(compile(program, "solution.py", "exec"), namespace)  # noqa: S102 -- generator-authored reference code
        exec(compile(tests, "tests.py", "exec"), namespace)  # noqa: S102
    except Exception:
        return False
    return True


def call_oracle(f: Callable[..., Any]) -> Callable[[tuple], Any]:
    def oracle(case: tuple) -> Any:
        if case[0] != "call":
            raise ValueError("not a call")
        return f(*case[2])

    return oracle


# ==== easy =====================================================================================


def fam_sum_multiples(rng: random.Random, i: int, opts: list) -> Problem:
    (a, b), inclusive = opts[i]
    name = "sum_multiples"
    bound = "from 1 up to and including n" if inclusive else "from 1 up to but not including n"
    spec = (f"returns the sum of the integers {bound} that are divisible by {a} or by {b} (a number divisible by both counts once). "
            f"When there are no such numbers (n may be 0 or negative) it returns 0.")
    stop = "n + 1" if inclusive else "n"
    ref = f"def {name}(n):\n    return sum(k for k in range(1, {stop}) if k % {a} == 0 or k % {b} == 0)\n"
    wrong = "n" if inclusive else "n + 1"
    broken = f"def {name}(n):\n    return sum(k for k in range(1, {wrong}) if k % {a} == 0 or k % {b} == 0)\n"

    def tri(d: int, m: int) -> int:
        q = m // d if m > 0 else 0
        return d * q * (q + 1) // 2

    def oracle(n: int) -> int:
        m = n if inclusive else n - 1
        lcm = a * b // _gcd(a, b)
        return tri(a, m) + tri(b, m) - tri(lcm, m)

    ns = [-7, 0, 1, a, b, a * b, rng.randrange(10, 60), rng.randrange(100, 1000), rng.randrange(1000, 5000)]
    return Problem([name], f"Write a Python function `{name}(n)` that", spec, ref, broken,
                   "off by one at the upper bound (the other inclusivity)", call_oracle(oracle), [fn(name, n) for n in ns],
                   "inclusion-exclusion closed formula")


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def opts_sum_multiples(rng: random.Random) -> list:
    pairs = [(a, b) for a in range(2, 14) for b in range(a + 1, 14) if b % a]
    rng.shuffle(pairs)
    return [(pairs[k], k % 2 == 0) for k in range(VARIANTS)]


def fam_count_letters(rng: random.Random, i: int, opts: list) -> Problem:
    letters, insensitive = opts[i]
    name = "count_letters"
    listed = ", ".join(letters)
    if insensitive:
        spec = f"returns how many characters of the string s are one of the letters {listed}, ignoring case: upper-case forms count too. The empty string gives 0."
        ref = f"def {name}(s):\n    return sum(1 for c in s.lower() if c in {letters!r})\n"
        broken = f"def {name}(s):\n    return sum(1 for c in s if c in {letters!r})\n"
        how = "forgets to ignore case"
    else:
        spec = f"returns how many characters of the string s are one of the lower-case letters {listed}. Upper-case letters do not count. The empty string gives 0."
        ref = f"def {name}(s):\n    return sum(1 for c in s if c in {letters!r})\n"
        broken = f"def {name}(s):\n    return sum(1 for c in s.lower() if c in {letters!r})\n"
        how = "counts upper-case letters too"

    def oracle(s: str) -> int:
        counts = Counter(s.lower() if insensitive else s)
        return sum(counts[c] for c in sorted(set(letters)))

    pool = letters + letters.upper() + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,!"
    inputs = ["", letters.upper(), letters] + ["".join(rng.choice(pool) for _ in range(rng.randrange(8, 30))) for _ in range(5)]
    inputs.append("".join(rng.sample("abcdefghijklmnopqrstuvwxyz", 26)).upper() + "abcdefghijklmnopqrstuvwxyz")
    return Problem([name], f"Write a Python function `{name}(s)` that", spec, ref, broken, how, call_oracle(oracle),
                   [fn(name, s) for s in inputs], "collections.Counter")


def opts_count_letters(rng: random.Random) -> list:
    out, seen = [], set()
    while len(out) < VARIANTS:
        letters = "".join(sorted(rng.sample("abcdefghijklmnopqrstuvwxyz", rng.randrange(3, 6))))
        if letters not in seen:
            seen.add(letters)
            out.append((letters, len(out) % 2 == 0))
    return out


def fam_chunk(rng: random.Random, i: int, opts: list) -> Problem:
    mode, fill = opts[i]
    name = "chunk"
    base = "splits the list items into consecutive lists of length size and returns the list of them. "
    if mode == "keep":
        tail = "A shorter last chunk is kept as it is."
        ref_tail = "    return out\n"
        broken_tail = "    return [c for c in out if len(c) == size]\n"
        how = "drops the shorter last chunk"
    elif mode == "drop":
        tail = "A shorter last chunk is dropped, so every returned chunk has exactly size items."
        ref_tail = "    return [c for c in out if len(c) == size]\n"
        broken_tail = "    return out\n"
        how = "keeps the shorter last chunk"
    else:
        tail = f"A shorter last chunk is padded at its end with {fill!r} until it has size items."
        ref_tail = f"    if out and len(out[-1]) < size:\n        out[-1] = out[-1] + [{fill!r}] * (size - len(out[-1]))\n    return out\n"
        broken_tail = "    return out\n"
        how = "does not pad the last chunk"
    spec = base + tail + " An empty list gives []. A size below 1 raises ValueError."
    head = f"def {name}(items, size):\n    if size < 1:\n        raise ValueError('size must be at least 1')\n    out = [items[k:k + size] for k in range(0, len(items), size)]\n"
    ref = head + ref_tail
    broken = head + broken_tail

    def oracle(items: list, size: int) -> Any:
        if size < 1:
            return Raises("ValueError")
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

    cases = [fn(name, [], 2), fn(name, [1, 2, 3], 0), fn(name, [4, 5], -1)]
    for n, size in [(6, 3), (7, 3), (5, 1), (3, 5), (rng.randrange(8, 20), rng.randrange(2, 6))]:
        cases.append(fn(name, [rng.randrange(1, 99) for _ in range(n)], size))
    return Problem([name], f"Write a Python function `{name}(items, size)` that", spec, ref, broken, how,
                   call_oracle(oracle), cases, "item-by-item accumulation")


def opts_chunk(rng: random.Random) -> list:
    fills = [0, None, -1, "", "x", 99, "-", 7]
    rng.shuffle(fills)
    out = [("keep", None), ("drop", None)] + [("pad", f) for f in fills]
    rng.shuffle(out)
    return out


def fam_fizz(rng: random.Random, i: int, opts: list) -> Problem:
    a, b, w1, w2 = opts[i]
    name = "fizz_word"
    spec = (f"returns '{w1}{w2}' when the integer n is divisible by both {a} and {b}, '{w1}' when only by {a}, "
            f"'{w2}' when only by {b}, and otherwise str(n). Zero is divisible by every number; n may be negative.")
    ref = (f"def {name}(n):\n    out = ''\n    if n % {a} == 0:\n        out += {w1!r}\n    if n % {b} == 0:\n        out += {w2!r}\n"
           f"    return out or str(n)\n")
    broken = (f"def {name}(n):\n    if n % {a} == 0:\n        return {w1!r}\n    if n % {b} == 0:\n        return {w2!r}\n    return str(n)\n")

    def oracle(n: int) -> str:
        table = {(True, True): w1 + w2, (True, False): w1, (False, True): w2, (False, False): str(n)}
        return table[(abs(n) % a == 0, abs(n) % b == 0)]

    ns = [1, a, b, a * b, 0, -a * b, -b, rng.randrange(11, 99), rng.randrange(100, 999), 2 * a * b + 1]
    return Problem([name], f"Write a Python function `{name}(n)` that", spec, ref, broken,
                   "checks the single divisors first, so a multiple of both returns only the first word",
                   call_oracle(oracle), [fn(name, n) for n in ns], "lookup table on the two divisibility tests")


def opts_fizz(rng: random.Random) -> list:
    words = ["Fizz", "Buzz", "Bang", "Pop", "Zap", "Ping", "Boom", "Tick", "Whir", "Clank"]
    out, seen = [], set()
    while len(out) < VARIANTS:
        a, b = rng.sample([2, 3, 4, 5, 7, 11], 2)
        if a % b == 0 or b % a == 0:
            continue
        w1, w2 = rng.sample(words, 2)
        if (a, b) in seen:
            continue
        seen.add((a, b))
        out.append((a, b, w1, w2))
    return out


def fam_digit_sum(rng: random.Random, i: int, opts: list) -> Problem:
    base = opts[i]
    name = "digit_sum"
    spec = (f"returns the sum of the digit values of the integer n written in base {base}. "
            f"A negative n gives the same result as its absolute value, and 0 gives 0.")
    ref = f"def {name}(n):\n    n = abs(n)\n    total = 0\n    while n > 0:\n        n, d = divmod(n, {base})\n        total += d\n    return total\n"
    broken = f"def {name}(n):\n    total = 0\n    while n > 0:\n        n, d = divmod(n, {base})\n        total += d\n    return total\n"

    def oracle(n: int) -> int:
        n = abs(n)
        power = 1
        while power * base <= n:
            power *= base
        total = 0
        while power >= 1:
            d = n // power
            total += d
            n -= d * power
            power //= base
        return total

    ns = [0, 1, base - 1, base, base ** 3 + 1, -(base ** 2 + 3), rng.randrange(100, 10 ** 6), -rng.randrange(10 ** 6, 10 ** 9), 10 ** 6, 255]
    return Problem([name], f"Write a Python function `{name}(n)` that", spec, ref, broken, "forgets the absolute value (negative n gives 0)",
                   call_oracle(oracle), [fn(name, n) for n in ns], "greedy powers of the base")


def opts_digit_sum(rng: random.Random) -> list:
    bases = [2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16, 20]
    rng.shuffle(bases)
    return bases[:VARIANTS]


def fam_shift_letters(rng: random.Random, i: int, opts: list) -> Problem:
    k, forward = opts[i]
    name = "shift_letters"
    way = "forward" if forward else "backward"
    spec = (f"returns s with every ASCII letter moved {k} places {way} in the alphabet, wrapping around between z and a, and keeping its case. "
            f"Every other character (digits, spaces, punctuation, accented letters) is unchanged.")
    step = k if forward else 26 - k
    ref = (f"def {name}(s):\n    out = []\n    for c in s:\n        if 'a' <= c <= 'z':\n            out.append(chr((ord(c) - 97 + {step}) % 26 + 97))\n"
           f"        elif 'A' <= c <= 'Z':\n            out.append(chr((ord(c) - 65 + {step}) % 26 + 65))\n        else:\n            out.append(c)\n    return ''.join(out)\n")
    broken = ref.replace(f"        elif 'A' <= c <= 'Z':\n            out.append(chr((ord(c) - 65 + {step}) % 26 + 65))\n", "")
    lower = "abcdefghijklmnopqrstuvwxyz"

    def oracle(s: str) -> str:
        r = step % 26
        table = str.maketrans(lower + lower.upper(), lower[r:] + lower[:r] + (lower[r:] + lower[:r]).upper())
        return s.translate(table)

    inputs = ["", "xyz ABC", "Hello, World!", "z", "Zebra-42", "é and ü stay"]
    inputs += ["".join(rng.choice(lower + lower.upper() + " 0123.") for _ in range(rng.randrange(8, 20))) for _ in range(3)]
    return Problem([name], f"Write a Python function `{name}(s)` that", spec, ref, broken, "leaves upper-case letters unshifted",
                   call_oracle(oracle), [fn(name, s) for s in inputs], "str.maketrans over the rotated alphabet")


def opts_shift_letters(rng: random.Random) -> list:
    ks = rng.sample(range(1, 13), VARIANTS)
    return [(k, n % 2 == 0) for n, k in enumerate(ks)]


def fam_kth_largest(rng: random.Random, i: int, opts: list) -> Problem:
    k, distinct = opts[i]
    name = "kth_largest"
    nth = {1: "largest", 2: "second largest", 3: "third largest", 4: "fourth largest", 5: "fifth largest", 6: "sixth largest"}[k]
    if distinct:
        spec = (f"returns the {nth} value of the list items counting each distinct value once, so duplicates do not count twice. "
                f"When items has fewer than {k} distinct values it returns None.")
        ref = f"def {name}(items):\n    values = sorted(set(items), reverse=True)\n    return values[{k - 1}] if len(values) >= {k} else None\n"
        broken = f"def {name}(items):\n    values = sorted(items, reverse=True)\n    return values[{k - 1}] if len(values) >= {k} else None\n"
        how = "counts duplicates separately"
        if k == 1:
            broken = f"def {name}(items):\n    values = sorted(set(items))\n    return values[0] if values else None\n"
            how = "sorts ascending, so it returns the smallest value"
    else:
        spec = (f"returns the {nth} value of the list items where duplicates count separately (position {k} of the list sorted from largest down). "
                f"When items has fewer than {k} values it returns None.")
        ref = f"def {name}(items):\n    values = sorted(items, reverse=True)\n    return values[{k - 1}] if len(values) >= {k} else None\n"
        broken = f"def {name}(items):\n    values = sorted(set(items), reverse=True)\n    return values[{k - 1}] if len(values) >= {k} else None\n"
        how = "removes duplicates first"

    def oracle(items: list) -> Any:
        rest = list(items)
        for _ in range(k - 1):
            if not rest:
                return None
            top = max(rest)
            if distinct:
                rest = [x for x in rest if x != top]
            else:
                rest.remove(top)
        return max(rest) if rest else None

    cases = [fn(name, []), fn(name, [5] * 6), fn(name, [3, 1, 2]), fn(name, [-4, -9, -4, -1, -9, -2, 0])]
    for _ in range(5):
        cases.append(fn(name, [rng.randrange(-5, 12) for _ in range(rng.randrange(4, 12))]))
    return Problem([name], f"Write a Python function `{name}(items)` that", spec, ref, broken, how, call_oracle(oracle), cases,
                   "repeated removal of the maximum")


def opts_kth_largest(rng: random.Random) -> list:
    out = [(k, True) for k in range(1, 6)] + [(k, False) for k in range(2, 7)]  # k = 1 is the same either way
    rng.shuffle(out)
    return out


def fam_title_case(rng: random.Random, i: int, opts: list) -> Problem:
    minor, last_cap = opts[i]
    name = "title_case"
    listed = ", ".join(minor)
    rule = " and the last word" if last_cap else ""
    spec = (f"returns the string s in title case. The input is words separated by single spaces. Each word gets an upper-case first letter and a lower-case rest, "
            f"except the small words {listed}: they are written all lower-case unless they are the first word{rule}. The empty string gives ''.")
    keep_last = " or k == len(words) - 1" if last_cap else ""
    ref = (f"SMALL = {tuple(minor)!r}\n\n\ndef {name}(s):\n    words = s.split(' ') if s else []\n    out = []\n    for k, w in enumerate(words):\n"
           f"        if w.lower() in SMALL and not (k == 0{keep_last}):\n            out.append(w.lower())\n        else:\n            out.append(w[:1].upper() + w[1:].lower())\n"
           f"    return ' '.join(out)\n")
    broken = ref.replace(f"not (k == 0{keep_last})", f"not ({keep_last.removeprefix(' or ') or 'False'})")

    def oracle(s: str) -> str:
        if s == "":
            return ""
        words = s.split(" ")
        out = []
        for k, w in enumerate(words):
            small = w.lower() in minor
            protected = k == 0 or (last_cap and k == len(words) - 1)
            if small and not protected:
                out.append(w.lower())
            else:
                out.append("".join(ch.upper() if j == 0 else ch.lower() for j, ch in enumerate(w)))
        return " ".join(out)

    vocab = ["river", "STONE", "light", "mOuntain", "echo", "garden", "winter", "code", "map", "tale"]
    small_pool = ["a", "an", "the", "of", "and", "or", "in", "on", "to", "for", "at", "by", "with"]
    inputs = ["", f"{minor[0]} {vocab[0]} {minor[-1]}", f"{minor[0].upper()} quiet {minor[1]} night {minor[0]}"]
    for _ in range(5):
        words = [rng.choice(vocab + small_pool) for _ in range(rng.randrange(3, 8))]
        inputs.append(" ".join(w.upper() if rng.random() < 0.2 else w for w in words))
    inputs.append(" ".join(small_pool))
    return Problem([name], f"Write a Python function `{name}(s)` that", spec, ref, broken,
                   "lower-cases a small word even when it is the first word", call_oracle(oracle), [fn(name, s) for s in inputs],
                   "character-by-character capitalisation")


def opts_title_case(rng: random.Random) -> list:
    pool = ["a", "an", "the", "of", "and", "or", "in", "on", "to", "for", "at", "by", "with"]
    out, seen = [], set()
    while len(out) < VARIANTS:
        minor = tuple(sorted(rng.sample(pool, rng.randrange(3, 6))))
        if minor not in seen:
            seen.add(minor)
            out.append((minor, len(out) % 2 == 1))
    return out


RLE_FORMATS = [
    ("{c}{n}", "", False), ("{n}{c}", "", False), ("{c}{n}", "", True), ("{n}{c}", "", True), ("{c}x{n}", ",", False),
    ("{c}:{n}", ";", False), ("{n}*{c}", " ", False), ("{c}{n}", "-", False), ("[{c}{n}]", "", False), ("{c}{n}", "|", True),
]


def fam_rle(rng: random.Random, i: int, opts: list) -> Problem:
    fmt, sep, omit_one = opts[i]
    name = "run_length"
    shown = fmt.replace("{c}", "<char>").replace("{n}", "<count>")
    spec = (f"encodes the runs of equal consecutive characters of s. Each run is written as {shown!r}"
            + (", except that a run of length 1 is written as the character alone" if omit_one else "")
            + (f", and the pieces are joined with {sep!r}." if sep else ", with nothing between pieces.")
            + " The empty string gives ''. Case matters: 'a' and 'A' are different characters.")
    piece = f"({fmt!r}.format(c=c, n=n) if n > 1 else c)" if omit_one else f"{fmt!r}.format(c=c, n=n)"
    ref = (f"def {name}(s):\n    pieces = []\n    k = 0\n    while k < len(s):\n        j = k\n        while j < len(s) and s[j] == s[k]:\n            j += 1\n"
           f"        c, n = s[k], j - k\n        pieces.append({piece})\n        k = j\n    return {sep!r}.join(pieces)\n")
    broken = (f"def {name}(s):\n    pieces = []\n    start = 0\n    for k in range(1, len(s)):\n"
              f"        if s[k] != s[k - 1]:\n            c, n = s[start], k - start\n            pieces.append({piece})\n            start = k\n"
              f"    return {sep!r}.join(pieces)\n")

    def oracle(s: str) -> str:
        out = []
        for c, grp in itertools.groupby(s):
            n = len(list(grp))
            out.append(c if omit_one and n == 1 else fmt.format(c=c, n=n))
        return sep.join(out)

    inputs = ["", "a", "aaAA", "abc", "zzzzzzzzzzzz"]
    for _ in range(4):
        inputs.append("".join(rng.choice("aab") * rng.randrange(1, 5) for _ in range(rng.randrange(3, 7))))
    return Problem([name], f"Write a Python function `{name}(s)` that", spec, ref, broken, "never writes the last run",
                   call_oracle(oracle), [fn(name, s) for s in inputs], "itertools.groupby")


def opts_rle(rng: random.Random) -> list:
    out = list(RLE_FORMATS)
    rng.shuffle(out)
    return out


def fam_mask(rng: random.Random, i: int, opts: list) -> Problem:
    k, m = opts[i]
    name = "mask"
    spec = (f"returns s with every character except the last {k} replaced by {m!r}. "
            f"A string of at most {k} characters is returned unchanged, and spaces are replaced like any other character.")
    ref = f"def {name}(s):\n    if len(s) <= {k}:\n        return s\n    return {m!r} * (len(s) - {k}) + s[-{k}:]\n"
    broken = f"def {name}(s):\n    if len(s) <= {k}:\n        return s\n    return {m!r} * (len(s) - {k + 1}) + s[-{k + 1}:]\n"

    def oracle(s: str) -> str:
        return "".join(ch if j >= len(s) - k else m for j, ch in enumerate(s))

    inputs = ["", "ab", "abcd", "1234567890", "hello world", "x" * 7, "card 4000 1234"]
    inputs += ["".join(rng.choice("0123456789abc ") for _ in range(rng.randrange(3, 16))) for _ in range(3)]
    return Problem([name], f"Write a Python function `{name}(s)` that", spec, ref, broken, "keeps one character too many visible",
                   call_oracle(oracle), [fn(name, s) for s in inputs], "per-position rule")


def opts_mask(rng: random.Random) -> list:
    out = [(k, m) for k in (2, 3, 4, 5, 6) for m in ("*", "#")]
    rng.shuffle(out)
    return out


# ==== medium ===================================================================================


def fam_merge_gaps(rng: random.Random, i: int, opts: list) -> Problem:
    g = opts[i]
    name = "merge_intervals"
    rule = ("two intervals are merged when they overlap or touch (the next start equals the current end)" if g == 0 else
            f"two intervals are merged when they overlap or when the gap between them (next start minus current end) is at most {g}")
    spec = (f"merges a list of [start, end] integer pairs (start <= end, in any order). "
            f"It returns the merged intervals sorted by start, as [start, end] lists. Here {rule}. An empty list gives [].")
    ref = (f"def {name}(intervals):\n    out = []\n    for s, e in sorted(intervals):\n        if out and s - out[-1][1] <= {g}:\n"
           f"            out[-1][1] = max(out[-1][1], e)\n        else:\n            out.append([s, e])\n    return out\n")
    broken = ref.replace("sorted(intervals)", "intervals")

    def oracle(intervals: list) -> list:
        groups = [[s, e] for s, e in intervals]
        changed = True
        while changed:
            changed = False
            for a, b in itertools.combinations(range(len(groups)), 2):
                x, y = groups[a], groups[b]
                lo, hi = (x, y) if x[0] <= y[0] else (y, x)
                if hi[0] - lo[1] <= g:
                    groups[a] = [min(x[0], y[0]), max(x[1], y[1])]
                    del groups[b]
                    changed = True
                    break
        return sorted(groups)

    cases = [fn(name, []), fn(name, [[5, 9]]), fn(name, [[1, 3], [3 + g, 8]]), fn(name, [[10, 12], [1, 4], [4 + g + 1, 6 + g]])]
    for _ in range(5):
        ivs = []
        for _ in range(rng.randrange(3, 7)):
            s = rng.randrange(0, 40)
            ivs.append([s, s + rng.randrange(0, 6)])
        cases.append(fn(name, ivs))
    return Problem([name], f"Write a Python function `{name}(intervals)` that", spec, ref, broken, "does not sort the intervals first",
                   call_oracle(oracle), cases, "pairwise merging until nothing changes")


def opts_merge_gaps(rng: random.Random) -> list:
    gs = [0, 1, 2, 3, 4, 5, 6, 8, 10, 12]
    rng.shuffle(gs)
    return gs


BRACKETS = ["()", "[]", "{}", "<>"]


def fam_balanced(rng: random.Random, i: int, opts: list) -> Problem:
    pairs = opts[i]
    name = "is_balanced"
    listed = " ".join(pairs)
    others = " ".join(c for p in BRACKETS if p not in pairs for c in p)
    spec = (f"returns True when the brackets in s are balanced: every opening bracket is closed by its partner, in the right order. "
            f"Only these pairs are brackets: {listed}." + (f" The characters {others} are ordinary characters here and are ignored, like letters." if others else "")
            + " The empty string is balanced.")
    opening = "".join(p[0] for p in pairs)
    closing = "".join(p[1] for p in pairs)
    ref = (f"def {name}(s):\n    partner = dict(zip({closing!r}, {opening!r}))\n    stack = []\n    for c in s:\n        if c in {opening!r}:\n            stack.append(c)\n"
           f"        elif c in partner:\n            if not stack or stack.pop() != partner[c]:\n                return False\n    return not stack\n")
    broken = (f"def {name}(s):\n    return all(s.count(a) == s.count(b) for a, b in zip({opening!r}, {closing!r}))\n")

    def oracle(s: str) -> bool:
        kept = "".join(c for c in s if any(c in p for p in pairs))
        while True:
            shorter = kept
            for p in pairs:
                shorter = shorter.replace(p, "")
            if shorter == kept:
                return kept == ""
            kept = shorter

    alphabet = "".join(BRACKETS) + "ab"
    inputs = ["", "".join(pairs), "".join(p[1] + p[0] for p in pairs), "".join(p[0] for p in pairs) + "".join(p[1] for p in pairs)[::-1],
              "(<)>", "{[}]", "x(y)z<", "[(])"]
    for _ in range(6):
        body = ""
        for _ in range(rng.randrange(2, 6)):
            p = rng.choice(BRACKETS)
            body = rng.choice([p[0] + body + p[1], body + p, p[1] + body])
        inputs.append(body)
    inputs.append("".join(rng.choice(alphabet) for _ in range(8)))
    return Problem([name], f"Write a Python function `{name}(s)` that", spec, ref, broken, "only compares counts, ignoring the order",
                   call_oracle(oracle), [fn(name, s) for s in inputs], "repeated removal of adjacent pairs")


def opts_balanced(rng: random.Random) -> list:
    subsets = [tuple(c) for r in (1, 2, 3, 4) for c in itertools.combinations(BRACKETS, r)]
    rng.shuffle(subsets)
    return subsets[:VARIANTS]


def fam_top_words(rng: random.Random, i: int, opts: list) -> Problem:
    min_len, tie = opts[i]
    name = "top_words"
    ties = {"alpha": "alphabetically", "first": "by first appearance in the text", "reverse": "in reverse alphabetical order"}[tie]
    spec = (f"returns the n most frequent words of text, most frequent first. A word is a maximal run of the letters a-z after lower-casing the text, "
            f"and only words of at least {min_len} letters count. Words with equal counts are ordered {ties}. "
            f"When fewer than n words qualify, all of them are returned; an empty text gives [].")
    if tie == "alpha":
        key = "key=lambda w: (-counts[w], w)"
    elif tie == "reverse":
        key = "key=lambda w: (-counts[w], [-ord(ch) for ch in w] + [1])"
    else:
        key = "key=lambda w: (-counts[w], first[w])"
    ref = (f"import re\n\n\ndef {name}(text, n):\n    words = [w for w in re.findall('[a-z]+', text.lower()) if len(w) >= {min_len}]\n"
           f"    counts, first = {{}}, {{}}\n    for k, w in enumerate(words):\n        counts[w] = counts.get(w, 0) + 1\n        first.setdefault(w, k)\n"
           f"    return sorted(counts, {key})[:n]\n")
    broken = ref.replace(key, "key=lambda w: -counts[w], reverse=False") if tie != "first" else ref.replace(key, "key=lambda w: (-counts[w], w)")

    def oracle(text: str, n: int) -> list:
        words, cur = [], ""
        for ch in text.lower() + " ":
            if "a" <= ch <= "z":
                cur += ch
            else:
                if len(cur) >= min_len:
                    words.append(cur)
                cur = ""
        distinct: list[str] = []
        for w in words:
            if w not in distinct:
                distinct.append(w)

        def before(a: str, b: str) -> bool:
            ca, cb = words.count(a), words.count(b)
            if ca != cb:
                return ca > cb
            if tie == "alpha":
                return a < b
            if tie == "reverse":
                return a > b
            return distinct.index(a) < distinct.index(b)

        out = []
        rest = list(distinct)
        while rest and len(out) < n:
            best = rest[0]
            for w in rest[1:]:
                if before(w, best):
                    best = w
            out.append(best)
            rest.remove(best)
        return out

    vocab = ["ox", "an", "sky", "tea", "moon", "oak", "pine", "river", "zeal", "ant", "be", "crisp", "dune", "a", "i", "o"]
    cases = [fn(name, "", 3), fn(name, "Ox, ox! an AN an sky", 2), fn(name, "a b c a b a i-o-u x2x", 3), fn(name, "moon oak pine moon OAK zeal", 5)]
    for _ in range(6):
        words = [rng.choice(vocab) for _ in range(rng.randrange(8, 20))]
        text = " ".join(w.upper() if rng.random() < 0.2 else w for w in words) + rng.choice([".", "!", "?", ""])
        cases.append(fn(name, text, rng.randrange(2, 5)))
    return Problem([name], f"Write a Python function `{name}(text, n)` that", spec, ref, broken, "ignores the tie-break rule",
                   call_oracle(oracle), cases, "selection by pairwise comparison")


def opts_top_words(rng: random.Random) -> list:
    out = [(m, t) for m in (1, 2, 3, 4) for t in ("alpha", "first", "reverse")]
    rng.shuffle(out)
    return out[:VARIANTS]


def fam_flatten(rng: random.Random, i: int, opts: list) -> Problem:
    depth, drop_none = opts[i]
    name = "flatten"
    how_deep = "completely, however deep the nesting" if depth is None else f"up to {depth} level{'s' if depth > 1 else ''} deep: lists nested deeper stay as lists"
    spec = (f"flattens the list items, whose elements may themselves be lists, {how_deep}. Tuples, strings and other values are never flattened. "
            + ("After flattening, every None left at the top level of the result is removed (a None inside a list that stays nested is kept)."
               if drop_none else "None values are kept like any other value.")
            + " An empty list gives [].")
    limit = "None" if depth is None else str(depth)
    test = "isinstance(x, list)" if depth is None else f"isinstance(x, list) and _level < {limit}"
    ref = (f"def {name}(items, _level=0):\n    out = []\n    for x in items:\n        if {test}:\n"
           f"            out.extend({name}(x, _level + 1))\n        else:\n            out.append(x)\n"
           + ("    if _level == 0:\n        out = [x for x in out if x is not None]\n" if drop_none else "")
           + "    return out\n")
    broken = ref.replace("(x, list)", "(x, (list, tuple))") if depth is None else ref.replace(f"_level < {limit}", f"_level <= {limit}")

    def oracle(items: list) -> list:
        current = list(items)
        rounds = 0
        while depth is None or rounds < depth:
            if not any(type(x) is list for x in current):
                break
            nxt = []
            for x in current:
                if type(x) is list:
                    nxt += x
                else:
                    nxt.append(x)
            current = nxt
            rounds += 1
        return [x for x in current if not (drop_none and x is None)]

    def nested(level: int) -> list:
        out: list = []
        for _ in range(rng.randrange(1, 4)):
            r = rng.random()
            if level < 4 and r < 0.4:
                out.append(nested(level + 1))
            elif r < 0.5:
                out.append(None)
            elif r < 0.6:
                out.append((rng.randrange(9), rng.randrange(9)))
            else:
                out.append(rng.randrange(100))
        return out

    cases = [fn(name, []), fn(name, [1, [2, [3, [4, [5, [None]]]]], None]), fn(name, [[None, "ab"], (1, [2]), [[], [[]]]])]
    cases += [fn(name, nested(0)) for _ in range(6)]
    return Problem([name], f"Write a Python function `{name}(items)` that", spec, ref, broken,
                   "also flattens tuples" if depth is None else "flattens one level too many",
                   call_oracle(oracle), cases, "level-by-level expansion")


def opts_flatten(rng: random.Random) -> list:
    out = [(d, n) for d in (1, 2, 3, 4, None) for n in (False, True)]
    rng.shuffle(out)
    return out


RUN_KINDS = {
    "step": ("each value is exactly 1 more than the one before it", "b == a + 1"),
    "increasing": ("each value is strictly greater than the one before it", "b > a"),
    "nondecreasing": ("each value is greater than or equal to the one before it", "b >= a"),
    "decreasing": ("each value is strictly smaller than the one before it", "b < a"),
    "equal": ("every value is equal to the one before it", "b == a"),
}


def fam_longest_run(rng: random.Random, i: int, opts: list) -> Problem:
    kind, last = opts[i]
    name = "longest_run"
    text, cond = RUN_KINDS[kind]
    spec = (f"returns (start, length) of the longest run of consecutive items of the list in which {text}. "
            f"A single item is a run of length 1. When several runs are equally long, return the {'last' if last else 'first'} one. "
            f"An empty list gives (0, 0).")
    better = ">=" if last else ">"
    ref = (f"def {name}(items):\n    if not items:\n        return (0, 0)\n    best_start, best_len = 0, 1\n    start = 0\n    for k in range(1, len(items) + 1):\n"
           f"        if k < len(items):\n            a, b = items[k - 1], items[k]\n            if {cond}:\n                continue\n"
           f"        if k - start {better} best_len:\n            best_start, best_len = start, k - start\n        start = k\n    return (best_start, best_len)\n")
    broken = ref.replace("range(1, len(items) + 1)", "range(1, len(items))")

    def oracle(items: list) -> tuple:
        best = (0, 0)
        for s in range(len(items)):
            for e in range(s + 1, len(items) + 1):
                ok = True
                for a, b in zip(items[s:e], items[s + 1:e]):
                    if not eval(cond, {}, {"a": a, "b": b}):  # noqa: S307 -- the generator's own condition text
                        ok = False
                if ok and (e - s > best[1] or (last and e - s == best[1])):
                    best = (s, e - s)
        return best

    cases = [fn(name, []), fn(name, [7]), fn(name, [3, 4, 5, 5, 6, 7, 1]), fn(name, [9, 8, 7, 7, 7, 2, 1]),
             fn(name, [5, 1, 2, 3, 4]), fn(name, [1, 9, 9, 9, 9]), fn(name, [1, 9, 7, 5, 3]), fn(name, [4, 4, 2, 3, 1, 2])]
    for _ in range(5):
        cases.append(fn(name, [rng.randrange(0, 6) for _ in range(rng.randrange(5, 12))]))
    return Problem([name], f"Write a Python function `{name}(items)` that", spec, ref, broken, "never checks the run that ends at the last item",
                   call_oracle(oracle), cases, "brute force over every window")


def opts_longest_run(rng: random.Random) -> list:
    out = [(k, last) for k in RUN_KINDS for last in (False, True)]
    rng.shuffle(out)
    return out


def fam_compress_ranges(rng: random.Random, i: int, opts: list) -> Problem:
    sep, dash, min_run = opts[i]
    name = "compress_ranges"
    spec = (f"takes a list of integers in any order, possibly with duplicates and negatives, and describes the distinct values in ascending order as a string. "
            f"A run of at least {min_run} consecutive integers is written as first{dash}last, other values one by one, and the pieces are joined with {sep!r}. "
            f"An empty list gives ''.")
    ref = (f"def {name}(nums):\n    values = sorted(set(nums))\n    pieces = []\n    k = 0\n    while k < len(values):\n        j = k\n"
           f"        while j + 1 < len(values) and values[j + 1] == values[j] + 1:\n            j += 1\n        if j - k + 1 >= {min_run}:\n"
           f"            pieces.append(f'{{values[k]}}{dash}{{values[j]}}')\n        else:\n            pieces.extend(str(v) for v in values[k:j + 1])\n        k = j + 1\n"
           f"    return {sep!r}.join(pieces)\n")
    broken = ref.replace("sorted(set(nums))", "sorted(nums)")

    def oracle(nums: list) -> str:
        if not nums:
            return ""
        present = set(nums)
        pieces, v = [], min(nums)
        while v <= max(nums):
            if v in present:
                e = v
                while e + 1 in present:
                    e += 1
                pieces += [f"{v}{dash}{e}"] if e - v + 1 >= min_run else [str(x) for x in range(v, e + 1)]
                v = e + 1
            else:
                v += 1
        return sep.join(pieces)

    cases = [fn(name, []), fn(name, [5]), fn(name, [3, 1, 2, 2, 3]), fn(name, [-3, -2, -1, 1, 2, 4, 5, 6, 7])]
    for _ in range(5):
        cases.append(fn(name, [rng.randrange(-5, 25) for _ in range(rng.randrange(5, 14))]))
    return Problem([name], f"Write a Python function `{name}(nums)` that", spec, ref, broken, "does not remove duplicates, which break runs",
                   call_oracle(oracle), cases, "membership walk from min to max")


def opts_compress_ranges(rng: random.Random) -> list:
    combos = [(s, d, m) for s in (",", ", ", ";", " ") for d in ("-", "..", "~", ":") for m in (2, 3)]
    rng.shuffle(combos)
    return combos[:VARIANTS]


WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def fam_business_days(rng: random.Random, i: int, opts: list) -> Problem:
    weekend, inclusive = opts[i]
    name = "working_days"
    days = " and ".join(WEEKDAYS[d] for d in weekend)
    spec = (f"takes two ISO dates 'YYYY-MM-DD' and returns how many working days lie from start up to {'and including' if inclusive else 'but not including'} end. "
            f"Every day is a working day except {days}. When end is before start the result is 0.")
    stop = "end + one" if inclusive else "end"
    ref = (f"import datetime\n\n\ndef {name}(start, end):\n    start = datetime.date.fromisoformat(start)\n    end = datetime.date.fromisoformat(end)\n"
           f"    one = datetime.timedelta(days=1)\n    count, day = 0, start\n    while day < {stop}:\n        if day.weekday() not in {tuple(weekend)!r}:\n"
           f"            count += 1\n        day += one\n    return count\n")
    broken = ref.replace(f"while day < {stop}:", f"while day <= {stop}:")

    def oracle(start: str, end: str) -> int:
        a = dt.date.fromisoformat(start).toordinal()
        b = dt.date.fromisoformat(end).toordinal() + (1 if inclusive else 0)
        return sum(1 for o in range(a, b) if (o - 1) % 7 not in weekend)

    base = dt.date(2026, 1, 5) + dt.timedelta(days=rng.randrange(0, 300))
    cases = [fn(name, "2026-03-02", "2026-03-02"), fn(name, "2026-03-09", "2026-03-02"), fn(name, "2026-02-27", "2026-03-03")]
    for _ in range(5):
        a = base + dt.timedelta(days=rng.randrange(0, 60))
        b = a + dt.timedelta(days=rng.randrange(1, 40))
        cases.append(fn(name, a.isoformat(), b.isoformat()))
    for d in range(7):
        day = dt.date(2026, 6, 1) + dt.timedelta(days=d)
        cases.append(fn(name, day.isoformat(), (day + dt.timedelta(days=1)).isoformat()))
    return Problem([name], f"Write a Python function `{name}(start, end)` that", spec, ref, broken, "counts one day too many at the end",
                   call_oracle(oracle), cases, "ordinal arithmetic (day 1 of year 1 is a Monday)")


def opts_business_days(rng: random.Random) -> list:
    weekends = [(5, 6), (4, 5), (6,), (4,), (0, 6), (5,)]
    out = [(w, inc) for w in weekends for inc in (False, True)]
    rng.shuffle(out)
    return out[:VARIANTS]


def fam_histogram(rng: random.Random, i: int, opts: list) -> Problem:
    w, include_empty = opts[i]
    name = "histogram"
    spec = (f"counts the integers of the list values per bucket of width {w}. The bucket of v starts at the largest multiple of {w} that is <= v, so negative values "
            f"fall in negative buckets. It returns a dict from bucket start to count"
            + (", including every empty bucket between the smallest and the largest one (with count 0)." if include_empty else ", holding only non-empty buckets.")
            + " An empty list gives {}.")
    fill = (f"    if out:\n        for b in range(min(out), max(out) + 1, {w}):\n            out.setdefault(b, 0)\n    return dict(sorted(out.items()))\n"
            if include_empty else "    return out\n")
    ref = f"def {name}(values):\n    out = {{}}\n    for v in values:\n        b = (v // {w}) * {w}\n        out[b] = out.get(b, 0) + 1\n" + fill
    broken = ref.replace(f"(v // {w}) * {w}", f"int(v / {w}) * {w}")

    def oracle(values: list) -> dict:
        out: dict[int, int] = {}
        for v in values:
            b = 0
            while b > v:
                b -= w
            while b + w <= v:
                b += w
            out[b] = out.get(b, 0) + 1
        if include_empty and out:
            b = min(out)
            while b < max(out):
                b += w
                out.setdefault(b, 0)
        return out

    cases = [fn(name, []), fn(name, [0, w - 1, w, -1]), fn(name, [-w, -w - 1, 3 * w + 1])]
    for _ in range(5):
        cases.append(fn(name, [rng.randrange(-30, 40) for _ in range(rng.randrange(3, 12))]))
    return Problem([name], f"Write a Python function `{name}(values)` that", spec, ref, broken, "truncates toward zero, so negative values land in the wrong bucket",
                   call_oracle(oracle), cases, "stepping bucket bounds")


def opts_histogram(rng: random.Random) -> list:
    out = [(w, e) for w in (2, 3, 4, 5, 10) for e in (False, True)]
    rng.shuffle(out)
    return out


def fam_parse_config(rng: random.Random, i: int, opts: list) -> Problem:
    sep, comment, keep_first, fold = opts[i]
    name = "parse_config"
    spec = (f"parses text of lines 'key{sep}value' into a dict. Lines are stripped first; blank lines and lines starting with {comment!r} are skipped. "
            f"A line is split at the first {sep!r} only, so values may contain it, and key and value are stripped. "
            + ("Keys are lower-cased. " if fold else "Keys are case-sensitive. ")
            + f"When a key repeats, the {'first' if keep_first else 'last'} value wins. A non-blank, non-comment line without {sep!r} raises ValueError.")
    ref = (f"def {name}(text):\n    out = {{}}\n    for raw in text.split('\\n'):\n        line = raw.strip()\n        if not line or line.startswith({comment!r}):\n            continue\n"
           f"        if {sep!r} not in line:\n            raise ValueError(f'bad line: {{line!r}}')\n        key, value = line.split({sep!r}, 1)\n        key = key.strip(){'.lower()' if fold else ''}\n"
           + ("        if key not in out:\n            out[key] = value.strip()\n" if keep_first else "        out[key] = value.strip()\n")
           + "    return out\n")
    broken = ref.replace(f"key, value = line.split({sep!r}, 1)", f"key, value = line.split({sep!r})[:2]")

    def oracle(text: str) -> Any:
        out: dict[str, str] = {}
        for raw in text.split("\n"):
            line = raw.strip()
            if line == "" or line[: len(comment)] == comment:
                continue
            pos = line.find(sep)
            if pos < 0:
                return Raises("ValueError")
            key = line[:pos].strip()
            key = key.lower() if fold else key
            value = line[pos + 1:].strip()
            if keep_first and key in out:
                continue
            out[key] = value
        return out

    keys = ["Host", "port", "PORT", "user", "mode", "path"]
    vals = ["alpha", "8080", "a=b", "x:y", "on", "/srv/data", "p;q", "#7"]

    def text_of(lines: list[str]) -> str:
        return "\n".join(lines)

    cases = [fn(name, ""), fn(name, f"  \n{comment} only a comment\n"), fn(name, f"a{sep}1\nbroken line\n")]
    for _ in range(6):
        lines = []
        for _ in range(rng.randrange(3, 7)):
            r = rng.random()
            s2 = rng.choice(["=", ":"])
            if r < 0.15:
                lines.append(rng.choice(["#", ";"]) + " note")
            elif r < 0.25:
                lines.append("")
            else:
                lines.append(f"{rng.choice(['', ' '])}{rng.choice(keys)} {s2} {rng.choice(vals)}")
        cases.append(fn(name, text_of(lines)))
    cases.append(fn(name, f"Mode{sep}one\nMODE{sep}two\nmode{sep}three{sep}four"))
    cases += [fn(name, "key = 1\nother = 2\nkey = 3"), fn(name, "key: 1\nother: 2\nkey: 3")]
    return Problem([name], f"Write a Python function `{name}(text)` that", spec, ref, broken, "splits at every separator, cutting values that contain it",
                   call_oracle(oracle), cases, "index-based scan of each line")


def opts_parse_config(rng: random.Random) -> list:
    out = [(s, c, k, f) for s in ("=", ":") for c in ("#", ";") for k in (True, False) for f in (True, False)]
    rng.shuffle(out)
    return out[:VARIANTS]


SPIRAL_STARTS = {  # (corner, direction) -> (first row, first col, first step, turn)
    ("top-left", "clockwise"): "right", ("top-left", "counter-clockwise"): "down",
    ("top-right", "clockwise"): "down", ("top-right", "counter-clockwise"): "left",
    ("bottom-right", "clockwise"): "left", ("bottom-right", "counter-clockwise"): "up",
    ("bottom-left", "clockwise"): "up", ("bottom-left", "counter-clockwise"): "right",
}
SPIRAL_TRANSFORMS = [
    "m", "[list(r) for r in zip(*m)]", "[r[::-1] for r in m]", "m[::-1]", "[r[::-1] for r in m[::-1]]",
    "[list(r) for r in zip(*m)][::-1]", "[list(r)[::-1] for r in zip(*m)]", "[list(r)[::-1] for r in zip(*m)][::-1]",
]


def _spiral_walk(m: list, corner: str, direction: str) -> list:
    rows, cols = len(m), len(m[0]) if m else 0
    if not rows or not cols:
        return []
    r = 0 if corner.startswith("top") else rows - 1
    c = 0 if corner.endswith("left") else cols - 1
    steps = {"right": (0, 1), "down": (1, 0), "left": (0, -1), "up": (-1, 0)}
    order = ["right", "down", "left", "up"] if direction == "clockwise" else ["right", "up", "left", "down"]
    d = order.index(SPIRAL_STARTS[(corner, direction)])
    seen, out = set(), []
    for _ in range(rows * cols):
        out.append(m[r][c])
        seen.add((r, c))
        for turn in range(4):
            dr, dc = steps[order[(d + turn) % 4]]
            if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in seen:
                d = (d + turn) % 4
                r, c = r + dr, c + dc
                break
    return out


def fam_spiral(rng: random.Random, i: int, opts: list) -> Problem:
    corner, direction = opts[i]
    name = "spiral"
    first = SPIRAL_STARTS[(corner, direction)]
    spec = (f"returns the values of the rectangular matrix m (a list of equal-length rows) in spiral order. Start at the {corner} corner, "
            f"move {first} first and keep turning {direction} along the border, then inwards, until every cell is visited once. "
            f"An empty matrix ([] or [[]]) gives [].")
    probe = [[r * 10 + c for c in range(4)] for r in range(3)]
    core = ("    out = []\n    while m and m[0]:\n        out.extend(m[0])\n        m = [list(r) for r in zip(*m[1:])][::-1]\n    return out\n")
    transform = next(t for t in SPIRAL_TRANSFORMS
                     if _spiral_core(eval(t, {}, {"m": probe})) == _spiral_walk(probe, corner, direction)  # noqa: S307 -- generator-authored
                     and _spiral_core(eval(t, {}, {"m": [row[:3] for row in probe]})) == _spiral_walk([row[:3] for row in probe], corner, direction))  # noqa: S307
    ref = f"def {name}(m):\n    if not m or not m[0]:\n        return []\n    m = {transform}\n" + core
    broken = ref.replace("        m = [list(r) for r in zip(*m[1:])][::-1]\n", "        m = [list(r) for r in zip(*m[1:])]\n")

    cases = [fn(name, []), fn(name, [[]]), fn(name, [[1, 2, 3]]), fn(name, [[1], [2], [3]])]
    for rows, cols in [(2, 2), (3, 3), (3, 4), (4, 2), (rng.randrange(2, 6), rng.randrange(2, 6))]:
        cases.append(fn(name, [[rng.randrange(1, 100) for _ in range(cols)] for _ in range(rows)]))
    return Problem([name], f"Write a Python function `{name}(m)` that", spec, ref, broken, "rotates the remaining matrix the wrong way",
                   call_oracle(lambda m: _spiral_walk(m, corner, direction)), cases, "cell-by-cell walk with a visited set")


def _spiral_core(m: list) -> list:
    out = []
    while m and m[0]:
        out.extend(m[0])
        m = [list(r) for r in zip(*m[1:])][::-1]
    return out


def opts_spiral(rng: random.Random) -> list:
    out = list(SPIRAL_STARTS)
    rng.shuffle(out)
    return out


# ==== driver ===================================================================================

FAMILIES: list[tuple[str, str, Callable, Callable]] = [
    ("easy", "arithmetic", fam_sum_multiples, opts_sum_multiples), ("easy", "strings", fam_count_letters, opts_count_letters),
    ("easy", "lists", fam_chunk, opts_chunk), ("easy", "arithmetic", fam_fizz, opts_fizz),
    ("easy", "arithmetic", fam_digit_sum, opts_digit_sum), ("easy", "strings", fam_shift_letters, opts_shift_letters),
    ("easy", "lists", fam_kth_largest, opts_kth_largest), ("easy", "strings", fam_title_case, opts_title_case),
    ("easy", "strings", fam_rle, opts_rle), ("easy", "strings", fam_mask, opts_mask),
    ("medium", "intervals", fam_merge_gaps, opts_merge_gaps), ("medium", "parsing", fam_balanced, opts_balanced),
    ("medium", "strings", fam_top_words, opts_top_words), ("medium", "lists", fam_flatten, opts_flatten),
    ("medium", "lists", fam_longest_run, opts_longest_run), ("medium", "strings", fam_compress_ranges, opts_compress_ranges),
    ("medium", "dates", fam_business_days, opts_business_days), ("medium", "lists", fam_histogram, opts_histogram),
    ("medium", "parsing", fam_parse_config, opts_parse_config), ("medium", "lists", fam_spiral, opts_spiral),
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
            input=json.dumps(pairs), capture_output=True, text=True, env=env, cwd=scratch, timeout=900,
        )
    if proc.returncode != 0:
        raise RuntimeError(f"runner failed: {proc.stderr[-2000:]}")
    results = json.loads(proc.stdout)
    assert len(results) == len(pairs)
    return results


# --- distinctness ------------------------------------------------------------------------------


def distinguish(family: str, problems: list[Problem]) -> list[list[tuple]]:
    """Each variant's test cases: its own, plus, for every other variant whose reference
    would pass them, the first pool case on which that reference disagrees with this
    variant's oracle. Returns the case lists; asserts the n x n matrix afterwards."""
    pool: list[tuple] = []
    seen: set[str] = set()
    for p in problems:
        for c in p.cases:
            if repr(c) not in seen:
                seen.add(repr(c))
                pool.append(c)
    chosen = []
    for j, pj in enumerate(problems):
        cases = list(pj.cases)
        tests = render_tests(pj, cases)
        for i, pi in enumerate(problems):
            if i == j or not passes_in_process(pi.reference, tests):
                continue
            for c in pool:
                if repr(c) in {repr(x) for x in cases}:
                    continue
                try:
                    line = render_case(c, expected_of(pj, c), pj.void)
                except LookupError:
                    continue
                if not passes_in_process(pi.reference, line):
                    cases.append(c)
                    tests += line
                    break
            else:
                raise AssertionError(f"{family}: no pool case tells variant {i} from variant {j}\n{pi.reference}\n{pj.reference}")
        chosen.append(cases)
    for j, pj in enumerate(problems):
        tests = render_tests(pj, chosen[j])
        for i, pi in enumerate(problems):
            assert passes_in_process(pi.reference, tests) == (i == j), f"{family}: reference {i} vs tests {j}"
    return chosen


# --- assembly ----------------------------------------------------------------------------------

MAX_FIXED = 150  # longest run of spec text between two worked examples (unique-text rule)


def _inline(example: str) -> str:
    if "; " in example:
        return f"For example: {example}."
    call, _, result = example.partition(" -> ")
    return f"For example, {call} returns {result}." if result else f"For example, {call}."


def render_prompt(problem: Problem, examples: list[str]) -> str:
    """The spec sentence by sentence, with a worked example inserted whenever the fixed text
    since the last one would pass MAX_FIXED characters, then more examples and the instruction."""
    sentences = [x.strip() for x in re.split(r"(?<=[.:]) (?=[A-Z0-9'(])", problem.spec) if x.strip()]
    head = problem.head + " "
    parts: list[str] = []
    fixed = len(head)
    pending = list(examples)
    assert len(head) + len(sentences[0]) < 200, (problem.entries, sentences[0])
    for k, sentence in enumerate(sentences):
        assert len(sentence) < 200, (problem.entries, sentence)
        if k and pending and fixed + len(sentence) > MAX_FIXED:
            parts.append(_inline(pending.pop(0)))
            fixed = 0
        parts.append(sentence)
        fixed += len(sentence) + 1
    if not any(p.startswith("For example") for p in parts) and pending:
        parts.insert(1, _inline(pending.pop(0)))
    prompt = head + " ".join(parts)
    if pending:
        prompt += "\n\nMore examples:\n" + "\n".join(pending[:3])
    prompt += "\n\nReply with the code only; use the standard library only."
    return prompt


def make_rows() -> list[dict]:
    built = []  # (difficulty, category, family, problem, cases)
    for difficulty, category, family, options in FAMILIES:
        rng = random.Random(_lib.stable_seed(DATASET_ID, SEED, family.__name__))
        opts = options(rng)
        problems = [family(rng, i, opts) for i in range(len(opts))]
        refs = [p.reference for p in problems]
        assert len(set(refs)) == len(refs), family.__name__
        assert all(p.entries == problems[0].entries for p in problems), family.__name__
        texts = [[example_text(c, expected_of(p, c), p.void) for c in p.cases[::-1]] for p in problems]
        counts = Counter(t for ts in texts for t in set(ts))
        for cases, p, ts in zip(distinguish(family.__name__, problems), problems, texts):
            # examples the other variants do not share first (unique-text rule), drawn cases before fixed edge cases
            examples = [t for t in ts if counts[t] == 1] + [t for t in ts if counts[t] > 1]
            built.append((difficulty, category, family.__name__.removeprefix("fam_"), p, cases, examples[: p.n_examples + 3]))
    refs = [b[3].reference for b in built]
    assert len(set(refs)) == len(refs), "two rows share a reference text"
    all_tests = [render_tests(b[3], b[4]) for b in built]
    results = execute([(b[3].reference, t) for b, t in zip(built, all_tests)] + [(b[3].broken, t) for b, t in zip(built, all_tests)])
    n = len(built)
    rows = []
    for k, (difficulty, category, family, p, cases, examples) in enumerate(built):
        tests = all_tests[k]
        assert results[k], f"{family} row {k}: the reference fails its tests\n{p.reference}\n{tests}"
        assert not results[n + k], f"{family} row {k}: the broken version passes the tests\n{p.broken}\n{tests}"
        rows.append({
            "id": f"code2-{k + 1:04d}",
            "category": category,
            "difficulty": difficulty,
            "prompt": render_prompt(p, examples),
            "answer": p.reference,
            "scorer": "code_exec",
            "tests": tests,
            "meta": {
                "family": family,
                "entry_point": p.entries[0],
                "entry_points": list(p.entries),
                "broken": p.broken,
                "broken_how": p.broken_how,
                "oracle": p.oracle_name,
                "distinct_from_family": True,
                "proof": ("expected values from the oracle; reference passes and broken fails when executed (forked child, sandbox "
                          "contract and default limits); reference fails the tests of every other row of its family (in-process exec matrix)"),
            },
        })
    return rows


def generate(out: Path) -> None:
    rows = make_rows()
    _lib.assert_unique_text((r["id"], r["prompt"]) for r in rows)
    card = _lib.eval_dataset_json(
        dataset_id=DATASET_ID,
        description=(
            "Python functions, multi-function tasks and stateful classes scored by code_exec (supersedes eval-code-v1): "
            "every row is a distinct problem -- within a family each reference fails the tests of every other row, "
            "proved by executing the full matrix. Expected values come from independent oracles; the reference passes "
            "and a plausible broken version fails, both executed by the generator"
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        date=DATE,
        default_scorer="code_exec",
        extra={
            "tests_contract": "tests run after the program in the same namespace (__name__ == 'solution'); pass iff both complete",
            "tests_format": "tests call only the names the prompt asks for and compare plain return values; expected exceptions are builtin types (try/except/else)",
            "limits": LIMITS,
        },
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
