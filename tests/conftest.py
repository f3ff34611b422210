"""Shared fixtures: an S3 endpoint on loopback (moto's server), a throw-away Dagster
instance, hand-written arena dumps, and isolation of the ATLAS_* settings.

Network in tests goes only to 127.0.0.1.
"""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Callable

import pytest

from tests.helpers.dumps import FakeClock, small_dump_records, write_dump


@pytest.fixture(autouse=True)
def _isolated_atlas_settings(tmp_path, monkeypatch):
    """No test reads the caller's ATLAS_* settings or writes into the repo's artifacts/ or .cache/."""
    for name in ("ATLAS_VOTES_DUMP", "ATLAS_MEDIA_BUCKET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ATLAS_ARTIFACTS", str(tmp_path / "_artifacts"))
    monkeypatch.setenv("ATLAS_CACHE_DIR", str(tmp_path / "_cache"))


@pytest.fixture(autouse=True)
def _no_dead_dagster_state_storage(monkeypatch):
    """No test sees a Dagster defs-state storage whose instance is gone.

    Dagster keeps the storage of the instance last entered (`with instance:`) in a
    ContextVar and builds every Definitions through it; the storage holds only a weak
    reference to its instance. An instance context that an earlier test left open is closed
    whenever the garbage collector gets to it, and closing resets the ContextVar to the
    storage that was current when it was entered, whose instance may be long collected; the
    next Definitions built then fails with "Attempted to resolve undefined DagsterInstance
    weakref" (seen in three full runs, each time in another test). Resetting the variable
    at the start of a test cannot help against a reset that happens during it, so the
    lookup itself treats a storage with a dead instance as no storage (these tests keep no
    defs state)."""
    import sys

    base = sys.modules.get("dagster._core.storage.defs_state.base")
    if base is None:
        import dagster  # noqa: F401  (loads the module below)

        base = sys.modules["dagster._core.storage.defs_state.base"]
    current = base._current_storage

    def live_storage(cls):
        storage = current.get()
        if storage is not None and getattr(storage, "_instance_weakref", None) is not None and storage._instance_weakref() is None:
            return None
        return storage

    monkeypatch.setattr(base.DefsStateStorage, "get", classmethod(live_storage))
    yield


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def _moto_server():
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


@pytest.fixture
def moto_s3(_moto_server, monkeypatch):
    """An empty S3 on 127.0.0.1 (moto's server mode); boto3 is pointed at it through the
    environment for this test. Yields the endpoint URL."""
    # A fresh, empty backend for every test.
    request = urllib.request.Request(f"{_moto_server}/moto-api/reset", method="POST")
    urllib.request.urlopen(request, timeout=10).close()
    for name in ("AWS_PROFILE", "AWS_ENDPOINT_URL_S3", "AWS_SESSION_TOKEN", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ENDPOINT_URL", _moto_server)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
    yield _moto_server


@pytest.fixture
def s3_client(moto_s3):
    import boto3

    return boto3.client("s3")


@pytest.fixture
def dagster_home(tmp_path, monkeypatch):
    """An empty DAGSTER_HOME folder for this test (set in the environment)."""
    home = tmp_path / "dagster_home"
    home.mkdir()
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    return home


@pytest.fixture
def dagster_instance(dagster_home):
    """A real Dagster instance (SQLite storage) in a temporary DAGSTER_HOME."""
    import dagster as dg

    with dg.instance_for_test(temp_dir=str(dagster_home)) as instance:
        yield instance


@pytest.fixture
def make_dump(tmp_path) -> Callable[..., Path]:
    """make_dump(name="dump", extra_votes=0) -> folder holding a small valid v2 dump."""

    def make(name: str = "dump", extra_votes: int = 0) -> Path:
        battles, votes = small_dump_records(extra_votes)
        return write_dump(tmp_path / name, battles, votes, categories=["browser-use", "chat-coding", "chat-writing"])

    return make
