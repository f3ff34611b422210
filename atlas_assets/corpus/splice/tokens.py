"""Reading a reply as JavaScript: the tokenizer and the prose-line blanking.

`js_tokens` turns source into identifiers, numbers, strings and punctuation (`Token`),
skipping comments and collapsing regular-expression literals and template text to one
boundary token each, so the contents of strings, templates, comments and regexes are
never judged. `_pairs` matches brackets. `without_prose` blanks the lines of natural
language a model wrote around a module (a preamble, a heading, a closing remark) while
keeping line numbers. Standard library only.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple, Sequence

__all__ = ["IDENTIFIER_RE", "Token", "js_tokens", "without_prose"]


IDENTIFIER_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")  # a whole JavaScript identifier (ASCII)
_PUNCT_BEFORE_REGEX = frozenset("( , = : [ ! & | ? { } ; + - * % < > ~ ^".split()) | {
    "=>",
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "yield",
    "await",
}


class Token(NamedTuple):
    kind: str  # "ident" | "number" | "bad-number" | "string" | "punct"
    text: str
    line: int
    glued: bool = False  # no whitespace or comment between it and the token before
    start: int = -1  # offset in the source


_TOKEN_RE = re.compile(
    r"""[ \t\r\f\v\n]*(?:
     (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
    |(?P<string>'(?:[^'\\\n]|\\.)*'?|"(?:[^"\\\n]|\\.)*"?)
    |(?P<tick>`)
    |(?P<number>(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?)n?)(?P<welded>[A-Za-z0-9_$]*)
    |(?P<ident>[A-Za-z_$][\w$]*)
    |(?P<arrow>=>)
    |(?P<punct>.)
    |(?P<end>\Z))""",
    re.S | re.X,
)
_TEMPLATE_TEXT_RE = re.compile(r"(?:[^`\\$]|\\.|\$(?!\{))*", re.S)
_REGEX_LITERAL_RE = re.compile(r"/(?:[^/\\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\]?)*/?[A-Za-z]*")


def js_tokens(code: str) -> list[Token]:
    """Identifiers, numbers, strings and punctuation of JavaScript source. Comments are
    skipped; a regular-expression literal leaves one ``/regex/`` token and each stretch of
    template text one "`" token (template ${...} expressions are tokenised), so what stood
    between two words is never lost."""
    tokens: list[Token] = []
    append = tokens.append
    i, n = 0, len(code)
    line_at = 1
    line_pos = 0
    brace_stack: list[str] = []  # "{" for a block/object, "`" for a template expression
    # Both patterns match everywhere (a token pattern ends in `.` and `\Z`; template text may be
    # empty), so their matches are never None.
    match: Callable[[str, int], re.Match[str]] = _TOKEN_RE.match  # type: ignore[assignment]  # never None (above)
    match_template: Callable[[str, int], re.Match[str]] = _TEMPLATE_TEXT_RE.match  # type: ignore[assignment]  # never None

    def line_of(pos: int) -> int:
        nonlocal line_at, line_pos
        line_at += code.count("\n", line_pos, pos)
        line_pos = pos
        return line_at

    def template(j: int) -> int:
        # j is just after a backtick or the } closing a ${...}: skip template text.
        m = match_template(code, j)
        j = m.end()
        if j >= n:
            return n
        if code[j] == "`":
            return j + 1
        brace_stack.append("`")  # at "${"
        return j + 2

    last_end = -1  # end offset of the previous token (for `glued`)
    if code.startswith("#!"):
        i = code.find("\n") if "\n" in code else n  # a hashbang line
    while i < n:
        m = match(code, i)
        kind: str = m.lastgroup  # type: ignore[assignment]  # every alternative is a named group
        if kind == "welded":
            kind = "number"
        i = m.start(kind)
        glued = i == last_end
        if kind == "comment":
            i = m.end()
        elif kind == "string":
            append(Token("string", m.group(kind), line_of(i), False, i))
            i = last_end = m.end()
        elif kind == "ident":
            append(Token("ident", m.group(kind), line_of(i), glued, i))
            i = last_end = m.end()
        elif kind == "number":
            append(Token("bad-number" if m.group("welded") else "number", code[i : m.end()], line_of(i), glued, i))
            i = last_end = m.end()
        elif kind == "tick":
            append(Token("punct", "`", line_of(i), False, i))  # template text: a boundary, not a token
            i = template(i + 1)
        elif kind == "arrow":
            append(Token("punct", "=>", line_of(i), glued, i))
            i = last_end = m.end()
        elif kind == "end":
            break
        else:
            c = m.group(kind)
            if c == "/" and (not tokens or tokens[-1].text in _PUNCT_BEFORE_REGEX):
                r = _REGEX_LITERAL_RE.match(code, i)
                append(Token("punct", "/regex/", line_of(i), False, i))
                i = r.end() if r and r.end() > i + 1 else i + 1
                continue
            if c == "{":
                brace_stack.append("{")
            elif c == "}" and brace_stack:
                if brace_stack.pop() == "`":
                    append(Token("punct", "`", line_of(i), False, i))
                    i = template(i + 1)
                    continue
            append(Token("punct", c, line_of(i), glued, i))
            i += 1
            last_end = i
    return tokens


def _pairs(tokens: Sequence[Token]) -> dict[int, int]:
    """index of every ( [ { -> index of its matching closer (unbalanced: the last token)."""
    match: dict[int, int] = {}
    stack: list[int] = []
    closers = {")": "(", "]": "[", "}": "{"}
    for k, tok in enumerate(tokens):
        if tok.kind != "punct":
            continue
        t = tok.text
        if t in "([{":
            stack.append(k)
        elif t in closers:
            while stack and tokens[stack[-1]].text != closers[t]:
                match[stack.pop()] = k
            if stack:
                match[stack.pop()] = k
    for k in stack:
        match[k] = len(tokens) - 1
    return match


_PROSE_WORD = r"(?:[\w'’-]+|`[^`\n]+`|\([\w'’ ,-]+\))"  # a plain word, an inline `code` span, a (plain aside)
_PROSE_LINE_RE = re.compile(
    rf"""^[ \t]*(?:
      \#{{1,6}}[ \t].*                                        # a markdown heading
    | (?:[-*+][ \t]+|\d+[.)][ \t]+)?                          # an optional list marker, then
      (?:[A-Z][\w'’-]*(?:,?[ \t]{_PROSE_WORD})*[.:!?][ \t]+)*  # short sentences ("Sure!"), then
      [A-Z][\w'’-]*(?:,?[ \t]{_PROSE_WORD}){{2,}}[.:!?]?       # a sentence of three or more words
    )[ \t]*$""",
    re.M | re.X,
)


def without_prose(code: str) -> str:
    """`code` with the lines of natural language a model wrote around it blanked (a
    preamble, a heading, a closing remark): a capitalised run of three or more plain words
    (inline `code` spans and a parenthesised aside of plain words count as words),
    optionally a list item, optionally after short
    sentences that each end in . : ! or ? ("Sure! Here is the module:"), ending in at most
    one . : ! or ?. No line of JavaScript has that shape (adjacent words are a syntax
    error), so no code is lost; line numbers are kept."""
    return _PROSE_LINE_RE.sub("", code)
