"""Translation runs: content versions, progress lines, run facts and the leaderboard,
against the simulator (started by the run on 127.0.0.1, a free port each run)."""

from __future__ import annotations

import json
import re
import threading

from atlas_assets.core.hashing import sha256_json
from atlas_assets.core.progress import ProgressLog
from atlas_assets.evals.engines import Engine
from atlas_assets.translation.card import CardFailure, RunCard
from atlas_assets.translation.leaderboard import leaderboard
from atlas_assets.translation.report import run_facts
from atlas_assets.translation.runs import CARD, card_content, run_translation
from tests.helpers.translation import EXAMPLE, STRONG, WEAK

from ..evals.test_report import _set

SEGMENTS = 23


def test_repeated_and_resumed_runs_keep_the_content_digest_and_change_the_bytes(tmp_path):
    full = run_translation(EXAMPLE, WEAK, tmp_path / "a")
    again = run_translation(EXAMPLE, WEAK, tmp_path / "a")
    stop = threading.Event()
    partial = run_translation(EXAMPLE, WEAK, tmp_path / "b", concurrency=1, stop=stop, on_record=lambda r: stop.set())
    resumed = run_translation(EXAMPLE, WEAK, tmp_path / "b")
    assert again.sent == 0 and resumed.resumed == partial.sent >= 1 and resumed.complete
    assert len({o.card.engine.base_url for o in (full, again, resumed)}) == 3
    assert full.content_sha256 == again.content_sha256 == resumed.content_sha256 != partial.content_sha256
    assert len({full.sha256, again.sha256, resumed.sha256}) == 3
    on_disk = json.loads((tmp_path / "a" / CARD).read_text())
    assert on_disk["content_sha256"] == sha256_json(card_content(RunCard.model_validate(on_disk))) == again.content_sha256


def test_the_card_content_follows_outputs_and_scores_not_run_facts(tmp_path):
    card = run_translation(EXAMPLE, WEAK, tmp_path / "a").card
    digest = sha256_json(card_content(card))
    facts = card
    for field, value in (
        ("created_at", "1999-01-01T00:00:00Z"),
        ("engine.base_url", "http://127.0.0.1:1/v1"),
        ("dataset.path", "/elsewhere/corpus.json"),
        ("run.sent", 0),
        ("run.resumed", 23),
        ("run.concurrency", 1),
    ):
        facts = _set(facts, field, value)
    assert sha256_json(card_content(facts)) == digest
    output = _set(card, "outputs", [_set(card.outputs[0], "output", card.outputs[0].output + " !"), *card.outputs[1:]])
    score = _set(card, "scores", {**card.scores, "bleu": _set(card.scores["bleu"], "score", card.scores["bleu"].score + 0.01)})
    failed = _set(card, "failures", [CardFailure(segment=1, error="HTTP 503: port 4242", error_kind="http_5xx")])
    moved = _set(failed, "failures", [_set(failed.failures[0], "error", "HTTP 503: port 5353")])
    digests = [sha256_json(card_content(c)) for c in (output, score, failed, moved)]
    assert len({digest, *digests[:3]}) == 4 and digests[2] == digests[3]


_LINE = re.compile(
    r"^example-en-fr-v1 on sim-poor: (?P<done>\d+)/23 segments \((?P<failed>\d+) failed, (?P<resumed>\d+) resumed\)"
    r"(?: · chrF\+\+(?P<sofar> so far)? (?P<chrf>\d+\.\d))?(?: · \d+\.\d segments/s)?(?: · ETA \S+ s| · done in \d+ s)?$"
)


def test_progress_lines_say_segments_and_chrf_so_far(tmp_path):
    lines: list[str] = []
    outcome = run_translation(EXAMPLE, WEAK, tmp_path / "a", progress_log=ProgressLog(lines.append, 0))
    parsed = [_LINE.match(line) for line in lines]
    assert all(parsed), [line for line, m in zip(lines, parsed) if not m]
    assert lines[0] == "example-en-fr-v1 on sim-poor: 0/23 segments (0 failed, 0 resumed)"
    assert len(lines) == SEGMENTS + 2
    assert [int(m["done"]) for m in parsed[1:-1]] == list(range(1, SEGMENTS + 1))
    assert all(m["sofar"] and " · ETA " in line for m, line in zip(parsed[1:-1], lines[1:-1]))
    final_score = f"{outcome.card.scores['chrf++'].score:.1f}"
    assert parsed[-2]["chrf"] == parsed[-1]["chrf"] == final_score  # all segments in: so far == the card's
    assert not parsed[-1]["sofar"] and " · done in " in lines[-1]

    resumed: list[str] = []
    run_translation(EXAMPLE, WEAK, tmp_path / "a", progress_log=ProgressLog(resumed.append, 3600))
    assert len(resumed) == 2
    assert resumed[0] == f"example-en-fr-v1 on sim-poor: 23/23 segments (0 failed, 23 resumed) · chrF++ so far {final_score}"
    assert re.fullmatch(
        rf"example-en-fr-v1 on sim-poor: 23/23 segments \(0 failed, 23 resumed\) · chrF\+\+ "
        rf"{re.escape(final_score)} · done in \d+ s",
        resumed[1],
    ), resumed[1]  # nothing sent: seconds at most


