"""Writing splices onto intact code: for simulators, reference perturbations and the bench.

Two injectors:

* `inject_splice(code, context_identifiers, rng)`: one identifier occurrence replaced by
  a weld of two identifier fragments that `find_splices` detects -- what the simulator
  (``splice_rate``), the reference perturbation of a splice row and the rescore bench use
  when they need one certainly-detectable splice;
* `make_cases(...)`: the splices real serving bugs produce, for measuring the detector
  (atlas_assets/corpus/splice_corpus.py measures, bench/splice_bench.py reports).

The serving-bug model of `make_cases`. A serving bug that corrupts a long generation (a
KV-cache block reused across requests, a lost or repeated token at a streaming chunk
boundary, two sequences of a batch mixed) acts on the *token stream*: the output jumps
from one token to a token of another position, or a token at a chunk boundary is repeated
or lost. The visible damage, when it falls in code, is an identifier or number welded
from two fragments. This module writes those splices onto intact module outputs at
approximate sub-word token boundaries:

* tokens are approximated the way large BPE vocabularies (100k+ entries) split code:
  identifiers at camelCase humps, underscores and digit runs -- a common word of up to
  LONG_WORD letters is one token, a longer one is split in two; numbers
  in groups of up to three digits, with '.', the exponent and the radix prefix as their
  own tokens; every other character (space, punctuation) is its own token;
* ``ident_join``  the stream cuts after a sub-token of identifier X and resumes at a
  sub-token of identifier Y: T = X[:cut] + Y[resume:]. Y comes from the same output
  (``self``), from the project the prompt carried (``context``), or from an unrelated
  project (``foreign``: another sequence of the batch);
* ``number_join`` the same with a number involved: a number's digits joined with another
  number's (``num+num``), a number's prefix joined with an identifier's suffix
  (``num+ident``), an identifier's prefix joined with a number's digits (``ident+num``);
* ``dup``  one sub-token of an identifier or number repeated at a chunk boundary;
* ``drop`` one sub-token of an identifier or number lost, or the one separator token
  between two words lost so that they weld (``item.weight`` -> ``itemweight``).

Only code positions are used (identifiers and numbers outside strings, comments and
regular-expression literals): the splice scorer reads identifiers and numbers, so a weld
inside a string is out of its scope. A draw whose result is already a name or number the
output or the project uses is indistinguishable from intact code by any reference-free
check; it is redrawn and counted (the second value `make_cases` returns). Standard
library only.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from .detection import find_splices
from .roles import JS_BUILTINS
from .rules import MIN_FRAGMENT
from .tokens import IDENTIFIER_RE, js_tokens

__all__ = ["KINDS", "Case", "Word", "code_words", "inject_splice", "make_cases", "subword_pieces"]

LONG_WORD = 10  # words longer than this are split in two (shorter ones are one vocabulary token)
KINDS = ("ident_join", "number_join", "dup", "drop")  # the per-kind view; "mix" is the realistic one


@dataclass(frozen=True)
class Word:
    start: int
    end: int
    text: str
    kind: str  # "ident" | "number"


@dataclass(frozen=True)
class Case:
    kind: str
    subkind: str
    text: str
    original: str
    spliced: str
    offset: int


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


# --- approximate sub-word tokens ---------------------------------------------------------------

_IDENT_PIECE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|_+|\$")


def subword_pieces(word: str) -> list[str]:
    """Approximate BPE pieces of one identifier or number (they concatenate to `word`)."""
    if word[0].isdigit() or (word[0] == "." and len(word) > 1):
        pieces = _number_pieces(word)
    else:
        pieces = []
        for piece in _IDENT_PIECE.findall(word):
            if piece.isdigit() and len(piece) > 3:
                pieces += [piece[i : i + 3] for i in range(0, len(piece), 3)]
            elif len(piece) > LONG_WORD and piece.isalpha():
                cut = len(piece) // 2
                pieces += [piece[:cut], piece[cut:]]
            else:
                pieces.append(piece)
    if "".join(pieces) != word:  # anything the patterns missed: one character per piece
        pieces = list(word)
    return pieces


def _number_pieces(word: str) -> list[str]:
    pieces: list[str] = []
    i = 0
    if word[:2].lower() in ("0x", "0o", "0b"):
        pieces.append(word[:2])
        i = 2
        digits = word[i:]
        return pieces + [digits[k : k + 3] for k in range(0, len(digits), 3)] if digits else pieces
    for m in re.finditer(r"\d+|[eE][+-]?|\.|_|n|.", word):
        chunk = m.group()
        if chunk.isdigit():
            pieces += [chunk[k : k + 3] for k in range(0, len(chunk), 3)]
        else:
            pieces.append(chunk)
    return pieces


# --- code positions --------------------------------------------------------------------------


def code_words(text: str) -> list[Word]:
    """Identifiers and numbers of JavaScript code, with offsets: the words `js_tokens`
    reads (strings, comments, regex literals and template text are not code)."""
    return [
        Word(t.start, t.start + len(t.text), t.text, "ident" if t.kind == "ident" else "number")
        for t in js_tokens(text)
        if t.kind in ("ident", "number", "bad-number")
    ]


# --- drawing splices -----------------------------------------------------------------------------


def _same_value(a: str, b: str) -> bool:
    """Two numeric literals with the same value (``65_535`` and ``65535``): no damage."""
    try:
        return float(a.replace("_", "")) == float(b.replace("_", ""))
    except ValueError:
        return False


def make_cases(
    text: str,
    context: Sequence[str],
    context_pool: Sequence[str],
    foreign_pool: Sequence[str],
    rng: random.Random,
    kinds: Iterable[str] = KINDS,
    tries: int = 80,
) -> tuple[list[Case], int]:
    """Spliced variants of `text`, one per entry of `kinds`, and the number of invisible
    draws (results that are existing names or equal values) that were redrawn.

    `context_pool` holds the code words (identifiers and numbers) of the project the prompt
    carried, `foreign_pool` those of an unrelated project. Kinds: ``ident_join``
    (identifier + identifier), ``number_join`` (a number's digits + another number's),
    ``dup``, ``drop``, and ``mix`` -- a serving bug at a uniformly random code token: the
    position is drawn over sub-word tokens (a word with three pieces is three times as
    likely as a one-piece word), the mechanism uniformly from join/dup/drop, a join's donor
    uniformly from this output, the project and a foreign project, then over the donor's
    sub-word tokens."""
    words = code_words(text)
    existing = {w.text for w in words} | set(context) | JS_BUILTINS
    pools = {"self": [w.text for w in words], "context": list(context_pool), "foreign": list(foreign_pool)}
    weights = {name: [len(subword_pieces(x)) for x in pool] for name, pool in pools.items()}
    word_weights = [len(subword_pieces(w.text)) for w in words]
    cases: list[Case] = []
    invisible = 0

    def pick_word(kind: str | None = None) -> Word | None:
        candidates = [(w, wt) for w, wt in zip(words, word_weights) if kind is None or w.kind == kind]
        if not candidates:
            return None
        return rng.choices([c[0] for c in candidates], [c[1] for c in candidates])[0]

    def pick_donor(source: str, kind: str | None = None) -> str | None:
        pool = [
            (x, wt)
            for x, wt in zip(pools[source], weights[source])
            if kind is None or (x[:1].isdigit() or x[:1] == ".") == (kind == "number")
        ]
        if not pool:
            return None
        return rng.choices([p[0] for p in pool], [p[1] for p in pool])[0]

    def weld(x: str, y: str) -> str:
        px, py = subword_pieces(x), subword_pieces(y)
        return "".join(px[: rng.randrange(1, len(px) + 1)]) + "".join(py[rng.randrange(0, len(py)) :])

    def place(w: Word, token: str) -> str:
        return text[: w.start] + token + text[w.end :]

    for kind in kinds:
        for _ in range(tries):
            mechanism = kind
            if kind == "mix":
                mechanism = rng.choice(["join", "dup", "drop"])
            if mechanism in ("ident_join", "number_join", "join"):
                want = {"ident_join": "ident", "number_join": "number", "join": None}[mechanism]
                w = pick_word(want)
                source = rng.choice(["self", "context", "foreign"])
                donor = pick_donor(source, want)
                if w is None or donor is None:
                    continue
                token = weld(w.text, donor)
                dkind = "number" if donor[:1].isdigit() or donor[:1] == "." else "ident"
                subkind = f"{w.kind}+{dkind}/{source}"
                if w.kind == "ident" and not IDENTIFIER_RE.fullmatch(token):
                    continue
                offset, spliced = w.start, place(w, token)
            elif mechanism == "dup":
                w = pick_word()
                if w is None:
                    break
                pieces = subword_pieces(w.text)
                k = rng.randrange(len(pieces))
                token = "".join(pieces[: k + 1] + pieces[k:])
                subkind = w.kind
                offset, spliced = w.start, place(w, token)
            else:  # drop
                w = pick_word()
                if w is None:
                    break
                pieces = subword_pieces(w.text)
                if len(pieces) < 2 or rng.random() < 0.25:
                    # the separator token after the word is lost: it welds to the next word
                    k = words.index(w)
                    if k + 1 >= len(words):
                        continue
                    nxt = words[k + 1]
                    gap = text[w.end : nxt.start]
                    if len(gap) != 1 or gap == "\n":
                        continue
                    token = w.text + nxt.text
                    subkind = "separator"
                    offset, spliced = w.start, text[: w.end] + text[nxt.start :]
                else:
                    k = rng.randrange(len(pieces))
                    token = "".join(pieces[:k] + pieces[k + 1 :])
                    subkind = w.kind
                    offset, spliced = w.start, place(w, token)
            if token == w.text or spliced == text:
                continue
            if token in existing or _same_value(w.text, token):
                invisible += 1
                continue
            label = kind if kind != "mix" else f"mix:{mechanism}"
            cases.append(Case(label, subkind, spliced, w.text, token, offset))
            break
    return cases, invisible
