"""contains: the answer (or any of a list of answers) occurs in the extracted text, any
case; an answer starting/ending with a letter or digit must not touch another one."""

from __future__ import annotations

import re
from typing import Any, Mapping

from atlas_assets.corpus.parsing import normalize_text
from atlas_assets.corpus.scorers._base import ModelOutput, Verdict, accepted_answers, register
from atlas_assets.corpus.scorers.exact import Exact

_EDGE = re.compile(r"[0-9a-z]")


def contains_on_edges(haystack: str, needle: str) -> bool:
    if not needle:
        return False
    start = 0
    while True:
        i = haystack.find(needle, start)
        if i < 0:
            return False
        before = haystack[i - 1] if i else ""
        after = haystack[i + len(needle)] if i + len(needle) < len(haystack) else ""
        ok_before = not (_EDGE.match(needle[0]) and before and _EDGE.match(before))
        ok_after = not (_EDGE.match(needle[-1]) and after and _EDGE.match(after))
        if ok_before and ok_after:
            return True
        start = i + 1


@register
class Contains(Exact):
    """Shares exact's answer shape and reference; differs in the match and the wrong reply."""

    name = "contains"

    def judge(self, row: Mapping[str, Any], out: ModelOutput, text: str) -> Verdict:
        hay = normalize_text(text)
        return Verdict(any(contains_on_edges(hay, normalize_text(a)) for a in accepted_answers(row["answer"])), text)

    def perturb(self, row: Mapping[str, Any], seed: int = 0) -> ModelOutput:
        return ModelOutput(text="I do not know.")
