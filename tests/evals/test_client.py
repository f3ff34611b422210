"""The engine client against the real simulator on 127.0.0.1: output parsing, streaming
latencies, usage, and every failure mode (5xx, 429 + Retry-After, timeouts, dropped
connections, 4xx without retry)."""

from __future__ import annotations

import asyncio
import hashlib
import time

import orjson
import pytest

from atlas_assets.corpus import registry
from atlas_assets.corpus.reference import reference_output
from atlas_assets.evals.client import EngineClient, RetryPolicy, parse_retry_after
from atlas_assets.evals.requests import build_body
from atlas_assets.evals.workloads import RequestParams
from atlas_assets.simulator.handle import start_simulator
from atlas_assets.simulator.profiles import SimulatorProfile
from tests.helpers.evals import write_dataset

INSTRUCTION = next(s for s in registry.discover() if s.id == "eval-instruction-v1")
ROW = registry.read_rows(INSTRUCTION)[0]


def _profile(**fields) -> SimulatorProfile:
    return SimulatorProfile.from_block({"name": "sim-test", "skill": {"easy": 1, "medium": 1, "hard": 1}, **fields})


def _body(stream=True, model="sim-test", row=ROW, spec=INSTRUCTION, max_tokens=256) -> bytes:
    return orjson.dumps(build_body(row, spec, RequestParams(max_tokens=max_tokens, stream=stream), model))


def _complete(url, body, stream=True, retry=RetryPolicy(max_retries=2, backoff_s=0.01, backoff_max_s=0.05), timeout_s=10.0):
    async def go():
        async with EngineClient(url, concurrency=4, timeout_s=timeout_s, retry=retry) as client:
            return await client.complete(body, stream)

    return asyncio.run(go())


def test_streaming_parses_content_reasoning_usage_and_latencies():
    with start_simulator(_profile(think_rate=1.0, reasoning_content=True, ttft_ms=30, per_token_ms=2)) as sim:
        result = _complete(sim.base_url, _body())
    assert result.error is None and result.attempts == 1 and result.status == 200
    assert result.content == reference_output(ROW).text
    assert result.reasoning_content and "<think>" not in result.content
    assert result.finish_reason == "stop"
    assert result.input_tokens > 0 and result.output_tokens > 1 and result.reasoning_tokens > 0
    assert 0.025 <= result.ttft_s < result.e2e_s
    assert len(result.itl_s) >= result.output_tokens - 2
    assert all(gap >= 0 for gap in result.itl_s)


def test_non_streaming_parses_the_message_and_usage():
    with start_simulator(_profile()) as sim:
        result = _complete(sim.base_url, _body(stream=False), stream=False)
    assert result.error is None and result.content == reference_output(ROW).text
    assert result.ttft_s is None and result.itl_s == [] and result.e2e_s > 0
    assert result.usage["prompt_tokens"] == result.input_tokens > 0


@pytest.mark.parametrize("stream", [True, False])
def test_tool_calls_are_assembled(datasets_root, stream):
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
                    "required": ["city"],
                },
            },
        }
    ]
    row = {
        "id": "tool-1",
        "category": "weather",
        "difficulty": "easy",
        "prompt": "What is the weather in Oslo, in celsius?",
        "answer": {"tool_call": {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}}},
        "scorer": "tool_call",
        "meta": {"tools": tools},
    }
    write_dataset(datasets_root, "syn-tools-v1", "eval", [row], default_scorer="tool_call")
    spec = registry.discover(datasets_root)[0]
    with start_simulator(_profile(), datasets_root=datasets_root) as sim:
        result = _complete(sim.base_url, _body(stream=stream, row=row, spec=spec), stream=stream)
    assert result.error is None and result.finish_reason == "tool_calls"
    assert len(result.tool_calls) == 1
    call = result.tool_calls[0]["function"]
    assert call["name"] == "get_weather" and orjson.loads(call["arguments"]) == {"city": "Oslo", "unit": "celsius"}


def _outcomes(sim, body):
    digest = hashlib.sha256(body).hexdigest()
    return [entry.outcome for entry in sim.request_log() if entry.body_sha256 == digest]


def test_5xx_is_retried_then_reported_as_a_failure():
    body = _body()
    with start_simulator(_profile(error_5xx=1.0)) as sim:
        result = _complete(sim.base_url, body)
        outcomes = _outcomes(sim, body)
    assert result.error_kind == "http_5xx" and result.status in (500, 503) and result.error.startswith(f"HTTP {result.status}: ")
    assert result.attempts == 3 and len(outcomes) == 3 and set(outcomes) <= {"error_500", "error_503"}
    assert result.content is None and result.ttft_s is None and result.e2e_s is None


