"""The team instance file (deploy/dagster.yaml) keeps the repository's run limits.

dagster.yaml (the embedded default) is the single source of truth for the limits; the team
file mirrors its `concurrency` block, and this test fails when the two drift apart."""

from __future__ import annotations

from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def _load(name: str) -> dict:
    return yaml.safe_load((REPO / name).read_text(encoding="utf-8"))


def test_the_team_file_has_the_same_run_limits_as_dagster_yaml():
    embedded, team = _load("dagster.yaml"), _load("deploy/dagster.yaml")
    assert "concurrency" in embedded, "dagster.yaml has no `concurrency` block: the run limits moved; update deploy/dagster.yaml too"
    assert team.get("concurrency") == embedded["concurrency"], (
        "deploy/dagster.yaml's `concurrency` block differs from dagster.yaml's (the source of truth for the run limits):\n"
        f"dagster.yaml:        {embedded['concurrency']}\ndeploy/dagster.yaml: {team.get('concurrency')}"
    )
    # the limits are enforced by the queue, so the team file must queue runs and not set limits elsewhere
    assert team["run_coordinator"]["class"] == "QueuedRunCoordinator"
    assert not {"max_concurrent_runs", "tag_concurrency_limits"} & set(team["run_coordinator"].get("config") or {})
    assert "run_queue" not in team


def test_the_team_file_is_a_valid_postgres_instance_config():
    from dagster._core.instance.config import dagster_instance_config

    config, _custom_instance_class = dagster_instance_config(str(REPO / "deploy"), "dagster.yaml")
    db = config["storage"]["postgres"]["postgres_db"]
    assert db["scheme"] == "postgresql+psycopg2", "the driver dagster-postgres installs (SQLAlchemy 2.1's bare postgresql:// is psycopg 3)"
    assert {field: db[field] for field in ("hostname", "port", "username", "password", "db_name")} == {
        "hostname": {"env": "DAGSTER_PG_HOST"},
        "port": {"env": "DAGSTER_PG_PORT"},
        "username": {"env": "DAGSTER_PG_USER"},
        "password": {"env": "DAGSTER_PG_PASSWORD"},
        "db_name": {"env": "DAGSTER_PG_DB"},
    }
    assert config["run_launcher"]["class"] == "DefaultRunLauncher"
    assert config["run_monitoring"]["enabled"] is True
