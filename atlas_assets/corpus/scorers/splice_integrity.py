"""splice: the long generation came back intact -- a module with no spliced token (an
identifier or number welded from two fragments). Needs meta.context_identifiers, the
project's own names. An empty reply, a prose-only reply (a refusal) or a near-empty one is
incorrect with its reason (`splice.detection.judge_generation`): the item asks for a
150-290-line module, and an engine that returns nothing must not score 100 %. Otherwise
deliberately not a correctness check: wrong-but-intact code is clean."""

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
        from atlas_assets.corpus.splice.detection import judge_generation

        meta = row.get("meta") or {}
        if "context_identifiers" not in meta:
            raise ValueError(f"row {row.get('id')}: splice rows need meta.context_identifiers")
        intact, why = judge_generation(text, meta["context_identifiers"], meta)
        return Verdict(intact, None, why)

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        meta = row.get("meta") or {}
        if "example_pass" not in meta:
            raise ValueError(f"row {row.get('id')}: a splice row needs meta.example_pass for a reference output")
        return ModelOutput(text=meta["example_pass"])

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        from atlas_assets.corpus.splice import inject_splice

        clean = self.reference(row).text or ""
        return ModelOutput(text=inject_splice(clean, row["meta"]["context_identifiers"], random.Random(seed)))
