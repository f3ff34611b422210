"""Synthetic JavaScript ES-module projects and reference modules written against them
(standard library only).

Used by gen_eval_longgen_integrity_v1.py (the project is the prompt, a reference module is
`meta.example_pass`) and by bench/splice_bench.py (reference modules are the intact
outputs the splice detector is measured on). Nothing here is copied: every line is
produced from the templates below with names drawn from a per-project vocabulary, so two
projects differ throughout.

* `make_project(seed)`: a domain (library, orchard, observatory, ...), three entities with
  typed fields, and 8 files: config, one module per entity, a store, format, validate,
  stats, events and an index that re-exports. 20-25k characters once rendered.
* `render_project(project)`: the files concatenated, each under a `// File: path` header.
* `declared_identifiers(source)`: every identifier the source defines or exports, read
  back from the text by a small tokenizer (declarations, parameters, destructuring,
  imports, exports, class members, object keys) -- the longgen rows' context identifiers.
* `reference_module(project, rng, lines, style)`: an intact new module of `lines` lines
  that imports at least six named exports, in one of several code styles (semicolons or
  not, quote style, arrow or function declarations, JSDoc, async code, classes with
  private fields, numeric literal forms, template literals, regular expressions).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

# --- vocabulary --------------------------------------------------------------------------------

# field kinds: str, int, float, date, bool, code
DOMAINS: dict[str, dict[str, Any]] = {
    "library": {
        "entities": {
            "book": [("title", "str"), ("author", "str"), ("isbn", "code"), ("pages", "int"), ("shelf", "str"), ("published", "date")],
            "member": [("fullName", "str"), ("email", "str"), ("joinedOn", "date"), ("fines", "float"), ("active", "bool")],
            "loan": [("bookRef", "code"), ("memberRef", "code"), ("dueDate", "date"), ("renewals", "int"), ("returned", "bool")],
            "review": [("rating", "int"), ("reviewer", "str"), ("postedOn", "date"), ("helpfulVotes", "int")],
        },
        "statuses": ["available", "onLoan", "reserved", "withdrawn"],
    },
    "orchard": {
        "entities": {
            "tree": [("variety", "str"), ("rowNumber", "int"), ("plantedOn", "date"), ("heightCm", "float"), ("grafted", "bool")],
            "harvest": [("treeRef", "code"), ("pickedOn", "date"), ("weightKg", "float"), ("grade", "str"), ("bruised", "bool")],
            "crate": [("label", "code"), ("capacityKg", "float"), ("filledKg", "float"), ("sealed", "bool")],
            "spray": [("product", "str"), ("litres", "float"), ("appliedOn", "date"), ("operator", "str")],
        },
        "statuses": ["budding", "ripening", "picked", "dormant"],
    },
    "observatory": {
        "entities": {
            "star": [("designation", "code"), ("magnitude", "float"), ("distanceLy", "float"), ("constellation", "str"), ("variable", "bool")],
            "session": [("nightOf", "date"), ("seeing", "int"), ("observer", "str"), ("cloudCover", "float")],
            "exposure": [("frameRef", "code"), ("seconds", "float"), ("filterBand", "str"), ("gain", "int")],
            "telescope": [("aperture", "int"), ("mountType", "str"), ("focalLength", "int"), ("portable", "bool")],
        },
        "statuses": ["queued", "observing", "processed", "archived"],
    },
    "clinic": {
        "entities": {
            "patient": [("fullName", "str"), ("bornOn", "date"), ("ward", "str"), ("allergyCount", "int"), ("discharged", "bool")],
            "visit": [("patientRef", "code"), ("visitedOn", "date"), ("minutes", "int"), ("clinician", "str")],
            "dose": [("medicine", "str"), ("milligrams", "float"), ("givenAt", "date"), ("missed", "bool")],
            "bed": [("bedCode", "code"), ("floor", "int"), ("occupied", "bool"), ("cleanedOn", "date")],
        },
        "statuses": ["admitted", "observation", "recovering", "discharged"],
    },
    "fleet": {
        "entities": {
            "vehicle": [("plate", "code"), ("model", "str"), ("odometerKm", "int"), ("fuelLitres", "float"), ("electric", "bool")],
            "trip": [("vehicleRef", "code"), ("startedOn", "date"), ("distanceKm", "float"), ("driver", "str")],
            "repair": [("workshop", "str"), ("costCents", "int"), ("finishedOn", "date"), ("warranty", "bool")],
            "depot": [("depotCode", "code"), ("bays", "int"), ("city", "str"), ("open24h", "bool")],
        },
        "statuses": ["parked", "enRoute", "servicing", "retired"],
    },
    "bakery": {
        "entities": {
            "recipe": [("dish", "str"), ("flourGrams", "int"), ("hydration", "float"), ("vegan", "bool")],
            "batch": [("recipeRef", "code"), ("bakedOn", "date"), ("loaves", "int"), ("ovenTemp", "int")],
            "order": [("customer", "str"), ("pickupOn", "date"), ("quantity", "int"), ("paid", "bool")],
            "supplier": [("company", "str"), ("leadDays", "int"), ("rating", "float"), ("organic", "bool")],
        },
        "statuses": ["proofing", "baking", "cooling", "sold"],
    },
    "harbour": {
        "entities": {
            "vessel": [("callSign", "code"), ("tonnage", "int"), ("flag", "str"), ("draughtM", "float")],
            "berth": [("berthNo", "int"), ("lengthM", "float"), ("quay", "str"), ("powered", "bool")],
            "cargo": [("manifestRef", "code"), ("containers", "int"), ("hazardous", "bool"), ("declaredOn", "date")],
            "pilot": [("pilotName", "str"), ("licensedOn", "date"), ("boardings", "int"), ("onDuty", "bool")],
        },
        "statuses": ["anchored", "docking", "moored", "departed"],
    },
    "school": {
        "entities": {
            "student": [("fullName", "str"), ("yearGroup", "int"), ("enrolledOn", "date"), ("boarder", "bool")],
            "course": [("courseCode", "code"), ("credits", "int"), ("teacher", "str"), ("elective", "bool")],
            "grade": [("studentRef", "code"), ("score", "float"), ("markedOn", "date"), ("resit", "bool")],
            "room": [("roomCode", "code"), ("seats", "int"), ("building", "str"), ("hasProjector", "bool")],
        },
        "statuses": ["enrolled", "suspended", "graduated", "withdrawn"],
    },
    "festival": {
        "entities": {
            "artist": [("stageName", "str"), ("genre", "str"), ("feeCents", "int"), ("headliner", "bool")],
            "stage": [("stageCode", "code"), ("capacity", "int"), ("covered", "bool"), ("soundLimitDb", "float")],
            "slot": [("artistRef", "code"), ("startsAt", "date"), ("minutes", "int"), ("encore", "bool")],
            "ticket": [("ticketNo", "code"), ("tier", "str"), ("priceCents", "int"), ("scanned", "bool")],
        },
        "statuses": ["announced", "confirmed", "performing", "cancelled"],
    },
    "museum": {
        "entities": {
            "exhibit": [("catalogNo", "code"), ("title", "str"), ("acquiredOn", "date"), ("fragile", "bool")],
            "gallery": [("wing", "str"), ("floorArea", "float"), ("lux", "int"), ("climateControlled", "bool")],
            "tour": [("guide", "str"), ("startsAt", "date"), ("groupSize", "int"), ("language", "str")],
            "loanItem": [("lenderName", "str"), ("insuredCents", "int"), ("returnBy", "date"), ("courier", "bool")],
        },
        "statuses": ["onDisplay", "inStorage", "onLoan", "conserving"],
    },
    "brewery": {
        "entities": {
            "brew": [("styleName", "str"), ("gravity", "float"), ("brewedOn", "date"), ("hopsGrams", "int")],
            "tank": [("tankCode", "code"), ("litres", "int"), ("tempC", "float"), ("sanitised", "bool")],
            "keg": [("kegNo", "code"), ("filledOn", "date"), ("pressureBar", "float"), ("returned", "bool")],
            "tasting": [("taster", "str"), ("scoreOutOf10", "int"), ("notesCount", "int"), ("blind", "bool")],
        },
        "statuses": ["mashing", "fermenting", "conditioning", "packaged"],
    },
    "railway": {
        "entities": {
            "train": [("serviceNo", "code"), ("carriages", "int"), ("operatorName", "str"), ("diesel", "bool")],
            "station": [("stationCode", "code"), ("platforms", "int"), ("town", "str"), ("staffed", "bool")],
            "delay": [("trainRef", "code"), ("minutesLate", "int"), ("reportedOn", "date"), ("cause", "str")],
            "signal": [("signalId", "code"), ("aspect", "str"), ("lastTestedOn", "date"), ("faulty", "bool")],
        },
        "statuses": ["scheduled", "boarding", "departed", "terminated"],
    },
}

STORE_WORDS = ["Store", "Registry", "Catalog", "Ledger", "Repository", "Index", "Book", "Roster"]
FORMAT_VERBS = ["format", "render", "describe", "present"]
FIND_VERBS = ["find", "lookup", "select", "search"]
COLLECTION_WORDS = ["items", "entries", "records", "rows"]
LISTENER_WORDS = ["listeners", "handlers", "subscribers", "watchers"]
SYL_ONSET = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "kl", "st", "tr", "gr"]
SYL_VOWEL = ["a", "e", "i", "o", "u", "ai", "ei", "ou"]
SYL_CODA = ["", "n", "r", "l", "s", "k", "m", "nd", "rt", "sk"]


def codename(rng: random.Random) -> str:
    return "".join(rng.choice(SYL_ONSET) + rng.choice(SYL_VOWEL) + rng.choice(SYL_CODA) for _ in range(2)).capitalize()


def cap(name: str) -> str:
    return name[0].upper() + name[1:]


def plural(name: str) -> str:
    if name.endswith("y") and name[-2] not in "aeiou":
        return name[:-1] + "ies"
    if name.endswith(("s", "x", "ch", "sh")):
        return name + "es"
    return name + "s"


def snake_upper(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper()


# --- the project -------------------------------------------------------------------------------


@dataclass
class Entity:
    name: str  # camelCase singular, e.g. "book"
    fields: list[tuple[str, str]]

    @property
    def cls(self) -> str:
        return cap(self.name)

    @property
    def many(self) -> str:
        return plural(self.name)

    def of_kind(self, *kinds: str) -> list[str]:
        return [f for f, k in self.fields if k in kinds]


@dataclass
class Project:
    seed: int
    domain: str
    code: str  # project codename
    entities: list[Entity]
    statuses: list[str]
    words: dict[str, str]
    files: dict[str, str] = field(default_factory=dict)
    exports: dict[str, list[str]] = field(default_factory=dict)  # file -> exported names
    signatures: dict[str, str] = field(default_factory=dict)  # exported function -> params
    numbers: dict[str, float] = field(default_factory=dict)  # exported numeric constants


class Writer:
    """Collects lines of one file in a chosen style (semicolons, quotes, indent)."""

    def __init__(self, style: dict[str, Any]):
        self.lines: list[str] = []
        self.style = style

    def q(self, text: str) -> str:
        quote = self.style["quote"]
        return quote + text.replace(quote, "\\" + quote) + quote

    def add(self, *lines: str) -> None:
        semi = self.style["semi"]
        for line in lines:
            if not semi and line.endswith(";") and not line.lstrip().startswith("for ("):
                line = line[:-1]
            self.lines.append(line)

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def text(self) -> str:
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n"


def sample_value(rng: random.Random, kind: str, fname: str) -> str:
    if kind == "int":
        return str(rng.randrange(1, 900))
    if kind == "float":
        return f"{rng.randrange(1, 9000) / 100:g}"
    if kind == "bool":
        return rng.choice(["true", "false"])
    if kind == "date":
        return f"'20{rng.randrange(10, 30)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}'"
    if kind == "code":
        return f"'{rng.choice('ABCDEFGHKMNPRSTVXZ')}{rng.choice('ABCDEFGHKMNPRSTVXZ')}-{rng.randrange(100, 9999)}'"
    return f"'{codename(rng)} {codename(rng)}'" if rng.random() < 0.5 else f"'{codename(rng)}'"


def make_project(seed: int, domain: str | None = None) -> Project:
    rng = random.Random(seed)
    drawn = rng.choice(sorted(DOMAINS))
    domain = domain or drawn
    spec = DOMAINS[domain]
    names = rng.sample(sorted(spec["entities"]), 3)
    entities = [Entity(n, rng.sample(spec["entities"][n], len(spec["entities"][n]))) for n in names]
    words = {
        "store": rng.choice(STORE_WORDS),
        "fmt": rng.choice(FORMAT_VERBS),
        "find": rng.choice(FIND_VERBS),
        "coll": rng.choice(COLLECTION_WORDS),
        "listeners": rng.choice(LISTENER_WORDS),
    }
    style = {"quote": rng.choice(["'", "'", '"']), "semi": rng.random() < 0.8}
    project = Project(seed, domain, codename(rng), entities, list(spec["statuses"]), words)
    emit_config(project, rng, style)
    for entity in entities:
        emit_entity(project, entity, rng, style)
    emit_store(project, rng, style)
    emit_format(project, rng, style)
    emit_validate(project, rng, style)
    emit_stats(project, rng, style)
    emit_events(project, rng, style)
    emit_dates(project, rng, style)
    emit_query(project, rng, style)
    emit_service(project, rng, style)
    _vary(project, rng)
    emit_fixtures(project, rng, style)
    emit_index(project, style, rng)
    # keep the rendered project within 25,000 characters: drop member notes, last file first
    for path in reversed(list(project.files)):
        while len(render_project(project)) > 24_900 and re.search(r"\n\s+// \w+: \w+ #\d+\n", project.files[path]):
            project.files[path] = re.sub(r"\n\s+// \w+: \w+ #\d+(?=\n)", "", project.files[path], count=1)
    return project


# Exported generic helpers get one of several names per project, and generic local names
# one of several spellings per file, so two projects never share long runs of text.
HELPER_ALIASES = {
    "sumBy": ["sumBy", "totalBy", "addUpBy", "sumOf"],
    "meanBy": ["meanBy", "averageBy", "avgBy", "meanOf"],
    "medianBy": ["medianBy", "middleBy", "medianOf"],
    "clamp": ["clamp", "bound", "clampTo", "limitTo"],
    "roundTo": ["roundTo", "roundOff", "toPlaces", "roundPlaces"],
    "histogram": ["histogram", "bucketCounts", "binCounts", "tally"],
    "sortBy": ["sortBy", "orderBy", "sortedBy", "rankBy"],
    "indexBy": ["indexBy", "keyBy", "mapBy", "lookupBy"],
    "uniqueBy": ["uniqueBy", "distinctBy", "dedupeBy", "firstBy"],
    "paginate": ["paginate", "pageOf", "slicePage", "pageSlice"],
    "padCell": ["padCell", "fitCell", "padColumn", "cellText"],
    "addDays": ["addDays", "shiftDays", "plusDays", "moveDays"],
    "daysBetween": ["daysBetween", "dayDiff", "daysApart", "spanDays"],
    "isWeekend": ["isWeekend", "isRestDay", "onWeekend", "isDayOff"],
    "startOfWeek": ["startOfWeek", "weekStart", "firstDayOfWeek", "weekOf"],
    "assertValid": ["assertValid", "ensureValid", "requireValid", "checkValid"],
}
LOCAL_NAMES = {
    "src/stats.js": {"list": ["list", "items", "rows", "entries", "source"], "pick": ["pick", "select", "getter", "read", "fieldOf", "measure", "accessor"],
                     "total": ["total", "acc", "running", "sum"], "values": ["values", "numbers", "series", "points", "ordered", "sortedValues"],
                     "mid": ["mid", "middle", "half", "centre"], "factor": ["factor", "scale", "power", "unit"],
                     "places": ["places", "decimals", "precision", "digits"], "low": ["low", "lo", "minimum", "floorValue"],
                     "high": ["high", "hi", "maximum", "ceilValue"], "width": ["width", "step", "span", "binWidth"],
                     "counts": ["counts", "bins", "tallies", "slots"], "buckets": ["buckets", "binCount", "slotsWanted", "groupsWanted"]},
    "src/query.js": {"list": ["list", "items", "rows", "entries", "source"], "pick": ["pick", "select", "getter", "read", "keyOf"],
                     "direction": ["direction", "order", "sign", "dir"], "index": ["index", "table", "lookup", "byKey"],
                     "seen": ["seen", "visited", "taken", "known"], "needle": ["needle", "wanted", "query", "term"],
                     "current": ["current", "clamped", "pageNo", "chosen"], "x": ["x", "left", "first", "p"], "y": ["y", "right", "second", "q"],
                     "size": ["size", "perPage", "pageSize", "limit"], "total": ["total", "pageCount", "lastPage", "howMany"]},
    "src/events.js": {"type": ["type", "name", "topic", "channel", "kind", "eventName"], "handler": ["handler", "fn", "callback", "listener", "cb", "observer"],
                      "payload": ["payload", "detail", "data", "message"], "stop": ["stop", "unsubscribe", "cancel", "dispose"]},
    "src/dates.js": {"date": ["date", "when", "moment", "day"], "days": ["days", "count", "amount", "n"], "weekday": ["weekday", "dow", "dayIndex", "wd"],
                     "shift": ["shift", "back", "offset", "delta"], "from": ["from", "start", "since", "begin"], "to": ["to", "end", "until", "stop"]},
    "src/format.js": {"digits": ["digits", "decimals", "fraction", "precision"], "columns": ["columns", "cols", "fields", "headings"],
                      "rows": ["rows", "records", "data", "table"], "c": ["c", "col", "name", "key"],
                      "header": ["header", "head", "titleRow", "top"], "body": ["body", "lines", "rowsText", "content"]},
    "src/validate.js": {"problems": ["problems", "issues", "errors", "faults"], "check": ["check", "validator", "rule", "test"]},
    "store": {"id": ["id", "key", "recordId", "ident"], "predicate": ["predicate", "keep", "accept", "matches"],
              "number": ["number", "pageNo", "n", "which"], "start": ["start", "offset", "from", "skip"],
              "groups": ["groups", "grouped", "byValue", "buckets"], "record": ["record", "entry", "stored", "instance"],
              "initial": ["initial", "seed", "records", "preset"]},
    "service": {"loader": ["loader", "source", "fetchRows", "provider"], "rows": ["rows", "batch", "incoming", "fetched"],
                "row": ["row", "raw", "input", "data"], "attempt": ["attempt", "tries", "round", "failures"],
                "wait": ["wait", "sleep", "pause", "delay"], "error": ["error", "err", "failure", "reason"],
                "ms": ["ms", "millis", "duration", "time"], "resolve": ["resolve", "done", "wake", "finish"]},
}


def _sub_names(text: str, mapping: dict[str, str]) -> str:
    """Rename identifiers: not properties (after '.', but after a '...' spread yes), not
    private names, not object keys ('name:'), not quoted words."""
    if not mapping:
        return text
    pattern = re.compile(r"(?<![\w$])(" + "|".join(sorted(map(re.escape, mapping), key=len, reverse=True)) + r")(?![\w$])")

    def replace(m: re.Match) -> str:
        before = text[max(0, m.start() - 3) : m.start()]
        after = text[m.end() : m.end() + 1]
        if before.endswith("#") or (before.endswith(".") and before != "...") or after == ":" or before[-1:] in "'\"" and after in "'\"":
            return m.group(1)
        return mapping[m.group(1)]

    return pattern.sub(replace, text)


def _vary(p: Project, rng: random.Random) -> None:
    aliases = {name: rng.choice(options) for name, options in HELPER_ALIASES.items()}
    taken = {n for names in p.exports.values() for n in names}
    aliases = {k: v for k, v in aliases.items() if v == k or v not in taken}
    p.words["aliases"] = aliases  # type: ignore[assignment]
    for path in list(p.files):
        text = _sub_names(p.files[path], {k: v for k, v in aliases.items() if k != v})
        local = {}
        key = "store" if path == p.words["store_path"] else "service" if path == p.words["service_path"] else path
        for name, options in LOCAL_NAMES.get(key, {}).items():
            choice = rng.choice(options)
            if choice != name and not re.search(r"(?<![\w$])" + re.escape(choice) + r"(?![\w$])", text):
                local[name] = choice
        text = _sub_names(text, local)
        p.files[path] = _annotate(text, p, rng, path)
    p.exports = {path: [aliases.get(n, n) for n in names] for path, names in p.exports.items()}
    p.signatures = {aliases.get(n, n): params for n, params in p.signatures.items()}


NOTE_OPENERS = ["Used by", "Shared by", "Called from", "Helps", "Serves"]
NOTE_TAILS = ["code", "reports", "screens", "jobs", "imports", "checks", "tools", "views"]


def _annotate(text: str, p: Project, rng: random.Random, path: str) -> str:
    """A one-line comment with project words before every top-level function or class."""
    out = []
    for line in text.split("\n"):
        m = re.match(r"export (?:async )?(?:function\*?|class|const) (\w+)", line)
        member = re.match(r"(\s+)(?:static |get |set |async )?(#?\w+)\(.*\) \{$", line)
        if m and not (out and out[-1].startswith("//")):
            entity = rng.choice(p.entities)
            out.append(f"// {m.group(1)}: {rng.choice(NOTE_OPENERS).lower()} {p.code} {entity.name} {rng.choice(NOTE_TAILS)}.")
        elif member and member.group(2) not in ("if", "for", "while", "switch", "catch") and not out[-1].strip().startswith("//") and rng.random() < 0.7:
            out.append(f"{member.group(1)}// {p.code}: {rng.choice(NOTE_TAILS)} #{rng.randrange(2, 99)}")
        out.append(line)
    return "\n".join(out)


def _export(project: Project, path: str, name: str, params: str | None = None) -> None:
    project.exports.setdefault(path, []).append(name)
    if params is not None:
        project.signatures[name] = params


def emit_config(p: Project, rng: random.Random, style: dict) -> None:
    path = "src/config.js"
    w = Writer(style)
    code = p.code.upper()
    w.add(f"// Settings shared by every {p.code} module.", "")
    version = f"{rng.randrange(1, 6)}.{rng.randrange(0, 20)}.{rng.randrange(0, 30)}"
    w.add(f"export const {code}_VERSION = {w.q(version)};")
    _export(p, path, f"{code}_VERSION")
    for entity in p.entities:
        for fname in entity.of_kind("int", "float")[:2]:
            const = f"MAX_{snake_upper(entity.name)}_{snake_upper(fname)}"
            value = rng.randrange(50, 5000) if dict(entity.fields)[fname] == "int" else rng.randrange(100, 99999) / 100
            w.add(f"export const {const} = {value:g};")
            _export(p, path, const)
            p.numbers[const] = value
    page = rng.choice([10, 20, 25, 50, 100])
    w.add(f"export const PAGE_SIZE = {page};")
    _export(p, path, "PAGE_SIZE")
    p.numbers["PAGE_SIZE"] = page
    retry = rng.choice([250, 500, 750, 1000, 1500])
    w.add(f"export const RETRY_DELAY_MS = {retry};")
    _export(p, path, "RETRY_DELAY_MS")
    p.numbers["RETRY_DELAY_MS"] = retry
    w.blank()
    statuses = ", ".join(w.q(s) for s in p.statuses)
    w.add(f"export const {snake_upper(p.domain)}_STATUSES = Object.freeze([{statuses}]);")
    _export(p, path, f"{snake_upper(p.domain)}_STATUSES")
    w.blank()
    w.add(f"export const {p.code.lower()}Defaults = {{")
    for entity in p.entities:
        w.add(f"  {entity.name}: {{")
        for fname, kind in entity.fields[:3]:
            w.add(f"    {fname}: {sample_value(rng, kind, fname)},")
        w.add("  },")
    w.add(f"  locale: {w.q(rng.choice(['en-GB', 'en-US', 'de-DE', 'fr-FR', 'nl-NL']))},")
    w.add(f"  timeoutMs: {rng.randrange(2, 30) * 1000},")
    w.add("};")
    _export(p, path, f"{p.code.lower()}Defaults")
    w.blank()
    w.add(f"export function {p.code.lower()}Setting(key, fallback = null) {{")
    w.add(f"  const [group, name] = key.split({w.q('.')});")
    w.add(f"  const section = {p.code.lower()}Defaults[group];")
    w.add("  if (!section || !(name in section)) {")
    w.add("    return fallback;")
    w.add("  }")
    w.add("  return section[name];")
    w.add("}")
    _export(p, path, f"{p.code.lower()}Setting", "key, fallback")
    p.files[path] = w.text()


def emit_entity(p: Project, e: Entity, rng: random.Random, style: dict) -> None:
    path = f"src/{e.name}.js"
    w = Writer(style)
    cls = e.cls
    fields = [f for f, _ in e.fields]
    kinds = dict(e.fields)
    w.add(f"// The {e.name} record of the {p.domain} model.", "")
    w.add(f"import {{ {p.code.lower()}Defaults }} from {w.q('./config.js')};", "")
    w.add(f"let next{cls}Number = {rng.randrange(1, 500)};", "")
    w.add(f"export class {cls} {{")
    w.add(f"  constructor({{ {', '.join(f'{f} = {p.code.lower()}Defaults.{e.name}.{f}' if f in [x for x, _ in e.fields[:3]] else f for f in fields)} }} = {{}}) {{")
    w.add(f"    this.id = {w.q(e.name[:3] + '-')} + next{cls}Number++;")
    for f in fields:
        if kinds[f] == "date":
            w.add(f"    this.{f} = {f} ? new Date({f}) : null;")
        elif kinds[f] == "bool":
            w.add(f"    this.{f} = Boolean({f});")
        elif kinds[f] in ("int", "float"):
            w.add(f"    this.{f} = Number({f} ?? 0);")
        else:
            w.add(f"    this.{f} = {f} ?? {w.q('')};")
    w.add("  }", "")
    nums = e.of_kind("int", "float")
    bools = e.of_kind("bool")
    dates = e.of_kind("date")
    strs = e.of_kind("str", "code")
    if dates:
        d = dates[0]
        w.add(f"  get {d}Year() {{", f"    return this.{d} ? this.{d}.getFullYear() : null;", "  }", "")
    if nums:
        n = nums[0]
        factor = rng.choice([2, 3, 10, 12, 100])
        w.add(f"  scaled{cap(n)}(factor = {factor}) {{", f"    return Math.round(this.{n} * factor) / factor;", "  }", "")
    if bools:
        b = bools[0]
        w.add(f"  toggle{cap(b)}() {{", f"    this.{b} = !this.{b};", "    return this;", "  }", "")
    w.add(f"  with{cap(fields[0])}(value) {{", f"    return new {cls}({{ ...this.toJSON(), {fields[0]}: value }});", "  }", "")
    w.add("  toJSON() {", "    return {")
    for f in fields:
        w.add(f"      {f}: this.{f}{'?.toISOString().slice(0, 10) ?? null' if kinds[f] == 'date' else ''},")
    w.add("    };", "  }", "")
    w.add(f"  static from{rng.choice(['Record', 'Row', 'Object', 'Json'])}(record) {{", f"    return new {cls}(record ?? {{}});", "  }", "}")
    _export(p, path, cls)
    w.blank()
    w.add(f"export function create{cls}(fields = {{}}) {{", f"  return new {cls}(fields);", "}")
    _export(p, path, f"create{cls}", "fields")
    if nums:
        n = nums[-1]
        w.blank()
        w.add(f"export function compare{plural(cls)}By{cap(n)}(a, b) {{", f"  return a.{n} - b.{n};", "}")
        _export(p, path, f"compare{plural(cls)}By{cap(n)}", "a, b")
    if strs:
        s = strs[0]
        w.blank()
        w.add(f"export function {e.name}{cap(s)}Key({e.name}) {{", f"  return String({e.name}.{s}).trim().toLowerCase();", "}")
        _export(p, path, f"{e.name}{cap(s)}Key", e.name)
    if bools and len(bools) > 0:
        b = bools[-1]
        w.blank()
        w.add(f"export function count{cap(b)}{plural(cls)}(list) {{", f"  return list.filter((item) => item.{b}).length;", "}")
        _export(p, path, f"count{cap(b)}{plural(cls)}", "list")
    p.files[path] = w.text()


def emit_store(p: Project, rng: random.Random, style: dict) -> None:
    main = p.entities[0]
    cls = f"{main.cls}{p.words['store']}"
    path = f"src/{main.name}{p.words['store']}.js"
    coll = p.words["coll"]
    w = Writer(style)
    w.add(f"// An in-memory {p.words['store'].lower()} of {main.many}.", "")
    w.add(f"import {{ {main.cls} }} from {w.q('./' + main.name + '.js')};", f"import {{ PAGE_SIZE }} from {w.q('./config.js')};", "")
    w.add(f"export class {cls} {{")
    w.add(f"  #{coll} = new Map();", "")
    w.add(f"  add({main.name}) {{")
    w.add(f"    const record = {main.name} instanceof {main.cls} ? {main.name} : new {main.cls}({main.name});")
    w.add(f"    this.#{coll}.set(record.id, record);")
    w.add("    return record;", "  }", "")
    w.add("  get(id) {", f"    return this.#{coll}.get(id) ?? null;", "  }", "")
    w.add("  remove(id) {", f"    return this.#{coll}.delete(id);", "  }", "")
    w.add("  get size() {", f"    return this.#{coll}.size;", "  }", "")
    w.add("  list(predicate = () => true) {", f"    return [...this.#{coll}.values()].filter(predicate);", "  }", "")
    w.add("  page(number = 1, size = PAGE_SIZE) {", "    const start = (number - 1) * size;", "    return this.list().slice(start, start + size);", "  }")
    methods = []
    for fname in [f for f, _ in main.fields][:3]:
        name = f"{p.words['find']}By{cap(fname)}"
        w.add("", f"  {name}(value) {{", f"    return this.list((item) => item.{fname} === value);", "  }")
        methods.append(name)
    group_field = [f for f, k in main.fields if k in ("str", "bool", "code")][0]
    w.add("", f"  groupBy{cap(group_field)}() {{", "    const groups = new Map();", f"    for (const item of this.#{coll}.values()) {{")
    w.add(f"      const key = item.{group_field};", "      if (!groups.has(key)) {", "        groups.set(key, []);", "      }", "      groups.get(key).push(item);", "    }", "    return groups;", "  }", "}")
    _export(p, path, cls)
    w.blank()
    w.add(f"export function create{cls}(initial = []) {{", f"  const store = new {cls}();", "  for (const record of initial) {", "    store.add(record);", "  }", "  return store;", "}")
    _export(p, path, f"create{cls}", "initial")
    p.files[path] = w.text()
    p.words["store_cls"] = cls
    p.words["store_path"] = path
    p.words["store_methods"] = ",".join(methods)
    p.words["group_field"] = group_field


def emit_format(p: Project, rng: random.Random, style: dict) -> None:
    path = "src/format.js"
    verb = p.words["fmt"]
    w = Writer(style)
    w.add(f"// Text output for {p.code} reports.", "")
    w.add(f"import {{ {p.code.lower()}Defaults }} from {w.q('./config.js')};", "")
    w.add(f"export function {verb}Number(value, digits = {rng.choice([0, 1, 2])}) {{")
    w.add(f"  return new Intl.NumberFormat({p.code.lower()}Defaults.locale, {{ maximumFractionDigits: digits }}).format(value);", "}")
    _export(p, path, f"{verb}Number", "value, digits")
    w.blank()
    w.add(f"export function {verb}Date(date) {{", "  if (!date) {", f"    return {w.q('-')};", "  }", "  const d = date instanceof Date ? date : new Date(date);")
    w.add(f"  return d.toISOString().slice(0, 10);", "}")
    _export(p, path, f"{verb}Date", "date")
    w.blank()
    width = rng.choice([8, 10, 12, 16])
    w.add(f"export function padCell(text, width = {width}) {{", "  const value = String(text);", f"  return value.length >= width ? value.slice(0, width) : value.padEnd(width, {w.q(' ')});", "}")
    _export(p, path, "padCell", "text, width")
    for entity in p.entities:
        fields = [f for f, _ in entity.fields]
        kinds = dict(entity.fields)
        name = f"{verb}{entity.cls}"
        w.blank()
        w.add(f"export function {name}({entity.name}) {{")
        parts = []
        for f in fields[:4]:
            if kinds[f] == "date":
                parts.append(f"${{{verb}Date({entity.name}.{f})}}")
            elif kinds[f] in ("int", "float"):
                parts.append(f"${{{verb}Number({entity.name}.{f})}}")
            elif kinds[f] == "bool":
                parts.append(f"${{{entity.name}.{f} ? {w.q(f)} : {w.q('not ' + f)}}}")
            else:
                parts.append(f"${{{entity.name}.{f}}}")
        sep = rng.choice([" | ", " / ", ", ", " - "])
        w.add(f"  return `{sep.join(parts)}`;", "}")
        _export(p, path, name, entity.name)
    w.blank()
    table = f"{verb}Table"
    w.add(f"export function {table}(rows, columns) {{", "  const header = columns.map((c) => padCell(c)).join(' ');")
    w.add("  const body = rows.map((row) => columns.map((c) => padCell(row[c] ?? '')).join(' '));", "  return [header, ...body].join('\\n');", "}")
    _export(p, path, table, "rows, columns")
    p.files[path] = w.text()


def emit_validate(p: Project, rng: random.Random, style: dict) -> None:
    path = "src/validate.js"
    w = Writer(style)
    w.add(f"// Input checks for {p.code} records.", "")
    consts = [n for n in p.exports.get("src/config.js", []) if n.startswith("MAX_")]
    if consts:
        w.add(f"import {{ {', '.join(consts)} }} from {w.q('./config.js')};", "")
    err = f"{p.code}ValidationError"
    w.add(f"export class {err} extends Error {{", "  constructor(field, message) {", "    super(`${field}: ${message}`);", f"    this.name = {w.q(err)};", "    this.field = field;", "  }", "}")
    _export(p, path, err)
    code_re = rng.choice([r"/^[A-Z]{2}-\d{3,4}$/", r"/^[A-Z]{2}-[0-9]{3,4}$/", r"/^[A-Z][A-Z]-\d+$/"])
    w.blank()
    w.add(f"export const CODE_PATTERN = {code_re};")
    _export(p, path, "CODE_PATTERN")
    for entity in p.entities:
        kinds = dict(entity.fields)
        name = f"validate{entity.cls}"
        w.blank()
        w.add(f"export function {name}({entity.name}) {{", "  const problems = [];")
        for f, kind in entity.fields:
            if kind == "code":
                w.add(f"  if (!CODE_PATTERN.test({entity.name}.{f})) {{", f"    problems.push(new {err}({w.q(f)}, {w.q('bad code')}));", "  }")
            elif kind in ("int", "float"):
                limit = f"MAX_{snake_upper(entity.name)}_{snake_upper(f)}"
                bound = f" || {entity.name}.{f} > {limit}" if limit in consts else ""
                w.add(f"  if ({entity.name}.{f} < 0{bound}) {{", f"    problems.push(new {err}({w.q(f)}, {w.q('out of range')}));", "  }")
            elif kind == "str":
                w.add(f"  if (!{entity.name}.{f} || {entity.name}.{f}.length > {rng.choice([40, 60, 80, 120])}) {{", f"    problems.push(new {err}({w.q(f)}, {w.q('missing or too long')}));", "  }")
        w.add("  return problems;", "}")
        _export(p, path, name, entity.name)
        del kinds
    w.blank()
    w.add(f"export function assertValid(record, check) {{", "  const problems = check(record);", "  if (problems.length > 0) {", "    throw problems[0];", "  }", "  return record;", "}")
    _export(p, path, "assertValid", "record, check")
    p.files[path] = w.text()


def emit_stats(p: Project, rng: random.Random, style: dict) -> None:
    path = "src/stats.js"
    w = Writer(style)
    w.add(f"// Small numeric helpers used across {p.code}.", "")
    w.add("export function sumBy(list, pick) {", "  return list.reduce((total, item) => total + Number(pick(item) ?? 0), 0);", "}")
    _export(p, path, "sumBy", "list, pick")
    w.blank()
    w.add("export function meanBy(list, pick) {", "  return list.length === 0 ? 0 : sumBy(list, pick) / list.length;", "}")
    _export(p, path, "meanBy", "list, pick")
    w.blank()
    w.add("export function medianBy(list, pick) {", "  const values = list.map(pick).sort((a, b) => a - b);", "  if (values.length === 0) {", "    return 0;", "  }")
    w.add("  const mid = Math.floor(values.length / 2);", "  return values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;", "}")
    _export(p, path, "medianBy", "list, pick")
    w.blank()
    w.add("export function clamp(value, low, high) {", "  return Math.min(high, Math.max(low, value));", "}")
    _export(p, path, "clamp", "value, low, high")
    w.blank()
    places = rng.choice([1, 2, 3])
    w.add(f"export function roundTo(value, places = {places}) {{", "  const factor = 10 ** places;", "  return Math.round(value * factor) / factor;", "}")
    _export(p, path, "roundTo", "value, places")
    for entity in p.entities:
        for fname in entity.of_kind("int", "float")[:1]:
            name = f"total{cap(fname)}"
            if name in p.signatures:
                continue
            w.blank()
            w.add(f"export function {name}({entity.many}) {{", f"  return sumBy({entity.many}, (item) => item.{fname});", "}")
            _export(p, path, name, entity.many)
    w.blank()
    w.add("export function histogram(values, buckets = " + str(rng.choice([4, 5, 8, 10])) + ") {")
    w.add("  if (values.length === 0) {", "    return [];", "  }", "  const low = Math.min(...values);", "  const high = Math.max(...values);")
    w.add("  const width = (high - low) / buckets || 1;", "  const counts = new Array(buckets).fill(0);", "  for (const value of values) {")
    w.add("    counts[clamp(Math.floor((value - low) / width), 0, buckets - 1)] += 1;", "  }", "  return counts;", "}")
    _export(p, path, "histogram", "values, buckets")
    p.files[path] = w.text()


def emit_events(p: Project, rng: random.Random, style: dict) -> None:
    path = "src/events.js"
    lis = p.words["listeners"]
    cls = f"{p.code}Events"
    w = Writer(style)
    w.add(f"// A tiny event hub for {p.code}.", "")
    w.add(f"export class {cls} {{", f"  #{lis} = new Map();", "")
    w.add("  on(type, handler) {", f"    if (!this.#{lis}.has(type)) {{", f"      this.#{lis}.set(type, new Set());", "    }", f"    this.#{lis}.get(type).add(handler);", "    return () => this.off(type, handler);", "  }", "")
    w.add("  off(type, handler) {", f"    this.#{lis}.get(type)?.delete(handler);", "  }", "")
    w.add("  once(type, handler) {", "    const stop = this.on(type, (payload) => {", "      stop();", "      handler(payload);", "    });", "    return stop;", "  }", "")
    w.add("  emit(type, payload) {", f"    for (const handler of this.#{lis}.get(type) ?? []) {{", "      handler(payload);", "    }", f"    return this.#{lis}.get(type)?.size ?? 0;", "  }", "}")
    _export(p, path, cls)
    w.blank()
    evs = {f"{e.name}{suffix}": f"{p.code.lower()}:{e.name}:{suffix.lower()}" for e in p.entities for suffix in ("Added", "Changed")}
    w.add(f"export const {snake_upper(p.code)}_EVENTS = Object.freeze({{")
    for k, v in evs.items():
        w.add(f"  {snake_upper(k)}: {w.q(v)},")
    w.add("});")
    _export(p, path, f"{snake_upper(p.code)}_EVENTS")
    p.words["events_const"] = f"{snake_upper(p.code)}_EVENTS"
    p.words["events_keys"] = ",".join(snake_upper(k) for k in evs)
    p.files[path] = w.text()


def emit_index(p: Project, style: dict, rng: random.Random) -> None:
    path = "src/index.js"
    w = Writer(style)
    w.add(f"// Public entry point of {p.code}.", "")
    for file, names in p.exports.items():
        shown = list(names)
        rng.shuffle(shown)
        w.add(f"export {{ {', '.join(shown)} }} from {w.q('./' + file.removeprefix('src/'))};")
    p.files[path] = w.text()


def emit_dates(p: Project, rng: random.Random, style: dict) -> None:
    path = "src/dates.js"
    w = Writer(style)
    day = rng.choice(["DAY_MS", "MS_PER_DAY", "ONE_DAY_MS"])
    w.add(f"// Calendar arithmetic for {p.code} (UTC dates).", "")
    w.add(f"export const {day} = 24 * 60 * 60 * 1000;")
    _export(p, path, day)
    w.blank()
    w.add("export function addDays(date, days) {", f"  return new Date(new Date(date).getTime() + days * {day});", "}")
    _export(p, path, "addDays", "date, days")
    w.blank()
    w.add("export function daysBetween(from, to) {", f"  return Math.round((new Date(to) - new Date(from)) / {day});", "}")
    _export(p, path, "daysBetween", "from, to")
    w.blank()
    weekend = rng.choice([(0, 6), (5, 6), (0,)])
    w.add("export function isWeekend(date) {", "  const weekday = new Date(date).getUTCDay();", f"  return {' || '.join(f'weekday === {d}' for d in weekend)};", "}")
    _export(p, path, "isWeekend", "date")
    w.blank()
    first = rng.choice([0, 1])
    w.add("export function startOfWeek(date) {", "  const d = new Date(date);", f"  const shift = (d.getUTCDay() + 7 - {first}) % 7;", "  return addDays(d, -shift);", "}")
    _export(p, path, "startOfWeek", "date")
    dated = [(e, f) for e in p.entities for f in e.of_kind("date")]
    for entity, fname in dated[:2]:
        name = f"{entity.many}{cap(fname)}Between"
        w.blank()
        w.add(f"export function {name}({entity.many}, from, to) {{", f"  return {entity.many}.filter((item) => item.{fname} && item.{fname} >= new Date(from) && item.{fname} < new Date(to));", "}")
        _export(p, path, name, f"{entity.many}, from, to")
    p.files[path] = w.text()


def emit_query(p: Project, rng: random.Random, style: dict) -> None:
    path = "src/query.js"
    w = Writer(style)
    w.add(f"// Sorting, filtering and paging of {p.code} lists.", "")
    w.add("import { PAGE_SIZE } from " + w.q("./config.js") + ";", "")
    w.add("export function sortBy(list, pick, direction = 1) {", "  return [...list].sort((a, b) => {", "    const x = pick(a);", "    const y = pick(b);")
    w.add("    return x < y ? -direction : x > y ? direction : 0;", "  });", "}")
    _export(p, path, "sortBy", "list, pick, direction")
    w.blank()
    w.add("export function indexBy(list, pick) {", "  const index = new Map();", "  for (const item of list) {", "    index.set(pick(item), item);", "  }", "  return index;", "}")
    _export(p, path, "indexBy", "list, pick")
    w.blank()
    w.add("export function uniqueBy(list, pick) {", "  const seen = new Set();", "  return list.filter((item) => {", "    const key = pick(item);")
    w.add("    if (seen.has(key)) {", "      return false;", "    }", "    seen.add(key);", "    return true;", "  });", "}")
    _export(p, path, "uniqueBy", "list, pick")
    w.blank()
    w.add("export function paginate(list, page = 1, size = PAGE_SIZE) {", "  const total = Math.max(1, Math.ceil(list.length / size));", "  const current = Math.min(Math.max(1, page), total);")
    w.add("  return { page: current, pages: total, items: list.slice((current - 1) * size, current * size) };", "}")
    _export(p, path, "paginate", "list, page, size")
    for entity in p.entities:
        strs = entity.of_kind("str", "code")
        if not strs:
            continue
        fname = rng.choice(strs)
        name = f"{p.words['find']}{plural(entity.cls)}Matching"
        w.blank()
        w.add(f"export function {name}({entity.many}, text) {{", "  const needle = text.trim().toLowerCase();", f"  return {entity.many}.filter((item) => String(item.{fname}).toLowerCase().includes(needle));", "}")
        _export(p, path, name, f"{entity.many}, text")
    p.files[path] = w.text()


def emit_service(p: Project, rng: random.Random, style: dict) -> None:
    main = p.entities[0]
    store_cls = p.words["store_cls"]
    noun = rng.choice(["Service", "Manager", "Coordinator", "Desk"])
    cls = f"{main.cls}{noun}"
    path = f"src/{main.name}{noun}.js"
    ev = p.words["events_const"]
    w = Writer(style)
    w.add(f"// Business rules around {main.many}: validation, storage and events.", "")
    w.add(f"import {{ {store_cls} }} from {w.q('./' + p.words['store_path'].removeprefix('src/'))};")
    w.add(f"import {{ validate{main.cls}, assertValid }} from {w.q('./validate.js')};")
    w.add(f"import {{ {p.code}Events, {ev} }} from {w.q('./events.js')};")
    w.add(f"import {{ RETRY_DELAY_MS }} from {w.q('./config.js')};", "")
    w.add("const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));", "")
    w.add(f"export class {cls} {{")
    w.add(f"  constructor({{ store = new {store_cls}(), events = new {p.code}Events(), retries = {rng.randrange(1, 5)} }} = {{}}) {{")
    w.add("    this.store = store;", "    this.events = events;", "    this.retries = retries;", "  }", "")
    w.add(f"  register(input) {{", f"    const record = assertValid(this.store.add(input), validate{main.cls});", f"    this.events.emit({ev}.{snake_upper(main.name)}_ADDED, record);", "    return record;", "  }", "")
    fname = [f for f, _ in main.fields][0]
    w.add(f"  update{cap(fname)}(id, value) {{", "    const record = this.store.get(id);", "    if (!record) {", f"      throw new Error(`unknown {main.name} ${{id}}`);", "    }")
    w.add(f"    record.{fname} = value;", f"    this.events.emit({ev}.{snake_upper(main.name)}_CHANGED, record);", "    return record;", "  }", "")
    w.add("  async importAll(loader) {", "    let attempt = 0;", "    while (true) {", "      try {", "        const rows = await loader();", "        return rows.map((row) => this.register(row));")
    w.add("      } catch (error) {", "        attempt += 1;", "        if (attempt > this.retries) {", "          throw error;", "        }", "        await wait(RETRY_DELAY_MS * attempt);", "      }", "    }", "  }", "}")
    _export(p, path, cls)
    p.files[path] = w.text()
    p.words["service_cls"] = cls
    p.words["service_path"] = path


def emit_fixtures(p: Project, rng: random.Random, style: dict) -> None:
    """Sample records, added one at a time until the rendered project reaches a length
    drawn from 20,500-24,500 characters."""
    path = "src/fixtures.js"
    target = rng.randrange(20_500, 24_500)
    header = [f"// Sample {p.domain} data for demos and tests.", ""]
    imports = f"import {{ {', '.join(f'create{e.cls}' for e in p.entities)} }} from {Writer(style).q('./index.js')};"
    records: dict[str, list[str]] = {e.name: [] for e in p.entities}

    def text() -> str:
        w = Writer(style)
        w.add(*header, imports, "")
        for entity in p.entities:
            w.add(f"export const sample{plural(entity.cls)} = [", *records[entity.name], "];", "")
        return w.text()

    others = sum(len(f"// File: {path}\n{body}") + 1 for path, body in p.files.items())
    index_estimate = 30 + sum(len(", ".join(names)) + 40 for names in p.exports.values()) + 60
    k = 0
    while k < 2 * len(p.entities) or others + len(text()) + len(f"// File: {path}\n") + index_estimate < target:
        entity = p.entities[k % len(p.entities)]
        fields = ", ".join(f"{f}: {sample_value(rng, kind, f)}" for f, kind in entity.fields)
        records[entity.name].append(f"  create{entity.cls}({{ {fields} }}),")
        k += 1
    p.files[path] = text()
    for entity in p.entities:
        _export(p, path, f"sample{plural(entity.cls)}")

def render_project(p: Project) -> str:
    order = (["src/config.js"] + [f"src/{e.name}.js" for e in p.entities]
             + [p.words["store_path"], "src/format.js", "src/validate.js", "src/stats.js", "src/events.js", "src/dates.js", "src/query.js",
                p.words["service_path"], "src/fixtures.js", "src/index.js"])
    assert sorted(order) == sorted(p.files)
    return "\n".join(f"// File: {path}\n{p.files[path]}" for path in order)


# --- identifiers read back from source -----------------------------------------------------------

JS_RESERVED = frozenset(
    """break case catch class const continue debugger default delete do else export extends false finally for
    function if import in instanceof new null return super switch this throw true try typeof var void while with
    yield let static async await of get set from as undefined""".split()
)
_TOKEN = re.compile(
    r"""(?P<ws>\s+)|(?P<comment>//[^\n]*|/\*.*?\*/)|(?P<str>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|(?P<tpl>`(?:[^`\\]|\\.)*`)"""
    r"""|(?P<num>\d[\w.]*)|(?P<id>[A-Za-z_$][\w$]*)|(?P<regex>/(?:[^/\\\n]|\\.)+/[a-z]*)|(?P<p>\?\.|\?\?|=>|\.\.\.|[^\s])""",
    re.S,
)


