# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-math-v2: multi-step math, the second-wave replacement for eval-math-v1.

Six categories (arithmetic, algebra, number theory, combinatorics, probability, geometry)
x easy/medium/hard x 14 rows. Every item needs several dependent steps (chained
percentages, combined rates, three-equation systems, Vieta identities, the Chinese
remainder theorem, Legendre's formula, bounded compositions, Bayes' rule, Pick's theorem,
...). Answers are exact (integers and fractions.Fraction) and each is proven twice: once
by the closed-form route a solver would take, once by an independent brute force
(enumeration, simulation over a finite population, substitution, lattice counting).
Non-integer answers with no finite decimal carry meta.exact "p/q" and meta.tolerance 1e-6.
Like every -v2 eval the rows mix scorers: mostly numeric, about a fifth mc (the answer among
its nearest exact neighbours) and some exact (the reduced fraction a/b).

    python datasets/_gen/gen_eval_math_v2.py [--out DIR]
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

DATASET_ID = "eval-math-v2"
SEED = 5_200_002
PER_CELL = 14

F = Fraction
WORDS = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine"}


def pick(diff: str, easy, medium, hard):
    return {"easy": easy, "medium": medium, "hard": hard}[diff]


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


def dec(q: Fraction) -> str:
    return K.decimal_string(q)


# --- arithmetic ------------------------------------------------------------------------


def ar_chain_percent(S, rng, diff, cat):
    base = rng.randrange(10, 200) * 4
    steps = [(rng.choice(["rises", "falls"]), rng.choice([5, 10, 12, 15, 20, 25, 30, 40])) for _ in range(pick(diff, 2, 3, 3))]
    value = F(base)
    for kind, p in steps:
        value *= 1 + F(p if kind == "rises" else -p, 100)
    # independent: the product of all factors applied at once, in cents
    factor = math.prod(F(100 + (p if k == "rises" else -p), 100) for k, p in steps)
    assert base * factor == value
    item = rng.choice(["a season ticket", "a used car", "a share of stock", "a rental deposit", "a crate of tools"])
    text = ", then ".join(f"{k} by {p}%" for k, p in steps)
    if diff == "hard":
        q = f"The price of {item} {text}, ending at {dec(value)} dollars. What was the starting price in dollars?"
        return S.add_number(category=cat, difficulty=diff, question=q, value=base,
                            meta={"why": f"start = end / product of factors = {dec(value)} / {factor} = {base}"})
    q = f"The price of {item} starts at {base} dollars and {text}. What is the final price in dollars?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"{base} × {factor} = {value}"})


def ar_rates(S, rng, diff, cat):
    a, b = rng.sample(range(2, 13), 2)
    if diff == "easy":
        rate = F(1, a) + F(1, b)
        q = f"One pump fills a tank in {a} hours and a second pump fills it in {b} hours. Working together from empty, how many hours do they take?"
    else:
        c = rng.randrange(max(a, b) + 2, 30)
        rate = F(1, a) + F(1, b) - F(1, c)
        q = f"Pump P fills a tank in {a} hours, pump Q fills it in {b} hours, and a leak drains a full tank in {c} hours. With both pumps running and the leak open, how many hours does it take to fill the empty tank?"
        if diff == "hard":
            q = q.replace("how many hours", "how many minutes")
    hours = 1 / rate
    value = hours * 60 if "minutes" in q else hours
    # independent: the closed form a·b / (a + b) or a·b·c / (b·c + a·c − a·b)
    closed = F(a * b, a + b) if diff == "easy" else F(a * b * c, b * c + a * c - a * b)
    assert closed == hours and hours > 0
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"combined rate {rate} tank/hour; time {hours} h"})


def ar_fuel(S, rng, diff, cat):
    per100 = F(rng.randrange(45, 95), 10)
    price = F(rng.randrange(120, 220), 100)
    d = rng.randrange(3, 40) * 10
    trips = pick(diff, 1, 2, rng.randrange(3, 6))
    litres = per100 * d * trips / 100
    value = litres * price
    who = K.names(rng, 1)[0]
    if diff == "easy":
        q = f"A car uses {dec(per100)} litres of fuel per 100 km. Fuel costs {dec(price)} dollars per litre. What does the fuel for a {d} km drive cost, in dollars?"
    else:
        q = f"{who} drives {d} km to a client and back again, {trips} times this month, in a car using {dec(per100)} litres per 100 km with fuel at {dec(price)} dollars per litre. What is the fuel cost for the month in dollars?"
        litres = per100 * 2 * d * trips / 100
        value = litres * price
    if diff == "hard":
        share = rng.randrange(2, 5)
        value = value / share
        q = q.replace("What is the fuel cost for the month in dollars?", f"The month's fuel cost is shared equally by {share} people. How many dollars does each pay?")
    assert value * (share if diff == "hard" else 1) == F(per100 * (1 if diff == "easy" else 2) * d * trips * price, 100)
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"{dec(litres) if K.is_terminating(litres) else litres} litres × {dec(price)}; result {value}"})


def ar_mixture(S, rng, diff, cat):
    a, b = rng.randrange(2, 20), rng.randrange(2, 20)
    p, q_ = rng.sample([5, 10, 12, 15, 20, 25, 30, 40, 50, 60], 2)
    if diff == "hard":
        target = rng.choice([t for t in range(2, min(p, 60)) if t < p])
        water = F(a * p, target) - a
        q = f"A jug holds {a} litres of a {p}% salt solution. How many litres of pure water must be added to bring the concentration down to {target}%?"
        assert (a * F(p, 100)) / (a + water) == F(target, 100)
        return S.add_number(category=cat, difficulty=diff, question=q, value=water, meta={"why": f"salt {a * p / 100} L stays; {a} + w = {a * p}/{target}; w = {water}"})
    conc = F(a * p + b * q_, a + b)
    if diff == "easy":
        q = f"{a} litres of a {p}% juice drink are mixed with {b} litres of a {q_}% juice drink. What is the juice percentage of the mixture?"
    else:
        c = rng.randrange(2, 10)
        conc = F(a * p + b * q_, a + b + c)
        q = f"{a} litres of a {p}% juice drink and {b} litres of a {q_}% juice drink are poured together, and then {c} litres of water are added. What is the juice percentage of the result?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=conc, meta={"why": f"juice volume / total volume × 100 = {conc}"})


