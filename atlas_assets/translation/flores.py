"""Import FLORES+ (or FLORES-200) dev/devtest files from a local path into a translation
corpus. No FLORES data is shipped with this project: a user who has it points here.

Input: one plain-text file per language, line k of every file the same sentence
(aligned lines, UTF-8). Either pass the two files, or a FLORES directory plus the split
and the FLORES codes; these layouts are tried, in order:

    DIR/{split}/{code}.{split}    (FLORES-200 release: devtest/eng_Latn.devtest)
    DIR/{split}/{code}            (FLORES+ text export:  devtest/eng_Latn)
    DIR/{code}.{split}
    DIR/{code}

FLORES codes (`eng_Latn`) become BCP 47 tags (`eng-Latn`: an ISO 639-3 language and an
ISO 15924 script subtag); `--source-language/--target-language` override them.
FLORES has no difficulty tiers or registers: every entry gets `--difficulty` (default 3),
`--register` (default `formal`: encyclopedic/news prose), `--context` (default
`sentence`), provenance `corpus`; entry ids are the 1-based line numbers.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

import orjson

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.translation.schema import CorpusError, validate_data

__all__ = ["FloresError", "find_flores_file", "flores_to_bcp47", "import_flores", "write_corpus"]


class FloresError(ValueError):
    pass


def flores_to_bcp47(code: str) -> str:
    language, _, script = code.partition("_")
    return f"{language}-{script}" if script else language


def find_flores_file(directory: str | Path, split: str, code: str) -> Path:
    root = Path(directory)
    candidates = [root / split / f"{code}.{split}", root / split / code, root / f"{code}.{split}", root / code]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise FloresError(f"no FLORES file for {code} ({split}) under {root}; tried: " + ", ".join(str(c) for c in candidates))


def _lines(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise FloresError(f"{path}: not UTF-8 ({exc})") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def import_flores(
    source_file: str | Path,
    target_file: str | Path,
    *,
    source_code: str,
    target_code: str,
    split: str = "devtest",
    source_language: str | None = None,
    target_language: str | None = None,
    dataset_id: str | None = None,
    version: str = "1.0",
    created: str | None = None,
    license: str = "CC-BY-SA-4.0",
    difficulty: int = 3,
    register: str = "formal",
    context: str = "sentence",
    limit: int | None = None,
) -> dict[str, Any]:
    """The corpus document (validated) for source → target from aligned line files."""
    src_lines, tgt_lines = _lines(Path(source_file)), _lines(Path(target_file))
    if len(src_lines) != len(tgt_lines):
        raise FloresError(f"the files are not aligned: {source_file} has {len(src_lines)} lines, {target_file} has {len(tgt_lines)}")
    blank = [i + 1 for i, (s, t) in enumerate(zip(src_lines, tgt_lines)) if not s.strip() or not t.strip()]
    if blank:
        raise FloresError(f"empty line(s) at {', '.join(map(str, blank[:10]))}: the files are not FLORES sentence files")
    src_lang = source_language or flores_to_bcp47(source_code)
    tgt_lang = target_language or flores_to_bcp47(target_code)
    slug = f"flores-plus-{split}-{source_code}-{target_code}".lower().replace("_", "-")
    n = len(src_lines) if limit is None else min(limit, len(src_lines))
    doc = {
        "dataset": {
            "id": dataset_id or slug,
            "version": version,
            "language_pair": f"{source_code}→{target_code}",
            "description": f"FLORES+ {split}, {source_code} → {target_code}, imported by `atlas translation import-flores` "
            f"from a local copy ({n} aligned sentences). Evaluation only: never train on it.",
            "source_language": src_lang,
            "target_language": tgt_lang,
            "created": created or _dt.date.today().isoformat(),
            "license": license,
            "provenance": ["corpus"],
        },
        "entries": [
            {"id": i + 1, "source": src_lines[i], "reference": tgt_lines[i], "difficulty": difficulty, "provenance": "corpus", "register": register, "context": context}
            for i in range(n)
        ],
    }
    report = validate_data(doc, dataset_id or slug)
    if report.errors:
        raise CorpusError(report)
    return doc


def write_corpus(doc: dict[str, Any], path: str | Path) -> Path:
    """Write a corpus document atomically (UTF-8, 2-space indent, trailing newline)."""
    return atomic_write_bytes(path, orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")
