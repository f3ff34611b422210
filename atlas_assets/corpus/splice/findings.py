"""The finding type of the splice detector: `Splice` and its `describe()`.

One `Splice` is one damaged identifier or number, with the fragments it was welded from
when they are known and a `reason` when a structural check found it. It lives apart from
`detection` so that the rules (`rules`), which build findings, and the detector, which
collects them, share it without importing each other. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Splice"]


@dataclass(frozen=True)
class Splice:
    kind: str  # "identifier" | "number"
    token: str
    line: int
    fragments: tuple[str, str] | None = None
    reason: str = ""  # set by the structural checks (syntax, namespaces, object shapes)

    def describe(self) -> str:
        if self.reason:
            return f"line {self.line}: damaged {self.kind} {self.token!r} ({self.reason})"
        if self.kind == "number":
            if self.fragments:
                return f"line {self.line}: spliced number {self.token!r} = {self.fragments[0]!r} + {self.fragments[1]!r}"
            return f"line {self.line}: malformed or welded number {self.token!r}"
        a, b = self.fragments or ("", "")
        if not b:
            return f"line {self.line}: truncated or unresolvable identifier {self.token!r}"
        return f"line {self.line}: spliced identifier {self.token!r} = {a!r} + {b!r}"