def ar_average(S, rng, diff, cat):
    n = rng.randrange(4, 12)
    scores = [rng.randrange(50, 100) for _ in range(n)]
    mean = F(sum(scores), n)
    if not K.is_terminating(mean) or (diff == "medium" and mean.denominator != 1):
        raise K.Redraw("keep the stated mean a plain decimal")
    who = K.names(rng, 1)[0]
    if diff == "easy":
        new = rng.randrange(40, 101)
        value = F(sum(scores) + new, n + 1)
        q = f"The mean of {n} test scores is {dec(mean) if K.is_terminating(mean) else f'{mean.numerator}/{mean.denominator}'}. A further score of {new} is added. What is the new mean?"
    elif diff == "medium":
        target = mean + rng.randrange(1, 4)
        value = target * (n + 1) - sum(scores)
        q = f"After {n} quizzes {who}'s mean score is {dec(mean) if K.is_terminating(mean) else f'{mean.numerator}/{mean.denominator}'}. What score on the next quiz would raise the mean of all {n + 1} quizzes to exactly {dec(target) if K.is_terminating(target) else f'{target.numerator}/{target.denominator}'}?"
    else:
        drop = max(scores)
        value = F(sum(scores) - drop, n - 1)
        mean_txt = dec(mean) if K.is_terminating(mean) else f"{mean.numerator}/{mean.denominator}"
        q = f"The mean of {n} measurements is {mean_txt} and the largest of them is {drop}. What is the mean of the remaining {n - 1} measurements once the largest is removed?"
        assert value == F(sum(sorted(scores)[:-1]), n - 1)
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"totals: sum {sum(scores)} of {n}; result {value}", "data": scores})


# --- algebra ---------------------------------------------------------------------------


