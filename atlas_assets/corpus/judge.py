"""The judge: runs a code_exec row's tests on the trusted side, against the sandbox.

The candidate program lives alone in the sandboxed process (sandbox_server.py). The tests
never enter it: the judge executes them here, in a fresh namespace whose free names (loaded
by the tests, not bound by them, not builtins) are fetched from the sandbox. What crosses
back is decoded strictly into plain values -- None, bool, int, float, complex, str, bytes,
list, tuple, dict, set, frozenset -- with frame-size, depth and node limits, and no set or
dict whose keys flood one hash (decoding runs here, outside every deadline). Anything else
is an opaque `CandidateObject`: attribute access, attribute assignment, calls, iteration,
``len``, indexing and ``in`` are forwarded and their results decoded the same way, but
``==``/``!=``/ordering, ``bool()`` and ``hash()`` raise `OpaqueObjectError` (a
BaseException, and it fails the item even if a test swallows it): the judge never asks a
candidate object whether it is right. An instance of a subclass of a plain type (Counter,
namedtuple, an ``int`` subclass) arrives as its base-type value -- compared by the judge's
own ``==`` -- with unknown attributes forwarded to the original; a mutable one (a list,
dict or set subclass) is re-fetched after every request so it is never stale.

Candidate exceptions come back by the nearest builtin exception class in their MRO and
their args; the judge raises that builtin class (any ``Exception`` subclass of ``builtins``),
else `CandidateError`; a non-``Exception`` (SystemExit, a BaseException subclass) is fatal,
and so is StopIteration from anything but ``next()`` (it would silently end a test's
``all(map(...))``). Judge objects the tests pass in (lambdas, key functions, iterators)
stay here: the candidate gets a handle it can only call or iterate, and those calls run on
this side with the arguments decoded as above. Top-level list/dict/set arguments are copied
back in place after a call, so tests of in-place functions work.

Free names are fetched once, after the program loaded: a module-level plain value of the
program is a snapshot, functions, classes and other objects are live handles. Builtins
always come from the judge (a program cannot shadow ``len`` or ``isinstance`` for the tests).

The verdict is the judge's alone: passed iff every test statement ran without exception
and no fatal event (sandbox death, deadline, protocol violation, opaque comparison)
happened. Deadlines: each request waits at most ``call_seconds`` and all of them together
at most the total budget; past it the judge gives up (the caller kills the sandbox).
"""

from __future__ import annotations

import base64
import builtins
import dis
import functools
import json
import marshal
import os
import re
import select
import struct
import time
from collections import Counter
from types import CodeType
from typing import Any

from pydantic import BaseModel

from atlas_assets.corpus.sandbox_server import MAX_DEPTH, MAX_FRAME

__all__ = ["CandidateError", "CandidateObject", "Channel", "Judge", "JudgeVerdict", "OpaqueObjectError", "SandboxLost", "free_names"]

_BUILTIN_EXCEPTIONS = {name: cls for name, cls in vars(builtins).items() if isinstance(cls, type) and issubclass(cls, Exception)}
_HEX = re.compile(r"-?[0-9a-f]{1,2000000}")
_MAX_NODES = 2_000_000
_MAX_SAME_HASH = 64


class SandboxLost(BaseException):
    """The sandbox died, missed a deadline or broke the protocol: the item fails."""


class OpaqueObjectError(BaseException):
    """A test compared, hashed or truth-tested a candidate object: the item fails."""


class CandidateError(Exception):
    """The candidate raised an exception that is not a builtin one."""


class JudgeVerdict(BaseModel):
    passed: bool
    failure: str | None = None
    timed_out: bool = False


# The names come from the compiled tests' bytecode, not from ast.parse: CPython 3.11 keeps
# the ast-object converter's recursion depth per interpreter, so an ast.parse racing any
# other thread's (the eval runner's scoring threads, a library's) fails with "SystemError:
# AST constructor recursion depth mismatch" -- seen in clean-clone CI runs, lock or not.
# Compiling source to bytecode never builds ast objects.
_LOADS = frozenset({"LOAD_NAME", "LOAD_GLOBAL"})
_BINDS = frozenset({"STORE_NAME", "STORE_GLOBAL", "DELETE_NAME", "DELETE_GLOBAL"})


