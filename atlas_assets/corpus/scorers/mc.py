"""mc: the label parsed from the extracted text (parsing.parse_choice) equals the answer,
a letter naming one of the row's choices."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from atlas_assets.corpus.extract import EXTRACTIONS
from atlas_assets.corpus.parsing import choice_labels, parse_choice
from atlas_assets.corpus.scorers._base import ModelOutput, Problem, RowContext, Scorer, Verdict, register


@register
class MultipleChoice(Scorer):
    name = "mc"
    extraction = EXTRACTIONS["answer"]
    answer_line = True
    row_fields = frozenset({"choices"})

    def check_row(self, row: Mapping[str, Any], context: RowContext) -> Iterator[Problem]:
        choices = row.get("choices")
        if not isinstance(choices, list) or len(choices) < 2 or not all(isinstance(c, str) and c.strip() for c in choices):
            yield Problem("choices", "an mc row needs a list of at least two non-empty strings")
            return
        if len(set(choices)) != len(choices):
            yield Problem("choices", "choices repeat")
        labels = [chr(ord("A") + i) for i in range(len(choices))]
        if row.get("answer") not in labels:
            yield Problem("answer", f"{row.get('answer')!r} is not a choice label ({', '.join(labels)})")

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        label = parse_choice(text, row["choices"])
        if label is None:
            return Verdict(False, text, "no choice label")
        return Verdict(label == str(row["answer"]).strip().upper(), text, f"picked {label}")

    def reference(self, row: Mapping[str, Any]) -> ModelOutput:
        return ModelOutput(text=str(row["answer"]))

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        labels = choice_labels(len(row["choices"]))
        return ModelOutput(text=labels[(labels.index(str(row["answer"]).strip().upper()) + 1) % len(labels)])
