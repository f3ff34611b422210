"""Part 2 of the corpus (format, tools, code, multilingual, vision, long-generation
integrity) and the measured splice scorer.

* every suite regenerates byte-identically;
* tools: the expected call is a valid call of an offered schema, look-alikes are offered;
* code: the real sandbox runs a sample of references (pass) and broken versions (fail);
* multilingual: >= 8 languages and several scripts, scorers mixed;
* vision: shapes, colours, pips, bar heights and filled cells re-detected from pixels;
* longgen: projects within 20-25k characters, references in range and importing six
  exports that the project has;
* splice: a smaller corpus than bench/splice_bench.py, with the thresholds.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
import sys
import unicodedata
from collections import Counter

import pytest

from atlas_assets.corpus import registry, splice_corpus, validate
from atlas_assets.corpus.sandbox import run_python
from atlas_assets.corpus.splice import find_splices
from tests.helpers.corpus import ROOT, read_rows

G2 = ["eval-format-v1", "eval-tools-v1", "eval-code-v1", "eval-multilingual-v1", "eval-vision-v1", "eval-longgen-integrity-v1"]


def rows_of(dataset_id: str) -> list[dict]:
    return read_rows(ROOT / dataset_id)


def card_of(dataset_id: str) -> dict:
    return json.loads((ROOT / dataset_id / "dataset.json").read_text(encoding="utf-8"))


def test_g2_generators_reproduce_their_bytes(tmp_path):
    report = validate.validate_corpus(ROOT, regenerate=True, only=G2, workdir=tmp_path)
    assert report.errors == [], "\n".join(map(str, report.errors))
    for dataset_id in G2:
        spec = next(s for s in registry.discover(ROOT) if s.id == dataset_id)
        assert registry.diff_folders(spec, tmp_path / dataset_id).identical, dataset_id


@pytest.mark.parametrize("dataset_id", G2)
def test_row_counts_difficulties_and_card(dataset_id):
    rows = rows_of(dataset_id)
    expected = 36 if dataset_id == "eval-longgen-integrity-v1" else None
    assert (len(rows) == expected) if expected else 200 <= len(rows) <= 500
    assert {r["difficulty"] for r in rows} == {"easy", "medium", "hard"}
    assert len({r["category"] for r in rows}) >= 3 or dataset_id == "eval-longgen-integrity-v1"
    assert all(isinstance(r.get("meta"), dict) and r["meta"] for r in rows)
    generator = ROOT / card_of(dataset_id)["provenance"]["generator"]
    assert generator.read_text(encoding="utf-8").startswith("# /// script\n")


# --- tools ---------------------------------------------------------------------------------


def _valid_call(schema: dict, arguments: dict) -> bool:
    params = schema["function"]["parameters"]
    props = params["properties"]
    if not set(arguments) <= set(props):
        return False
    types = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "array": list}
    for key, value in arguments.items():
        spec = props[key]
        if not isinstance(value, types[spec["type"]]) or (spec["type"] in ("integer", "number") and isinstance(value, bool)):
            return False
        if "enum" in spec and value not in spec["enum"]:
            return False
    return True


def test_tools_expected_calls_fit_the_offered_schemas():
    rows = rows_of("eval-tools-v1")
    assert sum(r["answer"]["tool_call"] is None for r in rows) >= 40
    assert sum(r["meta"].get("arguments_match") == "exact" for r in rows) >= 30
    for row in rows:
        tools = {t["function"]["name"]: t for t in row["meta"]["tools"]}
        assert len(tools) == len(row["meta"]["tools"]) >= 3, row["id"]
        call = row["answer"]["tool_call"]
        if call is None:
            continue
        assert call["name"] in tools, row["id"]
        schema = tools[call["name"]]
        assert _valid_call(schema, call["arguments"]), row["id"]
        required = set(schema["function"]["parameters"]["required"]) - set(row["meta"].get("not_compared", []))
        assert required <= set(call["arguments"]), row["id"]
        if row["meta"].get("arguments_match") == "exact":
            assert set(call["arguments"]) == set(schema["function"]["parameters"]["properties"]), row["id"]
    with_lookalikes = [r for r in rows if r["answer"]["tool_call"] and r["meta"]["lookalikes"]]
    assert len(with_lookalikes) >= 200


# --- code ----------------------------------------------------------------------------------


def test_code_references_pass_and_broken_versions_fail_in_the_sandbox():
    rows = rows_of("eval-code-v1")
    by_family: dict[str, dict] = {}
    for row in rows:
        by_family.setdefault(row["meta"]["family"], row)
    sample = [by_family[f] for f in sorted(by_family)][::3]  # 11 families, one variant each
    assert len(by_family) == 31
    for row in sample:
        good = run_python(row["answer"], row["tests"])
        bad = run_python(row["meta"]["broken"], row["tests"])
        assert good.passed, (row["id"], good.stderr[-300:], good.error)
        assert not bad.passed, (row["id"], "the broken version passes")


def test_code_prompts_name_the_entry_point_and_hide_most_tests():
    for row in rows_of("eval-code-v1"):
        assert row["meta"]["entry_point"] in row["prompt"]
        assert row["answer"] != row["meta"]["broken"]
        asserts = row["tests"].count("assert ")
        assert asserts >= 5 or "got.append" in row["tests"], row["id"]


# --- multilingual --------------------------------------------------------------------------

SCRIPT_NAMES = ("CYRILLIC", "CJK", "HIRAGANA", "KATAKANA", "HANGUL", "ARABIC", "DEVANAGARI")


def test_multilingual_languages_scripts_and_scorers():
    rows = rows_of("eval-multilingual-v1")
    langs = Counter(r["meta"]["lang"] for r in rows)
    assert len(langs) >= 8 and min(langs.values()) >= 20
    scripts = set()
    for row in rows:
        for ch in row["prompt"]:
            name = unicodedata.name(ch, "")
            scripts.update(s for s in SCRIPT_NAMES if name.startswith(s))
    assert {"CYRILLIC", "CJK", "HANGUL", "ARABIC", "DEVANAGARI"} <= scripts
    assert {r["scorer"] for r in rows} == {"contains", "mc", "numeric"}
    for lang in langs:
        assert {r["category"] for r in rows if r["meta"]["lang"] == lang} == {"arithmetic", "weekday", "compare", "scoreboard"}


# --- vision --------------------------------------------------------------------------------

Image = pytest.importorskip("PIL.Image")
_gen_vision = None


def _vision_module():
    global _gen_vision
    if _gen_vision is None:
        spec = importlib.util.spec_from_file_location("_g2_vision", ROOT / "_gen" / "gen_eval_vision_v1.py")
        module = importlib.util.module_from_spec(spec)
        sys.path.insert(0, str(ROOT / "_gen"))
        spec.loader.exec_module(module)
        _gen_vision = module
    return _gen_vision


def _pixels(row: dict) -> tuple[list[list[int]], int, int]:
    image = Image.open(ROOT / "eval-vision-v1" / row["image"])
    assert image.format == "PNG" and image.mode == "P"
    width, height = image.size
    data = image.tobytes()  # one palette index per pixel
    return [data[y * width : (y + 1) * width] for y in range(height)], width, height


def _components(grid: list[list[int]], width: int, height: int, keep) -> list[dict]:
    """4-connected components of the pixels whose palette index satisfies `keep`."""
    seen = [[False] * width for _ in range(height)]
    found = []
    for y in range(height):
        for x in range(width):
            if seen[y][x] or not keep(grid[y][x]):
                continue
            colour = grid[y][x]
            stack, pixels = [(x, y)], []
            seen[y][x] = True
            while stack:
                cx, cy = stack.pop()
                pixels.append((cx, cy))
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < width and 0 <= ny < height and not seen[ny][nx] and grid[ny][nx] == colour:
                        seen[ny][nx] = True
                        stack.append((nx, ny))
            xs, ys = [p[0] for p in pixels], [p[1] for p in pixels]
            box = (min(xs), min(ys), max(xs), max(ys))
            area = (box[2] - box[0] + 1) * (box[3] - box[1] + 1)
            found.append({"colour": colour, "pixels": len(pixels), "box": box, "fill": len(pixels) / area})
    return found


def _kind_from_fill(fill: float) -> str:
    if fill > 0.93:
        return "square"
    if fill > 0.70:
        return "circle"
    return "triangle"


def test_vision_shapes_and_colours_are_re_detected_from_pixels():
    V = _vision_module()
    rows = [r for r in rows_of("eval-vision-v1") if r["category"] in ("shape_count", "shape_kind", "position")]
    assert len(rows) >= 100
    names = {i: name for i, (name, _) in enumerate(V.PALETTE)}
    for row in rows:
        grid, width, height = _pixels(row)
        shapes = row["meta"]["ground_truth"]
        found = _components(grid, width, height, lambda c: names[c] in V.SHAPE_COLOURS)
        found = [f for f in found if f["pixels"] >= 20]
        assert len(found) == len(shapes), (row["id"], len(found), len(shapes))
        assert Counter(names[f["colour"]] for f in found) == Counter(s["colour"] for s in shapes), row["id"]
        for shape in shapes:
            if shape["kind"] in ("circle", "square", "triangle"):
                cx, cy = shape["centre"]
                match = min(found, key=lambda f: abs((f["box"][0] + f["box"][2]) / 2 - cx) + abs((f["box"][1] + f["box"][3]) / 2 - cy))
                assert names[match["colour"]] == shape["colour"], row["id"]
                assert _kind_from_fill(match["fill"]) == shape["kind"], (row["id"], shape, match["fill"])


def test_vision_dice_pips_bars_and_grids_match_the_ground_truth():
    V = _vision_module()
    black, white = V.INDEX["black"], V.INDEX["white"]
    for row in rows_of("eval-vision-v1"):
        truth = row["meta"]["ground_truth"]
        if row["category"] == "dice":
            grid, width, height = _pixels(row)
            pips = 0
            for die in truth:
                x0, y0, x1, y1 = die["box"]
                inner = [r[x0 + 3 : x1 - 2] for r in grid[y0 + 3 : y1 - 2]]
                pips += len(_components(inner, len(inner[0]), len(inner), lambda c: c == black))
            assert pips == sum(d["face"] for d in truth) == row["answer"], row["id"]
        elif row["category"] == "bar_chart":
            grid, width, height = _pixels(row)
            plot = truth["plot"]
            for bar in truth["bars"]:
                x = (bar["box"][0] + bar["box"][2]) // 2
                top = next(y for y in range(height) if grid[y][x] not in (white, V.INDEX["lightgrey"]))
                value = (plot["bottom"] - top) / plot["pixels_per_unit"]
                assert abs(value - bar["value"]) < 1.0, (row["id"], bar, value)
        elif row["category"] == "grid":
            grid, width, height = _pixels(row)
            n, cell, origin = truth["size"], truth["cell_pixels"], truth["origin"]
            colour = V.INDEX[truth["colour"]]
            seen = [[int(grid[origin + r * cell + cell // 2][origin + c * cell + cell // 2] == colour) for c in range(n)] for r in range(n)]
            assert seen == truth["filled"], row["id"]


def test_vision_images_are_small_pngs():
    folder = ROOT / "eval-vision-v1" / "images"
    sizes = [p.stat().st_size for p in folder.glob("*.png")]
    assert len(sizes) == len(rows_of("eval-vision-v1")) and max(sizes) < 4096


# --- long-generation integrity -----------------------------------------------------------


def test_longgen_projects_tasks_and_references():
    rows = rows_of("eval-longgen-integrity-v1")
    tokens = {"easy": 1200, "medium": 1800, "hard": 2400}
    assert Counter(r["difficulty"] for r in rows) == {"easy": 12, "medium": 12, "hard": 12}
    for row in rows:
        meta = row["meta"]
        assert row["answer"] == "clean" and row["scorer"] == "splice"
        assert meta["target_output_tokens"] == tokens[row["difficulty"]]
        assert 20_000 <= meta["project_chars"] <= 25_000
        assert meta["module_path"] in row["prompt"] and f"{meta['min_lines']} to {meta['max_lines']} lines" in row["prompt"]
        example = meta["example_pass"]
        assert meta["min_lines"] <= example.count("\n") <= meta["max_lines"]
        imported = [n.strip() for group in re.findall(r"^import \{ (.*?) \} from", example, re.M) for n in group.split(",")]
        assert len(imported) >= 6 and set(imported) <= set(meta["context_identifiers"]), row["id"]
        assert find_splices(example, meta["context_identifiers"]) == [], row["id"]
    assert len({r["meta"]["context_identifiers"][0] for r in rows}) > 1
    assert len({r["prompt"][:2000] for r in rows}) == 36


# --- splice measurement ------------------------------------------------------------------

HAND_WRITTEN = [
    """import { readFile } from 'node:fs/promises';
