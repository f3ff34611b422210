"""The engines file (engines.yaml at the repo root): where requests go and how.

    engines:
      <name>:
        kind: openai | simulator        # evals/kinds.py: openai = a server you run; simulator = the
                                        # reference simulator, started in-process
        base_url: http://host:8000/v1   # openai kind only; a URL without a path gets /v1
        model: <model id>               # sent as "model"; simulator: the id it serves
        api_key_env: OPENAI_API_KEY     # optional: the *name* of the variable holding the key
        concurrency: 64                 # cap on requests in flight (the workload asks for its own)
        timeout_s: 600                  # per attempt, connect to last byte
        connect_timeout_s: 10
        max_retries: 3                  # on 429, 5xx, timeouts and dropped connections only
        backoff_s: 0.5                  # first retry delay, doubling, capped by backoff_max_s
        backoff_max_s: 30               # Retry-After, when sent, wins (capped by retry_after_max_s)
        retry_after_max_s: 120
        circuit_breaker: 25             # stop the run after this many failures in a row with one cause (0: never)
        max_response_bytes: 8388608     # per response, after decompression (past it: a too_large failure)
        max_tool_calls: 128             # per response (a larger tool-call index is a protocol failure)
        simulator: {...}                # simulator kind only: a simulator profile

An engine name is a Dagster partition key (engine x workload, engine x corpus), so it obeys
atlas_assets/core/names.py: `a|b`, `x...y`, an empty name or one with a newline is an error.

The `simulator:` block is a profile of the reference simulator, validated by its own
schema (atlas_assets/simulator/profiles.py: `preset: NAME` plus overrides such as skill,
ttft_ms, per_token_ms, error_5xx, timeout, rate_limit_429, drop, splice_rate,
text_only). An engine named on the command line by URL is an `openai` engine with the
defaults above.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from atlas_assets.core.names import PartitionKey
from atlas_assets.core.problems import FileProblem, Loaded, load_entries
from atlas_assets.evals.client import MAX_RESPONSE_BYTES, MAX_TOOL_CALLS
from atlas_assets.evals.config import ConfigError, load_model
from atlas_assets.evals.kinds import KINDS, kind_of

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ENGINES_FILE = REPO_ROOT / "engines.yaml"
ENV_ENGINES_FILE = "ATLAS_ENGINES"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Engine(_Strict):
    name: str = Field("", description="the key in the engines file (filled in by the loader)")
    kind: str = Field(description="a registered engine kind (evals/kinds.py: openai, simulator)")
    base_url: str | None = None
    model: str | None = None
    api_key_env: str | None = None
    concurrency: int = Field(64, ge=1, le=4096)
    timeout_s: float = Field(600.0, gt=0)
    connect_timeout_s: float = Field(10.0, gt=0)
    max_retries: int = Field(3, ge=0, le=20)
    backoff_s: float = Field(0.5, ge=0)
    backoff_max_s: float = Field(30.0, ge=0)
    retry_after_max_s: float = Field(120.0, ge=0)
    circuit_breaker: int = Field(25, ge=0, description="consecutive failures with one cause that stop a run (0: never)")
    max_response_bytes: int = Field(MAX_RESPONSE_BYTES, ge=1024, description="bytes per response, after decompression")
    max_tool_calls: int = Field(MAX_TOOL_CALLS, ge=1, le=100_000, description="tool calls per response")
    simulator: dict[str, Any] | None = None
    description: str = ""

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str | None) -> str | None:
        return None if value is None else normalize_base_url(value)

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str) -> str:
        if value not in KINDS:
            raise ValueError(f"unknown engine kind {value!r}; known kinds: {', '.join(sorted(KINDS))}")
        return value

    @model_validator(mode="after")
    def _kind_fields(self) -> "Engine":
        kind_of(self).check(self)
        return self

    def api_key(self) -> str | None:
        """The key from the environment variable the file names; an error when it is unset."""
        if not self.api_key_env:
            return None
        value = os.environ.get(self.api_key_env, "").strip()
        if not value:
            raise ConfigError(f"engine {self.name}: environment variable {self.api_key_env} (api_key_env) is not set")
        return value

    def identity(self) -> dict[str, Any]:
        """What makes two runs' requests go to 'the same engine' (its kind decides)."""
        return kind_of(self).identity(self)


class EnginesFile(_Strict):
    engines: dict[PartitionKey("engine name"), Engine]  # type: ignore[valid-type]

    @model_validator(mode="before")
    @classmethod
    def _names(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("engines"), dict):
            named = {}
            for name, body in data["engines"].items():
                named[name] = {**body, "name": name} if isinstance(body, dict) and isinstance(name, str) else body
            data = {**data, "engines": named}
        return data

    @model_validator(mode="after")
    def _not_empty(self) -> "EnginesFile":
        if not self.engines:
            raise ValueError("the file defines no engine")
        return self


def normalize_base_url(url: str) -> str:
    """`http://host:8000` -> `http://host:8000/v1`; a URL with a path keeps it (no trailing /)."""
    try:
        parts = urlsplit(url.strip())
        _ = parts.port  # a port that is not a number in 0-65535 raises here, not at the first request
    except ValueError as exc:
        raise ConfigError(f"engine URL {url!r}: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"engine URL {url!r}: expected http(s)://host[:port][/path]")
    path = parts.path.rstrip("/") or "/v1"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def engines_path(path: str | Path | None = None) -> Path:
    if path:
        return Path(path)
    env = os.environ.get(ENV_ENGINES_FILE, "").strip()
    return Path(env) if env else DEFAULT_ENGINES_FILE


def load_engines(path: str | Path | None = None) -> EnginesFile:
    """The engines file, refused (ConfigError) when any engine in it has a problem: for the
    commands that run something."""
    return load_model(engines_path(path), EnginesFile)


def load_engines_report(path: str | Path | None = None) -> Loaded[Engine, FileProblem]:
    """The engines that validate, by name, and a problem for each one that does not (a name
    Dagster cannot take as a partition key included): for the Dagster load path and
    listings, where one bad engine must not hide the others. An unreadable file, or one
    without a valid `engines:` mapping, gives no engines and its problems."""
    document, problems = load_entries(engines_path(path), EnginesFile, "engines")
    return Loaded(dict(document.engines) if document else {}, problems)


def is_url(value: str) -> bool:
    return value.startswith(("http://", "https://"))


def resolve_engine(value: str, engines: EnginesFile | None = None, model: str | None = None) -> Engine:
    """An engine by name from the engines file, or an ad-hoc openai engine from a URL.

    `model` overrides the file's model (for a URL engine without it, the runner asks the
    server's /v1/models).
    """
    if is_url(value):
        return Engine(name=value, kind="openai", base_url=value, model=model)
    engines = engines or load_engines()
    if value not in engines.engines:
        known = ", ".join(sorted(engines.engines))
        raise ConfigError(f"unknown engine {value!r}; the engines file defines: {known} (or pass a URL)")
    engine = engines.engines[value]
    return engine.model_copy(update={"model": model}) if model else engine
