"""Validation of the eval corpus: every rule `datasets/_gen/check.py` enforces.

Standard library only and no Dagster import: check.py loads this under a bare `uv run`,
and the Dagster datasets assets call `validate_dataset` on freshly regenerated output.
Every problem names the dataset, the row id (None for the card or the corpus) and the
field, so an error reads like

    eval-longctx-v1 row longctx-0007 field meta.haystack.sha256: rebuilt document hashes to ...

External pieces are imported lazily and reported as a clear error when missing: the
scorer registry (`atlas_assets.corpus.scorers.SCORERS`) and the instruction rules
(`datasets/eval-instruction-v1/rules.py`).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from atlas_assets.core.problems import SeverityReport
from atlas_assets.corpus import registry
from atlas_assets.corpus.registry import DatasetSpec

if TYPE_CHECKING:
    from atlas_assets.corpus.cards import CardCorrections
    from atlas_assets.corpus.scorers import Scorer

RULES_PATH = "eval-instruction-v1/rules.py"
# Row fields that belong to one scorer (`Scorer.row_fields`): any other row carrying one is an error.
SCORER_ROW_FIELDS = frozenset({"choices", "tests"})
EVAL_FIELDS = {"id", "category", "difficulty", "prompt", "messages", "answer", "scorer", "choices", "tests", "image", "meta"}
PROMPT_FIELDS = {"id", "topic", "bucket", "lang", "approx_tokens", "messages", "shared_prefix"}
CODE_FIELDS = {"code_lang", "task"}
HAYSTACK_FIELDS = {
    "id",
    "kind",
    "target_tokens",
    "seed",
    "algorithm",
    "needles",
    "question",
    "answer",
    "chars",
    "lines",
    "approx_tokens",
    "sha256",
    "static_file",
}
NEEDLE_FIELDS = {"depth", "text", "answer", "line_number"}
ROLES = {"system", "user", "assistant"}
MAX_ERRORS_PER_DATASET = 200


@dataclass(frozen=True)
class Problem:
    dataset: str
    row: str | None
    field: str | None
    message: str
    severity: str = "error"  # error | warning

    def __str__(self) -> str:
        where = self.dataset
        if self.row is not None:
            where += f" row {self.row}"
        if self.field is not None:
            where += f" field {self.field}"
        return f"{where}: {self.message}"


@dataclass
class Report(SeverityReport):
    problems: list[Problem] = field(default_factory=list)
    datasets: list[str] = field(default_factory=list)
    rows: int = 0
    corpus_bytes: int = 0
    budget_bytes: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


# --- external pieces, imported lazily --------------------------------------------------


class ExternalMissing(RuntimeError):
    pass


def load_scorers() -> dict[str, Scorer]:
    """The scorer registry `atlas_assets.corpus.scorers.SCORERS` (name -> scorer object)."""
    try:
        module = importlib.import_module("atlas_assets.corpus.scorers")
    except ImportError as error:
        raise ExternalMissing(
            f"the scoring library atlas_assets/corpus/scorers/ cannot be imported ({error}); "
            "scorer names cannot be checked without its SCORERS registry"
        ) from error
    scorers = getattr(module, "SCORERS", None)
    if not isinstance(scorers, Mapping) or not scorers:
        raise ExternalMissing("atlas_assets/corpus/scorers/ defines no SCORERS dict (scorer name -> scorer)")
    return dict(scorers)


def load_rules(root: Path) -> ModuleType:
    path = root / RULES_PATH
    if not path.is_file():
        raise ExternalMissing(f"datasets/{RULES_PATH} is missing: the instruction rules cannot be checked")
    module = registry.load_path_module(path, "_atlas_instruction_rules")
    if not callable(getattr(module, "evaluate", None)):
        raise ExternalMissing(f"datasets/{RULES_PATH} defines no evaluate(answer, text) -> (bool, failed_rules)")
    return module


def rules_self_test(root: Path, timeout: float = 120.0) -> str | None:
    """Run `python rules.py --self-test`; None when it passes, else the reason."""
    path = root / RULES_PATH
    if not path.is_file():
        return f"datasets/{RULES_PATH} is missing: cannot run its --self-test"
    try:
        proc = subprocess.run([sys.executable, str(path), "--self-test"], capture_output=True, text=True, timeout=timeout, cwd=str(root))
    except subprocess.TimeoutExpired:
        return f"rules.py --self-test did not finish within {timeout:.0f} s"
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-5:]
        return f"rules.py --self-test exited {proc.returncode}: " + " | ".join(tail)
    return None


# --- helpers ---------------------------------------------------------------------------


class _Sink:
    def __init__(self, dataset: str):
        self.dataset = dataset
        self.problems: list[Problem] = []

    def error(self, row: str | None, field_name: str | None, message: str) -> None:
        if len(self.problems) < MAX_ERRORS_PER_DATASET:
            self.problems.append(Problem(self.dataset, row, field_name, message))
        elif len(self.problems) == MAX_ERRORS_PER_DATASET:
            self.problems.append(Problem(self.dataset, None, None, "too many problems; the rest are not shown"))

    def warn(self, row: str | None, field_name: str | None, message: str) -> None:
        self.problems.append(Problem(self.dataset, row, field_name, message, "warning"))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)) and math.isfinite(value)


def _inside(folder: Path, rel: Any) -> tuple[bool, str]:
    """Is `rel` a relative path that stays inside `folder` and names an existing file?"""
    if not isinstance(rel, str) or not rel:
        return False, "must be a non-empty relative path"
    if rel.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", rel) or "\\" in rel:
        return False, f"{rel!r} must be a relative POSIX path inside the dataset folder"
    target = (folder / rel).resolve()
    if folder.resolve() not in target.parents:
        return False, f"{rel!r} points outside the dataset folder"
    if not target.is_file():
        return False, f"{rel!r} does not exist in the dataset folder"
    return True, ""


def _check_messages(sink: _Sink, row_id: str, messages: Any, field_name: str = "messages") -> bool:
    if not isinstance(messages, list) or not messages:
        sink.error(row_id, field_name, "must be a non-empty list of {role, content}")
        return False
    good = True
    for i, message in enumerate(messages):
        where = f"{field_name}[{i}]"
        if not isinstance(message, dict) or set(message) != {"role", "content"}:
            sink.error(row_id, where, "must be an object with exactly role and content")
            good = False
            continue
        if message["role"] not in ROLES:
            sink.error(row_id, f"{where}.role", f"{message['role']!r} is not one of {sorted(ROLES)}")
            good = False
        if not isinstance(message["content"], str) or not message["content"].strip():
            sink.error(row_id, f"{where}.content", "must be a non-empty string")
            good = False
    if good and messages[-1]["role"] != "user":
        sink.error(row_id, f"{field_name}[{len(messages) - 1}].role", "the last message must be the user's")
    return good


# --- the card --------------------------------------------------------------------------


def load_card_corrections(root: Path) -> tuple[CardCorrections | None, list[Problem]]:
    """datasets/card-corrections.json, read once per validation: the corrections, or None
    and the one problem naming the file and field."""
    from atlas_assets.corpus import cards

    try:
        return cards.load_corrections(root), []
    except cards.CardsError as error:
        return None, [Problem("corpus", None, cards.CORRECTIONS_FILE, str(error))]


def validate_card(
    spec: DatasetSpec,
    lib: ModuleType,
    rows: list[dict[str, Any]],
    sink: _Sink,
    scorers: Mapping[str, Scorer] | None,
    corrections: CardCorrections | None,
) -> None:
    card = spec.card
    if not card:
        sink.error(None, "dataset.json", "missing or not valid JSON")
        return
    expect = {
        "id": spec.id,
        "license": lib.LICENSE,
        "token_heuristic": lib.TOKEN_HEURISTIC,
        "rows": len(rows),
    }
    for key, value in expect.items():
        if card.get(key) != value:
            sink.error(None, f"dataset.json:{key}", f"is {card.get(key)!r}, expected {value!r}")
    if card.get("kind") not in lib.KINDS:
        sink.error(None, "dataset.json:kind", f"{card.get('kind')!r} is not one of {list(lib.KINDS)}")
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*-v[0-9]+", spec.id):
        sink.error(None, "dataset.json:id", f"{spec.id!r} is not a versioned id (name-vN)")
    if not isinstance(card.get("date"), str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", card["date"]):
        sink.error(None, "dataset.json:date", f"{card.get('date')!r} is not YYYY-MM-DD")
    if not isinstance(card.get("description"), str) or not card["description"].strip():
        sink.error(None, "dataset.json:description", "must be a non-empty string")
    provenance = card.get("provenance")
    if not isinstance(provenance, dict):
        sink.error(None, "dataset.json:provenance", "must be an object")
    else:
        if provenance.get("statement") != lib.PROVENANCE_STATEMENT:
            sink.error(None, "dataset.json:provenance.statement", "differs from _lib.PROVENANCE_STATEMENT (emit the card via _lib)")
        if not _is_int(provenance.get("seed")):
            sink.error(None, "dataset.json:provenance.seed", "must be an integer (a fixed seed)")
        generator = provenance.get("generator")
        if not isinstance(generator, str) or not (spec.root / generator).is_file():
            sink.error(None, "dataset.json:provenance.generator", f"{generator!r} is not a file under datasets/")
        else:
            _check_generator_source(spec.root / generator, sink)
        for rel in provenance.get("inputs") or []:
            if not (spec.root / rel).is_file():
                sink.error(None, "dataset.json:provenance.inputs", f"{rel!r} is not a file under datasets/")
        if "_gen/_lib.py" not in (provenance.get("inputs") or []):
            sink.error(None, "dataset.json:provenance.inputs", "must include _gen/_lib.py")
    for rel in card.get("sources") or []:
        ok, why = _inside(spec.folder, rel)
        if not ok:
            sink.error(None, "dataset.json:sources", why)
    if scorers is not None and corrections is not None:  # else the missing piece is reported once, elsewhere
        from atlas_assets.corpus.cards import scoring_problems

        for message in scoring_problems(lib, card, corrections.for_dataset(spec.id)):
            sink.error(None, "dataset.json:scoring", message)
    if card.get("kind") == "eval":
        default: Any = card.get("default_scorer")  # raw JSON, checked against the scorers next
        if scorers is not None and default not in scorers:
            sink.error(None, "dataset.json:default_scorer", f"{default!r} is not a known scorer ({', '.join(sorted(scorers))})")
        used = sorted({row.get("scorer", default) for row in rows if isinstance(row, dict)})
        if card.get("scorers") != used:
            sink.error(None, "dataset.json:scorers", f"is {card.get('scorers')!r}, but the rows use {used!r}")


def _check_generator_source(path: Path, sink: _Sink) -> None:
    text = path.read_text(encoding="utf-8")
    match = re.match(r"# /// script\n((?:#.*\n)*?)# ///\n", text)
    if not match:
        sink.error(None, "dataset.json:provenance.generator", f"{path.name} does not start with a PEP 723 '# /// script' header")
        return
    header = "\n".join(line[1:].strip() for line in match.group(1).splitlines())
    deps = re.search(r"dependencies\s*=\s*\[(.*?)\]", header, re.S)
    if deps is None:
        sink.error(None, "dataset.json:provenance.generator", f"{path.name}: the PEP 723 header declares no dependencies list")
        return
    names = {re.split(r"[<>=!~\[ ;]", d.strip().strip("'\""))[0].lower() for d in deps.group(1).split(",") if d.strip()}
    if names - {"pillow"}:
        sink.error(
            None,
            "dataset.json:provenance.generator",
            f"{path.name} depends on {sorted(names - {'pillow'})}: generators use the standard library or Pillow only",
        )


# --- rows --------------------------------------------------------------------------------


def validate_prompt_row(spec: DatasetSpec, lib: ModuleType, row: dict[str, Any], sink: _Sink) -> None:
    card = spec.card
    row_id = row["id"]
    is_code = "code_langs" in card
    allowed = PROMPT_FIELDS | (CODE_FIELDS if is_code else set())
    for key in sorted(set(row) - allowed):
        sink.error(row_id, key, "unknown field for a prompts row")
    for key in sorted(allowed - set(row)):
        sink.error(row_id, key, "missing")
    topics = card.get("topics")
    if "topic" in row and (not isinstance(row["topic"], str) or (topics and row["topic"] not in topics)):
        sink.error(row_id, "topic", f"{row['topic']!r} is not one of the dataset's topics {topics}")
    if "lang" in row:
        langs = card.get("langs")
        if not isinstance(row["lang"], str) or not re.fullmatch(r"[a-z]{2,3}(?:-[A-Za-z0-9]+)*", row["lang"]):
            sink.error(row_id, "lang", f"{row['lang']!r} is not a language tag")
        elif langs and row["lang"] not in langs:
            sink.error(row_id, "lang", f"{row['lang']!r} is not one of the dataset's languages {langs}")
    messages: Any = row.get("messages")  # raw JSON: used only where _check_messages passed it
    messages_ok = _check_messages(sink, row_id, messages)
    prefix = row.get("shared_prefix")
    contract = card.get("shared_prefix")
    if prefix is not None:
        if not isinstance(prefix, str) or not prefix.strip():
            sink.error(row_id, "shared_prefix", "must be null or a non-empty string")
            prefix = None
        elif not contract:
            sink.error(
                row_id,
                "shared_prefix",
                "is set, but the card declares no shared_prefix contract (only prompts-shared-prefix datasets use it)",
            )
        elif messages_ok and any(m["role"] == "system" for m in messages):
            sink.error(row_id, "messages", "has a system message although shared_prefix is sent as the leading system message")
    elif contract:
        sink.error(row_id, "shared_prefix", "is null in a dataset whose card declares the shared_prefix contract")
    tokens: Any = row.get("approx_tokens")  # raw JSON, checked below
    if messages_ok:
        expected = lib.message_tokens(messages, prefix)
        if tokens != expected:
            sink.error(
                row_id, "approx_tokens", f"is {tokens!r}, but ceil(chars/4) of messages{' + shared_prefix' if prefix else ''} is {expected}"
            )
    if _is_int(tokens) and tokens >= 1:
        if row.get("bucket") != lib.bucket(tokens):
            sink.error(row_id, "bucket", f"is {row.get('bucket')!r}, but approx_tokens {tokens} falls in bucket {lib.bucket(tokens)!r}")
    elif "bucket" in row and row["bucket"] not in lib.BUCKET_NAMES:
        sink.error(row_id, "bucket", f"{row['bucket']!r} is not one of {list(lib.BUCKET_NAMES)}")
    if is_code:
        lang = row.get("code_lang")
        if lang not in lib.CODE_LANGS:
            sink.error(row_id, "code_lang", f"{lang!r} is not one of {list(lib.CODE_LANGS)}")
        if row.get("task") not in lib.CODE_TASKS:
            sink.error(row_id, "task", f"{row.get('task')!r} is not one of {list(lib.CODE_TASKS)}")
        if messages_ok and lang in lib.CODE_LANGS:
            if messages[0]["role"] != "system" or lib.CODE_LANG_NAMES[lang] not in messages[0]["content"]:
                sink.error(row_id, "messages[0]", f"must be a system message naming the language ({lib.CODE_LANG_NAMES[lang]})")


def validate_eval_row(
    spec: DatasetSpec,
    lib: ModuleType,
    row: dict[str, Any],
    sink: _Sink,
    scorers: Mapping[str, Scorer] | None,
    rules: ModuleType | None,
    builder: ModuleType | None,
) -> None:
    row_id = row["id"]
    for key in sorted(set(row) - EVAL_FIELDS):
        sink.error(row_id, key, "unknown field for an eval row")
    for key in ("category", "difficulty", "answer"):
        if key not in row:
            sink.error(row_id, key, "missing")
    if "category" in row and (not isinstance(row["category"], str) or not row["category"].strip()):
        sink.error(row_id, "category", "must be a non-empty string")
    if "difficulty" in row and row["difficulty"] not in lib.DIFFICULTIES:
        sink.error(row_id, "difficulty", f"{row['difficulty']!r} is not one of {list(lib.DIFFICULTIES)}")
    has_prompt, has_messages = "prompt" in row, "messages" in row
    if has_prompt == has_messages:
        sink.error(row_id, "prompt", "exactly one of prompt and messages must be present")
    elif has_prompt and (not isinstance(row["prompt"], str) or not row["prompt"].strip()):
        sink.error(row_id, "prompt", "must be a non-empty string")
    elif has_messages:
        _check_messages(sink, row_id, row["messages"])
    scorer = row.get("scorer", spec.card.get("default_scorer"))
    if not isinstance(scorer, str):
        sink.error(row_id, "scorer", "no scorer: set the row's scorer or the card's default_scorer")
        return
    if scorers is not None and scorer not in scorers:
        sink.error(row_id, "scorer", f"{scorer!r} is not a known scorer ({', '.join(sorted(scorers))})")
    meta = row.get("meta", {})
    if not isinstance(meta, dict):
        sink.error(row_id, "meta", "must be an object")
        meta = {}
    owner = scorers.get(scorer) if scorers is not None else None
    for key in sorted(SCORER_ROW_FIELDS - (owner.row_fields if owner is not None else frozenset())):
        if key in row:
            owners = sorted(n for n, s in (scorers or {}).items() if key in s.row_fields)
            sink.error(row_id, key, f"only {' or '.join(owners)} rows carry {key} (scorer is {scorer!r})")
    if "image" in row:
        ok, why = _inside(spec.folder, row["image"])
        if not ok:
            sink.error(row_id, "image", why)
    if owner is not None:
        from atlas_assets.corpus.scorers import RowContext

        for problem in owner.check_row(row, RowContext(rules=rules)):
            sink.error(row_id, problem.field, problem.message)
    if "haystack" in meta:
        _check_recipe(sink, row_id, meta["haystack"], builder, "meta.haystack", answer=row.get("answer"))
        prompt = row.get("prompt", "")
        if isinstance(prompt, str) and ("Line 000001: " in prompt or len(prompt) > 2000):
            sink.error(row_id, "prompt", "must be the question only; the harness rebuilds the document from meta.haystack")


def _check_recipe(
    sink: _Sink,
    row_id: str,
    recipe: Any,
    builder: ModuleType | None,
    where: str,
    answer: Any = None,
) -> Any:
    """Validate a haystack-v1 recipe and rebuild it; returns the build or None."""
    if not isinstance(recipe, dict):
        sink.error(row_id, where, "must be a haystack-v1 recipe object")
        return None
    prefix = f"{where}." if where else ""
    if recipe.get("algorithm") != "haystack-v1":
        sink.error(row_id, f"{prefix}algorithm", f"{recipe.get('algorithm')!r} is not haystack-v1")
    for key in ("seed", "target_tokens", "chars", "lines", "approx_tokens"):
        if not _is_int(recipe.get(key)):
            sink.error(row_id, f"{prefix}{key}", "must be an integer")
    needles = recipe.get("needles")
    if not isinstance(needles, list) or not needles:
        sink.error(row_id, f"{prefix}needles", "must be a non-empty list")
        return None
    for i, needle in enumerate(needles):
        nwhere = f"{prefix}needles[{i}]"
        if not isinstance(needle, dict) or set(needle) != NEEDLE_FIELDS:
            sink.error(row_id, nwhere, f"must have exactly {sorted(NEEDLE_FIELDS)}")
            return None
        if not _is_number(needle["depth"]) or not 0 <= needle["depth"] <= 1:
            sink.error(row_id, f"{nwhere}.depth", f"{needle['depth']!r} is not in [0, 1]")
            return None
        if not isinstance(needle["text"], str) or not needle["text"] or "\n" in needle["text"]:
            sink.error(row_id, f"{nwhere}.text", "must be one non-empty line")
            return None
        if not isinstance(needle["answer"], str) or needle["answer"] not in needle["text"]:
            sink.error(row_id, f"{nwhere}.answer", f"{needle['answer']!r} is not stated in the needle text")
    if answer is not None and answer not in [n.get("answer") for n in needles]:
        sink.error(row_id, "answer", f"{answer!r} is not the answer of any needle")
    if not isinstance(recipe.get("sha256"), str) or not re.fullmatch(r"[0-9a-f]{64}", recipe["sha256"]):
        sink.error(row_id, f"{prefix}sha256", "must be a hex sha256")
        return None
    if builder is None or not _is_int(recipe.get("seed")) or not _is_int(recipe.get("target_tokens")):
        return None
    try:
        built = builder.build(recipe)
    except Exception as error:  # noqa: BLE001
        sink.error(row_id, where or "needles", f"haystack-v1 build failed: {type(error).__name__}: {error}")
        return None
    if built.sha256 != recipe["sha256"]:
        sink.error(row_id, f"{prefix}sha256", f"rebuilt document hashes to {built.sha256}, recorded {recipe['sha256']}")
    for key in ("chars", "lines", "approx_tokens"):
        if recipe.get(key) != getattr(built, key):
            sink.error(row_id, f"{prefix}{key}", f"is {recipe.get(key)!r}, the rebuilt document has {getattr(built, key)}")
    for i, (needle, line_number) in enumerate(zip(needles, built.line_numbers)):
        if needle.get("line_number") != line_number:
            sink.error(
                row_id, f"{prefix}needles[{i}].line_number", f"is {needle.get('line_number')!r}, the needle is on line {line_number}"
            )
    return built


def validate_haystack_row(spec: DatasetSpec, lib: ModuleType, row: dict[str, Any], sink: _Sink, builder: ModuleType | None) -> str | None:
    row_id = row["id"]
    for key in sorted(set(row) - HAYSTACK_FIELDS):
        sink.error(row_id, key, "unknown field for a haystack row")
    for key in sorted(HAYSTACK_FIELDS - set(row)):
        sink.error(row_id, key, "missing")
    kind = row.get("kind")
    raw_needles = row.get("needles")
    needles: list[Any] = raw_needles if isinstance(raw_needles, list) else []
    if kind not in ("single", "multi"):
        sink.error(row_id, "kind", f"{kind!r} is not single or multi")
    elif kind == "single" and len(needles) != 1:
        sink.error(row_id, "needles", f"a single row has exactly one needle, found {len(needles)}")
    elif kind == "multi" and len(needles) < 2:
        sink.error(row_id, "needles", f"a multi row has at least two needles, found {len(needles)}")
    if not isinstance(row.get("question"), str) or not row["question"].strip():
        sink.error(row_id, "question", "must be a non-empty string")
    built = _check_recipe(sink, row_id, row, builder, "", answer=row.get("answer"))
    static_max = spec.card.get("static_max_tokens", 32768)
    static = row.get("static_file")
    target = row.get("target_tokens")
    if _is_int(target):
        if target <= static_max and static is None:
            sink.error(row_id, "static_file", f"documents of at most {static_max} tokens are materialised as static/<id>.txt")
        elif target > static_max and static is not None:
            sink.error(row_id, "static_file", f"must be null above {static_max} tokens")
    if static is not None:
        if static != f"static/{row_id}.txt":
            sink.error(row_id, "static_file", f"{static!r} must be 'static/{row_id}.txt'")
        ok, why = _inside(spec.folder, static)
        if not ok:
            sink.error(row_id, "static_file", why)
        elif built is not None:
            data = (spec.folder / static).read_bytes()
            if data != (built.document + "\n").encode("utf-8"):
                if data.rstrip(b"\n") == built.document.encode("utf-8"):
                    sink.error(row_id, "static_file", "must end with exactly one newline outside the hashed text")
                else:
                    sink.error(row_id, "static_file", "does not contain the document the recipe builds")
    return static


def _row_text_units(spec: DatasetSpec, row: dict[str, Any]) -> Iterable[tuple[str, str, str]]:
    """(unit id, field, text) for the unique-text rule. Each message is its own text (a
    passage never spans two messages). A shared_prefix is one unit per distinct prefix:
    rows share it verbatim by contract, so only different prefixes may not overlap."""
    row_id = str(row.get("id"))
    unit = f"{spec.id} row {row_id}"
    if isinstance(row.get("messages"), list):
        for i, message in enumerate(row["messages"]):
            if isinstance(message, dict) and isinstance(message.get("content"), str):
                yield unit, f"messages[{i}].content", message["content"]
    if isinstance(row.get("prompt"), str):
        yield unit, "prompt", row["prompt"]
    if isinstance(row.get("question"), str):
        yield unit, "question", row["question"]
    if isinstance(row.get("shared_prefix"), str):
        digest = hashlib.sha256(row["shared_prefix"].encode()).hexdigest()[:12]
        yield f"{spec.id} shared_prefix {digest}", "shared_prefix", row["shared_prefix"]


def validate_dataset(
    spec: DatasetSpec,
    *,
    scorers: Mapping[str, Scorer] | None,
    rules: ModuleType | None,
    builder: ModuleType | None,
    corrections: CardCorrections | None,
    lib: ModuleType | None = None,
) -> tuple[list[Problem], list[dict[str, Any]]]:
    """Every per-dataset rule: card, rows, referenced files. Returns (problems, rows).
    `corrections` (None: unreadable, reported by the caller) is read once by the caller."""
    lib = lib or registry.load_lib(spec.root)
    sink = _Sink(spec.id)
    rows: list[dict[str, Any]] = []
    rows_path = spec.rows_path
    if not rows_path.is_file():
        sink.error(None, spec.card.get("rows_file", "rows.jsonl"), "the rows file is missing")
    else:
        raw = rows_path.read_bytes()
        if b"\r" in raw:
            sink.error(None, rows_path.name, "contains carriage returns (LF line endings only)")
        if raw and not raw.endswith(b"\n"):
            sink.error(None, rows_path.name, "must end with a newline")
        for number, line in enumerate(raw.decode("utf-8", errors="replace").split("\n"), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as error:
                sink.error(f"line {number}", None, f"not valid JSON: {error}")
                continue
            if not isinstance(row, dict):
                sink.error(f"line {number}", None, "a row must be a JSON object")
                continue
            rows.append(row)
    validate_card(spec, lib, rows, sink, scorers, corrections)
    seen: dict[str, int] = {}
    referenced: set[str] = set()
    kind = spec.card.get("kind")
    for index, row in enumerate(rows, start=1):
        row_id = row.get("id")
        if not isinstance(row_id, str) or not row_id.strip():
            sink.error(f"line {index}", "id", "missing or not a non-empty string")
            continue
        if row_id in seen:
            sink.error(row_id, "id", f"duplicate id (also on line {seen[row_id]})")
            continue
        seen[row_id] = index
        if kind == "prompts":
            validate_prompt_row(spec, lib, row, sink)
        elif kind == "eval":
            validate_eval_row(spec, lib, row, sink, scorers, rules, builder)
            if isinstance(row.get("image"), str):
                referenced.add(row["image"])
        elif kind == "haystack":
            static = validate_haystack_row(spec, lib, row, sink, builder)
            if isinstance(static, str):
                referenced.add(static)
    # every file in the folder is accounted for
    if spec.folder.is_dir():
        known = {"dataset.json", spec.card.get("rows_file", "rows.jsonl"), *(spec.card.get("sources") or []), *referenced}
        for rel in lib.dataset_files(spec.folder):
            if rel not in known:
                sink.error(None, rel, "file is neither generated output referenced by a row, the card, the rows nor a listed source")
    return sink.problems, rows


# --- the corpus --------------------------------------------------------------------------


def corpus_bytes(root: Path) -> int:
    """Every file under the datasets folder, dot-files included; only Python's own bytecode
    caches (``__pycache__``, written by importing the generators) are left out."""
    total = 0
    for path in root.rglob("*"):
        if path.is_file() and "__pycache__" not in path.relative_to(root).parts:
            total += path.stat().st_size
    return total


def unique_text_problems(units: Iterable[tuple[str, str, str]], lib: ModuleType, limit: int = 50) -> list[Problem]:
    """The content rule: no passage of >= MIN_PASSAGE_CHARS repeats across rows (corpus-wide)."""
    seen: dict[bytes, tuple[str, str]] = {}
    problems: list[Problem] = []
    reported: set[tuple[str, str]] = set()
    done_prefixes: set[str] = set()
    for unit, field_name, text in units:
        if field_name == "shared_prefix":  # an identical shared prefix is checked once
            if unit in done_prefixes:
                continue
            done_prefixes.add(unit)
        for passage in lib.passages(text):
            key = hashlib.blake2b(passage.encode("utf-8"), digest_size=12).digest()
            first = seen.setdefault(key, (unit, passage))
            if first[0] != unit and (first[0], unit) not in reported:
                reported.add((first[0], unit))
                dataset, _, rest = unit.partition(" ")
                kind, _, ident = rest.partition(" ")
                problems.append(
                    Problem(
                        dataset,
                        ident if kind == "row" else f"{kind} {ident}",
                        field_name,
                        f"repeats a passage of >= {lib.MIN_PASSAGE_CHARS} chars from {first[0]} (unique-text rule): {passage[:80]!r}...",
                    )
                )
                if len(problems) >= limit:
                    return problems
    return problems


def index_problems(root: Path) -> list[Problem]:
    from atlas_assets.corpus import index

    problems = []
    for path, expected in index.expected_files(root).items():
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current != expected:
            rel = path.relative_to(root).as_posix()
            problems.append(Problem("corpus", None, rel, "the corpus index is stale: run python datasets/_gen/index.py"))
    return problems


def card_correction_problems(corrections: CardCorrections, dataset_ids: set[str], checked_ids: set[str] | None = None) -> list[Problem]:
    """Every card correction names an existing dataset; `checked_ids` limits the test to
    those ids (a partial check does not see every folder)."""
    from atlas_assets.corpus import cards

    return [
        Problem("corpus", None, f"{cards.CORRECTIONS_FILE}:{c.id}.dataset", f"{c.dataset!r} is not a dataset folder")
        for c in corrections.corrections
        if c.dataset not in dataset_ids and (checked_ids is None or c.dataset in checked_ids)
    ]


def errata_problems(root: Path, checked_ids: set[str] | None = None) -> list[Problem]:
    """datasets/errata.json is valid and every erratum names an existing dataset and row
    (atlas_assets/corpus/errata.py, stdlib + pydantic); `checked_ids` limits the row check
    to the errata of those datasets (a partial check)."""
    try:
        from atlas_assets.corpus import errata
    except ImportError as error:
        return [Problem("corpus", None, "errata.json", f"cannot check the errata: {error}")]
    return [
        Problem("corpus", None, f"{errata.ERRATA_FILE}:{p.field}" if p.field else errata.ERRATA_FILE, p.message)
        for p in errata.check_errata(root, only=checked_ids)
    ]


def lock_problems(root: Path, specs: list[DatasetSpec], checked_ids: set[str] | None = None) -> list[Problem]:
    """Published datasets must exist and keep their bytes. `checked_ids` limits the
    "folder is gone" test to those ids (a partial check does not see every folder)."""
    problems = []
    try:
        lock = registry.read_lock(root)
    except (OSError, ValueError) as error:
        return [Problem("corpus", None, registry.LOCK_FILE, f"unreadable: {error}")]
    ids = {s.id for s in specs}
    for dataset_id in sorted(lock):
        if checked_ids is not None and dataset_id not in checked_ids:
            continue
        if dataset_id not in ids:
            problems.append(
                Problem(
                    dataset_id,
                    None,
                    None,
                    f"is published in {registry.LOCK_FILE} but its folder is gone; published datasets are never removed",
                )
            )
    for spec in specs:
        actual = registry.content_sha256(spec.folder, root)
        if spec.id in lock and lock[spec.id] != actual:
            problems.append(
                Problem(
                    spec.id,
                    None,
                    None,
                    f"published dataset changed: content sha256 {actual} != published {lock[spec.id]}. "
                    f"Published datasets are immutable: restore it and publish the change under a new -vN id.",
                )
            )
        elif spec.id not in lock:
            problems.append(Problem(spec.id, None, None, "not yet published (python datasets/_gen/lock.py records it)", "warning"))
    return problems


def regenerate_problems(root: Path, specs: list[DatasetSpec], workdir: Path, jobs: int = 2) -> tuple[list[Problem], dict[str, float]]:
    """Regenerate every dataset into `workdir` and compare bytes with the committed folders."""
    problems: list[Problem] = []
    seconds: dict[str, float] = {}

    def one(spec: DatasetSpec) -> tuple[DatasetSpec, registry.Regenerated]:
        return spec, registry.run_generator(spec, workdir / spec.id)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, specs))
    for spec, result in results:
        seconds[spec.id] = result.seconds
        if result.returncode != 0:
            tail = " | ".join(result.stderr.strip().splitlines()[-3:])
            problems.append(Problem(spec.id, None, "provenance.generator", f"generator failed (exit {result.returncode}): {tail}"))
            continue
        diff = registry.diff_folders(spec, result.out)
        for rel in diff.changed:
            problems.append(
                Problem(
                    spec.id,
                    None,
                    rel,
                    "regenerated bytes differ from the committed file (generator is not deterministic, or the output is stale)",
                )
            )
        for rel in diff.missing:
            problems.append(Problem(spec.id, None, rel, "committed file is not produced by the generator"))
        for rel in diff.extra:
            problems.append(Problem(spec.id, None, rel, "the generator writes this file but it is not committed"))
    return problems, seconds


def validate_corpus(
    root: str | Path = registry.DEFAULT_DATASETS_ROOT,
    *,
    regenerate: bool = False,
    workdir: Path | None = None,
    only: Iterable[str] | None = None,
    jobs: int = 2,
) -> Report:
    root = Path(root).resolve()
    report = Report()
    lib = registry.load_lib(root)
    report.budget_bytes = lib.BUDGET_BYTES
    clock = time.perf_counter()
    specs = registry.discover(root)
    if only:
        wanted = set(only)
        unknown = wanted - {s.id for s in specs}
        for dataset_id in sorted(unknown):
            report.problems.append(Problem(dataset_id, None, None, "no such dataset"))
        specs = [s for s in specs if s.id in wanted]
    report.datasets = [s.id for s in specs]

    scorers: dict[str, Scorer] | None
    try:
        scorers = load_scorers()
    except ExternalMissing as error:
        scorers = None
        report.problems.append(Problem("corpus", None, "scorer", str(error)))
    rules = None
    needs_rules = any(
        s.id == "eval-instruction-v1" or any(getattr((scorers or {}).get(n), "needs_rules", False) for n in s.card.get("scorers") or [])
        for s in specs
    )
    if needs_rules or not only:
        try:
            rules = load_rules(root)
        except ExternalMissing as error:
            report.problems.append(Problem("eval-instruction-v1", None, "rules.py", str(error)))
    builder = None
    try:
        builder = registry.load_path_module(root / "haystack-v1" / "build.py", "_atlas_haystack_v1_build")
    except (OSError, ImportError) as error:
        if any(s.kind == "haystack" or "haystack" in json.dumps(s.card.get("requires_document", {})) for s in specs):
            report.problems.append(Problem("haystack-v1", None, "build.py", f"cannot import the builder: {error}"))
    corrections, problems = load_card_corrections(root)
    report.problems.extend(problems)
    report.timings["load"] = time.perf_counter() - clock

    clock = time.perf_counter()
    units: list[tuple[str, str, str]] = []
    for spec in specs:
        problems, rows = validate_dataset(spec, scorers=scorers, rules=rules, builder=builder, corrections=corrections, lib=lib)
        report.problems.extend(problems)
        report.rows += len(rows)
        for row in rows:
            units.extend(_row_text_units(spec, row))
    report.timings["rows"] = time.perf_counter() - clock

    clock = time.perf_counter()
    report.problems.extend(unique_text_problems(units, lib))
    report.timings["unique_text"] = time.perf_counter() - clock

    if rules is not None:
        clock = time.perf_counter()
        reason = rules_self_test(root)
        if reason:
            report.problems.append(Problem("eval-instruction-v1", None, "rules.py", reason))
        report.timings["rules_self_test"] = time.perf_counter() - clock

    clock = time.perf_counter()
    report.problems.extend(lock_problems(root, specs, set(only) if only else None))
    report.problems.extend(errata_problems(root, set(only) if only else None))
    if corrections is not None:
        report.problems.extend(card_correction_problems(corrections, {s.id for s in registry.discover(root)}, set(only) if only else None))
    if not only:
        report.problems.extend(index_problems(root))
    report.corpus_bytes = corpus_bytes(root)
    if report.corpus_bytes > report.budget_bytes:
        report.problems.append(
            Problem("corpus", None, None, f"size {report.corpus_bytes / 1e6:.2f} MB exceeds the {report.budget_bytes / 1e6:.0f} MB budget")
        )
    report.timings["lock_index_size"] = time.perf_counter() - clock

    if regenerate:
        import tempfile

        clock = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="atlas-regen-") as tmp:
            problems, _ = regenerate_problems(root, specs, Path(workdir or tmp), jobs=jobs)
        report.problems.extend(problems)
        report.timings["regenerate"] = time.perf_counter() - clock
    return report
