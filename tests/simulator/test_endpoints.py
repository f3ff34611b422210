"""The HTTP surface: endpoints, response shapes, SSE streaming, usage, errors."""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from atlas_assets.simulator import OWNED_BY
from tests.helpers.simulator import body_for, chat, fixture_row, request


@pytest.fixture
def plain(serve):
    """A perfectly skilled simulator with no wrappers, latency or failures."""
    return serve("sim-plain", skill={"easy": 1, "medium": 1, "hard": 1})


def test_health_models_and_the_simulator_marker(plain):
    health = request(plain.base_url, "GET", "/health", absolute=True)
    assert health.status == 200 and health.headers["x-atlas-simulator"] == "1"
    assert health.json()["simulator"] is True and health.json()["rows_indexed"] > 400
    models = request(plain.base_url, "GET", "/models")
    assert models.status == 200 and models.headers["x-atlas-simulator"] == "1"
    (model,) = models.json()["data"]
    assert model["id"] == "sim-plain" and model["owned_by"] == OWNED_BY == "inference-atlas-simulator"
    assert model["simulator"]["name"] == "sim-plain" and model["max_model_len"] == 131072


def test_unknown_routes_methods_bodies_and_models_are_openai_style_errors(plain):
    assert request(plain.base_url, "GET", "/completions").status == 404
    assert request(plain.base_url, "GET", "/chat/completions").status == 405
    bad = chat(plain.base_url, b"{not json")
    assert bad.status == 400 and bad.json()["error"]["type"] == "invalid_request_error"
    assert chat(plain.base_url, {"model": "sim-plain", "messages": []}).status == 400
    unknown = chat(plain.base_url, {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]})
    assert unknown.status == 404 and unknown.json()["error"]["code"] == "model_not_found"
    assert unknown.headers["x-atlas-simulator"] == "1"
    assert [entry.outcome for entry in plain.request_log()] == ["bad_request", "bad_request", "unknown_model"]


def test_non_streaming_completion_and_usage(plain):
    _, row, _ = fixture_row("b-numeric")
    body = body_for("sim-plain", row)
    response = chat(plain.base_url, body)
    assert response.status == 200 and response.headers["x-atlas-simulator"] == "1"
    data = response.json()
    assert data["object"] == "chat.completion" and data["model"] == "sim-plain"
    assert data["choices"][0]["message"] == {"role": "assistant", "content": "391"}
    assert data["choices"][0]["finish_reason"] == "stop"
    usage = data["usage"]
    assert usage["prompt_tokens"] == math.ceil(len(row["prompt"]) / 4)
    assert usage["completion_tokens"] == 1 and usage["total_tokens"] == usage["prompt_tokens"] + 1
    assert usage["completion_tokens_details"] == {"reasoning_tokens": 0}
    (logged,) = plain.request_log()
    assert logged == ("b-numeric", hashlib.sha256(json.dumps(body).encode()).hexdigest(), "ok")


def _reassemble(events):
    text, reasoning, calls, finish = "", "", {}, None
    for event in events:
        if event == "[DONE]" or not event["choices"]:
            continue
        choice = event["choices"][0]
        delta = choice["delta"]
        text += delta.get("content") or ""
        reasoning += delta.get("reasoning_content") or ""
        for call in delta.get("tool_calls") or []:
            slot = calls.setdefault(call["index"], {"name": "", "arguments": ""})
            slot["name"] += call.get("function", {}).get("name") or ""
            slot["arguments"] += call.get("function", {}).get("arguments") or ""
        finish = choice["finish_reason"] or finish
    return text, reasoning, calls, finish


