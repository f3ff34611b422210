"""Translation evaluation (group "translation"): translation/corpus -> translation_run
(engine x corpus) -> translation/leaderboard, and the sensor that records corpora at the
sha256 of their files."""

from atlas_assets.orchestration.translation.assets import build_defs

defs = build_defs()
