# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate prompts-shared-prefix-v1: groups of prompts that share a long system prefix.

The shared_prefix contract: when a row's `shared_prefix` is non-null the harness sends
[{"role": "system", "content": shared_prefix}, *messages], and `approx_tokens` already
includes the prefix. Four groups, each one fictional organisation's handbook (about 600,
1 800, 5 000 and 14 000 tokens) shared verbatim by every row of the group, followed by a
distinct user question (sometimes with a pasted draft). Within the dataset every
handbook clause and every user sentence is distinct: only the prefix itself is shared,
exactly, so a prefix cache sees precisely the reuse the workload intends and nothing else.

    python datasets/_gen/gen_prompts_shared_prefix_v1.py [--out DIR]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402

DATASET_ID = "prompts-shared-prefix-v1"
SEED = 6_400_001

GROUPS = (  # topic, organisation, prefix target tokens, rows
    ("workshop", "the Larchmere Community Workshop", 600, 8),
    ("ferry", "the Skerry Sound Ferry Company", 1800, 8),
    ("seed-library", "the Brackenford Seed Library", 5000, 8),
    ("mountain-huts", "the High Corrie Hut Association", 14000, 5),
)

VOCAB = {
    "workshop": {
        "things": ("bench booking", "lathe session", "tool loan", "timber order", "safety induction", "locker key", "kiln slot", "glue stock"),
        "roles": ("duty steward", "tool warden", "treasurer", "safety officer", "membership secretary", "kiln keeper"),
        "actions": ("approved", "logged", "countersigned", "checked", "confirmed", "recorded"),
        "conditions": ("the workshop is closed for cleaning", "a member is under eighteen", "the dust extractor is off", "two members share a bench", "the booking sheet is full", "a tool is tagged for repair"),
        "permissions": ("extend the session by one hour", "lend a spare key", "waive the bench fee", "move the booking to another day", "open the store room", "issue a temporary pass"),
        "states": ("blunt", "cracked", "missing a guard", "unlabelled", "left switched on"),
        "periods": ("session", "week", "month", "term"),
        "sections": ("Opening hours", "Bench bookings", "Tool loans", "Safety", "Fees", "Materials", "Keys and lockers", "Complaints"),
    },
    "ferry": {
        "things": ("season ticket", "vehicle booking", "bicycle space", "freight slip", "group reservation", "refund claim", "cabin upgrade", "pet pass"),
        "roles": ("purser", "deck officer", "ticket office", "harbour master", "customer desk", "duty captain"),
        "actions": ("stamped", "issued", "validated", "reissued", "cancelled", "endorsed"),
        "conditions": ("a sailing is cancelled for weather", "the car deck is full", "a passenger needs step-free access", "the tide delays departure", "a booking was made by phone", "the vessel is replaced"),
        "permissions": ("transfer the ticket to a later sailing", "refund the fare in full", "board vehicles early", "reserve a quiet lounge seat", "waive the change fee", "hold a space for an hour"),
        "states": ("damaged", "unaccompanied", "oversized", "unpaid", "mislabelled"),
        "periods": ("crossing", "day", "week", "season"),
        "sections": ("Tickets", "Vehicles", "Cycles and pets", "Freight", "Disruption", "Refunds", "Accessibility", "Onboard conduct", "Group travel", "Lost property"),
    },
    "seed-library": {
        "things": ("seed packet", "germination test", "donation form", "bean variety", "tomato line", "return slip", "storage jar", "catalogue entry"),
        "roles": ("seed keeper", "catalogue editor", "grower volunteer", "cold-store warden", "donations clerk", "outreach lead"),
        "actions": ("labelled", "dated", "tested", "catalogued", "sealed", "weighed"),
        "conditions": ("germination falls below half", "a variety may have crossed", "the jar shows condensation", "a donor asks for anonymity", "stock drops to one packet", "the packet lacks a harvest year"),
        "permissions": ("withdraw the variety from lending", "ask the grower for a fresh harvest", "split a donation into smaller packets", "move the jar to the deep freezer", "publish the donor's name", "lend a second packet"),
        "states": ("damp", "unlabelled", "mouldy", "crushed", "out of date"),
        "periods": ("packet", "season", "year", "loan"),
        "sections": ("Borrowing", "Returning seed", "Donations", "Storage", "Testing", "Isolation distances", "Cataloguing", "Volunteers", "Events", "Record keeping", "Outreach", "Disputes"),
    },
    "mountain-huts": {
        "things": ("bunk reservation", "winter room key", "stove permit", "water rota", "fuel delivery", "rescue log", "hut register", "drying-room slot"),
        "roles": ("hut warden", "rota coordinator", "hut secretary", "rescue liaison", "fuel steward", "booking clerk"),
        "actions": ("signed", "witnessed", "entered", "checked", "reconciled", "countersigned"),
        "conditions": ("an avalanche warning is in force", "the water source freezes", "a party arrives after dark", "the radio fails", "the hut is over capacity", "fuel runs below a quarter"),
        "permissions": ("open the emergency room", "ration stove fuel", "turn away late bookings", "call for a helicopter drop", "extend a stay by one night", "close the upper dormitory"),
        "states": ("wet", "cracked", "leaking", "unsigned", "overdue"),
        "periods": ("night", "visit", "week", "winter"),
        "sections": ("Reservations", "Arrival", "Winter rooms", "Stoves and fuel", "Water", "Waste", "Rescue", "The register", "Drying room", "Quiet hours", "Dogs", "Groups", "Fees", "Closing the hut", "Wardens", "Complaints"),
    },
}