@functools.lru_cache(maxsize=4096)
def compiled_tests(tests: str) -> CodeType:
    """The tests as a module code object (cached: the same tests recur across items)."""
    return compile(tests, "<tests>", "exec", dont_inherit=True)


@functools.lru_cache(maxsize=4096)
def free_names(tests: str) -> tuple[str, ...]:
    """Names the tests load as globals but never bind and that are not builtins: the
    candidate's. Function parameters and locals are fast or cell variables, never here."""
    bound, loaded = set(), set()
    pending = [compiled_tests(tests)]
    while pending:
        code = pending.pop()
        pending.extend(c for c in code.co_consts if isinstance(c, CodeType))
        for ins in dis.get_instructions(code):
            if ins.opname in _LOADS:
                loaded.add(ins.argval)
            elif ins.opname in _BINDS:
                bound.add(ins.argval)
    return tuple(sorted(loaded - bound - set(dir(builtins))))


class Channel:
    """Length-prefixed frames over two pipes, every read and write under a deadline: marshal
    to the sandbox (our own data), strict JSON from it (never unmarshal untrusted bytes).
    poll(), not select(): a busy harness may hold fds past FD_SETSIZE."""

    def __init__(self, write_fd: int, read_fd: int) -> None:
        self.write_fd, self.read_fd = write_fd, read_fd
        os.set_blocking(write_fd, False)
        self.buffer = bytearray()
        self.writable, self.readable = select.poll(), select.poll()
        self.writable.register(write_fd, select.POLLOUT)
        self.readable.register(read_fd, select.POLLIN)

    def send(self, message: Any, deadline: float) -> None:
        data = marshal.dumps(message)
        view = memoryview(struct.pack(">I", len(data)) + data)
        while view:
            if not self.writable.poll(self._left_ms(deadline)):
                raise SandboxLost("deadline: the sandbox stopped reading")
            try:
                view = view[os.write(self.write_fd, view) :]
            except BlockingIOError:
                continue
            except OSError as exc:
                raise SandboxLost(f"the sandbox is gone ({exc.strerror})") from None

    def recv(self, deadline: float) -> Any:
        while True:
            if len(self.buffer) >= 4:
                (length,) = struct.unpack(">I", self.buffer[:4])
                if length > MAX_FRAME:
                    raise SandboxLost("reply frame over the size limit")
                if len(self.buffer) >= 4 + length:
                    frame = bytes(self.buffer[4 : 4 + length])
                    del self.buffer[: 4 + length]
                    try:
                        return json.loads(frame)
                    except (ValueError, RecursionError):
                        raise SandboxLost("malformed reply frame") from None
            if not self.readable.poll(self._left_ms(deadline)):
                raise SandboxLost("deadline")
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise SandboxLost("the sandbox exited")
            self.buffer += chunk

    @staticmethod
    def _left_ms(deadline: float) -> int:
        left = deadline - time.monotonic()
        if left <= 0:
            raise SandboxLost("deadline")
        return max(1, int(left * 1000))


class CandidateObject:
    """An object living in the sandbox. See the module docstring for what is forwarded."""

    __slots__ = ("_judge", "_hid")

    def __init__(self, judge: "Judge", hid: int) -> None:
        object.__setattr__(self, "_judge", judge)
        object.__setattr__(self, "_hid", hid)

    def __getattr__(self, name: str) -> Any:
        return self._judge.request("getattr", self._hid, name)

    def __setattr__(self, name: str, value: Any) -> None:
        self._judge.request("setattr", self._hid, name, self._judge.encode(value))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._judge.call(self._hid, args, kwargs)

    def __iter__(self) -> Any:
        return self._judge.request("iter", self._hid)

    def __next__(self) -> Any:
        return self._judge.request("next", self._hid)

    def __len__(self) -> int:
        length: int = self._judge.request("len", self._hid)  # len() itself rejects a non-int reply
        return length

    def __getitem__(self, key: Any) -> Any:
        return self._judge.request("getitem", self._hid, self._judge.encode(key))

    def __contains__(self, item: Any) -> bool:
        return self._judge.request("contains", self._hid, self._judge.encode(item)) is True

    def __repr__(self) -> str:
        return f"<candidate object #{self._hid}>"

    def _opaque(self, *_: Any) -> Any:
        raise self._judge.fatal(OpaqueObjectError(f"a test compared or truth-tested candidate object #{self._hid}"))

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __bool__ = __hash__ = _opaque


