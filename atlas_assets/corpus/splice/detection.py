"""Finding spliced tokens in a JavaScript module (`find_splices`), and judging a
generation for eval-longgen-integrity-v1 (`judge_generation`).

`find_splices(code, context_identifiers)` returns every damaged identifier or number of a
generation as `Splice` findings (`describe()` gives the line and why), empty when the
generation is intact. The prose lines a model wrote around the module are blanked first
(`tokens.without_prose`), the module is tokenised (`tokens.js_tokens`), every identifier's
role is read (`roles._analyse`), and each unexplained token is judged by the rules for its
role (`rules`); the structural checks run over the whole module. The rules are listed on
`find_splices`.

How a token is judged depends on its *role*. A name is *resolved* when it is a context
identifier (``meta.context_identifiers``: what the project in the prompt defines),
declared by the output, or a JavaScript keyword, global or common member name
(`roles.JS_BUILTINS`). "Known" names are the resolved ones plus property and key names
the output uses twice or more; fragments are compared against them.

Measured, not assumed: bench/splice_bench.py writes intact modules against generated
projects and the same modules with splices at approximate sub-word token boundaries
(`injection.make_cases`), and reports detection per kind and the false-positive rate;
tests/corpus/test_g2_suites.py runs a smaller corpus. Known blind spots (see the bench): a
splice that turns a number into another valid number (``40`` -> ``400``, ``2`` -> ``22``),
a splice on the only occurrence of a declared name (an exported function's name changed
where it is defined and nowhere else), and object keys the output invents
(``{ valueArtist: ... }``). The rules assume the output uses the project and
JavaScript's (and Node's) built-ins: members of a package's bindings (``import fs from
'node:fs'``, ``require('path')``) and environment variables are never judged, but a
third-party API reached another way can look like a weld (bench/splice_bench.py
--real-code measures that on real packages). Wrong-but-intact code is clean by design
(the other evals measure correctness); the rules that flag unresolvable free references
and imports of names the project does not export will also flag a model that uses a
helper it never defined -- code that would throw a ReferenceError anyway.

`judge_generation(code, context_identifiers, meta)` is the item's verdict: "no splice
found" is only a pass when there is a module to find splices in. The reply fails, before
any splice is looked for, when it is

* empty: None, ``""`` or whitespace only -> ``"empty output"``;
* prose only: no line of it is code -> ``"no code: the reply is prose only (refusal?)"``.
  A *code line* is a line with at least one JavaScript token outside comments, strings
  and template text, after the prose lines are blanked (`without_prose`) and markdown
  fence lines dropped, on which no two words stand side by side with nothing between
  them (``I can help`` -- never JavaScript unless one of them is a keyword such as
  ``return x`` or ``export default``), and which is not one bare word with at most a
  closing ``. : ! ?`` (``Sure!``, ``Note:``);
* near-empty: fewer *module lines* than half the requested minimum
  (``meta["min_lines"]``; not checked when the row states none) ->
  ``"near-empty: 12 module lines, the item asks for 150-190 lines"``. Module lines are the
  non-blank lines that are not prose: code lines plus comment lines (the requested range
  counts every line of the file, comments included). Half is deliberately far below the
  range: a module that is merely short is still judged for splices only -- the splice
  scorer is not a correctness check, it refuses only replies that leave nothing to judge.

Otherwise the verdict is `find_splices` on ``code`` (markdown fence lines blanked, line
numbers kept; the scorer's extraction has already removed them): ``(True, None)`` when it
finds nothing, else ``(False, the first three findings described, "; "-joined)`` -- the
same verdict and text the splice scorer gives today.

Standard library only.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from .findings import Splice
from .roles import _CONTEXTUAL, JS_BUILTINS, JS_KEYWORDS, _analyse, _function_name, _outside_member
from .rules import (
    _PLAIN_INT,
    _ROUND,
    MIN_FRAGMENT,
    _Affixes,
    _builtin_call,
    _caps_run,
    _caps_words,
    _compound,
    _dangling,
    _field_weld,
    _glued_keyword,
    _glued_lower,
    _glued_word,
    _keyword_tail,
    _long_segment,
    _lower_function_name,
    _member_of_namespace,
    _method_weld,
    _mid_word_suffix,
    _number_problem,
    _object_shapes,
    _pascal_function,
    _project_field_weld,
    _property_weld,
    _repeated,
    _repeated_word,
    _short_repeat,
    _style_break,
    _syntax_breaks,
    _truncated_import,
    _underscores,
    _welded_camel_word,
    _welded_integer,
)
from .tokens import Token, _pairs, js_tokens, without_prose

__all__ = ["Splice", "find_splices", "judge_generation", "module_lines"]


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
    return _find_in_tokens(js_tokens(without_prose(code)), context_identifiers)


def _find_in_tokens(tokens: list[Token], context_identifiers: Iterable[str]) -> list[Splice]:
    """find_splices on the tokens of the prose-blanked module (judge_generation has them)."""
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
            _style_break(text, affixes)
            or _glued_word(text, affixes)
            or _glued_lower(text, affixes)
            or _glued_keyword(text, affixes)
            or _underscores(text, affixes)
            or _repeated_word(text)
            or _long_segment(text, affixes)
            or _caps_words(text, affixes)
            or _caps_run(text, affixes)
            or _short_repeat(text)
            or _welded_camel_word(text, affixes)
        )
        if parts is not None:
            pass
        elif role == "private":
            if text in privates:
                continue
            parts = (text, "")  # an undeclared private name is an early SyntaxError
        elif role == "decl":
            if counts[text] > 1:
                continue
            # an unused declaration: repeated chunks and digit tails anywhere; a local
            # binding, or an import of a name the project does not export, is judged
            # like a reference
            parts = _repeated(text) or affixes.digits(text, whole=2 if k in roles.local else MIN_FRAGMENT)
            if parts is None and k in roles.local:
                parts = affixes.split(text, whole=1) or ((text, "") if affixes.truncated(text) else None) or affixes.one_sided(text)
            elif parts is None and k in imports and context:
                parts = affixes.split(text) or affixes.one_sided(text) or _truncated_import(text, context)
            if parts is None and _pascal_function(tokens, pairs, k):
                parts = (text, "")  # function Tickets(tickets): a camelCase name cut at a hump
            if parts is None and k not in roles.local and _function_name(tokens, k):
                parts = (
                    _lower_function_name(text, affixes) or _keyword_tail(text) or ((text, "") if _mid_word_suffix(text, affixes) else None)
                )
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
            if (
                parts is None
                and role == "property"
                and text[0].isupper()
                and affixes.truncated(text)
                and not (k >= 2 and tokens[k - 2].text == "new")
            ):
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


_FENCE_LINE_RE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n`]*$", re.M)  # a markdown fence line (as extract.py reads one)
_SENTENCE_END = frozenset(".:!?")
NEAR_EMPTY_SHARE = 0.5  # fewer module lines than this share of meta.min_lines: near-empty
MAX_FINDINGS_DESCRIBED = 3


def module_lines(code: str) -> tuple[int, int]:
    """(code lines, module lines) of a reply; see the module docstring. Code lines carry
    JavaScript tokens and no two side-by-side words; module lines are the non-blank lines
    that are not prose: code lines and comment lines (a JSDoc sentence is blanked by
    `without_prose` like a preamble, but lies inside a comment). Prose lines, markdown
    fence lines and blank lines count as neither."""
    text = _FENCE_LINE_RE.sub("", code)
    blanked = without_prose(text)  # same lines, the prose ones emptied
    return _line_counts(text, blanked, js_tokens(blanked), exact=True)


def _line_counts(text: str, blanked: str, blanked_tokens: list[Token], *, exact: bool) -> tuple[int, int]:
    """module_lines from the blanked text's tokens. With exact=False the comment sentences
    blanked as prose are not counted, which saves tokenizing the text a second time: the
    module-line count is then a lower bound, enough when it already clears the threshold."""
    outside_comments = {t.line for t in js_tokens(text)} if exact else set()  # lines with a token
    by_line: dict[int, list[Token]] = {}
    for tok in blanked_tokens:
        by_line.setdefault(tok.line, []).append(tok)
    code_count = module_count = 0
    for number, (raw, line) in enumerate(zip(text.split("\n"), blanked.split("\n")), start=1):
        if not line.strip():
            if exact:
                module_count += bool(raw.strip()) and number not in outside_comments  # a comment sentence blanked as prose
            continue
        tokens = by_line.get(number, [])
        if _prose_tokens(tokens):
            continue
        module_count += 1
        code_count += bool(tokens)
    return code_count, module_count


def _prose_tokens(tokens: list[Token]) -> bool:
    """The tokens of one line are natural language, not JavaScript: two words side by side
    (neither a keyword that takes one: ``return x``), a quote that never closes (``I'm``),
    or one bare word with at most a closing ``. : ! ?`` (``Sure!``)."""
    if any(
        a.kind in ("ident", "number")
        and b.kind in ("ident", "number", "bad-number")
        and a.text not in _CONTEXTUAL
        and b.text not in _CONTEXTUAL
        for a, b in zip(tokens, tokens[1:])
    ):
        return True
    if any(t.kind == "string" and (len(t.text) < 2 or t.text[-1] != t.text[0]) for t in tokens):
        return True
    return (
        len(tokens) in (1, 2)
        and tokens[0].kind == "ident"
        and tokens[0].text not in JS_KEYWORDS
        and (len(tokens) == 1 or tokens[1].text in _SENTENCE_END)
    )


def judge_generation(
    code: str | None, context_identifiers: Iterable[str], meta: Mapping[str, Any] | None = None
) -> tuple[bool, str | None]:
    """The verdict on one eval-longgen-integrity-v1 generation: ``(True, None)`` when it is
    a module with no splice, else ``(False, why)``. `code` is the reply as the scorer
    reads it (think blocks and code fences already removed; None for no text), `meta` the
    row's meta (``min_lines``/``max_lines`` give the requested range). An empty reply, a
    prose-only reply (a refusal) and a near-empty one -- fewer module lines than
    NEAR_EMPTY_SHARE of ``min_lines`` -- fail before splices are looked for; the rule is in
    the module docstring."""
    if code is None or not code.strip():
        return False, "empty output"
    text = _FENCE_LINE_RE.sub("", code)
    blanked = without_prose(text)
    tokens = js_tokens(blanked)  # tokenized once for the line counts and the splice rules
    code_count, module_count = _line_counts(text, blanked, tokens, exact=False)
    if code_count == 0:
        return False, "no code: the reply is prose only (refusal?)"
    low = (meta or {}).get("min_lines")
    high = (meta or {}).get("max_lines")
    if isinstance(low, int) and low > 0 and module_count < NEAR_EMPTY_SHARE * low:
        code_count, module_count = _line_counts(text, blanked, tokens, exact=True)
        if module_count < NEAR_EMPTY_SHARE * low:
            asked = f"{low}-{high}" if isinstance(high, int) else f"at least {low}"
            return False, f"near-empty: {module_count} module lines, the item asks for {asked} lines"
    found = _find_in_tokens(tokens, context_identifiers)
    if found:
        return False, "; ".join(s.describe() for s in found[:MAX_FINDINGS_DESCRIBED])
    return True, None
