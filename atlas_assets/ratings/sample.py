"""A deterministic synthetic HumanEval.org platform export with known true strengths.

`generate_dump(out_dir, n_votes=...)` writes `battles.jsonl` + `votes.jsonl` exactly as the
dump spec (humaneval-dump-format-v2.md) describes, plus `truth.json`: the true per-category
strengths (Elo scale, each category's models centred at 1000), the true style effects the
simulated voters apply, and the models' style habits. It is the test bed for the rating
engine (does it recover the truth? are its intervals honest?) and for the benchmark
(multi-GB dumps in a couple of minutes). Same arguments -> byte-identical files.

What the simulation contains, and why:

* ~60 models with deterministic slugs ("atlas-7b", "nova-pro", ...). True strength = a
  shared base (normal, sd 100 Elo) + a per-category perturbation (sd 30 Elo; 60 for the
  recording category, a different skill). Only ~2/3 of the models take part in
  `browser-use`.
* Non-uniform pair frequencies: a log-normal popularity per model; a few "new" models get
  very few battles (provisional on the leaderboard).
* Text categories (chat-writing, chat-coding, chat-reasoning by default) carry plain and
  markdown-heavy responses cut from per-category pools of pre-rendered text. Each model has
  a verbosity and a markdown habit; the simulated voter prefers longer and more
  markdown-dense answers (`STYLE_EFFECTS`), so raw ratings favour verbose models and style
  control has a real, known effect to remove.
* `browser-use` battles are v2 recording battles: object keys under battles/<id>/, some
  null screenshot keys, assisted false, telemetry whose step counts and durations improve
  with strength. Their style term is zero, as in the engine.
* Votes: about two per battle (1..4), ~15 % ties, ~10 % down-weighted (0.75 / 0.5 / 0.25),
  ~2 % of battles with no vote at all (kept in battles.jsonl: the spec allows it), distinct
  pseudonymous voters per battle, times after the battle.

Vote outcomes are unbiased for Bradley-Terry with half-weight ties: a tie is drawn with
probability t <= 2 min(p, 1-p) and the decisive outcomes are rescaled so that
E[score_a] = p = sigmoid(logit) exactly, hence the true strengths are what a correct
(weighted, tie = 1/2) BT fit converges to.

Speed: everything is vectorised with numpy; a response is one slice of a pool string that is
stored already JSON-escaped, cut at unit (sentence / line / block) boundaries whose
style counts are known by prefix sums. 5M votes (~2.5M battles, a few GB) take on the
order of a minute. Files are written through temp names in the target folder and renamed
into place only when complete.

This module imports no Dagster.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Sequence

import numpy as np

from atlas_assets.core.atomic import atomic_write_text, atomic_writer
from atlas_assets.ratings import ELO_PER_LOGIT

GENERATOR_VERSION = 1
DEFAULT_CATEGORIES: tuple[str, ...] = ("chat-writing", "chat-coding", "chat-reasoning", "browser-use")
RECORDING_CATEGORIES = frozenset({"browser-use", "computer-use"})
DEFAULT_GENERATED_AT = "2026-09-08T04:00:00Z"

# True style effects of the simulated voter, in Elo per unit of the normalised A-B
# difference d = (x_a - x_b) / (x_a + x_b) (0 when both are 0) of the engine's covariates
# (features.py): x = length_chars = len(text), and x = markdown_density = markup / len(text)
# with markup the count of the characters # * _ ` > | ~ plus one per '-'/'+'/numbered list
# item. Markdown counts only in "rendered" battles (in "raw" ones the voter saw plain text,
# exactly as the engine zeroes the markdown covariates there). list_count and header_count
# have no effect of their own (true 0; they correlate with markdown_density). truth.json
# lists the effects per standard deviation of d in the category under
# style_coefficients_expected: the engine's units up to methodology 1.1. From 1.2 the engine
# uses log1p differences (METHODOLOGY.md 7.6), so this relative-difference voter is a
# known-truth case of a transform the engine does not assume: its strengths are still the
# truth to recover, its coefficients are not what the engine reports.
STYLE_EFFECTS: dict[str, dict[str, Any]] = {
    "length_chars": {
        "elo_per_unit": 100.0,
        "covariate": "d = (L_a - L_b) / (L_a + L_b), L = len(response) in code points",
    },
    "markdown_density": {
        "elo_per_unit": 40.0,
        "covariate": "d = (M_a - M_b) / (M_a + M_b), M = markup / len(response) (features.py); d = 0 in raw-mode battles",
    },
    "list_count": {"elo_per_unit": 0.0, "covariate": "no effect of its own"},
    "header_count": {"elo_per_unit": 0.0, "covariate": "no effect of its own"},
}

_SHARE = {"chat-writing": 0.32, "chat-coding": 0.30, "chat-reasoning": 0.23, "browser-use": 0.15}
_VOTES_PER_BATTLE_P = np.array([0.02, 0.36, 0.32, 0.18, 0.12])  # 0..4 votes; mean ~2.02
_WEIGHT_VALUES = np.array([1.0, 0.75, 0.5, 0.25])
_WEIGHT_P = np.array([0.90, 0.02, 0.05, 0.03])
_WEIGHT_TEXT = ("1.0", "0.75", "0.5", "0.25")
_TIE_CAP = 0.15  # max tie probability per vote; the realised tie share comes out near 15 %
_RENDERED_SHARE = 0.7
_NULL_SCREENSHOT_SHARE = 0.08
_RECORDING_MODEL_SHARE = 0.66
_NEW_MODEL_SHARE = 0.07
_WINDOW_DAYS = 90

_PREFIXES = (
    "atlas",
    "nova",
    "zephyr",
    "orca",
    "lumen",
    "sable",
    "quill",
    "ember",
    "halcyon",
    "vega",
    "borealis",
    "cobalt",
    "drift",
    "falcon",
    "gala",
    "helix",
    "iris",
    "juniper",
    "kestrel",
    "lyra",
    "meridian",
    "nimbus",
    "onyx",
    "pulsar",
    "quasar",
    "raven",
    "solace",
    "tundra",
    "umbra",
    "vireo",
)
_SUFFIXES = ("7b", "pro", "mini", "70b", "flash", "ultra", "13b", "lite", "max", "v2", "turbo", "405b")


# --------------------------------------------------------------------------------------
# Public result
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Truth:
    """What the simulation knows and the engine must recover."""

    params: dict[str, Any]
    models: tuple[str, ...]
    categories: tuple[str, ...]
    strengths: dict[str, dict[str, float]]  # category -> model -> Elo (style-free), mean 1000
    style_effects: dict[str, dict[str, Any]]
    model_style: dict[str, dict[str, float]]  # model -> verbosity, markdown_rate, popularity
    counts: dict[str, Any]
    style_coefficients_expected: dict[str, dict[str, float]]  # category -> covariate -> Elo per sd of d
    files: dict[str, int] = field(default_factory=dict)  # file name -> bytes

    def to_json_obj(self) -> dict[str, Any]:
        return {
            "synthetic": True,
            "generator": "atlas_assets.ratings.sample",
            "generator_version": GENERATOR_VERSION,
            "params": self.params,
            "elo_per_logit": round(ELO_PER_LOGIT, 6),
            "models": list(self.models),
            "categories": list(self.categories),
            "strengths": self.strengths,
            "style_effects": self.style_effects,
            "style_coefficients_expected": self.style_coefficients_expected,
            "model_style": self.model_style,
            "counts": self.counts,
            "files": self.files,
            "notes": (
                "strengths are the style-free true ratings (Elo scale, 400/ln10 per logit), centred "
                "so that the models taking part in a category average 1000; compare them with "
                "rating_style_controlled. Raw ratings additionally carry each model's average "
                "style advantage. Recording categories have no style term."
            ),
        }


# --------------------------------------------------------------------------------------
# Models and their habits
# --------------------------------------------------------------------------------------


def model_slugs(n_models: int) -> tuple[str, ...]:
    """`n_models` distinct, deterministic slugs (the same list for every seed)."""
    if n_models < 2:
        raise ValueError("n_models must be >= 2")
    combos = [f"{p}-{s}" for s in _SUFFIXES for p in _PREFIXES]
    if n_models > len(combos):
        raise ValueError(f"n_models must be <= {len(combos)}")
    order = np.random.default_rng(20260908).permutation(len(combos))
    return tuple(combos[i] for i in order[:n_models])


def _category_seed(seed: int, tag: str) -> np.random.Generator:
    key = [seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF] + list(tag.encode("utf-8"))
    return np.random.default_rng(np.random.SeedSequence(key))


# --------------------------------------------------------------------------------------
# Text pools: JSON-escaped text cut at unit boundaries with known style counts
# --------------------------------------------------------------------------------------

_COMMON = (
    "the a to of and in is that for it with as this on be we you can will should each first "
    "then also more one two three not by from or if when so all only most some any this these "
    "which while after before here there now just well very still into over"
).split()

_VOCAB = {
    "writing": (
        "team project update deadline thanks meeting draft proposal customer story letter summary "
        "schedule budget launch feedback introduction paragraph tone audience message clear brief "
        "warm formal friendly invitation apology colleague reader opening closing subject voice "
        "narrative character scene chapter ending detail outline revision editor headline "
        "newsletter announcement reminder request polite concise sincerely regards café naïve "
        "résumé façade déjà-vu über— tone-wise"
    ).split(),
    "coding": (
        "function returns list index array loop variable parse input string error exception test "
        "module import class method cache query database async thread complexity buffer iterator "
        "dictionary key value null pointer compile runtime recursion edge-case refactor API "
        "endpoint request response JSON schema type generic interface lock mutex queue stack heap "
        "hash map sort binary search benchmark profiler allocation lint commit branch merge "
        "O(n) config flag"
    ).split()
    + ["O(log n)", "O(n log n)"],
    "reasoning": (
        "therefore assume suppose hence total ratio probability step equation solve value x y sum "
        "product prime divisible remainder constraint case contradiction estimate unit hour speed "
        "distance answer check premise conclusion valid invalid count arrangement parity bound "
        "minimum maximum expected average median fraction percent integer triangle angle area "
        "→ ≈ × ½ ≥ ≤ π"
    ).split(),
}

_CODE_LINES = (
    "def parse_items(data):",
    "    result = []",
    "    for item in data:",
    "        if item is None:",
    "            continue",
    "        result.append(item.strip())",
    "    return result",
    'path = "C:\\\\tmp\\\\out.txt"',
    'print(f"total: {len(items)}")',
    "cache = {}",
    "while queue:",
    "    node = queue.pop()",
    'raise ValueError("bad input")',
    "items.sort(key=lambda x: x[1])",
    'line = text.split("\\n")[0]',
    "const total = values.reduce((a, b) => a + b, 0);",
    "SELECT id, name FROM users WHERE active = 1;",
)


_MARKUP_CHARS = "#*_`>|~"
_LIST_ITEM = re.compile(r"\n[ \t]*([-*+]|[0-9]{1,9}[.)])[ \t]+\S")


def _markup_count(text: str, at_line_start: bool) -> int:
    """The markup count behind markdown_density (features.py): occurrences of the seven
    characters # * _ ` > | ~ plus one per list item whose marker is not '*'."""
    n = sum(text.count(ch) for ch in _MARKUP_CHARS)
    lined = ("\n" + text) if at_line_start else text
    n += sum(1 for marker in _LIST_ITEM.findall(lined) if marker != "*")
    return n


