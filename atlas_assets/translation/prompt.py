"""The documented prompt template of translation runs (`translate-v1`), and how a
reply becomes the translation that is scored.

Every source is sent as one chat request (temperature 0 by default):

    system: You are a careful professional translator.
    user:   Translate the following text from {source_name} ({source_language}) into
            {target_name} ({target_language}). Reply with the translation only, without
            quotes, notes or explanations.

            {source}

(the user turn is one line up to the blank line: the line break above is for this page
only). `{source_name}`/`{target_name}` are the tags' English names
(languages.language_name: "Russian" for rus-Cyrl, "Chinese (Traditional)" for zho-Hant,
the tag itself when it has none); `{source_language}`/`{target_language}` are the
corpus's tags as written. The run card records `template.sha256` = sha256 of the
canonical JSON of {id, system, user}: a changed template is a different run, never
resumed from, and shows in `atlas translation compare`. The names are not in that
digest: they are rendered into every request, and each segment's fingerprint covers its
request body, so a name that changes (a new naming rule or `language_data` release)
makes those segments stale and they are sent again.

`parse_user_turn` is the inverse: it reads the two tags and the source back and accepts
the turn only if rendering them again gives the same text, so names that contain
parentheses ("Chinese (Traditional) (zho-Hant)") cannot confuse it.

The reply's content, minus a leading <think>...</think> block, stripped of surrounding
whitespace, is the translation; nothing else is cleaned (quotes or notes the model adds
count against it, as the instruction asked for none).
"""

from __future__ import annotations

import re
from typing import Any

from atlas_assets.core.hashing import sha256_json
from atlas_assets.translation.languages import language_name

__all__ = ["SYSTEM", "TEMPLATE_ID", "USER", "clean_output", "messages", "parse_user_turn", "template_info"]

TEMPLATE_ID = "translate-v1"
SYSTEM = "You are a careful professional translator."
USER = (
    "Translate the following text from {source_name} ({source_language}) into {target_name} ({target_language}). "
    "Reply with the translation only, without quotes, notes or explanations.\n\n{source}"
)

_USER_RE = re.compile(
    r"\ATranslate the following text from [^\n]+? \((?P<source_language>[^()\s]+)\) into [^\n]+? \((?P<target_language>[^()\s]+)\)\. "
    r"Reply with the translation only, without quotes, notes or explanations\.\n\n(?P<source>.*)\Z",
    re.DOTALL,
)
_THINK = re.compile(r"\A\s*<think>.*?</think>", re.DOTALL)


def messages(source: str, source_language: str, target_language: str) -> list[dict[str, str]]:
    user = USER.format(
        source_name=language_name(source_language),
        source_language=source_language,
        target_name=language_name(target_language),
        target_language=target_language,
        source=source,
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def parse_user_turn(text: str) -> tuple[str, str, str] | None:
    """(source_language, target_language, source) of a user turn made by this template."""
    match = _USER_RE.match(text)
    if match is None:
        return None
    parsed = match["source_language"], match["target_language"], match["source"]
    return parsed if messages(parsed[2], parsed[0], parsed[1])[1]["content"] == text else None


def template_info() -> dict[str, Any]:
    body = {"id": TEMPLATE_ID, "system": SYSTEM, "user": USER}
    return {**body, "sha256": sha256_json(body)}


def clean_output(content: str | None) -> str:
    if not content:
        return ""
    return _THINK.sub("", content, count=1).strip()
