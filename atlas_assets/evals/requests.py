"""Row -> the exact chat-completions request body.

The contracts of the datasets specification, applied here and nowhere else:

* prompts rows: `messages` as they are; a non-null `shared_prefix` is sent as a leading
  system message, `[{"role": "system", "content": shared_prefix}, *messages]`;
* eval rows: `messages` when the row has them, else one user turn with `prompt`, sent
  verbatim (an `mc` row's prompt already lists its labelled choices);
* tool rows (`meta.tools`): `tools` = those OpenAI function schemas, `tool_choice: "auto"`;
* vision rows (`image`): the last user turn becomes content parts, the text and then an
  `image_url` part holding the file as a base64 data URI;
* long-context rows (a haystack-v1 recipe, in `meta.haystack` or the haystack-v1 row
  itself): one user turn `PREAMBLE + document + question` rebuilt by corpus/longctx.py,
  verified against the recipe's sha256 before it is sent.

Body key order: model, messages, max_tokens, temperature, stop, tools, tool_choice,
stream, stream_options (`include_usage`, so streamed responses still report usage).
The row fingerprint (sha256 of the canonical body + engine identity + dataset sha256)
makes any change to what is sent, where, or from which bytes, a different request.
"""

from __future__ import annotations

import base64
import math
from pathlib import Path
from typing import Any, Mapping, Sequence

from atlas_assets.core.hashing import sha256_json
from atlas_assets.corpus import longctx
from atlas_assets.corpus.registry import DatasetSpec
from atlas_assets.evals.workloads import RequestParams

__all__ = ["approx_tokens", "build_body", "build_messages", "fingerprint", "image_data_uri"]

_MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp", ".gif": "image/gif"}


def image_data_uri(path: Path) -> str:
    mime = _MIME.get(path.suffix.lower())
    if mime is None:
        raise ValueError(f"{path}: unsupported image type {path.suffix!r} (png, jpeg, webp, gif)")
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def _attach_image(messages: list[dict[str, Any]], uri: str) -> list[dict[str, Any]]:
    for i in range(len(messages) - 1, -1, -1):
        if messages[i]["role"] == "user":
            text = messages[i]["content"]
            parts = [{"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": uri}}]
            return [*messages[:i], {**messages[i], "content": parts}, *messages[i + 1 :]]
    raise ValueError("a vision row needs a user turn to carry its image")


def build_messages(row: Mapping[str, Any], spec: DatasetSpec) -> list[dict[str, Any]]:
    """The chat messages for one row of the dataset `spec`."""
    if longctx.requires_document(row):
        messages = longctx.build_messages(row, spec.root)
        longctx.assert_document_sent(row, messages)
        return messages
    if "messages" in row:
        messages = [dict(m) for m in row["messages"]]
    elif "prompt" in row:
        messages = [{"role": "user", "content": row["prompt"]}]
    else:
        raise ValueError(f"row {row.get('id')!r} has neither messages nor prompt")
    if row.get("shared_prefix") is not None:
        messages = [{"role": "system", "content": row["shared_prefix"]}, *messages]
    if row.get("image"):
        messages = _attach_image(messages, image_data_uri(spec.folder / row["image"]))
    return messages


def build_body(row: Mapping[str, Any], spec: DatasetSpec, params: RequestParams, model: str) -> dict[str, Any]:
    """The exact JSON body of POST {base_url}/chat/completions for this row."""
    body: dict[str, Any] = {"model": model, "messages": build_messages(row, spec), **params.body_fields()}
    tools = (row.get("meta") or {}).get("tools")
    if tools:
        body["tools"] = tools
        body["tool_choice"] = "auto"
    body["stream"] = params.stream
    if params.stream:
        body["stream_options"] = {"include_usage": True}
    return body


def fingerprint(body: Mapping[str, Any], engine_identity: Mapping[str, Any], dataset_sha256: str) -> str:
    """sha256 of the canonical request body, the engine identity and the dataset sha256."""
    return sha256_json({"body": body, "engine": engine_identity, "dataset_sha256": dataset_sha256})


def approx_tokens(messages: Sequence[Mapping[str, Any]]) -> int:
    """The corpus heuristic ceil(chars / 4) over the text sent (image parts not counted)."""
    chars = 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            chars += len(content)
        elif isinstance(content, list):
            chars += sum(len(p.get("text", "")) for p in content if p.get("type") == "text")
    return math.ceil(chars / 4)
