"""instruction: every rule of the row's answer passes against the raw reply, judged by
datasets/eval-instruction-v1/rules.py ``evaluate(answer, text)`` -- the one normative
implementation, loaded by path."""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator, Mapping

from atlas_assets.corpus.extract import EXTRACTIONS
from atlas_assets.corpus.scorers._base import ModelOutput, Problem, RowContext, Scorer, Verdict, register

RULES_PATH = Path(__file__).resolve().parents[3] / "datasets" / "eval-instruction-v1" / "rules.py"
_RULES: ModuleType | None = None
_RULES_LOCK = threading.Lock()


def load_rules(path: str | Path | None = None) -> ModuleType:
    """datasets/eval-instruction-v1/rules.py, imported by path (the single implementation)."""
    global _RULES
    if _RULES is not None and path is None:
        return _RULES
    target = Path(path) if path is not None else RULES_PATH
    with _RULES_LOCK:
        if _RULES is not None and path is None:
            return _RULES
        if not target.is_file():
            raise FileNotFoundError(f"the instruction rules are missing: {target}")
        spec = importlib.util.spec_from_file_location("atlas_instruction_rules", target)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if path is None:
            _RULES = module
        return module


@register
class Instruction(Scorer):
    name = "instruction"
    extraction = EXTRACTIONS["raw"]
    max_tokens = 1536
    needs_rules = True

    def check_row(self, row: Mapping[str, Any], context: RowContext) -> Iterator[Problem]:
        answer = row.get("answer")
        if not isinstance(answer, dict) or not isinstance(answer.get("all"), list) or not answer["all"]:
            yield Problem("answer", 'an instruction answer must be {"all": [rule, ...]}')
        example = (row.get("meta") or {}).get("example_pass")
        if not isinstance(example, str):
            yield Problem("meta.example_pass", "an instruction row needs a verified compliant example")
        elif context.rules is not None and isinstance(answer, dict):
            try:
                passed, failed = context.rules.evaluate(answer, example)
            except Exception as error:  # noqa: BLE001 - report any rules crash against the row
                yield Problem("meta.example_pass", f"rules.evaluate raised {type(error).__name__}: {error}")
            else:
                if not passed:
                    yield Problem("meta.example_pass", f"fails its own rules: {failed}")

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        ok, failed = load_rules().evaluate(row["answer"], text)
        detail = None if ok else "failed: " + ", ".join(str(r.get("rule", r)) for r in failed)
        return Verdict(ok, None, detail)

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        return ModelOutput(text=row["meta"]["example_pass"])

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        return ModelOutput(text="")
