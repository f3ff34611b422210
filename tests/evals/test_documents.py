"""The run documents (results.json, checkpoint lines, run cards): published schemas that do
not drift and that real documents satisfy, round trips, the format-version rule, and one
clear error naming the file and the field for a damaged or hostile document."""

from __future__ import annotations

import json
import shutil

import jsonschema
import orjson
import pytest

from atlas_assets import schemas
from atlas_assets.corpus.registry import REPO_ROOT
from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.documents import CheckpointRecord, RunResults
from atlas_assets.evals.engines import Engine
from atlas_assets.evals.results import CHECKPOINT, RESULTS, read_checkpoint, read_results
from atlas_assets.evals.runner import run_eval
from atlas_assets.evals.workloads import resolve_workload
from atlas_assets.translation.card import RunCard
from atlas_assets.translation.runs import CARD, CARD_SHA, read_card, run_translation
from tests.helpers.translation import EXAMPLE

SIM = {"name": "sim-docs", "skill": {"easy": 1, "medium": 0.5, "hard": 0}}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A real eval run (one failed request among its rows) and a real translation run."""
    root = tmp_path_factory.mktemp("documents")
    engine = Engine(name="sim-docs", kind="simulator", max_retries=0, simulator=SIM)
    run_eval(resolve_workload("eval-instruction-v1"), engine, root / "eval", limit=8)
    run_translation(EXAMPLE, Engine(name="sim-docs", kind="simulator", simulator={"preset": "sim-zero-latency"}), root / "card", limit=4)
    return root / "eval", root / "card"


def _copy(run_dir, tmp_path):
    shutil.copytree(run_dir, tmp_path / "copy")
    return tmp_path / "copy"


def _schema(rel: str):
    return json.loads((REPO_ROOT / rel).read_text())


# --------------------------------------------------------------------------- published schemas


@pytest.mark.parametrize("rel", sorted(schemas.PUBLISHED, key=str), ids=str)
def test_the_published_schemas_are_the_rendered_ones(rel):
    assert (REPO_ROOT / rel).read_bytes() == schemas.render(rel), f"{rel} drifted: python -m atlas_assets.schemas --write"
    assert not schemas.drifted()


def test_real_documents_satisfy_the_published_schemas(runs):
    eval_dir, card_dir = runs
    jsonschema.validate(json.loads((eval_dir / RESULTS).read_text()), _schema("schemas/eval-run/1/results_schema.json"))
    checkpoint = _schema("schemas/eval-run/1/checkpoint_record_schema.json")
    lines = (eval_dir / CHECKPOINT).read_bytes().splitlines()
    assert len(lines) == 8
    for line in lines:
        jsonschema.validate(orjson.loads(line), checkpoint)
    jsonschema.validate(json.loads((card_dir / CARD).read_text()), _schema("schemas/translation-run/1/run_card_schema.json"))


def test_the_schemas_refuse_what_the_models_refuse(runs):
    eval_dir, _ = runs
    document = json.loads((eval_dir / RESULTS).read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**document, "format_version": 2}, _schema("schemas/eval-run/1/results_schema.json"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**document, "surprise": 1}, _schema("schemas/eval-run/1/results_schema.json"))


# --------------------------------------------------------------------------- round trips and format versions


def test_documents_round_trip(runs):
    eval_dir, card_dir = runs
    results = read_results(eval_dir)
    assert results.format_version == 1
    assert RunResults.model_validate_json(results.json_bytes()) == results
    records, torn = read_checkpoint(eval_dir / CHECKPOINT)
    assert torn == 0 and all(CheckpointRecord.model_validate_json(r.line()) == r for r in records)
    assert [r.line() for r in records] == [line + b"\n" for line in (eval_dir / CHECKPOINT).read_bytes().splitlines()]
    card = read_card(card_dir)
    assert RunCard.model_validate_json(card.json_bytes()) == card
    assert card.json_bytes(orjson.OPT_INDENT_2) + b"\n" == (card_dir / CARD).read_bytes()


def test_documents_written_before_the_format_version_read_as_version_1(runs, tmp_path):
    eval_dir, card_dir = runs
    copy = _copy(eval_dir, tmp_path)
    document = json.loads((copy / RESULTS).read_text())
    del document["format_version"]
    (copy / RESULTS).write_text(json.dumps(document))
    lines = [orjson.loads(line) for line in (copy / CHECKPOINT).read_bytes().splitlines()]
    (copy / CHECKPOINT).write_bytes(b"".join(orjson.dumps({k: v for k, v in r.items() if k != "format_version"}) + b"\n" for r in lines))
    assert read_results(copy) == read_results(eval_dir)
    assert read_checkpoint(copy / CHECKPOINT) == read_checkpoint(eval_dir / CHECKPOINT)

    card = json.loads((card_dir / CARD).read_text())
    old = {"format": "atlas-translation-run-card/1", **{k: v for k, v in card.items() if k != "format_version"}}
    (tmp_path / CARD).write_text(json.dumps(old))
    assert read_card(tmp_path / CARD) == read_card(card_dir)


def test_a_newer_format_version_is_refused_naming_the_file(runs, tmp_path):
    eval_dir, card_dir = runs
    copy = _copy(eval_dir, tmp_path)
    document = json.loads((copy / RESULTS).read_text())
    (copy / RESULTS).write_text(json.dumps({**document, "format_version": 2}))
    with pytest.raises(ConfigError, match=rf"^{copy / RESULTS}: format_version: format version 2 is newer than this harness reads \(1\)"):
        read_results(copy)
    first = orjson.loads((copy / CHECKPOINT).read_bytes().splitlines()[0])
    with open(copy / CHECKPOINT, "ab") as handle:
        handle.write(orjson.dumps({**first, "format_version": 3}) + b"\n")
    with pytest.raises(ConfigError, match=rf"^{copy / CHECKPOINT}:9: format_version: format version 3 is newer"):
        read_checkpoint(copy / CHECKPOINT)

    card = json.loads((card_dir / CARD).read_text())
    (tmp_path / CARD).write_text(json.dumps({**card, "format_version": 2}))
    with pytest.raises(ValueError, match=rf"^{tmp_path / CARD}: format_version: format version 2 is newer"):
        read_card(tmp_path / CARD)
    del card["format_version"]
    (tmp_path / CARD).write_text(json.dumps({"format": "atlas-translation-run-card/x", **card}))
    with pytest.raises(ValueError, match=r"is not a run card format"):
        read_card(tmp_path / CARD)


# --------------------------------------------------------------------------- damaged and hostile documents


def test_a_malformed_results_json_is_one_error_naming_the_file_and_each_field(runs, tmp_path):
    copy = _copy(runs[0], tmp_path)
    document = json.loads((copy / RESULTS).read_text())
    del document["model"]
    document["metrics"]["requests_total"] = "many"
    document["scores"]["by_difficulty"]["easy"]["correct"] = None
    (copy / RESULTS).write_text(json.dumps(document))
    with pytest.raises(ConfigError) as caught:
        read_results(copy)
    lines = str(caught.value).splitlines()
    assert lines == [
        f"{copy / RESULTS}: model: required field is missing",
        f"{copy / RESULTS}: metrics.requests_total: Input should be a valid integer, unable to parse string as an integer",
        f"{copy / RESULTS}: scores.by_difficulty.easy.correct: Input should be a valid integer (got NoneType: 'None')",
    ]


def test_a_malformed_checkpoint_record_names_the_line_and_torn_lines_are_skipped(runs, tmp_path):
    copy = _copy(runs[0], tmp_path)
    first = orjson.loads((copy / CHECKPOINT).read_bytes().splitlines()[0])
    with open(copy / CHECKPOINT, "ab") as handle:
        handle.write(b'{"id": "x", "fingerp' + b"\n" + b"[" * 100_000 + b"\n")  # a torn write, junk nesting
    records, torn = read_checkpoint(copy / CHECKPOINT)
    assert (len(records), torn) == (8, 2)
    with open(copy / CHECKPOINT, "ab") as handle:
        handle.write(orjson.dumps({**first, "attempts": "twice", "score": {"scorer": "exact"}}) + b"\n")
    with pytest.raises(ConfigError) as caught:
        read_checkpoint(copy / CHECKPOINT)
    assert str(caught.value).splitlines() == [
        f"{copy / CHECKPOINT}:11: attempts: Input should be a valid integer, unable to parse string as an integer",
        f"{copy / CHECKPOINT}:11: score.correct: required field is missing",
        f"{copy / CHECKPOINT}:11: score.failed: required field is missing",
        f"{copy / CHECKPOINT}:11: score.extracted: required field is missing",
        f"{copy / CHECKPOINT}:11: score.detail: required field is missing",
    ]


def test_a_malformed_run_card_names_the_file_and_field(runs, tmp_path):
    card = json.loads((runs[1] / CARD).read_text())
    card["outputs"][0]["chrf++"] = "high"
    (tmp_path / CARD).write_text(json.dumps(card))
    with pytest.raises(ValueError, match=rf"^{tmp_path / CARD}: outputs.0.'chrf\+\+': Input should be a valid number"):
        read_card(tmp_path / CARD)
    assert not (tmp_path / CARD_SHA).exists()  # no sha file: the content itself is checked


@pytest.mark.parametrize("hostile", [b"[" * 200_000 + b"]" * 200_000, b'{"a": ' * 50_000 + b"1" + b"}" * 50_000, b"\xff\xfe{}"])
def test_hostile_documents_are_a_clear_error(runs, tmp_path, hostile):
    copy = _copy(runs[0], tmp_path)
    (copy / RESULTS).write_bytes(hostile)
    with pytest.raises(ConfigError, match=rf"^{copy / RESULTS}: not readable JSON: "):
        read_results(copy)
    (tmp_path / CARD).write_bytes(hostile)
    with pytest.raises(ValueError, match=rf"^{tmp_path / CARD}: not readable JSON: "):
        read_card(tmp_path / CARD)


def test_deep_nesting_inside_a_free_form_block_is_refused_with_the_file_named(runs, tmp_path):
    copy = _copy(runs[0], tmp_path)
    document = json.loads((copy / RESULTS).read_text())
    text = json.dumps({**document, "server_models": "NEST"}).replace('"NEST"', '{"data": ' + "[" * 5000 + "]" * 5000 + "}")
    (copy / RESULTS).write_text(text)
    with pytest.raises(ConfigError, match=rf"^{copy / RESULTS}: not readable JSON: nested too deeply$"):
        read_results(copy)