def js_tokens(source: str) -> list[str]:
    """Identifier, number and punctuation tokens; strings, comments and regexes skipped,
    template literals reduced to the identifiers inside their ${...} expressions."""
    out: list[str] = []
    prev = ""
    for m in _TOKEN.finditer(source):
        kind = m.lastgroup
        text = m.group()
        if kind in ("ws", "comment", "str"):
            continue
        if kind == "regex" and prev not in ("(", "=", ",", ":", "[", "!", "&", "|", "?", "{", ";", "return"):
            out.append("/")  # a division, not a regular expression
            out.extend(js_tokens(text[1:]))
            prev = out[-1] if out else ""
            continue
        if kind == "regex":
            prev = "/regex/"
            continue
        if kind == "tpl":
            for expr in re.findall(r"\$\{([^}]*)\}", text):
                out.extend(js_tokens(expr))
            prev = "`"
            continue
        out.append(text)
        prev = text
    return out


def declared_identifiers(source: str) -> list[str]:
    """Every identifier the source defines or exports, sorted: names after function,
    class, const, let, var, as, get, set, static and # (private fields); parameters of
    functions, methods, arrow functions and catch clauses; names inside destructuring
    patterns and import/export braces; method definitions; object-literal keys; and
    properties assigned through a member expression (this.field = ...)."""
    toks = js_tokens(source)
    names: set[str] = set()
    ident = re.compile(r"[A-Za-z_$][\w$]*$")
    n = len(toks)
    for i, t in enumerate(toks):
        if not ident.match(t) or t in JS_RESERVED:
            continue
        prev = toks[i - 1] if i else ""
        nxt = toks[i + 1] if i + 1 < n else ""
        if prev in ("function", "class", "const", "let", "var", "as", "#", "get", "set", "static"):
            names.add(t)
        elif prev == "." and nxt == "=" and toks[i + 2 : i + 3] != ["="]:
            names.add(t)  # obj.field = value
        elif prev == ".":
            continue  # a property read: defined (or not) elsewhere
        elif nxt == ":" and prev in ("{", ","):
            names.add(t)  # object key
        elif nxt == "(" and _after_close(toks, i + 1) == "{" and prev in ("{", "}", ";", "async", "static", "get", "set", ""):
            names.add(t)  # method definition
        elif nxt == "=>":
            names.add(t)  # x => ...
        elif prev == "(" and i >= 2 and toks[i - 2] == "catch":
            names.add(t)
        elif nxt in (",", ")", "=", "}", "]") and (_inside_params(toks, i) or _inside_pattern(toks, i)):
            names.add(t)
    return sorted(names)


