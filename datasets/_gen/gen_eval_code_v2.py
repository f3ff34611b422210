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
import io
import itertools
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402
import gen_eval_code_v1  # noqa: E402 - its sandbox-contract runner proves v2's rows too

DATASET_ID = "eval-code-v2"
DATE = "2026-12-01"
SEED = 5_600_202
VARIANTS = 10
# How the code_exec scorer reads a reply (atlas_assets/corpus/scorers.py registry, extraction "code").
CODE_EXEC_EXTRACTION = {
    "extraction": "code",
    "steps": [
        "drop everything inside <think>...</think> (nested and several blocks; a </think> before any <think> drops the text before it; "
        "a block that never closes drops the rest of the text)",
        "the program is the content of the fenced code blocks, joined by a blank line, when the reply has any (prose around them is dropped); "
        "otherwise the whole text",
    ],
}
LIMITS = gen_eval_code_v1.LIMITS  # the same sandbox limits as v1 (its runner proves the rows)


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
    n_examples: int = 2  # examples shown: n_examples + 3 at most


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


# ==== hard =====================================================================================


def fam_edit_distance(rng: random.Random, i: int, opts: list) -> Problem:
    ins, dele, sub = opts[i]
    spec = (f"Both functions use a weighted edit distance: inserting a character costs {ins}, deleting one costs {dele} and replacing one by another costs {sub}. "
            f"edit_distance(a, b) returns the cheapest total cost of turning string a into string b (0 when they are equal; either may be empty). "
            f"closest(word, candidates) returns the candidate with the smallest edit_distance(word, candidate); on a tie the earliest one in the list wins, "
            f"and an empty list gives None.")
    ref = (f"def edit_distance(a, b):\n    prev = [j * {ins} for j in range(len(b) + 1)]\n    for i in range(1, len(a) + 1):\n        cur = [i * {dele}]\n"
           f"        for j in range(1, len(b) + 1):\n            same = prev[j - 1] + (0 if a[i - 1] == b[j - 1] else {sub})\n"
           f"            cur.append(min(same, prev[j] + {dele}, cur[j - 1] + {ins}))\n        prev = cur\n    return prev[-1]\n\n\n"
           f"def closest(word, candidates):\n    best = None\n    for c in candidates:\n        d = edit_distance(word, c)\n"
           f"        if best is None or d < best[0]:\n            best = (d, c)\n    return None if best is None else best[1]\n")
    broken = ref.replace(f"prev = [j * {ins} for j", "prev = [j for j").replace(f"cur = [i * {dele}]", "cur = [i]")

    def dist(a: str, b: str) -> int:
        @_memo
        def go(x: int, y: int) -> int:
            if x == len(a):
                return (len(b) - y) * ins
            if y == len(b):
                return (len(a) - x) * dele
            options = [go(x + 1, y) + dele, go(x, y + 1) + ins, go(x + 1, y + 1) + (0 if a[x] == b[y] else sub)]
            return min(options)

        return go(0, 0)

    def oracle(case: tuple) -> Any:
        _, name, args = case
        if name == "edit_distance":
            return dist(*args)
        word, cands = args
        if not cands:
            return None
        scores = [dist(word, c) for c in cands]
        return cands[scores.index(min(scores))]

    def word(lo: int, hi: int) -> str:
        return "".join(rng.choice("abcd") for _ in range(rng.randrange(lo, hi)))

    cases = [fn("edit_distance", "", ""), fn("edit_distance", "", "abc"), fn("edit_distance", "abcd", ""), fn("edit_distance", "same", "same"),
             fn("edit_distance", "ab", "ba"), fn("closest", "abc", [])]
    cases += [fn("edit_distance", word(1, 7), word(1, 7)) for _ in range(5)]
    cases += [fn("closest", word(2, 6), [word(1, 7) for _ in range(rng.randrange(2, 5))]) for _ in range(3)]
    cases.append(fn("closest", "ab", ["abcd", "b", "ba", "a"]))
    return Problem(["edit_distance", "closest"], "Write two Python functions, `edit_distance(a, b)` and `closest(word, candidates)`.", spec, ref, broken,
                   "initialises the first row and column with unit costs instead of the insert and delete costs",
                   oracle, cases, "memoised recursion over suffixes")


def _memo(f: Callable) -> Callable:
    cache: dict = {}

    def wrapper(*args: Any) -> Any:
        if args not in cache:
            cache[args] = f(*args)
        return cache[args]

    return wrapper


def opts_edit_distance(rng: random.Random) -> list:
    triples = [(a, b, c) for a in (1, 2, 3) for b in (1, 2, 3) for c in (1, 2, 3, 4) if (a, b) != (1, 1) and c < a + b]
    rng.shuffle(triples)
    return triples[:VARIANTS]


def fam_rpn(rng: random.Random, i: int, opts: list) -> Problem:
    div, caret, extra = opts[i]
    name = "rpn"
    div_text = ("'/' is integer division rounding down (toward negative infinity)" if div == "floor"
                else "'/' is integer division rounding toward zero (so -7 / 2 is -3)")
    caret_text = "'^' raises to a power (a negative exponent raises ValueError)" if caret == "pow" else "'^' is bitwise exclusive or"
    extra_text = {None: "Any other token raises ValueError.",
                  "neg": "The token 'neg' replaces the top value by its negation; any other word raises ValueError.",
                  "dup": "The token 'dup' pushes a copy of the top value; any other word raises ValueError."}[extra]
    spec = (f"evaluates a reverse Polish expression of space-separated tokens: integers (possibly negative, like -3) and the binary operators + - * / ^. "
            f"A binary operator pops b, then a, and pushes a op b. Here {div_text}, and {caret_text}. {extra_text} "
            f"Division by zero raises ZeroDivisionError. An empty expression, an operator without enough operands, or more than one value left at the end raises ValueError.")
    div_code = ("a // b" if div == "floor" else "(abs(a) // abs(b)) * (1 if (a < 0) == (b < 0) else -1)")
    caret_code = ("        elif tok == '^':\n            if b < 0:\n                raise ValueError('negative exponent')\n            stack.append(a ** b)\n"
                  if caret == "pow" else "        elif tok == '^':\n            stack.append(a ^ b)\n")
    extra_code = {None: "", "neg": "        if tok == 'neg':\n            if not stack:\n                raise ValueError('neg needs a value')\n            stack.append(-stack.pop())\n            continue\n",
                  "dup": "        if tok == 'dup':\n            if not stack:\n                raise ValueError('dup needs a value')\n            stack.append(stack[-1])\n            continue\n"}[extra]
    ref = (f"import re\n\n\ndef {name}(expr):\n    stack = []\n    for tok in expr.split():\n        if re.fullmatch(r'-?[0-9]+', tok):\n            stack.append(int(tok))\n            continue\n"
           f"{extra_code}        if tok not in ('+', '-', '*', '/', '^'):\n            raise ValueError(f'unknown token {{tok!r}}')\n        if len(stack) < 2:\n            raise ValueError('not enough operands')\n"
           f"        b = stack.pop()\n        a = stack.pop()\n        if tok == '+':\n            stack.append(a + b)\n        elif tok == '-':\n            stack.append(a - b)\n"
           f"        elif tok == '*':\n            stack.append(a * b)\n        elif tok == '/':\n            if b == 0:\n                raise ZeroDivisionError('division by zero')\n"
           f"            stack.append({div_code})\n{caret_code}    if len(stack) != 1:\n        raise ValueError('malformed expression')\n    return stack[0]\n")
    broken = ref.replace("            stack.append(a - b)\n", "            stack.append(b - a)\n")

    def oracle(expr: str) -> Any:
        values: list[int] = []
        for tok in expr.split(" "):
            if tok == "":
                continue
            digits = tok[1:] if tok.startswith("-") else tok
            if digits.isdigit() and digits.isascii():
                values = values + [int(tok)]
            elif tok in ("neg", "dup") and tok == extra:
                if not values:
                    return Raises("ValueError")
                values = values[:-1] + [-values[-1]] if tok == "neg" else values + [values[-1]]
            elif tok in ("+", "-", "*", "/", "^"):
                if len(values) < 2:
                    return Raises("ValueError")
                a, b = values[-2], values[-1]
                if tok == "/":
                    if b == 0:
                        return Raises("ZeroDivisionError")
                    q = a // b
                    if div == "trunc" and q < 0 and q * b != a:
                        q += 1
                    r = q
                elif tok == "^":
                    if caret == "pow" and b < 0:
                        return Raises("ValueError")
                    r = a ** b if caret == "pow" else a ^ b
                else:
                    r = {"+": a + b, "-": a - b, "*": a * b}[tok]
                values = values[:-2] + [r]
            else:
                return Raises("ValueError")
        return values[0] if len(values) == 1 else Raises("ValueError")

    cases = [fn(name, ""), fn(name, "3 4 +"), fn(name, "10 3 -"), fn(name, "-7 2 /"), fn(name, "7 -2 /"), fn(name, "6 3 ^"), fn(name, "5 0 /"),
             fn(name, "1 +"), fn(name, "1 2"), fn(name, "2 -1 ^"), fn(name, "4 neg 3 +"), fn(name, "5 dup *"), fn(name, "2 3 swap")]
    for _ in range(7):
        depth, toks = 0, []
        for _ in range(rng.randrange(5, 11)):
            if depth >= 2 and rng.random() < 0.5:
                toks.append(rng.choice(["+", "-", "*", "/", "-"]))  # no random "^": a power tower would not finish
                depth -= 1
            else:
                toks.append(str(rng.randrange(-9, 20)))
                depth += 1
        while depth > 1:
            toks.append(rng.choice(["+", "-", "*"]))
            depth -= 1
        cases.append(fn(name, " ".join(toks)))
    return Problem([name], f"Write a Python function `{name}(expr)` that", spec, ref, broken, "swaps the operands of '-' (computes b - a)",
                   call_oracle(oracle), cases, "token-by-token simulation on an immutable value list")


