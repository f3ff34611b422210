"""Translation corpora: the `dataset` block and entries of specs/rosetta-eval-datasets.md,
as pydantic models, plus a validator that reports *every* problem of a file.

    {"dataset": {id, version, language_pair, description?, source_language,
                 target_language | targets[], created, license, provenance[]},
     "entries": [{id, source, reference | references{}, difficulty, provenance, register,
                  context, notes?, morphological_analysis?, variant_class?}, ...]}

One dataset, many targets: a block gives exactly one of `target_language` (a
single-target corpus, the spec's format) or `targets` (a list of distinct BCP 47 tags, e.g.
FLORES+ devtest: English into 39 languages). Each entry of a single-target corpus has
`reference`; each entry of a multi-target corpus has `references`, an object with exactly
one non-blank reference per target ({"fr": "...", "de": "..."}). `Corpus.for_target(tag)`
is the single-target view of one target, which everything that scores, runs and cards
reads (`entry.reference`, `dataset.target_language`).

Rules (each a `Problem` naming the entry id and the field):

* required fields present, types exact (integers are JSON integers, not strings or
  booleans), no unknown fields (a typo is an error, not a silently ignored key);
* text fields non-empty; `id` and `difficulty` integers, difficulty 1-5;
* `source_language` / `target_language` / each of `targets` well-formed BCP 47 tags
  (RFC 5646 syntax); `targets` non-empty and distinct, also ignoring case; an entry's
  `references` keys exactly the block's `targets` (a missing or extra key names
  `references.<tag>`);
* `license` an SPDX licence expression, judged by atlas_assets/translation/spdx.py (the
  `license-expression` library and the whole SPDX list): an id not on the list is an error
  with the SPDX id suggested ("CC BY-NC-SA 4.0": did you mean CC-BY-NC-SA-4.0?),
  LicenseRef-... always passes, a deprecated id (GPL-3.0) warns with the current one;
* `created` an ISO 8601 date (or date-time); `version` a semantic version (1, 1.0, 1.0.2, 1.0.0-rc.1);
* the block's `provenance` a non-empty list of distinct tags; each entry's `provenance`
  one of them;
* the block's `id` a slug that is also a valid Dagster partition key (it is one of the
  translation_run partitions; atlas_assets/core/names.py: `x...y` is refused);
* entry ids unique;
* entries sharing a `variant_class` are alternative references of one source: they must
  share the source text, the difficulty, the register and the context (a difference is an
  error naming the entry, the field, the class and its first entry's id and value: the
  class is one scored segment, which would otherwise silently take the first entry's
  values) -- see atlas_assets/translation/scoring.py;
* no value matched by a pattern ends in a newline (patterns use fullmatch), and ids,
  versions, dates, language tags, licences, provenance tags, registers, contexts, class
  names and the language_pair label are one line without leading or trailing whitespace.

No Dagster import here.
"""

from __future__ import annotations

import datetime as _dt
import re
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Optional, Sequence

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from atlas_assets.core.errors import AtlasError, validation_messages
from atlas_assets.core.files import read_regular
from atlas_assets.core.hashing import sha256_bytes
from atlas_assets.core.names import partition_key_problem
from atlas_assets.core.problems import SeverityReport, show_part
from atlas_assets.translation import spdx

__all__ = [
    "Corpus",
    "DatasetBlock",
    "Entry",
    "LoadedCorpus",
    "Problem",
    "ValidationReport",
    "is_bcp47",
    "load_corpus",
    "summary",
    "summary_text",
    "validate_data",
    "validate_file",
]

# ---------------------------------------------------------------- syntax helpers

# RFC 5646 "langtag" (plus private-use and the grandfathered irregular tags are not accepted).
_BCP47 = re.compile(
    r"""^(?:
      (?P<language>[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8})
      (?:-(?P<script>[A-Za-z]{4}))?
      (?:-(?P<region>[A-Za-z]{2}|[0-9]{3}))?
      (?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*
      (?:-[0-9A-WY-Za-wy-z](?:-[A-Za-z0-9]{2,8})+)*
      (?:-[xX](?:-[A-Za-z0-9]{1,8})+)?
    |[xX](?:-[A-Za-z0-9]{1,8})+)""",
    re.VERBOSE,
)
# Every pattern is applied with fullmatch: `$` also matches before a trailing newline.
_SEMVER = re.compile(r"\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.\-]+)?(?:\+[0-9A-Za-z.\-]+)?")
_SLUG = re.compile(r"[a-z0-9][a-z0-9._\-]*")


def is_bcp47(tag: str) -> bool:
    return bool(_BCP47.fullmatch(tag))


