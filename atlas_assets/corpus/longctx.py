"""Long-context rows: rebuild the haystack document, and catch a request sent without it.

eval-longctx-v1 rows carry the question as `prompt` and a haystack-v1 recipe in
`meta.haystack`. The harness must send `build_prompt(recipe, question=prompt)` -- PREAMBLE,
the rebuilt document, the question. Sending only the question is a harness bug that reads
as a catastrophic accuracy drop rather than an error, so it is detected here twice:

* before sending: `missing_document(row, messages)` / `assert_document_sent` check that the
  request's text contains the exact document (located by its first line, verified by sha256);
* after the run: `undersized_requests(rows, input_tokens)` flags rows whose engine-reported
  input token count is far below the document's size.

Standard library only; haystack-v1/build.py is loaded by path.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Mapping, Sequence

from atlas_assets.corpus.registry import DEFAULT_DATASETS_ROOT, load_path_module

FIRST_LINE_PREFIX = "Line 000001: "
# Engine token counts differ from chars/4 (Latin prose within about +-15 %); a request
# carrying less than half the document's heuristic size did not carry the document.
MIN_TOKEN_RATIO = 0.5


class MissingDocumentError(ValueError):
    """A long-context request that does not carry the row's haystack document."""


def haystack_builder(datasets_root: str | Path = DEFAULT_DATASETS_ROOT) -> ModuleType:
    """datasets/haystack-v1/build.py as a module (PREAMBLE, build, build_prompt, ...)."""
    return load_path_module(Path(datasets_root) / "haystack-v1" / "build.py", "_atlas_haystack_v1_build")


def recipe_of(row: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The haystack recipe a row needs: meta.haystack of an eval row, or a haystack-v1 row."""
    meta = row.get("meta")
    haystack = meta.get("haystack") if isinstance(meta, Mapping) else None
    if isinstance(haystack, Mapping):
        return haystack
    if row.get("algorithm") == "haystack-v1" and "needles" in row:
        return row
    return None


def requires_document(row: Mapping[str, Any]) -> bool:
    return recipe_of(row) is not None


def rebuild_document(row: Mapping[str, Any], datasets_root: str | Path = DEFAULT_DATASETS_ROOT) -> str:
    """The exact document of a row's recipe; raises if it does not match the recorded sha256."""
    recipe = recipe_of(row)
    if recipe is None:
        raise ValueError(f"row {row.get('id')!r} has no haystack recipe")
    built = haystack_builder(datasets_root).build(recipe)
    if built.sha256 != recipe["sha256"]:
        raise ValueError(
            f"row {row.get('id')!r}: rebuilt document sha256 {built.sha256} != recorded {recipe['sha256']}"
            " (haystack-v1/build.py or the recipe changed)"
        )
    document: str = built.document
    return document


def question_of(row: Mapping[str, Any]) -> str:
    if "question" in row and recipe_of(row) is row:
        question: str = row["question"]
        return question
    if "prompt" in row:
        prompt: str = row["prompt"]
        return prompt
    raise ValueError(f"row {row.get('id')!r} has neither prompt nor question")


def build_messages(row: Mapping[str, Any], datasets_root: str | Path = DEFAULT_DATASETS_ROOT) -> list[dict[str, str]]:
    """The chat messages a long-context row must be sent as: one user turn with
    PREAMBLE + "\\n\\n" + document + "\\n\\n" + question (haystack-v1 build_prompt)."""
    builder = haystack_builder(datasets_root)
    document = rebuild_document(row, datasets_root)
    content = builder.PREAMBLE + "\n\n" + document + "\n\n" + question_of(row)
    return [{"role": "user", "content": content}]


def _request_text(messages: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):  # OpenAI content parts
            parts.extend(p.get("text", "") for p in content if isinstance(p, Mapping))
    return "\n".join(parts)


def missing_document(row: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> str | None:
    """Why this request does not carry the row's document, or None when it does.

    Rows without a haystack recipe never need one (None). The check is exact: the text
    from the document's first line must hash to the recipe's sha256.
    """
    recipe = recipe_of(row)
    if recipe is None:
        return None
    row_id = row.get("id", "?")
    text = _request_text(messages)
    chars = int(recipe["chars"])
    if len(text) < chars:
        return (
            f"row {row_id}: the request carries {len(text)} characters but the haystack document "
            f"alone is {chars} ({recipe['approx_tokens']} approx tokens): the document was not sent "
            "-- send build_prompt(meta.haystack, question=prompt), not the bare prompt"
        )
    start = text.find(FIRST_LINE_PREFIX)
    if start < 0:
        return f"row {row_id}: the request has no line {FIRST_LINE_PREFIX.strip()!r}: the haystack document was not sent"
    segment = text[start : start + chars]
    if hashlib.sha256(segment.encode("utf-8")).hexdigest() != recipe["sha256"]:
        return (
            f"row {row_id}: the document in the request does not match sha256 {recipe['sha256']} "
            "(truncated, altered or built by a different haystack implementation)"
        )
    question = question_of(row)
    if question not in text[start + chars :]:
        return f"row {row_id}: the question does not follow the document"
    return None


def assert_document_sent(row: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> None:
    reason = missing_document(row, messages)
    if reason is not None:
        raise MissingDocumentError(reason)


def undersized_requests(
    rows: Iterable[Mapping[str, Any]],
    input_tokens: Mapping[str, int | None],
    min_ratio: float = MIN_TOKEN_RATIO,
) -> list[str]:
    """After a run: rows whose engine-reported input tokens are below `min_ratio` times the
    document's approx_tokens -- the signature of a prompt sent without its document."""
    problems = []
    for row in rows:
        recipe = recipe_of(row)
        if recipe is None:
            continue
        reported = input_tokens.get(row["id"])
        if reported is None:
            continue
        expected = int(recipe["approx_tokens"])
        if reported < min_ratio * expected:
            problems.append(
                f"row {row['id']}: engine reported {reported} input tokens for a "
                f"~{expected}-token haystack document; the document was not sent"
            )
    return problems