import { formatInvoice, loadCustomers } from './invoices.js';

const DEFAULT_TIMEOUT = 30_000;
const cache = new Map();

export async function buildSummary(path, { timeoutMs = DEFAULT_TIMEOUT, verbose = false } = {}) {
  const started = Date.now();
  const raw = await readFile(path, 'utf8');
  const customers = loadCustomers(JSON.parse(raw));
  const totals = customers.map((customer) => ({
    id: customer.id,
    label: formatInvoice(customer.lastInvoice),
    overdue: customer.balance > 0,
    daysLate: Math.max(0, Math.floor((started - customer.dueAt) / 86_400_000)),
  }));
  if (verbose) {
    console.debug(`summary of ${totals.length} customers in ${Date.now() - started} ms`);
  }
  cache.set(path, totals);
  return { totals, generatedAt: new Date(started).toISOString(), timeoutMs };
}

export class SummaryView {
  #rows = [];
  constructor(rows = []) {
    this.#rows = rows;
  }
  get count() {
    return this.#rows.length;
  }
  topOverdue(limit = 5) {
    return this.#rows.filter((row) => row.overdue).sort((a, b) => b.daysLate - a.daysLate).slice(0, limit);
  }
}
""",
    """import { parseOrder, ORDER_STATES } from './orders.js'

