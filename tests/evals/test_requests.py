"""The request builder: exact chat-completions bodies for every row shape."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from atlas_assets.corpus import longctx, registry
from atlas_assets.evals.requests import build_body, build_messages, fingerprint
from atlas_assets.evals.workloads import RequestParams
from tests.helpers.evals import write_dataset

ROOT = registry.DEFAULT_DATASETS_ROOT
STREAM = RequestParams(max_tokens=64, temperature=0.0, stream=True)


def _spec(dataset_id, root=ROOT):
    return next(s for s in registry.discover(root) if s.id == dataset_id)


def _first(dataset_id, predicate=lambda r: True):
    spec = _spec(dataset_id)
    return spec, next(r for r in registry.read_rows(spec) if predicate(r))


def test_plain_prompt_row_is_sent_as_its_messages_with_stream_usage():
    spec, row = _first("prompts-mix-v1")
    body = build_body(row, spec, STREAM, "m")
    assert body == {
        "model": "m",
        "messages": row["messages"],
        "max_tokens": 64,
        "temperature": 0.0,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    assert list(body) == ["model", "messages", "max_tokens", "temperature", "stream", "stream_options"]


def test_shared_prefix_is_a_leading_system_message():
    spec, row = _first("prompts-shared-prefix-v1", lambda r: r["shared_prefix"])
    messages = build_body(row, spec, STREAM, "m")["messages"]
    assert messages == [{"role": "system", "content": row["shared_prefix"]}, *row["messages"]]


def test_code_rows_keep_their_system_message_and_no_prefix_is_invented():
    spec, row = _first("prompts-code-v1")
    assert row["shared_prefix"] is None and row["messages"][0]["role"] == "system"
    assert build_messages(row, spec) == row["messages"]


def test_eval_prompt_row_non_streaming_with_stop():
    spec, row = _first("eval-instruction-v1")
    params = RequestParams(max_tokens=1536, temperature=0.7, stream=False, stop=["\n\n\n"])
    assert build_body(row, spec, params, "m") == {
        "model": "m",
        "messages": [{"role": "user", "content": row["prompt"]}],
        "max_tokens": 1536,
        "temperature": 0.7,
        "stop": ["\n\n\n"],
        "stream": False,
    }


def test_longctx_row_carries_the_rebuilt_document_verified_by_sha256():
    spec, row = _first("eval-longctx-v1")
    body = build_body(row, spec, STREAM, "m")
    assert len(body["messages"]) == 1 and body["messages"][0]["role"] == "user"
    content = body["messages"][0]["content"]
    builder = longctx.haystack_builder(ROOT)
    document = builder.build(row["meta"]["haystack"]).document
    assert content == builder.PREAMBLE + "\n\n" + document + "\n\n" + row["prompt"]
    assert hashlib.sha256(document.encode()).hexdigest() == row["meta"]["haystack"]["sha256"]
    assert longctx.missing_document(row, body["messages"]) is None


def test_haystack_rows_are_built_from_their_recipe_and_question():
    spec, row = _first("haystack-v1")
    content = build_messages(row, spec)[0]["content"]
    assert content.endswith("\n\n" + row["question"])
    assert content.startswith(longctx.haystack_builder(ROOT).PREAMBLE + "\n\nLine 000001: ")
    assert len(content) > row["chars"]


def test_a_recipe_that_does_not_rebuild_is_an_error_not_a_bare_question():
    spec, row = _first("eval-longctx-v1")
    broken = json.loads(json.dumps(row))
    broken["meta"]["haystack"]["sha256"] = "0" * 64
    with pytest.raises(ValueError, match="rebuilt document sha256"):
        build_messages(broken, spec)


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather for a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
]


def test_tool_rows_send_their_schemas_with_tool_choice_auto(datasets_root):
    row = {
        "id": "tool-1",
        "category": "weather",
        "difficulty": "easy",
        "prompt": "Weather in Oslo?",
        "answer": {"tool_call": {"name": "get_weather", "arguments": {"city": "Oslo"}}},
        "scorer": "tool_call",
        "meta": {"tools": TOOLS},
    }
    write_dataset(datasets_root, "syn-tools-v1", "eval", [row], default_scorer="tool_call")
    body = build_body(row, _spec("syn-tools-v1", datasets_root), STREAM, "m")
    assert body == {
        "model": "m",
        "messages": [{"role": "user", "content": "Weather in Oslo?"}],
        "max_tokens": 64,
        "temperature": 0.0,
        "tools": TOOLS,
        "tool_choice": "auto",
        "stream": True,
        "stream_options": {"include_usage": True},
    }


def test_vision_rows_send_text_then_the_image_as_a_data_uri(datasets_root):
    png = b"\x89PNG\r\n\x1a\n" + b"fake-bytes-for-the-test"
    row = {
        "id": "vis-1",
        "category": "shapes",
        "difficulty": "easy",
        "prompt": "How many circles?",
        "answer": "3",
        "scorer": "numeric",
        "image": "images/vis-1.png",
    }
    write_dataset(datasets_root, "syn-vision-v1", "eval", [row], files={"images/vis-1.png": png})
    messages = build_messages(row, _spec("syn-vision-v1", datasets_root))
    assert messages == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "How many circles?"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(png).decode()}},
            ],
        }
    ]


def test_vision_row_with_messages_puts_the_image_on_the_last_user_turn(datasets_root):
    row = {
        "id": "vis-2",
        "category": "c",
        "difficulty": "easy",
        "answer": "A",
        "scorer": "exact",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "What colour?"}],
        "image": "images/v.jpg",
    }
    write_dataset(datasets_root, "syn-vision-v1", "eval", [row], files={"images/v.jpg": b"\xff\xd8jpeg"})
    messages = build_messages(row, _spec("syn-vision-v1", datasets_root))
    assert messages[0] == {"role": "system", "content": "Be brief."}
    assert messages[1]["content"][1]["image_url"]["url"].startswith("data:image/jpeg;base64,")


def test_fingerprint_changes_with_body_engine_and_dataset_bytes():
    spec, row = _first("eval-instruction-v1")
    body = build_body(row, spec, STREAM, "m")
    engine = {"kind": "openai", "base_url": "http://127.0.0.1:8000/v1", "model": "m"}
    base = fingerprint(body, engine, "a" * 64)
    assert base == fingerprint(json.loads(json.dumps(body)), dict(reversed(list(engine.items()))), "a" * 64)
    assert base != fingerprint(build_body(row, spec, RequestParams(max_tokens=65), "m"), engine, "a" * 64)
    assert base != fingerprint(body, {**engine, "model": "other"}, "a" * 64)
    assert base != fingerprint(body, engine, "b" * 64)
