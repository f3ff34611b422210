# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-instruction-v1: verifiable instruction following, 300 rows.

Every row composes 1 to 4 rules of the rule DSL (datasets/eval-instruction-v1/rules.py)
onto a writing task: each rule type leads 10 rows (3 easy with one rule, 4 medium with
two, 3 hard with three or four), the others are drawn from the rules compatible with it.
The prompt states the task, then one instruction per rule, in words written here.

The proof: for every row the generator *constructs* a compliant answer
(`meta.example_pass`) by searching over body length and paragraph layout, and keeps the
row only when rules.evaluate() accepts that answer and rejects the empty reply. Rule sets
it cannot satisfy are redrawn. Prompts are checked against the unique-text rule.

    python datasets/_gen/gen_eval_instruction_v1.py [--out DIR]
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _instruction_text as T  # noqa: E402
import _lib  # noqa: E402

DATASET_ID = "eval-instruction-v1"
SEED = 3_100_001
ROWS_PER_RULE = 10
DIFFICULTY_PLAN = ("easy",) * 3 + ("medium",) * 4 + ("hard",) * 3
RULES_PATH = _lib.DATASETS_ROOT / DATASET_ID / "rules.py"

FAMILY = {
    "word_count": "length", "sentence_count": "length", "paragraph_count": "length",
    "line_count": "length", "char_count": "length",
    "keywords_include": "keywords", "keywords_exclude": "keywords",
    "keyword_frequency": "keywords", "letter_frequency": "keywords",
    "bullet_count": "format", "numbered_item_count": "format", "highlight_count": "format",
    "placeholder_count": "content", "section_count": "format", "title": "format",
    "json_format": "format", "postscript": "content", "paragraph_first_word": "format",
    "answer_choice": "format",
    "all_uppercase": "case", "all_lowercase": "case", "capital_word_count": "case",
    "no_commas": "punctuation", "forbidden_chars": "punctuation", "wrapped_in_quotes": "punctuation",
    "starts_with": "startend", "ends_with": "startend", "repeat_prompt": "startend",
    "two_responses": "combination", "response_language": "language",
}
RULE_TYPES = tuple(FAMILY)

_JSON_OK = {"keywords_include", "keywords_exclude", "keyword_frequency", "letter_frequency", "all_lowercase", "char_count"}
_LANG_OK = {
    "paragraph_count", "bullet_count", "numbered_item_count", "highlight_count", "placeholder_count",
    "section_count", "title", "postscript", "no_commas", "forbidden_chars", "two_responses",
    "wrapped_in_quotes", "line_count", "char_count", "all_lowercase",
}
_PAIRS = [
    ("all_uppercase", "all_lowercase"), ("all_uppercase", "capital_word_count"),
    ("all_lowercase", "capital_word_count"), ("all_lowercase", "section_count"),
    ("wrapped_in_quotes", "starts_with"), ("wrapped_in_quotes", "ends_with"),
    ("wrapped_in_quotes", "repeat_prompt"), ("wrapped_in_quotes", "two_responses"),
    ("wrapped_in_quotes", "section_count"),
    ("two_responses", "section_count"), ("two_responses", "paragraph_count"),
    ("two_responses", "paragraph_first_word"), ("two_responses", "repeat_prompt"),
    ("two_responses", "answer_choice"),
    ("answer_choice", "repeat_prompt"),
    ("repeat_prompt", "starts_with"),
    ("section_count", "paragraph_first_word"),
    ("keywords_exclude", "keywords_include"), ("keywords_exclude", "keyword_frequency"),
]
CONFLICTS: dict[str, set[str]] = {name: set() for name in RULE_TYPES}
for _a, _b in _PAIRS:
    CONFLICTS[_a].add(_b)
    CONFLICTS[_b].add(_a)
for _name in RULE_TYPES:
    if _name != "json_format" and _name not in _JSON_OK:
        CONFLICTS["json_format"].add(_name)
        CONFLICTS[_name].add("json_format")
    if _name != "response_language" and _name not in _LANG_OK:
        CONFLICTS["response_language"].add(_name)
        CONFLICTS[_name].add("response_language")


