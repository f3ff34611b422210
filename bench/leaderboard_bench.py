"""Leaderboard benchmark: `humaneval-ratings compute` end to end, against LMArena's arena-rank.

What it does, per size (default 100k, 1m, 5m votes; 80 models; 3 text categories plus
browser-use):

1. Generates the synthetic dump with `python -m atlas_assets.ratings.sample` (timed, cached
   under bench/data/, keyed by size, models, seed and generator version; git-ignored).
2. Runs `humaneval-ratings compute --battles .. --votes .. --out .. --seed 42
   --bootstrap-rounds R` in a subprocess and measures its wall time (process start to exit:
   interpreter start-up, imports, parsing and validation, all fits and bootstraps, writing
   leaderboard.json), its peak RSS (getrusage of the child: the largest single process) and
   the peak summed RSS of its whole process tree (sampled from /proc every 50 ms; the
   reader's parallel workers are separate processes).
3. Times the floor the issue (#16) sets: a bare single-process loop of `orjson.loads` over
   every line of the same battles.jsonl and votes.jsonl, timed inside its own process
   (interpreter start excluded), once before and once after the compute run; the faster
   of the two is the baseline, and `ratio` = compute wall time / baseline (target <= 1.0).
   Then (unless --skip-phases) bench/leaderboard_phases.py times the two phases apart in
   one process: `read s` (read_dump) and `fit s` (fit_categories on the arrays
   build_document gives it, same seed, rounds and threads), after a bare single-process
   loop of the reader's msgspec decoders over every line (`decode s`). The fit's arithmetic
   is what the published bytes depend on, and a reader on that parser (the fastest
   measured) parses no faster than the loop spread over every CPU, so
   (decode s / CPUs + fit s) / baseline is a floor on the ratio.
4. Scores accuracy against truth.json: Spearman of rating_style_controlled vs the true
   (style-free) strengths for models with >= 300 votes, and how often the 95 % CIs
   [ci_low_sc, ci_high_sc] contain the truth (non-provisional models), per category and
   pooled. The raw ratings are scored too, for information: they carry the voters' style
   bias by construction, so they are expected to miss.

On the 100k dump (or --arena-rank-size) it also times arena-rank 0.1.1 in a separate venv
(.venv-bench, created on first use: arena-rank pulls jax/pandas and must not enter the
project's lock file), through bench/arena_rank_runner.py: per category, plain
Bradley-Terry and the contextual (style-controlled) model, each with its default sandwich
CIs and with a --rounds bootstrap. It gets the dump already parsed by our reader (one row
per voted battle: weighted-win fraction, total vote weight, our normalised style
differences) -- the same likelihood as one row per vote, and the same battle-level
bootstrap unit as ours, with half the rows; conversion time is excluded from its timing,
our parse is included in ours. --arena-rank-rounds N < --rounds runs N rounds and
extrapolates linearly (printed as such).

Results: a table on stdout and bench/results/leaderboard-<YYYY-MM-DD>.json (git-ignored).

    python bench/leaderboard_bench.py                 # everything (the project venv's python)
    python bench/leaderboard_bench.py --sizes 100k --arena-rank-rounds 10   # quick look
    python bench/leaderboard_bench.py --sizes 1m,5m --skip-arena-rank       # engine only
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from atlas_assets.core.atomic import atomic_write_text

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
SIZES = {"100k": 100_000, "1m": 1_000_000, "5m": 5_000_000}
CATEGORIES = ("chat-writing", "chat-coding", "chat-reasoning", "browser-use")
ARENA_RANK_PIN = "arena-rank==0.1.1"
ENGINE_SEED = 42
SPEARMAN_MIN_VOTES = 300

# Targets (seconds / MB); None = no target at that size.
TARGET_SECONDS = {1_000_000: 15.0, 5_000_000: 20.0}
TARGET_PEAK_MB = {5_000_000: 1536.0}
TARGET_RATIO_ORJSON = 1.0  # compute wall time / bare orjson.loads loop over the same files

ORJSON_LOOP = """\
import sys, time, orjson
loads = orjson.loads
started = time.perf_counter()
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        for line in handle:
            loads(line)
