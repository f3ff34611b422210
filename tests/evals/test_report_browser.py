"""The per-run report.html in a real browser: headless Chromium driven over the DevTools
protocol (tests/browser.py), opening the files real runs wrote.

Two runs of one 12-row eval dataset against a loopback engine (tests/evals/hostile.py)
whose answers are chosen per row: right, wrong, an HTTP 400 (a failed request) and a
hostile output (a script tag, an img with onerror, a table-closing fragment); the second
run answers the failed and hostile rows right, so `--vs` lists exactly those 6 rows. One
run of eval-math-v1 on the reference simulator (sim-weak) is the realistic page. Chromium
missing is a failure that says how to install it, never a skip.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

import orjson
import pytest

from atlas_assets.evals import samples
from atlas_assets.evals.engines import Engine, resolve_engine
from atlas_assets.evals.results import CHECKPOINT, RESULTS
from atlas_assets.evals.runner import run_eval
from atlas_assets.evals.workloads import load_workload, resolve_workload
from tests.helpers.evals import write_dataset, write_workload

from ..browser import INSTALL_HINT, Chromium, Page, find_chromium
from .hostile import MODELS, HostileServer, chunk, http, sse

ROWS = 12
HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1"></td></tr></table>'
VERDICTS = ("right", "wrong", "failed")


def _rows(n: int) -> list[dict[str, Any]]:
    return [
        {
            "id": f"q-{i:04d}",
            "category": "alpha",
            "difficulty": "easy",
            "prompt": f"What is {i} plus {i + 1}? Reply with the number only.",
            "answer": str(2 * i + 1),
            "scorer": "numeric",
        }
        for i in range(n)
    ]


def _planned(i: int, second: bool) -> str:
    """Row i's answer: 0 right, 1 wrong, 2 a failed request, 3 the hostile output (wrong);
    the second run answers the failed and hostile rows right."""
    kind = ("right", "wrong", "failed", "hostile")[i % 4]
    return "right" if second and kind in ("failed", "hostile") else kind


def _engine_answering(second: bool):
    async def respond(request, writer) -> bool:
        if request.path.endswith("/models"):
            writer.write(http(200, MODELS))
            return False
        prompt = orjson.loads(request.body)["messages"][-1]["content"]
        i = int(prompt.split("What is ")[1].split(" ")[0])
        kind = _planned(i, second)
        if kind == "failed":
            writer.write(http(400, b'{"error": {"message": "bad request (planned by the test)"}}'))
            return False
        text = {"right": str(2 * i + 1), "wrong": str(2 * i + 2), "hostile": HOSTILE}[kind]
        usage = {"choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 3}}
        writer.write(http(200, sse(chunk(text), chunk(finish="stop"), usage), "text/event-stream"))
        return False

    return respond


@dataclass(frozen=True)
class Runs:
    datasets_root: Path
    first: Path  # the loopback run with all three verdicts and the hostile rows
    second: Path  # the same rows, failed and hostile ones answered right
    simulator: Path  # eval-math-v1 on sim-weak


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Runs:
    base = tmp_path_factory.mktemp("browser-runs")
    root = base / "datasets"
    write_dataset(root, "syn-browser-v1", "eval", _rows(ROWS), default_scorer="numeric")
    workload = load_workload(
        write_workload(
            base / "workloads", root, "syn-browser-v1", scorer="numeric", concurrency=4, request={"max_tokens": 32, "stream": True}
        )
    )
    for name, second in (("first", False), ("second", True)):
        with HostileServer(_engine_answering(second)) as server:
            engine = resolve_engine(server.base_url, model="m").model_copy(update={"max_retries": 0, "concurrency": 4})
            outcome = run_eval(workload, engine, base / name, datasets_root=root)
        assert outcome.complete and len(outcome.records) == ROWS
    run_eval(
        resolve_workload("eval-math-v1"),
        Engine(name="weak", kind="simulator", simulator={"preset": "sim-weak"}),
        base / "simulator",
        limit=20,
    )
    return Runs(root, base / "first", base / "second", base / "simulator")


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    if find_chromium() is None:
        pytest.fail(f"Chromium is needed for the report.html browser tests and is not installed: {INSTALL_HINT}", pytrace=False)
    browser = Chromium.start(tmp_path_factory.mktemp("chromium") / "profile")
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def page(chromium):
    tab = chromium.new_page()
    try:
        yield tab
    finally:
        tab.close()


def _counts(run_dir: Path) -> dict[str, int]:
    """right/wrong/failed as results.json counts them."""
    scores = orjson.loads((run_dir / RESULTS).read_bytes())["scores"]
    return {
        "right": scores["correct"],
        "failed": scores["failed"],
        "wrong": scores["total"] - scores["correct"] - scores["failed"],
        "all": scores["total"],
    }


def _records(run_dir: Path) -> dict[str, dict[str, Any]]:
    """The run's checkpoint lines as written (the last line of a row wins)."""
    lines = (run_dir / CHECKPOINT).read_bytes().splitlines()
    return {str(r["id"]): r for r in map(orjson.loads, filter(None, lines))}


