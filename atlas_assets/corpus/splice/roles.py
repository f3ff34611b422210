"""What each identifier of a module is: its role, and the names JavaScript supplies.

* the names every module may use without defining them: `JS_KEYWORDS`, `JS_BUILTINS`
  (keywords, globals, common member names of the language, the browser and Node), the
  members of the built-in namespace objects (`NAMESPACE_MEMBERS`: ``Math``, ``JSON``,
  ``Intl`` ...), the built-in methods a welded tail is checked against
  (`BUILTIN_METHOD_HEADS`) and ``Object.prototype``'s members;
* `_analyse`: the role of every identifier token, read from the module's structure
  (brace context -- class body, object literal, pattern, block -- parameter lists,
  declarator lists, import clauses): a declaration (bindings, parameters, imports,
  functions, classes, methods, class fields, labels), a ``property`` (after ``.``), an
  object ``key``, a ``private`` name, a ``label`` or a free ``ref``; which declarations
  are local to a function or block; and the *external* bindings -- names bound from a
  package or built-in module (``import fs from 'node:fs'``, ``require('path')``), whose
  members are never judged (`_outside_member`);
* `_function_name`: whether a declaration names a function.

The project context (``meta.context_identifiers``) is not read here: `detection`
combines it with the declarations and the built-ins into the resolved and known names.
Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .tokens import Token

__all__ = ["BUILTIN_METHOD_HEADS", "JS_BUILTINS", "JS_KEYWORDS", "NAMESPACE_MEMBERS"]


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
        elif (
            pt in ("function", "class", "const", "let", "var", "#")
            or (pt == "as" and text not in ("from",))
            or (pt == "*" and k >= 2 and tokens[k - 2].text == "function")
        ):
            role[k] = "decl"
            if brace is not None and pt in ("const", "let", "var", "function"):
                local.add(k)
        elif nt == "=>" and text not in JS_KEYWORDS:
            role[k] = "decl"
            local.add(k)
        elif (
            inside == "class"
            and (pt in ("{", "}", ";", "static", "get", "set", "async") or (prev is not None and prev.line < tok.line))
            and nt in ("=", ";", "(")
            and text not in JS_KEYWORDS
        ):
            role[k] = "decl"  # class field or method
        elif inside == "object" and nt == ":" and pt in ("{", ","):
            role[k] = "key"
        elif (
            nt == ":"
            and inside in ("block", "top")
            and text not in JS_KEYWORDS
            and k + 2 < n
            and tokens[k + 2].text in ("for", "while", "do", "switch")
        ):
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
        elif (
            tok.text == "require"
            and k + 3 < n
            and tokens[k + 1].text == "("
            and _package_specifier(tokens[k + 2])
            and tokens[k - 1].text == "="
            and k >= 2
        ):
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


_STATEMENT_STARTS = frozenset(
    {
        "let",
        "const",
        "var",
        "function",
        "class",
        "return",
        "if",
        "for",
        "while",
        "do",
        "switch",
        "try",
        "throw",
        "export",
        "import",
        "break",
        "continue",
    }
)


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


_FUNCTION_MEMBERS = frozenset({"prototype", "name", "length", "call", "apply", "bind", "toString"})
NAMESPACE_MEMBERS: dict[str, frozenset[str]] = {
    name: frozenset(members.split()) | (_FUNCTION_MEMBERS if callable_ else frozenset())
    for name, callable_, members in (
        (
            "Math",
            False,
            "abs acos acosh asin asinh atan atanh atan2 cbrt ceil clz32 cos cosh exp expm1 floor fround f16round hypot imul log log1p log10 log2 max min pow random round sign sin sinh sqrt sumPrecise tan tanh trunc E LN10 LN2 LOG10E LOG2E PI SQRT1_2 SQRT2",
        ),
        ("JSON", False, "parse stringify rawJSON isRawJSON"),
        (
            "Reflect",
            False,
            "apply construct defineProperty deleteProperty get getOwnPropertyDescriptor getPrototypeOf has isExtensible ownKeys preventExtensions set setPrototypeOf",
        ),
        (
            "console",
            False,
            "Console log info warn error debug trace table assert dir dirxml group groupCollapsed groupEnd time timeEnd timeLog timeStamp count countReset clear profile profileEnd",
        ),
        (
            "performance",
            False,
            "now mark measure timeOrigin getEntries getEntriesByName getEntriesByType clearMarks clearMeasures clearResourceTimings toJSON timerify eventLoopUtilization nodeTiming memory timing navigation markResourceTiming",
        ),
        (
            "Intl",
            False,
            "Collator DateTimeFormat DisplayNames DurationFormat ListFormat Locale NumberFormat PluralRules RelativeTimeFormat Segmenter getCanonicalLocales supportedValuesOf",
        ),
        (
            "Number",
            True,
            "EPSILON MAX_SAFE_INTEGER MIN_SAFE_INTEGER MAX_VALUE MIN_VALUE NaN NEGATIVE_INFINITY POSITIVE_INFINITY isFinite isInteger isNaN isSafeInteger parseFloat parseInt",
        ),
        (
            "Object",
            True,
            "assign create defineProperties defineProperty entries freeze fromEntries getOwnPropertyDescriptor getOwnPropertyDescriptors getOwnPropertyNames getOwnPropertySymbols getPrototypeOf groupBy hasOwn is isExtensible isFrozen isSealed keys preventExtensions seal setPrototypeOf values",
        ),
        ("Array", True, "from fromAsync isArray of"),
        ("Promise", True, "all allSettled any race reject resolve try withResolvers"),
        ("String", True, "fromCharCode fromCodePoint raw"),
        (
            "Symbol",
            True,
            "asyncDispose asyncIterator dispose hasInstance isConcatSpreadable iterator match matchAll replace search species split toPrimitive toStringTag unscopables for keyFor",
        ),
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


_OBJECT_MEMBERS = frozenset(
    {"constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "toString", "valueOf"}
)