def det3(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def al_system3(S, rng, diff, cat):
    sol = [rng.randrange(-6, 7) for _ in range(3)]
    lim = pick(diff, 3, 5, 8)
    while True:
        m = [[rng.randrange(-lim, lim + 1) for _ in range(3)] for _ in range(3)]
        if det3(m) != 0 and all(any(row) for row in m):
            break
    rhs = [sum(c * v for c, v in zip(row, sol)) for row in m]
    # independent: Cramer's rule with exact fractions
    d = det3(m)
    for j in range(3):
        mj = [[rhs[i] if k == j else m[i][k] for k in range(3)] for i in range(3)]
        assert F(det3(mj), d) == sol[j]
    x, y, z = sol
    ask, value = pick(diff, ("x + y + z", x + y + z), ("x − 2y + 3z", x - 2 * y + 3 * z), ("x·y·z (the product)", x * y * z))
    eqs = "; ".join(f"{lin((r[0], 'x'), (r[1], 'y'), (r[2], 'z'))} = {c}" for r, c in zip(m, rhs))
    return S.add_number(category=cat, difficulty=diff, question=f"Solve the system {eqs}. What is {ask}?", value=value,
                        meta={"why": f"unique solution (determinant {d}): x = {x}, y = {y}, z = {z}"})


def al_ages(S, rng, diff, cat):
    a_name, b_name = K.names(rng, 2)
    while True:
        b_age = rng.randrange(4, 40)
        a_age = b_age + rng.randrange(5, 40)
        pasts = [(t, (a_age - t) // (b_age - t)) for t in range(1, b_age) if (a_age - t) % (b_age - t) == 0 and 2 <= (a_age - t) // (b_age - t) <= 6]
        futures = [(t, (a_age + t) // (b_age + t)) for t in range(1, 31) if (a_age + t) % (b_age + t) == 0 and 2 <= (a_age + t) // (b_age + t) <= 6]
        if pasts and futures:
            past, j = rng.choice(pasts)
            years, k = rng.choice(futures)
            if k != j:
                break
    stmts = [f"In {years} years {a_name} will be {'twice' if k == 2 else f'{k} times'} as old as {b_name}",
             f"{past} years ago {a_name} was {'twice' if j == 2 else f'{j} times'} as old as {b_name} was then"]
    sols = [(x, y) for x in range(0, 121) for y in range(0, 121) if x + years == k * (y + years) and x - past == j * (y - past) and y - past >= 0]
    assert sols == [(a_age, b_age)], sols
    ask, value = pick(diff, (f"{b_name}'s age now", b_age), (f"{a_name}'s age now", a_age), (f"the sum of their ages now", a_age + b_age))
    q = f"{stmts[0]}. {stmts[1]}. What is {ask}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"{a_name} {a_age}, {b_name} {b_age} (unique in 0..120 by brute force)"})


def al_vertex(S, rng, diff, cat):
    a = rng.choice([1, 2, 3, 4, -1, -2]) if diff != "easy" else rng.choice([1, 2, 3])
    b, c = rng.randrange(-12, 13), rng.randrange(-20, 21)
    f = lambda x: a * x * x + b * x + c  # noqa: E731
    xv = F(-b, 2 * a)
    ext = f(xv)
    word = "minimum" if a > 0 else "maximum"
    text = lin((a, "x²"), (b, "x"), (c, ""))
    if diff == "easy" or diff == "medium":
        grid = [f(F(i, 2 * abs(a) * 10)) for i in range(-2000, 2001)]
        assert (min(grid) if a > 0 else max(grid)) == ext
        q = f"What is the {word} value of f(x) = {text} over all real x?"
        return S.add_number(category=cat, difficulty=diff, question=q, value=ext, meta={"why": f"vertex at x = {xv}, f = {ext}"})
    # hard: sum of integers where f is negative (a > 0) or positive (a < 0)
    sign = "negative" if a > 0 else "positive"
    xs = [x for x in range(-200, 201) if (f(x) < 0 if a > 0 else f(x) > 0)]
    if not xs:
        raise K.Redraw("empty set; redraw")
    disc = b * b - 4 * a * c
    r1, r2 = sorted([(-b - math.sqrt(disc)) / (2 * a), (-b + math.sqrt(disc)) / (2 * a)])
    assert xs == [x for x in range(math.floor(r1) - 1, math.ceil(r2) + 2) if r1 < x < r2 and f(x) != 0]
    q = f"Let f(x) = {text}. What is the sum of all integers x for which f(x) is {sign}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=sum(xs), meta={"why": f"integers {xs}"})


def al_geometric(S, rng, diff, cat):
    a, r = rng.choice([1, 2, 3, 5, -2, -3, 4, 6]), rng.choice([2, 3, -2, F(1, 2), F(-1, 3), 4])
    terms = [a * r**i for i in range(12)]
    show = lambda v: dec(v) if K.is_terminating(v) else f"{v.numerator}/{v.denominator}"  # noqa: E731
    if diff == "easy":
        n = rng.randrange(5, 9)
        q = f"A geometric sequence starts {show(terms[0])}, {show(terms[1])}, {show(terms[2])}, … What is its {K.ordinal(n)} term?"
        value = terms[n - 1]
    elif diff == "medium":
        m, n = rng.sample(range(2, 7), 2)
        k = rng.randrange(7, 11)
        q = f"In a geometric sequence the {K.ordinal(m)} term is {show(terms[m - 1])} and the {K.ordinal(n)} term is {show(terms[n - 1])}. The ratio is {'positive' if r > 0 else 'negative'}. What is the {K.ordinal(k)} term?"
        value = terms[k - 1]
        # independent: every (first term, ratio) with small numerator/denominator fitting both terms
        cands = {x * F(p, qd) ** (k - 1)
                 for p in range(-8, 9) for qd in range(1, 5) if p
                 for x in [terms[m - 1] / F(p, qd) ** (m - 1)]
                 if x * F(p, qd) ** (n - 1) == terms[n - 1] and (F(p, qd) > 0) == (r > 0)}
        assert cands == {value}, cands
    else:
        n = rng.randrange(5, 11)
        q = f"What is the sum of the first {n} terms of the geometric sequence {show(terms[0])}, {show(terms[1])}, {show(terms[2])}, …?"
        value = sum(terms[:n])
        assert value == a * (1 - r**n) / (1 - r)
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"first term {a}, ratio {r}"})


def al_vieta(S, rng, diff, cat):
    while True:
        p, q_ = rng.randrange(-9, 10), rng.randrange(-12, 13)
        if q_ != 0 and p * p - 4 * q_ > 0 and math.isqrt(p * p - 4 * q_) ** 2 != p * p - 4 * q_:
            break
    ask, value = pick(diff, ("r² + s²", p * p - 2 * q_), ("1/r + 1/s", F(p, q_)), rng.choice([("r³ + s³", p**3 - 3 * p * q_), ("r/s + s/r", F(p * p - 2 * q_, q_))]))
    disc = math.sqrt(p * p - 4 * q_)
    r, s = (p + disc) / 2, (p - disc) / 2
    numeric = {"r² + s²": r * r + s * s, "1/r + 1/s": 1 / r + 1 / s, "r³ + s³": r**3 + s**3, "r/s + s/r": r / s + s / r}[ask]
    assert abs(numeric - float(value)) < 1e-6 * max(1, abs(numeric))
    eq = f"{lin((1, 'x²'), (-p, 'x'), (q_, ''))} = 0"
    return S.add_number(category=cat, difficulty=diff, question=f"Let r and s be the two roots of {eq}. What is {ask}?", value=value,
                        meta={"why": f"r + s = {p}, rs = {q_} (Vieta); checked against the irrational roots numerically"})


# --- number theory ---------------------------------------------------------------------


def nt_crt(S, rng, diff, cat):
    mods = pick(diff, rng.sample([3, 4, 5, 7], 2), rng.sample([3, 4, 5, 7, 11], 3), rng.sample([5, 7, 9, 11, 13, 8], 3))
    while math.lcm(*mods) != math.prod(mods):
        mods = rng.sample([3, 4, 5, 7, 9, 11, 13, 8], len(mods))
    res = [rng.randrange(m) for m in mods]
    M = math.prod(mods)
    x = 0
    for m, r in zip(mods, res):  # CRT construction
        Mi = M // m
        x += r * Mi * pow(Mi, -1, m)
    x %= M
    if x == 0:
        x = M
    brute = next(n for n in range(1, M + 1) if all(n % m == r for m, r in zip(mods, res)))
    assert brute == x
    conds = "; ".join(f"leaves remainder {r} when divided by {m}" for m, r in zip(mods, res))
    thing = rng.choice(["number of beads in a jar", "number of chairs in a hall", "number of tiles in a box", "number of coins in a chest"])
    q = f"The {thing} is a positive integer that {conds}. What is the smallest possible value?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=x, meta={"why": f"Chinese remainder theorem modulo {M}; brute force agrees"})


def nt_trailing(S, rng, diff, cat):
    n = rng.randrange(pick(diff, 20, 60, 100), pick(diff, 60, 300, 400))
    base = pick(diff, 10, 10, rng.choice([12, 6, 15, 18]))

    def legendre(n, p):
        e, pk = 0, p
        while pk <= n:
            e += n // pk
            pk *= p
        return e

    fac = {}
    b, p = base, 2
    while b > 1:
        while b % p == 0:
            fac[p] = fac.get(p, 0) + 1
            b //= p
        p += 1
    value = min(legendre(n, p) // e for p, e in fac.items())
    f, zeros = math.factorial(n), 0
    while f % base == 0:
        f //= base
        zeros += 1
    assert zeros == value
    where = "in its decimal representation" if base == 10 else f"when written in base {base}"
    q = f"How many trailing zeros does {n}! (the factorial of {n}) have {where}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"Legendre's formula over the prime factors of {base}; direct division agrees"})


def nt_totient(S, rng, diff, cat):
    n = rng.randrange(pick(diff, 20, 100, 1000), pick(diff, 100, 1000, 5000))
    brute = sum(1 for k in range(1, n + 1) if math.gcd(k, n) == 1)
    phi, m, p = n, n, 2
    while p * p <= m:
        if m % p == 0:
            while m % p == 0:
                m //= p
            phi -= phi // p
        p += 1
    if m > 1:
        phi -= phi // m
    assert phi == brute
    if diff == "hard":
        k = rng.choice([d for d in range(2, 8) if math.gcd(d, n) == 1] or [1])
        if k == 1:
            raise K.Redraw("no coprime divisor; redraw")
        value = sum(1 for j in range(1, n + 1) if math.gcd(j, n) == 1 and j % k == 0)
        q = f"How many integers from 1 to {n} are both relatively prime to {n} and divisible by {k}?"
        return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"enumerated; φ({n}) = {phi} overall"})
    q = f"How many integers from 1 to {n} inclusive share no common factor greater than 1 with {n}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=phi, meta={"why": f"Euler's totient φ({n}) = {phi}; brute force agrees"})


def nt_last_digits(S, rng, diff, cat):
    a, e = rng.randrange(2, 40), rng.randrange(pick(diff, 20, 100, 1000), pick(diff, 100, 1000, 100000))
    digits = pick(diff, 1, 2, 3)
    mod = 10**digits
    value = pow(a, e, mod)
    r, base, ee = 1, a % mod, e  # independent: square-and-multiply written out
    while ee:
        if ee & 1:
            r = r * base % mod
        base = base * base % mod
        ee >>= 1
    assert r == value
    what = {1: "last digit", 2: "last two digits (as a number from 0 to 99)", 3: "last three digits (as a number from 0 to 999)"}[digits]
    return S.add_number(category=cat, difficulty=diff, question=f"What are the {what} of {a}^{e}?".replace("What are the last digit", "What is the last digit"),
                        value=value, meta={"why": f"{a}^{e} mod {mod} = {value}"})


def nt_congruence(S, rng, diff, cat):
    m = rng.choice([p for p in range(pick(diff, 7, 11, 29), pick(diff, 30, 60, 200)) if all(p % d for d in range(2, p))])
    a, b = rng.randrange(2, m), rng.randrange(1, m)
    x = b * pow(a, -1, m) % m
    brute = [t for t in range(m) if a * t % m == b]
    assert brute == [x]
    if diff == "hard":
        k = rng.randrange(1, 4)
        value = x + k * m
        q = f"Find the {K.ordinal(k + 1)} smallest non-negative integer x with {a}x ≡ {b} (mod {m})."
        assert [t for t in range(value + 1) if a * t % m == b][k] == value
    else:
        value = x
        q = f"Find the smallest non-negative integer x with {a}x ≡ {b} (mod {m})."
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"x ≡ {b} × {a}⁻¹ ≡ {x} (mod {m})"})


