"""The reader's fast path (msgspec) against its explaining path, repeated keys, and the
bounds on what the reader opens and how long a line may be."""

from __future__ import annotations

import json
import os
import random
import threading
from pathlib import Path

import msgspec
import numpy as np
import orjson
import pytest

from atlas_assets.ratings import dump
from atlas_assets.ratings.dump import read_dump
from atlas_assets.ratings.errors import DumpError
from tests.ratings.test_dump import (
    SPEC_BATTLES,
    SPEC_VOTES,
    _assert_same_dump,
    _big_dump,
    base_battles,
    base_votes,
    battles_header,
    make_vote,
    read_in,
    recording,
    recording_battle,
    text_battle,
    votes_header,
    write,
)


def _ranges(path: Path, kind: str) -> list[bytes]:
    header = dump._read_header(str(path), kind)
    data = path.read_bytes()
    return [data[start:end] for start, end in dump._ranges(str(path), header.data_start, header.size, 700)]


def _without_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dump, "_fast_battles", lambda *args: None)
    monkeypatch.setattr(dump, "_fast_votes", lambda *args: None)


# ----------------------------------------------------------------------------- equivalence


def test_fast_path_reads_ordinary_dumps(tmp_path):
    """It must vouch for ordinary data, or every speed figure would be the slow path's."""
    battles_path, votes_path = _big_dump(tmp_path)
    header = dump._read_header(str(battles_path), "battles")
    assert all(dump._fast_battles(part, header.schema_version, header.categories) for part in _ranges(battles_path, "battles"))
    assert all(dump._fast_votes(part) for part in _ranges(votes_path, "votes"))


@pytest.mark.parametrize("chunk_bytes", [dump.CHUNK_BYTES, 700])
def test_fast_and_explaining_paths_give_identical_dumps(tmp_path, monkeypatch, chunk_bytes):
    battles_path, votes_path = _big_dump(tmp_path)
    fast = read_dump(battles_path, votes_path, workers=1, chunk_bytes=chunk_bytes)
    _without_fast_path(monkeypatch)
    _assert_same_dump(fast, read_dump(battles_path, votes_path, workers=1, chunk_bytes=chunk_bytes))


def _edge_dumps() -> dict[str, tuple[list | bytes, list | bytes]]:
    tricky = 'quote " backslash \\ both \\" and \\\\" end \\'
    return {
        "spec-v1": (SPEC_BATTLES, SPEC_VOTES),
        "base": (base_battles(), base_votes()),
        "escapes": (
            [battles_header(), text_battle("b1", response_a=tricky, response_b="\\" * 5 + '"'), recording_battle("b2")],
            [votes_header(), make_vote('v\\1"', "b1"), make_vote("v2", "b2", weight=3)],
        ),
        "unicode-and-escaped-keys": (
            [
                battles_header(),
                json.dumps(text_battle("b1", response_a="é ☃ 😀 \u2028"), ensure_ascii=True)
                .replace('"model_a"', '"model\\u005fa"')
                .encode(),
            ],
            [votes_header(), json.dumps(make_vote("v1", "b1")).replace('"weight"', '"w\\u0065ight"').encode()],
        ),
        "nulls-and-unknown-fields": (
            [
                battles_header(),
                text_battle("b1", modality=None, extra={"weight": 1, "weight ": 2}),
                recording_battle(
                    "b2",
                    response_a=None,
                    telemetry_a=None,
                    telemetry_b={"steps": 0, "nope": -1},
                    recording_a={**recording("a"), "screenshot_key": "s.png", "more": [1]},
                ),
            ],
            [votes_header(), make_vote("v1", "b1", note="x"), make_vote("v2", "b2", choice="tie", weight=1e-300)],
        ),
        "big-numbers": (
            [battles_header(), text_battle("b1")],
            [
                votes_header(),
                b'{"vote_id": "v1", "battle_id": "b1", "voter_id": "u", "choice": "win_a", '
                b'"created_at": "2024-02-29T00:00:00Z", "weight": 18446744073709551617}',
                b'{"vote_id": "v2", "battle_id": "b1", "voter_id": "u", "choice": "win_b", '
                b'"created_at": "2026-09-07T10:00:00Z", "weight": 0.1000000000000000055511151231257827}',
            ],
        ),
        "spaced-json": (
            [battles_header(), json.dumps(text_battle("b1"), indent=None, separators=(" , ", " : ")).encode()],
            [
                votes_header(),
                b'\t{ "vote_id" : "v1" ,"battle_id":"b1","voter_id":"u","choice":"tie","created_at":"2026-09-07T10:00:00Z","weight":2 } ',
            ],
        ),
    }


