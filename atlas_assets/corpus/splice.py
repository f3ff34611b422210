"""Spliced-token detection for eval-longgen-integrity-v1 (the ``splice`` scorer).

Standard library only, so a dataset generator or a bench can import it by path.

A *splice* is a token welded together from two fragments, the visible symptom of a
serving defect that corrupts roughly one token in several thousand: the token stream
jumps to another position (a KV-cache block or a batch neighbour mixed in), or a token is
repeated or lost at a streaming chunk boundary. On a JavaScript module this module
reports identifiers and numbers that such damage produced (the contents of strings,
template text, comments and regular-expression literals are not judged, nor are lines of
prose a model wrote around the module).

How a token is judged depends on its *role*, read from the module's structure (brace
context: class body, object literal, block; parameter lists; import clauses):
declarations (bindings, parameters, imports, functions, classes, methods, class fields,
labels), property names (after ``.``), object keys, and free references. A name is
*resolved* when it is a context identifier (``meta.context_identifiers``: what the
project in the prompt defines), declared by the output, or a JavaScript keyword, global
or common member name (`JS_BUILTINS`). "Known" names are the resolved ones plus property
and key names the output uses twice or more; fragments are compared against them. The
rules are listed on `find_splices`.

Measured, not assumed: bench/splice_bench.py writes intact modules against generated
projects and the same modules with splices at approximate sub-word token boundaries
(atlas_assets/corpus/splice_corpus.py), and reports detection per kind and the false-
positive rate; tests/corpus/test_g2_suites.py runs a smaller corpus. Known blind spots
(see the bench): a splice that turns a number into another valid number (``40`` ->
``400``, ``2`` -> ``22``), a splice on the only occurrence of a declared name (an exported
function's name changed where it is defined and nowhere else), and object keys the output
invents (``{ valueArtist: ... }``). The rules assume the output uses the project and
JavaScript's (and Node's) built-ins: members of a package's bindings (``import fs from
'node:fs'``, ``require('path')``) and environment variables are never judged, but a
third-party API reached another way can look like a weld (bench/splice_bench.py
--real-code measures that on real packages). Wrong-but-intact code is clean by
design (the other evals measure correctness); the rules that flag unresolvable free
references and imports of names the project does not export will also flag a model that
uses a helper it never defined -- code that would throw a ReferenceError anyway.
"""

from __future__ import annotations

import functools
import os
import random
import re
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple, Sequence

__all__ = ["IDENTIFIER_RE", "JS_BUILTINS", "Splice", "find_splices", "inject_splice", "js_tokens", "without_prose"]

MIN_FRAGMENT = 3  # shortest fragment of a two-sided weld
MIN_TRUNCATED = 4  # shortest truncated name
ONE_SIDED = 4  # shortest known fragment of a one-sided weld (foreign donor)
NUMBER_FRAGMENT = 2  # shortest digit fragment of a welded integer
LONG_SEGMENT = 10  # a camelCase word this long is checked for two known words run together
PROPERTY_HEAD = 5  # shortest known head of a welded property name
GLUED_WORD = 5  # shortest lower-case known name glued onto another fragment
FIELD_HEAD = 4  # shortest known head of a lower-case property weld (customer + records)
FIELD_TAIL = 4  # shortest lower-case tail of one
DANGLING_SHARED = 4  # characters a dangling reference shares with its spliced declaration

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
    format trimLeft trimRight replaceChildren formatRangeToParts toLocaleUpperCase
    toLocaleLowerCase getUTCMilliseconds toWellFormed isWellFormed
    Function DOMException CustomEvent ErrorEvent MessageEvent TransformStream ReadableStream WritableStream CompressionStream
    DecompressionStream BroadcastChannel MessageChannel MessagePort EventEmitter
    alloc allocUnsafe isBuffer compare platform arch pid ppid version versions hrtime bigint
    memoryUsage uptime getuid getgid geteuid kill emitWarning exitCode on once off emit
    listeners removeAllListeners pipe end destroy resume pause readable writable
    readdir stat lstat mkdirSync rmSync statSync readdirSync createReadStream
    createWriteStream unlink rename copyFile access promises resolve relative sep
    searchParams pathname hostname href origin protocol host port hash userAgent
    """.split()
)

IDENTIFIER_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")  # a whole JavaScript identifier (ASCII)
_PUNCT_BEFORE_REGEX = frozenset("( , = : [ ! & | ? { } ; + - * % < > ~ ^".split()) | {"=>", "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await"}


class Token(NamedTuple):
    kind: str  # "ident" | "number" | "bad-number" | "string" | "punct"
    text: str
    line: int
    glued: bool = False  # no whitespace or comment between it and the token before
    start: int = -1  # offset in the source


@dataclass(frozen=True)
class Splice:
    kind: str  # "identifier" | "number"
    token: str
    line: int
    fragments: tuple[str, str] | None = None
    reason: str = ""  # set by the structural checks (syntax, namespaces, object shapes)

    def describe(self) -> str:
        if self.reason:
            return f"line {self.line}: damaged {self.kind} {self.token!r} ({self.reason})"
        if self.kind == "number":
            if self.fragments:
                return f"line {self.line}: spliced number {self.token!r} = {self.fragments[0]!r} + {self.fragments[1]!r}"
            return f"line {self.line}: malformed or welded number {self.token!r}"
        a, b = self.fragments or ("", "")
        if not b:
            return f"line {self.line}: truncated or unresolvable identifier {self.token!r}"
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
    """Identifiers, numbers, strings and punctuation of JavaScript source. Comments are
    skipped; a regular-expression literal leaves one ``/regex/`` token and each stretch of
    template text one "`" token (template ${...} expressions are tokenised), so what stood
    between two words is never lost."""
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
    if code.startswith("#!"):
        i = code.find("\n") if "\n" in code else n  # a hashbang line
    while i < n:
        m = match(code, i)
        kind = m.lastgroup
        if kind == "welded":
            kind = "number"
        i = m.start(kind)
        glued = i == last_end
        if kind == "comment":
            i = m.end()
        elif kind == "string":
            append(Token("string", m.group(kind), line_of(i), False, i))
            i = last_end = m.end()
        elif kind == "ident":
            append(Token("ident", m.group(kind), line_of(i), glued, i))
            i = last_end = m.end()
        elif kind == "number":
            append(Token("bad-number" if m.group("welded") else "number", code[i : m.end()], line_of(i), glued, i))
            i = last_end = m.end()
        elif kind == "tick":
            append(Token("punct", "`", line_of(i), False, i))  # template text: a boundary, not a token
            i = template(i + 1)
        elif kind == "arrow":
            append(Token("punct", "=>", line_of(i), glued, i))
            i = last_end = m.end()
        elif kind == "end":
            break
        else:
            c = m.group(kind)
            if c == "/" and (not tokens or tokens[-1].text in _PUNCT_BEFORE_REGEX):
                r = _REGEX_LITERAL_RE.match(code, i)
                append(Token("punct", "/regex/", line_of(i), False, i))
                i = r.end() if r and r.end() > i + 1 else i + 1
                continue
            if c == "{":
                brace_stack.append("{")
            elif c == "}" and brace_stack:
                if brace_stack.pop() == "`":
                    append(Token("punct", "`", line_of(i), False, i))
                    i = template(i + 1)
                    continue
            append(Token("punct", c, line_of(i), glued, i))
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
_SHORT_KEYWORDS = ("new", "let", "var", "for", "try", "this", "case", "else", "void", "with", "null", "true")
_LONG_KEYWORDS = tuple(sorted((k for k in JS_KEYWORDS if len(k) >= 5 and k.islower() and k not in ("undefined", "arguments", "package", "private", "protected", "public", "implements", "interface")), key=len, reverse=True))
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
    external: set[str] = field(default_factory=set)  # bindings of a package ('node:fs', 'semver'), not the project

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


def _analyse(tokens: Sequence[Token], pairs: dict[int, int]) -> _Roles:
    n = len(tokens)
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
            generator = before2 == "*" and k >= 3 and tokens[k - 3].text == "function"
            if pt == "function" or before2 == "function" or generator or after == "=>":
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
        spread = pt == "." and k >= 3 and tokens[k - 2].text == "." and tokens[k - 3].text == "."
        if pt in (".", "?.") and not spread:
            role[k] = "property"
        elif pt == "#" and k >= 2 and tokens[k - 2].text in (".", "?."):
            role[k] = "private"  # this.#name: must be declared in the class body
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
        elif nt == ":" and inside in ("block", "top") and text not in JS_KEYWORDS and k + 2 < n and tokens[k + 2].text in ("for", "while", "do", "switch"):
            role[k] = "decl"  # a statement label
        elif pt in ("break", "continue"):
            role[k] = "label"
        elif inside == "object" and pt in ("get", "set", "async") and nt == "(":
            role[k] = "decl"
        else:
            role[k] = "ref"
    # import clauses: every name between `import` and `from`
    imported: set[int] = set()
    external: set[str] = set()
    for k, tok in enumerate(tokens):
        if tok.kind == "ident" and tok.text == "import" and (k + 1 < n and tokens[k + 1].text != "("):
            names: list[str] = []
            for m in range(k + 1, min(n, k + 300)):
                t = tokens[m]
                if t.text in ("from", ";") or (t.kind == "punct" and t.text == "("):
                    if t.text == "from" and m + 1 < n and _package_specifier(tokens[m + 1]):
                        external.update(names)
                    break
                if t.kind == "ident" and t.text not in ("as", "type") and tokens[m - 1].text not in (".",):
                    role[m] = "decl"
                    imported.add(m)
                    names.append(t.text)
        elif tok.text == "require" and k + 3 < n and tokens[k + 1].text == "(" and _package_specifier(tokens[k + 2]) and tokens[k - 1].text == "=" and k >= 2:
            bound = tokens[k - 2]  # const fs = require('fs'); const { join } = require('path')
            if bound.kind == "ident":
                external.add(bound.text)
            elif bound.text == "}":
                opening = next((j for j in range(k - 3, max(-1, k - 60), -1) if tokens[j].text == "{"), None)
                if opening is not None:
                    external.update(t.text for t in tokens[opening + 1 : k - 2] if t.kind == "ident")
    _declarator_lists(tokens, role, local, enclosing)
    return _Roles(role, local, imported, external)


def _outside_member(tokens: Sequence[Token], k: int, external: set[str]) -> bool:
    """tokens[k] is a member of something the project does not define: a package's
    binding (``fs.lstat``, ``fs.promises.readFile``) or an environment variable
    (``process.env.COLORTERM``)."""
    if tokens[k - 2].text == "env":
        return True
    j = k
    while j >= 2 and tokens[j - 1].text in (".", "?.") and tokens[j - 2].kind == "ident":
        j -= 2
    return tokens[j].text in external and not (j and tokens[j - 1].text in (".", "?.", "#"))


def _package_specifier(tok: Token) -> bool:
    """A module specifier string naming a package or built-in module, not a project file."""
    return tok.kind == "string" and len(tok.text) > 2 and tok.text[1] not in "./"


_STATEMENT_STARTS = frozenset({"let", "const", "var", "function", "class", "return", "if", "for", "while", "do", "switch", "try", "throw", "export", "import", "break", "continue"})


def _declarator_lists(tokens: Sequence[Token], role: dict[int, str], local: set[int], enclosing: list[int | None]) -> None:
    """The names after the first in ``let a = 1, b = 2`` and ``for (let i = 0, n = ...)``:
    a ',' at the statement's own bracket depth starts the next declarator."""
    n = len(tokens)
    for k, tok in enumerate(tokens):
        if tok.kind != "ident" or tok.text not in ("let", "const", "var"):
            continue
        depth = 0
        j = k + 1
        while j < n:
            t = tokens[j]
            if t.kind == "punct" and t.text in "([{":
                depth += 1
            elif t.kind == "punct" and t.text in ")]}":
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and (t.text == ";" or (t.kind == "ident" and t.text in _STATEMENT_STARTS and j > k + 1)):
                break
            elif depth == 0 and t.text == "," and j + 1 < n:
                nxt = tokens[j + 1]
                if nxt.kind == "ident" and nxt.text not in JS_KEYWORDS:
                    role[j + 1] = "decl"
                    if enclosing[k] is not None:
                        local.add(j + 1)
            j += 1


