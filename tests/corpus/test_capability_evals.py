"""The capability evals (issue 5, part 2): math, reasoning, knowledge, science, commonsense
and security, v1 and the -v2 wave.

Beyond test_reference_answers (every row's reference passes its scorer, a perturbed one
fails), these re-derive answers *from the prompt text* by methods independent of the
generators: puzzles are parsed and re-solved by brute force with semantics written here,
math answers are recomputed by enumeration, CIDR answers with integer arithmetic (no
ipaddress), ciphers are decrypted, logs are re-parsed. The derived value is then fed to the
real scorer, so the check covers the stored answer *and* its scoring.
"""

from __future__ import annotations

import base64
import itertools
import json
import math
import re
from fractions import Fraction

import pytest

from atlas_assets.corpus import registry
from atlas_assets.corpus.parsing import normalize_text
from atlas_assets.corpus.scorers import score
from tests.helpers.corpus import ROOT, read_rows

V1 = ["eval-math-v1", "eval-reasoning-v1", "eval-knowledge-v1"]
V2 = ["eval-math-v2", "eval-reasoning-v2", "eval-knowledge-v2", "eval-science-v2", "eval-commonsense-v2", "eval-security-v2"]
OURS = V1 + V2
ROWS = {d: read_rows(ROOT / d) for d in OURS}
CARDS = {d: json.loads((ROOT / d / "dataset.json").read_text(encoding="utf-8")) for d in OURS}
F = Fraction


def rows_of(dataset: str, category: str | None = None) -> list[dict]:
    return [r for r in ROWS[dataset] if category is None or r["category"] == category]


def judged(row: dict, text: str) -> bool:
    return score(row, text).correct


def choice_for(row: dict, text: str) -> str:
    """The label of the option whose text is `text` (mc rows)."""
    labels = [chr(65 + i) for i in range(len(row["choices"]))]
    hits = [lab for lab, c in zip(labels, row["choices"]) if normalize_text(c) == normalize_text(text)]
    assert len(hits) == 1, (row["id"], text, row["choices"])
    return hits[0]


def show(q: Fraction) -> str:
    """A value as the generators print options: exact decimal when finite, else p/q."""
    q = F(q)
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d != 1:
        return f"{q.numerator}/{q.denominator}"
    sign, q = ("-" if q < 0 else ""), abs(q)
    places = 0
    while (q * 10**places).denominator != 1:
        places += 1
    whole, frac = divmod(int(q * 10**places), 10**places)
    return sign + str(whole) + (("." + str(frac).rjust(places, "0").rstrip("0")) if frac else "")


def assert_value(row: dict, value: Fraction | int | str) -> None:
    """The row accepts the independently derived value in the row's own scorer."""
    if row["scorer"] == "mc":
        text = value if isinstance(value, str) else show(F(value))
        assert judged(row, choice_for(row, text)), (row["id"], value)
    elif row["scorer"] == "numeric":
        v = F(value)
        assert judged(row, f"{v.numerator}/{v.denominator}" if v.denominator != 1 else str(v.numerator)), (row["id"], value, row["answer"])
    else:
        text = (
            value
            if isinstance(value, str)
            else (f"{F(value).numerator}/{F(value).denominator}" if F(value).denominator != 1 else str(F(value).numerator))
        )
        assert judged(row, text), (row["id"], value, row["answer"])


# --- the datasets as a whole --------------------------------------------------------------


@pytest.mark.parametrize("dataset", OURS)
def test_shape_cards_and_spread(dataset):
    rows, card = ROWS[dataset], CARDS[dataset]
    assert 200 <= len(rows) <= 500
    assert card["kind"] == "eval" and card["license"] == "MIT"
    assert card["date"] == ("2026-08-20" if dataset in V1 else "2026-09-01")
    assert card["provenance"]["generator"] == f"_gen/gen_{dataset.replace('-', '_')}.py"
    assert "_gen/_evalkit.py" in card["provenance"]["inputs"]
    cats = {r["category"] for r in rows}
    assert len(cats) >= 4
    for cat in cats:
        for diff in ("easy", "medium", "hard"):
            assert sum(1 for r in rows if r["category"] == cat and r["difficulty"] == diff) >= 10, (cat, diff)
    for r in rows:
        assert isinstance(r["meta"], dict) and r["meta"], r["id"]  # every row says why its answer is right
    texts = [normalize_text(r["prompt"]) for r in rows]
    assert len(set(texts)) == len(texts)


def test_scorer_mix_matches_the_issue():
    used = {d: {r["scorer"] for r in ROWS[d]} for d in OURS}
    assert used["eval-reasoning-v1"] == {"mc", "exact"}
    assert {"mc", "exact"} <= used["eval-knowledge-v1"]
    for d in V2:  # the -v2 evals mix scorers per row
        assert len(used[d]) >= 2, d
    for d in ("eval-math-v2", "eval-reasoning-v2", "eval-knowledge-v2", "eval-commonsense-v2", "eval-security-v2"):
        assert used[d] == {"mc", "exact", "numeric"}, d


def test_mc_labels_are_balanced_and_choices_never_read_as_labels():
    for d in OURS:
        mc = [r for r in ROWS[d] if r["scorer"] == "mc"]
        if not mc:
            continue
        counts = {lab: sum(1 for r in mc if r["answer"] == lab) for lab in "ABCD"}
        assert max(counts.values()) < 0.45 * len(mc), (d, counts)  # no position bias to exploit
        for r in mc:
            for c in r["choices"]:
                assert not re.fullmatch(r"[(\[]?[A-Za-z][)\].:]?", c.strip()), (r["id"], c)


