"""Corpus errata in eval runs, against the real simulator on 127.0.0.1: a pinned erratum
takes its row out of the scores and results.json records it; a workload without a pin
scores every row; a later or edited erratum never changes scoring silently; rescoring
applies the pinned errata (or, on request, the current workload's); compare says when
two runs applied different errata; the real -v2 workloads pin the review's errata."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from atlas_assets.core.hashing import sha256_file
from atlas_assets.corpus import errata
from atlas_assets.evals.compare import compare_runs
from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.engines import Engine, resolve_engine
from atlas_assets.evals.results import CHECKPOINT, read_checkpoint
from atlas_assets.evals.runner import Progress, rescore_run, run_eval
from atlas_assets.evals.workloads import Workload, load_workload, resolve_workload
from atlas_assets.simulator.handle import start_simulator
from atlas_assets.simulator.profiles import SimulatorProfile
from tests.helpers.evals import REPO, write_dataset, write_workload

# easy and hard rows answered right, medium rows wrong: every exclusion moves a count
SPLIT = {"name": "sim-errata", "skill": {"easy": 1, "medium": 0, "hard": 1}}
N = 30


def _rows(n: int = N) -> list[dict]:
    return [
        {
            "id": f"q-{i:04d}",
            "category": "sum",
            "difficulty": ["easy", "medium", "hard"][i % 3],
            "prompt": f"What is {i} plus {i + 2}? Reply with the number only.",
            "answer": str(2 * i + 2),
            "scorer": "numeric",
        }
        for i in range(n)
    ]


def _erratum(eid: str, row: str, reason: str | None = None) -> dict:
    return {
        "id": eid,
        "dataset": "syn-eval-v1",
        "row": row,
        "action": "exclude",
        "reason": reason or f"the key of {row} is ambiguous (test)",
        "reference": "tests",
        "date": "2026-12-01",
    }


def _write_errata(root: Path, *entries: dict) -> Path:
    path = root / errata.ERRATA_FILE
    path.write_text(json.dumps({"format_version": 1, "errata": list(entries)}, indent=2))
    return path


def _pin(root: Path, *ids: str) -> dict:
    file = errata.load_errata(root / errata.ERRATA_FILE)
    entries = [file.by_id()[i] for i in ids]
    return {"ids": list(ids), "sha256": errata.pin_sha256(entries)}


@pytest.fixture
def setup(tmp_path, datasets_root):
    write_dataset(datasets_root, "syn-eval-v1", "eval", _rows(), default_scorer="numeric")
    _write_errata(datasets_root, _erratum("err-0001", "q-0000"), _erratum("err-0002", "q-0001"))
    pinned = write_workload(
        tmp_path / "pinned",
        datasets_root,
        "syn-eval-v1",
        scorer="numeric",
        concurrency=8,
        request={"max_tokens": 32},
        errata=_pin(datasets_root, "err-0001", "err-0002"),
    )
    plain = write_workload(tmp_path / "plain", datasets_root, "syn-eval-v1", scorer="numeric", concurrency=8, request={"max_tokens": 32})
    with start_simulator(SimulatorProfile.from_block(SPLIT), datasets_root=datasets_root) as sim:
        yield datasets_root, load_workload(pinned), load_workload(plain), sim


def _engine(sim) -> Engine:
    return resolve_engine(sim.base_url)


def test_an_erratum_takes_its_row_out_of_the_score_and_results_json_records_it(tmp_path, setup):
    root, pinned, _, sim = setup
    progress = Progress()
    outcome = run_eval(pinned, _engine(sim), tmp_path / "run", datasets_root=root, progress=progress)
    res = json.loads((tmp_path / "run" / "results.json").read_text())
    assert res == outcome.results.model_dump(mode="json")
    assert (progress.done, progress.scored, progress.correct) == (N, N - 2, 19)  # the live bar agrees
    s = res["scores"]
    # 30 rows, 20 right (easy+hard); q-0000 (easy, right) and q-0001 (medium, wrong) are out
    assert (s["total"], s["correct"], s["accuracy"]) == (28, 19, round(19 / 28, 6))
    assert s["excluded"] == [
        {"id": "q-0000", "erratum": "err-0001", "reason": "the key of q-0000 is ambiguous (test)"},
        {"id": "q-0001", "erratum": "err-0002", "reason": "the key of q-0001 is ambiguous (test)"},
    ]
    assert sum(g["total"] for g in s["by_difficulty"].values()) == 28 and s["by_difficulty"]["easy"]["total"] == 9
    e = res["errata"]
    assert e["file"] == "errata.json" and e["file_sha256"] == sha256_file(root / "errata.json")
    assert e["pinned"] == ["err-0001", "err-0002"] and e["pin_sha256"] == pinned.errata.sha256
    assert [(a["id"], a["row"], a["reason"]) for a in e["applied"]] == [
        ("err-0001", "q-0000", "the key of q-0000 is ambiguous (test)"),
        ("err-0002", "q-0001", "the key of q-0001 is ambiguous (test)"),
    ]
    assert e["excluded_rows"] == ["q-0000", "q-0001"]
    assert res["workload"]["errata"] == {"ids": ["err-0001", "err-0002"], "sha256": pinned.errata.sha256}
    # the rows were still sent and recorded: only their scoring is withheld
    records, _ = read_checkpoint(tmp_path / "run" / CHECKPOINT)
    assert {r.id for r in records} == {f"q-{i:04d}" for i in range(N)}
    assert res["metrics"]["requests_total"] == N


def test_a_workload_that_does_not_pin_the_errata_scores_every_row(tmp_path, setup):
    root, _, plain, sim = setup
    res = run_eval(plain, _engine(sim), tmp_path / "run", datasets_root=root).results
    assert (res.scores.total, res.scores.correct, res.scores.excluded) == (N, 20, [])
    assert res.errata.model_dump() == {
        "file": "errata.json",
        "file_sha256": sha256_file(root / "errata.json"),
        "pinned": [],
        "pin_sha256": None,
        "applied": [],
        "excluded_rows": [],
    }


def test_a_later_erratum_changes_nothing_and_an_edited_one_is_refused(tmp_path, setup):
    root, pinned, _, sim = setup
    before = run_eval(pinned, _engine(sim), tmp_path / "run", datasets_root=root).results
    body = json.loads((root / "errata.json").read_text())
    body["errata"].append(_erratum("err-0003", "q-0002"))
    (root / "errata.json").write_text(json.dumps(body))
    after = rescore_run(tmp_path / "run", root).results
    assert after.scores == before.scores and after.errata.pinned == ["err-0001", "err-0002"]
    assert after.errata.file_sha256 == sha256_file(root / "errata.json") != before.errata.file_sha256
    body["errata"][1]["reason"] = "rewritten after the fact, which a pin must catch"
    (root / "errata.json").write_text(json.dumps(body))
    with pytest.raises(ConfigError, match=r"workload syn-eval-v1: errata.sha256: pins .* hash to"):
        run_eval(pinned, _engine(sim), tmp_path / "again", datasets_root=root)
    with pytest.raises(ConfigError, match=r"errata.sha256"):
        rescore_run(tmp_path / "run", root)
    assert not (tmp_path / "again" / CHECKPOINT).exists()  # refused before anything was sent


def _atlas(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "atlas_assets.cli", *args], capture_output=True, text=True, cwd=REPO, timeout=120)


def test_rescore_applies_the_pinned_errata_and_on_request_the_current_workloads(tmp_path, setup):
    root, pinned, plain, sim = setup
    workloads = tmp_path / "plain"
    ran = _atlas(
        "eval",
        "run",
        "--workload",
        "syn-eval-v1",
        "--workloads",
        str(workloads),
        "--datasets",
        str(root),
        "--engine",
        sim.base_url,
        "--out",
        str(tmp_path / "old"),
        "--json",
    )
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["scores"]["total"] == N
    # the workload file gains a pin after the run
    body = yaml.safe_load((workloads / "syn-eval-v1.yaml").read_text())
    body["errata"] = _pin(root, "err-0002")
    (workloads / "syn-eval-v1.yaml").write_text(yaml.safe_dump(body, sort_keys=False))
    plain_rescore = _atlas("eval", "rescore", str(tmp_path / "old"), "--datasets", str(root), "--json")
    assert plain_rescore.returncode == 0, plain_rescore.stderr
    res = json.loads(plain_rescore.stdout)
    assert res["scores"]["total"] == N and res["errata"]["pinned"] == []  # the run's own workload pinned none
    applied = _atlas(
        "eval", "rescore", str(tmp_path / "old"), "--datasets", str(root), "--workloads", str(workloads), "--errata-from-workload"
    )
    assert applied.returncode == 0, applied.stderr
    assert "errata      err-0002 applied: 1 row(s) out of scoring (q-0001)" in applied.stdout
    assert "accuracy    68.97% (20/29)" in applied.stdout
    res = json.loads((tmp_path / "old" / "results.json").read_text())
    assert res["scores"]["excluded"] == [{"id": "q-0001", "erratum": "err-0002", "reason": "the key of q-0001 is ambiguous (test)"}]
    assert res["workload"]["errata"]["ids"] == ["err-0002"] and res["run"]["errata_from"].startswith("workload syn-eval-v1")
    # and a rescore of a run whose workload pinned errata applies them again
    run_eval(pinned, _engine(sim), tmp_path / "new", datasets_root=root)
    again = rescore_run(tmp_path / "new", root).results
    assert again.scores.total == N - 2 and again.errata.excluded_rows == ["q-0000", "q-0001"]


def test_compare_says_when_the_errata_differ_and_pairs_only_rows_both_scored(tmp_path, setup):
    root, pinned, plain, sim = setup
    run_eval(pinned, _engine(sim), tmp_path / "a", datasets_root=root)
    run_eval(plain, _engine(sim), tmp_path / "b", datasets_root=root)
    c = compare_runs(tmp_path / "a", tmp_path / "b")
    assert c.errata_differ and c.errata_a == ["err-0001", "err-0002"] and c.errata_b == []
    assert c.parameter_differences["errata"] == [["err-0001", "err-0002"], []]
    assert c.paired == N - 2 and c.excluded_rows == ["q-0000", "q-0001"] and c.accuracy_a == c.accuracy_b == 19 / 28
    same = compare_runs(tmp_path / "a", tmp_path / "a")
    assert not same.errata_differ and "errata" not in same.parameter_differences
    shown = _atlas("eval", "compare", str(tmp_path / "a"), str(tmp_path / "b"))
    assert shown.returncode == 0, shown.stderr
    assert "note: errata differs: A ['err-0001', 'err-0002']  B []" in shown.stdout
    assert "note: 2 row(s) under corpus errata not paired: q-0000, q-0001" in shown.stdout
    assert f"paired rows {N - 2}" in shown.stdout


def test_a_serve_workload_cannot_pin_errata(tmp_path, datasets_root):
    body = {
        "id": "w",
        "dataset": {"id": "d", "sha256": "0" * 64},
        "kind": "serve",
        "input_tokens": 3,
        "errata": {"ids": ["err-0001"], "sha256": "0" * 64},
    }
    with pytest.raises(ValueError, match="a serve workload is not scored, so it applies no errata"):
        Workload.model_validate(body)
    with pytest.raises(ValueError, match="is not an erratum id"):
        Workload.model_validate({**body, "kind": "eval", "scorer": "exact", "errata": {"ids": ["E1"], "sha256": "0" * 64}})


@pytest.mark.parametrize(
    "workload_id, rows, reviewed",
    [
        ("eval-security-v2", 255, {"sec2-0209"}),
        ("eval-commonsense-v2", 252, {"common2-0114", "common2-0124"}),
    ],
)
def test_the_real_v2_workloads_pin_the_review_errata(tmp_path, workload_id, rows, reviewed):
    workload = resolve_workload(workload_id)
    assert workload.errata is not None
    by_id = errata.load_errata(errata.errata_path(REPO / "datasets")).by_id()
    excluded = sorted(by_id[i].row for i in workload.errata.ids)
    assert reviewed <= set(excluded)
    engine = Engine(name="sim-test", kind="simulator", simulator={"name": "sim-test", "skill": {"easy": 1, "medium": 1, "hard": 1}})
    res = run_eval(workload, engine, tmp_path / "run").results
    s = res.scores
    assert [e.id for e in s.excluded] == excluded
    assert s.total == rows - len(excluded) and res.metrics.requests_total == rows
    assert res.errata.excluded_rows == excluded and res.errata.pin_sha256 == workload.errata.sha256


def test_every_real_errata_pin_resolves_and_every_erratum_is_applied():
    from atlas_assets.evals.workloads import load_workloads, verify_errata

    workloads = load_workloads()
    pinned = set()
    for workload in workloads.values():
        if workload.errata is not None:
            applied = verify_errata(workload)  # raises on a missing, foreign or edited entry
            assert {e.dataset for e in applied.entries} == {workload.dataset.id}
            pinned |= set(workload.errata.ids)
    listed = {e.id for e in errata.load_errata(errata.errata_path(REPO / "datasets")).errata}
    assert listed == pinned, "an erratum no workload applies: pin it in its dataset's workload"


def test_eval_list_flags_an_edited_pinned_erratum(tmp_path, setup):
    root, _, _, _ = setup
    listed = _atlas("eval", "list", "--workloads", str(tmp_path / "pinned"), "--datasets", str(root))
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "pinned + errata err-0001, err-0002" in listed.stdout
    body = json.loads((root / "errata.json").read_text())
    body["errata"][0]["reason"] = "edited after the workload pinned it"
    body["errata"].append(_erratum("err-0003", "q-0005"))
    (root / "errata.json").write_text(json.dumps(body))
    listed = _atlas("eval", "list", "--workloads", str(tmp_path / "pinned"), "--datasets", str(root))
    assert listed.returncode == 1
    assert "ERRATA PIN MISMATCH (workload syn-eval-v1: errata.sha256: pins" in listed.stdout
    assert "err-0003  syn-eval-v1 row q-0005" in listed.stdout
