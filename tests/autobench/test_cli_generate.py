"""`autobench dataset generate` through the real CLI in a subprocess."""

from __future__ import annotations

from pathlib import Path

import yaml

from autobench import schemas
from tests.helpers.autobench import REPO, run_cli

GEN = "autobench.examples.routing:generate_cases"


def _generate(tmp_path: Path, request: Path, *extra: str, generator: str = GEN):
    return run_cli(
        "dataset",
        "generate",
        generator,
        "--request",
        str(request),
        "--output",
        "datasets/generated-routing.yaml",
        "--id",
        "generated-routing",
        "--version",
        "v1",
        *extra,
        cwd=tmp_path,
    )


def test_generate_refuse_force_incomplete_and_failure(tmp_path: Path, request_file: Path) -> None:
    out = tmp_path / "datasets" / "generated-routing.yaml"
    manifest = tmp_path / "datasets" / "generated-routing.generation.yaml"
    incomplete = tmp_path / "datasets" / "generated-routing.incomplete.yaml"

    done = _generate(tmp_path, request_file)
    assert done.returncode == 0, done.stderr
    assert out.exists() and manifest.exists() and not incomplete.exists()
    data = yaml.safe_load(out.read_text())["dataset"]
    assert data["id"] == "generated-routing" and data["version"] == "v1"
    assert data["cases"][0]["id"] == "reviewed-refund"
    m = yaml.safe_load(manifest.read_text())["generation"]
    assert m["request"]["seed"] == 17 and m["request"]["settings"]["count"] == 4 and m["generator"]["determinism"] == "guaranteed"
    before = out.read_bytes(), manifest.read_bytes()

    refused = _generate(tmp_path, request_file)
    assert refused.returncode == 1 and "--force" in refused.stderr
    assert (out.read_bytes(), manifest.read_bytes()) == before

    forced = _generate(tmp_path, request_file, "--force")
    assert forced.returncode == 0, forced.stderr
    assert out.read_bytes() == before[0]  # guaranteed generator: byte-identical dataset
    assert manifest.read_bytes() != before[1]  # new timestamps
    before = out.read_bytes(), manifest.read_bytes()

    request_file.write_text(request_file.read_text().replace("count: 4", "count: 4\n      incomplete_after: 2"))
    partial = _generate(tmp_path, request_file, "--force")
    assert partial.returncode == 2, partial.stderr
    assert incomplete.exists() and "incomplete" in partial.stderr
    assert (out.read_bytes(), manifest.read_bytes()) == before

    failed = _generate(tmp_path, request_file, "--force", generator="autobench.examples.routing:failing_generator")
    assert failed.returncode == 1 and "upstream provider unavailable" in failed.stderr
    assert (out.read_bytes(), manifest.read_bytes()) == before


def test_failure_and_incomplete_on_fresh_output_write_nothing_else(tmp_path: Path, request_file: Path) -> None:
    failed = _generate(tmp_path, request_file, generator="autobench.examples.routing:failing_generator")
    assert failed.returncode == 1 and "RuntimeError" in failed.stderr
    assert not (tmp_path / "datasets").exists() or not any((tmp_path / "datasets").iterdir())
    request_file.write_text(request_file.read_text().replace("count: 4", "count: 4\n      incomplete_after: 1"))
    partial = _generate(tmp_path, request_file, "--force")
    assert partial.returncode == 2
    assert sorted(p.name for p in (tmp_path / "datasets").iterdir()) == ["generated-routing.incomplete.yaml"]


def test_request_errors_name_the_field(tmp_path: Path, request_file: Path) -> None:
    request_file.write_text(request_file.read_text().replace("count: 4", "count: 4\n    bogus: 1"))
    bad = _generate(tmp_path, request_file)
    assert bad.returncode == 1 and "generation.request.bogus" in bad.stderr
    assert not (tmp_path / "datasets").exists()
    usage = run_cli("dataset", "generate", GEN, cwd=tmp_path)
    assert usage.returncode == 64 and "--request" in usage.stderr


def test_schemas_have_not_drifted() -> None:
    assert schemas.drift(REPO) == [], "run `autobench schemas` and commit schemas/0.3.0/"
    assert (REPO / "schemas" / "0.3.0" / "generation_request_schema.json").is_file()
    check = run_cli("schemas", "--check", cwd=REPO)
    assert check.returncode == 0, check.stderr


def test_written_yaml_validates_against_published_schema(tmp_path: Path, request_file: Path) -> None:
    from autobench.files import DatasetFile, GenerationManifestFile, GenerationRequestFile

    assert _generate(tmp_path, request_file).returncode == 0
    GenerationRequestFile.model_validate(yaml.safe_load(request_file.read_text()))
    DatasetFile.model_validate(yaml.safe_load((tmp_path / "datasets/generated-routing.yaml").read_text()))
    GenerationManifestFile.model_validate(yaml.safe_load((tmp_path / "datasets/generated-routing.generation.yaml").read_text()))
