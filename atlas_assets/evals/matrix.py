"""The engine x workload matrix: one row per eval run, as a table, Parquet and a PNG chart.

`matrix_rows(cells)` flattens results.json documents (`RunResults`) into rows; the renderers are pure
functions of those rows (no Dagster import): `matrix_markdown` (workloads down, engines
across: accuracy for eval workloads, requests/s for serve workloads), `matrix_parquet`
(every row with its metrics, the long format) and `matrix_png` (the same grid as a
heatmap, drawn with Pillow).
"""

from __future__ import annotations

import io
from typing import Any, Mapping, Sequence

import pyarrow as pa
import pyarrow.parquet as pq
from PIL import Image, ImageDraw, ImageFont

from atlas_assets.evals.documents import RunResults

COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("engine", pa.string()),
    ("workload", pa.string()),
    ("kind", pa.string()),
    ("model", pa.string()),
    ("dataset_id", pa.string()),
    ("dataset_sha256", pa.string()),
    ("complete", pa.bool_()),
    ("accuracy", pa.float64()),
    ("correct", pa.int64()),
    ("total", pa.int64()),
    ("requests_total", pa.int64()),
    ("requests_failed", pa.int64()),
    ("input_tokens_total", pa.int64()),
    ("output_tokens_total", pa.int64()),
    ("ttft_p50_ms", pa.float64()),
    ("ttft_p99_ms", pa.float64()),
    ("tpot_p50_ms", pa.float64()),
    ("itl_p50_ms", pa.float64()),
    ("e2e_p50_ms", pa.float64()),
    ("e2e_p99_ms", pa.float64()),
    ("request_throughput", pa.float64()),
    ("output_token_throughput", pa.float64()),
    ("results_sha256", pa.string()),
)


def matrix_rows(cells: Sequence[tuple[str, str, RunResults, str]]) -> list[dict[str, Any]]:
    """(engine, workload, results.json, its sha256) -> flat rows, sorted by workload, engine."""
    rows = []
    for engine, workload, res, sha in cells:
        m, s = res.metrics, res.scores
        rows.append(
            {
                "engine": engine,
                "workload": workload,
                "kind": res.workload.kind,
                "model": res.model,
                "dataset_id": res.dataset.id,
                "dataset_sha256": res.dataset.sha256,
                "complete": res.complete,
                "accuracy": s.accuracy if s else None,
                "correct": s.correct if s else None,
                "total": s.total if s else None,
                "requests_total": m.requests_total,
                "requests_failed": m.requests_failed,
                "input_tokens_total": m.input_tokens_total,
                "output_tokens_total": m.output_tokens_total,
                "ttft_p50_ms": m.ttft_ms.p50,
                "ttft_p99_ms": m.ttft_ms.p99,
                "tpot_p50_ms": m.tpot_ms.p50,
                "itl_p50_ms": m.itl_ms.p50,
                "e2e_p50_ms": m.e2e_ms.p50,
                "e2e_p99_ms": m.e2e_ms.p99,
                "request_throughput": m.request_throughput,
                "output_token_throughput": m.output_token_throughput,
                "results_sha256": sha,
            }
        )
    return sorted(rows, key=lambda r: (r["workload"], r["engine"]))


def _cell_text(row: Mapping[str, Any] | None, missing: str = "—") -> str:
    if row is None:
        return missing
    if row["kind"] == "eval":
        text = missing if row["accuracy"] is None else f"{row['accuracy'] * 100:.1f}%"
    else:
        text = missing if row["request_throughput"] is None else f"{row['request_throughput']:.0f} req/s"
    if row["requests_failed"]:
        text += f" ({row['requests_failed']} failed)"
    return text + ("" if row["complete"] else " *")


def _grid(rows: Sequence[Mapping[str, Any]], engines: Sequence[str], workloads: Sequence[str]) -> list[list[Mapping[str, Any] | None]]:
    by_key = {(r["workload"], r["engine"]): r for r in rows}
    return [[by_key.get((w, e)) for e in engines] for w in workloads]


def matrix_markdown(rows: Sequence[Mapping[str, Any]], engines: Sequence[str], workloads: Sequence[str]) -> str:
    """Workloads down, engines across; accuracy (eval) or requests/s (serve); '*' = incomplete."""
    lines = ["| workload | " + " | ".join(engines) + " |", "|---|" + "---:|" * len(engines)]
    for workload, cells in zip(workloads, _grid(rows, engines, workloads)):
        lines.append(f"| `{workload}` | " + " | ".join(_cell_text(c) for c in cells) + " |")
    return "\n".join(lines)


def matrix_parquet(rows: Sequence[Mapping[str, Any]]) -> bytes:
    schema = pa.schema(list(COLUMNS))
    table = pa.Table.from_pylist([dict(r) for r in rows], schema=schema)
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def _font(size: int) -> Any:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def _accuracy_colour(accuracy: float) -> tuple[int, int, int]:
    """Red (0) through amber to green (1)."""
    a = min(max(accuracy, 0.0), 1.0)
    if a < 0.5:
        t = a / 0.5
        return (int(214 + (240 - 214) * t), int(96 + (190 - 96) * t), int(77 + (60 - 77) * t))
    t = (a - 0.5) / 0.5
    return (int(240 + (84 - 240) * t), int(190 + (170 - 190) * t), int(60 + (99 - 60) * t))


def matrix_png(rows: Sequence[Mapping[str, Any]], engines: Sequence[str], workloads: Sequence[str]) -> bytes:
    """A heatmap: a cell per (workload, engine), coloured by accuracy; serve cells grey."""
    font, bold = _font(13), _font(14)
    label_w = max([int(font.getlength(w)) for w in workloads] + [80]) + 24
    cell_w = max([int(font.getlength(e)) for e in engines] + [120]) + 24
    cell_h, head_h, foot_h = 26, 56, 30
    width = label_w + cell_w * max(len(engines), 1) + 12
    height = head_h + cell_h * max(len(workloads), 1) + foot_h
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((12, 8), "Eval matrix: accuracy (eval) / requests per second (serve)", fill=(33, 37, 41), font=bold)
    for j, engine in enumerate(engines):
        draw.text((label_w + j * cell_w + 8, head_h - 22), engine, fill=(33, 37, 41), font=font)
    for i, (workload, cells) in enumerate(zip(workloads, _grid(rows, engines, workloads))):
        y = head_h + i * cell_h
        draw.text((12, y + 6), workload, fill=(33, 37, 41), font=font)
        for j, cell in enumerate(cells):
            x = label_w + j * cell_w
            if cell is None:
                fill = (246, 248, 250)
            elif cell["kind"] == "eval" and cell["accuracy"] is not None:
                fill = _accuracy_colour(cell["accuracy"])
            else:
                fill = (214, 219, 224)
            draw.rectangle((x + 1, y + 1, x + cell_w - 2, y + cell_h - 2), fill=fill)
            draw.text((x + 8, y + 6), _cell_text(cell, missing="-"), fill=(20, 20, 20), font=font)
    draw.text(
        (12, height - foot_h + 8),
        "- not run   * incomplete run   (n failed) failed requests count as wrong answers",
        fill=(108, 117, 125),
        font=font,
    )
    sink = io.BytesIO()
    image.save(sink, format="PNG", optimize=True)
    return sink.getvalue()
