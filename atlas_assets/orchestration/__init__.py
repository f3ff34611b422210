"""The Dagster shell: each module wires one domain's plain functions into assets, checks,
schedules and resources, and exposes them as `defs`."""