const retryDelays = [250, 500, 1000]

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

export async function submitAll(orders, send) {
  const results = []
  outer: for (const raw of orders) {
    const order = parseOrder(raw)
    for (const [attempt, delay] of retryDelays.entries()) {
      try {
        const response = await send(order)
        if (response.status === 409) continue outer
        results.push({ id: order.id, state: ORDER_STATES.accepted, attempts: attempt + 1 })
        continue outer
      } catch (error) {
        await sleep(delay)
      }
    }
    results.push({ id: order.id, state: ORDER_STATES.failed })
  }
  return results
}

export function* chunks(list, size = 25) {
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size)
}
""",
]


def test_hand_written_modules_are_clean():
    context = ["formatInvoice", "loadCustomers", "lastInvoice", "balance", "dueAt", "parseOrder", "ORDER_STATES", "accepted", "failed"]
    for code in HAND_WRITTEN:
        assert find_splices(code, context) == []


STRUCTURE_BASE = """import { formatInvoice, loadCustomers } from './invoices.js'

const LABELS = Object.freeze({ ok: 'ok', warn: 'warning' })
const SEVERITY_LIMIT = 3

export function describeTotals(customers, options = {}) {
  const started = performance.now()
  const spread = Math.max(...customers.map((c) => c.balance)) - Math.min(0, options.floor ?? 0)
  const rows = customers.filter((customer) => customer.balance > 0).map((customer) => formatInvoice(customer.lastInvoice))
  for (const [index, row] of rows.entries()) {
    console.debug(`${index} ${row}`)
  }
  const total = loadCustomers(rows).length
  options.depth ??= SEVERITY_LIMIT
  return { total, spread, level: total > SEVERITY_LIMIT ? LABELS.warn : LABELS.ok, elapsed: performance.now() - started }
}
"""
STRUCTURE_CONTEXT = ["formatInvoice", "loadCustomers", "lastInvoice", "balance", "dueAt"]


@pytest.mark.parametrize(
    "old, new, flagged",
    [
        ("for (const [index, row] of rows", "for (const [index, row] ofControlled rows", "ofControlled"),  # two words, nothing between
        ("export function describeTotals(customers", "export function describeTotals, customers", "describeTotals"),  # no parameter list
        ("console.debug(`${index} ${row}`)", "console.debugindex} ${row}`)", "debugindex"),  # a '(' lost
        ("Math.min(0", "Math.minController(0", "minController"),  # not a member of Math
        ("performance.now() - started", "performance.nowEnd() - started", "nowEnd"),
        ("LABELS.warn :", "LABELS.warnTable :", "warnTable"),  # LABELS has no such key
        ("customers.filter(", "customers.filterBy(", "filterBy"),  # a built-in method with a tail
        ("const SEVERITY_LIMIT = 3", "const SEVERITY_LIMITmean = 3", "SEVERITY_LIMITmean"),  # CONSTANT into lower case
        ("(customer) => customer.balance > 0", "(customer) => customer.balancerecords > 0", "balancerecords"),  # lower-case weld
        ("export function describeTotals(", "export function loadtotal(", "loadtotal"),  # two words run together
    ],
)
def test_structural_splice_rules_flag_the_damaged_word(old, new, flagged):
    assert find_splices(STRUCTURE_BASE, STRUCTURE_CONTEXT) == []
    damaged = STRUCTURE_BASE.replace(old, new, 1)
    assert damaged != STRUCTURE_BASE
    found = find_splices(damaged, STRUCTURE_CONTEXT)
    assert flagged in {s.token for s in found}, [s.describe() for s in found]


def test_intact_constructs_the_structural_rules_must_accept():
    code = """#!/usr/bin/env node