def _after_close(toks: list[str], j: int) -> str:
    k = _matching_close(toks, j)
    return toks[k + 1] if k is not None and k + 1 < len(toks) else ""


def _enclosing(toks: list[str], i: int) -> int | None:
    """Index of the innermost unclosed bracket before token i."""
    depth = 0
    for j in range(i - 1, -1, -1):
        t = toks[j]
        if t in (")", "]", "}"):
            depth += 1
        elif t in ("(", "[", "{"):
            if depth == 0:
                return j
            depth -= 1
    return None


def _inside_params(toks: list[str], i: int) -> bool:
    """Is token i a name in the parameter list of a function, method or arrow function
    (directly, not inside a default value's call)?"""
    j = _enclosing(toks, i)
    if j is None:
        return False
    if toks[j] in ("{", "["):
        return _inside_pattern(toks, i)
    before = toks[j - 1] if j else ""
    if before == "function" or (j >= 2 and toks[j - 2] == "function"):
        return True
    return _after_close(toks, j) in ("{", "=>") and before not in ("if", "for", "while", "switch", "catch", "return")


def _inside_pattern(toks: list[str], i: int) -> bool:
    """Is token i inside a destructuring pattern or import/export braces?"""
    j = _enclosing(toks, i)
    if j is None or toks[j] not in ("{", "["):
        return False
    before = toks[j - 1] if j else ""
    if before in ("import", "export", "const", "let", "var"):
        return True
    if before in ("(", ","):
        return _inside_params(toks, j)
    return False


