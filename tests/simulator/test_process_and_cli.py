"""The simulator as a child process (`python -m atlas_assets.simulator`) and `atlas sim`."""

from __future__ import annotations

import argparse
import hashlib
import json

import pytest

from atlas_assets.simulator import PRESETS, SimulatorProfile, read_request_log, start_simulator
from atlas_assets.simulator.cli import register
from tests.helpers.simulator import body_for, chat, fixture_row


def test_child_process_with_a_request_log(corpus_root, tmp_path):
    log = tmp_path / "requests.jsonl"
    profile = SimulatorProfile(name="sim-child", skill={"easy": 1, "medium": 1, "hard": 1}, error_5xx=0.5)
    with start_simulator(profile, datasets_root=corpus_root, log_path=log, process=True) as sim:
        assert sim.base_url.startswith("http://127.0.0.1:") and sim.base_url.endswith("/v1")
        body = body_for("sim-child", fixture_row("b-numeric")[1])
        statuses = [chat(sim.base_url, body).status for _ in range(6)]
        logged = sim.request_log()
    sha = hashlib.sha256(json.dumps(body).encode()).hexdigest()
    assert [(e.row_id, e.body_sha256) for e in logged] == [("b-numeric", sha)] * 6
    assert [e.outcome == "ok" for e in logged] == [s == 200 for s in statuses]
    assert read_request_log(log) == logged
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["attempt"] for r in records] == list(range(6)) and {r["dataset"] for r in records} == {"sim-basic-v1"}


def test_a_preset_by_name_in_a_child_process(corpus_root):
    with start_simulator("sim-zero-latency", datasets_root=corpus_root, process=True) as sim:
        assert sim.profile == PRESETS["sim-zero-latency"]
        assert chat(sim.base_url, body_for("sim-zero-latency", fixture_row("b-exact")[1])).status == 200


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="atlas")
    register(root.add_subparsers(dest="command", required=True))
    return root


def test_sim_serve_help_teaches(capsys):
    with pytest.raises(SystemExit):
        parser().parse_args(["sim", "serve", "--help"])
    text = capsys.readouterr().out
    for needle in ("NOT a model", "--profile", "--port", "--engines", "sim-flaky", "x-atlas-simulator", "curl", "--port 0"):
        assert needle in text
    args = parser().parse_args(["sim", "serve", "--profile", "sim-weak"])
    assert (args.host, args.port, args.func.__name__) == ("127.0.0.1", 8000, "serve")


def test_sim_serve_rejects_an_unknown_profile(capsys):
    args = parser().parse_args(["sim", "serve", "--profile", "sim-genius", "--port", "0"])
    assert args.func(args) == 1
    assert "atlas sim serve: error: --profile: unknown simulator profile 'sim-genius'" in capsys.readouterr().err


def test_sim_profiles_lists_the_presets(capsys, tmp_path):
    engines = tmp_path / "engines.yaml"
    engines.write_text("engines:\n  team-sim:\n    simulator:\n      preset: sim-weak\n", encoding="utf-8")
    args = parser().parse_args(["sim", "profiles", "--engines", str(engines)])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in [*PRESETS, "team-sim"])
    args = parser().parse_args(["sim", "profiles", "--json"])
    assert args.func(args) == 0
    assert set(json.loads(capsys.readouterr().out)) >= set(PRESETS)