_FIRST_WORD_RE = re.compile(r"[a-z]{2,}(?=[A-Z])")
_CONSTANT_RE = re.compile(r"[A-Z][A-Z0-9_]*")
_WORD_RE = re.compile(r"[A-Z]?[a-z]+")


class _Affixes:
    """Prefix/suffix lookup over the known names. Fragments are >= MIN_FRAGMENT characters
    and may be whole names (a weld often joins a name with all or part of another). Every
    lookup excludes the token being judged, so a name never explains itself."""

    def __init__(self, names: Iterable[str], base: "_Affixes | None" = None):
        names = set(names)
        self.whole: set[str] = names | base.whole if base else names
        self.pre: dict[str, int] = dict(base.pre) if base else {}
        self.suf: dict[str, int] = dict(base.suf) if base else {}
        self.proper_pre: dict[str, int] = dict(base.proper_pre) if base else {}
        self.proper_suf: dict[str, int] = dict(base.proper_suf) if base else {}
        self.word_pre: dict[str, int] = dict(base.word_pre) if base else {}  # prefixes that end where a word of the name ends
        self.hump_suf: dict[str, int] = dict(base.hump_suf) if base else {}  # suffixes from a camelCase hump (Zone of timeZone)
        self.mid_suf: set[str] = set(base.mid_suf) if base else set()  # lower-case suffixes cut inside a word (ructor)
        self.first_words: set[str] = set(base.first_words) if base else set()  # first camelCase words (by of byObserver)
        self.words: set[str] = set(base.words) if base else set()  # camelCase words of the names, lower-cased
        self.caps: set[str] = set(base.caps) if base else set()  # words of CONSTANT_NAMES, lower-cased
        for name in names - base.whole if base else names:
            self._add(name)

    def _add(self, name: str) -> None:
        for cut in range(MIN_FRAGMENT, len(name) + 1):
            self.pre[name[:cut]] = self.pre.get(name[:cut], 0) + 1
            self.suf[name[-cut:]] = self.suf.get(name[-cut:], 0) + 1
        for cut in range(MIN_TRUNCATED, len(name)):
            self.proper_pre[name[:cut]] = self.proper_pre.get(name[:cut], 0) + 1
            self.proper_suf[name[-cut:]] = self.proper_suf.get(name[-cut:], 0) + 1
        for cut in range(MIN_TRUNCATED, len(name) + 1):
            if cut == len(name) or name[cut].isupper() or name[cut] == "_":
                self.word_pre[name[:cut]] = self.word_pre.get(name[:cut], 0) + 1
        for cut in range(1, len(name) - 1):
            if name[cut].isupper() and (name[cut - 1].islower() or name[cut - 1].isdigit()):
                self.hump_suf[name[cut:]] = self.hump_suf.get(name[cut:], 0) + 1
            elif name[cut].islower() and name[cut - 1].islower() and len(name) - cut >= 4:
                self.mid_suf.add(name[cut:])
        first = _FIRST_WORD_RE.match(name)
        if first:
            self.first_words.add(first.group())
        if _CONSTANT_RE.fullmatch(name):
            self.caps.update(w.lower() for w in name.split("_") if len(w) >= MIN_FRAGMENT)
        else:
            self.words.update(w.lower() for w in _WORD_RE.findall(name) if len(w) >= MIN_FRAGMENT)

    @staticmethod
    @functools.lru_cache(maxsize=1)
    def builtins() -> "_Affixes":
        """The tables of `JS_BUILTINS`, built once: every output's tables start from them."""
        return _Affixes(JS_BUILTINS)

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def for_context(context: frozenset[str]) -> "_Affixes":
        """The built-ins' and a project's tables (outputs written against one project --
        several runs, or a bench's variants -- share them)."""
        return _Affixes(context - JS_BUILTINS, _Affixes.builtins())

    def _has(self, table: dict[str, int], fragment: str, token: str, prefix: bool, proper: bool = False) -> bool:
        count = table.get(fragment, 0)
        if token in self.whole and (token.startswith(fragment) if prefix else token.endswith(fragment)) and (not proper or len(token) > len(fragment)):
            count -= 1
        return count > 0

    def hump_suffix(self, fragment: str) -> bool:
        """A proper suffix of a known name that starts at one of its camelCase humps."""
        return self.hump_suf.get(fragment, 0) > 0

    def word_prefix(self, fragment: str, token: str) -> bool:
        return self._has(self.word_pre, fragment, token, True)

    def prefix(self, fragment: str, token: str) -> bool:
        return self._has(self.pre, fragment, token, True)

    def suffix(self, fragment: str, token: str) -> bool:
        return self._has(self.suf, fragment, token, False)

    def whole_name(self, fragment: str, token: str) -> bool:
        return fragment in self.whole and fragment != token

    def split(self, token: str, fragment: int = MIN_FRAGMENT, whole: int = 2, camel: bool = True) -> tuple[str, str] | None:
        """T = A + B, A a prefix (or the whole) of a known name and B a suffix (or
        the whole) of one, each >= `fragment` characters; or two whole names of >= `whole`
        characters (``idid``). With camel=False a lower-to-Upper junction never counts."""
        for cut in range(1, len(token)):
            a, b = token[:cut], token[cut:]
            if not camel and a[-1].islower() and b[0].isupper():
                continue  # lower-to-Upper is how camelCase joins words (sinceDate)
            if len(a) >= whole and len(b) >= whole and self.whole_name(a, token) and self.whole_name(b, token):
                return a, b
            if len(a) >= fragment and len(b) >= fragment and self.prefix(a, token) and self.suffix(b, token):
                return a, b
        return None

    def truncated(self, token: str) -> bool:
        """T is a proper prefix or suffix of a known name (a lost token)."""
        return len(token) >= MIN_TRUNCATED and (
            self._has(self.proper_pre, token, token, True, True) or self._has(self.proper_suf, token, token, False, True)
        )

    def short_truncated(self, token: str) -> bool:
        """A proper prefix or suffix of a known name, at any length (for unresolved refs)."""
        return any(name != token and len(name) > len(token) and (name.startswith(token) or name.endswith(token)) for name in self.whole)

    def digits(self, token: str, whole: int = MIN_FRAGMENT) -> tuple[str, str] | None:
        """A known name (or a prefix of one) followed by digits; a whole name may
        be as short as `whole` characters."""
        m = re.fullmatch(r"(.*?[A-Za-z_$])(\d+)", token)
        if m and ((len(m.group(1)) >= MIN_FRAGMENT and self.prefix(m.group(1), token)) or (len(m.group(1)) >= whole and self.whole_name(m.group(1), token))):
            stem = m.group(1)
            if any(n != token and n.startswith(stem) and n[len(stem) :].isdigit() for n in self.whole):
                return None  # step1, step2, ...: a numbering scheme, not a weld
            return stem, m.group(2)
        return None

    def one_sided(self, token: str) -> tuple[str, str] | None:
        """One side is a known name (>= MIN_FRAGMENT chars) or a fragment of one
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


def _style_break(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """A lower-case name running into an ALL-CAPS constant fragment that a known name ends
    with (``storeVERSION``, ``push_EVENTS``, ``sumByADDED``): camelCase and SNAKE_CASE do
    not mix inside one legitimate identifier (acronyms such as toJSON are shorter)."""
    m = re.fullmatch(r"(.*[a-z0-9])(_?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)", token)
    if not m:
        return None
    tail = m.group(2)
    letters = tail.replace("_", "")
    if len(letters) < (3 if tail.startswith("_") else 5) and "_" not in tail.strip("_"):
        if not (len(letters) == 4 and letters.lower() in affixes.caps and affixes.suffix(tail, token)):
            return None
    if affixes.suffix(tail, token) or affixes.suffix(tail.lstrip("_"), token) or re.search(r"[A-Z0-9]_[A-Z0-9]", tail):
        return m.group(1), tail
    return None


def _glued_word(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """A camelCase name with a known lower-case name glued on without its capital
    (``lastTestedsize``, ``minutesLateHistogramnew``): camelCase capitalises every word
    after the first, so a known name of >= 3 letters starting in lower case, right after a
    multi-word prefix that ends where a word of a known name ends (or whose last word is a
    word of a known name), is where two fragments met. (The word-end condition keeps
    ``loadRepairs`` = ``loadRe`` + ``pairs`` out.)"""
    for cut in range(len(token) - MIN_FRAGMENT, 2, -1):
        a, b = token[:cut], token[cut:]
        if b[0].islower() and a[-1].islower() and re.search(r"[a-z][A-Z]", a) and affixes.whole_name(b, token) and (
            affixes.word_prefix(a, token) or _last_word(a) in affixes.words
        ):
            return a, b
    for cut in range(MIN_FRAGMENT, len(token) - MIN_FRAGMENT + 1):
        a, b = token[:cut], token[cut:]
        # a whole known camelCase name glued on in lower case (isTempCHighdistanceKm)
        if b[0].islower() and a[-1].islower() and re.search(r"[a-z][A-Z]", b) and affixes.whole_name(b, token):
            return a, b
    return None


def _last_word(name: str) -> str:
    """The last camelCase word of a name, lower-cased ('' when it does not end in one)."""
    m = re.search(r"[A-Z]?[a-z]+$", name)
    return m.group().lower() if m else ""


def _glued_lower(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """Two lower-case fragments: the head of a known name up to the end of one of its
    words (>= MIN_TRUNCATED letters) and a whole known name of >= GLUED_WORD letters
    (``declaredvalue``, ``includeconst``). Shorter tails are left alone: username,
    filename and timeout are ordinary names."""
    for cut in range(MIN_TRUNCATED, len(token) - GLUED_WORD + 1):
        a, b = token[:cut], token[cut:]
        if a[-1].islower() and b[0].islower() and affixes.whole_name(b, token) and affixes.word_prefix(a, token):
            return a, b
    return None


def _glued_keyword(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """A fragment of a known name with a JavaScript keyword of >= 5 letters glued on
    (``snapreturn``, ``MAXconst``): no legitimate name ends in a lower-case keyword."""
    for kw in _LONG_KEYWORDS:
        if token.endswith(kw) and len(token) - len(kw) >= MIN_FRAGMENT:
            a = token[: -len(kw)]
            if affixes.prefix(a, token):
                return a, kw
    for kw in _SHORT_KEYWORDS:  # new, let, for, ...: only after a whole word of a known name
        a = token[: -len(kw)]
        if token.endswith(kw) and len(a) >= MIN_TRUNCATED and a[-1].islower() and affixes.word_prefix(a, token):
            return a, kw
    return None


def _underscores(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """A CONSTANT_NAME with a doubled or trailing underscore that is a known name with the
    separator repeated or cut (``FLAG__MASK``, ``MAX_``)."""
    if "__" in token.strip("_"):
        single = re.sub(r"_{2,}", "_", token)
        if single != token and (affixes.whole_name(single, token) or re.fullmatch(r"[A-Z0-9_]+", token)):
            return single, "_"  # CONSTANT__NAME: a separator token repeated
    if re.fullmatch(r"[A-Z][A-Z0-9]{4,}", token):
        for cut in range(2, len(token) - 1):
            if affixes.whole_name(token[:cut] + "_" + token[cut:], token):
                return token[:cut], token[cut:]  # CONSTANTNAME: the separator token lost
    if token.endswith("_") and not token.startswith("_") and len(token) > 2 and affixes.short_truncated(token):
        return token, ""
    return None


def _repeated_word(token: str) -> tuple[str, str] | None:
    """A capitalised word repeated back to back (``updatedAtAt``, ``planNightOfOfChecks``),
    or a name's first word repeated capitalised (``stationStation``)."""
    m = re.search(r"([A-Z][a-z0-9]+)\1(?![a-z])", token)
    if m and m.start() > 0:
        return token[: m.start() + len(m.group(1))], token[m.start() + len(m.group(1)) :]
    m = re.match(r"([a-z]{3,})([A-Z][a-z]+)", token)  # stationStation
    if m and m.group(1) == m.group(2).lower():
        return m.group(1), token[len(m.group(1)) :]
    return None