def _open_clean(page: Page, path: Path) -> None:
    """Load a report page and check it raised nothing and fetched nothing but itself."""
    url = path.resolve().as_uri()
    page.navigate(url)
    assert page.problems() == [], f"{path}: JavaScript exceptions or console errors: {page.problems()}"
    assert page.requests() == [url], f"{path}: the page is not self-contained, it requested {page.requests()}"


VISIBLE_ROWS = (
    "Array.from(document.querySelectorAll('tbody tr.s')).filter(function(r){return r.getClientRects().length>0})"
    ".map(function(r){return [r.cells[0].textContent, r.cells[1].textContent]})"
)


# --------------------------------------------------------------------------- the page


@pytest.mark.parametrize("which", ["first", "simulator"])
def test_the_page_loads_without_errors_and_fetches_nothing_but_itself(page, runs, which):
    run_dir = getattr(runs, which)
    _open_clean(page, run_dir / samples.REPORT)
    counts = _counts(run_dir)
    summary = page.evaluate("document.querySelector('body > p').textContent")
    assert f"{counts['right']} right · {counts['wrong']} wrong · {counts['failed']} failed" in summary
    assert page.evaluate("document.querySelectorAll('tbody tr.s').length") == counts["all"]
    assert page.evaluate("document.querySelectorAll('details').length") == counts["all"]


@pytest.mark.parametrize("which", ["first", "simulator"])
def test_each_filter_button_shows_exactly_the_rows_of_its_verdict(page, runs, which):
    run_dir = getattr(runs, which)
    _open_clean(page, run_dir / samples.REPORT)
    counts = _counts(run_dir)
    if which == "first":
        assert all(counts[v] > 0 for v in VERDICTS), counts  # the loopback run has every verdict
    buttons = page.evaluate("Array.from(document.querySelectorAll('.bar button')).map(function(b){return b.textContent})")
    assert buttons == ["all", *VERDICTS]
    for verdict in ("all", *VERDICTS, "all"):
        page.click(f".bar button:nth-of-type({buttons.index(verdict) + 1})")
        shown = page.evaluate(VISIBLE_ROWS)
        assert len(shown) == counts[verdict], f"filter {verdict!r}: {len(shown)} rows visible, results.json counts {counts[verdict]}"
        if verdict != "all":
            assert {v for _, v in shown} <= {verdict}, f"filter {verdict!r} shows {shown}"
        assert page.evaluate("document.getElementById('shown').textContent") == verdict
    assert page.problems() == []


def test_a_rows_details_open_on_click(page, runs):
    records = _records(runs.first)
    wrong = next(i for i in range(ROWS) if _planned(i, False) == "wrong")
    row_id = f"q-{wrong:04d}"
    _open_clean(page, runs.first / samples.REPORT)
    details = f"document.getElementById({orjson.dumps(row_id).decode()})"
    assert page.evaluate(f"{details}.open") is False
    page.click(f"tbody tr.s a[href='#{row_id}']")  # the row's link jumps to its details
    page.poll(f"location.hash === '#{row_id}'", "jump to the row's details")
    top = page.evaluate(f"{details}.getBoundingClientRect().top")
    assert 0 <= top < page.evaluate("innerHeight"), f"the details of {row_id} are not in view after the jump (top {top})"
    page.poll(f"{details}.open === true", "details opened by the jump")  # the hashchange handler runs after the jump
    output = page.evaluate(
        f"(function(){{var p={details}.querySelectorAll('pre')[1];return [p.textContent, p.getClientRects().length>0]}})()"
    )
    assert output == [records[row_id]["content"], True]
    page.click(f"details[id='{row_id}'] > summary")
    assert page.evaluate(f"{details}.open") is False
    page.click(f"details[id='{row_id}'] > summary")
    assert page.evaluate(f"{details}.open") is True


