from __future__ import annotations

import datetime as dt
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from atlas_assets.cli import main
from atlas_assets.translation import importer
from atlas_assets.translation.importer import ImportOptions, import_corpus, parse_columns, parse_difficulty_map
from atlas_assets.translation.runs import read_card, run_translation
from atlas_assets.translation.schema import DatasetBlock, summary, validate_file
from tests.helpers.translation import REPO, STRONG

CRK = REPO / "translation" / "example-en-crk-v1.json"
CRK_CSV = REPO / "translation" / "examples" / "example-en-crk-v1.csv"
ATLAS = str(Path(sys.executable).with_name("atlas"))
HEADER = "source,reference,difficulty,register,context,provenance\n"
BLOCK = ["--id", "t-v1", "--source-language", "en", "--target-language", "crk", "--license", "CC0-1.0", "--created", "2025-01-01"]
DATASET = importer.DatasetFields(id="t-v1", source_language="en", target_language="crk", license="CC0-1.0", created="2025-01-01")
TIERS = {"easy": 1, "medium": 3, "hard": 5}


def options(**kw) -> ImportOptions:
    return ImportOptions(**{"dataset": DATASET, "difficulty_map": TIERS, **kw})


def write(tmp_path: Path, text: str | bytes, name: str = "in.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def errors(result) -> list[str]:
    return [str(p) for p in result.errors]


def documented_import_command() -> list[str]:
    """The import command of translation/README.md, as argv."""
    text = (REPO / "translation" / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n(\s*atlas translation import translation/examples/.*?)```", text, re.DOTALL)
    assert block, "translation/README.md lost the example's import command"
    return shlex.split(block.group(1).replace("\\\n", " "))


# ---------------------------------------------------------------- the example corpus


def test_the_example_is_the_documented_import_of_its_csv_byte_for_byte(tmp_path):
    argv = documented_import_command()
    assert argv[:3] == ["atlas", "translation", "import"]
    out = tmp_path / "example.json"
    argv[argv.index("--out") + 1] = str(out)
    result = subprocess.run([ATLAS, *argv[1:]], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == CRK.read_bytes()
    assert "example-en-crk-v1 v1.0 (EN→CRK): 27 entries, 3 variant class(es)" in result.stdout


def test_the_example_is_valid_and_marked_as_illustrative():
    report = validate_file(CRK)
    assert report.ok and not report.problems
    block = report.corpus.dataset
    assert (block.source_language, block.target_language, block.language_pair) == ("en", "crk", "EN→CRK")
    assert block.license == "CC0-1.0" and block.provenance == ["example"]
    for mark in ("ILLUSTRATIVE EXAMPLE", "NOT EDTeKLA data", "NOT verified by Cree speakers"):
        assert mark in block.description
    s = summary(report.corpus)
    assert s["by_difficulty"] == {"1": 12, "3": 9, "5": 6} and s["variant_classes"] == 3
    assert CRK_CSV.read_text(encoding="utf-8").splitlines()[0] == "english,cree,level,register,context,notes,variant"


def test_the_example_runs_end_to_end_through_the_cli(tmp_path):
    out = tmp_path / "run"
    result = subprocess.run([ATLAS, "translation", "run", "--dataset", str(CRK), "--engine", "sim-strong", "--out", str(out), "--no-progress"],
                            cwd=REPO, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    card = read_card(out)
    assert card.dataset.id == "example-en-crk-v1" and card.run.segments_done == card.dataset.segments == 24
    assert set(card.breakdowns["difficulty"]) == {"1", "3", "5"} and "chrF2++|nrefs:var" in result.stdout
    # the simulator indexes the corpus: a skill-1.0 engine returns the gold references
    assert run_translation(CRK, STRONG, tmp_path / "strong").card.scores["chrf++"].score == 100.0


# ---------------------------------------------------------------- difficulty map


def test_labels_are_mapped_stripped_and_ignoring_case(tmp_path):
    path = write(tmp_path, HEADER + "a,b, EASY ,c,c,p\nd,e,Medium,c,c,p\nf,g,hard,c,c,p\n")
    result = import_corpus(path, options())
    assert result.ok and [e.difficulty for e in result.corpus.entries] == [1, 3, 5]


def test_an_unmapped_label_names_its_line_the_labels_seen_and_the_map(tmp_path):
    path = write(tmp_path, HEADER + 'a,"b\nb",Easy,c,c,p\nd,e,Very hard,c,c,p\nf,g,Hard,c,c,p\n')
    result = import_corpus(path, options())
    assert errors(result) == [
        f"{path}: difficulty: 'Very hard' is not in the difficulty map easy=1,medium=3,hard=5 (labels seen: Easy, Very hard, Hard) (line 4)"
    ]


def test_with_a_map_integers_are_labels_too(tmp_path):
    path = write(tmp_path, HEADER + "a,b,3,c,c,p\nd,e,Hard,c,c,p\n")
    assert errors(import_corpus(path, options())) == [
        f"{path}: difficulty: '3' is not in the difficulty map easy=1,medium=3,hard=5 (labels seen: 3, Hard) (line 2)"
    ]
    assert import_corpus(path, options(difficulty_map={**TIERS, "3": 3})).ok


def test_without_a_map_tiers_must_be_integers(tmp_path):
    path = write(tmp_path, HEADER + "a,b, 2 ,c,c,p\nd,e,Hard,c,c,p\nf,g,7,c,c,p\nh,i,2.0,c,c,p\n")
    found = errors(import_corpus(path, options(difficulty_map=None)))
    assert found[0] == (f"{path}: difficulty: 'Hard' is not a difficulty tier 1-5: map the labels to tiers with "
                        "--difficulty-map LABEL=TIER,... (labels seen: 2, Hard, 7, 2.0) (line 3)")  # fmt: skip
    assert "less than or equal to 5 (line 4)" in found[1] and "'2.0' is not a difficulty tier" in found[2] and len(found) == 3
    assert import_corpus(write(tmp_path, HEADER + "a,b, 2 ,c,c,p\n"), options(difficulty_map=None)).corpus.entries[0].difficulty == 2


@pytest.mark.parametrize(
    "text, fragment",
    [("easy", "not LABEL=TIER"), ("=1", "not LABEL=TIER"), ("easy=0", "integer 1-5"), ("easy=6", "integer 1-5"), ("easy=one", "integer 1-5"),
     ("easy=1,,hard=5", "not LABEL=TIER"), ("easy=1,EASY =2", "given twice"), ("", "not LABEL=TIER")],
)  # fmt: skip
def test_malformed_difficulty_maps_are_refused(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_difficulty_map(text)


def test_difficulty_map_labels_may_hold_spaces():
    assert parse_difficulty_map("Very Easy=1, very hard = 5") == {"very easy": 1, "very hard": 5}


# ---------------------------------------------------------------- columns


def test_column_mapping_reads_real_world_headers(tmp_path):
    path = write(tmp_path, "English,Cree,Level,Register,Context,Audio\nHello,tânisi,Easy,c,greeting,a.wav\n")
    cols = parse_columns(["source=english", "reference=cree,difficulty=level"])
    result = import_corpus(path, options(columns=cols, ignore_columns=("audio",), defaults={"provenance": "textbook"}))
    assert result.ok and result.corpus.entries[0].model_dump(exclude_none=True) == {
        "id": 1,
        "source": "Hello",
        "reference": "tânisi",
        "difficulty": 1,
        "provenance": "textbook",
        "register": "c",
        "context": "greeting",
    }
    unknown = errors(import_corpus(path, options(columns=cols, defaults={"provenance": "textbook"})))
    assert unknown == [f"{path}: column 'Audio' is not an entry field (id, source, reference, difficulty, provenance, register, context, notes, "
                       "morphological_analysis, variant_class): map it with --column FIELD=Audio or drop it with --ignore-column Audio (line 1)"]  # fmt: skip
    missing = errors(
        import_corpus(path, options(columns={**cols, "notes": "remarks"}, ignore_columns=("audio",), defaults={"provenance": "t"}))
    )
    assert missing == [f"{path}: --column notes=remarks: no such column (columns: English, Cree, Level, Register, Context, Audio) (line 1)"]


@pytest.mark.parametrize(
    "items, fragment",
    [(["source"], "not FIELD=COLUMN"), (["source="], "not FIELD=COLUMN"), (["sauce=english"], "not an entry field"),
     (["source=a", "source=b"], "mapped twice"), (["source=a,reference=A"], "mapped to two fields")],
)  # fmt: skip
def test_malformed_column_mappings_are_refused(items, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_columns(items)


def test_references_come_from_json_only(tmp_path):
    """A CSV/TSV cell is text: `references` is not among its fields, nor in the message that
    lists them; a JSON multi-target corpus keeps its references."""
    listed = "(id, source, reference, difficulty, provenance, register, context, notes, morphological_analysis, variant_class)"
    assert importer.entry_fields("csv") == importer.entry_fields("tsv") and "references" not in importer.entry_fields("csv")
    with pytest.raises(ValueError) as info:
        parse_columns(["references=cree"], importer.entry_fields("csv"))
    assert str(info.value) == f"'references' is not an entry field {listed}"
    assert parse_columns(["references=refs"], importer.entry_fields("json")) == {"references": "refs"}
    path = write(tmp_path, HEADER.replace("reference,", "references,") + "a,b,Easy,c,c,p\n")
    assert errors(import_corpus(path, options())) == [
        f"{path}: column 'references' is not an entry field {listed}: map it with --column FIELD=references or drop it with --ignore-column references (line 1)"
    ]
    multi = {"dataset": {"id": "m-v1", "language_pair": "EN→2", "source_language": "en", "targets": ["fr", "de"], "license": "CC0-1.0", "provenance": ["p"]},
             "entries": [{"source": "Hi", "references": {"fr": "Salut", "de": "Hallo"}, "difficulty": "Easy", "register": "c", "context": "c", "provenance": "p"}]}  # fmt: skip
    result = import_corpus(write(tmp_path, json.dumps(multi), "m.json"), ImportOptions(difficulty_map=TIERS))
    assert result.ok and result.corpus.entries[0].references == {"fr": "Salut", "de": "Hallo"}


@pytest.mark.parametrize(
    "header, fragment",
    [("source,Source,reference", "column 'Source' appears twice (columns 1 and 2"), ("source,,reference", "column 2 has no name"),
     ("source,refrence", "column 'refrence' is not an entry field")],
)  # fmt: skip
def test_unusable_headers_are_named_and_nothing_else_is_read(tmp_path, header, fragment):
    result = import_corpus(write(tmp_path, header + "\nx,y,z\n"), options())
    assert len(result.errors) == 1 and fragment in str(result.errors[0]) and result.errors[0].line == 1


def test_a_missing_required_column_is_named_once_for_the_file(tmp_path):
    path = write(tmp_path, "source,reference,difficulty,context\n" + "a,b,Easy,c\n" * 50)
    assert errors(import_corpus(path, options())) == [
        f"{path}: provenance: no column for this required field: add it or map it with --column provenance=NAME, or give --default-provenance VALUE",
        f"{path}: register: no column for this required field: add it or map it with --column register=NAME, or give --default-register VALUE",
    ]  # fmt: skip
    filled = import_corpus(path, options(defaults={"provenance": "textbook", "register": "formal"}))
    assert filled.ok and {(e.provenance, e.register) for e in filled.corpus.entries} == {("textbook", "formal")}
    assert filled.corpus.dataset.provenance == ["textbook"]


# ---------------------------------------------------------------- CSV / TSV reading


def test_quotes_delimiters_newlines_bom_crlf_and_blank_rows(tmp_path):
    text = ("\ufeffsource,reference,difficulty,register,context,provenance,notes\r\n"
            '"He said ""hi"", then left.","ekosi,\r\nmâka",Easy,c,c,p,\r\n'
            ",,,,,,\r\n\r\n"
            "b,c,Hard,c,c,p,note\r\n\r\n\r\n")  # fmt: skip
    result = import_corpus(write(tmp_path, text), options())
    assert result.ok
    first, second = result.corpus.entries
    assert (first.id, first.source, first.reference, first.notes) == (1, 'He said "hi", then left.', "ekosi,\r\nmâka", None)
    assert (second.id, second.notes) == (2, "note")


def test_tsv_and_format_from_the_extension(tmp_path):
    text = 'source\treference\tdifficulty\tregister\tcontext\tprovenance\na, b\t"c\td"\tmedium\tr\tc\tp\n'
    result = import_corpus(write(tmp_path, text, "in.tsv"), options())
    assert result.ok and result.corpus.entries[0].reference == "c\td" and result.corpus.entries[0].source == "a, b"
    assert import_corpus(write(tmp_path, text, "in.data"), options(format="tsv")).ok
    with pytest.raises(ValueError, match="give --format json|csv|tsv"):
        importer.format_of(tmp_path / "in.data")


def test_ragged_rows_name_their_line_after_a_multiline_field(tmp_path):
    path = write(tmp_path, HEADER + 'a,"b\nstill b\nand b",Easy,c,c,p\nshort,row\nd,e,Easy,c,c,p,extra\nf,g,Easy,c,c,p\n')
    assert errors(import_corpus(path, options())) == [
        f"{path}: the row has 2 field(s), the header 6 (an unquoted delimiter or line break, or a missing field?) (line 5)",
        f"{path}: the row has 7 field(s), the header 6 (an unquoted delimiter or line break, or a missing field?) (line 6)",
    ]


@pytest.mark.parametrize(
    "body, fragment, line",
    [('a,"b,Easy,c,c,p\nd,e,Easy,c,c,p\n', "not valid CSV in the row starting here (a stray or unclosed quote?)", 2),
     ('a,b,Easy,c,c,p\nd,"e"x,Easy,c,c,p\n', "not valid CSV in the row starting here", 3),
     (b"a,b,Easy,c,c,p\nd,\xff\xfe,Easy,c,c,p\n", "not UTF-8: invalid start byte at byte 3 of the line", 3)],
)  # fmt: skip
def test_broken_quoting_and_bad_bytes_name_their_line(tmp_path, body, fragment, line):
    data = HEADER.encode() + (body if isinstance(body, bytes) else body.encode())
    result = import_corpus(write(tmp_path, data), options())
    assert fragment in str(result.errors[0]) and result.errors[0].line == line and result.corpus is None


@pytest.mark.parametrize(
    "body, by", [(f'a,"{"x" * 131_073}",Easy,c,c,p\n', ""), (f'a,"one\ntwo\n{"x" * 131_073}",Easy,c,c,p\n', " (by line 5)")]
)
def test_a_field_past_the_csv_size_limit_names_the_limit_and_the_line(tmp_path, body, by):
    import csv

    result = import_corpus(write(tmp_path, HEADER + "a,b,Easy,c,c,p\n" + body), options())
    assert [str(p) for p in result.errors] == [f"{tmp_path / 'in.csv'}: a field of the row starting here is longer than Python's csv field size limit, "
                                               f"{csv.field_size_limit()} characters{by}; nothing after it was read (line 3)"]  # fmt: skip
    assert "quote" not in str(result.errors[0])


@pytest.mark.parametrize(
    "text, fragment", [("", "the file is empty"), ("\n\n", "the file is empty"), (HEADER, "the corpus has no entries")]
)
def test_empty_inputs(tmp_path, text, fragment):
    result = import_corpus(write(tmp_path, text), options())
    assert not result.ok and any(fragment in str(p) for p in result.errors)


def test_a_large_csv_is_read_row_by_row_with_exact_lines(tmp_path):
    rows = "".join(
        f'sentence {i},"line one\nline two {i}",{("Easy", "Medium", "Hard")[i % 3]},conversational,statement,corpus\n'
        for i in range(30_000)
    )
    path = write(tmp_path, HEADER + rows + "last,x,Impossible,c,c,corpus\n")
    assert path.stat().st_size > 2_000_000
    result = import_corpus(path, options())
    assert len(result.errors) == 1 and result.errors[0].line == 2 + 2 * 30_000 and "'Impossible'" in str(result.errors[0])


# ---------------------------------------------------------------- ids


def test_ids_are_kept_or_numbered_and_bad_ones_named(tmp_path):
    numbered = import_corpus(write(tmp_path, HEADER + "a,b,Easy,c,c,p\nd,e,Hard,c,c,p\n"), options())
    assert [e.id for e in numbered.corpus.entries] == [1, 2]
    given = import_corpus(write(tmp_path, "id," + HEADER + " 20 ,a,b,Easy,c,c,p\n10,d,e,Hard,c,c,p\n"), options())
    assert [e.id for e in given.corpus.entries] == [20, 10]
    path = write(
        tmp_path,
        "id," + HEADER + "7,a,b,Easy,c,c,p\nx,d,e,Hard,c,c,p\n7,f,g,Hard,c,c,p\n,h,i,Easy,c,c,p\n" + "9" * 5000 + ",j,k,Easy,c,c,p\n",
    )
    assert errors(import_corpus(path, options())) == [
        f"{path}: id: 'x' is not an integer id (line 3)",
        f"{path}: id: duplicate id 7 (also line 2) (line 4)",
        f"{path}: id: required field is missing (line 5)",
        f"{path}: id: {'9' * 5000!r} is not an integer id (line 6)",
    ]


# ---------------------------------------------------------------- JSON


EDTEKLA_SHAPED = {
    "dataset": {"id": "labelled-dev-v1", "version": "1.0", "language_pair": "EN→CRK", "source_language": "en", "target_language": "crk",
                "created": "2025-05-01", "license": "CC BY-NC-SA 4.0", "provenance": ["gold_standard", "textbook"]},
    "entries": [
        {"id": 1, "source": "Hello", "reference": "tânisi", "difficulty": "Easy", "provenance": "gold_standard", "register": "conversational", "context": "greeting"},
        {"id": 2, "source": "I see the dog.", "reference": "niwâpamâw atim.", "difficulty": "Medium", "provenance": "textbook", "register": "conversational", "context": "statement"},
    ],
}  # fmt: skip


def test_a_spec_shaped_json_with_labels_keeps_its_block_and_options_override_it(tmp_path):
    path = write(tmp_path, json.dumps(EDTEKLA_SHAPED, ensure_ascii=False), "in.json")
    plain = ImportOptions(difficulty_map=TIERS)
    assert errors(import_corpus(path, plain)) == [
        f"{path}: dataset.license: 'CC BY-NC-SA 4.0' is not an SPDX licence id (did you mean CC-BY-NC-SA-4.0?); a licence outside the SPDX list is written LicenseRef-<name> (set it with --license)"
    ]
    result = import_corpus(path, plain.model_copy(update={"dataset": importer.DatasetFields(license="CC-BY-NC-SA-4.0")}))
    assert result.ok and result.corpus.dataset.license == "CC-BY-NC-SA-4.0" and result.corpus.dataset.created == "2025-05-01"
    assert [e.difficulty for e in result.corpus.entries] == [1, 3]


def test_json_problems_name_the_entry_path(tmp_path):
    doc = json.loads(json.dumps(EDTEKLA_SHAPED))
    doc["dataset"]["license"] = "CC-BY-NC-SA-4.0"
    doc["entries"] += [7, {**doc["entries"][0], "id": 1, "Source": "x"}, {**doc["entries"][1], "id": "3", "difficulty": True, "colour": 1},
                       {**doc["entries"][1], "id": 4, "colour": 2, "reference": ""}]  # fmt: skip
    doc["meta"] = {}
    path = write(tmp_path, json.dumps(doc), "in.json")
    assert errors(import_corpus(path, ImportOptions(difficulty_map=TIERS))) == [
        f"{path}: key 'colour' is not an entry field (id, source, reference, references, difficulty, provenance, register, context, notes, "
        "morphological_analysis, variant_class): map it with --column FIELD=colour or drop it with --ignore-column colour (in 2 entries, first entries.4)",
        f"{path}: meta: unknown top-level field (only `dataset` and `entries`)",
        f"{path}: entries.2: an entry must be an object, got int",
        f"{path}: entries.3.source: two keys give field source (names are compared ignoring case; check --column)",
        f"{path}: entries.3.id: duplicate id 1 (also entries.0)",
        f"{path}: entries.4.difficulty: must be a label or an integer tier, got bool: True",
        f"{path}: entries.5.reference: must not be empty or whitespace",
    ]  # fmt: skip


def test_a_bare_json_list_with_a_bom_and_string_ids(tmp_path):
    entries = [{"id": "5", "source": "a", "reference": "b", "difficulty": 2, "register": "r", "context": "c"}]
    path = write(tmp_path, b"\xef\xbb\xbf" + json.dumps(entries).encode(), "in.json")
    result = import_corpus(path, options(difficulty_map=None, defaults={"provenance": "elicited"}))
    assert result.ok and result.corpus.entries[0].id == 5 and result.corpus.dataset.provenance == ["elicited"]


@pytest.mark.parametrize("text, fragment", [("{", "not valid JSON"), ('"x"', "expected a list of entry objects"), ('{"dataset": {}}', "expected a list"),
                                            ('{"dataset": 3, "entries": []}', "dataset: must be an object")])  # fmt: skip
def test_unusable_json(tmp_path, text, fragment):
    result = import_corpus(write(tmp_path, text, "in.json"), options())
    assert not result.ok and fragment in str(result.errors[0])


# ---------------------------------------------------------------- dataset block


def test_the_block_is_derived_where_the_spec_allows_and_required_options_are_named(tmp_path):
    path = write(tmp_path, HEADER + "a,b,Easy,c,c,textbook\nd,e,Hard,c,c,gold_standard\n")
    result = import_corpus(path, options())
    block = result.corpus.dataset
    assert (block.version, block.language_pair, block.provenance) == ("1.0", "EN→CRK", ["gold_standard", "textbook"])
    today = import_corpus(path, options(dataset=DATASET.model_copy(update={"created": None})))
    assert today.corpus.dataset.created == dt.date.today().isoformat()
    bare = errors(import_corpus(path, ImportOptions(difficulty_map=TIERS)))
    for flag in ("--id", "--source-language", "--target-language", "--license"):
        assert any(f"required field is missing (set it with {flag})" in p for p in bare)
    assert importer.DatasetFields(provenance="gold_standard, textbook").provenance == ["gold_standard", "textbook"]


def test_a_deprecated_licence_id_is_a_warning(tmp_path):
    result = import_corpus(write(tmp_path, HEADER + "a,b,Easy,c,c,p\n"), options(dataset=DATASET.model_copy(update={"license": "GPL-3.0"})))
    assert result.ok and "GPL-3.0" in str(result.warnings[0])


def test_the_options_cover_every_dataset_field():
    single = [name for name in DatasetBlock.model_fields if name != "targets"]  # the importer writes single-target corpora
    assert list(importer.DATASET_OPTIONS) == single
    assert list(importer.DatasetFields.model_fields) == single


def test_variant_class_problems_come_back_to_their_line(tmp_path):
    path = write(tmp_path, HEADER.replace("\n", ",variant_class\n") + "a,b,Easy,c,c,p,v\nz,e,Easy,c,c,p,v\n")
    assert errors(import_corpus(path, options())) == [
        f"{path}: variant_class: variant class 'v' groups alternative references of one source, but this entry's source differs from entry 1's (line 3)"
    ]


# ---------------------------------------------------------------- CLI


def test_cli_exit_codes_and_nothing_written_on_bad_input(tmp_path, capsys):
    good = write(tmp_path, HEADER + "a,b,Easy,c,c,p\n")
    bad = write(tmp_path, HEADER + "a,b,Extreme,c,c,p\n", "bad.csv")
    out = tmp_path / "out.json"
    assert main(["translation", "import", str(bad), "--difficulty-map", "easy=1,medium=3,hard=5", *BLOCK, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"ERROR {bad}: difficulty: 'Extreme' is not in the difficulty map" in err and "nothing written" in err and not out.exists()
    assert main(["translation", "import", str(good), "--difficulty-map", "easy=1,medium=3,hard=5", *BLOCK, "--out", str(out)]) == 0
    written = out.read_bytes()
    assert json.loads(written)["entries"][0]["difficulty"] == 1 and "wrote" in capsys.readouterr().out
    assert main(["translation", "import", str(bad), "--difficulty-map", "easy=1", *BLOCK, "--out", str(out)]) == 1
    assert out.read_bytes() == written and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # untouched, no temp file
    assert main(["translation", "import", str(good), "--difficulty-map", "easy=9", "--out", str(out)]) == 2
    assert main(["translation", "import", str(good), "--column", "sauce=x", "--out", str(out)]) == 2
    assert main(["translation", "import", str(tmp_path / "in.xlsx"), "--out", str(out)]) == 2
    assert main(["translation", "import", str(tmp_path / "missing.csv"), "--out", str(out)]) == 1
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["translation", "import", str(good)])
    assert usage.value.code == 2


def test_cli_help_has_examples_and_exit_codes():
    result = subprocess.run([ATLAS, "translation", "import", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    for fragment in ("--difficulty-map easy=1,medium=3,hard=5", "--license CC-BY-NC-SA-4.0", "exit codes: 0 written; 1", "2 usage"):
        assert fragment in result.stdout
