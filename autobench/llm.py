"""An LLM-backed case generator over any OpenAI-compatible chat-completions engine.

    generation:
      request:
        prompt: {content: "Generate support routing cases.", asset_version: prompt.routing@v1}
        settings:
          llm:
            engine: http://127.0.0.1:8000/v1   # a URL, or an engine name from engines.yaml
            model: sim-strong                  # default: the server's first /models entry
            count: 20                          # cases wanted
            per_request: 5                     # cases asked for per request
            max_requests: 8                    # budget: requests
            max_cost: 0.05                     # budget: currency units (needs a price)
            temperature: 0.7
            case_schema: {...}                 # optional JSON Schema each case must satisfy
            price_table: path/to/prices.yaml   # default: autobench/prices.yaml

Entry point: `autobench.llm:generate_cases` (async). It records the provider (the model's
`owned_by` on the server's /models) and model (the response's / server's model id), usage
summed from the server's `usage`, cost from the price table (null when the model is not
priced), determinism `not_guaranteed` (sampling; a seed never changes that). Every
proposed case is validated against the `Case` model and `case_schema`; invalid proposals
are dropped and counted. Duplicates (same id or same input+expected) are dropped. When
the budget is spent before `count` valid cases exist, it returns an incomplete batch with
the partial cases. Seed cases are shown to the model as examples, never returned.
An engine named from engines.yaml is reached like an eval run's (evals/send.py; a
simulator engine is started on loopback for the duration) with `timeout_s` from here;
a URL is an ad-hoc openai engine with the engines file's default retry policy.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional

import jsonschema
import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from atlas_assets.core.errors import validation_messages
from atlas_assets.core.hashing import sha256_json
from atlas_assets.evals.client import Completion
from atlas_assets.evals.engines import Engine, resolve_engine
from atlas_assets.evals.send import Connected, connect, listed_models, send_all, serve
from autobench import yamlio
from autobench.models import (
    Case,
    CaseGeneratorInput,
    GeneratedCaseBatch,
    GenerationCost,
    GenerationDeterminism,
    GenerationUsage,
)
from autobench.progress import report_progress

DEFAULT_PRICE_TABLE = Path(__file__).with_name("prices.yaml")
JSON_CASES_MARKER = "[atlas-simulator:json-cases]"  # understood by the reference simulator only


class Price(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)
    currency: str = "usd"


def load_prices(path: str | Path | None = None) -> dict[str, Price]:
    data = yamlio.read_yaml(path or DEFAULT_PRICE_TABLE)[0] or {}
    return {name: Price.model_validate(body) for name, body in (data.get("prices") or {}).items()}


class LLMSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    engine: str
    model: Optional[str] = None
    count: StrictInt = Field(10, ge=1)
    per_request: StrictInt = Field(5, ge=1, le=50)
    max_requests: StrictInt = Field(10, ge=1)
    max_cost: Optional[float] = Field(None, ge=0)
    temperature: float = 0.7
    max_tokens: StrictInt = Field(4096, ge=1)
    case_schema: Optional[dict[str, Any]] = None
    price_table: Optional[str] = None
    timeout_s: float = Field(120, gt=0)
    generator_version: str = "autobench.llm@v1"


def system_prompt(settings: LLMSettings, request: CaseGeneratorInput) -> str:
    lines = [
        "You write benchmark cases. Answer with one JSON object and nothing else:",
        '{"cases": [{"id": "<unique slug>", "input": <any JSON>, "expected": <any JSON>}]}',
    ]
    if settings.case_schema:
        lines.append("Every case must satisfy this JSON Schema: " + json.dumps(settings.case_schema, sort_keys=True))
    if request.seed_cases:
        examples = [c.model_dump(mode="json", exclude={"metadata"}) for c in request.seed_cases]
        lines.append("Reviewed examples: " + json.dumps(examples, sort_keys=True))
    lines.append(f"{JSON_CASES_MARKER} n={settings.per_request}")
    return "\n".join(lines)


def parse_proposals(content: str | None) -> list[Any]:
    """The `cases` list of a reply (tolerates a ```json fence); [] when there is none."""
    if not content:
        return []
    text = content.strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    if fenced:
        text = fenced.group(1)
    try:
        data = json.loads(text)
    except ValueError:
        return []
    cases = data.get("cases") if isinstance(data, dict) else data
    return list(cases) if isinstance(cases, list) else []


async def generate_cases(request: CaseGeneratorInput) -> GeneratedCaseBatch:
    raw = request.settings.get("llm")
    if not isinstance(raw, dict):
        raise ValueError("settings.llm: the LLM generator needs a mapping (engine, count, ...)")
    try:
        settings = LLMSettings.model_validate(raw)
    except ValidationError as exc:
        details = "; ".join(f"{field}: {message}" for field, message in validation_messages(exc, ("settings", "llm")))
        raise ValueError(details) from None
    if not request.prompt:
        raise ValueError("prompt: the LLM generator needs a prompt")
    prices = load_prices(settings.price_table)
    engine = resolve_engine(settings.engine, model=settings.model).model_copy(update={"timeout_s": settings.timeout_s})
    with serve(engine) as base_url:
        async with connect(engine, base_url, 1, pick=_first_listed) as connected:
            return await _generate(request, settings, prices, connected)


def _first_listed(engine: Engine, models: Mapping[str, Any]) -> str:
    """settings.llm.model, else the first model the server lists."""
    if engine.model:
        return engine.model
    ids = listed_models(models)
    if not ids:
        raise ConnectionError(f"{engine.base_url or engine.name}: /models lists no model; set settings.llm.model")
    return ids[0]


@dataclass(frozen=True)
class _Ask:
    data: bytes
    request_id: None = None


async def _generate(
    request: CaseGeneratorInput, settings: LLMSettings, prices: dict[str, Price], connected: Connected
) -> GeneratedCaseBatch:
    accepted: list[Case] = []
    ids: set[str] = set()
    contents: set[str] = set()
    tally = {"in": 0, "out": 0, "requests": 0, "invalid": 0, "duplicates": 0}
    system = system_prompt(settings, request)
    model = connected.model
    entries = connected.models_answer.get("data") or []
    provider = next((str(e.get("owned_by")) for e in entries if isinstance(e, dict) and e.get("id") == model and e.get("owned_by")), None)
    price = prices.get(model)
    cost = 0.0
    reason: str | None = None

    def asks() -> Iterator[_Ask]:
        """The next request while cases are missing and the budget allows (pulled one at a time)."""
        nonlocal reason
        while len(accepted) < settings.count:
            if tally["requests"] >= settings.max_requests:
                reason = f"budget: max_requests={settings.max_requests} spent with {len(accepted)}/{settings.count} valid cases"
                return
            if settings.max_cost is not None and price is not None and cost >= settings.max_cost:
                reason = f"budget: max_cost={settings.max_cost} {price.currency} spent with {len(accepted)}/{settings.count} valid cases"
                return
            body: dict[str, Any] = {
                "model": model,
                "messages": [
                    {"role": "system", "content": system},
                    {
                        "role": "user",
                        "content": f"{request.prompt}\n\n(request {tally['requests'] + 1}; seed {request.seed}; have {len(accepted)} cases)",
                    },
                ],
                "temperature": settings.temperature,
                "max_tokens": settings.max_tokens,
                "stream": False,
            }
            if request.seed is not None:
                body["seed"] = request.seed + tally["requests"]
            tally["requests"] += 1
            yield _Ask(orjson.dumps(body))

    async def finish(ask: _Ask, completion: Completion) -> None:
        nonlocal cost
        if completion.error:
            raise ConnectionError(f"{connected.base_url}: {completion.error}")
        tally["in"] += completion.input_tokens or 0
        tally["out"] += completion.output_tokens or 0
        if price is not None:
            cost = (tally["in"] * price.input_per_mtok + tally["out"] * price.output_per_mtok) / 1_000_000
        for proposal in parse_proposals(completion.content):
            case = _validate(proposal, settings.case_schema)
            if case is None:
                tally["invalid"] += 1
                continue
            key = sha256_json({"input": case.input, "expected": case.expected})
            if case.id in ids or key in contents:
                tally["duplicates"] += 1
                continue
            ids.add(case.id)
            contents.add(key)
            accepted.append(case.model_copy(update={"metadata": {**case.metadata, "llm_request": tally["requests"]}}))
            if len(accepted) >= settings.count:
                break
        report_progress(
            len(accepted), settings.count, f"{tally['requests']} requests, {tally['invalid']} invalid, {tally['duplicates']} duplicates"
        )

    await send_all(connected.client, asks(), finish, concurrency=1)
    return GeneratedCaseBatch(
        cases=tuple(accepted),
        generator_asset_version=settings.generator_version,
        model_provider=provider,
        model_name=model,
        determinism=GenerationDeterminism.NOT_GUARANTEED,
        usage=GenerationUsage(input_tokens=tally["in"], output_tokens=tally["out"], requests=tally["requests"]),
        cost=GenerationCost(amount=round(cost, 10), currency=price.currency) if price is not None else None,
        complete=reason is None,
        incomplete_reason=reason,
    )


def _validate(proposal: Any, schema: dict[str, Any] | None) -> Case | None:
    if not isinstance(proposal, dict):
        return None
    try:
        if schema is not None:
            jsonschema.validate(proposal, schema)
        return Case.model_validate(proposal)
    except (ValidationError, jsonschema.ValidationError, jsonschema.SchemaError):
        return None