def test_hostile_model_output_does_not_run_and_is_shown_as_text(page, runs):
    records = _records(runs.first)
    hostile = [f"q-{i:04d}" for i in range(ROWS) if _planned(i, False) == "hostile"]
    assert hostile and all(records[h]["content"] == HOSTILE for h in hostile)
    _open_clean(page, runs.first / samples.REPORT)  # an executed <img src=x> would be a request for file:///…/x
    assert page.evaluate("typeof window.__pwned") == "undefined", "the hostile output ran as script"
    assert page.evaluate("document.images.length") == 0, "the hostile output became an <img>"
    assert page.evaluate("document.scripts.length") == 1  # the page's own filter
    # the table-closing fragment closed nothing: one table row of 5 cells per sample
    assert page.evaluate("Array.from(document.querySelectorAll('tbody tr.s')).map(function(r){return r.cells.length})") == [5] * ROWS
    for row_id in hostile:
        page.click(f"details[id='{row_id}'] > summary")
        shown = page.evaluate(f"document.getElementById({orjson.dumps(row_id).decode()}).querySelectorAll('pre')[1].textContent")
        assert shown == HOSTILE
    assert HOSTILE in page.evaluate("document.body.innerText")  # visible as text, not only in the DOM
    assert page.evaluate("typeof window.__pwned") == "undefined", "the hostile output ran as script"
    assert page.problems() == [] and len(page.requests()) == 1


def test_the_vs_page_shows_the_rows_whose_verdict_differs(page, runs, tmp_path):
    from atlas_assets.cli import main

    out = tmp_path / "vs.html"
    assert main(["eval", "show", str(runs.first), "--vs", str(runs.second), "--html", str(out), "--datasets", str(runs.datasets_root)]) == 0
    expected = {f"q-{i:04d}": _planned(i, False) for i in range(ROWS) if _planned(i, False) != _planned(i, True)}
    assert len(expected) == 6
    _open_clean(page, out)
    heading = page.evaluate("Array.from(document.querySelectorAll('h2')).map(function(h){return h.textContent})")
    assert any(h.endswith(f": {len(expected)} rows differ") for h in heading), heading
    versus = (
        "Array.from(document.querySelectorAll('table')[0].querySelectorAll('tbody tr'))"
        ".filter(function(r){return r.getClientRects().length>0})"
        ".map(function(r){return Array.from(r.cells).map(function(c){return c.textContent})})"
    )
    listed = page.evaluate(versus)
    assert sorted(r[0] for r in listed) == sorted(expected)
    for row_id, this, other, answer in listed:
        mine = "failed" if expected[row_id] == "failed" else "wrong"
        assert this.startswith(f"{mine}:") and other.startswith("right:"), (row_id, this, other)
        assert mine != "failed" or this == "failed: —", this  # nothing extracted reads as a dash, never "None"
        assert len(this) <= len(f"{mine}: ") + samples.CELL_LIMIT + 1  # the hostile output is cut in the table
        assert answer == str(2 * int(row_id[2:]) + 1)
    page.click(".bar button:nth-of-type(2)")  # the verdict filter is for the run's own rows, not the differences
    assert len(page.evaluate(versus)) == len(expected)
    assert page.problems() == []


def test_a_screenshot_is_a_png_of_the_rendered_page(page, runs, tmp_path):
    from PIL import Image

    _open_clean(page, runs.simulator / samples.REPORT)
    png = page.screenshot()
    shot = tmp_path / "report.png"
    shot.write_bytes(png)
    print(f"screenshot of {runs.simulator / samples.REPORT}: {shot}")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and 10_000 < len(png) < 5_000_000, len(png)
    with Image.open(BytesIO(png)) as image:
        image.verify()
    with Image.open(BytesIO(png)) as image:
        assert image.format == "PNG" and image.size == (1280, 900)
        rgb = image.convert("RGB")
        colors = rgb.getcolors(1 << 20) or []
        inked = sum(n for n, c in colors if sum(c) < 600)  # not white or the light greys of rules and <pre>
        assert len(colors) >= 16 and inked > 0.01 * 1280 * 900, (len(colors), inked)
        green = sum(n for n, (r, g, b) in colors if g > r + 40 and g > b + 20)  # the 'right' verdicts (#067d2f)
        red = sum(n for n, (r, g, b) in colors if r > g + 80 and r > b + 80)  # the 'wrong' ones (#b3261e)
        assert green > 0 and red > 0, (green, red)


def test_the_checks_catch_a_page_that_breaks_the_rules(page, tmp_path):
    """The same checks on a page that runs injected script, errs and fetches: they fire."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        "<!doctype html><html><body><p>x</p><script>window.__pwned=1;console.error('logged');</script>"
        "<img src='http://127.0.0.1:9/tracker.png'><script>throw new Error('boom')</script></body></html>"
    )
    url = bad.resolve().as_uri()
    page.navigate(url)
    assert page.evaluate("window.__pwned") == 1
    problems = page.problems()
    assert any("boom" in p for p in problems) and any("logged" in p for p in problems), problems
    assert page.requests()[0] == url and "http://127.0.0.1:9/tracker.png" in page.requests()
