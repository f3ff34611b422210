"""Import FLORES+ (or FLORES-200) dev/devtest files from a local path into a translation
corpus. No FLORES data is shipped with this project: a user who has it points here.

Input: one file per language, row k of every file the same sentence, either

* plain text, one sentence per line (UTF-8; a leading BOM, CRLF line ends and one final
  newline are accepted; a blank line is an error): the FLORES-200 release and FLORES+
  text exports; or
* Parquet (a `.parquet` file, read with pyarrow): the FLORES+ release on Hugging Face
  (openlanguagedata/flores_plus, `devtest/eng_Latn.parquet`), the sentence in its `text`
  column (`sentence` in the older FLORES-200 conversions); when both files have an `id`
  column, the two must list the same ids in the same order.

Pass the two files (`--source-file/--target-file`, either format, mixed if need be), or a
FLORES directory plus the split and the FLORES codes; these layouts are tried, in order:

    DIR/{split}/{code}.{split}    (FLORES-200 release: devtest/eng_Latn.devtest)
    DIR/{split}/{code}.parquet    (FLORES+ on Hugging Face: devtest/eng_Latn.parquet)
    DIR/{split}/{code}            (FLORES+ text export:  devtest/eng_Latn)
    DIR/{code}.{split}
    DIR/{code}

Many targets, one corpus: with --dir, `--target` takes a comma-separated list
(`--target fra_Latn,deu_Latn,jpn_Jpan`) or `all` (every FLORES code with a file for the
split in the directory, in any of these layouts, the source excepted; sorted). Two or more
targets make one multi-target corpus (schema.py): `targets` lists their tags in the given
order, each entry has `references` {tag: sentence}, `language_pair` is `eng_Latn→39
targets`, the default id `flores-plus-SPLIT-SRC-multi` (flores-plus-devtest-eng-latn-multi);
every target file is checked aligned with the source. One target (also `all` finding one)
is the single-target corpus, `target_language` and `reference`. A list refuses
--target-language and --target-file (exit 2); a code given twice (or two codes with one
tag) is an error (exit 1). Each file is read once: FLORES+ devtest into 39 languages (40
files of 1012 sentences) is read, checked and built in about 0.2 s.

    atlas translation import-flores --dir ~/flores_plus --target all --out translation/flores-devtest-multi.json

FLORES codes become BCP 47 tags (languages.flores_to_bcp47): `eng_Latn` -> `eng-Latn` (an
ISO 639-3 language and an ISO 15924 script subtag), and FLORES+ 2's Glottocode-qualified
codes keep the Glottocode as private use, `apc_Arab_nort3139` -> `apc-Arab-x-nort3139`;
`--source-language/--target-language` override them. FLORES has no difficulty tiers or
registers: every entry gets `--difficulty` (default 3), `--register` (default `formal`:
encyclopedic/news prose), `--context` (default `sentence`), provenance `corpus`; entry ids
are the 1-based line (row) numbers.

Every problem with the input is one FloresError naming the file (and line or row): a
missing file (with --dir: every layout tried), a directory, a file that is not UTF-8 or
not Parquet, an empty sentence, two files of different lengths or ids, a malformed code.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import orjson

from atlas_assets.core.atomic import atomic_write_bytes
from atlas_assets.core.errors import AtlasError
from atlas_assets.translation.languages import flores_to_bcp47, is_flores_code, label
from atlas_assets.translation.schema import CorpusError, validate_data

__all__ = [
    "LAYOUTS",
    "FloresError",
    "Sentences",
    "discover_targets",
    "find_flores_file",
    "import_flores",
    "import_flores_multi",
    "read_sentences",
    "target_tags",
    "write_corpus",
]

LAYOUTS = ("{split}/{code}.{split}", "{split}/{code}.parquet", "{split}/{code}", "{code}.{split}", "{code}")
TEXT_COLUMNS = ("text", "sentence")  # FLORES+ parquet, FLORES-200 parquet conversions


class FloresError(AtlasError, ValueError):
    pass


@dataclass(frozen=True)
class Sentences:
    """One FLORES file's sentences in file order; `ids` from a Parquet `id` column."""

    path: Path
    unit: str  # "line" or "row": how an error points into the file
    sentences: list[Any]  # str; None for a Parquet null (refused as an empty sentence)
    ids: list[Any] | None = None


