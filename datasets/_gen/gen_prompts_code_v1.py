# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate prompts-code-v1: coding prompts, code_lang x task, each with a system message
naming the language.

code_lang is python | typescript | go | rust | sql, task is write | fix | explain |
refactor, three sizes each. The code in fix/explain/refactor prompts is generated from a
small intermediate representation (sum-above-threshold, count-by-remainder, largest gap,
clamp-and-scale, discounted total), rendered idiomatically per language with names built
from domain words and random constants, so no two functions and no two passages are the
same. Every fix prompt carries exactly one injected bug (a `>=` where the description
demands `>`), and its symptom text names that function and threshold -- the statement is
true by construction. The generator asserts buckets, approx_tokens and unique text.

    python datasets/_gen/gen_prompts_code_v1.py [--out DIR]
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _lib  # noqa: E402

DATASET_ID = "prompts-code-v1"
SEED = 5_300_001
TOPICS = ("inventory", "weather", "transport", "library", "energy")
SIZES = {  # task -> (bucket, target approx_tokens range) x 3
    "write": (("xs", 60, 100), ("s", 200, 400), ("m", 700, 1500)),
    "fix": (("s", 250, 400), ("m", 800, 1800), ("l", 2300, 5000)),
    "explain": (("s", 250, 400), ("m", 800, 1800), ("l", 2300, 5000)),
    "refactor": (("s", 250, 400), ("m", 800, 1800), ("l", 2300, 5000)),
}

DOMAIN = {  # topic -> ((singular, plural), ...), adjectives
    "inventory": (
        (("crate", "crates"), ("parcel", "parcels"), ("pallet", "pallets")),
        ("heavy", "spare", "inbound", "outbound", "damaged", "sealed", "bulk", "fragile", "returned", "stacked",
         "chilled", "oversized", "labelled", "unclaimed", "priority", "export", "import", "wrapped", "loose", "tagged"),
    ),
    "weather": (
        (("reading", "readings"), ("sample", "samples"), ("gauge", "gauges")),
        ("coastal", "hourly", "upland", "nightly", "gusty", "humid", "frosty", "dry", "cloudy", "calm",
         "valley", "harbour", "summit", "daily", "morning", "evening", "stormy", "misty", "sunny", "windward"),
    ),
    "transport": (
        (("trip", "trips"), ("journey", "journeys"), ("fare", "fares")),
        ("late", "early", "express", "local", "shuttle", "overnight", "rural", "urban", "cancelled", "extra",
         "weekend", "peak", "ferry", "tram", "airport", "school", "return", "single", "group", "charter"),
    ),
    "library": (
        (("loan", "loans"), ("hold", "holds"), ("renewal", "renewals")),
        ("overdue", "renewed", "reserved", "junior", "archive", "reference", "weekly", "audio", "interlibrary", "quiet",
         "branch", "mobile", "digital", "rare", "periodical", "fiction", "atlas", "music", "summer", "evening"),
    ),
    "energy": (
        (("meter", "meters"), ("panel", "panels"), ("charge", "charges")),
        ("solar", "peak", "offpeak", "backup", "grid", "rooftop", "basement", "smart", "legacy", "metered",
         "wind", "battery", "heat", "winter", "summer", "night", "standby", "shared", "garage", "farm"),
    ),
}

VERBS = {
    "filter_sum": ("total", "sum", "weigh", "tally"),
    "count_mod": ("count", "number_of", "how_many"),
    "max_gap": ("widest_gap", "largest_jump", "max_step"),
    "clamp_scale": ("scale", "bound", "normalise"),
    "discount_total": ("bill", "charge", "invoice"),
}
KINDS = tuple(VERBS)
BUGGABLE = ("filter_sum", "count_mod")

SYSTEM = (
    "You are an experienced {lang} developer. Answer with idiomatic {lang} and keep explanations short.",
    "You are a careful {lang} engineer reviewing and writing production code. Reply in {lang} unless asked otherwise.",
    "You write clear, well-tested {lang}. When you show code, show complete {lang} snippets.",
)

