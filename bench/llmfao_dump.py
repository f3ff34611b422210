"""LLMFAO crowd comparisons -> a spec-valid v2 dump (battles.jsonl + votes.jsonl).

The LLMFAO set (github.com/dustalov/llmfao, CC BY 4.0) has 8,931 crowd judgements of
2,139 response pairs by 59 models on 13 prompts. It is the real-vote test bed of the
style-transform study (bench/style_transform_study.py) and of the rank-band stability
figures in METHODOLOGY.md. Deterministic and offline: it reads a local clone, either a
working folder or a bare git directory (then through `git show REV:path`).

Mapping (one category, `llmfao-crowd`):

* battle = one pair of pairs-crowd.jsonl with at least one judgement; battle_id = the
  pair id; model_a = model_x, model_b = model_y; response_a/response_b = that model's
  result for the prompt in results.jsonl (checked equal to the pair's result_x/result_y).
* model slug = the model's api_id in models.jsonl, lower-cased, runs of characters outside
  [a-z0-9.] replaced by "-" (checked unique).
* vote = one row of crowd-comparisons.csv: vote_id = its data-row number, voter_id =
  "w_<worker>", choice left/right/tie -> win_a/win_b/tie ("left" is always model_x,
  checked), weight 1.0.
* The data carry no timestamps: every created_at and generated_at is SOURCE_TIME.
* normalization_mode = "rendered": how the crowd platform displayed markdown is not
  recorded; "rendered" lets the markup covariates enter, which the study needs (under
  "raw" they would all be zero).

    .venv/bin/python bench/llmfao_dump.py --source /work/llmfao --out bench/data/llmfao
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atlas_assets.core.atomic import atomic_writer  # noqa: E402

CATEGORY = "llmfao-crowd"
SOURCE_TIME = "2023-10-01T00:00:00Z"
CHOICES = {"left": "win_a", "right": "win_b", "tie": "tie"}
FILES = ("crowd-comparisons.csv", "pairs-crowd.jsonl", "results.jsonl", "models.jsonl")


def read_source(source: Path, rev: str) -> tuple[dict[str, str], str]:
    """The four input files' text and a description of where they came from."""
    if (source / "crowd-comparisons.csv").is_file():
        return {name: (source / name).read_text(encoding="utf-8") for name in FILES}, str(source)
    git = ["git", "--git-dir", str(source)]
    commit = subprocess.run([*git, "rev-parse", rev], check=True, capture_output=True, text=True).stdout.strip()
    texts = {
        name: subprocess.run([*git, "show", f"{commit}:{name}"], check=True, capture_output=True).stdout.decode("utf-8") for name in FILES
    }
    return texts, f"github.com/dustalov/llmfao@{commit}"


def slugify(api_id: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", api_id.lower()).strip("-")


def convert(texts: dict[str, str]) -> tuple[list[dict], list[dict]]:
    """Battle and vote records (without headers), in pair-id and CSV-row order."""
    models = {m["id"]: m for m in map(json.loads, texts["models.jsonl"].splitlines())}
    results = {(r["prompt"], r["model"]): r["result"] for r in map(json.loads, texts["results.jsonl"].splitlines())}
    pairs = {p["id"]: p for p in map(json.loads, texts["pairs-crowd.jsonl"].splitlines())}
    rows = list(csv.DictReader(io.StringIO(texts["crowd-comparisons.csv"])))

    votes, voted = [], set()
    for number, row in enumerate(rows, start=1):
        pair = pairs[int(row["id"])]
        if (int(row["model_x"]), int(row["model_y"]), int(row["prompt"])) != (pair["model_x"], pair["model_y"], pair["prompt"]):
            raise ValueError(f"crowd-comparisons.csv row {number}: models/prompt differ from pair {pair['id']}")
        if row["left"] != models[pair["model_x"]]["name"]:
            raise ValueError(f"crowd-comparisons.csv row {number}: 'left' is not model_x")
        voted.add(pair["id"])
        votes.append(
            {
                "vote_id": str(number),
                "battle_id": str(pair["id"]),
                "voter_id": f"w_{row['worker']}",
                "choice": CHOICES[row["winner"]],
                "created_at": SOURCE_TIME,
                "weight": 1.0,
            }
        )

    used = sorted({pairs[i][k] for i in voted for k in ("model_x", "model_y")})
    slugs = {i: slugify(models[i]["api_id"]) for i in used}
    if len(set(slugs.values())) != len(slugs):
        raise ValueError("model slugs are not unique")
    battles = []
    for pid in sorted(voted):
        pair = pairs[pid]
        text_a, text_b = results[(pair["prompt"], pair["model_x"])], results[(pair["prompt"], pair["model_y"])]
        if (text_a, text_b) != (pair["result_x"], pair["result_y"]):
            raise ValueError(f"pair {pid}: responses differ from results.jsonl")
        battles.append(
            {
                "battle_id": str(pid),
                "category_slug": CATEGORY,
                "model_a": slugs[pair["model_x"]],
                "model_b": slugs[pair["model_y"]],
                "created_at": SOURCE_TIME,
                "normalization_mode": "rendered",
                "modality": "text",
                "response_a": text_a,
                "response_b": text_b,
            }
        )
    return battles, votes


def write_dump(out: Path, battles: list[dict], votes: list[dict], origin: str) -> None:
    """Both files renamed into place only when both are complete."""
    head = {"schema_version": 2, "generated_at": SOURCE_TIME, "source": origin}
    with atomic_writer(out / "battles.jsonl") as bw, atomic_writer(out / "votes.jsonl") as vw:
        for handle, header, records in (
            (bw, {"kind": "battles", **head, "categories": [CATEGORY]}, battles),
            (vw, {"kind": "votes", **head}, votes),
        ):
            handle.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in [header, *records]).encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=Path("/work/llmfao"), help="LLMFAO clone (folder or git dir)")
    parser.add_argument("--rev", default="HEAD", help="revision to read from a git dir")
    parser.add_argument("--out", type=Path, required=True, help="folder for battles.jsonl and votes.jsonl")
    args = parser.parse_args(argv)
    texts, origin = read_source(args.source, args.rev)
    battles, votes = convert(texts)
    write_dump(args.out, battles, votes, origin)
    models = {b[k] for b in battles for k in ("model_a", "model_b")}
    print(f"wrote {args.out}: {len(battles)} battles, {len(votes)} votes, {len(models)} models ({origin})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