def _matching_close(toks: list[str], j: int) -> int | None:
    pairs = {"(": ")", "[": "]", "{": "}"}
    want = pairs.get(toks[j])
    if want is None:
        return None
    depth = 0
    for k in range(j, len(toks)):
        if toks[k] == toks[j]:
            depth += 1
        elif toks[k] == want:
            depth -= 1
            if depth == 0:
                return k
    return None


# --- reference modules (intact generations) ----------------------------------------------------

PURPOSES = {
    "Report": "builds a plain-text report",
    "Audit": "checks the records for problems and summarises them",
    "Planner": "plans upcoming work from the records",
    "Importer": "imports raw rows, validates them and registers them",
    "Dashboard": "computes the figures a dashboard shows",
    "Exporter": "exports the records as CSV and JSON",
    "Reconciler": "compares two lists of records and reports the differences",
    "Scheduler": "schedules recurring checks with timers",
}


@dataclass
class Task:
    path: str
    kind: str
    purpose: str
    entity: Entity
    min_lines: int
    max_lines: int


def make_task(p: Project, rng: random.Random, min_lines: int, max_lines: int) -> Task:
    kind = rng.choice(sorted(PURPOSES))
    entity = rng.choice(p.entities)
    return Task(f"src/{entity.name}{kind}.js", kind, f"{PURPOSES[kind]} for {entity.many}", entity, min_lines, max_lines)


