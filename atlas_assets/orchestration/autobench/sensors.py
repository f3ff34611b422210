"""Autobench's sensors: the generation-request partitions follow the project file."""

from pathlib import Path

import dagster as dg

from atlas_assets.orchestration.autobench.assets import PARTITIONS_NAME, partitions_def
from autobench.project import load_project_report


def make_partitions_sensor(project: Path | None) -> dg.SensorDefinition:
    @dg.sensor(
        name="autobench_generation_requests",
        minimum_interval_seconds=60,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description="Keeps the autobench generation-request partitions equal to the project file's "
        "generations. Adds/removes partitions only: it never requests a run.",
    )
    def autobench_generation_requests(context: dg.SensorEvaluationContext) -> dg.SensorResult:
        doc = load_project_report(project).project
        existing = set(context.instance.get_dynamic_partitions(PARTITIONS_NAME))
        wanted = set(doc.generations)
        requests: list[dg.AddDynamicPartitionsRequest | dg.DeleteDynamicPartitionsRequest] = []
        if wanted - existing:
            requests.append(partitions_def.build_add_request(sorted(wanted - existing)))
        if existing - wanted:
            requests.append(partitions_def.build_delete_request(sorted(existing - wanted)))
        return dg.SensorResult(dynamic_partitions_requests=requests)

    return autobench_generation_requests
