"""The datasets assets on a real (ephemeral) Dagster instance."""

from __future__ import annotations

import re

import dagster as dg

from atlas_assets.corpus import registry
from atlas_assets.orchestration import datasets as dataset_defs
from atlas_assets.orchestration.datasets import assets as dataset_assets

DATASET = "prompts-code-v1"


def _materialize(root, instance, dataset=DATASET):
    defs = dataset_defs.build_defs(root)
    asset = next(a for a in defs.assets if a.key == dataset_assets.dataset_key(dataset))
    return asset, dg.materialize(
        [asset],
        instance=instance,
        resources={"corpus": dataset_assets.CorpusResource(datasets_root=str(root))},
        raise_on_error=False,
    )


def test_definitions_expose_one_asset_per_dataset_under_the_prefix():
    from atlas_assets import defs

    keys = {k.to_user_string() for k in defs.resolve_all_asset_keys()}
    for spec in registry.discover(registry.DEFAULT_DATASETS_ROOT):
        assert f"datasets/{spec.id}" in keys
    assert "datasets/index" in keys
    graph = defs.resolve_asset_graph()
    assert graph.get(dg.AssetKey(["datasets", DATASET])).group_name == "datasets"


def test_materialize_regenerates_verifies_and_reports_versions(corpus_copy):
    root = corpus_copy(DATASET)
    spec = next(s for s in registry.discover(root) if s.id == DATASET)
    before = registry.content_sha256(spec.folder, root)
    instance = dg.DagsterInstance.ephemeral()
    asset, result = _materialize(root, instance)
    assert result.success
    assert asset.code_versions_by_key[asset.key] == dataset_assets.dataset_code_version(spec)
    event = result.get_asset_materialization_events()[0]
    metadata = event.materialization.metadata
    assert metadata["rows"].value == 60
    assert metadata["content_sha256"].value == before
    assert "| python |" in metadata["breakdown"].value
    assert len(metadata["sample_rows"].value) == 3
    record = instance.get_latest_materialization_event(asset.key)
    assert record.asset_materialization.tags["dagster/data_version"] == before
    checks = {c.check_name: c.passed for c in result.get_asset_check_evaluations()}
    assert checks == {"valid": True, "immutable": True}


def test_immutability_check_blocks_changed_bytes_of_a_published_dataset(corpus_copy):
    root = corpus_copy(DATASET)
    spec = next(s for s in registry.discover(root) if s.id == DATASET)
    published = registry.content_sha256(spec.folder, root)
    registry.write_lock({DATASET: published}, root)
    instance = dg.DagsterInstance.ephemeral()
    _, result = _materialize(root, instance)
    assert result.success  # same bytes: fine

    generator = root / "_gen" / "gen_prompts_code_v1.py"
    source = generator.read_text()
    generator.write_text(re.sub(r"SEED = [0-9_]+", "SEED = 12345", source, count=1))
    rows_before = (spec.folder / "rows.jsonl").read_bytes()
    _, result = _materialize(root, instance)
    assert not result.success
    evaluation = next(c for c in result.get_asset_check_evaluations() if c.check_name == "immutable")
    assert not evaluation.passed
    assert "immutable" in evaluation.description and "prompts-code-v2" in evaluation.description
    assert (spec.folder / "rows.jsonl").read_bytes() == rows_before  # published bytes untouched
    assert registry.content_sha256(spec.folder, root) == published


def test_invalid_regeneration_writes_nothing(corpus_copy):
    root = corpus_copy(DATASET)
    spec = next(s for s in registry.discover(root) if s.id == DATASET)
    generator = root / "_gen" / "gen_prompts_code_v1.py"
    source = generator.read_text()
    # a generator bug: approx_tokens off by one in every row
    generator.write_text(source.replace('"approx_tokens": tokens,', '"approx_tokens": tokens + 1,', 1))
    before = (spec.folder / "rows.jsonl").read_bytes()
    _, result = _materialize(root, dg.DagsterInstance.ephemeral())
    assert not result.success
    evaluation = next(c for c in result.get_asset_check_evaluations() if c.check_name == "valid")
    assert not evaluation.passed
    assert (spec.folder / "rows.jsonl").read_bytes() == before


def test_a_scored_dataset_shows_its_corrected_scoring_block(corpus_copy):
    root = corpus_copy("eval-format-v1")
    asset, result = _materialize(root, dg.DagsterInstance.ephemeral(), "eval-format-v1")
    assert result.success
    metadata = result.get_asset_materialization_events()[0].materialization.metadata
    scoring = metadata["scoring"].value
    assert set(scoring["extraction"]) == {"json"} and scoring["extraction"]["json"]["extraction"] == "answer"
    assert "extraction_skipped_for" not in scoring  # the published card's claim, corrected
    assert len(metadata["card_corrections"].value) == 1