def task_text(p: Project, task: Task) -> str:
    return (
        f"Write one new module for this project: {task.path}, which {task.purpose}. "
        f"It must be a complete ES module of {task.min_lines} to {task.max_lines} lines. "
        f"Import at least six named exports from the {p.code} files, with relative paths from src/. "
        f"Leave the existing files of {p.code} unchanged.\n"
        f"Reply with the contents of {task.path} only: no explanation before or after it."
    )


def _style(rng: random.Random) -> dict[str, Any]:
    return {
        "quote": rng.choice(["'", "'", '"']),
        "semi": rng.random() < 0.75,
        "indent": rng.choice([2, 2, 4]),
        "arrow": rng.random() < 0.4,
        "jsdoc": rng.random() < 0.5,
    }


class ModuleWriter(Writer):
    def text(self) -> str:
        body = super().text()
        if self.style.get("indent", 2) == 2:
            return body
        out = []
        for line in body.split("\n"):
            stripped = line.lstrip(" ")
            out.append(" " * ((len(line) - len(stripped)) * 2) + stripped)
        return "\n".join(out)


def reference_module(p: Project, task: Task, rng: random.Random, style: dict[str, Any] | None = None) -> str:
    """An intact module for `task`, between task.min_lines and task.max_lines lines, that
    imports at least six named exports (a draw that uses fewer is redrawn)."""
    style = style or _style(rng)
    for _ in range(50):
        try:
            return _reference_module(p, task, rng, style)
        except _Redraw:
            continue
    raise ValueError(f"could not write a module for {task.path} with six imports in {task.min_lines}-{task.max_lines} lines")


