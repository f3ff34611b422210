"""Measure the `splice` scorer (eval-longgen-integrity-v1) on intact and spliced modules.

    python bench/splice_bench.py [--projects 100] [--mix 3] [--seed N] [--json] [--out FILE]
                                 [--real-code DIR]

The corpus (atlas_assets/corpus/splice/injection.py has the details of the splices,
atlas_assets/corpus/splice_corpus.py of the measurement):

* intact outputs: for each of --projects generated JavaScript projects
  (datasets/_gen/_jsproject.py, the generator behind eval-longgen-integrity-v1), three
  reference modules written against it -- one per requested length (150-190, 200-240,
  250-290 lines) -- in varied code styles;
* spliced outputs, two views of the same intact modules:
  - ``mix`` (the headline): --mix splices per module, each at a uniformly random code
    token (identifiers and numbers, by sub-word token), the mechanism uniform over
    join / dup / drop, a join's donor uniform over the same output, the project in the
    prompt and an unrelated project (a batch neighbour);
  - ``kinds``: one splice per module of each kind the issue names -- two identifier
    fragments joined, a number's digits joined with another number's, a token duplicated,
    a token dropped -- to show each kind's rate on its own.

With --real-code DIR it also reads every non-minified .js/.mjs file under DIR (for example
an npm installation's node_modules), groups them by package (nearest package.json), gives
each file its package's declared identifiers as the context, and reports the share of
files with any finding. Real packages call third-party APIs their context does not list,
so this over-counts against what a module written for a prompt's project sees; it is a
sanity check on real code, not a target.

Detection = share of spliced outputs on which `find_splices` reports a finding that the
intact output does not have; false positives = share of intact outputs with any finding.
Targets: detection >= 95 % (mix), false positives <= 1 %. Prints a table (or JSON) and
exits 1 when a target is missed. The seeds are fixed and differ from the ones the
detector's rules were tuned on (the 5000-111000 series); the 121000-151000 series were
only ever measured -- no rule was written or changed for what they showed -- so the
default run is a hold-out measurement.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from atlas_assets.corpus import splice_corpus as SC  # noqa: E402
from atlas_assets.corpus.splice import injection  # noqa: E402

TARGET_DETECTION = 0.95
TARGET_FALSE_POSITIVES = 0.01
PROJECT_SEED = 121_000  # projects 121000, 121001, ...
LENGTHS = ((150, 190), (200, 240), (250, 290))


def load_jsproject():
    path = REPO / "datasets" / "_gen" / "_jsproject.py"
    spec = importlib.util.spec_from_file_location("_atlas_jsproject", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def build(projects: int, mix: int, seed: int = PROJECT_SEED) -> tuple[SC.Corpus, SC.Corpus]:
    """(mix corpus, per-kind corpus) over the same intact outputs."""
    J = load_jsproject()
    made = [J.make_project(seed + k) for k in range(projects)]
    sources = [J.render_project(p) for p in made]
    contexts = [J.declared_identifiers(s) for s in sources]
    pools = [[w.text for w in injection.code_words(s)] for s in sources]
    mixed, kinds = SC.Corpus(), SC.Corpus()
    for k, project in enumerate(made):
        rng = random.Random(seed * 1000 + k)
        for low, high in LENGTHS:
            task = J.make_task(project, rng, low, high)
            text = J.reference_module(project, task, rng)
            other = (k + 1 + rng.randrange(max(1, projects - 1))) % projects if projects > 1 else k
            for corpus, wanted in ((mixed, ["mix"] * mix), (kinds, list(injection.KINDS))):
                corpus.intact.append((text, contexts[k]))
                cases, invisible = injection.make_cases(text, contexts[k], pools[k], pools[other], rng, wanted)
                corpus.invisible_draws += invisible
                corpus.cases += [(len(corpus.intact) - 1, case) for case in cases]
    return mixed, kinds


def real_code(root: Path) -> dict:
    """Findings on real JavaScript packages under `root` (see the module docstring)."""
    from atlas_assets.corpus.splice.detection import find_splices

    J = load_jsproject()
    packages: dict[Path, list[Path]] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".js", ".mjs") or not path.is_file():
            continue
        home = next((d for d in path.parents if (d / "package.json").exists() or d == root), root)
        packages.setdefault(home, []).append(path)
    files = flagged = structural = 0
    examples: list[str] = []
    for paths in packages.values():
        codes = {}
        for path in paths:
            code = path.read_text(encoding="utf-8", errors="replace")
            if len(code) <= 200_000 and max((len(line) for line in code.splitlines()), default=0) <= 300:
                codes[path] = code
        context = sorted({name for code in codes.values() for name in J.declared_identifiers(code)})
        for path, code in codes.items():
            files += 1
            found = find_splices(code, context)
            flagged += bool(found)
            structural += any(s.reason for s in found)
            if found and len(examples) < 20:
                examples.append(f"{path.relative_to(root)}: {found[0].describe()}")
    return {
        "root": str(root),
        "files": files,
        "files_with_findings": flagged,
        "share": round(flagged / files, 4) if files else None,
        "files_with_structural_findings": structural,
        "examples": examples,
    }


def _rates(table: dict[str, tuple[int, int]]) -> dict:
    return {key: {"detected": d, "total": t, "rate": round(d / t, 4) if t else None} for key, (d, t) in table.items()}


def _view(m: SC.Measurement, corpus: SC.Corpus, by: str) -> dict:
    return {
        "spliced": m.spliced,
        "detected": m.detected,
        "detection_rate": round(m.detection_rate, 4),
        by: _rates(m.by_kind),
        "by_subkind": _rates(m.by_subkind),
        "invisible_draws_redrawn": corpus.invisible_draws,
        "misses": m.misses,
    }


def report(mixed: SC.Corpus, kinds: SC.Corpus) -> dict:
    m = SC.measure(mixed, keep_misses=30)
    k = SC.measure(kinds, keep_misses=30)
    return {
        "intact_outputs": m.intact,
        "false_positives": m.false_positives,
        "false_positive_rate": round(m.false_positive_rate, 4),
        "false_positive_examples": m.fp_examples,
        "mix": _view(m, mixed, "by_mechanism"),
        "kinds": _view(k, kinds, "by_kind"),
        "targets": {
            "detection": TARGET_DETECTION,
            "false_positive_rate": TARGET_FALSE_POSITIVES,
            "detection_met": m.detection_rate >= TARGET_DETECTION,
            "false_positives_met": m.false_positive_rate <= TARGET_FALSE_POSITIVES,
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--projects", type=int, default=100, help="generated projects (3 intact modules each)")
    parser.add_argument("--mix", type=int, default=3, help="random splices per intact module in the mix view")
    parser.add_argument("--seed", type=int, default=PROJECT_SEED)
    parser.add_argument("--json", action="store_true", help="print the full JSON report")
    parser.add_argument("--out", type=Path, help="also write the JSON report here")
    parser.add_argument("--real-code", type=Path, metavar="DIR", help="also report findings on the real .js/.mjs packages under DIR")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    mixed, kinds = build(args.projects, args.mix, args.seed)
    built = time.perf_counter()
    result = report(mixed, kinds)
    result["seconds"] = {"build": round(built - started, 2), "measure": round(time.perf_counter() - built, 2)}
    if args.real_code:
        if not args.real_code.is_dir():
            parser.error(f"--real-code: {args.real_code} is not a directory")
        result["real_code"] = real_code(args.real_code)
    result["command"] = "python bench/splice_bench.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        mix = result["mix"]
        print(
            f"intact outputs: {result['intact_outputs']}, false positives: {result['false_positives']} ({100 * result['false_positive_rate']:.2f} %)"
        )
        print(
            f"mix: {mix['detected']}/{mix['spliced']} detected ({100 * mix['detection_rate']:.2f} %), {mix['invisible_draws_redrawn']} invisible draws redrawn"
        )
        for key, row in mix["by_mechanism"].items():
            print(f"  {key:<12} {row['detected']:>5}/{row['total']:<5} {100 * row['rate']:6.2f} %")
        kinds_ = result["kinds"]
        print(f"kinds: {kinds_['detected']}/{kinds_['spliced']} detected ({100 * kinds_['detection_rate']:.2f} %)")
        for key, row in kinds_["by_kind"].items():
            print(f"  {key:<12} {row['detected']:>5}/{row['total']:<5} {100 * row['rate']:6.2f} %")
        print(f"seconds: {result['seconds']}")
        if "real_code" in result:
            real = result["real_code"]
            print(
                f"real code under {real['root']}: {real['files_with_findings']}/{real['files']} files with a finding ({real['files_with_structural_findings']} structural)"
            )
    targets = result["targets"]
    ok = targets["detection_met"] and targets["false_positives_met"]
    print(
        ("targets met" if ok else "TARGET MISSED")
        + f": detection >= {100 * TARGET_DETECTION:.0f} % (mix), false positives <= {100 * TARGET_FALSE_POSITIVES:.0f} %"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
