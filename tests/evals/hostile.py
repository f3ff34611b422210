"""A raw-socket HTTP/1.1 server on 127.0.0.1 for the engine client's hostile-server tests.

`HostileServer(respond)` runs an asyncio server in a thread; for every request it calls
`respond(request, writer)` (a coroutine: write whatever bytes, bad or good) and closes
the connection unless it returns True (`Request` says what came before on the connection).
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import Awaitable, Callable

import orjson


@dataclass
class Request:
    method: str
    path: str
    body: bytes
    conn: int  # requests answered earlier on the same connection
    index: int  # requests seen by the server before this one
    after: str | None  # the path of the previous request on this connection


def http(status: int, body: bytes, content_type: str = "application/json", *, extra: str = "", length: bool = True) -> bytes:
    head = f"HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\n{extra}"
    head += f"Content-Length: {len(body)}\r\n" if length else "Connection: close\r\n"
    return head.encode() + b"\r\n" + body


def sse(*payloads: bytes | str | object, done: bool = True) -> bytes:
    """An SSE body: each payload a `data:` event (objects are JSON-encoded), then [DONE]."""
    out = b""
    for p in payloads:
        raw = p if isinstance(p, bytes) else p.encode() if isinstance(p, str) else orjson.dumps(p)
        out += b"data: " + raw + b"\n\n"
    return out + (b"data: [DONE]\n\n" if done else b"")


def chunk(content: str | None = None, finish: str | None = None) -> dict:
    return {"choices": [{"index": 0, "delta": {"content": content} if content is not None else {}, "finish_reason": finish}]}


GOOD_STREAM = sse(chunk("hello"), chunk(finish="stop"), {"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 1}})
MODELS = orjson.dumps({"object": "list", "data": [{"id": "m", "object": "model"}]})


class HostileServer:
    def __init__(self, respond: Callable[[Request, asyncio.StreamWriter], Awaitable[bool | None]]):
        self.respond = respond
        self.requests: list[Request] = []
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> "HostileServer":
        self._thread.start()
        assert self._ready.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        await self._stop.wait()
        server.close()
        for task in [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
            task.cancel()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        answered, after = 0, None
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                length = next((int(h.split(":", 1)[1]) for h in lines if h.lower().startswith("content-length:")), 0)
                body = await reader.readexactly(length)
                request = Request(method, path, body, answered, len(self.requests), after)
                self.requests.append(request)
                keep = await self.respond(request, writer)
                await writer.drain()
                answered, after = answered + 1, path
                if not keep:
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()
