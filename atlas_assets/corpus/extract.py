"""Answer extraction: the four normative steps of the datasets specification, in order.

1. drop everything inside <think>...</think>, including an unterminated leading <think>
   block;
2. drop markdown code fences, keeping the fenced content;
3. if any line matches ``^\\s*(?:final answer|answer)\\s*[:\\-]\\s*(.+)$`` (any case), take
   the capture of the last such line and use only that;
4. strip surrounding whitespace, matching quotes, and a single trailing ``.`` or ``!``.

A scorer names the extraction it takes (`Extraction`, looked up in `EXTRACTIONS`); the
scorer objects in ``atlas_assets.corpus.scorers`` own that choice:

* ``answer``: steps 1-4 (exact, numeric, mc, contains, json);
* ``raw``: nothing, the raw text (instruction judges what the model typed);
* ``source``: steps 1-2 (splice: the output is a source file; step 3 would read a code line
  such as ``answer: for (;;)`` as an answer line and step 4 would edit the code);
* ``code``: step 1, then the code itself -- the content of the fenced blocks when the
  output has any (prose around them is dropped), else the whole text (code_exec);
* ``none``: the scorer reads no text at all (tool_call judges the tool calls).

Step 3 reads one line at a time: lines are the pieces between ``\\n`` characters, the
pattern is matched against each line alone (so ``\\s*`` never runs into the next line and
a bare ``Answer:`` line matches nothing), and the last matching line wins. A ``\\r`` left
at the end of a line by CRLF text is removed by step 4's whitespace strip.

Think blocks, concretely (step 1), with tags matched case-insensitively:

* blocks nest: ``<think>a<think>b</think>c</think>d`` keeps ``d``; several blocks are all
  removed;
* a ``</think>`` before any ``<think>`` (a chat template that opened the block in the
  prompt) drops everything up to it;
* any other ``</think>`` that closes nothing is removed alone;
* a block that never closes drops everything from its opening tag to the end: a leading
  one leaves nothing (the output was all reasoning), a later one leaves the text before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

__all__ = [
    "ANSWER_LINE_RE",
    "EXTRACTIONS",
    "Extraction",
    "answer_line",
    "extract_code",
    "extraction",
    "strip_code_fences",
    "strip_think",
    "strip_wrapping",
]

_THINK_TAG_RE = re.compile(r"<think\b[^>]*>|</think\s*>", re.I)
_FENCE_LINE_RE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n`]*$\n?", re.M)
_FENCE_BLOCK_RE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[^\n`]*\n(?P<body>.*?)(?:^[ \t]*(?P=fence)[ \t]*$|\Z)", re.M | re.S)
# Matched against one line at a time (no re.M): see answer_line.
ANSWER_LINE_RE = re.compile(r"^\s*(?:final answer|answer)\s*[:\-]\s*(.+)$", re.I | re.S)
_QUOTE_PAIRS = {'"': '"', "'": "'", "“": "”", "‘": "’", "«": "»", "`": "`", "„": "“", "「": "」"}


def strip_think(text: str) -> str:
    """Step 1: remove reasoning blocks (nested, several, template-opened, unterminated)."""
    kept: list[str] = []
    depth = 0
    position = 0
    seen_tag = False
    for tag in _THINK_TAG_RE.finditer(text):
        closing = tag.group().startswith("</")
        if depth == 0:
            kept.append(text[position : tag.start()])
        if closing:
            if depth > 0:
                depth -= 1
            elif not seen_tag:  # the chat template opened the block: all so far was reasoning
                kept.clear()
        else:
            depth += 1
        seen_tag = True
        position = tag.end()
    if depth == 0:
        kept.append(text[position:])
    return "".join(kept)


def strip_code_fences(text: str) -> str:
    """Step 2: delete the fence lines (``` or ~~~, with any info string), keep the rest."""
    text = _FENCE_LINE_RE.sub("", text)
    return text.replace("```", "")


def answer_line(text: str) -> str | None:
    """Step 3: the capture of the last line matching the answer-line pattern, else None."""
    found = None
    for line in text.split("\n"):
        match = ANSWER_LINE_RE.match(line)
        if match is not None:
            found = match.group(1)
    return found


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


def _answer(text: str) -> str:
    text = strip_code_fences(strip_think(text))
    line = answer_line(text)
    return strip_wrapping(text if line is None else line)


def _source(text: str) -> str:
    return strip_code_fences(strip_think(text))


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


@dataclass(frozen=True, slots=True)
class Extraction:
    """One way of turning a raw reply into the text a scorer judges."""

    name: str
    steps: tuple[str, ...]  # what it does, in the words a dataset card prints
    apply: Callable[[str], str]
    # Whether think blocks and code fences around the reply are harmless (removed, or the
    # text is not read at all): the simulator dresses replies only where they are.
    strips_wrappers: bool = True

    def __call__(self, text: str | None) -> str:
        return "" if text is None else self.apply(text)


_STEP_TEXT = (
    "drop everything inside <think>...</think> (nested and several blocks; a </think> before any <think> "
    "drops the text before it; a block that never closes drops the rest of the text)",
    "drop markdown code fences, keeping the fenced content",
    "if any line matches /^\\s*(?:final answer|answer)\\s*[:\\-]\\s*(.+)$/i (each line matched on its own), "
    "take the capture of the last such line and use only that",
    "strip surrounding whitespace, matching quotes, and a single trailing . or !",
)

EXTRACTIONS: dict[str, Extraction] = {
    e.name: e
    for e in (
        Extraction("answer", _STEP_TEXT, _answer),
        Extraction("raw", ("none: the raw reply is judged",), lambda text: text, strips_wrappers=False),
        Extraction("source", _STEP_TEXT[:2] + ("no answer-line step and no stripping: the output is a source file",), _source),
        Extraction(
            "code",
            (
                _STEP_TEXT[0],
                "the program is the content of the fenced code blocks, joined by a blank line, "
                "when the reply has any (prose around them is dropped); otherwise the whole text",
            ),
            extract_code,
        ),
        Extraction("none", ("none: the reply's tool calls are judged, not its text",), lambda text: ""),
    )
}


def extraction(name: str) -> Extraction:
    try:
        return EXTRACTIONS[name]
    except KeyError:
        raise ValueError(f"unknown extraction {name!r}; known: {', '.join(EXTRACTIONS)}") from None
