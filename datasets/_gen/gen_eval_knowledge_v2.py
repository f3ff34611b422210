# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-knowledge-v2: harder stable, verifiable facts (supersedes eval-knowledge-v1).

The same rule as v1 -- only facts the generator verifies without a typed key -- with a
higher ceiling: Unicode names, categories and decompositions beyond Latin-1, UTF-8 byte
sequences, ISO week dates and day-of-year arithmetic, the constants the 2019 SI and the
IAU define exactly and conversions built on them, IEEE 754 bit patterns and two's
complement, Base64/hex/percent encodings of short strings, IPv6 compression, IPv4/IPv6
special ranges and less common HTTP status codes. Sources: unicodedata, datetime,
struct, base64, urllib.parse, ipaddress, http.HTTPStatus, plus the defined constants
listed in DEFINED (each with the standard that fixes it, echoed in meta.definition).

Six categories x easy/medium/hard x 14 rows, mixing `exact`, `numeric` and `mc`.

    python datasets/_gen/gen_eval_knowledge_v2.py [--out DIR]
"""

from __future__ import annotations

import base64
import calendar
import datetime as dt
import http
import ipaddress
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

DATASET_ID = "eval-knowledge-v2"
SEED = 7_400_002
PER_CELL = 14
F = Fraction
WEEKDAYS = list(calendar.day_name)
MONTHS = list(calendar.month_name)[1:]

# Reason phrases identical in RFC 7231 and RFC 9110 (renamed codes 413, 414, 416, 422 left out).
HTTP_CODES = [100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 307, 308, 400, 401, 402, 403, 404, 405,
              406, 407, 408, 409, 410, 411, 412, 415, 417, 426, 428, 429, 431, 451, 500, 501, 502, 503, 504, 505, 511]

# Exact by definition. (value, unit, what fixes it)
DEFINED = {
    "the speed of light in vacuum": (F(299792458), "m/s", "SI defining constant (2019 SI; fixed since 1983)"),
    "the Planck constant": (F(662607015, 10**8) * F(1, 10**34), "J·s", "SI defining constant (2019 SI)"),
    "the elementary charge": (F(1602176634, 10**9) * F(1, 10**19), "C", "SI defining constant (2019 SI)"),
    "the Boltzmann constant": (F(1380649, 10**6) * F(1, 10**23), "J/K", "SI defining constant (2019 SI)"),
    "the Avogadro constant": (F(602214076, 10**8) * 10**23, "per mole", "SI defining constant (2019 SI)"),
    "standard gravity (standard acceleration of free fall)": (F(980665, 10**5), "m/s²", "CGPM 1901, exact"),
    "the standard atmosphere": (F(101325), "Pa", "CGPM 1954, exact"),
    "the astronomical unit": (F(149597870700), "m", "IAU 2012 Resolution B2, exact"),
    "the thermochemical calorie": (F(4184, 1000), "J", "exact by definition"),
}
CONVERSIONS = {
    "US liquid gallon": (F(3785411784, 10**9), "litres", "231 cubic inches, 1 in = 2.54 cm exactly"),
    "imperial gallon": (F(454609, 10**5), "litres", "UK Weights and Measures Act 1985, exact"),
    "troy ounce": (F(311034768, 10**7), "grams", "480 grains, 1 grain = 64.79891 mg exactly"),
    "international mile": (F(1609344, 1000), "metres", "1760 yards, 1 yard = 0.9144 m exactly"),
    "international nautical mile": (F(1852), "metres", "exact by definition"),
    "international acre": (F(40468564224, 10**7), "square metres", "43560 square feet, 1 ft = 0.3048 m exactly"),
    "metric carat": (F(200), "milligrams", "exact by definition"),
    "kilowatt-hour": (F(3600000), "joules", "1 kW × 3600 s"),
}


def sci(q: Fraction) -> str:
    """A defined constant written as the standards write it: 6.62607015e-34."""
    if q.denominator == 1 and q < 10**12:
        return str(q.numerator)
    e = 0
    m = q
    while m >= 10:
        m /= 10
        e += 1
    while m < 1:
        m *= 10
        e -= 1
    return f"{K.decimal_string(m)}e{e}"


def emit(S, rng, cat, diff, question, correct, distractors, meta, kinds=("exact", "mc"), form="Reply with the answer only.", numeric_value=None):
    """One question in one of the allowed forms (exact, numeric, mc)."""
    S.claim(question)
    kind = rng.choice(kinds)
    if kind == "numeric":
        return S.add_number(category=cat, difficulty=diff, question=question, value=numeric_value, meta=meta)
    if kind == "exact":
        return S.add(category=cat, difficulty=diff, prompt=f"{question} {form}", answer=correct, scorer="exact", meta=meta)
    d = [x for x in distractors if x != correct]
    rng.shuffle(d)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=question, correct=correct, distractors=d, meta=meta, n=5 if diff == "hard" else 4)


# --- characters -------------------------------------------------------------------------

GREEK = [chr(c) for c in list(range(0x391, 0x3AA)) + list(range(0x3B1, 0x3CA)) if c != 0x3A2]
CYRILLIC = [chr(c) for c in range(0x410, 0x450)]
BLOCKS = {
    "Arrows": range(0x2190, 0x2200),
    "Mathematical Operators": range(0x2200, 0x2300),
    "Box Drawing": range(0x2500, 0x2580),
    "Geometric Shapes": range(0x25A0, 0x2600),
    "Miscellaneous Symbols": range(0x2600, 0x2660),
}
CATEGORY_NAMES = {"Lu": "Letter, uppercase", "Ll": "Letter, lowercase", "Nd": "Number, decimal digit", "No": "Number, other",
                  "Sm": "Symbol, math", "Sc": "Symbol, currency", "So": "Symbol, other", "Po": "Punctuation, other",
                  "Pd": "Punctuation, dash", "Ps": "Punctuation, open", "Mn": "Mark, nonspacing", "Zs": "Separator, space", "Sk": "Symbol, modifier",
                  "Lm": "Letter, modifier", "Nl": "Number, letter"}


def ch_codepoint(S, rng, diff, cat):
    pool = {"easy": GREEK, "medium": GREEK + CYRILLIC, "hard": CYRILLIC + [chr(c) for c in range(0x2190, 0x21A0)]}[diff]
    c = rng.choice(pool)
    cp = f"U+{ord(c):04X}"
    if rng.random() < 0.5:
        q = f"Which character is {unicodedata.name(c)} (give its code point)?"
    else:
        q = f"What is the Unicode code point of {c} ({unicodedata.name(c).lower()})?"
    wrong = [f"U+{ord(c) + d:04X}" for d in (1, -1, 0x20, -0x20, 0x10, 0x100)]
    return emit(S, rng, cat, diff, q, cp, wrong, {"why": f"unicodedata.lookup({unicodedata.name(c)!r}) = {cp}"}, form="Reply in the form U+XXXX.")


def ch_name(S, rng, diff, cat):
    block = rng.choice(list(BLOCKS))
    pool = [chr(c) for c in BLOCKS[block] if unicodedata.category(chr(c)) != "Cn"]
    c = rng.choice(pool)
    near = [chr(x) for x in range(ord(c) - 6, ord(c) + 7) if chr(x) in pool and chr(x) != c]
    q = f"What is the Unicode character name of {c} (U+{ord(c):04X}, in the {block} block)?"
    return emit(S, rng, cat, diff, q, unicodedata.name(c), [unicodedata.name(x) for x in near], {"why": f"unicodedata.name(U+{ord(c):04X})"}, kinds=("mc",))


def ch_utf8(S, rng, diff, cat):
    pool = {"easy": [chr(c) for c in range(0xC0, 0x100) if c not in (0xD7, 0xF7)], "medium": GREEK + CYRILLIC + list("€£¥§©®°±"),
            "hard": list("€→∑≈√∞■★☀♞") + [chr(c) for c in (0x1F600, 0x1F389, 0x1F680, 0x1F34E)]}[diff]
    c = rng.choice(pool)
    b = c.encode("utf-8")
    hexed = " ".join(f"{x:02X}" for x in b)
    q = f"What are the bytes of the UTF-8 encoding of {c} (U+{ord(c):04X}), in hexadecimal?"
    bumped = bytes(b[:-1]) + bytes([(b[-1] + 1) % 256])
    alt = [" ".join(f"{x:02X}" for x in c.encode("utf-16-be")), " ".join(f"{x:02X}" for x in bumped), f"{ord(c):04X}"]
    return emit(S, rng, cat, diff, q, hexed, alt, {"why": f"{c!r}.encode('utf-8') = {b!r}"}, form="Reply with the bytes as two-digit uppercase hex separated by single spaces, e.g. AB CD.")


def ch_category(S, rng, diff, cat):
    pools = {"easy": "AZaz09+<$€.!", "medium": "λΩ∑≤¥£%§¼²½-(–^", "hard": "\u0301\u00a0\u2009\u00b4\u02c6\u0663\u2160\u00bd\u2603\u00a7\u2014\u300c"}
    c = rng.choice(pools[diff])
    code = unicodedata.category(c)
    label = f"{code} ({CATEGORY_NAMES[code]})"
    others = [f"{k} ({v})" for k, v in CATEGORY_NAMES.items() if k != code]
    show = c if unicodedata.category(c)[0] not in "MZ" else f"the character U+{ord(c):04X}"
    q = f"What is the Unicode General_Category of {show} ({unicodedata.name(c).lower()})?"
    return emit(S, rng, cat, diff, q, label, others, {"why": f"unicodedata.category = {code}"}, kinds=("mc",))


def ch_decompose(S, rng, diff, cat):
    pools = {"easy": "éèüñçåö", "medium": "ǖǘǚǜẫấậḗṓ", "hard": "ǖḗẫệṩǻǿ"}
    c = rng.choice(pools[diff])
    nfd = unicodedata.normalize("NFD", c)
    parts = ", ".join(f"U+{ord(x):04X}" for x in nfd)
    q = f"Into how many code points does {c} ({unicodedata.name(c).lower()}) decompose under Unicode normalization form NFD?"
    return emit(S, rng, cat, diff, q, str(len(nfd)), ["1", "2", "3", "4"], {"why": f"NFD = {parts}"}, kinds=("numeric", "mc"), numeric_value=len(nfd))


# --- calendar -------------------------------------------------------------------------------


def rand_date(rng, lo, hi):
    return dt.date.fromordinal(rng.randrange(dt.date(lo, 1, 1).toordinal(), dt.date(hi, 12, 31).toordinal() + 1))


def fmt(d: dt.date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def ca_iso_week(S, rng, diff, cat):
    if diff == "hard":  # dates near the year boundary, where the ISO year differs
        y = rng.randrange(1990, 2060)
        d = rng.choice([dt.date(y, 12, rng.randrange(28, 32)), dt.date(y + 1, 1, rng.randrange(1, 4))])
    else:
        d = rand_date(rng, 2000 if diff == "easy" else 1970, 2040 if diff == "easy" else 2100)
    iso = d.isocalendar()
    # independent: week of the Thursday of this Monday-to-Sunday week
    thursday = d + dt.timedelta(days=3 - d.weekday())
    week = (thursday - dt.date(thursday.year, 1, 1)).days // 7 + 1
    assert (thursday.year, week) == (iso.year, iso.week)
    if diff == "hard":
        q = f"Under ISO 8601 week numbering, which week-numbering year and week does {fmt(d)} belong to?"
        ans = f"{iso.year}-W{iso.week:02d}"
        wrong = [f"{d.year}-W{iso.week:02d}", f"{iso.year}-W{(iso.week % 53) + 1:02d}", f"{d.year}-W01", f"{d.year}-W52", f"{d.year}-W53"]
        return emit(S, rng, cat, diff, q, ans, wrong, {"why": f"date.isocalendar() = {tuple(iso)}"}, kinds=("exact", "mc"), form="Reply in the form YYYY-Www, e.g. 2004-W53.")
    q = f"What is the ISO 8601 week number of {fmt(d)}?"
    return emit(S, rng, cat, diff, q, str(iso.week), [str(iso.week + x) for x in (1, -1, 2) if iso.week + x > 0], {"why": f"date.isocalendar() = {tuple(iso)}"},
                kinds=("numeric", "mc"), numeric_value=iso.week)


def ca_weekday(S, rng, diff, cat):
    lo, hi = {"easy": (1900, 2100), "medium": (1583, 2400), "hard": (1, 9999)}[diff]
    d = rand_date(rng, lo, hi)
    day = WEEKDAYS[d.weekday()]
    y, m = (d.year - 1, d.month + 12) if d.month < 3 else (d.year, d.month)
    h = (d.day + (13 * (m + 1)) // 5 + y + y // 4 - y // 100 + y // 400) % 7  # Zeller, full-year form
    assert ["Saturday", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday"][h] == day
    q = f"In the proleptic Gregorian calendar, on which day of the week does {fmt(d)} fall?"
    return emit(S, rng, cat, diff, q, day, WEEKDAYS, {"why": "datetime weekday; Zeller's congruence agrees"}, form="Reply with the day name only.")


def ca_day_of_year(S, rng, diff, cat):
    d = rand_date(rng, 1900, 2100)
    if diff == "easy":
        n = d.timetuple().tm_yday
        assert n == sum(calendar.monthrange(d.year, m)[1] for m in range(1, d.month)) + d.day
        q = f"{fmt(d)} is which day of its year (1 January is day 1)?"
        return emit(S, rng, cat, diff, q, str(n), [str(n + x) for x in (1, -1, 30)], {"why": f"tm_yday = {n}"}, kinds=("numeric",), numeric_value=n)
    if diff == "medium":
        k = rng.randrange(50, 1000)
        e = d + dt.timedelta(days=k)
        q = f"Which date is {k} days after {fmt(d)}?"
        return emit(S, rng, cat, diff, q, e.isoformat(), [(e + dt.timedelta(days=x)).isoformat() for x in (1, -1, 2, 31)], {"why": f"{d} + {k} days = {e}"},
                    form="Reply in ISO 8601 form YYYY-MM-DD.")
    y = rng.randrange(1901, 2100)
    wd = rng.randrange(5)
    n = sum(1 for m in range(1, 13) if dt.date(y, m, 13).weekday() == 4) if wd == 0 else sum(1 for m in range(1, 13) if dt.date(y, m, 1).weekday() == 0)
    q = f"How many Friday-the-13ths are there in the year {y}?" if wd == 0 else f"In how many months of {y} is the 1st of the month a Monday?"
    return emit(S, rng, cat, diff, q, str(n), ["1", "2", "3", "0"], {"why": "counted month by month with datetime"}, kinds=("numeric",), numeric_value=n)


# --- units and defined constants --------------------------------------------------------------


def un_defined(S, rng, diff, cat):
    name = rng.choice(list(DEFINED))
    value, unit, why = DEFINED[name]
    ans = sci(value)
    if diff == "medium":  # the reverse direction: which quantity is defined with this value
        q = f"Which quantity is defined to be exactly {ans} {unit}?"
        return emit(S, rng, cat, diff, q, name, [n for n in DEFINED if n != name], {"definition": why}, kinds=("mc",))
    q = f"What is the exact value of {name}, in {unit}, as fixed by definition?"
    if diff == "hard":
        q = f"To every digit, what is the defined value of {name} in {unit}?"
    wrong = [sci(value * f) for f in (F(1001, 1000), F(999, 1000), F(10), F(1, 10), F(1000001, 1000000))]
    if value.denominator == 1 and value < 10**12:
        return emit(S, rng, cat, diff, q, ans, wrong, {"definition": why}, kinds=("numeric", "mc"), numeric_value=value)
    return emit(S, rng, cat, diff, q, ans, wrong, {"definition": why}, kinds=("mc",))


def un_convert(S, rng, diff, cat):
    name = rng.choice(list(CONVERSIONS))
    per, unit, why = CONVERSIONS[name]
    n = rng.randrange(2, {"easy": 10, "medium": 60, "hard": 500}[diff])
    v = per * n
    q = f"How many {unit} are there in exactly {n} {name}s?"
    return emit(S, rng, cat, diff, q, K.decimal_string(v), [K.decimal_string(v * f) for f in (F(11, 10), F(9, 10), F(101, 100))],
                {"definition": f"1 {name} = {K.decimal_string(per)} {unit} ({why})"}, kinds=("numeric", "mc"), numeric_value=v)


def un_derived(S, rng, diff, cat):
    c = DEFINED["the speed of light in vacuum"][0]
    choices = {
        "easy": [("How many metres does light travel in vacuum in exactly {n} seconds?", lambda n: c * n, "c = 299792458 m/s exactly")],
        "medium": [("What is {n} kilometres per hour in metres per second, exactly?", lambda n: F(n * 1000, 3600), "1 km/h = 1000 m / 3600 s"),
                   ("What is {n} knots in kilometres per hour, exactly?", lambda n: F(n * 1852, 1000), "1 knot = 1 nautical mile per hour = 1852 m/h")],
        "hard": [("How many metres are there in {n} light-years (IAU: a Julian year of 365.25 days of 86400 s at the speed of light)?", lambda n: c * F(36525, 100) * 86400 * n, "c × 365.25 × 86400 s"),
                 ("What pressure in pascals corresponds to {n} standard atmospheres?", lambda n: 101325 * n, "1 atm = 101325 Pa exactly")],
    }[diff]
    text, fn, why = rng.choice(choices)
    n = rng.randrange(2, 90)
    v = fn(n)
    q = text.format(n=n)
    return emit(S, rng, cat, diff, q, K.show_number(v), [K.show_number(F(v) * f) for f in (F(11, 10), F(9, 10), F(1001, 1000))],
                {"definition": why}, kinds=("numeric", "mc"), numeric_value=v)


# --- numbers and bits ----------------------------------------------------------------------------


def nb_float_bits(S, rng, diff, cat):
    pool = {"easy": [1.0, 2.0, -1.0, 0.5, 0.25, 4.0, -2.0, 1.5], "medium": [0.1, 3.0, -0.5, 10.0, 0.75, 100.0, 1.25, -3.5],
            "hard": [0.2, 0.3, 1e-3, 255.0, -0.1, 1.1, 65504.0, 1024.5]}[diff]
    x = rng.choice(pool)
    width = "binary32 (single precision)" if diff != "hard" or rng.random() < 0.5 else "binary64 (double precision)"
    fmtc = ">f" if "32" in width else ">d"
    bits = struct.pack(fmtc, x).hex().upper()
    assert struct.unpack(fmtc, bytes.fromhex(bits))[0] == (struct.unpack(">f", struct.pack(">f", x))[0] if fmtc == ">f" else x)
    q = f"What is the IEEE 754 {width} encoding of {x!r}, as big-endian hexadecimal?"
    flip = [bits[:-1] + format((int(bits[-1], 16) + 1) % 16, "X"), format(int(bits[0], 16) ^ 8, "X") + bits[1:], bits[:2] + bits[2:][::-1]]
    return emit(S, rng, cat, diff, q, bits, flip, {"why": f"struct.pack('{fmtc}', {x!r}).hex() = {bits.lower()}"}, form="Reply with the hex digits only, uppercase, no prefix.")


def nb_twos(S, rng, diff, cat):
    bits = {"easy": 8, "medium": 16, "hard": rng.choice([16, 32])}[diff]
    n = -rng.randrange(1, 2 ** (bits - 1) if bits < 32 else 10**6)
    enc = format(n & (2**bits - 1), f"0{bits // 4}X")
    assert int.from_bytes(bytes.fromhex(enc), "big", signed=True) == n
    q = f"What is {n} as a {bits}-bit two's-complement integer, in hexadecimal?"
    wrong = [format((-n) & (2**bits - 1), f"0{bits // 4}X"), format((n - 1) & (2**bits - 1), f"0{bits // 4}X"), format((~(-n)) & (2**bits - 1) ^ 1, f"0{bits // 4}X")]
    return emit(S, rng, cat, diff, q, enc, wrong, {"why": f"{n} mod 2^{bits} = 0x{enc}"}, form=f"Reply with exactly {bits // 4} uppercase hex digits, no prefix.")


def nb_float_print(S, rng, diff, cat):
    pairs = {"easy": [(0.1, 0.2), (0.1, 0.7), (0.2, 0.4), (1.1, 2.2)], "medium": [(0.3, 0.6), (0.7, 0.1), (1.1, 1.1), (0.1, 0.1, 0.1)],
             "hard": [(0.1, 0.2, 0.3), (3.3, 1.1), (0.57, 100), (1.15, 100), (4.35, 100), (0.1, 3)]}[diff]
    terms = rng.choice(pairs)
    if diff == "hard" and terms[-1] in (100, 3):
        v = terms[0] * terms[1]
        expr = f"{terms[0]!r} * {terms[1]!r}"
    else:
        v = sum(terms[1:], terms[0])
        expr = " + ".join(repr(t) for t in terms)
    shown = repr(v)
    q = f"In IEEE 754 double-precision arithmetic with round-to-nearest, what is the result of {expr}, written in the shortest decimal form that round-trips?"
    naive = repr(round(v, 10))
    return emit(S, rng, cat, diff, q, shown, [naive, shown[:-1] + str((int(shown[-1]) + 1) % 10), repr(round(v, 10) + 1e-15)],
                {"why": f"Python repr({expr}) = {shown}"}, kinds=("mc", "exact"), form="Reply with the number exactly as written.")


def nb_base36(S, rng, diff, cat):
    base = {"easy": 8, "medium": 36, "hard": rng.choice([36, 32, 20])}[diff]
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:base]
    text = "".join(rng.choice(digits[1:] if i == 0 else digits) for i in range(rng.randrange(3, 6)))
    v = int(text, base)
    assert sum(digits.index(ch) * base**i for i, ch in enumerate(reversed(text))) == v
    q = f"What is the base-{base} numeral {text}{' (digits 0-9 then A-Z)' if base > 10 else ''} in decimal?"
    return emit(S, rng, cat, diff, q, str(v), [str(v + base), str(v - 1), str(int(text[::-1], base))], {"why": f"int({text!r}, {base}) = {v}"},
                kinds=("numeric", "mc"), numeric_value=v)


# --- encodings --------------------------------------------------------------------------------

WORDS = ["cat", "atlas", "hello", "night", "Sun", "data", "river", "quiz", "maple", "orbit", "x", "ok", "lamp", "tea", "Zebra", "kiwi", "glow", "nova"]


def en_base64(S, rng, diff, cat):
    w = rng.choice(WORDS) + ("" if diff == "easy" else rng.choice(["", "!", "42", " day"]))
    if diff == "hard" and rng.random() < 0.5:
        enc = base64.b64encode(w.encode()).decode()
        q = f"Decode the Base64 string {enc} (it encodes ASCII text)."
        return emit(S, rng, cat, diff, q, w, [w.upper(), w[::-1], w + "="], {"why": f"base64.b64decode({enc!r}) = {w!r}"}, form="Reply with the decoded text only.")
    enc = base64.b64encode(w.encode()).decode()
    q = f"What is the standard Base64 encoding (with padding) of the ASCII text \"{w}\"?"
    return emit(S, rng, cat, diff, q, enc, [base64.b64encode(w.upper().encode()).decode(), enc.rstrip("=") or enc + "A", base64.b32encode(w.encode()).decode()],
                {"why": f"base64.b64encode({w!r}) = {enc!r}"}, form="Reply with the encoded string only.")


def en_hex(S, rng, diff, cat):
    w = rng.choice(WORDS)[: {"easy": 2, "medium": 4, "hard": 6}[diff]]
    enc = w.encode().hex().upper()
    if rng.random() < 0.5:
        q = f"What is the ASCII text \"{w}\" as a hexadecimal byte string?"
        return emit(S, rng, cat, diff, q, enc, [w.upper().encode().hex().upper(), w[::-1].encode().hex().upper(), w.encode("utf-16-be").hex().upper()],
                    {"why": f"{w!r}.encode().hex()"}, form="Reply with uppercase hex digits, no spaces.")
    q = f"The hexadecimal bytes {enc} encode which ASCII text?"
    return emit(S, rng, cat, diff, q, w, [w.upper(), w[::-1], w[:-1]], {"why": f"bytes.fromhex({enc!r})"}, form="Reply with the text only.")


def en_percent(S, rng, diff, cat):
    c = rng.choice({"easy": " /?#&", "medium": "é%+=@ü", "hard": "€→ñ✓中"}[diff])
    enc = urllib.parse.quote(c, safe="")
    assert urllib.parse.unquote(enc) == c
    q = f"What is the percent-encoding (RFC 3986, UTF-8) of the character {c!r} when it appears in a URL path segment?" if c != " " else \
        "What is the percent-encoding (RFC 3986) of a space character in a URL path segment?"
    alt = [enc.lower(), "+" if c == " " else enc.replace("%", "%25", 1), "%" + format(ord(c), "X") if ord(c) > 127 else enc + "0"]
    return emit(S, rng, cat, diff, q, enc, alt, {"why": f"urllib.parse.quote({c!r}, safe='') = {enc}"}, form="Reply with the encoded form only, uppercase hex.")


def en_ipv6(S, rng, diff, cat):
    groups = [0] * 8
    start, run = rng.randrange(1, 6), rng.randrange(2, 4)
    for i in range(8):
        if not (start <= i < start + run):
            groups[i] = rng.choice([0, rng.randrange(1, 0x10000), rng.randrange(1, 0x100)]) if diff == "hard" else rng.randrange(1, 0x10000)
    groups[0] = rng.choice([0x2001, 0xFD00 + rng.randrange(256), 0xFE80])
    full = ":".join(f"{g:04x}" for g in groups)
    addr = ipaddress.IPv6Address(full)
    if diff == "easy" or rng.random() < 0.5:
        q = f"What is the canonical compressed form (RFC 5952) of the IPv6 address {full}?"
        ans = addr.compressed
        wrong = [full.replace(":0000", ":0"), ans.upper(), ans.replace("::", ":0::", 1)]
        return emit(S, rng, cat, diff, q, ans, wrong, {"why": "ipaddress.IPv6Address.compressed"}, kinds=("exact", "mc"), form="Reply with the address only, lowercase.")
    q = f"Write the IPv6 address {addr.compressed} in its fully expanded form (eight groups of four hex digits)."
    ans = addr.exploded
    assert ipaddress.IPv6Address(ans) == addr
    return emit(S, rng, cat, diff, q, ans, [ans[:-1] + "0", ans.replace("0000:", "", 1) + ":0000"], {"why": "ipaddress.IPv6Address.exploded"}, form="Reply with the address only, lowercase.")


# --- protocols ---------------------------------------------------------------------------------


def pr_http(S, rng, diff, cat):
    pool = {"easy": [c for c in HTTP_CODES if c in (200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 500, 502, 503)],
            "medium": HTTP_CODES, "hard": [c for c in HTTP_CODES if c in (100, 101, 203, 205, 300, 303, 307, 308, 402, 406, 407, 411, 412, 417, 426, 428, 431, 451, 505, 511)]}[diff]
    code = rng.choice(pool)
    phrase = http.HTTPStatus(code).phrase
    if rng.random() < 0.5:
        q = f"What is the standard reason phrase of HTTP status {code}?"
        others = [http.HTTPStatus(c).phrase for c in HTTP_CODES if c // 100 == code // 100 and c != code]
        return emit(S, rng, cat, diff, q, phrase, others, {"why": f"http.HTTPStatus({code})"}, kinds=("mc",))
    q = f"Which HTTP status code is \"{phrase}\"?"
    return emit(S, rng, cat, diff, q, str(code), [str(c) for c in HTTP_CODES if abs(c - code) <= 8 and c != code] + [str(code + 10)],
                {"why": f"http.HTTPStatus({code})"}, kinds=("numeric", "mc"), numeric_value=code)


def pr_special(S, rng, diff, cat):
    v6 = diff != "easy" and rng.random() < 0.6
    if v6:
        kinds = {
            "loopback": lambda: "::1",
            "link-local unicast": lambda: f"fe80::{rng.randrange(1, 0xffff):x}:{rng.randrange(1, 0xffff):x}",
            "multicast": lambda: f"ff0{rng.choice([2, 5, 8, 'e'])}::{rng.randrange(1, 0xfff):x}",
            "unique local (private)": lambda: f"fd{rng.randrange(256):02x}:{rng.randrange(1, 0xffff):x}::{rng.randrange(1, 0xffff):x}",
            "global unicast": lambda: f"2a0{rng.randrange(1, 10)}:{rng.randrange(0x100, 0xffff):x}::{rng.randrange(1, 0xffff):x}",
            "IPv4-mapped": lambda: f"::ffff:{rng.choice([8, 23, 45, 81, 93, 151, 185])}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
        }
    else:
        kinds = {
            "loopback": lambda: f"127.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
            "private (RFC 1918)": lambda: rng.choice([f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
                                                      f"172.{rng.randrange(16, 32)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
                                                      f"192.168.{rng.randrange(256)}.{rng.randrange(1, 255)}"]),
            "multicast": lambda: f"{rng.randrange(224, 240)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
            "link-local": lambda: f"169.254.{rng.randrange(1, 255)}.{rng.randrange(1, 255)}",
            "shared address space (carrier-grade NAT, RFC 6598)": lambda: f"100.{rng.randrange(64, 128)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
            "public (globally routable)": lambda: f"{rng.choice([8, 23, 45, 81, 93, 151, 185])}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}",
        }
    names = list(kinds)
    kind = rng.choice(names)
    addr = kinds[kind]()
    ip = ipaddress.ip_address(addr)
    if v6:
        found = ("loopback" if ip.is_loopback else "multicast" if ip.is_multicast else "link-local unicast" if ip.is_link_local
                 else "IPv4-mapped" if ip.ipv4_mapped is not None else "unique local (private)" if ip in ipaddress.ip_network("fc00::/7")
                 else "global unicast" if ip in ipaddress.ip_network("2000::/3") else None)
    else:
        found = ("loopback" if ip.is_loopback else "multicast" if ip.is_multicast else "link-local" if ip.is_link_local
                 else "private (RFC 1918)" if any(ip in ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))
                 else "shared address space (carrier-grade NAT, RFC 6598)" if ip in ipaddress.ip_network("100.64.0.0/10")
                 else "public (globally routable)" if ip.is_global else None)
    if found != kind:
        raise K.Redraw("fell into another range")
    q = f"Which kind of {'IPv6' if v6 else 'IPv4'} address is {addr}?"
    return emit(S, rng, cat, diff, q, kind, [n for n in names if n != kind], {"why": f"ipaddress classifies {addr} as {kind}"}, kinds=("mc",))


def pr_url(S, rng, diff, cat):
    host = rng.choice(["example.com", "[2001:db8::17]", "docs.example.org", "192.0.2.44", "[fd00::5]"])
    user = rng.choice(["", "ana@", "ops:secret@"]) if diff != "easy" else ""
    port = rng.choice(["", ":8080", ":4443", ":21"])
    url = f"{rng.choice(['https', 'ftp', 'http'])}://{user}{host}{port}/a/b;{rng.choice(['v=1', 'type=d'])}?x={rng.randrange(99)}#f{rng.randrange(9)}"
    p = urllib.parse.urlparse(url)
    what = {"easy": rng.choice(["host", "port"]), "medium": rng.choice(["host", "user name", "port"]), "hard": rng.choice(["host", "password", "fragment", "user name"])}[diff]
    value = {"host": p.hostname, "port": str(p.port) if p.port else None, "user name": p.username, "password": p.password, "fragment": p.fragment}[what]
    if not value:
        raise K.Redraw("component absent")
    q = f"Per RFC 3986, what is the {what} in the URL {url}{' (without brackets)' if what == 'host' and '[' in host else ''}?"
    return emit(S, rng, cat, diff, q, value, [host, host.strip("[]") + port, p.netloc, p.path, p.query], {"why": f"urlparse: {p}"},
                kinds=("exact", "mc"), form="Reply with the value only.")


CATEGORIES = {
    "characters": [ch_codepoint, ch_name, ch_utf8, ch_category, ch_decompose],
    "calendar": [ca_iso_week, ca_weekday, ca_day_of_year],
    "units": [un_defined, un_convert, un_derived],
    "numbers": [nb_float_bits, nb_twos, nb_float_print, nb_base36],
    "encodings": [en_base64, en_hex, en_percent, en_ipv6],
    "protocols": [pr_http, pr_special, pr_url],
}


def make_rows() -> K.EvalSet:
    S = K.EvalSet(DATASET_ID, "know2")
    K.fill(S, random.Random(SEED), CATEGORIES, PER_CELL)
    return S


def generate(out: Path) -> None:
    S = make_rows()
    S.write(
        out,
        description=(
            "Harder stable, verifiable knowledge (second wave, supersedes eval-knowledge-v1): Unicode "
            "names, categories, decompositions and UTF-8 bytes, ISO week dates, exactly defined SI/IAU "
            "constants and conversions, IEEE 754 and two's-complement bit patterns, Base64/hex/percent "
            "encodings, IPv6 forms, special address ranges and HTTP status codes; rows mix exact, "
            "numeric and mc. Every answer comes from a standard-library table, a stated definition or "
            "a derivation"
        ),
        generator=__file__,
        seed=SEED,
        default_scorer="exact",
        date=K.SECOND_WAVE_DATE,
    )


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