import { loadCustomers } from './invoices.js'
import fs from 'node:fs'
const path = require('path')

export function* batchesOf(list, size = 25) {
  for (let i = 0, n = list.length; i < n; i += size) yield list.slice(i, i + size)
}
export function readAll(dir) {
  let total = 0, totalSkipped = 0
  const names = fs.readdirsync(path.joinPaths(dir))
  total += names.length
  totalSkipped += process.env.ATLAS_SKIPPED_FILES ? 1 : 0
  return { total, totalSkipped }
}

const SETTINGS = { retries: 3 }
SETTINGS.retries += 1
const label = `${SETTINGS.retries} ${loadCustomers.name}`
export const summary = (items) => items.length > 0 ? label : `${items.length}`
"""
    assert find_splices(code, ["loadCustomers"]) == []


MODERN_MODULES = [
    (
        ["loadStock", "saveStock", "StockError", "formatQuantity", "formatMoney", "record", "quantity"],
        """// Inventory reconciliation module written against the project's store and formatters.
import { loadStock, saveStock, StockError } from './stock.js';
import { formatQuantity, formatMoney as money } from './format.js';
import * as audit from './audit.js';

const DEFAULT_OPTIONS = Object.freeze({ tolerance: 0.005, currency: 'EUR', maxRetries: 3 });
const SKU_PATTERN = /^[A-Z]{3}-\\d{4}(?:\\/[a-z]+)?$/u;

