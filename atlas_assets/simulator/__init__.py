"""The reference simulator engine: an OpenAI-compatible HTTP server that pretends to be a
model, for offline eval runs, demos and tests. It is a SIMULATOR, never a model: model
ids are profile names such as "sim-strong", every response carries the header
`x-atlas-simulator: 1`, and /v1/models reports owned_by "inference-atlas-simulator".
No Dagster import anywhere in this package.

Interfaces (the contract other packages rely on)
------------------------------------------------

Python::

    from atlas_assets.simulator import start_simulator, SimulatorProfile

    with start_simulator("sim-strong") as sim:            # a preset name, a SimulatorProfile,
        sim.base_url                                       # or an engines-file `simulator:` mapping
        ...                                                # -> "http://127.0.0.1:PORT/v1"
        sim.request_log()                                  # [LoggedRequest(row_id, body_sha256, outcome)]

  start_simulator(profile, host="127.0.0.1", port=0, *, datasets_root=<repo>/datasets,
                  log_path=None, process=False) -> SimulatorHandle
  - returns once the server accepts connections; port=0 picks a free port;
  - in-thread by default (own uvloop loop in a daemon thread; milliseconds to start);
    `process=True` runs `python -m atlas_assets.simulator` as a child process (own
    interpreter and core; `request_log()` then reads the --log file);
  - `SimulatorHandle`: .base_url, .profile, .model, .request_log(), .stop() (idempotent),
    context manager. `read_request_log(path)` parses a --log file.
  - `LoggedRequest(row_id, body_sha256, outcome)`: one per chat request, in arrival order;
    row_id is the recognised corpus row's id (None when unrecognised); body_sha256 is the
    sha256 hex of the raw request body bytes; outcome is one of ok, error_500, error_503,
    timeout, rate_limited, dropped, context_overflow, bad_request, unknown_model. The --log
    file has one JSON object per line with those keys plus dataset, attempt and time.

Profiles (profiles.py documents every field): `SimulatorProfile` (pydantic, extra fields
forbidden): name, model (defaults to name), seed, skill {easy, medium, hard},
think_rate, reasoning_content, final_answer_rate, fence_rate, malformed_rate, ttft_ms,
per_token_ms, error_5xx, timeout, hang_s, rate_limit_429, retry_after_s, drop,
splice_rate, splice_min_tokens, text_only, max_context, output_tokens.
`SimulatorProfile.from_block(block, name=ENGINE, model=MODEL)` reads an engines.yaml
`simulator:` block (`preset: NAME` + overrides). Presets in `PRESETS`: sim-strong,
sim-weak, sim-flaky, sim-text-only, sim-zero-latency. `resolve_profile(spec,
engines_file)` resolves an engine name, a preset or a profile file.

Command line (cli.py): `register(subparsers)` adds `sim serve --profile NAME [--host
127.0.0.1] [--port 8000] [--engines engines.yaml] [--datasets DIR] [--log FILE]` and
`sim profiles`; leaf parsers set `func(args) -> int`. `python -m atlas_assets.simulator`
takes the serve options and prints the base URL as the first stdout line.

HTTP (server.py): POST /v1/chat/completions (JSON or SSE `data: {...}` chunks ending
with `data: [DONE]`; `stream_options.include_usage` adds a final usage chunk with
`choices: []`), GET /v1/models, GET /health. Usage: prompt_tokens = ceil(chars of the
messages' text / 4) (+256 per image part kept), completion_tokens = streamed tokens of
~4 characters, completion_tokens_details.reasoning_tokens. Reasoning is streamed as
`delta.reasoning_content` (profile.reasoning_content) or inline `<think>` text. Errors are
OpenAI-shaped {"error": {message, type, param, code}}: 400 (bad body;
code context_length_exceeded when prompt tokens > max_context), 404 (model_not_found
unless the request's model is the profile's model or name), injected 500/503, and 429
with `Retry-After` (seconds) and `retry-after-ms`. A "timeout" sends nothing for hang_s
seconds; a "drop" closes the socket after half the response.

Behaviour (index.py, replies.py): rows are recognised by a hash of the last user turn
(a shared_prefix system turn does not matter; vision rows also by the digest of their
base64 data-URI image; haystack prompts by length and question, confirmed against the
document's sha256) and answered right with
probability skill[difficulty] using corpus/reference.py, else wrong; every decision is a
deterministic function of (profile seed, row, attempt), attempt counting earlier
requests with the same body.
"""

from atlas_assets.simulator.handle import SimulatorHandle, read_request_log, start_simulator
from atlas_assets.simulator.profiles import PRESETS, ProfileError, SimulatorProfile, Skill, load_engine_profiles, resolve_profile
from atlas_assets.simulator.server import OWNED_BY, LoggedRequest

__all__ = [
    "OWNED_BY",
    "PRESETS",
    "LoggedRequest",
    "ProfileError",
    "SimulatorHandle",
    "SimulatorProfile",
    "Skill",
    "load_engine_profiles",
    "read_request_log",
    "resolve_profile",
    "start_simulator",
]
