"""The engine client against hostile and keep-alive-breaking servers (tests/evals/hostile.py,
raw sockets on 127.0.0.1): every response shape is this row's result, never an aborted run;
a pooled connection the server closed is re-sent on a fresh one, not retried."""

from __future__ import annotations

import asyncio
import gzip

import orjson
import pytest

from atlas_assets.evals import client as client_module
from atlas_assets.evals.client import MAX_TOOL_CALLS, EngineClient, RetryPolicy
from atlas_assets.evals.engines import resolve_engine
from atlas_assets.evals.runner import run_eval
from atlas_assets.evals.workloads import load_workload
from tests.helpers.evals import prompt_rows, write_dataset, write_workload

from .hostile import GOOD_STREAM, MODELS, HostileServer, chunk, http, sse

NO_RETRY = RetryPolicy(max_retries=0)
BODY = orjson.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}], "stream": True})


def _chunked(body: bytes) -> bytes:
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body) if body else b"0\r\n\r\n"


KEEP_ALIVE = "Connection: keep-alive\r\nKeep-Alive: timeout=5, max=100\r\n"


async def _llama_server(request, writer) -> bool:
    """llama-server: every streamed completion is answered (chunked, advertising keep-alive)
    and then the connection is dead -- here: the next request on it is dropped unanswered."""
    if request.after == "/v1/chat/completions":
        return False
    if request.path.endswith("/models"):
        writer.write(http(200, MODELS, extra=KEEP_ALIVE))
        return True
    head = f"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n{KEEP_ALIVE}\r\n"
    writer.write(head.encode() + _chunked(GOOD_STREAM))
    return True


def _serve_workload(tmp_path, datasets_root, n=50):
    write_dataset(datasets_root, "syn-prompts-v1", "prompts", prompt_rows(n))
    path = write_workload(
        tmp_path / "workloads", datasets_root, "syn-prompts-v1", kind="serve", concurrency=4, request={"max_tokens": 16, "stream": True}
    )
    return load_workload(path)


def _engine(url):
    return resolve_engine(url, model="m").model_copy(update={"max_retries": 0, "concurrency": 4})


def test_a_server_closing_pooled_connections_costs_no_failure_and_no_retry(tmp_path, datasets_root):
    workload = _serve_workload(tmp_path, datasets_root)
    with HostileServer(_llama_server) as server:
        outcome = run_eval(workload, _engine(server.base_url), tmp_path / "run", datasets_root=datasets_root)
    metrics = outcome.results.metrics
    dropped = [r for r in server.requests if r.after == "/v1/chat/completions"]
    assert outcome.complete and len(outcome.records) == 50
    assert metrics.requests_failed == 0 and metrics.requests_retried == 0
    assert all(r.content == "hello" and r.attempts == 1 for r in outcome.records.values())
    assert dropped  # the dead pooled connections really were used (and re-sent)


def test_without_the_reconnect_the_same_server_fails_requests(tmp_path, datasets_root, monkeypatch):
    monkeypatch.setattr(client_module, "MAX_RECONNECTS", 0)
    workload = _serve_workload(tmp_path, datasets_root, n=20)
    with HostileServer(_llama_server) as server:
        outcome = run_eval(workload, _engine(server.base_url), tmp_path / "run", datasets_root=datasets_root)
    assert outcome.results.metrics.requests_failed > 0


def test_a_server_that_always_drops_is_still_a_failure():
    async def drop_after_first(request, writer):
        if request.index == 0:
            writer.write(http(200, GOOD_STREAM, "text/event-stream", extra=KEEP_ALIVE))
            return True
        return False

    async def go(url):
        async with EngineClient(url, concurrency=1, retry=NO_RETRY) as client:
            return await client.complete(BODY, True), await client.complete(BODY, True)

    with HostileServer(drop_after_first) as server:
        first, second = asyncio.run(go(server.base_url))
    assert first.error is None and first.content == "hello"
    assert second.error_kind == "connection" and second.attempts == 1
    assert second.reconnects == 1 and len(server.requests) == 3  # the drop on the reused connection, once more fresh


# ---------------------------------------------------------------- hostile response shapes

BOMB = gzip.compress(b"\0" * (64 << 20), compresslevel=6)
BIG = "x" * (600 << 10)


def _stream(body: bytes, extra: str = "") -> bytes:
    return http(200, body, "text/event-stream", extra=extra, length=False)


def _fixed(raw: bytes):
    async def respond(request, writer):
        writer.write(raw)
        return False

    return respond


async def _endless(request, writer):
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
    event = b"data: " + orjson.dumps(chunk("y" * 1000)) + b"\n\n"
    while True:
        writer.write(event * 64)
        await writer.drain()


async def _trickle(request, writer):
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
    for byte in sse(chunk("slow"), chunk(finish="stop")):
        writer.write(bytes([byte]))
        await writer.drain()
        await asyncio.sleep(1.0)


