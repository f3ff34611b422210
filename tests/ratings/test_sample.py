"""The synthetic dump generator (atlas_assets.ratings.sample) and the shipped datasets/arena-sample."""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from atlas_assets.ratings import sample
from atlas_assets.ratings.dump import read_dump
from atlas_assets.ratings.features import response_features

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "datasets" / "arena-sample"
FILES = ("battles.jsonl", "votes.jsonl", "truth.json")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
TEXT_KEYS = [
    "battle_id",
    "category_slug",
    "model_a",
    "model_b",
    "created_at",
    "normalization_mode",
    "modality",
    "response_a",
    "response_b",
]
RECORDING_KEYS = [
    "battle_id",
    "category_slug",
    "model_a",
    "model_b",
    "created_at",
    "normalization_mode",
    "modality",
    "recording_a",
    "recording_b",
    "telemetry_a",
    "telemetry_b",
]
VOTE_KEYS = ["vote_id", "battle_id", "voter_id", "choice", "created_at", "weight"]
TELEMETRY_KEYS = ["duration_ms", "time_to_first_action_ms", "steps", "median_step_ms", "model_ms_total", "harness_ms_total"]


def read_lines(path: Path) -> list[dict]:
    data = path.read_bytes()
    assert data.endswith(b"\n"), f"{path.name}: no trailing LF"
    assert b"\r" not in data, f"{path.name}: CR in file"
    text = data.decode("utf-8")  # strict UTF-8
    lines = text.split("\n")[:-1]
    assert all(line.strip() for line in lines), f"{path.name}: blank line"
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def dump(tmp_path_factory) -> tuple[Path, object]:
    """One mid-size dump shared by the read-only tests below (~0.3 s)."""
    out = tmp_path_factory.mktemp("sample")
    truth = sample.generate_dump(out, n_votes=6000, n_models=40, seed=3)
    return out, truth


