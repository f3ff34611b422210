# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-reasoning-v1: logic puzzles with a unique solution, 252 rows.

Four categories (logic grids, orderings, knights and knaves, scheduling) x easy/medium/
hard x 21 rows; each row is scored `exact` (a single name, kind, day or time) or `mc`
(four options), about half each. Every puzzle is built by _puzzles.py: true clues are
added until an exhaustive search over all candidate worlds leaves exactly the hidden
solution, so uniqueness is proven by brute force; the answer is read off that solution.
Project schedules are solved twice (longest path by dynamic programming and by
enumerating every dependency chain). meta.solution records the whole solution.

    python datasets/_gen/gen_eval_reasoning_v1.py [--out DIR]
"""

from __future__ import annotations

import itertools
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _evalkit as K  # noqa: E402
import _lib  # noqa: E402
import _puzzles as P  # noqa: E402

DATASET_ID = "eval-reasoning-v1"
SEED = 6_100_001
PER_CELL = 21

KNIGHT_INTROS = [
    "On an island every inhabitant is either a knight, who always tells the truth, or a knave, who always lies. You meet {names}.",
    "Each resident of a certain village is a knight (every statement they make is true) or a knave (every statement they make is false). {names} speak to you.",
    "In a land of knights, who never lie, and knaves, who never tell the truth, you come across {names}.",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]


def mc_or_exact(rng: random.Random) -> str:
    return "mc" if rng.random() < 0.5 else "exact"


def knight_world_text(names, world) -> str:
    return K.join_and([f"{n} is {'a knight' if k else 'a knave'}" for n, k in zip(names, world)])


def knights(S, rng, diff, cat):
    n, level = {"easy": (2, 1), "medium": (3, 1), "hard": (rng.choice([3, 4]), 2)}[diff]
    names = K.names(rng, n)
    world, claims = P.knights_puzzle(rng, names, level)
    intro = rng.choice(KNIGHT_INTROS).format(names=K.join_and(names))
    said = " ".join(f'{names[i]} says: "{c.text}"' for i, c in enumerate(claims))
    stem = f"{intro} {said}"
    meta = {"solution": {nm: ("knight" if k else "knave") for nm, k in zip(names, world)},
            "why": "the only one of the 2^n knight/knave assignments under which every knight's statement is true and every knave's is false (exhaustive check)"}
    if mc_or_exact(rng) == "exact":
        who = rng.randrange(n)
        answer = "knight" if world[who] else "knave"
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} Is {names[who]} a knight or a knave? Reply with one word: knight or knave.",
                     answer=answer, scorer="exact", meta=meta)
    wrong = [w for w in itertools.product((True, False), repeat=n) if w != world]
    rng.shuffle(wrong)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} Which of the following is true?",
                    correct=knight_world_text(names, world), distractors=[knight_world_text(names, w) for w in wrong], meta=meta)


def ordering(S, rng, diff, cat):
    n, kinds, weights = {
        "easy": (4, ["before", "imm", "pos", "notpos"], {}),
        "medium": (5, ["before", "imm", "gap", "notpos", "pos"], {"finished first": 1.0, "position 1": 1.0}),
        "hard": (6, ["before", "imm", "gap", "apart", "notpos"], {}),
    }[diff]
    ctx = rng.choice(P.ORDER_CONTEXTS)
    names = K.names(rng, n)
    order, clues = P.order_puzzle(rng, names, kinds, ctx, weights)
    intro = ctx["intro"].format(count=n, names=K.join_and(names))
    stem = f"{intro} {' '.join(c.text for c in clues)}"
    facts = P.stated(clues)
    k = K.choose(rng, [i for i in range(n) if ("pos", order[i], i) not in facts])
    q = ctx["q"].format(ord=P.ORD_WORDS[k], num=k + 1)
    meta = {"solution": list(order), "why": f"the only one of the {n}! orders satisfying every clue (exhaustive check)"}
    if mc_or_exact(rng) == "exact":
        form = "" if "name" in q else " Reply with the name only."
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} {q}{form}", answer=order[k], scorer="exact", meta=meta)
    others = [x for x in names if x != order[k]]
    rng.shuffle(others)
    q_mc = q.replace(" Reply with the owner's name.", "")
    return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} {q_mc}",
                    correct=order[k], distractors=others, meta=meta)


def grid(S, rng, diff, cat):
    n, attrs_n, kinds = {
        "easy": (3, 2, ["link", "neg", "direct", "neglink"]),
        "medium": (4, 2, ["link", "neg", "neglink", "direct"]),
        "hard": (4, 2, ["link", "neg", "neglink"]),
    }[diff]
    names = K.names(rng, n)
    attrs = rng.sample(sorted(P.GRID_ATTRS), attrs_n)
    keys, vals, truth, clues = P.grid_puzzle(rng, names, attrs, houses=False, clue_kinds=kinds)
    cats = "; ".join(f"{a}: {', '.join(vals[a])}" for a in attrs)
    intro = (f"{K.join_and(names)} each have exactly one of each of the following, and no two of them share a value: {cats}.")
    stem = f"{intro} {' '.join(c.text for c in clues)}"
    facts = P.stated(clues)
    a = rng.choice(attrs)
    ai = keys.index(a)
    solution = {nm: {k: truth[j][i] for j, k in enumerate(keys)} for i, nm in enumerate(names)}
    meta = {"solution": solution, "why": f"the only one of the {math.factorial(n) ** len(keys)} assignments satisfying every clue (exhaustive check)"}
    if rng.random() < 0.5:  # ask for a person
        v = K.choose(rng, [x for x in vals[a] if ("is", names[truth[ai].index(x)], a, x) not in facts])
        who = names[truth[ai].index(v)]
        q = P.GRID_ATTRS[a]["qwho"].format(v=v)
        correct, options = who, [x for x in names if x != who]
    else:
        i = K.choose(rng, [j for j in range(n) if ("is", names[j], a, truth[ai][j]) not in facts])
        q = P.GRID_ATTRS[a]["q"].format(name=names[i])
        correct, options = truth[ai][i], [x for x in vals[a] if x != truth[ai][i]]
    rng.shuffle(options)
    if mc_or_exact(rng) == "exact":
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} {q} Reply with one word.", answer=correct, scorer="exact", meta=meta)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} {q}", correct=correct, distractors=options, meta=meta)


EVENTS = ["budget review", "design workshop", "vendor call", "team lunch", "safety drill", "board meeting", "code freeze",
          "client demo", "training session", "audit visit", "office move", "hiring panel"]


def week_schedule(S, rng, diff, cat):
    n_events, kinds = {
        "easy": (3, ["on", "noton", "before"]),
        "medium": (4, ["noton", "before", "dayafter", "notedge"]),
        "hard": (5, ["noton", "before", "dayafter", "gap", "notedge"]),
    }[diff]
    events = rng.sample(EVENTS, n_events)
    truth, clues = P.slot_puzzle(rng, events, WEEKDAYS, kinds)
    intro = f"An office plans {n_events} events in one week, Monday to Friday, with at most one event per day: the {K.join_and(events)}."
    stem = f"{intro} {' '.join(c.text for c in clues)}"
    facts = P.stated(clues)
    e = K.choose(rng, [i for i in range(n_events) if ("on", events[i], truth[i]) not in facts])
    meta = {"solution": {ev: WEEKDAYS[d] for ev, d in zip(events, truth)}, "why": "the only assignment of events to distinct weekdays satisfying every clue (exhaustive check)"}
    q = f"On which day is the {events[e]}?"
    if mc_or_exact(rng) == "exact":
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} {q} Reply with the day only.", answer=WEEKDAYS[truth[e]], scorer="exact", meta=meta)
    others = [d for d in WEEKDAYS if d != WEEKDAYS[truth[e]]]
    rng.shuffle(others)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} {q}", correct=WEEKDAYS[truth[e]], distractors=others, meta=meta)


def common_slot(S, rng, diff, cat):
    k = {"easy": 2, "medium": 3, "hard": 4}[diff]
    hours = list(range(9, 17))
    people = K.names(rng, k)
    target = rng.choice(hours)
    while True:
        free = []
        for _ in people:
            f = {target} | {h for h in hours if rng.random() < 0.55}
            free.append(sorted(f))
        common = set(hours)
        for f in free:
            common &= set(f)
        if common == {target} and all(len(f) >= 3 for f in free):
            break

    def ranges(hs):
        out, start, prev = [], hs[0], hs[0]
        for h in hs[1:] + [None]:
            if h is not None and h == prev + 1:
                prev = h
                continue
            out.append(f"{start:02d}:00–{prev + 1:02d}:00")
            if h is not None:
                start = prev = h
        return K.join_and(out)

    lines = " ".join(f"{p} is free {ranges(f)}." for p, f in zip(people, free))
    room = ""
    if diff == "hard":  # the meeting room is booked in some of the other hours
        room_busy = sorted(rng.sample([h for h in hours if h != target], 2))
        room = f" The only meeting room is booked from {room_busy[0]:02d}:00 to {room_busy[0] + 1:02d}:00 and from {room_busy[1]:02d}:00 to {room_busy[1] + 1:02d}:00."
    stem = f"{K.join_and(people)} need a one-hour meeting that starts on the hour, between 09:00 and 17:00. {lines}{room}"
    brute = [h for h in hours if all(h in f for f in free) and not (room and h in room_busy)]
    assert brute == [target]
    meta = {"free": {p: f for p, f in zip(people, free)}, "why": f"{target:02d}:00 is the only start hour inside every free range (checked hour by hour)"}
    answer = f"{target:02d}:00"
    if mc_or_exact(rng) == "exact":
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} At what time must the meeting start? Reply with the time as HH:MM (24-hour clock).",
                     answer=answer, scorer="exact", meta=meta)
    others = [f"{h:02d}:00" for h in hours if h != target]
    rng.shuffle(others)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} At what time must the meeting start?", correct=answer, distractors=others, meta=meta)


def project(S, rng, diff, cat):
    n = {"easy": 4, "medium": 5, "hard": 7}[diff]
    tasks = [chr(ord("A") + i) for i in range(n)]
    dur = {t: rng.randrange(1, 9) for t in tasks}
    while True:
        pre = {t: sorted(rng.sample(tasks[:i], rng.randrange(0, min(i, 2 if diff != "hard" else 3) + 1))) for i, t in enumerate(tasks)}
        if sum(len(v) for v in pre.values()) >= n - 1:
            break
    finish = {}
    for t in tasks:  # topological by construction
        finish[t] = max((finish[p] for p in pre[t]), default=0) + dur[t]
    best = max(finish.values())

    def paths(t):  # independent: every dependency chain ending at t
        return [[t]] if not pre[t] else [p + [t] for q in pre[t] for p in paths(q)]

    chains = [p for t in tasks for p in paths(t)]
    assert best == max(sum(dur[x] for x in c) for c in chains)
    lines = " ".join(f"Task {t} takes {dur[t]} hour{'s' if dur[t] > 1 else ''}{' and can start only after ' + K.join_and(pre[t]) + (' is' if len(pre[t]) == 1 else ' are') + ' finished' if pre[t] else ' and has no prerequisites'}." for t in tasks)
    stem = (f"A workshop has {n} tasks and enough workers to run any number of tasks at the same time. {lines} "
            "What is the shortest possible time, in hours, to finish every task?")
    total = sum(dur.values())
    distract = [str(total), str(best + 1), str(best - 1), str(max(dur.values())), str(best + 2)]
    meta = {"durations": dur, "prerequisites": pre, "why": f"longest dependency chain = {best} hours (dynamic programming and full chain enumeration agree)"}
    return S.add_mc(rng, category=cat, difficulty=diff, stem=stem, correct=str(best),
                    distractors=[d for d in distract if d != str(best) and int(d) > 0], meta=meta)


def scheduling(S, rng, diff, cat):
    return rng.choice([week_schedule, week_schedule, common_slot, project])(S, rng, diff, cat)


CATEGORIES = {
    "logic_grid": grid,
    "ordering": ordering,
    "knights_knaves": knights,
    "scheduling": scheduling,
}


def make_rows() -> K.EvalSet:
    S = K.EvalSet(DATASET_ID, "reason")
    K.fill(S, random.Random(SEED), CATEGORIES, PER_CELL)
    return S


def generate(out: Path) -> None:
    S = make_rows()
    S.write(
        out,
        description=(
            "Logic puzzles with a unique solution: logic grids, orderings, knights and knaves, "
            "and scheduling (weekly slots, common free hours, project critical paths), "
            "easy/medium/hard, each row scored exact or mc. Uniqueness is proven by exhaustive "
            "search over every candidate world; meta.solution holds the full solution"
        ),
        generator=__file__,
        seed=SEED,
        default_scorer="exact",
        inputs=[Path(__file__).resolve().parent / "_puzzles.py"],
    )


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