TOOL = lambda call: {"choices": [{"delta": {"tool_calls": [call]}}]}  # noqa: E731

STREAM_CASES = {
    "chunk-array": (sse([1, 2]), "protocol", "is list, not an object"),
    "chunk-string": (sse('"hi"'), "protocol", "is str, not an object"),
    "chunk-number": (sse("42"), "protocol", "is int, not an object"),
    "choices-object": (sse({"choices": {"0": {}}}), "protocol", "`choices` is dict"),
    "choice-string": (sse({"choices": ["x"]}), "protocol", "choices[0] is str"),
    "delta-string": (sse({"choices": [{"delta": "hi"}]}), "protocol", "delta is str"),
    "content-number": (sse({"choices": [{"delta": {"content": 5}}]}), "protocol", "delta.content is int"),
    "usage-string": (sse(chunk("a", "stop"), {"choices": [], "usage": "lots"}), "protocol", "usage is str"),
    "usage-list": (sse(chunk("a", "stop"), {"choices": [], "usage": [1]}), "protocol", "usage is list"),
    "tokens-1e300": (
        sse(chunk("a", "stop"), {"choices": [], "usage": {"completion_tokens": 1e300}}),
        "protocol",
        "usage.completion_tokens = 1e+300 is not a token count",
    ),
    "tool-delta-string": (sse(TOOL("call")), "protocol", "tool-call delta is str"),
    "tool-index-minus-1": (sse(TOOL({"index": -1, "function": {"name": "f"}})), "protocol", "tool-call index -1"),
    "tool-index-50M": (sse(TOOL({"index": 50_000_000, "function": {"name": "f"}})), "protocol", "tool-call index 50000000"),
    "invalid-utf8": (sse(b'{"choices": [{"delta": {"content": "\xff\xfe"}}]}'), "protocol", "malformed stream chunk"),
    "error-chunk-string": (sse({"error": "boom"}), "http_5xx", "HTTP 500"),
}
STREAM_RAW = {
    "endless-stream": (_endless, "too_large", "exceeds max_response_bytes"),
    "trickle-1-byte-per-s": (_trickle, "timeout", "timeout after 2 s"),
    "gzip-bomb": (_fixed(_stream(BOMB, "Content-Encoding: gzip\r\n")), "too_large", "exceeds max_response_bytes"),
}


def _run(respond, body=BODY, stream=True, **kwargs):
    async def go(url):
        async with EngineClient(url, concurrency=2, **{"retry": NO_RETRY, "timeout_s": 2.0, **kwargs}) as client:
            return await client.complete(body, stream)

    with HostileServer(respond) as server:
        return asyncio.run(go(server.base_url))


@pytest.mark.parametrize("case", [*STREAM_CASES, *STREAM_RAW])
def test_a_hostile_stream_is_a_failed_request_with_its_reason(case):
    if case in STREAM_CASES:
        body, kind, reason = STREAM_CASES[case]
        respond = _fixed(_stream(body))
    else:
        respond, kind, reason = STREAM_RAW[case]
    result = _run(respond)
    assert result.error_kind == kind and reason in result.error, result.error
    assert result.attempts == 1 and result.content is None and result.e2e_s is None
    assert len(result.tool_calls) <= MAX_TOOL_CALLS


def test_a_long_sse_line_is_read_whole_and_the_response_limit_holds():
    respond = _fixed(_stream(sse(chunk(BIG), chunk(finish="stop"))))
    result = _run(respond)
    assert result.error is None and result.content == BIG and result.finish_reason == "stop"
    small = _run(respond, max_response_bytes=256 << 10)
    assert small.error_kind == "too_large" and "262144 bytes" in small.error


def test_tool_call_limit_is_per_client():
    respond = _fixed(_stream(sse(TOOL({"index": 3, "function": {"name": "f", "arguments": "{}"}}), chunk(finish="tool_calls"))))
    assert _run(respond).tool_calls[3]["function"] == {"name": "f", "arguments": "{}"}
    assert "0..2 (max_tool_calls)" in _run(respond, max_tool_calls=3).error


JSON_CASES = {
    "body-list": (b"[1]", "the response body is list"),
    "body-garbage": (b"<html>oops", "malformed response body"),
    "choices-empty": (b'{"choices": []}', "not a non-empty list"),
    "message-string": (b'{"choices": [{"message": "hello"}]}', "choices[0].message is str"),
    "content-list": (b'{"choices": [{"message": {"content": [{"type": "text", "text": "a"}]}}]}', "message.content is list"),
    "tool-calls-object": (b'{"choices": [{"message": {"tool_calls": {"a": 1}}}]}', "message.tool_calls is dict"),
    "usage-number": (b'{"choices": [{"message": {"content": "a"}}], "usage": 7}', "usage is int"),
    "invalid-utf8": (b'{"choices": [{"message": {"content": "\xff"}}]}', "malformed response body"),
}


