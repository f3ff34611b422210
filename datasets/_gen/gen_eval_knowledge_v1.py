# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-knowledge-v1: stable, verifiable facts, 252 rows.

Only facts the generator can verify without a typed answer key (the datasets
specification's rule): tables the standard library carries (unicodedata, http.HTTPStatus,
hashlib digest sizes, struct's standard sizes, sys.float_info, urllib.parse, ipaddress),
definitions fixed by standards (the exact unit definitions of the international yard and
pound, the Celsius/Fahrenheit scales, binary prefixes), and derivable facts (weekdays and
leap years of the proleptic Gregorian calendar via datetime, Roman numerals, base
conversions, digits of pi from math.pi). Nothing depends on the current date.

Six categories x easy/medium/hard x 14 rows, scored `exact` or `mc`. The few definitions
typed here are stated in meta.definition with the standard that fixes them; every answer
is computed from the library or the definition, never typed.

    python datasets/_gen/gen_eval_knowledge_v1.py [--out DIR]
"""

from __future__ import annotations

import base64
import calendar
import datetime as dt
import hashlib
import http
import ipaddress
import math
import random
import struct
import sys
import unicodedata
import urllib.parse
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _evalkit as K  # noqa: E402
import _lib  # noqa: E402

DATASET_ID = "eval-knowledge-v1"
SEED = 7_300_001
PER_CELL = 14
F = Fraction

# HTTP codes whose reason phrase is the same in RFC 7231 and RFC 9110 (413, 414, 416 and
# 422 were renamed by RFC 9110 and are left out so no item can go stale).
HTTP_CODES = [200, 201, 202, 204, 206, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 405, 406, 408, 409, 410, 411,
              412, 415, 417, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505, 511]
COMMON_HTTP = [200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 405, 409, 429, 500, 502, 503, 504]
HASHES = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_512"]
HASH_NAMES = {"md5": "MD5", "sha1": "SHA-1", "sha224": "SHA-224", "sha256": "SHA-256", "sha384": "SHA-384",
              "sha512": "SHA-512", "sha3_256": "SHA3-256", "sha3_512": "SHA3-512"}
WEEKDAYS = list(calendar.day_name)
MONTHS = list(calendar.month_name)[1:]


def ask(S, rng, cat, diff, question, correct, distractors, meta, exact_ok=True, form=None):
    """An exact row (question + form sentence) or an mc row, about half each. A question
    is asked once per dataset, in one form."""
    S.claim(question)
    if exact_ok and rng.random() < 0.5:
        return S.add(category=cat, difficulty=diff, prompt=f"{question} {form or 'Reply with the answer only.'}", answer=correct, scorer="exact", meta=meta)
    d = [x for x in distractors if x != correct]
    rng.shuffle(d)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=question, correct=correct, distractors=d, meta=meta)


# --- characters -----------------------------------------------------------------------

LATIN1 = [chr(c) for c in range(0xC0, 0x100) if c not in (0xD7, 0xF7)]
SYMBOL_BLOCKS = [range(0x2190, 0x21A0), range(0x2200, 0x2262), range(0x25A0, 0x25D0)]


def ch_ascii(S, rng, diff, cat):
    if diff == "easy":
        c = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        kind = "capital letter" if c.isupper() else ("lowercase letter" if c.islower() else "digit")
        q = f"What is the decimal ASCII code of the {kind} {c}?"
        return ask(S, rng, cat, diff, q, str(ord(c)), [str(ord(c) + d) for d in (1, -1, 32, -32, 2)],
                   {"why": f"ord({c!r}) = {ord(c)}"}, form="Reply with the number only.")
    if diff == "medium":
        c = rng.choice("!#$%&*+-/:;<=>?@[]^_{|}~")
        q = f"Which character has the ASCII code {ord(c)} (decimal)?"
        near = [chr(ord(c) + d) for d in (1, -1, 2, -2, 3) if 33 <= ord(c) + d < 127]
        return ask(S, rng, cat, diff, q, c, [x for x in near if x.isprintable() and not x.isalnum()], {"why": f"chr({ord(c)}) = {c!r}"}, exact_ok=False)
    c = rng.choice(LATIN1)
    q = f"What is the Unicode code point of the character {c} ({unicodedata.name(c).lower()})?"
    cp = f"U+{ord(c):04X}"
    wrong = [f"U+{ord(c) + d:04X}" for d in (1, -1, 32, -32, 0x100)] + [f"U+{ord(c) - 0x40:04X}"]
    return ask(S, rng, cat, diff, q, cp, wrong, {"why": f"unicodedata: {unicodedata.name(c)} is {cp}"}, form="Reply in the form U+XXXX.")


def ch_utf8(S, rng, diff, cat):
    pools = {"easy": "aZ7?" + "".join(LATIN1[:8]), "medium": "".join(LATIN1) + "€→∑", "hard": "€→∑≈√∞■" + "".join(LATIN1[10:20]) + "😀🎉"}
    c = rng.choice(pools[diff])
    n = len(c.encode("utf-8"))
    name = unicodedata.name(c)
    q = f"How many bytes does UTF-8 use to encode the character {c} ({name.lower()})?"
    return ask(S, rng, cat, diff, q, str(n), ["1", "2", "3", "4"], {"why": f"{c!r}.encode('utf-8') has {n} bytes"}, form="Reply with the number only.")


def ch_names(S, rng, diff, cat):
    block = rng.choice(SYMBOL_BLOCKS[:2] if diff != "hard" else SYMBOL_BLOCKS)
    pool = [chr(c) for c in block if unicodedata.category(chr(c)) != "Cn"]
    c = rng.choice(pool)
    others = [unicodedata.name(x) for x in rng.sample(pool, 8) if x != c]
    if diff == "easy":
        c = rng.choice("→←↑↓∑∞√≈≠≤≥∈∅∫")
        others = [unicodedata.name(x) for x in "→←↑↓∑∞√≈≠≤≥∈∅∫" if x != c]
    q = f"What is the official Unicode character name of {c} (U+{ord(c):04X})?"
    return ask(S, rng, cat, diff, q, unicodedata.name(c), others, {"why": f"unicodedata.name(U+{ord(c):04X})"}, exact_ok=False)


# --- calendar -----------------------------------------------------------------------


def rand_date(rng, lo, hi):
    start, end = dt.date(lo, 1, 1).toordinal(), dt.date(hi, 12, 31).toordinal()
    return dt.date.fromordinal(rng.randrange(start, end + 1))


def fmt_date(d: dt.date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def ca_leap(S, rng, diff, cat):
    y = rng.choice({"easy": list(range(1996, 2041)), "medium": [1700, 1800, 1900, 2000, 2100, 2200, 2300, 2400] + list(range(1890, 1911)),
                    "hard": [1600, 1700, 1800, 1900, 2000, 2100, 2200, 2300, 2400, 2500, 1904, 2096]}[diff])
    leap = calendar.isleap(y)
    assert leap == ((y % 4 == 0 and y % 100 != 0) or y % 400 == 0)
    assert leap == ((dt.date(y, 3, 1) - dt.date(y, 2, 1)).days == 29)
    if rng.random() < 0.5:
        q = f"In the Gregorian calendar, how many days does February {y} have?"
        return ask(S, rng, cat, diff, q, str(29 if leap else 28), ["28", "29", "30"], {"why": f"calendar.isleap({y}) is {leap}"}, form="Reply with the number only.")
    q = f"Is {y} a leap year in the Gregorian calendar?"
    return ask(S, rng, cat, diff, q, "yes" if leap else "no", ["yes", "no"], {"why": f"divisible by 4, and by 400 if by 100: {leap}"}, form="Reply with yes or no.")


def ca_weekday(S, rng, diff, cat):
    lo, hi = {"easy": (2000, 2030), "medium": (1900, 2099), "hard": (1600, 2400)}[diff]
    d = rand_date(rng, lo, hi)
    day = WEEKDAYS[d.weekday()]
    # independent: Zeller's congruence
    y, m = (d.year - 1, d.month + 12) if d.month < 3 else (d.year, d.month)
    h = (d.day + (13 * (m + 1)) // 5 + y % 100 + (y % 100) // 4 + (y // 100) // 4 + 5 * (y // 100)) % 7
    assert ["Saturday", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday"][h] == day
    q = f"On which day of the week does {fmt_date(d)} fall in the (proleptic) Gregorian calendar?"
    return ask(S, rng, cat, diff, q, day, WEEKDAYS, {"why": f"datetime.date({d.year}, {d.month}, {d.day}).weekday(); Zeller's congruence agrees"},
               form="Reply with the day name only.")


def ca_span(S, rng, diff, cat):
    if diff == "easy":
        y, m = rng.randrange(1950, 2100), rng.randrange(1, 13)
        n = calendar.monthrange(y, m)[1]
        q = f"How many days are there in {MONTHS[m - 1]} {y}?"
        return ask(S, rng, cat, diff, q, str(n), ["28", "29", "30", "31"], {"why": f"calendar.monthrange({y}, {m})"}, form="Reply with the number only.")
    a = rand_date(rng, 1950, 2080)
    b = a + dt.timedelta(days=rng.randrange(20, 400 if diff == "medium" else 4000))
    n = (b - a).days
    assert n == b.toordinal() - a.toordinal()
    q = f"How many days are there from {fmt_date(a)} to {fmt_date(b)}, counting the end date but not the start date?"
    return ask(S, rng, cat, diff, q, str(n), [str(n + d) for d in (1, -1, 2, 30, -30)], {"why": f"date difference = {n} days"}, form="Reply with the number only.")


# --- units --------------------------------------------------------------------------------

UNIT_DEFS = {
    "inch_cm": (F(254, 100), "1 inch = 2.54 cm exactly (international yard and pound agreement, 1959)"),
    "foot_inch": (F(12), "1 foot = 12 inches"),
    "yard_foot": (F(3), "1 yard = 3 feet"),
    "mile_yard": (F(1760), "1 mile = 1760 yards"),
    "pound_kg": (F(45359237, 10**8), "1 pound = 0.45359237 kg exactly (international yard and pound agreement, 1959)"),
    "pound_ounce": (F(16), "1 pound = 16 ounces (avoirdupois)"),
    "nmi_m": (F(1852), "1 international nautical mile = 1852 m exactly"),
    "kib": (F(1024), "1 KiB = 1024 bytes (IEC 80000-13 binary prefix)"),
    "kb": (F(1000), "1 kB = 1000 bytes (SI prefix)"),
}


def un_length(S, rng, diff, cat):
    if diff == "easy":
        kind = rng.choice(["in_cm", "ft_in", "yd_ft", "h_s"])
        n = rng.randrange(2, 40)
        if kind == "in_cm":
            v, q, why = n * UNIT_DEFS["inch_cm"][0], f"How many centimetres are there in {n} inches?", UNIT_DEFS["inch_cm"][1]
        elif kind == "ft_in":
            v, q, why = n * 12, f"How many inches are there in {n} feet?", UNIT_DEFS["foot_inch"][1]
        elif kind == "yd_ft":
            v, q, why = n * 3, f"How many feet are there in {n} yards?", UNIT_DEFS["yard_foot"][1]
        else:
            v, q, why = n * 3600, f"How many seconds are there in {n} hours?", "1 hour = 3600 s"
        wrong = [K.decimal_string(F(v) * f) for f in (F(11, 10), F(9, 10), F(2), F(1, 2))]
        return ask(S, rng, cat, diff, q, K.decimal_string(F(v)), wrong, {"definition": why}, form="Reply with the exact number only.")
    if diff == "medium":
        n = rng.randrange(1, 30)
        if rng.random() < 0.5:
            v = n * 1760 * 3 * 12 * UNIT_DEFS["inch_cm"][0] / 100
            q = f"How many metres are there in {n} mile{'s' if n > 1 else ''} (international mile)?"
            why = "1 mile = 1760 yd = 5280 ft = 63360 in; 1 in = 2.54 cm"
            assert v == n * F(1609344, 1000)
        else:
            v = n * UNIT_DEFS["pound_kg"][0]
            q = f"What is the exact mass in kilograms of {n} pound{'s' if n > 1 else ''} (avoirdupois)?"
            why = UNIT_DEFS["pound_kg"][1]
        wrong = [K.decimal_string(v * f) for f in (F(101, 100), F(99, 100), F(11, 10))] + [K.decimal_string(F(round(v)))]
        return ask(S, rng, cat, diff, q, K.decimal_string(v), wrong, {"definition": why}, exact_ok=False)
    kind = rng.choice(["nmi", "kib", "acre"])
    n = rng.randrange(2, 60)
    if kind == "nmi":
        v, q, why = n * 1852, f"How many metres are there in {n} international nautical miles?", UNIT_DEFS["nmi_m"][1]
    elif kind == "kib":
        unit = rng.choice(["KiB", "MiB"])
        v = n * (1024 if unit == "KiB" else 1024**2)
        q, why = f"How many bytes are there in {n} {unit}?", "IEC binary prefixes: KiB = 2^10 bytes, MiB = 2^20 bytes"
    else:
        v = n * 43560
        q, why = f"How many square feet are there in {n} acres (international acre)?", "1 acre = 43560 square feet"
    wrong = [str(int(v * f)) for f in (F(1000, 1024), F(1024, 1000), F(11, 10), F(9, 10))]
    return ask(S, rng, cat, diff, q, str(v), wrong, {"definition": why}, form="Reply with the number only.")


def un_temperature(S, rng, diff, cat):
    if diff == "easy":
        c = rng.randrange(-40, 101, 5)
        v = F(9, 5) * c + 32
        q = f"What is {c} °C in degrees Fahrenheit?"
    elif diff == "medium":
        f = rng.randrange(-40, 213)
        while (f - 32) % 9:
            f += 1
        v = F(5, 9) * (f - 32)
        q = f"What is {f} °F in degrees Celsius?"
    else:
        c = F(rng.randrange(-2000, 3000), 10)
        v = c + F(27315, 100)
        q = f"What is {K.decimal_string(c)} °C in kelvins?"
    ans = K.decimal_string(v)
    wrong = [K.decimal_string(v + d) for d in (1, -1, 32, -32, F(27315, 100) - 273)]
    return ask(S, rng, cat, diff, q, ans, wrong, {"definition": "°F = °C × 9/5 + 32; K = °C + 273.15 (exact)"}, form="Reply with the exact number only.")


# --- numbers --------------------------------------------------------------------------------

ROMAN = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n: int) -> str:
    out = ""
    for v, s in ROMAN:
        while n >= v:
            out += s
            n -= v
    return out


def from_roman(s: str) -> int:
    vals = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, ch in enumerate(s):
        v = vals[ch]
        total += -v if i + 1 < len(s) and vals[s[i + 1]] > v else v
    return total


def nu_roman(S, rng, diff, cat):
    n = rng.randrange(*{"easy": (1, 100), "medium": (100, 1000), "hard": (1000, 4000)}[diff])
    r = to_roman(n)
    assert from_roman(r) == n
    if rng.random() < 0.5:
        q = f"What number does the Roman numeral {r} stand for?"
        return ask(S, rng, cat, diff, q, str(n), [str(n + d) for d in (10, -10, 1, -1, 100)], {"why": f"{r} = {n}"}, form="Reply with the number only.")
    q = f"Write {n} in Roman numerals (standard subtractive form)."
    wrong = [to_roman(n + d) for d in (1, -1, 10, -10) if 0 < n + d < 4000]
    return ask(S, rng, cat, diff, q, r, wrong, {"why": f"{n} = {r}"}, form="Reply with the numeral only.")


def nu_bases(S, rng, diff, cat):
    n = rng.randrange(*{"easy": (40, 100), "medium": (100, 1024), "hard": (1024, 65536)}[diff])
    kind = rng.choice(["bin", "hex", "from_hex"])
    if kind == "bin":
        ans, q = format(n, "b"), f"Write the decimal number {n} in binary."
        wrong = [format(n ^ (1 << i), "b") for i in range(3)]
    elif kind == "hex":
        ans, q = format(n, "X"), f"Write the decimal number {n} in hexadecimal, using capital letters."
        wrong = [format(n + d, "X") for d in (1, -1, 16, -16)]
    else:
        ans, q = str(n), f"What is the hexadecimal number 0x{n:X} in decimal?"
        wrong = [str(n + d) for d in (1, -1, 16, -16, 6)]
    assert int(format(n, "b"), 2) == n and int(format(n, "X"), 16) == n
    return ask(S, rng, cat, diff, q, ans, wrong, {"why": f"{n} = 0b{n:b} = 0x{n:X}"}, form="Reply with the digits only, without any prefix.")


def nu_constants(S, rng, diff, cat):
    consts = {"π": math.pi, "e (Euler's number)": math.e, "the square root of 2": math.sqrt(2)}
    name = rng.choice(list(consts)) if diff != "easy" else "π"
    digits = repr(consts[name]).split(".")[1]
    k = rng.randrange(*{"easy": (1, 7), "medium": (3, 10), "hard": (8, 14)}[diff])
    d = digits[k - 1]
    q = f"What is the {K.ordinal(k)} digit after the decimal point of {name}?"
    return ask(S, rng, cat, diff, q, d, [str((int(d) + j) % 10) for j in (1, 2, 9, 5)], {"why": f"{name} = {repr(consts[name])[:k + 4]}…"}, form="Reply with the single digit only.")


def nu_powers(S, rng, diff, cat):
    if diff == "easy":
        e = rng.randrange(2, 17)
        return ask(S, rng, cat, diff, f"What is 2 to the power {e}?", str(2**e), [str(2 ** (e + 1)), str(2 ** (e - 1)), str(2**e + 2), str(e * e)],
                   {"why": f"2^{e} = {2 ** e}"}, form="Reply with the number only.")
    bits = rng.choice([8, 16, 32, 64] if diff == "hard" else [8, 16])
    signed = rng.random() < 0.5
    what = rng.choice(["largest", "smallest"]) if signed else "largest"
    v = (2 ** (bits - 1) - 1 if what == "largest" else -(2 ** (bits - 1))) if signed else 2**bits - 1
    q = f"What is the {what} value of a {bits}-bit {'signed two' + chr(8217) + 's-complement' if signed else 'unsigned'} integer?"
    wrong = [str(v + 1), str(v - 1), str(2**bits), str(-v), str(2 ** (bits - 1))]
    return ask(S, rng, cat, diff, q, str(v), wrong, {"why": f"{'two' + chr(8217) + 's complement range' if signed else 'unsigned range'} of {bits} bits"},
               form="Reply with the number only.")


# --- computing standards ------------------------------------------------------------------


def co_hash(S, rng, diff, cat):
    pool = {"easy": ["md5", "sha1", "sha256", "sha512"], "medium": ["sha1", "sha224", "sha256", "sha384", "sha512"], "hard": HASHES}[diff]
    h = rng.choice(pool)
    size = hashlib.new(h).digest_size
    unit = rng.choice(["bits", "bytes", "hexadecimal characters"] if diff != "easy" else ["bits", "bytes"])
    v = {"bits": size * 8, "bytes": size, "hexadecimal characters": size * 2}[unit]
    assert len(hashlib.new(h, b"atlas").hexdigest()) == size * 2
    q = f"How long is a {HASH_NAMES[h]} digest, in {unit}?"
    wrong = [str(x) for x in {size * 8, size, size * 2, size * 4, (size + 4) * 8, (size - 4) * 8} if x != v]
    return ask(S, rng, cat, diff, q, str(v), wrong, {"why": f"hashlib.new({h!r}).digest_size = {size} bytes"}, form="Reply with the number only.")


def co_base64(S, rng, diff, cat):
    n = rng.randrange(*{"easy": (1, 10), "medium": (10, 100), "hard": (100, 2000)}[diff])
    v = len(base64.b64encode(b"\0" * n))
    assert v == 4 * math.ceil(n / 3)
    q = f"Standard Base64 (RFC 4648, with padding, no line breaks) encodes {n} bytes of input as how many characters?"
    return ask(S, rng, cat, diff, q, str(v), [str(x) for x in (v + 4, v - 4, math.ceil(n * 4 / 3), n * 2) if x != v], {"why": f"4 × ceil({n}/3) = {v}"},
               form="Reply with the number only.")


def co_sizes(S, rng, diff, cat):
    if diff == "easy" or rng.random() < 0.4:
        code, name = rng.choice([("b", "signed char"), ("h", "short"), ("i", "int"), ("q", "long long"), ("f", "float"), ("d", "double"),
                                 ("e", "half-precision float"), ("H", "unsigned short"), ("I", "unsigned int"), ("Q", "unsigned long long"),
                                 ("?", "bool"), ("l", "long"), ("B", "unsigned char"), ("L", "unsigned long")])
        v = struct.calcsize("<" + code)
        q = f"In Python's struct module with standard sizes (format prefix '<'), how many bytes does the format character '{code}' ({name}) occupy?"
        return ask(S, rng, cat, diff, q, str(v), ["1", "2", "4", "8", "16"], {"why": f"struct.calcsize('<{code}') = {v}"}, form="Reply with the number only.")
    facts = [
        ("How many bits of precision (including the implicit leading bit) does an IEEE 754 binary64 (double) significand have?", sys.float_info.mant_dig, "sys.float_info.mant_dig"),
        ("An IEEE 754 binary64 float can represent every integer up to 2^k exactly. What is the largest such k?", sys.float_info.mant_dig, "53-bit significand"),
        ("How many bits long is an IEEE 754 binary32 (single-precision) float?", struct.calcsize("<f") * 8, "struct.calcsize('<f') * 8"),
        ("How many bits does the exponent field of an IEEE 754 binary64 float have?", 11, "64 = 1 sign + 11 exponent + 52 fraction"),
    ]
    assert float(2**53) + 1 == float(2**53) and float(2**53 - 1) + 1 == float(2**53)
    assert math.log2(sys.float_info.max_exp) == 10  # max_exp = 1024 = 2^(11-1): an 11-bit exponent field
    q, v, why = rng.choice(facts)
    return ask(S, rng, cat, diff, q, str(v), [str(x) for x in (24, 32, 52, 53, 64, 11, 8, 1023, 1024) if x != v], {"why": why}, form="Reply with the number only.")


def co_bits(S, rng, diff, cat):
    if diff == "easy":
        b = rng.randrange(2, 25)
        q, v = f"How many distinct values can be represented with {b} bits?", 2**b
        wrong = [2 ** (b - 1), 2 ** (b + 1), 2**b - 1, b * b]
    elif diff == "medium":
        n = rng.randrange(100, 10**6)
        q, v = f"What is the minimum number of bits needed to write {n} as an unsigned binary number?", n.bit_length()
        assert 2 ** (v - 1) <= n < 2**v
        wrong = [v - 1, v + 1, v + 2, len(str(n))]
    else:
        fam = rng.choice(["v4", "v6"])
        cls = ipaddress.IPv4Address if fam == "v4" else ipaddress.IPv6Address
        unit = rng.choice(["bits", "bytes"])
        size = cls(0).max_prefixlen
        assert len(cls(0).packed) * 8 == size
        v = size if unit == "bits" else size // 8
        q = f"How long is an {'IPv4' if fam == 'v4' else 'IPv6'} address, in {unit}?"
        wrong = [32, 128, 4, 16, 64, 8, 48]
    return ask(S, rng, cat, diff, q, str(v), [str(w) for w in wrong if w != v], {"why": f"computed: {v}"}, form="Reply with the number only.")


# --- protocols and addresses ----------------------------------------------------------------


def pr_http(S, rng, diff, cat):
    code = rng.choice(COMMON_HTTP if diff == "easy" else HTTP_CODES)
    phrase = http.HTTPStatus(code).phrase
    if diff == "hard" or rng.random() < 0.5:
        q = f"Which HTTP status code has the reason phrase \"{phrase}\"?"
        near = [str(c) for c in HTTP_CODES if abs(c - code) < 12 and c != code]
        return ask(S, rng, cat, diff, q, str(code), near + [str(code + 1), str(code - 1)], {"why": f"http.HTTPStatus({code}).phrase"}, form="Reply with the number only.")
    q = f"What is the standard reason phrase of HTTP status code {code}?"
    others = [http.HTTPStatus(c).phrase for c in HTTP_CODES if c // 100 == code // 100 and c != code]
    return ask(S, rng, cat, diff, q, phrase, others, {"why": f"http.HTTPStatus({code}).phrase"}, exact_ok=False)


def pr_url(S, rng, diff, cat):
    host = rng.choice(["example.com", "shop.example.org", "api.example.net", "files.example.edu"])
    port = rng.choice([None, 8080, 8443, 3000, 5000])
    path = "/" + "/".join(rng.sample(["docs", "v2", "items", "report", "archive", "users", "search"], rng.randrange(1, 4)))
    params = {k: str(rng.randrange(1, 500)) for k in rng.sample(["page", "id", "limit", "sort", "q", "lang"], 2)}
    frag = rng.choice(["", "#top", "#section-2"])
    scheme = rng.choice(["https", "http"])
    url = f"{scheme}://{host}{':' + str(port) if port else ''}{path}?{urllib.parse.urlencode(params)}{frag}"
    parts = urllib.parse.urlsplit(url)
    if diff == "easy":
        q, v = f"In the URL {url}, what is the host name?", parts.hostname
        wrong = [host.split(".")[0], parts.netloc + "/", scheme + "://" + host]
    elif diff == "medium":
        q, v = f"Which TCP port does a client connect to for the URL {url}?", str(parts.port or {"https": 443, "http": 80}[scheme])
        wrong = ["80", "443", "8080", "8443", "3000", "5000"]
    else:
        key = rng.choice(["q", "name", "title"])
        raw = rng.choice(["café au lait", "a&b", "50% off", "x=y", "naïve", "C++ tips", "size 10/12", "über"])
        url = f"{scheme}://{host}{path}?{key}={urllib.parse.quote_plus(raw)}&page={rng.randrange(2, 40)}"
        parts = urllib.parse.urlsplit(url)
        q = f"In the URL {url}, what is the decoded value of the query parameter {key} (percent-encoding and + decoded as in HTML forms, UTF-8)?"
        v = urllib.parse.parse_qs(parts.query)[key][0]
        assert v == raw
        wrong = [urllib.parse.quote_plus(raw), raw.replace(" ", "+"), urllib.parse.quote(raw)]
        return ask(S, rng, cat, diff, q, v, wrong, {"why": f"urllib.parse.parse_qs of {parts.query!r}"}, exact_ok=False)
    return ask(S, rng, cat, diff, q, v, wrong, {"why": f"urllib.parse.urlsplit: {parts}"}, form="Reply with the answer only.")


def pr_ipv4(S, rng, diff, cat):
    kinds = {
        "loopback": lambda: f"127.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
        "private (RFC 1918)": lambda: rng.choice([f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
                                                  f"172.{rng.randrange(16, 32)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
                                                  f"192.168.{rng.randrange(256)}.{rng.randrange(1, 255)}"]),
        "multicast": lambda: f"{rng.randrange(224, 240)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
        "link-local": lambda: f"169.254.{rng.randrange(1, 255)}.{rng.randrange(1, 255)}",
        "public (globally routable)": lambda: f"{rng.choice([8, 23, 45, 81, 93, 101, 151, 185, 203])}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
    }
    names = list(kinds)
    kind = rng.choice(names[:2] + names[4:] if diff == "easy" else names)
    addr = kinds[kind]()
    ip = ipaddress.ip_address(addr)
    found = ("loopback" if ip.is_loopback else "multicast" if ip.is_multicast else "link-local" if ip.is_link_local
             else "private (RFC 1918)" if any(ip in ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))
             else "public (globally routable)" if ip.is_global else None)
    if found != kind:
        raise K.Redraw("address fell in another special range")
    q = f"Which kind of IPv4 address is {addr}?"
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=kind, distractors=[n for n in names if n != kind], meta={"why": f"ipaddress: {addr} is {kind}"}, n=5 if diff == "hard" else 4)


CATEGORIES = {
    "characters": [ch_ascii, ch_utf8, ch_names],
    "calendar": [ca_leap, ca_weekday, ca_span],
    "units": [un_length, un_temperature],
    "numbers": [nu_roman, nu_bases, nu_constants, nu_powers],
    "computing": [co_hash, co_base64, co_sizes, co_bits],
    "protocols": [pr_http, pr_url, pr_ipv4],
}


def make_rows() -> K.EvalSet:
    S = K.EvalSet(DATASET_ID, "know")
    K.fill(S, random.Random(SEED), CATEGORIES, PER_CELL)
    return S


def generate(out: Path) -> None:
    S = make_rows()
    S.write(
        out,
        description=(
            "Stable, verifiable knowledge: character encodings, the Gregorian calendar, exact unit "
            "definitions, numerals and constants, computing standards, HTTP/URL/IPv4 conventions; "
            "easy/medium/hard, exact or mc. Every answer comes from a standard-library table, a "
            "standard's definition (stated in meta.definition) or a derivation, never a typed key"
        ),
        generator=__file__,
        seed=SEED,
        default_scorer="exact",
    )


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
