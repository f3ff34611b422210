"""Evaluators: how a benchmark cell is judged, beyond equality with `expected`.

    benchmark:
      routing:
        ...
        evaluators:                          # every case
          - equals-expected                  # a bare name: no options
          - contains: billing                # a scalar sets the evaluator's main option
          - is-instance: {type: dict}
          - json-schema: {schema: {type: object, required: [route]}}
          - max-duration: 0.5                # seconds the task may take
          - python: my_checks:route_ok       # fn(case, output, duration_s)
          - llm-judge: {rubric: "...", engine: sim-strong, label: polite}
        case_evaluators:                     # more, for one case id
          reviewed-refund: [{contains: {value: refund, case_sensitive: false}}]

One registry (`REGISTRY`, name -> class); each class declares its pydantic `Options`
(every one takes `label`, the name its result is recorded under) and
`evaluate(case, output, duration_s) -> EvaluatorResult(score, reason)`, where a bool
score is an assertion (pass/fail) and a float a score. `EvaluatorSpec` is the YAML
entry type the benchmark document validates with (its JSON Schema lists every
evaluator's options). `build` turns the entries into evaluators and checks what pydantic
cannot (imports, JSON Schemas, engines), naming the YAML field; `open` starts what they
need for a run (the LLM judge's engine and client, through `evals/send.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Callable, ClassVar, Generic, Literal, Mapping, Optional, Sequence, TypeVar, Union

import jsonschema
import orjson
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue, PlainValidator, ValidationError, create_model
from pydantic_core import PydanticCustomError

from atlas_assets.core.errors import AtlasError, validation_messages
from autobench.models import Case

__all__ = [
    "EvaluatorConfigError",
    "EvaluatorResult",
    "Evaluator",
    "EvaluatorSpec",
    "REGISTRY",
    "RESERVED_NAMES",
    "build",
    "check_names",
    "evaluate_all",
    "open_all",
    "spec_json",
]

JUDGE_MARKER = "[atlas-simulator:judge]"  # understood by the reference simulator only
REASON_LIMIT = 1000
RESERVED_NAMES = ("passed", "task")  # the cell's own verdict and a task's own passed/score


class EvaluatorConfigError(AtlasError, ValueError):
    """An evaluator entry that cannot run; the message names the YAML field."""


@dataclass(frozen=True)
class EvaluatorResult:
    """`score`: a bool is an assertion, a float a score. `error`: the evaluator itself
    failed (raised, returned garbage, the judge did not answer); scored as a fail."""

    score: bool | float
    reason: str = ""
    error: bool = False
    details: dict[str, Any] = field(default_factory=dict)


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    label: Optional[str] = Field(
        default=None, min_length=1, description="The name the result is recorded under (default: the evaluator's)."
    )


OptionsT = TypeVar("OptionsT", bound=Options)


class Evaluator(Generic[OptionsT]):
    """An evaluator reading its own options model (`OptionsT`, registered as `Options`)."""

    name: ClassVar[str]
    Options: ClassVar[type[Options]] = Options
    shorthand: ClassVar[Optional[str]] = None  # the option a scalar entry sets: `contains: billing`

    def __init__(self, options: OptionsT, where: str, base: Path) -> None:
        self.options = options
        self.where = where
        self.label = options.label or self.name

    async def open(self, stack: contextlib.AsyncExitStack, concurrency: int) -> None:
        """Start what evaluating needs for a run (once, before the first cell)."""

    def evaluate(self, case: Case, output: Any, duration_s: float) -> EvaluatorResult:
        raise NotImplementedError

    async def aevaluate(self, case: Case, output: Any, duration_s: float) -> EvaluatorResult:
        return self.evaluate(case, output, duration_s)


REGISTRY: dict[str, type[Evaluator[Any]]] = {}


def register(
    name: str, options: type[Options] = Options, shorthand: str | None = None
) -> Callable[[type[Evaluator[Any]]], type[Evaluator[Any]]]:
    """Register an evaluator class under its YAML name, with its options model and the
    option a scalar entry sets (`contains: billing` is `contains: {value: billing}`)."""

    def add(cls: type[Evaluator[Any]]) -> type[Evaluator[Any]]:
        cls.name, cls.Options, cls.shorthand = name, options, shorthand
        REGISTRY[name] = cls
        return cls

    return add


def _show(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, sort_keys=True, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the evaluators ----------------------------------------------------------------------


@register("equals-expected")
class EqualsExpected(Evaluator[Options]):
    def evaluate(self, case: Case, output: Any, duration_s: float) -> EvaluatorResult:
        if output == case.expected:
            return EvaluatorResult(True, "output equals expected")
        return EvaluatorResult(False, f"output {_show(output)} != expected {_show(case.expected)}")


class ContainsOptions(Options):
    value: JsonValue = Field(description="A substring (string output), an element (list), a key or sub-mapping (mapping).")
    case_sensitive: bool = True


@register("contains", ContainsOptions, shorthand="value")
class Contains(Evaluator[ContainsOptions]):
    def _fold(self, value: Any) -> Any:
        return value if self.options.case_sensitive or not isinstance(value, str) else value.casefold()

    def evaluate(self, case: Case, output: Any, duration_s: float) -> EvaluatorResult:
        value = self.options.value
        if isinstance(output, str):
            if not isinstance(value, str):
                return EvaluatorResult(False, f"output is a string; {_show(value)} is not")
            found = self._fold(value) in self._fold(output)
        elif isinstance(output, list):
            found = self._fold(value) in [self._fold(item) for item in output]
        elif isinstance(output, dict):
            if isinstance(value, dict):
                missing = [k for k, v in value.items() if k not in output or output[k] != v]
                found = not missing
            else:
                found = self._fold(value) in [self._fold(k) for k in output]
        else:
            return EvaluatorResult(False, f"output is {type(output).__name__}; contains needs a string, list or mapping")
        return EvaluatorResult(found, f"output {'contains' if found else 'does not contain'} {_show(value)}")


_TYPES: dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, float),
    "bool": lambda v: isinstance(v, bool),
    "list": lambda v: isinstance(v, list | tuple),
    "dict": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


class IsInstanceOptions(Options):
    type: Literal["str", "int", "float", "bool", "list", "dict", "null"]


@register("is-instance", IsInstanceOptions, shorthand="type")
class IsInstance(Evaluator[IsInstanceOptions]):
    def evaluate(self, case: Case, output: Any, duration_s: float) -> EvaluatorResult:
        ok = _TYPES[self.options.type](output)
        return EvaluatorResult(ok, f"output is {type(output).__name__}{'' if ok else ', not ' + self.options.type}")


class JsonSchemaOptions(Options):
    schema_: dict[str, JsonValue] = Field(alias="schema", description="A JSON Schema the output must satisfy.")
    parse_json: bool = Field(default=False, description="Parse a string output as JSON first.")


@register("json-schema", JsonSchemaOptions, shorthand="schema_")
class JsonSchemaMatch(Evaluator[JsonSchemaOptions]):
    def __init__(self, options: JsonSchemaOptions, where: str, base: Path) -> None:
        super().__init__(options, where, base)
        schema = self.options.schema_
        cls = jsonschema.validators.validator_for(schema)
        try:
            cls.check_schema(schema)
        except jsonschema.SchemaError as exc:
            raise EvaluatorConfigError(f"{where}.schema: not a valid JSON Schema: {exc.message}") from None
        self.validator = cls(schema)

    def evaluate(self, case: Case, output: Any, duration_s: float) -> EvaluatorResult:
        if self.options.parse_json and isinstance(output, str):
            try:
                output = json.loads(output)
            except ValueError as exc:
                return EvaluatorResult(False, f"output is not JSON: {exc}")
        error = jsonschema.exceptions.best_match(self.validator.iter_errors(output))
        if error is None:
            return EvaluatorResult(True, "output matches the schema")
        at = "/".join(map(str, error.absolute_path)) or "(output)"
        return EvaluatorResult(False, f"{at}: {error.message}")


class MaxDurationOptions(Options):
    seconds: float = Field(gt=0, description="The most the task may take, in seconds.")


@register("max-duration", MaxDurationOptions, shorthand="seconds")
class MaxDuration(Evaluator[MaxDurationOptions]):
    def evaluate(self, case: Case, output: Any, duration_s: float) -> EvaluatorResult:
        ok = duration_s <= self.options.seconds
        return EvaluatorResult(ok, f"took {duration_s:.3f} s ({'within' if ok else 'over'} {self.options.seconds:g} s)")


class PythonOptions(Options):
    function: str = Field(
        pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$", description="module:function, called as function(case, output, duration_s)."
    )


def coerce_result(value: Any) -> EvaluatorResult:
    """What a python evaluator returned as a result: a bool, a finite number, (score,
    reason) or an EvaluatorResult; anything else is an error result saying what came back."""
    if isinstance(value, EvaluatorResult):  # its score and reason are checked like a tuple's
        checked = coerce_result((value.score, value.reason))
        return checked if checked.error else EvaluatorResult(checked.score, value.reason, value.error, dict(value.details))
    reason = ""
    if isinstance(value, tuple | list) and len(value) == 2 and isinstance(value[1], str):
        value, reason = value
    if type(value).__module__ == "numpy" and callable(getattr(value, "item", None)) and getattr(value, "ndim", 1) == 0:
        value = value.item()  # a numpy bool or number (numpy.bool_ is no bool)
    if isinstance(value, bool):
        return EvaluatorResult(value, reason or f"returned {value}")
    if isinstance(value, int | float) and math.isfinite(value):
        return EvaluatorResult(float(value), reason or f"returned {value:g}")
    return EvaluatorResult(
        False, f"returned {_show(value)} ({type(value).__name__}); expected a bool, a number or (score, reason)", error=True
    )


@register("python", PythonOptions, shorthand="function")
class PythonEvaluator(Evaluator[PythonOptions]):
    def __init__(self, options: PythonOptions, where: str, base: Path) -> None:
        super().__init__(options, where, base)
        from autobench.cli import load_callable

        try:
            self.fn = load_callable(self.options.function, search=(base,))
        except Exception as exc:  # noqa: BLE001 - any import problem is a configuration error
            raise EvaluatorConfigError(f"{where}.function: cannot load {self.options.function}: {type(exc).__name__}: {exc}") from None

    async def aevaluate(self, case: Case, output: Any, duration_s: float) -> EvaluatorResult:
        if inspect.iscoroutinefunction(self.fn):
            value = await self.fn(case, output, duration_s)
        else:
            value = await asyncio.to_thread(self.fn, case, output, duration_s)
            value = await value if inspect.isawaitable(value) else value
        return coerce_result(value)


JUDGE_TEMPLATE = (
    """You grade one output of a system under test against a rubric.
