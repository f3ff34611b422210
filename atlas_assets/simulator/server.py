"""The simulator's OpenAI-compatible HTTP server: a plain ASGI app served by uvicorn
(httptools parser, uvloop event loop).

Endpoints (every response carries the header `x-atlas-simulator: 1`):

  POST /v1/chat/completions   non-streaming, or SSE with `stream: true` (`data: {...}`
                              chunks, `data: [DONE]`; with `stream_options.include_usage`
                              a last chunk with `choices: []` and the usage)
  GET  /v1/models             the profile's model, owned_by "inference-atlas-simulator",
                              with `max_model_len` and the whole profile under `simulator`
  GET  /v1/models/{id}        that model object (for the model id or the profile name), else 404
  GET  /health                {"status": "ok", "simulator": true, ...}

Usage: prompt_tokens = ceil(characters of the messages' text / 4) (+256 per image part),
completion_tokens = the streamed tokens (4-character chunks), and
completion_tokens_details.reasoning_tokens. Errors have OpenAI's shape
{"error": {"message", "type", "param", "code"}}: 400 invalid_request_error (bad body;
`param` names an invalid parameter, with OpenAI's ranges: max_tokens and
max_completion_tokens >= 1, temperature in [0, 2], top_p in [0, 1], n = 1, a non-empty
`messages`, a tool_choice that names an offered function; `context_length_exceeded` when
prompt tokens > max_context), 404 model_not_found, and the
injected 500/503 (server_error) and 429 (rate_limit_exceeded, with `Retry-After` in seconds
and `retry-after-ms`).

Every chat request is logged as a `LoggedRequest` (row id or None, sha256 of the body,
outcome) and, with a log file, as one JSON line with the dataset, attempt and time too.
Outcomes: ok, error_500, error_503, timeout, rate_limited, dropped, context_overflow,
bad_request, unknown_model.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import socket
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, NamedTuple, Sequence

import orjson
import uvicorn

from atlas_assets.simulator.index import CorpusIndex, RequestView, conversation_digest
from atlas_assets.simulator.profiles import SimulatorProfile
from atlas_assets.simulator.replies import CHARS_PER_TOKEN, BadParameter, Reply, ReplyRequest, compose_reply, draw_failure
from atlas_assets.simulator.translation import TranslationIndex, compose_translation, default_translation_index

__all__ = ["OWNED_BY", "LoggedRequest", "SimulatorApp", "bind", "build_server"]

OWNED_BY = "inference-atlas-simulator"
MARKER = (b"x-atlas-simulator", b"1")
JSON_HEADERS = [(b"content-type", b"application/json"), MARKER]
SSE_HEADERS = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache"), MARKER]

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


async def read_body(receive: Receive) -> bytes | None:
    """A request's whole body from its ASGI messages; None when the client disconnected."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


class LoggedRequest(NamedTuple):
    row_id: str | None
    body_sha256: str
    outcome: str


def _error(message: str, type_: str, code: str | None = None, param: str | None = None) -> bytes:
    return orjson.dumps({"error": {"message": message, "type": type_, "param": param, "code": code}})


def _pieces(text: str) -> list[str]:
    return [text[i : i + CHARS_PER_TOKEN] for i in range(0, len(text), CHARS_PER_TOKEN)]


