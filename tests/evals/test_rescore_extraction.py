"""`atlas eval rescore` picks up a scorer change: stored replies whose answer sits on the
line after a bare "Answer:" were wrong under the old cross-line step 3 and are right now."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from atlas_assets.corpus import registry
from atlas_assets.evals.results import CHECKPOINT, RESULTS, read_checkpoint, write_checkpoint
from tests.helpers.evals import REPO

OLD_STEP_3 = re.compile(r"^\s*(?:final answer|answer)\s*[:\-]\s*(.+)$", re.I | re.M)  # what extract.py did before


def _atlas(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "atlas_assets.cli", *args], capture_output=True, text=True, cwd=REPO, timeout=120)


def test_rescore_reads_answer_lines_one_at_a_time(tmp_path):
    run = _atlas("eval", "run", "--workload", "eval-math-v1", "--engine", "sim-strong", "--limit", "8", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    spec = next(s for s in registry.discover() if s.id == "eval-math-v1")
    answers = {str(r["id"]): r["answer"] for r in registry.read_rows(spec)}
    records = [
        r.model_copy(
            update={
                "content": f"Let me see.\nAnswer:\nFinal answer: {answers[r.id]}",
                "score": r.score.model_copy(update={"correct": False}),
            }
        )
        for r in read_checkpoint(tmp_path / CHECKPOINT)[0]
    ]
    write_checkpoint(tmp_path / CHECKPOINT, records)
    # the old reading swallowed the next line: "Final answer: 42" is not the number 42
    assert all(OLD_STEP_3.findall(r.content)[-1].startswith("Final answer:") for r in records)
    rescored = _atlas("eval", "rescore", str(tmp_path), "--json")
    assert rescored.returncode == 0, rescored.stderr
    scores = json.loads((tmp_path / RESULTS).read_text())["scores"]
    assert scores["total"] == 8 and scores["correct"] == 8
