"""The documented prompt template of translation runs (`translate-v1`), and how a
reply becomes the translation that is scored.

Every source is sent as one chat request (temperature 0 by default):

    system: You are a careful professional translator.
    user:   Translate the following text from {source_name} ({source_language}) into
            {target_name} ({target_language}). Reply with the translation only, without
            quotes, notes or explanations.

            {source}

(the user turn is one line up to the blank line: the line break above is for this page
only). `{source_name}`/`{target_name}` are English language names for common primary
subtags (LANGUAGE_NAMES), else the tag itself. The run card records
`template.sha256` = sha256 of the canonical JSON of {id, system, user}: a changed
template is a different run, never resumed from, and shows in `atlas translation compare`.

The reply's content, minus a leading <think>...</think> block, stripped of surrounding
whitespace, is the translation; nothing else is cleaned (quotes or notes the model adds
count against it, as the instruction asked for none).
"""

from __future__ import annotations

import re
from typing import Any

from atlas_assets.core.hashing import sha256_json

__all__ = ["SYSTEM", "TEMPLATE_ID", "USER", "clean_output", "language_name", "messages", "parse_user_turn", "template_info"]

TEMPLATE_ID = "translate-v1"
SYSTEM = "You are a careful professional translator."
USER = (
    "Translate the following text from {source_name} ({source_language}) into {target_name} ({target_language}). "
    "Reply with the translation only, without quotes, notes or explanations.\n\n{source}"
)

LANGUAGE_NAMES = {
    "ar": "Arabic", "bn": "Bengali", "ca": "Catalan", "crk": "Plains Cree", "cs": "Czech", "da": "Danish",
    "de": "German", "el": "Greek", "en": "English", "es": "Spanish", "et": "Estonian", "eu": "Basque",
    "fa": "Persian", "fi": "Finnish", "fr": "French", "ga": "Irish", "gl": "Galician", "gu": "Gujarati",
    "ha": "Hausa", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian", "hy": "Armenian",
    "id": "Indonesian", "ig": "Igbo", "is": "Icelandic", "it": "Italian", "ja": "Japanese", "ka": "Georgian",
    "kk": "Kazakh", "km": "Khmer", "ko": "Korean", "lt": "Lithuanian", "lv": "Latvian", "mi": "Maori",
    "mr": "Marathi", "ms": "Malay", "my": "Burmese", "nl": "Dutch", "no": "Norwegian", "pa": "Punjabi",
    "pl": "Polish", "pt": "Portuguese", "qu": "Quechua", "ro": "Romanian", "ru": "Russian", "sk": "Slovak",
    "sl": "Slovenian", "sr": "Serbian", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "te": "Telugu",
    "th": "Thai", "tl": "Tagalog", "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu", "vi": "Vietnamese",
    "yo": "Yoruba", "zh": "Chinese", "zu": "Zulu",
    "eng": "English", "fra": "French", "deu": "German", "spa": "Spanish", "zho": "Chinese", "jpn": "Japanese",
}  # fmt: skip

_USER_RE = re.compile(
    r"\ATranslate the following text from .+? \((?P<source_language>[^()\s]+)\) into .+? \((?P<target_language>[^()\s]+)\)\. "
    r"Reply with the translation only, without quotes, notes or explanations\.\n\n(?P<source>.*)\Z",
    re.DOTALL,
)
_THINK = re.compile(r"\A\s*<think>.*?</think>", re.DOTALL)


def language_name(tag: str) -> str:
    primary = tag.split("-")[0].lower()
    return LANGUAGE_NAMES.get(primary, tag)


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
    return match["source_language"], match["target_language"], match["source"]


def template_info() -> dict[str, Any]:
    body = {"id": TEMPLATE_ID, "system": SYSTEM, "user": USER}
    return {**body, "sha256": sha256_json(body)}


def clean_output(content: str | None) -> str:
    if not content:
        return ""
    return _THINK.sub("", content, count=1).strip()