class SimulatorApp:
    """The ASGI application for one profile over one corpus index."""

    def __init__(
        self,
        profile: SimulatorProfile,
        index: CorpusIndex,
        log_path: str | Path | None = None,
        keep_log: bool = True,
        translation_corpora: Sequence[str | Path] | None = None,
    ) -> None:
        """`log_path` appends every request to a JSONL file; `keep_log` also keeps them in
        `self.log` (a long-running server that only needs the file turns it off).
        `translation_corpora`: the translation corpus files answered (translation.py);
        None = every corpus of the translation folder, indexed at the first translation prompt."""
        self.profile = profile
        self.index = index
        self._translation_corpora = translation_corpora
        self._translations: TranslationIndex | None = None
        self.log: list[LoggedRequest] = []
        self._keep_log = keep_log
        self.closing = asyncio.Event()  # set when the server shuts down: hanging requests get a 503
        self._attempts: dict[str, int] = {}
        self._log_file = open(log_path, "ab", buffering=0) if log_path is not None else None
        dumped = profile.model_dump(mode="json")
        self.fingerprint = "atlas-sim-" + hashlib.sha256(orjson.dumps(dumped, option=orjson.OPT_SORT_KEYS)).hexdigest()[:12]
        model_object = {
            "id": profile.model,
            "object": "model",
            "created": 0,
            "owned_by": OWNED_BY,
            "root": profile.model,
            "max_model_len": profile.max_context,
            "simulator": dumped,
        }
        self._models = orjson.dumps({"object": "list", "data": [model_object]})
        self._model_object = orjson.dumps(model_object)
        self._health = orjson.dumps(
            {"status": "ok", "simulator": True, "profile": profile.name, "model": profile.model, "rows_indexed": index.rows}
        )

    @property
    def translations(self) -> TranslationIndex:
        if self._translations is None:
            self._translations = default_translation_index(self._translation_corpora)
        return self._translations

    def close(self) -> None:
        if self._log_file is not None:
            self._log_file.close()

    # --- ASGI --------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        path = scope["path"].rstrip("/")
        method = scope["method"]
        if path == "/v1/chat/completions":
            if method == "POST":
                await self._chat(receive, send)
            else:
                await self._respond(send, 405, _error(f"{method} is not allowed here; use POST", "invalid_request_error"))
        elif path in ("/v1/models", "/health") or path.startswith("/v1/models/"):
            if method != "GET":
                await self._respond(send, 405, _error(f"{method} is not allowed here; use GET", "invalid_request_error"))
            elif path.startswith("/v1/models/"):
                await self._model(send, path[len("/v1/models/") :])
            else:
                await self._respond(send, 200, self._models if path == "/v1/models" else self._health)
        else:
            await self._respond(
                send,
                404,
                _error(
                    f"no route {path or '/'}; this simulator serves /v1/chat/completions, /v1/models and /health", "invalid_request_error"
                ),
            )

    def _unknown_model(self, model: object) -> bytes:
        message = f"The model `{model}` does not exist. This simulator serves `{self.profile.model}`."
        return _error(message, "invalid_request_error", "model_not_found", "model")

    async def _model(self, send: Send, model_id: str) -> None:
        """GET /v1/models/{id}: the model object for the profile's model (or its name)."""
        if model_id in (self.profile.model, self.profile.name):
            await self._respond(send, 200, self._model_object)
        else:
            await self._respond(send, 404, self._unknown_model(model_id))

    async def _respond(self, send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [*JSON_HEADERS, (b"content-length", str(len(body)).encode()), *(headers or ())],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _record(self, row_id: str | None, dataset: str | None, body_sha: str, outcome: str, attempt: int) -> None:
        if self._keep_log:
            self.log.append(LoggedRequest(row_id, body_sha, outcome))
        if self._log_file is not None:
            line = {
                "row_id": row_id,
                "dataset": dataset,
                "body_sha256": body_sha,
                "outcome": outcome,
                "attempt": attempt,
                "time": time.time(),
            }
            self._log_file.write(orjson.dumps(line) + b"\n")

    async def _chat(self, receive: Receive, send: Send) -> None:
        loop = asyncio.get_running_loop()
        arrived = loop.time()  # the latency model counts from here, not from when work ends
        body = await read_body(receive)
        if body is None:
            return
        body_sha = hashlib.sha256(body).hexdigest()
        attempt = self._attempts.get(body_sha, 0)
        self._attempts[body_sha] = attempt + 1
        profile = self.profile
        param: str | None = None  # the parameter a parse error is about, when known
        try:
            request = orjson.loads(body)
            if not isinstance(request, dict):
                raise ValueError("the body must be a JSON object")
            params = ReplyRequest.from_body(request)  # BadParameter names the parameter
            param = "messages"
            view = RequestView.parse(request["messages"], drop_images=profile.text_only)
        except (ValueError, TypeError) as exc:  # orjson.JSONDecodeError is a ValueError
            self._record(None, None, body_sha, "bad_request", attempt)
            if isinstance(exc, BadParameter):
                await self._respond(send, 400, _error(str(exc), "invalid_request_error", "invalid_value", exc.param))
            else:
                await self._respond(send, 400, _error(f"invalid request: {exc}", "invalid_request_error", None, param))
            return
        model = request.get("model")
        if model not in (profile.model, profile.name):
            self._record(None, None, body_sha, "unknown_model", attempt)
            await self._respond(send, 404, self._unknown_model(model))
            return

        entry = self.index.identify(view)
        row_key = entry.key if entry is not None else "?" + conversation_digest(view.turns).hex()
        row_id = entry.id if entry is not None else None
        dataset = entry.dataset if entry is not None else None
        translation = self.translations.identify(view) if entry is None else None  # translation.py
        if translation is not None and translation[0] is not None:
            row_key, row_id, dataset = translation[0].key, str(translation[0].segment_id), translation[0].dataset
        prompt_tokens = view.prompt_tokens
        if prompt_tokens > profile.max_context:
            self._record(row_id, dataset, body_sha, "context_overflow", attempt)
            message = (
                f"This model's maximum context length is {profile.max_context} tokens. However, your messages "
                f"resulted in {prompt_tokens} tokens. Please reduce the length of the messages."
            )
            await self._respond(send, 400, _error(message, "invalid_request_error", "context_length_exceeded", "messages"))
            return

        failure = draw_failure(profile, row_key, attempt)
        self._record(row_id, dataset, body_sha, failure or "ok", attempt)
        if failure == "error_500":
            await self._respond(send, 500, _error("The simulator injected an internal server error.", "server_error", "internal_error"))
            return
        if failure == "error_503":
            await self._respond(
                send, 503, _error("The simulator injected an overload: service unavailable.", "server_error", "service_unavailable")
            )
            return
        if failure == "rate_limited":
            seconds = profile.retry_after_s
            headers = [(b"retry-after", f"{seconds:g}".encode()), (b"retry-after-ms", str(round(seconds * 1000)).encode())]
            message = f"Rate limit reached (simulated). Please try again in {seconds:g}s."
            await self._respond(send, 429, _error(message, "rate_limit_error", "rate_limit_exceeded"), headers)
            return
        if failure == "timeout":
            outcome = await self._hang(receive)
            if outcome == "disconnected":
                return  # the client gave up
            if outcome == "closing":
                await self._respond(send, 503, _error("The simulator is shutting down.", "server_error", "service_unavailable"))
                return
            arrived = loop.time()  # hung long enough: now answer as if the request had just come

        if translation is not None:
            reply = compose_translation(profile, translation[0], translation[1], row_key)
        else:
            reply = compose_reply(profile, entry, view, params, row_key, attempt)
        response_id = f"chatcmpl-sim-{body_sha[:16]}-{attempt}"
        completion_tokens = reply.completion_tokens
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "completion_tokens_details": {"reasoning_tokens": reply.reasoning_tokens},
        }
        if request.get("stream"):
            options = request.get("stream_options")
            include_usage = isinstance(options, dict) and bool(options.get("include_usage"))
            await self._stream(send, reply, response_id, usage if include_usage else None, failure == "dropped", arrived)
        else:
            await self._complete(send, reply, response_id, usage, failure == "dropped", arrived)

    async def _hang(self, receive: Receive) -> str:
        """Send nothing for hang_s seconds: "expired", or "disconnected" when the client gave
        up first, or "closing" when the server is shutting down."""

        async def until_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        disconnect = asyncio.ensure_future(until_disconnect())
        closing = asyncio.ensure_future(self.closing.wait())
        done, pending = await asyncio.wait((disconnect, closing), timeout=self.profile.hang_s, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if disconnect in done:
            return "disconnected"
        return "closing" if closing in done else "expired"

    async def _complete(self, send: Send, reply: Reply, response_id: str, usage: dict[str, Any], dropped: bool, arrived: float) -> None:
        message: dict[str, Any] = {"role": "assistant", "content": reply.content if (reply.content or not reply.tool_calls) else None}
        if reply.reasoning:
            message["reasoning_content"] = reply.reasoning
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
                for call_id, name, arguments in reply.tool_calls
            ]
        body = orjson.dumps(
            {
                "id": response_id,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": self.profile.model,
                "system_fingerprint": self.fingerprint,
                "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": reply.finish_reason}],
                "usage": usage,
            }
        )
        profile = self.profile
        if not profile.zero_latency:
            delay = (profile.ttft_ms + max(0, usage["completion_tokens"] - 1) * profile.per_token_ms) / 1000
            await asyncio.sleep(max(0.0, arrived + delay - asyncio.get_running_loop().time()))
        if dropped:  # the headers promise the whole body; half of it arrives, then the socket closes
            await send(
                {"type": "http.response.start", "status": 200, "headers": [*JSON_HEADERS, (b"content-length", str(len(body)).encode())]}
            )
            await send({"type": "http.response.body", "body": body[: len(body) // 2], "more_body": True})
            return  # uvicorn closes a connection whose response was left incomplete
        await self._respond(send, 200, body)

    def _frames(self, reply: Reply, response_id: str, usage: dict[str, Any] | None) -> tuple[list[bytes], bytes]:
        """The SSE events, one per token (the first also opens the message), and the closing
        events (finish reason, optional usage chunk, [DONE])."""
        head = (
            orjson.dumps(
                {
                    "id": response_id,
                    "object": "chat.completion.chunk",
                    "created": int(time.time()),
                    "model": self.profile.model,
                    "system_fingerprint": self.fingerprint,
                }
            )[:-1]
            + b',"choices":[{"index":0,"delta":'
        )
        usage_null = b',"usage":null' if usage is not None else b""
        tail = b',"logprobs":null,"finish_reason":null}]' + usage_null + b"}\n\n"

        def event(delta: bytes) -> bytes:
            return b"data: " + head + delta + tail

        frames = [event(b'{"role":"assistant","content":""}')]
        for piece in _pieces(reply.reasoning):
            frames.append(event(b'{"reasoning_content":' + orjson.dumps(piece) + b"}"))
        for piece in _pieces(reply.content):
            frames.append(event(b'{"content":' + orjson.dumps(piece) + b"}"))
        for index, (call_id, name, arguments) in enumerate(reply.tool_calls):
            opening = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
            frames.append(event(orjson.dumps({"tool_calls": [opening]})))
            for piece in _pieces(arguments):
                frames.append(event(orjson.dumps({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})))
        if len(frames) > 1:  # the role opener travels with the first token
            frames[1] = frames[0] + frames[1]
            del frames[0]
        closing = (
            b"data: " + head + b'{},"logprobs":null,"finish_reason":' + orjson.dumps(reply.finish_reason) + b"}]" + usage_null + b"}\n\n"
        )
        if usage is not None:
            closing += b"data: " + head[: head.index(b'"choices"')] + b'"choices":[],"usage":' + orjson.dumps(usage) + b"}\n\n"
        return frames, closing + b"data: [DONE]\n\n"

    async def _stream(
        self, send: Send, reply: Reply, response_id: str, usage: dict[str, Any] | None, dropped: bool, arrived: float
    ) -> None:
        frames, closing = self._frames(reply, response_id, usage)
        if dropped:  # the first half of the tokens, then the socket closes
            frames = frames[: max(1, len(frames) // 2)]
        else:
            frames[-1] += closing
        await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
        profile = self.profile
        loop = asyncio.get_running_loop()
        if profile.per_token_ms == 0:
            if profile.ttft_ms > 0:
                await asyncio.sleep(max(0.0, arrived + profile.ttft_ms / 1000 - loop.time()))
            await send({"type": "http.response.body", "body": b"".join(frames), "more_body": dropped})
            return
        for k, frame in enumerate(frames):
            wait = arrived + (profile.ttft_ms + k * profile.per_token_ms) / 1000 - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            await send({"type": "http.response.body", "body": frame, "more_body": True})
        if not dropped:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


# --- serving ---------------------------------------------------------------------------

_INTENTIONAL = "ASGI callable returned without completing response."


class _QuietIntentionalDrops(logging.Filter):
    """A dropped connection is the simulator's doing, not an application error."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != _INTENTIONAL


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket (port 0 picks a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=2048)


class _SimulatorServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, app: SimulatorApp) -> None:
        super().__init__(config)
        self._simulator = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._simulator.closing.set()  # release hanging requests before waiting for them
        await super().shutdown(sockets)


def build_server(app: SimulatorApp) -> uvicorn.Server:
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _QuietIntentionalDrops) for f in logger.filters):
        logger.addFilter(_QuietIntentionalDrops())
    config = uvicorn.Config(
        app,
        http="httptools",
        lifespan="off",
        access_log=False,
        proxy_headers=False,
        log_config=None,
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    return _SimulatorServer(config, app)


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/v1"


def run(server: uvicorn.Server, sock: socket.socket) -> None:
    """Serve on `sock` until `server.should_exit` (or SIGINT/SIGTERM in the main thread)."""
    import uvloop

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(server.serve(sockets=[sock]))
