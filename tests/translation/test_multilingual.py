"""Multi-target corpora run as one set: per-target cards, the cross-language report (its
intervals are sacreBLEU's), comparing two engines language by language, Dagster."""

from __future__ import annotations

import json
import threading
import xml.etree.ElementTree as ET

import dagster as dg
import jsonschema
import pytest
import yaml

from atlas_assets.orchestration.resources import ArtifactStoreResource
from atlas_assets.orchestration.translation import assets as tr
from atlas_assets.translation.compare import CompareRefused, compare_cards
from atlas_assets.translation.leaderboard import leaderboard
from atlas_assets.translation.multilingual import (
    REPORT,
    REPORT_MD,
    REPORT_SHA,
    REPORT_SVG,
    LanguageReport,
    _holm,
    compare_sets,
    language_report,
    read_set,
    render_svg,
    run_translation_set,
)
from atlas_assets.translation.runs import run_translation
from atlas_assets.translation.schema import validate_data
from tests.helpers.translation import REPO, STRONG, WEAK

TARGETS = ["fr", "de", "ja"]


@pytest.fixture
def multi_path(example_doc, write_corpus):
    """The example corpus as a three-target corpus (German and Japanese references made up
    from the French ones: the simulator answers from whatever the references are)."""
    block = {k: v for k, v in example_doc["dataset"].items() if k != "target_language"}
    block.update(id="example-multi-v1", targets=TARGETS, language_pair="EN→3 languages")
    made_up = {"fr": lambda r: r, "de": lambda r: " ".join(reversed(r.split())), "ja": lambda r: r.replace(" ", "")}
    entries = []
    for entry in example_doc["entries"]:
        entry = dict(entry)
        reference = entry.pop("reference")
        entry["references"] = {t: made_up[t](reference) for t in TARGETS}
        entries.append(entry)
    doc = {"dataset": block, "entries": entries}
    assert validate_data(doc).ok
    return write_corpus(doc, "multi.json")


def test_a_set_runs_every_target_and_reports_them(tmp_path, multi_path):
    out = run_translation_set(multi_path, STRONG, tmp_path / "set", n_samples=200)
    assert out.complete and list(out.outcomes) == TARGETS
    cards = read_set(tmp_path / "set")
    assert sorted(c.dataset.target_language for c in cards) == sorted(TARGETS)
    assert {c.dataset.id for c in cards} == {"example-multi-v1"}
    report = out.report
    assert [row.target_language for row in report.languages] == TARGETS and not report.missing
    assert [row.name for row in report.languages] == ["French", "German", "Japanese"]
    assert all(row.scores["chrf++"].score == 100.0 for row in report.languages)
    assert report.mean["chrf++"].score == 100.0 and report.mean["chrf++"].ci95 == 0.0
    # BLEU's tokenizer follows the target: the mean says it averaged different signatures
    assert len(report.mean["bleu"].signatures) == 2 and len(report.mean["chrf++"].signatures) == 1
    on_disk = (tmp_path / "set" / REPORT).read_bytes()
    assert LanguageReport.model_validate_json(on_disk) == report
    schema = json.loads((REPO / "schemas" / "translation-run" / "1" / "languages_schema.json").read_bytes())
    jsonschema.validate(json.loads(on_disk), schema)  # the published schema is the document's
    import hashlib

    assert (tmp_path / "set" / REPORT_SHA).read_text().split()[0] == hashlib.sha256(on_disk).hexdigest() == out.sha256
    assert "| **mean chrF++** (3 languages) | 100.00 ± 0.00 |" in (tmp_path / "set" / REPORT_MD).read_text()
    # resumed: nothing is sent again and the report is the same content
    again = run_translation_set(multi_path, STRONG, tmp_path / "set", n_samples=200)
    assert sum(o.sent for o in again.outcomes.values()) == 0
    assert again.report.content_sha256 == report.content_sha256