_Units = list[tuple[str, str, bool]]  # (unit text, separator after it, may a response start here)


class _Pool:
    """One category-kind's text: units (sentence / line / block) with separators between them.

    Arrays are indexed by unit: raw_start/raw_end are code-point offsets of the unit content in
    the raw text, esc_start/esc_end the same in the JSON-escaped text. cum_markup is the prefix
    sum (length units+1) of the per-unit markup count (`_markup_count`), which is additive
    over units because separators carry no markup and list items begin units. `starts`
    lists the units a response may begin at.
    """

    def __init__(self, units: _Units):
        raw_start, raw_end, esc_start, esc_end = [], [], [], []
        markup, starts = [], []
        esc_parts: list[str] = []
        raw_pos = esc_pos = 0
        line_start = True
        for i, (text, sep, can_start) in enumerate(units):
            e_text = json.dumps(text, ensure_ascii=False)[1:-1]
            e_sep = json.dumps(sep, ensure_ascii=False)[1:-1]
            raw_start.append(raw_pos)
            esc_start.append(esc_pos)
            raw_pos += len(text)
            esc_pos += len(e_text)
            raw_end.append(raw_pos)
            esc_end.append(esc_pos)
            raw_pos += len(sep)
            esc_pos += len(e_sep)
            esc_parts.append(e_text)
            esc_parts.append(e_sep)
            markup.append(_markup_count(text, line_start))
            line_start = sep.endswith("\n")
            if can_start:
                starts.append(i)
        self.escaped = "".join(esc_parts)
        self.raw_start = np.asarray(raw_start, dtype=np.int64)
        self.raw_end = np.asarray(raw_end, dtype=np.int64)
        self.esc_start = np.asarray(esc_start, dtype=np.int64)
        self.esc_end = np.asarray(esc_end, dtype=np.int64)
        self.cum_markup = np.concatenate([[0], np.cumsum(markup)]).astype(np.int64)
        self.starts = np.asarray(starts, dtype=np.int64)
        self.raw_len = raw_pos