CLAUSES = (
    "Every {thing} must be {action} by the {role} within {n} days.",
    "The {role} keeps a record of each {thing} for {n} months.",
    "If {condition}, the {role} may {permission}.",
    "A member may keep at most {n} open requests of the kind \"{thing}\" at a time.",
    "Any {thing} found {state} goes to the {role} before the end of the {period}.",
    "The fee for a {thing} is {n} credits per {period}, waived if {condition}.",
    "Only the {role} can {permission}, and only after day {n} of the {period}.",
    "A {thing} not {action} within {n} hours lapses and is offered to the next member.",
)

QUESTIONS = (
    "According to clause {clause} of the handbook, who is responsible, and by when?",
    "I am reading clause {clause}. Does it apply to me if {situation}? Quote the clause in your answer.",
    "Summarise section {section} of the handbook in three bullet points for a new member.",
    "Clause {clause} and clause {other} seem to overlap. Explain how they fit together.",
    "Which clauses of section {section} mention the {role}, and what do they ask of that role?",
    "Using only the handbook, draft a polite two-sentence reply to this member's question: does anything change if {situation}?",
)

SITUATIONS = (
    "I joined {n} days ago", "my {thing} was {action} late", "I hold {n} of them already",
    "the {role} was away for {n} days", "I only need it for {n} hours", "my {thing} turned out {state}",
)

DRAFT = (
    "I have written to the {role} {n} times about my {thing}.",
    "On day {n} my {thing} was still not {action}.",
    "A friend told me that the {role} once agreed to {permission} after {n} days.",
    "On day {n} the {role} flagged my {thing} as {state}.",
    "Last {period} I paid {n} credits and nobody mentioned {condition}.",
    "I would like to know if the {role} can {permission} this time, since it is my {n}th request.",
)


class Writer:
    def __init__(self, rng: random.Random, vocab: dict, used: set[str]):
        self.rng, self.v, self.used = rng, vocab, used

    def fill(self, template: str) -> str:
        rng, v = self.rng, self.v
        for _ in range(1000):
            text = template.format(
                thing=rng.choice(v["things"]),
                role=rng.choice(v["roles"]),
                action=rng.choice(v["actions"]),
                condition=rng.choice(v["conditions"]),
                permission=rng.choice(v["permissions"]),
                state=rng.choice(v["states"]),
                period=rng.choice(v["periods"]),
                n=rng.randint(2, 60),
            )
            text = text[0].upper() + text[1:]
            if text not in self.used:
                self.used.add(text)
                return text
        raise RuntimeError("vocabulary exhausted")


