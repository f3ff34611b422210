from __future__ import annotations

import hashlib
import json
import shutil

import dagster as dg
import yaml

from atlas_assets.orchestration.resources import ArtifactStoreResource
from atlas_assets.orchestration.translation import assets as tr
from tests.helpers.translation import EXAMPLE


def test_materialize_translation_run_and_staleness(tmp_path):
    corpora = tmp_path / "corpora"
    corpora.mkdir()
    shutil.copy(EXAMPLE, corpora / EXAMPLE.name)
    engines = tmp_path / "engines.yaml"
    engines.write_text(yaml.safe_dump({"engines": {"sim-a": {"kind": "simulator", "simulator": {"preset": "sim-zero-latency"}}}}))
    built = tr.build_defs(corpora, engines)
    defs = dg.Definitions(
        assets=built.assets,
        resources={
            "translation": tr.TranslationResource(corpora_dir=str(corpora), engines_file=str(engines), work_dir=str(tmp_path / "work")),
            "artifact_store": ArtifactStoreResource(root=str(tmp_path / "artifacts")),
        },
    )
    by_key = {}
    for a in built.assets:
        for k in a.keys if hasattr(a, "keys") else [a.key]:
            by_key[k] = a

    def asset(key):
        return by_key[key]

    source_key = tr.CORPUS_KEY
    run_key = dg.AssetKey(["translation", "translation_run"])
    board_key = dg.AssetKey(["translation", "leaderboard"])
    partition = dg.MultiPartitionKey({"engine": "sim-a", "corpus": "example-en-fr-v1"})
    with dg.instance_for_test() as instance:
        graph = defs.resolve_asset_graph()
        # never recorded: the run records the corpus bytes it read as its input version
        result = dg.materialize(
            [asset(run_key), asset(source_key)],
            selection=[run_key], partition_key=partition, instance=instance, resources=defs.resources,
        )  # fmt: skip
        assert result.success
        corpus_sha = hashlib.sha256((corpora / EXAMPLE.name).read_bytes()).hexdigest()
        # Dagster records a partitioned input as the version itself or as its digest of the
        # partitions' versions, depending on how the step reads it; either names these bytes
        recorded = result.asset_materializations_for_node("translation__translation_run")[0].tags[
            "dagster/input_data_version/translation/corpus"
        ]
        assert recorded in (corpus_sha, hashlib.sha256(corpus_sha.encode()).hexdigest())
        mat = result.asset_materializations_for_node("translation__translation_run")[0]
        card_path = tmp_path / "artifacts" / "translation" / "sim-a" / "example-en-fr-v1" / "run_card.json"
        assert card_path.is_file()
        # data version = the card's scored content; the card file keeps its byte sha
        assert mat.tags["dagster/data_version"] == json.loads(card_path.read_bytes())["content_sha256"]
        assert mat.metadata["run_card_sha256"].value == hashlib.sha256(card_path.read_bytes()).hexdigest()
        assert "signature" in " ".join(mat.metadata)
        assert mat.metadata["chrf++"].value > 50
        board = dg.materialize([asset(board_key)], instance=instance, resources=defs.resources)
        md = board.asset_materializations_for_node("translation__leaderboard")[0].metadata["leaderboard"].value
        assert "| 1 | sim-a |" in md

        from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleStatus
        from dagster._core.loader import LoadingContextForTest

        def status() -> StaleStatus:
            return CachingStaleStatusResolver(instance, graph, LoadingContextForTest(instance)).get_status(run_key, partition)

        assert status() == StaleStatus.FRESH
        doc = json.loads((corpora / EXAMPLE.name).read_text(encoding="utf-8"))
        doc["entries"][0]["reference"] = "Bonjour !"
        (corpora / EXAMPLE.name).write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        sensor = built.resolve_sensor_def("translation_corpora_on_disk")
        for event in sensor(dg.build_sensor_context(instance=instance)).asset_events:
            instance.report_runless_asset_event(event)
        assert status() == StaleStatus.STALE
