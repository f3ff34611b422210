# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-reasoning-v2: harder unique-solution puzzles, the second-wave replacement
for eval-reasoning-v1.

Four categories x easy/medium/hard x 21 rows. Compared with v1 the puzzles are bigger
(up to 7 people in an ordering, 5 islanders with counting, parity and "would say"
claims, logic grids with house positions and adjacency), direct placements are rarer,
and scheduling adds time-zone conversion and rule-driven two-worker simulations. Rows mix
`exact` (a name, kind, day or time), `numeric` (a count, a position, a finishing hour)
and `mc`. Uniqueness is proven by exhaustive search over every candidate world
(_puzzles.py); simulations are run twice by independent implementations (event-driven
and hour-by-hour). meta.solution records the whole solution.

    python datasets/_gen/gen_eval_reasoning_v2.py [--out DIR]
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _evalkit as K  # noqa: E402
import _lib  # noqa: E402
import _puzzles as P  # noqa: E402

DATASET_ID = "eval-reasoning-v2"
SEED = 6_200_002
PER_CELL = 21
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]


def form(rng: random.Random) -> str:
    r = rng.random()
    return "mc" if r < 0.4 else ("exact" if r < 0.75 else "numeric")


def knights(S, rng, diff, cat):
    n, level = {"easy": (3, 2), "medium": (4, 2), "hard": (5, 3)}[diff]
    names = K.names(rng, n)
    world, claims = P.knights_puzzle(rng, names, level)
    intro = (f"Every inhabitant of an island is either a knight, who only makes true statements, or a knave, who only "
             f"makes false ones. {K.join_and(names)} are all inhabitants, and each makes one statement.")
    said = " ".join(f'{names[i]}: "{c.text}"' for i, c in enumerate(claims))
    stem = f"{intro} {said}"
    meta = {"solution": {nm: ("knight" if k else "knave") for nm, k in zip(names, world)},
            "why": f"the only one of the {2 ** n} knight/knave assignments in which every knight's statement is true and every knave's is false (exhaustive check)"}
    kind = form(rng)
    if kind == "numeric":
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} How many of the {n} are knights? Reply with the number only.",
                     answer=sum(world), scorer="numeric", meta=meta)
    if kind == "exact":
        who = rng.randrange(n)
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} Is {names[who]} a knight or a knave? Reply with one word: knight or knave.",
                     answer="knight" if world[who] else "knave", scorer="exact", meta=meta)
    knaves = [nm for nm, k in zip(names, world) if not k]
    correct = K.join_and(knaves) if knaves else "nobody"
    wrong = set()
    while len(wrong) < 5:
        w = [nm for nm in names if rng.random() < 0.5]
        text = K.join_and(w) if w else "nobody"
        if text != correct:
            wrong.add(text)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} Exactly which of them are knaves?", correct=correct, distractors=sorted(wrong), meta=meta)


def ordering(S, rng, diff, cat):
    n, kinds = {
        "easy": (5, ["before", "imm", "gap", "apart", "notpos"]),
        "medium": (6, ["before", "gap", "apart", "notpos", "imm"]),
        "hard": (7, ["before", "gap", "apart", "notpos", "imm"]),
    }[diff]
    ctx = rng.choice(P.ORDER_CONTEXTS)
    names = K.names(rng, n)
    order, clues = P.order_puzzle(rng, names, kinds, ctx, {"immediately": 0.6, "directly": 0.6, "one higher": 0.6})
    stem = f"{ctx['intro'].format(count=n, names=K.join_and(names))} {' '.join(c.text for c in clues)}"
    meta = {"solution": list(order), "why": f"the only one of the {math.factorial(n)} orders satisfying every clue (exhaustive check)"}
    kind = form(rng)
    if kind == "numeric":
        who = rng.randrange(n)
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} {ctx['qpos'].format(a=order[who])}", answer=who + 1, scorer="numeric", meta=meta)
    k = rng.randrange(n)
    q = ctx["q"].format(ord=P.ORD_WORDS[k], num=k + 1)
    if kind == "exact":
        extra = "" if "name" in q else " Reply with the name only."
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} {q}{extra}", answer=order[k], scorer="exact", meta=meta)
    others = [x for x in names if x != order[k]]
    rng.shuffle(others)
    q_mc = q.replace(" Reply with the owner's name.", "")
    return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} {q_mc}", correct=order[k], distractors=others, meta=meta)


