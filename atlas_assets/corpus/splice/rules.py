"""The rules of the splice detector: weld shapes, structural checks and number checks.

* thresholds (`MIN_FRAGMENT`, `MIN_TRUNCATED`, `ONE_SIDED`, ...): how long a fragment must
  be before it counts as evidence;
* `_Affixes`: prefix/suffix tables over the known names (the built-ins' tables built once,
  a project's once per context), which every two-fragment rule looks fragments up in;
* weld rules, each ``(token, affixes) -> (fragment, fragment) | None``: two case styles
  meeting (`_style_break`, `_caps_run`, `_caps_words`, `_underscores`), a known name glued
  on (`_glued_word`, `_glued_lower`, `_glued_keyword`, `_welded_camel_word`,
  `_long_segment`), repeats (`_repeated`, `_repeated_word`, `_short_repeat`), property and
  method welds (`_property_weld`, `_field_weld`, `_project_field_weld`, `_builtin_call`,
  `_method_weld`, `_member_of_namespace`), function-name rules (`_lower_function_name`,
  `_keyword_tail`, `_pascal_function`, `_mid_word_suffix`), imports (`_truncated_import`)
  and dangling references (`_dangling`);
* structural checks over the whole token stream, returning findings with a ``reason``:
  `_syntax_breaks` (two words with nothing between them, a function name without its
  parameter list, a closing bracket that closes nothing, a lone '.') and `_object_shapes`
  (a read of a key a constant object literal does not define);
* numbers: `_number_problem` (literals that are not valid strict-mode JavaScript or not
  ones a programmer writes) and `_welded_integer`.

Which rule applies to which token (by role) is decided in `detection.find_splices`.
Standard library only.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Iterable, Sequence

from .findings import Splice
from .roles import (
    _CONTEXTUAL,
    _METHOD_HEADS_LONGEST_FIRST,
    _OBJECT_MEMBERS,
    BUILTIN_METHOD_HEADS,
    JS_BUILTINS,
    JS_KEYWORDS,
    NAMESPACE_MEMBERS,
    _function_name,
    _Roles,
)
from .tokens import Token

__all__ = [
    "DANGLING_SHARED",
    "FIELD_HEAD",
    "FIELD_TAIL",
    "GLUED_WORD",
    "LONG_SEGMENT",
    "MIN_FRAGMENT",
    "MIN_TRUNCATED",
    "NUMBER_FRAGMENT",
    "ONE_SIDED",
    "PROPERTY_HEAD",
]


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


_SHORT_KEYWORDS = ("new", "let", "var", "for", "try", "this", "case", "else", "void", "with", "null", "true")
_LONG_KEYWORDS = tuple(
    sorted(
        (
            k
            for k in JS_KEYWORDS
            if len(k) >= 5
            and k.islower()
            and k not in ("undefined", "arguments", "package", "private", "protected", "public", "implements", "interface")
        ),
        key=len,
        reverse=True,
    )
)


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
        if (
            token in self.whole
            and (token.startswith(fragment) if prefix else token.endswith(fragment))
            and (not proper or len(token) > len(fragment))
        ):
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
        if m and (
            (len(m.group(1)) >= MIN_FRAGMENT and self.prefix(m.group(1), token))
            or (len(m.group(1)) >= whole and self.whole_name(m.group(1), token))
        ):
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
        if (
            b[0].islower()
            and a[-1].islower()
            and re.search(r"[a-z][A-Z]", a)
            and affixes.whole_name(b, token)
            and (affixes.word_prefix(a, token) or _last_word(a) in affixes.words)
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


_GLUED_KEYWORD_TAILS = frozenset(
    "if const var new return export import this null true false await yield async function typeof else catch while".split()
)


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
                prev is not None
                and prev.kind in ("ident", "number")
                and prev.line == tok.line
                and prev.text not in _CONTEXTUAL
                and tok.text not in _CONTEXTUAL
            ):
                victim = tok if (tok.kind == "ident" and tok.text not in resolved) or prev.text in resolved else prev
                found.append(
                    Splice(
                        "identifier" if victim.kind == "ident" else "number",
                        victim.text,
                        victim.line,
                        (prev.text, tok.text),
                        "two words with nothing between them",
                    )
                )
            if (
                tok.kind == "ident"
                and prev is not None
                and (prev.text == "function" or (prev.text == "*" and k >= 2 and tokens[k - 2].text == "function"))
            ):
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
                    found.append(
                        Splice(
                            "identifier" if last_word.kind == "ident" else "number",
                            last_word.text,
                            last_word.line,
                            (last_word.text, ""),
                            f"a {tok.text!r} that closes nothing follows it",
                        )
                    )
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
        if (
            tok.kind != "ident"
            or roles.role.get(k) != "decl"
            or k == 0
            or tokens[k - 1].text != "const"
            or k + 2 >= n
            or tokens[k + 1].text != "="
        ):
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


def _dangling(name: str, unused: set[str]) -> tuple[str, str] | None:
    """An unresolved reference and the unused declaration spliced from it (sharing a prefix or suffix)."""
    for other in sorted(unused):
        if other != name and (other[:DANGLING_SHARED] == name[:DANGLING_SHARED] or other[-DANGLING_SHARED:] == name[-DANGLING_SHARED:]):
            return name, other
    return None
