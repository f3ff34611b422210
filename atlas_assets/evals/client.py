"""The engine client: async OpenAI-compatible chat completions over aiohttp.

One `EngineClient` per run holds one keep-alive connection pool (at most `concurrency`
connections, the runner keeps at most that many requests in flight). Per attempt:

* a total timeout (`timeout_s`, connect to last byte) and a connect timeout;
* streaming (`"stream": true` in the body): server-sent events are parsed as they arrive;
  TTFT is the time from sending the request to the first chunk that carries output
  (content, reasoning content or a tool-call delta) and every later such chunk appends
  its gap to the inter-token latencies -- the definitions of vLLM's benchmark_serving;
  usage comes from the final chunk (`stream_options.include_usage`);
* non-streaming: one JSON body; only the end-to-end latency is measured.

Retries (at most `max_retries` more attempts) on 429, 5xx, timeouts and dropped or
refused connections, after `Retry-After` when the server sends one (seconds or an HTTP
date, capped at `retry_after_max_s`), else `backoff_s * 2**n` with jitter, capped at
`backoff_max_s`. Any other 4xx (bad request, context overflow, auth) fails at once, and so
does a 5xx whose message says the input is not supported (`unsupported_input`: "image input
is not supported", "does not support tools"), where every retry would fail the same way.
Latencies describe the final attempt; `attempts` and `retry_wait_s` say what it took.

A pooled keep-alive connection the server has closed (llama.cpp's llama-server closes
after every streamed response while advertising `Keep-Alive`) fails the next request on
it before any response byte arrives (`ServerDisconnectedError`, or `ClientOSError: Can
not write request body`). Such a failure of a *reused* connection is re-sent at once on a
fresh, never-pooled connection, counted neither as a retry nor as a failure, at most
`MAX_RECONNECTS` times per request (`Completion.reconnects`); any other drop is a
connection failure as above.

Every response is parsed defensively at this boundary (explicit type checks, no trust in
the server): a body that is not the OpenAI shape (a chunk that is not an object,
`choices`/`delta`/`message` of the wrong type, non-string content, a non-object `usage`
or a token count that is not an integer in 0..`MAX_TOKEN_COUNT`, a tool-call delta that
is not an object or whose index is outside 0..`max_tool_calls`-1, invalid JSON or UTF-8)
fails the request with `error_kind: "protocol"` (not retried); a response over
`max_response_bytes` (counted after decompression, so a compression bomb stops there)
fails with `error_kind: "too_large"`; a body that never ends or trickles is cut by the
attempt's total timeout. Defaults: `MAX_RESPONSE_BYTES` (8 MiB), `MAX_TOOL_CALLS` (128).

A request that still fails returns a `Completion` with `error` set (and `error_kind`):
the runner records it as a failed request, never as an answer.
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

import aiohttp
import orjson

__all__ = [
    "MAX_RECONNECTS",
    "MAX_RESPONSE_BYTES",
    "MAX_TOKEN_COUNT",
    "MAX_TOOL_CALLS",
    "Completion",
    "EngineClient",
    "RetryPolicy",
    "parse_retry_after",
]

RETRYABLE_KINDS = frozenset({"rate_limit", "http_5xx", "timeout", "connection"})
MAX_RESPONSE_BYTES = 8 * 1024 * 1024  # per response body, after decompression (EngineClient(max_response_bytes=))
MAX_TOOL_CALLS = 128  # tool calls per response: a tool-call index must be < this (EngineClient(max_tool_calls=))
MAX_RECONNECTS = 2  # re-sends per request after a reused pooled connection died before any response byte
MAX_TOKEN_COUNT = 10**9  # a usage token count above this (or not an integer) is a protocol error


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 3
    backoff_s: float = 0.5
    backoff_max_s: float = 30.0
    retry_after_max_s: float = 120.0

    def delay(self, retry: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.retry_after_max_s)
        base: float = min(self.backoff_s * (2**retry), self.backoff_max_s)
        return base * random.uniform(0.5, 1.0)


@dataclass
class Completion:
    """What one request produced (output or error) and how it was served."""

    content: str | None = None
    reasoning_content: str | None = None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None
    ttft_s: float | None = None
    itl_s: list[float] = field(default_factory=list)
    e2e_s: float | None = None
    started_at: float = 0.0  # wall clock (epoch s) at the first attempt's send
    ended_at: float = 0.0
    attempts: int = 0
    retry_wait_s: float = 0.0
    status: int | None = None
    error: str | None = None
    error_kind: str | None = None
    reconnects: int = 0  # re-sends after a dead pooled connection (not retries, not recorded)

    @property
    def input_tokens(self) -> int | None:
        return _int(self.usage, "prompt_tokens")

    @property
    def output_tokens(self) -> int | None:
        return _int(self.usage, "completion_tokens")

    @property
    def reasoning_tokens(self) -> int | None:
        if not self.usage:
            return None
        details = self.usage.get("completion_tokens_details") or {}
        value = details.get("reasoning_tokens", self.usage.get("reasoning_tokens"))
        return int(value) if isinstance(value, (int, float)) else None


def _int(usage: Mapping[str, Any] | None, key: str) -> int | None:
    value = (usage or {}).get(key)
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


class _Failure(Exception):
    def __init__(self, kind: str, message: str, status: int | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.kind, self.message, self.status, self.retry_after = kind, message, status, retry_after


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:  # negative -> 0; inf/nan -> none (the backoff); huge -> capped by RetryPolicy
        return max(0.0, seconds) if math.isfinite(seconds) else None
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, OverflowError, IndexError):
        return None


def _protocol(message: str) -> _Failure:
    return _Failure("protocol", message)


def _kind(value: Any) -> str:
    return type(value).__name__


def _optional_str(value: Any, where: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise _protocol(f"{where} is {_kind(value)}, not a string")


def _object(value: Any, where: str) -> dict[str, Any]:
    """`value` when it is a JSON object, {} when null/absent, else a protocol error."""
    if isinstance(value, dict):
        return value
    if value is None:
        return {}
    raise _protocol(f"{where} is {_kind(value)}, not an object")


def _token_count(value: Any, where: str) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_TOKEN_COUNT or value != int(value):
        raise _protocol(f"{where} = {str(value)[:40]} is not a token count (an integer 0..{MAX_TOKEN_COUNT})")


def _usage(value: Any) -> dict[str, Any] | None:
    """The server's usage object, with every count this client reads checked."""
    if value is None:
        return None
    usage = _object(value, "usage")
    for key in ("prompt_tokens", "completion_tokens", "total_tokens", "reasoning_tokens"):
        _token_count(usage.get(key), f"usage.{key}")
    details = _object(usage.get("completion_tokens_details"), "usage.completion_tokens_details")
    _token_count(details.get("reasoning_tokens"), "usage.completion_tokens_details.reasoning_tokens")
    return usage