SQL_USER = {
    "fix": (
        "The SQL below has a bug. {symptom} Find it, fix it, and explain the change in two sentences.",
        "A colleague reports a problem with these SQL queries: {symptom} Please locate the bug and show the corrected query.",
    ),
    "explain": (
        "Explain what each query in the following SQL computes, and point out any edge cases (empty tables, NULLs).",
        "Walk me through this SQL: for every query, describe the rows it reads and the result it returns.",
    ),
    "refactor": (
        "Refactor the following SQL for readability without changing any result. Keep every result column name.",
        "Clean up these SQL queries: remove duplication (a CTE or view is fine), improve aliases and keep every result identical.",
    ),
    "write": (
        "Write one SQL query per item below against the table `{module}` (columns: id, recorded_on DATE, quantity INTEGER, price INTEGER). Name each result column after the item.",
        "For the table `{module}` (id, recorded_on, quantity, price), write PostgreSQL queries returning each of the following, one query per item, result column named as given.",
    ),
}

USER = {
    "fix": (
        "The {lang} code below has a bug. {symptom} Find it, fix it, and explain the change in two sentences.",
        "A colleague reports a problem with this {lang} code: {symptom} Please locate the bug and show the corrected function.",
    ),
    "explain": (
        "Explain what each function in the following {lang} code does, and point out any edge cases a caller should know about.",
        "Walk me through this {lang} code: for every function, describe its inputs, its result and how it gets there.",
    ),
    "refactor": (
        "Refactor the following {lang} code for readability without changing its behaviour. Keep every public name.",
        "Clean up this {lang} code: remove duplication, improve names of local variables and keep the behaviour identical.",
    ),
    "write": (
        "Write a {lang} module named `{module}` with the functions described below. Include a short test for each.",
        "Implement the following functions in {lang} as one module called `{module}`, with brief comments.",
    ),
}


@dataclass
class Fn:
    kind: str
    name: str  # snake_case
    item: str
    items: str
    acc: str
    a: int
    b: int
    buggy: bool = False

    @property
    def camel(self) -> str:
        head, *rest = self.name.split("_")
        return head + "".join(w.capitalize() for w in rest)

    def describe(self, sql: bool = False) -> str:
        """What the function computes, in words (the spec of a write task and the docstring)."""
        i, its, a, b = self.item, self.items, self.a, self.b
        if sql:
            return {
                "filter_sum": f"the sum of quantity times {b} over the rows whose quantity is greater than {a}.",
                "count_mod": f"the number of rows whose quantity leaves a remainder of {b} when divided by {a}.",
                "max_gap": f"the largest absolute change in quantity between consecutive rows (by recorded_on) that does not exceed {b}.",
                "clamp_scale": f"for every row, quantity times {a} clamped to the range 0 to {b}.",
                "discount_total": f"the sum of quantity times price over all rows, minus {a} when that sum exceeds {b}.",
            }[self.kind]
        return {
            "filter_sum": f"Return the sum of the {its} greater than {a}, each multiplied by {b}.",
            "count_mod": f"Return how many {its} leave a remainder of {b} when divided by {a}.",
            "max_gap": f"Return the largest absolute difference between two consecutive {its} that does not exceed {b} (0 if there is none).",
            "clamp_scale": f"Multiply one {i} by {a} and clamp the result to the range 0 to {b}.",
            "discount_total": f"Return the sum of quantity times price over all {its}, minus {a} when that sum exceeds {b}.",
        }[self.kind]


def _op(fn: Fn) -> str:
    return ">=" if fn.buggy else ">"


