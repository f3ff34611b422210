"""Translation evaluation's assets (group "translation", keys under `translation/`).

A thin shell over atlas_assets.translation.

    translation/corpus            partitioned by corpus id: one corpus file of the translation
                                  folder, validated; data version = sha256 of its bytes.
                                  Recorded without a run by the translation_corpora_on_disk
                                  sensor (and by translation_run); materializing re-validates.
    translation/translation_run   partitioned engine x corpus; reads its corpus partition only
                                  (MultiToSingleDimensionPartitionMapping); data version = the
                                  run card's scored content. A multi-target corpus is one partition too: its
                                  targets run as a set (multilingual.run_translation_set), one
                                  card per target and the cross-language report; data version
                                  = the report's content_sha256
    translation/leaderboard       per corpus (per corpus and target for a multi-target one),
                                  engines ranked by chrF++ with each signature

Artifacts (artifact_store): translation/<engine>/<corpus id>/{run_card.json,
run_card.json.sha256} (a multi-target corpus: <corpus id>/<target>/run_card.json... and
<corpus id>/languages.{json,json.sha256,md,svg}); checkpoints in
$ATLAS_CACHE_DIR/translation/<engine>/<corpus id>[/<target>].

(No `from __future__ import annotations`: Dagster reads resource annotations.)
"""

from pathlib import Path
from typing import Optional

import dagster as dg
from pydantic import Field

from atlas_assets.core.documents import parse_document
from atlas_assets.core.storage import ArtifactStore
from atlas_assets.evals.engines import Engine, load_engines_report
from atlas_assets.orchestration import shell
from atlas_assets.orchestration.resources import RESOURCES, ArtifactStoreResource, default_cache_dir
from atlas_assets.orchestration.versions import code_version, source_files
from atlas_assets.translation.card import RunCard
from atlas_assets.translation.corpora import load_corpora_report
from atlas_assets.translation.leaderboard import leaderboard
from atlas_assets.translation.multilingual import REPORT, REPORT_MD, REPORT_SHA, REPORT_SVG, run_translation_set, set_facts
from atlas_assets.translation.report import run_facts
from atlas_assets.translation.runs import CARD, CARD_SHA, run_translation
from atlas_assets.translation.schema import CorpusError, LoadedCorpus

GROUP = "translation"
PREFIX = "translation"
ENGINE_DIM, CORPUS_DIM = "engine", "corpus"
CORPUS_KEY = dg.AssetKey([PREFIX, "corpus"])
CODE_VERSION = code_version(
    "translation",
    source_files("translation", include=("schema.py", "spdx.py", "languages.py", "prompt.py", "scoring.py", "runs.py", "multilingual.py")),
)
CORPUS_CODE_VERSION = code_version("translation", source_files("translation", include=("schema.py", "spdx.py")))


class TranslationResource(dg.ConfigurableResource):
    """Translation corpora folder (default $ATLAS_TRANSLATION or <repo>/translation), engines
    file (default $ATLAS_ENGINES or engines.yaml), checkpoints ($ATLAS_CACHE_DIR/translation)."""

    corpora_dir: Optional[str] = Field(default=None)
    engines_file: Optional[str] = Field(default=None)
    work_dir: Optional[str] = Field(default=None)

    def valid_corpora(self) -> dict[str, LoadedCorpus]:
        """Every valid corpus in the folder by dataset id (each file read and validated once)."""
        return load_corpora_report(self.corpora_dir).entries

    def engines(self) -> dict[str, Engine]:
        """The engines that validate (one bad entry never hides the others)."""
        return load_engines_report(self.engines_file).entries

    def corpus_paths(self) -> dict[str, Path]:
        return {corpus_id: loaded.path for corpus_id, loaded in self.valid_corpora().items()}

    def run_dir(self, engine: str, corpus_id: str) -> Path:
        root = Path(self.work_dir) if self.work_dir else default_cache_dir() / "translation"
        return root / engine / corpus_id


def corpus_versions(corpora: dict[str, LoadedCorpus]) -> list[shell.Published]:
    """Each valid corpus file at the sha256 of its bytes."""
    return [
        shell.Published(
            key=CORPUS_KEY,
            partition=corpus_id,
            data_version=loaded.sha256,
            code_version=CORPUS_CODE_VERSION,
            facts={"path": str(loaded.path), "version": loaded.version, "entries": len(loaded.corpus.entries)},
        )
        for corpus_id, loaded in sorted(corpora.items())
    ]


REPORT_FILES = {REPORT: "application/json", REPORT_SHA: "text/plain", REPORT_MD: "text/markdown", REPORT_SVG: "image/svg+xml"}


def _store_card(store: ArtifactStore, folder: str, run_dir: Path) -> str:
    """The run card and its .sha256 into the artifact store; the card's URI."""
    stored = store.put_bytes(f"{folder}/{CARD}", (run_dir / CARD).read_bytes(), "application/json")
    store.put_bytes(f"{folder}/{CARD_SHA}", (run_dir / CARD_SHA).read_bytes(), "text/plain")
    return stored.uri


