"""The generator contract, review semantics, hashes and determinism through the Python API."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from autobench import (
    Case,
    CaseGeneratorInput,
    GeneratedCaseBatch,
    GeneratedCaseReview,
    GenerationCost,
    GenerationDeterminism,
    GenerationResult,
    GenerationUsage,
    ReviewStatus,
    generate_dataset,
    generate_dataset_sync,
    request_sha256,
    write_generation_result,
)
from autobench.examples.routing import generate_cases, generate_cases_async
from autobench.files import DatasetIntegrityError, load_dataset, load_request

REQ = CaseGeneratorInput(
    seed=17,
    prompt="Generate privacy-safe support routing cases.",
    prompt_asset_version="prompt.routing-generator@v1",
    settings={"route": "billing", "count": 4},
)


def spec_generator(request: CaseGeneratorInput) -> GeneratedCaseBatch:
    """The spec's example, plus a candidate and a rejected case."""
    route = str(request.settings.get("route", "billing"))
    return GeneratedCaseBatch(
        cases=(
            Case(id="generated-refund", input={"message": "Refund a duplicate charge"}, expected={"route": route}),
            Case(id="generated-invoice", input={"message": "Send an invoice"}, expected={"route": route}),
            Case(id="generated-bad", input={"message": "My SSN is 123-45-6789"}, expected={"route": route}),
        ),
        generator_asset_version=request.prompt_asset_version,
        model_provider="openrouter",
        model_name="openai/gpt-5.6-luna",
        determinism=GenerationDeterminism.NOT_GUARANTEED,
        usage=GenerationUsage(input_tokens=120, output_tokens=45, requests=1),
        cost=GenerationCost(amount=0.0012, currency="usd"),
        reviews=(
            GeneratedCaseReview(case_id="generated-refund", status=ReviewStatus.ACCEPTED),
            GeneratedCaseReview(case_id="generated-bad", status=ReviewStatus.REJECTED, reason="contains personal data"),
        ),
    )


def _gen(generator=spec_generator, request=REQ):
    return generate_dataset_sync(generator, request, generator_id="generator:generate_cases", dataset_id="generated-routing", version="v1")


def test_review_projection_and_manifest(tmp_path: Path) -> None:
    result = _gen()
    written = write_generation_result(result, tmp_path / "datasets" / "generated-routing.yaml")
    assert written.complete and written.dataset.exists() and written.manifest.name == "generated-routing.generation.yaml"
    dataset = load_dataset(written.dataset).dataset
    assert [c.id for c in dataset.cases] == ["generated-refund", "generated-invoice"]
    prov = {c.id: c.metadata["generation"] for c in dataset.cases}
    assert prov["generated-refund"]["review_status"] == "accepted"
    assert prov["generated-invoice"]["review_status"] == "candidate"
    assert prov["generated-refund"]["source"] == "generated"
    assert prov["generated-refund"]["model_provider"] == "openrouter"
    assert prov["generated-refund"]["model_name"] == "openai/gpt-5.6-luna"
    assert prov["generated-refund"]["generator"] == "generator:generate_cases"
    assert len(prov["generated-refund"]["case_sha256"]) == 64
    manifest = yaml.safe_load(written.manifest.read_text())["generation"]
    by_id = {c["id"]: c for c in manifest["cases"]}
    assert by_id["generated-bad"]["status"] == "rejected" and by_id["generated-bad"]["published"] is False
    assert by_id["generated-bad"]["reason"] == "contains personal data"
    assert by_id["generated-bad"]["case"]["input"] == {"message": "My SSN is 123-45-6789"}  # the complete rejected case
    assert manifest["review_counts"] == {"candidate": 1, "accepted": 1, "rejected": 1}
    assert manifest["usage"] == {"input_tokens": 120, "output_tokens": 45, "requests": 1}
    assert manifest["cost"] == {"amount": 0.0012, "currency": "usd"}
    assert manifest["generator"]["determinism"] == "not_guaranteed"
    assert manifest["request"]["prompt_asset_version"] == "prompt.routing-generator@v1"
    assert len(manifest["request"]["prompt_sha256"]) == 64
    assert "Generate privacy-safe" not in written.manifest.read_text()  # prompt text never copied
    assert manifest["dataset"]["sha256"] == dataset.sha256
    assert written.dataset.read_text().startswith("# yaml-language-server: $schema=")


def test_rejection_needs_reason_and_reviews_must_match_cases() -> None:
    with pytest.raises(ValidationError, match="non-empty reason"):
        GeneratedCaseReview(case_id="x", status=ReviewStatus.REJECTED, reason="  ")
    with pytest.raises(ValidationError, match="unknown case id"):
        GeneratedCaseBatch(cases=(Case(id="a", input=1),), reviews=(GeneratedCaseReview(case_id="b"),))
    with pytest.raises(ValidationError, match="duplicate case id"):
        GeneratedCaseBatch(cases=(Case(id="a", input=1), Case(id="a", input=2)))
    with pytest.raises(ValidationError, match="incomplete_reason"):
        GeneratedCaseBatch(complete=False, cases=())


def test_determinism_never_upgraded() -> None:
    for claim in GenerationDeterminism:

        def gen(request, claim=claim):
            return GeneratedCaseBatch(cases=(Case(id="a", input=request.seed),), determinism=claim)

        result = _gen(gen, CaseGeneratorInput(seed=1))
        assert result.batch.determinism is claim
        assert result.dataset["generation"]["determinism"] == claim.value
        assert result.manifest()["generation"]["generator"]["determinism"] == claim.value
    assert GeneratedCaseBatch().determinism is GenerationDeterminism.UNKNOWN