def test_tolerances_accept_exact_forms_and_reject_near_misses():
    for d in ("eval-math-v1", "eval-math-v2", "eval-commonsense-v2"):
        for r in ROWS[d]:
            meta = r["meta"]
            if r["scorer"] != "numeric" or "exact" not in meta:
                continue
            exact = F(meta["exact"])
            assert judged(r, f"{exact.numerator}/{exact.denominator}"), r["id"]
            if "tolerance" in meta:
                assert judged(r, f"{float(exact):.6f}"), r["id"]  # six decimal places suffice, as the prompt says
                assert not judged(r, f"{float(exact):.2f}") or abs(F(f"{float(exact):.2f}") - exact) <= F(1, 10**6), r["id"]
    for r in ROWS["eval-science-v2"]:
        if r["scorer"] == "numeric":
            v = float(r["answer"])
            assert r["meta"]["rel_tolerance"] == 0.01 and "within 1 %" in r["prompt"]
            assert judged(r, f"{v * 1.005:.6g}") and judged(r, f"{v:.3g}")
            assert not judged(r, f"{v * 1.02:.6g}") and not judged(r, f"{v * 0.98:.6g}")
        else:  # mistake-derived distractors sit at least 3 % away from the answer
            v = float(r["meta"]["value"])
            for c in r["choices"]:
                if c != r["meta"]["correct_choice"]:
                    x = float(c.split()[0])
                    assert abs(x - v) > 0.02 * abs(v), (r["id"], c)


# --- reasoning: re-solve the puzzles from the prompt ------------------------------------------

NAME = r"[A-Z][a-z]+"


def knight_claim(text: str, speaker: int, names: list[str]):
    """Semantics of one claim, written independently of the generator. world[i] True = knight."""
    idx = {n: i for i, n in enumerate(names)}
    n = len(names)
    pats = [
        (rf"^({NAME}) is a (knight|knave)\.$", lambda m: lambda w: w[idx[m[1]]] == (m[2] == "knight")),
        (rf"^({NAME}) and ({NAME}) are both knights\.$", lambda m: lambda w: w[idx[m[1]]] and w[idx[m[2]]]),
        (rf"^At least one of ({NAME}) and ({NAME}) is a knave\.$", lambda m: lambda w: not (w[idx[m[1]]] and w[idx[m[2]]])),
        (rf"^({NAME}) and ({NAME}) are the same kind\.$", lambda m: lambda w: w[idx[m[1]]] == w[idx[m[2]]]),
        (rf"^({NAME}) and ({NAME}) are different kinds\.$", lambda m: lambda w: w[idx[m[1]]] != w[idx[m[2]]]),
        (rf"^({NAME}) and I are the same kind\.$", lambda m: lambda w: w[idx[m[1]]] == w[speaker]),
        (rf"^I am a knave or ({NAME}) is a knight\.$", lambda m: lambda w: (not w[speaker]) or w[idx[m[1]]]),
        (r"^Exactly (\d+) of us (?:is a knight|are knights)\.$", lambda m: lambda w: sum(w) == int(m[1])),
        (r"^At least (\d+) of us (?:is a knave|are knaves)\.$", lambda m: lambda w: n - sum(w) >= int(m[1])),
        (rf"^If ({NAME}) is a knight, then ({NAME}) is a knave\.$", lambda m: lambda w: not w[idx[m[1]]] or not w[idx[m[2]]]),
        (r"^The number of knights among us is odd\.$", lambda m: lambda w: sum(w) % 2 == 1),
        (r"^The number of knaves among us is even\.$", lambda m: lambda w: (n - sum(w)) % 2 == 0),
        (
            rf"^If you asked ({NAME}) whether ({NAME}) is a knight, ({NAME}) would say yes\.$",
            lambda m: lambda w: w[idx[m[2]]] if w[idx[m[1]]] else not w[idx[m[2]]],
        ),
    ]
    for pat, make in pats:
        m = re.match(pat, text)
        if m:
            return make(m)
    raise AssertionError(f"unparsed claim {text!r}")


@pytest.mark.parametrize("dataset", ["eval-reasoning-v1", "eval-reasoning-v2"])
def test_knights_and_knaves_are_unique_by_independent_brute_force(dataset):
    for r in rows_of(dataset, "knights_knaves"):
        said = re.findall(rf"({NAME})(?: says)?: \"([^\"]+)\"", r["prompt"])
        names = [s for s, _ in said]  # speaking order (meta.solution is stored with sorted keys)
        assert sorted(names) == sorted(r["meta"]["solution"]), r["id"]
        tests = [knight_claim(text, names.index(s), names) for s, text in said]
        worlds = [w for w in itertools.product((True, False), repeat=len(names)) if all(t(w) == w[i] for i, t in enumerate(tests))]
        assert len(worlds) == 1, (r["id"], worlds)
        sol = {nm: ("knight" if k else "knave") for nm, k in zip(names, worlds[0])}
        assert sol == r["meta"]["solution"], r["id"]
        m = re.search(rf"Is ({NAME}) a knight or a knave\?", r["prompt"])
        if m:
            assert_value(r, sol[m[1]])
        elif "How many of the" in r["prompt"]:
            assert_value(r, sum(worlds[0]))
        else:
            knaves = [nm for nm in names if sol[nm] == "knave"]
            text = "nobody" if not knaves else (knaves[0] if len(knaves) == 1 else ", ".join(knaves[:-1]) + " and " + knaves[-1])
            if "Exactly which of them are knaves" in r["prompt"]:
                assert_value(r, text)
            else:
                want = ", ".join(f"{nm} is {'a knight' if sol[nm] == 'knight' else 'a knave'}" for nm in names[:-1])
                want = (
                    want + " and " if len(names) > 1 else ""
                ) + f"{names[-1]} is {'a knight' if sol[names[-1]] == 'knight' else 'a knave'}"
                assert_value(r, want)


