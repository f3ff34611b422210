"""Autobench generated datasets and benchmarks as Dagster assets (group "autobench").

A thin shell over the `autobench` package. The project file (autobench/examples/autobench.yaml,
or $AUTOBENCH_PROJECT) lists the generation requests; each one is a partition of the dynamic
partitions definition `autobench_generation_requests` (partition key = the generation id):

    autobench/generation_request   observable source asset (partitioned): the request YAML
                                   file of each generation; data version = sha256 of its bytes
    autobench/generated_batch      runs that partition's generator once (never implicitly
                                   elsewhere); batch + request kept as evidence in the
                                   artifact store; data version = sha256 of request hash +
                                   batch content; code version = sha256 of every registered
                                   generator's source (one code version per asset, not per
                                   partition: a generator change marks every batch stale)
    autobench/review_manifest      the normalised review projection (all three states);
                                   data version = sha256 of its case records (not timestamps)
      └── check review_projection  (blocking, ERROR) reads the stored manifest: rejected cases
                                   unpublished, explained and absent from the dataset about to
                                   be published; candidate/accepted present; hashes agree
    autobench/dataset              publishes the dataset YAML + the checked manifest (deps:
                                   review_manifest and generated_batch, whose evidence it
                                   publishes); an incomplete batch writes only the .incomplete
                                   sidecar and fails; data version = the dataset's sha256
    autobench/benchmark/<name>     (unpartitioned) `autobench run` of one benchmark; depends
                                   on the dataset partition it reads (SpecificPartitions-
                                   PartitionMapping); only reads and verifies, never generates.

Artifacts (the shared `artifact_store` resource: a local folder or s3://bucket/prefix):

    autobench/generations/<id>/batch/result.json         GenerationResult (re-validated on read)
    autobench/generations/<id>/batch/request.yaml        the request bytes the batch used
    autobench/generations/<id>/review_manifest.yaml      the review projection being checked
    autobench/generations/<id>/dataset/<output name>     the published dataset YAML
    autobench/generations/<id>/dataset/<stem>.generation.yaml   its manifest (checked bytes)
    autobench/generations/<id>/dataset/<stem>.incomplete.yaml   incomplete batches only
    autobench/benchmarks/<name>/{results.jsonl,summary.json}    benchmark results (resumable)

Partitions: added (and removed) from the project file by `sync_request_partitions`, which
both the `autobench_generation_requests` sensor and the request observation call. Dagster
builds Definitions without an instance, so partitions cannot be added at definition time;
the observation covers `dagster dev` without the daemon and tests, the sensor keeps the set
in sync when the daemon runs.

A changed request file marks its batch partition stale; a new batch (new content) marks the
review manifest and dataset partitions stale; a new dataset hash marks the benchmarks stale.
"""

import importlib
import inspect
import json
import tempfile
import warnings
from pathlib import Path
from typing import Any

import dagster as dg

from atlas_assets.core.hashing import sha256_file
from atlas_assets.core.storage import ArtifactStore
from atlas_assets.orchestration import shell
from atlas_assets.orchestration.resources import ArtifactStoreResource
from atlas_assets.orchestration.versions import code_version
from autobench import files
from autobench.benchmark import benchmark_facts, dataset_path, run_benchmark
from autobench.generation import GenerationResult, generate_dataset_sync, output_paths
from autobench.models import ReviewStatus
from autobench.project import GenerationEntry

GROUP = "autobench"
PREFIX = "autobench"
PARTITIONS_NAME = "autobench_generation_requests"
partitions_def = dg.DynamicPartitionsDefinition(name=PARTITIONS_NAME)

REQUEST_KEY = dg.AssetKey([PREFIX, "generation_request"])
BATCH_KEY = dg.AssetKey([PREFIX, "generated_batch"])
MANIFEST_KEY = dg.AssetKey([PREFIX, "review_manifest"])
DATASET_KEY = dg.AssetKey([PREFIX, "dataset"])