def _stray_space(value: str) -> str:
    """' (why)' when `value` has a newline, another control character or leading/trailing
    whitespace, for a message (a trailing newline is invisible in most output); else ''."""
    if not value.isprintable():
        return " (it contains a newline or another control character)"
    return " (it has leading or trailing whitespace)" if value != value.strip() else ""


def _listing(items: Sequence[str], shown: int = 10) -> str:
    """Items for a message, cut after `shown` (a hostile list of 10,000 tags stays one short line)."""
    head = ", ".join(items[:shown])
    return head if len(items) <= shown else f"{head}, ... ({len(items)} in all)"


# ---------------------------------------------------------------- models


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty or whitespace")
    return value


def _label(value: str) -> str:
    _not_blank(value)
    if _stray_space(value):
        raise ValueError(f"{value!r} is a label: it must be one line without leading or trailing whitespace" + _stray_space(value))
    return value


def _bcp47_tag(value: str) -> str:
    if not is_bcp47(value):
        raise ValueError(f"{value!r} is not a well-formed BCP 47 language tag (e.g. en, crk, pt-BR, zh-Hant)" + _stray_space(value))
    return value


Bcp47 = Annotated[StrictStr, AfterValidator(_bcp47_tag)]
NonBlank = Annotated[StrictStr, AfterValidator(_not_blank)]  # free text (sources, references)
Label = Annotated[StrictStr, AfterValidator(_label)]  # tags and class names, compared as they are written