def nt_digits(S, rng, diff, cat):
    a, e = rng.randrange(2, 13), rng.randrange(pick(diff, 10, 30, 100), pick(diff, 30, 100, 400))
    n = a**e
    if diff == "hard" or rng.random() < 0.5:
        value = sum(map(int, str(n)))
        q = f"What is the sum of the decimal digits of {a}^{e}?"
        assert value % 9 == n % 9
    else:
        value = len(str(n))
        q = f"How many digits does {a}^{e} have when written in decimal?"
        assert value == math.floor(e * math.log10(a)) + 1
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"computed from the exact integer {a}^{e}"})


# --- combinatorics ---------------------------------------------------------------------


def co_compositions(S, rng, diff, cat):
    k = pick(diff, 3, 3, 4)
    n = rng.randrange(pick(diff, 6, 8, 10), pick(diff, 12, 16, 20))
    lo = pick(diff, 0, 1, rng.randrange(0, 2))
    hi = pick(diff, n, rng.randrange(4, n), rng.randrange(3, 7))
    value = sum(1 for t in itertools.product(range(lo, hi + 1), repeat=k) if sum(t) == n)
    # independent: inclusion-exclusion over variables exceeding hi
    m, width = n - k * lo, hi - lo + 1
    ie = sum((-1) ** j * math.comb(k, j) * math.comb(m - j * width + k - 1, k - 1) for j in range(k + 1) if m - j * width >= 0)
    assert ie == value
    vars_ = ", ".join(f"x{i + 1}" for i in range(k))
    bound = f"each between {lo} and {hi} inclusive" if hi < n else (f"each at least {lo}" if lo else "each non-negative")
    q = f"How many ordered {k}-tuples of integers ({vars_}) satisfy {' + '.join(f'x{i + 1}' for i in range(k))} = {n} with {bound}?"
    if value == 0:
        raise K.Redraw("empty; redraw")
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"enumerated; inclusion–exclusion agrees ({value})"})