_AUTOBENCH_DIR = Path(__file__).resolve().parents[3] / "autobench"
REVIEW_CODE_VERSION = code_version(
    "autobench", [_AUTOBENCH_DIR / "generation.py", _AUTOBENCH_DIR / "models.py", _AUTOBENCH_DIR / "files.py"], base=_AUTOBENCH_DIR
)
DATASET_CODE_VERSION = REVIEW_CODE_VERSION
BENCHMARK_CODE_VERSION = code_version(
    "autobench", [p for p in _AUTOBENCH_DIR.glob("*.py") if p.name not in ("cli.py", "project.py", "schemas.py")], base=_AUTOBENCH_DIR
)


# --- store layout ------------------------------------------------------------------------


def generation_prefix(gid: str) -> str:
    return f"{PREFIX}/generations/{gid}"


def result_path(gid: str) -> str:
    return f"{generation_prefix(gid)}/batch/result.json"


def manifest_path(gid: str) -> str:
    return f"{generation_prefix(gid)}/review_manifest.yaml"


def dataset_paths(gid: str, entry: GenerationEntry) -> tuple[str, str, str]:
    """(dataset, manifest, incomplete sidecar) store paths, named like the CLI's outputs."""
    local = output_paths(Path(entry.output).name)
    folder = f"{generation_prefix(gid)}/dataset"
    return f"{folder}/{local.dataset.name}", f"{folder}/{local.manifest.name}", f"{folder}/{local.incomplete.name}"


def benchmark_prefix(name: str) -> str:
    return f"{PREFIX}/benchmarks/{name}"


def load_result(store: ArtifactStore, gid: str) -> GenerationResult:
    return GenerationResult.model_validate(json.loads(store.get_bytes(result_path(gid))))  # re-validated on every read


# --- helpers -------------------------------------------------------------------------------


def _generator_file(spec: str) -> Path:
    """The source file of a `module:function` generator (absent when it cannot be imported)."""
    try:
        return Path(inspect.getsourcefile(importlib.import_module(spec.split(":", 1)[0])) or spec)
    except (ImportError, OSError, TypeError):
        return Path(f"<unimportable {spec}>")


def generators_code_version(generations: dict[str, GenerationEntry]) -> str:
    return code_version("generators", [_generator_file(entry.generator) for entry in generations.values()])


def sync_request_partitions(instance: dg.DagsterInstance, generations: dict[str, GenerationEntry]) -> tuple[list[str], list[str]]:
    """Make the dynamic partitions equal the project's generation ids; returns (added, removed)."""
    existing = set(instance.get_dynamic_partitions(PARTITIONS_NAME))
    wanted = set(generations)
    added, removed = sorted(wanted - existing), sorted(existing - wanted)
    if added:
        instance.add_dynamic_partitions(PARTITIONS_NAME, added)
    for key in removed:
        instance.delete_dynamic_partition(PARTITIONS_NAME, key)
    return added, removed


def review_problems(manifest: dict[str, Any], result: GenerationResult) -> list[str]:
    """Inconsistencies between a stored review manifest and the result about to be published."""
    try:
        body = files.GenerationManifestFile.model_validate(manifest).generation
    except Exception as exc:  # noqa: BLE001 - an unreadable manifest is a failed check
        return [f"manifest does not match its schema: {exc}"]
    problems = []
    to_publish = [c["id"] for c in result.dataset.get("cases", [])] if result.dataset else []
    published = set(to_publish)
    for case in body.cases:
        rejected = case.status is ReviewStatus.REJECTED
        if rejected and not (case.reason or "").strip():
            problems.append(f"rejected case {case.id} has no reason")
        if rejected and (case.published or case.id in published):
            problems.append(f"rejected case {case.id} is published")
        if not rejected and not case.published:
            problems.append(f"{case.status.value} case {case.id} is marked unpublished")
        if result.complete and not rejected and case.id not in published:
            problems.append(f"{case.status.value} case {case.id} is missing from the dataset")
    records = [(r.case.id, r.sha256, r.status.value) for r in result.records]
    if [(c.id, c.sha256, c.status.value) for c in body.cases] != records:
        problems.append("manifest cases differ from the batch's case records")
    if body.dataset.sha256 != result.dataset_sha256:
        problems.append("manifest dataset sha256 differs from the dataset about to be published")
    if result.complete and to_publish != [c.id for c in body.cases if c.published]:
        problems.append("dataset cases differ from the manifest's published cases")
    return problems


