"""Simulator profiles: how a simulated model answers, how fast, and how often it fails.

A profile is a `SimulatorProfile` (pydantic; unknown fields are rejected so a typo in an
engines file is an error, not a silently ignored knob). It comes from one of:

* a built-in preset, by name (`PRESETS`, listed by `atlas sim profiles`);
* a `simulator:` block of an engine in engines.yaml (`SimulatorProfile.from_block`): the
  block's fields, optionally starting from `preset: NAME` and overriding some fields;
  `name` defaults to the engine's name and `model` to the engine's model (else the name);
* a JSON or YAML file holding one profile (`atlas sim serve --profile path/to/p.yaml`).

`resolve_profile(spec, engines_file)` tries those in that order.

Fields (rates are probabilities in [0, 1]; every random decision is deterministic, see
atlas_assets/simulator/replies.py):

  name, model        the profile's name and the model id the server reports and accepts
  seed               seeds every decision (same seed + same requests = same responses)
  skill              {easy, medium, hard}: probability of answering a row correctly, by the
                     row's difficulty (rows without one count as medium)
  think_rate         share of replies with a reasoning block; it is sent as
                     `reasoning_content` when `reasoning_content` is true (a server with a
                     reasoning parser), else inline as <think>...</think> in the content
  final_answer_rate  share of short answers given as prose ending in a "Final answer: X" line
  fence_rate         share of replies wrapped in a markdown code fence
  malformed_rate     share of replies that are malformed: cut off inside the reasoning (no
                     answer at all, finish_reason "length") or, for tool rows, a tool call
                     whose arguments are not valid JSON. Scored as a wrong answer.
  ttft_ms            time to first token
  per_token_ms       delay between streamed tokens (a token is ~4 characters)
  error_5xx          rate of HTTP 500/503 answers (half each)
  timeout            rate of requests that hang (no byte sent) for `hang_s` seconds, past
                     any sane client timeout; the server lets go when the client disconnects
  hang_s             how long such a request hangs before it is answered after all
  rate_limit_429     rate of HTTP 429 answers carrying `Retry-After: retry_after_s`
  retry_after_s      the Retry-After value (also sent in milliseconds as `retry-after-ms`)
  drop               rate of connections closed mid-response (half the SSE chunks, or half
                     the JSON body, then the socket is closed)
  splice_rate        rate of token splices (corpus/splice/) in generations of at least
                     `splice_min_tokens` tokens: one identifier welded from two fragments
  splice_min_tokens  how long a generation must be to be exposed to splices
  text_only          drop image parts from requests: vision rows are answered blind (wrong)
  max_context        prompts of more tokens get HTTP 400 `context_length_exceeded`
  output_tokens      length of a generic reply (prompt-set rows and unidentified prompts)
                     when the request sets no max_tokens

The four failure rates (error_5xx, timeout, rate_limit_429, drop) are drawn from one
uniform number per attempt, so they must add up to at most 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from atlas_assets.core.errors import AtlasError, validation_messages

__all__ = [
    "PRESETS",
    "ProfileError",
    "SimulatorProfile",
    "Skill",
    "load_engine_profiles",
    "resolve_profile",
]

Rate = Field(default=0.0, ge=0.0, le=1.0)


class ProfileError(AtlasError, ValueError):
    """A profile name, file or engines-file block that cannot be used."""


class Skill(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    easy: float = Field(default=0.9, ge=0.0, le=1.0)
    medium: float = Field(default=0.7, ge=0.0, le=1.0)
    hard: float = Field(default=0.5, ge=0.0, le=1.0)

    def of(self, difficulty: str | None) -> float:
        if difficulty == "easy":
            return self.easy
        if difficulty == "hard":
            return self.hard
        return self.medium


class SimulatorProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    model: str = Field(default="", min_length=1)
    seed: int = 0
    skill: Skill = Skill()
    think_rate: float = Rate
    reasoning_content: bool = False
    final_answer_rate: float = Rate
    fence_rate: float = Rate
    malformed_rate: float = Rate
    ttft_ms: float = Field(default=0.0, ge=0.0)
    per_token_ms: float = Field(default=0.0, ge=0.0)
    error_5xx: float = Rate
    timeout: float = Rate
    hang_s: float = Field(default=600.0, gt=0.0)
    rate_limit_429: float = Rate
    retry_after_s: float = Field(default=1.0, ge=0.0)
    drop: float = Rate
    splice_rate: float = Rate
    splice_min_tokens: int = Field(default=1000, ge=1)
    text_only: bool = False
    max_context: int = Field(default=131072, ge=1)
    output_tokens: int = Field(default=256, ge=1)

    @model_validator(mode="before")
    @classmethod
    def _model_defaults_to_name(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and not data.get("model") and data.get("name"):
            return {**data, "model": data["name"]}
        return data

    @model_validator(mode="after")
    def _rates_fit(self) -> "SimulatorProfile":
        total = self.failure_rate
        if total > 1.0 + 1e-9:
            raise ValueError(f"error_5xx + timeout + rate_limit_429 + drop = {total:g}, more than 1")
        return self

    @property
    def failure_rate(self) -> float:
        return self.error_5xx + self.timeout + self.rate_limit_429 + self.drop

    @property
    def zero_latency(self) -> bool:
        return self.ttft_ms == 0 and self.per_token_ms == 0

    @classmethod
    def from_block(cls, block: Mapping[str, Any], *, name: str | None = None, model: str | None = None) -> "SimulatorProfile":
        """A profile from an engines-file `simulator:` block. `preset: NAME` starts from a
        preset; the block's other fields override it; `name`/`model` fill in what the block
        leaves out (the engine's name and model)."""
        fields = dict(block)
        base: dict[str, Any] = {}
        preset = fields.pop("preset", None)
        if preset is not None:
            if preset not in PRESETS:
                raise ProfileError(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
            base = PRESETS[preset].model_dump()
            base.pop("model")  # the preset's model id follows its name unless set again
        if "skill" in fields and isinstance(fields["skill"], Mapping) and "skill" in base:
            fields["skill"] = {**base["skill"], **fields["skill"]}
        merged = {**base, **fields}
        if name is not None and "name" not in fields:
            merged["name"] = name
        if model is not None and "model" not in fields:
            merged["model"] = model
        return cls.model_validate(merged)


def _preset(**fields: Any) -> SimulatorProfile:
    return SimulatorProfile.model_validate(fields)


PRESETS: dict[str, SimulatorProfile] = {
    profile.name: profile
    for profile in (
        # A capable reasoning model behind a server with a reasoning parser.
        _preset(
            name="sim-strong",
            seed=1,
            skill={"easy": 0.97, "medium": 0.9, "hard": 0.75},
            think_rate=0.5,
            reasoning_content=True,
            final_answer_rate=0.3,
            fence_rate=0.1,
            malformed_rate=0.01,
            ttft_ms=25,
            per_token_ms=4,
            max_context=200_000,
        ),
        # A small model: inline <think> blocks, chattier formatting, more format slips,
        # a 32k context (the long-context rows overflow it).
        _preset(
            name="sim-weak",
            seed=2,
            skill={"easy": 0.7, "medium": 0.45, "hard": 0.2},
            think_rate=0.3,
            final_answer_rate=0.5,
            fence_rate=0.2,
            malformed_rate=0.05,
            ttft_ms=60,
            per_token_ms=8,
            max_context=32_768,
        ),
        # An unreliable deployment: every failure mode at a few per cent, and splices in
        # long generations (a serving defect).
        _preset(
            name="sim-flaky",
            seed=3,
            skill={"easy": 0.9, "medium": 0.75, "hard": 0.55},
            think_rate=0.2,
            final_answer_rate=0.3,
            fence_rate=0.1,
            malformed_rate=0.02,
            ttft_ms=30,
            per_token_ms=4,
            error_5xx=0.04,
            timeout=0.01,
            rate_limit_429=0.05,
            retry_after_s=1.0,
            drop=0.03,
            splice_rate=0.3,
        ),
        # A text-only model behind an engine that silently drops image parts.
        _preset(
            name="sim-text-only",
            seed=4,
            skill={"easy": 0.95, "medium": 0.85, "hard": 0.7},
            final_answer_rate=0.2,
            fence_rate=0.05,
            ttft_ms=25,
            per_token_ms=4,
            text_only=True,
        ),
        # For harness-overhead benchmarks: no latency, no failures, no wrappers.
        _preset(
            name="sim-zero-latency",
            seed=5,
            skill={"easy": 0.97, "medium": 0.9, "hard": 0.75},
            max_context=1_000_000,
        ),
    )
}


def _read_structured(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return json.loads(text)
    import yaml  # PyYAML comes with Dagster

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:  # callers report ValueErrors as ProfileError
        raise ValueError(f"not valid YAML: {exc}") from None


def load_engine_profiles(engines_file: str | Path) -> dict[str, SimulatorProfile]:
    """Every engine with a `simulator:` block in an engines file, by engine name.

    Accepted shapes: `engines: {NAME: {...}}`, `engines: [{name: NAME, ...}]`, or the
    name -> engine mapping at the top level.
    """
    path = Path(engines_file)
    try:
        document = _read_structured(path)
    except (OSError, ValueError) as exc:
        raise ProfileError(f"{path}: cannot read: {exc}") from None
    engines = document.get("engines", document) if isinstance(document, Mapping) else None
    if isinstance(engines, list):
        engines = {e.get("name"): e for e in engines if isinstance(e, Mapping)}
    if not isinstance(engines, Mapping):
        raise ProfileError(f"{path}: expected an `engines:` mapping or list")
    profiles = {}
    for name, engine in engines.items():
        if not isinstance(engine, Mapping) or not isinstance(engine.get("simulator"), Mapping):
            continue
        try:
            profiles[str(name)] = SimulatorProfile.from_block(engine["simulator"], name=str(name), model=engine.get("model"))
        except ValidationError as exc:
            raise ProfileError(f"{path}: engines.{name}.simulator: {_describe(exc)}") from None
    return profiles


def _describe(exc: ValidationError) -> str:
    return "; ".join(f"{field or '(top level)'}: {message}" for field, message in validation_messages(exc))


def resolve_profile(spec: str, engines_file: str | Path | None = None) -> SimulatorProfile:
    """An engine of `engines_file` with a simulator block, else a preset, else a profile file."""
    engine_profiles = load_engine_profiles(engines_file) if engines_file is not None else {}
    if spec in engine_profiles:
        return engine_profiles[spec]
    if spec in PRESETS:
        return PRESETS[spec]
    path = Path(spec)
    if path.suffix in (".json", ".yaml", ".yml") and path.is_file():
        try:
            return SimulatorProfile.from_block(_read_structured(path), name=path.stem)
        except (OSError, ValueError) as exc:  # ValidationError is a ValueError
            detail = _describe(exc) if isinstance(exc, ValidationError) else str(exc)
            raise ProfileError(f"{path}: {detail}") from None
    known = sorted(PRESETS) + sorted(engine_profiles)
    raise ProfileError(f"unknown simulator profile {spec!r}; known: {', '.join(known)} (or a .json/.yaml profile file)")