class DatasetBlock(_Strict):
    """The top-level `dataset` block."""

    id: StrictStr = Field(description="Unique dataset identifier (slug), used in run cards and the leaderboard")
    version: StrictStr = Field(description="Semantic version; a new version invalidates comparisons with prior run cards")
    language_pair: Label = Field(description="Display label, e.g. EN→CRK")
    description: Optional[StrictStr] = Field(None, description="Optional human-readable summary")
    source_language: Bcp47 = Field(description="BCP 47 source language code")
    target_language: Optional[Bcp47] = Field(None, description="BCP 47 target language code (a single-target corpus; else `targets`)")
    targets: Optional[list[Bcp47]] = Field(
        None,
        validate_default=True,
        description="BCP 47 target language codes of a multi-target corpus (one dataset, many targets; else `target_language`)",
    )
    created: StrictStr = Field(description="ISO 8601 creation date")
    license: StrictStr = Field(description="SPDX license identifier")
    provenance: list[Label] = Field(description="Provenance tags used across entries")

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _SLUG.fullmatch(value):
            raise ValueError("must be a slug: lowercase letters, digits, '.', '_' or '-' (e.g. edtekla-dev-v1)" + _stray_space(value))
        problem = partition_key_problem(value)  # translation_run partitions; a slug is already an asset-key part (translation/corpus/<id>)
        if problem:
            raise ValueError(f"corpus id: {problem}")
        return value

    @field_validator("version")
    @classmethod
    def _version(cls, value: str) -> str:
        if not _SEMVER.fullmatch(value):
            raise ValueError(f"{value!r} is not a semantic version such as 1.0 or 1.2.0" + _stray_space(value))
        return value

    @field_validator("targets")
    @classmethod
    def _targets(cls, value: list[str] | None, info: ValidationInfo) -> list[str] | None:
        if "target_language" not in info.data:  # it has an error of its own
            return value
        single = info.data["target_language"] is not None
        if single == (value is not None):
            raise ValueError(
                "give exactly one of target_language (a single-target corpus) or targets (a list: one dataset, many targets); "
                + ("this block has both" if single else "this block has neither")
            )
        if value is None:
            return value
        if not value:
            raise ValueError("must list at least one target language")
        seen: dict[str, str] = {}
        duplicated = []
        for tag in value:
            if tag.casefold() in seen:
                duplicated.append(f"{tag} (also {seen[tag.casefold()]})" if tag != seen[tag.casefold()] else tag)
            seen.setdefault(tag.casefold(), tag)
        if duplicated:
            raise ValueError(f"duplicate target(s), compared ignoring case: {_listing(duplicated)}")
        return value

    @field_validator("created")
    @classmethod
    def _created(cls, value: str) -> str:
        try:
            if _stray_space(value):
                raise ValueError
            if len(value) == 10:
                _dt.date.fromisoformat(value)
            else:
                _dt.datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{value!r} is not an ISO 8601 date (YYYY-MM-DD)" + _stray_space(value)) from None
        return value

    @field_validator("license")
    @classmethod
    def _license(cls, value: str) -> str:
        error = spdx.check(value).error
        if error:
            raise ValueError(error)
        return value

    @field_validator("provenance")
    @classmethod
    def _provenance(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("must list at least one provenance tag")
        duplicated = sorted(t for t, n in Counter(value).items() if n > 1)
        if duplicated:
            raise ValueError(f"duplicate tag(s): {', '.join(duplicated)}")
        return value


with warnings.catch_warnings():  # `register` (a spec field) shadows ABCMeta.register, harmlessly
    warnings.filterwarnings("ignore", message='Field name "register"')

    class Entry(_Strict):
        """One source → gold reference pair."""

        id: StrictInt = Field(description="Unique entry identifier within the corpus")
        source: NonBlank = Field(description="The source text to translate")
        reference: Optional[NonBlank] = Field(None, description="The gold-standard reference translation (a single-target corpus)")
        references: Optional[dict[StrictStr, NonBlank]] = Field(
            None, description="One gold-standard reference per target language, keyed by the block's `targets` (a multi-target corpus)"
        )
        difficulty: StrictInt = Field(ge=1, le=5, description="Difficulty tier 1-5")
        provenance: Label = Field(description="Origin of this entry; one of the dataset block's provenance tags")
        register: Label = Field(description="Register/formality level")
        context: Label = Field(description="Communicative function")
        notes: Optional[StrictStr] = Field(None, description="Optional context for human reviewers")
        morphological_analysis: Optional[StrictStr] = Field(None, description="Gold-standard morphological breakdown")
        variant_class: Optional[Label] = Field(None, description="Class label grouping acceptable translation variants")


def _reference_problems(reference: Any, references: Any, multi: bool, targets: Sequence[str] | None) -> list[tuple[str, str]]:
    """(field, message) for an entry's reference(s) against the block: `reference` in a
    single-target corpus, `references` keyed exactly by `targets` in a multi-target one
    (`targets` None: not known, the keys are not checked)."""
    if not multi:
        out = [] if reference is not None else [("reference", "required field is missing")]
        if references is not None:
            out.append(
                (
                    "references",
                    "only an entry of a multi-target corpus (dataset.targets) has references; this corpus has dataset.target_language: give reference",
                )
            )
        return out
    out = (
        []
        if reference is None
        else [("reference", "an entry of a multi-target corpus (dataset.targets) gives references {tag: text}, not reference")]
    )
    if references is None:
        return [*out, ("references", "required field is missing (an object with one reference per target of dataset.targets)")]
    if not isinstance(references, dict) or targets is None:
        return out  # a wrong type is the model's error
    folded = {tag.casefold(): tag for tag in targets}
    out.extend((f"references.{show_part(tag)}", f"missing: dataset.targets lists {tag}") for tag in targets if tag not in references)
    known = set(targets)
    for key in references:
        if key not in known:
            same = folded.get(key.casefold()) if isinstance(key, str) else None
            hint = f" (tags are matched exactly: write {same})" if same else ""
            out.append((f"references.{show_part(key)}", f"not one of dataset.targets ({_listing(targets)}){hint}"))
    return out


class Corpus(_Strict):
    dataset: DatasetBlock
    entries: list[Entry]

    @model_validator(mode="after")
    def _references_match_targets(self) -> "Corpus":
        for entry in self.entries:
            for fld, message in _reference_problems(entry.reference, entry.references, self.is_multi_target, self.dataset.targets):
                raise ValueError(f"entry {entry.id} field {fld}: {message}")
        return self

    @property
    def is_multi_target(self) -> bool:
        return self.dataset.targets is not None

    @property
    def targets(self) -> tuple[str, ...]:
        if self.dataset.targets is not None:
            return tuple(self.dataset.targets)
        return (self.dataset.target_language,)  # type: ignore[return-value]  # the block validator requires target_language when targets is None

    def for_target(self, tag: str) -> "Corpus":
        """The single-target corpus of one target: what scoring, runs and cards read."""
        if tag not in self.targets:
            raise KeyError(f"{tag!r} is not a target of corpus {self.dataset.id} (targets: {_listing(self.targets)})")
        if not self.is_multi_target:
            return self
        block = self.dataset.model_copy(
            update={"target_language": tag, "targets": None, "language_pair": f"{self.dataset.source_language}→{tag}"}
        )
        entries = [e.model_copy(update={"reference": e.references[tag], "references": None}) for e in self.entries]  # type: ignore[index]
        return Corpus(dataset=block, entries=entries)


# ---------------------------------------------------------------- validation


@dataclass(frozen=True)
class Problem:
    """One problem: `entry` is the entry id (or `#index` when it has none), None for the
    dataset block or the file; `field` the offending field."""

    path: str
    entry: str | None
    field: str | None
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = "dataset" if self.entry is None else f"entry {self.entry}"
        if self.entry is None and self.field is None:
            where = "file"
        fld = f" field {self.field}" if self.field else ""
        return f"{self.path}: {where}{fld}: {self.message}"


@dataclass
class ValidationReport(SeverityReport):
    path: str
    problems: list[Problem] = field(default_factory=list)
    corpus: Corpus | None = None
    sha256: str | None = None

    @property
    def ok(self) -> bool:
        return not self.errors and self.corpus is not None


def _pydantic_problems(path: str, entry: str | None, exc: ValidationError, prefix: str = "") -> list[Problem]:
    return [Problem(path, entry, f"{prefix}{loc}" if loc else prefix.rstrip(".") or None, msg) for loc, msg in validation_messages(exc)]


def _entry_label(raw: Any, index: int) -> str:
    if isinstance(raw, dict) and isinstance(raw.get("id"), int) and not isinstance(raw.get("id"), bool):
        return str(raw["id"])
    return f"#{index}"


_SEGMENT_FIELDS = ("difficulty", "register", "context")  # a variant class's segment has one of each (scoring.Segment)


def _declared_targets(block: DatasetBlock | None, raw_block: Any) -> tuple[bool, list[str] | None]:
    """Whether the corpus is multi-target and its targets, for checking the entries: the
    valid block's, else what the raw block says (so a broken block does not hide the
    entries' problems; None when its targets are not a list of strings)."""
    if block is not None:
        return block.targets is not None, block.targets
    raw = raw_block.get("targets") if isinstance(raw_block, dict) else None
    if raw is None:
        return False, None
    return True, raw if isinstance(raw, list) and all(isinstance(t, str) for t in raw) else None


def validate_data(data: Any, path: str = "<corpus>") -> ValidationReport:
    """Validate parsed JSON; every problem is collected, none stops the others."""
    report = ValidationReport(path)
    problems = report.problems
    if not isinstance(data, dict):
        problems.append(
            Problem(path, None, None, f"the top level must be a JSON object with `dataset` and `entries`, got {type(data).__name__}")
        )
        return report
    for key in sorted(set(data) - {"dataset", "entries"}):
        problems.append(Problem(path, None, key, "unknown top-level field (only `dataset` and `entries`)"))

    block: DatasetBlock | None = None
    raw_block = data.get("dataset")
    if raw_block is None:
        problems.append(Problem(path, None, "dataset", "required block is missing"))
    elif not isinstance(raw_block, dict):
        problems.append(Problem(path, None, "dataset", "must be an object"))
    else:
        try:
            block = DatasetBlock.model_validate(raw_block, strict=True)
        except ValidationError as exc:
            problems.extend(
                Problem(p.path, None, f"dataset.{p.field}" if p.field else "dataset", p.message)
                for p in _pydantic_problems(path, None, exc)
            )
        if isinstance(raw_block.get("license"), str):
            problems.extend(
                Problem(path, None, "dataset.license", warning, "warning") for warning in spdx.check(raw_block["license"]).warnings
            )
    multi, targets = _declared_targets(block, raw_block)
    tags = set(raw_block.get("provenance") or []) if isinstance(raw_block, dict) and isinstance(raw_block.get("provenance"), list) else None

    entries: list[Entry] = []
    raw_entries = data.get("entries")
    if raw_entries is None:
        problems.append(Problem(path, None, "entries", "required list is missing"))
        raw_entries = []
    elif not isinstance(raw_entries, list):
        problems.append(Problem(path, None, "entries", "must be a list of entry objects"))
        raw_entries = []
    elif not raw_entries:
        problems.append(Problem(path, None, "entries", "the corpus has no entries"))

    seen: dict[int, int] = {}
    for index, raw in enumerate(raw_entries):
        label = _entry_label(raw, index)
        if not isinstance(raw, dict):
            problems.append(Problem(path, label, None, f"an entry must be an object, got {type(raw).__name__}"))
            continue
        try:
            entry = Entry.model_validate(raw, strict=True)
        except ValidationError as exc:
            problems.extend(_pydantic_problems(path, label, exc))
            entry = None
        ident = raw.get("id")
        if isinstance(ident, int) and not isinstance(ident, bool):
            if ident in seen:
                problems.append(Problem(path, label, "id", f"duplicate id (also entry #{seen[ident]} in file order)"))
            else:
                seen[ident] = index
        for fld, message in _reference_problems(raw.get("reference"), raw.get("references"), multi, targets):
            problems.append(Problem(path, label, fld, message))
        prov = raw.get("provenance")
        if tags is not None and isinstance(prov, str) and prov.strip() and prov not in tags:
            problems.append(
                Problem(
                    path, label, "provenance", f"{prov!r} is not one of the dataset block's provenance tags ({', '.join(sorted(tags))})"
                )
            )
        if entry is not None:
            entries.append(entry)

    # variant classes: alternative references of one source
    by_class: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.variant_class is not None:
            by_class.setdefault(entry.variant_class, []).append(entry)
    for name, (first, *rest) in by_class.items():
        for m in rest:
            if m.source.strip() != first.source.strip():
                problems.append(
                    Problem(
                        path,
                        str(m.id),
                        "variant_class",
                        f"variant class {name!r} groups alternative references of one source, but this entry's source differs from entry {first.id}'s",
                    )
                )
            for fld in _SEGMENT_FIELDS:
                if getattr(m, fld) != getattr(first, fld):
                    problems.append(
                        Problem(
                            path,
                            str(m.id),
                            fld,
                            f"{getattr(m, fld)!r} differs from {getattr(first, fld)!r} of entry {first.id}, the first of variant class {name!r}: "
                            f"a class is one scored segment with one {fld} (give every entry of the class the same)",
                        )
                    )

    if block is not None and not report.errors:
        report.corpus = Corpus(dataset=block, entries=entries)
    return report


def validate_file(path: str | Path) -> ValidationReport:
    path = Path(path)
    try:
        raw = read_regular(path)  # a FIFO or a device is refused, never read (or waited on)
    except OSError as exc:
        return ValidationReport(str(path), [Problem(str(path), None, None, f"cannot read: {exc.strerror or exc}")])
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return ValidationReport(str(path), [Problem(str(path), None, None, f"not valid JSON: {exc}")])
    report = validate_data(data, str(path))
    report.sha256 = sha256_bytes(raw)
    return report


@dataclass(frozen=True)
class LoadedCorpus:
    path: Path
    corpus: Corpus
    sha256: str

    @property
    def id(self) -> str:
        return self.corpus.dataset.id

    @property
    def version(self) -> str:
        return self.corpus.dataset.version

    @property
    def targets(self) -> tuple[str, ...]:
        return self.corpus.targets

    def for_target(self, tag: str) -> "LoadedCorpus":
        """The single-target view of one target, with this file's path and sha256."""
        view = self.corpus.for_target(tag)
        return self if view is self.corpus else LoadedCorpus(self.path, view, self.sha256)


class CorpusError(AtlasError, ValueError):
    def __init__(self, report: ValidationReport):
        self.report = report
        lines = [str(p) for p in report.errors[:10]]
        more = len(report.errors) - 10
        super().__init__("invalid translation corpus:\n  " + "\n  ".join(lines) + (f"\n  ... and {more} more" if more > 0 else ""))


def load_corpus(path: str | Path) -> LoadedCorpus:
    """A valid corpus, or CorpusError listing its problems."""
    report = validate_file(path)
    if not report.ok:
        raise CorpusError(report)
    assert report.corpus is not None and report.sha256 is not None
    return LoadedCorpus(Path(path), report.corpus, report.sha256)


# ---------------------------------------------------------------- summary


def summary(corpus: Corpus) -> dict[str, Any]:
    entries = corpus.entries
    return {
        "id": corpus.dataset.id,
        "version": corpus.dataset.version,
        "language_pair": corpus.dataset.language_pair,
        "targets": list(corpus.targets),
        "entries": len(entries),
        "variant_classes": len({e.variant_class for e in entries if e.variant_class}),
        "by_difficulty": {str(k): v for k, v in sorted(Counter(e.difficulty for e in entries).items())},
        "by_register": dict(sorted(Counter(e.register for e in entries).items())),
        "by_provenance": dict(sorted(Counter(e.provenance for e in entries).items())),
        "by_context": dict(sorted(Counter(e.context for e in entries).items())),
    }


def summary_text(corpus: Corpus, sha256: str | None = None) -> str:
    s = summary(corpus)
    lines = [
        f"{s['id']} v{s['version']} ({s['language_pair']}): {s['entries']} entries, {s['variant_classes']} variant class(es)"
        + (f", sha256 {sha256}" if sha256 else "")
    ]
    if corpus.is_multi_target:
        lines.append(f"  targets ({len(s['targets'])}): " + ", ".join(s["targets"]))
    for title, key in (("difficulty", "by_difficulty"), ("register", "by_register"), ("provenance", "by_provenance")):
        lines.append(f"  by {title}: " + ", ".join(f"{k} {v}" for k, v in s[key].items()))
    return "\n".join(lines)