def opts_rpn(rng: random.Random) -> list:
    out = [(d, c, e) for d in ("floor", "trunc") for c in ("pow", "xor") for e in (None, "neg", "dup")]
    rng.shuffle(out)
    return out[:VARIANTS]


def fam_coins(rng: random.Random, i: int, opts: list) -> Problem:
    coins, witness = opts[i]
    listed = ", ".join(map(str, coins))
    spec = (f"Both functions work with an unlimited supply of coins of the values {listed}. "
            f"min_coins(amount) returns the fewest coins that add up to amount exactly, or None when no combination does (0 for amount 0). "
            f"count_ways(amount) returns how many different multisets of coins add up to amount (order does not matter; 1 for amount 0). "
            f"Both raise ValueError for a negative amount.")
    ref = (f"COINS = {tuple(coins)!r}\n\n\ndef min_coins(amount):\n    if amount < 0:\n        raise ValueError('negative amount')\n    best = [0] + [None] * amount\n"
           f"    for a in range(1, amount + 1):\n        for c in COINS:\n            if c <= a and best[a - c] is not None and (best[a] is None or best[a - c] + 1 < best[a]):\n"
           f"                best[a] = best[a - c] + 1\n    return best[amount]\n\n\ndef count_ways(amount):\n    if amount < 0:\n        raise ValueError('negative amount')\n"
           f"    ways = [1] + [0] * amount\n    for c in COINS:\n        for a in range(c, amount + 1):\n            ways[a] += ways[a - c]\n    return ways[amount]\n")
    broken = ref.replace(
        "    best = [0] + [None] * amount\n    for a in range(1, amount + 1):\n        for c in COINS:\n            if c <= a and best[a - c] is not None and (best[a] is None or best[a - c] + 1 < best[a]):\n                best[a] = best[a - c] + 1\n    return best[amount]\n",
        "    count = 0\n    for c in sorted(COINS, reverse=True):\n        count += amount // c\n        amount %= c\n    return count if amount == 0 else None\n")

    def fewest(amount: int) -> Any:
        if amount < 0:
            return Raises("ValueError")
        frontier, seen, steps = {0}, {0}, 0
        while frontier:
            if amount in frontier:
                return steps
            frontier = {v + c for v in frontier for c in coins if v + c <= amount} - seen
            seen |= frontier
            steps += 1
        return None

    def ways(amount: int) -> Any:
        if amount < 0:
            return Raises("ValueError")

        def go(rest: int, k: int) -> int:
            if rest == 0:
                return 1
            if k == len(coins):
                return 0
            return sum(go(rest - n * coins[k], k + 1) for n in range(rest // coins[k] + 1))

        return go(amount, 0)

    def oracle(case: tuple) -> Any:
        _, name, (amount,) = case
        return fewest(amount) if name == "min_coins" else ways(amount)

    amounts = [0, 1, witness, coins[-1], sum(coins), rng.randrange(20, 45), rng.randrange(45, 70)]
    cases = [fn("min_coins", a) for a in amounts] + [fn("min_coins", -3), fn("count_ways", -1)]
    cases += [fn("count_ways", a) for a in (0, 1, witness, rng.randrange(10, 30), rng.randrange(30, 60))]
    return Problem(["min_coins", "count_ways"], "Write two Python functions, `min_coins(amount)` and `count_ways(amount)`.", spec, ref, broken,
                   "min_coins is greedy (largest coin first), which is not optimal for this coin set", oracle, cases,
                   "breadth-first search over reachable sums; recursive enumeration of coin counts")


def opts_coins(rng: random.Random) -> list:
    out, seen = [], set()
    while len(out) < VARIANTS:
        coins = tuple(sorted(rng.sample(range(2, 16), 3) + ([1] if rng.random() < 0.5 else [])))
        if coins in seen:
            continue
        # keep sets where greedy is wrong somewhere small: that amount becomes a test
        witness = None
        for amount in range(1, 60):
            best = [0] + [None] * amount
            for a in range(1, amount + 1):
                for c in coins:
                    if c <= a and best[a - c] is not None and (best[a] is None or best[a - c] + 1 < best[a]):
                        best[a] = best[a - c] + 1
            rest, count = amount, 0
            for c in sorted(coins, reverse=True):
                count += rest // c
                rest %= c
            greedy = count if rest == 0 else None
            if greedy != best[amount]:
                witness = amount
                break
        if witness is None:
            continue
        seen.add(coins)
        out.append((coins, witness))
    return out


GRID_OPTS = [(d, w, water) for d in (False, True) for w in (False, True) for water in ("wall", "open", "slow")]


def fam_grid_steps(rng: random.Random, i: int, opts: list) -> Problem:
    diag, wrap, water = opts[i]
    name = "grid_steps"
    moves = "one of the 8 neighbouring cells (diagonals included)" if diag else "one of the 4 neighbouring cells (up, down, left, right)"
    edges = "The grid wraps around: leaving one edge enters the cell on the opposite edge." if wrap else "Moves may not leave the grid."
    water_text = {"wall": "Water '~' cannot be entered.", "open": "Water '~' can be entered like '.'.",
                  "slow": "Entering a water cell '~' costs 2 instead of 1."}[water]
    spec = (f"takes a grid (a list of equal-length strings) with one 'S' and one 'E' and returns the cheapest cost of a path from S to E. "
            f"Each move goes to {moves} and costs 1; walls '#' cannot be entered. {water_text} {edges} "
            f"When E cannot be reached the result is -1.")
    deltas = "[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]" if diag else "[(-1, 0), (1, 0), (0, -1), (0, 1)]"
    step = ("            nr, nc = (r + dr) % rows, (c + dc) % cols\n" if wrap else
            "            nr, nc = r + dr, c + dc\n            if not (0 <= nr < rows and 0 <= nc < cols):\n                continue\n")
    blocked = "'#~'" if water == "wall" else "'#'"
    cost = "2 if grid[nr][nc] == '~' else 1" if water == "slow" else "1"
    ref = (f"import heapq\n\n\ndef {name}(grid):\n    rows, cols = len(grid), len(grid[0])\n"
           f"    start = next((r, c) for r in range(rows) for c in range(cols) if grid[r][c] == 'S')\n"
           f"    best = {{start: 0}}\n    heap = [(0, start)]\n    while heap:\n        d, (r, c) = heapq.heappop(heap)\n        if grid[r][c] == 'E':\n            return d\n"
           f"        if d > best[(r, c)]:\n            continue\n        for dr, dc in {deltas}:\n{step}"
           f"            if grid[nr][nc] in {blocked}:\n                continue\n            nd = d + ({cost})\n"
           f"            if nd < best.get((nr, nc), nd + 1):\n                best[(nr, nc)] = nd\n                heapq.heappush(heap, (nd, (nr, nc)))\n    return -1\n")
    if wrap:
        broken = ref.replace(step, "            nr, nc = r + dr, c + dc\n            if not (0 <= nr < rows and 0 <= nc < cols):\n                continue\n")
        how = "does not wrap around the edges"
    elif diag:
        broken = ref.replace(deltas, "[(-1, 0), (1, 0), (0, -1), (0, 1)]")
        how = "forgets the diagonal moves"
    elif water == "slow":
        broken = ref.replace(cost, "1")
        how = "charges 1 for water"
    elif water == "wall":
        broken = ref.replace(blocked, "'#'")
        how = "lets the path cross water"
    else:
        broken = ref.replace(blocked, "'#~'")
        how = "treats water as a wall"

    def oracle(grid: list) -> int:
        rows, cols = len(grid), len(grid[0])
        inf = 10 ** 9
        dist = {(r, c): inf for r in range(rows) for c in range(cols)}
        cells = list(dist)
        for r, c in cells:
            if grid[r][c] == "S":
                dist[(r, c)] = 0
        offsets = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0) and (diag or a == 0 or b == 0)]
        changed = True
        while changed:
            changed = False
            for r, c in cells:
                if dist[(r, c)] == inf:
                    continue
                for a, b in offsets:
                    nr, nc = r + a, c + b
                    if wrap:
                        nr, nc = nr % rows, nc % cols
                    elif not (0 <= nr < rows and 0 <= nc < cols):
                        continue
                    ch = grid[nr][nc]
                    if ch == "#" or (ch == "~" and water == "wall"):
                        continue
                    nd = dist[(r, c)] + (2 if ch == "~" and water == "slow" else 1)
                    if nd < dist[(nr, nc)]:
                        dist[(nr, nc)] = nd
                        changed = True
        end = next(p for p in cells if grid[p[0]][p[1]] == "E")
        return -1 if dist[end] == inf else dist[end]

    def make_grid(rows: int, cols: int) -> list:
        cells = [[rng.choices(".#~", weights=[55, 25, 20])[0] for _ in range(cols)] for _ in range(rows)]
        spots = rng.sample([(r, c) for r in range(rows) for c in range(cols)], 2)
        cells[spots[0][0]][spots[0][1]] = "S"
        cells[spots[1][0]][spots[1][1]] = "E"
        return ["".join(row) for row in cells]

    cases = [fn(name, ["SE"]), fn(name, ["S#E"]), fn(name, ["S~E"]), fn(name, ["S.#", "#.#", "#.E"]), fn(name, ["E..S"]), fn(name, ["S#", "#E"])]
    cases += [fn(name, make_grid(rng.randrange(4, 7), rng.randrange(5, 9))) for _ in range(7)]
    return Problem([name], f"Write a Python function `{name}(grid)` that", spec, ref, broken, how, call_oracle(oracle), cases,
                   "Bellman-Ford relaxation until nothing changes")


