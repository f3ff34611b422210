"""What the simulator answers, judged by the corpus's own scorers."""

from __future__ import annotations

import pytest

from atlas_assets.corpus.registry import discover, read_rows
from atlas_assets.corpus.scorers import score
from tests.helpers.simulator import body_for, chat, eval_rows, fixture_row, messages_for

PERFECT = {"easy": 1.0, "medium": 1.0, "hard": 1.0}
HOPELESS = {"easy": 0.0, "medium": 0.0, "hard": 0.0}


def synthetic_rows() -> list[tuple[dict, str]]:
    return [(row, default) for dataset_id, (default, rows) in eval_rows().items() for row in rows if dataset_id != "sim-twin-v1"]


def instruction_rows(root, count: int = 40) -> list[tuple[dict, str]]:
    (spec,) = [s for s in discover(root) if s.id == "eval-instruction-v1"]
    return [(row, "instruction") for row in read_rows(spec)[:count]]


def ask(sim, row: dict, **extra) -> dict:
    response = chat(sim.base_url, body_for(sim.profile.model, row, **extra))
    assert response.status == 200, response.body
    return response.json()["choices"][0]


def scored(row: dict, default: str, choice: dict):
    message = choice["message"]
    return score(row, {"content": message.get("content"), "tool_calls": message.get("tool_calls") or []}, default)


@pytest.mark.parametrize("reasoning_content", [False, True])
def test_perfect_skill_scores_correct_through_every_wrapper(serve, corpus_root, reasoning_content):
    sim = serve("sim-wrapped", skill=PERFECT, think_rate=1, reasoning_content=reasoning_content, final_answer_rate=1, fence_rate=1)
    for row, default in synthetic_rows() + instruction_rows(corpus_root):
        choice = ask(sim, row)
        verdict = scored(row, default, choice)
        assert verdict.correct, (row["id"], choice, verdict)
        content = choice["message"].get("content") or ""
        if reasoning_content:
            assert "<think>" not in content and choice["message"]["reasoning_content"]
        elif verdict.scorer != "instruction":
            assert content.startswith("<think>\n")


def test_wrappers_show_up_where_extraction_removes_them(serve):
    sim = serve("sim-wrapped", skill=PERFECT, final_answer_rate=1, fence_rate=1)
    assert ask(sim, fixture_row("b-numeric")[1])["message"]["content"].startswith("```\n")
    assert "\nFinal answer: 391\n```" in ask(sim, fixture_row("b-numeric")[1])["message"]["content"]
    assert ask(sim, fixture_row("c-add")[1])["message"]["content"].startswith("```python\n")


def test_zero_skill_scores_wrong(serve):
    sim = serve("sim-hopeless", skill=HOPELESS)
    for row, default in synthetic_rows():
        assert not scored(row, default, ask(sim, row)).correct, row["id"]


def test_malformed_output_is_a_wrong_answer_not_a_failure(serve, corpus_root):
    for reasoning_content in (False, True):
        sim = serve("sim-malformed", skill=PERFECT, malformed_rate=1, reasoning_content=reasoning_content)
        for row, default in synthetic_rows() + instruction_rows(corpus_root, 300):
            choice = ask(sim, row)
            verdict = scored(row, default, choice)
            # every scorer, splice included: a generation cut off in its reasoning is empty
            assert not verdict.correct and not verdict.failed, (row["id"], choice)
        assert {entry.outcome for entry in sim.request_log()} == {"ok"}


def test_skill_follows_difficulty(serve, corpus_root):
    sim = serve("sim-half", skill={"easy": 1.0, "medium": 0.5, "hard": 0.0})
    rows = instruction_rows(corpus_root, 300)
    by_difficulty: dict[str, list[bool]] = {}
    for row, default in rows:
        by_difficulty.setdefault(row["difficulty"], []).append(scored(row, default, ask(sim, row)).correct)
    assert all(by_difficulty["easy"]) and not any(by_difficulty["hard"])
    medium = sum(by_difficulty["medium"]) / len(by_difficulty["medium"])
    assert 0.35 < medium < 0.65


def test_vision_rows_need_the_image(serve):
    sim = serve("sim-eyes", skill=PERFECT)
    for row_id in ("v-dots", "v-dots-2"):  # one question, two images
        _, row, default = fixture_row(row_id)
        with_image = chat(sim.base_url, body_for("sim-eyes", row)).json()
        assert scored(row, default, with_image["choices"][0]).correct
    blind = chat(sim.base_url, {**body_for("sim-eyes", row), "messages": messages_for(row, with_image=False)}).json()
    assert not scored(row, default, blind["choices"][0]).correct
    assert with_image["usage"]["prompt_tokens"] == blind["usage"]["prompt_tokens"] + 256
    assert [entry.row_id for entry in sim.request_log()] == ["v-dots", "v-dots-2", "v-dots"]  # no image: the first by text


def test_a_text_only_profile_drops_image_parts(serve):
    _, row, default = fixture_row("v-dots-2")
    sim = serve("sim-no-eyes", skill=PERFECT, text_only=True)
    data = chat(sim.base_url, body_for("sim-no-eyes", row)).json()
    assert not scored(row, default, data["choices"][0]).correct
    assert data["usage"]["prompt_tokens"] == -(-len(row["prompt"]) // 4)  # no image tokens
    assert sim.request_log()[-1].row_id == "v-dots-2"  # recognised by its image, answered blind
