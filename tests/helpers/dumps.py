"""Shared helpers of the arena dump tests (moved out of tests/conftest.py: test modules import these, pytest loads fixtures)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable


class FakeClock:
    """A clock a test moves by hand (`clock.now += 4.0`): rates, ETAs and rate limits
    without waiting."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


GENERATED_AT = "2026-09-08T04:00:00Z"


def text_battle(
    battle_id: str,
    category: str,
    model_a: str,
    model_b: str,
    response_a: str = "A short answer.",
    response_b: str = "## Plan\n\n- step one\n- step two",
    normalization_mode: str = "rendered",
) -> dict[str, Any]:
    return {
        "battle_id": battle_id,
        "category_slug": category,
        "model_a": model_a,
        "model_b": model_b,
        "created_at": "2026-09-07T10:00:00Z",
        "normalization_mode": normalization_mode,
        "modality": "text",
        "response_a": response_a,
        "response_b": response_b,
    }


def recording_battle(
    battle_id: str,
    model_a: str,
    model_b: str,
    *,
    category: str = "browser-use",
    screenshot_b: bool = False,
    telemetry_a: dict[str, Any] | None = None,
    telemetry_b: dict[str, Any] | None = None,
) -> dict[str, Any]:
    def recording(slot: str, screenshot: bool) -> dict[str, Any]:
        return {
            "video_key": f"battles/{battle_id}/{slot}.mp4",
            "trace_key": f"battles/{battle_id}/{slot}.trace.jsonl",
            "screenshot_key": f"battles/{battle_id}/{slot}.png" if screenshot else None,
            "assisted": False,
        }

    return {
        "battle_id": battle_id,
        "category_slug": category,
        "model_a": model_a,
        "model_b": model_b,
        "created_at": "2026-09-07T11:00:00Z",
        "normalization_mode": "raw",
        "modality": "recording",
        "recording_a": recording("a", True),
        "recording_b": recording("b", screenshot_b),
        "telemetry_a": telemetry_a
        if telemetry_a is not None
        else {
            "duration_ms": 180000,
            "time_to_first_action_ms": 6000,
            "steps": 14,
            "median_step_ms": 9000,
            "model_ms_total": 120000,
            "harness_ms_total": 5000,
        },
        "telemetry_b": telemetry_b
        if telemetry_b is not None
        else {
            "duration_ms": 150000,
            "time_to_first_action_ms": 4000,
            "steps": 11,
            "median_step_ms": 8000,
            "model_ms_total": 90000,
            "harness_ms_total": 4000,
        },
    }


def vote(vote_id: str, battle_id: str, voter_id: str, choice: str, weight: float = 1.0) -> dict[str, Any]:
    return {
        "vote_id": vote_id,
        "battle_id": battle_id,
        "voter_id": voter_id,
        "choice": choice,
        "created_at": "2026-09-07T12:00:00Z",
        "weight": weight,
    }


def _jsonl(header: dict[str, Any], records: Iterable[dict[str, Any]]) -> bytes:
    lines = [json.dumps(header)] + [json.dumps(record) for record in records]
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_dump(
    folder: Path,
    battles: list[dict[str, Any]],
    votes: list[dict[str, Any]],
    *,
    categories: list[str] | None = None,
    schema_version: int = 2,
    generated_at: str = GENERATED_AT,
) -> Path:
    """Write battles.jsonl + votes.jsonl (with their header lines) into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    if categories is None:
        categories = sorted({b["category_slug"] for b in battles})
    battles_header = {"kind": "battles", "schema_version": schema_version, "generated_at": generated_at, "categories": categories}
    votes_header = {"kind": "votes", "schema_version": schema_version, "generated_at": generated_at}
    (folder / "battles.jsonl").write_bytes(_jsonl(battles_header, battles))
    (folder / "votes.jsonl").write_bytes(_jsonl(votes_header, votes))
    return folder


def small_dump_records(extra_votes: int = 0) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A small valid v2 dump: 3 models in chat-writing (text) and browser-use (recording)
    battles, ties and a down-weighted vote; `extra_votes` more votes change its bytes."""
    models = ["alpha", "beta", "gamma"]
    battles: list[dict[str, Any]] = []
    votes: list[dict[str, Any]] = []
    choices = ["win_a", "win_b", "win_a", "tie", "win_a"]
    n = 0
    for i in range(12):
        a, b = models[i % 3], models[(i + 1) % 3]
        battles.append(text_battle(f"t{i}", "chat-writing", a, b, response_a=f"Answer {i}.", response_b=f"# H{i}\n\n- x\n- y"))
        for j in range(3):
            n += 1
            votes.append(vote(str(n), f"t{i}", f"v{j}", choices[(i + j) % 5], 0.5 if j == 2 else 1.0))
    for i in range(4):
        a, b = models[i % 3], models[(i + 2) % 3]
        battles.append(recording_battle(f"r{i}", a, b, screenshot_b=(i % 2 == 0)))
        for j in range(2):
            n += 1
            votes.append(vote(str(n), f"r{i}", f"v{j}", choices[(i + j + 1) % 5]))
    battles.append(text_battle("unvoted", "chat-writing", "alpha", "gamma"))
    for k in range(extra_votes):
        n += 1
        votes.append(vote(str(n), "t0", f"extra{k}", "win_b"))
    return battles, votes
