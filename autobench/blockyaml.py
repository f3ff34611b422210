"""Block YAML of JSON values, read and written fast.

PyYAML costs ~10 µs per YAML event even with libyaml (~3 s a MB here), which makes a
200,000-case dataset a matter of minutes. Autobench's files are almost always block YAML
of JSON values: nested mappings and sequences, one scalar per line, literal `|` blocks for
multi-line text, short `{...}` / `[...]` flow collections on one line. This module reads
and writes exactly that subset, line by line, in plain Python.

PyYAML stays the reference: `loads` raises `Unsupported` for anything outside the subset
(anchors, tags, folded or multi-line scalars, a duplicate key, a tab in the indentation,
an unusual escape, a document marker, ...) and `yamlio` then reads the text with PyYAML,
whose result and errors are the answer. Whatever `loads` does return is what PyYAML returns
for the same text (a property test compares both on generated documents): plain scalars
are typed by PyYAML's own resolver and constructors (YAML 1.1: `yes` is true, `0o17`...).

`dumps` writes JSON values (dict, list, str, int, float, bool, None) in a form that PyYAML
and `loads` both read back to the same value: two-space block style, sequences at their
key's indentation, strings plain when PyYAML reads them back as the same string, else
double-quoted (JSON escapes), multi-line text as literal blocks, no line folding.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml
from yaml.nodes import ScalarNode

from atlas_assets.core.hashing import json_encoder

__all__ = ["Unsupported", "dumps", "loads"]

_STR = "tag:yaml.org,2002:str"
MAX_DEPTH = 100  # yamlio.MAX_DEPTH: deeper documents are left to the full reader, which refuses them


class Unsupported(Exception):
    """The text (or value) is outside the subset: use the full PyYAML reader (or writer)."""


# Characters PyYAML's reader refuses or treats as line breaks, and the BOM: left to PyYAML.
_FOREIGN = re.compile("[^\t\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_PLAIN_KEY = re.compile(r"([^ \t!\"#%&'*,\-:>?@\[\]`{|}\\]|-[^ \t:#,\[\]{}])[^:#\t]*")
_DQ = re.compile(r'"((?:[^"\\]|\\.)*)"')
_SQ = re.compile(r"'((?:[^']|'')*)'")
_ESCAPE = re.compile(r'\\(?:([0abtnvfre "\\/N_LP\t])|x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))')
_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "\\": "\\",
    "/": "/",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_FLOW_PLAIN = re.compile(r"([^ \t!\"#%&'*,\-:>?@\[\]`{|}\\]|-[^ \t:#,\[\]{}])[^,\[\]{}:#\t]*")
# The common line `key: value`, both plain and simple (no `:` `#` tab or edge space in either),
# read without the general path's steps; anything else takes the general path.
_SIMPLE = r"[^ \t!\"#%&'*,\-:>?@\[\]`{|}\\](?:[^:#\t]*[^ :#\t])?"
_SIMPLE_ENTRY = re.compile(rf"( *)({_SIMPLE}): ({_SIMPLE})")
_SIMPLE_ITEM = re.compile(rf"( *)- ({_SIMPLE})")
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_FLOW_TOKEN = re.compile(r" *([\[\]{},:]|$)")

# A flat one-line flow mapping of simple plain keys and plain or single-quoted values.
_FLAT_KEY = r"[A-Za-z_][A-Za-z0-9_.\-]*"
_FLAT_VALUE = r"'(?:[^']|'')*'|[^ \t!\"#%&'*,\-:>?@\[\]`{|}\\](?:[^,\[\]{}:#\t]*[^ ,\[\]{}:#\t])?"
_FLAT_FLOW = re.compile(rf"\{{(?:{_FLAT_KEY}: (?:{_FLAT_VALUE})(?:, {_FLAT_KEY}: (?:{_FLAT_VALUE}))*)?\}}")
_FLAT_ENTRY = re.compile(rf"({_FLAT_KEY}): ({_FLAT_VALUE})")
_FLAT_LINE = re.compile(rf"( *)({_FLAT_KEY}): ({_FLAT_FLOW.pattern})")  # `key: {a: b, c: 'd'}`

# JSON text that PyYAML reads as the same value (JSON is YAML flow style, nearly): every
# number an int or a float with a dot and a signed exponent (PyYAML reads `1e5` as a string),
# no `\/` or surrogate escapes, no tab, no long key, not deep, no NaN or Infinity.
_JSON_LONG_KEY = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*" *:')
_JSON_ESCAPES = re.compile(r"\\(?:/|u[dD][89abAB])")
_JSON_UNREAD_FLOAT = re.compile(r"(?::|\[|,) *-?[0-9]+e")  # repr(1e16) is 1e+16 (always e+ or e-): PyYAML's string
_UNSIGNED_EXPONENT = re.compile(r"[eE][0-9]")
JSON_ITEMS_FROM = 500  # a sequence this long writes each mapping or list item as one JSON line


def _json_shape_ok(text: str) -> bool:
    if text.count("{") + text.count("[") > 90:
        return False
    return len(text) <= 1000 or all(m.end() - m.start() <= 1000 for m in _JSON_LONG_KEY.finditer(text))


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise Unsupported("a duplicate key")
    return value


def _no_constant(name: str) -> Any:
    raise Unsupported(f"JSON {name}")


def _yaml_float(text: str) -> float:
    """A JSON float token that PyYAML's float pattern also reads as a float, as a float."""
    if "." not in text or _UNSIGNED_EXPONENT.search(text):
        raise Unsupported(f"the number {text}, a string to PyYAML")
    return float(text)