def test_request_hash_covers_every_field() -> None:
    base = request_sha256(REQ)
    changes = [
        {"prompt": "other"},
        {"prompt_asset_version": "v2"},
        {"settings": {"route": "billing", "count": 5}},
        {"metadata": {"owner": "x"}},
        {"seed_cases": (Case(id="s", input="x"),)},
        {"seed": 18},
    ]
    hashes = {request_sha256(REQ.model_copy(update=c)) for c in changes}
    assert base not in hashes and len(hashes) == len(changes)
    assert request_sha256(CaseGeneratorInput(settings={"a": 1, "b": 2})) == request_sha256(CaseGeneratorInput(settings={"b": 2, "a": 1}))


def test_guaranteed_generator_is_byte_identical_manifest_gets_new_timestamps(tmp_path: Path) -> None:
    one = write_generation_result(_gen(generate_cases), tmp_path / "a" / "d.yaml")
    two = write_generation_result(_gen(generate_cases), tmp_path / "b" / "d.yaml")
    assert one.dataset.read_bytes() == two.dataset.read_bytes()
    m1, m2 = (yaml.safe_load(p.read_text())["generation"] for p in (one.manifest, two.manifest))
    assert m1["timestamps"] != m2["timestamps"]
    assert m1["dataset"]["sha256"] == m2["dataset"]["sha256"]


def test_async_generator_and_generate_dataset() -> None:
    sync = _gen(generate_cases)
    via_async = _gen(generate_cases_async)
    assert via_async.dataset == sync.dataset
    awaited = asyncio.run(
        generate_dataset(generate_cases, REQ, generator_id="generator:generate_cases", dataset_id="generated-routing", version="v1")
    )
    assert awaited.dataset_sha256 == sync.dataset_sha256

    async def inside():
        with pytest.raises(RuntimeError, match="await generate_dataset"):
            generate_dataset_sync(generate_cases, REQ, generator_id="g", dataset_id="d", version="v")

    asyncio.run(inside())


def test_generation_result_validates_before_publication() -> None:
    result = _gen()
    data = result.model_dump()
    tampered = [
        {"request_sha256": "0" * 64},
        {"dataset_sha256": "0" * 64},
        {"finished_at": result.started_at - timedelta(seconds=1)},
        {"records": data["records"][:1]},
    ]
    for change in tampered:
        with pytest.raises(ValidationError):
            GenerationResult.model_validate({**data, **change})
    bad_dataset = {**data["dataset"], "cases": data["dataset"]["cases"][:1]}
    with pytest.raises(ValidationError, match="dataset content"):
        GenerationResult.model_validate({**data, "dataset": bad_dataset})
    published = dict(data["records"][2])
    published["published"] = True
    with pytest.raises(ValidationError):
        GenerationResult.model_validate({**data, "records": [*data["records"][:2], published]})
    with pytest.raises(TypeError, match="expected GeneratedCaseBatch"):
        _gen(lambda r: {"cases": []})


def test_overwrite_protection_and_force(tmp_path: Path) -> None:
    out = tmp_path / "d.yaml"
    written = write_generation_result(_gen(generate_cases), out)
    before = out.read_bytes(), written.manifest.read_bytes()
    with pytest.raises(FileExistsError):
        write_generation_result(_gen(), out)
    assert (out.read_bytes(), written.manifest.read_bytes()) == before
    again = write_generation_result(_gen(), out, force=True)
    assert out.read_bytes() != before[0] and again.manifest.read_bytes() != before[1]


def test_incomplete_writes_only_sidecar_even_with_force(tmp_path: Path) -> None:
    out = tmp_path / "d.yaml"
    write_generation_result(_gen(generate_cases), out)
    before = out.read_bytes()
    request = REQ.model_copy(update={"settings": {"count": 4, "incomplete_after": 2}})
    result = _gen(generate_cases, request)
    assert not result.complete and result.dataset is None
    written = write_generation_result(result, out, force=True)
    assert written.incomplete == tmp_path / "d.incomplete.yaml" and written.dataset is None
    assert out.read_bytes() == before
    sidecar = yaml.safe_load(written.incomplete.read_text())["generation"]
    assert sidecar["status"] == "incomplete" and "budget" in sidecar["incomplete_reason"]
    assert [c["id"] for c in sidecar["cases"]] == ["generated-000", "generated-001"]
    assert sidecar["dataset"]["sha256"] is None


def test_tampered_dataset_is_refused(tmp_path: Path) -> None:
    written = write_generation_result(_gen(generate_cases), tmp_path / "d.yaml")
    load_dataset(written.dataset)
    text = written.dataset.read_text().replace("route: billing", "route: sales", 1)
    written.dataset.write_text(text)
    with pytest.raises(DatasetIntegrityError, match="does not match"):
        load_dataset(written.dataset)


def test_request_yaml_errors_name_the_field(tmp_path: Path, request_file: Path) -> None:
    request = load_request(request_file)
    assert request.prompt_asset_version == "prompt.routing-generator@v1" and request.seed_cases[0].id == "reviewed-refund"
    bad = tmp_path / "bad.yaml"
    bad.write_text(request_file.read_text().replace("seed: 17", "seed: seventeen"))
    with pytest.raises(ValueError, match=r"generation\.request\.seed"):
        load_request(bad)
    bad.write_text(request_file.read_text().replace("    settings:", "    setings:"))
    with pytest.raises(ValueError, match=r"generation\.request\.setings"):
        load_request(bad)
