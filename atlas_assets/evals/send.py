"""The one way every command reaches an engine and sends it requests.

    with serve(engine, Needs(...)) as base_url:              # the engine's kind starts it
        async with connect(engine, base_url, concurrency) as connected:
            await send_all(connected.client, items, finish, concurrency=..., stream=...)

    result = run_session(engine, needs, concurrency, session)  # the same, from sync code:
                                                                # session(connected) on a uvloop

Eval runs (runner.py), translation runs (translation/runs.py) and the autobench LLM
generator (autobench/llm.py) all use it, so a fix to how requests are sent, retried,
stopped or interrupted is made once:

* `connect` opens the client with the engine's timeouts, retry policy and response limits,
  asks `GET /models` (recorded), and picks the model: the engine's own, else the one the
  server lists, else the kind's default. The engine it yields carries that model, so a
  model picked from /models is recorded and fingerprinted exactly like `--model` with it.
* `send_all` sends items with at most `concurrency` in flight, pulling the next item only
  when a slot is free (an item source may decide lazily what to send next), and hands each
  completion to `finish` as it arrives. Sending stops when `stop` is set, when `stop_when()`
  says so (a circuit breaker, a budget), or on SIGINT/SIGTERM when `handle_signals`: the
  requests in flight finish and are handed over; a second signal abandons them. An
  exception raised by `finish` stops sending and is raised once the others are done.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from dataclasses import dataclass
from typing import Any, AsyncIterator, Awaitable, Callable, Iterable, Mapping, Protocol, TypeVar

from atlas_assets.evals.client import Completion, EngineClient, RetryPolicy
from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.engines import Engine
from atlas_assets.evals.kinds import Needs, kind_of

__all__ = [
    "Connected",
    "Needs",
    "Sendable",
    "connect",
    "engine_client",
    "event_loop_runner",
    "listed_models",
    "pick_model",
    "run_session",
    "send_all",
    "serve",
]


class Sendable(Protocol):
    """An item `send_all` can send: its request body bytes and the id sent as X-Request-Id."""

    @property
    def data(self) -> bytes: ...

    @property
    def request_id(self) -> str | None: ...


Item = TypeVar("Item", bound=Sendable)
T = TypeVar("T")


def serve(engine: Engine, needs: Needs | None = None) -> contextlib.AbstractContextManager[str]:
    """The base URL to send to while the context is open (the engine's kind starts it)."""
    return kind_of(engine).serve(engine, needs or Needs())


def event_loop_runner() -> asyncio.Runner:
    import uvloop  # installed with uvicorn (dagster-webserver and the simulator)

    return asyncio.Runner(loop_factory=uvloop.new_event_loop)


def engine_client(engine: Engine, base_url: str, concurrency: int) -> EngineClient:
    """The HTTP client for an engine definition: its key, timeouts, retry policy and limits."""
    return EngineClient(
        base_url,
        api_key=engine.api_key(),
        concurrency=concurrency,
        timeout_s=engine.timeout_s,
        connect_timeout_s=engine.connect_timeout_s,
        retry=RetryPolicy(engine.max_retries, engine.backoff_s, engine.backoff_max_s, engine.retry_after_max_s),
        max_response_bytes=engine.max_response_bytes,
        max_tool_calls=engine.max_tool_calls,
    )


def listed_models(models: Mapping[str, Any]) -> list[str]:
    """The model ids a `GET /models` answer lists (entries without an id are ignored)."""
    return [str(m["id"]) for m in models.get("data") or [] if isinstance(m, Mapping) and m.get("id")]


def pick_model(engine: Engine, models: Mapping[str, Any]) -> str:
    """The engine's model, else the only one the server lists, else the kind's default."""
    if engine.model:
        return engine.model
    ids = listed_models(models)
    if len(ids) == 1:
        return ids[0]
    default = kind_of(engine).default_model(engine)
    if default:
        return default
    raise ConfigError(f"engine {engine.name}: no model given and the server lists {len(ids)} ({', '.join(ids) or 'none'}); pass --model")


@dataclass(frozen=True)
class Connected:
    """An open client to a started engine, with the model every request names."""

    engine: Engine  # with `model` set to the one picked
    base_url: str
    client: EngineClient
    model: str
    models_answer: dict[str, Any]

    def record(self) -> dict[str, Any]:
        """The run document's `engine` block: name, kind, where, identity, kind details."""
        return {
            "name": self.engine.name,
            "kind": self.engine.kind,
            "base_url": self.base_url,
            "identity": self.engine.identity(),
            **kind_of(self.engine).details(self.engine),
        }


@contextlib.asynccontextmanager
async def connect(
    engine: Engine,
    base_url: str,
    concurrency: int,
    pick: Callable[[Engine, Mapping[str, Any]], str] = pick_model,
) -> AsyncIterator[Connected]:
    """The client, the server's `/models` answer and the model picked by `pick`."""
    async with engine_client(engine, base_url, concurrency) as client:
        models_answer = await client.models()
        model = pick(engine, models_answer)
        named = engine if engine.model == model else engine.model_copy(update={"model": model})
        yield Connected(named, base_url, client, model, models_answer)


async def send_all(
    client: EngineClient,
    items: Iterable[Item],
    finish: Callable[[Item, Completion], Awaitable[None]],
    *,
    concurrency: int,
    stream: bool = False,
    stop: threading.Event | None = None,
    stop_when: Callable[[], bool] | None = None,
    handle_signals: bool = False,
) -> None:
    """Send `items` and hand each completion to `finish` (module docstring)."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    queue = iter(items)

    def request_stop() -> None:
        if stopping.is_set():  # a second signal: abandon the requests in flight
            for task in tasks:
                task.cancel()
        stopping.set()

    def must_stop() -> bool:
        if stopping.is_set() or (stop is not None and stop.is_set()) or (stop_when is not None and stop_when()):
            stopping.set()
        return stopping.is_set()

    async def worker() -> None:
        while not must_stop():
            item = next(queue, None)
            if item is None:
                return
            headers = {"X-Request-Id": item.request_id} if item.request_id else None
            completion = await client.complete(item.data, stream, headers)
            try:
                await finish(item, completion)
            except Exception:
                stopping.set()  # a harness error: stop sending, keep what is recorded
                raise

    signals = handle_signals and threading.current_thread() is threading.main_thread()
    if signals:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, request_stop)
    try:
        tasks.extend(asyncio.ensure_future(worker()) for _ in range(max(1, concurrency)))
        results = await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        if signals:
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)
    errors = [r for r in results if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
    if errors:
        raise errors[0]


def run_session(engine: Engine, needs: Needs, concurrency: int, session: Callable[[Connected], Awaitable[T]]) -> T:
    """Start the engine, connect, and run `session(connected)` to its end on a fresh event loop."""

    async def connected_session(base_url: str) -> T:
        async with connect(engine, base_url, concurrency) as connected:
            return await session(connected)

    with serve(engine, needs) as base_url, event_loop_runner() as runner:
        return runner.run(connected_session(base_url))
