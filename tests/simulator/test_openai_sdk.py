"""Fidelity against the official `openai` Python SDK as the client: chat completions
(streaming and not), tools under every tool_choice, a tool-result turn, OpenAI's 400s for
invalid parameters, /v1/models and /v1/models/{id}; and, without HTTP, that wrong answers
are non-empty for every scorer of the real corpus."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from typing import Any

import openai
import pytest

from atlas_assets.corpus.registry import DEFAULT_DATASETS_ROOT
from atlas_assets.corpus.scorers import score
from atlas_assets.simulator import OWNED_BY
from atlas_assets.simulator.index import RequestView, corpus_index
from atlas_assets.simulator.profiles import Skill, resolve_profile
from atlas_assets.simulator.replies import ReplyRequest, compose_reply
from tests.helpers.simulator import chat, fixture_row, messages_for

TIME_TOOL = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "Local time in a time zone.",
        "parameters": {
            "type": "object",
            "properties": {"zone": {"type": "string", "enum": ["UTC", "CET"]}, "hours24": {"type": "boolean"}},
            "required": ["zone", "hours24"],
        },
    },
}


@pytest.fixture
def plain(serve):
    return serve("sim-plain", skill={"easy": 1, "medium": 1, "hard": 1})


@pytest.fixture
def client(plain):
    with openai.OpenAI(base_url=plain.base_url, api_key="x", max_retries=0) as sdk:
        yield sdk


def _row(row_id: str) -> dict[str, Any]:
    return fixture_row(row_id)[1]


def _tools(row_id: str) -> list[dict[str, Any]]:
    return [*_row(row_id)["meta"]["tools"], TIME_TOOL]


def test_chat_completion_and_streaming(client):
    messages = messages_for(_row("b-numeric"))
    completion = client.chat.completions.create(model="sim-plain", messages=messages, max_tokens=64)
    assert completion.choices[0].message.content == "391" and completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None and completion.usage.completion_tokens == 1
    chunks = list(client.chat.completions.create(model="sim-plain", messages=messages, stream=True, stream_options={"include_usage": True}))
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "391"
    assert chunks[-1].choices == [] and chunks[-1].usage.total_tokens == completion.usage.total_tokens


def _call(client, row_id: str, tool_choice: Any, tools: list[dict[str, Any]] | None = None):
    return client.chat.completions.create(
        model="sim-plain", messages=messages_for(_row(row_id)), tools=tools or _tools(row_id), tool_choice=tool_choice
    ).choices[0]


def test_auto_calls_the_expected_tool(client):
    choice = _call(client, "t-call", "auto")
    (call,) = choice.message.tool_calls
    assert choice.finish_reason == "tool_calls" and call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {"city": "Lisbon"}


def test_a_named_tool_choice_calls_exactly_that_tool(client):
    choice = _call(client, "t-call", {"type": "function", "function": {"name": "get_time"}})
    (call,) = choice.message.tool_calls
    assert call.function.name == "get_time" and json.loads(call.function.arguments) == {"zone": "UTC", "hours24": False}
    named = _call(client, "t-call", {"type": "function", "function": {"name": "get_weather"}})
    assert [c.function.name for c in named.message.tool_calls] == ["get_weather"]
    assert json.loads(named.message.tool_calls[0].function.arguments) == {"city": "Lisbon"}  # the right call kept
    forced = _call(client, "t-none", {"type": "function", "function": {"name": "get_weather"}})
    assert [c.function.name for c in forced.message.tool_calls] == ["get_weather"]
    assert json.loads(forced.message.tool_calls[0].function.arguments) == {"city": "example"}


def test_required_calls_some_tool_and_none_answers_text(client):
    required = _call(client, "t-none", "required")  # a row whose right answer is no call
    assert required.finish_reason == "tool_calls" and required.message.tool_calls[0].function.name in ("get_weather", "get_time")
    none = _call(client, "t-call", "none")
    assert none.message.tool_calls is None and none.message.content and none.finish_reason == "stop"


def test_a_tool_result_turn_gets_a_text_answer(client, plain):
    first = _call(client, "t-call", "auto")
    call = first.message.tool_calls[0]
    messages = [
        *messages_for(_row("t-call")),
        {"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
        {"role": "tool", "tool_call_id": call.id, "content": '{"city": "Lisbon", "sky": "clear", "celsius": 21}'},
    ]
    answer = client.chat.completions.create(model="sim-plain", messages=messages, tools=_tools("t-call"), tool_choice="auto").choices[0]
    assert answer.message.tool_calls is None and answer.finish_reason == "stop"
    assert "21" in answer.message.content and "clear" in answer.message.content
    assert [entry.row_id for entry in plain.request_log()] == ["t-call", "t-call"]  # still recognised
    forced = client.chat.completions.create(model="sim-plain", messages=messages, tools=_tools("t-call"), tool_choice="required")
    assert forced.choices[0].message.tool_calls  # a forcing tool_choice still forces a call


@pytest.mark.parametrize(
    "param, value",
    [
        ("max_tokens", 0),
        ("max_tokens", -5),
        ("max_completion_tokens", 0),
        ("temperature", 2.5),
        ("temperature", -0.1),
        ("top_p", 1.5),
        ("top_p", -1),
        ("n", 2),
        ("messages", []),
    ],
)
def test_invalid_parameters_are_openai_400s(client, plain, param, value):
    arguments: dict[str, Any] = {"model": "sim-plain", "messages": messages_for(_row("b-numeric")), param: value}
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(**arguments)
    error = caught.value
    assert error.status_code == 400 and error.param == param and error.type == "invalid_request_error"
    assert error.body["message"] and set(error.body) == {"message", "type", "param", "code"}
    assert [entry.outcome for entry in plain.request_log()] == ["bad_request"]


def test_messages_missing_and_bad_tool_choices_name_their_parameter(client, plain):
    missing = chat(plain.base_url, {"model": "sim-plain"})
    assert missing.status == 400 and missing.json()["error"]["param"] == "messages"
    with pytest.raises(openai.BadRequestError) as caught:
        _call(client, "t-call", {"type": "function", "function": {"name": "get_stock"}})
    assert caught.value.param == "tool_choice" and "get_stock" in caught.value.message
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="sim-plain", messages=messages_for(_row("b-numeric")), tool_choice="required")
    assert caught.value.param == "tool_choice"


def test_the_edges_of_the_ranges_are_accepted(client):
    for extra in ({"temperature": 0, "top_p": 0}, {"temperature": 2, "top_p": 1, "n": 1, "max_tokens": 1}):
        completion = client.chat.completions.create(model="sim-plain", messages=messages_for(_row("b-numeric")), **extra)
        assert completion.choices[0].message.content == "391"


def test_models_list_and_retrieve(client):
    (listed,) = client.models.list().data
    assert listed.id == "sim-plain" and listed.owned_by == OWNED_BY
    model = client.models.retrieve("sim-plain")
    assert model.id == "sim-plain" and model.object == "model" and model.owned_by == OWNED_BY
    assert model.model_dump()["max_model_len"] == listed.model_dump()["max_model_len"]
    with pytest.raises(openai.NotFoundError) as caught:
        client.models.retrieve("gpt-4o")
    assert caught.value.code == "model_not_found" and caught.value.param == "model"


def test_async_streaming_of_a_named_tool_call(plain):
    async def run() -> tuple[str, str, str | None]:
        async with openai.AsyncOpenAI(base_url=plain.base_url, api_key="x", max_retries=0) as sdk:
            stream = await sdk.chat.completions.create(
                model="sim-plain",
                messages=messages_for(_row("t-call")),
                tools=_tools("t-call"),
                tool_choice={"type": "function", "function": {"name": "get_time"}},
                stream=True,
            )
            name, arguments, finish = "", "", None
            async for chunk in stream:
                for call in chunk.choices[0].delta.tool_calls or ():
                    name += call.function.name or ""
                    arguments += call.function.arguments or ""
                finish = chunk.choices[0].finish_reason or finish
            return name, arguments, finish

    name, arguments, finish = asyncio.run(run())
    assert name == "get_time" and json.loads(arguments) == {"zone": "UTC", "hours24": False} and finish == "tool_calls"


# --- wrong answers over the real corpus ---------------------------------------------------

SAMPLE_PER_SCORER = 12


def _sample() -> dict[str, list[Any]]:
    by_scorer: dict[str, list[Any]] = defaultdict(list)
    for entry in corpus_index(DEFAULT_DATASETS_ROOT).entries():
        if entry.scorer is not None and len(by_scorer[entry.scorer]) < SAMPLE_PER_SCORER:
            by_scorer[entry.scorer].append(entry)
    return by_scorer


@pytest.mark.parametrize("skill", [0.0, None], ids=["always-wrong", "sim-weak"])
def test_wrong_answers_are_never_empty_for_any_scorer(skill):
    overrides: dict[str, Any] = {"malformed_rate": 0.0}  # malformed replies are format failures, not wrong answers
    if skill is not None:
        overrides["skill"] = Skill(easy=skill, medium=skill, hard=skill)
    profile = resolve_profile("sim-weak").model_copy(update=overrides)
    sample = _sample()
    assert {"exact", "numeric", "mc", "contains", "json", "code_exec", "instruction", "tool_call", "splice"} <= set(sample)
    wrong_by_scorer: dict[str, int] = defaultdict(int)
    for scorer, entries in sample.items():
        for entry in entries:
            row = entry.row
            request = ReplyRequest.from_body(
                {"messages": [{"role": "user", "content": "?"}], "tools": (row.get("meta") or {}).get("tools")}
            )
            view = RequestView.parse([{"role": "user", "content": "?"}])
            reply = compose_reply(profile, entry, view, request, entry.key, 0)
            calls = [{"function": {"name": n, "arguments": a}} for _, n, a in reply.tool_calls]
            if scorer == "code_exec" and skill is None:
                continue  # the sandbox is slow; the always-wrong pass covers code_exec
            verdict = score(row, {"content": reply.content, "tool_calls": calls}, entry.default_scorer)
            if not verdict.correct:
                wrong_by_scorer[scorer] += 1
                assert reply.content.strip() or reply.tool_calls, f"{entry.key}: an empty wrong answer"
    if skill == 0.0:
        assert wrong_by_scorer == {scorer: len(entries) for scorer, entries in sample.items()}
    else:
        assert sum(wrong_by_scorer.values()) > 0
