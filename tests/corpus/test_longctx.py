"""eval-longctx-v1: the prompt is the question only; a request without the document is caught."""

from __future__ import annotations

import copy

import pytest

from atlas_assets.corpus import longctx
from tests.helpers.corpus import ROOT, read_rows

ROWS = read_rows(ROOT / "eval-longctx-v1")
SMALL = next(r for r in ROWS if r["meta"]["haystack"]["target_tokens"] == 4096)


def test_rows_carry_a_recipe_and_a_bare_question():
    for row in ROWS:
        recipe = row["meta"]["haystack"]
        assert recipe["algorithm"] == "haystack-v1"
        assert len(row["prompt"]) < 300 and "Line 000001" not in row["prompt"]
        assert row["answer"] in [n["answer"] for n in recipe["needles"]]
    assert {r["category"] for r in ROWS} == {"single-needle", "multi-needle"}
    assert {r["difficulty"] for r in ROWS} == {"easy", "medium", "hard"}


def test_the_rebuilt_request_carries_the_document():
    messages = longctx.build_messages(SMALL)
    assert longctx.missing_document(SMALL, messages) is None
    longctx.assert_document_sent(SMALL, messages)
    content = messages[0]["content"]
    builder = longctx.haystack_builder()
    assert content == builder.build_prompt(SMALL["meta"]["haystack"], question=SMALL["prompt"])


def test_sending_the_question_alone_is_detected():
    bare = [{"role": "user", "content": SMALL["prompt"]}]
    reason = longctx.missing_document(SMALL, bare)
    assert reason and "was not sent" in reason and SMALL["id"] in reason
    with pytest.raises(longctx.MissingDocumentError, match="not sent"):
        longctx.assert_document_sent(SMALL, bare)


def test_a_padded_request_without_the_document_is_detected():
    # long enough to pass a length test, but no haystack in it
    padded = [{"role": "system", "content": "You are helpful. " * 2000}, {"role": "user", "content": SMALL["prompt"]}]
    assert "was not sent" in longctx.missing_document(SMALL, padded)


def test_truncated_or_altered_documents_are_detected():
    content = longctx.build_messages(SMALL)[0]["content"]
    start = content.index("Line 000001: ")
    truncated = content[: start + 2000] + content[-len(SMALL["prompt"]) - 2 :]
    assert longctx.missing_document(SMALL, [{"role": "user", "content": truncated}]) is not None
    altered = content.replace("Line 000002: ", "Line 000002:  ", 1)
    assert "does not match sha256" in longctx.missing_document(SMALL, [{"role": "user", "content": altered}])
    without_question = content[: -len(SMALL["prompt"])]
    assert "question" in longctx.missing_document(SMALL, [{"role": "user", "content": without_question + "x" * 200}])


def test_rows_without_a_recipe_need_no_document():
    row = {"id": "x", "prompt": "What is 2+2?", "answer": "4", "category": "c", "difficulty": "easy"}
    assert longctx.missing_document(row, [{"role": "user", "content": "What is 2+2?"}]) is None


def test_undersized_requests_after_a_run():
    reported = {r["id"]: r["meta"]["haystack"]["approx_tokens"] for r in ROWS}
    assert longctx.undersized_requests(ROWS, reported) == []
    reported[SMALL["id"]] = 40  # the engine saw only the question
    problems = longctx.undersized_requests(ROWS, reported)
    assert len(problems) == 1 and SMALL["id"] in problems[0]


def test_rebuild_refuses_a_recipe_that_no_longer_matches():
    row = copy.deepcopy(SMALL)
    row["meta"]["haystack"]["seed"] += 1
    with pytest.raises(ValueError, match="sha256"):
        longctx.rebuild_document(row)
