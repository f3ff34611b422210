"""The dump reader (spec §1-5) and the style covariates: acceptance, every rejection rule
with its exact path/line/field, file-order precedence, worker-count independence."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import threading
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from atlas_assets.ratings.dump import RecordingBattle, iter_recording_battles, read_dump
from atlas_assets.ratings.errors import DumpError
from atlas_assets.ratings.features import response_features

GENERATED_AT = "2026-09-08T04:00:00Z"
CATEGORIES = ["chat-writing", "browser-use"]


class Unterminated(bytes):
    """A last line written without its LF."""


Line = dict[str, Any] | list[Any] | bytes  # bytes are written verbatim, then LF (unless Unterminated)


def battles_header(version: int = 2, **extra: Any) -> dict[str, Any]:
    return {"kind": "battles", "schema_version": version, "generated_at": GENERATED_AT, "categories": CATEGORIES, **extra}


def votes_header(version: int = 2, **extra: Any) -> dict[str, Any]:
    return {"kind": "votes", "schema_version": version, "generated_at": GENERATED_AT, **extra}


def text_battle(battle_id: str, model_a: str = "alpha", model_b: str = "beta", **extra: Any) -> dict[str, Any]:
    record = {
        "battle_id": battle_id,
        "category_slug": "chat-writing",
        "model_a": model_a,
        "model_b": model_b,
        "created_at": "2026-09-07T10:00:00Z",
        "normalization_mode": "rendered",
        "modality": "text",
        "response_a": "## Plan\n\n- one\n- two",
        "response_b": "Plain words.",
    }
    record.update(extra)
    return record


def recording(slot: str) -> dict[str, Any]:
    return {"video_key": f"v/{slot}.mp4", "trace_key": f"t/{slot}.jsonl", "screenshot_key": None, "assisted": False}


def recording_battle(battle_id: str, model_a: str = "alpha", model_b: str = "gamma", **extra: Any) -> dict[str, Any]:
    record = {
        "battle_id": battle_id,
        "category_slug": "browser-use",
        "model_a": model_a,
        "model_b": model_b,
        "created_at": "2026-09-07T11:00:00Z",
        "normalization_mode": "raw",
        "modality": "recording",
        "recording_a": recording("a"),
        "recording_b": recording("b"),
        "telemetry_a": {"duration_ms": 184000, "steps": 14},
        "telemetry_b": {"duration_ms": 152000.5, "steps": None},
    }
    record.update(extra)
    return record


def make_vote(vote_id: str, battle_id: str, choice: str = "win_a", weight: Any = 1.0, **extra: Any) -> dict[str, Any]:
    record = {
        "vote_id": vote_id,
        "battle_id": battle_id,
        "voter_id": f"v_{vote_id}",
        "choice": choice,
        "created_at": "2026-09-07T12:00:00Z",
        "weight": weight,
    }
    record.update(extra)
    return record


def encode(lines: list[Line]) -> bytes:
    def one(line: Line) -> bytes:
        if isinstance(line, Unterminated):
            return bytes(line)
        return (line if isinstance(line, bytes) else json.dumps(line).encode()) + b"\n"

    return b"".join(one(line) for line in lines)


def write(folder: Path, battles: list[Line] | bytes, votes: list[Line] | bytes) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    battles_path, votes_path = folder / "battles.jsonl", folder / "votes.jsonl"
    battles_path.write_bytes(battles if isinstance(battles, bytes) else encode(battles))
    votes_path.write_bytes(votes if isinstance(votes, bytes) else encode(votes))
    return battles_path, votes_path


def base_battles() -> list[Line]:
    return [battles_header(), text_battle("b1"), recording_battle("b2"), text_battle("b3", "gamma", "beta")]


def base_votes() -> list[Line]:
    return [
        votes_header(),
        make_vote("v1", "b1"),
        make_vote("v2", "b2", "tie", 0.5),
        make_vote("v3", "b3", "win_b"),
        make_vote("v4", "b1", "win_b", 2),
    ]


def read_in(folder: Path, **kwargs: Any):
    """read_dump with the paths given as the caller would (relative to cwd = folder)."""
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        return read_dump("battles.jsonl", "votes.jsonl", **kwargs)
    finally:
        os.chdir(cwd)


# ----------------------------------------------------------------------------- acceptance


SPEC_BATTLES = b"""\
{"kind": "battles", "schema_version": 1, "generated_at": "2026-08-23T04:00:00Z", "categories": ["chat-writing"]}
{"battle_id": "1", "category_slug": "chat-writing", "model_a": "gpt-alpha", "model_b": "claude-beta", "created_at": "2026-08-22T10:00:00Z", "normalization_mode": "rendered", "response_a": "## Plan\\n\\n- step one\\n- step two", "response_b": "Do step one, then step two."}
{"battle_id": "2", "category_slug": "chat-writing", "model_a": "claude-beta", "model_b": "gpt-alpha", "created_at": "2026-08-22T11:00:00Z", "normalization_mode": "raw", "response_a": "Short answer.", "response_b": "A considerably longer answer with more detail."}
"""
SPEC_VOTES = b"""\
{"kind": "votes", "schema_version": 1, "generated_at": "2026-08-23T04:00:00Z"}
{"vote_id": "10", "battle_id": "1", "voter_id": "v_a1", "choice": "win_a", "created_at": "2026-08-22T10:05:00Z", "weight": 1.0}
{"vote_id": "11", "battle_id": "1", "voter_id": "v_b2", "choice": "tie", "created_at": "2026-08-22T10:06:00Z", "weight": 0.5}
{"vote_id": "12", "battle_id": "2", "voter_id": "v_a1", "choice": "win_b", "created_at": "2026-08-22T11:09:00Z", "weight": 1.0}
"""


def test_spec_worked_example(tmp_path):
    battles_path, votes_path = write(tmp_path, SPEC_BATTLES, SPEC_VOTES)
    dump = read_dump(battles_path, votes_path)
    assert dump.header.schema_version == 1
    assert dump.header.generated_at == "2026-08-23T04:00:00Z"
    assert dump.header.categories == ("chat-writing",)
    assert dump.models == ("claude-beta", "gpt-alpha")
    assert dump.category.tolist() == [0, 0]
    assert dump.model_a.tolist() == [1, 0]  # battle 1: gpt-alpha in slot A; battle 2: claude-beta
    assert dump.model_b.tolist() == [0, 1]
    assert dump.wins_a.tolist() == [1.25, 0.0]  # 1.0 win + half of the 0.5-weight tie
    assert dump.wins_b.tolist() == [0.25, 1.0]
    assert dump.vote_count.tolist() == [2, 1]
    # "## Plan\n\n- step one\n- step two": 30 chars, markup = 2 '#' + 2 '-' items, 2 items, 1 header.
    np.testing.assert_array_equal(dump.features_a, [[30.0, 4 / 30, 2.0, 1.0], [13.0, 0.0, 0.0, 0.0]])
    # Battle 2 was shown raw: only the length counts.
    np.testing.assert_array_equal(dump.features_b, [[27.0, 0.0, 0.0, 0.0], [46.0, 0.0, 0.0, 0.0]])
    assert dump.battles_in_file == 2 and dump.votes_in_file == 3 and dump.n_battles == 2
    assert dump.battles_sha256 == hashlib.sha256(SPEC_BATTLES).hexdigest()
    assert dump.votes_sha256 == hashlib.sha256(SPEC_VOTES).hexdigest()
    assert dump.category.dtype == np.int32 and dump.model_a.dtype == np.int32 and dump.model_b.dtype == np.int32
    assert dump.features_a.dtype == np.float64 and dump.features_a.shape == (2, 4)
    assert dump.vote_count.dtype == np.int64


def test_v2_text_and_recording_battles(tmp_path):
    dump = read_dump(*write(tmp_path, base_battles(), base_votes()))
    assert dump.header.schema_version == 2
    assert dump.models == ("alpha", "beta", "gamma")
    assert dump.category.tolist() == [0, 1, 0]
    assert dump.model_a.tolist() == [0, 0, 2] and dump.model_b.tolist() == [1, 2, 1]
    assert dump.wins_a.tolist() == [1.0, 0.25, 0.0]  # b1: win_a 1.0 + win_b at weight 2
    assert dump.wins_b.tolist() == [2.0, 0.25, 1.0]
    assert dump.vote_count.tolist() == [2, 1, 1]
    assert dump.features_a[0].tolist() == list(response_features("## Plan\n\n- one\n- two", "rendered"))
    assert dump.features_b[0].tolist() == [12.0, 0.0, 0.0, 0.0]
    # A recording battle has no texts: its covariates are zero (METHODOLOGY.md §7.5).
    assert dump.features_a[1].tolist() == [0.0] * 4 and dump.features_b[1].tolist() == [0.0] * 4


def test_v1_modality_is_an_unknown_field(tmp_path):
    """v1 has no recording battles: a modality field is ignored, responses are read."""
    battles = [battles_header(1), text_battle("b1", modality="recording"), text_battle("b2", modality="video")]
    votes = [votes_header(1), make_vote("v1", "b1"), make_vote("v2", "b2")]
    dump = read_dump(*write(tmp_path, battles, votes))
    assert dump.features_a[:, 0].tolist() == [20.0, 20.0]
    assert list(iter_recording_battles(tmp_path / "battles.jsonl")) == []


def test_unknown_fields_are_ignored_everywhere(tmp_path):
    battles = [
        battles_header(source="https://example.org", nested={"x": [1, 2]}),
        text_battle("b1", extra=[1, {"y": None}], model_slug_internal=7),
        recording_battle("b2", recording_a={**recording("a"), "codec": "av1"}, telemetry_a={"gpu": "h100"}, notes=None),
    ]
    votes = [votes_header(build=12), make_vote("v1", "b1", device="mobile"), make_vote("v2", "b2", flags=[])]
    dump = read_dump(*write(tmp_path, battles, votes))
    assert dump.n_battles == 2 and dump.vote_count.tolist() == [1, 1]


def test_optional_fields_may_be_null_or_absent(tmp_path):
    recorded = recording_battle("b2", telemetry_a=None, response_a=None)  # null response_*: absent
    del recorded["telemetry_b"]
    del recorded["recording_b"]["screenshot_key"]
    no_modality = text_battle("b3")
    del no_modality["modality"]  # absent modality: a text battle
    battles = [battles_header(), text_battle("b1", modality=None), recorded, no_modality]
    votes = [votes_header(), make_vote("v1", "b1"), make_vote("v2", "b2"), make_vote("v3", "b3")]
    dump = read_dump(*write(tmp_path, battles, votes))
    assert dump.features_a[:, 0].tolist() == [20.0, 0.0, 20.0]
    recordings = list(iter_recording_battles(tmp_path / "battles.jsonl"))
    assert len(recordings) == 1 and recordings[0].telemetry_a is None and recordings[0].telemetry_b is None
    assert recordings[0].recording_b.screenshot_key is None


def test_zero_vote_battles_are_dropped(tmp_path):
    battles = [
        battles_header(),
        text_battle("b1", "alpha", "beta"),
        text_battle("b2", "delta", "epsilon"),  # never voted: its models must not appear
        text_battle("b3", "beta", "gamma"),
        recording_battle("b4", "zeta", "alpha"),
    ]
    votes = [votes_header(), make_vote("v1", "b3", "win_b"), make_vote("v2", "b1"), make_vote("v3", "b3", "tie")]
    dump = read_dump(*write(tmp_path, battles, votes))
    assert dump.models == ("alpha", "beta", "gamma")
    assert dump.model_a.tolist() == [0, 1] and dump.model_b.tolist() == [1, 2]  # file order: b1, b3
    assert dump.vote_count.tolist() == [1, 2]
    assert dump.wins_a.tolist() == [1.0, 0.5] and dump.wins_b.tolist() == [0.0, 1.5]
    assert dump.battles_in_file == 4 and dump.votes_in_file == 3


def test_header_only_files_give_an_empty_dump(tmp_path):
    dump = read_dump(*write(tmp_path, [battles_header()], [votes_header()]))
    assert dump.n_battles == 0 and dump.models == () and dump.features_a.shape == (0, 4)
    assert dump.battles_in_file == 0 and dump.votes_in_file == 0


@pytest.mark.parametrize("weight", [1, 2.5, 1e-300, 1e308])
def test_weights_any_finite_positive_number(tmp_path, weight):
    dump = read_dump(*write(tmp_path, base_battles(), [votes_header(), make_vote("v1", "b1", weight=weight)]))
    assert dump.wins_a.tolist() == [float(weight)]


@pytest.mark.parametrize("created_at", ["2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z", "2026-12-31T00:00:00Z"])
def test_real_dates_accepted(tmp_path, created_at):
    battles = [battles_header(), text_battle("b1", created_at=created_at)]
    dump = read_dump(*write(tmp_path, battles, [votes_header(), make_vote("v1", "b1", created_at=created_at)]))
    assert dump.n_battles == 1


def test_progress_reports_each_stage_up_to_the_file_size(tmp_path):
    battles_path, votes_path = write(tmp_path, base_battles(), base_votes())
    calls: list[tuple[str, int, int]] = []
    read_dump(battles_path, votes_path, progress=lambda *call: calls.append(call), chunk_bytes=200)
    stages = [stage for stage, _, _ in calls]
    assert stages == sorted(stages, key=["battles", "votes"].index) and len(stages) > 2
    for stage, path in (("battles", battles_path), ("votes", votes_path)):
        done = [d for s, d, _ in calls if s == stage]
        assert done == sorted(done) and done[-1] == path.stat().st_size
        assert {t for s, _, t in calls if s == stage} == {path.stat().st_size}


def test_iter_recording_battles(tmp_path):
    write(tmp_path, base_battles(), base_votes())
    recordings = list(iter_recording_battles(tmp_path / "battles.jsonl"))
    assert [type(r) for r in recordings] == [RecordingBattle]
    only = recordings[0]
    assert (only.battle_id, only.category_slug, only.model_a, only.model_b) == ("b2", "browser-use", "alpha", "gamma")
    assert only.recording_a.video_key == "v/a.mp4" and only.recording_b.trace_key == "t/b.jsonl"
    assert only.recording_a.assisted is False and only.recording_a.screenshot_key is None
    assert only.telemetry_a.duration_ms == 184000 and only.telemetry_a.steps == 14
    assert only.telemetry_b.duration_ms == 152000.5 and only.telemetry_b.steps is None
    assert only.telemetry_a.median_step_ms is None


def test_iter_recording_battles_sees_escaped_spellings(tmp_path):
    """JSON may spell "recording" with \\u escapes; both readers must see the same battle."""
    escaped = json.dumps(recording_battle("b2")).replace('"modality": "recording"', '"modality": "\\u0072ecording"')
    assert '"recording"' not in escaped.split('"recording_a"')[0]
    battles = base_battles()
    battles[2] = escaped.encode()
    dump = read_dump(*write(tmp_path, battles, base_votes()))
    assert dump.features_a[1].tolist() == [0.0] * 4
    assert [r.battle_id for r in iter_recording_battles(tmp_path / "battles.jsonl")] == ["b2"]


# ----------------------------------------------------------------------------- rejections

Mutation = Callable[[list[Line], list[Line]], None]


def battle_line(index: int, value: Line | Callable[[dict[str, Any]], None]) -> Mutation:
    """Replace (or edit in place) line `index` (0-based: 0 is the header) of battles.jsonl."""

    def mutate(battles: list[Line], votes: list[Line]) -> None:
        if callable(value):
            value(battles[index])  # type: ignore[arg-type]
        else:
            battles[index] = value

    return mutate


def vote_line(index: int, value: Line | Callable[[dict[str, Any]], None]) -> Mutation:
    def mutate(battles: list[Line], votes: list[Line]) -> None:
        if callable(value):
            value(votes[index])  # type: ignore[arg-type]
        else:
            votes[index] = value

    return mutate


def setting(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda record: record.update(fields)


def deleting(*names: str) -> Callable[[dict[str, Any]], None]:
    def delete(record: dict[str, Any]) -> None:
        for name in names:
            del record[name]

    return delete


def nested(name: str, **fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda record: record[name].update(fields)


def raw(text: str) -> bytes:
    return text.encode()


B, V = "battles.jsonl", "votes.jsonl"
BATTLE_JSON = json.dumps(text_battle("b3", "gamma", "beta")).encode()

# (id, mutation, file, line, field, message fragment)
REJECTIONS: list[tuple[str, Mutation, str, int, str | None, str]] = [
    # --- line format
    ("malformed-json", battle_line(2, b'{"battle_id": "b1",'), B, 3, None, "malformed JSON at column"),
    ("trailing-garbage", battle_line(2, BATTLE_JSON + b" x"), B, 3, None, "malformed JSON"),
    ("invalid-utf8", battle_line(3, BATTLE_JSON.replace(b"Plain", b"Pl\xffin")), B, 4, None, "invalid UTF-8: byte 0xff"),
    ("lone-surrogate", battle_line(3, BATTLE_JSON.replace(b"Plain", b"\\ud800")), B, 4, None, "malformed JSON"),
    ("blank-line", lambda b, v: b.insert(2, b""), B, 3, None, "blank line"),
    ("whitespace-line", lambda b, v: b.insert(3, b"  \t"), B, 4, None, "blank line"),
    ("blank-last-line", lambda b, v: b.append(b""), B, 5, None, "blank line"),
    ("crlf", battle_line(2, json.dumps(recording_battle("b2")).encode() + b"\r"), B, 3, None, "CRLF"),
    ("crlf-header", battle_line(0, json.dumps(battles_header()).encode() + b"\r"), B, 1, None, "CRLF"),
    ("bom", battle_line(0, b"\xef\xbb\xbf" + json.dumps(battles_header()).encode()), B, 1, None, "byte-order mark"),
    ("not-an-object", battle_line(2, [1, 2]), B, 3, None, "must be a JSON object, got an array"),
    (
        "nan-literal",
        battle_line(2, json.dumps(recording_battle("b2")).replace("184000", "NaN").encode()),
        B,
        3,
        "telemetry_a.duration_ms",
        "non-finite number NaN",
    ),
    # --- battles header
    ("header-not-object", battle_line(0, ["battles"]), B, 1, None, "header must be a JSON object"),
    ("header-wrong-kind", battle_line(0, battles_header(kind="votes")), B, 1, "kind", "must be 'battles', got \"votes\""),
    ("header-missing", lambda b, v: b.pop(0), B, 1, "kind", "header line missing"),
    ("header-version-3", battle_line(0, battles_header(3)), B, 1, "schema_version", "unsupported version 3"),
    ("header-version-0", battle_line(0, battles_header(0)), B, 1, "schema_version", "unsupported version 0"),
    ("header-version-bool", battle_line(0, battles_header(True)), B, 1, "schema_version", "must be an integer, got true"),
    ("header-version-float", battle_line(0, battles_header(2.0)), B, 1, "schema_version", "must be an integer, got 2.0"),
    ("header-version-string", battle_line(0, battles_header("2")), B, 1, "schema_version", 'got "2"'),
    ("header-version-missing", battle_line(0, deleting("schema_version")), B, 1, "schema_version", "missing"),
    ("header-generated-at-number", battle_line(0, setting(generated_at=20260908)), B, 1, "generated_at", "got 20260908"),
    ("header-generated-at-format", battle_line(0, setting(generated_at="2026-09-08")), B, 1, "generated_at", "YYYY-MM-DDTHH:MM:SSZ"),
    ("header-categories-not-list", battle_line(0, setting(categories="chat-writing")), B, 1, "categories", "a list of strings"),
    ("header-categories-number", battle_line(0, setting(categories=["chat-writing", 3])), B, 1, "categories", "a list of strings"),
    ("header-categories-missing", battle_line(0, deleting("categories")), B, 1, "categories", "required field is missing"),
    ("header-categories-repeat", battle_line(0, setting(categories=CATEGORIES + ["browser-use"])), B, 1, "categories", "twice"),
    ("empty-battles-file", lambda b, v: b.clear(), B, 1, None, "empty file"),
    # --- battle records: types
    ("battle-id-number", battle_line(2, setting(battle_id=2)), B, 3, "battle_id", "must be a string, got 2"),
    ("battle-id-missing", battle_line(2, deleting("battle_id")), B, 3, "battle_id", "required field is missing"),
    ("category-number", battle_line(1, setting(category_slug=1)), B, 2, "category_slug", "must be a string, got 1"),
    ("model-a-number", battle_line(3, setting(model_a=7)), B, 4, "model_a", "must be a string, got 7"),
    ("model-b-null", battle_line(3, setting(model_b=None)), B, 4, "model_b", "must be a string, got null"),
    ("created-at-number", battle_line(1, setting(created_at=1756000000)), B, 2, "created_at", "got 1756000000"),
    ("created-at-space", battle_line(1, setting(created_at="2026-08-22 10:00:00Z")), B, 2, "created_at", "YYYY-MM-DDTHH:MM:SSZ"),
    ("created-at-fraction", battle_line(1, setting(created_at="2026-08-22T10:00:00.5Z")), B, 2, "created_at", "YYYY"),
    ("created-at-offset", battle_line(1, setting(created_at="2026-08-22T10:00:00+00:00")), B, 2, "created_at", "YYYY"),
    ("created-at-feb-30", battle_line(1, setting(created_at="2026-02-30T10:00:00Z")), B, 2, "created_at", "(no such date)"),
    ("created-at-feb-29", battle_line(1, setting(created_at="2026-02-29T10:00:00Z")), B, 2, "created_at", "(no such date)"),
    ("created-at-apr-31", battle_line(1, setting(created_at="2026-04-31T10:00:00Z")), B, 2, "created_at", "(no such date)"),
    ("created-at-1900-feb-29", battle_line(1, setting(created_at="1900-02-29T10:00:00Z")), B, 2, "created_at", "no such date"),
    ("created-at-hour-24", battle_line(1, setting(created_at="2026-08-22T24:00:00Z")), B, 2, "created_at", "YYYY"),
    (
        "normalization-unknown",
        battle_line(1, setting(normalization_mode="markdown")),
        B,
        2,
        "normalization_mode",
        "must be one of 'rendered', 'raw', got \"markdown\"",
    ),
    ("normalization-missing", battle_line(1, deleting("normalization_mode")), B, 2, "normalization_mode", "got null"),
    ("modality-unknown", battle_line(1, setting(modality="video")), B, 2, "modality", "'text', 'recording', got \"video\""),
    ("modality-number", battle_line(1, setting(modality=1)), B, 2, "modality", "got 1"),
    # --- text battles
    ("response-a-missing", battle_line(1, deleting("response_a")), B, 2, "response_a", "required field is missing"),
    ("response-b-number", battle_line(3, setting(response_b=42)), B, 4, "response_b", "must be a string (text battle), got 42"),
    (
        "v1-modality-ignored",
        lambda b, v: (b.__setitem__(0, battles_header(1)), b.__setitem__(2, recording_battle("b2"))),
        B,
        3,
        "response_a",
        "required field is missing",
    ),
    # --- recording battles
    ("recording-a-missing", battle_line(2, deleting("recording_a")), B, 3, "recording_a", "required field is missing"),
    ("recording-b-string", battle_line(2, setting(recording_b="v/b.mp4")), B, 3, "recording_b", "must be an object"),
    ("recording-with-response", battle_line(2, setting(response_a="text")), B, 3, "response_a", "must be absent in a recording battle"),
    ("recording-video-key", battle_line(2, nested("recording_a", video_key=5)), B, 3, "recording_a.video_key", "got 5"),
    ("recording-trace-missing", battle_line(2, lambda r: r["recording_b"].pop("trace_key")), B, 3, "recording_b.trace_key", "missing"),
    (
        "recording-screenshot",
        battle_line(2, nested("recording_b", screenshot_key=False)),
        B,
        3,
        "recording_b.screenshot_key",
        "must be a string or null, got false",
    ),
    ("recording-assisted", battle_line(2, nested("recording_a", assisted="no")), B, 3, "recording_a.assisted", "true or false"),
    ("telemetry-not-object", battle_line(2, setting(telemetry_a=[1])), B, 3, "telemetry_a", "must be an object or absent, got an array"),
    ("telemetry-bool", battle_line(2, nested("telemetry_b", steps=True)), B, 3, "telemetry_b.steps", "got true"),
    ("telemetry-negative", battle_line(2, nested("telemetry_a", duration_ms=-1)), B, 3, "telemetry_a.duration_ms", ">= 0"),
    # --- battle cross-record rules
    ("duplicate-battle-id", battle_line(3, setting(battle_id="b1")), B, 4, "battle_id", 'duplicate battle_id "b1" (first on line 2)'),
    ("same-model-twice", battle_line(3, setting(model_a="beta")), B, 4, "model_b", "equals model_a ('beta')"),
    (
        "category-not-in-header",
        battle_line(3, setting(category_slug="chat-math")),
        B,
        4,
        "category_slug",
        "'chat-math' is not in the header's categories list",
    ),
    (
        "missing-final-lf-battles",
        lambda b, v: b.append(Unterminated(json.dumps(text_battle("b4")).encode())),
        B,
        5,
        None,
        "does not end with a newline",
    ),
    (
        "missing-final-lf-header",
        lambda b, v: b.__setitem__(slice(None), [Unterminated(json.dumps(b[0]).encode())]),
        B,
        1,
        None,
        "does not end with a newline",
    ),
    # --- votes header
    ("votes-header-kind", vote_line(0, votes_header(kind="battles")), V, 1, "kind", "given as the votes file?"),
    ("votes-header-version", vote_line(0, votes_header(5)), V, 1, "schema_version", "unsupported version 5"),
    ("votes-header-version-bool", vote_line(0, votes_header(False)), V, 1, "schema_version", "got false"),
    ("votes-header-generated-at", vote_line(0, setting(generated_at=None)), V, 1, "generated_at", "got null"),
    ("votes-header-missing", lambda b, v: v.pop(0), V, 1, "kind", "header line missing"),
    ("votes-empty-file", lambda b, v: v.clear(), V, 1, None, "empty file"),
    # --- vote records
    ("vote-id-number", vote_line(2, setting(vote_id=5002)), V, 3, "vote_id", "must be a string, got 5002"),
    ("vote-battle-id-number", vote_line(2, setting(battle_id=2)), V, 3, "battle_id", "must be a string, got 2"),
    ("voter-id-missing", vote_line(1, deleting("voter_id")), V, 2, "voter_id", "required field is missing"),
    ("choice-unknown", vote_line(1, setting(choice="win_c")), V, 2, "choice", "'win_a', 'win_b', 'tie', got \"win_c\""),
    ("choice-list", vote_line(1, setting(choice=["win_a"])), V, 2, "choice", "got an array"),
    ("vote-created-at", vote_line(4, setting(created_at=None)), V, 5, "created_at", "got null"),
    ("weight-true", vote_line(3, setting(weight=True)), V, 4, "weight", "must be a finite number > 0, got true"),
    ("weight-zero", vote_line(3, setting(weight=0)), V, 4, "weight", "> 0, got 0"),
    ("weight-negative", vote_line(3, setting(weight=-0.5)), V, 4, "weight", "got -0.5"),
    ("weight-string", vote_line(3, setting(weight="1.0")), V, 4, "weight", 'got "1.0"'),
    ("weight-null", vote_line(3, setting(weight=None)), V, 4, "weight", "got null"),
    ("weight-missing", vote_line(3, deleting("weight")), V, 4, "weight", "required field is missing"),
    ("weight-nan", vote_line(3, raw(json.dumps(make_vote("v3", "b3")).replace("1.0", "NaN"))), V, 4, "weight", "got NaN"),
    ("weight-infinity", vote_line(3, raw(json.dumps(make_vote("v3", "b3")).replace("1.0", "Infinity"))), V, 4, "weight", "got Infinity"),
    (
        "weight-minus-infinity",
        vote_line(3, raw(json.dumps(make_vote("v3", "b3")).replace("1.0", "-Infinity"))),
        V,
        4,
        "weight",
        "got -Infinity",
    ),
    ("weight-overflow", vote_line(3, raw(json.dumps(make_vote("v3", "b3")).replace("1.0", "1e999"))), V, 4, "weight", "got 1e999"),
    (
        "weight-huge-int",
        vote_line(3, raw(json.dumps(make_vote("v3", "b3")).replace("1.0", "9" * 400))),
        V,
        4,
        "weight",
        "must be a finite number > 0, got " + "9" * 37 + "...",
    ),
    ("duplicate-vote-id", vote_line(4, setting(vote_id="v2")), V, 5, "vote_id", 'duplicate vote_id "v2" (first on line 3)'),
    ("unknown-battle", vote_line(2, setting(battle_id="b9")), V, 3, "battle_id", '"b9" is not a battle_id in the battles file'),
    ("vote-malformed", vote_line(2, b"{"), V, 3, None, "malformed JSON"),
    ("vote-crlf", vote_line(1, json.dumps(make_vote("v1", "b1")).encode() + b"\r"), V, 2, None, "CRLF"),
    ("vote-blank", lambda b, v: v.insert(1, b""), V, 2, None, "blank line"),
    ("missing-final-lf-votes", lambda b, v: v.append(Unterminated(b'{"vote_id"')), V, 6, None, "does not end with a newline"),
]


def _write_mutated(folder: Path, mutate: Mutation) -> None:
    battles, votes = base_battles(), base_votes()
    mutate(battles, votes)
    write(folder, battles, votes)


@pytest.mark.parametrize(
    ("mutate", "path", "line", "field", "fragment"),
    [case[1:] for case in REJECTIONS],
    ids=[case[0] for case in REJECTIONS],
)
def test_rejections(tmp_path, mutate, path, line, field, fragment):
    _write_mutated(tmp_path, mutate)
    with pytest.raises(DumpError) as caught:
        read_in(tmp_path)
    error = caught.value
    assert (error.path, error.line, error.field) == (path, line, field), str(error)
    assert fragment in error.message, str(error)
    prefix = f"{path}:{line}: " + (f"field '{field}': " if field else "")
    assert str(error) == prefix + error.message


def test_error_text_reads_well(tmp_path):
    _write_mutated(tmp_path, vote_line(4, setting(weight=True)))
    with pytest.raises(DumpError) as caught:
        read_in(tmp_path)
    assert str(caught.value) == "votes.jsonl:5: field 'weight': must be a finite number > 0, got true"


def test_path_is_reported_as_given(tmp_path):
    battles_path, votes_path = write(tmp_path, base_battles(), base_votes()[:1] + [make_vote("v1", "b1", weight=0)])
    with pytest.raises(DumpError) as caught:
        read_dump(battles_path, str(votes_path))
    assert caught.value.path == str(votes_path) and caught.value.line == 2


# ----------------------------------------------------------------------------- file order


def _first_error(folder: Path, battles: list[Line], votes: list[Line], **kwargs: Any) -> DumpError:
    write(folder, battles, votes)
    with pytest.raises(DumpError) as caught:
        read_in(folder, **kwargs)
    return caught.value


def test_battles_file_is_validated_before_votes(tmp_path):
    battles = base_battles() + [text_battle("b9", model_b="alpha")]  # line 5: same model twice
    votes = [votes_header(9), make_vote("v1", "b1")]  # bad votes header
    error = _first_error(tmp_path, battles, votes)
    assert (error.path, error.line, error.field) == ("battles.jsonl", 5, "model_b")


def test_an_earlier_duplicate_beats_a_later_bad_record(tmp_path):
    battles = base_battles() + [text_battle("b1"), text_battle("b8", normalization_mode="html")]
    error = _first_error(tmp_path, battles, base_votes())
    assert (error.line, error.field) == (5, "battle_id")
    assert "first on line 2" in error.message


def test_an_earlier_bad_record_beats_a_later_duplicate(tmp_path):
    battles = base_battles() + [text_battle("b8", normalization_mode="html"), text_battle("b1")]
    error = _first_error(tmp_path, battles, base_votes())
    assert (error.line, error.field) == (5, "normalization_mode")


def test_earliest_vote_problem_wins(tmp_path):
    votes = base_votes() + [
        make_vote("v5", "nope"),  # line 6: unknown battle
        make_vote("v1", "b1"),  # line 7: duplicate of line 2
        make_vote("v7", "b1", weight=-1),  # line 8: bad weight
    ]
    error = _first_error(tmp_path, base_battles(), votes)
    assert (error.line, error.field) == (6, "battle_id")
    votes[5] = make_vote("v5", "b1")
    error = _first_error(tmp_path, base_battles(), votes)
    assert (error.line, error.field) == (7, "vote_id")


def test_on_one_line_the_record_check_comes_before_the_cross_record_check(tmp_path):
    votes = base_votes() + [make_vote("v1", "b1", choice="draw")]  # duplicate id and bad choice
    error = _first_error(tmp_path, base_battles(), votes)
    assert (error.line, error.field) == (6, "choice")


# ----------------------------------------------------------------------------- workers


def _big_dump(folder: Path, n_battles: int = 240) -> tuple[Path, Path]:
    battles: list[Line] = [battles_header()]
    models = ["m0", "m1", "m2", "m3", "m4", "m5"]
    for i in range(n_battles):
        a, b = models[i % 6], models[(i * 5 + 1) % 6]
        if a == b:
            b = models[(i + 3) % 6]
        if i % 7 == 3:
            battles.append(recording_battle(f"b{i}", a, b))
        else:
            text = "# T\n\n" * (i % 3) + "- item\n" * (i % 4) + "word " * (i % 11) + "é" * (i % 5)
            battles.append(
                text_battle(f"b{i}", a, b, response_a=text, response_b=text[::-1], normalization_mode=("rendered", "raw")[i % 4 == 1])
            )
    votes: list[Line] = [votes_header()]
    for j in range(n_battles * 2):
        battle = (j * 37) % n_battles
        if battle % 10 == 9:
            continue  # some battles get no votes
        votes.append(make_vote(f"v{j}", f"b{battle}", ("win_a", "win_b", "tie")[j % 3], (1.0, 0.5, 0.25, 3)[j % 4]))
    return write(folder, battles, votes)


def _assert_same_dump(left, right) -> None:
    assert left.header == right.header and left.models == right.models
    assert (left.battles_sha256, left.votes_sha256) == (right.battles_sha256, right.votes_sha256)
    assert (left.battles_in_file, left.votes_in_file) == (right.battles_in_file, right.votes_in_file)
    for name in ("category", "model_a", "model_b", "features_a", "features_b", "wins_a", "wins_b", "vote_count"):
        a, b = getattr(left, name), getattr(right, name)
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), name


def test_one_and_two_workers_give_identical_dumps(tmp_path):
    battles_path, votes_path = _big_dump(tmp_path)
    reference = read_dump(battles_path, votes_path, workers=1)  # one range per file
    assert reference.n_battles > 150 and 0 < reference.features_a[:, 2].sum()
    split_in_process = read_dump(battles_path, votes_path, workers=1, chunk_bytes=500)
    split_in_workers = read_dump(battles_path, votes_path, workers=2, chunk_bytes=500)
    _assert_same_dump(reference, split_in_process)
    _assert_same_dump(reference, split_in_workers)


def test_split_reads_report_exact_lines(tmp_path):
    """Errors deep in a file split across worker processes keep their exact line numbers."""
    battles_path, votes_path = _big_dump(tmp_path)
    lines = votes_path.read_bytes().split(b"\n")
    lines[123] = lines[123].replace(b'"choice": "', b'"choice": "x')
    votes_path.write_bytes(b"\n".join(lines))
    battle_lines = battles_path.read_bytes().split(b"\n")
    battle_lines[200] = battle_lines[150]  # line 201 repeats line 151
    for workers in (1, 2):
        with pytest.raises(DumpError) as caught:
            read_dump(battles_path, votes_path, workers=workers, chunk_bytes=300)
        assert (caught.value.line, caught.value.field) == (124, "choice")
    battles_path.write_bytes(b"\n".join(battle_lines))
    for workers in (1, 2):
        with pytest.raises(DumpError) as caught:
            read_dump(battles_path, votes_path, workers=workers, chunk_bytes=300)
        assert (caught.value.line, caught.value.field) == (201, "battle_id")
        assert "first on line 151" in caught.value.message


def _task_children(task: str) -> list[str]:
    try:
        return Path(f"/proc/self/task/{task}/children").read_text().split()
    except FileNotFoundError:  # the thread ended between listing and reading
        return []


def _process_state() -> dict[str, set]:
    children = {pid for task in os.listdir("/proc/self/task") for pid in _task_children(task)}
    return {
        "fds": set(os.listdir("/proc/self/fd")),
        "children": children | {p.pid for p in multiprocessing.active_children()},
        "threads": {thread.ident for thread in threading.enumerate()},
    }


@pytest.mark.parametrize("workers", [1, 2])
def test_read_dump_leaves_nothing_behind(tmp_path, workers):
    good = _big_dump(tmp_path / "good", 60)
    bad = write(tmp_path / "bad", base_battles(), base_votes() + [make_vote("v1", "b1")])
    resource_tracker.ensure_running()  # multiprocessing's one helper process per interpreter, started on first use
    before = _process_state()
    read_dump(*good, workers=workers, chunk_bytes=400)
    with pytest.raises(DumpError):
        read_dump(*bad, workers=workers, chunk_bytes=100)
    after = _process_state()
    # Nothing new may survive a read: no open file, no worker process, no thread. (Subset,
    # not equality: under xdist an earlier test's server thread may finish meanwhile.)
    for kind in before:
        assert after[kind] <= before[kind], f"read_dump left {kind} behind: {after[kind] - before[kind]}"
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted(
        ["good", "bad", "battles.jsonl", "votes.jsonl", "battles.jsonl", "votes.jsonl"]
    )


def test_workers_must_be_positive(tmp_path):
    with pytest.raises(ValueError):
        read_dump(*write(tmp_path, base_battles(), base_votes()), workers=0)


# ----------------------------------------------------------------------------- features

FEATURES = [
    ("", (0, 0.0, 0, 0)),
    ("plain text", (10, 0.0, 0, 0)),
    ("# Title", (7, 1 / 7, 0, 1)),
    ("#Title", (6, 1 / 6, 0, 0)),  # no space after the hashes: not a header
    ("####### seven", (13, 7 / 13, 0, 0)),  # seven hashes: not a header
    ("   ## three spaces", (18, 2 / 18, 0, 1)),
    ("    ## four spaces", (18, 2 / 18, 0, 0)),
    ("##", (2, 2 / 2, 0, 1)),  # hashes alone at the end of the text
    ("##\nx", (4, 2 / 4, 0, 1)),
    ("#\th", (3, 1 / 3, 0, 1)),
    ("a\n\n\n# h\n", (8, 1 / 8, 0, 1)),
    ("line\r\n# h", (9, 1 / 9, 0, 1)),  # lines split on LF only
    ("#\r\nx", (4, 1 / 4, 0, 0)),  # CR is an ordinary character
    ("- a\n* b\n+ c", (11, 3 / 11, 3, 0)),  # '*' (1) + items with '-'/'+' markers (2)
    ("1. one\n2) two\n10. ten", (21, 3 / 21, 3, 0)),
    ("  - nested\n\t* tab", (17, 2 / 17, 2, 0)),
    ("-no space", (9, 0.0, 0, 0)),
    ("- ", (2, 0.0, 0, 0)),  # nothing after the marker
    ("-\u00a0x", (3, 0.0, 0, 0)),  # a no-break space is not a space or tab
    ("1234567890. ten digits", (22, 0.0, 0, 0)),
    ("\u0661. arabic-indic digit", (21, 0.0, 0, 0)),  # ordered markers use ASCII digits
    ("1.5 is a number", (15, 0.0, 0, 0)),
    ("- - -", (5, 1 / 5, 1, 0)),
    ("* * *", (5, 3 / 5, 1, 0)),
    ("**bold** and _it_ and `code` > | ~", (34, 11 / 34, 0, 0)),
    ("é # x", (5, 1 / 5, 0, 0)),
    ("标题\n- 项目", (7, 1 / 7, 1, 0)),
    ("😀 **", (4, 2 / 4, 0, 0)),  # length counts code points, not UTF-16 units or bytes
]


@pytest.mark.parametrize(("text", "expected"), FEATURES, ids=[repr(t) for t, _ in FEATURES])
def test_features_rendered(text, expected):
    result = response_features(text, "rendered")
    assert all(type(value) is float for value in result)
    assert result == tuple(float(value) for value in expected)


@pytest.mark.parametrize(("text", "expected"), FEATURES, ids=[repr(t) for t, _ in FEATURES])
def test_features_raw_keep_only_the_length(text, expected):
    assert response_features(text, "raw") == (float(expected[0]), 0.0, 0.0, 0.0)


def test_features_reject_an_unknown_mode():
    with pytest.raises(ValueError, match="normalization_mode"):
        response_features("# x", "html")
