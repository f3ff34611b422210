"""The one way Autobench reads and writes YAML.

Reading (`read_yaml(path)` for a file, `parse_yaml(data, name)` for bytes already read) is
safe against hostile input, and every refusal is one `YamlError` line naming the file, and
the line when there is one:

- only a regular file is read: a directory, device, FIFO or socket is refused from its
  `stat` before it is opened, and it is opened with O_NONBLOCK (a FIFO swapped in after the
  check cannot block the read);
- at most `max_bytes()` bytes (`MAX_YAML_BYTES`, 256 MiB; `$AUTOBENCH_MAX_YAML_BYTES`
  overrides it);
- UTF-8 only (the error gives the line and the offending byte);
- YAML 1.1 safe tags only (PyYAML's safe loader, libyaml's parser when PyYAML has it);
- a mapping with a duplicate key is refused (YAML says keys are unique; PyYAML would keep
  the last one silently); merge keys (`<<`) may still be overridden;
- an integer of more than `MAX_INT_DIGITS` digits is refused (Python refuses to convert it);
- nesting deeper than `MAX_DEPTH` levels is refused;
- aliases (`*name`) may add at most `MAX_ALIAS_NODES` nodes to the document, and an alias
  inside its own anchor is refused, so an "alias bomb" is refused at once.

Most files are read by `autobench.blockyaml` (a fast reader of block YAML of JSON values,
which returns what PyYAML would); anything outside its subset, and every error, is PyYAML's
(libyaml's CSafeLoader when PyYAML was built with it, else the pure-Python loader).

Writing (`dump_yaml`) is deterministic: `blockyaml.dumps` for a mapping of JSON values (fixed
key order, block style, multi-line strings as `|` blocks, long sequences as JSON lines),
PyYAML's safe dumper for anything else; UTF-8, an optional `# yaml-language-server:
$schema=...` first line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from atlas_assets.core.collector import without_collector
from atlas_assets.core.errors import AtlasError
from atlas_assets.core.files import TooLarge, read_regular
from autobench import blockyaml

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_YAML_BYTES",
    "YamlError",
    "dump_yaml",
    "max_bytes",
    "node_of",
    "parse_yaml",
    "read_bytes",
    "read_yaml",
]

MAX_YAML_BYTES = 256 * 1024 * 1024
MAX_DEPTH = 100
MAX_ALIAS_NODES = 100_000
MAX_INT_DIGITS = 4300  # Python's own int-from-text limit (sys.get_int_max_str_digits())
ENV_MAX_BYTES = "AUTOBENCH_MAX_YAML_BYTES"
WITH_LIBYAML = bool(getattr(yaml, "__with_libyaml__", False))

_BaseLoader: Any = yaml.CSafeLoader if WITH_LIBYAML else yaml.SafeLoader
_BaseDumper: Any = yaml.CSafeDumper if WITH_LIBYAML else yaml.SafeDumper


class YamlError(AtlasError, ValueError):
    """A YAML input that was refused; the message is one line naming the file."""


def max_bytes() -> int:
    value = os.environ.get(ENV_MAX_BYTES, "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else MAX_YAML_BYTES


def read_bytes(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` (default `max_bytes()`) bytes, or YamlError."""
    path, limit = Path(path), limit or max_bytes()
    try:
        return read_regular(path, limit)
    except FileNotFoundError:
        raise YamlError(f"{path}: cannot read: no such file") from None
    except TooLarge as exc:
        raise YamlError(f"{path}: refused: {exc.strerror} (${ENV_MAX_BYTES})") from None
    except OSError as exc:
        raise YamlError(f"{path}: cannot read: {exc.strerror or exc}") from None


def read_yaml(path: str | Path, limit: int | None = None) -> tuple[Any, Node | None]:
    """`parse_yaml(read_bytes(path))`."""
    return parse_yaml(read_bytes(path, limit), path, limit)


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise YamlError(f"{name}: not UTF-8 text: byte 0x{data[exc.start]:02x} at line {line}") from None


@without_collector
def parse_yaml(data: bytes, name: str | Path = "<bytes>", limit: int | None = None) -> tuple[Any, Node | None]:
    """The document in `data` (None for an empty one) and its node tree (for `line_of`; None
    when `blockyaml` read it: `node_of` composes it when an error needs a line), or YamlError
    naming `name`. `data` longer than `limit` (default `max_bytes()`) is refused."""
    name, limit = str(name), limit or max_bytes()
    if len(data) > limit:
        raise YamlError(f"{name}: refused: {len(data)} bytes is more than the limit of {limit} bytes (${ENV_MAX_BYTES})")
    text = _text(data, name)
    try:
        return blockyaml.loads(text), None
    except blockyaml.Unsupported:
        pass  # outside the fast subset: PyYAML reads it, and explains what is wrong with it
    return _parse_full(text, name)


def _parse_full(text: str, name: str) -> tuple[Any, Node | None]:
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        if "*" in text:  # an alias needs one: a text without is a tree, only its depth to check
            _check_tree(node)
        else:
            _check_depth(node)
        return loader.construct_document(node), node
    except yaml.MarkedYAMLError as exc:
        where = exc.problem_mark or exc.context_mark
        at = f" (line {where.line + 1})" if where is not None else ""
        raise YamlError(f"{name}: not valid YAML: {exc.problem or exc.context}{at}") from None
    except yaml.YAMLError as exc:
        raise YamlError(f"{name}: not valid YAML: {exc}") from None
    except RecursionError:  # the pure-Python composer on deep nesting
        raise YamlError(f"{name}: not valid YAML: nested more than {MAX_DEPTH} levels deep") from None
    finally:
        loader.dispose()


