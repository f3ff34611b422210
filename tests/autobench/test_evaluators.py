"""Evaluators: each one's pass, fail and bad configuration; the paired tests; the LLM judge
against the reference simulator on loopback; a mixed benchmark through the real CLI."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import TypeAdapter, ValidationError

from atlas_assets.simulator import start_simulator
from autobench import Case, compare
from autobench import evaluators as ev
from autobench.benchmark import benchmark_facts
from tests.helpers.autobench import run_cli

CASE = Case(id="c1", input={"message": "Refund a duplicate charge"}, expected={"route": "billing"})
ENTRY = TypeAdapter(ev.EvaluatorSpec)


def _one(entry: Any, base: Path = Path(".")) -> ev.Evaluator:
    return ev.build([ENTRY.validate_python(entry)], "benchmark.b.evaluators", base)[0]


def _run(entry: Any, output: Any, duration_s: float = 0.1, base: Path = Path(".")) -> ev.EvaluatorResult:
    return asyncio.run(_one(entry, base).aevaluate(CASE, output, duration_s))


@pytest.mark.parametrize(
    ("entry", "good", "bad"),
    [
        ("equals-expected", {"route": "billing"}, {"route": "sales"}),
        ({"contains": "bill"}, "billing please", "Billing please"),
        ({"contains": {"value": "BILL", "case_sensitive": False}}, "billing please", "sales"),
        ({"contains": 2}, [1, 2, 3], [1, 3]),
        ({"contains": {"value": {"route": "billing"}}}, {"route": "billing", "x": 1}, {"route": "sales"}),
        ({"contains": "route"}, {"route": "sales"}, {"queue": "billing"}),
        ({"contains": "x"}, "x", 42),  # a number cannot contain anything
        ({"is-instance": "dict"}, {"route": "billing"}, "billing"),
        ({"is-instance": "int"}, 3, True),  # a bool is not an int
        ({"is-instance": "null"}, None, 0),
        ({"json-schema": {"schema": {"type": "object", "required": ["route"]}}}, {"route": "x"}, {"queue": "x"}),
        ({"json-schema": {"schema": {"type": "object"}, "parse_json": True}}, '{"a": 1}', "not json"),
        ({"max-duration": 0.5}, None, None),
    ],
)
def test_each_evaluator_passes_and_fails(entry: Any, good: Any, bad: Any) -> None:
    duration = (0.2, 0.9) if "max-duration" in str(entry) else (0.1, 0.1)
    passed = _run(entry, good, duration[0])
    failed = _run(entry, bad, duration[1])
    assert passed.score is True and not passed.error and passed.reason
    assert failed.score is False and not failed.error and failed.reason


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("nope", "expected an evaluator name or a one-key mapping {name: options}"),
        ("contains", "contains needs options"),
        ({"contains": {}}, "contains.value: required field is missing"),
        ({"contains": "a", "is-instance": "str"}, "one-key mapping"),
        ({"contains": {"value": "a", "sensitive": True}}, "contains.sensitive: unknown field (not in the schema)"),
        ({"is-instance": "set"}, "is-instance.type: Input should be"),
        ({"max-duration": 0}, "max-duration.seconds: Input should be greater than 0"),
        ({"python": "no_colon"}, "python.function: String should match pattern"),
        ({"llm-judge": {"rubric": "x"}}, "llm-judge.engine: required field is missing"),
        (7, "one-key mapping"),
    ],
)
def test_bad_entries_are_refused_naming_the_option(entry: Any, says: str) -> None:
    with pytest.raises(ValidationError) as raised:
        ENTRY.validate_python(entry)
    assert says in str(raised.value)


def test_config_errors_that_need_more_than_the_schema(tmp_path: Path) -> None:
    with pytest.raises(
        ev.EvaluatorConfigError, match=r"benchmark\.b\.evaluators\.0\.python\.function: cannot load no_such_mod:f: ModuleNotFoundError"
    ):
        _one({"python": "no_such_mod:f"})
    with pytest.raises(ev.EvaluatorConfigError, match=r"evaluators\.0\.json-schema\.schema: not a valid JSON Schema"):
        _one({"json-schema": {"schema": {"type": 3}}})
    with pytest.raises(ev.EvaluatorConfigError, match=r"evaluators\.0\.llm-judge\.engine: unknown engine 'nope'"):
        _one({"llm-judge": {"rubric": "r", "engine": "nope"}})
    entries = [ENTRY.validate_python(e) for e in ({"contains": "a"}, {"contains": "b"})]
    with pytest.raises(ev.EvaluatorConfigError, match="two evaluators named 'contains'; give one a `label`"):
        ev.build(entries, "benchmark.b.evaluators", tmp_path)
    with pytest.raises(ev.EvaluatorConfigError, match="'passed' is reserved"):
        _one({"contains": {"value": "a", "label": "passed"}})


def test_an_entrys_identity_ignores_how_it_is_written() -> None:
    same = [ENTRY.validate_python(e) for e in ({"contains": "x"}, {"contains": {"value": "x", "case_sensitive": True, "label": None}})]
    assert ev.spec_json(same[:1]) == ev.spec_json(same[1:]) == [{"contains": {"value": "x"}}]
    assert ev.spec_json([ENTRY.validate_python("equals-expected")]) == ev.spec_json([ENTRY.validate_python({"equals-expected": {}})])
    assert ev.spec_json([ENTRY.validate_python({"contains": {"value": "x", "case_sensitive": False}})]) != ev.spec_json(same[:1])


def test_python_evaluator_results_errors_and_garbage(tmp_path: Path) -> None:
    (tmp_path / "my_checks_eval.py").write_text(
        "import asyncio\n"
        "def graded(case, output, duration_s):\n    return (0.25, 'partly')\n"
        "def flag(case, output, duration_s):\n    return output == case.expected\n"
        "async def later(case, output, duration_s):\n    await asyncio.sleep(0)\n    return 0.5\n"
        "def boom(case, output, duration_s):\n    raise RuntimeError('hostile evaluator')\n"
        "def garbage(case, output, duration_s):\n    return {'not': 'a score'}\n"
        "def nan(case, output, duration_s):\n    return float('nan')\n"
    )
    sys.modules.pop("my_checks_eval", None)
    assert _run({"python": "my_checks_eval:graded"}, None, base=tmp_path) == ev.EvaluatorResult(0.25, "partly")
    assert _run({"python": "my_checks_eval:flag"}, {"route": "billing"}, base=tmp_path).score is True
    assert _run({"python": "my_checks_eval:later"}, None, base=tmp_path).score == 0.5
    import numpy as np

    assert ev.coerce_result(np.bool_(True)).score is True and ev.coerce_result((np.float64(0.5), "half")) == ev.EvaluatorResult(0.5, "half")
    assert ev.coerce_result(np.array([1, 2])).error
    assert ev.coerce_result(ev.EvaluatorResult("yes", "a string score")).error  # type: ignore[arg-type]
    assert ev.coerce_result(ev.EvaluatorResult(1, "an int")).score == 1.0
    for name in ("garbage", "nan"):
        result = _run({"python": f"my_checks_eval:{name}"}, None, base=tmp_path)
        assert result.error and result.score is False and "expected a bool, a number or (score, reason)" in result.reason
    records = asyncio.run(ev.evaluate_all([_one({"python": "my_checks_eval:boom"}, tmp_path)], CASE, None, 0.1, None))
    assert records == [
        {"name": "python", "evaluator": "python", "score": False, "reason": "RuntimeError: hostile evaluator", "error": True}
    ]


def test_pairwise_clear_winner_and_tie() -> None:
    clear = compare.compare("passed", "good", "bad", [(True, False)] * 12 + [(True, True)] * 3)
    assert clear["better"] == "good" and clear["confident"] and clear["cases"] == 15
    assert clear["p_value"] == pytest.approx(2 * 0.5**12) and clear["test"].startswith("exact McNemar")
    tie = compare.compare("passed", "a", "b", [(True, False)] * 4 + [(False, True)] * 4 + [(True, True)] * 2)
    assert tie["better"] is None and tie["p_value"] == 1.0 and not tie["confident"]
    scores = compare.compare("python", "a", "b", [(0.9, 0.1)] * 10)
    assert scores["better"] == "a" and scores["p_value"] == pytest.approx(2 / 2**10) and "sign-flip" in scores["test"]
    same = compare.compare("python", "a", "b", [(0.5, 0.5)] * 30)
    assert same["better"] is None and same["p_value"] == 1.0
    big = compare.compare("python", "a", "b", [(1.0, 0.0)] * 40)
    assert big["p_value"] < 0.001 and "random flips, seed 0" in big["test"]
    assert "good better than bad; 12 vs 0 cases differ of 15; p=0.000488" in compare.describe(clear)
    assert "a and b tie" in compare.describe(tie)


@pytest.fixture(scope="module")
def sim():
    with start_simulator("sim-zero-latency") as handle:
        yield handle


def test_llm_judge_against_the_simulator(sim) -> None:
    judge = _one({"llm-judge": {"rubric": "The route must be the expected one.", "engine": sim.base_url}})

    async def judged() -> tuple[ev.EvaluatorResult, ev.EvaluatorResult]:
        async with contextlib.AsyncExitStack() as stack:
            await judge.open(stack, 2)
            return await judge.aevaluate(CASE, {"route": "billing"}, 0.1), await judge.aevaluate(CASE, {"route": "sales"}, 0.1)

    right, wrong = asyncio.run(judged())
    assert right.score is True and wrong.score is False and not right.error and not wrong.error
    assert "simulated judge" in right.reason
    details = right.details["judge"]
    assert details["model"] == judge.connected.model and details["model"]
    assert details["prompt_sha256"] == judge.prompt_sha256 == __import__("hashlib").sha256(judge.system.encode()).hexdigest()
    assert "The route must be the expected one." in judge.system and ev.JUDGE_MARKER in judge.system
    other = _one({"llm-judge": {"rubric": "Another rubric.", "engine": sim.base_url}})
    assert other.prompt_sha256 != judge.prompt_sha256


def test_parse_verdict() -> None:
    assert ev.parse_verdict('```json\n{"pass": true, "score": 0.8, "reason": "ok"}\n```') == (True, 0.8, "ok")
    assert ev.parse_verdict('{"pass": "yes"}') is None
    assert ev.parse_verdict("plain prose") is None
    assert ev.parse_verdict(None) is None


REQUEST = """\
generation:
  request:
    seed: 5
    settings: {route: billing, count: 12}