Answer with one JSON object and nothing else:
{{"pass": <true or false>, "score": <a number from 0 to 1>, "reason": "<one sentence>"}}
Rubric:
{rubric}
"""
    + JUDGE_MARKER
)


class JudgeOptions(Options):
    rubric: str = Field(min_length=1, description="What a passing output does.")
    engine: str = Field(min_length=1, description="An engine name from engines.yaml, or an OpenAI-compatible base URL.")
    model: Optional[str] = Field(default=None, description="Default: the engine's, else the only model the server lists.")
    include_input: bool = True
    include_expected: bool = True
    max_tokens: int = Field(default=512, ge=1)
    timeout_s: float = Field(default=120, gt=0)


@dataclass(frozen=True)
class _Ask:
    data: bytes
    request_id: None = None


def parse_verdict(content: str | None) -> tuple[bool, Optional[float], str] | None:
    """(pass, score, reason) from a judge's reply (the first JSON object in it), else None."""
    match = re.search(r"\{.*\}", content or "", re.S)
    try:
        data = json.loads(match.group(0)) if match else None
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("pass"), bool):
        return None
    score = data.get("score")
    score = float(score) if isinstance(score, int | float) and not isinstance(score, bool) and math.isfinite(score) else None
    return data["pass"], score, str(data.get("reason") or "")


