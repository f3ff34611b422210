"""humaneval-ratings: the arena votes dump -> leaderboard.json engine (no Dagster import).

Modules, in the order data flows through them:
  errors      DumpError: a rejection naming file, line and field
  features    the four style covariates of one response text
  dump        streamed reading + validation of battles.jsonl / votes.jsonl into numpy arrays
  fit         weighted Bradley-Terry (+ style control) fits and the battle bootstrap
  leaderboard per-category assembly, rank bands, the byte-exact leaderboard.json
  cli         the `humaneval-ratings` command (compute, verify)
  sample      a deterministic synthetic platform export with known true strengths
"""

PACKAGE = "humaneval-ratings"
PACKAGE_VERSION = "1.2.0"
LEADERBOARD_SCHEMA_VERSION = 1
SUPPORTED_DUMP_VERSIONS = (1, 2)
COVARIATES = ("length_chars", "markdown_density", "list_count", "header_count")
ELO_PER_LOGIT = 400.0 / 2.302585092994046  # 400 / ln 10