def grid(S, rng, diff, cat):
    n, attrs_n, houses, kinds = {
        "easy": (3, 3, False, ["link", "neg", "neglink"]),
        "medium": (4, 2, True, ["link", "neglink", "next", "left", "neg"]),
        "hard": (4, 2, True, ["link", "neglink", "next", "left"]),
    }[diff]
    names = K.names(rng, n)
    attrs = rng.sample(sorted(P.GRID_ATTRS), attrs_n)
    keys, vals, truth, clues = P.grid_puzzle(rng, names, attrs, houses=houses, clue_kinds=kinds)
    cats = "; ".join(f"{a}: {', '.join(vals[a])}" for a in attrs)
    where = f" They live in {n} houses in a row, numbered 1 to {n} from left to right, one person per house." if houses else ""
    intro = f"{K.join_and(names)} each have exactly one of each of the following, and no two of them share a value: {cats}.{where}"
    stem = f"{intro} {' '.join(c.text for c in clues)}"
    facts = P.stated(clues)
    solution = {nm: {k: truth[j][i] for j, k in enumerate(keys)} for i, nm in enumerate(names)}
    meta = {"solution": solution, "why": f"the only one of the {math.factorial(n) ** len(keys)} assignments satisfying every clue (exhaustive check)"}
    kind = form(rng)
    if kind == "numeric":
        if not houses:
            kind = "exact"
        else:
            i = rng.randrange(n)
            return S.add(category=cat, difficulty=diff, prompt=f"{stem} In which house does {names[i]} live? Reply with the house number.",
                         answer=truth[keys.index("house")][i], scorer="numeric", meta=meta)
    a = rng.choice(attrs)
    ai = keys.index(a)
    if rng.random() < 0.5:
        v = K.choose(rng, [x for x in vals[a] if ("is", names[truth[ai].index(x)], a, x) not in facts])
        correct = names[truth[ai].index(v)]
        q, options = P.GRID_ATTRS[a]["qwho"].format(v=v), [x for x in names if x != correct]
    else:
        i = K.choose(rng, [j for j in range(n) if ("is", names[j], a, truth[ai][j]) not in facts])
        correct = truth[ai][i]
        q, options = P.GRID_ATTRS[a]["q"].format(name=names[i]), [x for x in vals[a] if x != correct]
    rng.shuffle(options)
    if kind == "exact":
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} {q} Reply with one word.", answer=correct, scorer="exact", meta=meta)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} {q}", correct=correct, distractors=options, meta=meta)


EVENTS = ["budget review", "design workshop", "vendor call", "team lunch", "safety drill", "board meeting", "code freeze",
          "client demo", "training session", "audit visit", "office move", "hiring panel", "press briefing", "server upgrade"]


def week_schedule(S, rng, diff, cat):
    n_events, kinds = {
        "easy": (4, ["noton", "before", "dayafter", "notedge", "gap"]),
        "medium": (5, ["noton", "before", "dayafter", "gap", "notedge"]),
        "hard": (5, ["before", "gap", "notedge", "dayafter"]),
    }[diff]
    events = rng.sample(EVENTS, n_events)
    truth, clues = P.slot_puzzle(rng, events, WEEKDAYS, kinds)
    stem = (f"A team fixes the days of {n_events} events in one working week, Monday to Friday, with no two events on the same day: "
            f"the {K.join_and(events)}. {' '.join(c.text for c in clues)}")
    meta = {"solution": {ev: WEEKDAYS[d] for ev, d in zip(events, truth)}, "why": "the only assignment of events to distinct weekdays satisfying every clue (exhaustive check)"}
    facts = P.stated(clues)
    e = K.choose(rng, [i for i in range(n_events) if ("on", events[i], truth[i]) not in facts])
    q = f"On which day is the {events[e]}?"
    kind = form(rng)
    if kind == "exact" or (kind == "numeric" and n_events == 5):
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} {q} Reply with the day only.", answer=WEEKDAYS[truth[e]], scorer="exact", meta=meta)
    if kind == "numeric":
        free = [d for d in range(5) if d not in truth]
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} Which day has no event? Reply with its position in the week as a number (Monday is 1).",
                     answer=free[0] + 1, scorer="numeric", meta=meta)
    others = [d for d in WEEKDAYS if d != WEEKDAYS[truth[e]]]
    rng.shuffle(others)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} {q}", correct=WEEKDAYS[truth[e]], distractors=others, meta=meta)


