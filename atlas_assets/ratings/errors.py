"""The one error type a rejected dump raises."""

from __future__ import annotations

from atlas_assets.core.errors import AtlasError


class DumpError(AtlasError, ValueError):
    """A dump that violates the spec. Names the file, the 1-based line and the field."""

    def __init__(self, path: str, line: int | None, field: str | None, message: str):
        self.path = str(path)
        self.line = line
        self.field = field
        self.message = message
        where = self.path if line is None else f"{self.path}:{line}"
        what = f"field '{field}': {message}" if field else message
        super().__init__(f"{where}: {what}")
