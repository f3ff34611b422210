"""splice: the long generation came back intact -- complete code with no spliced token
(an identifier or number welded from two fragments). Needs meta.context_identifiers, the
project's own names. Deliberately not a correctness check: wrong-but-intact code is clean."""

from __future__ import annotations

import random
from typing import Any, Iterator, Mapping

from atlas_assets.corpus.extract import EXTRACTIONS
from atlas_assets.corpus.scorers._base import ModelOutput, Problem, RowContext, Scorer, Verdict, register


@register
class SpliceIntegrity(Scorer):
    name = "splice"
    extraction = EXTRACTIONS["source"]
    fence_language = "javascript"
    max_tokens = 4096

    def check_row(self, row: Mapping[str, Any], context: RowContext) -> Iterator[Problem]:
        if row.get("answer") != "clean":
            yield Problem("answer", 'a splice answer is "clean"')
        if not isinstance((row.get("meta") or {}).get("context_identifiers"), list):
            yield Problem("meta.context_identifiers", "a splice row needs the project's identifier list")

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        from atlas_assets.corpus.splice import find_splices

        meta = row.get("meta") or {}
        if "context_identifiers" not in meta:
            raise ValueError(f"row {row.get('id')}: splice rows need meta.context_identifiers")
        found = find_splices(text, meta["context_identifiers"])
        if found:
            return Verdict(False, None, "; ".join(s.describe() for s in found[:3]))
        return Verdict(True, None)

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        meta = row.get("meta") or {}
        if "example_pass" not in meta:
            raise ValueError(f"row {row.get('id')}: a splice row needs meta.example_pass for a reference output")
        return ModelOutput(text=meta["example_pass"])

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        from atlas_assets.corpus.splice import inject_splice

        clean = self.reference(row).text or ""
        return ModelOutput(text=inject_splice(clean, row["meta"]["context_identifiers"], random.Random(seed)))