def test_intervals_are_sacrebleus_and_the_mean_averages_them(tmp_path, multi_path):
    out = run_translation_set(multi_path, WEAK, tmp_path / "weak", n_samples=300)
    by_target = {c.dataset.target_language: c for c in read_set(tmp_path / "weak")}
    for row in out.report.languages:
        card = by_target[row.target_language]
        assert 0 < row.scores["chrf++"].score < 100
        # the same resamples as sacreBLEU's paired test's interval for the baseline system
        same = compare_cards(card, card, n_samples=300)["metrics"]["chrf++"]
        assert row.scores["chrf++"].ci95 == same["a_ci95"]
    scores = [row.scores["chrf++"].score for row in out.report.languages]
    mean = out.report.mean["chrf++"]
    assert mean.score == pytest.approx(sum(scores) / 3, abs=1e-4)
    assert 0 < mean.ci95 <= max(row.scores["chrf++"].ci95 for row in out.report.languages)


def test_comparing_two_sets_language_by_language(tmp_path, multi_path):
    run_translation_set(multi_path, WEAK, tmp_path / "a", n_samples=100)
    run_translation_set(multi_path, STRONG, tmp_path / "b", n_samples=100)
    a, b = read_set(tmp_path / "a"), read_set(tmp_path / "b")
    result = compare_sets(a, b, n_samples=200)
    assert [row["target_language"] for row in result["languages"]] == [c.dataset.target_language for c in a]
    for row in result["languages"]:
        assert row["metrics"]["chrf++"]["delta"] > 0 and row["p_holm"] >= row["metrics"]["chrf++"]["p_value"]
    assert result["summary"]["b_better"] == 3 and result["summary"]["a_better"] == 0
    partial = compare_sets(a, [c for c in b if c.dataset.target_language != "ja"], n_samples=100)
    assert partial["only_a"] == ["ja"] and partial["summary"]["languages"] == 2
    with pytest.raises(CompareRefused, match="no target language in common"):
        compare_sets([c for c in a if c.dataset.target_language == "fr"], [c for c in b if c.dataset.target_language == "de"])


def test_holm_adjustment():
    assert _holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert _holm([0.5, 0.9]) == [1.0, 1.0]
    assert _holm([]) == []


def test_a_multi_target_corpus_needs_a_target_or_a_set(tmp_path, multi_path):
    with pytest.raises(ValueError, match="3 targets"):
        run_translation(multi_path, STRONG, tmp_path / "one")
    with pytest.raises(ValueError, match="no target xx"):
        run_translation_set(multi_path, STRONG, tmp_path / "set", targets=["fr", "xx"])
    one = run_translation(multi_path, STRONG, tmp_path / "de", target="de")
    assert one.card.dataset.target_language == "de" and one.card.dataset.language_pair.endswith("→de")


def test_a_stopped_set_reports_what_ran_and_names_the_rest(tmp_path, multi_path):
    stop = threading.Event()
    out = run_translation_set(multi_path, STRONG, tmp_path / "set", stop=stop, n_samples=50,
                              on_target=lambda target, i, n: stop.set() if i == 1 else None)  # fmt: skip
    assert list(out.outcomes) == ["fr", "de"] and not out.complete
    assert out.report.missing == ["ja"] and "not run: Japanese (ja)" in (tmp_path / "set" / REPORT_MD).read_text()
    with pytest.raises(ValueError, match="no run cards"):
        language_report([])


def test_the_plot_is_plain_svg_with_a_bar_per_language(tmp_path, multi_path):
    out = run_translation_set(multi_path, WEAK, tmp_path / "set", n_samples=50)
    svg = (tmp_path / "set" / REPORT_SVG).read_text()
    assert svg == render_svg(out.report)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{ns}rect")) == 1 + 3  # the background and one bar per language
    texts = " ".join(t.text or "" for t in root.iter(f"{ns}text"))
    assert "French (fr)" in texts and "mean" in texts
    assert not root.findall(f".//{ns}script") and "href" not in svg


def test_the_leaderboard_keeps_one_table_per_target(tmp_path, multi_path):
    run_translation_set(multi_path, STRONG, tmp_path / "set", n_samples=50)
    board = leaderboard(read_set(tmp_path / "set"))
    assert sorted(board.payload) == ["example-multi-v1 (de)", "example-multi-v1 (fr)", "example-multi-v1 (ja)"]