def node_of(path: str | Path) -> Node | None:
    """The composed node tree of a YAML file (for the lines of an error), None if unreadable."""
    try:
        return _parse_full(_text(read_bytes(path), str(path)), str(path))[1]
    except YamlError:
        return None


def _check_tree(root: Node) -> None:
    """Depth and alias expansion of a composed document, without expanding it: each distinct
    node is visited once (an alias is the same node object as its anchor)."""
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    open_nodes: set[int] = set()
    if isinstance(root, ScalarNode):
        return
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if isinstance(node, ScalarNode):
            size[key], height[key] = 1, 1
            continue
        children = [n for pair in node.value for n in pair] if isinstance(node, MappingNode) else list(node.value)
        if done:
            open_nodes.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in children)
            height[key] = 1 + max((height[id(c)] for c in children), default=0)
            if height[key] > MAX_DEPTH:
                raise ConstructorError(None, None, f"nested more than {MAX_DEPTH} levels deep", node.start_mark)
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise ConstructorError(None, None, "an alias refers to the node that contains it (recursive alias)", node.start_mark)
        open_nodes.add(key)
        stack.append((node, True))
        for child in reversed(children):
            if id(child) in open_nodes:
                raise ConstructorError(None, None, "an alias refers to the node that contains it (recursive alias)", child.start_mark)
            if id(child) not in size:
                stack.append((child, False))
    added = size[id(root)] - len(size)
    if added > MAX_ALIAS_NODES:
        raise ConstructorError(
            None, None, f"aliases expand the document by {added} nodes (the limit is {MAX_ALIAS_NODES})", root.start_mark
        )


def _check_depth(root: Node) -> None:
    """`_check_tree` for a document without aliases (a tree): only its depth."""
    stack: list[tuple[Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ConstructorError(None, None, f"nested more than {MAX_DEPTH} levels deep", node.start_mark)
        children = [n for pair in node.value for n in pair] if type(node) is MappingNode else node.value
        stack.extend((child, depth + 1) for child in children if type(child) is not ScalarNode)


class _Loader(_BaseLoader):  # type: ignore[misc]
    def construct_mapping(self, node: Node, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, MappingNode):
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    duplicate = key in seen
                except TypeError:
                    raise ConstructorError(
                        "while constructing a mapping", node.start_mark, "found an unhashable key", key_node.start_mark
                    ) from None
                if duplicate:
                    raise ConstructorError(None, None, f"duplicate key {key!r} (keys of a mapping must be unique)", key_node.start_mark)
                seen.add(key)
        return SafeConstructor.construct_mapping(self, node, deep=deep)  # type: ignore[arg-type]  # PyYAML itself rejects a node that is not a mapping

    def construct_yaml_int(self, node: ScalarNode) -> int:
        digits = sum(ch.isalnum() for ch in str(node.value))
        if digits > MAX_INT_DIGITS:
            raise ConstructorError(None, None, f"an integer of {digits} digits (the limit is {MAX_INT_DIGITS})", node.start_mark)
        try:
            return SafeConstructor.construct_yaml_int(self, node)
        except ValueError as exc:  # a lower sys.set_int_max_str_digits()
            raise ConstructorError(None, None, f"an integer Python cannot read: {exc}", node.start_mark) from None


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"


class _Dumper(_BaseDumper):  # type: ignore[misc]
    def represent_data(self, data: Any) -> Node:
        """JSON-shaped data straight to nodes (block style, no anchors: a value written twice is
        written twice); anything else through PyYAML's safe representer."""
        kind = type(data)
        if kind is str:
            style = "|" if "\n" in data and data == data.rstrip(" ") and "\r" not in data else None
            return ScalarNode(_STR, data, style=style)
        if kind is dict:
            return MappingNode(_MAP, [(self.represent_data(k), self.represent_data(v)) for k, v in data.items()], flow_style=False)
        if kind is list or kind is tuple:
            return SequenceNode(_SEQ, [self.represent_data(v) for v in data], flow_style=False)
        node: Node = _BaseDumper.represent_data(self, data)
        return node

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        """PyYAML's implicit-tag resolution, remembered per dump (keys repeat in every case)."""
        if kind is not ScalarNode:
            resolved: str = _BaseDumper.resolve(self, kind, value, implicit)
            return resolved
        memo = self.__dict__.setdefault("_resolved", {})
        key = (value, implicit)
        tag: str | None = memo.get(key)
        if tag is None:
            tag = memo[key] = _BaseDumper.resolve(self, kind, value, implicit)
        return tag


@without_collector
def dump_yaml(document: Any, schema_comment: str | None = None) -> bytes:
    try:
        body = blockyaml.dumps(document)
    except blockyaml.Unsupported:  # not a mapping of JSON values: PyYAML's safe representer
        body = yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)
    head = f"# yaml-language-server: $schema={schema_comment}\n" if schema_comment else ""
    return (head + body).encode("utf-8")


def line_of(node: Node | None, loc: Sequence[Any]) -> int | None:
    """The 1-based line of field `loc` in a composed document (a missing field: its parent's)."""
    from atlas_assets.core.problems import _line  # the project's one field-to-line lookup

    return _line(node, loc)
