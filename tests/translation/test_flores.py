"""FLORES+ import (translation/flores.py, `atlas translation import-flores`): line files and
Parquet, FLORES+ 2 Glottocode codes, and every broken input as one line naming the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from atlas_assets.translation.flores import LAYOUTS, FloresError, find_flores_file, import_flores, read_sentences
from atlas_assets.translation.report import run_facts
from atlas_assets.translation.runs import run_translation
from atlas_assets.translation.schema import validate_data
from tests.helpers.translation import APC, ENG, STRONG, flores_plus_row, lines, parquet

ATLAS = str(Path(sys.executable).with_name("atlas"))


def test_glottocode_codes_import_run_and_report_by_name(tmp_path):
    root = tmp_path / "flores"
    lines(root / "devtest" / "eng_Latn.devtest", ENG)
    lines(root / "devtest" / "apc_Arab_nort3139.devtest", APC)
    doc = import_flores(root / "devtest" / "eng_Latn.devtest", root / "devtest" / "apc_Arab_nort3139.devtest",
                        source_code="eng_Latn", target_code="apc_Arab_nort3139", created="2025-01-01")  # fmt: skip
    block = doc["dataset"]
    assert validate_data(doc).ok
    assert (block["source_language"], block["target_language"]) == ("eng-Latn", "apc-Arab-x-nort3139")
    assert block["id"] == "flores-plus-devtest-eng-latn-apc-arab-nort3139" and block["language_pair"] == "eng_Latn→apc_Arab_nort3139"
    assert "English (eng-Latn) → North Levantine Arabic (apc-Arab-x-nort3139)" in block["description"]
    assert [e["reference"] for e in doc["entries"]] == APC
    corpus = tmp_path / "apc.json"
    corpus.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    # the simulator recognises prompts naming "North Levantine Arabic" and answers with the references
    card = run_translation(corpus, STRONG, tmp_path / "run").card
    assert card.scores["chrf++"].score == 100.0
    facts = {f.key: f.value for f in run_facts(card)}
    assert facts["languages"] == "English (eng-Latn) → North Levantine Arabic (apc-Arab-x-nort3139)"


def test_flores_plus_parquet_layout(tmp_path):
    root = tmp_path / "flores_plus"
    parquet(root / "devtest" / "eng_Latn.parquet", flores_plus_row(ENG, "eng_Latn"))
    parquet(root / "devtest" / "zho_Hant.parquet", flores_plus_row(["河很寬。", "我們走路回家。", "2021年雨下得很多。"], "zho_Hant"))
    src, tgt = find_flores_file(root, "devtest", "eng_Latn"), find_flores_file(root, "devtest", "zho_Hant")
    assert src == root / "devtest" / "eng_Latn.parquet"
    doc = import_flores(src, tgt, source_code="eng_Latn", target_code="zho_Hant", created="2025-01-01")
    assert [e["id"] for e in doc["entries"]] == [1, 2, 3] and doc["entries"][2]["source"] == ENG[2]
    assert doc["dataset"]["target_language"] == "zho-Hant" and "Chinese (Traditional) (zho-Hant)" in doc["dataset"]["description"]
    # FLORES-200 conversions name the column `sentence`; a line file and a Parquet file pair up
    other = parquet(tmp_path / "fra.parquet", {"id": [1, 2, 3], "sentence": ["La rivière est large.", "Nous sommes rentrés.", "Il a plu."]})
    mixed = import_flores(lines(tmp_path / "eng.txt", ENG), other, source_code="eng_Latn", target_code="fra_Latn")
    assert mixed["entries"][0]["reference"] == "La rivière est large."


def test_layouts_are_tried_in_order_and_all_named_when_none_exists(tmp_path):
    root = tmp_path / "f"
    lines(root / "devtest" / "eng_Latn.devtest", ENG)
    parquet(root / "devtest" / "eng_Latn.parquet", flores_plus_row(ENG, "eng_Latn"))
    (root / "devtest" / "fra_Latn").mkdir(parents=True)  # a directory where a file could be: skipped
    lines(root / "fra_Latn", ENG)
    assert find_flores_file(root, "devtest", "eng_Latn") == root / "devtest" / "eng_Latn.devtest"
    assert find_flores_file(root, "devtest", "fra_Latn") == root / "fra_Latn"
    with pytest.raises(FloresError) as info:
        find_flores_file(root, "dev", "deu_Latn")
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"no FLORES file for deu_Latn (dev) under {root}; tried: ")
    assert all(str(root / layout.format(split="dev", code="deu_Latn")) in message for layout in LAYOUTS)


def test_line_files_tolerate_bom_crlf_and_a_missing_final_newline(tmp_path):
    crlf = lines(tmp_path / "a", ENG, end="\r\n")
    bom = tmp_path / "b"
    bom.write_bytes(b"\xef\xbb\xbf" + "\n".join(ENG).encode("utf-8"))  # no final newline
    assert read_sentences(crlf).sentences == read_sentences(bom).sentences == ENG
    separators = lines(tmp_path / "c", ["one\u2028sentence\x0b\x1c with separators", "two"])  # only \n ends a line
    assert read_sentences(separators).sentences == ["one\u2028sentence\x0b\x1c with separators", "two"]


def _text(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


BROKEN = {
    "two final newlines": (lambda d: _text(d / "x", b"a\nb\nc\n\n"), "x: line 4 is empty"),
    "whitespace line": (lambda d: _text(d / "x", b"a\n \t\r\nc\n"), "x: line 2 is empty"),
    "empty file": (lambda d: _text(d / "x", b""), "x: no sentences"),
    "only a newline": (lambda d: _text(d / "x", b"\n"), "x: line 1 is empty"),
    "not UTF-8": (lambda d: _text(d / "x", b"a\nb\n\xff\xfe latin-1 \xe9\n"), "x: not UTF-8 (line 3, byte 4"),
    "not UTF-8 after a BOM": (lambda d: _text(d / "x", b"\xef\xbb\xbfa\nb\n\xff\n"), "x: not UTF-8 (line 3, byte 7"),
    "directory": (lambda d: (d / "x").mkdir() or d / "x", "x: is a directory, not a FLORES file"),
    "missing": (lambda d: d / "x", "x: no such file"),
    "parquet null": (lambda d: parquet(d / "x.parquet", {"text": ["a", None, "c"]}), "x.parquet: row 2 is empty"),
    "parquet blank": (lambda d: parquet(d / "x.parquet", {"text": ["a", "b", "  "]}), "x.parquet: row 3 is empty"),
    "parquet no rows": (lambda d: parquet(d / "x.parquet", {"text": pa.array([], pa.string())}), "x.parquet: no sentences"),
    "parquet numbers": (lambda d: parquet(d / "x.parquet", {"text": [1, 2, 3]}), "x.parquet: column text holds int64, not text"),
    "parquet no text": (lambda d: parquet(d / "x.parquet", {"id": [1], "src": ["a"]}), "x.parquet: no sentence column (text or sentence); columns: id, src"),
    "not parquet": (lambda d: _text(d / "x.parquet", "\n".join(ENG).encode()), "x.parquet: not a readable Parquet file"),
}  # fmt: skip


@pytest.mark.parametrize("case", BROKEN)
def test_broken_files_are_one_error_naming_the_file(tmp_path, case):
    make, expected = BROKEN[case]
    path = make(tmp_path)
    with pytest.raises(FloresError) as info:
        read_sentences(path)
    message = str(info.value)
    assert message.startswith(str(tmp_path / expected.split(":")[0])) and expected in message and "\n" not in message


def test_misaligned_pairs(tmp_path):
    eng, short = lines(tmp_path / "eng", ENG), lines(tmp_path / "fra", ENG[:2])
    with pytest.raises(FloresError, match=f"not aligned: {eng} has 3 lines, {short} has 2 lines"):
        import_flores(eng, short, source_code="eng_Latn", target_code="fra_Latn")
    a = parquet(tmp_path / "a.parquet", flores_plus_row(ENG, "eng_Latn", ids=[0, 1, 2]))
    b = parquet(tmp_path / "b.parquet", flores_plus_row(APC, "apc_Arab_nort3139", ids=[0, 2, 1]))  # same length, other order
    with pytest.raises(FloresError, match=r"not aligned: row 2 is id 1 in .*a\.parquet but id 2 in .*b\.parquet"):
        import_flores(a, b, source_code="eng_Latn", target_code="apc_Arab_nort3139")


def test_codes_are_checked_unless_the_tag_is_given(tmp_path):
    eng, crk = lines(tmp_path / "eng", ENG), lines(tmp_path / "crk", ["a", "b", "c"])
    with pytest.raises(FloresError, match="'crk' is not a FLORES code"):
        import_flores(eng, crk, source_code="eng_Latn", target_code="crk")
    doc = import_flores(eng, crk, source_code="eng_Latn", target_code="crk", target_language="crk")
    assert doc["dataset"]["target_language"] == "crk" and "Plains Cree (crk)" in doc["dataset"]["description"]


def atlas(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([ATLAS, "translation", "import-flores", *args], capture_output=True, text=True, timeout=60)


def test_cli_errors_are_one_line_exit_1_no_traceback(tmp_path):
    root = tmp_path / "flores"
    lines(root / "devtest" / "eng_Latn.devtest", ENG)
    lines(root / "devtest" / "fra_Latn.devtest", ENG[:2])
    lines(root / "devtest" / "deu_Latn.devtest", ["Der Fluss.", "", "Es regnete."])
    _text(root / "devtest" / "spa_Latn.devtest", b"uno\n\xe9dos\ntres\n")
    (root / "devtest" / "ita_Latn.devtest").mkdir()
    out = tmp_path / "out.json"
    cases = [
        (["--dir", str(root), "--target", "por_Latn"], ["no FLORES file for por_Latn (devtest)", str(root / "devtest" / "por_Latn.parquet"), str(root / "por_Latn")]),
        (["--dir", str(root), "--target", "fra_Latn"], ["not aligned", str(root / "devtest" / "fra_Latn.devtest"), "has 2 lines"]),
        (["--dir", str(root), "--target", "deu_Latn"], [str(root / "devtest" / "deu_Latn.devtest"), "line 2 is empty"]),
        (["--dir", str(root), "--target", "spa_Latn"], [str(root / "devtest" / "spa_Latn.devtest"), "not UTF-8 (line 2"]),
        (["--source-file", str(root / "devtest" / "eng_Latn.devtest"), "--target-file", str(root / "devtest" / "ita_Latn.devtest"), "--target", "ita_Latn"],
         [str(root / "devtest" / "ita_Latn.devtest"), "--target-file", "is a folder, not a file"]),
        (["--source-file", str(tmp_path / "nope.devtest"), "--target-file", str(root / "devtest" / "eng_Latn.devtest"), "--target", "eng_Latn"],
         [str(tmp_path / "nope.devtest"), "no such file"]),
        (["--source-file", str(root / "devtest" / "eng_Latn.devtest"), "--target-file", str(root / "devtest" / "eng_Latn.devtest"), "--target", "apc_Arab-nort3139"],
         ["'apc_Arab-nort3139' is not a FLORES code"]),
    ]  # fmt: skip
    for args, expected in cases:
        done = atlas(*args, "--out", str(out))
        assert done.returncode == 1, (args, done.stderr)
        assert "Traceback" not in done.stderr and done.stdout == "", (args, done.stderr)
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("atlas: error: "), (args, done.stderr)
        assert all(part in done.stderr for part in expected), (args, done.stderr)
        assert not out.exists()
    # a corpus the schema refuses (a malformed tag given by hand) is refused the same way, naming the field
    bad_tag = atlas("--dir", str(root), "--target", "eng_Latn", "--target-language", "en_GB", "--out", str(out))
    assert bad_tag.returncode == 1 and "Traceback" not in bad_tag.stderr and "dataset.target_language" in bad_tag.stderr
    # --out that cannot be written
    (tmp_path / "taken").mkdir()
    unwritable = atlas("--dir", str(root), "--target", "eng_Latn", "--out", str(tmp_path / "taken"))
    assert (
        unwritable.returncode == 1
        and "Traceback" not in unwritable.stderr
        and f"--out: {tmp_path / 'taken'} is a folder, not a file" in unwritable.stderr
    )
    assert not out.exists()


def test_cli_imports_a_glottocode_target_and_names_it(tmp_path):
    root = tmp_path / "flores"
    lines(root / "devtest" / "eng_Latn.devtest", ENG)
    lines(root / "devtest" / "apc_Arab_nort3139.devtest", APC)
    out = tmp_path / "apc.json"
    done = atlas("--dir", str(root), "--target", "apc_Arab_nort3139", "--created", "2025-01-01", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (f"wrote {out}: 3 entries, flores-plus-devtest-eng-latn-apc-arab-nort3139 "
                           "(English (eng-Latn) → North Levantine Arabic (apc-Arab-x-nort3139))\n")  # fmt: skip
    assert validate_data(json.loads(out.read_text(encoding="utf-8"))).ok