def render_python(fn: Fn) -> str:
    i, its, acc, a, b = fn.item, fn.items, fn.acc, fn.a, fn.b
    doc = f'    """{fn.describe()}"""\n'
    if fn.kind == "filter_sum":
        return f"def {fn.name}({its}: list[int]) -> int:\n{doc}    {acc} = 0\n    for {i} in {its}:\n        if {i} {_op(fn)} {a}:\n            {acc} += {i} * {b}\n    return {acc}\n"
    if fn.kind == "count_mod":
        cond = f"{i} % {a} == {b}" if not fn.buggy else f"{i} % {a} >= {b}"
        return f"def {fn.name}({its}: list[int]) -> int:\n{doc}    {acc} = 0\n    for {i} in {its}:\n        if {cond}:\n            {acc} += 1\n    return {acc}\n"
    if fn.kind == "max_gap":
        return f"def {fn.name}({its}: list[int]) -> int:\n{doc}    {acc} = 0\n    for previous, current in zip({its}, {its}[1:]):\n        step = abs(current - previous)\n        if step <= {b}:\n            {acc} = max({acc}, step)\n    return {acc}\n"
    if fn.kind == "clamp_scale":
        return f"def {fn.name}({i}: int) -> int:\n{doc}    scaled = {i} * {a}\n    return max(0, min(scaled, {b}))\n"
    return (
        f"def {fn.name}({its}: list[tuple[int, int]]) -> int:\n{doc}    {acc} = 0\n"
        f"    for quantity, price in {its}:\n        {acc} += quantity * price\n"
        f"    if {acc} > {b}:\n        {acc} -= {a}\n    return {acc}\n"
    )


def render_typescript(fn: Fn) -> str:
    i, its, acc, a, b, name = fn.item, fn.items, fn.acc, fn.a, fn.b, fn.camel
    doc = f"/** {fn.describe()} */\n"
    if fn.kind == "filter_sum":
        return f"{doc}export function {name}({its}: number[]): number {{\n  let {acc} = 0;\n  for (const {i} of {its}) {{\n    if ({i} {_op(fn)} {a}) {{\n      {acc} += {i} * {b};\n    }}\n  }}\n  return {acc};\n}}\n"
    if fn.kind == "count_mod":
        cond = f"{i} % {a} === {b}" if not fn.buggy else f"{i} % {a} >= {b}"
        return f"{doc}export function {name}({its}: number[]): number {{\n  return {its}.filter(({i}) => {cond}).length;\n}}\n"
    if fn.kind == "max_gap":
        return f"{doc}export function {name}({its}: number[]): number {{\n  let {acc} = 0;\n  for (let k = 1; k < {its}.length; k++) {{\n    const step = Math.abs({its}[k] - {its}[k - 1]);\n    if (step <= {b}) {{\n      {acc} = Math.max({acc}, step);\n    }}\n  }}\n  return {acc};\n}}\n"
    if fn.kind == "clamp_scale":
        return f"{doc}export function {name}({i}: number): number {{\n  const scaled = {i} * {a};\n  return Math.max(0, Math.min(scaled, {b}));\n}}\n"
    return (
        f"{doc}export function {name}({its}: Array<[number, number]>): number {{\n"
        f"  let {acc} = {its}.reduce((sum, [quantity, price]) => sum + quantity * price, 0);\n"
        f"  if ({acc} > {b}) {{\n    {acc} -= {a};\n  }}\n  return {acc};\n}}\n"
    )


