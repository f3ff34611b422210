"""The one error type a rejected dump raises."""

from __future__ import annotations

from atlas_assets.core.errors import AtlasError, located


class DumpError(AtlasError, ValueError):
    """A dump that violates the spec. Names the file, the 1-based line and the field."""

    def __init__(self, path: str, line: int | None, field: str | None, message: str):
        self.path = str(path)
        self.line = line
        self.field = field
        self.message = message
        super().__init__(located(message, path=self.path, line=line, field=field))