def _from_json(text: str) -> Any:
    """A one-line JSON object or array, read by the C decoder, when PyYAML reads it the same."""
    if "\t" in text or ("\\" in text and _JSON_ESCAPES.search(text)) or not _json_shape_ok(text):
        raise Unsupported("JSON that PyYAML reads differently")
    try:
        return json.loads(text, object_pairs_hook=_unique_pairs, parse_constant=_no_constant, parse_float=_yaml_float)
    except ValueError:
        raise Unsupported("not JSON") from None


class _Constructor(yaml.SafeLoader):
    """PyYAML's resolver and safe constructors, for one plain scalar at a time."""

    def __init__(self) -> None:
        yaml.SafeLoader.__init__(self, "")


_ONE = _Constructor()
_FIRST_CHARS = frozenset(k for k in _ONE.yaml_implicit_resolvers if k)
_TYPED = frozenset(
    {"tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:timestamp"}
)


def _plain(text: str, memo: dict[str, Any]) -> Any:
    """What PyYAML makes of a plain scalar: a string unless its resolver says otherwise."""
    if text[0] not in _FIRST_CHARS:
        return text
    try:
        return memo[text]
    except KeyError:
        pass
    if _DECIMAL.fullmatch(text) and len(text) <= 4300:  # what construct_yaml_int does with a plain decimal
        return int(text)
    tag = _ONE.resolve(ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]  # types-PyYAML leaves resolve unannotated
    if tag == _STR:
        value: Any = text
    elif tag in _TYPED:
        if tag.endswith(":int") and sum(ch.isalnum() for ch in text) > 4300:
            raise Unsupported("a very long integer")
        try:
            value = _ONE.construct_object(ScalarNode(tag, text), deep=True)
        except (ValueError, yaml.YAMLError) as exc:
            raise Unsupported(str(exc)) from None
        finally:
            _ONE.constructed_objects.clear()
    else:
        raise Unsupported(f"plain scalar {text!r} resolves to {tag}")
    if len(memo) < 65536:
        memo[text] = value
    return value


def _string_key(text: str, memo: dict[str, Any]) -> str:
    """A plain mapping key, which must be a string to PyYAML too (`yes:` and `1:` are not)."""
    key = _plain(text, memo)
    if not isinstance(key, str):
        raise Unsupported("a key that is not a string")
    return key


def _unescape(body: str) -> str:
    if "\\" not in body:
        return body

    def one(m: re.Match[str]) -> str:
        simple, x, u, big, other = m.groups()
        if other is not None:
            raise Unsupported("an unknown escape")
        if simple is not None:
            return _ESCAPES[simple]
        code = int(x or u or big, 16)
        if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            raise Unsupported("a surrogate or out-of-range escape")
        return chr(code)

    return _ESCAPE.sub(one, body)


