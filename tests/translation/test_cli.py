"""`atlas translation ...` as a user meets it: help with descriptions, examples and exit
codes; errors in what the user gave named by their option, on one line, exit 1; and a
real run interrupted by SIGINT against a slow loopback engine: exit 130, a partial card,
and a rerun that sends only the missing segments."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from atlas_assets.cli import main
from atlas_assets.simulator.handle import start_simulator
from atlas_assets.simulator.profiles import SimulatorProfile
from atlas_assets.translation.runs import CARD, CHECKPOINT, read_card, run_translation
from atlas_assets.translation.schema import load_corpus
from atlas_assets.translation.scoring import segments
from tests.helpers.translation import EXAMPLE, REPO, STRONG

ATLAS = Path(sys.executable).with_name("atlas")
SEGMENTS = len(segments(load_corpus(EXAMPLE).corpus))
KNOWN = "sim-flaky, sim-strong, sim-text-only, sim-weak"


@pytest.mark.parametrize(
    "command, says",
    [
        (
            [],
            [
                "validate",
                "import-flores",
                "import FILE",
                "run",
                "report RUN_DIR",
                "compare",
                "eval/baseline_experiment.py",
                "exit status: 0",
                "130",
            ],
        ),
        (["validate"], ["examples:", "variant_class", "exit status: 0 every file is valid", "1 a file is invalid", "2 usage"]),
        (["import-flores"], ["examples:", "DIR/{split}/{code}.{split}", "exit status: 0 the corpus was written", "2 usage"]),
        (
            ["run"],
            ["examples:", "checkpoint.jsonl", "Ctrl-C", "exits 130", "exit status: 0 the run finished", "130 interrupted", "--targets"],
        ),
        (["report"], ["examples:", "languages.svg", "joint-bootstrap", "exit status: 0 written", "2 usage"]),
        (["compare"], ["examples:", "paired bootstrap", "Holm-adjusted", "exit status: 0 compared", "1 a card cannot be read", "2 usage"]),
    ],
)
def test_help_describes_examples_and_exit_codes(command, says, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["translation", *command, "--help"])
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    for text in says:
        assert text in shown, text


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """What the error cases name: {T} in their argv and messages (read-only for them)."""
    tmp_path = tmp_path_factory.mktemp("named")
    example_doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    bad = dict(example_doc, entries=example_doc["entries"] + [{"id": 1}])
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    (tmp_path / "empty-dir").mkdir()
    (tmp_path / "src.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "tgt.txt").write_text("un\n", encoding="utf-8")
    run_translation(EXAMPLE, STRONG, tmp_path / "card", limit=2)
    modified = tmp_path / "modified"
    modified.mkdir()
    (modified / CARD).write_bytes((tmp_path / "card" / CARD).read_bytes().replace(b'"complete": true', b'"complete": false'))
    (modified / f"{CARD}.sha256").write_bytes((tmp_path / "card" / f"{CARD}.sha256").read_bytes())
    return {"T": tmp_path}


RUN = ["translation", "run", "--dataset", str(EXAMPLE), "--engine", "sim-strong"]
FLORES = ["translation", "import-flores", "--target", "fra_Latn"]

ERRORS = [
    (["translation", "run", "--dataset", "{T}/nope.json", "--engine", "sim-strong"], "--dataset: no such file: {T}/nope.json"),
    (["translation", "run", "--dataset", "{T}/empty-dir", "--engine", "sim-strong"], "--dataset: {T}/empty-dir is a folder, not a file"),
    (["translation", "run", "--dataset", "{T}/bad.json", "--engine", "sim-strong"], "--dataset: invalid translation corpus:"),
    ([*RUN, "--engines", "{T}/nope.yaml"], "--engines: no such file: {T}/nope.yaml"),
    ([*RUN, "--engines", "{T}/empty-dir"], "--engines: {T}/empty-dir is a folder, not a file"),
    ([*RUN, "--out", "{T}/a-file"], "--out: {T}/a-file is a file, not a run folder"),
    ([*RUN, "--out", "{T}/a-file/run"], "--out: {T}/a-file is a file, so {T}/a-file/run cannot be created"),
    (
        [*RUN[:-1], "no-such-engine", "--out", "{T}/r"],
        f"--engine: unknown engine 'no-such-engine'; the engines file defines: {KNOWN} (or pass a URL)",
    ),
    (
        [*RUN[:-1], "http://", "--out", "{T}/r"],
        f"--engine: engine URL 'http://': expected http(s)://host[:port][/path]; or an engine name from {REPO / 'engines.yaml'}: {KNOWN}",
    ),
    (
        [*RUN[:-1], "http://127.0.0.1:port", "--out", "{T}/r"],
        "--engine: engine URL 'http://127.0.0.1:port': Port could not be cast to integer value as 'port'; or an engine name",
    ),
    ([*RUN[:-1], "http://127.0.0.1:99999", "--out", "{T}/r"], "--engine: engine URL 'http://127.0.0.1:99999': Port out of range 0-65535"),
    ([*RUN[:-1], "https://[::1/v1", "--out", "{T}/r"], "--engine: engine URL 'https://[::1/v1': Invalid IPv6 URL"),
    (["translation", "compare", "{T}/nope", "{T}/card"], "CARD_A: no such file: {T}/nope"),
    (["translation", "compare", "{T}/card", "{T}/empty-dir"], "CARD_B: {T}/empty-dir has no run_card.json (not a translation run folder)"),
    (
        ["translation", "compare", "{T}/card", "{T}/modified"],
        "CARD_B: {T}/modified/run_card.json: its sha256 does not match run_card.json.sha256 (the card was modified)",
    ),
    (["translation", "compare", "{T}/card", "{T}/bad.json"], "CARD_B: {T}/bad.json: "),
    (
        [*FLORES, "--source-file", "{T}/nope.txt", "--target-file", "{T}/tgt.txt", "--out", "{T}/o.json"],
        "--source-file: no such file: {T}/nope.txt",
    ),
    (
        [*FLORES, "--source-file", "{T}/src.txt", "--target-file", "{T}/empty-dir", "--out", "{T}/o.json"],
        "--target-file: {T}/empty-dir is a folder, not a file",
    ),
    (
        [*FLORES, "--source-file", "{T}/src.txt", "--target-file", "{T}/tgt.txt", "--out", "{T}/o.json"],
        "the files are not aligned: {T}/src.txt has 2 lines, {T}/tgt.txt has 1",
    ),
    ([*FLORES, "--dir", "{T}/nope", "--out", "{T}/o.json"], "no FLORES file for eng_Latn (devtest) under {T}/nope; tried: "),
    (
        [*FLORES, "--source-file", "{T}/src.txt", "--target-file", "{T}/src.txt", "--out", "{T}/empty-dir"],
        "--out: {T}/empty-dir is a folder, not a file",
    ),
    (
        [*FLORES, "--source-file", "{T}/src.txt", "--target-file", "{T}/src.txt", "--out", "{T}/a-file/o.json"],
        "--out: {T}/a-file is a file, so {T}/a-file/o.json cannot be created",
    ),
]


@pytest.mark.parametrize("argv, says", ERRORS, ids=[f"{a[1]}-{i}" for i, (a, _) in enumerate(ERRORS)])
def test_errors_name_the_option_on_one_line(argv, says, files, capsys):
    assert main([part.format(**files) for part in argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("atlas: error: " + says.format(**files)), err
    assert "Errno" not in err and "Traceback" not in err
    assert not (files["T"] / "r").exists() and not (files["T"] / "o.json").exists()  # nothing created
    if says.startswith("--dataset: invalid"):
        assert "bad.json: entry 1 field id: duplicate id" in err


def test_usage_errors_exit_2(tmp_path, capsys):
    assert main([*FLORES, "--out", str(tmp_path / "o.json")]) == 2
    assert "give --dir, or --source-file and --target-file" in capsys.readouterr().err
    for argv in ([*RUN, "--limit", "0"], [*RUN, "--concurrency", "x"], ["translation", "run", "--engine", "sim-strong"]):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2


def test_a_malformed_url_is_one_line_from_the_real_cli(tmp_path):
    ran = subprocess.run([str(ATLAS), *RUN[:-1], "http://[::1", "--out", str(tmp_path / "r")], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1 and ran.stdout == ""
    assert ran.stderr.splitlines() == [
        f"atlas: error: --engine: engine URL 'http://[::1': Invalid IPv6 URL; or an engine name from {REPO / 'engines.yaml'}: {KNOWN}"
    ]


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.is_file() and path.read_bytes().count(b"\n") >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)
    raise AssertionError(f"{path} did not reach {n} lines")


def test_sigint_exits_130_with_a_partial_card_and_the_rerun_sends_only_the_rest(tmp_path):
    profile = SimulatorProfile.from_block({"name": "sim-slow", "ttft_ms": 100, "per_token_ms": 0})
    out = tmp_path / "run"
    with start_simulator(profile, translation_corpora=[EXAMPLE]) as sim:
        argv = [
            str(ATLAS),
            "translation",
            "run",
            "--dataset",
            str(EXAMPLE),
            "--engine",
            sim.base_url,
            "--out",
            str(out),
            "--concurrency",
            "2",
        ]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
        _wait_for_lines(out / CHECKPOINT, 4, proc)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
        assert proc.returncode == 130, stderr
        partial = read_card(out)
        done = partial.run.segments_done
        assert partial.complete is False and 4 <= done < SEGMENTS
        assert done == (out / CHECKPOINT).read_bytes().count(b"\n")  # the requests in flight were recorded too
        assert stderr.splitlines()[-1] == f"interrupted: {done}/{SEGMENTS} segments recorded; run the same command again to resume"
        assert f"{done}/{SEGMENTS} segments" in stdout and "Traceback" not in stderr
        resumed = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, timeout=60)
        assert resumed.returncode == 0, resumed.stderr
        assert f"sent {SEGMENTS - done}, resumed {done}" in resumed.stdout
        assert read_card(out).complete
        sent = Counter(entry.body_sha256 for entry in sim.request_log())
        assert len(sent) == SEGMENTS and set(sent.values()) == {1}  # every segment sent exactly once over both runs
