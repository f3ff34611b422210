"""Autobench's checks: the review projection, evaluated on the stored manifest before a
generated dataset can be published."""

import warnings

import dagster as dg

from atlas_assets.orchestration.autobench.assets import MANIFEST_KEY, load_result, manifest_path, partitions_def, review_problems
from atlas_assets.orchestration.resources import ArtifactStoreResource
from autobench import yamlio


def review_projection(context: dg.AssetCheckExecutionContext, artifact_store: ArtifactStoreResource) -> dg.AssetCheckResult:
    gid = context.partition_key
    store = artifact_store.store()
    try:
        manifest = yamlio.parse_yaml(store.get_bytes(manifest_path(gid)), manifest_path(gid))[0]
    except yamlio.YamlError as exc:
        problems = [str(exc)]
    else:
        problems = review_problems(manifest, load_result(store, gid))
    return dg.AssetCheckResult(
        passed=not problems, severity=dg.AssetCheckSeverity.ERROR, metadata={"problems": "\n".join(problems) or "none"}
    )


def make_review_check() -> dg.AssetChecksDefinition:
    with warnings.catch_warnings():
        # A partitioned asset check is a preview feature of Dagster 1.13 (pinned): the review is
        # per generation, so the check is partitioned like the manifest it reads.
        warnings.simplefilter("ignore", category=dg.PreviewWarning)
        return dg.asset_check(
            asset=MANIFEST_KEY,
            name="review_projection",
            blocking=True,
            partitions_def=partitions_def,
            description="The stored manifest's rejected cases are absent from the dataset and explained.",
        )(review_projection)