def load_rules():
    spec = importlib.util.spec_from_file_location("_instruction_rules", RULES_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- context --------------------------------------------------------------------------


class Ctx:
    def __init__(self, topic: tuple, task_form: str, rng: random.Random):
        self.key, self.noun, self.keywords, self.clauses = topic
        self.task = task_form.format(t=self.noun)
        self.question_clause = rng.choice(self.clauses)
        self.lang: str | None = None


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}[n]


def _quote_list(items: list[str]) -> str:
    quoted = [f'"{w}"' for w in items]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _bounds(rng: random.Random, kind: str, lo: int, hi: int, span: tuple[int, int]) -> dict[str, int]:
    """min / max / range / exactly with values in [lo, hi]."""
    if kind == "min":
        return {"min": rng.randint(lo, hi)}
    if kind == "max":
        return {"max": rng.randint(lo, hi)}
    if kind == "exact":
        n = rng.randint(lo, hi)
        return {"min": n, "max": n}
    a = rng.randint(lo, hi)
    return {"min": a, "max": a + rng.randint(*span)}


# --- rule samplers: (rng, ctx, chosen) -> rule ------------------------------------------


def sample_rule(name: str, rng: random.Random, ctx: Ctx, chosen: dict[str, dict]) -> dict[str, Any]:
    r: dict[str, Any] = {"rule": name}
    if name == "word_count":
        kind = rng.choice(["min", "max", "range"])
        r.update(_bounds(rng, kind, *{"min": (40, 120), "max": (60, 160), "range": (40, 100)}[kind], (40, 90)))
    elif name == "sentence_count":
        kind = rng.choice(["min", "max", "range", "exact"])
        r.update(_bounds(rng, kind, *{"min": (3, 8), "max": (4, 12), "range": (3, 6), "exact": (3, 6)}[kind], (2, 5)))
    elif name == "paragraph_count":
        kind = rng.choice(["exact", "exact", "min"])
        r.update(_bounds(rng, kind, 2, 5, (1, 2)))
    elif name == "line_count":
        kind = rng.choice(["min", "max", "range"])
        r.update(_bounds(rng, kind, *{"min": (3, 8), "max": (5, 12), "range": (3, 6)}[kind], (3, 6)))
    elif name == "char_count":
        kind = rng.choice(["min", "max"])
        r.update({"min": rng.randrange(200, 601, 50)} if kind == "min" else {"max": rng.randrange(400, 1201, 50)})
    elif name == "bullet_count":
        r.update(_bounds(rng, "exact", 2, 6, (0, 0)))
    elif name == "numbered_item_count":
        r.update(_bounds(rng, "exact", 3, 5, (0, 0)))
    elif name == "highlight_count":
        r.update({"min": rng.randint(1, 4)})
    elif name == "placeholder_count":
        r.update({"min": rng.randint(1, 4)})
    elif name == "section_count":
        marker = rng.choice(["SECTION", "SECTION", "PART"])
        if marker != "SECTION":
            r["marker"] = marker
        r.update(_bounds(rng, "exact", 2, 5, (0, 0)))
    elif name == "keyword_frequency":
        used = set(chosen.get("keywords_include", {}).get("keywords", []))
        kw = rng.choice([k for k in ctx.keywords if k not in used and k not in ctx.task.lower()] or ["example"])
        r["keyword"] = kw
        kind = rng.choice(["min", "exact", "range"])
        r.update(_bounds(rng, kind, 2, 4, (1, 2)))
    elif name == "letter_frequency":
        if rng.random() < 0.5:
            r["letter"] = rng.choice("bcdfghklmnprstwy")
            r["min"] = rng.randint(5, 15)
        else:
            r["letter"] = rng.choice("jqxz")
            r["max"] = rng.randint(0, 2)
    elif name == "capital_word_count":
        r.update({"min": rng.randint(2, 6)} if rng.random() < 0.6 else {"min": 1, "max": rng.randint(3, 6)})
    elif name == "keywords_include":
        used = {chosen.get("keyword_frequency", {}).get("keyword")}
        pool = [k for k in ctx.keywords if k not in used]
        r["keywords"] = rng.sample(pool, min(len(pool), rng.randint(2, 3)))
    elif name == "keywords_exclude":
        r["keywords"] = rng.sample(T.FILLER_WORDS, rng.randint(1, 3))
    elif name == "paragraph_first_word":
        r["index"] = rng.randint(2, 3)
        r["word"] = rng.choice(T.FIRST_WORDS)
    elif name == "starts_with":
        r["phrase"] = rng.choice(T.STARTS)
    elif name == "ends_with":
        r["phrase"] = rng.choice(T.ENDS)
    elif name == "json_format":
        if rng.random() < 0.5:
            r["keys"] = ["topic", "summary"]
    elif name == "postscript":
        if rng.random() < 0.3:
            r["marker"] = "P.P.S"
    elif name == "repeat_prompt":
        r["prompt"] = ctx.task
    elif name == "answer_choice":
        r["options"] = list(rng.choice(T.OPTION_SETS))
    elif name == "forbidden_chars":
        r["chars"] = "".join(sorted(rng.sample("!?;&#%@", rng.randint(1, 3))))
    elif name == "response_language":
        r["language"] = rng.choice(sorted(T.LANG_NAMES))
    return r