def render_go(fn: Fn) -> str:
    i, its, acc, a, b, name = fn.item, fn.items, fn.acc, fn.a, fn.b, fn.camel
    doc = f"// {name}: {fn.describe()}\n"
    if fn.kind == "filter_sum":
        return f"{doc}func {name}({its} []int) int {{\n\t{acc} := 0\n\tfor _, {i} := range {its} {{\n\t\tif {i} {_op(fn)} {a} {{\n\t\t\t{acc} += {i} * {b}\n\t\t}}\n\t}}\n\treturn {acc}\n}}\n"
    if fn.kind == "count_mod":
        cond = f"{i}%{a} == {b}" if not fn.buggy else f"{i}%{a} >= {b}"
        return f"{doc}func {name}({its} []int) int {{\n\t{acc} := 0\n\tfor _, {i} := range {its} {{\n\t\tif {cond} {{\n\t\t\t{acc}++\n\t\t}}\n\t}}\n\treturn {acc}\n}}\n"
    if fn.kind == "max_gap":
        return f"{doc}func {name}({its} []int) int {{\n\t{acc} := 0\n\tfor k := 1; k < len({its}); k++ {{\n\t\tstep := {its}[k] - {its}[k-1]\n\t\tif step < 0 {{\n\t\t\tstep = -step\n\t\t}}\n\t\tif step <= {b} && step > {acc} {{\n\t\t\t{acc} = step\n\t\t}}\n\t}}\n\treturn {acc}\n}}\n"
    if fn.kind == "clamp_scale":
        return f"{doc}func {name}({i} int) int {{\n\tscaled := {i} * {a}\n\tif scaled < 0 {{\n\t\treturn 0\n\t}}\n\tif scaled > {b} {{\n\t\treturn {b}\n\t}}\n\treturn scaled\n}}\n"
    return (
        f"{doc}func {name}({its} [][2]int) int {{\n\t{acc} := 0\n\tfor _, pair := range {its} {{\n\t\t{acc} += pair[0] * pair[1]\n\t}}\n"
        f"\tif {acc} > {b} {{\n\t\t{acc} -= {a}\n\t}}\n\treturn {acc}\n}}\n"
    )


def render_rust(fn: Fn) -> str:
    i, its, acc, a, b = fn.item, fn.items, fn.acc, fn.a, fn.b
    doc = f"/// {fn.describe()}\n"
    if fn.kind == "filter_sum":
        return f"{doc}pub fn {fn.name}({its}: &[i64]) -> i64 {{\n    let mut {acc} = 0;\n    for &{i} in {its} {{\n        if {i} {_op(fn)} {a} {{\n            {acc} += {i} * {b};\n        }}\n    }}\n    {acc}\n}}\n"
    if fn.kind == "count_mod":
        cond = f"{i} % {a} == {b}" if not fn.buggy else f"{i} % {a} >= {b}"
        return f"{doc}pub fn {fn.name}({its}: &[i64]) -> usize {{\n    {its}.iter().filter(|&&{i}| {cond}).count()\n}}\n"
    if fn.kind == "max_gap":
        return f"{doc}pub fn {fn.name}({its}: &[i64]) -> i64 {{\n    {its}.windows(2).map(|pair| (pair[1] - pair[0]).abs()).filter(|&step| step <= {b}).max().unwrap_or(0)\n}}\n"
    if fn.kind == "clamp_scale":
        return f"{doc}pub fn {fn.name}({i}: i64) -> i64 {{\n    ({i} * {a}).clamp(0, {b})\n}}\n"
    return (
        f"{doc}pub fn {fn.name}({its}: &[(i64, i64)]) -> i64 {{\n    let mut {acc}: i64 = {its}.iter().map(|(quantity, price)| quantity * price).sum();\n"
        f"    if {acc} > {b} {{\n        {acc} -= {a};\n    }}\n    {acc}\n}}\n"
    )


