"""_gen/_lib.py: buckets, the token heuristic, deterministic writing, content hashes."""

from __future__ import annotations

import json

import pytest

from tests.helpers.corpus import ROOT


@pytest.mark.parametrize(
    "tokens, name",
    [
        (1, "xs"),
        (128, "xs"),
        (129, "s"),
        (512, "s"),
        (513, "m"),
        (2048, "m"),
        (2049, "l"),
        (8192, "l"),
        (8193, "xl"),
        (32768, "xl"),
        (32769, "xxl"),
        (10**7, "xxl"),
    ],
)
def test_bucket_boundaries_follow_design(lib, tokens, name):
    assert lib.bucket(tokens) == name


@pytest.mark.parametrize("bad", [0, -1])
def test_bucket_rejects_non_positive(lib, bad):
    with pytest.raises(ValueError):
        lib.bucket(bad)


def test_bucket_rejects_non_int(lib):
    with pytest.raises(TypeError):
        lib.bucket(3.5)
    with pytest.raises(TypeError):
        lib.bucket(True)


def test_approx_tokens_is_ceil_chars_over_four(lib):
    assert [lib.approx_tokens("x" * n) for n in (0, 1, 4, 5, 8, 9)] == [0, 1, 1, 2, 2, 3]
    messages = [{"role": "system", "content": "abc"}, {"role": "user", "content": "defgh"}]
    assert lib.message_tokens(messages) == 2
    assert lib.message_tokens(messages, shared_prefix="x") == 3  # 9 chars


def test_jsonl_is_deterministic_sorted_lf_utf8(lib, tmp_path):
    rows = [{"b": 1, "a": "é\n", "c": [1, {"z": 0, "y": None}]}, {"id": "2"}]
    lib.write_jsonl(tmp_path / "one.jsonl", rows)
    lib.write_jsonl(tmp_path / "two.jsonl", [dict(reversed(list(r.items()))) for r in rows])
    data = (tmp_path / "one.jsonl").read_bytes()
    assert data == (tmp_path / "two.jsonl").read_bytes()
    assert data == '{"a":"é\\n","b":1,"c":[1,{"y":null,"z":0}]}\n{"id":"2"}\n'.encode("utf-8")
    assert b"\r" not in data
    assert not list(tmp_path.glob(".*.tmp"))  # the atomic write left no temp file


def test_write_refuses_carriage_returns_and_nan(lib, tmp_path):
    with pytest.raises(ValueError):
        lib.write_text(tmp_path / "x.txt", "a\r\nb")
    with pytest.raises(ValueError):
        lib.write_jsonl(tmp_path / "x.jsonl", [{"x": float("nan")}])


def test_content_sha256_sees_bytes_names_and_additions(lib, tmp_path):
    folder = tmp_path / "d"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_text("one")
    (folder / "sub" / "b.txt").write_text("two")
    base = lib.content_sha256(folder)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "x.pyc").write_bytes(b"cache")
    assert lib.content_sha256(folder) == base  # caches are not content
    (folder / "a.txt").write_text("One")
    changed = lib.content_sha256(folder)
    assert changed != base
    (folder / "a.txt").rename(folder / "c.txt")
    assert lib.content_sha256(folder) not in (base, changed)


def test_cards_are_identical_across_datasets(lib):
    cards = [json.loads((p / "dataset.json").read_text()) for p in ROOT.iterdir() if (p / "dataset.json").is_file()]
    assert cards
    for card in cards:
        assert card["license"] == "MIT"
        assert card["token_heuristic"] == lib.TOKEN_HEURISTIC
        assert card["provenance"]["statement"] == lib.PROVENANCE_STATEMENT
        if card["kind"] == "eval":  # the shared rules; extraction per scorer is test_cards.py's
            legacy = ("extraction", "extraction_skipped_for")
            assert {k: v for k, v in card["scoring"].items() if k not in legacy} == {
                k: v for k, v in lib.SCORING.items() if k not in legacy
            }


def test_passages_find_a_repeat_at_any_offset(lib):
    shared = " ".join(f"Shared sentence number {i} carries some words." for i in range(8))
    a = "Intro one is here. " + shared + " Tail of a."
    b = "A different opening line that is longer. " + shared + " Tail of b."
    assert lib.passage_keys(a) & lib.passage_keys(b)
    with pytest.raises(AssertionError, match="share a passage"):
        lib.assert_unique_text([("a", a), ("b", b)])
    lib.assert_unique_text([("a", a), ("c", "Something else entirely. " * 3)])