# --- instructions (the words the model reads) ------------------------------------------


def _noun(n: int, plural: str) -> str:
    if n != 1:
        return plural
    return plural[:-1] if plural.endswith("s") else plural


def _count_phrase(rule: dict, noun: str, rng: random.Random) -> str:
    lo, hi = rule.get("min"), rule.get("max")
    if lo is not None and lo == hi:
        return rng.choice([f"exactly {lo} {_noun(lo, noun)}", f"precisely {lo} {_noun(lo, noun)}"])
    if lo is not None and hi is not None:
        return f"between {lo} and {hi} {noun}"
    if lo is not None:
        return rng.choice([f"at least {lo} {_noun(lo, noun)}", f"{lo} or more {noun}"])
    return rng.choice([f"at most {hi} {_noun(hi, noun)}", f"no more than {hi} {_noun(hi, noun)}"])


def instruction(rule: dict, rng: random.Random) -> str:
    name = rule["rule"]
    if name == "word_count":
        return rng.choice(["Your reply should contain {p}.", "Use {p} in total."]).format(p=_count_phrase(rule, "words", rng))
    if name == "sentence_count":
        return rng.choice(["Write {p}.", "The reply must consist of {p}."]).format(p=_count_phrase(rule, "sentences", rng))
    if name == "paragraph_count":
        return f"Organise the reply as {_count_phrase(rule, 'paragraphs', rng)}, with one blank line between paragraphs."
    if name == "line_count":
        return f"The reply should take up {_count_phrase(rule, 'non-empty lines', rng)}."
    if name == "char_count":
        return f"Keep the whole reply to {_count_phrase(rule, 'characters', rng)}."
    if name == "bullet_count":
        return rng.choice([
            "Include {p} in a markdown list, each line starting with \"* \".",
            "Give {p} as a markdown bulleted list (lines beginning with \"- \" or \"* \").",
        ]).format(p=_count_phrase(rule, "bullet points", rng))
    if name == "numbered_item_count":
        return f"Include a numbered list with {_count_phrase(rule, 'items', rng)}, written as 1., 2., 3. and so on."
    if name == "highlight_count":
        return f"Emphasise {_count_phrase(rule, 'separate phrases', rng)} with markdown asterisks, like *this phrase*."
    if name == "placeholder_count":
        return f"Leave {_count_phrase(rule, 'placeholders', rng)} in square brackets for details to be filled in later, for example [city]."
    if name == "section_count":
        m = rule.get("marker", "SECTION")
        return f"Divide the reply into {_count_phrase(rule, 'sections', rng)}. Start each section with a line that reads {m} 1, {m} 2 and so on."
    if name == "keyword_frequency":
        return f"Use the word \"{rule['keyword']}\" {_count_phrase(rule, 'times', rng)}."
    if name == "letter_frequency":
        if rule.get("max") == 0:
            return f"Do not use the letter \"{rule['letter']}\" anywhere, in upper or lower case."
        return f"The letter \"{rule['letter']}\" (either case) must appear {_count_phrase(rule, 'times', rng)}."
    if name == "capital_word_count":
        return f"Write {_count_phrase(rule, 'words', rng)} entirely in capital letters."
    if name == "keywords_include":
        return rng.choice(["Mention the words {k}.", "Make sure the words {k} appear in the reply."]).format(k=_quote_list(rule["keywords"]))
    if name == "keywords_exclude":
        return rng.choice(["Do not use the words {k}.", "Avoid the words {k} entirely."]).format(k=_quote_list(rule["keywords"]))
    if name == "paragraph_first_word":
        return f"Separate paragraphs with blank lines; the {_ordinal(rule['index'])} paragraph must begin with the word \"{rule['word']}\"."
    if name == "starts_with":
        return f"Begin the reply with the words \"{rule['phrase']}\"."
    if name == "ends_with":
        return f"End the reply with the exact phrase \"{rule['phrase']}\", with nothing after it."
    if name == "wrapped_in_quotes":
        return rng.choice(["Put the entire reply inside double quotation marks.", "Wrap the whole reply in double quotes."])
    if name == "json_format":
        text = "Format the entire reply as JSON; a markdown code fence around it is acceptable."
        if rule.get("keys"):
            text += f" The JSON object must have the keys {_quote_list(rule['keys'])}."
        return text
    if name == "title":
        return "Give the reply a title wrapped in double angle brackets, such as <<my title>>."
    if name == "postscript":
        return f"After the main text, add a postscript that starts with {rule.get('marker', 'P.S.')}"
    if name == "two_responses":
        return "Give two different versions of the reply, separated by a line containing only six asterisks (******)."
    if name == "repeat_prompt":
        return "Before you answer, copy the request in the first paragraph of this message word for word (not these instructions), then give your answer."
    if name == "answer_choice":
        return f"Answer with exactly one of these options: {_quote_list(rule['options']).replace(' and ', ' or ')}"
    if name == "all_uppercase":
        return rng.choice(["Write the whole reply in capital letters.", "Use only capital letters; no lowercase letters anywhere."])
    if name == "all_lowercase":
        return rng.choice(["Write the whole reply in lowercase letters, with no capitals at all.", "Do not use any capital letters."])
    if name == "no_commas":
        return rng.choice(["Do not use any commas.", "The reply must not contain a single comma."])
    if name == "forbidden_chars":
        return f"Do not use any of these characters: {' '.join(rule['chars'])}"
    if name == "response_language":
        return f"Write the entire reply in {T.LANG_NAMES[rule['language']]}, and no other language."
    raise KeyError(name)