def render_sql(fn: Fn, table: str) -> str:
    i, a, b, name = fn.item, fn.a, fn.b, fn.name
    doc = f"-- {name}: {fn.describe(sql=True)}\n"
    if fn.kind == "filter_sum":
        return f"{doc}SELECT COALESCE(SUM(quantity * {b}), 0) AS {name}\nFROM {table}\nWHERE quantity {_op(fn)} {a};\n"
    if fn.kind == "count_mod":
        cond = f"quantity % {a} = {b}" if not fn.buggy else f"quantity % {a} >= {b}"
        return f"{doc}SELECT COUNT(*) AS {name}\nFROM {table}\nWHERE {cond};\n"
    if fn.kind == "max_gap":
        return (
            f"{doc}SELECT COALESCE(MAX(ABS(quantity - previous_quantity)), 0) AS {name}\nFROM (\n"
            f"  SELECT quantity, LAG(quantity) OVER (ORDER BY recorded_on, id) AS previous_quantity\n"
            f"  FROM {table}\n) AS steps\nWHERE previous_quantity IS NOT NULL\n  AND ABS(quantity - previous_quantity) <= {b};\n"
        )
    if fn.kind == "clamp_scale":
        return f"{doc}SELECT id, LEAST(GREATEST(quantity * {a}, 0), {b}) AS {name}\nFROM {table}\nORDER BY id;\n"
    return (
        f"{doc}SELECT SUM(quantity * price)\n"
        f"       - CASE WHEN SUM(quantity * price) > {b} THEN {a} ELSE 0 END AS {name}\nFROM {table};\n"
    )


RENDER = {"python": render_python, "typescript": render_typescript, "go": render_go, "rust": render_rust}


class Namer:
    def __init__(self, rng: random.Random):
        self.rng, self.used = rng, set()

    def fn(self, topic: str, kind: str) -> Fn:
        nouns, adjectives = DOMAIN[topic]
        for _ in range(10_000):
            verb = self.rng.choice(VERBS[kind])
            adjective = self.rng.choice(adjectives)
            item, items = self.rng.choice(nouns)
            name = f"{verb}_{adjective}_{items}"
            if name not in self.used:
                self.used.add(name)
                acc = self.rng.choice(("total", "result", "running", "acc", "outcome", "tally_so_far"))
                a = self.rng.randint(3, 97)
                b = self.rng.randint(1, a - 1) if kind == "count_mod" else self.rng.randint(2, 990)
                return Fn(kind=kind, name=name, item=item, items=items, acc=acc, a=a, b=b)
        raise RuntimeError("function names exhausted")


def module_name(rng: random.Random, topic: str) -> str:
    return f"{topic}_{rng.choice(('tools', 'helpers', 'metrics', 'reports', 'utils', 'checks'))}_{rng.randint(10, 999)}"


def render_module(lang: str, topic: str, module: str, fns: list[Fn], table: str) -> str:
    if lang == "sql":
        head = (
            f"-- {module}: queries over the {table} table\n"
            f"CREATE TABLE {table} (\n  id INTEGER PRIMARY KEY,\n  recorded_on DATE NOT NULL,\n"
            f"  quantity INTEGER NOT NULL,\n  price INTEGER NOT NULL\n);\n"
        )
        return head + "\n" + "\n".join(render_sql(fn, table) for fn in fns)
    comment = {"python": "#", "typescript": "//", "go": "//", "rust": "//"}[lang]
    head = f"{comment} {module}: {topic} helpers\n"
    if lang == "go":
        head += f"package {module.replace('_', '')}\n"
    return head + "\n" + "\n".join(RENDER[lang](fn) for fn in fns)


def fence(lang: str, code: str) -> str:
    return f"```{lang}\n{code}```"


