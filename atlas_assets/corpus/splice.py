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
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple, Sequence

__all__ = ["JS_BUILTINS", "Splice", "find_splices", "inject_splice", "js_tokens"]

MIN_FRAGMENT = 3  # shortest fragment of a two-sided weld
MIN_TRUNCATED = 4  # shortest truncated name (rule 2)
ONE_SIDED = 5  # shortest known fragment of a one-sided weld (rule 4)
NUMBER_FRAGMENT = 2  # shortest digit fragment of a welded integer (rule 8)
DANGLING_SHARED = 4  # prefix/suffix a dangling reference shares with its spliced declaration (rule 5)

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
    DateTimeFormat NumberFormat Collator PluralRules RelativeTimeFormat ListFormat Segmenter
    formatToParts formatRange resolvedOptions supportedLocalesOf dateStyle timeStyle
    timeZone numeric currency minimumFractionDigits maximumFractionDigits
    json text blob arrayBuffer formData ok status statusText headers body signal abort
    aborted redirect credentials randomUUID getRandomValues subtle localStorage
    sessionStorage getItem setItem removeItem navigator location history atob btoa alert
    confirm prompt requestAnimationFrame cancelAnimationFrame matchMedia getComputedStyle
    querySelector querySelectorAll getElementById createElement appendChild textContent
    innerHTML classList dataset value checked disabled __dirname __filename readFile
    writeFile readFileSync writeFileSync existsSync mkdir dirname basename extname Worker
    postMessage onmessage WebSocket send close open FormData append File FileReader
    Image HTMLElement customElements setAttribute getAttribute hasAttribute toggle
    contains replaceWith isSafeInteger parse stringify fromAsync hasOwn findLastIndex
    format
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
    glued: bool = False  # no whitespace, comment or string between it and the token before


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

    last_end = -1  # end offset of the previous token (for `glued`)
    while i < n:
        m = match(code, i)
        kind = m.lastgroup
        if kind == "welded":
            kind = "number"
        i = m.start(kind)
        glued = i == last_end
        if kind == "comment" or kind == "string":
            i = m.end()
        elif kind == "ident":
            append(Token("ident", m.group(kind), line_of(i), glued))
            i = last_end = m.end()
        elif kind == "number":
            append(Token("bad-number" if m.group("welded") else "number", code[i : m.end()], line_of(i), glued))
            i = last_end = m.end()
        elif kind == "tick":
            i = template(i + 1)
        elif kind == "arrow":
            append(Token("punct", "=>", line_of(i), glued))
            i = last_end = m.end()
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
            append(Token("punct", c, line_of(i), glued))
            i += 1
            last_end = i
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


_CONTROL = frozenset({"if", "for", "while", "switch", "catch", "with"})
_OBJECT_AFTER = frozenset({"=", "(", ",", ":", "[", "return", "?", "??", "||", "&&", "...", "yield", "await", "default", "=>"})


@dataclass
class _Roles:
    """What each identifier token is: a declaration (``decl``: binding names, parameters,
    imports, functions, classes, methods, class fields), a ``property`` read or write
    (after ``.``), an object ``key``, or a ``ref`` (a free reference). ``local`` holds the
    indexes of declarations inside a function or block (parameters, local variables)."""

    role: dict[int, str]
    local: set[int]
    imports: set[int] = field(default_factory=set)

    def names(self, tokens: Sequence[Token], role: str) -> set[str]:
        return {tokens[k].text for k, r in self.role.items() if r == role}


def _brace_kinds(tokens: Sequence[Token], pairs: dict[int, int]) -> dict[int, str]:
    """'class' | 'object' | 'pattern' | 'block' for every '{' (and '[' patterns)."""
    kinds: dict[int, str] = {}
    for k, tok in enumerate(tokens):
        if tok.text != "{" or tok.kind != "punct":
            continue
        prev = tokens[k - 1].text if k else ""
        kind = "block"
        back = [t.text for t in tokens[max(0, k - 12) : k]]
        if "class" in back:
            tail = back[len(back) - 1 - back[::-1].index("class") :]
            if not any(t in (";", "{", "}", "=>") for t in tail[1:]) and (len(tail) <= 2 or "extends" in tail):
                kind = "class"
        if kind == "block":
            if prev in ("const", "let", "var"):
                kind = "pattern"
            elif prev in _OBJECT_AFTER and prev != "=>" or not k:
                kind = "object"
        kinds[k] = kind
    return kinds