print(time.perf_counter() - started)
"""
TARGET_RATIO_BOOTSTRAP = 150.0
TARGET_RATIO_SANDWICH = 1.0
TARGET_SPEARMAN = 0.95
TARGET_COVERAGE = (0.90, 0.98)


# --------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------


def parse_size(text: str) -> tuple[str, int]:
    t = text.strip().lower().replace("_", "")
    if t in SIZES:
        return t, SIZES[t]
    mult = 1
    if t.endswith("k"):
        mult, t = 1_000, t[:-1]
    elif t.endswith("m"):
        mult, t = 1_000_000, t[:-1]
    n = int(float(t) * mult)
    if n < 1:
        raise argparse.ArgumentTypeError(f"bad size {text!r}")
    label = f"{n // 1_000_000}m" if n % 1_000_000 == 0 else f"{n // 1000}k" if n % 1000 == 0 else str(n)
    return label, n


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def _tree_rss_bytes(root: int) -> int:
    """Summed RSS of `root` and all its descendants, from /proc (Linux); 0 if unavailable."""
    total = 0
    stack = [root]
    seen = set()
    page = os.sysconf("SC_PAGE_SIZE")
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/statm") as fh:
                total += int(fh.read().split()[1]) * page
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as fh:
                    stack.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return total


def run_measured(cmd: list[str], *, timeout: float, log_path: Path) -> dict[str, Any]:
    """Run `cmd`; wall seconds, exit code, getrusage peak RSS and sampled process-tree peak RSS."""
    with open(log_path, "wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        tree_peak = 0
        status = None
        usage = None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid == proc.pid:
                break
            tree_peak = max(tree_peak, _tree_rss_bytes(proc.pid))
            if time.perf_counter() - t0 > timeout:
                os.killpg(proc.pid, 9)
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.05)
        seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {
        "seconds": seconds,
        "returncode": proc.returncode,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,  # the process and the children it waited for
        "peak_rss_mb": usage.ru_maxrss / 1024.0,  # Linux: KiB
        "peak_tree_rss_mb": max(tree_peak, usage.ru_maxrss * 1024) / 2**20,
        "timed_out": seconds > timeout,
    }


def orjson_loop_seconds(folder: Path) -> float:
    """Seconds of a bare single-process orjson.loads loop over battles.jsonl and votes.jsonl."""
    done = subprocess.run(
        [sys.executable, "-c", ORJSON_LOOP, str(folder / "battles.jsonl"), str(folder / "votes.jsonl")],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(done.stdout)


def phase_seconds(folder: Path, rounds: int) -> dict[str, float]:
    """read_dump and fit_categories timed apart, in one process (bench/leaderboard_phases.py)."""
    done = subprocess.run(
        [sys.executable, str(BENCH / "leaderboard_phases.py"), str(folder / "battles.jsonl"), str(folder / "votes.jsonl")]
        + [str(ENGINE_SEED), str(rounds)],
        check=True,
        capture_output=True,
        text=True,
    )
    phases: dict[str, float] = json.loads(done.stdout)
    return phases


def engine_command() -> list[str]:
    exe = Path(sys.executable).parent / "humaneval-ratings"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("humaneval-ratings")
    if found:
        return [found]
    return [sys.executable, "-m", "atlas_assets.ratings.cli"]


# --------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------


def ensure_dump(data_dir: Path, n_votes: int, models: int, seed: int) -> tuple[Path, float | None]:
    """The cached dump for (size, models, seed, generator version); generated when missing."""
    from atlas_assets.ratings.sample import GENERATOR_VERSION

    folder = data_dir / f"votes{n_votes}-models{models}-seed{seed}-gen{GENERATOR_VERSION}"
    truth = folder / "truth.json"
    if truth.exists() and (folder / "battles.jsonl").exists() and (folder / "votes.jsonl").exists():
        params = json.loads(truth.read_text())["params"]
        if params.get("n_votes") == n_votes and params.get("n_models") == models and params.get("seed") == seed:
            return folder, None
    log(f"generating {n_votes:,} votes -> {folder.relative_to(REPO) if folder.is_relative_to(REPO) else folder}")
    cmd = [
        sys.executable,
        "-m",
        "atlas_assets.ratings.sample",
        "--out",
        str(folder),
        "--votes",
        str(n_votes),
        "--models",
        str(models),
        "--seed",
        str(seed),
        "--categories",
        ",".join(CATEGORIES),
    ]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    return folder, time.perf_counter() - t0


# --------------------------------------------------------------------------------------
# accuracy
# --------------------------------------------------------------------------------------


def accuracy(leaderboard: dict[str, Any], truth: dict[str, Any]) -> dict[str, Any]:
    import numpy as np
    from scipy.stats import spearmanr

    min_votes = leaderboard["metadata"]["min_votes"]
    out: dict[str, Any] = {"categories": {}}
    pooled = {"sc": [0, 0], "raw": [0, 0]}
    spearman_sc = []
    for section in leaderboard["categories"]:
        name = section["category"]
        entries = section["entries"]
        strengths = truth["strengths"].get(name, {})
        entries = [e for e in entries if e["model"] in strengths]
        if not entries:
            continue
        true = np.array([strengths[e["model"]] for e in entries])
        true = true - true.mean() + 1000.0  # the engine centres on the models it rates
        votes = np.array([e["vote_count"] for e in entries])
        well = votes >= SPEARMAN_MIN_VOTES
        rated = votes >= min_votes
        info: dict[str, Any] = {"models": len(entries), f"models_ge_{SPEARMAN_MIN_VOTES}_votes": int(well.sum())}
        for kind, (r, lo, hi) in {
            "sc": ("rating_style_controlled", "ci_low_sc", "ci_high_sc"),
            "raw": ("rating", "ci_low", "ci_high"),
        }.items():
            rating = np.array([e[r] for e in entries])
            low = np.array([e[lo] for e in entries])
            high = np.array([e[hi] for e in entries])
            rho = float(spearmanr(rating[well], true[well])[0]) if well.sum() >= 3 else None
            inside = int(((true >= low) & (true <= high))[rated].sum())
            pooled[kind][0] += inside
            pooled[kind][1] += int(rated.sum())
            info[kind] = {
                "spearman": rho,
                "coverage": inside / int(rated.sum()) if rated.any() else None,
                "mean_abs_error": float(np.mean(np.abs(rating[well] - true[well]))) if well.any() else None,
                "mean_ci_width": float(np.mean((high - low)[rated])) if rated.any() else None,
            }
            if kind == "sc" and rho is not None:
                spearman_sc.append(rho)
        info["style_coefficients"] = section.get("style_coefficients")
        info["style_coefficients_expected"] = truth.get("style_coefficients_expected", {}).get(name)
        out["categories"][name] = info
    out["spearman_sc_min"] = min(spearman_sc) if spearman_sc else None
    out["coverage_sc"] = pooled["sc"][0] / pooled["sc"][1] if pooled["sc"][1] else None
    out["coverage_raw"] = pooled["raw"][0] / pooled["raw"][1] if pooled["raw"][1] else None
    raw_rhos = [c["raw"]["spearman"] for c in out["categories"].values() if c["raw"]["spearman"] is not None]
    out["spearman_raw_min"] = min(raw_rhos) if raw_rhos else None
    return out


# --------------------------------------------------------------------------------------
# arena-rank
# --------------------------------------------------------------------------------------


def bench_python(args: argparse.Namespace) -> Path:
    """The interpreter that has arena-rank: --arena-python, or .venv-bench (created if needed)."""
    if args.arena_python:
        return Path(args.arena_python)
    venv = REPO / ".venv-bench"
    py = venv / "bin" / "python"
    probe = [str(py), "-c", "import arena_rank.models.bradley_terry"]
    if py.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return py
    log(f"creating {venv.relative_to(REPO)} with {ARENA_RANK_PIN} (one-off; pulls jax and pandas)")
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", ARENA_RANK_PIN], check=True)
    subprocess.run(probe, check=True)
    return py


def export_for_arena_rank(folder: Path, npz: Path) -> dict[str, Any]:
    """Our parsed arrays -> one row per voted battle, for arena_rank_runner.py."""
    import numpy as np

    from atlas_assets.ratings.dump import read_dump
    from atlas_assets.ratings.fit import style_design

    dump = read_dump(folder / "battles.jsonl", folder / "votes.jsonl")
    total = dump.wins_a + dump.wins_b
    outcome = dump.wins_a / total
    z = np.zeros((dump.n_battles, 4))
    for c in range(len(dump.header.categories)):
        rows = np.flatnonzero(dump.category == c)
        if rows.size:
            zc, _ = style_design(dump.features_a[rows], dump.features_b[rows])
            z[rows] = zc.T
    np.savez(
        npz,
        categories=np.array(dump.header.categories),
        models=np.array(dump.models),
        cat=dump.category.astype(np.int64),
        model_a=dump.model_a.astype(np.int64),
        model_b=dump.model_b.astype(np.int64),
        outcome=outcome,
        weight=total,
        z=z,
    )
    return {"rows": int(dump.n_battles), "votes": int(dump.vote_count.sum())}


def run_arena_rank(args: argparse.Namespace, folder: Path, work: Path) -> dict[str, Any]:
    py = bench_python(args)
    npz = work / "arena_rank_input.npz"
    t0 = time.perf_counter()
    shape = export_for_arena_rank(folder, npz)
    log(
        f"arena-rank input: {shape['rows']:,} battle rows ({shape['votes']:,} votes), converted in "
        f"{time.perf_counter() - t0:.1f}s (not timed)"
    )
    rounds = args.arena_rank_rounds or args.rounds
    cmd = [
        str(py),
        str(BENCH / "arena_rank_runner.py"),
        "--input",
        str(npz),
        "--rounds",
        str(rounds),
        "--target-rounds",
        str(args.rounds),
        "--seed",
        str(ENGINE_SEED),
    ]
    note = f", extrapolated to {args.rounds}" if rounds < args.rounds else ""
    log(f"running arena-rank ({rounds} bootstrap rounds{note}); this is the slow part")
    env = dict(os.environ, PYTHONWARNINGS="ignore", TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, timeout=args.arena_rank_timeout, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"arena-rank runner failed with exit code {done.returncode}")
    result = json.loads(done.stdout)
    result["input"] = shape
    result["python"] = str(py)
    return result


# --------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------


def _fmt(x: float | None, spec: str = ".1f", none: str = "-") -> str:
    return none if x is None else format(x, spec)


def _mark(ok: bool | None) -> str:
    return "" if ok is None else (" ok" if ok else " MISS")


def print_report(report: dict[str, Any]) -> None:
    rows = report["sizes"]
    ar = report.get("arena_rank")
    print()
    print(
        f"humaneval-ratings compute, {report['params']['rounds']} bootstrap rounds, "
        f"{report['params']['models']} models, {len(CATEGORIES)} categories "
        f"({report['machine']['cpu_count']} CPUs)"
    )
    head = (
        f"{'size':>5} {'votes':>10} {'gen s':>7} {'ours s':>8} {'orjson s':>8} {'ratio':>6} {'peak MB':>8} "
        f"{'tree MB':>8} {'load':>5}  targets"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        n = r["votes"]
        tgt = []
        ratio = r["ours"]["seconds"] / r["orjson_loop_seconds"]
        tgt.append(f"ratio <= {TARGET_RATIO_ORJSON:.1f}{_mark(ratio <= TARGET_RATIO_ORJSON)}")
        if n in TARGET_SECONDS:
            tgt.append(f"<= {TARGET_SECONDS[n]:.0f} s{_mark(r['ours']['seconds'] <= TARGET_SECONDS[n])}")
        if n in TARGET_PEAK_MB:
            tgt.append(f"<= {TARGET_PEAK_MB[n]:.0f} MB{_mark(r['ours']['peak_tree_rss_mb'] <= TARGET_PEAK_MB[n])}")
        status = "" if r["ours"]["returncode"] == 0 else f"  FAILED (exit {r['ours']['returncode']})"
        print(
            f"{r['label']:>5} {n:>10,} {_fmt(r['generate_seconds']):>7} {r['ours']['seconds']:>8.2f} "
            f"{r['ours']['cpu_seconds']:>7.1f} {r['orjson_loop_seconds']:>8.2f} {ratio:>6.2f} {r['ours']['peak_rss_mb']:>8.0f} {r['ours']['peak_tree_rss_mb']:>8.0f} "
            f"{r['load_average_1min_before']:>5.1f}  {', '.join(tgt)}{status}"
        )
    for r in rows:
        if r.get("sha256"):
            print(f"{r['label']:>5} leaderboard.json sha256 {r['sha256']}")
    for r in rows:
        if r.get("phases"):
            ph = r["phases"]
            cpus = report["machine"]["cpu_count"] or 1
            floor = (ph["decode_seconds"] / cpus + ph["fit_seconds"]) / r["orjson_loop_seconds"]
            print(
                f"{r['label']:>5} phases: read {ph['read_seconds']:.2f} s, fit {ph['fit_seconds']:.2f} s"
                f" (fit/orjson {ph['fit_seconds'] / r['orjson_loop_seconds']:.2f});"
                f" bare msgspec decode {ph['decode_seconds']:.2f} s in one process"
                f" -> floor on ratio (decode/{cpus} + fit)/orjson = {floor:.2f}"
            )
    print("(cpu s: user + system CPU of compute and its worker processes; less sensitive to other load than wall time)")
    print(
        "(phases: bench/leaderboard_phases.py. The fit's arithmetic is what the bytes depend on, so with the bytes\n"
        " unchanged its time stays; a msgspec reader parses no faster than the bare decode spread over every CPU)"
    )
    print(
        "(orjson s: a bare single-process orjson.loads loop over the same two files, the faster of a run just before\n"
        " and one just after ours; ratio: ours s / orjson s)"
    )
    print(
        "(gen s: dump generation, '-' = cached; peak MB: largest process; tree MB: whole process tree;\n"
        f" load: 1-min load average just before the run, on {report['machine']['cpu_count']} CPUs; it includes the "
        "bench's own previous step, and a value well above that means other work competed and inflated the time)"
    )
    print()
    print(
        f"accuracy vs truth.json (style-controlled; Spearman over models with >= {SPEARMAN_MIN_VOTES} votes, "
        f"target >= {TARGET_SPEARMAN}; 95% CI coverage of non-provisional models, target "
        f"{TARGET_COVERAGE[0]:.0%}-{TARGET_COVERAGE[1]:.0%})"
    )
    for r in rows:
        a = r.get("accuracy")
        if not a:
            continue
        sp, cov = a["spearman_sc_min"], a["coverage_sc"]
        sp_ok = None if sp is None else sp >= TARGET_SPEARMAN
        cov_ok = None if cov is None else TARGET_COVERAGE[0] <= cov <= TARGET_COVERAGE[1]
        per = ", ".join(f"{k} {_fmt(v['sc']['spearman'], '.3f')}/{_fmt(v['sc']['coverage'], '.0%')}" for k, v in a["categories"].items())
        print(
            f"{r['label']:>5}  spearman(min) {_fmt(sp, '.4f')}{_mark(sp_ok)}  coverage {_fmt(cov, '.1%')}{_mark(cov_ok)}"
            f"  | raw ratings: spearman(min) {_fmt(a['spearman_raw_min'], '.4f')}, coverage {_fmt(a['coverage_raw'], '.1%')}"
        )
        print(f"{'':>5}  per category (spearman/coverage): {per}")
    if ar:
        print()
        ours = next((r for r in rows if r["label"] == ar["size"]), None)
        t = ar["totals"]
        if not ar["extrapolated"]:
            extra = f"{ar['rounds_run']} rounds, measured"
        elif ar.get("probe_rounds"):
            extra = (
                f"bootstrap EXTRAPOLATED to {ar['target_rounds']} rounds from runs of {ar['probe_rounds']} and "
                f"{ar['rounds_run']} rounds: fixed cost + cost per round"
            )
        else:
            extra = f"bootstrap EXTRAPOLATED proportionally from {ar['rounds_run']} rounds to {ar['target_rounds']}"
        print(
            f"arena-rank {ar.get('arena_rank_version')} on the {ar['size']} dump (jax {ar.get('jax_version')}, "
            f"bootstrap pool: {ar.get('start_method')}; {extra})"
        )
        print(
            f"  bootstrap  (BT + contextual BT, all categories): {t['bootstrap']:9.1f} s  "
            f"[BT {t.get('bt_bootstrap', 0):.1f} s, contextual {t.get('sc_bootstrap', 0):.1f} s]"
        )
        print(
            f"  sandwich   (BT + contextual BT, all categories): {t['sandwich']:9.1f} s  "
            f"[BT {t.get('bt_sandwich', 0):.1f} s, contextual {t.get('sc_sandwich', 0):.1f} s]"
        )
        if ours and ours["ours"]["returncode"] == 0:
            s = ours["ours"]["seconds"]
            rb, rs = t["bootstrap"] / s, t["sandwich"] / s
            print(
                f"  ours end to end: {s:.2f} s  ->  {rb:,.0f}x vs bootstrap (target >= {TARGET_RATIO_BOOTSTRAP:.0f}x)"
                f"{_mark(rb >= TARGET_RATIO_BOOTSTRAP)}, {rs:,.1f}x vs sandwich (target > {TARGET_RATIO_SANDWICH:.0f}x)"
                f"{_mark(rs > TARGET_RATIO_SANDWICH)}"
            )
    print()


def git_state() -> dict[str, Any]:
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain"], cwd=REPO, capture_output=True, text=True).stdout)
        return {"commit": head or None, "dirty": dirty}
    except OSError:
        return {"commit": None, "dirty": None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--sizes", default="100k,1m,5m", help="comma-separated vote counts (default 100k,1m,5m)")
    parser.add_argument("--rounds", type=int, default=100, help="bootstrap rounds, ours and arena-rank's (default 100)")
    parser.add_argument("--models", type=int, default=80, help="models in the generated dumps (default 80)")
    parser.add_argument("--seed", type=int, default=0, help="generator seed of the dumps (default 0)")
    parser.add_argument("--skip-arena-rank", action="store_true", help="do not run arena-rank")
    parser.add_argument("--skip-phases", action="store_true", help="do not time the read and the fit apart")
    parser.add_argument("--arena-rank-size", default="100k", help="dump size arena-rank runs on (default 100k)")
    parser.add_argument(
        "--arena-rank-rounds",
        type=int,
        default=None,
        help="bootstrap rounds arena-rank actually runs (default --rounds). Fewer are extrapolated linearly to "
        "--rounds from a second, cpu_count-round run (fixed cost + cost per round), printed as extrapolated. "
        "100 rounds at 100k take ~15 min on 2 cores; 20 take ~4 min",
    )
    parser.add_argument("--arena-python", default=None, help="python of an existing venv with arena-rank (default .venv-bench)")
    parser.add_argument("--arena-rank-timeout", type=float, default=4 * 3600, help="seconds (default 4 h)")
    parser.add_argument("--engine-timeout", type=float, default=1800, help="seconds per compute run (default 1800)")
    parser.add_argument("--data-dir", type=Path, default=BENCH / "data", help="dump cache (default bench/data)")
    parser.add_argument("--results-dir", type=Path, default=BENCH / "results", help="default bench/results")
    args = parser.parse_args(argv)
    sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    ar_label, ar_votes = parse_size(args.arena_rank_size)

    import numpy

    args.data_dir.mkdir(parents=True, exist_ok=True)
    args.results_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="leaderboard-bench-"))
    report: dict[str, Any] = {
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "params": {
            "rounds": args.rounds,
            "models": args.models,
            "seed": args.seed,
            "engine_seed": ENGINE_SEED,
            "categories": list(CATEGORIES),
        },
        "machine": {
            "cpu_count": os.cpu_count(),
            "python": platform.python_version(),
            "numpy": numpy.__version__,
            "platform": platform.platform(),
            "load_average_at_start": list(os.getloadavg()),
        },
        "git": git_state(),
        "engine_command": engine_command(),
        "sizes": [],
    }
    try:
        arena_folder = None
        for label, n in sizes:
            folder, gen_seconds = ensure_dump(args.data_dir, n, args.models, args.seed)
            if n == ar_votes:
                arena_folder = folder
            out = work / f"leaderboard-{label}.json"
            cmd = engine_command() + [
                "compute",
                "--battles",
                str(folder / "battles.jsonl"),
                "--votes",
                str(folder / "votes.jsonl"),
                "--out",
                str(out),
                "--seed",
                str(ENGINE_SEED),
                "--bootstrap-rounds",
                str(args.rounds),
            ]
            log(f"{label}: bare orjson.loads loop ...")
            baseline = orjson_loop_seconds(folder)
            log(f"{label}: humaneval-ratings compute ...")
            load = os.getloadavg()[0]
            measured = run_measured(cmd, timeout=args.engine_timeout, log_path=work / f"compute-{label}.log")
            baseline = min(baseline, orjson_loop_seconds(folder))
            phases = None
            if not args.skip_phases and measured["returncode"] == 0:
                log(f"{label}: read and fit timed apart ...")
                phases = phase_seconds(folder, args.rounds)
            row: dict[str, Any] = {
                "label": label,
                "votes": n,
                "dump": str(folder),
                "generate_seconds": gen_seconds,
                "dump_bytes": sum((folder / f).stat().st_size for f in ("battles.jsonl", "votes.jsonl")),
                "ours": measured,
                "orjson_loop_seconds": baseline,
                "ratio_to_orjson_loop": measured["seconds"] / baseline,
                "phases": phases,
                "load_average_1min_before": load,
            }
            if measured["returncode"] == 0:
                log(
                    f"{label}: {measured['seconds']:.2f} s (orjson loop {baseline:.2f} s, ratio "
                    f"{measured['seconds'] / baseline:.2f}), peak {measured['peak_tree_rss_mb']:.0f} MB"
                )
                row["sha256"] = hashlib.sha256(out.read_bytes()).hexdigest()
                leaderboard = json.loads(out.read_text())
                truth = json.loads((folder / "truth.json").read_text())
                row["accuracy"] = accuracy(leaderboard, truth)
            else:
                tail = (work / f"compute-{label}.log").read_text(errors="replace")[-2000:]
                log(f"{label}: compute FAILED (exit {measured['returncode']}):\n{tail}")
                row["error_tail"] = tail
            report["sizes"].append(row)
        if not args.skip_arena_rank:
            if arena_folder is None:
                arena_folder, _ = ensure_dump(args.data_dir, ar_votes, args.models, args.seed)
            try:
                result = run_arena_rank(args, arena_folder, work)
            except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as exc:
                log(f"arena-rank FAILED: {exc}")
                report["arena_rank_error"] = str(exc)
            else:
                result["size"] = ar_label
                report["arena_rank"] = result
                ours = next((r for r in report["sizes"] if r["votes"] == ar_votes), None)
                if ours and ours["ours"]["returncode"] == 0:
                    s = ours["ours"]["seconds"]
                    result["ratio_bootstrap"] = result["totals"]["bootstrap"] / s
                    result["ratio_sandwich"] = result["totals"]["sandwich"] / s
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print_report(report)
    path = args.results_dir / f"leaderboard-{dt.date.today().isoformat()}.json"
    n = 2
    while path.exists():  # keep earlier runs of the day
        path = args.results_dir / f"leaderboard-{dt.date.today().isoformat()}-{n}.json"
        n += 1
    atomic_write_text(path, json.dumps(report, indent=2, sort_keys=True) + "\n")
    log(f"results: {path}")
    failed = any(r["ours"]["returncode"] != 0 for r in report["sizes"]) or "arena_rank_error" in report
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
