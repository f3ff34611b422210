"""Schemas that ship (package data, `autobench schemas --check` in a real non-editable
install, `$schema` lines that resolve) and help that teaches (every subcommand's --help)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import jsonschema
import pytest
import yaml

from autobench import cli, files, schemas
from autobench.examples.routing import generate_cases
from autobench.generation import generate_dataset_sync, write_generation_result
from autobench.models import CaseGeneratorInput
from tests.helpers.autobench import REPO, REQUEST_YAML, run_cli

GEN = "autobench.examples.routing:generate_cases"


def _resolve(ref: str, document: Path) -> Path:
    if ref.startswith("file://"):
        return Path(unquote(urlparse(ref).path))
    return (document.parent / ref).resolve()


def _schema_line(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    return first.split("$schema=", 1)[1]


def test_schemas_are_package_data_and_the_repo_path_links_to_them() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["autobench"]
    declared = {p.resolve() for pattern in patterns for p in (REPO / "autobench").glob(pattern)}
    assert {files.PACKAGE_SCHEMA_DIR / name for name in schemas.SCHEMAS} <= declared
    assert (REPO / "schemas" / "0.3.0").resolve() == files.PACKAGE_SCHEMA_DIR
    assert schemas.drift() == []


def test_schema_line_resolves_outside_a_project_and_is_relative_inside_one(tmp_path: Path) -> None:
    result = generate_dataset_sync(generate_cases, CaseGeneratorInput(seed=1), generator_id=GEN, dataset_id="d", version="v1")
    outside = write_generation_result(result, tmp_path / "plain" / "d.yaml")
    for path, name in ((outside.dataset, files.DATASET_SCHEMA), (outside.manifest, files.MANIFEST_SCHEMA)):
        ref = _schema_line(path)
        assert ref == (files.PACKAGE_SCHEMA_DIR / name).as_uri()
        jsonschema.validate(yaml.safe_load(path.read_text()), json.loads(_resolve(ref, path).read_text()))
    project = tmp_path / "project"
    done = run_cli("schemas", "--dir", str(project), cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.count("wrote ") == len(schemas.SCHEMAS), done.stderr
    assert run_cli("schemas", "--check", "--dir", str(project), cwd=tmp_path).returncode == 0
    inside = write_generation_result(result, project / "datasets" / "d.yaml")
    assert _schema_line(inside.dataset) == "../schemas/0.3.0/dataset_schema.json"
    assert _resolve(_schema_line(inside.dataset), inside.dataset).is_file()
    (project / "schemas" / "0.3.0" / files.DATASET_SCHEMA).write_text("{}\n")
    stale = run_cli("schemas", "--check", "--dir", str(project), cwd=tmp_path)
    assert stale.returncode == 1 and files.DATASET_SCHEMA in stale.stderr
    missing = run_cli("schemas", "--check", "--dir", str(tmp_path / "nothing"), cwd=tmp_path)
    assert missing.returncode == 1


@pytest.mark.slow
def test_non_editable_install_checks_schemas_and_writes_resolvable_schema_lines(tmp_path: Path) -> None:
    """Build the wheel, install it (no deps) into a fresh venv that borrows the project's
    dependencies, and use it from a folder outside the repo."""
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(REPO)], capture_output=True, text=True, timeout=600
    )
    if build.returncode:
        pytest.skip(f"cannot build the wheel here (needs setuptools>=77 for the build): {build.stderr[-300:]}")
    wheel = next(wheels.glob("inference_atlas-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"autobench/schema_files/0.3.0/{name}" for name in schemas.SCHEMAS} <= set(names)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "-q", "--target", str(site), str(wheel)],
        check=True,
        timeout=300,
        capture_output=True,
    )
    (site / "project-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")  # a plain path: its .pth files stay unread
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def autobench(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(python), "-m", "autobench.cli", *args], cwd=work, env=env, capture_output=True, text=True, timeout=120)

    where = subprocess.run(
        [str(python), "-c", "import autobench; print(autobench.__file__)"], cwd=work, env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert where.startswith(str(site)), where  # the installed copy, not the repo
    check = autobench("schemas", "--check")
    assert check.returncode == 0 and str(site) in check.stdout, check.stderr
    (work / "request.yaml").write_text(REQUEST_YAML)
    done = autobench("dataset", "generate", GEN, "--request", "request.yaml", "--output", "out/d.yaml", "--id", "d", "--version", "v1")
    assert done.returncode == 0, done.stderr
    for path in (work / "out" / "d.yaml", work / "out" / "d.generation.yaml"):
        schema_file = _resolve(_schema_line(path), path)
        assert schema_file.is_file() and str(schema_file).startswith(str(site))
        jsonschema.validate(yaml.safe_load(path.read_text()), json.loads(schema_file.read_text()))
    shutil.rmtree(venv)


def _commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found = [(prefix, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.extend(_commands(sub, (*prefix, name)))
    return found


def test_every_help_teaches_what_examples_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    commands = _commands(cli.build_parser())
    assert {c for c, _ in commands} >= {(), ("dataset",), ("dataset", "generate"), ("run",), ("schemas",)}
    for words, _ in commands:
        with pytest.raises(SystemExit) as exited:
            cli.main([*words, "--help"])
        assert exited.value.code == 0
        text = capsys.readouterr().out
        assert "exit codes:" in text and "64" in text and "incomplete" in text, words
        if words != ("dataset",):  # a group: its help lists the one command, whose help has the examples
            assert "examples:" in text and f"autobench {' '.join(words)}".strip() in text.split("examples:", 1)[1], words
    top = run_cli("--help", cwd=REPO)
    assert top.returncode == 0 and "The `autobench` command." not in top.stdout
    assert top.stdout.splitlines()[2].startswith("Autobench: generate reviewed benchmark datasets")
