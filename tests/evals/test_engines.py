"""The engines file: simulator profiles and real engines, validated with useful errors."""

from __future__ import annotations

import pytest
import yaml

from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.engines import DEFAULT_ENGINES_FILE, load_engines, load_engines_report, normalize_base_url, resolve_engine
from atlas_assets.evals.kinds import Simulator
from tests.core.hostile import GOOD_UNICODE, HOSTILE_NAMES


def test_the_shipped_file_holds_simulator_profiles_and_commented_real_engines():
    engines = load_engines(DEFAULT_ENGINES_FILE)
    assert {"sim-strong", "sim-weak", "sim-text-only", "sim-flaky"} <= set(engines.engines)
    assert all(e.kind == "simulator" for e in engines.engines.values())
    assert Simulator.profile(engines.engines["sim-text-only"]).text_only
    text = DEFAULT_ENGINES_FILE.read_text()
    for example in ("#  vllm-local:", "#  llamacpp-local:", "#  openai:", "#    api_key_env: OPENAI_API_KEY"):
        assert example in text
    # the commented examples are valid engines once uncommented
    uncommented = "\n".join(
        line[1:] if line.startswith("#  ") or line.startswith("#    ") else line
        for line in text.splitlines()[text.splitlines().index("# Real engines. Uncomment one, or pass a URL instead of a name:") + 3 :]
    )
    examples = yaml.safe_load("engines:\n" + uncommented)["engines"]
    assert set(examples) == {"vllm-local", "llamacpp-local", "openai"}


def _write(tmp_path, engines):
    path = tmp_path / "engines.yaml"
    path.write_text(yaml.safe_dump({"engines": engines}))
    return path


@pytest.mark.parametrize(
    "engines, message",
    [
        ({"x": {"kind": "openai"}}, r"engines\.x: an openai engine needs base_url"),
        ({"x": {"kind": "simulator"}}, r"engines\.x: a simulator engine needs a `simulator:` block"),
        ({"x": {"kind": "simulator", "simulator": {"skill": {"easy": 2}}}}, r"engines\.x: simulator\.skill\.easy"),
        ({"x": {"kind": "simulator", "simulator": {"preset": "nope"}}}, r"unknown preset 'nope'"),
        ({"x": {"kind": "openai", "base_url": "http://h", "timeout_s": 0}}, r"engines\.x\.timeout_s: Input should be greater than 0"),
        ({"x": {"kind": "vllm", "base_url": "http://h"}}, r"engines\.x\.kind: unknown engine kind 'vllm'; known kinds: openai, simulator"),
        (
            {"x": {"kind": "openai", "base_url": "http://h", "api_key": "sk-..."}},
            r"engines\.x\.api_key: unknown field \(not in the schema\)",
        ),
    ],
)
def test_errors_name_the_file_and_the_field(tmp_path, engines, message):
    path = _write(tmp_path, engines)
    with pytest.raises(ConfigError, match=message) as info:
        load_engines(path)
    assert str(path) in str(info.value)


def test_url_engines_and_names(tmp_path, monkeypatch):
    assert normalize_base_url("http://127.0.0.1:8000") == "http://127.0.0.1:8000/v1"
    assert normalize_base_url("http://127.0.0.1:8000/v1/") == "http://127.0.0.1:8000/v1"
    assert normalize_base_url("https://api.example.com/openai/v1") == "https://api.example.com/openai/v1"
    with pytest.raises(ConfigError):
        normalize_base_url("127.0.0.1:8000")
    engine = resolve_engine("http://127.0.0.1:9/", model="m")
    assert (engine.kind, engine.base_url, engine.model) == ("openai", "http://127.0.0.1:9/v1", "m")
    path = _write(tmp_path, {"remote": {"kind": "openai", "base_url": "https://h/v1", "model": "a", "api_key_env": "ATLAS_TEST_KEY"}})
    engines = load_engines(path)
    remote = resolve_engine("remote", engines)
    assert resolve_engine("remote", engines, model="b").model == "b"
    monkeypatch.delenv("ATLAS_TEST_KEY", raising=False)
    with pytest.raises(ConfigError, match="ATLAS_TEST_KEY"):
        remote.api_key()
    monkeypatch.setenv("ATLAS_TEST_KEY", "secret")
    assert remote.api_key() == "secret"
    assert "secret" not in str(remote.identity())
    with pytest.raises(ConfigError, match="unknown engine 'nope'; the engines file defines: remote"):
        resolve_engine("nope", engines)