def find_flores_file(directory: str | Path, split: str, code: str) -> Path:
    root = Path(directory)
    candidates = [root / layout.format(split=split, code=code) for layout in LAYOUTS]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise FloresError(f"no FLORES file for {code} ({split}) under {root}; tried: " + ", ".join(str(c) for c in candidates))


def _text_lines(path: Path) -> list[str]:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1  # exc.object: the bytes after a BOM
        raise FloresError(f"{path}: not UTF-8 (line {line}, byte {exc.start + len(data) - len(exc.object)}: {exc.reason})") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _parquet_rows(path: Path) -> tuple[list[Any], list[Any] | None]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        with pq.ParquetFile(path) as handle:
            table = handle.read()
    except (pa.ArrowException, OSError) as exc:
        raise FloresError(f"{path}: not a readable Parquet file ({exc})") from None
    column = next((name for name in TEXT_COLUMNS if name in table.column_names), None)
    if column is None:
        raise FloresError(f"{path}: no sentence column ({' or '.join(TEXT_COLUMNS)}); columns: {', '.join(table.column_names)}")
    kind = table.schema.field(column).type
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        raise FloresError(f"{path}: column {column} holds {kind}, not text")
    ids = table.column("id").to_pylist() if "id" in table.column_names else None
    return table.column(column).to_pylist(), ids


def read_sentences(path: str | Path) -> Sentences:
    """A FLORES file's sentences (text or Parquet by suffix); FloresError naming the file."""
    path = Path(path)
    if not path.exists():
        raise FloresError(f"{path}: no such file")
    if path.is_dir():
        raise FloresError(f"{path}: is a directory, not a FLORES file")
    try:
        if path.suffix == ".parquet":
            rows, ids = _parquet_rows(path)
            read = Sentences(path, "row", rows, ids)
        else:
            read = Sentences(path, "line", _text_lines(path))
    except OSError as exc:
        raise FloresError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not read.sentences:
        raise FloresError(f"{path}: no sentences (an empty file)")
    blank = next((i for i, s in enumerate(read.sentences) if s is None or not s.strip()), None)
    if blank is not None:
        raise FloresError(f"{path}: {read.unit} {blank + 1} is empty (a FLORES file has one sentence per {read.unit})")
    return read


def _aligned(src: Sentences, tgt: Sentences) -> None:
    if len(src.sentences) != len(tgt.sentences):
        raise FloresError(
            f"the files are not aligned: {src.path} has {len(src.sentences)} {src.unit}s, {tgt.path} has {len(tgt.sentences)} {tgt.unit}s"
        )
    if src.ids is not None and tgt.ids is not None and src.ids != tgt.ids:
        k = next(i for i, (a, b) in enumerate(zip(src.ids, tgt.ids)) if a != b)
        raise FloresError(f"the files are not aligned: row {k + 1} is id {src.ids[k]!r} in {src.path} but id {tgt.ids[k]!r} in {tgt.path}")


def _tag(code: str, override: str | None) -> str:
    if override:
        return override
    try:
        return flores_to_bcp47(code)
    except ValueError as exc:
        raise FloresError(str(exc)) from None


def target_tags(codes: Sequence[str]) -> list[str]:
    """The BCP 47 tag of each target code; FloresError on a malformed code or one given
    twice. (Distinct FLORES codes are distinct tags, also ignoring case: the code's case is
    fixed, so the schema's "distinct targets" rule holds.)"""
    first: dict[str, int] = {}
    for number, code in enumerate(codes, 1):
        if code in first:
            raise FloresError(f"target {code} is given twice (targets {first[code]} and {number} of the list)")
        first[code] = number
    return [_tag(code, None) for code in codes]


