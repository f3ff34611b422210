# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-math-v1: one- and two-step math, 252 rows.

Six categories (arithmetic, algebra, number theory, combinatorics, probability, geometry)
x three difficulties x 14 rows, each drawn from several item families with random
parameters. Every answer is computed exactly with integers and fractions.Fraction and then
re-derived by a second, independent route before the row is accepted: expressions are
re-evaluated from their rendered text, equations are checked by substitution, counts are
brute-forced by enumeration, probabilities by enumerating the sample space. Non-integer
answers are exact decimals or, for fractions with no finite decimal, a 12-place decimal
with meta.tolerance 1e-6 and meta.exact "p/q" (the prompt accepts the fraction).

    python datasets/_gen/gen_eval_math_v1.py [--out DIR]
"""

from __future__ import annotations

import itertools
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _evalkit as K  # noqa: E402
import _lib  # noqa: E402

DATASET_ID = "eval-math-v1"
SEED = 5_100_001
PER_CELL = 14  # rows per category x difficulty

F = Fraction


def pick(rng: random.Random, diff: str, easy, medium, hard):
    return {"easy": easy, "medium": medium, "hard": hard}[diff]


def check_expr(text: str, value: Fraction) -> None:
    """Independent re-evaluation of a rendered expression (× ÷ − as Python operators)."""
    py = text.replace("×", "*").replace("÷", "/").replace("−", "-")
    got = eval(py, {"__builtins__": {}}, {"F": Fraction})  # noqa: S307 - our own generated text
    assert abs(got - value) < 1e-9, (text, got, value)


# --- arithmetic ------------------------------------------------------------------------


def ar_multiply(S, rng, diff, cat):
    a_digits, b_digits = pick(rng, diff, (2, 2), (3, 2), (4, 3))
    a = rng.randrange(10 ** (a_digits - 1) + 1, 10**a_digits)
    b = rng.randrange(10 ** (b_digits - 1) + 1, 10**b_digits)
    if diff == "hard":
        c = rng.randrange(1000, 9999)
        text = f"{a} × {b} − {c}"
        value = a * b - c
    else:
        text = f"{a} × {b}"
        value = a * b
    check_expr(text, F(value))
    return S.add_number(category=cat, difficulty=diff, question=f"Compute {text}.", value=value,
                        meta={"why": f"{text} = {value}"})


def _expr(rng, depth):
    """A random integer expression tree whose every division is exact and whose values
    stay non-negative, rendered with only the parentheses that precedence requires.
    Returns (text, value, precedence)."""
    if depth == 0:
        v = rng.randrange(2, 20)
        return str(v), F(v), 3
    op = rng.choice("+−××÷")
    left_t, left_v, left_p = _expr(rng, depth - 1)
    if op == "÷":
        divisors = [d for d in range(2, 13) if left_v % d == 0]
        if divisors:
            d = rng.choice(divisors)
            return f"({left_t}) ÷ {d}" if left_p < 2 else f"{left_t} ÷ {d}", left_v / d, 2
        op = "+"
    right_t, right_v, right_p = _expr(rng, depth - 1)
    if op == "−" and right_v > left_v:
        left_t, left_v, left_p, right_t, right_v, right_p = right_t, right_v, right_p, left_t, left_v, left_p
    prec = 1 if op in "+−" else 2
    lt = f"({left_t})" if left_p < prec else left_t
    rt = f"({right_t})" if right_p < prec or (right_p == prec and op in "−÷") else right_t
    value = {"+": left_v + right_v, "−": left_v - right_v, "×": left_v * right_v}[op]
    return f"{lt} {op} {rt}", value, prec


def ar_expression(S, rng, diff, cat):
    depth = pick(rng, diff, 2, 2, 3)
    while True:
        text, value, _ = _expr(rng, depth)
        if text.count(" ") >= pick(rng, diff, 4, 6, 8) and value.denominator == 1 and 0 <= value < 5000:
            break
    check_expr(text, value)
    return S.add_number(category=cat, difficulty=diff, question=f"Evaluate {text}, respecting the usual order of operations.",
                        value=value, meta={"why": f"{text} = {value}"})


def ar_percent(S, rng, diff, cat):
    if diff == "easy":
        p = rng.choice([10, 20, 25, 30, 40, 50, 60, 75])
        base = rng.randrange(4, 60) * 20
        value = F(p, 100) * base
        q = f"What is {p}% of {base}?"
        why = f"{p}/100 × {base} = {value}"
    elif diff == "medium":
        p = rng.choice([5, 12, 15, 18, 35, 45, 65])
        base = rng.randrange(8, 90) * 20
        up = rng.random() < 0.5
        value = base * (1 + F(p, 100) * (1 if up else -1))
        q = f"A jacket is priced at {base} dollars. Its price is {'raised' if up else 'cut'} by {p}%. What is the new price in dollars?"
        why = f"{base} × (1 {'+' if up else '−'} {p}/100) = {value}"
    else:
        p = rng.choice([10, 15, 20, 25, 30, 40])
        original = rng.randrange(6, 80) * 20
        final = original * (1 - F(p, 100))
        value = F(original)
        q = f"After a {p}% discount a bicycle costs {K.decimal_string(final)} dollars. What was the price before the discount, in dollars?"
        why = f"{K.decimal_string(final)} / (1 − {p}/100) = {original}"
        assert final / (1 - F(p, 100)) == value
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": why})


def ar_fractions(S, rng, diff, cat):
    def frac():
        b = rng.randrange(2, pick(rng, diff, 7, 10, 13))
        return F(rng.randrange(1, 2 * b), b)

    a, b = frac(), frac()
    if diff == "easy":
        op = "+"
        value = a + b
    elif diff == "medium":
        op = rng.choice(["−", "×"])
        if op == "−" and b > a:
            a, b = b, a
        value = a - b if op == "−" else a * b
    else:
        c = frac()
        op = "÷"
        value = (a + b) / c
    show = lambda x: f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)  # noqa: E731
    if diff == "hard":
        text = f"({show(a)} + {show(b)}) ÷ ({show(c)})" if c.denominator != 1 else f"({show(a)} + {show(b)}) ÷ {show(c)}"
        py = f"(F({a.numerator},{a.denominator}) + F({b.numerator},{b.denominator})) / F({c.numerator},{c.denominator})"
    else:
        text = f"{show(a)} {op} {show(b)}"
        py = f"F({a.numerator},{a.denominator}) {op} F({b.numerator},{b.denominator})"
    check_expr(py, value)
    return S.add_number(category=cat, difficulty=diff, question=f"Compute {text}.", value=value,
                        meta={"why": f"{text} = {value}"})


def ar_shopping(S, rng, diff, cat):
    who = K.names(rng, 1)[0]
    items = rng.sample([("pencils", 35, 95), ("stamps", 45, 120), ("apples", 40, 90), ("notebooks", 150, 420),
                        ("candles", 120, 380), ("batteries", 80, 260), ("postcards", 25, 90), ("mugs", 300, 900)],
                       pick(rng, diff, 1, 2, 3))
    lines, total = [], 0
    for name, lo, hi in items:
        qty = rng.randrange(2, pick(rng, diff, 9, 13, 17))
        price = rng.randrange(lo // 5, hi // 5) * 5
        lines.append(f"{qty} {name} at {K.decimal_string(F(price, 100))} dollars each")
        total += qty * price
    paid = (total // 1000 + 1) * 1000 + (1000 if diff == "hard" else 0)
    value = F(paid - total, 100)
    assert F(paid, 100) - sum(F(int(line.split()[0])) * F(line.split(" at ")[1].split()[0]) for line in lines) == value
    q = f"{who} buys {', '.join(lines[:-1]) + ' and ' + lines[-1] if len(lines) > 1 else lines[0]}, and pays with {paid // 100} dollars. How much change, in dollars, does {who} get?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value,
                        meta={"why": f"cost {K.decimal_string(F(total, 100))}, change {paid // 100} − {K.decimal_string(F(total, 100))} = {K.decimal_string(value)}"})


# --- algebra ---------------------------------------------------------------------------


def lin(*terms) -> str:
    """Render a sum of (coefficient, variable) terms ('' for the constant): 3x − y + 2."""
    out = ""
    for coef, var in terms:
        if coef == 0:
            continue
        mag = abs(coef)
        body = (str(mag) if (mag != 1 or not var) else "") + var
        out = (("-" if coef < 0 else "") + body) if not out else out + (" − " if coef < 0 else " + ") + body
    return out or "0"


def al_linear(S, rng, diff, cat):
    x = rng.randrange(-12, 13)
    if diff == "easy":
        a, b = rng.randrange(2, 10), rng.randrange(-20, 21)
        c = a * x + b
        text = f"{lin((a, 'x'), (b, ''))} = {c}"
        assert a * x + b == c
    else:
        a, c = rng.randrange(2, 15), rng.randrange(-9, 10)
        while c == a or c == 0:
            c = rng.randrange(-9, 10)
        b = rng.randrange(-30, 31)
        d = a * x + b - c * x
        if diff == "hard":
            k = rng.randrange(2, 6)
            text = f"{k}({lin((a, 'x'), (b, ''))}) = {lin((k * c, 'x'), (k * d, ''))}"
            assert k * (a * x + b) == k * c * x + k * d
        else:
            text = f"{lin((a, 'x'), (b, ''))} = {lin((c, 'x'), (d, ''))}"
            assert a * x + b == c * x + d
    return S.add_number(category=cat, difficulty=diff, question=f"Solve for x: {text}.", value=x,
                        meta={"why": f"x = {x} satisfies {text} (checked by substitution); the equation is linear, so the root is unique"})


def al_system(S, rng, diff, cat):
    x, y = rng.randrange(-9, 10), rng.randrange(-9, 10)
    while True:
        a, b, c, d = (rng.randrange(1, pick(rng, diff, 4, 7, 10)) * rng.choice([1, -1]) for _ in range(4))
        if a * d - b * c != 0:
            break
    e, f = a * x + b * y, c * x + d * y
    ask = pick(rng, diff, "x", rng.choice(["y", "x"]), "x + y")
    value = {"x": x, "y": y, "x + y": x + y}[ask]
    det = a * d - b * c
    assert F(e * d - b * f, det) == x and F(a * f - e * c, det) == y  # Cramer's rule, independently
    q = f"Solve the system {lin((a, 'x'), (b, 'y'))} = {e} and {lin((c, 'x'), (d, 'y'))} = {f}. What is {ask}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"x = {x}, y = {y} (determinant {det} ≠ 0, unique)"})


def al_quadratic(S, rng, diff, cat):
    r1, r2 = rng.sample(range(-12, 13), 2)
    k = pick(rng, diff, 1, 1, rng.randrange(2, 5))
    b, c = -k * (r1 + r2), k * r1 * r2
    terms = f"{lin((k, 'x²'), (b, 'x'), (c, ''))} = 0"
    ask, value = pick(rng, diff, ("the larger root", max(r1, r2)), ("the smaller root", min(r1, r2)),
                      rng.choice([("the sum of the squares of the two roots", r1 * r1 + r2 * r2), ("the larger root", max(r1, r2))]))
    roots = [x for x in range(-40, 41) if k * x * x + b * x + c == 0]
    assert sorted(roots) == sorted([r1, r2])
    return S.add_number(category=cat, difficulty=diff, question=f"The equation {terms} has two distinct real roots. What is {ask}?",
                        value=value, meta={"why": f"{terms} factors as {k}(x − ({r1}))(x − ({r2})); roots {r1} and {r2}"})


def al_function(S, rng, diff, cat):
    a, b, c = rng.randrange(1, 6), rng.randrange(-9, 10), rng.randrange(-9, 10)
    f = lambda x: a * x * x + b * x + c  # noqa: E731
    ftxt = f"f(x) = {lin((a, 'x²'), (b, 'x'), (c, ''))}"
    if diff == "easy":
        x0 = rng.randrange(-6, 7)
        q, value, why = f"Let {ftxt}. What is f({x0})?", f(x0), f"f({x0}) = {f(x0)}"
    else:
        m, n = rng.randrange(2, 6), rng.randrange(-7, 8)
        g = lambda x: m * x + n  # noqa: E731
        gtxt = f"g(x) = {lin((m, 'x'), (n, ''))}"
        x0 = rng.randrange(-4, 5)
        if diff == "medium":
            q, value, why = f"Let {ftxt} and {gtxt}. What is f(g({x0}))?", f(g(x0)), f"g({x0}) = {g(x0)}, f({g(x0)}) = {f(g(x0))}"
        else:
            q, value, why = (f"Let {ftxt} and {gtxt}. What is g(f({x0})) − f(g({x0}))?", g(f(x0)) - f(g(x0)),
                             f"g(f({x0})) = {g(f(x0))}, f(g({x0})) = {f(g(x0))}")
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": why})


def al_sequence(S, rng, diff, cat):
    a, d = rng.randrange(-20, 30), rng.choice([x for x in range(-9, 13) if x])
    n = rng.randrange(pick(rng, diff, 6, 15, 20), pick(rng, diff, 12, 40, 80))
    seq = [a + i * d for i in range(n)]
    shown = ", ".join(str(v) for v in seq[:4])
    if diff == "hard":
        value = sum(seq)
        assert value == n * (2 * a + (n - 1) * d) // 2
        q = f"An arithmetic sequence begins {shown}, … What is the sum of its first {n} terms?"
    else:
        value = seq[-1]
        assert value == a + (n - 1) * d
        q = f"An arithmetic sequence begins {shown}, … What is its {K.ordinal(n)} term?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"first term {a}, difference {d}, n = {n}"})


# --- number theory ---------------------------------------------------------------------


def nt_gcd(S, rng, diff, cat):
    g = rng.randrange(2, pick(rng, diff, 13, 40, 90))
    k = pick(rng, diff, 2, 2, 3)
    while True:
        mult = [rng.randrange(2, pick(rng, diff, 15, 40, 60)) for _ in range(k)]
        if math.gcd(*mult) == 1 and len(set(mult)) == k:
            break
    nums = [g * m for m in mult]
    ask = rng.choice(["greatest common divisor", "least common multiple"]) if diff != "easy" else "greatest common divisor"
    value = math.gcd(*nums) if ask.startswith("greatest") else math.lcm(*nums)
    if ask.startswith("greatest"):
        assert value == max(d for d in range(1, min(nums) + 1) if all(x % d == 0 for x in nums))
    else:
        assert all(value % x == 0 for x in nums) and all(any(v % x for x in nums) for v in range(max(nums), value, max(nums)))
    listing = ", ".join(str(x) for x in nums[:-1]) + " and " + str(nums[-1])
    return S.add_number(category=cat, difficulty=diff, question=f"What is the {ask} of {listing}?", value=value,
                        meta={"why": f"{ask} of {listing} = {value}"})


def nt_modpow(S, rng, diff, cat):
    m = rng.randrange(pick(rng, diff, 3, 7, 11), pick(rng, diff, 10, 20, 50))
    if diff == "easy":
        a = rng.randrange(100, 5000)
        value, q = a % m, f"What is the remainder when {a} is divided by {m}?"
        assert a == (a // m) * m + value
    else:
        a, e = rng.randrange(2, 20), rng.randrange(pick(rng, diff, 10, 10, 50), pick(rng, diff, 20, 40, 400))
        value = pow(a, e, m)
        r = 1
        for _ in range(e):
            r = r * a % m
        assert r == value
        q = f"What is the remainder when {a}^{e} is divided by {m}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"computed = {value}"})


def nt_divisors(S, rng, diff, cat):
    n = rng.randrange(pick(rng, diff, 12, 100, 1000), pick(rng, diff, 100, 1000, 10000))
    divs = [d for d in range(1, n + 1) if n % d == 0]
    ask = pick(rng, diff, "how many positive divisors", rng.choice(["how many positive divisors", "the sum of the positive divisors"]),
               rng.choice(["the sum of the positive divisors", "how many positive divisors"]))
    if ask.startswith("how many"):
        value, q = len(divs), f"How many positive divisors does {n} have?"
        # independent: product of (exponent + 1) over the prime factorisation
        m, count, p = n, 1, 2
        while p * p <= m:
            e = 0
            while m % p == 0:
                m //= p
                e += 1
            count *= e + 1
            p += 1
        count *= 2 if m > 1 else 1
        assert count == value
    else:
        value, q = sum(divs), f"What is the sum of all positive divisors of {n}, including 1 and {n}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"divisors of {n}: {divs}"})


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % p for p in range(2, math.isqrt(n) + 1))


def nt_primes(S, rng, diff, cat):
    if diff == "hard" or rng.random() < 0.5:
        lo = rng.randrange(pick(rng, diff, 1, 20, 100), pick(rng, diff, 30, 200, 900))
        hi = lo + pick(rng, diff, 20, 40, 80)
        primes = [p for p in range(lo, hi + 1) if _is_prime(p)]
        sieve = [True] * (hi + 1)
        sieve[0] = sieve[1] = False
        for i in range(2, math.isqrt(hi) + 1):
            if sieve[i]:
                sieve[i * i :: i] = [False] * len(sieve[i * i :: i])
        assert primes == [p for p in range(lo, hi + 1) if sieve[p]]
        return S.add_number(category=cat, difficulty=diff, question=f"How many prime numbers are there between {lo} and {hi}, inclusive?",
                            value=len(primes), meta={"why": f"primes: {primes}"})
    n = rng.randrange(pick(rng, diff, 10, 100, 100), pick(rng, diff, 100, 2000, 2000))
    value = next(p for p in itertools.count(n + 1) if _is_prime(p))
    return S.add_number(category=cat, difficulty=diff, question=f"What is the smallest prime number greater than {n}?",
                        value=value, meta={"why": f"{value} is prime and every integer from {n + 1} to {value - 1} is composite"})


def nt_base(S, rng, diff, cat):
    base = pick(rng, diff, 2, rng.choice([3, 5, 8]), rng.choice([6, 7, 9, 16]))
    n = rng.randrange(pick(rng, diff, 9, 30, 200), pick(rng, diff, 64, 400, 5000))
    digits, m = [], n
    while m:
        digits.append("0123456789ABCDEF"[m % base])
        m //= base
    text = "".join(reversed(digits))
    assert int(text, base) == n
    if rng.random() < 0.5:
        q = f"Write the decimal number {n} in base {base}. Reply with the digits only{' (use capital letters A to F for digits above 9)' if base == 16 else ''}."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=text, scorer="exact", meta={"why": f"{n} = {text} in base {base}"})
    return S.add_number(category=cat, difficulty=diff, question=f"The number {text} is written in base {base}. What is its value in base 10?",
                        value=n, meta={"why": f"{text} in base {base} = {n}"})


# --- combinatorics ---------------------------------------------------------------------


def co_choose(S, rng, diff, cat):
    n = rng.randrange(pick(rng, diff, 5, 8, 12), pick(rng, diff, 9, 14, 20))
    k = rng.randrange(2, min(n - 1, pick(rng, diff, 4, 6, 8)))
    value = math.comb(n, k)
    if n <= 14:
        assert value == sum(1 for _ in itertools.combinations(range(n), k))
    who = K.names(rng, 1)[0]
    noun, purpose = rng.choice([("books", "to take on a trip"), ("songs", "for a playlist where order does not matter"),
                                ("pizza toppings", "for one pizza"), ("seed packets", "to plant this spring"),
                                ("board games", "to bring to a party"), ("postcards", "to send to a friend")])
    q = f"{who} has {n} different {noun} and wants to pick {k} of them {purpose}. How many different selections are possible?"
    if diff == "hard":
        value = math.comb(n - 1, k - 1)
        if n <= 16:
            assert value == sum(1 for c in itertools.combinations(range(n), k) if 0 in c)
        q = f"{who} has {n} different {noun}, one of which is a favourite, and picks {k} of them {purpose}. How many of the possible selections include the favourite?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"binomial count = {value}"})


def co_word(S, rng, diff, cat):
    length = pick(rng, diff, 5, 6, 8)
    letters = rng.sample("BCDFGKLMNPRSTVZ", 2) + rng.sample("AEIOU", 2)
    while True:
        word = "".join(rng.choice(letters) for _ in range(length))
        counts = sorted(word.count(ch) for ch in set(word))
        if counts[-1] >= 2 and len(set(word)) >= 3:
            break
    value = math.factorial(length)
    for ch in set(word):
        value //= math.factorial(word.count(ch))
    assert value == len(set(itertools.permutations(word)))
    q = f"How many distinct arrangements (strings, not necessarily words) can be made from all the letters of {word}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value,
                        meta={"why": f"{length}! divided by the factorials of the letter counts = {value}"})


def co_seating(S, rng, diff, cat):
    n = pick(rng, diff, 4, 5, 6)
    people = K.names(rng, n)
    a, b = people[0], people[1]
    kind = pick(rng, diff, "together", rng.choice(["together", "apart"]), rng.choice(["apart", "ends"]))
    perms = list(itertools.permutations(people))
    if kind == "together":
        value = sum(1 for p in perms if abs(p.index(a) - p.index(b)) == 1)
        cond = f"{a} and {b} must sit next to each other"
        assert value == 2 * math.factorial(n - 1)
    elif kind == "apart":
        value = sum(1 for p in perms if abs(p.index(a) - p.index(b)) != 1)
        cond = f"{a} and {b} refuse to sit next to each other"
        assert value == math.factorial(n) - 2 * math.factorial(n - 1)
    else:
        value = sum(1 for p in perms if {p[0], p[-1]} == {a, b})
        cond = f"{a} and {b} must take the two end seats"
        assert value == 2 * math.factorial(n - 2)
    q = f"{', '.join(people[:-1])} and {people[-1]} sit in a row of {n} chairs. If {cond}, in how many orders can they sit?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"counted over all {len(perms)} orders"})


def co_paths(S, rng, diff, cat):
    w, h = rng.randrange(2, pick(rng, diff, 5, 6, 7)), rng.randrange(2, pick(rng, diff, 5, 6, 7))

    def count(blocked=None, via=None):
        ways = [[0] * (h + 1) for _ in range(w + 1)]
        for x in range(w + 1):
            for y in range(h + 1):
                if (x, y) == blocked:
                    continue
                ways[x][y] = 1 if (x, y) == (0, 0) else (ways[x - 1][y] if x else 0) + (ways[x][y - 1] if y else 0)
        return ways[w][h]

    if diff == "easy":
        value = count()
        assert value == math.comb(w + h, w)
        q = f"On a grid, a token moves from (0, 0) to ({w}, {h}) using only steps of one unit right (+1 in x) or up (+1 in y). How many different paths are there?"
    else:
        px, py = rng.randrange(1, w), rng.randrange(1, h)
        if diff == "medium":
            value = math.comb(px + py, px) * math.comb(w - px + h - py, w - px)
            q = f"A token moves from (0, 0) to ({w}, {h}) using only unit steps right (+1 in x) or up (+1 in y). How many of its paths pass through ({px}, {py})?"
        else:
            value = count(blocked=(px, py))
            assert value == math.comb(w + h, w) - math.comb(px + py, px) * math.comb(w - px + h - py, w - px)
            q = f"A token moves from (0, 0) to ({w}, {h}) using only unit steps right (+1 in x) or up (+1 in y), and the point ({px}, {py}) is blocked. How many paths avoid it?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"lattice-path count = {value}"})


def co_digits(S, rng, diff, cat):
    if diff == "easy":
        k = rng.randrange(3, 10)
        nums = [n for n in range(10, 100) if n % k == 0]
        q = f"How many two-digit numbers are divisible by {k}?"
        assert len(nums) == 99 // k - 9 // k
    elif diff == "medium":
        s = rng.randrange(5, 20)
        nums = [n for n in range(100, 1000) if sum(map(int, str(n))) == s]
        q = f"How many three-digit numbers have digits that add up to {s}?"
    else:
        d, k = rng.randrange(1, 10), rng.randrange(3, 8)
        nums = [n for n in range(100, 1000) if str(d) in str(n) and n % k == 0]
        q = f"How many three-digit numbers are divisible by {k} and contain the digit {d} at least once?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=len(nums), meta={"why": f"enumerated: {len(nums)} numbers"})


# --- probability -----------------------------------------------------------------------


def pr_dice(S, rng, diff, cat):
    ndice = pick(rng, diff, 2, 2, 3)
    outcomes = list(itertools.product(range(1, 7), repeat=ndice))
    if diff == "easy":
        s = rng.randrange(3, 12)
        hit = [o for o in outcomes if sum(o) == s]
        cond = f"the sum is exactly {s}"
    elif diff == "medium":
        s = rng.randrange(5, 12)
        kind = rng.choice(["at least", "at most"])
        hit = [o for o in outcomes if (sum(o) >= s if kind == "at least" else sum(o) <= s)]
        cond = f"the sum is {kind} {s}"
    else:
        s = rng.randrange(7, 15)
        hit = [o for o in outcomes if sum(o) == s]
        cond = f"the sum is exactly {s}"
    value = F(len(hit), len(outcomes))
    word = {2: "two", 3: "three"}[ndice]
    return S.add_number(category=cat, difficulty=diff, question=f"{word.capitalize()} fair six-sided dice are rolled. What is the probability that {cond}?",
                        value=value, meta={"why": f"{len(hit)} of {len(outcomes)} equally likely outcomes"})


def pr_urn(S, rng, diff, cat):
    r, b = rng.randrange(2, pick(rng, diff, 6, 8, 9)), rng.randrange(2, pick(rng, diff, 6, 8, 9))
    g = pick(rng, diff, 0, 0, rng.randrange(1, 5))
    balls = ["red"] * r + ["blue"] * b + ["green"] * g
    pairs = list(itertools.combinations(range(len(balls)), 2))
    if diff == "easy":
        hit = [p for p in pairs if all(balls[i] == "red" for i in p)]
        cond, value = "both are red", F(r, r + b) * F(r - 1, r + b - 1)
    elif diff == "medium":
        hit = [p for p in pairs if {balls[i] for i in p} == {"red", "blue"}]
        cond, value = "one is red and the other is blue", F(2 * r * b, (r + b) * (r + b - 1))
    else:
        hit = [p for p in pairs if balls[p[0]] == balls[p[1]]]
        n = r + b + g
        cond, value = "both are the same colour", F(r * (r - 1) + b * (b - 1) + g * (g - 1), n * (n - 1))
    assert F(len(hit), len(pairs)) == value
    contents = f"{r} red and {b} blue" if not g else f"{r} red, {b} blue and {g} green"
    q = f"Two marbles are drawn at random, without replacement, from a bag holding {contents} marbles. What is the probability that {cond}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"{len(hit)} of {len(pairs)} equally likely pairs"})


def pr_coins(S, rng, diff, cat):
    n = pick(rng, diff, rng.randrange(2, 5), rng.randrange(4, 7), rng.randrange(6, 11))
    k = rng.randrange(1, n)
    kind = pick(rng, diff, "exactly", rng.choice(["exactly", "at least"]), rng.choice(["at least", "at most"]))
    seqs = list(itertools.product("HT", repeat=n))
    test = {"exactly": lambda h: h == k, "at least": lambda h: h >= k, "at most": lambda h: h <= k}[kind]
    hits = sum(1 for s in seqs if test(s.count("H")))
    value = F(hits, 2**n)
    assert value == F(sum(math.comb(n, h) for h in range(n + 1) if test(h)), 2**n)
    return S.add_number(category=cat, difficulty=diff, question=f"A fair coin is tossed {n} times. What is the probability of getting {kind} {k} heads?",
                        value=value, meta={"why": f"{hits} of {2 ** n} sequences"})


def pr_expectation(S, rng, diff, cat):
    if diff == "easy":
        faces = sorted(rng.sample(range(1, 13), 4))
        value = F(sum(faces), 4)
        q = f"A fair four-sided spinner shows the numbers {', '.join(map(str, faces[:-1]))} and {faces[-1]}. What is the expected value of one spin?"
        why = f"mean of the faces = {value}"
    elif diff == "medium":
        pay = {f: rng.randrange(-3, 8) for f in range(1, 7)}
        value = F(sum(pay.values()), 6)
        listing = "; ".join(f"a {f} pays {v} dollars" if v >= 0 else f"a {f} costs {-v} dollars" for f, v in pay.items())
        q = f"In a game you roll a fair six-sided die once: {listing}. What is the expected payout in dollars (a cost counts as negative)?"
        why = f"sum of payouts / 6 = {value}"
    else:
        n, sides, kind = rng.randrange(2, 4), rng.choice([4, 6, 8]), rng.choice(["largest", "smallest"])
        outcomes = list(itertools.product(range(1, sides + 1), repeat=n))
        pick_fn = max if kind == "largest" else min
        value = F(sum(pick_fn(o) for o in outcomes), len(outcomes))
        q = f"{n} fair {sides}-sided dice (faces 1 to {sides}) are rolled and the {kind} value shown is recorded. What is its expected value?"
        if kind == "largest":  # independent: P(max = m) = (m^n - (m-1)^n) / sides^n
            assert value == F(sum(m * (m**n - (m - 1) ** n) for m in range(1, sides + 1)), sides**n)
        else:  # E[min] = sum over m of P(min >= m)
            assert value == sum(F((sides - m + 1) ** n, sides**n) for m in range(1, sides + 1))
        why = f"sum of the {kind} value over all {len(outcomes)} outcomes / {len(outcomes)}"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": why})


def pr_divisible(S, rng, diff, cat):
    n = rng.randrange(pick(rng, diff, 20, 50, 100), pick(rng, diff, 50, 150, 500))
    a = rng.randrange(2, 8)
    if diff == "easy":
        hits = [x for x in range(1, n + 1) if x % a == 0]
        cond = f"divisible by {a}"
        assert len(hits) == n // a
    else:
        b = rng.choice([x for x in range(2, 12) if x != a])
        conj = pick(rng, diff, None, "or", rng.choice(["or", "but not by"]))
        if conj == "or":
            hits = [x for x in range(1, n + 1) if x % a == 0 or x % b == 0]
            cond = f"divisible by {a} or by {b} (or both)"
            assert len(hits) == n // a + n // b - n // math.lcm(a, b)
        else:
            hits = [x for x in range(1, n + 1) if x % a == 0 and x % b]
            cond = f"divisible by {a} but not by {b}"
            assert len(hits) == n // a - n // math.lcm(a, b)
    value = F(len(hits), n)
    return S.add_number(category=cat, difficulty=diff, question=f"An integer is chosen uniformly at random from 1 to {n} inclusive. What is the probability that it is {cond}?",
                        value=value, meta={"why": f"{len(hits)} of {n} integers"})


# --- geometry --------------------------------------------------------------------------

TRIPLES = [(3, 4, 5), (5, 12, 13), (8, 15, 17), (7, 24, 25), (20, 21, 29), (9, 40, 41), (12, 35, 37), (11, 60, 61)]


def ge_right_triangle(S, rng, diff, cat):
    a, b, c = rng.choice(TRIPLES[: pick(rng, diff, 2, 5, 8)])
    k = rng.randrange(1, pick(rng, diff, 4, 6, 9))
    a, b, c = a * k, b * k, c * k
    assert a * a + b * b == c * c
    if diff == "easy" or rng.random() < 0.4:
        q, value = f"A right triangle has legs of length {a} and {b}. How long is its hypotenuse?", c
    elif diff == "medium":
        q, value = f"A right triangle has a hypotenuse of length {c} and one leg of length {a}. How long is the other leg?", b
    else:
        q, value = f"A right triangle has a hypotenuse of length {c} and one leg of length {b}. What is its area?", F(a * b, 2)
    assert math.isqrt(c * c - a * a) == b
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"sides {a}, {b}, {c}: {a}² + {b}² = {c}²"})


def ge_rectangle(S, rng, diff, cat):
    w, h = rng.randrange(2, 40), rng.randrange(2, 40)
    if diff == "easy":
        q, value = f"A rectangle is {w} cm wide and {h} cm tall. What is its area in square centimetres?", w * h
    elif diff == "medium":
        q, value = f"A rectangle has an area of {w * h} square metres and one side of {w} metres. What is its perimeter in metres?", 2 * (w + h)
    else:
        d = rng.randrange(1, min(w, h))
        q = f"A rectangular lawn is {w} m by {h} m. A path {d} m wide is laid around the outside of the lawn. What is the area of the path in square metres?"
        value = (w + 2 * d) * (h + 2 * d) - w * h
        assert value == 2 * d * (w + h) + 4 * d * d
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"computed = {value}"})


def ge_circle(S, rng, diff, cat):
    pi = rng.choice([F(314, 100), F(22, 7)])
    pi_txt = "3.14" if pi == F(314, 100) else "22/7"
    r = rng.randrange(1, 30)
    if diff == "easy":
        q, value = f"Using π = {pi_txt}, what is the circumference of a circle of radius {r}?", 2 * pi * r
    elif diff == "medium":
        q, value = f"Using π = {pi_txt}, what is the area of a circle of diameter {2 * r}?", pi * r * r
    else:
        h = rng.randrange(2, 20)
        q, value = f"Using π = {pi_txt}, what is the volume of a cylinder with radius {r} and height {h}?", pi * r * r * h
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"π = {pi_txt}, computed = {value}"})


def ge_polygon_angles(S, rng, diff, cat):
    divisors = [n for n in range(3, 37) if 360 % n == 0]
    n = rng.choice(divisors if diff != "hard" else list(range(5, 25)))
    if diff == "easy":
        q, value = f"What is the sum of the interior angles of a convex polygon with {n} sides, in degrees?", 180 * (n - 2)
    elif diff == "medium":
        q, value = f"What is the size of each interior angle of a regular polygon with {n} sides, in degrees?", F(180 * (n - 2), n)
    else:
        q, value = f"How many diagonals does a convex polygon with {n} sides have?", n * (n - 3) // 2
        assert value == sum(1 for i, j in itertools.combinations(range(n), 2) if (j - i) % n not in (1, n - 1))
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"n = {n}: {value}"})


def ge_coordinates(S, rng, diff, cat):
    if diff == "easy":
        (dx, dy, d) = rng.choice(TRIPLES[:4])
        x, y = rng.randrange(-9, 10), rng.randrange(-9, 10)
        sx, sy = rng.choice([1, -1]), rng.choice([1, -1])
        p, qpt = (x, y), (x + sx * dx, y + sy * dy)
        assert math.isqrt((qpt[0] - p[0]) ** 2 + (qpt[1] - p[1]) ** 2) == d
        return S.add_number(category=cat, difficulty=diff, question=f"What is the distance between the points {p} and {qpt}?", value=d,
                            meta={"why": f"√({dx}² + {dy}²) = {d}"})
    k = pick(rng, diff, 3, 3, 4)
    while True:
        pts = [(rng.randrange(-8, 9), rng.randrange(-8, 9)) for _ in range(k)]
        area2 = sum(pts[i][0] * pts[(i + 1) % k][1] - pts[(i + 1) % k][0] * pts[i][1] for i in range(k))
        if area2 == 0:
            continue
        if k == 4:  # a simple quadrilateral: no two edges cross
            def cross(p1, p2, p3, p4):
                d = lambda a, b, c: (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])  # noqa: E731
                return d(p1, p2, p3) * d(p1, p2, p4) < 0 and d(p3, p4, p1) * d(p3, p4, p2) < 0
            if cross(pts[0], pts[1], pts[2], pts[3]) or cross(pts[1], pts[2], pts[3], pts[0]):
                continue
            if any(((pts[(i + 1) % k][0] - pts[i][0]) * (pts[(i + 2) % k][1] - pts[i][1]) - (pts[(i + 1) % k][1] - pts[i][1]) * (pts[(i + 2) % k][0] - pts[i][0])) == 0 for i in range(k)):
                continue
        break
    value = F(abs(area2), 2)
    # independent: count unit squares' area by exact triangle fan from vertex 0
    fan = sum(F(abs((pts[i][0] - pts[0][0]) * (pts[i + 1][1] - pts[0][1]) - (pts[i + 1][0] - pts[0][0]) * (pts[i][1] - pts[0][1])), 2) for i in range(1, k - 1))
    if k == 3:
        assert fan == value
    shape = "triangle" if k == 3 else "quadrilateral"
    listing = ", ".join(str(p) for p in pts)
    q = f"What is the area of the {shape} with vertices {listing}{' (taken in that order around the boundary)' if k == 4 else ''}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"shoelace formula: |{area2}| / 2 = {value}"})


CATEGORIES = {
    "arithmetic": [ar_multiply, ar_expression, ar_percent, ar_fractions, ar_shopping],
    "algebra": [al_linear, al_system, al_quadratic, al_function, al_sequence],
    "number_theory": [nt_gcd, nt_modpow, nt_divisors, nt_primes, nt_base],
    "combinatorics": [co_choose, co_word, co_seating, co_paths, co_digits],
    "probability": [pr_dice, pr_urn, pr_coins, pr_expectation, pr_divisible],
    "geometry": [ge_right_triangle, ge_rectangle, ge_circle, ge_polygon_angles, ge_coordinates],
}


def make_rows() -> K.EvalSet:
    S = K.EvalSet(DATASET_ID, "math")
    K.fill(S, random.Random(SEED), CATEGORIES, PER_CELL)
    return S


def generate(out: Path) -> None:
    S = make_rows()
    S.write(
        out,
        description=(
            "Math, one or two steps: arithmetic, algebra, number theory, combinatorics, "
            "probability and geometry, easy/medium/hard. Answers are computed exactly "
            "(integers, fractions) and re-derived independently (substitution, enumeration, "
            "brute force); meta.why shows the derivation, meta.exact the exact fraction"
        ),
        generator=__file__,
        seed=SEED,
        default_scorer="numeric",
    )


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