def make_row(rng: random.Random, namer: Namer, lang: str, task: str, topic: str, low: int, high: int) -> dict:
    lang_name = _lib.CODE_LANG_NAMES[lang]
    system = rng.choice(SYSTEM).format(lang=lang_name)
    target = rng.randint(low, high)
    module = module_name(rng, topic)
    table = f"{DOMAIN[topic][0][0][1]}_{rng.randint(100, 999)}"
    fns: list[Fn] = []
    bug: Fn | None = None

    def user_text() -> str:
        if task == "write":
            intro = rng_text["intro"]
            spec = "\n".join(
                f"{n}. `{fn.camel if lang in ('typescript', 'go') else fn.name}`: {fn.describe(sql=lang == 'sql')}"
                for n, fn in enumerate(fns, 1)
            )
            return intro + "\n\n" + spec
        code = render_module(lang, topic, module, fns, table)
        return rng_text["intro"] + "\n\n" + fence(lang, code)

    rng_text: dict[str, str] = {}
    variant = rng.randrange(2)
    while True:
        kinds = [k for k in KINDS]
        kind = rng.choice(kinds) if fns or task != "fix" else rng.choice(BUGGABLE)
        fn = namer.fn(topic, kind)
        if task == "fix" and bug is None:
            fn.buggy, bug = True, fn
        fns.append(fn)
        if task == "fix":
            shown = bug.camel if lang in ("typescript", "go") else bug.name
            unit = "rows whose quantity is" if lang == "sql" else "values"
            symptom = (
                f"`{shown}` should only include {unit} strictly greater than {bug.a}, but {unit} equal to {bug.a} are included too."
                if bug.kind == "filter_sum"
                else f"`{shown}` should count only {unit.replace(' is', '')} whose remainder is exactly {bug.b} when divided by {bug.a}, but it also counts larger remainders."
            )
            intros = SQL_USER if lang == "sql" else USER
            rng_text["intro"] = intros[task][variant].format(lang=lang_name, symptom=symptom)
        else:
            intros = SQL_USER if lang == "sql" else USER
            rng_text["intro"] = intros[task][variant].format(lang=lang_name, module=table if lang == "sql" else module)
        user = user_text()
        tokens = _lib.approx_tokens_of_chars(len(system) + len(user))
        if tokens >= target:
            break
    if task == "fix":  # shuffle the buggy function into the middle of the module
        fns.insert(rng.randrange(len(fns)), fns.pop(0))
        user = user_text()
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return {"topic": topic, "code_lang": lang, "task": task, "messages": messages}


def make_rows() -> list[dict]:
    rng = random.Random(SEED)
    namer = Namer(rng)
    rows = []
    number = 0
    for lang in _lib.CODE_LANGS:
        for task in _lib.CODE_TASKS:
            for size_index, (bucket_name, low, high) in enumerate(SIZES[task]):
                number += 1
                topic = TOPICS[(number + size_index) % len(TOPICS)]
                row = make_row(rng, namer, lang, task, topic, low, high)
                tokens = _lib.message_tokens(row["messages"])
                assert _lib.bucket(tokens) == bucket_name, (lang, task, bucket_name, tokens)
                assert _lib.CODE_LANG_NAMES[lang] in row["messages"][0]["content"]
                if task == "fix":  # exactly one injected bug, and the symptom names its function
                    assert row["messages"][1]["content"].count(">=") == 1, (lang, task)
                rows.append(
                    {
                        "id": f"code-{number:04d}",
                        "topic": row["topic"],
                        "bucket": bucket_name,
                        "lang": "en",
                        "approx_tokens": tokens,
                        "messages": row["messages"],
                        "shared_prefix": None,
                        "code_lang": lang,
                        "task": task,
                    }
                )
    _lib.assert_unique_text((row["id"], row["messages"][1]["content"]) for row in rows)
    return rows


def generate(out: Path) -> None:
    rows = make_rows()
    card = _lib.base_dataset_json(
        dataset_id=DATASET_ID,
        kind="prompts",
        description=(
            "Coding prompts: code_lang (python, typescript, go, rust, sql) x task (write, fix, "
            "explain, refactor) x three sizes, each with a system message naming the language. "
            "Code is generated per row; fix prompts carry exactly one injected bug."
        ),
        generator=__file__,
        seed=SEED,
        rows=rows,
        extra={
            "topics": list(TOPICS),
            "langs": ["en"],
            "code_langs": list(_lib.CODE_LANGS),
            "tasks": list(_lib.CODE_TASKS),
            "buckets": {n: [lo, hi] for n, lo, hi in _lib.BUCKETS},
        },
    )
    _lib.write_card(out / "dataset.json", card)
    _lib.write_jsonl(out / _lib.ROWS_FILE, rows)


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