def _forward_attribute(self: Any, name: str) -> Any:
    judge, hid = self.__dict__["_atlas_remote"]
    return judge.request("getattr", hid, name)


_VALUED: dict[type, type] = {
    base: type(f"Candidate{base.__name__.capitalize()}", (base,), {"__getattr__": _forward_attribute})
    for base in (int, float, complex, str, bytes, tuple, list, dict, set, frozenset)
}
_MUTABLE = (list, dict, set)


def _assign(target: Any, value: Any) -> None:
    """Make `target` (a list, dict or set) equal to `value` in place."""
    base = next(b for b in _MUTABLE if isinstance(target, b))
    if base is list and isinstance(value, list):
        list.__setitem__(target, slice(None), value)
    elif base is dict and isinstance(value, dict):
        dict.clear(target)
        dict.update(target, value)
    elif base is set and isinstance(value, set):
        set.clear(target)
        set.update(target, value)


class Judge:
    """One item's tests against one sandbox. Single-threaded, not reusable."""

    def __init__(self, channel: Channel, *, call_seconds: float, total_seconds: float) -> None:
        self.channel = channel
        self.call_seconds = call_seconds
        self.deadline = time.monotonic() + total_seconds
        self.judge_objects: list[Any] = []
        self.mutables: list[tuple[Any, int]] = []
        self.fatal_reason: str | None = None
        self.timed_out = False
        self.depth = 0

    # --- the verdict ------------------------------------------------------------------

    def run(self, program: str, tests: str) -> JudgeVerdict:
        try:
            code = compiled_tests(tests)
            names = free_names(tests)
        except SyntaxError as exc:
            return JudgeVerdict(passed=False, failure=f"the tests do not compile: {exc}")
        namespace: dict[str, Any] = {"__name__": "tests", "__builtins__": builtins}
        try:
            self.request("load", program)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - the program itself failed
            return JudgeVerdict(
                passed=False, failure=self.fatal_reason or f"the program raised {_describe(exc, '')}", timed_out=self.timed_out
            )
        try:
            if names:
                for name, value in self.request("get", names):
                    namespace[name] = value
            exec(code, namespace)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - every failure of the tests is a fail
            return JudgeVerdict(passed=False, failure=self.fatal_reason or _describe(exc, tests), timed_out=self.timed_out)
        if self.fatal_reason:
            return JudgeVerdict(passed=False, failure=self.fatal_reason, timed_out=self.timed_out)
        return JudgeVerdict(passed=True)

    def fatal(self, exc: BaseException) -> BaseException:
        self.fatal_reason = self.fatal_reason or f"{type(exc).__name__}: {exc}"
        if isinstance(exc, SandboxLost) and str(exc).startswith("deadline"):
            self.timed_out = True
        return exc

    # --- requests ------------------------------------------------------------------------

    def request(self, op: str, *args: Any) -> Any:
        return self._request([op, *args])[0]

    def call(self, hid: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        encoded = [self.encode(a) for a in args]
        encoded_kw = [[str(k), self.encode(v)] for k, v in kwargs.items()]
        result, back = self._request(["call", hid, encoded, encoded_kw])
        for where, value in back:
            if type(where) is int and 0 <= where < len(args):
                target = args[where]
            else:
                target = kwargs.get(where) if type(where) is str else None
            if type(target) in _MUTABLE:
                _assign(target, value)
        return result

    def _request(self, message: list[Any]) -> tuple[Any, Any]:
        if self.fatal_reason:
            raise SandboxLost(self.fatal_reason)
        self.depth += 1
        try:
            self._send(message)
            while True:
                reply = self._recv()
                kind = reply[0] if isinstance(reply, list) and reply and isinstance(reply[0], str) else None
                if kind in ("jcall", "jiter", "jnext"):
                    self._serve_callback(reply)
                    continue
                if kind == "err" and len(reply) == 4 and isinstance(reply[1], str) and isinstance(reply[2], str):
                    if reply[1] not in _BUILTIN_EXCEPTIONS and hasattr(builtins, reply[1]):
                        # SystemExit, KeyboardInterrupt, GeneratorExit, BaseException: never catchable
                        raise self.fatal(SandboxLost(f"the candidate raised a {reply[1]}: {reply[2][:200]}"))
                    if reply[1] in ("StopIteration", "StopAsyncIteration") and message[0] != "next":
                        # outside next() it would end the tests' map()/all() loops early
                        raise self.fatal(SandboxLost(f"the candidate raised {reply[1]} outside next()"))
                    raise self._candidate_exception(reply[1], reply[2], reply[3])
                if kind == "ok" and len(reply) in (2, 3):
                    return self._decode_ok(message[0], reply)
                raise self.fatal(SandboxLost(f"unexpected reply {str(kind)[:40]!r}"))
        finally:
            self.depth -= 1
            if self.depth == 0 and self.mutables and not self.fatal_reason and message[0] != "value":
                self._refresh()

    def _candidate_exception(self, name: str, message: str, raw_args: Any) -> BaseException:
        """The builtin exception `name` with the candidate's args (so ``str(exc)`` matches),
        else `CandidateError` with the message."""
        cls = _BUILTIN_EXCEPTIONS.get(name)
        if cls is not None:
            try:
                args = self.decode(raw_args)
                return cls(*args) if type(args) is tuple else cls(message)
            except (ValueError, TypeError, KeyError, IndexError, OverflowError):  # malformed, or a constructor wanting more
                pass
        return CandidateError(message)

    def _decode_ok(self, op: str, reply: list[Any]) -> tuple[Any, Any]:
        try:
            if op == "get":
                if not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in reply[1]):
                    raise ValueError("malformed name lookup")
                return [(name, self.decode(v)) for name, v in reply[1]], []
            back = reply[2] if len(reply) == 3 else []
            return self.decode(reply[1]), [[where, self.decode(v)] for where, v in back]
        except (ValueError, TypeError, KeyError, IndexError, OverflowError) as exc:
            raise self.fatal(SandboxLost(f"malformed reply ({type(exc).__name__}: {str(exc)[:80]})")) from None

    def _refresh(self) -> None:
        for target, hid in self.mutables:
            _assign(target, self.request("value", hid))

    def _send(self, message: list[Any]) -> None:
        try:
            self.channel.send(message, self._deadline())
        except SandboxLost as exc:
            raise self.fatal(exc) from None

    def _recv(self) -> Any:
        try:
            return self.channel.recv(self._deadline())
        except SandboxLost as exc:
            raise self.fatal(exc) from None

    def _deadline(self) -> float:
        return min(self.deadline, time.monotonic() + self.call_seconds)

    def _serve_callback(self, message: list[Any]) -> None:
        """The candidate calls or iterates one of the judge objects the tests passed in."""
        op, jid = message[0], message[1]
        if not isinstance(jid, int) or not 0 <= jid < len(self.judge_objects):
            raise self.fatal(SandboxLost("callback to an unknown judge object"))
        obj = self.judge_objects[jid]
        try:
            if op == "jcall":
                args = [self.decode(a) for a in message[2]]
                kwargs = {str(k): self.decode(v) for k, v in message[3]}
                result = obj(*args, **kwargs)
            elif op == "jiter":
                result = iter(obj)
            else:
                result = next(obj)
            reply = ["ret", self.encode(result)]
        except (SandboxLost, OpaqueObjectError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # noqa: BLE001 - the judge object's exception goes to the candidate
            name = next((c.__name__ for c in type(exc).__mro__ if _BUILTIN_EXCEPTIONS.get(c.__name__) is c), "Exception")
            reply = ["raise", name, str(exc)[:2000]]
        self._send(reply)

    # --- values ----------------------------------------------------------------------------

    def encode(self, x: Any, depth: int = 0) -> Any:
        """A judge value for the sandbox: plain values by value, the rest by handle."""
        if x is None or x is True or x is False:
            return x
        if depth > MAX_DEPTH:
            raise ValueError("argument nested too deeply")
        if isinstance(x, CandidateObject):
            return ["h", x._hid]
        remote = getattr(x, "__dict__", {}).get("_atlas_remote") if type(x) in _VALUED.values() else None
        if remote is not None:
            return ["h", remote[1]]
        if isinstance(x, int):
            return ["i", format(int(x), "x")]
        if isinstance(x, float):
            return ["f", float.hex(float(x))]
        if isinstance(x, complex):
            return ["c", float.hex(x.real), float.hex(x.imag)]
        if isinstance(x, str):
            return ["s", str(x)]
        if isinstance(x, bytes):
            return ["b", base64.b64encode(bytes(x)).decode()]
        if isinstance(x, dict):
            return ["d", [[self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in x.items()]]
        for base, tag in ((list, "l"), (tuple, "t"), (set, "S"), (frozenset, "F")):
            if isinstance(x, base):
                return [tag, [self.encode(e, depth + 1) for e in x]]
        self.judge_objects.append(x)
        return ["j", len(self.judge_objects) - 1]

    def decode(self, v: Any) -> Any:
        """Strictly decode a sandbox value; raises ValueError/TypeError on anything malformed."""
        counter = [0]
        return self._decode(v, 0, counter, key=False)

    def _decode(self, v: Any, depth: int, counter: list[int], key: bool) -> Any:
        counter[0] += 1
        if depth > MAX_DEPTH + 1 or counter[0] > _MAX_NODES:
            raise ValueError("value too large or too deep")
        if v is None or v is True or v is False:
            return v
        if not isinstance(v, list) or not v or not isinstance(v[0], str):
            raise ValueError("untagged value")
        tag, rest = v[0], v[1:]
        if tag == "i" and len(rest) == 1 and isinstance(rest[0], str) and _HEX.fullmatch(rest[0]):
            return int(rest[0], 16)
        if tag == "f" and len(rest) == 1 and isinstance(rest[0], str) and len(rest[0]) < 64:
            return float.fromhex(rest[0])
        if tag == "c" and len(rest) == 2 and all(isinstance(p, str) and len(p) < 64 for p in rest):
            return complex(float.fromhex(rest[0]), float.fromhex(rest[1]))
        if tag == "s" and len(rest) == 1 and isinstance(rest[0], str):
            return rest[0]
        if tag == "b" and len(rest) == 1 and isinstance(rest[0], str):
            return base64.b64decode(rest[0], validate=True)
        if tag in ("l", "t", "S", "F") and len(rest) == 1 and isinstance(rest[0], list):
            if key and tag == "l":
                raise ValueError("a list cannot be a key")
            inner_key = key or tag in ("S", "F")
            items = [self._decode(e, depth + 1, counter, inner_key) for e in rest[0]]
            if tag in ("S", "F"):
                _refuse_hash_flooding(items)
            return {"l": list, "t": tuple, "S": set, "F": frozenset}[tag](items)
        if tag == "d" and len(rest) == 1 and isinstance(rest[0], list) and not key:
            pairs = []
            for pair in rest[0]:
                if not isinstance(pair, list) or len(pair) != 2:
                    raise ValueError("malformed dict item")
                pairs.append((self._decode(pair[0], depth + 1, counter, True), self._decode(pair[1], depth + 1, counter, False)))
            _refuse_hash_flooding([k for k, _ in pairs])
            return dict(pairs)
        if tag == "h" and len(rest) == 1 and type(rest[0]) is int and not key:
            return CandidateObject(self, rest[0])
        if tag == "p" and len(rest) == 2 and type(rest[0]) is int and not key:
            base_value = self._decode(rest[1], depth + 1, counter, False)
            obj = _VALUED[type(base_value)](base_value)
            obj.__dict__["_atlas_remote"] = (self, rest[0])
            if isinstance(base_value, _MUTABLE):
                self.mutables.append((obj, rest[0]))
            return obj
        if tag == "j" and len(rest) == 1 and type(rest[0]) is int and 0 <= rest[0] < len(self.judge_objects) and not key:
            return self.judge_objects[rest[0]]
        raise ValueError(f"malformed value (tag {tag[:8]!r})")


def _refuse_hash_flooding(keys: list[Any]) -> None:
    """int and tuple hashes are predictable: many keys with one hash would make building
    the set or dict quadratic, in the judge, outside every deadline."""
    if len(keys) > _MAX_SAME_HASH and Counter(map(hash, keys)).most_common(1)[0][1] > _MAX_SAME_HASH:
        raise ValueError("too many keys with the same hash")


def _describe(exc: BaseException, tests: str) -> str:
    """`tests line N: <source>: ExcType: message` for the innermost frame in the tests."""
    line_no = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<tests>":
            line_no = tb.tb_lineno
        tb = tb.tb_next
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if line_no is None:
        return text[:500]
    source = tests.splitlines()[line_no - 1].strip() if 0 < line_no <= len(tests.splitlines()) else ""
    return f"tests line {line_no}: {source[:200]}: {text}"[:500]