# --- building a compliant answer --------------------------------------------------------


def _banned(rules: dict[str, dict]) -> set[str]:
    banned: set[str] = set()
    if "keywords_exclude" in rules:
        banned.update(k.lower() for k in rules["keywords_exclude"]["keywords"])
    if "keyword_frequency" in rules:
        banned.add(rules["keyword_frequency"]["keyword"].lower())
    return banned


def _allowed(sentences: list[str], rules: dict[str, dict], R) -> list[str]:
    banned = _banned(rules)
    if banned:
        sentences = [s for s in sentences if not banned & {w.lower() for w in R.words(s)}]
    lf = rules.get("letter_frequency")
    if lf and "max" in lf:
        sentences = [s for s in sentences if lf["letter"] not in s.lower()]
    return sentences


def _sentence_pool(ctx: Ctx, rules: dict[str, dict], rng: random.Random, R) -> list[str]:
    if ctx.lang:
        pool = list(T.LANG_SENTENCES[ctx.lang])
        rng.shuffle(pool)
        return pool
    topical = [rng.choice(T.FRAMES).format(c=c, C=_cap(c)) for c in ctx.clauses]
    generic = [g.format(t=ctx.noun) for g in T.GENERIC]
    rng.shuffle(topical)
    rng.shuffle(generic)
    pool = _allowed(topical + generic, rules, R)
    lead: list[str] = []
    if "keywords_include" in rules:
        for w in rules["keywords_include"]["keywords"]:
            lead.append(_cap(rng.choice(T.KEYWORD_FRAMES).format(w=w)))
    if "keyword_frequency" in rules:
        kf = rules["keyword_frequency"]
        lo, hi = kf.get("min", 1), kf.get("max", kf.get("min", 1) + 1)
        frames = rng.sample(T.KEYWORD_FRAMES, len(T.KEYWORD_FRAMES))
        for i in range(rng.randint(lo, hi)):
            lead.append(_cap(frames[i % len(frames)].format(w=kf["keyword"])))
    return lead + pool


