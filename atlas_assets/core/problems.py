"""The errors/warnings split shared by the validation reports (corpus, translation)."""

from __future__ import annotations

from typing import Any


class SeverityReport:
    """Mixin for a report whose ``problems`` each carry ``severity`` "error" or "warning"."""

    problems: list[Any]

    @property
    def errors(self) -> list[Any]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Any]:
        return [p for p in self.problems if p.severity == "warning"]