class _Redraw(Exception):
    pass


def _reference_module(p: Project, task: Task, rng: random.Random, style: dict[str, Any]) -> str:
    e = task.entity
    verb = p.words["fmt"]
    nums = e.of_kind("int", "float") or [f for e2 in p.entities for f in e2.of_kind("int", "float")][:1]
    strs = e.of_kind("str", "code") or ["id"]
    dates = e.of_kind("date")
    bools = e.of_kind("bool")
    num = nums[0] if nums else "id"
    group = strs[0]
    sample = f"sample{plural(e.cls)}"
    imports: dict[str, list[str]] = {}
    pending: list[tuple[str, str]] = []  # imports of the block being written

    def use(path: str, name: str) -> str:
        name = p.words.get("aliases", {}).get(name, name)  # type: ignore[union-attr]
        assert name in p.exports[path], (path, name)
        pending.append((path, name))
        return name

    def commit() -> None:
        for path, name in pending:
            if name not in imports.setdefault(path, []):
                imports[path].append(name)
        pending.clear()

    # names used by the blocks below (the imports are written last, from what was used)
    w = ModuleWriter(style)
    q = w.q
    prefix = task.path.removeprefix("src/").removesuffix(".js")
    cls_name = cap(prefix)
    blocks: list[list[str]] = []

    def block(lines: list[str]) -> None:
        blocks.append(lines)

    def doc(text: str, params: list[str] = ()) -> list[str]:
        if not style["jsdoc"]:
            return [f"// {text}"]
        out = ["/**", f" * {text}"]
        out += [f" * @param {{*}} {name}" for name in params]
        return out + [" */"]

    def fn(name: str, params: str, body: list[str], exported: bool = True, is_async: bool = False, comment: str | None = None) -> list[str]:
        head = "export " if exported else ""
        lines = doc(comment, [x.split("=")[0].strip(" {}") for x in params.split(",") if x.strip()]) if comment else []
        if style["arrow"] and not is_async and rng.random() < 0.5:
            lines.append(f"{head}const {name} = ({params}) => {{")
            lines += ["  " + b if b else "" for b in body]
            lines.append("};")
        else:
            lines.append(f"{head}{'async ' if is_async else ''}function {name}({params}) {{")
            lines += ["  " + b if b else "" for b in body]
            lines.append("}")
        return lines

    # --- constants
    width = rng.choice([48, 60, 72, 80, 96])
    ratio = rng.choice(["0.85", "0.9", "0.75", "0.6", ".95"])
    big = rng.choice(["1_000", "10_000", "86_400_000", "3_600", "65_535", "2 ** 16", "1e4", "5e3"])
    mask = rng.choice(["0xff", "0x0f", "0b1010", "0o17", "0xFFFF"])
    eps = rng.choice(["1e-6", "1e-9", "0.001", "2.5e-3"])
    upper = snake_upper(prefix)
    consts = [
        f"const {upper}_WIDTH = {width};",
        f"const WARN_RATIO = {ratio};",
        f"const MAX_BATCH = {big};",
        f"const FLAG_MASK = {mask};",
        f"const EPSILON = {eps};",
    ]
    rng.shuffle(consts)
    block(consts[: rng.randrange(3, 6)] + [f"const LABELS = Object.freeze({{ ok: {q('ok')}, warn: {q('warning')}, fail: {q('failed')} }});"])
    const_names = [c.split()[1] for c in blocks[-1]]

    # --- candidate blocks
    cands: list[Any] = []

    def b_totals() -> list[str]:
        sum_by = use("src/stats.js", "sumBy")
        rnd = use("src/stats.js", "roundTo")
        name = f"total{cap(num)}By{cap(group)}"
        body = [
            "const totals = new Map();",
            f"for (const item of {e.many}) {{",
            f"  const key = item.{group} || {q('(none)')};",
            f"  totals.set(key, (totals.get(key) ?? 0) + Number(item.{num} ?? 0));",
            "}",
            "return [...totals.entries()]",
            f"  .map(([key, value]) => ({{ key, value: {rnd}(value, 2) }}))",
            "  .sort((a, b) => b.value - a.value || a.key.localeCompare(b.key));",
        ]
        out = fn(name, e.many, body, comment=f"Sums {num} per {group}, largest first.")
        out += [""] + fn(f"grand{cap(num)}", e.many, [f"return {sum_by}({e.many}, (item) => item.{num});"])
        return out

    def b_summary() -> list[str]:
        mean = use("src/stats.js", "meanBy")
        median = use("src/stats.js", "medianBy")
        clamp = use("src/stats.js", "clamp")
        body = [
            f"const values = {e.many}.map((item) => Number(item.{num})).filter(Number.isFinite);",
            "if (values.length === 0) {",
            f"  return {{ count: 0, mean: 0, median: 0, spread: 0, level: LABELS.ok }};",
            "}",
            f"const mean = {mean}({e.many}, (item) => item.{num});",
            f"const median = {median}({e.many}, (item) => item.{num});",
            "const spread = Math.max(...values) - Math.min(...values);",
            f"const share = {clamp}(median / (mean || 1), 0, 1);",
            "return {",
            "  count: values.length,",
            "  mean,",
            "  median,",
            "  spread,",
            "  level: share < WARN_RATIO ? LABELS.warn : LABELS.ok,",
            "};",
        ]
        if "WARN_RATIO" not in const_names:
            body = [b.replace("WARN_RATIO", "0.5") for b in body]
        return fn(f"summarise{plural(e.cls)}", e.many, body, comment=f"Count, mean, median and spread of {num}.")

    def b_lines() -> list[str]:
        fmt = use("src/format.js", f"{verb}{e.cls}")
        pad = use("src/format.js", "padCell")
        wname = f"{upper}_WIDTH" if f"{upper}_WIDTH" in const_names else str(width)
        body = [
            f"const title = {q(task.kind + ': ')} + {e.many}.length;",
            f"const rule = {q('=')}.repeat({wname});",
            f"const lines = [title, rule];",
            f"for (const [index, {e.name}] of {e.many}.entries()) {{",
            f"  lines.push(`${{{pad}(String(index + 1), 4)}} ${{{fmt}({e.name})}}`);",
            "}",
            f"lines.push(rule);",
            f"return lines.join({q(chr(92) + 'n')});",
        ]
        return fn(f"{e.name}Lines", e.many, body, comment=f"One numbered line per {e.name}.")

    def b_class() -> list[str]:
        store_cls = use(p.words["store_path"], p.words["store_cls"])
        events = use("src/events.js", p.words["events_const"])
        key = p.words["events_keys"].split(",")[0]
        field_name = rng.choice(["seen", "counter", "changes", "touched"])
        lines = doc(f"Keeps a running view of the {e.many} in a store.") if style["jsdoc"] else [f"// Keeps a running view of the {e.many} in a store."]
        lines += [
            f"export class {cls_name} {{",
            f"  #{field_name} = 0;",
            f"  #store;",
            "",
            f"  constructor(store = new {store_cls}(), options = {{}}) {{",
            "    this.#store = store;",
            f"    this.limit = options.limit ?? MAX_BATCH;" if "MAX_BATCH" in const_names else f"    this.limit = options.limit ?? {rng.randrange(50, 500)};",
            f"    this.includeRetired = Boolean(options.includeRetired);",
            "  }",
            "",
            "  get size() {",
            "    return this.#store.size;",
            "  }",
            "",
            f"  get {field_name}() {{",
            f"    return this.#{field_name};",
            "  }",
            "",
            "  attach(hub) {",
            f"    return hub.on({events}.{key}, (record) => {{",
            f"      this.#{field_name} += 1;",
            "      if (this.size < this.limit) {",
            "        this.#store.add(record);",
            "      }",
            "    });",
            "  }",
            "",
            "  snapshot() {",
            f"    return this.#store.list().slice(0, this.limit).map((item) => ({{ ...item.toJSON(), id: item.id }}));",
            "  }",
            "",
            f"  static from{plural(e.cls)}(list, options) {{",
            f"    const view = new {cls_name}(undefined, options);",
            "    for (const item of list) {",
            "      view.#store.add(item);",
            "    }",
            "    return view;",
            "  }",
            "}",
        ]
        return lines

    def b_async() -> list[str]:
        create = use(f"src/{e.name}.js", f"create{e.cls}")
        retry = use("src/config.js", "RETRY_DELAY_MS")
        body = [
            f"const {e.many} = [];",
            "let attempt = 0;",
            "while (attempt < 3) {",
            "  try {",
            "    const response = await source();",
            "    const rows = typeof response === 'string' ? JSON.parse(response) : response;".replace("'", style["quote"]),
            "    for (const row of rows) {",
            f"      {e.many}.push({create}(row));",
            "    }",
            "    break;",
            "  } catch (error) {",
            "    attempt += 1;",
            f"    console.warn(`load failed (${{attempt}}): ${{error.message}}`);",
            f"    await new Promise((resolve) => setTimeout(resolve, {retry} * attempt));",
            "  } finally {",
            f"    onProgress?.({e.many}.length);",
            "  }",
            "}",
            f"return {e.many};",
        ]
        return fn(f"load{plural(e.cls)}", "source, onProgress", body, is_async=True, comment="Loads rows from an async source, retrying up to three times.")

    def b_validate() -> list[str]:
        check = use("src/validate.js", f"validate{e.cls}")
        err = use("src/validate.js", f"{p.code}ValidationError")
        pattern = rng.choice([r"/^[a-z][\w-]*$/i", r"/\s{2,}/g", r"/^(?:[A-Z]{2})-(\d+)$/", r"/[<>&]/"])
        body = [
            f"const problems = [];",
            f"for (const item of {e.many}) {{",
            f"  for (const problem of {check}(item)) {{",
            "    problems.push({ id: item.id, field: problem.field, message: problem.message });",
            "  }",
            f"  if ({pattern}.test(String(item.{group}))) {{",
            f"    problems.push({{ id: item.id, field: {q(group)}, message: {q('suspicious text')} }});",
            "  }",
            "}",
            "if (strict && problems.length > 0) {",
            f"  throw new {err}(problems[0].field, `${{problems.length}} problem(s)`);",
            "}",
            "return problems;",
        ]
        return fn(f"audit{plural(e.cls)}", f"{e.many}, strict = false", body, comment="Collects validation problems; throws in strict mode.")

    def b_switch() -> list[str]:
        statuses = use("src/config.js", f"{snake_upper(p.domain)}_STATUSES")
        cases = []
        for k, status in enumerate(p.statuses):
            cases += [f"  case {q(status)}:", f"    return {k + 1};"]
        body = [f"switch (status) {{"] + cases + ["  default:", f"    return {statuses}.length + 1;", "}"]
        return fn("statusRank", "status", body, comment="Orders the statuses for sorting.")

    def b_dates() -> list[str]:
        if not dates:
            return []
        add_days = use("src/dates.js", "addDays")
        between = use("src/dates.js", "daysBetween")
        weekend = use("src/dates.js", "isWeekend")
        d = dates[0]
        step = rng.choice([7, 14, 30])
        body = [
            f"const result = [];",
            f"let cursor = new Date(from);",
            f"while (cursor <= new Date(to)) {{",
            f"  if (!{weekend}(cursor)) {{",
            f"    const due = {e.many}.filter((item) => item.{d} && {between}(item.{d}, cursor) % {step} === 0);",
            "    if (due.length) {",
            "      result.push({ day: cursor.toISOString().slice(0, 10), ids: due.map((item) => item.id) });",
            "    }",
            "  }",
            f"  cursor = {add_days}(cursor, 1);",
            "}",
            "return result;",
        ]
        return fn(f"plan{cap(d)}Checks", f"{e.many}, {{ from, to }} = {{}}", body, comment=f"Every working day between from and to whose distance from {d} is a multiple of {step} days.")

    def b_csv() -> list[str]:
        fields = [f for f, _ in e.fields][:4]
        header = ",".join(fields)
        body = [
            f"const escape = (value) => {{",
            "  const text = value instanceof Date ? value.toISOString() : String(value ?? '');".replace("'", style["quote"]),
            "  return /[\",\\n]/.test(text) ? `\"${text.replace(/\"/g, '\"\"')}\"` : text;",
            "};",
            f"const rows = {e.many}.map((item) => [{', '.join(f'item.{f}' for f in fields)}].map(escape).join(','));".replace("','", q(",")),
            f"return [{q(header)}, ...rows].join({q(chr(92) + 'n')});",
        ]
        return fn(f"{e.many}ToCsv", e.many, body, comment="CSV with a header row; quotes doubled inside quoted fields.")

    def b_histogram() -> list[str]:
        hist = use("src/stats.js", "histogram")
        body = [
            f"const counts = {hist}({e.many}.map((item) => Number(item.{num})), buckets);",
            "const peak = Math.max(1, ...counts);",
            "return counts.map((count, index) => {",
            f"  const bar = {q('#')}.repeat(Math.round((count / peak) * barWidth));",
            f"  return `${{String(index + 1).padStart(2, {q('0')})}} ${{bar}} ${{count}}`;",
            "});",
        ]
        return fn(f"{num}Histogram", f"{e.many}, buckets = {rng.choice([4, 5, 6, 8])}, barWidth = {rng.choice([20, 30, 40])}", body, comment=f"A text histogram of {num}.")

    def b_reconcile() -> list[str]:
        index = use("src/query.js", "indexBy")
        body = [
            f"const before = {index}(previous, (item) => item.id);",
            f"const after = {index}(current, (item) => item.id);",
            "const added = [...after.keys()].filter((id) => !before.has(id));",
            "const removed = [...before.keys()].filter((id) => !after.has(id));",
            "const changed = [];",
            "for (const [id, item] of after) {",
            "  const old = before.get(id);",
            f"  if (old && Math.abs(Number(old.{num}) - Number(item.{num})) > {'EPSILON' if 'EPSILON' in const_names else '0'}) {{",
            f"    changed.push({{ id, from: old.{num}, to: item.{num} }});",
            "  }",
            "}",
            "return { added, removed, changed };",
        ]
        return fn(f"diff{plural(e.cls)}", "previous, current", body, comment="Added, removed and changed records between two snapshots.")

    def b_flags() -> list[str]:
        if not bools:
            return []
        count = None
        for name in p.exports[f"src/{e.name}.js"]:
            if name.startswith("count"):
                count = use(f"src/{e.name}.js", name)
        mask_name = "FLAG_MASK" if "FLAG_MASK" in const_names else "0xff"
        b0 = bools[0]
        body = [
            "let bits = 0;",
            f"for (const [position, item] of {e.many}.entries()) {{",
            f"  if (item.{b0}) {{",
            f"    bits |= 1 << (position % 8);",
            "  }",
            "}",
            f"return {{ bits: bits & {mask_name}, {'flagged: ' + count + '(' + e.many + '),' if count else 'flagged: ' + e.many + '.filter((item) => item.' + b0 + ').length,'} total: {e.many}.length }};",
        ]
        return fn(f"{b0}Flags", e.many, body, comment=f"A bit mask of which of the first eight {e.many} are {b0}.")

    def b_page() -> list[str]:
        paginate = use("src/query.js", "paginate")
        sort_by = use("src/query.js", "sortBy")
        body = [
            f"const sorted = {sort_by}({e.many}, (item) => item.{group}, descending ? -1 : 1);",
            f"const {{ page, pages, items }} = {paginate}(sorted, number, size);",
            "return {",
            "  page,",
            "  pages,",
            "  hasNext: page < pages,",
            f"  labels: items.map((item) => `${{item.id}}:${{item.{group}}}`),",
            "};",
        ]
        return fn(f"page{plural(e.cls)}", f"{e.many}, {{ number = 1, size, descending = false }} = {{}}", body, comment="One page of records, sorted by " + group + ".")

    def b_setting() -> list[str]:
        setting = use("src/config.js", f"{p.code.lower()}Setting")
        version = use("src/config.js", f"{p.code.upper()}_VERSION")
        return fn("describeEnvironment", "", [
            f"const locale = {setting}({q('locale.value')}, {q('en-GB')});",
            f"return `{p.code} ${{{version}}} (${{locale}})`;",
        ], comment="A one-line description of the running configuration.")

    def b_small(k: int) -> list[str]:
        options = [
            lambda: fn(f"is{cap(num)}High", f"item, limit = {rng.randrange(10, 500)}", [f"return Number(item.{num}) > limit;"], exported=rng.random() < 0.5),
            lambda: fn(f"by{cap(group)}", "a, b", [f"return String(a.{group}).localeCompare(String(b.{group}));"], exported=rng.random() < 0.5),
            lambda: fn(f"count{plural(e.cls)}", e.many, [f"return {e.many}.length;"], exported=False),
            lambda: fn(f"{e.name}Ids", e.many, [f"return {e.many}.map(({{ id }}) => id);"], exported=rng.random() < 0.5),
            lambda: fn(f"first{e.cls}", e.many, [f"return {e.many}[0] ?? null;"], exported=False),
            lambda: fn(f"last{e.cls}", e.many, [f"return {e.many}.at(-1) ?? null;"], exported=False),
            lambda: fn(f"{e.name}Keys", e.many, [f"return Object.keys({e.many}[0] ?? {{}}).sort();"], exported=False),
        ]
        return options[k % len(options)]()

    result_keys = ["flagged", "overdue", "stale", "pending", "skipped", "updatedAt", "generatedAt", "totalCount", "averageScore", "warnings",
                   "durationMs", "checked", "missing", "duplicates", "firstSeen", "lastSeen", "nextRun", "isEmpty", "hasMore", "topItems", "perDay",
                   "maxValue", "minValue", "ratio", "byStatus", "elapsed", "sample", "cutoff", "window", "attempts"]
    option_names = ["dryRun", "verbose", "timeZone", "includeArchived", "strictMode", "maxItems", "sinceDate", "groupSize", "onEvict", "locale", "precision", "sortKey"]

    def b_options() -> list[str]:
        keys = rng.sample(result_keys, 4)
        opts = rng.sample(option_names, 3)
        uniq = use("src/query.js", "uniqueBy")
        body = [
            f"const started = performance.now();",
            f"const {{ {opts[0]} = false, {opts[1]} }} = options;",
            f"const list = {uniq}({e.many}, (item) => item.id).slice(0, options.{opts[2]} ?? {rng.choice([50, 100, 500, 1000])});",
            f"if ({opts[0]}) {{",
            f"  console.info(`dry run: ${{list.length}} of ${{{e.many}.length}}`);",
            "}",
            "const byKey = Object.fromEntries(list.map((item) => [item.id, structuredClone(item)]));",
            "return {",
            f"  {keys[0]}: list.length,",
            f"  {keys[1]}: Object.keys(byKey),",
            f"  {keys[2]}: {opts[1]} ?? null,",
            f"  {keys[3]}: Math.round(performance.now() - started),",
            "};",
        ]
        return fn(f"prepare{plural(e.cls)}", f"{e.many}, options = {{}}", body, comment="Deduplicates and copies the records before a run.")

    def b_generator() -> list[str]:
        size = rng.choice([10, 25, 50, 100])
        return doc(f"Yields the {e.many} in batches.") + [
            f"export function* {e.name}Batches({e.many}, size = {size}) {{",
            f"  for (let start = 0; start < {e.many}.length; start += size) {{",
            f"    yield {e.many}.slice(start, start + size);",
            "  }",
            "}",
        ]

    def b_fetch() -> list[str]:
        keys = rng.sample(result_keys, 2)
        body = [
            "const controller = new AbortController();",
            f"const timer = setTimeout(() => controller.abort(), {rng.choice(['30_000', '5000', '10_000', '2e4'])});",
            "try {",
            "  const response = await fetch(url, { signal: controller.signal });",
            "  if (!response.ok) {",
            "    throw new Error(`request failed: ${response.status} ${response.statusText}`);",
            "  }",
            "  const payload = await response.json();",
            f"  return {{ {keys[0]}: payload.length ?? 0, {keys[1]}: new Date().toISOString(), rows: payload }};",
            "} catch (error) {",
            "  throw new Error(`could not fetch ${url}`, { cause: error });",
            "} finally {",
            "  clearTimeout(timer);",
            "}",
        ]
        return fn(f"fetch{plural(e.cls)}", "url", body, is_async=True, comment="Fetches raw rows with a timeout.")

    def b_labels() -> list[str]:
        if len(p.entities) < 2:
            return []
        other = [x for x in p.entities if x is not e][0]
        limit = rng.randrange(3, 12)
        return fn(f"pair{plural(e.cls)}With{plural(other.cls)}", f"{e.many}, {other.many}", [
            "const pairs = [];",
            f"outer: for (const left of {e.many}) {{",
            f"  for (const right of {other.many}) {{",
            f"    if (pairs.length >= {limit}) {{",
            "      break outer;",
            "    }",
            "    if (String(left.id).localeCompare(String(right.id), undefined, { numeric: true }) < 0) {",
            "      pairs.push([left.id, right.id]);",
            "      continue outer;",
            "    }",
            "  }",
            "}",
            "return pairs;",
        ], comment=f"Pairs each {e.name} with the first {other.name} that sorts after it.")

    def b_dateformat() -> list[str]:
        style_ = rng.choice(["medium", "short", "long"])
        return fn("formatStamp", "date, locale = 'en-GB'".replace("'", style["quote"]), [
            f"const formatter = new Intl.DateTimeFormat(locale, {{ dateStyle: {q(style_)}, timeZone: {q('UTC')} }});",
            "return formatter.format(date instanceof Date ? date : new Date(date));",
        ], comment="A human-readable UTC date.")

    cands = [b_totals, b_summary, b_lines, b_class, b_async, b_validate, b_switch, b_dates, b_csv, b_histogram, b_reconcile, b_flags, b_page, b_setting, b_options, b_generator, b_fetch, b_labels, b_dateformat]
    rng.shuffle(cands)
    target = rng.randrange(task.min_lines + 4, task.max_lines - 6)

    def count_lines() -> int:
        header = 2 + len(imports) + 1
        return header + sum(len(b) + 1 for b in blocks) + 6

    small = 0
    commit()
    for cand in cands:
        lines = cand()
        if not lines or count_lines() + len(lines) + 1 + len(pending) > target:
            pending.clear()
            continue
        commit()
        block(lines)
    while count_lines() < target - 2 and small < 40:
        block(b_small(small))
        small += 1
    if sum(len(v) for v in imports.values()) < 6:
        raise _Redraw()
    # write: header, imports, blocks, default export
    w.add(f"// {task.path}: {task.purpose}.", "")
    for path in sorted(imports):
        names = imports[path]
        rel = "./" + path.removeprefix("src/")
        w.add(f"import {{ {', '.join(names)} }} from {q(rel)};")
    w.add("")
    for b in blocks:
        w.add(*b)
        w.add("")
    names = []
    for line in (l for b in blocks for l in b):
        m = re.match(r"export (?:async )?(?:function|const|class) (\w+)", line)
        if m:
            names.append(m.group(1))
    w.add(f"export default {{ {', '.join(names[:6])} }};")
    text = w.text()
    if not task.min_lines <= text.count("\n") <= task.max_lines:
        raise _Redraw()
    return text
