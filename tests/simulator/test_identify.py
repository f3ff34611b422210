"""Recognising the corpus row behind a request, in every form the harness sends."""

from __future__ import annotations

import base64

from atlas_assets.corpus import longctx
from atlas_assets.corpus.registry import DEFAULT_DATASETS_ROOT, discover, read_rows
from atlas_assets.corpus.scorers import score
from atlas_assets.simulator.index import RequestView, corpus_index
from tests.helpers.simulator import chat, fixture_row, image_uri

PERFECT = {"easy": 1.0, "medium": 1.0, "hard": 1.0}


def rows_of(root, dataset_id):
    (spec,) = [s for s in discover(root) if s.id == dataset_id]
    return read_rows(spec)


def identify(root, messages, drop_images=False):
    entry = corpus_index(root).identify(RequestView.parse(messages, drop_images))
    return None if entry is None else entry.key


def test_every_row_of_the_real_corpus_is_recognised_by_its_prompt():
    index = corpus_index(DEFAULT_DATASETS_ROOT)
    checked = 0
    for spec in discover(DEFAULT_DATASETS_ROOT):
        if spec.kind not in ("eval", "prompts"):
            continue
        for row in read_rows(spec):
            if longctx.requires_document(row):
                continue
            messages = row.get("messages") or [{"role": "user", "content": row["prompt"]}]
            if row.get("image"):
                uri = "data:image/png;base64," + base64.b64encode((spec.folder / row["image"]).read_bytes()).decode()
                parts = [{"type": "text", "text": messages[-1]["content"]}, {"type": "image_url", "image_url": {"url": uri}}]
                messages = [*messages[:-1], {"role": "user", "content": parts}]
            if row.get("shared_prefix"):
                messages = [{"role": "system", "content": row["shared_prefix"]}, *messages]
            entry = index.identify(RequestView.parse(messages))
            assert entry is not None, (spec.id, row["id"])
            if (entry.dataset, entry.id) != (spec.id, row["id"]):  # only a truly identical request may differ
                assert entry.row.get("messages", entry.row.get("prompt")) == row.get("messages", row.get("prompt"))
            checked += 1
    assert checked > 400


def test_shared_prefix_rows_with_and_without_the_system_prefix(corpus_root):
    row = rows_of(corpus_root, "prompts-shared-prefix-v1")[3]
    assert row["shared_prefix"]
    with_prefix = [{"role": "system", "content": row["shared_prefix"]}, *row["messages"]]
    assert identify(corpus_root, with_prefix) == f"prompts-shared-prefix-v1/{row['id']}"
    assert identify(corpus_root, row["messages"]) == f"prompts-shared-prefix-v1/{row['id']}"


def test_content_part_lists_and_image_parts(corpus_root):
    _, row, _ = fixture_row("b-exact")
    parts = [{"role": "user", "content": [{"type": "text", "text": row["prompt"]}]}]
    assert identify(corpus_root, parts) == "sim-basic-v1/b-exact"
    _, vision, _ = fixture_row("v-dots-2")
    image_first = [{"type": "image_url", "image_url": {"url": image_uri(vision["image"])}}, {"type": "text", "text": vision["prompt"]}]
    view = RequestView.parse([{"role": "user", "content": image_first}])
    assert view.images == 1 and corpus_index(corpus_root).identify(view).id == "v-dots-2"
    dropped = RequestView.parse([{"role": "user", "content": image_first}], drop_images=True)
    assert dropped.images == 0 and corpus_index(corpus_root).identify(dropped).id == "v-dots-2"
    unknown_image = [{"type": "text", "text": vision["prompt"]}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}}]
    assert identify(corpus_root, [{"role": "user", "content": unknown_image}]) == "sim-vision-v1/v-dots"  # by text


def test_long_context_rows_are_recognised_with_their_rebuilt_document(serve, corpus_root):
    row = min(rows_of(corpus_root, "eval-longctx-v1"), key=lambda r: r["meta"]["haystack"]["chars"])
    messages = longctx.build_messages(row, corpus_root)
    assert identify(corpus_root, messages) == f"eval-longctx-v1/{row['id']}"
    sim = serve("sim-reader", skill=PERFECT)
    reply = chat(sim.base_url, {"model": "sim-reader", "messages": messages}).json()
    assert score(row, reply["choices"][0]["message"]["content"]).correct
    assert reply["usage"]["prompt_tokens"] == row["meta"]["sent_approx_tokens"]
    # The bare question (the classic harness bug) and an altered document are not recognised.
    assert identify(corpus_root, [{"role": "user", "content": row["prompt"]}]) is None
    altered = messages[0]["content"].replace("Line 000002: ", "Line 000002; ", 1)  # same length
    assert identify(corpus_root, [{"role": "user", "content": altered}]) is None
    bare = chat(sim.base_url, {"model": "sim-reader", "messages": [{"role": "user", "content": row["prompt"]}]}).json()
    assert not score(row, bare["choices"][0]["message"]["content"]).correct
    assert [entry.row_id for entry in sim.request_log()] == [row["id"], None]


def test_haystack_rows_are_recognised_from_build_prompt(corpus_root):
    row = rows_of(corpus_root, "haystack-v1")[0]
    prompt = longctx.haystack_builder(corpus_root).build_prompt(row)
    assert identify(corpus_root, [{"role": "user", "content": prompt}]) == f"haystack-v1/{row['id']}"


def test_rows_sharing_a_user_turn_are_told_apart_by_the_conversation(corpus_root):
    _, english, _ = fixture_row("b-system")
    _, french, _ = fixture_row("twin")
    assert english["messages"][-1] == french["messages"][-1]
    assert identify(corpus_root, english["messages"]) == "sim-basic-v1/b-system"
    assert identify(corpus_root, french["messages"]) == "sim-twin-v1/twin"
    # Neither conversation: the first dataset in id order.
    assert identify(corpus_root, english["messages"][-1:]) == "sim-basic-v1/b-system"


def test_unknown_prompts_and_requests_without_a_user_turn(corpus_root):
    assert identify(corpus_root, [{"role": "user", "content": "Something nobody wrote down."}]) is None
    assert identify(corpus_root, [{"role": "system", "content": "Only a system turn."}]) is None