"""

CHECKS = """\
def graded(case, output, duration_s):
    return (1.0 if output == case.expected else 0.25, "graded")

def boom(case, output, duration_s):
    raise RuntimeError("hostile evaluator")

def garbage(case, output, duration_s):
    return object()
"""


def _bench(judge_url: str, extra: str = "") -> str:
    return f"""\
benchmark:
  routing:
    dataset: {{source: file://datasets/r.yaml, version: v1}}
    run: {{python: autobench.examples.benchmark_task:run, concurrency: 2}}
    variants:
      current: {{}}
      worse: {{keywords: [zzz], default_route: support}}
    evaluators:
      - equals-expected
      - is-instance: dict
      - json-schema: {{schema: {{type: object, required: [route]}}}}
      - max-duration: 30
      - python: checks_e2e:graded
      - python: {{function: checks_e2e:boom, label: boom}}
      - llm-judge: {{rubric: "The route must be the expected route.", engine: "{judge_url}"}}
    case_evaluators:
      generated-000: [{{contains: {{value: {{route: billing}}, label: billing-route}}}}, {{python: {{function: checks_e2e:garbage, label: garbage}}}}]
{extra}"""


def test_mixed_evaluators_end_to_end_through_the_cli(tmp_path: Path, sim) -> None:
    (tmp_path / "request.yaml").write_text(REQUEST)
    (tmp_path / "checks_e2e.py").write_text(CHECKS)
    gen = run_cli(
        "dataset",
        "generate",
        "autobench.examples.routing:generate_cases",
        "--request",
        "request.yaml",
        "--output",
        "datasets/r.yaml",
        "--id",
        "r",
        "--version",
        "v1",
        cwd=tmp_path,
    )
    assert gen.returncode == 0, gen.stderr
    bench = tmp_path / "benchmark.yaml"
    bench.write_text(_bench(sim.base_url))
    done = run_cli("run", str(bench), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / ".autobench/results/routing/results.jsonl").read_text().splitlines()]
    assert len(rows) == 24
    for row in rows:
        names = [r["name"] for r in row["evaluators"]]
        expected = ["equals-expected", "is-instance", "json-schema", "max-duration", "python", "boom", "llm-judge"]
        assert names == expected + (["billing-route", "garbage"] if row["case_id"] == "generated-000" else [])
        by = {r["name"]: r for r in row["evaluators"]}
        assert all(isinstance(r["reason"], str) and r["reason"] for r in row["evaluators"])
        assert by["boom"] == {
            "name": "boom",
            "evaluator": "python",
            "score": False,
            "reason": "RuntimeError: hostile evaluator",
            "error": True,
        }
        good = row["variant"] == "current"
        assert (
            by["equals-expected"]["score"] is good and by["llm-judge"]["score"] is good and by["python"]["score"] == (1.0 if good else 0.25)
        )
        assert by["llm-judge"]["judge"]["model"] and len(by["llm-judge"]["judge"]["prompt_sha256"]) == 64
        assert row["passed"] is False  # the hostile evaluator fails every cell, the run went on
        assert row["evaluators_sha256"]
        if row["case_id"] == "generated-000":
            assert by["garbage"]["error"] and "expected a bool" in by["garbage"]["reason"]
    summary = json.loads((tmp_path / ".autobench/results/routing/summary.json").read_text())
    current = summary["evaluators"]["current"]
    assert current["equals-expected"] == {"kind": "assertion", "cases": 12, "errors": 0, "passed": 12, "pass_rate": 1.0, "mean_score": 1.0}
    assert current["python"]["kind"] == "score" and current["python"]["pass_rate"] is None
    assert current["boom"]["errors"] == 12 and summary["evaluators"]["worse"]["equals-expected"]["passed"] == 0
    tests = {p["measure"]: p for p in summary["pairwise"]}
    eq = tests["equals-expected"]
    assert (eq["a"], eq["b"], eq["better"], eq["cases"], eq["confident"]) == ("current", "worse", "current", 12, True)
    assert eq["p_value"] == pytest.approx(2 * 0.5**12) and eq["test"].startswith("exact McNemar")
    assert tests["llm-judge"]["better"] == "current" and tests["python"]["test"].startswith("paired sign-flip")
    assert tests["boom"]["better"] is None and tests["boom"]["p_value"] == 1.0  # both fail everywhere: a tie
    assert tests["is-instance"]["p_value"] == 1.0
    assert "paired comparisons" in done.stdout and "equals-expected: current better than worse; 12 vs 0" in done.stdout
    assert "llm-judge" in done.stdout
    facts = {f.key: f.value for f in benchmark_facts(summary)}
    assert "| current | equals-expected | 100.0% |" in facts["evaluators"] and "equals-expected: current better" in facts["pairwise"]

    again = run_cli("run", str(bench), cwd=tmp_path)  # resume: nothing re-run
    assert again.returncode == 0 and "resuming, 24 cells already recorded, 0 to run" in again.stderr
    changed = _bench(sim.base_url).replace("max-duration: 30", "max-duration: 20")
    bench.write_text(changed)
    rerun = run_cli("run", str(bench), cwd=tmp_path)  # other evaluators: the cells run again
    assert rerun.returncode == 0 and "24 cells to run" in rerun.stderr
    summary2 = json.loads((tmp_path / ".autobench/results/routing/summary.json").read_text())
    assert summary2["evaluators"]["current"]["max-duration"]["cases"] == 12  # earlier cells left out


def test_bad_evaluators_refuse_the_run_naming_the_field(tmp_path: Path, request_file: Path) -> None:
    gen = run_cli(
        "dataset",
        "generate",
        "autobench.examples.routing:generate_cases",
        "--request",
        str(request_file),
        "--output",
        "datasets/r.yaml",
        "--id",
        "r",
        "--version",
        "v1",
        cwd=tmp_path,
    )
    assert gen.returncode == 0, gen.stderr
    base = (
        "benchmark:\n  routing:\n    dataset: {source: file://datasets/r.yaml, version: v1}\n"
        "    run: {python: autobench.examples.benchmark_task:run}\n    variants: {a: {}}\n"
    )
    cases = [
        (
            "    evaluators: [{python: missing_module_x:f}]\n",
            "benchmark.routing.evaluators.0.python.function: cannot load missing_module_x:f",
        ),
        ("    evaluators: [{contains: {}}]\n", "benchmark.routing.evaluators.0: contains.value: required field is missing"),
        ("    case_evaluators: {no-such-case: [equals-expected]}\n", "benchmark.routing.case_evaluators: no case 'no-such-case'"),
        (
            "    evaluators: [{llm-judge: {rubric: r, engine: 'http://127.0.0.1:9/v1', timeout_s: 2}}]\n",
            "benchmark.routing.evaluators.0.llm-judge.engine: cannot reach http://127.0.0.1:9/v1",
        ),
    ]
    for extra, says in cases:
        (tmp_path / "b.yaml").write_text(base + extra)
        refused = run_cli("run", "b.yaml", cwd=tmp_path)
        assert refused.returncode == 1 and says in refused.stderr, refused.stderr
        assert not (tmp_path / ".autobench").exists()


def test_without_evaluators_cells_are_as_before(tmp_path: Path, request_file: Path) -> None:
    gen = run_cli(
        "dataset",
        "generate",
        "autobench.examples.routing:generate_cases",
        "--request",
        str(request_file),
        "--output",
        "datasets/r.yaml",
        "--id",
        "r",
        "--version",
        "v1",
        cwd=tmp_path,
    )
    assert gen.returncode == 0, gen.stderr
    (tmp_path / "b.yaml").write_text(
        "benchmark:\n  routing:\n    dataset: {source: file://datasets/r.yaml, version: v1}\n"
        "    run: {python: autobench.examples.benchmark_task:run}\n    variants: {a: {}, b: {default_route: nowhere, keywords: [zzz]}}\n"
    )
    done = run_cli("run", "b.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / ".autobench/results/routing/results.jsonl").read_text().splitlines()]
    assert {frozenset(r) for r in rows} == {
        frozenset(
            {
                "benchmark",
                "dataset_id",
                "dataset_version",
                "dataset_sha256",
                "variant",
                "variant_config_sha256",
                "case_id",
                "case_sha256",
                "output",
                "passed",
                "score",
                "latency_s",
                "error",
            }
        )
    }
    summary = json.loads((tmp_path / ".autobench/results/routing/summary.json").read_text())
    assert summary["evaluators"] == {}
    assert [p["measure"] for p in summary["pairwise"]] == ["passed"] and summary["pairwise"][0]["better"] == "a"
    assert yaml.safe_load((tmp_path / "b.yaml").read_text())  # the file needed no new field