def co_committee(S, rng, diff, cat):
    w, m = rng.randrange(3, 8), rng.randrange(3, 8)
    k = rng.randrange(3, min(6, w + m - 1))
    people = [("w", i) for i in range(w)] + [("m", i) for i in range(m)]
    at_least = rng.randrange(1, min(k, w) + 1)
    groups = [c for c in itertools.combinations(people, k) if sum(1 for p in c if p[0] == "w") >= at_least]
    value = len(groups)
    assert value == sum(math.comb(w, j) * math.comb(m, k - j) for j in range(at_least, k + 1))
    club = rng.choice(["a chess club", "a rowing club", "a choir", "a robotics team", "a book circle"])
    q = f"{club.capitalize()} has {w} members who play the cello and {m} who do not. A committee of {k} must include at least {at_least} cellist{'s' if at_least > 1 else ''}. How many committees are possible?"
    if diff == "hard":
        value = value * k
        q = q.replace("How many committees are possible?", "One committee member is then named chair. How many (committee, chair) choices are possible?")
    elif diff == "easy":
        value = math.comb(w + m, k) - math.comb(m, k)
        q = f"{club.capitalize()} has {w} cellists and {m} other members. How many committees of {k} include at least one cellist?"
        assert value == sum(1 for c in itertools.combinations(people, k) if any(p[0] == "w" for p in c))
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": "enumerated over all committees; sum of products of binomials agrees"})


def co_no_adjacent(S, rng, diff, cat):
    length = pick(diff, 5, 6, 8)
    letters = rng.sample("BDGKLMNPRSTV", 2) + rng.sample("AEIOU", 1)
    while True:
        word = "".join(rng.choice(letters) for _ in range(length))
        if max(word.count(c) for c in set(word)) >= 2 and len(set(word)) >= 2:
            break
    arrangements = {p for p in itertools.permutations(word)}
    good = [p for p in arrangements if all(p[i] != p[i + 1] for i in range(len(p) - 1))]
    value = len(good)
    if value == 0:
        raise K.Redraw("no arrangement; redraw")
    q = f"How many distinct rearrangements of the letters of {word} (using every letter once) have no two identical letters next to each other?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"{len(arrangements)} distinct arrangements enumerated, {value} with no equal neighbours"})


def co_derangement(S, rng, diff, cat):
    n = rng.randrange(pick(diff, 3, 5, 6), pick(diff, 5, 7, 8))
    k = pick(diff, 0, 0, rng.randrange(1, 3))
    perms = itertools.permutations(range(n))
    value = sum(1 for p in perms if sum(1 for i in range(n) if p[i] == i) == k)
    d = [1, 0]
    for i in range(2, n + 1):
        d.append((i - 1) * (d[-1] + d[-2]))
    assert value == math.comb(n, k) * d[n - k]
    one, many, box, boxes = rng.choice([("letter", "letters", "envelope", "envelopes"), ("coat", "coats", "hook", "hooks"),
                                        ("key", "keys", "lock", "locks"), ("hat", "hats", "guest", "guests")])
    if k == 0:
        cond = f"is no {one} matched with its own {box}"
    elif k == 1:
        cond = f"is exactly one {one} matched with its own {box}"
    else:
        cond = f"are exactly {k} {many} matched with their own {boxes}"
    q = f"{WORDS[n]} {many} each belong to one of {n} {boxes}, and they are matched up at random, one {one} per {box}. In how many of the possible matchings {cond}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"C({n},{k}) × D({n - k}) = {value}; enumeration agrees"})


def co_surjection(S, rng, diff, cat):
    n, k = pick(diff, (rng.randrange(3, 5), 2), (rng.randrange(4, 7), 3), (rng.randrange(5, 8), rng.randrange(3, 5)))
    value = sum(1 for f in itertools.product(range(k), repeat=n) if len(set(f)) == k)
    assert value == sum((-1) ** j * math.comb(k, j) * (k - j) ** n for j in range(k + 1))
    objs, boxes = rng.choice([("different books", "different shelves"), ("distinct jobs", "distinct machines"), ("different parcels", "different couriers")])
    q = f"In how many ways can {n} {objs} be assigned to {k} {boxes} so that every one of the {k} gets at least one?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"surjections counted by enumeration; inclusion–exclusion agrees"})


# --- probability -----------------------------------------------------------------------


def pr_bayes(S, rng, diff, cat):
    prev = F(1, rng.choice([10, 20, 25, 50, 100, 200]))
    sens = F(rng.randrange(80, 100), 100)
    fpr = F(rng.randrange(1, 15), 100)
    posterior = prev * sens / (prev * sens + (1 - prev) * fpr)
    # independent: an exact population of N people
    N = 1
    for f in (prev, sens, fpr):
        N = math.lcm(N, f.denominator)
    N *= 100
    sick = N * prev
    tp, fp = sick * sens, (N - sick) * fpr
    assert F(tp, tp + fp) == posterior
    sc, unit = rng.choice([("a rare blight in an orchard's trees", "tree"), ("a defect in a batch of circuit boards", "board"),
                           ("a fungus in stored grain sacks", "sack"), ("a fault in a fleet of water meters", "meter")])
    q = (f"A screening test looks for {sc}. {prev.numerator}/{prev.denominator} of the {unit}s are affected. The test flags {dec(sens * 100)}% of affected {unit}s "
         f"and also flags {dec(fpr * 100)}% of unaffected ones. A {unit} is flagged. What is the probability that it is actually affected?")
    if diff == "hard":
        q2 = q.replace("A " + unit + " is flagged. What is the probability that it is actually affected?",
                       f"A {unit} is flagged, and is then retested with an independent second run of the same test, which flags it again. What is the probability that it is actually affected?")
        post2 = prev * sens * sens / (prev * sens * sens + (1 - prev) * fpr * fpr)
        assert F(tp * sens, tp * sens + fp * fpr) == post2
        return S.add_number(category=cat, difficulty=diff, question=q2, value=post2, meta={"why": f"Bayes twice: {post2}; exact population count agrees"})
    if diff == "easy":
        value = prev * sens + (1 - prev) * fpr
        q = q.replace(f"A {unit} is flagged. What is the probability that it is actually affected?", f"What fraction of all {unit}s get flagged?")
        return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"total probability: {value}"})
    return S.add_number(category=cat, difficulty=diff, question=q, value=posterior, meta={"why": f"Bayes: {posterior}; exact population of {N} agrees"})


