"""atlas_assets.core.storage.ArtifactStore against a local folder and against S3 (moto on 127.0.0.1)."""

from __future__ import annotations

import hashlib
import os

import pytest

from atlas_assets.core.storage import ArtifactStore, StorageError


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- local folder


def test_local_put_get_exists_list_and_sha256(tmp_path):
    store = ArtifactStore(tmp_path / "art")
    assert not store.is_s3
    assert list(store.list()) == []
    assert not store.exists("a/b.json")

    stored = store.put_bytes("a/b.json", b'{"x": 1}\n')
    assert stored.sha256 == _sha(b'{"x": 1}\n')
    assert stored.size == 9
    assert stored.uri == str((tmp_path / "art" / "a" / "b.json").resolve())
    assert store.exists("a/b.json")
    assert store.get_bytes("a/b.json") == b'{"x": 1}\n'
    assert (tmp_path / "art" / "a" / "b.json").read_bytes() == b'{"x": 1}\n'

    store.put_bytes("top.png", b"\x89PNG")
    store.put_bytes("a/c/d.txt", b"d")
    assert list(store.list()) == ["a/b.json", "a/c/d.txt", "top.png"]
    assert list(store.list("a")) == ["a/b.json", "a/c/d.txt"]
    assert list(store.list("missing")) == []

    # Overwrite replaces the whole content and reports the new digest.
    again = store.put_bytes("a/b.json", b"new")
    assert again.sha256 == _sha(b"new") and store.get_bytes("a/b.json") == b"new"


def test_local_write_is_atomic_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    store = ArtifactStore(tmp_path)
    store.put_bytes("leaderboard.json", b"old bytes\n")

    def broken_replace(src, dst):
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk on fire"):
        store.put_bytes("leaderboard.json", b"new bytes that must not appear\n")
    monkeypatch.undo()

    assert (tmp_path / "leaderboard.json").read_bytes() == b"old bytes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["leaderboard.json"]  # no temp file left behind


def test_local_paths_cannot_escape_the_root(tmp_path):
    store = ArtifactStore(tmp_path / "root")
    with pytest.raises(ValueError, match="escapes"):
        store.put_bytes("../outside.txt", b"x")
    assert not (tmp_path / "outside.txt").exists()


def test_local_download_streams_atomically_with_digest(tmp_path):
    store = ArtifactStore(tmp_path / "root")
    stored = store.put_bytes("dump/votes.jsonl", b"line\n" * 300_000)
    destination = tmp_path / "cache" / "votes.jsonl"
    got = store.download("dump/votes.jsonl", destination)
    assert got.path == destination and got.sha256 == stored.sha256 and got.size == 1_500_000
    assert destination.read_bytes() == b"line\n" * 300_000
    assert store.head("dump/votes.jsonl").size == 1_500_000 and store.head("nope") is None
    assert oct(destination.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    assert [p.name for p in destination.parent.iterdir()] == ["votes.jsonl"]


def _umask() -> int:
    import os

    current = os.umask(0)
    os.umask(current)
    return current


# --------------------------------------------------------------------------- S3 (moto, loopback)


def test_s3_root_needs_a_bucket():
    with pytest.raises(ValueError, match="bucket"):
        ArtifactStore("s3://")


@pytest.mark.parametrize("prefix", ["team/atlas", ""])
def test_s3_put_get_exists_list_and_sha256(moto_s3, s3_client, prefix):
    assert moto_s3.startswith("http://127.0.0.1:")
    s3_client.create_bucket(Bucket="artifacts")
    root = f"s3://artifacts/{prefix}" if prefix else "s3://artifacts"
    store = ArtifactStore(root)
    assert store.is_s3
    assert not store.exists("leaderboard.json")
    assert list(store.list()) == []

    stored = store.put_bytes("leaderboard.json", b"{}\n", content_type="application/json")
    key = f"{prefix}/leaderboard.json" if prefix else "leaderboard.json"
    assert stored.uri == f"s3://artifacts/{key}"
    assert stored.sha256 == _sha(b"{}\n") and stored.size == 3
    assert store.exists("leaderboard.json")
    assert store.get_bytes("leaderboard.json") == b"{}\n"

    head = s3_client.head_object(Bucket="artifacts", Key=key)
    assert head["ContentType"] == "application/json"
    assert head["Metadata"]["sha256"] == stored.sha256

    store.put_bytes("plots/a.png", b"png")
    store.put_bytes("plots/b.png", b"png2")
    # An object outside the prefix is not part of this store.
    s3_client.put_object(Bucket="artifacts", Key="elsewhere/x.txt" if prefix else "zz-other", Body=b"x")
    expected = ["leaderboard.json", "plots/a.png", "plots/b.png"] + ([] if prefix else ["zz-other"])
    assert list(store.list()) == expected
    assert list(store.list("plots")) == ["plots/a.png", "plots/b.png"]


def test_s3_missing_object_does_not_exist_and_get_raises(moto_s3, s3_client):
    s3_client.create_bucket(Bucket="artifacts")
    store = ArtifactStore("s3://artifacts/p")
    assert not store.exists("nope.json")
    with pytest.raises(StorageError, match=r"^reading s3://artifacts/p/nope.json: S3 at http://127.0.0.1:\d+ refused it \(NoSuchKey: "):
        store.get_bytes("nope.json")


def test_s3_download_streams_a_local_copy_with_etag_and_digest(moto_s3, s3_client, tmp_path):
    s3_client.create_bucket(Bucket="dumps")
    body = b"v\n" * 700_000  # several 1 MiB chunks
    s3_client.put_object(Bucket="dumps", Key="nightly/votes.jsonl", Body=body)
    store = ArtifactStore("s3://dumps/nightly")
    info = store.head("votes.jsonl")
    got = store.download("votes.jsonl", tmp_path / "c" / "votes.jsonl")
    assert got.path.read_bytes() == body and got.size == len(body) == info.size
    assert got.sha256 == hashlib.sha256(body).hexdigest() and got.tag == info.tag
    assert [p.name for p in got.path.parent.iterdir()] == ["votes.jsonl"]
    assert store.head("absent.jsonl") is None
