"""Curated datasets (#14 deliverable 1): `autobench dataset freeze` stamps the content sha256
that `autobench run` checks, with the same version and pin checks as generated ones."""

from __future__ import annotations

from pathlib import Path

from autobench import files
from tests.helpers.autobench import CURATED, run_cli

BENCH = """\
benchmark:
  routing:
    dataset:
      source: file://datasets/curated.yaml
      version: {version}
{pin}    run:
      python: autobench.examples.benchmark_task:run
      concurrency: 1
    variants:
      current: {{}}
"""


def _frozen(tmp_path: Path, version: str = "v1", pin: str = "") -> tuple[Path, Path]:
    dataset = tmp_path / "datasets" / "curated.yaml"
    dataset.parent.mkdir()
    dataset.write_text(CURATED)
    frozen = run_cli("dataset", "freeze", str(dataset), cwd=tmp_path)
    assert frozen.returncode == 0, frozen.stderr
    assert "curated dataset routing-curated@v1, 2 cases" in frozen.stdout
    bench = tmp_path / "benchmark.yaml"
    bench.write_text(BENCH.format(version=version, pin=""))
    return dataset, bench


def test_freeze_stamps_a_sha256_that_run_checks(tmp_path: Path) -> None:
    dataset, bench = _frozen(tmp_path)
    loaded = files.load_dataset(dataset).dataset
    assert loaded.source == "curated" and loaded.generation is None
    assert loaded.sha256 == files.dataset_sha256(loaded.model_dump(mode="json"))
    assert "generation" not in dataset.read_text() and dataset.read_text().startswith("# yaml-language-server: $schema=")
    ok = run_cli("run", str(bench), cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert "routing-curated@v1" in ok.stdout and "100.0%" in ok.stdout
    again = run_cli("dataset", "freeze", str(dataset), cwd=tmp_path)  # idempotent
    assert again.returncode == 0 and "unchanged" in again.stdout
    # edited after freezing: refused, naming the file, until frozen again
    dataset.write_text(dataset.read_text().replace("route: support", "route: billing"))
    refused = run_cli("run", str(bench), cwd=tmp_path)
    assert refused.returncode == 1
    assert str(dataset) in refused.stderr and "edited after it was frozen" in refused.stderr and "dataset freeze" in refused.stderr
    refrozen = run_cli("dataset", "freeze", str(dataset), cwd=tmp_path)
    assert refrozen.returncode == 0 and f"was {loaded.sha256}" in refrozen.stdout
    assert run_cli("run", str(bench), cwd=tmp_path).returncode == 0


def test_curated_wrong_version_or_pin_refused(tmp_path: Path) -> None:
    dataset, bench = _frozen(tmp_path, version="v2")
    wrong = run_cli("run", str(bench), cwd=tmp_path)
    assert wrong.returncode == 1 and "dataset version 'v1' does not match the benchmark's 'v2'" in wrong.stderr
    bench.write_text(BENCH.format(version="v1", pin="      sha256: '" + "0" * 64 + "'\n"))
    pinned = run_cli("run", str(bench), cwd=tmp_path)
    assert pinned.returncode == 1 and "does not match the pinned" in pinned.stderr and str(dataset) in pinned.stderr
    assert not (tmp_path / ".autobench").exists()
    sha = files.load_dataset(dataset).dataset.sha256
    bench.write_text(BENCH.format(version="v1", pin=f"      sha256: '{sha}'\n"))
    assert run_cli("run", str(bench), cwd=tmp_path).returncode == 0


def test_unfrozen_generated_and_invalid_refused(tmp_path: Path, request_file: Path) -> None:
    draft = tmp_path / "draft.yaml"
    draft.write_text(CURATED)
    try:
        files.load_dataset(draft)
    except files.DocumentError as exc:
        assert "dataset.sha256: required field is missing" in str(exc)
    else:
        raise AssertionError("an unfrozen dataset loaded")
    # source: generated is not frozen by hand
    gen = run_cli(
        "dataset",
        "generate",
        "autobench.examples.routing:generate_cases",
        "--request",
        str(request_file),
        "--output",
        "gen.yaml",
        "--id",
        "gen",
        "--version",
        "v1",
        cwd=tmp_path,
    )
    assert gen.returncode == 0, gen.stderr
    before = (tmp_path / "gen.yaml").read_bytes()
    refused = run_cli("dataset", "freeze", "gen.yaml", cwd=tmp_path)
    assert refused.returncode == 1 and "generated dataset is not frozen by hand" in refused.stderr
    assert (tmp_path / "gen.yaml").read_bytes() == before
    # curated with generation, or duplicate ids: named errors, nothing written
    bad = tmp_path / "bad.yaml"
    bad.write_text(CURATED.replace("id: login", "id: refund"))
    dup = run_cli("dataset", "freeze", "bad.yaml", "--output", "out.yaml", cwd=tmp_path)
    assert dup.returncode == 1 and "duplicate case id 'refund'" in dup.stderr and "bad.yaml" in dup.stderr
    assert not (tmp_path / "out.yaml").exists()
    # --output leaves the draft alone
    out = run_cli("dataset", "freeze", "draft.yaml", "--output", "frozen.yaml", cwd=tmp_path)
    assert out.returncode == 0 and draft.read_text() == CURATED
    assert files.load_dataset(tmp_path / "frozen.yaml").dataset.id == "routing-curated"
