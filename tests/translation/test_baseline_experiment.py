"""eval/baseline_experiment.py, the spec's entry point, in subprocesses: it validates exactly
like `atlas translation validate` (stdout, stderr, exit code), runs a baseline with
--engine, and re-executes itself with the repo's venv python from a python without the
project's dependencies."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from atlas_assets.translation.runs import read_card
from tests.helpers.translation import EXAMPLE, REPO

SCRIPT = REPO / "eval" / "baseline_experiment.py"
ATLAS = Path(sys.executable).with_name("atlas")
BARE_PYTHON = Path(sys.base_prefix) / "bin" / "python3"  # run with -S: no site-packages, so no dependencies


def _run(*cmd: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd, timeout=60)


def _script(*args: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return _run(sys.executable, SCRIPT, *args, cwd=cwd)


def _several_errors(doc: dict) -> dict:
    doc["entries"][1]["id"] = doc["entries"][0]["id"]
    del doc["entries"][2]["reference"]
    doc["entries"][3]["difficulty"] = "3"
    doc["dataset"]["license"] = "GPL-3.0"  # deprecated: a warning, on stdout
    return doc


def _corpus(kind: str, tmp_path: Path, example_doc: dict) -> Path:
    path = tmp_path / f"{kind}.json"
    if kind == "valid":
        return EXAMPLE
    if kind == "valid-trailing-newlines":
        path.write_text(EXAMPLE.read_text(encoding="utf-8") + "\n\n\n", encoding="utf-8")
    elif kind == "invalid":
        path.write_text(json.dumps(_several_errors(example_doc), ensure_ascii=False), encoding="utf-8")
    elif kind == "not-json":
        path.write_text('{"dataset": {"id": "x",\n', encoding="utf-8")
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "folder":
        path.mkdir()
    elif kind == "wrong-top-level-type":
        path.write_text("[1, 2, 3]", encoding="utf-8")
    return path


KINDS = ["valid", "valid-trailing-newlines", "invalid", "missing", "not-json", "empty", "folder", "wrong-top-level-type"]


def test_validates_exactly_like_atlas_translation_validate(tmp_path, example_doc):
    paths = {kind: _corpus(kind, tmp_path, example_doc) for kind in KINDS}
    spawn = lambda *cmd: subprocess.Popen([str(c) for c in cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)  # noqa: E731
    started = {
        kind: (spawn(sys.executable, SCRIPT, "--dataset", path), spawn(ATLAS, "translation", "validate", path))
        for kind, path in paths.items()
    }
    for kind, (script, atlas) in started.items():
        ours, theirs = script.communicate(timeout=60), atlas.communicate(timeout=60)
        assert (script.returncode, *ours) == (atlas.returncode, *theirs), kind
        assert script.returncode == (0 if kind.startswith("valid") else 1), kind
        assert "Traceback" not in ours[1] and "Errno" not in ours[1], kind


def test_several_errors_are_all_reported(tmp_path, example_doc):
    script = _script("--dataset", _corpus("invalid", tmp_path, example_doc))
    assert script.returncode == 1
    errors = [line for line in script.stderr.splitlines() if line.startswith("ERROR ")]
    assert len(errors) == 3 and any("duplicate id" in e for e in errors) and any("field reference" in e for e in errors)
    assert script.stderr.rstrip().endswith("INVALID (3 error(s))")
    assert script.stdout.startswith("WARNING ") and "GPL-3.0-only" in script.stdout


def test_runs_from_any_directory_with_a_relative_dataset(tmp_path):
    shutil.copy(EXAMPLE, tmp_path / "mine.json")
    elsewhere = _script("--dataset", "mine.json", cwd=tmp_path)
    atlas = _run(ATLAS, "translation", "validate", "mine.json", cwd=tmp_path)
    assert elsewhere.returncode == 0 and elsewhere.stdout == atlas.stdout and elsewhere.stderr == ""


def test_with_engine_it_runs_a_baseline_and_writes_a_run_card(tmp_path):
    out = tmp_path / "run"
    ran = _script("--dataset", EXAMPLE, "--engine", "sim-strong", "--limit", "4", "--concurrency", "2", "--out", out, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    validated = _run(ATLAS, "translation", "validate", EXAMPLE)
    assert ran.stdout.startswith(validated.stdout)  # the validation summary first, then the run
    assert "4/23 segments, sent 4, resumed 0, failed 0" in ran.stdout and f"run card: {out / 'run_card.json'}" in ran.stdout
    card = read_card(out)
    assert card.complete and card.run.segments_done == 4 and card.run.concurrency == 2 and card.engine.name == "sim-strong"
    again = _script("--dataset", EXAMPLE, "--engine", "sim-strong", "--limit", "4", "--out", out, cwd=tmp_path)
    assert again.returncode == 0 and "sent 0, resumed 4" in again.stdout


def test_an_invalid_corpus_is_not_run(tmp_path, example_doc):
    out = tmp_path / "run"
    ran = _script("--dataset", _corpus("invalid", tmp_path, example_doc), "--engine", "sim-strong", "--out", out)
    assert ran.returncode == 1 and "INVALID (3 error(s))" in ran.stderr and not out.exists()


def test_engine_and_option_errors(tmp_path):
    unknown = _script("--dataset", EXAMPLE, "--engine", "no-such-engine", "--out", tmp_path / "run")
    assert unknown.returncode == 1 and not (tmp_path / "run").exists()
    assert unknown.stderr.splitlines()[-1] == (
        "atlas: error: --engine: unknown engine 'no-such-engine'; the engines file defines: "
        "sim-flaky, sim-strong, sim-text-only, sim-weak (or pass a URL)"
    )
    no_engines = _script("--dataset", EXAMPLE, "--engine", "sim-strong", "--engines", tmp_path / "nope.yaml")
    assert (
        no_engines.returncode == 1
        and no_engines.stderr.splitlines()[-1] == f"atlas: error: --engines: no such file: {tmp_path / 'nope.yaml'}"
    )
    without_engine = _script("--dataset", EXAMPLE, "--limit", "3", "--model", "m")
    assert without_engine.returncode == 2 and "--model, --limit: only with --engine" in without_engine.stderr
    no_dataset = _script("--engine", "sim-strong")
    assert no_dataset.returncode == 2 and "the following arguments are required: --dataset" in no_dataset.stderr
    bad_limit = _script("--dataset", EXAMPLE, "--engine", "sim-strong", "--limit", "0")
    assert bad_limit.returncode == 2 and "argument --limit: must be >= 1, got 0" in bad_limit.stderr


def test_help_teaches():
    shown = _script("--help")
    assert shown.returncode == 0
    for text in ("6. Validate the file", "examples:", "--engine sim-strong", "exit status:", "130", "--concurrency C"):
        assert text in shown.stdout


def _checkout(tmp_path: Path, venv_python: str | None) -> Path:
    """A copy of the script in a checkout without the project; with a .venv/bin/python that
    records it ran, then hands over to this test's python (which has the project)."""
    (tmp_path / "eval").mkdir()
    script = tmp_path / "eval" / SCRIPT.name
    shutil.copy(SCRIPT, script)
    if venv_python is not None:
        python = tmp_path / ".venv" / "bin" / "python"
        python.parent.mkdir(parents=True)
        python.write_text(venv_python)
        python.chmod(0o755)
    return script