def zones(S, rng, diff, cat):
    k = {"easy": 2, "medium": 3, "hard": 4}[diff]
    people = K.names(rng, k)
    base = rng.randrange(-8, 4)
    offsets = [base + rng.randrange(0, 8) for _ in people]  # within 7 hours of each other
    while len(set(offsets)) < min(k, 3):
        offsets = [base + rng.randrange(0, 8) for _ in people]
    target = rng.randrange(0, 24)  # the meeting hour in UTC
    while True:
        free_utc = []
        for off in offsets:
            # each person is free during a few local working hours 08-18, always including the target
            local_target = (target + off) % 24
            if not 8 <= local_target < 18:
                break
            hours = {local_target} | {h for h in range(8, 18) if rng.random() < 0.4}
            free_utc.append(sorted(((h - off) % 24) for h in hours))
        else:
            common = set(range(24))
            for f in free_utc:
                common &= set(f)
            if common == {target}:
                break
        target = rng.randrange(0, 24)

    def local_ranges(f, off):
        hs = sorted((h + off) % 24 for h in f)
        out, start, prev = [], hs[0], hs[0]
        for h in hs[1:] + [None]:
            if h is not None and h == prev + 1:
                prev = h
                continue
            out.append(f"{start:02d}:00–{prev + 1:02d}:00")
            if h is not None:
                start = prev = h
        return K.join_and(out)

    def zone(off):
        return "UTC" if off == 0 else f"UTC{'+' if off > 0 else '−'}{abs(off)}"

    lines = " ".join(f"{p} (local time {zone(off)}) is free {local_ranges(f, off)} local time." for p, f, off in zip(people, free_utc, offsets))
    stem = f"{K.join_and(people)} want a one-hour call starting on the hour. {lines} No one is free at any other time that day."
    # independent: re-check hour by hour from the local lists
    brute = [u for u in range(24) if all(((u + off) % 24) in {(h + off) % 24 for h in f} for f, off in zip(free_utc, offsets))]
    assert brute == [target]
    meta = {"offsets": dict(zip(people, offsets)), "why": f"converted to UTC, {target:02d}:00 is the only hour everyone is free"}
    ask_zone = rng.choice([None] + [i for i in range(k)])
    if ask_zone is None:
        q, answer = "At what time must the call start, in UTC? Reply with the time as HH:MM.", f"{target:02d}:00"
    else:
        q, answer = f"At what local time does the call start for {people[ask_zone]}? Reply with the time as HH:MM.", f"{(target + offsets[ask_zone]) % 24:02d}:00"
    if form(rng) == "mc":
        opts = [f"{(target + d) % 24:02d}:00" for d in (1, -1, 2, -2, 3, offsets[0], -offsets[-1])]
        if ask_zone is not None:
            opts.append(f"{target:02d}:00")
        q_mc = q.split(" Reply")[0]
        return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} {q_mc}", correct=answer, distractors=[o for o in opts if o != answer], meta=meta)
    return S.add(category=cat, difficulty=diff, prompt=f"{stem} {q}", answer=answer, scorer="exact", meta=meta)


def simulate_events(tasks, dur, pre, workers):
    """Event-driven list scheduling: a free worker takes the available task that comes
    first alphabetically. Returns {task: (start, finish)}."""
    done, running, t, sched = set(), {}, 0, {}
    free = workers
    while len(sched) < len(tasks) or running:
        avail = [x for x in tasks if x not in sched and all(p in done for p in pre[x])]
        while free and avail:
            x = avail.pop(0)
            sched[x] = (t, t + dur[x])
            running[x] = t + dur[x]
            free -= 1
        if not running:
            break
        t = min(running.values())
        for x in [x for x, f in running.items() if f == t]:
            del running[x]
            done.add(x)
            free += 1
    return sched