def test_dagster_runs_a_multi_target_corpus_as_one_partition(tmp_path, multi_path):
    corpora = tmp_path / "corpora"
    corpora.mkdir()
    (corpora / "multi.json").write_bytes(multi_path.read_bytes())
    engines = tmp_path / "engines.yaml"
    engines.write_text(yaml.safe_dump({"engines": {"sim-a": {"kind": "simulator", "simulator": {"preset": "sim-zero-latency"}}}}))
    built = tr.build_defs(corpora, engines)
    resources = {
        "translation": tr.TranslationResource(corpora_dir=str(corpora), engines_file=str(engines), work_dir=str(tmp_path / "work")),
        "artifact_store": ArtifactStoreResource(root=str(tmp_path / "artifacts")),
    }
    by_key = {k: a for a in built.assets for k in a.keys}
    run_key, board_key = dg.AssetKey(["translation", "translation_run"]), dg.AssetKey(["translation", "leaderboard"])
    partition = dg.MultiPartitionKey({"engine": "sim-a", "corpus": "example-multi-v1"})
    with dg.instance_for_test() as instance:
        result = dg.materialize([by_key[run_key], by_key[tr.CORPUS_KEY]], selection=[run_key], partition_key=partition,
                                instance=instance, resources=resources)  # fmt: skip
        assert result.success
        mat = result.asset_materializations_for_node("translation__translation_run")[0]
        stored = tmp_path / "artifacts" / "translation" / "sim-a" / "example-multi-v1"
        report = json.loads((stored / REPORT).read_bytes())
        assert mat.tags["dagster/data_version"] == report["content_sha256"]
        assert [row["target_language"] for row in report["languages"]] == TARGETS
        assert all((stored / t / "run_card.json").is_file() for t in TARGETS)
        assert mat.metadata["mean_chrf++"].value == report["mean"]["chrf++"]["score"]
        assert "German (de)" in mat.metadata["languages"].value
        board = dg.materialize([by_key[board_key]], instance=instance, resources=resources)
        md = board.asset_materializations_for_node("translation__leaderboard")[0].metadata["leaderboard"].value
        assert md.count("| 1 | sim-a |") == 3 and "example-multi-v1 (ja)" in md


def test_the_cli_runs_a_multi_target_corpus_as_a_set(tmp_path, multi_path):
    import subprocess
    import sys
    from pathlib import Path

    atlas = Path(sys.executable).with_name("atlas")
    command = [str(atlas), "translation", "run", "--dataset", str(multi_path), "--engine", "sim-strong", "--out", str(tmp_path / "set")]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "| French (fr) | " in done.stdout and "| Japanese (ja) | " in done.stdout and "**mean chrF++** (3 languages)" in done.stdout
    report = LanguageReport.model_validate_json((tmp_path / "set" / REPORT).read_bytes())
    assert f"report: {tmp_path / 'set' / REPORT} (sha256 " in done.stdout and [r.target_language for r in report.languages] == TARGETS


def _atlas(*argv: str, timeout: float = 120):
    import subprocess
    import sys
    from pathlib import Path

    atlas = Path(sys.executable).with_name("atlas")
    return subprocess.run([str(atlas), *argv], capture_output=True, text=True, cwd=REPO, timeout=timeout)


