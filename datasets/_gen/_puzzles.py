"""Puzzle engines for eval-reasoning-v1/-v2 (standard library only).

Each engine draws a hidden solution, then adds true clues one at a time, keeping a clue
only when it removes at least one candidate, until a brute-force search over *every*
candidate world leaves exactly one: the hidden solution. A puzzle is therefore unique by
exhaustion, not by argument, and the clue list is what the prompt states. The wording of
every clue is written here.

* knights and knaves: worlds are the 2^n knight/knave assignments; a world is consistent
  when every knight's statement is true and every knave's is false;
* orderings: worlds are the n! orders of the people (positions 1..n);
* logic grids: worlds are the (n!)^k assignments of k attributes to n people;
* slot schedules: worlds are the injective assignments of events to slots.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

# --- knights and knaves -------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    text: str  # what the speaker says, in quotes, first person where it applies
    test: Callable[[Sequence[bool]], bool]  # world (True = knight) -> is the claim true


def _kind(b: bool) -> str:
    return "a knight" if b else "a knave"


def knight_claims(speaker: int, names: Sequence[str], rng: random.Random, level: int) -> list[Claim]:
    """Candidate claims for one speaker. level 1: about one or two others; level 2 adds
    counts and conditionals; level 3 adds parity and nested 'would say' claims."""
    n = len(names)
    others = [i for i in range(n) if i != speaker]
    out: list[Claim] = []
    for x in others:
        for b in (True, False):
            out.append(Claim(f"{names[x]} is {_kind(b)}.", lambda w, x=x, b=b: w[x] == b))
    for x, y in itertools.combinations(others, 2):
        out.append(Claim(f"{names[x]} and {names[y]} are both knights.", lambda w, x=x, y=y: w[x] and w[y]))
        out.append(Claim(f"At least one of {names[x]} and {names[y]} is a knave.", lambda w, x=x, y=y: not (w[x] and w[y])))
        out.append(Claim(f"{names[x]} and {names[y]} are the same kind.", lambda w, x=x, y=y: w[x] == w[y]))
        out.append(Claim(f"{names[x]} and {names[y]} are different kinds.", lambda w, x=x, y=y: w[x] != w[y]))
    for x in others:
        out.append(Claim(f"{names[x]} and I are the same kind.", lambda w, x=x, s=speaker: w[x] == w[s]))
        out.append(Claim(f"I am a knave or {names[x]} is a knight.", lambda w, x=x, s=speaker: (not w[s]) or w[x]))
    if level >= 2:
        for k in range(1, n + 1):
            out.append(Claim(f"Exactly {k} of us {'is a knight' if k == 1 else 'are knights'}.", lambda w, k=k: sum(w) == k))
        for k in range(1, n):
            out.append(Claim(f"At least {k} of us {'is a knave' if k == 1 else 'are knaves'}.", lambda w, k=k: n - sum(w) >= k))
        for x, y in itertools.permutations(others, 2):
            out.append(Claim(f"If {names[x]} is a knight, then {names[y]} is a knave.", lambda w, x=x, y=y: (not w[x]) or (not w[y])))
    if level >= 3:
        out.append(Claim("The number of knights among us is odd.", lambda w: sum(w) % 2 == 1))
        out.append(Claim("The number of knaves among us is even.", lambda w: (n - sum(w)) % 2 == 0))
        for x, y in itertools.permutations(others, 2):
            # x would truthfully report y's kind if x is a knight, and lie if a knave
            out.append(Claim(f"If you asked {names[x]} whether {names[y]} is a knight, {names[x]} would say yes.",
                             lambda w, x=x, y=y: w[y] if w[x] else not w[y]))
    return out


def knights_worlds(claims: Sequence[Claim], n: int) -> list[tuple[bool, ...]]:
    return [w for w in itertools.product((True, False), repeat=n) if all(c.test(w) == w[i] for i, c in enumerate(claims))]


def knights_puzzle(rng: random.Random, names: Sequence[str], level: int, tries: int = 400):
    """(world, claims): one claim per speaker, exactly one consistent world."""
    n = len(names)
    for _ in range(tries):
        world = tuple(rng.random() < 0.5 for _ in range(n))
        claims: list[Claim] = []
        for s in range(n):
            said = {c.text for c in claims}
            pool = [c for c in knight_claims(s, names, rng, level) if c.test(world) == world[s] and c.text not in said]
            if level >= 2:  # prefer the richer claim kinds at higher levels
                rich = [c for c in pool if c.text.startswith(("Exactly", "At least", "If", "The number"))]
                if rich and rng.random() < 0.4:
                    pool = rich
            claims.append(rng.choice(pool))
        sols = knights_worlds(claims, n)
        if sols == [world]:
            return world, claims
    raise RuntimeError("no unique knights puzzle found")


# --- orderings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clue:
    text: str
    test: Callable[[Any], bool]
    fact: tuple = ()  # set on clues that state an answer outright, e.g. ("pos", name, index)


def stated(clues: Sequence[Clue]) -> set[tuple]:
    """The facts the clue list states outright (a question should not just echo one)."""
    return {c.fact for c in clues if c.fact}


ORDER_CONTEXTS = [
    {
        "intro": "{count} runners, {names}, finished a race; there were no ties.",
        "before": "{a} finished ahead of {b}.",
        "imm": "{a} finished directly ahead of {b}.",
        "pos": "{a} finished {ord}.",
        "notpos": "{a} did not finish {ord}.",
        "gap": "Exactly {m} runner{s} finished between {a} and {b}.",
        "apart": "{a} and {b} did not finish next to each other.",
        "q": "Who finished {ord}?",
        "qpos": "In which place did {a} finish? Reply with the place as a number (1 for first).",
        "slot": "place",
    },
    {
        "intro": "{count} people, {names}, stand in a single queue at a ticket window. Position 1 is the front of the queue.",
        "before": "{a} is somewhere in front of {b}.",
        "imm": "{a} is directly in front of {b}.",
        "pos": "{a} is in position {num}.",
        "notpos": "{a} is not in position {num}.",
        "gap": "Exactly {m} {p} between {a} and {b}.",
        "apart": "{a} and {b} are not next to each other.",
        "q": "Who is in position {num}?",
        "qpos": "In which position is {a}? Reply with the position as a number.",
        "slot": "position",
    },
    {
        "intro": "{count} friends, {names}, sit in a row of {count} seats numbered 1 to {count} from left to right.",
        "before": "{a} sits somewhere to the left of {b}.",
        "imm": "{a} sits immediately to the left of {b}.",
        "pos": "{a} sits in seat {num}.",
        "notpos": "{a} is not in seat {num}.",
        "gap": "Exactly {m} {p} between {a} and {b}.",
        "apart": "{a} and {b} do not sit next to each other.",
        "q": "Who sits in seat {num}?",
        "qpos": "In which seat does {a} sit? Reply with the seat number.",
        "slot": "seat",
    },
    {
        "intro": "{count} cars belonging to {names} are parked in a row of bays numbered 1 to {count}, one car per bay.",
        "before": "{a}'s car is in a lower-numbered bay than {b}'s.",
        "imm": "{b}'s car is in the bay numbered one higher than {a}'s.",
        "pos": "{a}'s car is in bay {num}.",
        "notpos": "{a}'s car is not in bay {num}.",
        "gap": "Exactly {m} car{s} {be} parked between {a}'s and {b}'s.",
        "apart": "{a}'s and {b}'s cars are not in neighbouring bays.",
        "q": "Whose car is in bay {num}? Reply with the owner's name.",
        "qpos": "In which bay is {a}'s car? Reply with the bay number.",
        "slot": "bay",
    },
]

ORD_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]


def order_clues(ctx: dict, names: Sequence[str], order: Sequence[str], kinds: Sequence[str]) -> list[Clue]:
    """Every true clue of the given kinds about the hidden order (a tuple of names)."""
    pos = {name: i for i, name in enumerate(order)}
    n = len(order)
    out: list[Clue] = []

    def fmt(key, **kw):
        m = kw.get("m", 0)
        kw.setdefault("s", "" if m == 1 else "s")
        kw.setdefault("p", "person stands" if m == 1 else "people stand")
        if ctx["slot"] == "seat":
            kw["p"] = "person sits" if m == 1 else "people sit"
        kw.setdefault("be", "is" if m == 1 else "are")
        return ctx[key].format(**kw)

    for a, b in itertools.permutations(names, 2):
        if pos[a] < pos[b]:
            out.append(Clue(fmt("before", a=a, b=b), lambda o, a=a, b=b: o.index(a) < o.index(b)))
        if pos[a] + 1 == pos[b] and "imm" in kinds:
            out.append(Clue(fmt("imm", a=a, b=b), lambda o, a=a, b=b: o.index(a) + 1 == o.index(b)))
    for a in names:
        if "pos" in kinds:
            out.append(Clue(fmt("pos", a=a, ord=ORD_WORDS[pos[a]], num=pos[a] + 1), lambda o, a=a, i=pos[a]: o.index(a) == i, ("pos", a, pos[a])))
        if "notpos" in kinds:
            for i in range(n):
                if i != pos[a]:
                    out.append(Clue(fmt("notpos", a=a, ord=ORD_WORDS[i], num=i + 1), lambda o, a=a, i=i: o.index(a) != i))
    for a, b in itertools.combinations(names, 2):
        gap = abs(pos[a] - pos[b]) - 1
        if "gap" in kinds and gap >= 1:
            out.append(Clue(fmt("gap", a=a, b=b, m=gap), lambda o, a=a, b=b, g=gap: abs(o.index(a) - o.index(b)) - 1 == g))
        if "apart" in kinds and gap >= 1:
            out.append(Clue(fmt("apart", a=a, b=b), lambda o, a=a, b=b: abs(o.index(a) - o.index(b)) > 1))
    return [c for c in out if c.test(tuple(order))]


def build_unique(rng: random.Random, worlds: list, truth, clues: list[Clue], max_clues: int = 40,
                 prefer: Callable[[Clue], float] | None = None, prune: bool = True):
    """Add informative true clues in random order until only `truth` remains, then (with
    `prune`) drop clues the others make redundant. Returns the chosen clues; raises if the
    pool cannot pin the solution. The final uniqueness check is always exhaustive."""
    pool = list(clues)
    rng.shuffle(pool)
    if prefer is not None:
        pool.sort(key=prefer)
    chosen: list[Clue] = []
    alive = list(worlds)
    for clue in pool:
        kept = [w for w in alive if clue.test(w)]
        if len(kept) < len(alive):
            chosen.append(clue)
            alive = kept
            if len(alive) == 1:
                break
        if len(chosen) >= max_clues:
            break
    if alive != [truth]:
        raise RuntimeError("clue pool does not pin the solution")
    if prune:  # drop clues that became redundant, earliest-first
        masks = {id(c): int("".join("1" if c.test(w) else "0" for w in reversed(worlds)), 2) for c in chosen}
        for clue in list(chosen):
            rest = [c for c in chosen if c is not clue]
            acc = (1 << len(worlds)) - 1
            for c in rest:
                acc &= masks[id(c)]
            if acc.bit_count() == 1:
                chosen = rest
    assert [w for w in worlds if all(c.test(w) for c in chosen)] == [truth]
    return chosen


def order_puzzle(rng: random.Random, names: Sequence[str], kinds: Sequence[str], ctx: dict, weights: dict[str, float] | None = None):
    order = tuple(rng.sample(list(names), len(names)))
    worlds = list(itertools.permutations(names))
    clues = order_clues(ctx, names, order, kinds)
    weights = weights or {}

    def prefer(c: Clue) -> float:
        # direct placements are the cheapest clues; push them back so puzzles need chaining
        for key, w in weights.items():
            if key in c.text:
                return w + rng.random()
        return rng.random()

    chosen = build_unique(rng, worlds, order, clues, prefer=prefer, prune=len(worlds) <= 5040)
    return order, chosen


# --- logic grids -----------------------------------------------------------------------------

GRID_ATTRS = {
    "pet": {"not": "does not own the {v}", "values": ["cat", "dog", "parrot", "rabbit", "tortoise", "ferret"], "has": "owns the {v}", "who": "the {v} owner", "q": "Which pet does {name} own?", "qwho": "Who owns the {v}?"},
    "drink": {"not": "does not drink {v}", "values": ["tea", "coffee", "cocoa", "lemonade", "milk", "water"], "has": "drinks {v}", "who": "the {v} drinker", "q": "What does {name} drink?", "qwho": "Who drinks {v}?"},
    "colour": {"not": "does not wear {v}", "values": ["red", "green", "blue", "yellow", "white", "black"], "has": "wears {v}", "who": "the person wearing {v}", "q": "Which colour does {name} wear?", "qwho": "Who wears {v}?"},
    "instrument": {"not": "does not play the {v}", "values": ["flute", "drum", "harp", "violin", "piano", "cello"], "has": "plays the {v}", "who": "the {v} player", "q": "Which instrument does {name} play?", "qwho": "Who plays the {v}?"},
    "sport": {"not": "does not do {v}", "values": ["tennis", "rowing", "judo", "cycling", "chess", "archery"], "has": "does {v}", "who": "the person who does {v}", "q": "Which sport does {name} do?", "qwho": "Who does {v}?"},
    "fruit": {"not": "does not grow {v}", "values": ["apples", "pears", "plums", "figs", "mangoes", "cherries"], "has": "grows {v}", "who": "the person who grows {v}", "q": "Which fruit does {name} grow?", "qwho": "Who grows {v}?"},
}


def _cap(s: str) -> str:
    return s[0].upper() + s[1:]


def grid_puzzle(rng: random.Random, names: Sequence[str], attrs: Sequence[str], houses: bool, clue_kinds: Sequence[str]):
    """A logic grid over n people and k attributes (plus house numbers 1..n in a row when
    `houses`). A world is a tuple of per-attribute tuples: world[a][i] = value of person i."""
    n = len(names)
    values = {a: rng.sample(GRID_ATTRS[a]["values"], n) for a in attrs}
    keys = list(attrs) + (["house"] if houses else [])
    vals = {**values, **({"house": list(range(1, n + 1))} if houses else {})}
    truth = tuple(tuple(rng.sample(vals[a], n)) for a in keys)
    perms = {a: list(itertools.permutations(vals[a])) for a in keys}
    worlds = list(itertools.product(*(perms[a] for a in keys)))
    ki = {a: i for i, a in enumerate(keys)}

    def has(a, v):
        return f"lives in house {v}" if a == "house" else GRID_ATTRS[a]["has"].format(v=v)

    def has_not(a, v):
        return f"does not live in house {v}" if a == "house" else GRID_ATTRS[a]["not"].format(v=v)

    def who(a, v):
        return f"the person in house {v}" if a == "house" else GRID_ATTRS[a]["who"].format(v=v)

    def owner(w, a, v):
        return w[ki[a]].index(v)

    clues: list[Clue] = []
    for i, name in enumerate(names):
        for a in keys:
            for v in vals[a]:
                if "direct" in clue_kinds and truth[ki[a]][i] == v:
                    clues.append(Clue(f"{name} {has(a, v)}.", lambda w, i=i, a=a, v=v: w[ki[a]][i] == v, ("is", name, a, v)))
                if "neg" in clue_kinds and truth[ki[a]][i] != v:
                    clues.append(Clue(f"{name} {has_not(a, v)}.", lambda w, i=i, a=a, v=v: w[ki[a]][i] != v))
    for a, b in itertools.permutations(keys, 2):
        if a == "house":
            continue
        for va in vals[a]:
            for vb in vals[b]:
                same = owner(truth, a, va) == owner(truth, b, vb)
                if same and "link" in clue_kinds:
                    link_fact = ("is", names[owner(truth, a, va)], b, vb) if a == "house" else ()
                    clues.append(Clue(f"{_cap(who(a, va))} {has(b, vb)}.", lambda w, a=a, b=b, va=va, vb=vb: owner(w, a, va) == owner(w, b, vb), link_fact))
                if not same and "neglink" in clue_kinds:
                    clues.append(Clue(f"{_cap(who(a, va))} {has_not(b, vb)}.", lambda w, a=a, b=b, va=va, vb=vb: owner(w, a, va) != owner(w, b, vb)))
    if houses:
        h = ki["house"]
        for a in [k for k in keys if k != "house"]:
            for b in [k for k in keys if k != "house"]:
                for va in vals[a]:
                    for vb in vals[b]:
                        if a == b and va == vb:
                            continue
                        ha = truth[h][owner(truth, a, va)]
                        hb = truth[h][owner(truth, b, vb)]
                        if "next" in clue_kinds and ha + 1 == hb:
                            clues.append(Clue(f"{_cap(who(a, va))} lives immediately left of {who(b, vb)}.",
                                              lambda w, a=a, b=b, va=va, vb=vb: w[h][owner(w, a, va)] + 1 == w[h][owner(w, b, vb)]))
                        if "left" in clue_kinds and ha < hb and ha + 1 != hb:
                            clues.append(Clue(f"{_cap(who(a, va))} lives somewhere left of {who(b, vb)}.",
                                              lambda w, a=a, b=b, va=va, vb=vb: w[h][owner(w, a, va)] < w[h][owner(w, b, vb)]))
        for i, name in enumerate(names):
            for a in [k for k in keys if k != "house"]:
                for v in vals[a]:
                    hi, hv = truth[h][i], truth[h][owner(truth, a, v)]
                    if "next" in clue_kinds and abs(hi - hv) == 1:
                        clues.append(Clue(f"{name} lives next door to {who(a, v)}.", lambda w, i=i, a=a, v=v: abs(w[h][i] - w[h][owner(w, a, v)]) == 1))
    def prefer(c: Clue) -> float:
        direct = any(c.text.startswith(name + " ") and " not " not in c.text and "next door" not in c.text for name in names)
        return (2.0 if direct else 0.0) + rng.random()

    chosen = build_unique(rng, worlds, truth, clues, max_clues=60, prefer=prefer, prune=len(worlds) <= 15000)
    return keys, vals, truth, chosen


# --- slot schedules ---------------------------------------------------------------------------


def slot_puzzle(rng: random.Random, events: Sequence[str], slots: Sequence[str], kinds: Sequence[str]):
    """Events into distinct slots (len(slots) >= len(events)); clue texts are built by the
    caller's phrasing of (kind, args). Returns (assignment tuple of slot indices, clues)."""
    n, m = len(events), len(slots)
    truth = tuple(rng.sample(range(m), n))
    worlds = list(itertools.permutations(range(m), n))
    clues: list[Clue] = []
    for i, e in enumerate(events):
        for s in range(m):
            if "on" in kinds and truth[i] == s:
                clues.append(Clue(f"The {e} is on {slots[s]}.", lambda w, i=i, s=s: w[i] == s, ("on", e, s)))
            if "noton" in kinds and truth[i] != s:
                clues.append(Clue(f"The {e} is not on {slots[s]}.", lambda w, i=i, s=s: w[i] != s))
        if "notedge" in kinds and truth[i] not in (0, m - 1):
            clues.append(Clue(f"The {e} is neither on {slots[0]} nor on {slots[-1]}.", lambda w, i=i: w[i] not in (0, m - 1)))
    for i, j in itertools.permutations(range(n), 2):
        a, b = events[i], events[j]
        if "before" in kinds and truth[i] < truth[j]:
            clues.append(Clue(f"The {a} is earlier in the week than the {b}.", lambda w, i=i, j=j: w[i] < w[j]))
        if "dayafter" in kinds and truth[i] + 1 == truth[j]:
            clues.append(Clue(f"The {b} is the day after the {a}.", lambda w, i=i, j=j: w[i] + 1 == w[j]))
        if "gap" in kinds and truth[j] - truth[i] >= 2 and i < j:
            g = truth[j] - truth[i]
            clues.append(Clue(f"The {a} and the {b} are {g} days apart.", lambda w, i=i, j=j, g=g: abs(w[i] - w[j]) == g))
    chosen = build_unique(rng, worlds, truth, clues, prune=len(worlds) <= 15000)
    return truth, chosen