ORDER_RULES = [  # (regex, kind) -- a, b are names; num/ord a position; m a gap
    (rf"^({NAME}) finished ahead of ({NAME})$", "before"),
    (rf"^({NAME}) finished directly ahead of ({NAME})$", "imm"),
    (rf"^({NAME}) finished (first|second|third|fourth|fifth|sixth|seventh)$", "pos"),
    (rf"^({NAME}) did not finish (first|second|third|fourth|fifth|sixth|seventh)$", "notpos"),
    (rf"^Exactly (\d+) runners? finished between ({NAME}) and ({NAME})$", "gap"),
    (rf"^({NAME}) and ({NAME}) did not finish next to each other$", "apart"),
    (rf"^({NAME}) is somewhere in front of ({NAME})$", "before"),
    (rf"^({NAME}) is directly in front of ({NAME})$", "imm"),
    (rf"^({NAME}) is in position (\d+)$", "pos"),
    (rf"^({NAME}) is not in position (\d+)$", "notpos"),
    (rf"^Exactly (\d+) (?:person stands|people stand) between ({NAME}) and ({NAME})$", "gap"),
    (rf"^({NAME}) and ({NAME}) are not next to each other$", "apart"),
    (rf"^({NAME}) sits somewhere to the left of ({NAME})$", "before"),
    (rf"^({NAME}) sits immediately to the left of ({NAME})$", "imm"),
    (rf"^({NAME}) sits in seat (\d+)$", "pos"),
    (rf"^({NAME}) is not in seat (\d+)$", "notpos"),
    (rf"^Exactly (\d+) (?:person sits|people sit) between ({NAME}) and ({NAME})$", "gap"),
    (rf"^({NAME}) and ({NAME}) do not sit next to each other$", "apart"),
    (rf"^({NAME})'s car is in a lower-numbered bay than ({NAME})'s$", "before"),
    (rf"^({NAME})'s car is in the bay numbered one higher than ({NAME})'s$", "imm_rev"),
    (rf"^({NAME})'s car is in bay (\d+)$", "pos"),
    (rf"^({NAME})'s car is not in bay (\d+)$", "notpos"),
    (rf"^Exactly (\d+) cars? (?:is|are) parked between ({NAME})'s and ({NAME})'s$", "gap"),
    (rf"^({NAME})'s and ({NAME})'s cars are not in neighbouring bays$", "apart"),
]
ORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh"]


def order_test(kind: str, g: tuple):
    slot = lambda s: ORDS.index(s) if s in ORDS else int(s) - 1  # noqa: E731
    if kind == "before":
        return lambda o: o.index(g[0]) < o.index(g[1])
    if kind == "imm":
        return lambda o: o.index(g[0]) + 1 == o.index(g[1])
    if kind == "imm_rev":  # "{b}'s car is one higher than {a}'s"
        return lambda o: o.index(g[1]) + 1 == o.index(g[0])
    if kind == "pos":
        return lambda o: o.index(g[0]) == slot(g[1])
    if kind == "notpos":
        return lambda o: o.index(g[0]) != slot(g[1])
    if kind == "gap":
        return lambda o: abs(o.index(g[1]) - o.index(g[2])) - 1 == int(g[0])
    return lambda o: abs(o.index(g[0]) - o.index(g[1])) > 1


def sentences(prompt: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.?])\s+|\n+", prompt) if s.strip()]


@pytest.mark.parametrize("dataset", ["eval-reasoning-v1", "eval-reasoning-v2"])
def test_orderings_are_unique_by_independent_brute_force(dataset):
    for r in rows_of(dataset, "ordering"):
        names = r["meta"]["solution"]
        tests = []
        for s in sentences(r["prompt"].split("\n\nA)")[0]):
            for pat, kind in ORDER_RULES:
                m = re.match(pat, s.rstrip("."))
                if m:
                    tests.append(order_test(kind, m.groups()))
                    break
            else:  # only the introduction, the question and the reply instruction are not clues
                assert ", " in s or s.endswith("?") or s.startswith(("Reply", "Position 1")), (r["id"], s)
        assert tests, r["id"]
        sols = [o for o in itertools.permutations(sorted(names)) if all(t(o) for t in tests)]
        assert sols == [tuple(names)], (r["id"], sols[:3])
        if m := re.search(rf"In which (?:place|position|seat|bay) (?:did|is|does) ({NAME})", r["prompt"]):
            assert_value(r, names.index(m[1]) + 1)
        else:
            m = re.search(r"Who(?:se car)? (?:finished (\w+)|is in position (\d+)|sits in seat (\d+)|is in bay (\d+))\?", r["prompt"])
            assert m, r["id"]
            k = ORDS.index(m[1]) if m[1] else int(next(x for x in m.groups()[1:] if x)) - 1
            assert_value(r, names[k])


WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]


@pytest.mark.parametrize("dataset", ["eval-reasoning-v1", "eval-reasoning-v2"])
def test_week_schedules_are_unique_by_independent_brute_force(dataset):
    checked = 0
    for r in rows_of(dataset, "scheduling"):
        if "Monday to Friday" not in r["prompt"]:
            continue
        events = list(r["meta"]["solution"])
        ev = "|".join(re.escape(e) for e in events)
        tests = []
        for s in sentences(r["prompt"]):
            if m := re.match(rf"^The ({ev}) is on (\w+)\.$", s):
                tests.append(lambda w, e=m[1], d=WEEKDAYS.index(m[2]): w[e] == d)
            elif m := re.match(rf"^The ({ev}) is not on (\w+)\.$", s):
                tests.append(lambda w, e=m[1], d=WEEKDAYS.index(m[2]): w[e] != d)
            elif m := re.match(rf"^The ({ev}) is neither on Monday nor on Friday\.$", s):
                tests.append(lambda w, e=m[1]: w[e] not in (0, 4))
            elif m := re.match(rf"^The ({ev}) is earlier in the week than the ({ev})\.$", s):
                tests.append(lambda w, a=m[1], b=m[2]: w[a] < w[b])
            elif m := re.match(rf"^The ({ev}) is the day after the ({ev})\.$", s):
                tests.append(lambda w, b=m[1], a=m[2]: w[b] == w[a] + 1)
            elif m := re.match(rf"^The ({ev}) and the ({ev}) are (\d+) days apart\.$", s):
                tests.append(lambda w, a=m[1], b=m[2], g=int(m[3]): abs(w[a] - w[b]) == g)
            else:
                assert "Monday to Friday" in s or s.endswith("?") or s.startswith(("Reply", "A) ", "B) ", "C) ", "D) ", "E) ")), (
                    r["id"],
                    s,
                )
        sols = [dict(zip(events, p)) for p in itertools.permutations(range(5), len(events)) if all(t(dict(zip(events, p))) for t in tests)]
        assert len(sols) == 1, (r["id"], len(sols))
        sol = {e: WEEKDAYS[d] for e, d in sols[0].items()}
        assert sol == r["meta"]["solution"], r["id"]
        if m := re.search(rf"On which day is the ({ev})\?", r["prompt"]):
            assert_value(r, sol[m[1]])
        else:
            free = [i for i in range(5) if i not in sols[0].values()]
            assert_value(r, free[0] + 1)
        checked += 1
    assert checked >= 15