def test_a_python_without_the_dependencies_re_executes_with_the_venv(tmp_path):
    marker = tmp_path / "venv-python-ran"
    script = _checkout(tmp_path, f'#!/bin/sh\ntouch "{marker}"\nexec "{sys.executable}" "$@"\n')
    bare = _run(BARE_PYTHON, "-S", script, "--dataset", EXAMPLE, cwd=tmp_path)
    atlas = _run(ATLAS, "translation", "validate", EXAMPLE)
    assert marker.is_file()
    assert (bare.returncode, bare.stdout, bare.stderr) == (atlas.returncode, atlas.stdout, atlas.stderr)


def test_without_a_venv_it_says_how_to_set_up(tmp_path):
    script = _checkout(tmp_path, None)
    bare = _run(BARE_PYTHON, "-S", script, "--dataset", EXAMPLE, cwd=tmp_path)
    assert bare.returncode == 1 and bare.stdout == ""
    assert len(bare.stderr.splitlines()) == 1 and "make .venv/.installed" in bare.stderr and "dependencies are missing" in bare.stderr


def test_a_venv_that_lacks_them_too_is_not_re_executed_forever(tmp_path):
    count = tmp_path / "runs"
    script = _checkout(tmp_path, f'#!/bin/sh\necho x >> "{count}"\nexec "{BARE_PYTHON}" -S "$@"\n')
    bare = _run(BARE_PYTHON, "-S", script, "--dataset", EXAMPLE, cwd=tmp_path)
    assert bare.returncode == 1 and "make .venv/.installed" in bare.stderr
    assert count.read_text() == "x\n"
