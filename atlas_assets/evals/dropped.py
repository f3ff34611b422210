"""After a run: warnings for inputs the engine silently dropped.

An engine can accept a request and ignore part of it: llama.cpp's server drops `tools`
with a chat template that has no tool support, and a text-only server drops image parts.
Scores then measure a different task. The engine's own prompt-token counts give it away:

- tools: no row of the run got a tool call, and the prompt tokens reported for rows with
  tools do not grow with their schemas (below the messages' text estimate plus half the
  schemas' estimate, for most rows);
- images: the prompt tokens reported for rows with images exceed the text estimate by less
  than `MIN_IMAGE_TOKENS` per image, for most rows (every vision encoder spends far more).

Estimates are characters / 4. Rows the engine reported no usage for are left out; nothing
is said without at least `MIN_ROWS` measured rows.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

from atlas_assets.evals.documents import CheckpointRecord

MIN_IMAGE_TOKENS = 16
MIN_ROWS = 3
MOST = 0.8  # share of measured rows that must look dropped


def _text_tokens(messages: Iterable[Mapping[str, Any]]) -> tuple[float, int]:
    """(estimated text tokens, image parts) of a request's messages."""
    chars, images = 0, 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            chars += len(content)
        elif isinstance(content, list):
            for part in content:
                if isinstance(part, Mapping) and part.get("type") == "image_url":
                    images += 1
                elif isinstance(part, Mapping) and isinstance(part.get("text"), str):
                    chars += len(part["text"])
    return chars / 4, images


def _mostly(flags: list[bool]) -> bool:
    return len(flags) >= MIN_ROWS and sum(flags) >= MOST * len(flags)


def dropped_input_warnings(bodies: Mapping[str, Mapping[str, Any]], records: Mapping[str, CheckpointRecord]) -> list[str]:
    """`bodies`: row id -> the request body sent; `records`: row id -> its checkpoint record."""
    tools_dropped: list[bool] = []
    images_dropped: list[bool] = []
    any_tool_call = False
    for row_id, body in bodies.items():
        record = records.get(row_id)
        if record is None or record.error is not None:
            continue
        any_tool_call = any_tool_call or bool(record.tool_calls)
        reported = record.input_tokens
        if not isinstance(reported, int | float):
            continue
        text, images = _text_tokens(body.get("messages") or [])
        if body.get("tools"):
            schemas = len(json.dumps(body["tools"])) / 4
            tools_dropped.append(reported < text + schemas / 2)
        if images:
            images_dropped.append(reported - text < MIN_IMAGE_TOKENS * images)
    warnings = []
    if not any_tool_call and _mostly(tools_dropped):
        warnings.append(
            f"tools were probably dropped by the engine: no row got a tool call, and the prompt tokens of "
            f"{sum(tools_dropped)} of {len(tools_dropped)} rows with tools do not grow with their schemas "
            "(check the server's chat template supports tools)"
        )
    if _mostly(images_dropped):
        warnings.append(
            f"images were probably dropped by the engine: the prompt tokens of {sum(images_dropped)} of "
            f"{len(images_dropped)} rows with images exceed their text by fewer than {MIN_IMAGE_TOKENS} tokens per "
            "image (a text-only model or server?)"
        )
    return warnings
