"""A run's samples, one per row: the prompt as sent (rebuilt from the dataset), the raw
output, the extracted and expected answers, the verdict and why, the error and latencies.

Read by `atlas eval show` (text) and written as `report.html` beside results.json (a
self-contained page: summary, a filterable table, each row's detail, and the rows whose
verdict differs from another run of the same dataset bytes).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from atlas_assets.corpus import registry
from atlas_assets.evals.config import ConfigError
from atlas_assets.evals.documents import CheckpointRecord, RowScore, RunResults
from atlas_assets.evals.report import reason_of
from atlas_assets.evals.requests import build_body
from atlas_assets.evals.results import CHECKPOINT, RESULTS, read_checkpoint, read_results

REPORT = "report.html"
PAGE_TEXT_LIMIT = 6000  # characters of a prompt or output on the page (long-context prompts are ~1 MB)


@dataclass(frozen=True)
class Sample:
    id: str
    row: Mapping[str, Any]
    body: Mapping[str, Any]
    record: CheckpointRecord | None

    @property
    def score(self) -> RowScore | None:
        return self.record.score if self.record else None

    @property
    def correct(self) -> bool:
        return self.score is not None and self.score.correct

    @property
    def failed(self) -> bool:
        return self.record is None or self.record.error is not None

    @property
    def verdict(self) -> str:
        return "failed" if self.failed else "right" if self.correct else "wrong"

    @property
    def expected(self) -> Any:
        return self.row.get("answer")

    @property
    def extracted(self) -> str | None:
        return self.score.extracted if self.score else None

    @property
    def reason(self) -> str:
        return reason_of(self.record)

    def prompt(self) -> str:
        """The messages as sent, one `role: text` block each (images as a placeholder)."""
        parts = []
        for message in self.body.get("messages") or []:
            content = message.get("content")
            if isinstance(content, list):
                content = "\n".join(p.get("text") or f"[{p.get('type')}]" for p in content if isinstance(p, Mapping))
            parts.append(f"{message.get('role')}: {content}")
        if self.body.get("tools"):
            parts.append(f"tools: {', '.join(t.get('function', {}).get('name', '?') for t in self.body['tools'])}")
        return "\n\n".join(parts)

    def output(self) -> str:
        if self.record is None:
            return ""
        text = self.record.content or ""
        if self.record.tool_calls:
            text += ("\n" if text else "") + "tool calls: " + json.dumps(self.record.tool_calls, ensure_ascii=False)
        return text

    def latencies(self) -> str:
        if self.record is None:
            return "not run"

        def fmt(v: float | None) -> str:
            return "—" if v is None else f"{v * 1000:.0f} ms"

        return f"TTFT {fmt(self.record.ttft_s)} · E2E {fmt(self.record.e2e_s)} · attempts {self.record.attempts}"


@dataclass(frozen=True)
class Run:
    path: Path
    results: RunResults
    samples: list[Sample]

    @property
    def title(self) -> str:
        r = self.results
        return f"{r.workload.id} on {r.engine.name} ({r.model})"


def load_run(run_dir: str | Path, datasets_root: str | Path = registry.DEFAULT_DATASETS_ROOT) -> Run:
    """A run folder's samples in run order, with prompts rebuilt from the dataset it read."""
    path = Path(run_dir)
    results = read_results(path)
    spec = {s.id: s for s in registry.discover(datasets_root)}.get(results.dataset.id)
    if spec is None:
        raise ConfigError(f"{path / RESULTS}: dataset.id: {results.dataset.id!r} is not in {datasets_root}")
    rows = {str(r["id"]): r for r in registry.read_rows(spec)}
    records = {r.id: r for r in read_checkpoint(path / CHECKPOINT)[0]}  # the last record of a row wins, as in the run
    request, model = results.workload.request, results.model
    samples = [
        Sample(row_id, rows[row_id], build_body(rows[row_id], spec, request, model), records.get(row_id))
        for row_id in results.run.row_ids
        if row_id in rows
    ]
    return Run(path, results, samples)


def select(samples: Iterable[Sample], *, wrong: bool = False, failed: bool = False, ids: Sequence[str] = ()) -> list[Sample]:
    """`wrong`: wrong answers (not failed requests); `failed`: failed requests; `ids`: these rows."""
    chosen = list(samples)
    if ids:
        wanted = set(ids)
        chosen = [s for s in chosen if s.id in wanted]
    if wrong or failed:
        chosen = [s for s in chosen if (wrong and s.verdict == "wrong") or (failed and s.verdict == "failed")]
    return chosen


def differing(run: Run, other: Run) -> list[tuple[Sample, Sample]]:
    """Rows of both runs whose verdicts differ; refused for runs of different dataset bytes."""
    if run.results.dataset.sha256 != other.results.dataset.sha256:
        raise ConfigError(f"{other.path}: dataset.sha256 differs from {run.path}'s: the runs read different bytes")
    theirs = {s.id: s for s in other.samples}
    return [(s, theirs[s.id]) for s in run.samples if s.id in theirs and s.verdict != theirs[s.id].verdict]


