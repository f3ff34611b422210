"""Shared building blocks of every dataset generator (standard library only).

Every generator in this folder emits its `dataset.json` card through
`base_dataset_json` / `eval_dataset_json`, so the licence, provenance, token heuristic
and scoring block are word-for-word identical across datasets, and writes its rows with
`write_jsonl`, so output bytes depend only on the rows (sorted keys, UTF-8, LF, one
trailing newline, atomic replace).

The generator contract (see README.md in this folder):

* a PEP 723 header, a fixed seed, standard library (or Pillow) only;
* `python datasets/_gen/<generator>.py [--out DIR]` writes the dataset's generated files
  into DIR (default: the dataset's own folder) and nothing else;
* the answers are computed, brute-forced or executed, never typed;
* a second run writes byte-identical files.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

# --- constants shared by every dataset card ------------------------------------------

DATASETS_ROOT = Path(__file__).resolve().parent.parent
LICENSE = "MIT"
FIRST_WAVE_DATE = "2026-08-20"
ROWS_FILE = "rows.jsonl"
KINDS = ("prompts", "eval", "haystack")
TOKEN_HEURISTIC = "approx_tokens = ceil(sum(len(m.content) for m in messages) / 4)"
CHARS_PER_TOKEN = 4
BUDGET_BYTES = 25 * 1000 * 1000  # the corpus budget: 25 MB, generator scripts included

PROVENANCE_STATEMENT = (
    "Synthetic: every byte was written or generated in this repository by the generator "
    "named here. No third-party corpus, no scraped text, no model output."
)

# Length buckets, inclusive ranges on approx_tokens (DESIGN.md).
BUCKETS: tuple[tuple[str, int, int | None], ...] = (
    ("xs", 1, 128),
    ("s", 129, 512),
    ("m", 513, 2048),
    ("l", 2049, 8192),
    ("xl", 8193, 32768),
    ("xxl", 32769, None),
)
BUCKET_NAMES = tuple(name for name, _, _ in BUCKETS)

DIFFICULTIES = ("easy", "medium", "hard")
CODE_LANGS = ("python", "typescript", "go", "rust", "sql")
CODE_TASKS = ("write", "fix", "explain", "refactor")
CODE_LANG_NAMES = {
    "python": "Python",
    "typescript": "TypeScript",
    "go": "Go",
    "rust": "Rust",
    "sql": "SQL",
}

# The scoring block the first-wave eval cards published (its extraction lines are superseded
# by datasets/card-corrections.json); its other keys are the rules every card states. The
# dataset's default scorer lives beside it (`default_scorer`), never inside it.
SCORING: dict[str, Any] = {
    "extraction": [
        "drop everything inside <think>...</think>, including an unterminated leading <think> block",
        "drop markdown code fences, keeping the fenced content",
        "if any line matches /^\\s*(?:final answer|answer)\\s*[:\\-]\\s*(.+)$/i, take the capture of the last such line and use only that",
        "strip surrounding whitespace, matching quotes, and a single trailing . or !",
    ],
    "extraction_skipped_for": ["instruction", "splice"],
    "row_scorer_wins": True,
    "partial_credit": False,
    "accuracy": "correct / total",
    "failed_requests": (
        "a request that failed (timeout, 5xx, context overflow) counts as incorrect and is "
        "listed in scores.failures and metrics.requests_failed"
    ),
    "malformed_output": "a wrong answer, not a failed request",
}


# --- tokens and buckets ---------------------------------------------------------------


def approx_tokens_of_chars(chars: int) -> int:
    """ceil(chars / 4), the tokenizer-independent heuristic every dataset states."""
    if chars < 0:
        raise ValueError(f"negative character count {chars}")
    return -(-chars // CHARS_PER_TOKEN)


def approx_tokens(text: str) -> int:
    return approx_tokens_of_chars(len(text))


def message_tokens(messages: Sequence[Mapping[str, Any]], shared_prefix: str | None = None) -> int:
    """approx_tokens of a prompts row: every message's content plus the shared prefix."""
    chars = sum(len(m["content"]) for m in messages)
    if shared_prefix is not None:
        chars += len(shared_prefix)
    return approx_tokens_of_chars(chars)


