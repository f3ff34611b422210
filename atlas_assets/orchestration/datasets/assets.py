"""The eval corpus's assets: one per dataset, plus the corpus index (group "datasets").

A thin shell over atlas_assets.corpus (registry, validate, rebuild, summary, index).

    datasets/<id>       one per folder with a dataset.json
                        code version = digest of its generator + _gen/_lib.py + declared inputs
                        data version = the dataset's content sha256 (_lib.content_sha256)
                        materializing regenerates it into a staging folder, re-verifies every
                        row and file, and writes datasets/<id>/ only when valid and not a
                        change to a published dataset (checks `valid`, `immutable`: blocking)
    datasets/index      datasets/README.md's index after the corpus-wide rules (check
                        `corpus_valid`: blocking); runs after every dataset

A published dataset whose bytes match published.lock.json is recorded at its content
version without a run (sensors.py), so a fresh instance shows the corpus as current.
"""

import hashlib
import os
from pathlib import Path
from typing import Optional

import dagster as dg
from pydantic import Field

from atlas_assets.corpus import cards, rebuild, registry, summary, validate
from atlas_assets.corpus import index as corpus_index
from atlas_assets.orchestration.versions import code_version, source_files

GROUP = "datasets"
PREFIX = "datasets"
ENV_DATASETS = "ATLAS_DATASETS"
VALID_CHECK = "valid"
IMMUTABLE_CHECK = "immutable"
CORPUS_CHECK = "corpus_valid"
INDEX_KEY = dg.AssetKey([PREFIX, "index"])


def default_root() -> Path:
    value = os.environ.get(ENV_DATASETS, "").strip()
    return Path(value).resolve() if value else registry.DEFAULT_DATASETS_ROOT


class CorpusResource(dg.ConfigurableResource):
    """Where the corpus lives: `datasets_root`, else $ATLAS_DATASETS, else <repo>/datasets."""

    datasets_root: Optional[str] = Field(default=None, description="datasets folder; default $ATLAS_DATASETS or <repo>/datasets")

    def root(self) -> Path:
        return Path(self.datasets_root).resolve() if self.datasets_root else default_root()


CORPUS = CorpusResource()  # unset: $ATLAS_DATASETS or <repo>/datasets, read at each use


def dataset_key(dataset_id: str) -> dg.AssetKey:
    return dg.AssetKey([PREFIX, dataset_id])


def _problems_md(problems: list[validate.Problem], limit: int = 40) -> str:
    lines = [f"- `{p}`" for p in problems[:limit]]
    if len(problems) > limit:
        lines.append(f"- … and {len(problems) - limit} more")
    return "\n".join(lines) or "none"


def dataset_code_version(spec: registry.DatasetSpec) -> str:
    return code_version("generator", registry.generator_files(spec), base=spec.root)


