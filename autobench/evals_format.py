"""The Pydantic Evals dataset file format, both ways, without importing `pydantic_evals`.

A Pydantic Evals dataset file (YAML or JSON; what `Dataset.to_file` writes and
`Dataset.from_file` reads) is `{name, cases: [{name, inputs, metadata, expected_output,
evaluators}], evaluators, report_evaluators}`, an evaluator being `Name`, `{Name: arg}` or
`{Name: {kwarg: value}}`. Autobench maps it to its own dataset and evaluator entries
(`read`), and a dataset (and evaluator entries) back to it (`export`). What has no
matching meaning is a `FormatError` naming the file and the field, never dropped. The
table is in the README ("Pydantic Evals").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

from pydantic import ValidationError

from atlas_assets.core.errors import AtlasError
from atlas_assets.core.hashing import sha256_bytes
from autobench import files, yamlio
from autobench.evaluators import _name, _parts  # noqa: PLC2701 - the entry parts, as build uses them
from autobench.models import Case

FORMAT = "pydantic-evals"
_CASE_KEYS = ("name", "inputs", "metadata", "expected_output", "evaluators")
_DATASET_KEYS = ("$schema", "name", "cases", "evaluators", "report_evaluators")
# Pydantic Evals' IsInstance matches a class name in the output's MRO; autobench's is-instance a JSON type
_PE_TYPES = {"str": "str", "int": "int", "float": "float", "bool": "bool", "list": "list", "dict": "dict", "NoneType": "null"}
_AB_TYPES = {v: k for k, v in _PE_TYPES.items()}
_LLM_DEFAULT_ASSERTION = {"include_reason": True}


class FormatError(AtlasError, ValueError):
    """A Pydantic Evals file (or an autobench dataset) that cannot be mapped; names file and field."""


def looks_like(raw: Any) -> bool:
    """A parsed document in Pydantic Evals' shape (top-level `cases`, no `dataset`)."""
    return isinstance(raw, dict) and "cases" in raw and "dataset" not in raw


def is_seed_case(raw: Any) -> bool:
    """A seed case in Pydantic Evals' shape (`inputs`, no autobench `input`)."""
    return isinstance(raw, dict) and "inputs" in raw and "input" not in raw


