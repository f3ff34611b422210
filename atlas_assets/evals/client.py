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
`backoff_max_s`. Any other 4xx (bad request, context overflow, auth) fails at once.
Latencies describe the final attempt; `attempts` and `retry_wait_s` say what it took.

A request that still fails returns a `Completion` with `error` set (and `error_kind`):
the runner records it as a failed request, never as an answer.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

import aiohttp
import orjson

__all__ = ["Completion", "EngineClient", "RetryPolicy", "parse_retry_after"]

RETRYABLE_KINDS = frozenset({"rate_limit", "http_5xx", "timeout", "connection"})


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 3
    backoff_s: float = 0.5
    backoff_max_s: float = 30.0
    retry_after_max_s: float = 120.0

    def delay(self, retry: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.retry_after_max_s)
        base = min(self.backoff_s * (2**retry), self.backoff_max_s)
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
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _merge_tool_call_delta(calls: list[dict[str, Any]], delta: Mapping[str, Any]) -> None:
    index = delta.get("index", len(calls))
    while len(calls) <= index:
        calls.append({"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
    call = calls[index]
    if delta.get("id"):
        call["id"] = delta["id"]
    fn = delta.get("function") or {}
    if fn.get("name"):
        call["function"]["name"] += fn["name"]
    if fn.get("arguments"):
        call["function"]["arguments"] += fn["arguments"]


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
    ):
        self.base_url = base_url.rstrip("/")
        self.concurrency = concurrency
        self.retry = retry
        self._timeout = aiohttp.ClientTimeout(total=timeout_s, sock_connect=connect_timeout_s)
        self._timeout_s = timeout_s
        self._headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> "EngineClient":
        connector = aiohttp.TCPConnector(limit=self.concurrency, keepalive_timeout=60, enable_cleanup_closed=True)
        self._session = aiohttp.ClientSession(
            connector=connector, headers=self._headers, timeout=self._timeout, skip_auto_headers=("User-Agent",)
        )
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None:
            raise RuntimeError("EngineClient is used outside `async with`")
        return self._session

    async def models(self) -> dict[str, Any]:
        """The server's GET /models answer (retried like a completion)."""
        last: _Failure | None = None
        for attempt in range(self.retry.max_retries + 1):
            try:
                async with self.session.get(f"{self.base_url}/models") as response:
                    raw = await response.read()
                    if response.status >= 400:
                        raise _classify_status(response.status, raw, response.headers.get("Retry-After"))
                    return orjson.loads(raw)
            except _Failure as failure:
                last = failure
            except (aiohttp.ClientError, asyncio.TimeoutError, orjson.JSONDecodeError) as exc:
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
        for attempt in range(self.retry.max_retries + 1):
            result.attempts = attempt + 1
            try:
                await self._attempt(url, body, stream, headers, result)
                result.error = result.error_kind = None
                break
            except _Failure as failure:
                result.error, result.error_kind, result.status = failure.message, failure.kind, failure.status
                retry_after = failure.retry_after
            except asyncio.TimeoutError:
                result.error, result.error_kind, result.status = f"timeout after {self._timeout_s:g} s", "timeout", None
                retry_after = None
            except (aiohttp.ClientPayloadError, aiohttp.ServerDisconnectedError) as exc:
                result.error, result.error_kind = f"connection dropped mid-response ({type(exc).__name__})", "connection"
                retry_after = None
            except aiohttp.ClientError as exc:
                result.error, result.error_kind = f"connection error: {type(exc).__name__}: {exc}", "connection"
                retry_after = None
            if result.error_kind not in RETRYABLE_KINDS or attempt == self.retry.max_retries:
                break
            wait = self.retry.delay(attempt, retry_after)
            result.retry_wait_s += wait
            await asyncio.sleep(wait)
        result.ended_at = time.time()
        if result.error is not None:
            result.ttft_s, result.itl_s, result.e2e_s = None, [], None
        return result

    async def _attempt(
        self, url: str, body: bytes, stream: bool, headers: Mapping[str, str] | None, out: Completion
    ) -> None:
        out.content = out.reasoning_content = out.finish_reason = out.usage = None
        out.tool_calls, out.itl_s, out.ttft_s = [], [], None
        start = time.perf_counter()
        async with self.session.post(url, data=body, headers=headers) as response:
            out.status = response.status
            if response.status >= 400:
                raise _classify_status(response.status, await response.read(), response.headers.get("Retry-After"))
            if stream and response.content_type == "text/event-stream":
                await self._read_stream(response, start, out)
            else:
                self._read_json(await response.read(), out)
        out.e2e_s = time.perf_counter() - start

    @staticmethod
    def _read_json(raw: bytes, out: Completion) -> None:
        try:
            data = orjson.loads(raw)
            choice = data["choices"][0]
            message = choice.get("message") or {}
        except (orjson.JSONDecodeError, KeyError, IndexError, TypeError, AttributeError):
            raise _Failure("protocol", f"malformed response body: {raw[:200]!r}") from None
        out.content = message.get("content")
        out.reasoning_content = message.get("reasoning_content") or message.get("reasoning")
        out.tool_calls = [
            {"id": c.get("id"), "type": c.get("type", "function"), "function": dict(c.get("function") or {})}
            for c in (message.get("tool_calls") or [])
        ]
        out.finish_reason = choice.get("finish_reason")
        out.usage = data.get("usage")

    @staticmethod
    async def _read_stream(response: aiohttp.ClientResponse, start: float, out: Completion) -> None:
        content: list[str] = []
        reasoning: list[str] = []
        last = start
        done = False
        async for line in response.content:
            if not line.startswith(b"data:"):
                continue
            payload = line[5:].strip()
            if payload == b"[DONE]":
                done = True
                break
            try:
                chunk = orjson.loads(payload)
            except orjson.JSONDecodeError:
                raise _Failure("protocol", f"malformed stream chunk: {payload[:200]!r}") from None
            if chunk.get("error"):  # an error reported mid-stream (vLLM: {"error": {"message", "code"}})
                code = chunk["error"].get("code") if isinstance(chunk["error"], dict) else None
                raise _classify_status(code if isinstance(code, int) else 500, payload, None)
            if chunk.get("usage"):
                out.usage = chunk["usage"]
            choices = chunk.get("choices") or ()
            if not choices:
                continue
            choice = choices[0]
            delta = choice.get("delta") or {}
            produced = False
            text = delta.get("content")
            if text:
                content.append(text)
                produced = True
            thought = delta.get("reasoning_content") or delta.get("reasoning")
            if thought:
                reasoning.append(thought)
                produced = True
            for call in delta.get("tool_calls") or ():
                _merge_tool_call_delta(out.tool_calls, call)
                produced = True
            if produced:
                now = time.perf_counter()
                if out.ttft_s is None:
                    out.ttft_s = now - start
                else:
                    out.itl_s.append(now - last)
                last = now
            if choice.get("finish_reason"):
                out.finish_reason = choice["finish_reason"]
        if not done and out.finish_reason is None:
            raise _Failure("connection", "connection dropped mid-stream (no finish_reason, no [DONE])")
        out.content = "".join(content) if content else None
        out.reasoning_content = "".join(reasoning) if reasoning else None


def _classify_status(status: int, raw: bytes, retry_after: str | None) -> _Failure:
    message = f"HTTP {status}: {_error_excerpt(raw)}"
    if status == 429:
        return _Failure("rate_limit", message, status, parse_retry_after(retry_after))
    if status >= 500:
        return _Failure("http_5xx", message, status, parse_retry_after(retry_after))
    return _Failure("http_4xx", message, status)
