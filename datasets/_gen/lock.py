# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Publish datasets: record the content sha256 of every dataset not yet in
_gen/published.lock.json. Existing entries are never rewritten -- a published dataset is
immutable, and a changed one must be published under a new -vN id.

    python datasets/_gen/lock.py            # publish every unpublished dataset
    python datasets/_gen/lock.py ID [ID...]  # publish only these
    python datasets/_gen/lock.py --check     # exit 1 if a published dataset changed
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bootstrap  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record published datasets' sha256.")
    parser.add_argument("ids", nargs="*", help="datasets to publish (default: every unpublished one)")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--check", action="store_true", help="only verify; exit 1 when a published dataset changed")
    args = parser.parse_args(argv)
    registry = _bootstrap.corpus("registry")
    specs = {s.id: s for s in registry.discover(args.root)}
    lock = registry.read_lock(args.root)
    changed = []
    for dataset_id, sha in sorted(lock.items()):
        spec = specs.get(dataset_id)
        actual = registry.content_sha256(spec.folder, args.root) if spec else None
        if actual != sha:
            changed.append(dataset_id)
            print(f"{dataset_id}: published {sha}, now {actual or 'missing'} -- publish a new -vN id instead", file=sys.stderr)
    if args.check:
        return 1 if changed else 0
    wanted = args.ids or sorted(set(specs) - set(lock))
    added = 0
    for dataset_id in wanted:
        if dataset_id not in specs:
            print(f"{dataset_id}: no such dataset", file=sys.stderr)
            return 2
        if dataset_id in lock:
            print(f"{dataset_id}: already published")
            continue
        lock[dataset_id] = registry.content_sha256(specs[dataset_id].folder, args.root)
        print(f"{dataset_id}: published {lock[dataset_id]}")
        added += 1
    if added:
        registry.write_lock(lock, args.root)
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