# --- generation assets ---------------------------------------------------------------------


def make_generation_assets(generations: dict[str, GenerationEntry], base: Path) -> list:
    def entry_of(context: Any) -> GenerationEntry:
        gid = context.partition_key
        if gid not in generations:
            raise dg.Failure(f"no generation {gid!r} in the project file (have {', '.join(generations) or 'none'})")
        return generations[gid]

    with warnings.catch_warnings():
        # observable_source_asset is beta in Dagster 1.13 (pinned); it is the documented way to give
        # an external input a data version per partition, which is what a request file is.
        warnings.simplefilter("ignore", category=dg.BetaWarning)
        observe_requests = dg.observable_source_asset(
            key=REQUEST_KEY,
            group_name=GROUP,
            partitions_def=partitions_def,
            description="The generation request YAML of each generation (one partition per request).",
        )

    @observe_requests
    def generation_request(context: dg.AssetExecutionContext) -> dg.DataVersionsByPartition:
        sync_request_partitions(context.instance, generations)
        versions = {}
        for gid, entry in generations.items():
            path = base / entry.request
            versions[gid] = sha256_file(path) if path.is_file() else "missing"
        return dg.DataVersionsByPartition(versions)

    @dg.asset(
        key=BATCH_KEY,
        deps=[REQUEST_KEY],
        group_name=GROUP,
        partitions_def=partitions_def,
        code_version=generators_code_version(generations),
        description="One run of the partition's generator on its request (the only place generation runs).",
    )
    def generated_batch(context: dg.AssetExecutionContext, artifact_store: ArtifactStoreResource) -> dg.MaterializeResult:
        from autobench.cli import load_callable

        gid, entry = context.partition_key, entry_of(context)
        request_file = base / entry.request
        request_bytes = request_file.read_bytes()
        request = files.load_request(request_file)
        generator = load_callable(entry.generator, search=(base,))
        result = generate_dataset_sync(
            generator, request, generator_id=entry.generator, dataset_id=gid, version=entry.version, progress=shell.run_log(context)
        )
        store = artifact_store.store()
        store.put_bytes(f"{generation_prefix(gid)}/batch/request.yaml", request_bytes, "application/yaml")
        stored = store.put_bytes(result_path(gid), result.model_dump_json(indent=1).encode(), "application/json")
        batch = result.batch
        version = result.content_sha256  # the cases and their request; not usage, cost or timings
        return dg.MaterializeResult(
            data_version=dg.DataVersion(version),
            metadata={
                "cases": len(batch.cases),
                "complete": batch.complete,
                "incomplete_reason": batch.incomplete_reason or "",
                "determinism": batch.determinism.value,
                "request_sha256": result.request_sha256,
                "generator": entry.generator,
                "model": f"{batch.model_provider}/{batch.model_name}",
                "sha256": version,
                "uri": stored.uri,
            },
        )

    @dg.asset(
        key=MANIFEST_KEY,
        deps=[BATCH_KEY],
        group_name=GROUP,
        partitions_def=partitions_def,
        code_version=REVIEW_CODE_VERSION,
        description="The review projection of the batch (all three states, rejections explained).",
    )
    def review_manifest(context: dg.AssetExecutionContext, artifact_store: ArtifactStoreResource) -> dg.MaterializeResult:
        gid = context.partition_key
        entry_of(context)
        store = artifact_store.store()
        result = load_result(store, gid)
        stored = store.put_bytes(manifest_path(gid), result.manifest_yaml(), "application/yaml")
        version = result.review_sha256
        return dg.MaterializeResult(
            data_version=dg.DataVersion(version), metadata={**result.review_counts, "sha256": version, "uri": stored.uri}
        )

    @dg.asset(
        key=DATASET_KEY,
        deps=[MANIFEST_KEY, BATCH_KEY],
        group_name=GROUP,
        partitions_def=partitions_def,
        code_version=DATASET_CODE_VERSION,
        description="The published generated dataset (dataset YAML + its checked manifest).",
    )
    def dataset(context: dg.AssetExecutionContext, artifact_store: ArtifactStoreResource) -> dg.MaterializeResult:
        gid, entry = context.partition_key, entry_of(context)
        store = artifact_store.store()
        result = load_result(store, gid)
        manifest_bytes = store.get_bytes(manifest_path(gid))
        data_path, published_manifest, incomplete = dataset_paths(gid, entry)
        if not result.complete:
            sidecar = store.put_bytes(incomplete, manifest_bytes, "application/yaml")
            raise dg.Failure(f"incomplete generation ({result.batch.incomplete_reason}); wrote only {sidecar.uri}")
        stored = store.put_bytes(data_path, result.dataset_yaml(), "application/yaml")
        store.put_bytes(published_manifest, manifest_bytes, "application/yaml")
        stale = {}
        if store.exists(incomplete):  # the store cannot delete: report the earlier run's sidecar
            stale = {"stale_incomplete_sidecar": store.uri(incomplete)}
            context.log.warning(f"{store.uri(incomplete)} is the sidecar of an earlier incomplete generation, not of this dataset")
        return dg.MaterializeResult(
            data_version=dg.DataVersion(result.dataset_sha256 or ""),
            metadata={"sha256": result.dataset_sha256, "uri": stored.uri, "cases": len(result.published_cases), **stale},
        )

    return [generation_request, generated_batch, review_manifest, dataset]


