"""Same profile, same requests, same responses: decisions depend on (seed, row, attempt)."""

from __future__ import annotations

import json

from tests.helpers.simulator import body_for, chat, eval_rows, fixture_row

MIXED = {
    "skill": {"easy": 0.6, "medium": 0.5, "hard": 0.4},
    "think_rate": 0.5,
    "final_answer_rate": 0.5,
    "fence_rate": 0.5,
    "malformed_rate": 0.2,
    "error_5xx": 0.2,
    "rate_limit_429": 0.1,
}


def rows() -> list[dict]:
    return [row for _, (_, rows) in eval_rows().items() for row in rows]


def transcript(sim) -> list[tuple[int, str]]:
    out = []
    for row in rows():
        for _ in range(2):  # a second attempt of the same body
            response = chat(sim.base_url, body_for(sim.profile.model, row))
            body = response.json()
            body.pop("created", None)
            out.append((response.status, json.dumps(body, sort_keys=True)))
    return out


def test_two_servers_with_one_profile_answer_identically(serve):
    first = transcript(serve("sim-mixed", seed=7, **MIXED))
    second = transcript(serve("sim-mixed", seed=7, **MIXED))
    assert first == second
    statuses = {status for status, _ in first}
    assert 200 in statuses and statuses & {429, 500, 503}
    assert transcript(serve("sim-mixed", seed=8, **MIXED)) != first


def test_a_retry_sees_a_new_attempt_but_the_same_answer(serve):
    flaky = serve("sim-retry", seed=3, skill={"easy": 0.5, "medium": 0.5, "hard": 0.5}, think_rate=0.5, error_5xx=0.6)
    steady = serve("sim-retry", seed=3, skill={"easy": 0.5, "medium": 0.5, "hard": 0.5}, think_rate=0.5)
    for row in rows():
        body = body_for("sim-retry", row)
        for _ in range(30):
            response = chat(flaky.base_url, body)
            if response.status == 200:
                break
        assert response.status == 200
        expected = chat(steady.base_url, body).json()["choices"]
        assert response.json()["choices"] == expected
    outcomes = [entry.outcome for entry in flaky.request_log()]
    assert outcomes.count("ok") == len(rows()) and len(outcomes) > len(rows())


def test_reasoning_is_stable_per_row(serve):
    sim = serve("sim-think", think_rate=1.0, reasoning_content=True)
    _, row, _ = fixture_row("b-mc")
    a = chat(sim.base_url, body_for("sim-think", row)).json()["choices"][0]["message"]["reasoning_content"]
    b = chat(sim.base_url, body_for("sim-think", row, temperature=0)).json()["choices"][0]["message"]["reasoning_content"]
    assert a == b and len(a) >= 16 * 4