class Draw:
    """The random choices of one construction attempt, drawn up front."""

    def __init__(self, ctx: Ctx, rules: dict[str, dict], rng: random.Random, R):
        self.pool = _sentence_pool(ctx, rules, rng, R)
        self.second = list(reversed(self.pool))
        if ctx.lang:  # list items from the far end of the pool, so they rarely repeat the body
            items = list(reversed(self.pool))
        else:
            items = [_cap(c) + "." for c in ctx.clauses] + [g.format(t=ctx.noun) for g in T.GENERIC[:6]]
            rng.shuffle(items)
        self.items = _allowed(items, rules, R)
        self.placeholders = rng.sample(T.PLACEHOLDER_NAMES, 6)
        self.ph_frames = [rng.choice(T.PLACEHOLDER_FRAMES) for _ in range(6)]
        self.title = rng.choice(T.TITLE_FRAMES).format(T=ctx.noun.title()) if not ctx.lang else " ".join(self.pool[0].split()[:3]).rstrip(".,。")
        self.ps = rng.choice(T.LANG_SENTENCES[ctx.lang]) if ctx.lang else rng.choice(T.POSTSCRIPTS)
        self.caps = rng.sample(T.CAPS_WORDS, len(T.CAPS_WORDS))


def _paragraphs(sentences: list[str], p: int) -> list[str]:
    p = max(1, min(p, len(sentences)))
    size, extra = divmod(len(sentences), p)
    out, i = [], 0
    for j in range(p):
        n = size + (1 if j < extra else 0)
        out.append(" ".join(sentences[i : i + n]))
        i += n
    return out


def _highlight(sentence: str) -> str:
    words = sentence.split(" ")
    if len(words) < 3:
        return f"*{sentence}*"
    return f"*{words[0]} {words[1]}* " + " ".join(words[2:])


