"""The arena leaderboard (group "arena"): votes_dump -> leaderboard, browser_use_telemetry,
the recording-media check, and the nightly schedule."""

import dagster as dg

from atlas_assets.orchestration.leaderboard.assets import browser_use_telemetry, leaderboard, votes_dump
from atlas_assets.orchestration.leaderboard.checks import recording_media_present
from atlas_assets.orchestration.leaderboard.schedules import nightly_leaderboard, nightly_leaderboard_job
from atlas_assets.orchestration.resources import RESOURCES

defs = dg.Definitions(
    assets=[votes_dump, leaderboard, browser_use_telemetry],
    asset_checks=[recording_media_present],
    jobs=[nightly_leaderboard_job],
    schedules=[nightly_leaderboard],
    resources=RESOURCES,
)
