"""Inference Atlas: the evaluation stack as one Dagster asset graph.

`defs` is the single Definitions object, loaded by workspace.yaml, by
`dagster ... -m atlas_assets` and by DAGSTER_MODULE_NAME=atlas_assets. It is imported
lazily (PEP 562) so that the plain domain packages and their CLIs, such as
`humaneval-ratings`, start without importing Dagster.
"""

from typing import Any

__all__ = ["defs"]


def __getattr__(name: str) -> Any:
    if name == "defs":
        from atlas_assets.definitions import defs

        globals()["defs"] = defs  # cache: later lookups skip __getattr__
        return defs
    raise AttributeError(f"module 'atlas_assets' has no attribute {name!r}")


def __dir__() -> list[str]:
    # Dagster discovers Definitions with inspect.getmembers, which lists dir(module).
    return sorted({*globals(), "defs"})