def colour_orders(counts: dict[str, int]):
    """Every distinct colour sequence of a multiset, each equally likely when the draw
    order is uniformly random (each corresponds to the same number of permutations)."""
    n = sum(counts.values())
    seqs = [[None] * n]
    for colour, c in counts.items():
        nxt = []
        for seq in seqs:
            free = [i for i, v in enumerate(seq) if v is None]
            for pos in itertools.combinations(free, c):
                new = list(seq)
                for i in pos:
                    new[i] = colour
                nxt.append(new)
        seqs = nxt
    return seqs


def pr_first_success(S, rng, diff, cat):
    r, b = rng.randrange(1, 4), rng.randrange(2, 6)
    k = rng.randrange(2, b + 2)
    if diff == "hard":
        g = rng.randrange(1, 3)
        orders = colour_orders({"R": r, "B": b, "G": g})
        hits = sum(1 for o in orders if next(c for c in o if c != "B") == "R")
        value = F(hits, len(orders))
        assert value == F(r, r + g)
        q = f"A box holds {r} red, {b} blue and {g} green counters. Counters are drawn one at a time without replacement. What is the probability that a red counter appears before any green counter?"
    else:
        orders = colour_orders({"R": r, "B": b})
        hits = sum(1 for o in orders if o.index("R") == k - 1)
        value = F(hits, len(orders))
        q = f"A box holds {r} red and {b} blue counters. Counters are drawn one at a time without replacement. What is the probability that the first red counter appears on draw number {k}?"
        expect = math.prod(F(b - i, r + b - i) for i in range(k - 1)) * F(r, r + b - (k - 1))
        assert value == expect
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"enumerated {len(orders)} equally likely colour orders"})


def pr_dice_condition(S, rng, diff, cat):
    n = pick(diff, 2, 2, 3)
    outs = list(itertools.product(range(1, 7), repeat=n))
    kind = rng.randrange(3)
    if kind == 0:
        t = rng.randrange(6, 6 * n - 1)
        given = [o for o in outs if 6 in o]
        hit = [o for o in given if sum(o) >= t]
        q = f"{WORDS[n]} fair dice are rolled and you are told that at least one of them shows a 6. What is the probability that the total is at least {t}?"
    elif kind == 1:
        hit = given = None
        primes = {2, 3, 5, 7, 11, 13, 17}
        hit = [o for o in outs if sum(o) in primes]
        given = outs
        q = f"{WORDS[n]} fair six-sided dice are rolled. What is the probability that their total is a prime number?"
    else:
        given = [o for o in outs if len(set(o)) == n]
        t = rng.randrange(3 * n, 5 * n)
        hit = [o for o in given if sum(o) > t]
        q = f"{WORDS[n]} fair dice are rolled and all of them show different numbers. Given that, what is the probability that the total exceeds {t}?"
    value = F(len(hit), len(given))
    if value == 0:
        raise K.Redraw("zero; redraw")
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"{len(hit)} of {len(given)} equally likely outcomes in the conditioning set"})


def pr_binomial(S, rng, diff, cat):
    p = rng.choice([F(1, 3), F(1, 4), F(2, 5), F(3, 4), F(1, 5), F(2, 3)])
    n = rng.randrange(pick(diff, 3, 4, 6), pick(diff, 5, 7, 9))
    k = rng.randrange(1, n)
    kind = pick(diff, "exactly", "at least", rng.choice(["at least", "at most"]))
    test = {"exactly": lambda h: h == k, "at least": lambda h: h >= k, "at most": lambda h: h <= k}[kind]
    brute = sum(math.prod(p if s else 1 - p for s in seq) for seq in itertools.product((0, 1), repeat=n) if test(sum(seq)))
    value = sum(math.comb(n, h) * p**h * (1 - p) ** (n - h) for h in range(n + 1) if test(h))
    assert brute == value
    who = K.names(rng, 1)[0]
    q = f"{who} makes each free throw independently with probability {p.numerator}/{p.denominator}. Over {n} attempts, what is the probability of {kind} {k} successful throw{'s' if k != 1 else ''}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"binomial sum; enumeration of 2^{n} sequences agrees"})


def pr_cards(S, rng, diff, cat):
    n = rng.randrange(pick(diff, 5, 6, 8), pick(diff, 8, 10, 12))
    cards = list(range(1, n + 1))
    draw = pick(diff, 2, 2, 3)
    combos = list(itertools.combinations(cards, draw))
    if diff == "easy":
        value = F(sum(max(c) for c in combos), len(combos))
        q = f"Two cards are drawn without replacement from {n} cards numbered 1 to {n}. What is the expected value of the larger number drawn?"
        assert value == F(2 * (n + 1), 3)
    elif diff == "medium":
        t = rng.randrange(2, n - 1)
        value = F(sum(1 for c in combos if abs(c[0] - c[1]) >= t), len(combos))
        q = f"Two cards are drawn without replacement from {n} cards numbered 1 to {n}. What is the probability that the two numbers differ by at least {t}?"
        assert value == F((n - t) * (n - t + 1), n * (n - 1))
    else:
        value = F(sum(sorted(c)[1] for c in combos), len(combos))
        q = f"Three cards are drawn without replacement from {n} cards numbered 1 to {n}. What is the expected value of the middle number of the three?"
        assert value == F(n + 1, 2)
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"enumerated {len(combos)} equally likely draws"})


