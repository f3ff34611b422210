"""Recording media resolution against S3 (moto's server on 127.0.0.1)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from atlas_assets.ratings.media import MediaRef, check_recording_media, media_refs, missing_markdown, parse_bucket_uri
from tests.helpers.dumps import recording_battle, small_dump_records, vote, write_dump


def _battle(battle_id: str, a: dict, b: dict) -> SimpleNamespace:
    def rec(keys: dict) -> SimpleNamespace:
        return SimpleNamespace(video_key=keys.get("video_key"), trace_key=keys.get("trace_key"), screenshot_key=keys.get("screenshot_key"))

    return SimpleNamespace(battle_id=battle_id, recording_a=rec(a), recording_b=rec(b))


def test_parse_bucket_uri():
    assert parse_bucket_uri("s3://media") == ("media", "")
    assert parse_bucket_uri("s3://media/platform/artifacts/") == ("media", "platform/artifacts")
    for bad in ("media/x", "s3://", "/local/folder"):
        with pytest.raises(ValueError):
            parse_bucket_uri(bad)


def test_media_refs_skip_null_keys_and_keep_dump_order():
    battles = [
        _battle("1", {"video_key": "v1a", "trace_key": "t1a", "screenshot_key": None}, {"video_key": "v1b"}),
        _battle("2", {"video_key": "v2a"}, {"trace_key": "t2b", "screenshot_key": "s2b"}),
    ]
    count, refs = media_refs(battles)
    assert count == 2
    assert [(r.battle_id, r.slot, r.field, r.key) for r in refs] == [
        ("1", "a", "video_key", "v1a"),
        ("1", "a", "trace_key", "t1a"),
        ("1", "b", "video_key", "v1b"),
        ("2", "a", "video_key", "v2a"),
        ("2", "b", "trace_key", "t2b"),
        ("2", "b", "screenshot_key", "s2b"),
    ]


def test_missing_objects_are_reported_by_battle_id(moto_s3, s3_client):
    s3_client.create_bucket(Bucket="platform-artifacts")
    present = ["v1a", "t1a", "v1b", "t1b", "v2a", "shared.png"]
    for key in present:
        s3_client.put_object(Bucket="platform-artifacts", Key=f"media/{key}", Body=b"x")
    battles = [
        _battle("1", {"video_key": "v1a", "trace_key": "t1a", "screenshot_key": "shared.png"}, {"video_key": "v1b", "trace_key": "t1b"}),
        _battle("2", {"video_key": "v2a", "trace_key": "t2a-gone"}, {"video_key": "v2b-gone", "screenshot_key": "shared.png"}),
        _battle("3", {"video_key": "v3a-gone"}, {"video_key": "v1b"}),  # v1b is shared with battle 1: present
    ]
    report = check_recording_media(iter(battles), "s3://platform-artifacts/media/")
    assert (report.bucket, report.prefix) == ("platform-artifacts", "media")
    assert report.battles_checked == 3
    assert report.references == 11
    assert report.objects_checked == 9  # shared.png and v1b are asked for once each
    assert not report.ok and not report.errors
    assert list(report.missing) == ["2", "3"]
    assert report.missing["2"] == [MediaRef("2", "a", "trace_key", "t2a-gone"), MediaRef("2", "b", "video_key", "v2b-gone")]
    assert report.missing["3"] == [MediaRef("3", "a", "video_key", "v3a-gone")]
    assert report.missing_count == 3
    assert report.as_dict()["missing"]["3"] == [{"slot": "a", "field": "video_key", "key": "v3a-gone"}]
    table = missing_markdown(report)
    assert "| 2 | b | video_key | `v2b-gone` |" in table and "v3a-gone" in table


def test_everything_present_is_ok(moto_s3, s3_client):
    s3_client.create_bucket(Bucket="bkt")
    s3_client.put_object(Bucket="bkt", Key="k1", Body=b"x")
    report = check_recording_media([_battle("9", {"video_key": "k1"}, {"video_key": "k1"})], "s3://bkt")
    assert report.ok and report.missing == {} and report.objects_checked == 1
    assert missing_markdown(report) == "All referenced media objects exist."


def test_a_missing_bucket_is_one_error_not_every_key_missing(moto_s3):
    report = check_recording_media([_battle("1", {"video_key": "k"}, {"video_key": "j"})], "s3://no-such-bucket")
    assert not report.ok
    assert report.missing == {} and report.objects_checked == 0 and report.references == 2
    assert "no-such-bucket" in report.bucket_error and "404" in report.bucket_error


def test_errors_other_than_not_found_are_not_counted_as_missing(moto_s3, s3_client):
    from botocore.exceptions import ClientError

    s3_client.create_bucket(Bucket="bkt")
    s3_client.put_object(Bucket="bkt", Key="ok", Body=b"x")

    class Throttled:
        def head_bucket(self, **kwargs):
            return s3_client.head_bucket(**kwargs)

        def head_object(self, Bucket, Key):
            if Key == "slow":
                raise ClientError({"Error": {"Code": "SlowDown", "Message": "throttled"}}, "HeadObject")
            return s3_client.head_object(Bucket=Bucket, Key=Key)

    battles = [_battle("1", {"video_key": "ok", "trace_key": "slow"}, {"video_key": "gone"})]
    report = check_recording_media(battles, "s3://bkt", client=Throttled())
    assert not report.ok
    assert list(report.errors) == ["slow"] and "SlowDown" in report.errors["slow"]
    assert report.missing == {"1": [MediaRef("1", "b", "video_key", "gone")]}


def test_no_recording_battles_means_nothing_to_ask(moto_s3):
    report = check_recording_media([], "s3://anything")
    assert report.ok and report.objects_checked == 0 and report.battles_checked == 0


def test_against_a_real_dump_file(moto_s3, s3_client, tmp_path):
    """End to end with the dump reader: the keys come from battles.jsonl recording records."""
    from atlas_assets.ratings.dump import iter_recording_battles

    battles = [
        recording_battle("2048", "alpha", "beta", screenshot_b=False),
        recording_battle("2049", "beta", "gamma", screenshot_b=True),
    ]
    votes = [vote("1", "2048", "v1", "win_a"), vote("2", "2049", "v1", "tie")]
    folder = write_dump(tmp_path / "dump", battles, votes)
    s3_client.create_bucket(Bucket="media")
    for battle in battles:
        for slot in ("recording_a", "recording_b"):
            for field in ("video_key", "trace_key", "screenshot_key"):
                key = battle[slot][field]
                if key and not (battle["battle_id"] == "2049" and field == "video_key" and slot == "recording_b"):
                    s3_client.put_object(Bucket="media", Key=key, Body=b"x")
    report = check_recording_media(iter_recording_battles(folder / "battles.jsonl"), "s3://media")
    assert report.battles_checked == 2
    assert report.references == 5 + 6
    assert list(report.missing) == ["2049"]
    assert report.missing["2049"] == [MediaRef("2049", "b", "video_key", "battles/2049/b.mp4")]


def test_text_battles_are_not_recording_battles(tmp_path):
    from atlas_assets.ratings.dump import iter_recording_battles

    battles, votes = small_dump_records()
    folder = write_dump(tmp_path / "d", battles, votes)
    recordings = list(iter_recording_battles(folder / "battles.jsonl"))
    assert [b.battle_id for b in recordings] == ["r0", "r1", "r2", "r3"]