def test_the_cli_runs_some_targets_reports_a_folder_and_compares_two_sets(tmp_path, multi_path):
    a, b = tmp_path / "a", tmp_path / "b"
    run = _atlas("translation", "run", "--dataset", str(multi_path), "--engine", "sim-weak", "--out", str(a), "--targets", "fr,ja")
    assert run.returncode == 0, run.stderr  # a subset that ran to the end is a finished run, not an interruption
    assert sorted(p.name for p in a.iterdir() if p.is_dir()) == ["fr", "ja"] and "not run: German (de)" in run.stdout
    bad = _atlas("translation", "run", "--dataset", str(multi_path), "--engine", "sim-weak", "--out", str(a), "--targets", "fr,xx")
    assert bad.returncode == 1 and bad.stderr.strip().splitlines() == [
        "atlas: error: --targets: xx: not a target of " + str(multi_path) + " (its targets: fr, de, ja)"
    ]
    run_b = _atlas("translation", "run", "--dataset", str(multi_path), "--engine", "sim-strong", "--out", str(b), "--json")
    assert run_b.returncode == 0, run_b.stderr
    assert [r["target_language"] for r in json.loads(run_b.stdout)["languages"]] == TARGETS  # --json: the report

    # report: from the folder alone (folder order), or in the corpus's order naming what did not run
    (a / REPORT).unlink()
    alone = _atlas("translation", "report", str(a), "--json", "--samples", "100")
    assert alone.returncode == 0, alone.stderr
    assert [r["target_language"] for r in json.loads(alone.stdout)["languages"]] == ["fr", "ja"]
    assert LanguageReport.model_validate_json((a / REPORT).read_bytes()).bootstrap.n_samples == 100
    ordered = _atlas("translation", "report", str(a), "--dataset", str(multi_path))
    assert ordered.returncode == 0 and "not run: German (de)" in ordered.stdout and "| French (fr) |" in ordered.stdout

    # compare: two sets language by language; a set against a card is refused on one line
    cmp_ = _atlas("translation", "compare", str(a), str(b), "--samples", "200")
    assert cmp_.returncode == 0, cmp_.stderr
    assert "French (fr)" in cmp_.stdout and "Holm" in cmp_.stdout and "only in B: de (not compared)" in cmp_.stdout
    mixed = _atlas("translation", "compare", str(a), str(b / "fr"))
    assert mixed.returncode == 1 and "is a set's folder (one card per target) but CARD_B is one run card" in mixed.stderr

    # a card modified after the run is caught by report and compare alike
    card = a / "fr" / "run_card.json"
    card.write_bytes(card.read_bytes().replace(b'"complete": true', b'"complete": false'))
    for argv in (("report", str(a)), ("compare", str(a), str(b))):
        done = _atlas("translation", *argv)
        assert done.returncode == 1 and "its sha256 does not match" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_report_refuses_a_folder_without_cards_and_cards_of_another_corpus(tmp_path, multi_path, example_doc, write_corpus):
    empty = tmp_path / "empty"
    empty.mkdir()
    done = _atlas("translation", "report", str(empty))
    assert done.returncode == 1 and done.stderr.startswith("atlas: error: RUN_DIR: ") and "no <target>/run_card.json" in done.stderr
    run_translation_set(multi_path, STRONG, tmp_path / "set", n_samples=50, targets=["fr"])
    other = write_corpus({**example_doc, "dataset": {**example_doc["dataset"], "version": "9.9.9"}}, "other.json")
    done = _atlas("translation", "report", str(tmp_path / "set"), "--dataset", str(other))
    assert done.returncode == 1 and "are of another corpus (or version)" in done.stderr
    single = _atlas(
        "translation", "run", "--dataset", str(other), "--engine", "sim-strong", "--out", str(tmp_path / "x"), "--targets", "fr"
    )
    assert single.returncode == 1 and "--targets: " in single.stderr and "single-target corpus" in single.stderr


def test_holm_over_many_languages_gets_enough_resamples_or_a_warning(tmp_path, multi_path):
    from atlas_assets.translation.multilingual import render_compare, set_resamples

    assert set_resamples(3) == 1000 and set_resamples(39) == 1560 and set_resamples(204) == 8160
    run_translation_set(multi_path, WEAK, tmp_path / "a", n_samples=50)
    run_translation_set(multi_path, STRONG, tmp_path / "b", n_samples=50)
    a, b = read_set(tmp_path / "a"), read_set(tmp_path / "b")
    enough = compare_sets(a, b)
    assert enough["test"]["n_samples"] == 1000 and enough["test"]["warning"] is None
    assert enough["test"]["smallest_holm_p"] == round(3 / 1001, 6)
    # 50 resamples: a p-value is at least 1/51, so Holm over 3 languages at least 3/51 > 0.05
    few = compare_sets(a, b, n_samples=50)
    assert few["summary"]["b_better"] == 0 and few["test"]["smallest_holm_p"] >= 0.05
    assert "use at least 1000 resamples" in few["test"]["warning"] and "WARNING: with 50 resamples" in render_compare(few)
