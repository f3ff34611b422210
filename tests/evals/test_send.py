"""The one request path (evals/send.py) and engine kinds as plug-ins (evals/kinds.py):
a kind registered from outside the package runs a whole eval; send_all pulls lazily,
stops when told, and a failing `finish` stops sending without losing what was in flight."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import orjson
import pytest
import yaml

from atlas_assets.evals.client import Completion
from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.engines import Engine, load_engines
from atlas_assets.evals.kinds import KINDS, EngineKind, Needs, register
from atlas_assets.evals.runner import run_eval
from atlas_assets.evals.send import connect, pick_model, send_all
from atlas_assets.evals.workloads import resolve_workload
from tests.helpers.evals import prompt_rows, write_dataset, write_workload

from .hostile import GOOD_STREAM, MODELS, HostileServer, Request, http

ANSWER = orjson.dumps(
    {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "4"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 1},
    }
)


async def _answer(request: Request, writer: asyncio.StreamWriter) -> bool:
    if request.path.endswith("/models"):
        writer.write(http(200, MODELS))
    elif b'"stream":true' in request.body:
        writer.write(http(200, GOOD_STREAM, "text/event-stream"))
    else:
        writer.write(http(200, ANSWER))
    return True


@pytest.fixture
def server() -> Iterator[HostileServer]:
    with HostileServer(_answer) as running:
        yield running


@dataclass(frozen=True)
class Item:
    n: int

    @property
    def data(self) -> bytes:
        return orjson.dumps({"model": "m", "messages": [{"role": "user", "content": f"item {self.n}"}]})

    @property
    def request_id(self) -> str:
        return f"item-{self.n}"


def _engine(server: HostileServer, **fields: Any) -> Engine:
    return Engine(name="loop", kind="openai", base_url=server.base_url, max_retries=0, **fields)


def _send(server: HostileServer, items: Any, finish: Any, **options: Any) -> None:
    async def go() -> None:
        async with connect(_engine(server), server.base_url, 4) as connected:
            await send_all(connected.client, items, finish, **options)

    asyncio.run(go())


class _Launched(EngineKind):
    """A kind that starts its own server for the run, as a vLLM-launching kind would."""

    name = "launched-for-test"
    summary = "a loopback server started for the run (tests only)"
    started: list[Path] = []

    def check(self, engine: Engine) -> None:
        if engine.base_url is not None:
            raise ValueError("a launched engine has no base_url")

    @contextlib.contextmanager
    def serve(self, engine: Engine, needs: Needs) -> Iterator[str]:
        self.started.append(needs.datasets_root)
        with HostileServer(_answer) as running:
            yield running.base_url

    def identity(self, engine: Engine) -> dict[str, Any]:
        return {"kind": self.name, "model": engine.model}

    def details(self, engine: Engine) -> dict[str, Any]:
        return {"launched_by": "test"}


@pytest.fixture
def launched_kind() -> Iterator[type[_Launched]]:
    register(_Launched)
    try:
        yield _Launched
    finally:
        KINDS.pop(_Launched.name)


def test_a_kind_registered_from_outside_runs_a_whole_eval(launched_kind, tmp_path, datasets_root):
    engines_file = tmp_path / "engines.yaml"
    engines_file.write_text(yaml.safe_dump({"engines": {"launched": {"kind": launched_kind.name, "concurrency": 4}}}))
    engine = load_engines(engines_file).engines["launched"]
    write_dataset(datasets_root, "syn-prompts-v1", "prompts", prompt_rows(12))
    workload = resolve_workload(str(write_workload(tmp_path / "w", datasets_root, "syn-prompts-v1", kind="serve", scorer=None)))
    outcome = run_eval(workload, engine, tmp_path / "run", datasets_root=datasets_root)
    assert outcome.complete and outcome.sent == 12
    assert launched_kind.started == [datasets_root]
    block = outcome.results["engine"] if isinstance(outcome.results, dict) else outcome.results.engine.model_dump()
    assert block["kind"] == launched_kind.name and block["launched_by"] == "test"
    assert block["identity"] == {"kind": launched_kind.name, "model": "m"}  # the model picked from /models


def test_an_unregistered_kind_is_refused_naming_the_known_ones(tmp_path):
    engines_file = tmp_path / "engines.yaml"
    engines_file.write_text(yaml.safe_dump({"engines": {"x": {"kind": "launched-for-test"}}}))
    with pytest.raises(ConfigError, match=r"engines\.x\.kind: unknown engine kind 'launched-for-test'; known kinds: openai, simulator"):
        load_engines(engines_file)


def test_the_model_is_the_engines_else_the_only_listed_else_the_kinds_default():
    url = Engine(name="u", kind="openai", base_url="http://127.0.0.1:1/v1")
    sim = Engine(name="s", kind="simulator", simulator={"preset": "sim-weak"})
    assert pick_model(url.model_copy(update={"model": "given"}), {"data": [{"id": "listed"}]}) == "given"
    assert pick_model(url, {"data": [{"id": "listed"}, {"no": "id"}]}) == "listed"
    assert pick_model(sim, {"data": [{"id": "a"}, {"id": "b"}]}) == "s"
    with pytest.raises(ConfigError, match=r"lists 2 \(a, b\); pass --model"):
        pick_model(url, {"data": [{"id": "a"}, {"id": "b"}]})


def test_items_are_pulled_only_when_a_slot_is_free(server):
    events: list[str] = []

    def items() -> Iterator[Item]:
        for n in range(5):
            events.append(f"pull {n}")
            yield Item(n)

    async def finish(item: Item, completion: Completion) -> None:
        assert completion.error is None
        events.append(f"done {item.n}")

    _send(server, items(), finish, concurrency=1)
    assert events == [e for n in range(5) for e in (f"pull {n}", f"done {n}")]


def test_stop_when_and_the_stop_event_stop_sending(server):
    finished: list[int] = []

    async def finish(item: Item, completion: Completion) -> None:
        finished.append(item.n)

    _send(server, [Item(n) for n in range(50)], finish, concurrency=1, stop_when=lambda: len(finished) >= 3)
    assert finished == [0, 1, 2] and len([r for r in server.requests if r.path.endswith("/chat/completions")]) == 3
    stopped = threading.Event()
    stopped.set()
    finished.clear()
    _send(server, [Item(n) for n in range(50)], finish, concurrency=4, stop=stopped)
    assert finished == []


def test_a_failing_finish_stops_sending_and_keeps_what_was_in_flight(server):
    finished: list[int] = []

    async def finish(item: Item, completion: Completion) -> None:
        finished.append(item.n)
        if item.n == 5:
            raise RuntimeError("scorer crashed on item 5")

    with pytest.raises(RuntimeError, match="scorer crashed on item 5"):
        _send(server, [Item(n) for n in range(200)], finish, concurrency=4)
    sent = [r for r in server.requests if r.path.endswith("/chat/completions")]
    assert 5 in finished and len(finished) == len(sent) < 200  # every request sent was handed to finish
