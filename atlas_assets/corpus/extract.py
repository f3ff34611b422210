"""Answer extraction: the four normative steps of the datasets specification, in order.

1. drop everything inside <think>...</think>, including an unterminated leading <think>
   block;
2. drop markdown code fences, keeping the fenced content;
3. if any line matches ``^\\s*(?:final answer|answer)\\s*[:\\-]\\s*(.+)$`` (any case), take
   the capture of the last such line and use only that;
4. strip surrounding whitespace, matching quotes, and a single trailing ``.`` or ``!``.

`extract_answer(text, scorer)` applies them before every scorer except ``instruction``
(which judges the raw text). Two scorers whose output is a source file take a documented
subset, because step 3 would read a code line such as ``answer: int = 0`` as an answer
line and step 4 would edit the code:

* ``splice`` (the spec says the Answer:-line step is not applied there): steps 1-2;
* ``code_exec``: step 1, then the code itself -- the content of the fenced blocks when
  the output has any (prose around them is dropped), else the whole text.

Think blocks, concretely: every complete ``<think>...</think>`` pair is removed; a
``</think>`` with no opening tag before it (templates that open the block in the prompt)
drops everything up to it; a leading ``<think>`` that never closes drops everything (the
output was all reasoning). A ``<think>`` later in the text that never closes is left as is.
Tags match case-insensitively.
"""

from __future__ import annotations

import re

__all__ = [
    "ANSWER_LINE_RE",
    "NO_EXTRACTION",
    "extract_answer",
    "extract_code",
    "strip_code_fences",
    "strip_think",
    "strip_wrapping",
]

# Scorers that receive the raw model output.
NO_EXTRACTION = frozenset({"instruction"})

_THINK_PAIR_RE = re.compile(r"<think\b[^>]*>.*?</think\s*>", re.I | re.S)
_THINK_OPEN_RE = re.compile(r"<think\b[^>]*>", re.I)
_THINK_CLOSE_RE = re.compile(r"</think\s*>", re.I)
_FENCE_LINE_RE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n`]*$\n?", re.M)
_FENCE_BLOCK_RE = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n`]*\n(?P<body>.*?)(?:^[ \t]*(?P=fence)[ \t]*$|\Z)", re.M | re.S
)
ANSWER_LINE_RE = re.compile(r"^\s*(?:final answer|answer)\s*[:\-]\s*(.+)$", re.I | re.M)
_QUOTE_PAIRS = {'"': '"', "'": "'", "“": "”", "‘": "’", "«": "»", "`": "`", "„": "“", "「": "」"}


def strip_think(text: str) -> str:
    """Step 1: remove reasoning blocks (complete, leading-unopened, and unterminated)."""
    close = _THINK_CLOSE_RE.search(text)
    if close is not None:
        opened = _THINK_OPEN_RE.search(text, 0, close.start())
        if opened is None:  # the block was opened by the chat template, not the output
            text = text[close.end() :]
    text = _THINK_PAIR_RE.sub("", text)
    unterminated = _THINK_OPEN_RE.match(text.lstrip())
    if unterminated is not None:  # a leading block that never closes: all of it is reasoning
        return ""
    # A stray closing tag left over (e.g. "</think>" twice) carries no answer text.
    return _THINK_CLOSE_RE.sub("", text)


def strip_code_fences(text: str) -> str:
    """Step 2: delete the fence lines (``` or ~~~, with any info string), keep the rest."""
    text = _FENCE_LINE_RE.sub("", text)
    return text.replace("```", "")


def strip_wrapping(text: str) -> str:
    """Step 4: surrounding whitespace, one pair of matching quotes, one trailing . or !

    Handles both orders: ``"Paris".`` and ``"Paris."`` both give ``Paris``.
    """
    s = text.strip()
    unwrapped = False
    if len(s) >= 2 and _QUOTE_PAIRS.get(s[0]) == s[-1]:
        s = s[1:-1].strip()
        unwrapped = True
    if s.endswith((".", "!")):
        s = s[:-1].rstrip()
    if not unwrapped and len(s) >= 2 and _QUOTE_PAIRS.get(s[0]) == s[-1]:
        s = s[1:-1].strip()
    return s


def extract_answer(text: str | None, scorer: str | None = None) -> str:
    """The text a scorer compares: the four steps, or the scorer's documented subset."""
    if text is None:
        return ""
    if scorer in NO_EXTRACTION:
        return text
    if scorer == "code_exec":
        return extract_code(text)
    text = strip_think(text)
    text = strip_code_fences(text)
    if scorer == "splice":
        return text
    matches = ANSWER_LINE_RE.findall(text)
    if matches:
        text = matches[-1]
    return strip_wrapping(text)


def extract_code(text: str | None) -> str:
    """A program from a model reply: think blocks dropped, then the fenced blocks' content
    (joined by a blank line) when there are fences, otherwise the whole text."""
    if text is None:
        return ""
    text = strip_think(text)
    blocks = [m.group("body") for m in _FENCE_BLOCK_RE.finditer(text)]
    if blocks:
        return "\n\n".join(block.rstrip("\n") for block in blocks) + "\n"
    return text.strip("\n") + "\n" if text.strip() else ""