def simulate_hours(tasks, dur, pre, workers):
    """The same rule, stepped one hour at a time (an independent implementation)."""
    left = {x: None for x in tasks}
    start, finish, slots = {}, {}, [None] * workers
    hour = 0
    while len(finish) < len(tasks):
        for w in range(workers):
            x = slots[w]
            if x is not None and start[x] + dur[x] == hour:
                finish[x] = hour
                slots[w] = None
        for w in range(workers):
            if slots[w] is None:
                ready = [x for x in tasks if x in left and all(p in finish for p in pre[x])]
                if ready:
                    x = ready[0]
                    del left[x]
                    start[x] = hour
                    slots[w] = x
        hour += 1
        assert hour < 1000
    return {x: (start[x], finish[x]) for x in tasks}


def two_workers(S, rng, diff, cat):
    n = {"easy": 5, "medium": 6, "hard": 7}[diff]
    workers = 2 if diff != "hard" else rng.choice([2, 3])
    tasks = [chr(ord("A") + i) for i in range(n)]
    dur = {t: rng.randrange(1, 7) for t in tasks}
    while True:
        pre = {t: sorted(rng.sample(tasks[:i], rng.randrange(0, min(i, 2) + 1))) for i, t in enumerate(tasks)}
        if sum(len(v) for v in pre.values()) >= n - 2:
            break
    s1 = simulate_events(tasks, dur, pre, workers)
    s2 = simulate_hours(tasks, dur, pre, workers)
    assert s1 == s2, (s1, s2)
    end = max(f for _, f in s1.values())
    lines = " ".join(f"{t} takes {dur[t]} h{' after ' + K.join_and(pre[t]) + (' is' if len(pre[t]) == 1 else ' are') + ' done' if pre[t] else ''}." for t in tasks)
    rule = (f"Rule: {workers} workers start at hour 0; an idle worker at once takes the alphabetically first unstarted task "
            "whose prerequisites are all done, and keeps it until it is finished, or waits if none is ready.")
    stem = f"A job consists of tasks {', '.join(tasks)}. {lines} {rule}"
    meta = {"schedule": {t: list(v) for t, v in s1.items()}, "why": "simulated twice (event-driven and hour by hour); the schedules agree"}
    kind = form(rng)
    if kind == "mc":
        last = max(tasks, key=lambda t: (s1[t][1], t))
        if sum(1 for t in tasks if s1[t][1] == s1[last][1]) > 1:
            kind = "numeric"
        else:
            others = [t for t in tasks if t != last]
            rng.shuffle(others)
            return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} Which task finishes last?", correct=f"Task {last}",
                            distractors=[f"Task {t}" for t in others], meta=meta)
    if kind == "exact":
        t = rng.choice(tasks)
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} At which hour does task {t} start? Reply with the number only.",
                     answer=str(s1[t][0]), scorer="exact", meta=meta)
    return S.add(category=cat, difficulty=diff, prompt=f"{stem} At which hour is the whole job finished? Reply with the number only.",
                 answer=end, scorer="numeric", meta=meta)


def scheduling(S, rng, diff, cat):
    return rng.choice([week_schedule, zones, two_workers])(S, rng, diff, cat)


CATEGORIES = {"logic_grid": grid, "ordering": ordering, "knights_knaves": knights, "scheduling": scheduling}


def make_rows() -> K.EvalSet:
    S = K.EvalSet(DATASET_ID, "reason2")
    K.fill(S, random.Random(SEED), CATEGORIES, PER_CELL)
    return S


def generate(out: Path) -> None:
    S = make_rows()
    S.write(
        out,
        description=(
            "Harder logic puzzles with a unique solution (second wave, supersedes eval-reasoning-v1): "
            "logic grids with house positions, orderings of up to seven, knights and knaves with "
            "counting, parity and nested claims, and scheduling with time zones and rule-driven "
            "worker simulations; rows mix exact, numeric and mc. Uniqueness is proven by exhaustive "
            "search, simulations by two independent implementations"
        ),
        generator=__file__,
        seed=SEED,
        default_scorer="exact",
        date=K.SECOND_WAVE_DATE,
        inputs=[Path(__file__).resolve().parent / "_puzzles.py"],
    )


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
