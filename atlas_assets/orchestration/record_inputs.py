"""`python -m atlas_assets.orchestration.record_inputs`: record the published datasets,
workloads and translation corpora at their bytes' versions in the instance at
$DAGSTER_HOME, as the on-disk sensors do on each tick. `make dev` runs it before the UI
starts so a fresh instance opens with its inputs current, not "never materialized"."""

import dagster as dg

from atlas_assets import defs
from atlas_assets.orchestration.shell import record_on_disk_inputs


def main() -> None:
    with dg.DagsterInstance.get() as instance:
        events = record_on_disk_inputs(instance, defs)
    print(
        f"recorded {len(events)} input version(s) from their bytes on disk" if events else "every input is recorded at its bytes' version"
    )


if __name__ == "__main__":
    main()
