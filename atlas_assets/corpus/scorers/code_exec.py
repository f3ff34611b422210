"""code_exec: the program extracted from the reply, judged against the row's ``tests`` by
the sandbox (sandbox.py): passed only when every test ran without failing. The verdict
records the sandbox mode it was reached in."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from atlas_assets.corpus.extract import EXTRACTIONS
from atlas_assets.corpus.scorers._base import ModelOutput, Problem, RowContext, Scorer, Verdict, register


@register
class CodeExec(Scorer):
    name = "code_exec"
    extraction = EXTRACTIONS["code"]
    fence_language = "python"
    max_tokens = 2048
    row_fields = frozenset({"tests"})
    runs_code = True

    def check_row(self, row: Mapping[str, Any], context: RowContext) -> Iterator[Problem]:
        if not isinstance(row.get("tests"), str) or not row["tests"].strip():
            yield Problem("tests", "a code_exec row needs its tests")

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        from atlas_assets.corpus.sandbox import SandboxLimits, run_python

        limits = (row.get("meta") or {}).get("limits")
        result = run_python(text, row["tests"], SandboxLimits(**limits) if limits else None)
        if result.passed:
            return Verdict(True, None, sandbox=result.mode)
        if result.timed_out:
            why = "wall-time limit"
        elif result.error:
            why = result.error
        else:
            tail = result.stderr.strip().splitlines()[-1:] or [f"exit code {result.exit_code}"]
            why = tail[0][:300]
        return Verdict(False, None, why, sandbox=result.mode)

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        meta = row.get("meta") or {}
        if "example_pass" in meta:
            return ModelOutput(text=meta["example_pass"])
        if isinstance(row.get("answer"), str):
            return ModelOutput(text=row["answer"])
        raise ValueError(f"row {row.get('id')}: a code_exec row needs meta.example_pass or a source answer")

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        return ModelOutput(text="raise SystemExit('perturbed: no solution')\n")