GRID_HAS = {  # attribute -> (has-phrase regex, not-phrase regex, who-phrase regex), written here
    "pet": ("owns the (\\w+)", "does not own the (\\w+)", "the (\\w+) owner"),
    "drink": ("drinks (\\w+)", "does not drink (\\w+)", "the (\\w+) drinker"),
    "colour": ("wears (\\w+)", "does not wear (\\w+)", "the person wearing (\\w+)"),
    "instrument": ("plays the (\\w+)", "does not play the (\\w+)", "the (\\w+) player"),
    "sport": ("does (\\w+)", "does not do (\\w+)", "the person who does (\\w+)"),
    "fruit": ("grows (\\w+)", "does not grow (\\w+)", "the person who grows (\\w+)"),
    "house": ("lives in house (\\d)", "does not live in house (\\d)", "the person in house (\\d)"),
}


def grid_rows(dataset: str) -> list[dict]:
    return rows_of(dataset, "logic_grid")


@pytest.mark.parametrize("dataset", ["eval-reasoning-v1", "eval-reasoning-v2"])
def test_logic_grids_are_unique_by_independent_brute_force(dataset):
    for r in grid_rows(dataset):
        sol = r["meta"]["solution"]
        names = list(sol)
        attrs = [a for a in next(iter(sol.values())) if a != "house"]
        houses = "house" in next(iter(sol.values()))
        values = {}
        for a in attrs:
            m = re.search(rf"{a}: ([a-z, ]+?)(?:;|\.)", r["prompt"])
            values[a] = [v.strip() for v in m[1].split(",")]
        if houses:
            values["house"] = [str(i) for i in range(1, len(names) + 1)]
        keys = attrs + (["house"] if houses else [])
        value_attr = {v: a for a in keys for v in values[a]}

        def who_ref(text):
            for a in keys:
                m = re.fullmatch(GRID_HAS[a][2], text, re.I)
                if m and m[1] in values[a]:
                    return ("attr", a, m[1])
            if text in names:
                return ("name", names.index(text))
            raise AssertionError((r["id"], text))

        def person(w, ref):  # index of the person a reference denotes in world w
            if ref[0] == "name":
                return ref[1]
            _, a, v = ref
            return w[keys.index(a)].index(v)

        def pred(text):
            for a in keys:
                for pos, neg in ((GRID_HAS[a][0], False), (GRID_HAS[a][1], True)):
                    m = re.fullmatch(pos, text)
                    if m and m[1] in values[a]:
                        return a, m[1], neg
            return None

        tests = []
        body = r["prompt"].split("\n\nA)")[0]
        for s in sentences(body):
            s = s.rstrip(".")
            if m := re.fullmatch(r"(.+?) lives immediately left of (.+)", s):
                A, B = who_ref(m[1][0].lower() + m[1][1:] if m[1] not in names else m[1]), who_ref(m[2])
                tests.append(lambda w, A=A, B=B: int(w[keys.index("house")][person(w, A)]) + 1 == int(w[keys.index("house")][person(w, B)]))
                continue
            if m := re.fullmatch(r"(.+?) lives somewhere left of (.+)", s):
                A, B = who_ref(m[1][0].lower() + m[1][1:] if m[1] not in names else m[1]), who_ref(m[2])
                tests.append(lambda w, A=A, B=B: int(w[keys.index("house")][person(w, A)]) < int(w[keys.index("house")][person(w, B)]))
                continue
            if m := re.fullmatch(rf"({NAME}) lives next door to (.+)", s):
                A, B = who_ref(m[1]), who_ref(m[2])
                tests.append(
                    lambda w, A=A, B=B: abs(int(w[keys.index("house")][person(w, A)]) - int(w[keys.index("house")][person(w, B)])) == 1
                )
                continue
            for split in re.finditer(r" (?=(?:owns|does|drinks|wears|plays|grows|lives) )", s):
                subj, rest = s[: split.start()], s[split.end() :]
                try:
                    ref = who_ref(subj if subj in names else subj[0].lower() + subj[1:])
                except AssertionError:
                    continue
                p = pred(rest)
                if p is None:
                    continue
                a, v, neg = p
                tests.append(lambda w, ref=ref, a=a, v=v, neg=neg: (w[keys.index(a)][person(w, ref)] == v) != neg)
                break
            else:  # not a clue: only the introduction and the question remain
                assert "no two of them share" in s or s.startswith(("They live in", "Reply")) or s.endswith("?"), (r["id"], s)
        worlds = itertools.product(*(itertools.permutations(values[a]) for a in keys))
        sols = [w for w in worlds if all(t(w) for t in tests)]
        assert len(sols) == 1, (r["id"], len(sols))
        found = {nm: {a: sols[0][keys.index(a)][i] for a in keys} for i, nm in enumerate(names)}
        want = {nm: {a: str(v) for a, v in d.items()} for nm, d in sol.items()}
        assert found == want, r["id"]
        verbs = {"own": "pet", "drink": "drink", "wear": "colour", "play": "instrument", "do": "sport", "grow": "fruit"}
        if m := re.search(rf"In which house does ({NAME}) live", r["prompt"]):
            assert_value(r, int(found[m[1]]["house"]))
        elif m := re.search(rf"(?:Which \w+|What) does ({NAME}) (own|drink|wear|play|do|grow)\?", r["prompt"]):
            assert_value(r, found[m[1]][verbs[m[2]]])
        else:
            m = re.search(r"Who (?:owns the|drinks|wears|plays the|does|grows) (\w+)\?", r["prompt"])
            assert m, r["id"]
            a = value_attr[m[1]]
            assert_value(r, next(nm for nm in names if found[nm][a] == m[1]))


