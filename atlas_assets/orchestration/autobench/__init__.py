"""Autobench (group "autobench"): generation_request -> generated_batch -> review_manifest
(check review_projection) -> dataset -> benchmark/<name>, and the sensor that keeps the
generation partitions equal to the project file."""

from pathlib import Path

import dagster as dg

from atlas_assets.orchestration import shell
from atlas_assets.orchestration.autobench.assets import benchmark_asset, make_generation_assets
from atlas_assets.orchestration.autobench.checks import make_review_check
from atlas_assets.orchestration.autobench.sensors import make_partitions_sensor
from atlas_assets.orchestration.resources import RESOURCES
from autobench.project import load_project_report, project_path


def build_defs(project: Path | None = None) -> dg.Definitions:
    project = project or project_path()
    report = load_project_report(project)
    base, doc = report.base, report.project
    shell.not_loaded("autobench generations or benchmarks", report.problems)
    assets: list = make_generation_assets(dict(doc.generations), base) if doc.generations else []
    outputs = {(base / entry.output).resolve(): (gid, entry) for gid, entry in doc.generations.items()}
    assets += [benchmark_asset(name, spec, bench_file, outputs) for name, (bench_file, spec) in sorted(report.benchmarks.items())]
    return dg.Definitions(
        assets=assets,
        asset_checks=[make_review_check()] if doc.generations else [],
        sensors=[make_partitions_sensor(project)],
        resources={"artifact_store": RESOURCES["artifact_store"]},
    )


defs = build_defs()