def case_from(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A Pydantic Evals case mapping as an autobench case mapping (evaluators not included)."""
    unknown = sorted(set(raw) - set(_CASE_KEYS))
    if unknown:
        raise FormatError(f"{where}.{unknown[0]}: not a Pydantic Evals case field (have {', '.join(_CASE_KEYS)})")
    if not isinstance(raw.get("name"), str) or not raw["name"]:
        raise FormatError(f"{where}.name: a case needs a name (it becomes the autobench case id)")
    metadata = raw.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise FormatError(f"{where}.metadata: autobench case metadata is a mapping, got {type(metadata).__name__}")
    return {"id": raw["name"], "input": raw.get("inputs"), "expected": raw.get("expected_output"), "metadata": metadata or {}}


def _spec_parts(spec: Any, where: str) -> tuple[str, Any]:
    if isinstance(spec, str):
        return spec, None
    if isinstance(spec, dict) and len(spec) == 1:
        name, args = next(iter(spec.items()))
        return str(name), args
    raise FormatError(
        f"{where}: an evaluator is Name, {{Name: arg}} or {{Name: {{kwarg: value}}}}, got {json.dumps(spec, default=str)[:80]}"
    )


def _kwargs(name: str, args: Any, first: Optional[str], allowed: Sequence[str], where: str) -> dict[str, Any]:
    if args is None:
        return {}
    if not isinstance(args, dict) or first is not None and first not in args and set(args) - set(allowed):
        if first is None:
            raise FormatError(f"{where}.{name}: {name} takes no positional argument")
        return {first: args}
    unknown = sorted(set(args) - set(allowed))
    if unknown:
        raise FormatError(f"{where}.{name}.{unknown[0]}: cannot be mapped to an autobench evaluator option (mapped: {', '.join(allowed)})")
    return dict(args)


def evaluator_from(spec: Any, where: str, judge_engine: Optional[str]) -> Any:
    """One Pydantic Evals evaluator spec as an autobench evaluator entry."""
    name, args = _spec_parts(spec, where)
    label = {}
    if name == "EqualsExpected":
        kw = _kwargs(name, args, None, ("evaluation_name",), where)
        return {"equals-expected": {"label": kw["evaluation_name"]}} if kw.get("evaluation_name") else "equals-expected"
    if name == "Contains":
        kw = _kwargs(name, args, "value", ("value", "case_sensitive", "as_strings", "evaluation_name"), where)
        if kw.get("as_strings"):
            raise FormatError(f"{where}.Contains.as_strings: autobench's contains compares values, it never converts them to strings")
        if "value" not in kw:
            raise FormatError(f"{where}.Contains.value: required")
        label = {"label": kw["evaluation_name"]} if kw.get("evaluation_name") else {}
        return {"contains": {"value": kw["value"], **({"case_sensitive": kw["case_sensitive"]} if "case_sensitive" in kw else {}), **label}}
    if name == "IsInstance":
        kw = _kwargs(name, args, "type_name", ("type_name", "evaluation_name"), where)
        type_name = kw.get("type_name")
        if type_name not in _PE_TYPES:
            raise FormatError(
                f"{where}.IsInstance.type_name: {type_name!r} cannot be mapped (autobench checks JSON types: {', '.join(_PE_TYPES)})"
            )
        label = {"label": kw["evaluation_name"]} if kw.get("evaluation_name") else {}
        return {"is-instance": {"type": _PE_TYPES[type_name], **label}}
    if name == "MaxDuration":
        kw = _kwargs(name, args, "seconds", ("seconds",), where)
        seconds = kw.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise FormatError(f"{where}.MaxDuration.seconds: a number of seconds is mapped, got {seconds!r}")
        return {"max-duration": {"seconds": seconds}}
    if name == "LLMJudge":
        allowed = ("rubric", "model", "include_input", "include_expected_output", "score", "assertion")
        kw = _kwargs(name, args, "rubric", allowed, where)
        if kw.get("score") not in (None, False):
            raise FormatError(
                f"{where}.LLMJudge.score: autobench's llm-judge records its score with the assertion; a separate score output cannot be mapped"
            )
        assertion = kw.get("assertion")
        if assertion not in (None, _LLM_DEFAULT_ASSERTION) and not (
            isinstance(assertion, dict)
            and set(assertion) <= {"include_reason", "evaluation_name"}
            and assertion.get("include_reason", True)
        ):
            raise FormatError(
                f"{where}.LLMJudge.assertion: only the default assertion (with its reason, optionally an evaluation_name) can be mapped"
            )
        model = kw.get("model")
        if isinstance(model, str) and ":" in model:
            raise FormatError(
                f"{where}.LLMJudge.model: {model!r} names a Pydantic AI provider; autobench judges through an engine "
                "(benchmark dataset.judge_engine) -- give a plain model name served by it, or none"
            )
        if not judge_engine:
            raise FormatError(f"{where}.LLMJudge: autobench's llm-judge needs an engine; set dataset.judge_engine in the benchmark")
        label = {"label": assertion["evaluation_name"]} if isinstance(assertion, dict) and assertion.get("evaluation_name") else {}
        return {
            "llm-judge": {
                "rubric": kw.get("rubric"),
                "engine": judge_engine,
                **({"model": model} if model else {}),
                "include_input": bool(kw.get("include_input", False)),
                "include_expected": bool(kw.get("include_expected_output", False)),
                **label,
            }
        }
    raise FormatError(f"{where}: evaluator {name!r} cannot be mapped (mapped: EqualsExpected, Contains, IsInstance, MaxDuration, LLMJudge)")


class Imported:
    """A Pydantic Evals file as an autobench dataset and evaluator entries."""

    def __init__(self, dataset: files.DatasetBody, evaluators: list[Any], case_evaluators: dict[str, list[Any]]) -> None:
        self.dataset, self.evaluators, self.case_evaluators = dataset, evaluators, case_evaluators


def read(path: str | Path, *, version: str, judge_engine: Optional[str] = None, raw: Any = None) -> Imported:
    """Read a Pydantic Evals dataset file (YAML or JSON, through the safe loader) as an
    `imported` dataset of `version` (the file has none), its content sha256 computed."""
    path = Path(path)
    if raw is None:
        try:
            raw, _ = yamlio.read_yaml(path)
        except yamlio.YamlError as exc:
            raise FormatError(str(exc)) from None
    if not looks_like(raw):
        raise FormatError(f"{path}: not a Pydantic Evals dataset (no top-level `cases`)")
    unknown = sorted(set(raw) - set(_DATASET_KEYS))
    if unknown:
        raise FormatError(f"{path}: {unknown[0]}: not a Pydantic Evals dataset field")
    if raw.get("report_evaluators"):
        raise FormatError(f"{path}: report_evaluators: report evaluators cannot be mapped (autobench summarizes per variant itself)")
    if not isinstance(raw["cases"], list):
        raise FormatError(f"{path}: cases: a list is expected")
    shared = [evaluator_from(s, f"{path}: evaluators.{i}", judge_engine) for i, s in enumerate(raw.get("evaluators") or [])]
    cases, own = [], {}
    for i, item in enumerate(raw["cases"]):
        where = f"{path}: cases.{i}"
        if not isinstance(item, dict):
            raise FormatError(f"{where}: a case is a mapping")
        case = case_from(item, where)
        cases.append(case)
        entries = [evaluator_from(s, f"{where}.evaluators.{j}", judge_engine) for j, s in enumerate(item.get("evaluators") or [])]
        if entries:
            own[case["id"]] = entries
    name = raw.get("name") if isinstance(raw.get("name"), str) and raw.get("name") else path.stem
    body = {
        "id": name,
        "version": version,
        "sha256": "0" * 64,
        "source": "imported",
        "imported_from": {
            "format": FORMAT,
            "file": str(path),
            "file_sha256": sha256_bytes(yamlio.read_bytes(path)),
            "name": raw.get("name"),
        },
        "cases": cases,
    }
    try:
        draft = files.DatasetBody.model_validate(body)
        body = draft.model_dump(mode="json")
        body["sha256"] = files.dataset_sha256(body)
        dataset = files.DatasetBody.model_validate(body)
    except ValidationError as exc:
        raise FormatError(f"{path}: cannot be read as an autobench dataset:\n{files.describe(exc)}") from None
    return Imported(dataset, shared, own)


def evaluator_to(entry: Any, where: str) -> Any:
    """One autobench evaluator entry as a Pydantic Evals evaluator spec."""
    cls, options = _parts(entry)
    name = _name(entry)
    label = {"evaluation_name": options.label} if options.label else {}
    if name == "equals-expected":
        return {"EqualsExpected": label} if label else "EqualsExpected"
    if name == "contains":
        return {"Contains": {"value": options.value, "case_sensitive": options.case_sensitive, **label}}
    if name == "is-instance":
        return {"IsInstance": {"type_name": _AB_TYPES[options.type], **label}}
    if name == "max-duration":
        if options.label:
            raise FormatError(f"{where}.label: Pydantic Evals' MaxDuration has no evaluation_name")
        return {"MaxDuration": {"seconds": options.seconds}}
    if name == "llm-judge":
        spec: dict[str, Any] = {
            "rubric": options.rubric,
            "include_input": options.include_input,
            "include_expected_output": options.include_expected,
        }
        if options.model:
            spec["model"] = options.model
        if options.label:
            spec["assertion"] = {"include_reason": True, "evaluation_name": options.label}
        return {"LLMJudge": spec}
    raise FormatError(
        f"{where}: evaluator {cls.name!r} has no Pydantic Evals equivalent (exported: equals-expected, contains, is-instance, max-duration, llm-judge)"
    )


def export(
    dataset: files.DatasetBody,
    evaluators: Sequence[Any] = (),
    case_evaluators: Mapping[str, Sequence[Any]] | None = None,
    where: str = "benchmark",
) -> dict[str, Any]:
    """A dataset (and evaluator entries) as a Pydantic Evals dataset mapping. The dataset's
    own id, version and sha256 go into each case's metadata under `autobench`."""
    case_evaluators = case_evaluators or {}
    cases = []
    for case in dataset.cases:
        data = case.model_dump(mode="json")
        if "autobench" in data["metadata"]:
            raise FormatError(f"dataset {dataset.id}: case {case.id!r}: metadata key 'autobench' is reserved by the export")
        metadata = {**data["metadata"], "autobench": {"dataset": dataset.id, "version": dataset.version, "dataset_sha256": dataset.sha256}}
        out: dict[str, Any] = {"name": case.id, "inputs": data["input"], "metadata": metadata, "expected_output": data["expected"]}
        own = case_evaluators.get(case.id) or ()
        if own:
            out["evaluators"] = [evaluator_to(e, f"{where}.case_evaluators.{case.id}.{i}") for i, e in enumerate(own)]
        cases.append(out)
    document: dict[str, Any] = {"name": dataset.id, "cases": cases}
    if evaluators:
        document["evaluators"] = [evaluator_to(e, f"{where}.evaluators.{i}") for i, e in enumerate(evaluators)]
    return document


def export_bytes(document: Mapping[str, Any], path: Path) -> bytes:
    """JSON for a .json path, else YAML (no $schema line: Pydantic Evals' own schema is not ours)."""
    if path.suffix.lower() == ".json":
        return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return files.dump_yaml(dict(document))


def seed_case(raw: Mapping[str, Any], where: str = "seed case") -> Case:
    """A seed case given in Pydantic Evals' shape; its evaluators cannot be mapped (a seed
    case is an example for the generator, not a judged case)."""
    if raw.get("evaluators"):
        raise FormatError(f"{where}.evaluators: a seed case's evaluators cannot be mapped")
    return Case.model_validate(case_from(raw, where))