def _long_segment(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """One camelCase word of >= LONG_SEGMENT letters that is two known words run together
    (``snapshotmembers``, ``kegBatchescallSign``): the words are the camelCase parts of
    the known names, compared case-insensitively; a keyword tail may be 3 letters."""
    for m in re.finditer(r"[A-Z]?[a-z]+", token):
        seg = m.group()
        if len(seg) < LONG_SEGMENT:
            continue
        low = seg.lower()
        for cut in range(MIN_TRUNCATED, len(low) - MIN_FRAGMENT + 1):
            u, v = low[:cut], low[cut:]
            if u in affixes.words and (v in affixes.words and len(v) >= MIN_TRUNCATED or v in _SHORT_KEYWORDS or v in _LONG_KEYWORDS):
                return token[: m.start() + cut], token[m.start() + cut :]
    return None


def _caps_words(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """ALL-CAPS words run together or mixed with a lower-case name: ``FLAGVERSION`` (two
    known constant words with no separator), ``FLAG_length`` (a constant's head and a
    known lower-case name)."""
    if re.fullmatch(r"[A-Z]{6,}", token):
        for cut in range(MIN_FRAGMENT, len(token) - MIN_FRAGMENT + 1):
            if token[:cut].lower() in affixes.caps and token[cut:].lower() in affixes.caps:
                return token[:cut], token[cut:]
    m = re.fullmatch(r"([A-Z][A-Z0-9]*_)([a-z][A-Za-z0-9]*)", token)
    if m and affixes.whole_name(m.group(2), token):
        return m.group(1), m.group(2)
    return None


def _property_weld(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """A property read T = A + B where A is a >= PROPERTY_HEAD-character prefix of a known
    name and B a >= MIN_FRAGMENT-character suffix of one, joined where camelCase would not
    join two words (``pilotcompareTelescopes``, ``weightpresentNumber``, ``FLAG_MASKitems``);
    an ordinary lower-to-Upper junction (``sinceDate``) is never enough."""
    for cut in range(PROPERTY_HEAD, len(token) - MIN_FRAGMENT + 1):
        a, b = token[:cut], token[cut:]
        if affixes.prefix(a, token) and affixes.suffix(b, token):
            if a[-1].islower() and b[0].isupper():
                continue  # an ordinary camelCase junction (sinceDate): no evidence of a weld
            if a[-1].islower() and b[0].islower() and not affixes.word_prefix(a, token):
                continue  # the cut falls inside one lower-case word: no evidence of a weld
            return a, b
    return None


def _builtin_call(token: str) -> tuple[str, str] | None:
    """A called, undeclared, once-used method whose name is a built-in method name with
    junk appended (``lines.push_EVENTS(...)``, ``text.replacefromObject(...)``): the junk
    starts in lower case or is ALL CAPS, unlike a camelCase extension (findByTitle)."""
    for cut in range(len(token) - 1, MIN_FRAGMENT - 1, -1):
        a, b = token[:cut], token[cut:]
        if a in JS_BUILTINS and a not in JS_KEYWORDS and (b[0].islower() or b[0] in "_$" or b[0].isdigit() or (len(b) > 1 and b.isupper())):
            return a, b
    return None


def _truncated_import(token: str, context: set[str]) -> tuple[str, str] | None:
    """An imported name the project does not export but that is a proper prefix or suffix
    of one that it does (``import { By } from './query.js'`` for uniqueBy)."""
    for name in sorted(context):
        if len(name) > len(token) >= 2 and (name.startswith(token) or name.endswith(token)):
            return token, name
    return None


def _compound(token: str) -> bool:
    """Has a word boundary inside: a hump, an underscore or a digit after a letter."""
    return bool(re.search(r"[a-z0-9][A-Z]|_|[A-Za-z]\d|[A-Z]{2}[a-z]", token))


def _repeated(token: str) -> tuple[str, str] | None:
    """A chunk of >= MIN_FRAGMENT characters repeated back to back -- a token
    duplicated at a chunk boundary (``daysBetweenBetween``, ``summariseariseCargos``)."""
    n = len(token)
    for size in range(MIN_FRAGMENT, n // 2 + 1):
        for start in range(0, n - 2 * size + 1):
            if token[start : start + size] == token[start + size : start + 2 * size]:
                return token[: start + size], token[start + size :]
    return None


_FUNCTION_MEMBERS = frozenset({"prototype", "name", "length", "call", "apply", "bind", "toString"})
NAMESPACE_MEMBERS: dict[str, frozenset[str]] = {
    name: frozenset(members.split()) | (_FUNCTION_MEMBERS if callable_ else frozenset())
    for name, callable_, members in (
        ("Math", False, "abs acos acosh asin asinh atan atanh atan2 cbrt ceil clz32 cos cosh exp expm1 floor fround f16round hypot imul log log1p log10 log2 max min pow random round sign sin sinh sqrt sumPrecise tan tanh trunc E LN10 LN2 LOG10E LOG2E PI SQRT1_2 SQRT2"),
        ("JSON", False, "parse stringify rawJSON isRawJSON"),
        ("Reflect", False, "apply construct defineProperty deleteProperty get getOwnPropertyDescriptor getPrototypeOf has isExtensible ownKeys preventExtensions set setPrototypeOf"),
        ("console", False, "Console log info warn error debug trace table assert dir dirxml group groupCollapsed groupEnd time timeEnd timeLog timeStamp count countReset clear profile profileEnd"),
        ("performance", False, "now mark measure timeOrigin getEntries getEntriesByName getEntriesByType clearMarks clearMeasures clearResourceTimings toJSON timerify eventLoopUtilization nodeTiming memory timing navigation markResourceTiming"),
        ("Intl", False, "Collator DateTimeFormat DisplayNames DurationFormat ListFormat Locale NumberFormat PluralRules RelativeTimeFormat Segmenter getCanonicalLocales supportedValuesOf"),
        ("Number", True, "EPSILON MAX_SAFE_INTEGER MIN_SAFE_INTEGER MAX_VALUE MIN_VALUE NaN NEGATIVE_INFINITY POSITIVE_INFINITY isFinite isInteger isNaN isSafeInteger parseFloat parseInt"),
        ("Object", True, "assign create defineProperties defineProperty entries freeze fromEntries getOwnPropertyDescriptor getOwnPropertyDescriptors getOwnPropertyNames getOwnPropertySymbols getPrototypeOf groupBy hasOwn is isExtensible isFrozen isSealed keys preventExtensions seal setPrototypeOf values"),
        ("Array", True, "from fromAsync isArray of"),
        ("Promise", True, "all allSettled any race reject resolve try withResolvers"),
        ("String", True, "fromCharCode fromCodePoint raw"),
        ("Symbol", True, "asyncDispose asyncIterator dispose hasInstance isConcatSpreadable iterator match matchAll replace search species split toPrimitive toStringTag unscopables for keyFor"),
        ("Date", True, "now parse UTC"),
    )
}
# Methods of built-in values whose name, with more letters after it, is not a built-in
# method too: ``list.filterBy(...)`` or ``text.localeCompareString(...)`` on a name the
# project does not define is a weld. (get, set, has, find, ... prefix ordinary method names.)
BUILTIN_METHOD_HEADS = frozenset(
    """
    push pop shift unshift slice splice concat join reverse sort indexOf lastIndexOf includes
    filter map reduce reduceRight forEach some every fill flat flatMap toSorted toReversed
    toSpliced findIndex findLast findLastIndex charAt charCodeAt codePointAt endsWith startsWith
    padStart padEnd repeat replace replaceAll split substring toLowerCase toUpperCase trim
    trimStart trimEnd localeCompare normalize matchAll toFixed toPrecision toISOString
    toLocaleString toLocaleDateString toLocaleTimeString getTime getFullYear getMonth getDate
    getDay getHours getMinutes getSeconds getUTCFullYear getUTCMonth getUTCDate getUTCHours
    format formatToParts
    """.split()
)
_METHOD_HEADS_LONGEST_FIRST = tuple(sorted(BUILTIN_METHOD_HEADS, key=lambda m: (-len(m), m)))
_CONTEXTUAL = JS_KEYWORDS | {"using", "accessor", "type"}


def _caps_run(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """A CONSTANT_NAME running straight into lower-case letters (``TANK_PLANNERmean``,
    ``SIGNAL_RECONCILERCarriages``, ``FLAGtotal``) or cut after its separator
    (``WARN_``): SNAKE_CASE constants never continue in lower case or end in ``_``."""
    m = re.fullmatch(r"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)([a-z].*)", token)
    if m is None:
        m = re.fullmatch(r"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[A-Z])([a-z].*)", token)
    if m is None:
        m = re.fullmatch(r"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_)([a-z].*)", token)
    if m:
        return m.group(1), m.group(2)
    m = re.fullmatch(r"([A-Z][A-Z0-9]{2,})([a-z]{3}.*)", token)
    if m and (any(n.startswith(m.group(1) + "_") for n in affixes.whole if n.isupper()) or affixes.whole_name(m.group(2), token)):
        return m.group(1), m.group(2)  # FLAGtotal, FLAGstore (HTMLElement: 'lement' is no name)
    if re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_", token):
        return token, ""
    m = re.fullmatch(r"([A-Z][A-Z0-9_]{3,})([A-Z][a-z].*)", token)
    if m and affixes.whole_name(m.group(1), token):
        return m.group(1), m.group(2)  # EPSILONMember: a known constant and a word (HTMLElement: HTML is none)
    return None


def _field_weld(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """A property read T = A + B with A a whole known name of >= 2 characters and B three
    or more characters of something else, joined in lower case where camelCase would put a
    capital (``item.customerrecords``, ``hub.ontopic(...)``): read once, defined by neither
    the project nor the output. (A capital at the junction is how options are named --
    ``options.sinceDate`` -- and is no evidence.)"""
    for cut in range(len(token) - FIELD_TAIL, FIELD_HEAD - 1, -1):
        a, b = token[:cut], token[cut:]
        if a[-1].islower() and re.match(r"[a-z]{%d}" % FIELD_TAIL, b) and a in affixes.whole and a not in JS_KEYWORDS:
            return a, b
    return None


def _lower_function_name(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """A function or method name whose last word is two words run together in lower case:
    the first word of a known camelCase name (or a whole known name) and a known name, word
    or keyword of >= 3 letters (``bymoment``, ``totalitem``, ``getsize``, ``diffnew``,
    ``summariseTreesoverdue``). Functions in a camelCase codebase capitalise every word."""
    m = re.search(r"[a-z]+$", token)
    if m is None or len(m.group()) < 5:
        return None
    start = m.start()
    tail = m.group()
    for cut in range(2, len(tail) - 2):
        a, b = token[: start + cut], tail[cut:]
        if (a in affixes.whole or a in affixes.first_words) and (b in affixes.whole or b in affixes.words or b in JS_KEYWORDS):
            return a, b
    return None


def _function_name(tokens: Sequence[Token], k: int) -> bool:
    """tokens[k] (a declaration) names a function: ``function X``, ``function* X``,
    ``const X = (...) =>``, or a method (``X(...) {``)."""
    prev = tokens[k - 1].text if k else ""
    if prev == "function" or (prev == "*" and k >= 2 and tokens[k - 2].text == "function"):
        return True
    after = [t.text for t in tokens[k + 1 : k + 4]]
    if after[:1] == ["("]:
        return True
    return prev == "const" and after[:1] == ["="] and (after[1:2] in (["("], ["async"], ["function"]) or after[2:3] == ["=>"])


_FUNCTION_NAME_KEYWORD_TAILS = tuple(
    "static return export import const async await yield typeof default extends finally continue function switch while throw".split()
)


def _keyword_tail(token: str) -> tuple[str, str] | None:
    """A function name that ends in a lower-case keyword of >= 5 letters after >= 3 letters
    of its own (``preparestatic``, ``summariseexport``)."""
    for keyword in _FUNCTION_NAME_KEYWORD_TAILS:
        if token.endswith(keyword) and len(token) - len(keyword) >= 3 and token[-len(keyword) - 1].isalpha():
            return token[: -len(keyword)], keyword
    return None


def _pascal_function(tokens: Sequence[Token], pairs: dict[int, int], k: int) -> bool:
    """A function named in PascalCase that never uses ``this``: PascalCase is the
    convention for constructors, and a constructor function sets up ``this``."""
    if not (re.match(r"[A-Z][a-z]", tokens[k].text) and _function_name(tokens, k)):
        return False
    opening = next((j for j in range(k + 1, min(len(tokens), k + 8)) if tokens[j].text == "("), None)
    if opening is None:
        return False
    after = pairs.get(opening, opening) + 1
    if after < len(tokens) and tokens[after].text == "=>":
        after += 1
    if after >= len(tokens) or tokens[after].text != "{":
        return True  # an arrow function returning an expression: no `this` of its own
    return not any(t.text == "this" for t in tokens[after : pairs.get(after, after) + 1])


def _mid_word_suffix(token: str, affixes: "_Affixes") -> bool:
    """A lower-case name of >= 4 letters that is the tail of a known name cut inside a word
    (``ructor`` of constructor)."""
    return token in affixes.mid_suf


def _project_field_weld(token: str, affixes: "_Affixes", context: set[str], props: set[str]) -> tuple[str, str] | None:
    """A property read T = A + B, B capitalised, where A is a field of the project that the
    output also reads as a property (``item.priceCentsAt`` beside ``item.priceCents``). A
    head the project does not define is no evidence: options are named that way
    (``options.sinceDate``)."""
    for cut in range(len(token) - 2, 2, -1):
        a, b = token[:cut], token[cut:]
        if b[0].isupper() and a in context and a in props and a != token:
            return a, b
    return None


_GLUED_KEYWORD_TAILS = frozenset("if const var new return export import this null true false await yield async function typeof else catch while".split())


def _welded_camel_word(token: str, affixes: "_Affixes") -> tuple[str, str] | None:
    """The last word of a camelCase name with a lower-case known name of >= 5 letters or a
    keyword run onto it (``weightKgHistogramlength``, ``doseBatchesconst``,
    ``isYearGroupif``): the word's own part has >= 4 letters. (Short tails are left
    alone: Filename, Hostname and Keymap are ordinary words.)"""
    m = re.search(r"(?<=[a-z0-9])[A-Z][a-z]+$", token)
    if m is None:
        return None
    word = m.group()
    for cut in range(4, len(word) - 1):
        tail = word[cut:]
        if tail in _GLUED_KEYWORD_TAILS or (len(tail) >= 5 and affixes.whole_name(tail, token)):
            return token[: m.start() + cut], tail
    return None


def _short_repeat(token: str) -> tuple[str, str] | None:
    """A two-letter lower-case head repeated before a capitalised word (``bybyTeacher``)."""
    m = re.fullmatch(r"([a-z]{2})\1([A-Z].*)", token)
    return (m.group(1), m.group(1) + m.group(2)) if m else None


def _member_of_namespace(tokens: Sequence[Token], k: int, declared: set[str]) -> tuple[str, str] | None:
    """``Math.minController``, ``performance.nowEnd``: a member a built-in namespace
    object does not have (the namespace name not rebound by the output)."""
    if k < 2 or tokens[k - 1].text != ".":
        return None
    owner = tokens[k - 2]
    if owner.kind != "ident" or owner.text not in NAMESPACE_MEMBERS or owner.text in declared:
        return None
    if k >= 3 and tokens[k - 3].text in (".", "?.", "#"):
        return None
    text = tokens[k].text
    if text in NAMESPACE_MEMBERS[owner.text]:
        return None
    head = next((m for m in sorted(NAMESPACE_MEMBERS[owner.text], key=len, reverse=True) if text.startswith(m) or m.startswith(text)), "")
    return (head, text[len(head) :]) if head and text.startswith(head) else (text, "")


def _method_weld(token: str) -> tuple[str, str] | None:
    """A called method that is a built-in method with a tail welded on (``filterBy``,
    ``mapOn``, ``localeCompareString``), a built-in method cut short (``pad``) or cut
    short with another tail (``padMath``, ``toISOtree``), or get/set/has run into a
    lower-case word (``setunit``)."""
    for head in _METHOD_HEADS_LONGEST_FIRST:
        if len(token) > len(head) and token.startswith(head):
            return head, token[len(head) :]
    if len(token) >= 3 and any(len(m) > len(token) and m.startswith(token) for m in BUILTIN_METHOD_HEADS):
        return token, ""
    for head in _METHOD_HEADS_LONGEST_FIRST:  # padMath, toISOtree: a cut-down method and a tail
        cut = len(os.path.commonprefix((head, token)))
        if 3 <= cut < min(len(head), len(token)) and token[:cut] not in ("find", "get", "set", "has"):
            if token[cut].isupper() or (cut >= 4 and len(token) - cut >= 3) or len(token) - cut >= 4:
                return token[:cut], token[cut:]
    m = re.fullmatch(r"(get|set|has)([a-z]{4,})", token)  # setunit
    return (m.group(1), m.group(2)) if m else None


def _syntax_breaks(tokens: Sequence[Token], resolved: set[str]) -> list[Splice]:
    """Damage that leaves the module unparseable, reported at the word it hit: two words
    on one line with nothing between them (``for (const x ofControlled after)``), a
    function declaration's name not followed by its parameter list, a closing bracket
    that closes nothing (``attach(hub)`` -> ``attachhub)``)."""
    found: list[Splice] = []
    n = len(tokens)
    stack: list[str] = []
    openers = {")": "(", "]": "[", "}": "{"}
    last_word: Token | None = None
    for k, tok in enumerate(tokens):
        if tok.kind in ("ident", "number", "bad-number"):
            prev = tokens[k - 1] if k else None
            if (
                prev is not None and prev.kind in ("ident", "number") and prev.line == tok.line
                and prev.text not in _CONTEXTUAL and tok.text not in _CONTEXTUAL
            ):
                victim = tok if (tok.kind == "ident" and tok.text not in resolved) or prev.text in resolved else prev
                found.append(Splice("identifier" if victim.kind == "ident" else "number", victim.text, victim.line, (prev.text, tok.text), "two words with nothing between them"))
            if tok.kind == "ident" and prev is not None and (prev.text == "function" or (prev.text == "*" and k >= 2 and tokens[k - 2].text == "function")):
                if k + 1 < n and tokens[k + 1].text != "(":
                    found.append(Splice("identifier", tok.text, tok.line, (tok.text, ""), "a function name without a parameter list"))
            last_word = tok
            continue
        if tok.kind != "punct":
            continue
        if tok.text == "." and _lone_dot(tokens, k):
            found.append(Splice("number", ".", tok.line, None, "a '.' with nothing to read a member of"))
        if tok.text in "([{":
            stack.append(tok.text)
        elif tok.text in openers:
            if stack and stack[-1] == openers[tok.text]:
                stack.pop()
            else:
                if last_word is not None and last_word.line == tok.line:
                    found.append(Splice("identifier" if last_word.kind == "ident" else "number", last_word.text, last_word.line, (last_word.text, ""), f"a {tok.text!r} that closes nothing follows it"))
                if stack and openers[tok.text] in stack:
                    while stack and stack[-1] != openers[tok.text]:
                        stack.pop()
                    stack.pop()
    return found


_BEFORE_VALUE = frozenset("=(,:;[{+-*/%<>!&|~^") | {"return", "=>"}


def _lone_dot(tokens: Sequence[Token], k: int) -> bool:
    """tokens[k] is a '.' where a value must be (``const LIMIT = .``): not a member access,
    optional chaining (``?.``) or a spread (``...``)."""
    prev = tokens[k - 1] if k else None
    nxt = tokens[k + 1] if k + 1 < len(tokens) else None
    if (prev is not None and prev.text == ".") or (nxt is not None and nxt.text == "."):
        return False
    if prev is not None and prev.text == "?" and tokens[k].glued:
        return False
    return prev is None or prev.text in _BEFORE_VALUE


def _object_shapes(tokens: Sequence[Token], pairs: dict[int, int], roles: "_Roles") -> list[Splice]:
    """``const LABELS = Object.freeze({ ok: ..., warn: ... })`` then ``LABELS.okGallery``:
    a read of a key that a constant object literal of the output does not have (the object
    never written to, spread into or rebound)."""
    n = len(tokens)
    shapes: dict[str, set[str]] = {}
    spoiled: set[str] = set()
    for k, tok in enumerate(tokens):
        if tok.kind != "ident" or roles.role.get(k) != "decl" or k == 0 or tokens[k - 1].text != "const" or k + 2 >= n or tokens[k + 1].text != "=":
            continue
        start = k + 2
        if [t.text for t in tokens[start : start + 5]] == ["Object", ".", "freeze", "(", "{"]:
            start += 4
        if tokens[start].text != "{" or tokens[start].kind != "punct":
            continue
        keys = _literal_keys(tokens, start, pairs.get(start, start))
        if tok.text in shapes or keys is None:
            spoiled.add(tok.text)
        else:
            shapes[tok.text] = keys
    if not shapes:
        return []
    reads: list[int] = []
    for k, tok in enumerate(tokens):
        if tok.kind != "ident" or tok.text not in shapes or (k and tokens[k - 1].text in (".", "?.", "#")):
            continue
        nxt = tokens[k + 1].text if k + 1 < n else ""
        if roles.role.get(k) == "decl" and not (k and tokens[k - 1].text == "const"):
            spoiled.add(tok.text)  # a parameter or binding of the same name shadows it
        elif nxt == "[":
            spoiled.add(tok.text)  # computed access: keys not checkable
        elif nxt in (".", "?.") and k + 2 < n and tokens[k + 2].kind == "ident":
            if _assigned(tokens, k + 3):
                spoiled.add(tok.text)
            else:
                reads.append(k + 2)
        elif k >= 2 and tokens[k - 1].text == "(" and tokens[k - 2].text in ("assign", "defineProperty", "defineProperties"):
            spoiled.add(tok.text)
    found = []
    for k in reads:
        owner, key = tokens[k - 2].text, tokens[k].text
        if owner in spoiled or key in shapes[owner] or key in _OBJECT_MEMBERS:
            continue
        found.append(Splice("identifier", key, tokens[k].line, (key, ""), f"{owner} has no key {key!r}"))
    return found


_OPERATOR_CHARS = frozenset("+-*/%&|^<>?!=")
_COMPARISONS = frozenset({"==", "===", "!=", "!==", "<=", ">="})


def _assigned(tokens: Sequence[Token], j: int) -> bool:
    """Whether the operator starting at tokens[j] assigns (=, +=, ??=, ++, ...)."""
    op = ""
    while j < len(tokens) and tokens[j].kind == "punct" and tokens[j].text in _OPERATOR_CHARS and (not op or tokens[j].glued):
        op += tokens[j].text
        j += 1
    return op in ("++", "--") or (op.endswith("=") and op not in _COMPARISONS and not op.startswith("=="))


_OBJECT_MEMBERS = frozenset({"constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "toString", "valueOf"})


def _literal_keys(tokens: Sequence[Token], lo: int, hi: int) -> set[str] | None:
    """The keys of the object literal tokens[lo..hi] (braces included), or None when one is
    computed, quoted, numeric or spread in."""
    keys: set[str] = set()
    depth = 0
    expect_key = True
    for i in range(lo + 1, hi):
        t = tokens[i]
        if t.kind == "punct" and t.text in "([{`":
            if t.text != "`":
                depth += 1
            if depth == 1 and expect_key and t.text != "`":
                return None  # a computed key
            continue
        if t.kind == "punct" and t.text in ")]}":
            depth -= 1
            continue
        if depth:
            continue
        if t.text == ",":
            expect_key = True
            continue
        if not expect_key:
            continue
        if t.kind == "ident" and t.text in ("get", "set", "async") and i + 1 < hi and tokens[i + 1].kind == "ident":
            continue
        if t.kind != "ident":
            return None  # '...spread', a quoted or numeric key
        keys.add(t.text)
        expect_key = False
    return keys


_PLAIN_INT = re.compile(r"[1-9]\d*")
_ROUND = re.compile(r"[1-9]\d?0+|[1-9]\d?5?0*")
_LEGACY_OCTAL = re.compile(r"0\d+(?:\.\d*)?(?:[eE][+-]?\d+)?")
_BAD_HEX_SEPARATOR = re.compile(r".*(?:__|_$|_n$|^0[xX]_)")
_BAD_SEPARATOR = re.compile(r".*(?:__|_$|_\.|\._|[eE]_|_[eE]|^0_|[xXoObB]_)")


def _welded_integer(text: str, counts: dict[str, int]) -> tuple[str, str] | None:
    """A plain integer of >= 2 * NUMBER_FRAGMENT digits that splits into a prefix
    and a suffix (>= NUMBER_FRAGMENT digits each) of the output's other integers. (Shorter
    integers, or looser fragments, flag ordinary constants: measured, not worth it.)"""
    if len(text) < 2 * NUMBER_FRAGMENT:
        return None
    others = [t for t in counts if t != text and re.fullmatch(r"\d+", t)]
    for cut in range(NUMBER_FRAGMENT, len(text) - NUMBER_FRAGMENT + 1):
        a, b = text[:cut], text[cut:]
        if any(o.startswith(a) for o in others) and any(o.endswith(b) for o in others):
            return a, b
    return None


def _number_problem(text: str) -> str | None:
    """Why a numeric literal cannot be intact JavaScript (module code is strict mode), or
    cannot be one a programmer writes."""
    if re.fullmatch(r"\d+\.(?:[eE][+-]?\d+)?", text):
        return "a decimal point with no decimals"
    if re.fullmatch(r"[\d_.]+(?:[eE][+-]?\d+)?", text) and "_" not in text:
        try:
            if float(text) == float("inf"):
                return "overflows to Infinity"
        except ValueError:
            return "not a number"
    if re.fullmatch(r"\d*\.\d*[1-9]\d*0", text):
        return "a trailing zero after the decimals"
    if _LEGACY_OCTAL.fullmatch(text):
        return "leading zero (not allowed in strict mode)"
    if "_" in text and (_BAD_HEX_SEPARATOR if text[:2] in ("0x", "0X") else _BAD_SEPARATOR).match(text):
        return "misplaced numeric separator"
    integer = text[2:].rstrip("n") if text[:2] in ("0x", "0X") else re.split(r"[.eEn]", re.sub(r"^0[oObB]", "", text))[0]
    sizes = {len(group) for group in integer.split("_")[1:]}
    if len(sizes) > 1:
        return "digit groups of different sizes"
    if sizes and text[:2] not in ("0x", "0X", "0b", "0B", "0o", "0O") and not sizes <= {3, 4}:
        return "decimal digits grouped other than by three or four"
    if re.fullmatch(r"[\d_.]+[eE][+-]?\d+", text) and re.search(r"[1-9]", text.split("e")[0].split("E")[0]):
        try:
            if float(text.replace("_", "")) == 0.0:
                return "underflows to zero"
        except ValueError:
            pass
    if text.endswith("n") and not re.fullmatch(r"(?:0[xXoObB][\da-fA-F_]+|0|[1-9][\d_]*)n", text):
        return "not a valid BigInt literal"
    return None


_PROSE_LINE_RE = re.compile(
    r"""^[ \t]*(?:
      \#{1,6}[ \t].*                                        # a markdown heading
    | (?:[-*+][ \t]+|\d+[.)][ \t]+)?[A-Z][\w'’-]*(?:,?[ \t][\w'’-]+){2,}[.:!?]?   # a sentence or list item
    )[ \t]*$""",
    re.M | re.X,
)


def without_prose(code: str) -> str:
    """`code` with the lines of natural language a model wrote around it blanked (a
    preamble, a heading, a closing remark): a capitalised run of three or more plain words,
    optionally a list item, ending in at most one . : ! or ?. No line of JavaScript has that
    shape (adjacent words are a syntax error), so no code is lost; line numbers are kept."""
    return _PROSE_LINE_RE.sub("", code)


def find_splices(code: str, context_identifiers: Iterable[str]) -> list[Splice]:
    """Every spliced token of a JavaScript module; empty when the generation is intact.

    Any unexplained identifier (not a context name or built-in; for declarations: never
    used; for properties and keys: used once and not declared) is flagged when it shows a
    weld's shape:

    * two case styles meeting -- camelCase running into an ALL_CAPS fragment of a known
      constant (``storeVERSION``, ``push_EVENTS``), a known lower-case name glued on
      without its capital (``lastTestedsize``, ``isTempCHighdistanceKm``,
      ``declaredvalue``), a keyword glued on (``snapreturn``, ``notesnew``), constant
      words run together or separators doubled or lost (``FLAGVERSION``, ``FLAG__MASK``,
      ``VEHICLEADDED``), a camelCase word of >= LONG_SEGMENT letters that is two known
      words (``snapshotmembers``);
    * a repeated chunk or word (``daysBetweenBetween``, ``updatedAtAt``).

    Further, by role:

    * free references that resolve to nothing (a ReferenceError in a module):
      T = A + B with A a prefix (or whole) and B a suffix (or whole) of known names
      (``formatCurrInvoiceDate``, ``itemitem``, ``returnindex``); a proper prefix or suffix
      of a known name (``BerthExpo``); a known name plus digits (``medianBy476``); a known
      name or a >= ONE_SIDED-character fragment of one on either side (a foreign fragment:
      ``linesExhibit``); the name an unused declaration was spliced from (they share
      DANGLING_SHARED characters: ``const linesX = []`` then ``lines.push(...)``);
    * unused local bindings and parameters: the same rules; imports of names the project
      does not export: welds and truncations of the ones it does; any unused declaration:
      a digit tail (``isLoaves8``);
    * properties and keys (the output's own field names, so only strong evidence: compound
      names such as ``totalCount`` are legitimately built from known words): two whole
      known names (``fieldid``), a digit tail, a truncated compound name or a cut-down
      version of a property read elsewhere (``item.cost`` beside ``item.costCents``), a
      >= PROPERTY_HEAD-character head and a tail of known names meeting across a word
      boundary, a capitalised member that is the tail of a built-in (``Object.Entries``),
      a built-in method with junk appended when called (``lines.push_EVENTS(...)``);
    * a private name (``this.#x``) or a ``break``/``continue`` label that is not declared
      (both are early SyntaxErrors in real code);
    * property reads: a lower-case weld onto a known name of >= FIELD_HEAD letters
      (``item.customerrecords``), a project field the output reads with a capitalised tail
      (``item.priceCentsAt`` beside ``item.priceCents``), ``.length`` with a tail, a called
      built-in method with a tail or cut short (``list.filterBy(...)``, ``.pad(...)``),
      and a capitalised name cut at a hump (``item.Km``, ``{ Zone: 'UTC' }``);
    * function names: unused PascalCase functions that never use ``this`` (not
      constructors: ``function Tickets(tickets)``, a camelCase name cut at a hump),
      lower-case runs of two known words (``bymoment``, ``getsize``), a keyword of >= 5
      letters run on (``preparestatic``), the tail of a known name cut inside a word
      (``ructor()``);
    * any name: a known constant followed by a word (``EPSILONMember``), the last
      camelCase word with a known name or keyword run on (``weightKgHistogramlength``).

    Structure (each finding carries a ``reason``): a member a built-in namespace does not
    have (``Math.minController``, ``performance.nowEnd``); a key that a constant object
    literal of the output does not define (``LABELS.okGallery``); two words on one line
    with nothing between them, a function name without its parameter list, a closing
    bracket that closes nothing -- damage that leaves the module unparseable.

    Numbers: a literal running into identifier characters (``1500ms``) or following an
    identifier, number or closing bracket with no space (``item.47``, ``0.85.25``); one
    that is not valid strict-mode JavaScript or not one a programmer writes (``0730``,
    ``1__000``, ``5e310``, ``0.``, ``2.10``, digit groups of mixed or odd sizes such as
    ``86_400400_000`` and ``65_53519``, ``1e-960`` which underflows to zero); a once-used, non-round integer of >= 4 digits
    that splits into a prefix and a suffix of the output's other integers (``1500250``).
    """
    tokens = js_tokens(without_prose(code))
    pairs = _pairs(tokens)
    roles = _analyse(tokens, pairs)
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
    affixes = _Affixes((declared | fields) - context - JS_BUILTINS, _Affixes.for_context(frozenset(context)))
    unused_decls = {tokens[k].text for k, r in roles.role.items() if r == "decl" and counts[tokens[k].text] == 1} - JS_BUILTINS
    imports = roles.imports
    privates = {tokens[k].text for k, r in roles.role.items() if r == "decl" and k and tokens[k - 1].text == "#"}
    props = {tokens[k].text for k, r in roles.role.items() if r == "property"}
    labels = {tokens[k].text for k, r in roles.role.items() if r == "decl" and k + 1 < len(tokens) and tokens[k + 1].text == ":"}
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
            if number_counts[text] == 1 and _PLAIN_INT.fullmatch(text) and not _ROUND.fullmatch(text):
                parts = _welded_integer(text, number_counts)
                if parts:
                    found.append(Splice("number", text, tok.line, parts))
            continue
        if tok.kind != "ident":
            continue
        text = tok.text
        role = roles.role.get(k, "ref")
        if role == "property":
            parts = _member_of_namespace(tokens, k, declared)
            if parts is not None:
                found.append(Splice("identifier", text, tok.line, parts, f"{tokens[k - 2].text} has no member {text!r}"))
                continue
        if text in context or text in JS_BUILTINS:
            continue
        if role == "property" and _outside_member(tokens, k, roles.external):
            continue
        parts = (
            _style_break(text, affixes) or _glued_word(text, affixes) or _glued_lower(text, affixes)
            or _glued_keyword(text, affixes) or _underscores(text, affixes) or _repeated_word(text)
            or _long_segment(text, affixes) or _caps_words(text, affixes) or _caps_run(text, affixes)
            or _short_repeat(text) or _welded_camel_word(text, affixes)
        )
        if parts is not None:
            pass
        elif role == "private":
            if text in privates:
                continue
            parts = (text, "") # an undeclared private name is an early SyntaxError
        elif role == "decl":
            if counts[text] > 1:
                continue
            # an unused declaration: repeated chunks and digit tails anywhere; a local
            # binding, or an import of a name the project does not export, is judged
            # like a reference
            parts = _repeated(text) or affixes.digits(text, whole=2 if k in roles.local else MIN_FRAGMENT)
            if parts is None and k in roles.local:
                parts = affixes.split(text, whole=1) or (((text, "") if affixes.truncated(text) else None)) or affixes.one_sided(text)
            elif parts is None and k in imports and context:
                parts = affixes.split(text) or affixes.one_sided(text) or _truncated_import(text, context)
            if parts is None and _pascal_function(tokens, pairs, k):
                parts = (text, "")  # function Tickets(tickets): a camelCase name cut at a hump
            if parts is None and k not in roles.local and _function_name(tokens, k):
                parts = _lower_function_name(text, affixes) or _keyword_tail(text) or ((text, "") if _mid_word_suffix(text, affixes) else None)
            if parts is None and k in roles.local:
                parts = _field_weld(text, affixes) or (affixes.digits(text, whole=1) if re.search(r"\d{3}$", text) else None)
        elif role in ("property", "key"):
            if text in declared or counts[text] > 1:
                continue
            # the output's own field names: only strong evidence (compound names such as
            # totalCount are legitimately built from known words)
            parts = _repeated(text) or affixes.split(text, fragment=len(text), whole=2, camel=False) or affixes.digits(text, whole=2)
            if parts is None and role == "property":
                parts = _property_weld(text, affixes)
            if parts is None and role == "property" and text[0].isupper() and affixes.truncated(text) and not (k >= 2 and tokens[k - 2].text == "new"):
                parts = (text, "")  # Object.Entries, Number.Finite: a cut built-in member
            if parts is None and role == "property" and _compound(text) and affixes.truncated(text):
                parts = (text, "")
            if parts is None and text[0].isupper() and affixes.hump_suffix(text) and not (k >= 2 and tokens[k - 2].text == "new"):
                parts = (text, "")  # item.Km, { Zone: ... }: a camelCase name cut at a hump
            if parts is None and role == "property" and len(text) >= MIN_FRAGMENT:
                # a cut-down version of a property the output reads elsewhere (item.cost
                # beside item.costCents)
                longer = sorted(p for p in props if p != text and len(p) > len(text) and (p.startswith(text) or p.endswith(text)))
                if longer:
                    parts = (text, longer[0])
            nxt = tokens[k + 1] if k + 1 < len(tokens) else None
            if parts is None and role == "property" and nxt is not None and nxt.text == "(":
                parts = _builtin_call(text) or _method_weld(text)
            if parts is None and role == "property":
                parts = _field_weld(text, affixes) or _project_field_weld(text, affixes, context, props)
            if parts is None and role == "property" and re.fullmatch(r"length[A-Z].*", text):
                parts = ("length", text[6:])  # list.lengthValue: no field is named after .length
        elif role == "label":
            if text in labels:
                continue
            parts = (text, "")  # break/continue to an undeclared label is a SyntaxError
        else:
            if text in declared:
                continue
            # a free reference that resolves to nothing
            parts = _repeated(text) or affixes.split(text, whole=1) or affixes.digits(text, whole=1)
            if parts is None and (affixes.truncated(text) or (len(text) >= 2 and affixes.short_truncated(text))):
                parts = (text, "")
            if parts is None and re.fullmatch(r"_+\d+", text):
                parts = ("_", text.lstrip("_"))  # the digits of a number cut after its separator
            if parts is None:
                parts = affixes.one_sided(text) or _field_weld(text, affixes) or _dangling(text, unused_decls)
        if parts is not None:
            found.append(Splice("identifier", text, tok.line, parts))
    seen = {(s.token, s.line) for s in found}
    for extra in _syntax_breaks(tokens, resolved) + _object_shapes(tokens, pairs, roles):
        if (extra.token, extra.line) not in seen:
            seen.add((extra.token, extra.line))
            found.append(extra)
    found.sort(key=lambda s: s.line)
    return found


def _dangling(name: str, unused: set[str]) -> tuple[str, str] | None:
    """An unresolved reference and the unused declaration spliced from it (sharing a prefix or suffix)."""
    for other in sorted(unused):
        if other != name and (other[:DANGLING_SHARED] == name[:DANGLING_SHARED] or other[-DANGLING_SHARED:] == name[-DANGLING_SHARED:]):
            return name, other
    return None


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
        if welded == victim.text or not IDENTIFIER_RE.fullmatch(welded):
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