class _TextMaker:
    def __init__(self, rng: np.random.Generator, kind: str):
        self.rng = rng
        self.kind = kind
        self.words = _VOCAB[kind]

    def _word(self) -> str:
        r = self.rng.random()
        if r < 0.45:
            return _COMMON[self.rng.integers(len(_COMMON))]
        if r < 0.5:
            return str(int(self.rng.integers(2, 500)))
        return self.words[self.rng.integers(len(self.words))]

    def phrase(self, lo: int, hi: int) -> str:
        n = int(self.rng.integers(lo, hi + 1))
        return " ".join(self._word() for _ in range(n))

    def sentence(self, bold_p: float = 0.0) -> str:
        n = int(self.rng.integers(6, 19))
        words = [self._word() for _ in range(n)]
        words[0] = words[0][:1].upper() + words[0][1:]
        if bold_p and self.rng.random() < bold_p:
            k = int(self.rng.integers(1, n))
            words[k] = f"**{words[k]}**"
        r = self.rng.random()
        if r < 0.06:
            k = int(self.rng.integers(0, n))
            words[k] = f'"{words[k]}"'
        elif self.kind == "coding" and r < 0.25:
            k = int(self.rng.integers(1, n))
            words[k] = f"`{words[k]}`"
        end = "?" if self.rng.random() < 0.07 else "."
        return " ".join(words) + end

    def code_block(self) -> str:
        n = int(self.rng.integers(3, 8))
        start = int(self.rng.integers(0, len(_CODE_LINES)))
        lines = [_CODE_LINES[(start + i) % len(_CODE_LINES)] for i in range(n)]
        lang = ("python", "js", "sql", "")[int(self.rng.integers(0, 4))]
        return f"```{lang}\n" + "\n".join(lines) + "\n```"

    def plain_units(self, target_chars: int) -> _Units:
        """Paragraphs of sentences: units are sentences, any sentence may open a response."""
        units: _Units = []
        total = 0
        while total < target_chars:
            n_sent = int(self.rng.integers(2, 7))
            for j in range(n_sent):
                s = self.sentence()
                sep = " " if j < n_sent - 1 else "\n\n"
                units.append((s, sep, True))
                total += len(s) + len(sep)
        return units

    def markdown_units(self, target_chars: int) -> _Units:
        """Structured documents: headers, paragraphs, bullet / numbered lists, bold, code."""
        units: _Units = []
        total = 0

        def add(text: str, sep: str, can_start: bool = False) -> None:
            nonlocal total
            units.append((text, sep, can_start))
            total += len(text) + len(sep)

        while total < target_chars:
            level = ("#", "##", "###")[int(self.rng.integers(0, 3))]
            title = self.phrase(1, 4)
            add(f"{level} {title[:1].upper()}{title[1:]}", "\n\n", can_start=True)
            for _ in range(int(self.rng.integers(1, 4))):
                kind = self.rng.random()
                if kind < 0.35:
                    add(f"{self.sentence(bold_p=0.5)} {self.sentence(bold_p=0.3)}", "\n\n", can_start=True)
                elif kind < 0.75:
                    n_items = int(self.rng.integers(2, 7))
                    numbered = self.rng.random() < 0.35
                    bullet = "*" if self.rng.random() < 0.2 else "-"
                    for j in range(n_items):
                        marker = f"{j + 1}." if numbered else bullet
                        if self.rng.random() < 0.5:
                            body = f"**{self.phrase(1, 2)}**: {self.phrase(3, 9)}"
                        else:
                            body = self.phrase(3, 11)
                        sep = "\n" if j < n_items - 1 else "\n\n"
                        add(f"{marker} {body}", sep, can_start=(j == 0))
                elif kind < 0.9 and self.kind in ("coding", "reasoning"):
                    add(self.code_block(), "\n\n")
                else:
                    add(self.sentence(bold_p=0.6), "\n\n", can_start=True)
        return units