export class Reconciler extends EventTarget {
  #cache = new Map();
  static #instances = 0;
  static {
    Reconciler.#instances = 0;
  }

  constructor(store, options = {}) {
    super();
    this.store = store;
    this.options = { ...DEFAULT_OPTIONS, ...options };
    Reconciler.#instances += 1;
  }

  get size() {
    return this.#cache.size;
  }

  set tolerance(value) {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`bad tolerance: ${value}`);
    this.options = { ...this.options, tolerance: value };
  }

  #key({ sku, warehouse = 'main' }) {
    return `${warehouse}/${sku}`;
  }

  async *differences(counts) {
    for await (const batch of counts) {
      for (const { sku, counted, warehouse } of batch) {
        if (!SKU_PATTERN.test(sku)) {
          this.dispatchEvent(new CustomEvent('invalid', { detail: { sku } }));
          continue;
        }
        const expected = this.#cache.get(this.#key({ sku, warehouse })) ?? (await loadStock(sku))?.quantity ?? 0;
        const delta = counted - expected;
        if (Math.abs(delta) / Math.max(1, expected) > this.options.tolerance) {
          yield { sku, warehouse, expected, counted, delta, label: formatQuantity(delta) };
        }
      }
    }
  }

  async apply(changes, { dryRun = false } = {}) {
    let applied = 0, failed = 0;
    outer: for (const change of changes) {
      for (let attempt = 1; attempt <= this.options.maxRetries; attempt++) {
        try {
          if (!dryRun) await saveStock(change.sku, change.counted);
          this.#cache.set(this.#key(change), change.counted);
          applied++;
          continue outer;
        } catch (error) {
          if (!(error instanceof StockError) || attempt === this.options.maxRetries) {
            failed++;
            audit.record?.('reconcile-failed', { sku: change.sku, reason: error.message });
            continue outer;
          }
          await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 100));
        }
      }
    }
    return { applied, failed, total: money(applied * 0.5, this.options.currency) };
  }
}