def test_a_simulator_identity_follows_its_profile_not_its_port():
    engines = load_engines(DEFAULT_ENGINES_FILE)
    strong, weak = engines.engines["sim-strong"], engines.engines["sim-weak"]
    assert strong.identity() == load_engines(DEFAULT_ENGINES_FILE).engines["sim-strong"].identity()
    assert strong.identity() != weak.identity()
    assert "base_url" not in strong.identity()


def test_a_file_base_url_without_a_path_gets_v1(tmp_path):
    engines = load_engines(_write(tmp_path, {"x": {"kind": "openai", "base_url": "http://127.0.0.1:8000/"}}))
    assert engines.engines["x"].base_url == "http://127.0.0.1:8000/v1"
    with pytest.raises(ConfigError, match=r"engines\.x\.base_url: engine URL 'localhost:8000'"):
        load_engines(_write(tmp_path, {"x": {"kind": "openai", "base_url": "localhost:8000"}}))


GOOD = {"kind": "openai", "base_url": "http://127.0.0.1:9"}


@pytest.mark.parametrize("name, shown, says", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_a_name_dagster_cannot_take_is_reported_and_the_other_engines_load(tmp_path, name, shown, says):
    path = _write(tmp_path, {"good": GOOD, name: GOOD, GOOD_UNICODE: GOOD})
    report = load_engines_report(path)
    assert report.names == ["good", GOOD_UNICODE]
    (problem,) = report.problems
    assert str(problem).startswith(f"{path}: engines.{shown}: engine name: {says}")
    assert "\n" not in str(problem)
    with pytest.raises(ConfigError) as info:  # the CLIs that run something refuse the file
        load_engines(path)
    assert str(info.value) == str(problem)


def test_the_report_names_the_line_and_keeps_engines_whose_body_is_fine(tmp_path):
    path = tmp_path / "engines.yaml"
    path.write_text(
        "engines:\n  good:\n    kind: openai\n    base_url: http://h\n  'a|b':\n    kind: openai\n    base_url: http://h\n"
        "  no-url:\n    kind: openai\n  '':\n    kind: vllm\n"
    )
    report = load_engines_report(path)
    assert report.names == ["good"]
    assert [str(p) for p in report.problems] == [
        f"{path}: engines.'a|b': engine name: contains '|' (Dagster's multi-partition delimiter) (line 5)",
        f"{path}: engines.no-url: an openai engine needs base_url (line 8)",
        f"{path}: engines.'': engine name: is empty (line 10)",
        f"{path}: engines.''.kind: unknown engine kind 'vllm'; known kinds: openai, simulator (line 11)",
    ]


def test_a_file_that_cannot_be_used_at_all_gives_no_engines(tmp_path):
    for text, says in [
        ("engines: [unclosed\n", "not valid YAML"),
        ("", "the file is empty"),
        ("engines: {}\n", "the file defines no engine"),
        ("engines:\n  'a|b': {kind: openai, base_url: 'http://h'}\n", "engine name: contains '|'"),
        ("engine:\n  x: {kind: openai, base_url: 'http://h'}\n", "engine: unknown field (not in the schema)"),
    ]:
        (tmp_path / "engines.yaml").write_text(text)
        report = load_engines_report(tmp_path / "engines.yaml")
        assert report.entries == {} and says in "\n".join(map(str, report.problems)), text
    assert load_engines_report(tmp_path / "missing.yaml").problems[0].message.startswith("cannot read")