def _analyse(tokens: Sequence[Token]) -> _Roles:
    n = len(tokens)
    pairs = _pairs(tokens)
    kinds = _brace_kinds(tokens, pairs)
    role: dict[int, str] = {}
    local: set[int] = set()
    # innermost enclosing '{' of every token
    enclosing: list[int | None] = [None] * n
    stack: list[int] = []
    for k, tok in enumerate(tokens):
        enclosing[k] = stack[-1] if stack else None
        if tok.kind == "punct" and tok.text == "{":
            stack.append(k)
        elif tok.kind == "punct" and tok.text == "}" and stack:
            stack.pop()

    def binding_names(lo: int, hi: int, mark: str, is_local: bool) -> None:
        """Names bound by a parameter list or destructuring pattern tokens[lo:hi]: skip
        default values (after '=' up to the next ',' at the same depth) and keys ('a:')."""
        depth = 0
        skipping: list[bool] = [False]
        for i in range(lo, hi):
            t = tokens[i]
            if t.kind == "punct" and t.text in "([{":
                depth += 1
                skipping.append(skipping[-1])
                continue
            if t.kind == "punct" and t.text in ")]}":
                depth -= 1
                if len(skipping) > 1:
                    skipping.pop()
                continue
            if t.text == "=" and t.kind == "punct":
                skipping[-1] = True
                continue
            if t.text == "," and t.kind == "punct":
                skipping[-1] = skipping[-2] if len(skipping) > 1 else False
                continue
            if t.kind != "ident" or skipping[-1]:
                continue
            prev = tokens[i - 1].text if i else ""
            nxt = tokens[i + 1].text if i + 1 < n else ""
            if prev in (".", "?."):
                continue
            if nxt == ":":
                role.setdefault(i, "key")
                continue
            role[i] = mark
            if is_local:
                local.add(i)

    for k, tok in enumerate(tokens):
        prev = tokens[k - 1] if k else None
        nxt = tokens[k + 1] if k + 1 < n else None
        pt = prev.text if prev else ""
        nt = nxt.text if nxt else ""
        brace = enclosing[k]
        inside = kinds.get(brace, "top") if brace is not None else "top"
        if tok.kind == "punct" and tok.text == "(":
            end = pairs.get(k, k)
            after = tokens[end + 1].text if end + 1 < n else ""
            before2 = tokens[k - 2].text if k >= 2 else ""
            if pt == "function" or before2 == "function" or after == "=>":
                binding_names(k + 1, end, "decl", True)
            elif pt == "catch":
                binding_names(k + 1, end, "decl", True)
            elif after == "{" and prev is not None and prev.kind == "ident" and pt not in _CONTROL and inside in ("class", "object"):
                role[k - 1] = "decl"  # method definition
                binding_names(k + 1, end, "decl", True)
            continue
        if tok.kind == "punct" and tok.text in ("{", "[") and pt in ("const", "let", "var"):
            binding_names(k + 1, pairs.get(k, k), "decl", brace is not None)
            continue
        if tok.kind != "ident" or k in role:
            continue
        text = tok.text
        if pt in (".", "?."):
            role[k] = "property"
        elif pt in ("function", "class", "const", "let", "var", "#") or (pt == "as" and text not in ("from",)) or (pt == "*" and k >= 2 and tokens[k - 2].text == "function"):
            role[k] = "decl"
            if brace is not None and pt in ("const", "let", "var", "function"):
                local.add(k)
        elif nt == "=>" and text not in JS_KEYWORDS:
            role[k] = "decl"
            local.add(k)
        elif inside == "class" and (pt in ("{", "}", ";", "static", "get", "set", "async") or (prev is not None and prev.line < tok.line)) and nt in ("=", ";", "(") and text not in JS_KEYWORDS:
            role[k] = "decl"  # class field or method
        elif inside == "object" and nt == ":" and pt in ("{", ","):
            role[k] = "key"
        elif nt == ":" and inside in ("block", "top") and pt in ("{", "}", ";", "") and text not in JS_KEYWORDS:
            role[k] = "decl"  # a statement label
        elif pt in ("break", "continue"):
            role[k] = "label"
        elif inside == "object" and pt in ("get", "set", "async") and nt == "(":
            role[k] = "decl"
        else:
            role[k] = "ref"
    # import clauses: every name between `import` and `from`
    imported: set[int] = set()
    for k, tok in enumerate(tokens):
        if tok.kind == "ident" and tok.text == "import" and (k + 1 < n and tokens[k + 1].text != "("):
            for m in range(k + 1, min(n, k + 300)):
                t = tokens[m]
                if t.text in ("from", ";") or (t.kind == "punct" and t.text == "("):
                    break
                if t.kind == "ident" and t.text not in ("as", "type") and tokens[m - 1].text not in (".",):
                    role[m] = "decl"
                    imported.add(m)
    return _Roles(role, local, imported)


