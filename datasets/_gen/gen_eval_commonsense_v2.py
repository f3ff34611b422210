# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-commonsense-v2: goal-tracking traps, altered classic riddles, false
premises and literal-text questions (second wave).

Four categories x easy/medium/hard x 21 rows, mixing `exact`, `numeric` and `mc`. Each item
is built so that a pattern-matched answer (the memorised riddle answer, the surface
reading of a goal, the premise taken on trust, a guessed letter count) is wrong and the
right answer follows from the prompt alone:

* goal tracking: errands whose goal forces the choice (the car must go to the car wash),
  objects moved between places with announced-but-abandoned moves, errand lists with
  failures -- answers come from simulating the state;
* altered riddles: classic puzzle shapes with changed numbers or a changed rule (the host
  who opens a door at random, a boat big enough for everything, overtaking the second
  runner) -- answers computed, river crossings solved by breadth-first search, worst-case
  draws by enumeration, the random-host game by enumerating outcomes;
* false premises: impossible dates (checked with calendar), empty number sets (checked by
  search), records that never mention what the question presupposes;
* literal text: letter, word and position questions about generated strings, counted.

No item depends on taste, sentiment or the current date.

    python datasets/_gen/gen_eval_commonsense_v2.py [--out DIR]
"""

from __future__ import annotations

import calendar
import itertools
import math
import random
import sys
from collections import deque
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _evalkit as K  # noqa: E402
import _lib  # noqa: E402

DATASET_ID = "eval-commonsense-v2"
SEED = 9_200_002
PER_CELL = 21
F = Fraction
MONTHS = list(calendar.month_name)[1:]
WEEKDAYS = list(calendar.day_name)
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


# --- goal tracking ----------------------------------------------------------------------

# (goal, place, the thing that must be there, short reason)
MUST_BRING = [
    ("get my car washed", "the car wash", "car", "the car has to be at the car wash"),
    ("have the winter tyres fitted to my car", "the tyre shop", "car", "the car has to be at the tyre shop"),
    ("fill my car's tank with fuel", "the petrol station", "car", "the car has to be at the pump"),
    ("get my van's oil changed", "the garage", "van", "the van has to be in the garage"),
    ("have my car's annual safety inspection done", "the test centre", "car", "the car has to be inspected on site"),
    ("get a dent in my car door repaired", "the body shop", "car", "the car has to be at the body shop"),
    ("have my motorbike's chain replaced", "the bike workshop", "motorbike", "the motorbike has to be at the workshop"),
    ("get my car's windscreen chip filled", "the glass repair bay", "car", "the car has to be at the repair bay"),
]


def gt_bring(S, rng, diff, cat):
    goal, place, thing, reason = rng.choice(MUST_BRING)
    dist = rng.choice(["80 metres", "150 metres", "200 metres", "a three-minute walk", "just around the corner", "300 metres", "two streets away"])
    extra = {
        "easy": "",
        "medium": rng.choice([" The weather is lovely and I could use the exercise.", " Parking there is a bit tight.", " My doctor keeps telling me to walk more."]),
        "hard": rng.choice([" Walking would save fuel, and the route is flat and pleasant.", " I usually walk everywhere within a kilometre, on principle.",
                            " It is so close that driving feels silly, and walking is healthier."]),
    }[diff]
    ride = "ride" if thing == "motorbike" else "drive"
    stem = f"I want to {goal}. {place[0].upper() + place[1:]} is {dist} from my home.{extra} Should I walk there or {ride} my {thing} there?"
    correct = f"{ride.capitalize()} the {thing} there, because {reason}"
    wrong = [f"Walk, because it is so close", f"Walk there first and {ride} back later", f"Either; the distance is too short to matter"]
    meta = {"why": f"the goal requires the {thing} itself at {place}; walking leaves it at home"}
    return S.add_mc(rng, category=cat, difficulty=diff, stem=stem, correct=correct, distractors=wrong, meta=meta)


PLACES = ["the kitchen drawer", "the blue box", "the coat pocket", "the bookshelf", "the red bag", "the garden shed", "the desk", "the bread bin"]
ITEMS = ["key", "torch", "passport", "glove", "stapler", "spoon", "ticket", "coin"]


def gt_objects(S, rng, diff, cat):
    n_steps = {"easy": 3, "medium": 5, "hard": 7}[diff]
    people = K.names(rng, 2)
    items = rng.sample(ITEMS, 2 if diff != "easy" else 1)
    places = rng.sample(PLACES, 4)
    loc = {it: places[i] for i, it in enumerate(items)}
    lines = [f"The {it} is in {loc[it]}." for it in items]
    for step in range(n_steps):
        who = rng.choice(people)
        it = rng.choice(items)
        kind = rng.random()
        if kind < 0.45:
            dest = rng.choice([p for p in places if p != loc[it]])
            lines.append(f"{who} moves the {it} from {loc[it]} to {dest}.")
            loc[it] = dest
        elif kind < 0.7:
            dest = rng.choice([p for p in places if p != loc[it]])
            lines.append(rng.choice([f"{who} thinks about moving the {it} to {dest}, but leaves it where it is.",
                                     f"{who} says the {it} would be safer in {dest}, but does not touch it.",
                                     f"{who} starts to carry the {it} to {dest}, changes their mind and puts it straight back."]))
        elif kind < 0.85 and len(items) > 1:
            a, b = items
            if loc[a] != loc[b]:
                lines.append(f"{who} swaps the places of the {a} and the {b}.")
                loc[a], loc[b] = loc[b], loc[a]
            else:
                lines.append(f"{who} looks at the {a} and the {b} and leaves both alone.")
        else:
            dest = rng.choice([p for p in places if p != loc[it]])
            lines.append(f"{who} moves the {it} to {dest}.")
            loc[it] = dest
    target = rng.choice(items)
    stem = " ".join(lines) + f" Where is the {target} now?"
    meta = {"final": loc, "why": "state simulated step by step; announced moves that are not carried out change nothing"}
    if rng.random() < 0.5:
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} Reply with the place only, as written above (for example: the desk).",
                     answer=loc[target], scorer="exact", meta=meta)
    return S.add_mc(rng, category=cat, difficulty=diff, stem=stem, correct=loc[target], distractors=[p for p in places if p != loc[target]], meta=meta)


ERRANDS = [("post a parcel", "post office", "the parcel"), ("return a borrowed drill", "neighbour's house", "the drill"),
           ("buy bread", "bakery", None), ("collect a prescription", "pharmacy", None), ("drop off a coat for cleaning", "dry cleaner", "the coat"),
           ("return library books", "library", "the books"), ("pay a parking fine", "town hall", None), ("buy stamps", "newsagent", None)]


def gt_errands(S, rng, diff, cat):
    k = {"easy": 3, "medium": 4, "hard": 5}[diff]
    who = K.names(rng, 1)[0]
    errands = rng.sample(ERRANDS, k)
    done = []
    story = [f"{who} sets out to {K.join_and([e[0] for e in errands])}."]
    forgotten = {e[2] for e in errands if e[2] and rng.random() < 0.35}
    if forgotten:
        story.append(f"{who} leaves home without {K.join_and(sorted(forgotten))}.")
    for task, place, thing in errands:
        r = rng.random()
        if thing in forgotten:
            story.append(f"At the {place}, {who} realises what is missing and leaves again.")
            ok = False
        elif r < 0.2:
            story.append("Nobody is at home at the neighbour's house." if place == "neighbour's house" else f"The {place} is closed for the day.")
            ok = False
        elif r < 0.3 and diff != "easy":
            story.append(f"{who} walks past the {place} while chatting on the phone and only notices much later.")
            ok = False
        else:
            story.append(rng.choice([f"At the {place}, everything goes smoothly.", f"The queue at the {place} is long, but {who} waits and gets it done.",
                                     f"{who} stops at the {place} and finishes that errand."]))
            ok = True
        done.append(ok)
    n = sum(done)
    stem = " ".join(story)
    meta = {"completed": [e[0] for e, ok in zip(errands, done) if ok], "why": "each errand is done only if the place was open, visited, and anything needed was brought"}
    if rng.random() < 0.6 or n in (0, k):
        return S.add(category=cat, difficulty=diff, prompt=f"{stem} How many of the {k} errands did {who} complete? Reply with the number only.",
                     answer=n, scorer="numeric", meta=meta)
    undone = [e[0] for e, ok in zip(errands, done) if not ok]
    finished = [e[0] for e, ok in zip(errands, done) if ok]
    if len(undone) == 1:
        return S.add_mc(rng, category=cat, difficulty=diff, stem=f"{stem} Which errand is still not done?", correct=undone[0], distractors=finished, meta=meta)
    return S.add(category=cat, difficulty=diff, prompt=f"{stem} How many of the {k} errands are still not done? Reply with the number only.",
                 answer=k - n, scorer="numeric", meta=meta)


# --- altered riddles --------------------------------------------------------------------------


def ar_price(S, rng, diff, cat):
    a, b = rng.choice([("notebook", "pen"), ("racket", "shuttlecock"), ("kettle", "teabag tin"), ("lamp", "bulb"), ("raincoat", "rain hat")])
    if diff == "easy":
        cheap = F(rng.randrange(5, 60), 100)
        gap = F(rng.randrange(1, 5))
        total = 2 * cheap + gap
        q = f"A {a} and a {b} cost {K.decimal_string(total)} dollars together. The {a} costs {K.decimal_string(gap)} dollars more than the {b}. How much does the {b} cost, in dollars?"
        assert (total - gap) / 2 == cheap
        return S.add_number(category=cat, difficulty=diff, question=q, value=cheap, meta={"why": f"b + (b + {gap}) = {total}", "trap": K.decimal_string(total - gap)})
    k = rng.randrange(2, 9)
    cheap = F(rng.randrange(10, 300), 100)
    total = cheap * (k + 1)
    q = f"A {a} and a {b} cost {K.decimal_string(total)} dollars together, and the {a} costs {k} times as much as the {b}. How much does the {b} cost, in dollars?"
    if diff == "hard":
        extra = F(rng.randrange(1, 4))
        total = cheap * (k + 1) + extra
        q = (f"A {a} and a {b} cost {K.decimal_string(total)} dollars together. The {a} costs {extra} dollar{'s' if extra > 1 else ''} more than {k} times "
             f"the price of the {b}. How much does the {b} cost, in dollars?")
    extra_paid = total - cheap * (k + 1)  # 0 unless hard
    assert cheap + (k * cheap + extra_paid) == total and (total - extra_paid) / (k + 1) == cheap  # linear in b: the root is unique
    return S.add_number(category=cat, difficulty=diff, question=q, value=cheap, meta={"why": f"b + {k}b{' + extra' if diff == 'hard' else ''} = total"})


def ar_machines(S, rng, diff, cat):
    a = rng.randrange(3, 12)
    t = rng.randrange(2, 15)
    thing = rng.choice(["widgets", "bottles", "badges", "pots", "bricks"])
    if diff == "easy":
        b = rng.randrange(20, 200)
        q = f"If {a} machines make {a} {thing} in {t} minutes, how many minutes do {b} machines need to make {b} {thing}?"
        value = F(t)
    else:
        w = a * rng.randrange(1, 5)
        b = rng.randrange(2, 30)
        v = b * rng.randrange(1, 6)
        value = F(t) * F(v, w) * F(a, b)
        q = f"If {a} machines make {w} {thing} in {t} minutes, how many minutes do {b} machines need to make {v} {thing}, all machines working at the same steady rate?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": "rate per machine is fixed; time = work / (machines × rate)"})


def ar_growth(S, rng, diff, cat):
    n = rng.randrange(12, 60)
    factor, word = rng.choice([(2, "doubles"), (3, "triples")]) if diff != "easy" else (2, "doubles")
    back = {"easy": 1, "medium": rng.randrange(1, 3), "hard": rng.randrange(2, 4)}[diff]
    frac = F(1, factor**back)
    frac_text = {F(1, 2): "half", F(1, 4): "a quarter", F(1, 8): "an eighth", F(1, 3): "a third", F(1, 9): "a ninth", F(1, 27): "a twenty-seventh"}[frac]
    thing, where = rng.choice([("patch of pondweed", "the pond"), ("mould colony", "the dish"), ("carpet of moss", "the wall"), ("bloom of algae", "the tank")])
    q = f"A {thing} {word} in area every day and first covers all of {where} on day {n}. On which day did it cover exactly {frac_text} of {where}?"
    # independent: walk backwards from full coverage
    area, day = F(1), n
    while area > frac:
        area /= factor
        day -= 1
    assert area == frac
    return S.add_number(category=cat, difficulty=diff, question=q, value=day, meta={"why": f"{frac_text} is {back} {word[:-1]}ing step(s) before day {n}", "trap": n // factor})


def ar_all_but(S, rng, diff, cat):
    n = rng.randrange(12, 90)
    k = rng.randrange(2, n - 3)
    animal = rng.choice(["sheep", "goats", "ducks", "geese", "llamas"])
    who = K.names(rng, 1)[0]
    if diff == "easy":
        q = f"{who} has {n} {animal}. All but {k} wander off through a broken gate. How many {animal} does {who} still have in the field?"
        value = k
    elif diff == "medium":
        m = rng.randrange(1, k)
        q = f"{who} has {n} {animal}. All but {k} wander off through a broken gate, and then {m} of those that stayed are sold. How many {animal} are left in the field?"
        value = k - m
    else:
        m = rng.randrange(1, n - k)
        q = (f"{who} has {n} {animal}. All but {k} wander off through a broken gate; later {m} of the wanderers come back by themselves. "
             f"How many {animal} are in the field now?")
        value = k + m
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"'all but {k}' leaves {k}", "trap": n - k})


def river_bfs(capacity: int, items: tuple[str, ...], conflicts: set[frozenset]) -> int:
    """Minimum crossings for the farmer to get every item across; None if impossible."""
    start = (frozenset(items), "L")
    goal = (frozenset(), "R")
    seen = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        left, side = state
        if state == goal:
            return seen[state]
        here = left if side == "L" else frozenset(items) - left
        for k in range(0, capacity + 1):
            for load in itertools.combinations(sorted(here), k):
                new_left = left - set(load) if side == "L" else left | set(load)
                unattended = new_left if side == "L" else frozenset(items) - new_left
                if any(c <= unattended for c in conflicts):
                    continue
                nxt = (frozenset(new_left), "R" if side == "L" else "L")
                if nxt not in seen:
                    seen[nxt] = seen[state] + 1
                    queue.append(nxt)
    return None


def ar_river(S, rng, diff, cat):
    trio = rng.choice([("fox", "hen", "bag of grain"), ("wolf", "goat", "cabbage"), ("dog", "cat", "fish"), ("cat", "mouse", "wedge of cheese"),
                       ("hawk", "chick", "sack of seed"), ("dog", "rabbit", "crate of carrots")])
    pred, prey, food = trio
    conflicts = {frozenset({pred, prey}), frozenset({prey, food})}
    cap = {"easy": 3, "medium": rng.choice([2, 3]), "hard": rng.choice([1, 2])}[diff]
    value = river_bfs(cap, trio, conflicts)
    assert value is not None
    boat = {1: "room for the farmer and one more thing", 2: "room for the farmer and two more things", 3: "room for the farmer and all three of them at once"}[cap]
    q = (f"A farmer stands on a river bank with a {pred}, a {prey} and a {food}. Left alone together, the {pred} would eat the {prey} and the {prey} would eat the "
         f"{food}; nothing is eaten while the farmer is present. The boat has {boat}, and only the farmer can row. What is the smallest number of one-way crossings "
         f"needed to get the farmer, the {pred}, the {prey} and the {food} to the far bank?")
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": f"breadth-first search over bank states, boat capacity {cap}", "trap": 7})


def ar_host(S, rng, diff, cat):
    doors = {"easy": 3, "medium": 3, "hard": rng.choice([4, 5])}[diff]
    knows = diff == "easy" and rng.random() < 0.4
    noun, blanks, blank = rng.choice([("car", "goats", "a goat"), ("holiday voucher", "empty boxes", "an empty box"),
                                      ("gold watch", "rubber ducks", "a rubber duck"), ("motorbike", "sacks of potatoes", "a sack of potatoes")])
    prize = f"a {noun}"
    mine = rng.randrange(doors)
    # enumerate: prize position, host's door choice (uniform over the doors the host may open)
    stay_num = switch_num = total = F(0)
    for where in range(doors):
        options = [d for d in range(doors) if d != mine and (d != where or not knows)]
        for opened in options:
            p = F(1, doors) * F(1, len(options))
            if opened == where:
                continue  # the host revealed the prize: not the situation described
            total += p
            stay_num += p if where == mine else 0
            others = [d for d in range(doors) if d not in (mine, opened)]  # switch uniformly among these
            switch_num += p * F(sum(1 for d in others if d == where), len(others))
    stay, switch = stay_num / total, switch_num / total
    host = (f"The host, who knows where the {noun} is, deliberately opens one of the other doors to show {blank}." if knows else
            f"The host, who has no idea where the {noun} is, opens one of the other doors at random, and it happens to show {blank}.")
    switch_text = "the other closed door" if doors == 3 else "one of the other closed doors, chosen at random"
    q = (f"A game show has {doors} closed doors: {prize} behind one, {blanks} behind the rest. You pick door {mine + 1}. {host} You may stay with door "
         f"{mine + 1} or switch to {switch_text}. What is your probability of winning the {noun} if you switch?")
    return S.add_number(category=cat, difficulty=diff, question=q, value=switch, meta={"why": f"enumerated prize and host choices conditioned on what was shown: stay {stay}, switch {switch}"})


def ar_overtake(S, rng, diff, cat):
    n = rng.randrange(6, 30)
    pos = rng.randrange(2, n - 3)
    runners = list(range(n))
    me = runners.pop(pos)  # I am at index pos (place pos + 1)
    runners.insert(pos, me)
    events = []
    steps = {"easy": 1, "medium": 2, "hard": 3}[diff]
    for i in range(steps):
        idx = runners.index(me)
        if i == 0 or rng.random() < 0.5:
            if idx == 0:
                break
            runners[idx - 1], runners[idx] = runners[idx], runners[idx - 1]
            events.append(f"you overtake the runner who was in {K.ordinal(idx)} place")
        else:
            k = rng.randrange(1, 3)
            if idx + k >= n:
                break
            runners.insert(idx + k, runners.pop(idx))
            events.append(f"{NUMBER_WORDS[k]} runner{'s' if k > 1 else ''} overtake{'s' if k == 1 else ''} you")
    place = runners.index(me) + 1
    q = f"In a race of {n} runners, {', then '.join(events)}. Nobody else changes position. In which place are you now? Reply with the place as a number."
    return S.add(category=cat, difficulty=diff, prompt=q[0].upper() + q[1:], answer=place, scorer="numeric", meta={"why": "positions simulated", "trap": "one place better than the runner overtaken"})


def ar_socks(S, rng, diff, cat):
    colours = rng.sample(["black", "white", "grey", "navy", "red"], {"easy": 2, "medium": 2, "hard": 3}[diff])
    counts = {c: rng.randrange(3, 15) for c in colours}
    want = {"easy": "pair", "medium": rng.choice(["pair", "one of each"]), "hard": rng.choice(["two of one named colour", "pair", "one of each"])}[diff]
    named = rng.choice(colours)
    drawer = [c for c in colours for _ in range(counts[c])]

    def ok(sample):
        if want == "pair":
            return any(sample.count(c) >= 2 for c in colours)
        if want == "one of each":
            return all(c in sample for c in colours)
        return sample.count(named) >= 2

    # the worst case: the smallest k such that every multiset of k socks from the drawer satisfies the goal
    def all_draws(k):
        for combo in itertools.combinations_with_replacement(colours, k):
            if all(combo.count(c) <= counts[c] for c in colours):
                yield list(combo)

    k = next(k for k in range(1, len(drawer) + 1) if all(ok(s) for s in all_draws(k)))
    goal = {"pair": "a matching pair (two socks of the same colour)", "one of each": f"at least one sock of every colour",
            "two of one named colour": f"two {named} socks"}[want]
    q = (f"A drawer holds {K.join_and([f'{counts[c]} {c}' for c in colours])} socks, all mixed up. In complete darkness, what is the smallest number of socks you "
         f"must take out to be certain of having {goal}?")
    return S.add_number(category=cat, difficulty=diff, question=q, value=k, meta={"why": "worst case found by enumerating every possible draw"})


def ar_posts(S, rng, diff, cat):
    gap = rng.randrange(2, 10)
    n = gap * rng.randrange(3, 40)
    shape = {"easy": "straight", "medium": rng.choice(["straight", "closed loop"]), "hard": "closed loop"}[diff]
    if shape == "straight":
        value = n // gap + 1
        q = f"A straight fence {n} m long has a post every {gap} m, including one at each end. How many posts are there?"
    else:
        value = n // gap
        q = f"A fence runs all the way around a field in a closed loop {n} m long, with a post every {gap} m. How many posts are there?"
    if diff == "hard":
        gates = rng.randrange(1, 3)
        q = q.replace("How many posts are there?", f"{NUMBER_WORDS[gates].capitalize()} of the posts {'is' if gates == 1 else 'are'} replaced by gateposts, which still count as posts. How many posts are there?")
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": "posts = gaps + 1 on a line, = gaps on a loop"})


def ar_siblings(S, rng, diff, cat):
    who = K.names(rng, 1)[0]
    b, s = rng.randrange(1, 6), rng.randrange(2, 7)
    girl = diff != "hard" or rng.random() < 0.5
    pron, poss = ("she", "her") if girl else ("he", "his")
    q = f"{who} has {b} brother{'s' if b > 1 else ''}. Each of {poss} brothers has {s} sisters. How many sisters does {who} have? ({who} is {'a girl' if girl else 'a boy'}.)"
    value = s - 1 if girl else s
    if diff == "medium":
        value = b + s
        q = f"{who} is a girl with {b} brother{'s' if b > 1 else ''}, and each of her brothers has {s} sisters. All are full siblings. How many children are in the family?"
    return S.add_number(category=cat, difficulty=diff, question=q, value=value, meta={"why": "the girl counts among her brothers' sisters" if girl else "a boy is not among the sisters"})


# --- false premises ------------------------------------------------------------------------------

NO_PREMISE = "The question is based on a false premise"


def fp_dates(S, rng, diff, cat):
    y = rng.randrange(1900, 2100)
    real = rng.random() < 0.35
    if real:  # a date that exists, near the end of a month, so the check is not a giveaway
        m = rng.randrange(1, 13)
        d = rng.randrange(calendar.monthrange(y, m)[1] - 2, calendar.monthrange(y, m)[1] + 1)
    else:
        bad = [(m, d) for m in range(1, 13) for d in range(calendar.monthrange(y, m)[1] + 1, 32)]
        m, d = rng.choice(bad)
    exists = d <= calendar.monthrange(y, m)[1]
    assert exists == real
    q = f"On which day of the week does {d} {MONTHS[m - 1]} {y} fall in the Gregorian calendar?"
    shift = 0
    if diff == "hard":
        shift = 7
        q = f"Exactly one week after {d} {MONTHS[m - 1]} {y}, a festival takes place. On which day of the week is the festival?"
    premise = f"{NO_PREMISE}: {MONTHS[m - 1]} {y} has no day {d}"
    if real:
        import datetime as dt

        correct = WEEKDAYS[(dt.date(y, m, d) + dt.timedelta(days=shift)).weekday()]
        wrong = [premise] + rng.sample([w for w in WEEKDAYS if w != correct], 3)
    else:
        correct, wrong = premise, rng.sample(WEEKDAYS, 4)
    meta = {"why": f"{MONTHS[m - 1]} {y} has {calendar.monthrange(y, m)[1]} days", "premise_true": real}
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=correct, distractors=wrong, meta=meta, n=5)


def fp_numbers(S, rng, diff, cat):
    kind = rng.randrange(3)
    real = rng.random() < 0.35
    if kind == 0:
        a = rng.randrange(10, 5000)
        r = math.isqrt(a)
        if real:
            x, y = rng.randrange((r + 1) ** 2 - 6, (r + 1) ** 2), rng.randrange((r + 1) ** 2 + 1, (r + 1) ** 2 + 7)
        else:
            lo, hi = r * r + 1, (r + 1) ** 2 - 1
            if hi - lo < 3:
                raise K.Redraw("gap too small")
            x = rng.randrange(lo, hi - 1)
            y = rng.randrange(x + 1, hi + 1)
        found = [n for n in range(x, y + 1) if math.isqrt(n) ** 2 == n]
        q = f"Which whole number between {x} and {y} (inclusive) is a perfect square?"
    elif kind == 1:
        m = rng.randrange(4, 30)
        lo = rng.randrange(2, 20) * m
        listed = list(range(lo, lo + 5 * m, m))
        if real:
            primes = [p for p in range(lo, lo + 5 * m) if p > 1 and all(p % d for d in range(2, math.isqrt(p) + 1))]
            if not primes:
                raise K.Redraw("no prime nearby")
            listed[rng.randrange(5)] = rng.choice(primes)
            if len(set(listed)) < 5:
                raise K.Redraw("repeat")
        found = [n for n in listed if n > 1 and all(n % p for p in range(2, math.isqrt(n) + 1))]
        q = f"Which of the numbers {', '.join(str(n) for n in listed)} is prime?"
    else:
        a = rng.randrange(3, 40)
        span = 2 * a + (1 if real else 0)
        found = [n for n in range(a + 1, span) if n % a == 0] if not real else [n for n in range(a + 1, span + 1) if n % a == 0]
        q = f"Which whole number strictly between {a} and {span + (1 if real else 0)} is a multiple of {a}?"
    if len(found) > 1:
        raise K.Redraw("more than one")
    assert (found != []) == real
    meta = {"why": f"exhaustive search finds {found or 'no such number'}", "premise_true": real}
    answer = str(found[0]) if found else "none"
    if rng.random() < 0.5:
        return S.add(category=cat, difficulty=diff, prompt=f"{q} If there is no such number, reply with the single word none; otherwise reply with the number.",
                     answer=answer, scorer="exact", meta=meta)
    fake = [str(n) for n in rng.sample(range(10, 200), 6) if str(n) != answer]
    return S.add_mc(rng, category=cat, difficulty=diff, stem=q, correct=answer if found else "There is no such number",
                    distractors=(["There is no such number"] if found else []) + fake, meta=meta)


RECORDS = {
    "deliveries": ("The delivery log of a corner shop for one week reads: {entries}.", "{day}: {item}", "On which day were the {missing} delivered?",
                   ["apples", "pears", "plums", "cherries", "lemons", "melons", "grapes", "figs"]),
    "minutes": ("The minutes of a club meeting list the speakers in order: {entries}.", "{item} spoke {pos}", "What did {missing} say when speaking at the meeting?",
                None),
    "roster": ("A class trip roster lists who sat in which seat on the coach: {entries}.", "seat {pos}: {item}", "In which seat did {missing} sit?", None),
}


def fp_records(S, rng, diff, cat):
    kind = rng.choice(list(RECORDS))
    intro, entry, question, pool = RECORDS[kind]
    n = {"easy": 3, "medium": 4, "hard": 5}[diff]
    if pool is None:
        people = K.names(rng, n + 1)
        listed, missing = people[:n], people[n]
    else:
        chosen = rng.sample(pool, n + 1)
        listed, missing = chosen[:n], chosen[n]
    days = WEEKDAYS[:5]
    entries = []
    for i, it in enumerate(listed):
        entries.append(entry.format(day=days[i], item=it, pos=i + 1 if kind == "roster" else K.ordinal(i + 1)))
    real = rng.random() < 0.3 and kind != "minutes"
    asked = rng.choice(listed) if real else missing
    stem = intro.format(entries="; ".join(entries)) + " " + question.format(missing=asked)
    assert (asked in stem.split(question.format(missing=asked))[0]) == real
    if kind == "deliveries":
        wrong = days[:n] + [days[n] if n < 5 else "Saturday"]
    elif kind == "roster":
        wrong = [f"Seat {i + 1}" for i in range(n + 1)]
    else:
        wrong = ["They proposed raising the fees", "They thanked the previous speaker", "They asked for a vote", "They read the accounts"]
    premise = f"{NO_PREMISE}: the record does not mention {asked}"
    if real:
        i = listed.index(asked)
        correct = days[i] if kind == "deliveries" else f"Seat {i + 1}"
        wrong = [premise] + [w for w in wrong if w != correct]
    else:
        correct = premise
    if diff == "hard":
        stem += " Answer from the record only."
    return S.add_mc(rng, category=cat, difficulty=diff, stem=stem, correct=correct, distractors=wrong,
                    meta={"why": f"{asked} {'appears' if real else 'does not appear'} in the record", "premise_true": real}, n=5)


# --- literal text -------------------------------------------------------------------------------

VOCAB = ["harbour", "lantern", "meadow", "pebble", "thunder", "orchard", "velvet", "compass", "ember", "glacier", "saddle", "mirror",
         "cobbler", "banner", "parrot", "sorrel", "tunnel", "puzzle", "bottle", "kettle", "ribbon", "button", "coffee", "balloon",
         "raccoon", "address", "committee", "mississippi", "bookkeeper", "strawberry", "assessment", "possession", "embarrass", "millennium"]


def pseudo_word(rng: random.Random, n: int) -> str:
    cons, vow = "bcdfghklmnprstvz", "aeiou"
    return "".join(rng.choice(cons) if i % 2 == 0 else rng.choice(vow) for i in range(n)) + rng.choice(["", "r", "n", "ss", "tt"])


def lt_letters(S, rng, diff, cat):
    word = rng.choice(VOCAB[-14:]) if diff == "easy" else (pseudo_word(rng, rng.randrange(7, 11)) if diff == "medium" else
                                                           "".join(pseudo_word(rng, 3) for _ in range(rng.randrange(3, 5))))
    counts = {c: word.count(c) for c in sorted(set(word))}
    letter = rng.choice([c for c in counts if counts[c] >= 2] or list(counts))
    n = word.count(letter)
    assert n == sum(1 for ch in word if ch == letter)
    q = f"How many times does the letter \"{letter}\" appear in the string \"{word}\"? Reply with the number only."
    return S.add(category=cat, difficulty=diff, prompt=q, answer=n, scorer="numeric", meta={"why": f"counted: {n}"})


def lt_words(S, rng, diff, cat):
    k = {"easy": rng.randrange(6, 10), "medium": rng.randrange(10, 16), "hard": rng.randrange(16, 26)}[diff]
    words = [rng.choice(VOCAB) for _ in range(k)]
    words[0] = words[0].capitalize()
    sentence = " ".join(words) + "."
    kind = rng.randrange(3)
    if kind == 0:
        q = f"How many words are in this sentence: \"{sentence}\"? Reply with the number only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=len(words), scorer="numeric", meta={"why": "words separated by single spaces"})
    if kind == 1:
        i = rng.randrange(2, k + 1)
        q = f"What is the {K.ordinal(i)} word of this sentence: \"{sentence}\"? Reply with that word only, in lowercase."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=words[i - 1].lower(), scorer="exact", meta={"why": f"word {i} is {words[i - 1]}"})
    target = rng.choice(words).lower()
    n = sum(1 for w in words if w.lower() == target)
    q = f"How many times does the word \"{target}\" occur in this sentence: \"{sentence}\"? Reply with the number only."
    return S.add(category=cat, difficulty=diff, prompt=q, answer=n, scorer="numeric", meta={"why": f"counted: {n}"})


def lt_transform(S, rng, diff, cat):
    if diff == "easy":
        w = rng.choice(VOCAB)
        q = f"Spell the word \"{w}\" backwards. Reply with the reversed string only, in lowercase."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=w[::-1], scorer="exact", meta={"why": "reversed character by character"})
    if diff == "medium":
        ws = rng.sample(VOCAB, rng.randrange(4, 7))
        kind = rng.choice(["first", "last"])
        ans = "".join(w[0] if kind == "first" else w[-1] for w in ws)
        q = f"Write down the {kind} letter of each of these words, in order, as one string: {', '.join(ws)}. Reply with the string only, in lowercase."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=ans, scorer="exact", meta={"why": f"letters: {ans}"})
    ws = rng.sample(VOCAB, rng.randrange(5, 8))
    kind = rng.choice(["alpha", "length"])
    if kind == "alpha":
        ordered = sorted(ws)
        i = rng.randrange(1, len(ws) + 1)
        q = f"Sort these words alphabetically: {', '.join(ws)}. Which word comes {K.ordinal(i)}? Reply with that word only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=ordered[i - 1], scorer="exact", meta={"why": f"sorted: {ordered}"})
    lengths = [len(w) for w in ws]
    longest = max(lengths)
    if lengths.count(longest) > 1:
        raise K.Redraw("tie")
    w = ws[lengths.index(longest)]
    q = f"Which of these words has the most letters: {', '.join(ws)}? Reply with that word only."
    return S.add(category=cat, difficulty=diff, prompt=q, answer=w, scorer="exact", meta={"why": f"lengths: {dict(zip(ws, lengths))}"})


def lt_positions(S, rng, diff, cat):
    w = rng.choice(VOCAB) if diff != "hard" else pseudo_word(rng, rng.randrange(9, 13))
    if diff == "easy":
        i = rng.randrange(2, len(w) + 1)
        q = f"What is the {K.ordinal(i)} letter of the word \"{w}\"? Reply with the letter only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=w[i - 1], scorer="exact", meta={"why": f"{w}[{i - 1}] = {w[i - 1]}"})
    vowels = sum(1 for ch in w if ch in "aeiou")
    if diff == "medium":
        q = f"How many vowels (a, e, i, o, u) does the word \"{w}\" contain, counting repeats? Reply with the number only."
        return S.add(category=cat, difficulty=diff, prompt=q, answer=vowels, scorer="numeric", meta={"why": f"vowels counted: {vowels}"})
    letter = rng.choice(sorted(set(w)))
    pos = [i + 1 for i, ch in enumerate(w) if ch == letter]
    q = f"In the string \"{w}\", at which position (counting from 1) does the letter \"{letter}\" appear for the last time? Reply with the number only."
    return S.add(category=cat, difficulty=diff, prompt=q, answer=pos[-1], scorer="numeric", meta={"why": f"positions of {letter}: {pos}"})


CATEGORIES = {
    "goal_tracking": [gt_bring, gt_objects, gt_errands],
    "altered_riddles": [ar_price, ar_machines, ar_growth, ar_all_but, ar_river, ar_host, ar_overtake, ar_socks, ar_posts, ar_siblings],
    "false_premise": [fp_dates, fp_numbers, fp_records],
    "literal_text": [lt_letters, lt_words, lt_transform, lt_positions],
}


def make_rows() -> K.EvalSet:
    S = K.EvalSet(DATASET_ID, "common2")
    K.fill(S, random.Random(SEED), CATEGORIES, PER_CELL)
    return S


def generate(out: Path) -> None:
    S = make_rows()
    S.write(
        out,
        description=(
            "Commonsense traps (second wave): goal tracking (the goal forces the choice; object "
            "states with abandoned moves; errands with failures), altered classic riddles, false "
            "premises and literal-text questions, easy/medium/hard, mixing exact, numeric and mc. "
            "Answers come from simulation, search or counting, never from the memorised riddle"
        ),
        generator=__file__,
        seed=SEED,
        default_scorer="exact",
        date=K.SECOND_WAVE_DATE,
    )


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