def bucket(tokens: int) -> str:
    """The DESIGN.md length bucket of an approx_tokens value (inclusive ranges)."""
    if isinstance(tokens, bool) or not isinstance(tokens, int):
        raise TypeError(f"approx_tokens must be an int, got {tokens!r}")
    if tokens < 1:
        raise ValueError(f"approx_tokens must be >= 1, got {tokens}")
    for name, low, high in BUCKETS:
        if high is None or tokens <= high:
            return name
    raise AssertionError("unreachable")


def bucket_range(name: str) -> tuple[int, int | None]:
    for bucket_name, low, high in BUCKETS:
        if bucket_name == name:
            return low, high
    raise KeyError(f"unknown bucket {name!r}; known: {', '.join(BUCKET_NAMES)}")


# --- hashing --------------------------------------------------------------------------


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_text(text: str) -> str:
    """sha256 of the UTF-8 encoding of `text` (how a haystack document is hashed)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def dataset_files(folder: str | Path) -> list[str]:
    """Relative POSIX paths of every file that makes up a dataset folder, sorted.

    Byte-code caches and editor droppings are not part of a dataset.
    """
    folder = Path(folder)
    out = []
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        rel = path.relative_to(folder)
        parts = rel.parts
        if "__pycache__" in parts or any(p.startswith(".") for p in parts) or rel.suffix == ".pyc":
            continue
        out.append(rel.as_posix())
    return sorted(out)


def content_sha256(folder: str | Path) -> str:
    """The content hash of a dataset folder: its data version and its lock-file entry.

    sha256 over the lines "<relative path>\\0<sha256 of the file>\\n" for every file,
    sorted by path, so it changes when any byte, name, addition or removal changes.
    """
    folder = Path(folder)
    digest = hashlib.sha256()
    for rel in dataset_files(folder):
        digest.update(f"{rel}\0{sha256_file(folder / rel)}\n".encode("utf-8"))
    return digest.hexdigest()


def stable_seed(*parts: object) -> int:
    """A deterministic 31-bit seed from labels (never Python's randomised hash())."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big") & 0x7FFFFFFF


# --- deterministic writing ------------------------------------------------------------


def dumps_row(row: Mapping[str, Any]) -> str:
    """One JSONL line: sorted keys, compact separators, UTF-8 kept readable, no NaN."""
    return json.dumps(row, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps_card(card: Mapping[str, Any]) -> str:
    return json.dumps(card, sort_keys=True, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write via a temp file in the same folder + rename: readers never see a torn file."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; published files are world-readable
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return target


def write_text(path: str | Path, text: str) -> Path:
    """UTF-8, LF line endings exactly as given (no platform newline translation)."""
    if "\r" in text:
        raise ValueError(f"{path}: carriage return in generated text")
    return atomic_write_bytes(path, text.encode("utf-8"))


def write_jsonl(path: str | Path, rows: Iterable[Mapping[str, Any]]) -> Path:
    lines = [dumps_row(row) for row in rows]
    return write_text(path, "".join(line + "\n" for line in lines))


def write_card(path: str | Path, card: Mapping[str, Any]) -> Path:
    return write_text(path, dumps_card(card))


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


# --- dataset cards --------------------------------------------------------------------


def _rel(path: str | Path) -> str:
    path = Path(path).resolve()
    try:
        return path.relative_to(DATASETS_ROOT).as_posix()
    except ValueError:
        return path.name


def base_dataset_json(
    *,
    dataset_id: str,
    kind: str,
    description: str,
    generator: str | Path,
    seed: int,
    rows: Sequence[Mapping[str, Any]],
    date: str = FIRST_WAVE_DATE,
    inputs: Sequence[str | Path] = (),
    sources: Sequence[str] = (),
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The card every dataset shares: id, kind, date, licence, provenance, token heuristic.

    `generator` is the generating script; `inputs` are further files whose bytes shape the
    output (they enter the Dagster code version), `sources` are hand-written files that live
    in the dataset folder and are published with it (e.g. haystack-v1/build.py).
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*-v[0-9]+", dataset_id):
        raise ValueError(f"dataset id {dataset_id!r} must look like name-vN")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise ValueError(f"date {date!r} must be YYYY-MM-DD")
    card: dict[str, Any] = {
        "id": dataset_id,
        "kind": kind,
        "date": date,
        "description": description,
        "license": LICENSE,
        "provenance": {
            "statement": PROVENANCE_STATEMENT,
            "generator": _rel(generator),
            "inputs": sorted({"_gen/_lib.py", *(_rel(p) for p in inputs)}),
            "seed": seed,
        },
        "token_heuristic": TOKEN_HEURISTIC,
        "rows_file": ROWS_FILE,
        "rows": len(rows),
        "sources": sorted(sources),
    }
    if extra:
        overlap = set(card) & set(extra)
        if overlap:
            raise ValueError(f"extra card fields shadow base fields: {sorted(overlap)}")
        card.update(extra)
    return card


def eval_dataset_json(
    *, default_scorer: str, rows: Sequence[Mapping[str, Any]], scoring: Mapping[str, Any] | None = None, **kwargs: Any
) -> dict[str, Any]:
    """An eval card: the base card plus the scoring block and the default scorer.

    `scorers` lists every scorer the rows use (row scorer wins over the default).
    `scoring` is the card's scoring block: a new dataset passes
    `atlas_assets.corpus.cards.scoring_block(...)` (extraction per scorer, as the code does
    it; check.py insists). Without it the card gets SCORING, the block the first-wave
    generators published -- kept so they regenerate byte-identical; their cards are
    corrected in datasets/card-corrections.json.
    """
    card = base_dataset_json(kind="eval", rows=rows, **kwargs)
    card["scoring"] = json.loads(json.dumps(SCORING if scoring is None else scoring))
    card["default_scorer"] = default_scorer
    card["scorers"] = sorted({row.get("scorer", default_scorer) for row in rows})
    return card


# --- unique text ----------------------------------------------------------------------

MIN_PASSAGE_CHARS = 200
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n+")


def passages(text: str, min_chars: int = MIN_PASSAGE_CHARS) -> Iterable[str]:
    """Every run of consecutive sentences that starts at a sentence boundary and is just
    long enough (>= min_chars after whitespace folding). A passage repeated anywhere in
    the corpus produces the same run here, so hashing these finds repeats."""
    parts = [" ".join(p.split()) for p in _SENTENCE_END.split(text)]
    parts = [p for p in parts if p]
    n = len(parts)
    lengths = [len(p) + 1 for p in parts]
    end = 0
    total = 0
    for start in range(n):
        if end < start:
            end, total = start, 0
        while end < n and total < min_chars:
            total += lengths[end]
            end += 1
        if total < min_chars:
            return
        yield " ".join(parts[start:end])
        total -= lengths[start]


def passage_keys(text: str, min_chars: int = MIN_PASSAGE_CHARS) -> set[bytes]:
    return {hashlib.blake2b(p.encode("utf-8"), digest_size=12).digest() for p in passages(text, min_chars)}


def assert_unique_text(texts: Iterable[tuple[str, str]], min_chars: int = MIN_PASSAGE_CHARS) -> None:
    """Raise if a passage of >= min_chars appears in two different (row id, text) entries."""
    seen: dict[bytes, str] = {}
    for row_id, text in texts:
        for key in passage_keys(text, min_chars):
            other = seen.setdefault(key, row_id)
            if other != row_id:
                raise AssertionError(f"rows {other} and {row_id} share a passage of >= {min_chars} chars")


# --- command line ---------------------------------------------------------------------


def out_dir_from_argv(dataset_id: str, argv: Sequence[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=f"Generate {dataset_id}.")
    parser.add_argument(
        "--out",
        type=Path,
        default=DATASETS_ROOT / dataset_id,
        help=f"folder to write the dataset into (default: datasets/{dataset_id})",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    return args.out