def _declared(tokens: Sequence[Token]) -> set[str]:
    """Names the output declares (bindings, parameters, imports, functions, classes,
    methods, class fields) -- object keys excluded."""
    return _analyse(tokens).names(tokens, "decl")


class _Affixes:
    """Prefix/suffix lookup over the known names. Fragments are >= MIN_FRAGMENT characters
    and may be whole names (a weld often joins a name with all or part of another). Every
    lookup excludes the token being judged, so a name never explains itself."""

    def __init__(self, names: Iterable[str]):
        self.whole: set[str] = set(names)
        self.pre: dict[str, int] = {}
        self.suf: dict[str, int] = {}
        self.proper_pre: dict[str, int] = {}
        self.proper_suf: dict[str, int] = {}
        for name in self.whole:
            for cut in range(MIN_FRAGMENT, len(name) + 1):
                self.pre[name[:cut]] = self.pre.get(name[:cut], 0) + 1
                self.suf[name[-cut:]] = self.suf.get(name[-cut:], 0) + 1
            for cut in range(MIN_TRUNCATED, len(name)):
                self.proper_pre[name[:cut]] = self.proper_pre.get(name[:cut], 0) + 1
                self.proper_suf[name[-cut:]] = self.proper_suf.get(name[-cut:], 0) + 1

    def _has(self, table: dict[str, int], fragment: str, token: str, prefix: bool, proper: bool = False) -> bool:
        count = table.get(fragment, 0)
        if token in self.whole and (token.startswith(fragment) if prefix else token.endswith(fragment)) and (not proper or len(token) > len(fragment)):
            count -= 1
        return count > 0

    def prefix(self, fragment: str, token: str) -> bool:
        return self._has(self.pre, fragment, token, True)

    def suffix(self, fragment: str, token: str) -> bool:
        return self._has(self.suf, fragment, token, False)

    def whole_name(self, fragment: str, token: str) -> bool:
        return fragment in self.whole and fragment != token

    def split(self, token: str, fragment: int = MIN_FRAGMENT, whole: int = 2) -> tuple[str, str] | None:
        """Rule 1: T = A + B, A a prefix (or the whole) of a known name and B a suffix (or
        the whole) of one, each >= `fragment` characters; or two whole names of >= `whole`
        characters (``idid``)."""
        for cut in range(1, len(token)):
            a, b = token[:cut], token[cut:]
            if len(a) >= whole and len(b) >= whole and self.whole_name(a, token) and self.whole_name(b, token):
                return a, b
            if len(a) >= fragment and len(b) >= fragment and self.prefix(a, token) and self.suffix(b, token):
                return a, b
        return None

    def truncated(self, token: str) -> bool:
        """Rule 2: T is a proper prefix or suffix of a known name (a lost token)."""
        return len(token) >= MIN_TRUNCATED and (
            self._has(self.proper_pre, token, token, True, True) or self._has(self.proper_suf, token, token, False, True)
        )

    def digits(self, token: str, whole: int = MIN_FRAGMENT) -> tuple[str, str] | None:
        """Rule 3: a known name (or a prefix of one) followed by digits; a whole name may
        be as short as `whole` characters."""
        m = re.fullmatch(r"(.*?[A-Za-z_$])(\d+)", token)
        if m and ((len(m.group(1)) >= MIN_FRAGMENT and self.prefix(m.group(1), token)) or (len(m.group(1)) >= whole and self.whole_name(m.group(1), token))):
            return m.group(1), m.group(2)
        return None

    def one_sided(self, token: str) -> tuple[str, str] | None:
        """Rule 4: one side is a known name (>= MIN_FRAGMENT chars) or a fragment of one
        (>= ONE_SIDED chars); the other side is anything."""
        for cut in range(MIN_FRAGMENT, len(token)):
            a, b = token[:cut], token[cut:]
            if self.whole_name(a, token) or (len(a) >= ONE_SIDED and self.prefix(a, token)):
                return a, b
        for cut in range(1, len(token) - MIN_FRAGMENT + 1):
            a, b = token[:cut], token[cut:]
            if self.whole_name(b, token) or (len(b) >= ONE_SIDED and self.suffix(b, token)):
                return a, b
        return None