def discover_targets(directory: str | Path, split: str, source_code: str) -> list[str]:
    """Every FLORES code with a file for `split` under `directory` in one of LAYOUTS, the
    source excepted, sorted; FloresError when there is none."""
    root = Path(directory)
    codes: set[str] = set()
    for layout in LAYOUTS:
        folder, _, name = layout.replace("{split}", split).rpartition("/")
        suffix = name.removeprefix("{code}")  # every layout's file name starts with the code
        try:
            names = [p.name for p in (root / folder).iterdir() if p.is_file()]
        except OSError:  # no such folder (or not one): nothing in this layout
            continue
        codes.update(c for c in (n.removesuffix(suffix) for n in names if n.endswith(suffix)) if is_flores_code(c))
    codes.discard(source_code)
    if not codes:
        tried = ", ".join(str(root / layout.format(split=split, code="CODE")) for layout in LAYOUTS)
        raise FloresError(f"no FLORES target file for {split} under {root} besides the source {source_code}; looked for {tried}")
    return sorted(codes)


def import_flores(
    source_file: str | Path,
    target_file: str | Path,
    *,
    source_code: str,
    target_code: str,
    target_language: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The corpus document (validated) for source → target from two aligned FLORES files
    (options: those of import_flores_multi)."""
    return _corpus(
        source_file, {target_code: target_file}, [_tag(target_code, target_language)], source_code=source_code, multi=False, **options
    )


def import_flores_multi(
    source_file: str | Path, target_files: Mapping[str, str | Path], *, source_code: str, **options: Any
) -> dict[str, Any]:
    """The multi-target corpus document (validated) for source → every target (FLORES code
    -> file, in the corpus's order), each file aligned with the source: entries carry
    `references` {tag: sentence}."""
    if not target_files:
        raise FloresError("no target files")
    return _corpus(source_file, target_files, target_tags(list(target_files)), source_code=source_code, multi=True, **options)


def _corpus(
    source_file: str | Path,
    target_files: Mapping[str, str | Path],
    tags: list[str],
    *,
    source_code: str,
    multi: bool,
    split: str = "devtest",
    source_language: str | None = None,
    dataset_id: str | None = None,
    version: str = "1.0",
    created: str | None = None,
    license: str = "CC-BY-SA-4.0",
    difficulty: int = 3,
    register: str = "formal",
    context: str = "sentence",
    limit: int | None = None,
) -> dict[str, Any]:
    """The one builder: a single-target corpus (one target, `reference`) or a multi-target
    one (`targets`, `references`). Each file is read once; every target is checked aligned
    with the source before any entry is built."""
    src_lang = _tag(source_code, source_language)
    src = read_sentences(source_file)
    columns = []
    for path in target_files.values():
        tgt = read_sentences(path)
        _aligned(src, tgt)
        columns.append(tgt.sentences)
    codes = list(target_files)
    n = len(src.sentences) if limit is None else min(limit, len(src.sentences))
    base = f"flores-plus-{split}-{source_code}-" + ("multi" if multi else codes[0])
    slug = base.lower().replace("_", "-")
    if multi:
        pair, into = f"{source_code}→{len(codes)} targets", f"{len(codes)} targets ({', '.join(label(t) for t in tags)})"
        target_field: dict[str, Any] = {"targets": tags}
    else:
        pair, into = f"{source_code}→{codes[0]}", label(tags[0])
        target_field = {"target_language": tags[0]}
    doc = {
        "dataset": {
            "id": dataset_id or slug,
            "version": version,
            "language_pair": pair,
            "description": f"FLORES+ {split}, {label(src_lang)} → {into}, imported by `atlas translation import-flores` "
            f"from a local copy ({n} aligned sentences). Evaluation only: never train on it.",
            "source_language": src_lang,
            **target_field,
            "created": created or _dt.date.today().isoformat(),
            "license": license,
            "provenance": ["corpus"],
        },
        "entries": [
            {
                "id": i + 1,
                "source": src.sentences[i],
                **({"references": {tag: column[i] for tag, column in zip(tags, columns)}} if multi else {"reference": columns[0][i]}),
                "difficulty": difficulty,
                "provenance": "corpus",
                "register": register,
                "context": context,
            }
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
