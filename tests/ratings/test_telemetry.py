"""Per-model computer-use telemetry summary (plain functions)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from atlas_assets.ratings.telemetry import FIELDS, summarize_telemetry, telemetry_json, telemetry_markdown


def _tel(**values):
    return SimpleNamespace(**{name: values.get(name) for name in FIELDS})


def _battle(model_a, model_b, tel_a, tel_b, category="browser-use"):
    return SimpleNamespace(category_slug=category, model_a=model_a, model_b=model_b, telemetry_a=tel_a, telemetry_b=tel_b)


def test_medians_counts_and_missing_values():
    battles = [
        _battle("zeta", "alpha", _tel(duration_ms=100, steps=4, time_to_first_action_ms=10), _tel(duration_ms=50, steps=2)),
        _battle("alpha", "zeta", _tel(duration_ms=70, steps=3), None),
        _battle("alpha", "beta", _tel(duration_ms=90), _tel()),
    ]
    rows = summarize_telemetry(iter(battles))
    assert [r.model for r in rows] == ["alpha", "beta", "zeta"]
    alpha, beta, zeta = rows
    assert alpha.battles == 3 and alpha.median_duration_ms == 70.0 and alpha.median_steps == 2.5
    assert alpha.samples["duration_ms"] == 3 and alpha.samples["steps"] == 2
    assert alpha.median_time_to_first_action_ms is None and alpha.samples["time_to_first_action_ms"] == 0
    assert beta.battles == 1 and all(v is None for v in beta.medians.values())
    assert zeta.battles == 2 and zeta.median_duration_ms == 100.0 and zeta.samples["duration_ms"] == 1
    assert zeta.categories == ("browser-use",)


def test_json_is_deterministic_and_markdown_is_readable():
    rows = summarize_telemetry([_battle("a", "b", _tel(duration_ms=184000, steps=14, time_to_first_action_ms=6200), None)])
    data = telemetry_json(rows)
    assert data == telemetry_json(rows) and data.endswith(b"\n")
    document = json.loads(data)
    assert document["fields"] == list(FIELDS)
    assert document["models"][0]["medians"]["duration_ms"] == 184000.0
    table = telemetry_markdown(rows)
    assert "| a | 1 | 184.0 s | 14 | 6.2 s | – |" in table
    assert "| b | 1 | – | – | – | – |" in table
    assert "no recording battles" in telemetry_markdown([])
