"""Shared helpers of tests/simulator (test modules import these; fixtures stay in conftest.py)."""

from __future__ import annotations

import base64
import http.client
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from atlas_assets.corpus.registry import DEFAULT_DATASETS_ROOT

REAL = DEFAULT_DATASETS_ROOT


LINKED = ["eval-instruction-v1", "eval-longctx-v1", "haystack-v1", "prompts-shared-prefix-v1"]


IMAGES = {"images/v-dots.png": b"\x89PNG\r\n\x1a\n four dots", "images/v-dots-2.png": b"\x89PNG\r\n\x1a\n seven dots"}


CONTEXT_IDENTIFIERS = ["computeTotal", "formatLabel", "loadRecords", "ReportStore", "parseAmount", "normaliseName"]


def longgen_module() -> str:
    """A clean JavaScript module of ~1,500 tokens using the context identifiers."""
    lines = ["import { computeTotal, formatLabel, loadRecords, parseAmount, normaliseName } from './core.js';", ""]
    for i in range(60):
        lines += [
            f"export function summariseBatch{i}(entries) {{",
            f"  const records = loadRecords(entries).filter((item) => parseAmount(item.amount) > {i});",
            f"  return formatLabel(normaliseName('batch{i}')) + computeTotal(records);",
            "}",
        ]
    return "\n".join(lines) + "\n"


def eval_rows() -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """dataset id -> (default scorer, rows)."""
    tools = [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather for a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
            },
        }
    ]
    module = longgen_module()
    return {
        "sim-basic-v1": (
            "exact",
            [
                {
                    "id": "b-exact",
                    "difficulty": "easy",
                    "prompt": "Spell the word 'harbour' backwards. Reply with the word only.",
                    "answer": "ruobrah",
                    "scorer": "exact",
                },
                {
                    "id": "b-numeric",
                    "difficulty": "medium",
                    "prompt": "What is 17 * 23? Reply with the number only.",
                    "answer": "391",
                    "scorer": "numeric",
                },
                {
                    "id": "b-mc",
                    "difficulty": "hard",
                    "prompt": "Which is a prime number?",
                    "choices": ["21", "27", "29", "33"],
                    "answer": "C",
                    "scorer": "mc",
                },
                {
                    "id": "b-contains",
                    "difficulty": "easy",
                    "prompt": "Name the colour of a clear daytime sky.",
                    "answer": ["blue"],
                    "scorer": "contains",
                },
                {
                    "id": "b-json",
                    "difficulty": "medium",
                    "prompt": 'Return the JSON object {"a": 1, "b": [true, null]}.',
                    "answer": {"a": 1, "b": [True, None]},
                    "scorer": "json",
                },
                {
                    "id": "b-system",
                    "difficulty": "easy",
                    "messages": [
                        {"role": "system", "content": "Answer in one word."},
                        {"role": "user", "content": "What is frozen water called?"},
                    ],
                    "answer": "ice",
                    "scorer": "exact",
                },
            ],
        ),
        "sim-tools-v1": (
            "tool_call",
            [
                {
                    "id": "t-call",
                    "difficulty": "easy",
                    "prompt": "What's the weather in Lisbon right now?",
                    "answer": {"tool_call": {"name": "get_weather", "arguments": {"city": "Lisbon"}}},
                    "meta": {"tools": tools},
                },
                {
                    "id": "t-none",
                    "difficulty": "easy",
                    "prompt": "Say hello to me, no tools needed.",
                    "answer": {"tool_call": None},
                    "meta": {"tools": tools},
                },
            ],
        ),
        # Two rows with one question: only the image tells them apart.
        "sim-vision-v1": (
            "numeric",
            [
                {
                    "id": "v-dots",
                    "difficulty": "easy",
                    "prompt": "How many dots are in the image? Reply with a number.",
                    "answer": "4",
                    "image": "images/v-dots.png",
                },
                {
                    "id": "v-dots-2",
                    "difficulty": "easy",
                    "prompt": "How many dots are in the image? Reply with a number.",
                    "answer": "7",
                    "image": "images/v-dots-2.png",
                },
            ],
        ),
        "sim-code-v1": (
            "code_exec",
            [
                {
                    "id": "c-add",
                    "difficulty": "easy",
                    "prompt": "Write a Python function add(a, b) returning the sum.",
                    "answer": "def add(a, b):\n    return a + b\n",
                    "tests": "assert add(2, 3) == 5",
                }
            ],
        ),
        "sim-longgen-v1": (
            "splice",
            [
                {
                    "id": "g-module",
                    "difficulty": "medium",
                    "prompt": "Write the module summarising batches. Reply with the file only.",
                    "answer": "clean",
                    "meta": {"example_pass": module, "context_identifiers": CONTEXT_IDENTIFIERS},
                }
            ],
        ),
        # The same user text as b-system under another system message: the conversation decides.
        "sim-twin-v1": (
            "exact",
            [
                {
                    "id": "twin",
                    "difficulty": "easy",
                    "messages": [
                        {"role": "system", "content": "Answer in French, one word."},
                        {"role": "user", "content": "What is frozen water called?"},
                    ],
                    "answer": "glace",
                    "scorer": "exact",
                }
            ],
        ),
    }


def fixture_rows(dataset_id: str) -> list[dict[str, Any]]:
    return eval_rows()[dataset_id][1]


def fixture_row(row_id: str) -> tuple[str, dict[str, Any], str]:
    """(dataset id, row, default scorer) of a synthetic row."""
    for dataset_id, (default, rows) in eval_rows().items():
        for row in rows:
            if row["id"] == row_id:
                return dataset_id, row, default
    raise KeyError(row_id)


def messages_for(row: dict[str, Any], with_image: bool = True) -> list[dict[str, Any]]:
    """The request messages the harness sends for an eval row (non-haystack forms)."""
    if "messages" in row:
        return row["messages"]
    if row.get("image"):
        parts: list[dict[str, Any]] = [{"type": "text", "text": row["prompt"]}]
        if with_image:
            parts.append({"type": "image_url", "image_url": {"url": image_uri(row["image"])}})
        return [{"role": "user", "content": parts}]
    return [{"role": "user", "content": row["prompt"]}]


def image_uri(name: str) -> str:
    """The image of a synthetic vision row as the harness sends it: a base64 data URI."""
    return "data:image/png;base64," + base64.b64encode(IMAGES[name]).decode()


def body_for(model: str, row: dict[str, Any], **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "messages": messages_for(row), "max_tokens": 4096}
    tools = (row.get("meta") or {}).get("tools")
    if tools:
        body["tools"] = tools
        body["tool_choice"] = "auto"
    body.update(extra)
    return body


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def events(self) -> list[Any]:
        """The SSE `data:` payloads, parsed (the literal [DONE] kept as a string)."""
        out = []
        for block in self.body.decode().split("\n\n"):
            if block.startswith("data: "):
                payload = block[len("data: ") :]
                out.append(payload if payload == "[DONE]" else json.loads(payload))
        return out


def request(base_url: str, method: str, path: str, body: Any = None, timeout: float = 10.0, absolute: bool = False) -> Response:
    """One HTTP request on a fresh connection. `path` is relative to base_url (.../v1)
    unless `absolute`."""
    url = urlsplit(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    try:
        payload = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        headers = {"content-type": "application/json"} if payload is not None else {}
        connection.request(method, path if absolute else url.path + path, body=payload, headers=headers)
        response = connection.getresponse()
        return Response(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        connection.close()


def chat(base_url: str, body: Any, timeout: float = 10.0) -> Response:
    return request(base_url, "POST", "/chat/completions", body, timeout)