export const summarise = (rows) =>
  rows.reduce(
    (acc, { delta }) => ({ ...acc, up: acc.up + (delta > 0), down: acc.down + (delta < 0) }),
    { up: 0, down: 0 },
  );

export default Reconciler;
""",
    ),
    (
        ["parseRoute", "ROUTE_KINDS", "unknown", "kind", "name"],
        """import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseRoute, ROUTE_KINDS } from './routes.js'

const cache = new WeakMap()
let lastRun = null

function debounce(fn, wait = 50) {
  let timer
  return (...args) => {
    clearTimeout(timer)
    timer = setTimeout(() => fn(...args), wait)
  }
}

export async function loadRoutes(dir, { encoding = 'utf8', filter = () => true } = {}) {
  const file = path.join(dir, 'routes.json')
  const text = await readFile(file, encoding)
  const routes = JSON.parse(text, (key, value) => (key === 'since' ? new Date(value) : value))
  const result = routes.filter(filter).map((raw, index) => {
    const route = parseRoute(raw)
    const kind = ROUTE_KINDS[route.kind] ?? ROUTE_KINDS.unknown
    return { index, ...route, kind, slug: route.name.toLowerCase().replace(/\\s+/g, '-') }
  })
  lastRun = Date.now()
  cache.set(result, { file, loadedAt: lastRun })
  return result
}

export function groupByKind(routes) {
  const groups = Object.groupBy ? Object.groupBy(routes, (r) => r.kind) : {}
  for (const [kind, list] of Object.entries(groups)) {
    groups[kind] = list.toSorted((a, b) => a.slug.localeCompare(b.slug))
  }
  return groups
}

export const onChange = debounce((routes) => {
  const counts = new Map()
  for (const { kind } of routes) counts.set(kind, (counts.get(kind) ?? 0) + 1)
  const ratio = routes.length ? counts.size / routes.length : 0
  const share = ratio > 0.5 ? 'high' : ratio > 0.25 ? 'medium' : 'low'
  console.info(`routes: ${routes.length} (${share}) at ${new Date(lastRun ?? 0).toISOString()}`)
  return { counts, ratio, share, hex: 0xff_ff, big: 12_345n, tiny: 1e-9, half: .5 }
}, 25)
""",
    ),
    (
        ["fetchSchedule", "STOP_TYPES", "regular", "express", "request", "rows", "meta", "offlineSchedule"],
        """/**
 * Timetable helpers built on the project's schedule store.
 * @module timetable
 */
import { fetchSchedule, STOP_TYPES } from './schedule.js';
export { fetchSchedule as getSchedule };
export * from './clock.js';

const here = new URL('.', import.meta.url);
const sql = (strings, ...values) => strings.reduce((acc, part, i) => acc + part + (i < values.length ? `$${i + 1}` : ''), '');

export class Timetable {
  static fromRows(rows, { zone = 'UTC', limit = rows.length } = {}) {
    const table = new Timetable(zone);
    for (const row of rows.slice(0, limit)) table.add(row);
    return table;
  }

  constructor(zone) {
    if (!new.target) throw new TypeError('use new');
    this.zone = zone;
    this.entries = [];
  }

  add({ stop, at, type = STOP_TYPES.regular }) {
    this.entries.push({ stop, at: new Date(at), type });
    return this;
  }

  *[Symbol.iterator]() {
    yield* this.entries.toSorted((a, b) => a.at - b.at);
  }