def _compound(token: str) -> bool:
    """Has a word boundary inside: a hump, an underscore or a digit after a letter."""
    return bool(re.search(r"[a-z0-9][A-Z]|_|[A-Za-z]\d|[A-Z]{2}[a-z]", token))


def _repeated(token: str) -> tuple[str, str] | None:
    """Rule 0: a chunk of >= MIN_FRAGMENT characters repeated back to back -- a token
    duplicated at a chunk boundary (``daysBetweenBetween``, ``summariseariseCargos``)."""
    n = len(token)
    for size in range(MIN_FRAGMENT, n // 2 + 1):
        for start in range(0, n - 2 * size + 1):
            if token[start : start + size] == token[start + size : start + 2 * size]:
                return token[: start + size], token[start + size :]
    return None


def _number_fragments(numbers: Iterable[str]) -> tuple[set[str], set[str]]:
    prefixes: set[str] = set()
    suffixes: set[str] = set()
    for number in numbers:
        for cut in range(NUMBER_FRAGMENT, len(number) + 1):
            prefixes.add(number[:cut])
            suffixes.add(number[-cut:])
    return prefixes, suffixes


_PLAIN_INT = re.compile(r"[1-9]\d*")
_ROUND = re.compile(r"[1-9]\d?0+|[1-9]\d?5?0*")
_LEGACY_OCTAL = re.compile(r"0\d+(?:\.\d*)?(?:[eE][+-]?\d+)?")
_BAD_SEPARATOR = re.compile(r".*(?:__|_$|_\.|\._|[eE]_|_[eE]|^0_|[xXoObB]_)")


def _number_problem(text: str) -> str | None:
    """Why a numeric literal cannot be intact JavaScript (module code is strict mode)."""
    if _LEGACY_OCTAL.fullmatch(text):
        return "leading zero (not allowed in strict mode)"
    if "_" in text and _BAD_SEPARATOR.match(text):
        return "misplaced numeric separator"
    if text.endswith("n") and not re.fullmatch(r"(?:0[xXoObB][\da-fA-F_]+|0|[1-9][\d_]*)n", text):
        return "not a valid BigInt literal"
    return None


def find_splices(code: str, context_identifiers: Iterable[str]) -> list[Splice]:
    """Every spliced token of a JavaScript module; empty when the generation is intact.

    A name is *resolved* when it is a context identifier, declared by the output
    (binding, parameter, import, function, class, method, class field) or a JavaScript
    keyword/global/common member. Properties and object keys used twice or more are taken
    as real fields. Every other identifier occurrence is judged by its role:

    * a property, key or free reference used once, and an unused local declaration
      (a parameter or local binding that nothing reads) -- rules 1-3:
        1. T = A + B, A a prefix (or whole) and B a suffix (or whole) of known names,
           >= MIN_FRAGMENT characters each, or two whole names (``formatCurrInvoiceDate``,
           ``itemitem``, ``returnindex``);
        2. T a proper prefix or suffix (>= MIN_TRUNCATED chars) of a known name -- a lost
           token (``BerthExpo``, ``ructor``);
        3. T = a known name (or prefix of one) followed by digits (``medianBy476``);
    * a free reference that resolves to nothing (a ReferenceError in a module) -- also
        4. one side a known name or a >= ONE_SIDED-character fragment of one, the other
           side anything (a weld with a foreign fragment: ``linesExhibit``);
        5. and, used repeatedly, it is the name an unused declaration was spliced from
           (they share a >= MIN_FRAGMENT-character prefix or suffix: ``const linesX = ...``
           followed by ``lines.push(...)``).
    numbers -- a numeric literal that
        6. runs into identifier characters (``1500ms``) or follows an identifier, number
           or closing bracket with no space (``item.47``, ``0.85.25``);
        7. is not valid strict-mode JavaScript (``0730``, ``1__000``);
        8. is a plain integer of >= 4 digits, used once, not round, that splits into a
           prefix and a suffix (>= NUMBER_FRAGMENT digits each) of the output's other
           numbers (``1500250`` beside ``1500`` and ``250``).
    """
    tokens = js_tokens(code)
    roles = _analyse(tokens)
    context = set(context_identifiers)
    counts: dict[str, int] = {}
    number_counts: dict[str, int] = {}
    for tok in tokens:
        if tok.kind == "ident":
            counts[tok.text] = counts.get(tok.text, 0) + 1
        elif tok.kind == "number":
            number_counts[tok.text] = number_counts.get(tok.text, 0) + 1
    declared = roles.names(tokens, "decl")
    resolved = context | declared | JS_BUILTINS
    fields = {tokens[k].text for k, r in roles.role.items() if r in ("property", "key") and counts[tokens[k].text] >= 2}
    affixes = _Affixes(resolved | fields)
    unused_decls = {tokens[k].text for k, r in roles.role.items() if r == "decl" and counts[tokens[k].text] == 1} - context - JS_BUILTINS
    imports = roles.imports
    number_affixes: tuple[set[str], set[str]] | None = None
    found: list[Splice] = []
    for k, tok in enumerate(tokens):
        prev = tokens[k - 1] if k else None
        if tok.kind == "bad-number":
            found.append(Splice("number", tok.text, tok.line))
            continue
        if tok.kind == "number":
            if tok.glued and prev is not None and (prev.kind in ("ident", "number") or prev.text in (")", "]")):
                found.append(Splice("number", prev.text + tok.text, tok.line, (prev.text, tok.text)))
                continue
            if _number_problem(tok.text):
                found.append(Splice("number", tok.text, tok.line))
                continue
            text = tok.text
            if number_counts[text] == 1 and len(text) >= 2 * NUMBER_FRAGMENT and _PLAIN_INT.fullmatch(text) and not _ROUND.fullmatch(text):
                if number_affixes is None:
                    number_affixes = _number_fragments(t for t in number_counts if re.fullmatch(r"\d+", t))
                prefixes, suffixes = number_affixes
                for cut in range(NUMBER_FRAGMENT, len(text) - NUMBER_FRAGMENT + 1):
                    a, b = text[:cut], text[cut:]
                    if a in prefixes and b in suffixes and _has_other(number_counts, a, b, text):
                        found.append(Splice("number", text, tok.line, (a, b)))
                        break
            continue
        if tok.kind != "ident":
            continue
        text = tok.text
        role = roles.role.get(k, "ref")
        if text in context or text in JS_BUILTINS:
            continue
        parts: tuple[str, str] | None = None
        if role == "decl":
            if counts[text] > 1:
                continue
            # an unused declaration: repeated chunks and digit tails anywhere; a local
            # binding or an import the project does not export is judged like a reference
            parts = _repeated(text) or affixes.digits(text)
            if parts is None and (k in roles.local or (k in imports and context)):
                parts = affixes.split(text, whole=1 if k in roles.local else 2) or (((text, "") if affixes.truncated(text) else None))
                if parts is None and k in roles.local:
                    parts = affixes.one_sided(text)
        elif role in ("property", "key"):
            if text in declared or counts[text] > 1:
                continue
            # the output's own field names: only strong evidence (compound names such as
            # totalCount are legitimately built from known words)
            parts = _repeated(text) or affixes.split(text, fragment=len(text), whole=2) or affixes.digits(text, whole=2)
            if parts is None and role == "property" and _compound(text) and affixes.truncated(text):
                parts = (text, "")
        else:
            if text in declared:
                continue
            # a free reference that resolves to nothing
            parts = _repeated(text) or affixes.split(text, whole=1) or affixes.digits(text, whole=1)
            if parts is None and affixes.truncated(text):
                parts = (text, "")
            if parts is None:
                parts = affixes.one_sided(text) or _dangling(text, unused_decls)
        if parts is not None:
            found.append(Splice("identifier", text, tok.line, parts))
    return found


def _dangling(name: str, unused: set[str]) -> tuple[str, str] | None:
    """Rule 5: an unresolved, repeated reference and the unused declaration spliced from it."""
    for other in sorted(unused):
        if other != name and (other[:DANGLING_SHARED] == name[:DANGLING_SHARED] or other[-DANGLING_SHARED:] == name[-DANGLING_SHARED:]):
            return name, other
    return None


def _has_other(counts: dict[str, int], a: str, b: str, text: str) -> bool:
    """a is a prefix and b a suffix of numbers other than `text` itself."""
    return any(n != text and n.startswith(a) for n in counts) and any(n != text and n.endswith(b) for n in counts)


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