def opts_grid_steps(rng: random.Random) -> list:
    out = list(GRID_OPTS)
    rng.shuffle(out)
    return out[:VARIANTS]


CACHE_POLICIES = {
    "lru": "When a new key must go in, the least recently used key is evicted (a use is a get hit or a put).",
    "fifo": "When a new key must go in, the key that was inserted earliest is evicted; get hits do not change this order.",
    "mru": "When a new key must go in, the most recently used key is evicted (a use is a get hit or a put).",
    "lfu": "When a new key must go in, the key with the fewest uses is evicted (a get hit or a put is a use); ties go to the least recently used key.",
    "lfu_fifo": "When a new key must go in, the key with the fewest uses is evicted (a get hit or a put is a use); ties go to the key inserted earliest.",
}


def fam_cache(rng: random.Random, i: int, opts: list) -> Problem:
    policy, update_counts = opts[i]
    cls = "Cache"
    update_text = ("Updating the value of a key that is already stored counts as a use" + (" and moves it to the newest insertion position." if policy == "fifo" else ".")
                   if update_counts else "Updating the value of a key that is already stored is not a use and does not change its position.")
    spec = (f"implements a class {cls}(capacity) with get(key), put(key, value), size() and keys(). get returns the stored value, or None when the key is absent. "
            f"put stores a value and returns None; keys() returns the stored keys sorted. {CACHE_POLICIES[policy]} {update_text} "
            f"A capacity of 0 stores nothing, and a negative capacity raises ValueError.")
    if policy == "lru":
        rank = "(self.last[k],)"
    elif policy == "fifo":
        rank = "(self.born[k],)"
    elif policy == "mru":
        rank = "(-self.last[k],)"
    elif policy == "lfu":
        rank = "(self.uses[k], self.last[k])"
    else:
        rank = "(self.uses[k], self.born[k])"
    get_use = "" if policy == "fifo" else "        self._use(key)\n"
    update = ("            self._use(key)\n" + ("            self.born[key] = self.tick\n" if policy == "fifo" else "")) if update_counts else ""
    ref = (f"class {cls}:\n    def __init__(self, capacity):\n        if capacity < 0:\n            raise ValueError('negative capacity')\n        self.capacity = capacity\n"
           f"        self.data, self.last, self.born, self.uses = {{}}, {{}}, {{}}, {{}}\n        self.tick = 0\n\n"
           f"    def _use(self, key):\n        self.tick += 1\n        self.last[key] = self.tick\n        self.uses[key] = self.uses.get(key, 0) + 1\n\n"
           f"    def get(self, key):\n        if key not in self.data:\n            return None\n{get_use}        return self.data[key]\n\n"
           f"    def put(self, key, value):\n        if self.capacity == 0:\n            return None\n        if key in self.data:\n            self.data[key] = value\n{update}            return None\n"
           f"        if len(self.data) >= self.capacity:\n            victim = min(self.data, key=lambda k: {rank})\n"
           f"            for table in (self.data, self.last, self.born, self.uses):\n                del table[victim]\n"
           f"        self.data[key] = value\n        self._use(key)\n        self.born[key] = self.tick\n        return None\n\n"
           f"    def size(self):\n        return len(self.data)\n\n    def keys(self):\n        return sorted(self.data)\n")
    broken_rank = {"lru": "(self.born[k],)", "fifo": "(-self.born[k],)", "mru": "(self.last[k],)",
                   "lfu": "(self.uses[k], -self.last[k])", "lfu_fifo": "(self.uses[k], -self.born[k])"}[policy]
    broken = ref.replace(f"key=lambda k: {rank}", f"key=lambda k: {broken_rank}")
    how = {"lru": "evicts by insertion order (get does not refresh)", "fifo": "evicts the newest key", "mru": "evicts the least recently used key",
           "lfu": "breaks frequency ties toward the most recently used key", "lfu_fifo": "breaks frequency ties toward the newest key"}[policy]

    def simulate(capacity: int, ops: tuple) -> list:
        # entries in a list: [key, value, uses, last use step, insertion step]
        entries: list[list] = []
        out = []
        for step, (method, args) in enumerate(ops, start=1):
            found = [e for e in entries if e[0] == args[0]] if args else []
            if method == "get":
                if found:
                    if policy != "fifo":
                        found[0][2] += 1
                        found[0][3] = step
                    out.append(found[0][1])
                else:
                    out.append(None)
            elif method == "put":
                out.append(None)
                if capacity == 0:
                    continue
                if found:
                    found[0][1] = args[1]
                    if update_counts:
                        found[0][2] += 1
                        found[0][3] = step
                        if policy == "fifo":
                            found[0][4] = step
                    continue
                if len(entries) == capacity:
                    order = {"lru": lambda e: e[3], "fifo": lambda e: e[4], "mru": lambda e: -e[3],
                             "lfu": lambda e: (e[2], e[3]), "lfu_fifo": lambda e: (e[2], e[4])}[policy]
                    entries.remove(sorted(entries, key=order)[0])
                entries.append([args[0], args[1], 1, step, step])
            elif method == "size":
                out.append(len(entries))
            else:
                out.append(sorted(e[0] for e in entries))
        return out

    def oracle(case: tuple) -> Any:
        if case[0] == "call":
            return Raises("ValueError") if case[2][0] < 0 else None
        return simulate(case[2][0], case[3])

    def ops(n: int, keys: str) -> list:
        out = []
        for _ in range(n):
            r = rng.random()
            if r < 0.45:
                out.append(("put", (rng.choice(keys), rng.randrange(1, 99))))
            elif r < 0.85:
                out.append(("get", (rng.choice(keys),)))
            elif r < 0.93:
                out.append(("keys", ()))
            else:
                out.append(("size", ()))
        return out + [("keys", ())]

    cases = [fn(cls, -1),
             session(cls, (0,), [("put", ("a", 1)), ("get", ("a",)), ("size", ())]),
             session(cls, (2,), [("put", ("a", 1)), ("put", ("b", 2)), ("get", ("a",)), ("put", ("c", 3)), ("keys", ()), ("get", ("b",)), ("get", ("c",))]),
             session(cls, (2,), [("put", ("a", 1)), ("put", ("b", 2)), ("put", ("a", 5)), ("put", ("c", 3)), ("keys", ()), ("get", ("a",))]),
             session(cls, (3,), [("put", ("x", 1)), ("put", ("y", 2)), ("put", ("z", 3)), ("get", ("x",)), ("get", ("x",)), ("get", ("y",)),
                                 ("put", ("w", 4)), ("keys", ()), ("put", ("v", 5)), ("keys", ())]),
             session(cls, (2,), [("put", ("a", 1)), ("put", ("b", 2)), ("get", ("b",)), ("get", ("a",)), ("put", ("c", 3)), ("keys", ())])]
    cases += [session(cls, (rng.randrange(2, 4),), ops(rng.randrange(12, 18), "abcde")) for _ in range(3)]
    cases += [session(cls, (rng.randrange(2, 4),), ops(rng.randrange(4, 7), "abcd")) for _ in range(4)]
    return Problem([cls], "Write Python code that", spec, ref, broken, how, oracle, cases, "list-of-entries simulation with explicit step counters",
                   void=frozenset({"put"}))


