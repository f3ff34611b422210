"""What every domain's Dagster wiring shares.

- `metadata(facts)`: the domain's ordered `Fact`s as Dagster metadata values.
- `run_log(context)`: a `ProgressLog` writing INFO lines to the run's log.
- `record_read_version(...)`: make the data version an asset records for one of its inputs
  the version of the bytes the step actually read, however the run was launched.
- `record_published(...)`: tell the instance the data version of inputs that exist as
  locked bytes on disk (published datasets, workloads, corpora) without a run.

Why the last two exist: Dagster records an input's version from the instance's latest
event for that input, fetched when the step starts. A never-observed source records
INITIAL, and an input nobody materialized warns "may fail"; both make unchanged bytes look
new later. Recording what was read keeps "stale" meaning "the bytes changed".
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

import dagster as dg
from dagster._core.definitions.data_version import (
    CODE_VERSION_TAG,
    DATA_VERSION_IS_USER_PROVIDED_TAG,
    DATA_VERSION_TAG,
)

from atlas_assets.core.facts import Fact
from atlas_assets.core.progress import ProgressLog

_METADATA_KINDS: dict[str, Callable[[Any], dg.MetadataValue]] = {
    "int": lambda v: dg.MetadataValue.int(int(v)),
    "float": lambda v: dg.MetadataValue.float(float(v)),
    "text": lambda v: dg.MetadataValue.text(str(v)),
    "md": lambda v: dg.MetadataValue.md(str(v)),
    "json": dg.MetadataValue.json,
    "path": lambda v: dg.MetadataValue.path(str(v)),
    "url": lambda v: dg.MetadataValue.url(str(v)),
}


_LOG = logging.getLogger("atlas_assets.definitions")


def not_loaded(what: str, problems: Iterable[object]) -> str:
    """Entries left out of the graph because of a problem: logged once at load, and returned
    as a markdown paragraph for the description of the assets they would have been part of."""
    lines = [str(p) for p in problems]
    for line in lines:
        _LOG.warning(f"{what} not loaded: {line}")
    if not lines:
        return ""
    return f"\n\n**Not loaded ({len(lines)} {what} with a problem; fix and reload):**\n\n" + "\n".join(f"- `{line}`" for line in lines)


def metadata(facts: Iterable[Fact]) -> dict[str, Any]:
    """Facts in their order as metadata values (Dagster's UI keeps insertion order)."""
    return {f.key: _METADATA_KINDS[f.kind](f.value) for f in facts}


def png_markdown(png: bytes, alt: str) -> dg.MetadataValue:
    """A PNG shown inline in the asset's metadata (the UI renders markdown images)."""
    return dg.MetadataValue.md(f"![{alt}](data:image/png;base64,{base64.b64encode(png).decode('ascii')})")


def run_log(context: dg.AssetExecutionContext, every_seconds: float = 10.0) -> ProgressLog:
    """Progress lines at INFO in the run's log, at most one per `every_seconds`."""
    return ProgressLog(context.log.info, every_seconds)


def record_read_version(context: dg.AssetExecutionContext, key: dg.AssetKey, version: str, facts: Mapping[str, Any] | None = None) -> None:
    """Observe `key` at `version` (what this step read) and make it this step's input version.

    Call before the step yields its MaterializeResult. The observation is stored when the
    step's next event is; dropping the step's cached input record makes Dagster fetch the
    latest record (this observation) when it writes the materialization's provenance."""
    context.log_event(
        dg.AssetObservation(
            asset_key=key,
            metadata={"observed_by": f"{context.asset_key.to_user_string()} (the bytes it read)", **(facts or {})},
            tags={DATA_VERSION_TAG: version, DATA_VERSION_IS_USER_PROVIDED_TAG: "true"},
        )
    )
    _forget_input(context, key)


def _forget_input(context: dg.AssetExecutionContext, key: dg.AssetKey) -> None:
    """Drop the step's cached record of input `key` (fetched at step start), so the
    provenance Dagster writes for this step's materialization reads the latest event."""
    context.op_execution_context._step_execution_context.wipe_input_asset_version_info(key)  # noqa: SLF001


@dataclass(frozen=True)
class Published:
    """An input that exists as bytes on disk: its key, partition, data and code version."""

    key: dg.AssetKey
    data_version: str
    code_version: str | None = None
    partition: str | None = None
    facts: Mapping[str, Any] | None = None


def latest_data_version(instance: dg.DagsterInstance, key: dg.AssetKey, partition: str | None = None) -> str | None:
    """The data version of the latest materialization of `key` (or of its `partition`)."""
    if partition is None:
        event = instance.get_latest_materialization_event(key)
        tags = (event.asset_materialization.tags or {}) if event and event.asset_materialization else {}
        return tags.get(DATA_VERSION_TAG)
    by_partition = instance._event_storage.get_latest_tags_by_partition(  # noqa: SLF001
        key, dg.DagsterEventType.ASSET_MATERIALIZATION, [DATA_VERSION_TAG], asset_partitions=[partition]
    )
    return by_partition.get(partition, {}).get(DATA_VERSION_TAG)


def unrecorded(instance: dg.DagsterInstance, items: Iterable[Published]) -> list[Published]:
    """The items whose latest recorded data version differs from their bytes' version."""
    return [p for p in items if latest_data_version(instance, p.key, p.partition) != p.data_version]


def as_event(item: Published, source: str) -> dg.AssetMaterialization:
    tags = {DATA_VERSION_TAG: item.data_version, DATA_VERSION_IS_USER_PROVIDED_TAG: "true"}
    if item.code_version:
        tags[CODE_VERSION_TAG] = item.code_version
    return dg.AssetMaterialization(
        asset_key=item.key,
        partition=item.partition,
        metadata={"recorded_from": source, **(item.facts or {})},
        tags=tags,
    )


def record_published(instance: dg.DagsterInstance, items: Iterable[Published], source: str) -> list[Published]:
    """Report (without a run) every item whose recorded version is not its bytes' version."""
    todo = unrecorded(instance, items)
    for item in todo:
        instance.report_runless_asset_event(as_event(item, source))
    return todo


def record_published_inputs(context: dg.AssetExecutionContext, items: Iterable[Published], source: str) -> None:
    """`record_published` from inside a step, then make the step's provenance read them."""
    for item in record_published(context.instance, items, source):
        context.log.info(
            f"recorded {item.key.to_user_string()}{f' [{item.partition}]' if item.partition else ''} at {item.data_version[:16]} ({source})"
        )
        _forget_input(context, item.key)


ON_DISK_SOURCE = "bytes on disk, recorded without a run by the {sensor} sensor"
ON_DISK_TAG = {"atlas/records": "inputs-on-disk"}


def on_disk_sensor(name: str, description: str, items: Callable[[], list[Published]]) -> dg.SensorDefinition:
    """A sensor that records (without a run) every input whose bytes' version is not yet the
    recorded one, so the graph shows what is on disk. It never requests a run."""
    source = ON_DISK_SOURCE.format(sensor=name)

    @dg.sensor(
        name=name,
        minimum_interval_seconds=30,
        default_status=dg.DefaultSensorStatus.RUNNING,
        description=description,
        tags=ON_DISK_TAG,
    )
    def _sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult | dg.SkipReason:
        todo = unrecorded(context.instance, items())
        if not todo:
            return dg.SkipReason("every input's recorded version matches its bytes")
        return dg.SensorResult(asset_events=[as_event(item, source) for item in todo])

    return _sensor


def record_on_disk_inputs(
    instance: dg.DagsterInstance, defs: dg.Definitions
) -> list[dg.AssetMaterialization | dg.AssetObservation | dg.AssetCheckEvaluation]:
    """One tick of every on-disk sensor, its events reported: what `make dev` runs before the
    UI starts, so a fresh instance shows its inputs at their bytes' versions at once."""
    events: list[dg.AssetMaterialization | dg.AssetObservation | dg.AssetCheckEvaluation] = []
    for sensor in defs.sensors or []:
        if not isinstance(sensor, dg.SensorDefinition) or dict(sensor.tags or {}) != ON_DISK_TAG:
            continue
        result = sensor(dg.build_sensor_context(instance=instance))
        for event in result.asset_events if isinstance(result, dg.SensorResult) else []:
            instance.report_runless_asset_event(event)
            events.append(event)
    return events