def _build_pools(seed: int, kinds: Sequence[str], hi_chars: int) -> dict[tuple[str, bool], _Pool]:
    target = max(200_000, 80 * hi_chars)
    pools: dict[tuple[str, bool], _Pool] = {}
    for kind in kinds:
        for md in (False, True):
            rng = _category_seed(seed, f"pool/{kind}/{int(md)}")
            maker = _TextMaker(rng, kind)
            units = maker.markdown_units(target) if md else maker.plain_units(target)
            pools[(kind, md)] = _Pool(units)
    return pools


def _text_kind(category: str) -> str:
    if "cod" in category or "program" in category:
        return "coding"
    if "reason" in category or "math" in category:
        return "reasoning"
    return "writing"


# --------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------


def _normdiff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    s = a + b
    out = np.zeros_like(s, dtype=np.float64)
    np.divide(a - b, s, out=out, where=s > 0)
    return out


def _iso(seconds: np.ndarray) -> list[str]:
    """Epoch seconds (int64) -> ['2026-08-22T19:31:04Z', ...]."""
    text = np.datetime_as_string(seconds.astype("datetime64[s]"), unit="s")
    stamps: list[str] = np.char.add(text, "Z").tolist()
    return stamps


def _parse_iso(ts: str) -> int:
    return int(np.datetime64(ts.rstrip("Z"), "s").astype(np.int64))


def _dumps_line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")) + "\n"


def _write_lines(handle: BinaryIO, lines: list[str]) -> None:
    handle.write("".join(lines).encode("utf-8"))


_CHUNK = 1 << 16


def reproduce_command(
    *,
    n_votes: int,
    n_models: int = 60,
    seed: int = 0,
    schema_version: int = 2,
    categories: Sequence[str] | None = None,
    response_chars: tuple[int, int] = (150, 700),
    out: str = "DIR",
) -> str:
    """The CLI command that regenerates a dump (recorded in both headers)."""
    parts = [f"python -m atlas_assets.ratings.sample --out {out} --votes {n_votes}"]
    if n_models != 60:
        parts.append(f"--models {n_models}")
    parts.append(f"--seed {seed}")
    if schema_version != 2:
        parts.append(f"--schema-version {schema_version}")
    default_cats = DEFAULT_CATEGORIES if schema_version == 2 else DEFAULT_CATEGORIES[:3]
    if categories is not None and tuple(categories) != default_cats:
        parts.append(f"--categories {','.join(categories)}")
    if tuple(response_chars) != (150, 700):
        parts.append(f"--response-chars {response_chars[0]},{response_chars[1]}")
    return " ".join(parts)


