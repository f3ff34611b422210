"""The latency model: TTFT, then one token every per_token_ms."""

from __future__ import annotations

import http.client
import json
import time
from urllib.parse import urlsplit

from tests.helpers.simulator import body_for, chat, fixture_row


def stream_timings(base_url: str, body: dict) -> list[float]:
    """Seconds from sending the request to each SSE `data:` line."""
    url = urlsplit(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        started = time.perf_counter()
        connection.request("POST", url.path + "/chat/completions", json.dumps(body).encode(), {"content-type": "application/json"})
        response = connection.getresponse()
        times = []
        while line := response.readline():
            if line.startswith(b"data: "):
                times.append(time.perf_counter() - started)
        return times
    finally:
        connection.close()


def test_ttft_then_per_token_delays(serve):
    sim = serve("sim-timed", ttft_ms=150, per_token_ms=40)
    body = body_for("sim-timed", fixture_row("g-module")[1], max_tokens=6, stream=True)
    times = stream_timings(sim.base_url, body)
    assert len(times) == 1 + 6 + 2  # role opener, 6 tokens, finish chunk and [DONE]
    # Token k (0-based) is due ttft + k * per_token after the request arrived; the opener
    # travels with the first token. (Timers may fire up to a millisecond early.)
    assert times[0] >= 0.15 - 0.003
    for k in range(6):
        assert times[1 + k] >= 0.15 + k * 0.04 - 0.003, (k, times)
    started = time.perf_counter()
    assert chat(sim.base_url, {**body, "stream": False}).status == 200
    assert time.perf_counter() - started >= 0.15 + 5 * 0.04  # same end-to-end time without streaming


def test_zero_latency_streams_every_token(serve):
    """No delay injected: every request streams its tokens (throughput is a bench matter)."""
    sim = serve("sim-instant")
    body = body_for("sim-instant", fixture_row("g-module")[1], max_tokens=200, stream=True)
    for _ in range(20):
        assert chat(sim.base_url, body).status == 200
    assert len(stream_timings(sim.base_url, {**body, "max_tokens": 6})) == 1 + 6 + 2
    assert {entry.outcome for entry in sim.request_log()} == {"ok"}