@pytest.mark.parametrize("name", list(_edge_dumps()))
def test_unusual_valid_dumps_read_the_same_either_way(tmp_path, monkeypatch, name):
    battles, votes = _edge_dumps()[name]
    write(tmp_path, battles, votes)
    fast = read_in(tmp_path, workers=1)
    _without_fast_path(monkeypatch)
    _assert_same_dump(fast, read_in(tmp_path, workers=1))


def test_string_token_count_is_exact():
    rng = random.Random(7)
    alphabet = ['"', "\\", "a", ":", " ", "é", "\n", "u"]
    for _ in range(3000):
        values = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(12))) for _ in range(rng.randrange(1, 5))]
        line = json.dumps({f"k{i}": value for i, value in enumerate(values)}, ensure_ascii=rng.random() < 0.5)
        assert dump._string_tokens(line.encode() + b"\n") == 2 * len(values), line


def test_msgspec_and_orjson_read_the_same_weights():
    """The fast path's weights are the explaining path's, bit for bit (both correctly rounded)."""
    rng = random.Random(11)
    literals = [f"{rng.random() * 10 ** rng.randrange(-30, 30):.{rng.randrange(1, 25)}g}" for _ in range(5000)]
    literals += [str(rng.randrange(1, 2**70)) for _ in range(2000)]
    literals += ["1e-320", "2.2250738585072011e-308", "9007199254740993", "1.7976931348623157e308"]
    decoder = msgspec.json.Decoder(dump._FastVote)
    for literal in literals:
        line = (
            '{"vote_id": "1", "battle_id": "1", "voter_id": "1", "choice": "tie", '
            f'"created_at": "2026-09-07T10:00:00Z", "weight": {literal}}}'
        ).encode()
        expected = float(orjson.loads(line)["weight"])
        assert np.float64(decoder.decode(line).weight).tobytes() == np.float64(expected).tobytes(), literal


# ----------------------------------------------------------------------------- repeated keys

VOTE = json.dumps(make_vote("v3", "b3"))
BATTLE = json.dumps(text_battle("b3", "gamma", "beta"))

REPEATED = [
    # (name, file, 1-based line, replaced line, field)
    (
        "first-repeat-in-document-order",
        "votes.jsonl",
        4,
        VOTE.replace('"weight": 1.0', '"weight": -5, "voter_id": "u", "weight": 0.75'),
        "voter_id",
    ),
    ("weight-twice", "votes.jsonl", 4, VOTE[:-1] + ', "weight": 0.75}', "weight"),
    ("escaped-spelling", "votes.jsonl", 4, VOTE[:-1] + ', "w\\u0065ight": 0.75}', "weight"),
    ("unknown-field-twice", "votes.jsonl", 4, VOTE[:-1] + ', "note": 1, "note": 2}', "note"),
    ("model-twice", "battles.jsonl", 4, BATTLE[:-1] + ', "model_a": "delta"}', "model_a"),
    (
        "nested-recording",
        "battles.jsonl",
        3,
        json.dumps(recording_battle("b2")).replace('"assisted": false}', '"assisted": false, "video_key": "x"}', 1),
        "recording_a.video_key",
    ),
    ("header", "votes.jsonl", 1, json.dumps(votes_header())[:-1] + ', "kind": "votes"}', "kind"),
]


@pytest.mark.parametrize(("file", "line", "text", "field"), [case[1:] for case in REPEATED], ids=[c[0] for c in REPEATED])
def test_repeated_keys_are_rejected_with_line_and_field(tmp_path, file, line, text, field):
    battles, votes = base_battles(), base_votes()
    (battles if file == "battles.jsonl" else votes)[line - 1] = text.encode()
    write(tmp_path, battles, votes)
    with pytest.raises(DumpError) as caught:
        read_in(tmp_path)
    error = caught.value
    assert (error.path, error.line, error.field) == (file, line, field), str(error)
    assert "appears twice" in error.message