def test_run_facts_lead_with_the_scores_and_their_signatures(tmp_path):
    flaky = Engine(
        name="sim-flaky-t", kind="simulator", concurrency=4, max_retries=0, simulator={"preset": "sim-zero-latency", "error_5xx": 0.3}
    )
    outcome = run_translation(EXAMPLE, flaky, tmp_path / "a")
    facts = run_facts(outcome.card)
    keys = [f.key for f in facts]
    values = {f.key: f.value for f in facts}
    scores = outcome.card.scores
    assert keys[:6] == ["chrf++", "chrf", "bleu", "chrf++_signature", "chrf_signature", "bleu_signature"]
    assert [values[k] for k in ("chrf++", "chrf", "bleu")] == [scores[k].score for k in ("chrf++", "chrf", "bleu")]
    assert values["bleu_signature"] == scores["bleu"].signature and "tok:13a" in values["bleu_signature"]
    assert "| difficulty | 1 |" in values["scores_by_group"] and "| register |" in values["scores_by_group"]
    run = outcome.card.run
    assert (values["segments_sent"], values["segments_resumed"], values["segments_failed"]) == (outcome.sent, 0, run.failed)
    assert run.failed > 0
    counts = [int(line.split(" | ")[1]) for line in values["failures_by_reason"].splitlines()[2:]]
    assert sum(counts) == run.failed and "| http_5xx (HTTP 50" in values["failures_by_reason"]
    assert keys[-1] == "content_sha256" and values["content_sha256"] == outcome.content_sha256


def test_the_leaderboard_ranks_by_chrfpp_and_shows_every_signature(tmp_path):
    strong = run_translation(EXAMPLE, STRONG, tmp_path / "s").card
    weak = run_translation(EXAMPLE, WEAK, tmp_path / "w").card
    partial = run_translation(
        EXAMPLE, Engine(name="sim-part", kind="simulator", simulator={"preset": "sim-zero-latency"}), tmp_path / "p", limit=3
    ).card
    board = leaderboard([weak, partial, strong])
    rows = board.payload["example-en-fr-v1"]
    ranked = sorted([strong, weak, partial], key=lambda c: -c.scores["chrf++"].score)
    assert [r["engine"] for r in rows] == [c.engine.name for c in ranked] and [r["rank"] for r in rows] == [1, 2, 3]
    assert rows[0]["scores"]["bleu"]["signature"] == strong.scores["bleu"].signature
    md = board.markdown
    assert md.startswith("### example-en-fr-v1\n\n| # | engine | model | chrF++ | chrF | BLEU | segments | corpus |")
    assert f"| 1 | sim-good | sim-good | {strong.scores['chrf++'].score:.2f} |" in md
    assert "| 3/23 |" in md and "| 23/23 |" in md
    for key, name in (("chrf++", "chrF++"), ("chrf", "chrF"), ("bleu", "BLEU")):
        assert f"- {name}: `{strong.scores[key].signature}`" in md
    assert board.runs == 3

    rerun = _set(_set(strong, "created_at", "2000-01-01T00:00:00Z"), "engine.base_url", "http://127.0.0.1:9/v1")
    assert leaderboard([rerun, weak, partial]).sha256 == board.sha256  # run facts are not in the payload
    better = _set(weak, "scores", {**weak.scores, "chrf++": _set(weak.scores["chrf++"], "score", 100.5)})
    assert leaderboard([strong, better, partial]).payload["example-en-fr-v1"][0]["engine"] == "sim-poor"

    bleu = weak.scores["bleu"]
    other_tok = _set(weak, "scores", {**weak.scores, "bleu": _set(bleu, "signature", bleu.signature.replace("tok:13a", "tok:intl"))})
    differ = leaderboard([strong, other_tok]).markdown
    assert "- BLEU: **signatures differ, these scores are not comparable**" in differ
    assert "tok:intl" in differ and f"`{strong.scores['bleu'].signature}`: sim-good" in differ

    empty = _set(_set(_set(partial, "scores", {}), "engine.name", "sim-none"), "complete", False)
    with_empty = leaderboard([empty, strong])
    last = with_empty.payload["example-en-fr-v1"][-1]
    assert (last["engine"], last["rank"]) == ("sim-none", None)
    assert "| — | sim-none | sim-part | — | — | — | 3/23 (incomplete) |" in with_empty.markdown
    assert leaderboard([]).markdown == "no run cards yet"
