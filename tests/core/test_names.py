"""core/names.py against the installed Dagster: the rules it states are Dagster's own, so an
upgrade that changes them fails here; and the project's rules on top."""

from __future__ import annotations

import warnings

import dagster as dg
import pytest
from pydantic import BaseModel, ValidationError

from atlas_assets.core.names import (
    MAX_NAME_BYTES,
    PartitionKey,
    asset_key_part_problem,
    dagster_asset_key_part_problem,
    dagster_partition_key_problem,
    partition_key_problem,
)

HOSTILE = [
    "a|b",
    "x...y",
    "...",
    "a..b",
    "..",
    ".",
    "",
    " ",
    "   ",
    "a\nb",
    "ab\n",
    "a\rb",
    "a\tb",
    "a\0b",
    "a\ab",
    "a\bb",
    "a\fb",
    "a\vb",
    "a\x1bb",
    "a\x7fb",
    "a\u2028b",
    "a\u200bb",
    "a,b",
    "a[b",
    "a]b",
    "[a]",
    " lead",
    "trail ",
    "a b",
    "a/b",
    "a\\b",
    "a:b",
    "modèle-ü",
    "模型",
    "😀",
    "x" * 5000,
    "é" * 101,
    "sim-strong",
    "eval.v1_x",
]
# every character once inside a name (Dagster's lists are short: any it adds shows up here)
PROBES = [f"a{chr(cp)}b" for cp in [*range(0x3000), 0xFEFF, 0xFFFD, 0x1F600, 0xE0001, 0x10FFFD]]


def _dagster_multi_refuses(name: str) -> bool:
    """What the evals/translation shell builds: a static dimension of a multi-partitions definition."""
    try:
        dg.MultiPartitionsDefinition({"engine": dg.StaticPartitionsDefinition([name]), "workload": dg.StaticPartitionsDefinition(["w"])})
    except dg.DagsterInvalidDefinitionError:
        return True
    return False


