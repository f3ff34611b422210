"""Every failure mode at rate 1.0, as a client sees it on the wire."""

from __future__ import annotations

import http.client
import socket
import threading
import time

import pytest

from atlas_assets.corpus.scorers import extract_answer, score
from atlas_assets.corpus.splice import find_splices
from tests.helpers.simulator import CONTEXT_IDENTIFIERS, body_for, chat, eval_rows, fixture_row

PERFECT = {"easy": 1.0, "medium": 1.0, "hard": 1.0}


def some_rows() -> list[dict]:
    return [row for _, (_, rows) in eval_rows().items() for row in rows]


def test_5xx(serve):
    sim = serve("sim-5xx", error_5xx=1.0)
    statuses = []
    for row in some_rows():
        response = chat(sim.base_url, body_for("sim-5xx", row))
        error = response.json()["error"]
        assert error["type"] == "server_error" and error["message"]
        statuses.append(response.status)
    assert set(statuses) == {500, 503}
    assert [entry.outcome for entry in sim.request_log()] == [f"error_{s}" for s in statuses]


def test_429_with_retry_after(serve):
    sim = serve("sim-429", rate_limit_429=1.0, retry_after_s=2.5)
    response = chat(sim.base_url, body_for("sim-429", fixture_row("b-exact")[1]))
    assert response.status == 429 and response.json()["error"]["code"] == "rate_limit_exceeded"
    assert response.headers["retry-after"] == "2.5" and response.headers["retry-after-ms"] == "2500"
    assert sim.request_log()[0].outcome == "rate_limited"


def test_timeout_hangs_past_the_client_timeout(serve):
    sim = serve("sim-hang", timeout=1.0)
    with pytest.raises((socket.timeout, TimeoutError)):
        chat(sim.base_url, body_for("sim-hang", fixture_row("b-exact")[1]), timeout=0.3)
    assert sim.request_log()[0].outcome == "timeout"


def test_a_hang_shorter_than_the_client_timeout_is_answered_late(serve):
    sim = serve("sim-slow-hang", timeout=1.0, hang_s=0.3, skill=PERFECT)
    started = time.perf_counter()
    response = chat(sim.base_url, body_for("sim-slow-hang", fixture_row("b-exact")[1]), timeout=10)
    assert response.status == 200 and time.perf_counter() - started >= 0.3
    assert response.json()["choices"][0]["message"]["content"] == "ruobrah"


@pytest.mark.parametrize("stream", [False, True])
def test_dropped_connection_mid_response(serve, stream):
    sim = serve("sim-drop", drop=1.0)
    with pytest.raises(http.client.IncompleteRead) as caught:
        chat(sim.base_url, body_for("sim-drop", fixture_row("g-module")[1], stream=stream))
    partial = caught.value.partial
    assert partial and b"[DONE]" not in partial
    if stream:
        assert partial.startswith(b"data: {") and b'"finish_reason":"stop"' not in partial
    # Even a one-token answer is cut off before it completes.
    with pytest.raises(http.client.IncompleteRead):
        chat(sim.base_url, body_for("sim-drop", fixture_row("b-numeric")[1], stream=stream))
    assert {entry.outcome for entry in sim.request_log()} == {"dropped"}


def test_token_splices_in_long_generations(serve):
    _, row, default = fixture_row("g-module")
    clean = serve("sim-clean", skill=PERFECT)
    spliced = serve("sim-spliced", skill=PERFECT, splice_rate=1.0, think_rate=1.0, fence_rate=1.0)
    good = chat(clean.base_url, body_for("sim-clean", row)).json()["choices"][0]["message"]["content"]
    bad = chat(spliced.base_url, body_for("sim-spliced", row)).json()["choices"][0]["message"]["content"]
    assert score(row, good, default).correct and find_splices(good, CONTEXT_IDENTIFIERS) == []
    assert bad.startswith("<think>") and "```javascript" in bad  # the splice is in the answer, not the reasoning
    assert not score(row, bad, default).correct
    assert find_splices(extract_answer(bad, "splice"), CONTEXT_IDENTIFIERS)
    # Short answers are never spliced.
    short = chat(spliced.base_url, body_for("sim-spliced", fixture_row("b-exact")[1])).json()["choices"][0]["message"]["content"]
    assert extract_answer(short, "exact") == "ruobrah"


def test_context_overflow_is_a_400(serve):
    sim = serve("sim-small", max_context=12)
    response = chat(sim.base_url, body_for("sim-small", fixture_row("b-exact")[1]))  # 16 tokens
    assert response.status == 400
    error = response.json()["error"]
    assert error["code"] == "context_length_exceeded" and error["type"] == "invalid_request_error"
    assert "maximum context length is 12 tokens" in error["message"] and "16 tokens" in error["message"]
    assert (sim.request_log()[0].row_id, sim.request_log()[0].outcome) == ("b-exact", "context_overflow")
    assert chat(sim.base_url, body_for("sim-small", fixture_row("b-contains")[1])).status == 200  # 10 tokens


def test_stopping_the_simulator_releases_hanging_requests(serve):
    sim = serve("sim-hang", timeout=1.0)
    result = {}

    def client() -> None:
        result["response"] = chat(sim.base_url, body_for("sim-hang", fixture_row("b-exact")[1]), timeout=10)

    thread = threading.Thread(target=client)
    thread.start()
    time.sleep(0.2)
    sim.stop()
    thread.join(5)
    assert not thread.is_alive()  # stopping answered the hanging request instead of waiting it out
    assert result["response"].status == 503
