"""The shortcuts that make 200,000 cases fast (#14 deliverable 4) give exactly what the plain
formulas give: hashes written out from known pieces, the C JSON encoder made once, and a
result sealed at build that is re-verified in full as soon as anything in it changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atlas_assets.core.hashing import canonical_json, json_encoder, sha256_json
from autobench import files
from autobench.examples.routing import generate_cases
from autobench.generation import (
    GenerationResult,
    PublicationError,
    _canonical_cases,
    generate_dataset_sync,
    request_sha256,
    revalidated,
    write_generation_result,
)
from autobench.models import Case, CaseGeneratorInput, GeneratedCaseBatch, GeneratedCaseReview, ReviewStatus

GEN = "autobench.examples.routing:generate_cases"
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=12,
)
cases = st.lists(
    st.builds(
        Case,
        id=st.text(st.characters(codec="ascii", categories=("L", "N")), min_size=1, max_size=6),
        input=json_values,
        expected=json_values,
        metadata=st.dictionaries(st.text(max_size=6).filter(lambda k: k != "generation"), json_values, max_size=3),
    ),
    max_size=5,
    unique_by=lambda c: c.id,
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(json_values)
def test_the_reused_encoders_write_what_json_dumps_writes(value):
    assert canonical_json(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()
    line = json_encoder(sort_keys=False, separators=(", ", ": "), ensure_ascii=False)
    assert line(value) == json.dumps(value, separators=(", ", ": "), ensure_ascii=False, allow_nan=False)


def test_the_reused_encoder_refuses_what_json_dumps_refuses():
    for bad in (float("nan"), {"a": float("inf")}, {"a": object()}):
        with pytest.raises((ValueError, TypeError)):
            canonical_json(bad)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(cases, st.dictionaries(st.text(max_size=5), json_values, max_size=3), st.one_of(st.none(), st.text(max_size=5)))
def test_hashes_from_known_pieces_equal_the_plain_formulas(seed_cases, settings_, prompt):
    request = CaseGeneratorInput(seed=1, prompt=prompt, settings=settings_, metadata={"seed_cases": []}, seed_cases=tuple(seed_cases))
    plain = sha256_json(request.model_dump(mode="json"))
    assert request_sha256(request) == plain == request_sha256(request, _canonical_cases(request.seed_cases))
    batch = GeneratedCaseBatch(
        cases=tuple(seed_cases),
        reviews=tuple(GeneratedCaseReview(case_id=c.id, status=ReviewStatus.REJECTED, reason="no") for c in seed_cases[:1]),
    )
    result = generate_dataset_sync(lambda _: batch, request, generator_id="g", dataset_id="d", version="v1")
    assert result.dataset_sha256 == files.dataset_sha256(result.dataset)  # the plain formula over the published mapping
    assert all(r.sha256 == sha256_json(r.case.model_dump(mode="json")) for r in result.records)
    assert revalidated(GenerationResult.model_validate(result.model_dump(round_trip=True))) is not None  # the full check agrees


def _result() -> GenerationResult:
    request = CaseGeneratorInput(seed=3, settings={"count": 4, "reject": ["generated-001"]})
    return generate_dataset_sync(generate_cases, request, generator_id=GEN, dataset_id="d", version="v1")


def test_a_built_result_is_sealed_and_a_copy_or_a_hand_built_one_is_not():
    result = _result()
    assert result.sealed
    assert not result.model_copy().sealed
    assert not GenerationResult.model_validate(result.model_dump(round_trip=True)).sealed


@pytest.mark.parametrize("edit", ["smuggle a rejected case", "edit a case in place", "edit settings in place"])
def test_an_in_place_edit_breaks_the_seal_and_publication_refuses_it(tmp_path: Path, edit: str):
    result = _result()
    if edit == "smuggle a rejected case":  # the issue's attack, with the hash made to fit
        rejected = next(r for r in result.records if not r.published)
        assert result.dataset is not None
        result.dataset["cases"].append({**result.dataset["cases"][0], "id": rejected.case.id})
        result.dataset["sha256"] = files.dataset_sha256(result.dataset)
    elif edit == "edit a case in place":
        result.batch.cases[0].input["message"] = "edited"  # type: ignore[index]
    else:
        result.request.settings["count"] = 99
    assert not result.sealed
    with pytest.raises(PublicationError, match="no longer validates"):
        write_generation_result(result, tmp_path / "d.yaml")
    assert not any(tmp_path.iterdir())


def test_an_unedited_result_publishes_a_dataset_that_loads(tmp_path: Path):
    written = write_generation_result(_result(), tmp_path / "d.yaml")
    dataset = files.load_dataset(written.dataset)
    assert [c.id for c in dataset.dataset.cases] == ["generated-000", "generated-002", "generated-003"]
