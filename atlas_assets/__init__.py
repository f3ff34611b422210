"""Inference Atlas: the evaluation stack as one Dagster asset graph.

`defs` is the single Definitions object, loaded by workspace.yaml, by
`dagster ... -m atlas_assets` and by DAGSTER_MODULE_NAME=atlas_assets.
"""

from atlas_assets.definitions import defs

__all__ = ["defs"]
