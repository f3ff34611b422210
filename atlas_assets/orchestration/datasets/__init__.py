"""The eval corpus (group "datasets"): one asset per dataset, the corpus index, and the
sensor that records published datasets at their locked bytes."""

from pathlib import Path

import dagster as dg

from atlas_assets.corpus import registry
from atlas_assets.orchestration.datasets.assets import CORPUS, CorpusResource, default_root, make_dataset_asset, make_index_asset
from atlas_assets.orchestration.datasets.sensors import make_published_sensor


def build_defs(root: Path | None = None) -> dg.Definitions:
    """Definitions for the corpus under `root` (default $ATLAS_DATASETS or <repo>/datasets)."""
    corpus = CorpusResource(datasets_root=str(Path(root).resolve())) if root else CORPUS
    root = Path(root).resolve() if root else default_root()
    specs = registry.discover(root) if root.is_dir() else []
    return dg.Definitions(
        assets=[*(make_dataset_asset(spec) for spec in specs), make_index_asset(specs)],
        sensors=[make_published_sensor(root)],
        resources={"corpus": corpus},
    )


defs = build_defs()