@pytest.mark.parametrize("case", [*JSON_CASES, "gzip-bomb"])
def test_a_hostile_json_body_is_a_failed_request_with_its_reason(case):
    if case == "gzip-bomb":
        raw, kind, reason = http(200, BOMB, extra="Content-Encoding: gzip\r\n"), "too_large", "exceeds max_response_bytes"
    else:
        raw, kind, reason = http(200, JSON_CASES[case][0]), "protocol", JSON_CASES[case][1]
    result = _run(_fixed(raw), stream=False)
    assert result.error_kind == kind and reason in result.error, result.error
    assert result.content is None and result.attempts == 1


def test_a_gzip_bomb_error_body_is_bounded_too():
    result = _run(_fixed(http(500, BOMB, extra="Content-Encoding: gzip\r\n")), stream=False)
    assert result.error_kind == "too_large"


@pytest.mark.parametrize(
    "header, waited", [("1000000000000", 0.05), ("-5", 0.0), ("soon", None), ("inf", None), ("Fri, 31 Dec 9999 23:59:59 GMT", 0.05)]
)
def test_an_absurd_retry_after_is_capped_or_ignored(header, waited):
    respond = _fixed(http(429, b'{"error": {"message": "slow down"}}', extra=f"Retry-After: {header}\r\n"))
    result = _run(respond, retry=RetryPolicy(max_retries=1, backoff_s=0.02, retry_after_max_s=0.05))
    assert result.error_kind == "rate_limit" and result.attempts == 2
    if waited is None:  # unusable: the backoff (0.02 x 0.5-1 jitter)
        assert 0.01 <= result.retry_wait_s <= 0.02
    else:
        assert result.retry_wait_s == pytest.approx(waited)


@pytest.mark.parametrize("answer", [b"[1, 2]", b"garbage \xff", b'{"data": 5}', b'{"data": "m"}'])
def test_a_malformed_models_answer_is_kept_and_the_run_goes_on(tmp_path, datasets_root, answer):
    async def respond(request, writer):
        writer.write(
            http(
                200,
                answer if request.path.endswith("/models") else GOOD_STREAM,
                "application/json" if request.path.endswith("/models") else "text/event-stream",
            )
        )
        return False

    workload = _serve_workload(tmp_path, datasets_root, n=3)
    with HostileServer(respond) as server:
        outcome = run_eval(workload, _engine(server.base_url), tmp_path / "run", datasets_root=datasets_root)
    models = outcome.results.server_models
    assert models["data"] == [] and models["malformed"].startswith(answer[:5].decode("utf-8", "replace"))
    assert outcome.complete and outcome.results.metrics.requests_failed == 0


def test_every_hostile_shape_in_one_run_is_a_recorded_row(tmp_path, datasets_root):
    shapes = [_stream(body) for body, _, _ in STREAM_CASES.values()] + [http(200, raw) for raw, _ in JSON_CASES.values()]

    async def respond(request, writer):
        if request.path.endswith("/models"):
            writer.write(http(200, MODELS))
        else:
            row = orjson.loads(request.body)["messages"][-1]["content"]
            writer.write(shapes[int(row.split("number ")[1].split(" ")[0]) % len(shapes)])
        return False

    workload = _serve_workload(tmp_path, datasets_root, n=len(shapes))
    with HostileServer(respond) as server:
        outcome = run_eval(workload, _engine(server.base_url), tmp_path / "run", datasets_root=datasets_root)
    assert outcome.complete and len(outcome.records) == len(shapes)
    assert outcome.results.metrics.requests_failed == len(shapes)
    assert all(r.error and r.error_kind in ("protocol", "http_5xx") for r in outcome.records.values())


def test_the_engine_file_sets_the_client_limits():
    from atlas_assets.evals.engines import Engine
    from atlas_assets.evals.send import engine_client

    engine = Engine(name="e", kind="openai", base_url="http://127.0.0.1:9/v1", max_response_bytes=4096, max_tool_calls=3)
    client = engine_client(engine, engine.base_url, 1)
    assert (client.max_response_bytes, client.max_tool_calls) == (4096, 3)


@pytest.mark.parametrize(
    "message, kind, attempts",
    [
        (b'{"error": {"message": "image input is not supported"}}', "unsupported_input", 1),
        (b'{"error": {"message": "this model does not support tools"}}', "unsupported_input", 1),
        (b'{"error": {"message": "out of memory"}}', "http_5xx", 3),
    ],
)
def test_a_5xx_that_says_the_input_is_not_supported_is_not_retried(message, kind, attempts):
    result = _run(_fixed(http(500, message)), retry=RetryPolicy(max_retries=2, backoff_s=0.0))
    assert (result.error_kind, result.attempts) == (kind, attempts)
