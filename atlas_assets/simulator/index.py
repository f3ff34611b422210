"""Which corpus row a chat request is asking: an index of every dataset row's prompt.

Built once per datasets root (cached per process) from `corpus.registry.discover`; a
lookup is a dict access on a 16-byte BLAKE2b digest, O(1) in the size of the corpus.

Keys, per row:

* the text of the row's last user turn (an eval row's `prompt`, or the last user message
  of its `messages`). This covers the plain form, the `shared_prefix` form (the prefix is
  an extra leading system message; the user turn is unchanged) and content-part lists
  (their text parts).
* vision rows (`image`) often share their question, so they are keyed by the text and
  the digest of the image file's bytes, matched against the first image part of the
  request that is a base64 `data:` URI (its decoded bytes). A request without its image
  can only be matched by its text: among rows sharing a question, the first is taken.
  Identification always sees the image, even under a profile that drops image parts
  (`text_only`): that profile answers blind, but the request log names the right row.
* long-context rows (an eval row with `meta.haystack`, or a haystack-v1 row) are sent as
  PREAMBLE + "\\n\\n" + document + "\\n\\n" + question. Their key is (length of that text,
  digest of the question), computable without rebuilding the document; a candidate is
  confirmed by `corpus.longctx.missing_document`, which hashes the document segment
  against the recipe's sha256. The bare question is deliberately not a key: a request
  sent without its document is not recognised and gets a generic (wrong) reply, the
  way a real model cannot answer it.
* when two rows share their last user text, the whole conversation (roles and texts, with
  and without the row's shared_prefix as a leading system turn) decides; if that is
  ambiguous too, the first dataset in id order wins.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from atlas_assets.corpus import longctx
from atlas_assets.corpus.registry import DEFAULT_DATASETS_ROOT, discover, read_rows
from atlas_assets.corpus.scorers import scorer_name

__all__ = [
    "CorpusIndex",
    "IMAGE_PART_TOKENS",
    "RequestView",
    "RowEntry",
    "conversation_digest",
    "corpus_index",
    "data_uri_digest",
    "digest",
]

# Prompt tokens charged for one image part (the chars/4 heuristic has nothing to count).
IMAGE_PART_TOKENS = 256
IMAGE_PART_TYPES = frozenset({"image_url", "input_image", "image"})


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: one entry per row
class RowEntry:
    """One corpus row the simulator can recognise."""

    dataset: str
    row: Mapping[str, Any]
    scorer: str | None  # None for prompt-set rows (no answer to get right)
    default_scorer: str | None

    @property
    def id(self) -> str:
        return str(self.row.get("id"))

    @property
    def key(self) -> str:
        return f"{self.dataset}/{self.id}"

    @property
    def difficulty(self) -> str | None:
        return self.row.get("difficulty")

    @property
    def needs_image(self) -> bool:
        return bool(self.row.get("image"))


def _image_url(part: Mapping[str, Any]) -> str:
    url = part.get("image_url", part.get("url", ""))
    return str(url.get("url", "")) if isinstance(url, Mapping) else str(url)


def data_uri_digest(url: str) -> bytes | None:
    """The digest of the bytes a base64 `data:` URI carries (None for anything else)."""
    header, comma, payload = url.partition(",")
    if not comma or not header.startswith("data:") or not header.endswith(";base64"):
        return None
    try:
        return hashlib.blake2b(base64.b64decode(payload), digest_size=16).digest()
    except (binascii.Error, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class RequestView:
    """The parts of a chat request's messages the simulator looks at."""

    turns: tuple[tuple[str, str], ...]  # (role, text) per message; image parts removed
    images: int  # image parts kept (0 when the profile drops them)
    chars: int
    image_digest: bytes | None = None  # of the first base64 data-URI image, dropped or not

    @classmethod
    def parse(cls, messages: Sequence[Any], drop_images: bool = False) -> "RequestView":
        """Raises ValueError on a message that is not an object with a role."""
        turns = []
        images = chars = 0
        image_digest = None
        for message in messages:
            if not isinstance(message, Mapping) or not isinstance(message.get("role"), str):
                raise ValueError("every message must be an object with a string `role`")
            content = message.get("content")
            if isinstance(content, str):
                text = content
            elif isinstance(content, list):
                texts = []
                for part in content:
                    if not isinstance(part, Mapping):
                        continue
                    if part.get("type") == "text":
                        texts.append(str(part.get("text", "")))
                    elif part.get("type") in IMAGE_PART_TYPES:
                        images += not drop_images
                        if image_digest is None:
                            image_digest = data_uri_digest(_image_url(part))
                text = "\n".join(texts)
            else:
                text = ""
            chars += len(text)
            turns.append((message["role"], text))
        return cls(tuple(turns), images, chars, image_digest)

    @property
    def prompt_tokens(self) -> int:
        """The corpus heuristic: ceil(characters / 4), plus a fixed charge per image."""
        return math.ceil(self.chars / 4) + IMAGE_PART_TOKENS * self.images

    @property
    def last_user(self) -> str | None:
        for role, text in reversed(self.turns):
            if role == "user":
                return text
        return None


