from __future__ import annotations

import json
import threading

import orjson
import pytest

from atlas_assets.cli import main
from atlas_assets.core.hashing import sha256_file
from atlas_assets.translation import prompt
from atlas_assets.translation.compare import CompareRefused, compare_cards
from atlas_assets.translation.flores import FloresError, import_flores
from atlas_assets.translation.runs import CARD, CARD_SHA, CHECKPOINT, read_card, run_translation
from atlas_assets.translation.schema import validate_data
from tests.helpers.translation import EXAMPLE, STRONG, WEAK


def test_run_card_contents_and_sha(tmp_path):
    out = run_translation(EXAMPLE, STRONG, tmp_path / "a")
    card = out.card
    assert out.complete and out.sent == 23
    assert card.dataset.id == "example-en-fr-v1" and card.dataset.sha256 == sha256_file(EXAMPLE)
    assert card.template.sha256 == prompt.template_info()["sha256"]
    assert card.scores["chrf++"].score == 100.0 and "nw:2" in card.scores["chrf++"].signature
    assert set(card.breakdowns) == {"difficulty", "register", "context"}
    assert len(card.outputs) == 26 and all(o.chrfpp == 100.0 for o in card.outputs)
    on_disk = json.loads((tmp_path / "a" / CARD).read_text())
    assert on_disk["format_version"] == 1 and "chrf++" in on_disk["outputs"][0]
    assert (tmp_path / "a" / CARD_SHA).read_text().split()[0] == sha256_file(tmp_path / "a" / CARD) == out.sha256


def test_resume_after_interruption(tmp_path):
    stop = threading.Event()
    seen = []

    def on_record(record):
        seen.append(record)
        if len(seen) == 5:
            stop.set()

    first = run_translation(EXAMPLE, WEAK, tmp_path / "r", concurrency=1, stop=stop, on_record=on_record)
    assert not first.complete and first.sent == 5
    assert len((tmp_path / "r" / CHECKPOINT).read_bytes().splitlines()) == 5
    second = run_translation(EXAMPLE, WEAK, tmp_path / "r")
    assert second.complete and second.resumed == 5 and second.sent == 18
    fresh = run_translation(EXAMPLE, WEAK, tmp_path / "fresh")
    assert second.card.scores == fresh.card.scores and second.card.outputs == fresh.card.outputs
    # a changed parameter makes every record stale: nothing is reused
    third = run_translation(EXAMPLE, WEAK, tmp_path / "r", params={"max_tokens": 256})
    assert third.resumed == 0 and third.sent == 23 and third.stale == 23


def test_compare_refuses_mismatched_versions_and_tests_otherwise(tmp_path, example_doc, write_corpus):
    a = run_translation(EXAMPLE, WEAK, tmp_path / "a").card
    b = run_translation(EXAMPLE, STRONG, tmp_path / "b").card
    result = compare_cards(a, b, n_samples=200)
    assert result["metrics"]["chrf++"]["delta"] > 0 and 0 < result["metrics"]["chrf++"]["p_value"] <= 1
    assert "bs:200" in result["metrics"]["chrf++"]["signature"]
    example_doc["dataset"]["version"] = "1.1"
    v11 = run_translation(write_corpus(example_doc), STRONG, tmp_path / "c").card
    with pytest.raises(CompareRefused, match="version differs"):
        compare_cards(a, v11)
    example_doc["dataset"]["version"] = "1.0"
    example_doc["entries"][0]["reference"] = "Bonjour !"
    same_version_other_bytes = run_translation(write_corpus(example_doc, "d.json"), STRONG, tmp_path / "d").card
    with pytest.raises(CompareRefused, match="sha256 differs"):
        compare_cards(a, same_version_other_bytes)
    assert main(["translation", "compare", str(tmp_path / "a"), str(tmp_path / "c")]) == 1  # refused, as `atlas eval compare`
    assert main(["translation", "compare", str(tmp_path / "a" / CARD), str(tmp_path / "b"), "--samples", "100"]) == 0


def test_modified_card_is_refused(tmp_path):
    run_translation(EXAMPLE, STRONG, tmp_path / "a", limit=3)
    path = tmp_path / "a" / CARD
    card = json.loads(path.read_text())
    card["scores"]["chrf++"]["score"] = 1.0
    path.write_bytes(orjson.dumps(card))
    with pytest.raises(ValueError, match="modified"):
        read_card(path)


def test_cli_run(tmp_path, capsys):
    rc = main(
        [
            "translation",
            "run",
            "--dataset",
            str(EXAMPLE),
            "--engine",
            "sim-strong",
            "--out",
            str(tmp_path / "cli"),
            "--limit",
            "4",
            "--no-progress",
        ]
    )
    assert rc == 0
    assert "chrF2++|nrefs" in capsys.readouterr().out
    assert read_card(tmp_path / "cli").run.segments_done == 4


def test_flores_import(tmp_path):
    d = tmp_path / "flores" / "devtest"
    d.mkdir(parents=True)
    (d / "eng_Latn.devtest").write_text("The river is wide.\nWe walked home.\n", encoding="utf-8")
    (d / "fra_Latn.devtest").write_text("La rivière est large.\nNous sommes rentrés à pied.\n", encoding="utf-8")
    out = tmp_path / "f.json"
    rc = main(
        [
            "translation",
            "import-flores",
            "--dir",
            str(tmp_path / "flores"),
            "--target",
            "fra_Latn",
            "--created",
            "2025-01-01",
            "--out",
            str(out),
        ]
    )
    assert rc == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert validate_data(doc).ok
    assert doc["dataset"]["source_language"] == "eng-Latn" and doc["dataset"]["target_language"] == "fra-Latn"
    assert [e["id"] for e in doc["entries"]] == [1, 2] and doc["entries"][1]["reference"] == "Nous sommes rentrés à pied."
    (d / "deu_Latn.devtest").write_text("Der Fluss ist breit.\n", encoding="utf-8")
    with pytest.raises(FloresError, match="not aligned"):
        import_flores(d / "eng_Latn.devtest", d / "deu_Latn.devtest", source_code="eng_Latn", target_code="deu_Latn")
    # the imported corpus runs against the simulator (which indexes it)
    card = run_translation(out, STRONG, tmp_path / "run").card
    assert card.scores["chrf++"].score == 100.0