  describe(entry) {
    switch (entry.type) {
      case STOP_TYPES.express:
        return `${entry.stop} (express)`;
      case STOP_TYPES.request: {
        const note = entry.stop.length > 12 ? 'long' : 'short';
        return `${entry.stop} on request, ${note}`;
      }
      default:
        return entry.stop;
    }
  }
}

export async function nextDepartures(line, count = 3, now = Date.now()) {
  let schedule;
  try {
    schedule = await fetchSchedule(line);
  } catch {
    const { offlineSchedule } = await import('./offline.js');
    schedule = offlineSchedule(line);
  } finally {
    console.debug(sql`select * from stops where line = ${line}`, here.href);
  }
  schedule.meta ??= {};
  schedule.meta.requested = (schedule.meta.requested ?? 0) + 1;
  const upcoming = [];
  search: for (const entry of Timetable.fromRows(schedule.rows)) {
    if (entry.at.getTime() < now) continue;
    upcoming.push(entry);
    if (upcoming.length >= count) break search;
  }
  const spread = upcoming.length > 1 ? (upcoming.at(-1).at - upcoming[0].at) / 60_000 : 0;
  return { line, upcoming, spread: spread ** 1, weights: [1, , 3].map((w) => w ?? 0) };
}
""",
    ),
]


@pytest.mark.parametrize("context, code", MODERN_MODULES)
def test_modern_syntax_is_clean(context, code):
    """Private and static members, static blocks, async generators, for await, labels,
    getters/setters, regex, template and tagged-template literals, numeric separators,
    package imports, re-exports, import.meta, new.target, optional catch binding, array
    holes, dynamic import."""
    assert find_splices(code, context) == []


def test_prose_around_the_module_is_not_judged_but_a_weld_in_the_code_is():
    reply = (
        "Here is the module you asked for:\n\n"
        + STRUCTURE_BASE
        + "\n## Notes\n- It exports one function, built from the imports.\nHope this helps!\n"
    )
    assert find_splices(reply, STRUCTURE_CONTEXT) == []
    damaged = reply.replace("LABELS.warn :", "LABELS.warnTable :")
    assert [s.token for s in find_splices(damaged, STRUCTURE_CONTEXT)] == ["warnTable"]


@pytest.fixture(scope="module")
def splice_measurement():
    spec = importlib.util.spec_from_file_location("_g2_splice_bench", ROOT.parent / "bench" / "splice_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    mixed, kinds = bench.build(projects=10, mix=3, seed=47_000)  # a different hold-out than the bench's
    return splice_corpus.measure(mixed), splice_corpus.measure(kinds)


def test_splice_false_positives_at_most_one_percent(splice_measurement):
    mix, _ = splice_measurement
    assert mix.intact == 30
    assert mix.false_positive_rate <= 0.01, mix.fp_examples


def test_splice_detection_floor(splice_measurement):
    """A regression guard below the measured level (this corpus: 94.4 % of 90 mix splices;
    the bench: 95-98 % on 540-900 per seed series)."""
    mix, kinds = splice_measurement
    assert mix.spliced >= 85
    assert mix.detection_rate >= 0.92, mix.misses
    assert kinds.by_kind["dup"][0] / kinds.by_kind["dup"][1] >= 0.85
    assert kinds.by_kind["ident_join"][0] / kinds.by_kind["ident_join"][1] >= 0.8


def test_splice_corpus_cases_change_one_code_token():
    rng = random.Random(3)
    code = HAND_WRITTEN[0]
    words = [w.text for w in splice_corpus.code_words(code)]
    assert "readFile" in words and "'utf8'" not in words and "30_000" in words
    cases, _ = splice_corpus.make_cases(
        code, ["formatInvoice"], words, ["harvestWeight", "1250"], rng, ["mix"] * 6 + list(splice_corpus.KINDS)
    )
    assert len(cases) == 10
    for case in cases:
        assert case.text != code and case.spliced != case.original
        assert case.text.replace(case.spliced, case.original, 1) == code or case.subkind == "separator"
    assert "".join(splice_corpus.subword_pieces("formatCurrencyTotals")) == "formatCurrencyTotals"
    assert splice_corpus.subword_pieces("86_400_000") == ["86", "_", "400", "_", "000"]