def test_critical_paths_and_worker_simulations():
    for r in rows_of("eval-reasoning-v1", "scheduling"):
        if "enough workers" not in r["prompt"]:
            continue
        dur = {t: int(h) for t, h in re.findall(r"Task (\w) takes (\d+) hours?", r["prompt"])}
        pre = {
            t: re.findall(r"\b([A-G])\b", deps) if deps else []
            for t, deps in re.findall(
                r"Task (\w) takes \d+ hours? and (?:can start only after ([A-G, and]+?) (?:is|are) finished|has no prerequisites)",
                r["prompt"],
            )
        }
        assert set(pre) == set(dur), r["id"]
        finish = {}
        for _ in range(len(dur)):  # relax until stable (independent of topological order)
            for t in dur:
                finish[t] = max([finish.get(p, 0) for p in pre[t]] or [0]) + dur[t]
        assert_value(r, str(max(finish.values())))
    for r in rows_of("eval-reasoning-v2", "scheduling"):
        if "Rule:" not in r["prompt"]:
            continue
        dur = {t: int(h) for t, h in re.findall(r"\b([A-G]) takes (\d+) h", r["prompt"])}
        pre = {
            t: re.findall(r"\b([A-G])\b", deps or "")
            for t, deps in re.findall(r"\b([A-G]) takes \d+ h(?: after ([A-G, and]+?) (?:is|are) done)?\.", r["prompt"])
        }
        assert set(pre) == set(dur), r["id"]
        workers = int(re.search(r"Rule: (\d+) workers", r["prompt"])[1])
        # a third implementation: discrete-event with a priority queue of finish times
        t, start, end, running = 0, {}, {}, []
        while len(end) < len(dur):
            for x, e in list(running):
                if e == t:
                    end[x] = t
                    running.remove((x, e))
            for x in sorted(dur):
                if len(running) < workers and x not in start and all(p in end for p in pre[x]):
                    start[x] = t
                    running.append((x, t + dur[x]))
            t = min(e for _, e in running) if running else t + 1
        assert {x: [start[x], end[x]] for x in dur} == r["meta"]["schedule"], r["id"]


# --- math: recompute by enumeration -----------------------------------------------------------


def parse_linear(expr: str) -> dict[str, int]:
    expr = expr.replace("−", "-").replace(" ", "")
    out: dict[str, int] = {}
    for sign, coef, var in re.findall(r"([+-]?)(\d*)([a-z]?)", expr):
        if not coef and not var:
            continue
        v = int(coef or "1") * (-1 if sign == "-" else 1)
        out[var] = out.get(var, 0) + v
    return out


def math_value(row: dict) -> Fraction | None:
    """An independent recomputation for the prompt families that have one; None otherwise."""
    p = row["prompt"]
    if m := re.search(r"remainder when (\d+)\^(\d+) is divided by (\d+)", p):
        a, e, mod = map(int, m.groups())
        v = 1
        for _ in range(e):
            v = v * a % mod
        return F(v)
    if m := re.search(r"How many positive divisors does (\d+) have", p):
        n = int(m[1])
        return F(sum(1 for d in range(1, n + 1) if n % d == 0))
    if m := re.search(r"How many prime numbers are there between (\d+) and (\d+), inclusive", p):
        lo, hi = int(m[1]), int(m[2])
        return F(sum(1 for k in range(lo, hi + 1) if k > 1 and all(k % d for d in range(2, k))))
    if m := re.search(r"trailing zeros does (\d+)! .*? have (?:in its decimal representation|when written in base (\d+))", p):
        n, base = int(m[1]), int(m[2] or 10)
        f, z = math.factorial(n), 0
        while f % base == 0:
            f //= base
            z += 1
        return F(z)
    if conds := re.findall(r"leaves remainder (\d+) when divided by (\d+)", p):
        return F(next(x for x in itertools.count(1) if all(x % int(mod) == int(rem) for rem, mod in conds)))
    if m := re.search(
        r"(Two|Three) fair six-sided dice are rolled\. What is the probability that the sum is (exactly|at least|at most) (\d+)\?", p
    ):
        k, kind, s = {"Two": 2, "Three": 3}[m[1]], m[2], int(m[3])
        outs = list(itertools.product(range(1, 7), repeat=k))
        test = {"exactly": lambda x: x == s, "at least": lambda x: x >= s, "at most": lambda x: x <= s}[kind]
        return F(sum(1 for o in outs if test(sum(o))), len(outs))
    if m := re.search(
        r"A fair coin is tossed (\d+) times\. What is the probability of getting (exactly|at least|at most) (\d+) heads\?", p
    ):
        n, kind, k = int(m[1]), m[2], int(m[3])
        test = {"exactly": lambda x: x == k, "at least": lambda x: x >= k, "at most": lambda x: x <= k}[kind]
        return F(sum(1 for s in itertools.product((0, 1), repeat=n) if test(sum(s))), 2**n)
    if m := re.search(
        r"integer coordinates lie on the segment from \((-?\d+), (-?\d+)\) to \((-?\d+), (-?\d+)\), (endpoints included|not counting the two endpoints)",
        p,
    ):
        x1, y1, x2, y2 = map(int, m.groups()[:4])
        pts = [
            (x, y)
            for x in range(min(x1, x2), max(x1, x2) + 1)
            for y in range(min(y1, y2), max(y1, y2) + 1)
            if (x - x1) * (y2 - y1) == (y - y1) * (x2 - x1)
        ]
        return F(len(pts) - (2 if m[5].startswith("not") else 0))
    if m := re.search(r"strictly inside the (?:triangle|convex quadrilateral|convex pentagon) with vertices (.+?)\?", p):
        pts = [tuple(map(int, t)) for t in re.findall(r"\((-?\d+), (-?\d+)\)", m[1])]
        k = len(pts)

        def inside(x, y):  # strictly inside a convex polygon: same strict side of every edge
            signs = [
                (pts[(i + 1) % k][0] - pts[i][0]) * (y - pts[i][1]) - (pts[(i + 1) % k][1] - pts[i][1]) * (x - pts[i][0]) for i in range(k)
            ]
            return all(s > 0 for s in signs) or all(s < 0 for s in signs)

        xs, ys = [q[0] for q in pts], [q[1] for q in pts]
        return F(sum(1 for x in range(min(xs), max(xs) + 1) for y in range(min(ys), max(ys) + 1) if inside(x, y)))
    if m := re.search(r"Solve the system (.+?)\. What is (x \+ y \+ z|x − 2y \+ 3z|x·y·z \(the product\)|x \+ y|x|y)\?", p):
        eqs = [e.split(" = ") for e in re.split(r"; | and ", m[1])]
        coefs = [(parse_linear(lhs), int(rhs.replace("−", "-"))) for lhs, rhs in eqs]
        vars_ = sorted({v for c, _ in coefs for v in c if v})
        sols = [
            dict(zip(vars_, vals))
            for vals in itertools.product(range(-12, 13), repeat=len(vars_))
            if all(sum(c.get(v, 0) * val for v, val in zip(vars_, vals)) == rhs for c, rhs in coefs)
        ]
        assert len(sols) == 1, row["id"]
        s = sols[0]
        return F(
            {
                "x + y + z": lambda: s["x"] + s["y"] + s["z"],
                "x − 2y + 3z": lambda: s["x"] - 2 * s["y"] + 3 * s["z"],
                "x·y·z (the product)": lambda: s["x"] * s["y"] * s["z"],
                "x + y": lambda: s["x"] + s["y"],
                "x": lambda: s["x"],
                "y": lambda: s["y"],
            }[m[2]]()
        )
    if m := re.search(r"What is the (greatest common divisor|least common multiple) of ([\d, and]+)\?", p):
        nums = [int(x) for x in re.findall(r"\d+", m[2])]
        if m[1].startswith("greatest"):
            return F(max(d for d in range(1, min(nums) + 1) if all(x % d == 0 for x in nums)))
        return F(next(k for k in itertools.count(max(nums), max(nums)) if all(k % x == 0 for x in nums)))
    return None