def test_same_arguments_give_identical_bytes_and_another_seed_differs(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    sample.generate_dump(a, n_votes=500, n_models=12, seed=7)
    sample.generate_dump(b, n_votes=500, n_models=12, seed=7)
    sample.generate_dump(c, n_votes=500, n_models=12, seed=8)
    for name in FILES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert (a / "battles.jsonl").read_bytes() != (c / "battles.jsonl").read_bytes()
    assert (a / "votes.jsonl").read_bytes() != (c / "votes.jsonl").read_bytes()
    # nothing but the three files: temp files were renamed into place
    assert sorted(p.name for p in a.iterdir()) == sorted(FILES)


def test_files_follow_the_dump_spec(dump):
    out, truth = dump
    battles = read_lines(out / "battles.jsonl")
    votes = read_lines(out / "votes.jsonl")
    bh, vh = battles[0], votes[0]
    assert list(bh)[:4] == ["kind", "schema_version", "generated_at", "categories"]
    assert (bh["kind"], bh["schema_version"], vh["kind"], vh["schema_version"]) == ("battles", 2, "votes", 2)
    assert list(vh)[:3] == ["kind", "schema_version", "generated_at"]
    assert TIMESTAMP.match(bh["generated_at"]) and vh["generated_at"] == bh["generated_at"]
    assert bh["categories"] == list(sample.DEFAULT_CATEGORIES)

    ids = set()
    modalities = Counter()
    for rec in battles[1:]:
        modalities[rec["modality"]] += 1
        assert list(rec) == (TEXT_KEYS if rec["modality"] == "text" else RECORDING_KEYS)
        assert all(isinstance(rec[k], str) for k in TEXT_KEYS[:7])
        assert rec["battle_id"] not in ids
        ids.add(rec["battle_id"])
        assert rec["model_a"] != rec["model_b"]
        assert rec["category_slug"] in bh["categories"]
        assert TIMESTAMP.match(rec["created_at"])
        assert rec["normalization_mode"] in ("rendered", "raw")
        if rec["modality"] == "text":
            assert rec["category_slug"] != "browser-use"
            assert rec["response_a"] and rec["response_b"]
        else:
            assert rec["category_slug"] == "browser-use" and rec["normalization_mode"] == "raw"
            bid = rec["battle_id"]
            for side in "ab":
                r = rec[f"recording_{side}"]
                assert list(r) == ["video_key", "trace_key", "screenshot_key", "assisted"]
                assert r["video_key"] == f"battles/{bid}/{side}.mp4"
                assert r["trace_key"] == f"battles/{bid}/{side}.trace.jsonl"
                assert r["screenshot_key"] in (None, f"battles/{bid}/{side}.png")
                assert r["assisted"] is False
                t = rec[f"telemetry_{side}"]
                assert list(t) == TELEMETRY_KEYS
                assert all(type(v) is int and v >= 0 for v in t.values())
                assert t["duration_ms"] >= t["time_to_first_action_ms"]
    assert modalities["text"] > 0 and modalities["recording"] > 0
    assert any(r["modality"] == "recording" and r["recording_a"]["screenshot_key"] is None for r in battles[1:]), (
        "some screenshot keys should be null"
    )

    vote_ids = set()
    pairs = set()
    for v in votes[1:]:
        assert list(v) == VOTE_KEYS
        assert all(isinstance(v[k], str) for k in VOTE_KEYS[:5])
        assert v["vote_id"] not in vote_ids
        vote_ids.add(v["vote_id"])
        assert v["battle_id"] in ids
        assert (v["battle_id"], v["voter_id"]) not in pairs, "at most one vote per (battle, voter)"
        pairs.add((v["battle_id"], v["voter_id"]))
        assert v["choice"] in ("win_a", "win_b", "tie")
        assert TIMESTAMP.match(v["created_at"]) and v["created_at"] <= bh["generated_at"]
        assert isinstance(v["weight"], float) and v["weight"] in (1.0, 0.75, 0.5, 0.25)
    assert len(votes) - 1 == 6000 == truth.counts["votes"]
    # separators as in the spec's examples
    first = (out / "votes.jsonl").read_text(encoding="utf-8").split("\n")[1]
    assert first.startswith('{"vote_id": "') and '", "battle_id": "' in first


def test_the_engine_reader_accepts_the_dump(dump):
    out, truth = dump
    parsed = read_dump(out / "battles.jsonl", out / "votes.jsonl")
    assert parsed.votes_in_file == 6000
    assert parsed.battles_in_file == truth.counts["battles"]
    assert parsed.n_battles == truth.counts["battles"] - truth.counts["battles_without_votes"]
    assert int(parsed.vote_count.sum()) == 6000


def test_proportions_are_realistic(dump):
    out, truth = dump
    battles = read_lines(out / "battles.jsonl")[1:]
    votes = read_lines(out / "votes.jsonl")[1:]
    per_battle = Counter(v["battle_id"] for v in votes)
    n_b, n_v = len(battles), len(votes)
    ties = sum(v["choice"] == "tie" for v in votes) / n_v
    down = sum(v["weight"] < 1.0 for v in votes) / n_v
    unvoted = sum(b["battle_id"] not in per_battle for b in battles) / n_b
    assert 0.12 <= ties <= 0.18
    assert 0.07 <= down <= 0.13
    assert 0.005 <= unvoted <= 0.04
    assert 1.8 <= n_v / (n_b - unvoted * n_b) <= 2.4
    assert set(per_battle.values()) <= {1, 2, 3, 4} and max(per_battle.values()) == 4
    modes = Counter(b["normalization_mode"] for b in battles if b["modality"] == "text")
    assert modes["rendered"] > modes["raw"] > 0
    recording = sum(b["modality"] == "recording" for b in battles) / n_b
    assert 0.10 <= recording <= 0.20
    # markdown-heavy and plain responses, varied lengths
    texts = [b["response_a"] for b in battles if b["modality"] == "text"]
    markdown = sum(bool(re.search(r"(^|\n)(#{1,3} |- |\* |1\. )", t)) for t in texts) / len(texts)
    assert 0.2 <= markdown <= 0.8
    lengths = np.array([len(t) for t in texts])
    assert np.percentile(lengths, 90) > 2 * np.percentile(lengths, 10)
    # non-uniform popularity, and some provisional (few-vote) models
    per_model = Counter()
    for b in battles:
        n = per_battle.get(b["battle_id"], 0)
        per_model[b["model_a"]] += n
        per_model[b["model_b"]] += n
    counts = sorted(per_model.values())
    assert counts[-1] > 3 * counts[len(counts) // 2], "popular models should dominate"
    assert counts[0] < 30, "some models should have few votes (provisional)"


def test_truth_is_consistent(dump):
    out, truth = dump
    doc = json.loads((out / "truth.json").read_text(encoding="utf-8"))
    assert doc["synthetic"] is True
    assert doc["params"]["n_votes"] == 6000 and doc["params"]["seed"] == 3
    assert set(doc["strengths"]) == set(sample.DEFAULT_CATEGORIES)
    for cat, strengths in doc["strengths"].items():
        assert abs(np.mean(list(strengths.values())) - 1000.0) < 1e-3, cat
        assert 40 < np.std(list(strengths.values())) < 200, cat
    assert len(doc["strengths"]["browser-use"]) < len(doc["strengths"]["chat-writing"]) == 40
    assert doc["style_effects"]["length_chars"]["elo_per_unit"] > 0
    assert doc["style_effects"]["markdown_density"]["elo_per_unit"] > 0
    assert doc["style_coefficients_expected"]["browser-use"]["length_chars"] == 0.0


def test_simulated_style_covariates_are_the_engines(dump):
    """The voters' true style term uses exactly features.py's covariates: the expected
    per-sd coefficients in truth.json are reproduced from the written texts."""
    out, truth = dump
    voted = {v["battle_id"] for v in read_lines(out / "votes.jsonl")[1:]}
    diffs: dict[str, list] = {}
    for b in read_lines(out / "battles.jsonl")[1:]:
        if b["battle_id"] not in voted:
            continue
        if b["modality"] == "text":
            fa = np.array(response_features(b["response_a"], b["normalization_mode"]))
            fb = np.array(response_features(b["response_b"], b["normalization_mode"]))
        else:
            fa = fb = np.zeros(4)
        s = fa + fb
        d = np.divide(fa - fb, s, out=np.zeros(4), where=s > 0)
        diffs.setdefault(b["category_slug"], []).append(d)
    for cat, rows in diffs.items():
        sd = np.array(rows).std(axis=0)
        expected = truth.style_coefficients_expected[cat]
        effects = sample.STYLE_EFFECTS
        assert expected["length_chars"] == pytest.approx(effects["length_chars"]["elo_per_unit"] * sd[0], abs=1e-3)
        assert expected["markdown_density"] == pytest.approx(effects["markdown_density"]["elo_per_unit"] * sd[1], abs=1e-3)


def test_exact_vote_count_and_schema_v1(tmp_path):
    truth = sample.generate_dump(tmp_path, n_votes=333, n_models=8, seed=1, schema_version=1)
    battles = read_lines(tmp_path / "battles.jsonl")
    votes = read_lines(tmp_path / "votes.jsonl")
    assert battles[0]["schema_version"] == votes[0]["schema_version"] == 1
    assert "browser-use" not in battles[0]["categories"]
    assert all("modality" not in b and "response_a" in b for b in battles[1:])
    assert len(votes) - 1 == 333 == truth.counts["votes"]
    with pytest.raises(ValueError, match="recording"):
        sample.generate_dump(tmp_path / "x", n_votes=10, schema_version=1, categories=["browser-use"])


def test_cli_help_and_usage_errors(capsys):
    with pytest.raises(SystemExit) as exc:
        sample.main(["--help"])
    assert exc.value.code == 0
    help_text = capsys.readouterr().out
    assert "--votes" in help_text and "truth.json" in help_text and "byte-identical" in help_text
    with pytest.raises(SystemExit) as exc:
        sample.main(["--out", "x", "--votes", "-3"])
    assert exc.value.code == 2


def _documented_command() -> list[str]:
    readme = (SHIPPED / "README.md").read_text(encoding="utf-8")
    lines = [line.strip() for line in readme.splitlines() if line.strip().startswith("python -m atlas_assets.ratings.sample")]
    assert len(lines) == 1, "README.md must show exactly one generator command"
    argv = shlex.split(lines[0])[3:]
    assert argv[argv.index("--out") + 1] == "datasets/arena-sample"
    return argv


def test_shipped_sample_equals_a_regeneration_with_the_documented_command(tmp_path):
    argv = _documented_command()
    argv[argv.index("--out") + 1] = str(tmp_path)
    assert sample.main(argv + ["--quiet"]) == 0
    for name in FILES:
        shipped = (SHIPPED / name).read_bytes()
        assert shipped == (tmp_path / name).read_bytes(), (
            f"datasets/arena-sample/{name} differs from a regeneration; rerun the command in its README.md"
        )
    assert sum((SHIPPED / n).stat().st_size for n in FILES) < 8_000_000