# --- geometry --------------------------------------------------------------------------


def heronian(limit: int):
    out = []
    for a in range(3, limit):
        for b in range(a, limit):
            for c in range(b, min(a + b, limit)):
                s16 = (a + b + c) * (-a + b + c) * (a - b + c) * (a + b - c)
                r = math.isqrt(s16)
                if r * r == s16 and r % 4 == 0 and a * a + b * b != c * c:
                    out.append((a, b, c, r // 4))
    return out


HERON = heronian(40)


def ge_heron(S, rng, diff, cat):
    a, b, c, area = rng.choice(HERON[: pick(diff, 15, 60, len(HERON))])
    if diff == "hard":
        h = F(2 * area, c)
        q = f"A triangle has sides {a}, {b} and {c}. What is the length of the altitude to the side of length {c}?"
        value = h
    elif diff == "medium":
        s = F(a + b + c, 2)
        value = F(area, s)
        q = f"A triangle has sides {a}, {b} and {c}. What is the radius of its inscribed circle?"
    else:
        value = area
        q = f"A triangle has sides of length {a}, {b} and {c}. What is its area?"
    # independent: place the triangle on coordinates and use the shoelace formula
    x = F(a * a + c * c - b * b, 2 * c)  # vertex above side c, distance a from one end
    y2 = a * a - x * x
    assert y2 * c * c * 4 == 16 * area * area  # height² = (2·area / c)²
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"Heron: area {area}"})


def _poly(rng, k, span):
    while True:
        pts = [(rng.randrange(0, span), rng.randrange(0, span)) for _ in range(k)]
        cx = sum(p[0] for p in pts) / k
        cy = sum(p[1] for p in pts) / k
        pts.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
        area2 = sum(pts[i][0] * pts[(i + 1) % k][1] - pts[(i + 1) % k][0] * pts[i][1] for i in range(k))
        convex = all(((pts[(i + 1) % k][0] - pts[i][0]) * (pts[(i + 2) % k][1] - pts[i][1]) - (pts[(i + 1) % k][1] - pts[i][1]) * (pts[(i + 2) % k][0] - pts[i][0])) > 0 for i in range(k))
        if area2 > 0 and convex and len(set(pts)) == k:
            return pts, F(area2, 2)


def ge_pick(S, rng, diff, cat):
    k = pick(diff, 3, 4, 5)
    pts, area = _poly(rng, k, pick(diff, 8, 11, 14))
    boundary = sum(math.gcd(abs(pts[(i + 1) % k][0] - pts[i][0]), abs(pts[(i + 1) % k][1] - pts[i][1])) for i in range(k))
    interior = area - F(boundary, 2) + 1

    def inside(x, y):
        return all((pts[(i + 1) % k][0] - pts[i][0]) * (y - pts[i][1]) - (pts[(i + 1) % k][1] - pts[i][1]) * (x - pts[i][0]) > 0 for i in range(k))

    brute = sum(1 for x in range(0, 15) for y in range(0, 15) if inside(x, y))
    assert brute == interior
    shape = {3: "triangle", 4: "convex quadrilateral", 5: "convex pentagon"}[k]
    q = f"How many points with integer coordinates lie strictly inside the {shape} with vertices {K.join_and(pts)}?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=int(interior), meta={"why": f"Pick: A = {area}, B = {boundary}, I = A − B/2 + 1 = {interior}; brute count agrees"})


def ge_lattice_segment(S, rng, diff, cat):
    p = (rng.randrange(-20, 21), rng.randrange(-20, 21))
    d = rng.randrange(2, pick(diff, 8, 20, 40))
    q_ = (p[0] + d * rng.randrange(-6, 7), p[1] + d * rng.randrange(1, 7))
    value = math.gcd(abs(q_[0] - p[0]), abs(q_[1] - p[1])) + 1
    steps = abs(q_[1] - p[1])
    brute = sum(1 for t in range(steps + 1) if ((q_[0] - p[0]) * t) % steps == 0)
    assert brute == value
    if diff == "hard":
        value -= 2
        q = f"How many points with integer coordinates lie on the segment from {p} to {q_}, not counting the two endpoints?"
    else:
        q = f"How many points with integer coordinates lie on the segment from {p} to {q_}, endpoints included?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": "gcd of the coordinate differences + 1; brute force agrees"})


def ge_solids(S, rng, diff, cat):
    pi_txt, pi = rng.choice([("3.14", F(314, 100)), ("22/7", F(22, 7))])
    r, h = rng.randrange(1, 10), rng.randrange(2, 20)
    if diff == "easy":
        value = F(1, 3) * pi * r * r * h
        q = f"Using π = {pi_txt}, what is the volume of a cone with base radius {r} cm and height {h} cm, in cubic centimetres?"
    elif diff == "medium":
        value = pi * r * r * h + F(2, 3) * pi * r**3
        q = f"A grain silo is a cylinder of radius {r} m and height {h} m topped by a hemisphere of the same radius. Using π = {pi_txt}, what is its total volume in cubic metres?"
    else:
        side = 2 * r + rng.randrange(2, 8)
        value = side**3 - pi * r * r * side
        q = f"A cube of side {side} cm has a cylindrical hole of radius {r} cm drilled straight through it, from the centre of one face to the centre of the opposite face. Using π = {pi_txt}, what volume of material remains, in cubic centimetres?"
        assert side > 2 * r
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"π = {pi_txt}; exact {value}"})


