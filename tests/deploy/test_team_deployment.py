"""The team deployment, end to end, on real parts (README.md "Running as a team").

What runs, each as its own process on 127.0.0.1:

- PostgreSQL (Debian's server, conftest.py) as the instance storage, through dagster-postgres,
  with deploy/dagster.yaml copied unchanged into DAGSTER_HOME;
- two OpenAI-compatible engines (tests/deploy/engine_server.py: the reference simulator
  behind a gate that counts every request server-side; engine A can be made to stall);
- S3 on moto's server (tests/conftest.py) as the artifact store: ATLAS_ARTIFACTS=s3://...;
- the code server `dagster api grpc -m atlas_assets`, the webserver and `dagster-daemon run`,
  both loading the code location from the code server through deploy/workspace.yaml.

The test then does what a user does. It launches a backfill of 8 eval_run partitions
(2 engines x 4 small workloads) with the webserver's GraphQL `launchPartitionBackfill`
mutation (what the UI's "Materialize partitions" sends; Dagster 1.13 has no asset-backfill
CLI). The daemon's backfill loop turns it into 8 queued runs, and its run queue launches
them under the limit of one run per engine; the DefaultRunLauncher starts each run as a
new process. While engine A's first run has checkpointed some rows and waits on stalled
requests, the test SIGKILLs that run's processes (the run worker and the step process it
started), checks that the deployment marks the run FAILURE, and re-executes it from
failure with GraphQL's `launchRunReexecution` (the UI's "Re-execute from failure").

Then it checks (a) every partition materialized, with a valid results.json (and matching
.sha256) in S3; (b) the runs of one engine never overlapped (RunRecord start/end times in
PostgreSQL); (c) server-side, every row was answered exactly once across all run processes
(requests that were in flight at the kill and never answered are re-sent; the test counts
them and prints the number).

The backfill is submitted just before the daemon starts: the daemon's backfill loop runs at
start-up and then every 30 s (fixed in Dagster), so this order saves up to 30 s of waiting.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from tests.helpers.deploy import Service, Services, free_port

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ENGINES = ("deploy-a", "deploy-b")
STALLED = "deploy-a"
WORKLOADS = {  # workload id -> the corpus dataset it samples (no code_exec rows: no sandbox here)
    "deploy-math": "eval-math-v1",
    "deploy-knowledge": "eval-knowledge-v1",
    "deploy-reasoning": "eval-reasoning-v1",
    "deploy-commonsense": "eval-commonsense-v2",
}
ROWS = 6  # rows per workload
IN_FLIGHT = 2  # the engines' concurrency
STALL_AFTER = 3  # engine A answers this many requests, then holds the rest until released
BUCKET, PREFIX = "atlas-team", "artifacts"
ENGINE_TAG = "dagster/partition/engine"
WORKLOAD_TAG = "dagster/partition/workload"
GUARD_S = 300.0  # hang guard for each wait: a hang fails with the services' logs instead of blocking CI (no speed limit)


# --------------------------------------------------------------------------- helpers


def _wait(what: str, probe: Callable[[], Any], services: Services, timeout: float, interval: float = 0.2) -> Any:
    """Poll `probe` until it returns something truthy; fail with every service's log tail when
    a service dies or `timeout` passes (a hang guard, not a speed requirement)."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        dead = [s for s in services.started if not s.alive()]
        if dead:
            pytest.fail(f"{', '.join(s.name for s in dead)} exited while waiting for {what}\n{services.describe()}", pytrace=False)
        if time.monotonic() > deadline:
            pytest.fail(f"gave up after {timeout:.0f} s waiting for {what}\n{services.describe()}", pytrace=False)
        time.sleep(interval)


def _first_line(service: Service, timeout: float = 60.0) -> str:
    stream = service.process.stdout
    assert stream is not None
    ready, _, _ = select.select([stream], [], [], timeout)
    line = stream.readline().decode().strip() if ready else ""
    if not line.startswith("http"):
        pytest.fail(f"{service.name} printed no base URL\n{service.describe()}", pytrace=False)
    return line


def _http_json(url: str, payload: Any | None = None, timeout: float = 60.0) -> Any:
    data = None if payload is None else json.dumps(payload).encode()
    method = "GET" if payload is None else "POST"
    request = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