def render(rules: dict[str, dict], ctx: Ctx, d: Draw, k: int, p: int, caps_extra: int = 0) -> str:
    body = list(d.pool[:k])
    if "placeholder_count" in rules:
        n = rules["placeholder_count"]["min"]
        if ctx.lang:
            body = [s[:-1] + f" [{d.placeholders[i]}]" + s[-1] if i < n else s for i, s in enumerate(body)]
        else:
            body += [d.ph_frames[i].format(p=d.placeholders[i]) for i in range(n)]
    if "highlight_count" in rules:
        n = rules["highlight_count"]["min"]
        body = [_highlight(s) if i < n else s for i, s in enumerate(body)]
    if caps_extra:
        body.append("Keep these words in mind: " + " ".join(d.caps[:caps_extra]) + ".")
    if "section_count" in rules:
        sec = rules["section_count"]
        p = sec["min"]
        marker = sec.get("marker", "SECTION")
        paras = [f"{marker} {i + 1}\n{text}" for i, text in enumerate(_paragraphs(body, p))]
        if len(paras) < p:
            return ""
    else:
        paras = _paragraphs(body, p)
    if "bullet_count" in rules:
        n = rules["bullet_count"]["min"]
        paras[0] += "\n" + "\n".join("* " + s for s in d.items[:n])
    if "numbered_item_count" in rules:
        n = rules["numbered_item_count"]["min"]
        paras[-1] += "\n" + "\n".join(f"{i + 1}. {s}" for i, s in enumerate(d.items[-n:]))
    if "two_responses" in rules:
        second = " ".join(d.second[:k])
        paras = ["\n\n".join(paras) + "\n******\n" + second]
    if "title" in rules:
        paras[0] = f"<<{d.title}>>\n" + paras[0]
    if "answer_choice" in rules:
        opts = rules["answer_choice"]["options"]
        paras.insert(0, opts[T.OPTION_TRUE[T.OPTION_SETS.index(opts)]])
    if "starts_with" in rules:
        paras[0] = rules["starts_with"]["phrase"] + ".\n" + paras[0]
    if "repeat_prompt" in rules:
        paras.insert(0, rules["repeat_prompt"]["prompt"])
    if "postscript" in rules:
        paras.append(f"{rules['postscript'].get('marker', 'P.S.')} {d.ps}")
    if "ends_with" in rules:
        paras[-1] += " " + rules["ends_with"]["phrase"]
    if "paragraph_first_word" in rules:
        pf = rules["paragraph_first_word"]
        i = pf["index"] - 1
        if i >= len(paras):
            return ""
        head = paras[i]
        paras[i] = f"{pf['word']}, {head[:1].lower()}{head[1:]}"
    text = "\n\n".join(paras)
    if "json_format" in rules:
        value = {"topic": ctx.noun, "summary": " ".join(body)}
        text = json.dumps(value, indent=2, ensure_ascii=False)
    if "wrapped_in_quotes" in rules:
        text = f'"{text}"'
    if "forbidden_chars" in rules:
        for ch in rules["forbidden_chars"]["chars"]:
            text = text.replace(ch, "")
    if "no_commas" in rules:
        text = text.replace(",", "").replace("，", " ")
    if "all_uppercase" in rules:
        text = text.upper()
    if "all_lowercase" in rules:
        text = text.lower()
    return text


