"""Shared helpers of tests/translation (test modules import these; fixtures stay in conftest.py)."""

from __future__ import annotations

import copy
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from atlas_assets.evals.engines import Engine

REPO = Path(__file__).resolve().parents[2]


EXAMPLE = REPO / "translation" / "example-en-fr-v1.json"


def sim(name: str, **skill) -> Engine:
    block = {"preset": "sim-zero-latency"}
    if skill:
        block["skill"] = skill
    return Engine(name=name, kind="simulator", simulator=block, concurrency=8)


STRONG = sim("sim-good", easy=1.0, medium=1.0, hard=1.0)


WEAK = sim("sim-poor", easy=0.3, medium=0.2, hard=0.1)


ENG = ["The river is wide.", "We walked home.", "It rained (a lot) in 2021."]


APC = ["النهر عريض.", "مشينا عالبيت.", "شتّت كتير بـ 2021."]


def lines(path: Path, rows: list[str], end: str = "\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(("".join(r + end for r in rows)).encode("utf-8"))
    return path


def parquet(path: Path, columns: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table(columns), path)
    return path


def flores_plus_row(texts: list, code: str, ids: list | None = None) -> dict:
    """The columns of openlanguagedata/flores_plus's per-language Parquet files."""
    language, script, *glotto = code.split("_")
    n = len(texts)
    return {"id": ids or list(range(n)), "iso_639_3": [language] * n, "iso_15924": [script] * n,
            "glottocode": [glotto[0] if glotto else "stan1293"] * n, "text": texts, "url": ["https://example.org"] * n,
            "domain": ["wikinews"] * n, "topic": ["weather"] * n, "has_image": [False] * n, "has_hyperlink": [False] * n,
            "last_updated": ["2.0"] * n}  # fmt: skip


def multi(doc: dict, targets=("fr", "de-CH")) -> dict:
    """The example corpus as a multi-target one: French as it is, other targets derived."""
    doc = copy.deepcopy(doc)
    block = doc["dataset"]
    block.pop("target_language")
    block["targets"] = list(targets)
    block["id"] = "example-multi"
    for entry in doc["entries"]:
        french = entry.pop("reference")
        entry["references"] = {tag: french if tag == "fr" else f"[{tag}] {french}" for tag in targets}
    return doc