def _graphql(webserver: str, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
    answer = _http_json(f"{webserver}/graphql", {"query": query, "variables": variables or {}})
    assert not answer.get("errors"), f"GraphQL errors: {answer['errors']}"
    return answer["data"]


def _processes() -> dict[int, int]:
    """pid -> parent pid of every process on the machine (from /proc)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    return parents


def _tree(root: int) -> list[int]:
    """`root` and all its descendants, root first."""
    parents = _processes()
    tree, frontier = [root], [root]
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier]
        tree.extend(children)
        frontier = children
    return tree


def _events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


LOCATION_QUERY = """
query { workspaceOrError { __typename
  ... on Workspace { locationEntries { name locationOrLoadError { __typename ... on PythonError { message } } } } } }
"""
BACKFILL_MUTATION = """
mutation Backfill($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename
    ... on LaunchBackfillSuccess { backfillId }
    ... on Error { message }
  }
}
"""
REEXECUTE_MUTATION = """
mutation Reexecute($params: ReexecutionParams!) {
  launchRunReexecution(reexecutionParams: $params) {
    __typename
    ... on LaunchRunSuccess { run { runId } }
    ... on Error { message }
  }
}
"""


# --------------------------------------------------------------------------- the test


def test_a_backfill_on_the_team_deployment_survives_a_killed_run(tmp_path, postgres, s3_client, services, monkeypatch):
    import dagster as dg

    started_at = time.monotonic()
    s3_client.create_bucket(Bucket=BUCKET)

    # --- the engines: real HTTP servers in their own processes -----------------------------
    events, engine_servers = {}, {}
    for name in ENGINES:
        events[name] = tmp_path / f"{name}.events.jsonl"
        command = [sys.executable, str(REPO / "tests" / "deploy" / "engine_server.py"), "--name", name, "--events", str(events[name])]
        if name == STALLED:
            command += ["--stall-after", str(STALL_AFTER)]
        engine_servers[name] = services.start(name, command, os.environ, tmp_path / f"{name}.log", stdout_pipe=True)
    urls = {name: _first_line(server) for name, server in engine_servers.items()}
    control = {name: urls[name].removesuffix("/v1") + "/control" for name in ENGINES}

    engines_file = tmp_path / "engines.yaml"
    engines_file.write_text(
        yaml.safe_dump(
            {
                "engines": {
                    name: {
                        "kind": "openai",
                        "base_url": urls[name],
                        "model": name,
                        "concurrency": IN_FLIGHT,
                        "timeout_s": 120,
                        "max_retries": 0,
                    }
                    for name in ENGINES
                }
            }
        )
    )
    workloads_dir = tmp_path / "workloads"
    workloads_dir.mkdir()
    for workload, dataset in WORKLOADS.items():
        body = yaml.safe_load((REPO / "workloads" / f"{dataset}.yaml").read_text())
        body.update(id=workload, sample={"limit": ROWS, "seed": None}, concurrency=IN_FLIGHT)
        (workloads_dir / f"{workload}.yaml").write_text(yaml.safe_dump(body, sort_keys=False))

    # --- the instance: deploy/dagster.yaml unchanged, PostgreSQL storage --------------------
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copyfile(REPO / "deploy" / "dagster.yaml", home / "dagster.yaml")
    cache = tmp_path / "cache"
    code_port, web_port = free_port(), free_port()
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "DAGSTER_PG_HOST": postgres.host,
        "DAGSTER_PG_PORT": str(postgres.port),
        "DAGSTER_PG_USER": postgres.user,
        "DAGSTER_PG_PASSWORD": "",  # trust authentication on loopback
        "DAGSTER_PG_DB": postgres.database,
        "ATLAS_CODE_SERVER_HOST": "127.0.0.1",
        "ATLAS_CODE_SERVER_PORT": str(code_port),
        "ATLAS_ENGINES": str(engines_file),
        "ATLAS_WORKLOADS": str(workloads_dir),
        "ATLAS_DATASETS": str(REPO / "datasets"),
        "ATLAS_ARTIFACTS": f"s3://{BUCKET}/{PREFIX}",
        "ATLAS_CACHE_DIR": str(cache),
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("DAGSTER_HOME", "DAGSTER_PG_HOST", "DAGSTER_PG_PORT", "DAGSTER_PG_USER", "DAGSTER_PG_PASSWORD", "DAGSTER_PG_DB"):
        monkeypatch.setenv(name, env[name])
    workspace = str(REPO / "deploy" / "workspace.yaml")
    code_server = services.start(
        "code server",
        [
            str(BIN / "dagster"),
            "api",
            "grpc",
            "-m",
            "atlas_assets",
            "-h",
            "127.0.0.1",
            "-p",
            str(code_port),
            "--location-name",
            "atlas_assets",
        ],
        env,
        tmp_path / "code-server.log",
        cwd=tmp_path,
    )
    # while the code server loads the definitions: create the schema, as README's first command does
    migrate = subprocess.run(
        [str(BIN / "dagster"), "instance", "migrate"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=GUARD_S
    )
    assert migrate.returncode == 0, f"dagster instance migrate failed:\n{migrate.stdout}\n{migrate.stderr}"
    _wait("the code server's port", lambda: _port_open(code_port), services, GUARD_S)
    services.start(
        "webserver",
        [str(BIN / "dagster-webserver"), "-w", workspace, "-h", "127.0.0.1", "-p", str(web_port)],
        env,
        tmp_path / "webserver.log",
        cwd=tmp_path,
    )
    webserver = f"http://127.0.0.1:{web_port}"

    def location_loaded() -> bool:
        if not _port_open(web_port):
            return False
        try:
            entries = _graphql(webserver, LOCATION_QUERY)["workspaceOrError"]["locationEntries"]
        except OSError:
            return False
        loaded = {e["name"]: e["locationOrLoadError"] for e in entries}.get("atlas_assets")
        if loaded and loaded["__typename"] == "PythonError":
            pytest.fail(f"the code location did not load: {loaded['message']}\n{services.describe()}", pytrace=False)
        return bool(loaded) and loaded["__typename"] == "RepositoryLocation"

    _wait("the webserver to load the atlas_assets code location from the code server", location_loaded, services, GUARD_S)

    partitions = [str(dg.MultiPartitionKey({"engine": e, "workload": w})) for e in ENGINES for w in WORKLOADS]
    launched = _graphql(
        webserver,
        BACKFILL_MUTATION,
        {
            "params": {
                "assetSelection": [{"path": ["eval_run"]}],
                "partitionNames": partitions,
                "title": "team deployment test",
                "runConfigData": {"execution": {"config": {"in_process": {}}}},
            }
        },
    )
    launched = launched["launchPartitionBackfill"]
    assert launched["__typename"] == "LaunchBackfillSuccess", f"launchPartitionBackfill: {launched}"
    backfill_id = launched["backfillId"]
    services.start("daemon", [str(BIN / "dagster-daemon"), "run", "-w", workspace], env, tmp_path / "daemon.log", cwd=tmp_path)

    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage", type(instance.run_storage)

        def engine_runs(engine: str) -> list[dg.RunRecord]:
            return list(instance.get_run_records(filters=dg.RunsFilter(tags={ENGINE_TAG: engine})))

        # --- the kill: engine A's first run, checkpointed STALL_AFTER rows, waiting on the rest --
        def stalled_run() -> dg.RunRecord | None:
            state = _http_json(f"{control[STALLED]}/state")
            if not (state["answered"] == state["admitted"] == STALL_AFTER and state["holding"] == IN_FLIGHT):
                return None
            running = [r for r in engine_runs(STALLED) if r.dagster_run.status == dg.DagsterRunStatus.STARTED]
            if len(running) != 1:
                return None
            checkpoint = cache / "evals" / STALLED / running[0].dagster_run.tags[WORKLOAD_TAG] / "checkpoint.jsonl"
            rows = checkpoint.read_text().count("\n") if checkpoint.is_file() else 0
            return running[0] if rows == STALL_AFTER else None

        victim = _wait(
            f"engine {STALLED}'s first run to checkpoint {STALL_AFTER} rows ($ATLAS_CACHE_DIR/evals/{STALLED}/<workload>/"
            f"checkpoint.jsonl) and wait on {IN_FLIGHT} held requests",
            stalled_run,
            services,
            GUARD_S,
        )
        victim_id, victim_workload = victim.dagster_run.run_id, victim.dagster_run.tags[WORKLOAD_TAG]
        held = _http_json(f"{control[STALLED]}/state")["held"]
        assert not _s3_exists(s3_client, STALLED, victim_workload), "the run to be killed already stored its results"

        worker_pid = _run_worker_pid(instance, victim_id)
        tree = _tree(worker_pid)
        assert worker_pid in _tree(code_server.process.pid), f"run worker pid {worker_pid} is not a child of our code server"
        for sig in (signal.SIGSTOP, signal.SIGKILL):  # the run worker and all it started, frozen first so none reacts to another's death
            for pid in tree:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    assert pid != worker_pid, f"the run worker {worker_pid} was gone before the kill"

        def failed() -> bool:
            run = instance.get_run_by_id(victim_id)
            return run is not None and run.status == dg.DagsterRunStatus.FAILURE

        _wait(f"the killed run {victim_id} to be marked FAILURE", failed, services, GUARD_S)
        crash = [
            e.message for e in instance.all_logs(victim_id, of_type=dg.DagsterEventType.ENGINE_EVENT) if "signal 9" in (e.message or "")
        ]
        assert crash, f"no engine event of run {victim_id} names the SIGKILL"
        _wait(
            "the stalled requests of the killed run to be abandoned",
            lambda: _http_json(f"{control[STALLED]}/state")["holding"] == 0,
            services,
            GUARD_S,
        )
        state = _http_json(f"{control[STALLED]}/state")
        assert state["abandoned"] == held >= 1, f"every held request belonged to the killed run: {state}, held {held}"
        _http_json(f"{control[STALLED]}/release", {})

        # --- the re-launch, as a user does it: "Re-execute from failure" ----------------------
        again = _graphql(webserver, REEXECUTE_MUTATION, {"params": {"parentRunId": victim_id, "strategy": "FROM_FAILURE"}})
        again = again["launchRunReexecution"]
        assert again["__typename"] == "LaunchRunSuccess", f"launchRunReexecution: {again}"
        rerun_id = again["run"]["runId"]

        def all_done() -> bool:
            runs = [r for e in ENGINES for r in engine_runs(e)]
            return len(runs) == len(partitions) + 1 and all(r.dagster_run.is_finished for r in runs)

        _wait("every run of the backfill and the re-execution to finish", all_done, services, GUARD_S, interval=0.5)

        # --- (a) every partition materialized, results.json valid in S3 ----------------------
        by_engine = {e: sorted(engine_runs(e), key=lambda r: r.start_time or 0.0) for e in ENGINES}
        records = [r for runs in by_engine.values() for r in runs]
        statuses = Counter((r.dagster_run.run_id == victim_id, r.dagster_run.status) for r in records)
        assert statuses == {(True, dg.DagsterRunStatus.FAILURE): 1, (False, dg.DagsterRunStatus.SUCCESS): len(partitions)}, (
            f"run statuses: {[(r.dagster_run.run_id, r.dagster_run.tags.get('dagster/partition'), r.dagster_run.status) for r in records]}\n"
            f"{services.describe()}"
        )
        rerun = instance.get_run_by_id(rerun_id)
        assert rerun.parent_run_id == victim_id and rerun.tags[WORKLOAD_TAG] == victim_workload
        backfill_runs = {r.dagster_run.run_id for r in records if r.dagster_run.tags.get("dagster/backfill") == backfill_id}
        assert len(backfill_runs - {rerun_id}) == len(partitions), "the backfill made one run per partition"
        assert rerun_id in backfill_runs, "the re-execution keeps the backfill's tags, so the backfill sees it"

        key = dg.AssetKey("eval_run")
        assert set(instance.get_materialized_partitions(key)) == set(partitions)
        expected_rows: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for engine in ENGINES:
            for workload, dataset in WORKLOADS.items():
                partition = str(dg.MultiPartitionKey({"engine": engine, "workload": workload}))
                data = s3_client.get_object(Bucket=BUCKET, Key=f"{PREFIX}/evals/{engine}/{workload}/results.json")["Body"].read()
                digest = (
                    s3_client.get_object(Bucket=BUCKET, Key=f"{PREFIX}/evals/{engine}/{workload}/results.json.sha256")["Body"]
                    .read()
                    .decode()
                )
                assert digest.split()[0] == hashlib.sha256(data).hexdigest(), f"{partition}: results.json.sha256 does not match"
                results = json.loads(data)
                assert results["complete"] is True and results["engine"]["name"] == engine and results["workload"]["id"] == workload
                assert results["dataset"]["id"] == dataset and results["run"]["rows_done"] == ROWS == len(results["run"]["row_ids"])
                assert results["metrics"]["requests_failed"] == 0, f"{partition}: {results['scores']['failures']}"
                latest = instance.fetch_materializations(dg.AssetRecordsFilter(asset_key=key, asset_partitions=[partition]), limit=1)
                assert latest.records[0].asset_materialization.metadata["results_sha256"].value == hashlib.sha256(data).hexdigest()
                if engine == STALLED and workload == victim_workload:
                    assert (results["run"]["resumed_rows"], results["run"]["sent_rows"]) == (STALL_AFTER, ROWS - STALL_AFTER), results[
                        "run"
                    ]
                else:
                    assert (results["run"]["resumed_rows"], results["run"]["sent_rows"]) == (0, ROWS), results["run"]
                expected_rows[engine] |= {(dataset, row_id) for row_id in results["run"]["row_ids"]}

        # --- (b) one run per engine at a time ------------------------------------------------
        for engine, runs in by_engine.items():
            assert all(r.start_time and r.end_time for r in runs), f"{engine}: a run without start/end time"
            for earlier, later in zip(runs, runs[1:]):
                assert later.start_time > earlier.end_time, (
                    f"{engine}: run {later.dagster_run.run_id} started at {later.start_time} before run "
                    f"{earlier.dagster_run.run_id} ended at {earlier.end_time}"
                )
            queued = [later for earlier, later in zip(runs, runs[1:]) if later.create_timestamp.timestamp() < earlier.end_time]
            assert queued, f"{engine}: no run ever waited for the previous one, so the limit was never exercised"

        # --- (c) every row answered exactly once, server-side, across all run processes ------
        resent = {}
        for engine in ENGINES:
            log = _events(events[engine])
            row_of = {e["sha"]: (e["dataset"], e["row_id"]) for e in log if e["event"] == "admitted"}
            answered = Counter(row_of.get(e["sha"]) for e in log if e["event"] == "answered")
            assert all(e["status"] == 200 for e in log if e["event"] == "answered")
            assert set(answered) == expected_rows[engine], f"{engine}: answered rows differ from the runs' rows"
            twice = {row: n for row, n in answered.items() if n != 1}
            assert not twice, f"{engine}: rows answered more than once: {twice}"
            arrivals = Counter(e["sha"] for e in log if e["event"] == "arrived")
            abandoned = {e["sha"] for e in log if e["event"] == "abandoned"}
            resent[engine] = sorted(row_of[sha] for sha, n in arrivals.items() if n > 1)
            assert {sha for sha, n in arrivals.items() if n > 1} == abandoned, f"{engine}: only requests abandoned at the kill were re-sent"
        assert len(resent[STALLED]) == held and not resent["deploy-b"]

        # --- the instance really lives in PostgreSQL -----------------------------------------
        with postgres.connect() as connection, connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM runs")
            assert cursor.fetchone()[0] == len(partitions) + 1

    cpu = ", ".join(f"{s.name} {_cpu_seconds(s.process.pid):.1f}" for s in services.started if s.alive())
    print(
        f"\nCPU seconds (process + waited-for children): {cpu}"
        f"\nteam deployment: {len(partitions)} partitions + 1 re-execution; killed run {victim_id} "
        f"({STALLED}|{victim_workload}) after {STALL_AFTER} checkpointed rows; {held} in-flight request(s) "
        f"re-sent: {resent[STALLED]}; {time.monotonic() - started_at:.1f} s"
    )


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _port_open(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _s3_exists(s3_client, engine: str, workload: str) -> bool:
    listed = s3_client.list_objects_v2(Bucket=BUCKET, Prefix=f"{PREFIX}/evals/{engine}/{workload}/results.json")
    return bool(listed.get("Contents"))


def _run_worker_pid(instance, run_id: str) -> int:
    """The pid of the process executing the run, from its 'Started process for run (pid: N).' event."""
    import dagster as dg

    for event in instance.all_logs(run_id, of_type=dg.DagsterEventType.ENGINE_EVENT):
        match = re.match(r"Started process for run \(pid: (\d+)\)", event.message or "")
        if match:
            return int(match.group(1))
    pytest.fail(f"run {run_id} has no 'Started process for run (pid: N)' event", pytrace=False)
