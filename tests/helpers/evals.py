"""Shared helpers of tests/evals (test modules import these; fixtures stay in conftest.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

from atlas_assets.corpus import registry
from atlas_assets.evals.documents import (
    CheckpointRecord,
    DatasetBlock,
    EngineBlock,
    ErrataBlock,
    Excluded,
    Failure,
    LatencyStats,
    Metrics,
    RunBlock,
    RunResults,
    Scores,
)
from atlas_assets.evals.workloads import Workload

REPO = Path(__file__).resolve().parents[2]


def write_dataset(
    root: Path,
    dataset_id: str,
    kind: str,
    rows: Iterable[Mapping[str, Any]],
    *,
    default_scorer: str | None = None,
    files: Mapping[str, bytes] | None = None,
) -> Path:
    """A dataset folder (dataset.json + rows.jsonl + files) under a datasets root that has
    the corpus's _gen/_lib.py (the content hash needs it)."""
    gen = root / "_gen"
    if not (gen / "_lib.py").is_file():
        gen.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(registry.DEFAULT_DATASETS_ROOT / "_gen" / "_lib.py", gen / "_lib.py")
    folder = root / dataset_id
    folder.mkdir(parents=True, exist_ok=True)
    card: dict[str, Any] = {"id": dataset_id, "kind": kind, "rows_file": "rows.jsonl", "license": "MIT"}
    if default_scorer:
        card["default_scorer"] = default_scorer
    (folder / "dataset.json").write_text(json.dumps(card, indent=2, sort_keys=True) + "\n")
    (folder / "rows.jsonl").write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    for rel, data in (files or {}).items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)
    return folder


def write_workload(
    directory: Path,
    dataset_root: Path,
    dataset_id: str,
    *,
    workload_id: str | None = None,
    kind: str = "eval",
    scorer: str | None = "exact",
    **fields: Any,
) -> Path:
    """A workload file pinned to the dataset's current content sha256."""
    directory.mkdir(parents=True, exist_ok=True)
    sha = registry.content_sha256(dataset_root / dataset_id, dataset_root)
    body: dict[str, Any] = {
        "id": workload_id or dataset_id,
        "dataset": {"id": dataset_id, "sha256": sha},
        "kind": kind,
        "input_tokens": 10,
        **fields,
    }
    if kind == "eval":
        body["scorer"] = scorer
    path = directory / f"{body['id']}.yaml"
    path.write_text(yaml.safe_dump(body, sort_keys=False))
    return path


def prompt_rows(n: int, prefix: str = "syn") -> list[dict[str, Any]]:
    return [
        {
            "id": f"{prefix}-{i:05d}",
            "topic": "synthetic",
            "bucket": "xs",
            "lang": "en",
            "approx_tokens": 8,
            "messages": [{"role": "user", "content": f"Synthetic prompt number {i} for {prefix}: describe a teapot."}],
            "shared_prefix": None,
        }
        for i in range(n)
    ]


def eval_run_resources(tmp_path: Path, workloads_dir: Path) -> dict[str, Any]:
    """The resources an eval_run materialization needs: the shipped engines, these
    workloads, checkpoints and artifacts under tmp_path."""
    from atlas_assets.evals.engines import DEFAULT_ENGINES_FILE
    from atlas_assets.orchestration.datasets.assets import CorpusResource
    from atlas_assets.orchestration.evals import assets as eval_defs
    from atlas_assets.orchestration.resources import ArtifactStoreResource

    return {
        "evals": eval_defs.EvalsResource(
            engines_file=str(DEFAULT_ENGINES_FILE), workloads_dir=str(workloads_dir), work_dir=str(tmp_path / "work")
        ),
        "corpus": CorpusResource(),
        "artifact_store": ArtifactStoreResource(root=str(tmp_path / "artifacts")),
    }


def checkpoint_record(row_id: str = "r0", **fields: Any) -> CheckpointRecord:
    """A valid checkpoint record: a successful, unscored request, with `fields` in place."""
    base: dict[str, Any] = dict(
        id=row_id,
        fingerprint="f" * 64,
        content=None,
        reasoning_content=None,
        tool_calls=[],
        finish_reason="stop",
        usage=None,
        input_tokens=None,
        output_tokens=None,
        reasoning_tokens=None,
        ttft_s=None,
        itl_s=[],
        e2e_s=None,
        started_at=0.0,
        ended_at=0.0,
        attempts=1,
        retry_wait_s=0.0,
        status=200,
        error=None,
        error_kind=None,
        score=None,
    )
    return CheckpointRecord(**{**base, **fields})


def partial_results(row_ids: Iterable[str] = (), *, failures: Iterable[Failure] = (), excluded: Iterable[Excluded] = ()) -> RunResults:
    """results.json with just the blocks the renderers read (built without validation: the
    rest of the document is left out), for tests of what a reader shows."""
    row_ids, failures = list(row_ids), list(failures)
    stats = LatencyStats(mean=None, p50=None, p90=None, p99=None)
    return RunResults.model_construct(
        workload=Workload.model_construct(id="w", kind="eval"),
        engine=EngineBlock(name="e", kind="openai", base_url="", identity={}),
        model="m",
        complete=True,
        dataset=DatasetBlock(id="d", sha256="a" * 64, kind="eval"),
        content_sha256="c" * 64,
        warnings=[],
        errata=ErrataBlock(file="errata.json", file_sha256=None, pinned=[], pin_sha256=None, applied=[], excluded_rows=[]),
        run=RunBlock.model_construct(row_ids=row_ids, rows_selected=len(row_ids), rows_done=len(row_ids), sent_rows=0, resumed_rows=0),
        metrics=Metrics.model_construct(
            requests_completed=0,
            requests_failed=len(failures),
            input_tokens_total=None,
            duration_s=0.0,
            output_tokens_total=None,
            request_throughput=None,
            output_token_throughput=None,
            total_token_throughput=None,
            ttft_ms=stats,
            tpot_ms=stats,
            itl_ms=stats,
            e2e_ms=stats,
        ),
        scores=Scores.model_construct(
            accuracy=0.0,
            correct=0,
            total=len(row_ids),
            failed=len(failures),
            failures=failures,
            excluded=list(excluded),
            by_difficulty={},
            by_category={},
            by_scorer={},
        ),
    )