def opts_cache(rng: random.Random) -> list:
    out = [(p, u) for p in CACHE_POLICIES for u in (True, False)]
    rng.shuffle(out)
    return out


def fam_account(rng: random.Random, i: int, opts: list) -> Problem:
    limit, fee = opts[i]
    cls = "Account"
    fee_text = f"Every withdrawal also costs a fee of {fee}, taken together with the amount." if fee else "Withdrawals are free."
    limit_text = (f"The balance may go down to -{limit} but never below it" if limit else "The balance may never go below 0")
    spec = (f"implements a class {cls}() for an account that starts at balance 0. deposit(amount) and withdraw(amount) return the new balance, balance() returns it. "
            f"{fee_text} {limit_text}: a withdrawal that would break this raises ValueError and changes nothing. "
            f"An amount that is not a positive integer raises ValueError too. history() returns the list of signed changes in order"
            + (", with each fee as its own entry after its withdrawal." if fee else ".")
            )
    fee_entry = f"        self.changes.append(-{fee})\n" if fee else ""
    ref = (f"class {cls}:\n    def __init__(self):\n        self.total = 0\n        self.changes = []\n\n    @staticmethod\n    def _check(amount):\n"
           f"        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:\n            raise ValueError('amount must be a positive integer')\n\n"
           f"    def deposit(self, amount):\n        self._check(amount)\n        self.total += amount\n        self.changes.append(amount)\n        return self.total\n\n"
           f"    def withdraw(self, amount):\n        self._check(amount)\n        if self.total - amount - {fee} < -{limit}:\n            raise ValueError('limit exceeded')\n"
           f"        self.total -= amount + {fee}\n        self.changes.append(-amount)\n{fee_entry}        return self.total\n\n"
           f"    def balance(self):\n        return self.total\n\n    def history(self):\n        return list(self.changes)\n")
    if fee:
        broken = ref.replace(f"if self.total - amount - {fee} < -{limit}:", f"if self.total - amount < -{limit}:")
        how = "checks the limit without the fee"
    else:
        broken = ref.replace(f"if self.total - amount - {fee} < -{limit}:", f"if self.total - amount - {fee} <= -{limit}:")
        how = "refuses a withdrawal that lands exactly on the limit"

    def simulate(ops: tuple) -> list:
        changes: list[int] = []
        out: list[Any] = []
        for method, args in ops:
            if method in ("deposit", "withdraw"):
                amount = args[0]
                if type(amount) is not int or amount < 1:
                    out.append(Raises("ValueError"))
                    continue
                new = [amount] if method == "deposit" else [-amount] + ([-fee] if fee else [])
                if sum(changes) + sum(new) < -limit:
                    out.append(Raises("ValueError"))
                    continue
                changes += new
                out.append(sum(changes))
            elif method == "balance":
                out.append(sum(changes))
            else:
                out.append(list(changes))
        return out

    def oracle(case: tuple) -> Any:
        return simulate(case[3])

    def random_ops() -> list:
        out = []
        for _ in range(rng.randrange(8, 14)):
            r = rng.random()
            if r < 0.35:
                out.append(("deposit", (rng.randrange(1, 120),)))
            elif r < 0.75:
                out.append(("withdraw", (rng.randrange(1, 150),)))
            elif r < 0.85:
                out.append(("balance", ()))
            else:
                out.append(("withdraw", (rng.choice([0, -5, 2.5, "10"]),)))
        return out + [("history", ())]

    edge = 100 + limit - fee  # lands exactly on the limit
    cases = [session(cls, (), [("balance", ()), ("history", ())]),
             session(cls, (), [("deposit", (100,)), ("withdraw", (edge,)), ("balance", ()), ("withdraw", (1,)), ("history", ())]),
             session(cls, (), [("deposit", (50,)), ("withdraw", (50 + limit,)), ("balance", ()), ("deposit", (0,)), ("deposit", (-3,)), ("history", ())]),
             session(cls, (), [("withdraw", (1,)), ("deposit", (10,)), ("withdraw", (10,)), ("history", ())])]
    cases += [session(cls, (), random_ops()) for _ in range(3)]
    cases += [session(cls, (), random_ops()[-6:]) for _ in range(4)]
    return Problem([cls], "Write Python code that", spec, ref, broken, how, oracle, cases, "balance recomputed as the sum of the history")


def opts_account(rng: random.Random) -> list:
    out = [(lim, fee) for lim in (0, 25, 100) for fee in (0, 1, 3)] + [(50, 2)]
    rng.shuffle(out)
    return out


def fam_bounded_stack(rng: random.Random, i: int, opts: list) -> Problem:
    cap, policy = opts[i]
    cls = "BoundedStack"
    full = ("Pushing onto a full stack raises OverflowError and changes nothing." if policy == "raise"
            else "Pushing onto a full stack first discards the oldest item (the one at the bottom).")
    spec = (f"implements a class {cls}() holding at most {cap} items, with push(x), pop(), peek(), size() and smallest(). "
            f"push returns None, pop removes and returns the top item, peek returns it without removing it, and smallest returns the smallest item held. {full} "
            f"pop, peek and smallest raise IndexError on an empty stack.")
    overflow = (f"        if len(self.items) >= {cap}:\n            raise OverflowError('stack is full')\n" if policy == "raise"
                else f"        if len(self.items) >= {cap}:\n            self.items.pop(0)\n")
    ref = (f"class {cls}:\n    def __init__(self):\n        self.items = []\n\n    def push(self, x):\n{overflow}        self.items.append(x)\n\n"
           f"    def pop(self):\n        if not self.items:\n            raise IndexError('empty stack')\n        return self.items.pop()\n\n"
           f"    def peek(self):\n        if not self.items:\n            raise IndexError('empty stack')\n        return self.items[-1]\n\n"
           f"    def size(self):\n        return len(self.items)\n\n"
           f"    def smallest(self):\n        if not self.items:\n            raise IndexError('empty stack')\n        return min(self.items)\n")
    if policy == "raise":
        broken = ref.replace(f"if len(self.items) >= {cap}:", f"if len(self.items) > {cap}:")
        how = "lets one item too many in"
    else:
        broken = ref.replace("            self.items.pop(0)\n", "            self.items.pop()\n")
        how = "discards the top item instead of the oldest"

    def simulate(ops: tuple) -> list:
        held: list = []
        out: list[Any] = []
        for method, args in ops:
            if method == "push":
                if len(held) == cap:
                    if policy == "raise":
                        out.append(Raises("OverflowError"))
                        continue
                    held = held[1:]
                held = held + [args[0]]
                out.append(None)
            elif method == "size":
                out.append(len(held))
            elif not held:
                out.append(Raises("IndexError"))
            elif method == "pop":
                out.append(held[-1])
                held = held[:-1]
            elif method == "peek":
                out.append(held[-1])
            else:
                out.append(sorted(held)[0])
        return out

    def random_ops(n: int) -> list:
        out = []
        for _ in range(n):
            r = rng.random()
            if r < 0.5:
                out.append(("push", (rng.randrange(-20, 50),)))
            else:
                out.append((rng.choice(["pop", "peek", "smallest", "size", "smallest"]), ()))
        return out

    fill = [("push", (v,)) for v in (5, 3, 8, 1, 9, 2, 7, 4)]
    cases = [session(cls, (), [("pop", ()), ("peek", ()), ("smallest", ()), ("size", ())]),
             session(cls, (), fill[:7] + [("size", ()), ("smallest", ()), ("pop", ()), ("pop", ()), ("smallest", ()), ("size", ())]),
             session(cls, (), fill + [("pop", ())] * 7 + [("size", ())])]
    cases += [session(cls, (), random_ops(rng.randrange(14, 20))) for _ in range(3)]
    cases += [session(cls, (), random_ops(rng.randrange(5, 8))) for _ in range(4)]
    return Problem([cls], "Write Python code that", spec, ref, broken, how, lambda c: simulate(c[3]), cases, "immutable list simulation",
                   void=frozenset({"push"}))