def _dagster_asset_refuses(part: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")

            @dg.asset(key=dg.AssetKey(["translation", "corpus", part]))
            def _asset() -> None: ...
    except dg.DagsterInvalidDefinitionError:
        return True
    return False


@pytest.mark.parametrize("names", [HOSTILE, PROBES], ids=["hostile", "every-char"])
def test_the_dagster_partition_rules_are_dagsters(names):
    disagree = [n for n in names if (dagster_partition_key_problem(n) is not None) != _dagster_multi_refuses(n)]
    assert not disagree, f"core/names.py and Dagster disagree on: {[n[:20] for n in disagree]}"


def test_the_dagster_asset_key_rule_is_dagsters():
    names = HOSTILE + PROBES[:0x800] + PROBES[0x3000:]
    disagree = [n for n in names if (dagster_asset_key_part_problem(n) is not None) != _dagster_asset_refuses(n)]
    assert not disagree, f"core/names.py and Dagster disagree on: {[n[:20] for n in disagree]}"


def test_a_static_definition_alone_takes_the_multi_partition_characters_and_refuses_the_rest():
    for name in ("a|b", "a,b", "a[b", "a]b"):
        dg.StaticPartitionsDefinition([name])
    for name in ("x...y", "a\nb", "a\0b"):
        with pytest.raises(dg.DagsterInvalidDefinitionError):
            dg.StaticPartitionsDefinition([name])


def test_dynamic_partitions_are_not_checked_by_dagster():
    """Why the loaders check generation ids themselves: Dagster stores anything."""
    instance = dg.DagsterInstance.ephemeral()
    bad = ["x...y", "a|b", "a\nb", "", "a,b"]
    instance.add_dynamic_partitions("generations", bad)
    assert sorted(instance.get_dynamic_partitions("generations")) == sorted(bad)
    assert all(partition_key_problem(n) for n in bad)


@pytest.mark.parametrize(
    "name, fragment",
    [
        ("a|b", "contains '|' (Dagster's multi-partition delimiter)"),
        ("x...y", "contains '...' (Dagster's partition-range separator)"),
        ("a\nb", "contains a newline (LF) ('\\n'), which Dagster refuses"),
        ("a,b", "contains ','"),
        ("[a]", "contains '['"),
        ("", "is empty"),
        ("   ", "is only whitespace"),
        (" lead", "starts or ends with whitespace"),
        ("trail ", "starts or ends with whitespace"),
        ("ab\n", "LF"),
        ("a\x1bb", "invisible character U+001B"),
        ("a\u200bb", "invisible character U+200B ZERO WIDTH SPACE"),
        ("a\u2028b", "invisible character U+2028 LINE SEPARATOR"),
        ("a/b", "path separator"),
        ("a\\b", "path separator"),
        ("..", "parent folder"),
        ("x" * 5000, f"is 5000 bytes long in UTF-8 (at most {MAX_NAME_BYTES}"),
        ("é" * 101, "is 202 bytes long"),
    ],
)
def test_partition_key_problems_say_what_is_wrong(name, fragment):
    problem = partition_key_problem(name)
    assert problem is not None and fragment in problem
    assert "\n" not in problem  # one line, whatever the name holds


@pytest.mark.parametrize("name", ["sim-strong", "eval.v1_x", "a b", "a:b", "modèle-ü", "模型", "😀", "é" * 100, "x" * MAX_NAME_BYTES])
def test_good_partition_keys_pass_and_dagster_takes_them(name):
    assert partition_key_problem(name) is None
    assert not _dagster_multi_refuses(name)


def test_an_asset_key_part_is_ascii_letters_digits_and_three_marks():
    assert asset_key_part_problem("edtekla-dev_v1.2") is None
    assert "may hold only ASCII letters" in asset_key_part_problem("modèle")
    assert "may hold only ASCII letters" in asset_key_part_problem("a b")
    assert asset_key_part_problem("ab\n") is not None and dagster_asset_key_part_problem("ab\n") is None
    assert asset_key_part_problem("") == "is empty"


def test_partition_key_type_reports_label_and_problem():
    class Names(BaseModel):
        engines: dict[PartitionKey("engine name"), int]  # type: ignore[valid-type]

    assert Names(engines={"ok": 1}).engines == {"ok": 1}
    with pytest.raises(ValidationError) as info:
        Names(engines={"a|b": 1, "ok": 2})
    (error,) = info.value.errors()
    assert error["loc"] == ("engines", "a|b", "[key]")
    assert error["msg"] == "Value error, engine name: contains '|' (Dagster's multi-partition delimiter)"


def test_what_the_load_reports_keep_builds_the_partitions_and_keys_the_shell_builds(tmp_path):
    """The reports the Dagster shell calls at definition-load time, over files full of hostile
    names: what they keep is what the shell turns into partitions and asset keys."""
    import json

    import yaml

    from atlas_assets.evals.engines import load_engines_report
    from atlas_assets.evals.workloads import load_workloads_report
    from atlas_assets.translation.corpora import load_corpora_report
    from autobench.project import load_project_report
    from tests.core.hostile import HOSTILE_NAMES
    from tests.helpers.translation import EXAMPLE

    hostile = [name for name, _, _ in HOSTILE_NAMES]
    engine = {"kind": "openai", "base_url": "http://127.0.0.1:9"}
    (tmp_path / "engines.yaml").write_text(yaml.safe_dump({"engines": {n: engine for n in ["good", *hostile]}}))
    workloads = tmp_path / "workloads"
    workloads.mkdir()
    for wid in ("good", "x...y", "a" * 220):
        body = {"id": wid, "dataset": {"id": "d", "sha256": "0" * 64}, "kind": "serve", "input_tokens": 1}
        (workloads / f"{wid}.yaml").write_text(yaml.safe_dump(body))
    corpora = tmp_path / "translation"
    corpora.mkdir()
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for corpus_id in ("example-en-fr-v1", "x...y"):
        (corpora / f"{corpus_id}.json").write_text(json.dumps({**doc, "dataset": {**doc["dataset"], "id": corpus_id}}))
    spec = {"dataset": {"source": "file://o.yaml", "version": "v1"}, "run": {"python": "m:f"}, "variants": {"current": {}}}
    (tmp_path / "b.benchmark.yaml").write_text(yaml.safe_dump({"benchmark": {"routing": spec, "a b": spec, "a|b": spec}}))
    entry = {"generator": "m:f", "request": "r.yaml", "output": "o.yaml", "version": "v1"}
    (tmp_path / "autobench.yaml").write_text(
        yaml.safe_dump({"generations": {n: entry for n in ["good", *hostile]}, "benchmarks": ["b.benchmark.yaml"]})
    )

    engines, workload_report = load_engines_report(tmp_path / "engines.yaml"), load_workloads_report(workloads)
    corpus_report, project = load_corpora_report(corpora), load_project_report(tmp_path / "autobench.yaml")
    assert (engines.names, workload_report.names, corpus_report.names) == (["good"], ["good"], ["example-en-fr-v1"])
    assert list(project.project.generations) == ["good"] and list(project.benchmarks) == ["routing"]
    assert len(engines.problems) == len(hostile) == len(project.problems) - 2
    for dimension in (workload_report.names, corpus_report.names):
        dg.MultiPartitionsDefinition(
            {"engine": dg.StaticPartitionsDefinition(engines.names), "other": dg.StaticPartitionsDefinition(dimension)}
        )
    for corpus_id in corpus_report.names:
        assert not _dagster_asset_refuses(corpus_id)
    for name in project.benchmarks:
        assert not _dagster_asset_refuses(name)