def render_text(samples: Iterable[Sample]) -> str:
    blocks = []
    for s in samples:
        blocks.append(
            f"=== {s.id}  [{s.verdict}]  {s.row.get('difficulty', '')} {s.row.get('category', '')}\n"
            f"--- prompt\n{s.prompt()}\n--- output\n{s.output() or '(empty)'}\n"
            f"--- extracted {s.extracted!r}   expected {s.expected!r}\n--- {s.reason}\n--- {s.latencies()}"
        )
    return "\n\n".join(blocks)


def render_pairs(pairs: Iterable[tuple[Sample, Sample]], run: Run, other: Run) -> str:
    blocks = []
    for a, b in pairs:
        blocks.append(
            f"=== {a.id}   A [{a.verdict}] {a.extracted!r}   B [{b.verdict}] {b.extracted!r}   expected {a.expected!r}\n"
            f"--- A: {run.title}\n{a.output() or '(empty)'}\n--- B: {other.title}\n{b.output() or '(empty)'}"
        )
    return "\n\n".join(blocks)


_STYLE = """body{font:14px system-ui,sans-serif;margin:24px;color:#111}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}tr.right td:nth-child(2){color:#067d2f}
tr.wrong td:nth-child(2){color:#b3261e}tr.failed td:nth-child(2){color:#8a5a00}pre{white-space:pre-wrap;background:#f6f6f6;padding:8px}
.bar button{margin-right:6px}summary{cursor:pointer}"""
_SCRIPT = """function show(v){document.querySelectorAll('tbody tr.s').forEach(function(r){
r.style.display=(v==='all'||r.className.indexOf(v)>=0)?'':'none'});document.getElementById('shown').textContent=v}
function openTarget(){var d=document.getElementById(decodeURIComponent(location.hash.slice(1)));if(d&&d.tagName==='DETAILS')d.open=true}
window.addEventListener('hashchange',openTarget);window.addEventListener('DOMContentLoaded',openTarget)"""
CELL_LIMIT = 160  # characters of a table cell (the row's details hold the whole value)


def _clip(text: str, limit: int = PAGE_TEXT_LIMIT) -> str:
    return text if len(text) <= limit else f"{text[:limit]}\n… ({len(text) - limit:,} more characters: atlas eval show)"


def _cell(value: object) -> str:
    """A table cell's text: "—" for nothing, long values cut (the details show them whole)."""
    text = "—" if value is None else str(value)
    return html.escape(text if len(text) <= CELL_LIMIT else text[:CELL_LIMIT] + "…")


def render_html(run: Run, other: Run | None = None) -> str:
    """The self-contained report page (no external asset; the filter is a few lines of JS)."""
    e = html.escape
    counts = {v: sum(s.verdict == v for s in run.samples) for v in ("right", "wrong", "failed")}
    rows = []
    for s in run.samples:
        rows.append(
            f"<tr class='s {s.verdict}'><td><a href='#{e(s.id)}'>{e(s.id)}</a></td><td>{s.verdict}</td>"
            f"<td>{_cell(s.expected)}</td><td>{_cell(s.extracted)}</td><td>{_cell(s.reason)}</td></tr>"
        )
    details = [
        f"<details id='{e(s.id)}'><summary>{e(s.id)} · {s.verdict} · {e(s.reason[:120])}</summary>"
        f"<h4>prompt</h4><pre>{e(_clip(s.prompt()))}</pre><h4>output</h4><pre>{e(_clip(s.output() or '(empty)'))}</pre>"
        f"<p>extracted <code>{e(repr(s.extracted))}</code> · expected <code>{e(repr(s.expected))}</code> · {e(s.latencies())}</p></details>"
        for s in run.samples
    ]
    versus = ""
    if other is not None:
        pairs = differing(run, other)
        items = "".join(
            f"<tr><td><a href='#{e(a.id)}'>{e(a.id)}</a></td><td>{a.verdict}: {_cell(a.extracted)}</td>"
            f"<td>{b.verdict}: {_cell(b.extracted)}</td><td>{_cell(a.expected)}</td></tr>"
            for a, b in pairs
        )
        versus = (
            f"<h2>Against {e(other.title)}: {len(pairs)} rows differ</h2><table><thead><tr><th>row</th><th>this run</th>"
            f"<th>other run</th><th>expected</th></tr></thead><tbody>{items}</tbody></table><h2>This run's rows</h2>"
        )
    accuracy = run.results.scores.accuracy if run.results.scores else None
    summary = (
        f"<p>accuracy <b>{'—' if accuracy is None else f'{accuracy * 100:.1f} %'}</b> · "
        f"{counts['right']} right · {counts['wrong']} wrong · {counts['failed']} failed · "
        f"dataset {e(run.results.dataset.id)} <code>{e(run.results.dataset.sha256[:16])}…</code></p>"
    )
    buttons = "".join(f"<button onclick=\"show('{v}')\">{v}</button>" for v in ("all", "right", "wrong", "failed"))
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{e(run.title)}</title><style>{_STYLE}</style>"
        f"<script>{_SCRIPT}</script></head><body><h1>{e(run.title)}</h1>{summary}{versus}"
        f"<div class='bar'>show: {buttons} <span id='shown'>all</span></div>"
        f"<table><thead><tr><th>row</th><th>verdict</th><th>expected</th><th>extracted</th><th>reason</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table><h2>Rows</h2>{''.join(details)}</body></html>"
    )