def test_5xx_retries_recover_when_the_server_recovers():
    rows = registry.read_rows(INSTRUCTION)[:20]
    bodies = [_body(row=r) for r in rows]

    async def go(url):
        async with EngineClient(url, concurrency=8, retry=RetryPolicy(max_retries=8, backoff_s=0.001, backoff_max_s=0.01)) as client:
            return await asyncio.gather(*(client.complete(b, True) for b in bodies))

    with start_simulator(_profile(error_5xx=0.5)) as sim:
        results = asyncio.run(go(sim.base_url))
    assert all(r.error is None for r in results)
    assert any(r.attempts > 1 for r in results)


def test_429_waits_for_retry_after():
    body = _body()
    with start_simulator(_profile(rate_limit_429=1.0, retry_after_s=0.2)) as sim:
        started = time.perf_counter()
        result = _complete(sim.base_url, body, retry=RetryPolicy(max_retries=2, backoff_s=5.0, backoff_max_s=5.0))
        elapsed = time.perf_counter() - started
        outcomes = _outcomes(sim, body)
    assert result.error_kind == "rate_limit" and result.status == 429 and result.attempts == 3
    assert outcomes == ["rate_limited"] * 3
    # waited Retry-After (0.2 s) twice, not the 5 s backoff
    assert result.retry_wait_s == pytest.approx(0.4) and elapsed >= 0.4


def test_retry_after_is_capped_and_parsed_as_seconds_or_date():
    assert parse_retry_after("1.5") == 1.5 and parse_retry_after(None) is None and parse_retry_after("soon") is None
    assert 0 <= parse_retry_after(time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))) <= 31
    assert RetryPolicy(retry_after_max_s=2).delay(0, 100.0) == 2.0
    assert 0.25 <= RetryPolicy(backoff_s=0.5).delay(0, None) <= 0.5
    assert RetryPolicy(backoff_s=0.5, backoff_max_s=1).delay(5, None) <= 1.0


def test_a_hanging_request_times_out_and_is_retried():
    body = _body()
    with start_simulator(_profile(timeout=1.0, hang_s=30)) as sim:
        started = time.perf_counter()
        result = _complete(sim.base_url, body, timeout_s=0.3, retry=RetryPolicy(max_retries=1, backoff_s=0.01))
        elapsed = time.perf_counter() - started
        outcomes = _outcomes(sim, body)
    assert result.error_kind == "timeout" and result.error == "timeout after 0.3 s" and result.attempts == 2
    assert outcomes == ["timeout", "timeout"] and elapsed >= 0.6  # two attempts, each waited out its 0.3 s


@pytest.mark.parametrize("stream", [True, False])
def test_a_dropped_connection_is_a_retried_failure_not_a_short_answer(stream):
    body = _body(stream=stream)
    with start_simulator(_profile(drop=1.0)) as sim:
        result = _complete(sim.base_url, body, stream=stream)
        outcomes = _outcomes(sim, body)
    assert result.error_kind == "connection" and "dropped" in result.error and result.attempts == 3
    assert outcomes == ["dropped"] * 3 and result.content is None


def test_4xx_is_not_retried():
    body = _body()
    with start_simulator(_profile(max_context=10)) as sim:
        result = _complete(sim.base_url, body)
        outcomes = _outcomes(sim, body)
        unknown = _complete(sim.base_url, _body(model="no-such-model"))
    assert result.error_kind == "http_4xx" and result.status == 400 and result.attempts == 1
    assert outcomes == ["context_overflow"] and "context" in result.error
    assert unknown.status == 404 and unknown.attempts == 1


def test_a_refused_connection_is_retried_then_reported():
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = _complete(f"http://127.0.0.1:{port}/v1", _body())
    assert result.error_kind == "connection" and result.attempts == 3


def test_models_answer_and_a_bounded_keep_alive_pool():
    with start_simulator(_profile()) as sim:

        async def go():
            async with EngineClient(sim.base_url, concurrency=4) as client:
                models = await client.models()
                results = await asyncio.gather(*(client.complete(_body(), True) for _ in range(40)))
                return models, results, client.session.connector

        models, results, connector = asyncio.run(go())
    assert models["data"][0]["id"] == "sim-test"
    assert all(r.error is None for r in results)
    assert connector.limit == 4