def build_defs(corpora_dir: Optional[Path] = None, engines_file: Optional[Path] = None) -> dg.Definitions:
    engines_report, corpora_report = load_engines_report(engines_file), load_corpora_report(corpora_dir)
    engines, corpus_ids = engines_report.names, corpora_report.names
    problems = shell.not_loaded("engines or corpora", [*engines_report.problems, *corpora_report.problems])
    resource = TranslationResource(
        corpora_dir=str(corpora_dir) if corpora_dir else None, engines_file=str(engines_file) if engines_file else None
    )
    corpus_partitions = dg.StaticPartitionsDefinition(corpus_ids)
    partitions = dg.MultiPartitionsDefinition({ENGINE_DIM: dg.StaticPartitionsDefinition(engines), CORPUS_DIM: corpus_partitions})

    @dg.asset(
        key=CORPUS_KEY,
        group_name=GROUP,
        partitions_def=corpus_partitions,
        code_version=CORPUS_CODE_VERSION,
        kinds={"json"},
        description="A translation corpus file, validated (`atlas translation validate`). Data version = "
        "sha256 of its bytes, so a changed file makes exactly its translation runs stale.",
    )
    def corpus(context: dg.AssetExecutionContext, translation: TranslationResource) -> dg.MaterializeResult:
        loaded = translation.valid_corpora().get(context.partition_key)
        if loaded is None:
            raise dg.Failure(f"translation corpus {context.partition_key} is missing or invalid (run `atlas translation validate`)")
        (item,) = corpus_versions({context.partition_key: loaded})
        return dg.MaterializeResult(data_version=dg.DataVersion(item.data_version), metadata=dict(item.facts or {}))

    @dg.asset(
        key=dg.AssetKey([PREFIX, "translation_run"]),
        group_name=GROUP,
        partitions_def=partitions,
        deps=[CORPUS_KEY],  # Dagster maps each (engine, corpus) partition to its corpus partition
        code_version=CODE_VERSION,
        kinds={"json"},
        description="One translation corpus through one engine: the run card (scores with sacreBLEU signatures, "
        "breakdowns, per-entry outputs). Data version = the card's scored content (no timestamps, ports or "
        "durations). A multi-target corpus runs every target as a set: a card per target and the cross-language "
        "report (per-language chrF++ and BLEU with intervals, their mean, a plot)." + problems,
    )
    def translation_run(
        context: dg.AssetExecutionContext, translation: TranslationResource, artifact_store: ArtifactStoreResource
    ) -> dg.MaterializeResult:
        keys = context.partition_key.keys_by_dimension
        engine_name, corpus_id = keys[ENGINE_DIM], keys[CORPUS_DIM]
        engine = translation.engines().get(engine_name)
        loaded = translation.valid_corpora().get(corpus_id)
        if engine is None or loaded is None:
            raise dg.Failure(f"engine {engine_name!r} or corpus {corpus_id!r} is not defined (or the corpus is invalid)")
        shell.record_published_inputs(context, corpus_versions({corpus_id: loaded}), "the corpus bytes translation_run read")
        run_dir = translation.run_dir(engine_name, corpus_id)
        store, folder = artifact_store.store(), f"{PREFIX}/{engine_name}/{corpus_id}"
        try:
            if loaded.corpus.is_multi_target:
                languages = run_translation_set(loaded, engine, run_dir, progress_log=shell.run_log(context))
                for target in languages.outcomes:
                    _store_card(store, f"{folder}/{target}", run_dir / target)
                stored = {name: store.put_bytes(f"{folder}/{name}", (run_dir / name).read_bytes(), media)
                          for name, media in REPORT_FILES.items()}  # fmt: skip
                return dg.MaterializeResult(
                    data_version=dg.DataVersion(languages.report.content_sha256),
                    metadata={**shell.metadata(set_facts(languages.report)), "report": dg.MetadataValue.path(stored[REPORT].uri),
                              "plot": dg.MetadataValue.path(stored[REPORT_SVG].uri), "report_sha256": languages.sha256},
                )  # fmt: skip
            outcome = run_translation(loaded, engine, run_dir, progress_log=shell.run_log(context))
        except (CorpusError, ValueError) as exc:
            raise dg.Failure(str(exc)) from None
        card_uri = _store_card(store, folder, run_dir)
        return dg.MaterializeResult(
            data_version=dg.DataVersion(outcome.content_sha256),
            metadata={
                **shell.metadata(run_facts(outcome.card)),
                "run_card": dg.MetadataValue.path(card_uri),
                "run_card_sha256": outcome.sha256,
            },
        )

    @dg.asset(
        key=dg.AssetKey([PREFIX, "leaderboard"]),
        group_name=GROUP,
        deps=[translation_run],
        code_version=CODE_VERSION,
        kinds={"markdown"},
        description="Per corpus, the engines' stored run cards ranked by chrF++, with each metric's "
        "sacreBLEU signature (markdown in metadata)." + problems,
    )
    def translation_leaderboard(
        context: dg.AssetExecutionContext, translation: TranslationResource, artifact_store: ArtifactStoreResource
    ) -> dg.MaterializeResult:
        store = artifact_store.store()
        corpora = translation.valid_corpora()
        folders = [  # a multi-target corpus keeps one card per target
            f"{corpus_id}/{target}" if corpora[corpus_id].corpus.is_multi_target else corpus_id
            for corpus_id in sorted(corpora)
            for target in corpora[corpus_id].targets
        ]
        keys = [f"{PREFIX}/{engine}/{folder}/{CARD}" for folder in folders for engine in sorted(translation.engines())]
        board = leaderboard(
            [parse_document(store.uri(key), store.get_bytes(key), RunCard, dg.Failure) for key in keys if store.exists(key)]
        )
        return dg.MaterializeResult(
            data_version=dg.DataVersion(board.sha256),
            metadata={"leaderboard": dg.MetadataValue.md(board.markdown or "no run cards yet"), "runs": dg.MetadataValue.int(board.runs)},
        )

    return dg.Definitions(
        assets=[corpus, translation_run, translation_leaderboard],
        sensors=[
            shell.on_disk_sensor(
                "translation_corpora_on_disk",
                "Records each valid translation corpus partition at the sha256 of its file without a run, "
                "so translation_run staleness follows the bytes. Never requests a run.",
                lambda: corpus_versions(resource.valid_corpora()),
            )
        ],
        resources={"translation": resource, "artifact_store": RESOURCES["artifact_store"]},
    )