def construct(answer: dict, ctx: Ctx, rng: random.Random, R) -> str | None:
    rules = {r["rule"]: r for r in answer["all"]}
    needs_p = "paragraph_count" in rules or "paragraph_first_word" in rules
    for _attempt in range(6):
        d = Draw(ctx, rules, rng, R)
        for k in range(1, len(d.pool) + 1):
            options = range(1, min(k, 7) + 1) if needs_p else [max(1, min(3, (k + 2) // 4))]
            for p in options:
                text = render(rules, ctx, d, k, p)
                if not text:
                    continue
                cw = rules.get("capital_word_count")
                if cw:
                    have = sum(1 for w in R.words(text) if w == w.upper() and any(c.isalpha() for c in w))
                    need = cw.get("min", 0) - have
                    if need > 0:
                        text = render(rules, ctx, d, k, p, caps_extra=min(need, len(d.caps)))
                if R.evaluate(answer, text)[0]:
                    return text
    return None


# --- rows -----------------------------------------------------------------------------


def make_row(index: int, primary: str, difficulty: str, topic: tuple, task_form: str, attempt: int, R) -> dict:
    rng = random.Random(_lib.stable_seed(DATASET_ID, index, attempt))
    ctx = Ctx(topic, task_form, rng)
    extra_n = {"easy": 0, "medium": 1, "hard": rng.choice([2, 3])}[difficulty]
    for _ in range(200):
        chosen: dict[str, dict] = {}
        names = [primary]
        candidates = [n for n in RULE_TYPES if n != primary and n not in CONFLICTS[primary]]
        rng.shuffle(candidates)
        for name in candidates:
            if len(names) > extra_n:
                break
            if any(name in CONFLICTS[c] for c in names):
                continue
            names.append(name)
        if len(names) != extra_n + 1:
            continue
        ctx.lang = None
        rules = []
        for name in names:
            rule = sample_rule(name, rng, ctx, chosen)
            chosen[name] = rule
            rules.append(rule)
        if "response_language" in chosen:
            ctx.lang = chosen["response_language"]["language"]
        answer = {"all": rules}
        if R.evaluate(answer, "")[0]:
            floor = {"rule": "char_count", "min": 80} if ("json_format" in chosen or ctx.lang) and "char_count" not in chosen else {"rule": "word_count", "min": rng.randint(25, 60)}
            if floor["rule"] in chosen:
                continue
            answer["all"].append(floor)
        assert not R.validate(answer), R.validate(answer)
        example = construct(answer, ctx, rng, R)
        if example is None:
            continue
        ok, failed = R.evaluate(answer, example)
        assert ok and not failed
        assert not R.evaluate(answer, "")[0]
        task = T.QUESTION_TASK.format(c=ctx.question_clause) if "answer_choice" in chosen else ctx.task
        if "repeat_prompt" in chosen and "answer_choice" not in chosen:
            assert chosen["repeat_prompt"]["prompt"] == task
        lines = [instruction(r, rng) for r in answer["all"]]
        rng.shuffle(lines)
        prompt = task + "\n\n" + "\n".join(lines)
        return {
            "id": f"instr-{index + 1:04d}",
            "category": FAMILY[primary],
            "difficulty": difficulty,
            "prompt": prompt,
            "answer": answer,
            "scorer": "instruction",
            "meta": {
                "example_pass": example,
                "rules": [r["rule"] for r in answer["all"]],
                "primary_rule": primary,
                "topic": ctx.key,
            },
        }
    raise RuntimeError(f"row {index}: no satisfiable rule set for {primary} ({difficulty})")


def make_rows(R) -> list[dict]:
    rng = random.Random(SEED)
    plan = [(name, diff) for name in RULE_TYPES for diff in DIFFICULTY_PLAN]
    rng.shuffle(plan)
    pairs = [(t, f) for t in range(len(T.TOPICS)) for f in range(len(T.TASKS))]
    rng.shuffle(pairs)
    assert len(pairs) >= len(plan)
    rows: list[dict] = []
    seen: dict[bytes, str] = {}
    for index, (primary, difficulty) in enumerate(plan):
        topic_i, task_i = pairs[index]
        for attempt in range(50):
            row = make_row(index, primary, difficulty, T.TOPICS[topic_i], T.TASKS[task_i], attempt, R)
            keys = _lib.passage_keys(row["prompt"])
            if not any(k in seen for k in keys):
                break
        else:
            raise RuntimeError(f"row {index}: prompt repeats an earlier passage after 50 attempts")
        for k in keys:
            seen[k] = row["id"]
        rows.append(row)
    return rows


def generate(out: Path) -> None:
    R = load_rules()
    failures = R.self_test()
    if failures:
        raise SystemExit("rules.py self-test failed:\n" + "\n".join(failures))
    rows = make_rows(R)
    for row in rows:  # the proof, once more, on the final rows
        assert R.evaluate(row["answer"], row["meta"]["example_pass"])[0], row["id"]
        assert not R.evaluate(row["answer"], "")[0], row["id"]
    _lib.assert_unique_text((row["id"], row["prompt"]) for row in rows)
    card = _lib.eval_dataset_json(
        dataset_id=DATASET_ID,
        default_scorer="instruction",
        rows=rows,
        description=(
            "Verifiable instruction following: writing tasks with 1 to 4 composed rules "
            f"drawn from a {len(R.RULES)}-rule vocabulary at least as broad as IFEval's "
            "verifiable instruction types (counts of words, sentences, paragraphs, lines, "
            "bullets; keywords and letter frequency; case; start and end phrases; quotes, "
            "JSON, titles, sections, placeholders, postscripts; two responses; repeating the "
            "request; response language). Scored by rules.py against the raw output; every "
            "row carries a generated, verified meta.example_pass."
        ),
        generator=__file__,
        seed=SEED,
        inputs=[Path(__file__).resolve().parent / "_instruction_text.py", RULES_PATH],
        sources=["rules.py"],
        extra={
            "rules": sorted(R.RULES),
            "rule_dsl": 'answer = {"all": [rule, ...]}; rule = {"rule": <name>, <parameters>}; see rules.py --list',
        },
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