@pytest.mark.parametrize("dataset", ["eval-math-v1", "eval-math-v2"])
def test_math_answers_rederived_by_enumeration(dataset):
    checked = 0
    for r in ROWS[dataset]:
        v = math_value(r)
        if v is None:
            continue
        assert_value(r, v)
        checked += 1
    assert checked >= 40, checked


def test_math_exact_values_match_the_stored_answers():
    for d in ("eval-math-v1", "eval-math-v2"):
        for r in ROWS[d]:
            if "exact" in r["meta"] and r["scorer"] == "numeric":
                exact = F(r["meta"]["exact"])
                assert abs(F(str(r["answer"])) - exact) <= F(r["meta"].get("tolerance", 0)), r["id"]


# --- knowledge: independent derivations ---------------------------------------------------------

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 in the proleptic Gregorian calendar (era arithmetic, no datetime)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def from_roman(s: str) -> int:
    vals = dict(zip("IVXLCDM", (1, 5, 10, 50, 100, 500, 1000)))
    return sum(-vals[c] if i + 1 < len(s) and vals[s[i + 1]] > vals[c] else vals[c] for i, c in enumerate(s))


def to_roman(n: int) -> str:
    """Digit by digit: thousands, hundreds, tens, units, each from its own pattern table."""
    tables = [
        ("", "M", "MM", "MMM"),
        ("", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"),
        ("", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"),
        ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"),
    ]
    digits = [n // 1000, n // 100 % 10, n // 10 % 10, n % 10]
    return "".join(t[d] for t, d in zip(tables, digits))


def test_knowledge_weekdays_roman_numerals_and_codes():
    names = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]  # 1970-01-01 was a Thursday
    checked = 0
    for d in ("eval-knowledge-v1", "eval-knowledge-v2"):
        for r in ROWS[d]:
            p = r["prompt"]
            if m := re.search(r"does (\d+) (\w+) (\d+) fall", p):
                assert_value(r, names[days_from_civil(int(m[3]), MONTHS.index(m[2]) + 1, int(m[1])) % 7])
            elif m := re.search(r"What number does the Roman numeral ([IVXLCDM]+) stand for", p):
                assert_value(r, from_roman(m[1]))
            elif m := re.search(r"Write (\d+) in Roman numerals", p):
                assert_value(r, to_roman(int(m[1])))
            elif m := re.search(r"decimal ASCII code of the (?:capital letter|lowercase letter|digit) (\S)\?", p):
                assert_value(r, str(ord(m[1])))
            elif m := re.search(r"What is the hexadecimal number 0x([0-9A-F]+) in decimal", p):
                assert_value(r, str(int(m[1], 16)))
            elif m := re.search(r"How many days are there from (\d+) (\w+) (\d+) to (\d+) (\w+) (\d+)", p):
                a = days_from_civil(int(m[3]), MONTHS.index(m[2]) + 1, int(m[1]))
                b = days_from_civil(int(m[6]), MONTHS.index(m[5]) + 1, int(m[4]))
                assert_value(r, str(b - a))
            else:
                continue
            checked += 1
    assert checked >= 50, checked


# --- security: CIDR with integer arithmetic, ciphers, logs ------------------------------------


def ip2int(s: str) -> int:
    a, b, c, d = (int(x) for x in s.split("."))
    return (a << 24) | (b << 16) | (c << 8) | d


def int2ip(n: int) -> str:
    return ".".join(str((n >> s) & 255) for s in (24, 16, 8, 0))


def mask_of(p: int) -> int:
    return (0xFFFFFFFF << (32 - p)) & 0xFFFFFFFF


def cidr_value(p: str):
    if m := re.search(r"How many IPv4 addresses does a /(\d+) network contain|How many IPv4 addresses are in the block [\d.]+/(\d+)", p):
        return 2 ** (32 - int(m[1] or m[2]))
    if m := re.search(r"usable host addresses does the subnet [\d.]+/(\d+)", p):
        return 2 ** (32 - int(m[1])) - 2
    if m := re.search(r"subnet mask of a /(\d+) prefix", p):
        return int2ip(mask_of(int(m[1])))
    if m := re.search(r"wildcard \(inverse\) mask of a /(\d+) prefix", p):
        return int2ip(~mask_of(int(m[1])) & 0xFFFFFFFF)
    if m := re.search(
        r"has the address ([\d.]+)/(\d+)\. What is the (network address|broadcast address|first usable host address|last usable host address)",
        p,
    ):
        ip, pl = ip2int(m[1]), int(m[2])
        net, bc = ip & mask_of(pl), ip | (~mask_of(pl) & 0xFFFFFFFF)
        return int2ip(
            {"network address": net, "broadcast address": bc, "first usable host address": net + 1, "last usable host address": bc - 1}[
                m[3]
            ]
        )
    if m := re.search(r"fall inside ([\d.]+)/(\d+): ([\d., ]+)\?", p):
        net, pl = ip2int(m[1]), int(m[2])
        return sum(1 for a in m[3].split(", ") if ip2int(a) & mask_of(pl) == net)
    if m := re.search(r"How many /(\d+) subnets fit in [\d.]+/(\d+)", p):
        return 2 ** (int(m[1]) - int(m[2]))
    if m := re.search(r"([\d.]+)/(\d+) is divided into /(\d+) subnets in address order\. What is the (\d+)\w\w subnet", p):
        return f"{int2ip(ip2int(m[1]) + (int(m[4]) - 1) * 2 ** (32 - int(m[3])))}/{m[3]}"
    if m := re.search(r"smallest single CIDR block that contains both ([\d.]+) and ([\d.]+)", p):
        a, b = ip2int(m[1]), ip2int(m[2])
        pl = next(k for k in range(32, -1, -1) if a & mask_of(k) == b & mask_of(k))
        return f"{int2ip(a & mask_of(pl))}/{pl}"
    if m := re.search(r"cover exactly the range ([\d.]+) – ([\d.]+)", p):
        lo, hi, blocks = ip2int(m[1]), ip2int(m[2]), 0
        while lo <= hi:  # greedy: the largest aligned block starting at lo that fits
            size = 1
            while lo % (size * 2) == 0 and lo + size * 2 - 1 <= hi:
                size *= 2
            lo += size
            blocks += 1
        return blocks
    if m := re.search(r"How many /(\d+) IPv6 subnets does a /(\d+) allocation contain", p):
        return 2 ** (int(m[1]) - int(m[2]))
    return None


def test_cidr_answers_rechecked_with_integer_arithmetic():
    rows = rows_of("eval-security-v2", "cidr")
    for r in rows:
        v = cidr_value(r["prompt"])
        assert v is not None, (r["id"], r["prompt"][:100])  # every CIDR row has an independent check
        assert_value(r, v if isinstance(v, str) else F(v))


def caesar(text: str, k: int) -> str:
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if "a" <= c <= "z" else c for c in text)


def test_toy_crypto_decrypted_independently():
    for r in rows_of("eval-security-v2", "toy_crypto"):
        p = r["prompt"]
        if m := re.search(r"The message \"([a-z ]+)\" was encrypted with a Caesar cipher that shifts each letter (\d+) places", p):
            assert_value(r, caesar(m[1], -int(m[2])))
        elif m := re.search(
            r"The message \"([a-z ]+)\" was encrypted with a Caesar cipher of unknown shift\. The plaintext begins with the word \"(\w+)\"",
            p,
        ):
            hits = {caesar(m[1], -k) for k in range(26) if caesar(m[1], -k).split()[0] == m[2]}
            assert len(hits) == 1
            assert_value(r, hits.pop())
        elif m := re.search(r"The message \"([a-z ]+)\" was encrypted with a Vigenère cipher with the key \"(\w+)\"", p):
            out, j = [], 0
            for c in m[1]:
                if c == " ":
                    out.append(c)
                    continue
                out.append(caesar(c, -(ord(m[2][j % len(m[2])]) - 97)))
                j += 1
            assert_value(r, "".join(out))
        elif m := re.search(r"Decode this Base64 string to text: (\S+)", p):
            assert_value(r, base64.b64decode(m[1]).decode())
        elif m := re.search(r"Decode these hexadecimal bytes as ASCII text: ([0-9a-f]+)", p):
            assert_value(r, bytes.fromhex(m[1]).decode())
        elif m := re.search(r"contains the string (\S+)\. It is Base64 wrapped around ROT13", p):
            assert_value(r, caesar(base64.b64decode(m[1]).decode(), 13))
        elif m := re.search(r"The hex string ([0-9a-f]+) is ASCII text XORed byte by byte with the key 0x([0-9a-f]{2})", p):
            assert_value(r, bytes(b ^ int(m[2], 16) for b in bytes.fromhex(m[1])).decode())
        elif m := re.search(
            r"The hex string ([0-9a-f]+) is ASCII text XORed with a single unknown key byte\. The text starts with the letter \"(\w)\"", p
        ):
            key = bytes.fromhex(m[1])[0] ^ ord(m[2])
            assert bytes(b ^ key for b in bytes.fromhex(m[1])).decode().isprintable()
            assert_value(r, f"{key:02x}")
        elif m := re.search(r"\b([0-9a-f]{32,128})\b", p):
            algo = {32: "MD5", 40: "SHA-1", 56: "SHA-224", 64: "SHA-256", 96: "SHA-384", 128: "SHA-512"}[len(m[1])]
            assert_value(r, algo)
        else:
            raise AssertionError(f"unchecked toy_crypto row {r['id']}")


def test_log_forensics_reparsed():
    line = re.compile(r"^(\S+)Z \S+ authd: (ACCEPT|REJECT) password for (\S+) from (\S+) port \d+$", re.M)
    web = re.compile(r"^(\S+) - - \[[^\]]+\] \"GET (\S+) HTTP/1\.1\" (\d{3}) \d+$", re.M)
    for r in rows_of("eval-security-v2", "log_forensics"):
        p = r["prompt"]
        auth = line.findall(p)
        if auth:
            fails: dict[str, int] = {}
            for _, res, _, ip in auth:
                fails[ip] = fails.get(ip, 0) + (res == "REJECT")
            top = max(fails, key=fails.get)
            if "most rejected" in p:
                assert_value(r, top)
            elif m := re.search(r"How many rejected password attempts came from (\S+)\?", p):
                assert_value(r, fails[m[1]])
            elif m := re.search(r"How many distinct account names did (\S+) try", p):
                assert_value(r, len({u for _, _, u, ip in auth if ip == m[1]}))
            elif "treated as compromised" in p:
                assert_value(r, next(u for _, res, u, ip in auth if ip == top and res == "ACCEPT"))
            else:
                assert_value(r, next(t for t, res, _, ip in auth if ip == top and res == "ACCEPT")[11:19])
            continue
        reqs = web.findall(p)
        odd = [(ip, path) for ip, path, _ in reqs if any(x in path for x in ("..", ".env", ".git", "wp-login", ".bak", "server-status"))]
        if "probing for sensitive files" in p:
            assert len({ip for ip, _ in odd}) == 1
            assert_value(r, odd[0][0])
        elif m := re.search(r"How many requests from (\S+) target paths", p):
            assert_value(r, sum(1 for ip, _ in odd if ip == m[1]))
        else:
            assert_value(r, sum(1 for _, _, s in reqs if s.startswith("4")))


def test_vulnerability_snippets_and_ir_traps():
    for r in rows_of("eval-security-v2", "vuln_classification"):
        assert r["meta"]["weakness"] in {"sqli", "cmdi", "path", "xss", "creds", "deser", "weakhash", "overflow", "redirect", "none"}
    for r in rows_of("eval-security-v2", "incident_response"):
        p = r["prompt"]
        if m := re.search(r"indicator for a malicious file:\n([0-9a-f]{64})", p):
            hosts = re.findall(r"^([\w-]+): ([0-9a-f]{64})$", p, re.M)
            assert_value(r, next(h for h, d in hosts if d == m[1]))
        elif m := re.search(r"the exact domain (\S+)\. Which", p):
            dom = m[1]
            assert_value(r, f"https://{dom}/signin")
            for c in r["choices"]:
                assert (c.split("/")[2] == dom) == (c == f"https://{dom}/signin")
        elif m := re.search(r"attachment named \"([^\"]+)\"", p):
            ext = m[1].rsplit(".", 1)[1]
            assert_value(r, ext if r["scorer"] == "exact" else f".{ext}")


# --- commonsense: literal text and premises ----------------------------------------------------


def test_commonsense_literal_text_and_premises():
    import calendar

    checked = 0
    for r in ROWS["eval-commonsense-v2"]:
        p = r["prompt"]
        if m := re.search(r"How many times does the letter \"(\w)\" appear in the string \"(\w+)\"", p):
            assert_value(r, m[2].count(m[1]))
        elif m := re.search(r"How many words are in this sentence: \"([^\"]+)\"", p):
            assert_value(r, len(m[1].split()))
        elif m := re.search(r"How many times does the word \"(\w+)\" occur in this sentence: \"([^\"]+)\"", p):
            assert_value(r, sum(1 for w in re.findall(r"[A-Za-z]+", m[2]) if w.lower() == m[1]))
        elif m := re.search(r"Spell the word \"(\w+)\" backwards", p):
            assert_value(r, m[1][::-1])
        elif m := re.search(r"does the letter \"(\w)\" appear for the last time", p):
            word = re.search(r"In the string \"(\w+)\"", p)[1]
            assert_value(r, word.rindex(m[1]) + 1)
        elif m := re.search(r"(?:does|after) (\d+) (\w+) (\d{4})", p):
            d, mon, y = int(m[1]), MONTHS.index(m[2]) + 1, int(m[3])
            valid = d <= calendar.monthrange(y, mon)[1]
            assert r["meta"]["premise_true"] == valid, r["id"]
            correct = r["choices"][ord(r["answer"]) - 65]
            assert correct.startswith("The question is based on a false premise") != valid, r["id"]
        elif m := re.search(r"A drawer holds (.+?) socks", p):
            counts = [int(x) for x in re.findall(r"(\d+) \w+", m[1])]
            if "matching pair" in p:
                assert_value(r, len(counts) + 1)
            elif "every colour" in p:
                assert_value(r, sum(counts) - min(counts) + 1)
            else:
                named = re.search(r"having two (\w+) socks", p)[1]
                n_named = int(re.search(rf"(\d+) {named}", m[1])[1])
                assert_value(r, sum(counts) - n_named + 2)
        else:
            continue
        checked += 1
    assert checked >= 60, checked


# --- regeneration ---------------------------------------------------------------------------


def test_generators_reproduce_the_committed_bytes(tmp_path):
    """Byte-identical regeneration; how long the generators take is bench/corpus_bench.py's."""
    for spec in (s for s in registry.discover(ROOT) if s.id in OURS):
        result = registry.run_generator(spec, tmp_path / spec.id)
        assert result.returncode == 0, result.stderr[-2000:]
        assert registry.diff_folders(spec, tmp_path / spec.id).identical, spec.id
