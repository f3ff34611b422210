# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Rewrite the corpus index tables (datasets/README.md, datasets/_gen/README.md) from the
dataset folders. check.py fails when they are stale.

    python datasets/_gen/index.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bootstrap  # noqa: E402


def main() -> int:
    index = _bootstrap.corpus("index")
    root = Path(__file__).resolve().parent.parent
    written = index.write_index(root)
    for path in written:
        print(f"wrote {path.relative_to(root.parent)}")
    if not written:
        print("index up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