def generate_dump(
    out_dir: str | Path,
    *,
    n_votes: int,
    n_models: int = 60,
    seed: int = 0,
    schema_version: int = 2,
    categories: Sequence[str] | None = None,
    response_chars: tuple[int, int] = (150, 700),
    generated_at: str = DEFAULT_GENERATED_AT,
    write_truth: bool = True,
) -> Truth:
    """Write battles.jsonl, votes.jsonl (and truth.json) into `out_dir`; return the truth.

    n_votes is exact. categories defaults to three text categories + "browser-use" (v2) or the
    three text categories (schema_version 1, which has no recording battles). response_chars
    is the (short, long) range of typical response lengths; a model's verbosity places its
    answers inside it.
    """
    if schema_version not in (1, 2):
        raise ValueError("schema_version must be 1 or 2")
    if n_votes < 1:
        raise ValueError("n_votes must be >= 1")
    if not 0 <= seed < 2**63:
        raise ValueError("seed must be in [0, 2**63)")
    lo_chars, hi_chars = int(response_chars[0]), int(response_chars[1])
    if not 10 <= lo_chars < hi_chars:
        raise ValueError("response_chars must be (lo, hi) with 10 <= lo < hi")
    if categories is None:
        categories = DEFAULT_CATEGORIES if schema_version == 2 else DEFAULT_CATEGORIES[:3]
    categories = tuple(categories)
    if not categories or len(set(categories)) != len(categories):
        raise ValueError("categories must be a non-empty list of distinct slugs")
    if schema_version == 1 and any(c in RECORDING_CATEGORIES for c in categories):
        raise ValueError("schema_version 1 dumps have no recording battles (browser-use needs v2)")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    rng = np.random.default_rng(np.random.SeedSequence([seed, 0xA71A5]))
    models = model_slugs(n_models)
    n_cat = len(categories)
    is_rec_cat = np.array([c in RECORDING_CATEGORIES for c in categories])

    # ---- models: strength, popularity, style habits --------------------------------------
    base = rng.normal(0.0, 100.0, n_models)
    popularity = np.exp(rng.normal(0.0, 0.8, n_models))
    n_new = max(1, int(round(_NEW_MODEL_SHARE * n_models)))
    new_models = rng.choice(n_models, size=n_new, replace=False)
    popularity[new_models] *= 0.02
    verbosity = rng.beta(2.0, 2.0, n_models)  # 0 terse .. 1 verbose
    md_rate = rng.beta(1.2, 1.5, n_models)  # probability a response is markdown-structured
    in_recording = rng.random(n_models) < _RECORDING_MODEL_SHARE
    in_recording[np.argsort(-popularity)[:2]] = True  # the most popular models are agents too

    strengths = np.zeros((n_cat, n_models))
    member = np.ones((n_cat, n_models), dtype=bool)
    for c, slug in enumerate(categories):
        sd = 60.0 if is_rec_cat[c] else 30.0
        strengths[c] = base + _category_seed(seed, f"strength/{slug}").normal(0.0, sd, n_models)
        if is_rec_cat[c]:
            member[c] = in_recording
        strengths[c] -= strengths[c][member[c]].mean()
        strengths[c] += 1000.0

    # ---- battles: how many, which category, which pair ------------------------------------
    est = int(n_votes / 2.02 * 1.08) + 16
    counts = rng.choice(5, size=est, p=_VOTES_PER_BATTLE_P)
    while counts.sum() < n_votes:
        counts = np.concatenate([counts, rng.choice(5, size=est // 4 + 16, p=_VOTES_PER_BATTLE_P)])
    cum = np.cumsum(counts)
    last = int(np.searchsorted(cum, n_votes))  # first battle reaching n_votes
    counts = counts[: last + 1].copy()
    counts[last] -= int(cum[last] - n_votes)
    n_battles: int = counts.shape[0]

    share = np.array([_SHARE.get(c, 0.25) for c in categories])
    cat = rng.choice(n_cat, size=n_battles, p=share / share.sum()).astype(np.int64)
    ma = np.empty(n_battles, dtype=np.int64)
    mb = np.empty(n_battles, dtype=np.int64)
    for c in range(n_cat):
        idx = np.flatnonzero(cat == c)
        p = popularity * member[c]
        p = p / p.sum()
        a = rng.choice(n_models, size=idx.size, p=p)
        b = rng.choice(n_models, size=idx.size, p=p)
        clash = np.flatnonzero(a == b)
        while clash.size:
            b[clash] = rng.choice(n_models, size=clash.size, p=p)
            clash = clash[a[clash] == b[clash]]
        ma[idx] = a
        mb[idx] = b
    rec = is_rec_cat[cat]

    # ---- responses: pool slices with known style counts ----------------------------------
    text_idx = np.flatnonzero(~rec)
    kinds = sorted({_text_kind(c) for c, r in zip(categories, is_rec_cat) if not r})
    pools = _build_pools(seed, kinds, hi_chars)
    pool_keys = sorted(pools)
    pool_offset: dict[tuple[str, bool], int] = {}
    big_parts: list[str] = []
    off = 0
    for key in pool_keys:
        pool_offset[key] = off
        big_parts.append(pools[key].escaped)
        off += len(pools[key].escaped)
    big = "".join(big_parts)
    del big_parts

    esc0 = np.zeros((2, n_battles), dtype=np.int64)  # [side, battle] escaped slice start
    esc1 = np.zeros((2, n_battles), dtype=np.int64)
    length = np.zeros((2, n_battles), dtype=np.float64)
    n_markup = np.zeros((2, n_battles), dtype=np.int64)
    kind_of_cat = np.array([kinds.index(_text_kind(c)) if not r else -1 for c, r in zip(categories, is_rec_cat)])
    cat_text = cat[text_idx]
    log_ratio = math.log(hi_chars / lo_chars)
    for side, mods in ((0, ma), (1, mb)):
        m = mods[text_idx]
        use_md = rng.random(text_idx.size) < md_rate[m]
        u = np.clip(verbosity[m] + rng.normal(0.0, 0.15, text_idx.size), 0.0, 1.0)
        target = lo_chars * np.exp(u * log_ratio)
        pick = rng.random(text_idx.size)
        for k, kind in enumerate(kinds):
            for md in (False, True):
                sel = np.flatnonzero((kind_of_cat[cat_text] == k) & (use_md == md))
                if not sel.size:
                    continue
                pool = pools[(kind, md)]
                usable = pool.starts[pool.raw_start[pool.starts] < pool.raw_len - 3 * hi_chars - 200]
                i0 = usable[(pick[sel] * usable.size).astype(np.int64)]
                want = pool.raw_start[i0] + target[sel]
                j = np.searchsorted(pool.raw_end, want, side="left")
                # take the unit end closest to the wanted length, never before the first unit
                j_prev = np.maximum(j - 1, i0)
                closer_prev = np.abs(pool.raw_end[j_prev] - want) <= np.abs(pool.raw_end[j] - want)
                j = np.where(closer_prev, j_prev, j)
                picked = text_idx[sel]
                base_off = pool_offset[(kind, md)]
                esc0[side, picked] = pool.esc_start[i0] + base_off
                esc1[side, picked] = pool.esc_end[j] + base_off
                length[side, picked] = pool.raw_end[j] - pool.raw_start[i0]
                n_markup[side, picked] = pool.cum_markup[j + 1] - pool.cum_markup[i0]

    # ---- true preference: strength + style -------------------------------------------------
    rendered = (rng.random(n_battles) < _RENDERED_SHARE) & ~rec
    density = n_markup / np.maximum(length, 1.0)
    d_len = _normdiff(length[0], length[1])
    d_md = np.where(rendered, _normdiff(density[0], density[1]), 0.0)  # raw mode: markup unseen
    style_elo = STYLE_EFFECTS["length_chars"]["elo_per_unit"] * d_len
    style_elo += STYLE_EFFECTS["markdown_density"]["elo_per_unit"] * d_md
    style_elo[rec] = 0.0
    logit = (strengths[cat, ma] - strengths[cat, mb] + style_elo) / ELO_PER_LOGIT
    p_a = 1.0 / (1.0 + np.exp(-logit))

    # ---- votes ----------------------------------------------------------------------------
    vb = np.repeat(np.arange(n_battles), counts)  # battle of each vote (battle order)
    n_v = vb.shape[0]
    assert n_v == n_votes
    p = p_a[vb]
    t = np.minimum(_TIE_CAP, 2.0 * np.minimum(p, 1.0 - p))
    q = np.where(t < 1.0, (p - 0.5 * t) / np.maximum(1.0 - t, 1e-12), 0.5)
    r1 = rng.random(n_v)
    r2 = rng.random(n_v)
    choice = np.where(r1 < t, 2, np.where(r2 < q, 0, 1)).astype(np.int8)  # 0 win_a, 1 win_b, 2 tie
    weight_idx = rng.choice(len(_WEIGHT_VALUES), size=n_v, p=_WEIGHT_P).astype(np.int8)

    n_voters = max(64, n_votes // 6)
    activity = 1.0 / np.arange(10, n_voters + 10, dtype=np.float64) ** 1.05
    voter = rng.choice(n_voters, size=n_v, p=activity / activity.sum())
    first_vote = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pos_in_battle = np.arange(n_v) - np.repeat(first_vote, counts)
    for _ in range(16):  # at most one vote per (battle, voter)
        dup = np.zeros(n_v, dtype=bool)
        for back in range(1, 4):
            later = np.flatnonzero(pos_in_battle >= back)
            dup[later] |= voter[later] == voter[later - back]
        if not dup.any():
            break
        voter[dup] = (voter[dup] + 1 + rng.integers(0, n_voters - 1, size=int(dup.sum()))) % n_voters
    else:  # pragma: no cover - astronomically unlikely
        raise RuntimeError("could not make voters distinct within battles")
    voter_key = int(rng.integers(1, 2**31)) * 2 + 1  # odd multiplier: a bijection mod 2^32
    voter_tok = [f"v_{(i * voter_key) & 0xFFFFFFFF:08x}" for i in range(n_voters)]

    # ---- times and ids ----------------------------------------------------------------------
    gen_epoch = _parse_iso(generated_at)
    window = _WINDOW_DAYS * 86400
    t_start = gen_epoch - 86400 - window
    b_time = t_start + np.sort(rng.integers(0, window, size=n_battles))
    delay = np.minimum(np.exp(rng.normal(np.log(150.0), 1.0, n_v)), 2 * 86400).astype(np.int64) + 20
    v_time = b_time[vb] + delay
    v_order = np.lexsort((np.arange(n_v), v_time))  # by time, ties in battle order
    battle_ids = 1_000_000 + np.cumsum(rng.integers(1, 6, size=n_battles))
    vote_ids = 50_000_000 + np.cumsum(rng.integers(1, 4, size=n_v))

    # ---- recording payloads -----------------------------------------------------------------
    rec_idx = np.flatnonzero(rec)
    tel = {}
    null_shot = rng.random((2, rec_idx.size)) < _NULL_SCREENSHOT_SHARE
    for side, mods in ((0, ma), (1, mb)):
        s = (strengths[cat[rec_idx], mods[rec_idx]] - 1000.0) / 100.0  # ~N(0, 1)
        steps = np.maximum(3, rng.poisson(np.clip(14.0 - 3.0 * s, 4.0, 30.0)))
        median_step = np.round(np.exp(rng.normal(np.log(9000.0) - 0.08 * s, 0.25)), -2).astype(np.int64)
        ttfa = np.round(np.exp(rng.normal(np.log(5000.0) - 0.1 * s, 0.35)), -2).astype(np.int64)
        jitter = np.exp(rng.normal(0.0, 0.12, rec_idx.size))
        duration = np.round(ttfa + steps * median_step * jitter, -3).astype(np.int64)
        model_ms = np.round(duration * rng.uniform(0.55, 0.75, rec_idx.size), -3).astype(np.int64)
        harness_ms = np.round(steps * rng.uniform(250.0, 450.0, rec_idx.size), -2).astype(np.int64)
        tel[side] = (duration, ttfa, steps, median_step, model_ms, harness_ms)

    # ---- write -------------------------------------------------------------------------------
    source = "synthetic: " + reproduce_command(
        n_votes=n_votes,
        n_models=n_models,
        seed=seed,
        schema_version=schema_version,
        categories=categories,
        response_chars=(lo_chars, hi_chars),
    )
    battles_header = {
        "kind": "battles",
        "schema_version": schema_version,
        "generated_at": generated_at,
        "categories": list(categories),
        "source": source,
    }
    votes_header = {"kind": "votes", "schema_version": schema_version, "generated_at": generated_at, "source": source}

    # Both files appear (renamed into place) only once both are complete.
    with atomic_writer(out / "battles.jsonl") as bw, atomic_writer(out / "votes.jsonl") as vw:
        _write_lines(bw, [_dumps_line(battles_header)])
        cat_names = np.array(categories, dtype=object)
        slugs = np.array(models, dtype=object)
        mode_names = np.where(rendered, "rendered", "raw").astype(object)
        modality = ', "modality": "text"' if schema_version == 2 else ""
        rec_pos = np.full(n_battles, -1, dtype=np.int64)
        rec_pos[rec_idx] = np.arange(rec_idx.size)
        tel_l = {side: [x.tolist() for x in tel[side]] for side in (0, 1)}
        null_l = null_shot.tolist()

        def rec_obj(bid: str, side: str, null: bool) -> str:
            shot = "null" if null else f'"battles/{bid}/{side}.png"'
            return (
                f'{{"video_key": "battles/{bid}/{side}.mp4", "trace_key": "battles/{bid}/{side}.trace.jsonl", '
                f'"screenshot_key": {shot}, "assisted": false}}'
            )

        def tel_obj(side: int, k: int) -> str:
            d, f, s, m, mm, h = (col[k] for col in tel_l[side])
            return (
                f'{{"duration_ms": {d}, "time_to_first_action_ms": {f}, "steps": {s}, '
                f'"median_step_ms": {m}, "model_ms_total": {mm}, "harness_ms_total": {h}}}'
            )

        for lo in range(0, n_battles, _CHUNK):
            hi = min(lo + _CHUNK, n_battles)
            rows = zip(
                battle_ids[lo:hi].astype(str).tolist(),
                cat_names[cat[lo:hi]].tolist(),
                slugs[ma[lo:hi]].tolist(),
                slugs[mb[lo:hi]].tolist(),
                _iso(b_time[lo:hi]),
                mode_names[lo:hi].tolist(),
                rec_pos[lo:hi].tolist(),
                esc0[0, lo:hi].tolist(),
                esc1[0, lo:hi].tolist(),
                esc0[1, lo:hi].tolist(),
                esc1[1, lo:hi].tolist(),
            )
            buf: list[str] = []
            for bid, cname, a, b, ts, mode, k, a0, a1, b0, b1 in rows:
                head = (
                    f'{{"battle_id": "{bid}", "category_slug": "{cname}", "model_a": "{a}", '
                    f'"model_b": "{b}", "created_at": "{ts}", "normalization_mode": "{mode}"'
                )
                if k < 0:
                    buf.append(f'{head}{modality}, "response_a": "{big[a0:a1]}", "response_b": "{big[b0:b1]}"}}\n')
                else:
                    buf.append(
                        f'{head}, "modality": "recording", "recording_a": {rec_obj(bid, "a", null_l[0][k])}, '
                        f'"recording_b": {rec_obj(bid, "b", null_l[1][k])}, "telemetry_a": {tel_obj(0, k)}, '
                        f'"telemetry_b": {tel_obj(1, k)}}}\n'
                    )
            _write_lines(bw, buf)

        _write_lines(vw, [_dumps_line(votes_header)])
        choice_names = np.array(["win_a", "win_b", "tie"], dtype=object)
        weight_names = np.array(_WEIGHT_TEXT, dtype=object)
        voter_names = np.array(voter_tok, dtype=object)
        for lo in range(0, n_v, _CHUNK):
            order = v_order[lo : lo + _CHUNK]
            rows = zip(
                vote_ids[lo : lo + _CHUNK].astype(str).tolist(),
                battle_ids[vb[order]].astype(str).tolist(),
                voter_names[voter[order]].tolist(),
                choice_names[choice[order]].tolist(),
                _iso(v_time[order]),
                weight_names[weight_idx[order]].tolist(),
            )
            _write_lines(
                vw,
                [
                    f'{{"vote_id": "{vid}", "battle_id": "{bid}", "voter_id": "{who}", '
                    f'"choice": "{ch}", "created_at": "{ts}", "weight": {w}}}\n'
                    for vid, bid, who, ch, ts, w in rows
                ],
            )
        file_sizes = {"battles.jsonl": bw.tell(), "votes.jsonl": vw.tell()}

    # ---- truth ---------------------------------------------------------------------------------
    voted = counts > 0
    expected_coef: dict[str, dict[str, float]] = {}
    for c, cname in enumerate(categories):
        rows_c = voted & (cat == c)
        sd_len = float(np.std(d_len[rows_c])) if rows_c.any() else 0.0
        sd_md = float(np.std(d_md[rows_c])) if rows_c.any() else 0.0
        expected_coef[cname] = {
            "length_chars": round(STYLE_EFFECTS["length_chars"]["elo_per_unit"] * sd_len, 4),
            "markdown_density": round(STYLE_EFFECTS["markdown_density"]["elo_per_unit"] * sd_md, 4),
            "list_count": 0.0,
            "header_count": 0.0,
        }
    effects = {name: dict(spec) for name, spec in STYLE_EFFECTS.items()}
    vote_side = np.concatenate([ma[vb], mb[vb]])
    vote_cat = np.concatenate([cat[vb], cat[vb]])
    per = np.bincount(vote_cat * n_models + vote_side, minlength=n_cat * n_models).reshape(n_cat, n_models)
    strengths_out: dict[str, dict[str, float]] = {}
    votes_out: dict[str, dict[str, int]] = {}
    for c, cname in enumerate(categories):
        strengths_out[cname] = {models[m]: round(float(strengths[c, m]), 4) for m in range(n_models) if member[c, m]}
        votes_out[cname] = {models[m]: int(per[c, m]) for m in range(n_models) if per[c, m] > 0}
    model_style = {
        models[m]: {
            "base_strength": round(float(base[m] + 1000.0), 4),
            "verbosity": round(float(verbosity[m]), 4),
            "markdown_rate": round(float(md_rate[m]), 4),
            "popularity": round(float(popularity[m]), 6),
            "in_recording_categories": bool(in_recording[m]),
        }
        for m in range(n_models)
    }
    w = _WEIGHT_VALUES[weight_idx]
    counts_out = {
        "battles": int(n_battles),
        "battles_without_votes": int((counts == 0).sum()),
        "recording_battles": int(rec.sum()),
        "votes": int(n_v),
        "ties": int((choice == 2).sum()),
        "down_weighted_votes": int((w < 1.0).sum()),
        "voters": int(np.unique(voter).size),
        "votes_per_category": {categories[c]: int((cat[vb] == c).sum()) for c in range(n_cat)},
        "votes_per_model": votes_out,
    }
    params = {
        "n_votes": n_votes,
        "n_models": n_models,
        "seed": seed,
        "schema_version": schema_version,
        "categories": list(categories),
        "response_chars": [lo_chars, hi_chars],
        "generated_at": generated_at,
    }
    truth = Truth(
        params=params,
        models=models,
        categories=categories,
        strengths=strengths_out,
        style_effects=effects,
        style_coefficients_expected=expected_coef,
        model_style=model_style,
        counts=counts_out,
        files=file_sizes,
    )
    if write_truth:
        atomic_write_text(out / "truth.json", json.dumps(truth.to_json_obj(), indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return truth


# --------------------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------------------


def _count(text: str) -> int:
    t = text.strip().lower().replace("_", "")
    mult = 1
    if t.endswith("k"):
        mult, t = 1_000, t[:-1]
    elif t.endswith("m"):
        mult, t = 1_000_000, t[:-1]
    value = float(t) * mult
    if value != int(value) or value < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole count: {text!r}")
    return int(value)


def _pair(text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LO,HI (e.g. 150,700), got {text!r}") from None
    return lo, hi


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m atlas_assets.ratings.sample",
        description=(
            "Write a synthetic HumanEval.org dump (battles.jsonl + votes.jsonl, spec v2) with known "
            "true strengths (truth.json) into --out. Deterministic: the same arguments give "
            "byte-identical files. Synthetic data only: no real models, voters or responses."
        ),
        epilog=(
            "examples:\n"
            "  python -m atlas_assets.ratings.sample --out /tmp/dump --votes 30k\n"
            "  python -m atlas_assets.ratings.sample --out bench/data/1m --votes 1m --models 80\n"
            "  humaneval-ratings compute --battles /tmp/dump/battles.jsonl --votes /tmp/dump/votes.jsonl "
            "--out /tmp/leaderboard.json\n\n"
            "truth.json holds the style-free true ratings per category (compare with "
            "rating_style_controlled), the voters' true style effects and per-model vote counts."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", required=True, type=Path, help="output folder (created if missing)")
    parser.add_argument("--votes", required=True, type=_count, help="exact number of votes, e.g. 30000, 100k, 5m")
    parser.add_argument("--models", type=int, default=60, help="number of models (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--schema-version", type=int, choices=(1, 2), default=2, help="dump schema version (default 2; 1 = text only)")
    parser.add_argument(
        "--categories",
        default=None,
        help="comma-separated category slugs (default: chat-writing,chat-coding,chat-reasoning,browser-use; "
        "'browser-use' / 'computer-use' are recording categories)",
    )
    parser.add_argument("--response-chars", type=_pair, default=(150, 700), help="typical response length range LO,HI (default 150,700)")
    parser.add_argument("--no-truth", action="store_true", help="do not write truth.json")
    parser.add_argument("--quiet", action="store_true", help="print nothing on success")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    cats = tuple(c.strip() for c in args.categories.split(",") if c.strip()) if args.categories else None
    started = time.perf_counter()
    try:
        truth = generate_dump(
            args.out,
            n_votes=args.votes,
            n_models=args.models,
            seed=args.seed,
            schema_version=args.schema_version,
            categories=cats,
            response_chars=args.response_chars,
            write_truth=not args.no_truth,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not args.quiet:
        c = truth.counts
        mb = sum(truth.files.values()) / 1e6
        print(
            f"wrote {args.out}: {c['battles']} battles ({c['battles_without_votes']} without votes, "
            f"{c['recording_battles']} recording), {c['votes']} votes ({c['ties']} ties, "
            f"{c['down_weighted_votes']} down-weighted), {len(truth.models)} models, "
            f"{mb:.1f} MB in {time.perf_counter() - started:.1f}s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
