"""Profiles: presets, engines-file blocks, validation."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from atlas_assets.simulator import PRESETS, ProfileError, SimulatorProfile, load_engine_profiles, resolve_profile


def test_presets():
    assert list(PRESETS) == ["sim-strong", "sim-weak", "sim-flaky", "sim-text-only", "sim-zero-latency"]
    assert all(name == p.name == p.model for name, p in PRESETS.items())
    assert PRESETS["sim-text-only"].text_only and not PRESETS["sim-strong"].text_only
    assert PRESETS["sim-zero-latency"].zero_latency
    flaky = PRESETS["sim-flaky"]
    assert min(flaky.error_5xx, flaky.timeout, flaky.rate_limit_429, flaky.drop, flaky.splice_rate) > 0
    assert PRESETS["sim-strong"].skill.hard > PRESETS["sim-weak"].skill.hard
    assert len({p.seed for p in PRESETS.values()}) == len(PRESETS)


def test_from_block_starts_from_a_preset_and_overrides():
    profile = SimulatorProfile.from_block({"preset": "sim-weak", "skill": {"hard": 0.9}, "ttft_ms": 5}, name="my-engine", model="m1")
    assert (profile.name, profile.model, profile.ttft_ms) == ("my-engine", "m1", 5)
    assert profile.skill.hard == 0.9 and profile.skill.easy == PRESETS["sim-weak"].skill.easy
    assert profile.malformed_rate == PRESETS["sim-weak"].malformed_rate
    assert SimulatorProfile.from_block({"name": "solo"}).model == "solo"


def test_validation():
    with pytest.raises(ValidationError, match="more than 1"):
        SimulatorProfile(name="x", error_5xx=0.6, drop=0.6)
    with pytest.raises(ValidationError):
        SimulatorProfile.from_block({"name": "x", "skil": {"easy": 1}})
    with pytest.raises(ValidationError):
        SimulatorProfile(name="x", think_rate=1.5)
    with pytest.raises(ProfileError, match="unknown preset"):
        SimulatorProfile.from_block({"preset": "sim-genius"}, name="x")


def test_engines_files_in_both_shapes(tmp_path):
    mapping = tmp_path / "engines.yaml"
    mapping.write_text(
        "engines:\n"
        "  sim-default:\n    simulator:\n      preset: sim-strong\n      seed: 42\n"
        "  vllm-local:\n    base_url: http://127.0.0.1:8000/v1\n    model: my-model\n",
        encoding="utf-8",
    )
    profiles = load_engine_profiles(mapping)
    assert list(profiles) == ["sim-default"] and profiles["sim-default"].seed == 42
    listed = tmp_path / "engines.json"
    listed.write_text(json.dumps({"engines": [{"name": "e1", "model": "m", "simulator": {"ttft_ms": 1}}]}), encoding="utf-8")
    assert load_engine_profiles(listed)["e1"].model == "m"
    bad = tmp_path / "bad.yaml"
    bad.write_text("engines:\n  e:\n    simulator:\n      think_rate: 2\n", encoding="utf-8")
    with pytest.raises(ProfileError, match="engines.e.simulator: think_rate"):
        load_engine_profiles(bad)


def test_resolve_profile_order(tmp_path):
    engines = tmp_path / "engines.yaml"
    engines.write_text("engines:\n  sim-strong:\n    simulator:\n      seed: 99\n", encoding="utf-8")
    assert resolve_profile("sim-strong", engines).seed == 99  # the engines file wins
    assert resolve_profile("sim-strong") == PRESETS["sim-strong"]
    single = tmp_path / "mine.yaml"
    single.write_text("preset: sim-flaky\ndrop: 0.5\n", encoding="utf-8")
    assert resolve_profile(str(single)).name == "mine" and resolve_profile(str(single)).drop == 0.5
    with pytest.raises(ProfileError, match="sim-zero-latency"):
        resolve_profile("nope")


def test_malformed_yaml_engines_file_is_a_profile_error_naming_the_file(tmp_path):
    path = tmp_path / "engines.yaml"
    path.write_text("engines:\n  e: {simulator: [unclosed\n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"engines\.yaml: cannot read: not valid YAML"):
        load_engine_profiles(path)
