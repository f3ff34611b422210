"""Eval runs' assets (group "evals"): evals/workload -> eval_run (engine x workload) -> eval_matrix.

A thin shell over atlas_assets.evals (workloads, engines, runner, matrix).

    evals/workload   partitioned by workload: the workload file as resolved against the corpus;
                     data version = digest of the workload definition (with its dataset and
                     errata pins) and the content sha256 of the dataset it reads. Recorded
                     without a run by the workloads_on_disk sensor (and by eval_run itself);
                     materializing it re-resolves and verifies the pins.
    eval_run         partitioned by engine x workload; reads its workload partition only
                     (MultiToSingleDimensionPartitionMapping), so a changed dataset or workload
                     makes exactly the runs that read it stale; data version = the run's
                     scored content (no timestamps, ports or durations)
    eval_matrix      engine x workload table, eval_matrix.parquet and the heatmap PNG

Concurrency: eval_run is in the pool `eval_run`, and dagster.yaml limits runs per unique
value of the run tag `dagster/partition/engine`: one engine is never hit by two partition
runs at once. A simulator engine is started by the asset in-process on 127.0.0.1, so the
shipped engines materialize offline.

Artifacts (artifact_store): evals/<engine>/<workload>/{results.json, results.json.sha256,
checkpoint.jsonl}, evals/eval_matrix.parquet, evals/eval_matrix.png. The checkpoint is
kept in a local work folder (`evals.work_dir`) so an interrupted materialization resumes.

(No `from __future__ import annotations` here: Dagster reads the resource annotations of
the decorated functions at definition time.)
"""

from pathlib import Path
from typing import Optional

import dagster as dg
from pydantic import Field

from atlas_assets.core.documents import parse_document
from atlas_assets.core.hashing import sha256_bytes, sha256_json
from atlas_assets.core.mirror import mirror_to_store, seed_from_store
from atlas_assets.corpus import registry
from atlas_assets.evals import HARNESS_VERSION
from atlas_assets.evals.documents import RunResults
from atlas_assets.evals.engines import Engine, load_engines_report
from atlas_assets.evals.matrix import (
    matrix_markdown,
    matrix_parquet,
    matrix_png,
    matrix_rows,
)
from atlas_assets.evals.results import CHECKPOINT, RESULTS, RESULTS_SHA
from atlas_assets.evals.runner import run_eval
from atlas_assets.evals.samples import REPORT
from atlas_assets.evals.workloads import Workload, load_workloads_report
from atlas_assets.orchestration import shell
from atlas_assets.orchestration.datasets.assets import (
    CORPUS,
    CorpusResource,
    dataset_key,
)
from atlas_assets.orchestration.resources import (
    RESOURCES,
    ArtifactStoreResource,
    default_cache_dir,
)
from atlas_assets.orchestration.versions import code_version, source_files

GROUP = "evals"
ENGINE_DIM, WORKLOAD_DIM = "engine", "workload"
POOL = "eval_run"
PREFIX = "evals"
MATRIX_PARQUET = f"{PREFIX}/eval_matrix.parquet"
MATRIX_PNG = f"{PREFIX}/eval_matrix.png"
WORKLOAD_KEY = dg.AssetKey([PREFIX, "workload"])

# What can change a run's results: the harness, the scorers and everything they call.
EVAL_RUN_CODE_VERSION = code_version(
    HARNESS_VERSION,
    source_files("evals", exclude=("cli.py", "compare.py", "matrix.py"))
    + source_files(
        "corpus",
        include=("extract.py", "parsing.py", "longctx.py", "errata.py", "judge.py", "sandbox*.py", "scorers/*.py", "splice/*.py"),
    ),
)
EVAL_MATRIX_CODE_VERSION = code_version(HARNESS_VERSION, source_files("evals", include=("matrix.py",)))
WORKLOAD_CODE_VERSION = code_version(HARNESS_VERSION, source_files("evals", include=("workloads.py",)))


class EvalsResource(dg.ConfigurableResource):
    """Where eval runs read their engines and workloads, and keep checkpoints while they run.

    Unset fields: $ATLAS_ENGINES else <repo>/engines.yaml; $ATLAS_WORKLOADS else
    <repo>/workloads; $ATLAS_CACHE_DIR/evals else <repo>/.cache/evals."""

    engines_file: Optional[str] = Field(default=None, description="engines file; default $ATLAS_ENGINES or <repo>/engines.yaml")
    workloads_dir: Optional[str] = Field(default=None, description="workloads folder; default $ATLAS_WORKLOADS or <repo>/workloads")
    work_dir: Optional[str] = Field(default=None, description="local checkpoints; default $ATLAS_CACHE_DIR/evals or <repo>/.cache/evals")

    def engines(self) -> dict[str, Engine]:
        """The engines that validate (one bad entry never hides the others)."""
        return load_engines_report(self.engines_file).entries

    def workloads(self) -> dict[str, Workload]:
        """The workloads that validate (one bad file never hides the others)."""
        return load_workloads_report(self.workloads_dir).entries

    def run_dir(self, engine: str, workload: str) -> Path:
        root = Path(self.work_dir) if self.work_dir else default_cache_dir() / "evals"
        return root / engine / workload


