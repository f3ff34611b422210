"""A snapshot of the whole Definitions: asset keys (with group, kinds and partitions),
checks, jobs, schedules and sensors. A change to the graph shows up here as a readable
diff; accept it deliberately with `ATLAS_UPDATE_SNAPSHOT=1 pytest tests/orchestration/test_defs_snapshot.py`."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import dagster as dg

SNAPSHOT = Path(__file__).with_name("defs_snapshot.json")


def _partitions(definition: Any) -> Any:
    if definition is None:
        return None
    if isinstance(definition, dg.MultiPartitionsDefinition):
        return {d.name: _partitions(d.partitions_def) for d in definition.partitions_defs}
    if isinstance(definition, dg.DynamicPartitionsDefinition):
        return {"dynamic": definition.name}
    return sorted(definition.get_partition_keys())


def describe(defs: dg.Definitions) -> dict[str, Any]:
    graph = defs.resolve_asset_graph()
    assets = {}
    for key in sorted(graph.get_all_asset_keys(), key=lambda k: k.to_user_string()):
        node = graph.get(key)
        assets[key.to_user_string()] = {
            "group": node.group_name,
            "kinds": sorted(node.kinds),
            "materializable": node.is_materializable,
            "deps": sorted(k.to_user_string() for k in node.parent_keys),
            "partitions": _partitions(node.partitions_def),
            "has_code_version": node.code_version is not None,
        }
    checks = sorted(f"{k.asset_key.to_user_string()}:{k.name}" for k in graph.asset_check_keys)
    return {
        "assets": assets,
        "checks": checks,
        "blocking_checks": sorted(f"{k.asset_key.to_user_string()}:{k.name}" for k in graph.asset_check_keys if graph.get(k).blocking),
        "jobs": sorted(j.name for j in defs.jobs or [] if not j.name.startswith("__")),
        "schedules": {s.name: {"cron": s.cron_schedule, "timezone": s.execution_timezone, "job": s.job_name} for s in defs.schedules or []},
        "sensors": sorted(s.name for s in defs.sensors or []),
    }


def test_definitions_match_the_snapshot():
    from atlas_assets import defs

    current = describe(defs)
    if os.environ.get("ATLAS_UPDATE_SNAPSHOT") == "1":
        SNAPSHOT.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert current == expected, "the definitions changed: review, then ATLAS_UPDATE_SNAPSHOT=1 to accept"


def test_every_materializable_asset_has_a_code_version():
    from atlas_assets import defs

    missing = [key for key, node in describe(defs)["assets"].items() if node["materializable"] and not node["has_code_version"]]
    assert missing == []