def test_streaming_matches_the_non_streaming_reply(serve):
    sim = serve("sim-stream", skill={"easy": 1, "medium": 1, "hard": 1}, think_rate=1, reasoning_content=True, final_answer_rate=1)
    _, row, _ = fixture_row("b-exact")
    whole = chat(sim.base_url, body_for("sim-stream", row)).json()
    stream = chat(sim.base_url, body_for("sim-stream", row, stream=True, stream_options={"include_usage": True}))
    assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
    assert stream.headers["x-atlas-simulator"] == "1"
    assert stream.body.startswith(b"data: {") and stream.body.endswith(b"data: [DONE]\n\n")
    events = stream.events()
    assert events[-1] == "[DONE]"
    usage_chunk = events[-2]
    assert usage_chunk["choices"] == [] and usage_chunk["usage"] == whole["usage"]
    assert all(e["usage"] is None for e in events[:-2])
    assert events[0]["choices"][0]["delta"]["role"] == "assistant"
    assert all(e["object"] == "chat.completion.chunk" and e["id"] == events[0]["id"] for e in events[:-1])
    text, reasoning, _, finish = _reassemble(events)
    message = whole["choices"][0]["message"]
    assert (text, reasoning, finish) == (message["content"], message["reasoning_content"], "stop")
    assert "Final answer: ruobrah" in text
    # one content/reasoning chunk per token of ~4 characters
    pieces = [e["choices"][0]["delta"].get("content") or e["choices"][0]["delta"].get("reasoning_content") for e in events[1:-3]]
    assert all(0 < len(p) <= 4 for p in pieces)
    assert whole["usage"]["completion_tokens"] == len(pieces)
    assert whole["usage"]["completion_tokens_details"]["reasoning_tokens"] == math.ceil(len(reasoning) / 4)


def test_without_include_usage_there_is_no_usage_chunk(plain):
    _, row, _ = fixture_row("b-exact")
    events = chat(plain.base_url, body_for("sim-plain", row, stream=True)).events()
    assert events[-1] == "[DONE]" and all("usage" not in e for e in events[:-1])
    assert _reassemble(events)[0] == "ruobrah"


def test_tool_calls_streaming_and_not(plain):
    _, row, _ = fixture_row("t-call")
    message = chat(plain.base_url, body_for("sim-plain", row)).json()["choices"][0]
    assert message["finish_reason"] == "tool_calls" and message["message"]["content"] is None
    (call,) = message["message"]["tool_calls"]
    assert call["type"] == "function" and call["id"].startswith("call_")
    assert call["function"]["name"] == "get_weather" and json.loads(call["function"]["arguments"]) == {"city": "Lisbon"}
    _, _, calls, finish = _reassemble(chat(plain.base_url, body_for("sim-plain", row, stream=True)).events())
    assert finish == "tool_calls" and calls == {0: {"name": "get_weather", "arguments": call["function"]["arguments"]}}
    # Without tools in the request, a tool row gets text.
    bare = body_for("sim-plain", row)
    del bare["tools"], bare["tool_choice"]
    reply = chat(plain.base_url, bare).json()["choices"][0]
    assert "tool_calls" not in reply["message"] and reply["message"]["content"]


def test_max_tokens_and_stop_sequences(plain):
    _, row, _ = fixture_row("g-module")
    data = chat(plain.base_url, body_for("sim-plain", row, max_tokens=10)).json()
    assert data["choices"][0]["finish_reason"] == "length" and data["usage"]["completion_tokens"] == 10
    assert len(data["choices"][0]["message"]["content"]) == 40
    data = chat(plain.base_url, body_for("sim-plain", row, stop=["export"])).json()
    assert data["choices"][0]["finish_reason"] == "stop" and "export" not in data["choices"][0]["message"]["content"]


def test_prompt_set_rows_and_unknown_prompts_get_max_tokens_of_prose(plain):
    data = chat(
        plain.base_url, {"model": "sim-plain", "messages": [{"role": "user", "content": "Tell me anything."}], "max_tokens": 64}
    ).json()
    assert data["usage"]["completion_tokens"] == 64 and data["choices"][0]["finish_reason"] == "length"
    default = chat(plain.base_url, {"model": "sim-plain", "messages": [{"role": "user", "content": "Tell me anything."}]}).json()
    assert default["usage"]["completion_tokens"] == 256 and default["choices"][0]["finish_reason"] == "stop"
    assert plain.request_log()[-1].row_id is None
