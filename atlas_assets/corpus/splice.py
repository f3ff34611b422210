"""Spliced-token detection for eval-longgen-integrity-v1 (the ``splice`` scorer).

Standard library only, so a dataset generator can import it by path to verify that its
reference outputs are clean.

A *splice* is a token welded together from two fragments, the visible symptom of a
serving defect that corrupts roughly one token in several thousand. On a JavaScript
module (strings, template text, comments and regex literals are skipped) this module
reports:

* ``identifier`` -- an identifier T that is *unexplained* (not in the row's
  ``meta.context_identifiers``, not a JavaScript keyword/global/common member name, not
  declared by the output itself, and occurring only once in it) and that *decomposes*
  as T = A + B where A (>= 3 chars) is a proper prefix of a known identifier and B
  (>= 3 chars) a proper suffix of a known identifier. "Known" here means the context
  identifiers, the output's own declared or repeated identifiers, and the built-in names.
* ``number`` -- a numeric literal running straight into identifier characters
  (``1500ms``, ``0x1Fzz``, ``3.5e2px``): never valid JavaScript, the shape of a number
  welded to a word.

Declared by the output: names after ``function``, ``class``, ``const``, ``let``,
``var``, in import clauses (including ``as`` aliases) and destructuring patterns,
parameters of functions, methods and arrow functions, object keys and labels
(``name:``), and method definitions. An identifier used twice or more is treated as
intentional.

Wrong-but-intact code is clean by design (the other evals measure correctness). The
residual false-positive risk is a once-used, undeclared name the model invented (for
instance a method on an external object) that happens to split into a known prefix and
a known suffix; the >= 3-character fragments and the built-in list keep it small.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Iterable, NamedTuple, Sequence

__all__ = ["JS_BUILTINS", "Splice", "find_splices", "inject_splice", "js_tokens"]

MIN_FRAGMENT = 3

JS_KEYWORDS = frozenset(
    """
    break case catch class const continue debugger default delete do else export extends
    false finally for function if import in instanceof new null return super switch this
    throw true try typeof var void while with yield let static async await of get set from
    as undefined NaN Infinity arguments enum implements interface package private protected
    public
    """.split()
)

JS_BUILTINS = JS_KEYWORDS | frozenset(
    """
    Object Array String Number Boolean Symbol BigInt Math JSON Date RegExp Error TypeError
    RangeError SyntaxError ReferenceError EvalError URIError AggregateError Promise Map Set
    WeakMap WeakSet WeakRef Proxy Reflect Intl ArrayBuffer SharedArrayBuffer DataView
    Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array
    Float32Array Float64Array BigInt64Array BigUint64Array TextEncoder TextDecoder URL
    URLSearchParams AbortController AbortSignal Blob Event EventTarget globalThis window
    document console process require module exports setTimeout clearTimeout setInterval
    clearInterval setImmediate queueMicrotask structuredClone fetch Response Request Headers
    parseInt parseFloat isNaN isFinite encodeURIComponent decodeURIComponent encodeURI
    decodeURI crypto performance Buffer Atomics FinalizationRegistry Iterator
    length prototype constructor name message stack cause toString valueOf hasOwnProperty
    isPrototypeOf propertyIsEnumerable toLocaleString
    log info warn error debug trace table assert dir group groupEnd time timeEnd count
    push pop shift unshift slice splice concat join reverse sort indexOf lastIndexOf
    includes find findIndex findLast findLastIndex filter map reduce reduceRight forEach
    some every fill flat flatMap keys values entries at copyWithin toSorted toReversed
    toSpliced with isArray from of
    charAt charCodeAt codePointAt endsWith startsWith padStart padEnd repeat replace
    replaceAll search split substring substr toLowerCase toUpperCase trim trimStart trimEnd
    localeCompare normalize match matchAll raw fromCharCode fromCodePoint
    toFixed toPrecision toExponential isInteger isSafeInteger MAX_SAFE_INTEGER
    MIN_SAFE_INTEGER EPSILON MAX_VALUE MIN_VALUE POSITIVE_INFINITY NEGATIVE_INFINITY
    abs ceil floor round trunc sign sqrt cbrt pow exp expm1 log2 log10 log1p max min random
    hypot sin cos tan asin acos atan atan2 sinh cosh tanh PI E LN2 LN10 LOG2E LOG10E
    SQRT2 SQRT1_2 clz32 fround imul
    now parse stringify UTC getTime getFullYear getMonth getDate getDay getHours getMinutes
    getSeconds getMilliseconds getTimezoneOffset getUTCFullYear getUTCMonth getUTCDate
    getUTCDay getUTCHours getUTCMinutes getUTCSeconds setFullYear setMonth setDate setHours
    setMinutes setSeconds setMilliseconds setTime toISOString toDateString toTimeString
    toLocaleDateString toLocaleTimeString toUTCString toJSON
    assign create defineProperty defineProperties freeze isFrozen seal isSealed
    getPrototypeOf setPrototypeOf getOwnPropertyNames getOwnPropertyDescriptor
    getOwnPropertySymbols fromEntries groupBy is preventExtensions isExtensible
    then catch finally resolve reject all allSettled any race withResolvers
    get set has delete clear size add next done value return throw
    test exec source flags global ignoreCase multiline sticky unicode lastIndex
    iterator asyncIterator hasInstance toPrimitive toStringTag description for keyFor
    apply call bind byteLength buffer byteOffset subarray
    addEventListener removeEventListener dispatchEvent target type detail
    env argv exit cwd nextTick stdout stderr write
    default
    """.split()
)

_IDENT_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_NUMBER_RE = re.compile(
    r"0[xX][0-9a-fA-F_]+n?|0[oO][0-7_]+n?|0[bB][01_]+n?|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?n?"
)
_PUNCT_BEFORE_REGEX = frozenset("( , = : [ ! & | ? { } ; + - * % < > ~ ^".split()) | {"=>", "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await"}
_DECL_KEYWORDS = frozenset({"function", "class", "const", "let", "var", "as", "extends"})


class Token(NamedTuple):
    kind: str  # "ident" | "number" | "bad-number" | "punct"
    text: str
    line: int


@dataclass(frozen=True)
class Splice:
    kind: str  # "identifier" | "number"
    token: str
    line: int
    fragments: tuple[str, str] | None = None

    def describe(self) -> str:
        if self.kind == "number":
            return f"line {self.line}: number welded to a word: {self.token!r}"
        a, b = self.fragments or ("", "")
        return f"line {self.line}: spliced identifier {self.token!r} = {a!r} + {b!r}"


_TOKEN_RE = re.compile(
    r"""[ \t\r\f\v\n]*(?:
     (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
    |(?P<string>'(?:[^'\\\n]|\\.)*'?|"(?:[^"\\\n]|\\.)*"?)
    |(?P<tick>`)
    |(?P<number>(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?)n?)(?P<welded>[A-Za-z0-9_$]*)
    |(?P<ident>[A-Za-z_$][\w$]*)
    |(?P<arrow>=>)
    |(?P<punct>.)
    |(?P<end>\Z))""",
    re.S | re.X,
)
_TEMPLATE_TEXT_RE = re.compile(r"(?:[^`\\$]|\\.|\$(?!\{))*", re.S)
_REGEX_LITERAL_RE = re.compile(r"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\]?)*/?[A-Za-z]*")


def js_tokens(code: str) -> list[Token]:
    """Identifiers, numbers and punctuation of JavaScript source; strings, template text,
    comments and regex literals are skipped (template ${...} expressions are tokenised)."""
    tokens: list[Token] = []
    append = tokens.append
    i, n = 0, len(code)
    line_at = 1
    line_pos = 0
    brace_stack: list[str] = []  # "{" for a block/object, "`" for a template expression
    match = _TOKEN_RE.match

    def line_of(pos: int) -> int:
        nonlocal line_at, line_pos
        line_at += code.count("\n", line_pos, pos)
        line_pos = pos
        return line_at

    def template(j: int) -> int:
        # j is just after a backtick or the } closing a ${...}: skip template text.
        m = _TEMPLATE_TEXT_RE.match(code, j)
        j = m.end()
        if j >= n:
            return n
        if code[j] == "`":
            return j + 1
        brace_stack.append("`")  # at "${"
        return j + 2

    while i < n:
        m = match(code, i)
        kind = m.lastgroup
        if kind == "welded":
            kind = "number"
        i = m.start(kind)
        if kind == "comment" or kind == "string":
            i = m.end()
        elif kind == "ident":
            append(Token("ident", m.group(kind), line_of(i)))
            i = m.end()
        elif kind == "number":
            append(Token("bad-number" if m.group("welded") else "number", code[i : m.end()], line_of(i)))
            i = m.end()
        elif kind == "tick":
            i = template(i + 1)
        elif kind == "arrow":
            append(Token("punct", "=>", line_of(i)))
            i = m.end()
        elif kind == "end":
            break
        else:
            c = m.group(kind)
            if c == "/" and (not tokens or tokens[-1].text in _PUNCT_BEFORE_REGEX):
                r = _REGEX_LITERAL_RE.match(code, i)
                append(Token("punct", "/regex/", line_of(i)))
                i = r.end() if r and r.end() > i + 1 else i + 1
                continue
            if c == "{":
                brace_stack.append("{")
            elif c == "}" and brace_stack:
                if brace_stack.pop() == "`":
                    i = template(i + 1)
                    continue
            append(Token("punct", c, line_of(i)))
            i += 1
    return tokens


def _pairs(tokens: Sequence[Token]) -> dict[int, int]:
    """index of every ( [ { -> index of its matching closer (unbalanced: the last token)."""
    match: dict[int, int] = {}
    stack: list[int] = []
    closers = {")": "(", "]": "[", "}": "{"}
    for k, tok in enumerate(tokens):
        if tok.kind != "punct":
            continue
        t = tok.text
        if t in "([{":
            stack.append(k)
        elif t in closers:
            while stack and tokens[stack[-1]].text != closers[t]:
                match[stack.pop()] = k
            if stack:
                match[stack.pop()] = k
    for k in stack:
        match[k] = len(tokens) - 1
    return match


def _declared(tokens: Sequence[Token]) -> set[str]:
    names: set[str] = set()
    n = len(tokens)
    pairs = _pairs(tokens)
    closer_to_opener = {v: k for k, v in pairs.items() if tokens[k].text == "("}
    for k, tok in enumerate(tokens):
        if tok.kind != "ident":
            if tok.text == "=>" and k and tokens[k - 1].text == ")":
                start = closer_to_opener.get(k - 1)
                if start is not None:  # (a, b) => ...: a bare arrow parameter list
                    names.update(t.text for t in tokens[start + 1 : k - 1] if t.kind == "ident")
            continue
        prev = tokens[k - 1].text if k else ""
        nxt = tokens[k + 1].text if k + 1 < n else ""
        if prev in _DECL_KEYWORDS or nxt in (":", "=>"):
            names.add(tok.text)
        if tok.text in ("const", "let", "var") and nxt in ("{", "["):
            end = pairs.get(k + 1, k + 1)
            names.update(t.text for t in tokens[k + 1 : end + 1] if t.kind == "ident")
        elif tok.text == "import":
            for m in range(k + 1, min(n, k + 200)):
                if tokens[m].text in ("from", ";", "("):
                    break
                if tokens[m].kind == "ident" and tokens[m].text not in ("as", "type"):
                    names.add(tokens[m].text)
        elif nxt == "(":
            # function f(...) / method m(...) { / f(...) => : parameters are declarations
            end = pairs.get(k + 1, k + 1)
            after = tokens[end + 1].text if end + 1 < n else ""
            if prev == "function" or after in ("{", "=>"):
                if prev != "function" and tok.text not in JS_KEYWORDS:
                    names.add(tok.text)  # method definition
                names.update(t.text for t in tokens[k + 2 : end] if t.kind == "ident")
    return names


class _Affixes:
    """Prefix/suffix lookup over a name set, for fragments of >= MIN_FRAGMENT chars."""

    def __init__(self, names: Iterable[str]):
        self.prefixes: set[str] = set()
        self.suffixes: set[str] = set()
        for name in names:
            for cut in range(MIN_FRAGMENT, len(name)):
                self.prefixes.add(name[:cut])
                self.suffixes.add(name[-cut:])

    def split(self, token: str) -> tuple[str, str] | None:
        for cut in range(MIN_FRAGMENT, len(token) - MIN_FRAGMENT + 1):
            a, b = token[:cut], token[cut:]
            if a in self.prefixes and b in self.suffixes:
                return a, b
        return None


def find_splices(code: str, context_identifiers: Iterable[str]) -> list[Splice]:
    """Every spliced token of a JavaScript module; empty when the generation is intact."""
    tokens = js_tokens(code)
    context = set(context_identifiers)
    counts: dict[str, int] = {}
    for tok in tokens:
        if tok.kind == "ident":
            counts[tok.text] = counts.get(tok.text, 0) + 1
    own = _declared(tokens) | {name for name, c in counts.items() if c >= 2}
    explained = context | own | JS_BUILTINS
    affixes: _Affixes | None = None
    found: list[Splice] = []
    for tok in tokens:
        if tok.kind == "bad-number":
            found.append(Splice("number", tok.text, tok.line))
        elif tok.kind == "ident" and tok.text not in explained and len(tok.text) >= 2 * MIN_FRAGMENT:
            if affixes is None:
                affixes = _Affixes(context | own | JS_BUILTINS)
            parts = affixes.split(tok.text)
            if parts:
                found.append(Splice("identifier", tok.text, tok.line, parts))
    return found


def inject_splice(code: str, context_identifiers: Sequence[str], rng: random.Random) -> str:
    """`code` with one identifier occurrence replaced by a weld of two identifier fragments
    that `find_splices` detects (for simulators and tests). Raises ValueError when the code
    offers nothing to splice."""
    tokens = [t for t in js_tokens(code) if t.kind == "ident" and len(t.text) >= 2 * MIN_FRAGMENT]
    pool = sorted({t.text for t in tokens} | {c for c in context_identifiers if len(c) >= 2 * MIN_FRAGMENT})
    if not tokens or not pool:
        raise ValueError("no identifier of >= 6 characters to splice")
    baseline = {(s.kind, s.token) for s in find_splices(code, context_identifiers)}
    for _ in range(200):
        victim = rng.choice(tokens)
        donor = rng.choice(pool)
        a = victim.text[: rng.randint(MIN_FRAGMENT, len(victim.text) - MIN_FRAGMENT)]
        b = donor[rng.randint(MIN_FRAGMENT, len(donor) - MIN_FRAGMENT) :]
        welded = a + b
        if welded == victim.text or not _IDENT_RE.fullmatch(welded):
            continue
        pattern = re.compile(r"(?<![A-Za-z0-9_$])" + re.escape(victim.text) + r"(?![A-Za-z0-9_$])")
        matches = [m for m in pattern.finditer(code)]
        candidates = [m for m in matches if code.count("\n", 0, m.start()) + 1 == victim.line]
        if not candidates:
            continue
        m = candidates[0]
        mutated = code[: m.start()] + welded + code[m.end() :]
        after = {(s.kind, s.token) for s in find_splices(mutated, context_identifiers)}
        if after - baseline:
            return mutated
    raise ValueError("could not produce a detectable splice")