def _rest_is_comment(rest: str) -> bool:
    """After a complete scalar: nothing, spaces, or spaces then a `#` comment."""
    stripped = rest.lstrip(" ")
    return not stripped or (stripped[0] == "#" and len(stripped) < len(rest))


class _Reader:
    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.final_break = text.endswith("\n")
        if self.final_break:
            self.lines.pop()  # the empty string after the last line break is not a line
        self.i = 0
        self.memo: dict[str, Any] = {}
        self.peeked: tuple[int, int | None] = (-1, None)  # (line, its indentation): next_indent's last answer
        self.last_key: tuple[str, tuple[str, str] | None] = ("", None)

    def next_indent(self) -> int | None:
        """Skip blank and comment lines; the indentation of the next line, None at the end."""
        lines, i = self.lines, self.i
        if self.peeked[0] == i:
            return self.peeked[1]
        while i < len(lines):
            line = lines[i]
            content = line.lstrip(" ")
            if not content or content[0] == "#":
                i += 1
                continue
            if content[0] == "\t":
                raise Unsupported("a tab in the indentation")
            self.i = i
            indent = len(line) - len(content)
            if indent == 0 and (line[0] == "%" or line[:3] in ("---", "...") and line[3:4] in ("", " ", "\t")):
                raise Unsupported("a document marker or directive")
            self.peeked = (i, indent)
            return indent
        self.i = i
        self.peeked = (i, None)
        return None

    def at_level(self, indent: int) -> bool:
        """Whether the next line is at `indent` (False: the end, or a shallower line, which
        ends the current collection); a deeper one is refused."""
        at = self.next_indent()
        if at is None or at < indent:
            return False
        if at > indent:
            raise Unsupported("unexpected indentation")
        return True

    def document(self) -> Any:
        indent = self.next_indent()
        if indent is None:
            return None
        value = self.block(indent, 1)
        if self.next_indent() is not None:
            raise Unsupported("text after the document")
        return value

    def block(self, indent: int, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise Unsupported("deep nesting")
        content = self.lines[self.i][indent:]
        if content == "-" or content.startswith("- "):
            return self.sequence(indent, depth)
        return self.mapping(indent, depth)

    def key(self, content: str) -> tuple[str, str] | None:
        """(key, rest of the line after the colon) when the line is a mapping entry, else None."""
        if self.last_key[0] == content:  # `sequence` asks first whether a `- x` item is a mapping
            return self.last_key[1]
        entry = self._key(content)
        self.last_key = (content, entry)
        return entry

    def _key(self, content: str) -> tuple[str, str] | None:
        first = content[0]
        m = (_DQ if first == '"' else _SQ if first == "'" else _PLAIN_KEY).match(content)
        if m is None:
            return None
        end = m.end()
        if content[end : end + 1] != ":" or content[end + 1 : end + 2] not in ("", " "):
            return None
        if end > 1024:
            raise Unsupported("a key longer than a simple key may be")
        if first == '"':
            return _unescape(m.group(1)), content[end + 1 :]
        if first == "'":
            return m.group(1).replace("''", "'"), content[end + 1 :]
        raw = m.group(0)
        if raw != raw.rstrip(" "):
            raise Unsupported("space before a mapping colon")
        return _string_key(raw, self.memo), content[end + 1 :]

    def mapping(self, indent: int, depth: int) -> dict[str, Any]:
        if depth > MAX_DEPTH:
            raise Unsupported("deep nesting")
        result: dict[str, Any] = {}
        lines, memo, end = self.lines, self.memo, len(self.lines)
        while True:
            i = self.i
            line = lines[i] if i < end else ""
            simple = _SIMPLE_ENTRY.fullmatch(line)
            m = simple or _FLAT_LINE.fullmatch(line)
            if m is not None and m.end(1) == indent and m.end(2) - indent <= 1024:
                key, value = m.group(2, 3)
                key = _string_key(key, memo)
                if key in result:
                    raise Unsupported("a duplicate key")
                if simple is None:
                    result[key] = self.flat(value)
                else:
                    result[key] = value if value[0] not in _FIRST_CHARS else _plain(value, memo)
                self.i = i + 1  # a deeper next line is refused by the general path below
                continue
            if not self.at_level(indent):
                return result
            content = self.lines[self.i][indent:]
            entry = self.key(content)
            if entry is None:
                raise Unsupported("not a mapping entry")
            key, rest = entry
            if key in result:
                raise Unsupported("a duplicate key")
            self.i += 1
            result[key] = self.value(rest, indent, depth, in_mapping=True)

    def sequence(self, indent: int, depth: int) -> list[Any]:
        if depth > MAX_DEPTH:
            raise Unsupported("deep nesting")
        items: list[Any] = []
        lines, memo, end = self.lines, self.memo, len(self.lines)
        while True:
            i = self.i
            line = lines[i] if i < end else ""
            m = _SIMPLE_ITEM.fullmatch(line)
            if m is not None and m.end(1) == indent:
                value = m.group(2)
                items.append(value if value[0] not in _FIRST_CHARS else _plain(value, memo))
                self.i = i + 1
                continue
            if (
                line[indent : indent + 2] == "- "
                and m is None
                and line[:indent].strip(" ") == ""
                and (_SIMPLE_ENTRY.fullmatch(line, indent + 2) or _FLAT_LINE.fullmatch(line, indent + 2))
            ):
                self.restart(indent + 2, line[indent + 2 :])  # `- key: value`: a compact mapping
                items.append(self.mapping(indent + 2, depth + 1))
                continue
            if line[indent : indent + 3] == "- {" and line.endswith("}") and line[:indent].strip(" ") == "":
                try:
                    items.append(_from_json(line[indent + 2 :]))
                except Unsupported:
                    pass  # YAML flow, or JSON PyYAML reads otherwise: the general path
                else:
                    self.i = i + 1
                    continue
            if not self.at_level(indent):
                return items
            line = self.lines[self.i]
            content = line[indent:]
            if not (content == "-" or content.startswith("- ")):
                return items
            after = content[1:]
            stripped = after.lstrip(" ")
            column = indent + 1 + len(after) - len(stripped)
            if not stripped or stripped[0] == "#":
                self.i += 1
                items.append(self.nested(indent, depth, in_mapping=False))
            elif stripped == "-" or stripped.startswith("- "):
                self.restart(column, stripped)
                items.append(self.sequence(column, depth + 1))
            elif stripped[0] not in "{[|>" and self.key(stripped) is not None:
                self.restart(column, stripped)
                items.append(self.mapping(column, depth + 1))
            else:
                self.i += 1
                items.append(self.value(stripped, indent, depth, in_mapping=False))

    def restart(self, column: int, content: str) -> None:
        """Read the rest of `- x` as if `x` began its own line at `column` (a compact node)."""
        self.lines[self.i] = " " * column + content
        self.peeked = (-1, None)

    def nested(self, indent: int, depth: int, in_mapping: bool) -> Any:
        """The node below a key or dash with nothing after it: a block, or null."""
        at = self.next_indent()
        if at is None or at < indent:
            return None
        if at > indent:
            return self.block(at, depth + 1)
        content = self.lines[self.i][indent:]
        if in_mapping and (content == "-" or content.startswith("- ")):
            return self.sequence(indent, depth + 1)
        return None

    def value(self, rest: str, indent: int, depth: int, in_mapping: bool) -> Any:
        """The value after `key: ` or `- ` on the line just consumed; `indent` is the key's or dash's."""
        text = rest.lstrip(" ")
        if not text or text[0] == "#":
            return self.nested(indent, depth, in_mapping)
        first = text[0]
        if first == "|":
            return self.literal(text, indent)
        if first == '"' or first == "'":
            m = (_DQ if first == '"' else _SQ).match(text)
            if m is None or not _rest_is_comment(text[m.end() :]):
                raise Unsupported("a quoted scalar that does not end on its line")
            value: Any = _unescape(m.group(1)) if first == '"' else m.group(1).replace("''", "'")
        elif first == "{" and (flat := _FLAT_FLOW.match(text)) is not None and _rest_is_comment(text[flat.end() :]):
            value = self.flat(flat.group(0))
        elif first == "{" or first == "[":
            value, end = _Flow(text, self.memo, depth).parse()
            if not _rest_is_comment(text[end:]):
                raise Unsupported("text after a flow collection")
        else:
            if first in "!&*%@`>?,:]}#" or (first == "-" and text[1:2] in ("", " ")):
                raise Unsupported("an indicator")
            cut = text.find(" #")
            plain = (text if cut < 0 else text[:cut]).rstrip(" ")
            if ": " in plain or plain.endswith(":") or "\t" in plain:
                raise Unsupported("an ambiguous plain scalar")
            value = _plain(plain, self.memo)
        after = self.next_indent()
        if after is not None and after > indent:
            raise Unsupported("a scalar continued on the next line")
        return value

    def flat(self, text: str) -> dict[str, Any]:
        """A `_FLAT_FLOW` mapping: `{key: value, key: 'value'}`."""
        result: dict[str, Any] = {}
        memo = self.memo
        for key, raw in _FLAT_ENTRY.findall(text):
            key = _string_key(key, memo)
            if key in result:
                raise Unsupported("a duplicate key")
            result[key] = raw[1:-1].replace("''", "'") if raw[0] == "'" else _plain(raw, memo)
        return result

    def literal(self, header: str, indent: int) -> str:
        """A `|`, `|-` or `|+` block whose lines start below the current line."""
        chomp = header[1:2] if header[1:2] in ("-", "+") else ""
        if header.rstrip(" ") != "|" + chomp:
            raise Unsupported("a literal block header with an indentation indicator or a comment")
        lines, i = self.lines, self.i
        block: list[str] = []
        width = 0
        while i < len(lines):
            line = lines[i]
            content = line.lstrip(" ")
            here = len(line) - len(content)
            if not content:
                if here > width if width else here > 0:
                    raise Unsupported("spaces on an empty line of a literal block")
                block.append("")
                i += 1
                continue
            if not width:
                if here <= indent or content[0] == "\t":
                    break
                width = here
            elif here < width:
                break
            if content.endswith((" ", "\t")):
                raise Unsupported("a literal block line that ends in whitespace")
            block.append(line[width:])
            i += 1
        if not width or (i == len(lines) and not self.final_break):
            raise Unsupported("an empty literal block, or one that ends the text without a line break")
        self.i = i
        trailing = 0
        while block and block[-1] == "":
            block.pop()
            trailing += 1
        body = "\n".join(block)
        if chomp == "-":
            return body
        if chomp == "+":
            return body + "\n" * (trailing + 1)
        return body + "\n"


class _Flow:
    """One `{...}` or `[...]` collection that opens and closes on the same line."""

    def __init__(self, text: str, memo: dict[str, Any], depth: int) -> None:
        self.text, self.pos, self.memo, self.depth = text, 0, memo, depth

    def parse(self) -> tuple[Any, int]:
        value = self.node(self.depth + 1)
        return value, self.pos

    def skip(self) -> str:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] == " ":
            pos += 1
        self.pos = pos
        return text[pos : pos + 1]

    def node(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise Unsupported("deep nesting")
        ch = self.skip()
        if ch == "{":
            return self.collection("}", depth, {})
        if ch == "[":
            return self.collection("]", depth, [])
        return self.scalar()[0]

    def scalar(self) -> tuple[Any, bool]:
        """(value, was it plain)."""
        ch = self.skip()
        text, pos = self.text, self.pos
        if ch == '"' or ch == "'":
            m = (_DQ if ch == '"' else _SQ).match(text, pos)
            if m is None:
                raise Unsupported("an unterminated quoted scalar")
            self.pos = m.end()
            return (_unescape(m.group(1)) if ch == '"' else m.group(1).replace("''", "'")), False
        m = _FLOW_PLAIN.match(text, pos)
        if m is None:
            raise Unsupported("an unusual flow scalar")
        self.pos = m.end()
        raw = m.group(0).rstrip(" ")
        return _plain(raw, self.memo), True

    def collection(self, close: str, depth: int, into: Any) -> Any:
        self.pos += 1
        while True:
            if self.skip() == close:
                self.pos += 1
                return into
            if isinstance(into, dict):
                if self.skip() in "{[":
                    raise Unsupported("a collection as a key")
                key, plain = self.scalar()
                if not isinstance(key, str) or key in into:
                    raise Unsupported("a duplicate or non-string flow key")
                if self.skip() != ":":
                    raise Unsupported("a flow mapping entry without a value")
                self.pos += 1
                if plain and self.text[self.pos : self.pos + 1] not in (" ", ",", "}", "]", ""):
                    raise Unsupported("a plain flow key glued to its colon")
                if self.skip() in (",", "}"):
                    raise Unsupported("an empty flow value")
                into[key] = self.node(depth + 1)
            else:
                into.append(self.node(depth + 1))
            m = _FLOW_TOKEN.match(self.text, self.pos)
            token = m.group(1) if m else None
            if token == ",":
                self.pos = m.end()  # type: ignore[union-attr]
                if self.skip() in (",", ":"):
                    raise Unsupported("an empty flow entry")
            elif token == close:
                continue
            else:
                raise Unsupported("an unusual flow collection")


def loads(text: str) -> Any:
    """The value of `text` if it is in the subset (what PyYAML would return), else Unsupported."""
    if _FOREIGN.search(text):
        raise Unsupported("characters PyYAML treats specially")
    try:
        return _Reader(text).document()
    except RecursionError:  # a guard: every nesting path counts its depth
        raise Unsupported("deep nesting") from None


# --- writing ---------------------------------------------------------------------------------

_PLAIN_OUT = re.compile(
    r"[A-Za-z0-9_./()$^=;~\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
    r"(?:[A-Za-z0-9_ ./()$^=;~+,!?%&*@'\"<>|\-\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]*"
    r"[A-Za-z0-9_./()$^=;~+!?%&*@'\"<>|\-\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff])?"
)
_SURROGATE = re.compile("[\ud800-\udfff]")
_RAW_BAD = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
_LITERAL_OK = re.compile("[\t\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff\n]*")


def _quoted(text: str) -> str:
    if _SURROGATE.search(text):
        raise Unsupported("a lone surrogate")
    out = json.dumps(text, ensure_ascii=False)
    return _RAW_BAD.sub(lambda m: f"\\u{ord(m.group(0)):04x}", out) if _RAW_BAD.search(out) else out


_JSON_LINE = json_encoder(sort_keys=False, separators=(", ", ": "), ensure_ascii=False)


def _json_line(value: Any) -> str | None:
    """`value` as one line of JSON that PyYAML (and `loads`) read back the same, or None."""
    try:
        text = _JSON_LINE(value)
    except (TypeError, ValueError):
        return None
    if not text.isascii() or "\x7f" in text:
        if _SURROGATE.search(text):
            return None
        text = _RAW_BAD.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
    if ("e+" in text or "e-" in text) and _JSON_UNREAD_FLOAT.search(text) or not _json_shape_ok(text):
        return None  # (a string that looks like `: 1e` only costs the block form)
    return text


def _scalar_text(text: str, memo: dict[str, str]) -> str:
    """A one-line string: plain when PyYAML reads it back as the same string, else quoted."""
    cached = memo.get(text)
    if cached is not None:
        return cached
    if (
        _PLAIN_OUT.fullmatch(text)
        and "  " not in text
        and (text[0] not in _FIRST_CHARS or _ONE.resolve(ScalarNode, text, (True, False)) == _STR)  # type: ignore[no-untyped-call]  # as in _plain
    ):
        out = text
    else:
        out = _quoted(text)
    if len(memo) < 65536:
        memo[text] = out
    return out


def _literal_lines(text: str) -> tuple[str, list[str]] | None:
    """(`|` header, lines) for multi-line text a literal block keeps exactly, else None."""
    if "\n" not in text or "\r" in text or not _LITERAL_OK.fullmatch(text):
        return None
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    if not body or body[0] in " \t\n":
        return None
    lines = body.split("\n")
    if any(line.endswith((" ", "\t")) for line in lines):
        return None
    return ("|-" if trailing == 0 else "|" if trailing == 1 else "|+"), lines + [""] * (trailing - 1)


def _atom(value: Any, memo: dict[str, str]) -> str:
    kind = type(value)
    if kind is str:
        return _scalar_text(value, memo)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    if kind is float:
        if value != value:
            return ".nan"
        if value in (float("inf"), float("-inf")):
            return ".inf" if value > 0 else "-.inf"
        text = repr(value).lower()
        return text.replace("e", ".0e", 1) if "." not in text and "e" in text else text
    raise Unsupported(f"a {kind.__name__} value")


class _Writer:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.memo: dict[str, str] = {}

    def inline(self, value: Any, prefix: str, indent: int) -> None:
        """`prefix` (`key:` or `-`) followed by a scalar, `{}` / `[]` or a literal block."""
        if type(value) is str and "\n" in value:
            literal = _literal_lines(value)
            if literal is not None:
                header, lines = literal
                pad = " " * (indent + 2)
                self.out.append(f"{prefix} {header}\n")
                self.out.extend(f"{pad}{line}\n" if line else "\n" for line in lines)
                return
        if type(value) is dict or type(value) is list or type(value) is tuple:
            self.out.append(f"{prefix} {'{}' if type(value) is dict else '[]'}\n")
            return
        self.out.append(f"{prefix} {_atom(value, self.memo)}\n")

    def key(self, key: Any) -> str:
        text = _scalar_text(key, self.memo) if type(key) is str else ""
        if not text or len(text) > 1000:  # PyYAML reads a key on its line only up to 1024 characters
            raise Unsupported("a key that is not a string of at most 1000 characters as written")
        return text

    def mapping(self, value: dict[Any, Any], indent: int, first_prefix: str | None = None) -> None:
        pad = " " * indent
        out, memo = self.out, self.memo
        for n, (k, v) in enumerate(value.items()):
            text = memo.get(k) if type(k) is str else None
            head = (
                (first_prefix if n == 0 and first_prefix is not None else pad)
                + (text if text is not None and len(text) <= 1000 else self.key(k))
                + ":"
            )
            kind = type(v)  # the common scalars inline (the hot loop of a large dataset)
            if kind is str and "\n" not in v:
                out.append(f"{head} {memo.get(v) or _scalar_text(v, memo)}\n")
            elif kind is int:
                out.append(f"{head} {v}\n")
            else:
                self.entry(head, v, indent, in_mapping=True)

    def sequence(self, value: Any, indent: int, first_prefix: str | None = None) -> None:
        pad = " " * indent
        as_json = len(value) >= JSON_ITEMS_FROM
        for n, item in enumerate(value):
            head = (first_prefix if n == 0 and first_prefix is not None else pad) + "-"
            if as_json and (type(item) is dict or type(item) is list) and item and (line := _json_line(item)) is not None:
                self.out.append(f"{head} {line}\n")
            else:
                self.entry(head, item, indent, in_mapping=False)

    def entry(self, head: str, value: Any, indent: int, in_mapping: bool) -> None:
        kind = type(value)
        if kind is dict and value:
            if in_mapping:
                self.out.append(head + "\n")
                self.mapping(value, indent + 2)
            else:
                self.mapping(value, indent + 2, first_prefix=head + " ")
        elif (kind is list or kind is tuple) and value:
            if in_mapping:
                self.out.append(head + "\n")
                self.sequence(value, indent)
            else:
                self.sequence(value, indent + 2, first_prefix=head + " ")
        else:
            self.inline(value, head, indent)


def dumps(value: Any) -> str:
    """A non-empty mapping of JSON values as block YAML (Unsupported for anything else)."""
    if type(value) is not dict or not value:
        raise Unsupported("not a non-empty mapping")
    writer = _Writer()
    writer.mapping(value, 0)
    return "".join(writer.out)