def test_a_repeated_key_comes_after_earlier_lines_and_before_its_own_line_checks(tmp_path):
    votes = base_votes()
    votes[2] = make_vote("v2", "b2", weight=0)  # line 3: bad weight
    votes[3] = (VOTE[:-1] + ', "weight": 0.75}').encode()  # line 4: repeated key
    write(tmp_path, base_battles(), votes)
    with pytest.raises(DumpError) as caught:
        read_in(tmp_path)
    assert (caught.value.line, caught.value.field) == (3, "weight")
    votes[2] = make_vote("v2", "b2")
    votes[3] = (VOTE.replace('"b3"', '"nope"')[:-1] + ', "choice": 7, "choice": "tie"}').encode()
    write(tmp_path, base_battles(), votes)
    with pytest.raises(DumpError) as caught:
        read_in(tmp_path)
    assert (caught.value.line, caught.value.field) == (4, "choice") and "appears twice" in caught.value.message


def test_repeated_key_deep_in_a_split_file_keeps_its_line(tmp_path):
    battles_path, votes_path = _big_dump(tmp_path)
    lines = votes_path.read_bytes().split(b"\n")
    lines[200] = lines[200][:-1] + b', "weight": 2}'
    votes_path.write_bytes(b"\n".join(lines))
    for workers in (1, 2):
        with pytest.raises(DumpError) as caught:
            read_dump(battles_path, votes_path, workers=workers, chunk_bytes=600)
        assert (caught.value.line, caught.value.field) == (201, "weight")


# ----------------------------------------------------------------------------- bounds


def test_over_long_line_is_rejected_with_its_line(tmp_path):
    votes = base_votes()
    votes[2] = json.dumps(make_vote("v2", "b2", padding="x" * dump.MAX_LINE_BYTES)).encode()
    write(tmp_path, base_battles(), votes)
    for chunk_bytes in (dump.CHUNK_BYTES, 300):
        with pytest.raises(DumpError) as caught:
            read_in(tmp_path, workers=1, chunk_bytes=chunk_bytes)
        assert (caught.value.path, caught.value.line, caught.value.field) == ("votes.jsonl", 3, None)
        assert "longer than" in caught.value.message


def test_a_file_without_newlines_is_read_in_bounded_pieces(tmp_path, monkeypatch):
    monkeypatch.setattr(dump, "MAX_LINE_BYTES", 4096)
    battles, votes = write(tmp_path, base_battles(), b"")
    votes.write_bytes(b"x" * 100_000)
    with pytest.raises(DumpError) as caught:
        read_dump(battles, votes, workers=1)
    assert caught.value.line == 1 and "longer than" in caught.value.message
    votes.write_bytes(json.dumps(votes_header()).encode() + b"\n" + b"y" * 100_000)
    header = dump._read_header(str(votes), "votes")
    assert all(end - start <= 700 + 4096 + (1 << 16) for start, end in dump._ranges(str(votes), header.data_start, header.size, 700))
    with pytest.raises(DumpError) as caught:
        read_dump(battles, votes, workers=1, chunk_bytes=700)
    assert caught.value.line == 2 and "longer than" in caught.value.message


def test_fifo_directory_and_device_are_refused_without_opening(tmp_path):
    battles, _ = write(tmp_path, base_battles(), base_votes())
    fifo = tmp_path / "votes.fifo"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []
    reader = threading.Thread(target=lambda: outcome.append(pytest.raises(DumpError, read_dump, battles, fifo).value))
    reader.start()
    reader.join(timeout=20)
    assert not reader.is_alive(), "read_dump blocked on a FIFO without a writer"
    assert "FIFO" in str(outcome[0]) and str(fifo) in str(outcome[0])
    for path, kind in ((tmp_path, "a directory"), (Path("/dev/zero"), "a character device")):
        with pytest.raises(DumpError) as caught:
            read_dump(battles, path)
        assert caught.value.path == str(path) and kind in caught.value.message


def test_reader_workers_ignore_ctrl_c_so_only_the_parent_speaks():
    """The terminal's SIGINT reaches every process of the group: the spawn workers must not
    print KeyboardInterrupt tracebacks of their own (the parent says "interrupted")."""
    import multiprocessing
    import signal
    from concurrent.futures import ProcessPoolExecutor

    from atlas_assets.ratings.dump import _ignore_interrupts

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_interrupts) as pool:
        assert pool.submit(signal.getsignal, signal.SIGINT).result(timeout=60) == signal.SIG_IGN
