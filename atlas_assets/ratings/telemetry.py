"""Per-model summary of the computer-use telemetry carried by recording battles (spec 3.1).

Every recording battle reports, per slot, how the contestant's browser session went:
wall-clock duration, time to its first action, number of steps, and so on. The rating
engine never reads these numbers; this module turns them into a small per-model table
(medians over the model's recording battles) so a reader of the leaderboard can see
how fast and how long-winded each agent is, next to how well it is rated.

Plain functions, no Dagster import. Every battle counts once per slot a model played,
voted or not: telemetry describes the agent's behaviour, which does not depend on the
votes. A missing telemetry object or a missing (null) field is left out of that
field's median, so each median states its own sample size.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Protocol

import numpy as np

# The telemetry fields summarised, in table order. Each gets a median and a sample size.
FIELDS: tuple[str, ...] = (
    "duration_ms",
    "time_to_first_action_ms",
    "steps",
    "median_step_ms",
    "model_ms_total",
    "harness_ms_total",
)


class _Telemetry(Protocol):
    @property
    def duration_ms(self) -> int | float | None: ...
    @property
    def time_to_first_action_ms(self) -> int | float | None: ...
    @property
    def steps(self) -> int | float | None: ...
    @property
    def median_step_ms(self) -> int | float | None: ...
    @property
    def model_ms_total(self) -> int | float | None: ...
    @property
    def harness_ms_total(self) -> int | float | None: ...


class _RecordingBattle(Protocol):
    """The slice of atlas_assets.ratings.dump.RecordingBattle this module reads."""

    @property
    def battle_id(self) -> str: ...
    @property
    def category_slug(self) -> str: ...
    @property
    def model_a(self) -> str: ...
    @property
    def model_b(self) -> str: ...
    @property
    def telemetry_a(self) -> _Telemetry | None: ...
    @property
    def telemetry_b(self) -> _Telemetry | None: ...


@dataclass(frozen=True)
class ModelTelemetry:
    """One model's row: battle count, then per field the median and how many values it used."""

    model: str
    battles: int
    categories: tuple[str, ...]
    medians: dict[str, float | None]
    samples: dict[str, int]

    @property
    def median_duration_ms(self) -> float | None:
        return self.medians["duration_ms"]

    @property
    def median_steps(self) -> float | None:
        return self.medians["steps"]

    @property
    def median_time_to_first_action_ms(self) -> float | None:
        return self.medians["time_to_first_action_ms"]


def summarize_telemetry(battles: Iterable[_RecordingBattle]) -> list[ModelTelemetry]:
    """Per-model medians of every telemetry field, sorted by model slug.

    `battles` is any iterable of recording battles (e.g. `iter_recording_battles(path)`);
    it is consumed once, and only per-model value lists are kept.
    """
    values: dict[str, dict[str, list[float]]] = {}
    counts: dict[str, int] = {}
    categories: dict[str, set[str]] = {}
    for battle in battles:
        for model, telemetry in ((battle.model_a, battle.telemetry_a), (battle.model_b, battle.telemetry_b)):
            counts[model] = counts.get(model, 0) + 1
            categories.setdefault(model, set()).add(battle.category_slug)
            per_field = values.setdefault(model, {name: [] for name in FIELDS})
            if telemetry is None:
                continue
            for name in FIELDS:
                value = getattr(telemetry, name, None)
                if value is not None and not isinstance(value, bool):
                    per_field[name].append(float(value))
    rows = []
    for model in sorted(counts, key=lambda slug: slug.encode("utf-8")):
        medians: dict[str, float | None] = {}
        samples: dict[str, int] = {}
        for name in FIELDS:
            column = np.asarray(values[model][name], dtype=np.float64)
            samples[name] = int(column.size)
            medians[name] = float(np.median(column)) if column.size else None
        rows.append(
            ModelTelemetry(
                model=model,
                battles=counts[model],
                categories=tuple(sorted(categories[model])),
                medians=medians,
                samples=samples,
            )
        )
    return rows


def telemetry_document(rows: list[ModelTelemetry]) -> dict[str, Any]:
    """A JSON-ready document of the summary (stable key order, no timestamps)."""
    return {"fields": list(FIELDS), "models": [asdict(row) | {"categories": list(row.categories)} for row in rows]}


def telemetry_json(rows: list[ModelTelemetry]) -> bytes:
    """Deterministic JSON bytes of the summary: sorted keys, 2-space indent, trailing LF."""
    text = json.dumps(telemetry_document(rows), indent=2, sort_keys=True, ensure_ascii=True, allow_nan=False)
    return (text + "\n").encode("ascii")


def _seconds(ms: float | None) -> str:
    return "–" if ms is None else f"{ms / 1000:.1f} s"


def _plain(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:g}"


def telemetry_markdown(rows: list[ModelTelemetry]) -> str:
    """A markdown table: model, battles, median duration, steps, time to first action."""
    lines = [
        "| model | battles | median duration | median steps | median time to first action | median step |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.model} | {row.battles} | {_seconds(row.medians['duration_ms'])} | "
            f"{_plain(row.medians['steps'])} | {_seconds(row.medians['time_to_first_action_ms'])} | "
            f"{_seconds(row.medians['median_step_ms'])} |"
        )
    if not rows:
        lines.append("| (no recording battles in this dump) | | | | | |")
    return "\n".join(lines)