def make_prefix(rng: random.Random, writer: Writer, topic: str, org: str, target: int) -> tuple[str, list[tuple[str, str]], list[str]]:
    """The handbook: returns (text, [(clause number, clause)], section numbers)."""
    v = VOCAB[topic]
    head = (
        f"You are the help desk assistant of {org}. Answer members' questions using only the "
        f"handbook below; quote clause numbers, and say so plainly when the handbook does not cover a question.\n\n"
        f"# Handbook of {org}\n"
    )
    parts = [head]
    clauses: list[tuple[str, str]] = []
    sections: list[str] = []
    chars = len(head)
    section = 0
    while _lib.approx_tokens_of_chars(chars) < target:
        section += 1
        title = v["sections"][(section - 1) % len(v["sections"])]
        if section > len(v["sections"]):
            title += f" (part {(section - 1) // len(v['sections']) + 1})"
        block = [f"\n## {section}. {title}\n"]
        sections.append(str(section))
        for c in range(1, rng.randint(4, 9) + 1):
            clause = writer.fill(rng.choice(CLAUSES))
            number = f"{section}.{c}"
            clauses.append((number, clause))
            block.append(f"{number} {clause}\n")
        text = "".join(block)
        parts.append(text)
        chars += len(text)
    return "".join(parts).rstrip("\n") + "\n", clauses, sections


def make_message(rng: random.Random, writer: Writer, clauses, sections) -> str:
    (clause, _), (other, _) = rng.sample(clauses, 2)
    situation = writer.fill(rng.choice(SITUATIONS))
    situation = situation[0].lower() + situation[1:]
    question = rng.choice(QUESTIONS).format(
        clause=clause, other=other, section=rng.choice(sections), situation=situation, role=rng.choice(writer.v["roles"])
    )
    draft_sentences = rng.choice((0, 0, 2, 5, 12, 30))
    if not draft_sentences:
        return question
    draft = " ".join(writer.fill(rng.choice(DRAFT)) for _ in range(draft_sentences))
    return f"{question}\n\nSome background from me: {draft}"


def make_rows() -> tuple[list[dict], list[dict]]:
    rng = random.Random(SEED)
    used: set[str] = set()
    rows, groups = [], []
    number = 0
    for topic, org, target, count in GROUPS:
        writer = Writer(rng, VOCAB[topic], used)
        prefix, clauses, sections = make_prefix(rng, writer, topic, org, target)
        groups.append({"topic": topic, "rows": count, "prefix_approx_tokens": _lib.approx_tokens(prefix), "prefix_sha256": _lib.sha256_text(prefix)})
        for _ in range(count):
            number += 1
            messages = [{"role": "user", "content": make_message(rng, writer, clauses, sections)}]
            tokens = _lib.message_tokens(messages, prefix)
            # the contract: what is sent is [system: prefix, *messages], and approx_tokens counts it all
            sent = [{"role": "system", "content": prefix}, *messages]
            assert tokens == _lib.message_tokens(sent)
            rows.append(
                {
                    "id": f"prefix-{number:04d}",
                    "topic": topic,
                    "bucket": _lib.bucket(tokens),
                    "lang": "en",
                    "approx_tokens": tokens,
                    "messages": messages,
                    "shared_prefix": prefix,
                }
            )
    # only the prefix is shared: user turns are unique, prefixes are unique to their group
    _lib.assert_unique_text([(r["id"], r["messages"][0]["content"]) for r in rows] + [(g["topic"], p) for g, p in zip(groups, _distinct_prefixes(rows))])
    return rows, groups


def _distinct_prefixes(rows: list[dict]) -> list[str]:
    seen: list[str] = []
    for row in rows:
        if row["shared_prefix"] not in seen:
            seen.append(row["shared_prefix"])
    return seen


def generate(out: Path) -> None:
    rows, groups = make_rows()
    card = _lib.base_dataset_json(
        dataset_id=DATASET_ID,
        kind="prompts",
        description=(
            "Prefix-caching prompts: four groups, each sharing one handbook verbatim as "
            "shared_prefix (sent as a leading system message; approx_tokens includes it), "
            "with a distinct user turn per row."
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        extra={
            "topics": [g[0] for g in GROUPS],
            "langs": ["en"],
            "buckets": {n: [lo, hi] for n, lo, hi in _lib.BUCKETS},
            "shared_prefix": {
                "contract": (
                    "when shared_prefix is non-null, send [{role: system, content: shared_prefix}, *messages]; "
                    "approx_tokens already includes it"
                ),
                "groups": groups,
            },
        },
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