def _merge_tool_call_delta(calls: list[dict[str, Any]], delta: Any, max_calls: int) -> None:
    if not isinstance(delta, dict):
        raise _protocol(f"a tool-call delta is {_kind(delta)}, not an object")
    index = delta.get("index", len(calls))
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < max_calls:
        raise _protocol(f"tool-call index {str(index)[:40]} is not an integer 0..{max_calls - 1} (max_tool_calls)")
    while len(calls) <= index:
        calls.append({"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
    call = calls[index]
    call_id = _optional_str(delta.get("id"), "tool_calls[].id")
    if call_id:
        call["id"] = call_id
    fn = _object(delta.get("function"), "tool_calls[].function")
    name = _optional_str(fn.get("name"), "tool_calls[].function.name")
    if name:
        call["function"]["name"] += name
    arguments = _optional_str(fn.get("arguments"), "tool_calls[].function.arguments")
    if arguments:
        call["function"]["arguments"] += arguments


def _message_tool_call(call: Any) -> dict[str, Any]:
    call = _object(call, "message.tool_calls[]")
    fn = _object(call.get("function"), "message.tool_calls[].function")
    arguments = fn.get("arguments")
    if isinstance(arguments, (dict, list)):  # some servers send the arguments as an object
        arguments = orjson.dumps(arguments).decode()
    return {
        "id": _optional_str(call.get("id"), "message.tool_calls[].id"),
        "type": _optional_str(call.get("type"), "message.tool_calls[].type") or "function",
        "function": {
            **fn,
            "name": _optional_str(fn.get("name"), "message.tool_calls[].function.name"),
            "arguments": _optional_str(arguments, "message.tool_calls[].function.arguments"),
        },
    }


def _split_lines(data: bytes, partial: list[bytes]) -> list[bytes]:
    """The complete lines in `data`; an unfinished tail waits in `partial` (no quadratic joins)."""
    lines = data.split(b"\n")
    tail = lines.pop()
    if partial and lines:
        partial.append(lines[0])
        lines[0] = b"".join(partial)
        partial.clear()
    if tail:
        partial.append(tail)
    return lines


class _AttemptState:
    """Per attempt, filled by the connection trace: was a pooled connection reused, did a response start."""

    __slots__ = ("reused", "responded")

    def __init__(self) -> None:
        self.reused = self.responded = False

    def dead_pooled(self, exc: aiohttp.ClientError) -> bool:
        """A reused keep-alive connection that failed before any response byte arrived."""
        dropped = isinstance(exc, (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError))
        return dropped and self.reused and not self.responded and not isinstance(exc, aiohttp.ClientConnectorError)


def _connection_error(exc: aiohttp.ClientError) -> str:
    name = type(exc).__name__
    if isinstance(exc, aiohttp.ClientPayloadError):
        return f"connection dropped mid-response ({name})"
    if isinstance(exc, (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError)) and not isinstance(exc, aiohttp.ClientConnectorError):
        return f"connection dropped ({name}: {exc})"
    return f"connection error: {name}: {exc}"


async def _on_reuse(session: Any, ctx: Any, params: Any) -> None:
    if isinstance(ctx.trace_request_ctx, _AttemptState):
        ctx.trace_request_ctx.reused = True


def _error_excerpt(raw: bytes) -> str:
    try:
        data = orjson.loads(raw)
        err = data.get("error", data) if isinstance(data, dict) else data
        message = err.get("message") if isinstance(err, dict) else None
        if message:
            return str(message)[:300]
    except (orjson.JSONDecodeError, AttributeError):
        pass
    return raw[:300].decode("utf-8", "replace").strip()


class EngineClient:
    """Async chat-completions client with one pooled session. Use as `async with`."""

    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        concurrency: int = 64,
        timeout_s: float = 600.0,
        connect_timeout_s: float = 10.0,
        retry: RetryPolicy = RetryPolicy(),
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        max_tool_calls: int = MAX_TOOL_CALLS,
    ):
        self.base_url = base_url.rstrip("/")
        self.concurrency = concurrency
        self.retry = retry
        self.max_response_bytes = max_response_bytes
        self.max_tool_calls = max_tool_calls
        self._timeout = aiohttp.ClientTimeout(total=timeout_s, sock_connect=connect_timeout_s)
        self._timeout_s = timeout_s
        self._headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._session: aiohttp.ClientSession | None = None
        self._fresh_session: aiohttp.ClientSession | None = None

    def _new_session(self, connector: aiohttp.TCPConnector, traced: bool) -> aiohttp.ClientSession:
        traces = []
        if traced:
            trace = aiohttp.TraceConfig()
            trace.on_connection_reuseconn.append(_on_reuse)
            traces.append(trace)
        return aiohttp.ClientSession(
            connector=connector,
            headers=self._headers,
            timeout=self._timeout,
            skip_auto_headers=("User-Agent",),
            trace_configs=traces,
        )

    async def __aenter__(self) -> "EngineClient":
        connector = aiohttp.TCPConnector(limit=self.concurrency, keepalive_timeout=60, enable_cleanup_closed=True)
        self._session = self._new_session(connector, traced=True)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        for session in (self._session, self._fresh_session):
            if session is not None:
                await session.close()
        self._session = self._fresh_session = None

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None:
            raise RuntimeError("EngineClient is used outside `async with`")
        return self._session

    def _fresh(self) -> aiohttp.ClientSession:
        """A session whose connections are never pooled: where a request whose reused
        connection died is re-sent."""
        if self._fresh_session is None:
            self.session  # noqa: B018 -- refuses use outside `async with`
            self._fresh_session = self._new_session(aiohttp.TCPConnector(limit=self.concurrency, force_close=True), traced=False)
        return self._fresh_session

    async def _read_body(self, response: aiohttp.ClientResponse) -> bytes:
        """The whole body, refused past `max_response_bytes` (after decompression)."""
        parts: list[bytes] = []
        size = 0
        async for data in response.content.iter_any():
            size += len(data)
            if size > self.max_response_bytes:
                raise self._too_large()
            parts.append(data)
        return b"".join(parts)

    def _too_large(self) -> _Failure:
        return _Failure("too_large", f"response body exceeds max_response_bytes ({self.max_response_bytes} bytes)")

    async def models(self) -> dict[str, Any]:
        """The server's GET /models answer (retried like a completion). An answer that is
        not a JSON object with a `data` list is kept as `{"data": [], "malformed": excerpt}`."""
        last: _Failure | None = None
        for attempt in range(self.retry.max_retries + 1):
            try:
                async with self.session.get(f"{self.base_url}/models") as response:
                    raw = await self._read_body(response)
                    if response.status >= 400:
                        raise _classify_status(response.status, raw, response.headers.get("Retry-After"))
                return _models_answer(raw)
            except _Failure as failure:
                last = failure
            except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
                last = _Failure("connection", f"{type(exc).__name__}: {exc}")
            if last.kind not in RETRYABLE_KINDS or attempt == self.retry.max_retries:
                break
            await asyncio.sleep(self.retry.delay(attempt, last.retry_after))
        assert last is not None
        raise ConnectionError(f"GET {self.base_url}/models failed: {last.message}")

    async def complete(self, body: bytes, stream: bool, headers: Mapping[str, str] | None = None) -> Completion:
        """POST one chat-completions body (already serialised JSON) with retries."""
        result = Completion(started_at=time.time())
        url = f"{self.base_url}/chat/completions"
        attempt = 0
        fresh = False
        while True:
            result.attempts = attempt + 1
            state = _AttemptState()
            retry_after = None
            try:
                await self._attempt(self._fresh() if fresh else self.session, url, body, stream, headers, result, state)
                result.error = result.error_kind = None
                break
            except _Failure as failure:
                result.error, result.error_kind = failure.message, failure.kind
                result.status = failure.status if failure.status is not None else result.status
                retry_after = failure.retry_after
            except asyncio.TimeoutError:
                result.error, result.error_kind, result.status = f"timeout after {self._timeout_s:g} s", "timeout", None
            except aiohttp.ClientError as exc:
                if state.dead_pooled(exc) and result.reconnects < MAX_RECONNECTS:
                    result.reconnects += 1  # a dead pooled connection: the same attempt again, on a fresh one
                    fresh = True
                    continue
                result.error, result.error_kind = _connection_error(exc), "connection"
            except Exception as exc:  # noqa: BLE001 -- whatever a response does, it is this row's result
                result.error, result.error_kind = f"unexpected response: {type(exc).__name__}: {str(exc)[:200]}", "protocol"
            fresh = False
            if result.error_kind not in RETRYABLE_KINDS or attempt == self.retry.max_retries:
                break
            wait = self.retry.delay(attempt, retry_after)
            result.retry_wait_s += wait
            await asyncio.sleep(wait)
            attempt += 1
        result.ended_at = time.time()
        if result.error is not None:  # a failed request is never an answer, not even a partial one
            result.ttft_s, result.itl_s, result.e2e_s = None, [], None
            result.content = result.reasoning_content = result.finish_reason = None
            result.tool_calls = []
        return result

    async def _attempt(
        self,
        session: aiohttp.ClientSession,
        url: str,
        body: bytes,
        stream: bool,
        headers: Mapping[str, str] | None,
        out: Completion,
        state: _AttemptState,
    ) -> None:
        out.content = out.reasoning_content = out.finish_reason = out.usage = out.status = None
        out.tool_calls, out.itl_s, out.ttft_s = [], [], None
        start = time.perf_counter()
        async with session.post(url, data=body, headers=headers, trace_request_ctx=state) as response:
            state.responded = True
            out.status = response.status
            if response.status >= 400:
                raise _classify_status(response.status, await self._read_body(response), response.headers.get("Retry-After"))
            if stream and response.content_type == "text/event-stream":
                await self._read_stream(response, start, out)
            else:
                self._read_json(await self._read_body(response), out)
        out.e2e_s = time.perf_counter() - start

    def _read_json(self, raw: bytes, out: Completion) -> None:
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise _protocol(f"malformed response body: {raw[:200]!r}") from None
        data = _object(data, "the response body")
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices:
            raise _protocol(f"response `choices` is {_kind(choices)}, not a non-empty list")
        choice = _object(choices[0], "choices[0]")
        message = _object(choice.get("message"), "choices[0].message")
        out.content = _optional_str(message.get("content"), "message.content")
        out.reasoning_content = _optional_str(message.get("reasoning_content") or message.get("reasoning"), "message.reasoning_content")
        calls = message.get("tool_calls") or []
        if not isinstance(calls, list):
            raise _protocol(f"message.tool_calls is {_kind(calls)}, not a list")
        if len(calls) > self.max_tool_calls:
            raise _protocol(f"{len(calls)} tool calls exceed max_tool_calls ({self.max_tool_calls})")
        out.tool_calls = [_message_tool_call(c) for c in calls]
        out.finish_reason = _optional_str(choice.get("finish_reason"), "finish_reason")
        out.usage = _usage(data.get("usage"))

    async def _read_stream(self, response: aiohttp.ClientResponse, start: float, out: Completion) -> None:
        content: list[str] = []
        reasoning: list[str] = []
        partial: list[bytes] = []
        size = 0
        state = [start, False]  # time of the last output chunk, [DONE] seen
        async for data in response.content.iter_any():
            size += len(data)
            if size > self.max_response_bytes:
                raise self._too_large()
            for line in _split_lines(data, partial):
                if line.startswith(b"data:") and self._stream_line(line[5:].strip(), start, state, out, content, reasoning):
                    break
            if state[1]:
                break
        else:
            if partial:
                line = b"".join(partial)
                if line.startswith(b"data:"):
                    self._stream_line(line[5:].strip(), start, state, out, content, reasoning)
        if not state[1] and out.finish_reason is None:
            raise _Failure("connection", "connection dropped mid-stream (no finish_reason, no [DONE])")
        out.content = "".join(content) if content else None
        out.reasoning_content = "".join(reasoning) if reasoning else None

    def _stream_line(
        self, payload: bytes, start: float, state: list[Any], out: Completion, content: list[str], reasoning: list[str]
    ) -> bool:
        """Apply one SSE `data:` payload; True at `[DONE]`."""
        if payload == b"[DONE]":
            state[1] = True
            return True
        try:
            chunk = orjson.loads(payload)
        except orjson.JSONDecodeError:
            raise _protocol(f"malformed stream chunk: {payload[:200]!r}") from None
        if not isinstance(chunk, dict):
            raise _protocol(f"a stream chunk is {_kind(chunk)}, not an object: {payload[:100]!r}")
        error = chunk.get("error")
        if error:  # an error reported mid-stream (vLLM: {"error": {"message", "code"}})
            code = error.get("code") if isinstance(error, dict) else None
            raise _classify_status(code if isinstance(code, int) and 400 <= code <= 599 else 500, payload, None)
        usage = chunk.get("usage")
        if usage is not None and usage != {}:  # null/{} in the chunks before the final one
            out.usage = _usage(usage)
        choices = chunk.get("choices")
        if not choices:
            return False
        if not isinstance(choices, list):
            raise _protocol(f"stream chunk `choices` is {_kind(choices)}, not a list")
        choice = _object(choices[0], "choices[0]")
        delta = _object(choice.get("delta"), "choices[0].delta")
        produced = False
        text = _optional_str(delta.get("content"), "delta.content")
        if text:
            content.append(text)
            produced = True
        thought = _optional_str(delta.get("reasoning_content") or delta.get("reasoning"), "delta.reasoning_content")
        if thought:
            reasoning.append(thought)
            produced = True
        calls = delta.get("tool_calls")
        if calls:
            if not isinstance(calls, list):
                raise _protocol(f"delta.tool_calls is {_kind(calls)}, not a list")
            for call in calls:
                _merge_tool_call_delta(out.tool_calls, call, self.max_tool_calls)
            produced = True
        if produced:
            now = time.perf_counter()
            if out.ttft_s is None:
                out.ttft_s = now - start
            else:
                out.itl_s.append(now - state[0])
            state[0] = now
        finish = _optional_str(choice.get("finish_reason"), "finish_reason")
        if finish:
            out.finish_reason = finish
        return False


def _models_answer(raw: bytes) -> dict[str, Any]:
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        return data
    return {"data": [], "malformed": raw[:300].decode("utf-8", "replace")}


# A 5xx whose message says the server cannot take this input (llama.cpp's text-only server
# answers image rows with HTTP 500 "image input is not supported"): retrying cannot help.
_UNSUPPORTED = re.compile(r"not supported|unsupported|does not support|cannot (?:handle|process)", re.IGNORECASE)


def _classify_status(status: int, raw: bytes, retry_after: str | None) -> _Failure:
    message = f"HTTP {status}: {_error_excerpt(raw)}"
    if status == 429:
        return _Failure("rate_limit", message, status, parse_retry_after(retry_after))
    if status >= 500 and _UNSUPPORTED.search(message):
        return _Failure("unsupported_input", message, status)
    if status >= 500:
        return _Failure("http_5xx", message, status, parse_retry_after(retry_after))
    return _Failure("http_4xx", message, status)
