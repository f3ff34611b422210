"""leaderboard.json assembly and byte format (spec section 6), independent of the dump reader."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from atlas_assets.ratings.fit import FitResult
from atlas_assets.ratings.fitting import category_rng
from atlas_assets.ratings.leaderboard import ComputeParams, _entries, render, round4


def test_render_matches_json_dumps_layout_for_non_float_values():
    document = {
        "b": [1, 2, {"z": None, "a": True}],
        "a": {"nested": [], "empty": {}, "text": 'caf\u00e9 \u2603 "q"'},
        "c": "x",
    }
    expected = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=True, separators=(", ", ": ")) + "\n"
    assert render(document).decode("ascii") == expected


def test_render_writes_every_float_with_exactly_four_decimals():
    data = render({"values": [1041.22114, 0.5, -3.0, 24.183, 1e-9, -1e-9, 123456.78904]}).decode()
    numbers = re.findall(r"-?\d+\.\d+", data)
    assert numbers == ["1041.2211", "0.5000", "-3.0000", "24.1830", "0.0000", "0.0000", "123456.7890"]
    assert data.endswith("]\n}\n") and "\r" not in data


def test_round4_is_half_even_like_python_round():
    for value in (0.12345, 1.00005, 2.67895, -7.55555, 1e-5):
        assert round4(value) == round(value, 4) + 0.0
    assert str(round4(-0.00001)) == "0.0"


def test_render_refuses_non_finite_values():
    with pytest.raises(ValueError, match="finite"):
        render({"x": float("nan")})


def _fit(rating, low, high):
    rating, low, high = (np.asarray(v, dtype=float) for v in (rating, low, high))
    return FitResult(rating, low, high, None, None, None, None)


def test_entries_order_by_rounded_rating_then_slug_and_rank_bands_from_published_cis():
    # b and c tie after rounding (1010.00004 -> 1010.0000), so slug order decides.
    fit = _fit(
        rating=[1050.0, 1010.00004, 1010.0, 930.0, 1100.0],
        low=[1040.0, 1000.0, 995.0, 900.0, 1060.0],
        high=[1060.0, 1020.0, 1025.0, 960.0, 1140.0],
    )
    slugs = ["a", "c", "b", "d", "e"]
    votes = np.array([100, 100, 100, 100, 10])  # e is provisional
    entries = _entries(slugs, votes, fit, ComputeParams(min_votes=30))
    assert [e["model"] for e in entries] == ["e", "a", "b", "c", "d"]
    assert [e["order"] for e in entries] == [1, 2, 3, 4, 5]
    by_model = {e["model"]: e for e in entries}
    assert by_model["e"]["rank"] is None and by_model["e"]["provisional"] is True
    # a: nobody (non-provisional) has ci_low > 1060 -> rank 1, although e's CI is above it.
    assert by_model["a"]["rank"] == 1
    # b and c: a's ci_low 1040 exceeds their ci_high (1025, 1020) -> rank 2.
    assert by_model["b"]["rank"] == 2 and by_model["c"]["rank"] == 2
    # d: a, b, c all have ci_low >= 995 > 960 -> rank 4.
    assert by_model["d"]["rank"] == 4
    # Without style control the SC fields mirror the raw ones.
    assert all(e["rating_style_controlled"] == e["rating"] and e["ci_low_sc"] == e["ci_low"] for e in entries)


def test_category_streams_depend_on_seed_and_slug_only():
    first = category_rng(42, "chat-writing").random(4)
    assert np.array_equal(first, category_rng(42, "chat-writing").random(4))
    assert not np.array_equal(first, category_rng(42, "chat-coding").random(4))
    assert not np.array_equal(first, category_rng(43, "chat-writing").random(4))


@pytest.mark.parametrize("field", ["seed", "bootstrap_rounds", "min_votes", "style_min_votes"])
def test_params_reject_negative_values(field):
    with pytest.raises(ValueError, match=field.replace("_", "-")):
        ComputeParams(**{field: -1})


def test_bytes_do_not_depend_on_how_many_categories_are_fitted_at_once(tmp_path, monkeypatch):
    """Categories are fitted in parallel threads; one thread or four give the same file."""
    from atlas_assets.ratings import fitting, leaderboard, sample

    sample.generate_dump(tmp_path, n_votes=3000, n_models=14, seed=11)
    params = ComputeParams(bootstrap_rounds=20)
    outputs = {}
    for cpus in (1, 4):
        monkeypatch.setattr(fitting, "usable_cpus", lambda cpus=cpus: cpus)
        outputs[cpus] = leaderboard.compute_leaderboard(tmp_path / "battles.jsonl", tmp_path / "votes.jsonl", params)
    assert len(json.loads(outputs[1])["categories"]) >= 3
    assert outputs[1] == outputs[4]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")
def test_fitting_threads_follow_the_cpu_affinity_mask_not_the_machine(tmp_path):
    """Under a one-CPU affinity mask (as taskset or a cpuset gives) the categories are
    fitted on one thread, however many CPUs the machine has."""
    from atlas_assets.ratings import sample

    sample.generate_dump(tmp_path, n_votes=600, n_models=6, seed=3)
    script = (
        "import os, sys, concurrent.futures as cf\n"
        "os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
        "from atlas_assets.core.cpus import usable_cpus\n"
        "from atlas_assets.ratings import fitting, leaderboard\n"
        "sizes = []\n"
        "class Spy(cf.ThreadPoolExecutor):\n"
        "    def __init__(self, workers, *a, **k):\n"
        "        sizes.append(workers); super().__init__(workers, *a, **k)\n"
        "fitting.ThreadPoolExecutor = Spy\n"
        "leaderboard.compute_leaderboard(sys.argv[1] + '/battles.jsonl', sys.argv[1] + '/votes.jsonl', leaderboard.ComputeParams(bootstrap_rounds=2))\n"
        "print(usable_cpus(), os.cpu_count(), sizes)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    usable, machine, sizes = done.stdout.split(maxsplit=2)
    assert usable == "1" and sizes.strip() == "[1]", done.stdout


def test_category_inputs_are_the_voted_categories_in_slug_order_with_local_model_indices():
    """What the fits (and bench/leaderboard_phases.py) take: a category without votes is
    left out, the rest come in slug order with their header index, and each category's
    models are renumbered 0..k-1 in slug order over the models it has."""
    from atlas_assets.ratings.leaderboard import category_inputs
    from atlas_assets.ratings.model import Dump, DumpHeader

    features = np.arange(5 * 4, dtype=np.float64).reshape(5, 4)
    dump = Dump(
        header=DumpHeader(2, "2026-01-01T00:00:00Z", ("zeta", "empty", "alpha")),
        battles_sha256="0" * 64,
        votes_sha256="1" * 64,
        models=("m0", "m1", "m2", "m3"),
        category=np.array([0, 2, 0, 2, 0], dtype=np.int32),
        model_a=np.array([3, 0, 1, 2, 3], dtype=np.int32),
        model_b=np.array([1, 2, 3, 0, 1], dtype=np.int32),
        features_a=features,
        features_b=features + 100,
        wins_a=np.array([1.0, 0.5, 2.0, 0.0, 1.0]),
        wins_b=np.array([0.0, 0.5, 1.0, 3.0, 0.0]),
        vote_count=np.array([1, 1, 3, 3, 60]),
        battles_in_file=6,
        votes_in_file=68,
    )
    inputs = category_inputs(dump, ComputeParams(style_min_votes=50))
    assert [(index, data.slug) for index, data in inputs] == [(2, "alpha"), (0, "zeta")]
    alpha, zeta = inputs[0][1], inputs[1][1]
    assert (alpha.n_models, alpha.model_a.tolist(), alpha.model_b.tolist()) == (2, [0, 1], [1, 0])  # m0, m2
    assert (zeta.n_models, zeta.model_a.tolist(), zeta.model_b.tolist()) == (2, [1, 0, 1], [0, 1, 0])  # m1, m3
    assert zeta.wins_b.tolist() == [0.0, 1.0, 0.0] and zeta.features_b[:, 0].tolist() == [100.0, 108.0, 116.0]
    assert (alpha.style_control, zeta.style_control) == (False, True)  # 4 votes against 64
