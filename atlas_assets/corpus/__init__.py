"""The eval corpus as plain functions: answer extraction, scorers, the code sandbox, the
splice detector. No Dagster import; `atlas_assets.corpus.scorers.SCORERS` is the registry."""