def ge_lines(S, rng, diff, cat):
    def line():
        while True:
            a, b = rng.randrange(-5, 6), rng.randrange(-5, 6)
            if a and b:
                return a, b

    if diff != "hard":
        while True:
            (a1, b1), (a2, b2) = line(), line()
            x, y = rng.randrange(-8, 9), rng.randrange(-8, 9)
            if a1 * b2 - a2 * b1:
                break
        c1, c2 = a1 * x + b1 * y, a2 * x + b2 * y
        ask, value = pick(diff, (f"x + y", x + y), (f"x·y (the product of the coordinates)", x * y), None)
        q = f"The lines {lin((a1, 'x'), (b1, 'y'))} = {c1} and {lin((a2, 'x'), (b2, 'y'))} = {c2} meet at the point (x, y). What is {ask}?"
        return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"intersection ({x}, {y})"})
    while True:
        pts = [(rng.randrange(-8, 9), rng.randrange(-8, 9)) for _ in range(3)]
        area2 = (pts[1][0] - pts[0][0]) * (pts[2][1] - pts[0][1]) - (pts[2][0] - pts[0][0]) * (pts[1][1] - pts[0][1])
        if area2 and all(pts[i][0] != pts[(i + 1) % 3][0] and pts[i][1] != pts[(i + 1) % 3][1] for i in range(3)):
            break
    eqs = []
    for i in range(3):
        (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % 3]
        a, b = y2 - y1, x1 - x2
        g = math.gcd(a, b)
        a, b = a // g, b // g
        eqs.append(f"{lin((a, 'x'), (b, 'y'))} = {a * x1 + b * y1}")
    value = F(abs(area2), 2)
    # independent: re-solve each pair of lines for its intersection with Cramer's rule
    coefs = []
    for i in range(3):
        (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % 3]
        coefs.append((y2 - y1, x1 - x2, (y2 - y1) * x1 + (x1 - x2) * y1))
    verts = []
    for i, j in ((0, 1), (1, 2), (2, 0)):
        a1, b1, c1 = coefs[i]
        a2, b2, c2 = coefs[j]
        det = a1 * b2 - a2 * b1
        verts.append((F(c1 * b2 - c2 * b1, det), F(a1 * c2 - a2 * c1, det)))
    assert sorted(verts) == sorted(map(lambda p: (F(p[0]), F(p[1])), pts))
    q = f"The three lines {eqs[0]}, {eqs[1]} and {eqs[2]} enclose a triangle. What is its area?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"vertices {pts}; area {value}"})


CATEGORIES = {
    "arithmetic": [ar_chain_percent, ar_rates, ar_fuel, ar_mixture, ar_average],
    "algebra": [al_system3, al_ages, al_vertex, al_geometric, al_vieta],
    "number_theory": [nt_crt, nt_trailing, nt_totient, nt_last_digits, nt_congruence, nt_digits],
    "combinatorics": [co_compositions, co_committee, co_no_adjacent, co_derangement, co_surjection],
    "probability": [pr_bayes, pr_first_success, pr_dice_condition, pr_binomial, pr_cards],
    "geometry": [ge_heron, ge_pick, ge_lattice_segment, ge_solids, ge_lines],
}


class MixedSet(K.EvalSet):
    """The -v2 evals mix scorers per row: about one row in five becomes mc (the answer among
    its nearest exact neighbours, so the options cannot be told apart without solving), and
    about a third of the non-integer answers ask for the reduced fraction, scored exact."""

    def __init__(self, *args, seed: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.form_rng = random.Random(seed)

    def add_number(self, *, category, difficulty, question, value, meta, form=None):
        value = F(value)
        r = self.form_rng.random()
        if r < 0.2:
            if value.denominator == 1:
                near = [value + d for d in (1, -1, 2, -2, 10, -10)]
            elif K.is_terminating(value):
                unit = F(1, 10 ** len(K.decimal_string(abs(value)).split(".")[1]))
                near = [value + unit, value - unit, value + 10 * unit, value - 10 * unit, value * 2, value / 2]
            else:
                p, q = value.numerator, value.denominator
                near = [F(p + 1, q), F(p - 1, q), F(p, q + 1), F(p, q - 1), value * 2, value / 2]
            near = [v for v in near if v != value and (v >= 0 or value < 0)]
            self.form_rng.shuffle(near)
            options = [K.show_number(v) for v in near]
            return self.add_mc(self.form_rng, category=category, difficulty=difficulty, stem=question, correct=K.show_number(value),
                               distractors=options, meta={**meta, "exact": f"{value.numerator}/{value.denominator}"})
        if not K.is_terminating(value) and r < 0.6:
            return self.add(category=category, difficulty=difficulty, prompt=f"{question} Reply with the reduced fraction a/b only.",
                            answer=f"{value.numerator}/{value.denominator}", scorer="exact", meta={**meta, "exact": f"{value.numerator}/{value.denominator}"})
        return super().add_number(category=category, difficulty=difficulty, question=question, value=value, meta=meta, form=form)


def make_rows() -> K.EvalSet:
    S = MixedSet(DATASET_ID, "math2", seed=SEED + 1)
    K.fill(S, random.Random(SEED), CATEGORIES, PER_CELL)
    return S


def generate(out: Path) -> None:
    S = make_rows()
    S.write(
        out,
        description=(
            "Multi-step math (second wave, supersedes eval-math-v1): arithmetic, algebra, number "
            "theory, combinatorics, probability and geometry, easy/medium/hard, every item needing "
            "several dependent steps; rows mix numeric, exact (reduced fractions) and mc. Answers are "
            "exact (integers, fractions) and each is proven twice, by the closed form and by an "
            "independent brute force; meta.why shows the route"
        ),
        generator=__file__,
        seed=SEED,
        default_scorer="numeric",
        date=K.SECOND_WAVE_DATE,
    )


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
