"""Autobench: generated datasets with provenance and review, and case x variant benchmarks.

    from autobench import CaseGeneratorInput, generate_dataset_sync, write_generation_result

Generation is a separate, deliberate step (`autobench dataset generate`); `autobench run`
only ever reads frozen, hash-verified datasets. No Dagster import in this package.
"""

from autobench.generation import (
    CaseGenerator,
    GenerationResult,
    WrittenGeneration,
    generate_dataset,
    generate_dataset_sync,
    output_paths,
    request_sha256,
    write_generation_result,
)
from autobench.models import (
    Case,
    CaseGeneratorInput,
    GeneratedCaseBatch,
    GeneratedCaseReview,
    GenerationCost,
    GenerationDeterminism,
    GenerationUsage,
    ReviewStatus,
)
from autobench.progress import report_progress

__version__ = "0.3.0"

__all__ = [
    "Case",
    "CaseGenerator",
    "CaseGeneratorInput",
    "GeneratedCaseBatch",
    "GeneratedCaseReview",
    "GenerationCost",
    "GenerationDeterminism",
    "GenerationResult",
    "GenerationUsage",
    "ReviewStatus",
    "WrittenGeneration",
    "generate_dataset",
    "generate_dataset_sync",
    "output_paths",
    "report_progress",
    "request_sha256",
    "write_generation_result",
]