def artifact_prefix(engine: str, workload: str) -> str:
    return f"{PREFIX}/{engine}/{workload}"


def workload_versions(workloads: dict[str, Workload], datasets_root: Path) -> list[shell.Published]:
    """Each workload's input version: its definition (dataset and errata pins included) and
    the content sha256 of the dataset folder it reads (each dataset hashed once)."""
    content: dict[str, str] = {}
    items = []
    for workload_id, workload in sorted(workloads.items()):
        dataset_id = workload.dataset.id
        if dataset_id not in content:
            folder = datasets_root / dataset_id
            content[dataset_id] = registry.content_sha256(folder, datasets_root) if folder.is_dir() else "missing"
        version = sha256_json({"workload": workload.model_dump(mode="json"), "dataset_content_sha256": content[dataset_id]})
        items.append(
            shell.Published(
                key=WORKLOAD_KEY,
                partition=workload_id,
                data_version=version,
                code_version=WORKLOAD_CODE_VERSION,
                facts={
                    "dataset": dataset_key(dataset_id).to_user_string(),
                    "dataset_content_sha256": content[dataset_id],
                    "dataset_pinned_sha256": workload.dataset.sha256,
                    "kind": workload.kind,
                },
            )
        )
    return items


def build_defs(engines_file: Path | None = None, workloads_dir: Path | None = None, datasets_root: Path | None = None) -> dg.Definitions:
    engines_report, workloads_report = load_engines_report(engines_file), load_workloads_report(workloads_dir)
    engines, workloads = engines_report.entries, workloads_report.entries
    problems = shell.not_loaded("engines or workloads", [*engines_report.problems, *workloads_report.problems])
    corpus = CorpusResource(datasets_root=str(Path(datasets_root).resolve())) if datasets_root else CORPUS
    workload_partitions = dg.StaticPartitionsDefinition(sorted(workloads))
    partitions = dg.MultiPartitionsDefinition(
        {ENGINE_DIM: dg.StaticPartitionsDefinition(sorted(engines)), WORKLOAD_DIM: workload_partitions}
    )

    @dg.asset(
        key=WORKLOAD_KEY,
        group_name=GROUP,
        partitions_def=workload_partitions,
        code_version=WORKLOAD_CODE_VERSION,
        kinds={"yaml"},
        description="A workload file (workloads/<id>.yaml) resolved against the corpus: its dataset and "
        "errata pins verified. Data version = digest of the workload definition and the content sha256 "
        "of the dataset it reads, so a changed workload or dataset makes exactly the eval_run partitions "
        "that read it stale. Recorded without a run by the workloads_on_disk sensor and by eval_run.",
    )
    def workload(context: dg.AssetExecutionContext, evals: EvalsResource, corpus: CorpusResource) -> dg.MaterializeResult:
        from atlas_assets.evals.config import ConfigError
        from atlas_assets.evals.workloads import dataset_spec, verify_errata, verify_pin

        loaded = evals.workloads().get(context.partition_key)
        if loaded is None:
            raise dg.Failure(f"workload {context.partition_key!r} is no longer defined")
        try:
            verify_pin(loaded, dataset_spec(loaded, corpus.root()))
            verify_errata(loaded, corpus.root())
        except ConfigError as exc:
            raise dg.Failure(str(exc), allow_retries=False) from None
        (item,) = workload_versions({loaded.id: loaded}, corpus.root())
        return dg.MaterializeResult(data_version=dg.DataVersion(item.data_version), metadata=dict(item.facts or {}))

    @dg.asset(
        name="eval_run",
        group_name=GROUP,
        partitions_def=partitions,
        deps=[WORKLOAD_KEY],  # Dagster maps each (engine, workload) partition to its workload partition
        code_version=EVAL_RUN_CODE_VERSION,
        pool=POOL,
        kinds={"json"},
        description="One workload run against one engine: results.json (metrics with vLLM's latency "
        "definitions, scores with failures kept apart) and the per-row checkpoint. Data version = the "
        "run's scored content (results.json without timestamps, ports or durations), so a re-run that "
        "changes no verdict keeps it. Simulator engines are started in-process on 127.0.0.1." + problems,
    )
    def eval_run(
        context: dg.AssetExecutionContext,
        evals: EvalsResource,
        corpus: CorpusResource,
        artifact_store: ArtifactStoreResource,
    ) -> dg.MaterializeResult:
        keys = context.partition_key.keys_by_dimension
        engine_name, workload_id = keys[ENGINE_DIM], keys[WORKLOAD_DIM]
        engine = evals.engines().get(engine_name)
        workload = evals.workloads().get(workload_id)
        if engine is None or workload is None:
            raise dg.Failure(f"engine {engine_name!r} or workload {workload_id!r} is no longer defined")
        shell.record_published_inputs(
            context, workload_versions({workload_id: workload}, corpus.root()), "the workload and dataset bytes eval_run read"
        )
        run_dir = evals.run_dir(engine_name, workload_id)
        store = artifact_store.store()
        prefix = artifact_prefix(engine_name, workload_id)
        # another machine's interrupted run resumes here: its checkpoint is mirrored to the store
        if seed_from_store(store, f"{prefix}/{CHECKPOINT}", run_dir / CHECKPOINT):
            context.log.info(f"resuming from the stored checkpoint {store.uri(f'{prefix}/{CHECKPOINT}')}")
        with mirror_to_store(run_dir / CHECKPOINT, store, f"{prefix}/{CHECKPOINT}"):
            outcome = run_eval(workload, engine, run_dir, datasets_root=corpus.root(), progress_log=shell.run_log(context))
        stored = store.put_bytes(f"{prefix}/{RESULTS}", (run_dir / RESULTS).read_bytes(), "application/json")
        store.put_bytes(f"{prefix}/{RESULTS_SHA}", (run_dir / RESULTS_SHA).read_bytes(), "text/plain")
        store.put_bytes(f"{prefix}/{CHECKPOINT}", (run_dir / CHECKPOINT).read_bytes(), "application/x-ndjson")
        report = store.put_bytes(f"{prefix}/{REPORT}", (run_dir / REPORT).read_bytes(), "text/html")
        for warning in outcome.results.warnings:
            context.log.warning(warning)
        metadata = {
            **shell.metadata(outcome.facts()),
            "results": dg.MetadataValue.path(stored.uri),
            "results_sha256": outcome.sha256,
            "report": dg.MetadataValue.path(report.uri),
        }
        return dg.MaterializeResult(data_version=dg.DataVersion(outcome.content_sha256), metadata=metadata)

    @dg.asset(
        name="eval_matrix",
        group_name=GROUP,
        deps=[eval_run],
        code_version=EVAL_MATRIX_CODE_VERSION,
        kinds={"parquet", "png"},
        description="The engine x workload matrix of the stored eval runs: accuracy (eval) or "
        "requests/s (serve) per cell, as markdown, evals/eval_matrix.parquet and evals/eval_matrix.png." + problems,
    )
    def eval_matrix(context: dg.AssetExecutionContext, evals: EvalsResource, artifact_store: ArtifactStoreResource) -> dg.MaterializeResult:
        store = artifact_store.store()
        engine_names = sorted(evals.engines())
        workload_ids = sorted(evals.workloads())
        cells = []
        for engine in engine_names:
            for workload in workload_ids:
                key = f"{artifact_prefix(engine, workload)}/{RESULTS}"
                if store.exists(key):
                    data = store.get_bytes(key)
                    cells.append((engine, workload, parse_document(store.uri(key), data, RunResults, dg.Failure), sha256_bytes(data)))
        rows = matrix_rows(cells)
        parquet = store.put_bytes(MATRIX_PARQUET, matrix_parquet(rows), "application/vnd.apache.parquet")
        picture = matrix_png(rows, engine_names, workload_ids)
        png = store.put_bytes(MATRIX_PNG, picture, "image/png")
        context.log.info(f"{len(rows)} of {len(engine_names) * len(workload_ids)} engine x workload runs found")
        return dg.MaterializeResult(
            data_version=dg.DataVersion(parquet.sha256),
            metadata={
                "heatmap": shell.png_markdown(picture, "engine x workload heatmap"),
                "matrix": dg.MetadataValue.md(matrix_markdown(rows, engine_names, workload_ids)),
                "runs": dg.MetadataValue.int(len(rows)),
                "parquet": dg.MetadataValue.path(parquet.uri),
                "parquet_sha256": parquet.sha256,
                "png": dg.MetadataValue.path(png.uri),
                "png_sha256": png.sha256,
            },
        )

    return dg.Definitions(
        assets=[workload, eval_run, eval_matrix],
        sensors=[
            shell.on_disk_sensor(
                "workloads_on_disk",
                "Records each workload partition at the version of its bytes (workload definition + the "
                "content sha256 of its dataset) without a run, so eval_run staleness follows the bytes. "
                "Never requests a run.",
                lambda: workload_versions(load_workloads_report(workloads_dir).entries, corpus.root()),
            )
        ],
        resources={"evals": EVALS, "corpus": corpus, "artifact_store": RESOURCES["artifact_store"]},
    )


EVALS = EvalsResource()