def conversation_digest(turns: Sequence[tuple[str, str]]) -> bytes:
    return digest("\x1e".join(f"{role}\x1f{text}" for role, text in turns))


def _row_turns(row: Mapping[str, Any]) -> list[tuple[str, str]]:
    if isinstance(row.get("messages"), list):
        return [(str(m.get("role")), str(m.get("content", ""))) for m in row["messages"]]
    text = row.get("prompt", row.get("question"))
    return [("user", str(text))] if text is not None else []


class CorpusIndex:
    def __init__(self, datasets_root: str | Path = DEFAULT_DATASETS_ROOT) -> None:
        self.datasets_root = Path(datasets_root)
        self._by_last_user: dict[bytes, list[RowEntry]] = {}
        self._by_conversation: dict[bytes, RowEntry] = {}
        self._by_image: dict[bytes, RowEntry] = {}
        self._by_haystack: dict[tuple[int, bytes], list[RowEntry]] = {}
        self.rows = 0
        preamble: str | None = None
        for spec in discover(self.datasets_root):
            if spec.kind not in ("eval", "prompts", "haystack"):
                continue
            default = spec.default_scorer
            for row in read_rows(spec):
                entry = RowEntry(spec.id, row, _scorer(row, default, spec.kind), default)
                self.rows += 1
                recipe = longctx.recipe_of(row)
                if recipe is not None:
                    if preamble is None:
                        preamble = longctx.haystack_builder(self.datasets_root).PREAMBLE
                    question = longctx.question_of(row)
                    length = len(preamble) + 2 + int(recipe["chars"]) + 2 + len(question)
                    self._by_haystack.setdefault((length, digest(question)), []).append(entry)
                    continue
                turns = _row_turns(row)
                last = next((text for role, text in reversed(turns) if role == "user"), None)
                if last is None:
                    continue
                self._by_last_user.setdefault(digest(last), []).append(entry)
                if row.get("image"):
                    try:
                        image = (spec.folder / str(row["image"])).read_bytes()
                    except OSError:  # without the file the row is matched by its text alone
                        continue
                    key = digest(last) + hashlib.blake2b(image, digest_size=16).digest()
                    self._by_image.setdefault(key, entry)
        for entries in self._by_last_user.values():
            if len(entries) > 1:
                for entry in entries:
                    turns = _row_turns(entry.row)
                    variants = [turns]
                    if entry.row.get("shared_prefix"):
                        variants.append([("system", str(entry.row["shared_prefix"])), *turns])
                    for variant in variants:
                        self._by_conversation.setdefault(conversation_digest(variant), entry)

    def entries(self) -> list[RowEntry]:
        """Every indexed row once (prompt-keyed rows, then long-context rows)."""
        seen: dict[int, RowEntry] = {}
        for group in (*self._by_last_user.values(), *self._by_haystack.values()):
            for entry in group:
                seen.setdefault(id(entry), entry)
        return list(seen.values())

    def identify(self, view: RequestView) -> RowEntry | None:
        last = view.last_user
        if last is None:
            return None
        text_key = digest(last)
        if view.image_digest is not None:
            entry = self._by_image.get(text_key + view.image_digest)
            if entry is not None:
                return entry
        entries = self._by_last_user.get(text_key)
        if entries is not None:
            if len(entries) == 1:
                return entries[0]
            return self._by_conversation.get(conversation_digest(view.turns), entries[0])
        _, sep, question = last.rpartition("\n\n")
        if not sep:
            return None
        for entry in self._by_haystack.get((len(last), digest(question)), ()):
            if longctx.missing_document(entry.row, [{"role": "user", "content": last}]) is None:
                return entry
        return None


def _scorer(row: Mapping[str, Any], default: str | None, kind: str) -> str | None:
    if kind == "prompts":
        return None
    try:
        return scorer_name(row, default)
    except ValueError:  # a row the scorers cannot judge is answered like a prompt-set row
        return None


_CACHE: dict[tuple[Path, tuple[tuple[str, int, int], ...]], CorpusIndex] = {}
_CACHE_LOCK = threading.Lock()


def _signature(root: Path) -> tuple[tuple[str, int, int], ...]:
    """(dataset, mtime, size) of every dataset's rows file: changes when a dataset does."""
    out = []
    for spec in discover(root):
        try:
            stat = spec.rows_path.stat()
        except OSError:
            continue
        out.append((spec.id, stat.st_mtime_ns, stat.st_size))
    return tuple(out)


def corpus_index(datasets_root: str | Path = DEFAULT_DATASETS_ROOT) -> CorpusIndex:
    """The index of a datasets root, built once per process and rebuilt when a dataset's
    rows file changes."""
    root = Path(datasets_root).resolve()
    key = (root, _signature(root))
    with _CACHE_LOCK:
        index = _CACHE.get(key)
        if index is None:
            for stale in [k for k in _CACHE if k[0] == root]:
                del _CACHE[stale]
            index = _CACHE[key] = CorpusIndex(root)
    return index
