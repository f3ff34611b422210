"""`atlas translation import-flores` with many targets: one multi-target corpus from a list
or `all`, every target file checked aligned, usage refused, and the corpus run as a set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from atlas_assets.translation.flores import FloresError, discover_targets, import_flores, import_flores_multi
from atlas_assets.translation.multilingual import run_translation_set
from tests.helpers.translation import APC, ENG, STRONG, flores_plus_row, lines, parquet

ATLAS = str(Path(sys.executable).with_name("atlas"))
FRA = ["La rivière est large.", "Nous sommes rentrés à pied.", "Il a beaucoup plu en 2021."]
DEU = ["Der Fluss ist breit.", "Wir gingen nach Hause.", "Es regnete (viel) im Jahr 2021."]
JPN = ["川は広い。", "私たちは歩いて家に帰った。", "2021年は雨がたくさん降った。"]


def atlas(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([ATLAS, "translation", *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def root(tmp_path) -> Path:
    """A FLORES directory in several layouts: text files, one Parquet file, a target at the
    top level, and files that are no target of devtest."""
    root = tmp_path / "flores"
    lines(root / "devtest" / "eng_Latn.devtest", ENG)
    lines(root / "devtest" / "fra_Latn.devtest", FRA)
    lines(root / "devtest" / "deu_Latn", DEU)
    parquet(root / "devtest" / "jpn_Jpan.parquet", flores_plus_row(JPN, "jpn_Jpan"))
    lines(root / "apc_Arab_nort3139.devtest", APC)
    lines(root / "dev" / "spa_Latn.dev", ["uno", "dos", "tres"])  # the other split
    lines(root / "devtest" / "ita_Latn.dev", ["uno", "due", "tre"])  # the other split's suffix
    lines(root / "devtest" / "README", ["not a language"])
    return root


def test_a_list_is_one_multi_target_corpus_in_the_given_order(tmp_path, root):
    out = tmp_path / "multi.json"
    done = atlas(
        "import-flores",
        "--dir",
        str(root),
        "--target",
        "jpn_Jpan, fra_Latn,apc_Arab_nort3139",
        "--created",
        "2025-01-01",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wrote {out}: 3 entries, flores-plus-devtest-eng-latn-multi (English (eng-Latn) → 3 targets)\n"
    doc = json.loads(out.read_text(encoding="utf-8"))
    block = doc["dataset"]
    assert list(block) == [
        "id",
        "version",
        "language_pair",
        "description",
        "source_language",
        "targets",
        "created",
        "license",
        "provenance",
    ]
    assert block["targets"] == ["jpn-Jpan", "fra-Latn", "apc-Arab-x-nort3139"] and block["language_pair"] == "eng_Latn→3 targets"
    assert (
        "English (eng-Latn) → 3 targets (Japanese (jpn-Jpan), French (fra-Latn), North Levantine Arabic (apc-Arab-x-nort3139))"
        in block["description"]
    )
    assert [e["references"] for e in doc["entries"]] == [
        {"jpn-Jpan": j, "fra-Latn": f, "apc-Arab-x-nort3139": a} for j, f, a in zip(JPN, FRA, APC)
    ]
    assert [e["source"] for e in doc["entries"]] == ENG and not any("reference" in e for e in doc["entries"])
    checked = atlas("validate", str(out))
    assert checked.returncode == 0, checked.stderr
    assert "targets (3): jpn-Jpan, fra-Latn, apc-Arab-x-nort3139" in checked.stdout


def test_all_finds_every_target_of_the_split_in_any_layout(tmp_path, root):
    assert discover_targets(root, "devtest", "eng_Latn") == ["apc_Arab_nort3139", "deu_Latn", "fra_Latn", "jpn_Jpan"]
    assert discover_targets(root, "dev", "eng_Latn") == ["spa_Latn"]
    out = tmp_path / "all.json"
    done = atlas("import-flores", "--dir", str(root), "--target", "all", "--id", "flores-mini-v1", "--limit", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["dataset"]["id"] == "flores-mini-v1" and len(doc["entries"]) == 2
    assert doc["dataset"]["targets"] == ["apc-Arab-x-nort3139", "deu-Latn", "fra-Latn", "jpn-Jpan"]
    assert doc["entries"][1]["references"] == {"apc-Arab-x-nort3139": APC[1], "deu-Latn": DEU[1], "fra-Latn": FRA[1], "jpn-Jpan": JPN[1]}
    assert atlas("validate", "-q", str(out)).returncode == 0
    # `all` finding one target writes the single-target corpus, as --target with that code does
    one, single = tmp_path / "one.json", tmp_path / "single.json"
    assert (
        atlas(
            "import-flores", "--dir", str(root), "--split", "dev", "--source", "spa_Latn", "--target", "all", "--out", str(one)
        ).returncode
        == 1
    )
    lines(root / "dev" / "eng_Latn.dev", ENG)
    for target, path in (("all", one), ("spa_Latn", single)):
        done = atlas(
            "import-flores", "--dir", str(root), "--split", "dev", "--target", target, "--created", "2025-01-01", "--out", str(path)
        )
        assert done.returncode == 0, done.stderr
    assert one.read_bytes() == single.read_bytes() and json.loads(one.read_bytes())["dataset"]["target_language"] == "spa-Latn"


def refused(done: subprocess.CompletedProcess, status: int, *parts: str) -> None:
    assert done.returncode == status and done.stdout == "" and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and all(part in done.stderr for part in parts), done.stderr


def test_every_target_is_checked_and_misuse_is_refused(tmp_path, root):
    out = tmp_path / "out.json"
    lines(root / "devtest" / "por_Latn.devtest", ["Um.", "Dois."])
    short = str(root / "devtest" / "por_Latn.devtest")
    imp = ("import-flores", "--dir", str(root), "--out", str(out))
    refused(
        atlas(*imp, "--target", "fra_Latn,por_Latn"), 1, "not aligned", short, "has 2 lines", str(root / "devtest" / "eng_Latn.devtest")
    )
    refused(atlas(*imp, "--target", "all"), 1, short)  # all: the misaligned one is among them
    refused(atlas(*imp, "--target", "fra_Latn,deu_Latn,fra_Latn"), 1, "target fra_Latn is given twice (targets 1 and 3 of the list)")
    refused(atlas(*imp, "--target", "fra_Latn,fra-Latn"), 1, "'fra-Latn' is not a FLORES code")
    refused(atlas(*imp, "--target", "fra_Latn,kor_Hang"), 1, "no FLORES file for kor_Hang (devtest)")
    refused(
        atlas(*imp, "--target", "fra_Latn,deu_Latn", "--target-language", "fr"),
        2,
        "--target-language takes one target; --target names 2 (fra_Latn, deu_Latn)",
    )
    refused(atlas(*imp, "--target", "fra_Latn,,deu_Latn"), 2, "an empty code in the list")
    pair = ("--source-file", str(root / "devtest" / "eng_Latn.devtest"), "--target-file", str(root / "devtest" / "fra_Latn.devtest"))
    refused(atlas("import-flores", *pair, "--target", "fra_Latn,deu_Latn", "--out", str(out)), 2, "--target-file takes one target")
    refused(atlas("import-flores", *pair, "--target", "all", "--out", str(out)), 2, "--target all needs --dir")
    lonely = tmp_path / "lonely"
    lines(lonely / "devtest" / "eng_Latn.devtest", ENG)
    refused(atlas("import-flores", "--dir", str(lonely), "--target", "all", "--out", str(out)), 1,
            f"--target all: no FLORES target file for devtest under {lonely} besides the source eng_Latn", str(lonely / "devtest" / "CODE.parquet"))  # fmt: skip
    assert not out.exists()
    # the library names the file as the CLI does, and one builder makes both shapes
    with pytest.raises(FloresError, match=f"{short} has 2 lines"):
        import_flores_multi(
            root / "devtest" / "eng_Latn.devtest",
            {"fra_Latn": root / "devtest" / "fra_Latn.devtest", "por_Latn": short},
            source_code="eng_Latn",
        )
    src, fra = root / "devtest" / "eng_Latn.devtest", root / "devtest" / "fra_Latn.devtest"
    single = import_flores(src, fra, source_code="eng_Latn", target_code="fra_Latn", created="2025-01-01")
    multi = import_flores_multi(src, {"fra_Latn": fra}, source_code="eng_Latn", created="2025-01-01")
    assert [e["reference"] for e in single["entries"]] == [e["references"]["fra-Latn"] for e in multi["entries"]] == FRA


def test_the_imported_corpus_runs_as_a_set_one_row_per_target(tmp_path, root):
    out = tmp_path / "multi.json"
    assert atlas("import-flores", "--dir", str(root), "--target", "all", "--out", str(out)).returncode == 0
    outcome = run_translation_set(out, STRONG, tmp_path / "set", n_samples=100)
    assert outcome.complete and not outcome.report.missing
    rows = outcome.report.languages
    assert [r.target_language for r in rows] == ["apc-Arab-x-nort3139", "deu-Latn", "fra-Latn", "jpn-Jpan"]
    assert [r.name for r in rows] == ["North Levantine Arabic", "German", "French", "Japanese"]
    assert all(r.scores["chrf++"].score == 100.0 for r in rows)  # the simulator answers each target with its references