# --- benchmark assets ----------------------------------------------------------------------


def benchmark_asset(name: str, spec: files.BenchmarkSpec, bench_file: Path, outputs: dict[Path, tuple[str, GenerationEntry]]):
    source = dataset_path(spec, bench_file.parent).resolve()
    generated = outputs.get(source)
    deps = [dg.AssetDep(DATASET_KEY, partition_mapping=dg.SpecificPartitionsPartitionMapping([generated[0]]))] if generated else []

    @dg.asset(
        key=dg.AssetKey([PREFIX, "benchmark", name]),
        deps=deps,
        group_name=GROUP,
        code_version=BENCHMARK_CODE_VERSION,
        description=f"Every case x variant of benchmark {name} ({bench_file.name}); reads the published dataset, never generates.",
    )
    def benchmark_run(context: dg.AssetExecutionContext, artifact_store: ArtifactStoreResource) -> dg.MaterializeResult:
        store = artifact_store.store()
        prefix = benchmark_prefix(name)
        with tempfile.TemporaryDirectory(prefix="autobench-") as tmp:
            work = Path(tmp)
            run_spec = spec
            if generated:
                gid, entry = generated
                data_path = dataset_paths(gid, entry)[0]
                if not store.exists(data_path):
                    raise dg.Failure(
                        f"dataset {gid} has not been published to {store.uri(data_path)}; "
                        "materialize autobench/dataset deliberately -- a benchmark never generates"
                    )
                local = work / "dataset" / Path(entry.output).name
                local.parent.mkdir(parents=True)
                local.write_bytes(store.get_bytes(data_path))
                run_spec = spec.model_copy(update={"dataset": spec.dataset.model_copy(update={"source": local.as_uri()})})
            results = work / "results"
            if store.exists(f"{prefix}/results.jsonl"):  # resume after an interrupted materialization
                (results / name).mkdir(parents=True)
                (results / name / "results.jsonl").write_bytes(store.get_bytes(f"{prefix}/results.jsonl"))
            run_benchmark(name, run_spec, bench_file.parent, results, progress=shell.run_log(context))
            store.put_bytes(f"{prefix}/results.jsonl", (results / name / "results.jsonl").read_bytes(), "application/x-ndjson")
            summary = store.put_bytes(f"{prefix}/summary.json", (results / name / "summary.json").read_bytes(), "application/json")
        document = json.loads(store.get_bytes(f"{prefix}/summary.json"))
        return dg.MaterializeResult(
            data_version=dg.DataVersion(document["content_sha256"]),  # the verdicts, not latencies or row order
            metadata={**shell.metadata(benchmark_facts(document)), "sha256": summary.sha256, "uri": summary.uri},
        )

    return benchmark_run