def _block(tag: str, value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return f"<{tag}>\n{text}\n</{tag}>"


@register("llm-judge", JudgeOptions)
class LLMJudge(Evaluator[JudgeOptions]):
    """Asks an engine (temperature 0) whether the output meets the rubric; records the
    sha256 of the exact system prompt (template + rubric) and the model that answered."""

    def __init__(self, options: JudgeOptions, where: str, base: Path) -> None:
        super().__init__(options, where, base)
        from atlas_assets.evals.config import ConfigError
        from atlas_assets.evals.engines import resolve_engine

        try:
            engine = resolve_engine(self.options.engine, model=self.options.model)
        except (ConfigError, OSError, ValueError) as exc:
            raise EvaluatorConfigError(f"{where}.engine: {exc}") from None
        self.engine = engine.model_copy(update={"timeout_s": self.options.timeout_s})
        self.system = JUDGE_TEMPLATE.format(rubric=self.options.rubric)
        self.prompt_sha256 = hashlib.sha256(self.system.encode("utf-8")).hexdigest()
        self.connected: Any = None

    async def open(self, stack: contextlib.AsyncExitStack, concurrency: int) -> None:
        from atlas_assets.evals.send import connect, serve

        try:
            base_url = stack.enter_context(serve(self.engine))
            self.connected = await stack.enter_async_context(connect(self.engine, base_url, concurrency))
        except Exception as exc:  # noqa: BLE001 - an engine that cannot start or answer refuses the run
            raise EvaluatorConfigError(f"{self.where}.engine: cannot reach {self.options.engine}: {type(exc).__name__}: {exc}") from None

    def _user(self, case: Case, output: Any) -> str:
        parts = ([_block("input", case.input)] if self.options.include_input else []) + (
            [_block("expected", case.expected)] if self.options.include_expected else []
        )
        return "\n".join([*parts, _block("output", output)])

    async def aevaluate(self, case: Case, output: Any, duration_s: float) -> EvaluatorResult:
        from atlas_assets.evals.send import send_all

        connected = self.connected
        details = {"judge": {"prompt_sha256": self.prompt_sha256, "model": connected.model, "engine": self.options.engine}}
        body = {
            "model": connected.model,
            "messages": [{"role": "system", "content": self.system}, {"role": "user", "content": self._user(case, output)}],
            "temperature": 0,
            "max_tokens": self.options.max_tokens,
            "stream": False,
        }
        answers: list[Any] = []

        async def finish(ask: _Ask, completion: Any) -> None:
            answers.append(completion)

        await send_all(connected.client, [_Ask(orjson.dumps(body))], finish, concurrency=1)
        completion = answers[0]
        if completion.error:
            return EvaluatorResult(False, f"judge request failed: {completion.error}", error=True, details=details)
        verdict = parse_verdict(completion.content)
        if verdict is None:
            return EvaluatorResult(
                False, f"judge verdict not understood: {_show(completion.content or '', 200)}", error=True, details=details
            )
        passed, score, reason = verdict
        details["judge"]["score"] = score
        return EvaluatorResult(passed, reason or ("pass" if passed else "fail"), details=details)


# --- the YAML entry type -------------------------------------------------------------------


def _entry(cls: type[Evaluator[Any]]) -> type[BaseModel]:
    """`{<name>: <options>}` (or `{<name>: <scalar>}` for the evaluator's shorthand option)."""
    options: Any = cls.Options
    if cls.shorthand:
        short = cls.Options.model_fields[cls.shorthand]
        key = short.alias or cls.shorthand
        options = Annotated[
            cls.Options,
            BeforeValidator(
                lambda v, key=key: v if isinstance(v, dict) else {key: v}, json_schema_input_type=Union[cls.Options, short.annotation]
            ),
        ]
    title = "".join(part.capitalize() for part in cls.name.split("-")) + "Entry"
    return create_model(title, __config__=ConfigDict(extra="forbid", frozen=True), options=(options, Field(alias=cls.name)))


_ENTRIES: dict[str, type[BaseModel]] = {name: _entry(cls) for name, cls in REGISTRY.items()}
_BARE = tuple(name for name, cls in REGISTRY.items() if not any(f.is_required() for f in cls.Options.model_fields.values()))


def _validate_entry(value: Any) -> Any:
    """A bare name or a one-key mapping {name: options}; errors say which option is wrong."""
    if isinstance(value, BaseModel) and type(value) in _ENTRIES.values():
        return value
    if isinstance(value, str) and value in _BARE:
        return value
    if isinstance(value, str) and value in REGISTRY:
        raise PydanticCustomError("evaluator", "{evaluator} needs options, as {evaluator}: {...}", {"evaluator": value})
    if not (isinstance(value, dict) and len(value) == 1 and next(iter(value)) in REGISTRY):
        raise PydanticCustomError(
            "evaluator",
            "expected an evaluator name or a one-key mapping {name: options}, got {got}; evaluators: {names}",
            {"got": _show(value, 60), "names": ", ".join(REGISTRY)},
        )
    name = next(iter(value))
    try:
        return _ENTRIES[name].model_validate(value)
    except ValidationError as exc:
        detail = "; ".join(f"{field}: {message}" for field, message in validation_messages(exc))
        raise PydanticCustomError("evaluator", "{detail}", {"detail": detail}) from None


EvaluatorSpec = Annotated[
    Any,
    PlainValidator(_validate_entry, json_schema_input_type=Union[(Literal[_BARE], *_ENTRIES.values())]),
]


def _name(entry: Any) -> str:
    return entry if isinstance(entry, str) else next(name for name, model in _ENTRIES.items() if isinstance(entry, model))


def _parts(entry: Any) -> tuple[type[Evaluator[Any]], Any]:  # Any: the options class follows from the name
    cls = REGISTRY[_name(entry)]
    return cls, (cls.Options() if isinstance(entry, str) else entry.options)


def spec_json(entries: Sequence[Any]) -> list[Any]:
    """The entries as JSON without their defaults (what a cell's `evaluators_sha256` digests:
    `contains: x` and `contains: {value: x, case_sensitive: true}` are one evaluator, and a
    bare name is `{name: {}}`)."""
    return [{e: {}} if isinstance(e, str) else e.model_dump(mode="json", by_alias=True, exclude_defaults=True) for e in entries]


def build(entries: Sequence[Any], where: str, base: Path) -> list[Evaluator[Any]]:
    """The evaluators of validated YAML entries (`where`: their YAML path, for errors)."""
    out: list[Evaluator[Any]] = []
    for i, entry in enumerate(entries):
        cls, options = _parts(entry)
        out.append(cls(options, f"{where}.{i}.{cls.name}", base))
    check_names(out, where)
    return out


def check_names(evaluators: Sequence[Evaluator[Any]], where: str) -> None:
    """Results are recorded by name: one name per evaluator of a case, none reserved."""
    labels = [e.label for e in evaluators]
    for label in labels:
        if label in RESERVED_NAMES:
            raise EvaluatorConfigError(f"{where}: the evaluator name {label!r} is reserved; give it another label")
        if labels.count(label) > 1:
            raise EvaluatorConfigError(f"{where}: two evaluators named {label!r}; give one a `label`")


async def open_all(evaluators: Sequence[Evaluator[Any]], stack: contextlib.AsyncExitStack, concurrency: int) -> None:
    for evaluator in evaluators:
        await evaluator.open(stack, concurrency)


def record(evaluator_name: str, label: str, result: EvaluatorResult) -> dict[str, Any]:
    reason = result.reason if len(result.reason) <= REASON_LIMIT else result.reason[: REASON_LIMIT - 1] + "…"
    row = {"name": label, "evaluator": evaluator_name, "score": result.score, "reason": reason}
    return {**result.details, **row, **({"error": True} if result.error else {})}  # details never overwrite the result


async def evaluate_all(
    evaluators: Sequence[Evaluator[Any]], case: Case, output: Any, duration_s: float, task_error: str | None
) -> list[dict[str, Any]]:
    """Every evaluator's record for one cell; one that raises is recorded as an error (its
    reason the exception), and a cell whose task raised is not evaluated (each an error)."""
    records = []
    for evaluator in evaluators:
        if task_error is not None:
            result = EvaluatorResult(False, f"not evaluated: the task raised {task_error}", error=True)
        else:
            try:
                result = await evaluator.aevaluate(case, output, duration_s)
            except Exception as exc:  # noqa: BLE001 - a failing evaluator is a result
                result = EvaluatorResult(False, f"{type(exc).__name__}: {exc}", error=True)
        records.append(record(evaluator.name, evaluator.label, result))
    return records


def cell_verdict(records: Sequence[Mapping[str, Any]]) -> tuple[bool, float]:
    """A cell's (passed, score) from its evaluator records: passed when every assertion
    passed (and none errored); score the mean of all scores (an assertion as 1/0)."""
    passed = all(bool(r["score"]) and not r.get("error") for r in records if isinstance(r["score"], bool) or r.get("error"))
    score = sum(float(r["score"]) for r in records) / len(records) if records else 0.0
    return passed, score
