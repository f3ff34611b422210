"""exact: the extracted text equals the answer (or one of a list of accepted spellings)
after NFKC, case folding and whitespace collapsing."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from atlas_assets.corpus.extract import EXTRACTIONS
from atlas_assets.corpus.parsing import normalize_text
from atlas_assets.corpus.scorers._base import ModelOutput, Problem, RowContext, Scorer, Verdict, accepted_answers, register


@register
class Exact(Scorer):
    name = "exact"
    extraction = EXTRACTIONS["answer"]
    answer_line = True

    def check_row(self, row: Mapping[str, Any], context: RowContext) -> Iterator[Problem]:
        answer = row.get("answer")
        accepted = answer if isinstance(answer, list) and answer else [answer]
        if not all(isinstance(a, str) and a.strip() for a in accepted):
            yield Problem("answer", f"a {self.name} answer must be a non-empty string or a non-empty list of them")

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        target = {normalize_text(a) for a in accepted_answers(row["answer"])}
        return Verdict(normalize_text(text) in target, text)

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        return ModelOutput(text=str(accepted_answers(row["answer"])[0]))

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        return ModelOutput(text=f"{accepted_answers(row['answer'])[0]} (not quite)")
