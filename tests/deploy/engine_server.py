"""A test engine for the team-deployment test: the reference simulator's HTTP app behind a
gate that counts requests server-side and can be made to stall.

    python tests/deploy/engine_server.py --name deploy-a --events FILE [--stall-after N]

It is a real OpenAI-compatible server on 127.0.0.1 in its own process (the first stdout
line is its base URL, as with `atlas sim serve`), so requests sent by any number of run
processes are counted in one place. Every chat request is written to the --events file as
JSON lines:

    {"event": "arrived", "sha": ...}     the request body was received
    {"event": "held", "sha": ...}        the stall holds it (nothing sent back yet)
    {"event": "abandoned", "sha": ...}   its client disconnected while it was held
    {"event": "admitted", "sha": ..., "dataset": ..., "row_id": ...}   passed to the simulator
    {"event": "answered", "sha": ..., "status": 200}   the last byte of the response was sent

`sha` is the sha256 of the request body; the simulator recognises the corpus row a request
asks (`dataset`, `row_id`), so "answered" lines counted per row tell how often each row was
answered, whichever process sent it.

With --stall-after N the first N chat requests pass; later ones are held (the client sees
no byte) until `POST /control/release`, which also ends the stall for good. A held request
whose client goes away (its process was killed) is abandoned, never passed on.
`GET /control/state` returns the counters.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import uvicorn

from atlas_assets.corpus.registry import DEFAULT_DATASETS_ROOT
from atlas_assets.simulator.index import corpus_index
from atlas_assets.simulator.profiles import SimulatorProfile
from atlas_assets.simulator.server import SimulatorApp, bind, read_body, url_of

CHAT = "/v1/chat/completions"


class Gate:
    """ASGI wrapper around a SimulatorApp: counts, logs and optionally stalls chat requests."""

    def __init__(self, app: SimulatorApp, events: Path, stall_after: int | None) -> None:
        self.app = app
        self.stall_after = stall_after
        self.counts = {"arrived": 0, "held": 0, "holding": 0, "abandoned": 0, "admitted": 0, "answered": 0}
        self._events = open(events, "ab", buffering=0)
        self._released: asyncio.Event | None = None

    def _log(self, event: str, sha: str, **fields: Any) -> None:
        self._events.write(orjson.dumps({"event": event, "sha": sha, "t": time.time(), **fields}) + b"\n")

    @property
    def released(self) -> asyncio.Event:
        if self._released is None:
            self._released = asyncio.Event()
        return self._released

    async def _json(self, send: Any, status: int, body: Any) -> None:
        data = orjson.dumps(body)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": data})

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        path = scope["path"].rstrip("/")
        if path == "/control/state":
            await self._json(send, 200, {**self.counts, "stalling": self._stalling(), "released": self.released.is_set()})
            return
        if path == "/control/release" and scope["method"] == "POST":
            self.released.set()
            await self._json(send, 200, {"released": True})
            return
        if path != CHAT or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return

        body = await read_body(receive)
        if body is None:
            return
        sha = hashlib.sha256(body).hexdigest()
        self.counts["arrived"] += 1
        self._log("arrived", sha)

        if self._stalling():
            self.counts["held"] += 1
            self.counts["holding"] += 1
            self._log("held", sha)
            disconnected = await self._hold(receive)
            self.counts["holding"] -= 1
            if disconnected:
                self.counts["abandoned"] += 1
                self._log("abandoned", sha)
                return

        self.counts["admitted"] += 1
        entry = self._identify(body)
        self._log("admitted", sha, dataset=entry[0], row_id=entry[1])
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        status = 0

        async def observe(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                self.counts["answered"] += 1
                self._log("answered", sha, status=status)

        await self.app(scope, replay, observe)

    def _stalling(self) -> bool:
        return self.stall_after is not None and self.counts["admitted"] >= self.stall_after and not self.released.is_set()

    async def _hold(self, receive: Any) -> bool:
        """Wait for the release; True when the client disconnected first."""

        async def until_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        disconnect = asyncio.ensure_future(until_disconnect())
        release = asyncio.ensure_future(self.released.wait())
        done, pending = await asyncio.wait((disconnect, release), return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        return disconnect in done

    def _identify(self, body: bytes) -> tuple[str | None, str | None]:
        """The corpus row a chat request asks, as the simulator recognises it."""
        from atlas_assets.simulator.index import RequestView

        try:
            request = orjson.loads(body)
            entry = self.app.index.identify(RequestView.parse(request["messages"], drop_images=self.app.profile.text_only))
        except (ValueError, TypeError, KeyError):
            return None, None
        return (entry.dataset, entry.id) if entry is not None else (None, None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--name", required=True, help="the engine name; also the model id it serves")
    parser.add_argument("--events", type=Path, required=True, help="JSON lines, one per request event")
    parser.add_argument("--stall-after", type=int, default=None, metavar="N", help="hold chat requests after the first N")
    parser.add_argument("--datasets", type=Path, default=DEFAULT_DATASETS_ROOT)
    args = parser.parse_args(argv)

    profile = SimulatorProfile.from_block({"preset": "sim-zero-latency", "ttft_ms": 2}, name=args.name)
    app = SimulatorApp(profile, corpus_index(args.datasets.resolve()), keep_log=False)
    gate = Gate(app, args.events, args.stall_after)
    sock = bind("127.0.0.1", 0)
    config = uvicorn.Config(
        gate, http="httptools", lifespan="off", access_log=False, log_config=None, log_level="warning", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    print(url_of(sock), flush=True)
    import uvloop

    try:
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            runner.run(server.serve(sockets=[sock]))
    finally:
        app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
