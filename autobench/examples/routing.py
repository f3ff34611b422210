"""A deterministic, code-based example generator (determinism: guaranteed).

`generate_cases` builds support-routing cases from fixed templates, choosing and ordering
them with a `random.Random` seeded from the request seed only: the same request always
yields the same cases. Settings: `route` (the route every case expects, default
"billing"), `count` (how many cases, default 5, at most the number of templates x 4).
Seed cases are carried over first (reviewed examples, status accepted).

Settings `reject` (a list of case ids) marks those cases rejected with a reason and
`incomplete_after` (an int) stops early with an incomplete batch -- both exist so the
docs and tests can show review and incompleteness with a guaranteed generator.
"""

from __future__ import annotations

import random

from autobench import (
    Case,
    CaseGeneratorInput,
    GeneratedCaseBatch,
    GeneratedCaseReview,
    GenerationCost,
    GenerationDeterminism,
    GenerationUsage,
    ReviewStatus,
    report_progress,
)

GENERATOR_VERSION = "autobench.examples.routing@v1"
_TEMPLATES = (
    "Refund a duplicate charge on my {thing}",
    "I was billed twice for my {thing}",
    "Please cancel the renewal of my {thing}",
    "Why did the price of my {thing} change?",
    "Send me an invoice for my {thing}",
    "My card was declined when paying for my {thing}",
)
_THINGS = ("subscription", "annual plan", "team seats", "storage add-on")


def generate_cases(request: CaseGeneratorInput) -> GeneratedCaseBatch:
    route = str(request.settings.get("route", "billing"))
    count = int(request.settings.get("count", 5))  # type: ignore[arg-type]
    reject = {str(x) for x in (request.settings.get("reject") or [])}  # type: ignore[union-attr]
    stop_after = request.settings.get("incomplete_after")
    pool = [t.format(thing=thing) for t in _TEMPLATES for thing in _THINGS]
    rng = random.Random(request.seed if request.seed is not None else 0)
    rng.shuffle(pool)
    cases: list[Case] = []
    reviews: list[GeneratedCaseReview] = []
    for seed_case in request.seed_cases:
        cases.append(seed_case)
        reviews.append(GeneratedCaseReview(case_id=seed_case.id, status=ReviewStatus.ACCEPTED, reviewer="seed"))
    for n, message in enumerate(pool[: max(0, count)]):
        if isinstance(stop_after, int) and n >= stop_after:
            return GeneratedCaseBatch(
                cases=tuple(cases),
                reviews=tuple(reviews),
                generator_asset_version=GENERATOR_VERSION,
                determinism=GenerationDeterminism.GUARANTEED,
                complete=False,
                incomplete_reason=f"budget: stopped after {stop_after} cases (settings.incomplete_after)",
            )
        case_id = f"generated-{n:03d}"
        cases.append(Case(id=case_id, input={"message": message}, expected={"route": route}, metadata={"template": n}))
        if case_id in reject:
            reviews.append(GeneratedCaseReview(case_id=case_id, status=ReviewStatus.REJECTED, reason="rejected by settings.reject"))
        report_progress(n + 1, count)
    return GeneratedCaseBatch(
        cases=tuple(cases),
        reviews=tuple(reviews),
        generator_asset_version=GENERATOR_VERSION,
        model_provider=None,
        model_name=None,
        determinism=GenerationDeterminism.GUARANTEED,
        usage=GenerationUsage(input_tokens=0, output_tokens=0, requests=0),
        cost=GenerationCost(amount=0.0, currency="usd"),
    )


def failing_generator(request: CaseGeneratorInput) -> GeneratedCaseBatch:
    """Always raises: a failed generation operation (used by tests and docs)."""
    raise RuntimeError("example generator failure: upstream provider unavailable")


async def generate_cases_async(request: CaseGeneratorInput) -> GeneratedCaseBatch:
    """The same cases from an async generator."""
    return generate_cases(request)