def opts_bounded_stack(rng: random.Random) -> list:
    out = [(c, p) for c in (2, 3, 4, 5, 6) for p in ("raise", "drop")]
    rng.shuffle(out)
    return out


DIGITS36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def fam_base_codec(rng: random.Random, i: int, opts: list) -> Problem:
    base = opts[i]
    top = DIGITS36[base - 1]
    spec = (f"The two functions convert integers to and from base {base}, whose digits are 0-9 then a-z (so the largest digit is {top!r}). "
            f"to_base(n) returns the lower-case digits of n without leading zeros, '0' for 0 and a leading '-' for a negative n. "
            f"from_base(s) is the inverse; it also accepts upper-case letters and a leading '-'. "
            f"from_base raises ValueError for an empty string, a lone '-' or any character that is not a digit of base {base}.")
    ref = (f"DIGITS = {DIGITS36[:base]!r}\n\n\ndef to_base(n):\n    if n == 0:\n        return '0'\n    sign = '-' if n < 0 else ''\n    n = abs(n)\n    out = []\n"
           f"    while n:\n        n, d = divmod(n, {base})\n        out.append(DIGITS[d])\n    return sign + ''.join(reversed(out))\n\n\n"
           f"def from_base(s):\n    sign = 1\n    if s.startswith('-'):\n        sign, s = -1, s[1:]\n    if not s:\n        raise ValueError('no digits')\n    value = 0\n"
           f"    for ch in s.lower():\n        if ch not in DIGITS:\n            raise ValueError(f'bad digit {{ch!r}}')\n        value = value * {base} + DIGITS.index(ch)\n    return sign * value\n")
    broken = ref.replace("    if n == 0:\n        return '0'\n", "")

    def to_b(n: int) -> str:
        if n < 0:
            return "-" + to_b(-n)
        power = 1
        while power * base <= n:
            power *= base
        out = ""
        while power >= 1:
            out += DIGITS36[n // power]
            n %= power
            power //= base
        return out

    def from_b(s: str) -> Any:
        body = s[1:] if s[:1] == "-" else s
        if body == "" or any(ch.lower() not in DIGITS36[:base] for ch in body):
            return Raises("ValueError")
        total = sum(DIGITS36.index(ch.lower()) * base ** k for k, ch in enumerate(reversed(body)))
        return -total if s[:1] == "-" else total

    def oracle(case: tuple) -> Any:
        _, name, (x,) = case
        return to_b(x) if name == "to_base" else from_b(x)

    ns = [0, 1, base - 1, base, -(base + 1), rng.randrange(10 ** 3, 10 ** 6), -rng.randrange(10 ** 6, 10 ** 12), 2 ** 40]
    cases = [fn("to_base", n) for n in ns]
    bad = "!" if base == 36 else DIGITS36[base]
    cases += [fn("from_base", s) for s in ("", "-", "0", "10", "-11", "zz", f"1{bad}", to_b(rng.randrange(10 ** 4, 10 ** 8)).upper(), "101", "7f")]
    cases.append(fn("from_base", to_b(-rng.randrange(10 ** 4, 10 ** 8))))
    return Problem(["to_base", "from_base"], "Write two Python functions, `to_base(n)` and `from_base(s)`.", spec, ref, broken, "to_base(0) returns ''",
                   oracle, cases, "greedy powers of the base; positional sum")


def opts_base_codec(rng: random.Random) -> list:
    bases = [2, 3, 5, 7, 8, 12, 16, 20, 30, 36]
    rng.shuffle(bases)
    return bases


def _weak_orders() -> list[tuple[int, int, int]]:
    out = []
    for levels in itertools.product((1, 2, 3), repeat=3):
        used = sorted(set(levels))
        if used == list(range(1, len(used) + 1)):
            out.append(levels)
    return out


def _prec_text(prec: dict) -> str:
    groups: dict[int, list[str]] = {}
    for op in "+-*":
        groups.setdefault(prec[op], []).append(op)
    order = sorted(groups, reverse=True)
    parts = []
    for level in order:
        ops = groups[level]
        parts.append(" and ".join(f"'{o}'" for o in ops) + (" (equal)" if len(ops) > 1 else ""))
    if len(parts) == 1:
        return f"All three operators {parts[0].removesuffix(' (equal)')} have the same precedence."
    return "Precedence, from tightest to loosest binding: " + ", then ".join(parts) + "."


def fam_precedence(rng: random.Random, i: int, opts: list) -> Problem:
    levels = opts[i]
    prec = dict(zip("+-*", levels))
    name = "evaluate"
    spec = (f"evaluates an integer expression made of non-negative integers, the binary operators + - * and parentheses; spaces may appear between tokens. "
            f"The precedence is NOT the usual one. {_prec_text(prec)} "
            f"Every operator is left-associative, so a chain of operators of equal precedence is evaluated from left to right. "
            f"An expression without any token raises ValueError.")
    ref = (f"import re\n\nPREC = {prec!r}\n\n\ndef {name}(expr):\n    tokens = re.findall(r'\\d+|[-+*()]', expr)\n    if not tokens:\n        raise ValueError('empty expression')\n"
           f"    values, ops = [], []\n\n    def apply():\n        op = ops.pop()\n        b = values.pop()\n        a = values.pop()\n"
           f"        values.append(a + b if op == '+' else a - b if op == '-' else a * b)\n\n"
           f"    for tok in tokens:\n        if tok.isdigit():\n            values.append(int(tok))\n        elif tok == '(':\n            ops.append(tok)\n"
           f"        elif tok == ')':\n            while ops[-1] != '(':\n                apply()\n            ops.pop()\n        else:\n"
           f"            while ops and ops[-1] != '(' and PREC[ops[-1]] >= PREC[tok]:\n                apply()\n            ops.append(tok)\n"
           f"    while ops:\n        apply()\n    return values[0]\n")
    broken = ref.replace("PREC[ops[-1]] >= PREC[tok]", "PREC[ops[-1]] > PREC[tok]")

    def tokens_of(expr: str) -> list[str]:
        out, num = [], ""
        for ch in expr:
            if ch.isdigit():
                num += ch
                continue
            if num:
                out.append(num)
                num = ""
            if ch in "+-*()":
                out.append(ch)
        return out + ([num] if num else [])

    def value(toks: list[str]) -> int:
        depth, split = 0, None
        for k, t in enumerate(toks):  # rightmost operator of the loosest level at depth 0
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif t in prec and depth == 0 and (split is None or prec[t] <= prec[toks[split]]):
                split = k
        if split is None:
            if toks[0] == "(":
                return value(toks[1:-1])
            return int(toks[0])
        a, b = value(toks[:split]), value(toks[split + 1:])
        return {"+": a + b, "-": a - b, "*": a * b}[toks[split]]

    def oracle(expr: str) -> Any:
        toks = tokens_of(expr)
        return value(toks) if toks else Raises("ValueError")

    def rand_expr(depth: int) -> str:
        parts = [str(rng.randrange(0, 12))]
        for _ in range(rng.randrange(1, 4)):
            parts.append(rng.choice("+-*-"))
            parts.append(f"({rand_expr(depth + 1)})" if depth < 1 and rng.random() < 0.25 else str(rng.randrange(0, 12)))
        return " ".join(parts)

    cases = [fn(name, ""), fn(name, "  "), fn(name, "42"), fn(name, "2 + 3 * 4"), fn(name, "10 - 4 - 3"), fn(name, "10 - 2 + 3"), fn(name, "2 * 3 + 4"),
             fn(name, "(2 + 3) * 4"), fn(name, "8 - 2 * 3"), fn(name, "1+2*3-4"), fn(name, "7 * (6 - 2 - 1) + 1")]
    cases += [fn(name, rand_expr(0)) for _ in range(5)]
    return Problem([name], f"Write a Python function `{name}(expr)` that", spec, ref, broken,
                   "applies equal-precedence operators right to left", call_oracle(oracle), cases, "recursive split at the loosest rightmost operator")


def opts_precedence(rng: random.Random) -> list:
    """Weak orders of + - *, one per behaviour: some orders compute the same values (with '-'
    binding tighter than '+', a + b - c is a + (b - c), the same as left to right)."""
    probe_rng = random.Random(7)
    probes = []
    for _ in range(300):
        toks = [str(probe_rng.randrange(0, 9))]
        for _ in range(probe_rng.randrange(1, 5)):
            toks += [probe_rng.choice("+-*"), str(probe_rng.randrange(0, 9))]
        probes.append(" ".join(toks))
    out, signatures = [], set()
    for levels in _weak_orders():
        prec = dict(zip("+-*", levels))
        signature = tuple(_prec_eval(prec, e) for e in probes)
        if signature not in signatures:
            signatures.add(signature)
            out.append(levels)
    rng.shuffle(out)
    return out[:VARIANTS]


def _prec_eval(prec: dict, expr: str) -> int:
    toks = expr.split()
    split = None
    for k, t in enumerate(toks):
        if t in prec and (split is None or prec[t] <= prec[toks[split]]):
            split = k
    if split is None:
        return int(toks[0])
    a, b = _prec_eval(prec, " ".join(toks[:split])), _prec_eval(prec, " ".join(toks[split + 1:]))
    return {"+": a + b, "-": a - b, "*": a * b}[toks[split]]


def fam_csv(rng: random.Random, i: int, opts: list) -> Problem:
    delim, quote = opts[i]
    name = "parse_csv"
    shown = {"\t": "the tab character '\\t'"}.get(delim, repr(delim))
    spec = (f"parses text in a CSV dialect and returns a list of rows, each a list of field strings. Rows end at '\\n' (a final '\\n' does not start another row; an empty line is the row []). "
            f"Fields are separated by {shown}. A field that starts with {quote!r} is quoted: it may contain the separator and newlines, and a doubled {quote * 2!r} inside stands for one {quote!r}. "
            f"The quoted field must end right after its closing quote, otherwise ValueError is raised; an unterminated quote raises ValueError too. "
            f"A {quote!r} inside an unquoted field is an ordinary character, and spaces are kept. An empty text gives [].")
    ref = (f"D, Q = {delim!r}, {quote!r}\n\n\ndef {name}(text):\n    rows, row, field = [], [], ''\n    at_start, line_empty = True, True\n    i, n = 0, len(text)\n"
           f"    while i < n:\n        c = text[i]\n        if at_start and c == Q:\n            i += 1\n            while True:\n                if i >= n:\n"
           f"                    raise ValueError('unterminated quote')\n                if text[i] == Q:\n                    if i + 1 < n and text[i + 1] == Q:\n"
           f"                        field += Q\n                        i += 2\n                        continue\n                    i += 1\n                    break\n"
           f"                field += text[i]\n                i += 1\n            if i < n and text[i] not in (D, '\\n'):\n                raise ValueError('text after a closing quote')\n"
           f"            at_start, line_empty = False, False\n            continue\n"
           f"        if c == D:\n            row.append(field)\n            field, at_start, line_empty = '', True, False\n"
           f"        elif c == '\\n':\n            if not line_empty:\n                row.append(field)\n            rows.append(row)\n            row, field, at_start, line_empty = [], '', True, True\n"
           f"        else:\n            field += c\n            at_start, line_empty = False, False\n        i += 1\n"
           f"    if not line_empty:\n        row.append(field)\n        rows.append(row)\n    return rows\n")
    broken = ref.replace("                    if i + 1 < n and text[i + 1] == Q:\n                        field += Q\n                        i += 2\n                        continue\n", "")

    def oracle(text: str) -> Any:
        try:
            return [list(r) for r in csv.reader(io.StringIO(text, newline=""), delimiter=delim, quotechar=quote, strict=True, doublequote=True,
                                                  lineterminator="\n", quoting=csv.QUOTE_MINIMAL, skipinitialspace=False)]
        except csv.Error:
            return Raises("ValueError")

    others = [c for c in ",;|\t/" if c != delim]

    def field_text() -> str:
        kind = rng.random()
        if kind < 0.45:
            return "".join(rng.choice("ab c") for _ in range(rng.randrange(0, 4)))
        if kind < 0.6:
            return "x" + rng.choice(others) + "y"
        body = "".join(rng.choice(["a", " ", delim, quote * 2, "\n", "b"]) for _ in range(rng.randrange(1, 5)))
        return quote + body + quote

    def table_text() -> str:
        lines = [delim.join(field_text() for _ in range(rng.randrange(1, 4))) for _ in range(rng.randrange(1, 4))]
        return "\n".join(lines) + rng.choice(["", "\n"])

    q = quote
    cases = [fn(name, ""), fn(name, "\n"), fn(name, f"a{delim}b\n\nc"), fn(name, f"{q}x{delim}y{q}{delim}z\n"), fn(name, f"{q}say {q}{q}hi{q}{q}{q}{delim}ok"),
             fn(name, f"{q}open{delim}x"), fn(name, f"{q}ab{q}c{delim}d"), fn(name, f"it{q}s{delim} fine "), fn(name, f"{q}line\nbreak{q}{delim}2\n"),
             fn(name, "a,b;c|d\te/f"), fn(name, "'a,b'\n\"c;d\"")]
    cases += [fn(name, table_text()) for _ in range(5)]
    return Problem([name], f"Write a Python function `{name}(text)` that", spec, ref, broken, "does not treat a doubled quote as an escaped quote",
                   call_oracle(oracle), cases, "the csv module (strict dialect with this separator and quote)")


def opts_csv(rng: random.Random) -> list:
    out = [(d, q) for d in (",", ";", "|", "\t", "/") for q in ('"', "'")]
    rng.shuffle(out)
    return out


def fam_calendar(rng: random.Random, i: int, opts: list) -> Problem:
    k, closed = opts[i]
    cls = "Calendar"
    kind = ("Bookings are closed intervals [start, end]: one ending at 5 and one starting at 5 overlap at the moment 5." if closed
            else "Bookings are half-open intervals [start, end): one ending at 5 and one starting at 5 do not overlap.")
    cap = "one booking" if k == 1 else f"{k} bookings"
    spec = (f"implements a class {cls}() for a room in which at most {cap} may be in progress at any moment. "
            f"book(start, end) stores the booking and returns True when that stays true at every moment, else returns False and stores nothing. {kind} "
            f"cancel(start, end) removes one stored booking with exactly these bounds and returns True, or returns False when there is none. "
            f"count() returns the number of stored bookings and busiest() the largest number in progress at one moment (0 when empty). "
            f"book raises ValueError when start >= end.")
    order = "(t, -delta)" if closed else "(t, delta)"
    ref = (f"class {cls}:\n    def __init__(self):\n        self.bookings = []\n\n    def _peak(self, bookings):\n        events = []\n        for s, e in bookings:\n"
           f"            events.append((s, 1))\n            events.append((e, -1))\n        events.sort(key=lambda ev: {order.replace('t', 'ev[0]', 1).replace('delta', 'ev[1]')})\n"
           f"        peak = cur = 0\n        for _, delta in events:\n            cur += delta\n            peak = max(peak, cur)\n        return peak\n\n"
           f"    def book(self, start, end):\n        if start >= end:\n            raise ValueError('start must be before end')\n"
           f"        if self._peak(self.bookings + [(start, end)]) > {k}:\n            return False\n        self.bookings.append((start, end))\n        return True\n\n"
           f"    def cancel(self, start, end):\n        if (start, end) in self.bookings:\n            self.bookings.remove((start, end))\n            return True\n        return False\n\n"
           f"    def count(self):\n        return len(self.bookings)\n\n    def busiest(self):\n        return self._peak(self.bookings)\n")
    if k > 1:
        broken = ref.replace(f"        if self._peak(self.bookings + [(start, end)]) > {k}:\n",
                             f"        overlapping = [b for b in self.bookings if b[0] {'<=' if closed else '<'} end and start {'<=' if closed else '<'} b[1]]\n"
                             f"        if len(overlapping) + 1 > {k}:\n")
        how = "counts every booking that overlaps the new one instead of the peak at one moment"
    else:
        flipped = "(ev[0], ev[1])" if closed else "(ev[0], -ev[1])"
        broken = ref.replace(f"events.sort(key=lambda ev: {order.replace('t', 'ev[0]', 1).replace('delta', 'ev[1]')})", f"events.sort(key=lambda ev: {flipped})")
        how = "treats touching bookings the other way round (closed versus half-open)"

    def covered(s: int, e: int) -> range:
        return range(2 * s, 2 * e + 1) if closed else range(2 * s, 2 * e)

    def simulate(ops: tuple) -> list:
        stored: list[tuple[int, int]] = []
        out: list[Any] = []

        def load(bs: list) -> int:
            best = 0
            for p in range(0, 2 * 60):
                best = max(best, sum(1 for s, e in bs if p in covered(s, e)))
            return best

        for method, args in ops:
            if method == "book":
                s, e = args
                if s >= e:
                    out.append(Raises("ValueError"))
                elif load(stored + [(s, e)]) <= k:
                    stored.append((s, e))
                    out.append(True)
                else:
                    out.append(False)
            elif method == "cancel":
                if tuple(args) in stored:
                    stored.remove(tuple(args))
                    out.append(True)
                else:
                    out.append(False)
            elif method == "count":
                out.append(len(stored))
            else:
                out.append(load(stored))
        return out

    def random_ops() -> list:
        out, made = [], []
        for _ in range(rng.randrange(14, 22)):
            r = rng.random()
            if r < 0.65:
                s = rng.randrange(0, 16)
                b = (s, s + rng.randrange(1, 6))
                made.append(b)
                out.append(("book", b))
            elif r < 0.75 and made:
                out.append(("cancel", rng.choice(made)))
            else:
                out.append((rng.choice(["count", "busiest"]), ()))
        return out + [("busiest", ()), ("count", ())]

    stack = [("book", (0, 10)), ("book", (2, 8)), ("book", (3, 7)), ("book", (4, 6)), ("book", (5, 6)), ("book", (1, 9)), ("busiest", ()), ("count", ())]
    cases = [session(cls, (), [("busiest", ()), ("count", ()), ("book", (3, 3)), ("book", (5, 2)), ("cancel", (1, 2))]),
             session(cls, (), [("book", (1, 5)), ("book", (5, 8)), ("book", (8, 9)), ("busiest", ()), ("count", ())]),
             session(cls, (), [("book", (0, 4)), ("book", (4, 8)), ("book", (2, 6)), ("book", (3, 5)), ("cancel", (2, 6)), ("book", (3, 5)), ("busiest", ())]),
             session(cls, (), [("book", (0, 3)), ("book", (5, 9)), ("book", (1, 6)), ("book", (2, 8)), ("busiest", ()), ("count", ())]),
             session(cls, (), stack),
             session(cls, (), [("book", (3 * n + 1, 3 * n + 2)) for n in range(6)] + [("book", (0, 30)), ("busiest", ()), ("count", ())])]
    cases += [session(cls, (), random_ops()) for _ in range(3)]
    cases += [session(cls, (), random_ops()[-7:]) for _ in range(4)]
    return Problem([cls], "Write Python code that", spec, ref, broken, how, lambda c: simulate(c[3]), cases, "load counted at every half-unit time point")


def opts_calendar(rng: random.Random) -> list:
    out = [(k, c) for k in (1, 2, 3, 4, 5) for c in (False, True)]
    rng.shuffle(out)
    return out


def fam_knapsack(rng: random.Random, i: int, opts: list) -> Problem:
    m, fewest = opts[i]
    copies = "at most once" if m == 1 else f"up to {m} times"
    tie = "fewest" if fewest else "most"
    spec = (f"Both take items, a list of (weight, value) pairs of positive integers, and a capacity; each item may be taken {copies}, and ties prefer the {tie} items. "
            f"best_value(items, capacity) returns the largest total value whose total weight is at most capacity. "
            f"best_counts(items, capacity) returns, for an optimal choice, the list of how many copies of each item it takes. "
            f"Among optimal choices it picks the one with the {tie} items in total, and if that still ties, the lexicographically smallest list. "
            f"Capacity 0 gives 0 and all-zero counts, an empty items list gives 0 and []. Both raise ValueError for a negative capacity.")
    sign = "-" if fewest else ""
    ref = (f"from functools import lru_cache\n\nMAX_COPIES = {m}\n\n\ndef _solve(items, capacity):\n    if capacity < 0:\n        raise ValueError('negative capacity')\n"
           f"    items = tuple(tuple(it) for it in items)\n\n    @lru_cache(maxsize=None)\n    def best(k, room):\n        # key to maximise: (value, +-count, negated counts for the lexicographically smallest list)\n"
           f"        if k == len(items):\n            return (0, 0, ())\n        w, v = items[k]\n        top = None\n"
           f"        for c in range(MAX_COPIES + 1):\n            if c * w > room:\n                break\n            value, count, rest = best(k + 1, room - c * w)\n"
           f"            cand = (value + c * v, count + {sign}c, (-c,) + rest)\n            if top is None or cand > top:\n                top = cand\n        return top\n\n"
           f"    return best(0, capacity)\n\n\ndef best_value(items, capacity):\n    return _solve(items, capacity)[0]\n\n\n"
           f"def best_counts(items, capacity):\n    return [-c for c in _solve(items, capacity)[2]]\n")
    broken = ref.replace("            if c * w > room:\n                break\n", "            if c * w > room:\n                break\n            if c > 1:\n                break\n") if m > 1 else \
        ref.replace(f"count + {sign}c", f"count + {'' if fewest else '-'}c")
    how = "takes each item at most once" if m > 1 else f"prefers the {'most' if fewest else 'fewest'} items on a value tie"

    def brute(items: list, capacity: int) -> Any:
        if capacity < 0:
            return Raises("ValueError")
        best_key, best_counts_ = None, None
        for counts in itertools.product(range(m + 1), repeat=len(items)):
            weight = sum(c * w for c, (w, _) in zip(counts, items))
            if weight > capacity:
                continue
            value = sum(c * v for c, (_, v) in zip(counts, items))
            total = sum(counts)
            key = (-value, total if fewest else -total, list(counts))
            if best_key is None or key < best_key:
                best_key, best_counts_ = key, list(counts)
        return (-best_key[0], best_counts_)

    def oracle(case: tuple) -> Any:
        _, name, (items, capacity) = case
        got = brute(items, capacity)
        if isinstance(got, Raises):
            return got
        return got[0] if name == "best_value" else got[1]

    def items_of(n: int) -> list:
        return [(rng.randrange(1, 6), rng.randrange(1, 9)) for _ in range(n)]

    fixed = [([], 10), ([(2, 3), (3, 4)], 0), ([(1, 1), (2, 2), (3, 3)], 6), ([(2, 2), (1, 1)], 5), ([(4, 5), (3, 4), (2, 3)], 9), ([(3, 5)], 12),
             ([(2, 2), (1, 1), (1, 1)], 2), ([(3, 3), (1, 1), (2, 2)], 3)]
    cases = [fn("best_value", [(2, 3)], -1), fn("best_counts", [(2, 3)], -4)]
    for items, cap in fixed:
        cases += [fn("best_value", items, cap), fn("best_counts", items, cap)]
    for _ in range(4):
        items, cap = items_of(rng.randrange(2, 5)), rng.randrange(4, 15)
        cases += [fn("best_value", items, cap), fn("best_counts", items, cap)]
    return Problem(["best_value", "best_counts"], "Write two Python functions, `best_value(items, capacity)` and `best_counts(items, capacity)`.",
                   spec, ref, broken, how, oracle, cases, "brute force over every count vector")


def opts_knapsack(rng: random.Random) -> list:
    out = [(m, f) for m in (1, 2, 3, 4, 5) for f in (True, False)]
    rng.shuffle(out)
    return out


def fam_editor(rng: random.Random, i: int, opts: list) -> Problem:
    forward, depth = opts[i]
    cls = "Editor"
    delete_text = ("delete(n) removes up to n characters after the cursor (fewer at the end of the text); the cursor stays." if forward else
                   "delete(n) removes up to n characters before the cursor (fewer at the start of the text) and moves the cursor back over them.")
    undo_text = ("Every edit can be undone." if depth is None else
                 f"Only the {depth} most recent edits can be undone; older ones are forgotten." if depth > 1 else "Only the most recent edit can be undone.")
    spec = (f"implements a class {cls}() holding a text (initially empty) and a cursor (initially 0). insert(s) inserts s at the cursor and moves the cursor after it. "
            f"{delete_text} move(k) moves the cursor k places, to the left when k is negative, stopping at either end. "
            f"text() and cursor() report the state. undo() restores text and cursor to how they were before the latest edit not yet undone and returns True, or returns False when there is none. "
            f"Edits are inserts and deletes that change the text; moves are not edits. {undo_text} delete raises ValueError for a negative n.")
    keep = "None" if depth is None else str(depth)
    if forward:
        delete_code = ("        gone = self.buf[self.pos:self.pos + n]\n        if gone:\n            self._save()\n"
                       "            self.buf = self.buf[:self.pos] + self.buf[self.pos + n:]\n")
    else:
        delete_code = ("        start = max(0, self.pos - n)\n        if start < self.pos:\n            self._save()\n"
                       "            self.buf = self.buf[:start] + self.buf[self.pos:]\n            self.pos = start\n")
    ref = (f"from collections import deque\n\n\nclass {cls}:\n    def __init__(self):\n        self.buf = ''\n        self.pos = 0\n        self.history = deque(maxlen={keep})\n\n"
           f"    def _save(self):\n        self.history.append((self.buf, self.pos))\n\n"
           f"    def insert(self, s):\n        if s:\n            self._save()\n            self.buf = self.buf[:self.pos] + s + self.buf[self.pos:]\n            self.pos += len(s)\n\n"
           f"    def delete(self, n):\n        if n < 0:\n            raise ValueError('negative count')\n{delete_code}\n"
           f"    def move(self, k):\n        self.pos = min(len(self.buf), max(0, self.pos + k))\n\n"
           f"    def text(self):\n        return self.buf\n\n    def cursor(self):\n        return self.pos\n\n"
           f"    def undo(self):\n        if not self.history:\n            return False\n        self.buf, self.pos = self.history.pop()\n        return True\n")
    broken = ref.replace("        self.buf, self.pos = self.history.pop()\n", "        self.buf = self.history.pop()[0]\n        self.pos = min(self.pos, len(self.buf))\n")

    def simulate(ops: tuple) -> list:
        state = ["", 0]
        snaps: list[tuple[str, int]] = []
        out: list[Any] = []

        def remember() -> None:
            snaps.append((state[0], state[1]))
            if depth is not None and len(snaps) > depth:
                snaps.pop(0)

        for method, args in ops:
            text, pos = state
            if method == "insert":
                if args[0] != "":
                    remember()
                    state[:] = [text[:pos] + args[0] + text[pos:], pos + len(args[0])]
                out.append(None)
            elif method == "delete":
                n = args[0]
                if n < 0:
                    out.append(Raises("ValueError"))
                    continue
                lo, hi = (pos, min(len(text), pos + n)) if forward else (max(0, pos - n), pos)
                if hi > lo:
                    remember()
                    state[:] = [text[:lo] + text[hi:], lo if not forward else pos]
                out.append(None)
            elif method == "move":
                target = pos + args[0]
                state[1] = 0 if target < 0 else len(text) if target > len(text) else target
                out.append(None)
            elif method == "text":
                out.append(text)
            elif method == "cursor":
                out.append(pos)
            else:
                if snaps:
                    state[:] = list(snaps.pop())
                    out.append(True)
                else:
                    out.append(False)
        return out

    words = ["cat", "sun", "blue ", "x", "", "hello", "42"]

    def random_ops() -> list:
        out = []
        for _ in range(rng.randrange(14, 22)):
            r = rng.random()
            if r < 0.35:
                out.append(("insert", (rng.choice(words),)))
            elif r < 0.55:
                out.append(("delete", (rng.randrange(0, 5),)))
            elif r < 0.7:
                out.append(("move", (rng.randrange(-6, 6),)))
            elif r < 0.88:
                out.append(("undo", ()))
            else:
                out.append((rng.choice(["text", "cursor"]), ()))
        return out + [("text", ()), ("cursor", ())]

    cases = [session(cls, (), [("undo", ()), ("text", ()), ("cursor", ()), ("delete", (3,)), ("undo", ()), ("move", (-2,)), ("cursor", ())]),
             session(cls, (), [("insert", ("hello",)), ("move", (-2,)), ("delete", (2,)), ("text", ()), ("cursor", ()), ("delete", (-1,)), ("undo", ()),
                               ("text", ()), ("cursor", ())]),
             session(cls, (), [("insert", ("ab",)), ("insert", ("cd",)), ("insert", ("ef",)), ("insert", ("gh",)), ("insert", ("ij",)), ("insert", ("kl",)),
                               ("undo", ()), ("undo", ()), ("undo", ()), ("undo", ()), ("text", ()), ("undo", ()), ("undo", ()), ("undo", ()), ("text", ())]),
             session(cls, (), [("insert", ("abcdef",)), ("move", (-10,)), ("move", (3,)), ("delete", (10,)), ("text", ()), ("cursor", ()), ("insert", ("",)),
                               ("undo", ()), ("text", ()), ("cursor", ())]),
             session(cls, (), [("insert", ("abc",)), ("move", (-3,)), ("insert", ("xy",)), ("cursor", ()), ("undo", ()), ("cursor", ()), ("text", ())])]
    cases += [session(cls, (), random_ops()) for _ in range(3)]
    cases += [session(cls, (), random_ops()[-7:]) for _ in range(4)]
    return Problem([cls], "Write Python code that", spec, ref, broken, "undo restores the text but not the cursor", lambda c: simulate(c[3]), cases,
                   "snapshot-list simulation", void=frozenset({"insert", "delete", "move"}))


def opts_editor(rng: random.Random) -> list:
    out = [(f, d) for f in (False, True) for d in (1, 2, 3, 5, None)]
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
    ("hard", "dynamic_programming", fam_edit_distance, opts_edit_distance), ("hard", "parsing", fam_rpn, opts_rpn),
    ("hard", "dynamic_programming", fam_coins, opts_coins), ("hard", "graphs", fam_grid_steps, opts_grid_steps),
    ("hard", "classes", fam_cache, opts_cache), ("hard", "classes", fam_account, opts_account),
    ("hard", "classes", fam_bounded_stack, opts_bounded_stack), ("hard", "parsing", fam_base_codec, opts_base_codec),
    ("hard", "parsing", fam_precedence, opts_precedence), ("hard", "parsing", fam_csv, opts_csv),
    ("hard", "classes", fam_calendar, opts_calendar), ("hard", "dynamic_programming", fam_knapsack, opts_knapsack),
    ("hard", "classes", fam_editor, opts_editor),
]


