"""An example benchmark task for the routing datasets: a keyword router.

`run(case, variant)` returns {"route": ...}; variant settings: `default_route` (fallback),
`keywords` (a list of words that mean billing), `fail_on` (a case id that raises, to show
error accounting), `interrupt_after` (tests: exit the process after that many calls).
"""

from __future__ import annotations

import os
from typing import Any

from autobench import Case

_BILLING = ("refund", "billed", "invoice", "charge", "price", "card", "renewal")
_calls = 0


def run(case: Case, variant: dict[str, Any]) -> dict[str, Any]:
    global _calls
    _calls += 1
    limit = variant.get("interrupt_after") or os.environ.get("AUTOBENCH_EXAMPLE_INTERRUPT_AFTER")
    if limit and _calls > int(limit):
        os._exit(130)  # simulate a killed run
    if variant.get("fail_on") == case.id:
        raise RuntimeError("example task failure")
    message = str((case.input or {}).get("message", "")).lower() if isinstance(case.input, dict) else ""
    keywords = variant.get("keywords") or _BILLING
    route = "billing" if any(k in message for k in keywords) else variant.get("default_route", "support")
    return {"route": route}