def make_dataset_asset(spec: registry.DatasetSpec) -> dg.AssetsDefinition:
    key = dataset_key(spec.id)
    description = spec.card.get("description", "") + f"\n\nGenerator: datasets/{(spec.card.get('provenance') or {}).get('generator')}"

    @dg.asset(
        key=key,
        group_name=GROUP,
        code_version=dataset_code_version(spec),
        description=description,
        kinds={"jsonl"},
        tags={"dataset_kind": spec.kind or "unknown"},
        check_specs=[
            dg.AssetCheckSpec(VALID_CHECK, asset=key, blocking=True, description="every row and referenced file passes the corpus rules"),
            dg.AssetCheckSpec(
                IMMUTABLE_CHECK,
                asset=key,
                blocking=True,
                description="a published dataset (datasets/_gen/published.lock.json) regenerates to the same bytes",
            ),
        ],
    )
    def _dataset(context: dg.AssetExecutionContext, corpus: CorpusResource) -> dg.MaterializeResult:
        root = corpus.root()
        specs = {s.id: s for s in registry.discover(root)}
        if spec.id not in specs:
            raise dg.Failure(f"dataset folder {root / spec.id} (with dataset.json) not found")
        outcome = rebuild.rebuild(specs[spec.id])
        errors = [p for p in outcome.problems if p.severity == "error"]
        for problem in errors[:20]:
            context.log.error(str(problem))
        if not outcome.immutable_ok:
            context.log.error(outcome.immutable_message)
        rows = outcome.rows
        card, corrections = cards.corrected_card(root, spec.id, specs[spec.id].card)
        metadata = {
            "rows": dg.MetadataValue.int(len(rows)),
            "size_bytes": dg.MetadataValue.int(outcome.size_bytes),
            "size": dg.MetadataValue.text(corpus_index.human_bytes(outcome.size_bytes)),
            "content_sha256": dg.MetadataValue.text(outcome.content_sha256),
            "regenerated_sha256": dg.MetadataValue.text(outcome.regenerated_sha256 or "generator failed"),
            "published_sha256": dg.MetadataValue.text(outcome.published_sha256 or "unpublished"),
            "path": dg.MetadataValue.path(str(root / spec.id)),
            "breakdown": dg.MetadataValue.md(summary.breakdown_markdown(spec.kind, rows)),
            "sample_rows": dg.MetadataValue.json(summary.sample_rows(rows)),
            "files_written": dg.MetadataValue.json(outcome.written),
            "generator_seconds": dg.MetadataValue.float(round(outcome.generator_seconds, 3)),
            "card_corrections": dg.MetadataValue.json(corrections),
        }
        if "scoring" in card:  # scored kinds: the scoring block with card corrections applied
            metadata["scoring"] = dg.MetadataValue.json(card["scoring"])
        checks = [
            dg.AssetCheckResult(
                check_name=VALID_CHECK,
                passed=outcome.valid,
                severity=dg.AssetCheckSeverity.ERROR,
                description="valid" if outcome.valid else f"{len(errors)} problem(s); nothing was written",
                metadata={"problems": dg.MetadataValue.md(_problems_md(errors)), "count": len(errors)},
            ),
            dg.AssetCheckResult(
                check_name=IMMUTABLE_CHECK,
                passed=outcome.immutable_ok,
                severity=dg.AssetCheckSeverity.ERROR,
                description=outcome.immutable_message,
                metadata={
                    "published_sha256": outcome.published_sha256 or "unpublished",
                    "regenerated_sha256": outcome.regenerated_sha256 or "generator failed",
                    "changed_files": dg.MetadataValue.json(
                        (outcome.diff.changed + outcome.diff.missing + outcome.diff.extra) if outcome.diff else []
                    ),
                },
            ),
        ]
        return dg.MaterializeResult(data_version=dg.DataVersion(outcome.content_sha256), metadata=metadata, check_results=checks)

    return _dataset


INDEX_CODE_VERSION = code_version("index", source_files("corpus", include=("index.py", "validate.py", "registry.py")))


def make_index_asset(specs: list[registry.DatasetSpec]) -> dg.AssetsDefinition:
    @dg.asset(
        key=INDEX_KEY,
        group_name=GROUP,
        deps=[dataset_key(s.id) for s in specs],
        code_version=INDEX_CODE_VERSION,
        description="datasets/README.md's corpus index, after the corpus-wide rules: unique text, 25 MB budget, lock, rules self-test.",
        kinds={"markdown"},
        check_specs=[dg.AssetCheckSpec(CORPUS_CHECK, asset=INDEX_KEY, blocking=True, description="corpus-wide rules pass")],
    )
    def _index(context: dg.AssetExecutionContext, corpus: CorpusResource) -> dg.MaterializeResult:
        root = corpus.root()
        report = validate.validate_corpus(root)
        # the index is about to be rewritten, so a stale index is not a corpus error here
        errors = [p for p in report.errors if "corpus index is stale" not in p.message]
        for problem in errors[:20]:
            context.log.error(str(problem))
        written = corpus_index.write_index(root) if not errors else []
        readme = root / "README.md"
        sha = hashlib.sha256(readme.read_bytes()).hexdigest() if readme.is_file() else ""
        return dg.MaterializeResult(
            data_version=dg.DataVersion(sha),
            metadata={
                "datasets": dg.MetadataValue.int(len(report.datasets)),
                "rows": dg.MetadataValue.int(report.rows),
                "corpus_bytes": dg.MetadataValue.int(report.corpus_bytes),
                "budget_share": dg.MetadataValue.float(round(report.corpus_bytes / report.budget_bytes, 4)),
                "index": dg.MetadataValue.md(corpus_index.render_index(root)),
                "files_written": dg.MetadataValue.json([str(p.relative_to(root)) for p in written]),
            },
            check_results=[
                dg.AssetCheckResult(
                    check_name=CORPUS_CHECK,
                    passed=not errors,
                    severity=dg.AssetCheckSeverity.ERROR,
                    description="corpus-wide rules pass" if not errors else f"{len(errors)} problem(s); index not rewritten",
                    metadata={"problems": dg.MetadataValue.md(_problems_md(errors))},
                )
            ],
        )

    return _index