# --- execution (the sandbox's contract and default limits, standard library only) ------------

def execute(pairs: list[tuple[str, str]]) -> list[bool]:
    """Each (program, tests) pair in a forked child of one isolated interpreter, under the
    sandbox's contract and default limits: eval-code-v1's runner, reused as it is."""
    return gen_eval_code_v1.execute(pairs)


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
    sentences = [x.strip() for x in re.split(r"(?<=[.!?]) +", problem.spec) if x.strip()]
    head = problem.head + " "
    parts: list[str] = []
    fixed = len(head)
    pending = list(examples)
    assert head.endswith(". ") or len(head) + len(sentences[0]) < 200, (problem.entries, sentences[0])
    for k, sentence in enumerate(sentences):
        assert len(sentence) < 200, (problem.entries, sentence)
        if k and len(pending) > 1 and fixed + len(sentence) > MAX_FIXED:  # the last example stays for the block before the instruction
            parts.append(_inline(pending.pop(0)))
            fixed = 0
        parts.append(sentence)
        fixed += len(sentence) + 1
    if not any(p.startswith("For example") for p in parts) and len(pending) > 1:
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
        assert all(p.broken != p.reference for p in problems), family.__name__
        texts = [[example_text(c, expected_of(p, c), p.void) for c in p.cases[::-1]] for p in problems]
        counts = Counter(t for ts in texts for t in set(ts))
        for cases, p, ts in zip(distinguish(family.__name__, problems), problems, texts):
            # examples the other variants do not share first (unique-text rule), drawn cases before fixed edge cases
            examples = [t for t in ts if counts[t] == 1] or ts[:1]
            if p.entries[0][0].isupper():  # a class: long specs need more worked sessions between sentences
                p.n_examples = 5
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
    # The scoring block describes extraction per scorer as the scorer registry does it -- what
    # atlas_assets.corpus.cards.scoring_block gives and check.py compares; written out here because
    # the generator stays standard-library only (the registry needs pydantic).
    scoring = {k: v for k, v in _lib.SCORING.items() if k not in ("extraction", "extraction_skipped_for")}
    scoring["extraction"] = {"code_exec": CODE_EXEC_EXTRACTION}
    card = _lib.eval_dataset_json(
        scoring=scoring,
        dataset_id=DATASET_ID,
        description=(
            "Python functions, multi-function tasks and stateful classes scored by code_exec (supersedes eval-code-v1): "
            "every row is a distinct problem -- within a family each reference fails the tests of every other row, "
            "proved by executing the full matrix. Expected values come from independent oracles; the reference passes "
            "and a plausible broken version fails, both executed by the generator"
        ),
        generator=__file__,
        inputs=[Path(gen_eval_code_v1.__file__)],
        seed=SEED,
        rows=rows,
        date=DATE,
        default_scorer="code_exec",
        extra={
            "tests_contract": "the program runs alone in the sandbox (as module 'solution'); the tests run in a trusted judge outside it, "
            "calling the program's names, and only plain values cross back; pass iff every test statement completes",
            "tests_format": "tests call only the names the prompt asks for and compare plain return values; expected exceptions are builtin types (try/except/else)",
            "limits": LIMITS,
        },
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
