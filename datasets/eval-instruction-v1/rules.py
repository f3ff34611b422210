"""eval-instruction-v1 rules: the normative implementation of the instruction rule DSL.

An eval-instruction-v1 row carries ``answer = {"all": [rule, ...]}``; the item is correct
when every rule passes against the *raw* model output (no answer extraction). Every rule
is a JSON object ``{"rule": <name>, <parameters>...}``; ``{"all": [...]}`` and
``{"any": [...]}`` may also be nested as rules.

    evaluate(answer, text) -> (passed: bool, failed_rules: list[dict])

``failed_rules`` holds the failing rule objects themselves (top-level entries of
``answer["all"]``, in order); ``explain(answer, text)`` gives a reason for each.

Shared definitions (normative, from the datasets specification):

* word -- a match of ``[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*``: "don't" is one word,
  "3.5" is two;
* lines -- ``text.strip().split("\\n")`` with blank lines dropped;
* paragraphs -- ``re.split(r"\\n\\s*\\n", text.strip())``, empties dropped;
* sentences -- the text split on ``[.!?]+`` followed by whitespace or the end of the text,
  blank pieces dropped;
* bullets -- lines whose ``lstrip()`` starts with a marker (``*``, ``-``, ``+`` or ``•``)
  followed by a space.

Counting rules take ``min`` and/or ``max`` (inclusive; at least one; ``min == max`` means
exactly). The rule vocabulary, with what each one checks, is ``RULES`` below; run

    python datasets/eval-instruction-v1/rules.py --self-test     # every rule, both ways
    python datasets/eval-instruction-v1/rules.py --list          # the vocabulary

Standard library only, so the harness, check.py and any third party can run it as is.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from typing import Any, Callable, Iterable, Mapping, Sequence

__all__ = [
    "RULES",
    "SUPPORTED_LANGUAGES",
    "bullets",
    "detect_language",
    "evaluate",
    "explain",
    "lines",
    "numbered_items",
    "paragraphs",
    "sentences",
    "validate",
    "words",
]

# --- the shared definitions ------------------------------------------------------------

WORD_RE = re.compile(r"[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*")
PARAGRAPH_SPLIT_RE = re.compile(r"\n\s*\n")
SENTENCE_SPLIT_RE = re.compile(r"[.!?]+(?=\s|\Z)")
BULLET_MARKERS = ("*", "-", "+", "•")
NUMBERED_RE = re.compile(r"\d+[.)] ")


def words(text: str) -> list[str]:
    """Every word of `text` (the spec's definition: ASCII letters and digits, with inner
    apostrophes or hyphens)."""
    return WORD_RE.findall(text)


def lines(text: str) -> list[str]:
    """text.strip().split("\\n") with blank lines dropped."""
    return [line for line in text.strip().split("\n") if line.strip()]


def paragraphs(text: str) -> list[str]:
    """Blocks separated by a blank line (a line of only whitespace counts as blank)."""
    return [p for p in PARAGRAPH_SPLIT_RE.split(text.strip()) if p.strip()]


def sentences(text: str) -> list[str]:
    """Pieces between runs of . ! ? that are followed by whitespace or the end of text."""
    return [s for s in SENTENCE_SPLIT_RE.split(text) if s.strip()]


def _is_bullet(line: str) -> bool:
    stripped = line.lstrip()
    return len(stripped) >= 2 and stripped[0] in BULLET_MARKERS and stripped[1] == " "


def bullets(text: str) -> list[str]:
    """Lines that start (after leading whitespace) with * - + or • followed by a space."""
    return [line for line in lines(text) if _is_bullet(line)]


def numbered_items(text: str) -> list[str]:
    """Lines that start (after leading whitespace) with digits, then . or ), then a space."""
    return [line for line in lines(text) if NUMBERED_RE.match(line.lstrip())]


# --- helpers ---------------------------------------------------------------------------

HIGHLIGHT_RE = re.compile(r"\*\*[^\s*](?:[^*\n]*[^\s*])?\*\*|\*[^\s*](?:[^*\n]*[^\s*])?\*")
PLACEHOLDER_RE = re.compile(r"\[[^\[\]\n]*[^\s\[\]][^\[\]\n]*\]")
TITLE_RE = re.compile(r"<<([^<>\n]*[^\s<>][^<>\n]*)>>")
JSON_FENCE_RE = re.compile(r"\A```[ \t]*(?:json|JSON)?[ \t]*\n(.*)\n[ \t]*```\Z", re.S)
COMMAS = (",", "\uff0c")  # ASCII comma and the full-width comma


def _fold(text: str) -> str:
    """Case-folded, NFKC-normalised, curly apostrophe as straight, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'")
    return " ".join(text.casefold().split())


def _word_tokens(text: str) -> list[str]:
    return _tokens_of(words(text))


def _tokens_of(found: list[str]) -> list[str]:
    # Words are ASCII letters/digits plus ' ’ -, so lowering them all at once is safe.
    return "\n".join(found).replace("’", "'").lower().split("\n") if found else []


def _count_phrase(tokens: Sequence[str], phrase: str) -> int:
    """Occurrences of `phrase` (one or more words) as a run of whole words, any case."""
    needle = _word_tokens(phrase)
    if not needle:
        return 0
    n = len(needle)
    if n == 1:
        target = needle[0]
        return sum(1 for t in tokens if t == target)
    return sum(1 for i in range(len(tokens) - n + 1) if list(tokens[i : i + n]) == needle)


class _Text:
    """The model output plus lazily computed views, so a rule set computes each once."""

    __slots__ = ("raw", "_cache")

    def __init__(self, raw: str):
        self.raw = raw
        self._cache: dict[str, Any] = {}

    def get(self, key: str, fn: Callable[[str], Any]) -> Any:
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = fn(self.raw)
            return value

    @property
    def words(self) -> list[str]:
        return self.get("words", words)

    @property
    def tokens(self) -> list[str]:
        try:
            return self._cache["tokens"]
        except KeyError:
            value = self._cache["tokens"] = _tokens_of(self.words)
            return value

    @property
    def lines(self) -> list[str]:
        return self.get("lines", lines)

    @property
    def paragraphs(self) -> list[str]:
        return self.get("paragraphs", paragraphs)

    @property
    def sentences(self) -> list[str]:
        return self.get("sentences", sentences)

    @property
    def folded(self) -> str:
        return self.get("folded", _fold)


# --- language detection (heuristic, standard library only) -----------------------------

# The most frequent function words of each Latin-script language the rule supports. A
# word shared by several lists weighs 1/k in each, so shared words cannot decide alone.
_STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        "the and of to is in that it for was on are with as be this by at from or have an "
        "they which you not but were their has had we can there would been more will when "
        "what its also into than then these about because"
        .split()
    ),
    "fr": frozenset(
        "le la les des est et un une du que qui dans pour pas sur au aux avec ce cette ces "
        "il elle ils nous vous sont mais ou leur plus se ne comme par tout être été fait "
        "aussi quand entre très"
        .split()
    ),
    "de": frozenset(
        "der die das und ist nicht ein eine einen dem den des zu mit sich auf für von im "
        "auch es sie wir ich sind war wird werden bei nach aus wie oder aber noch nur kann "
        "wenn dass über diese einem"
        .split()
    ),
    "es": frozenset(
        "el la los las de que y en un una es por para con no se del al lo su sus como más "
        "pero sin sobre este esta son fue también muy cuando hay entre porque ya todo"
        .split()
    ),
    "it": frozenset(
        "il lo la gli le di che e un una è per non con del della dei delle sono nel nella "
        "alla come più ma anche questo questa ci si ha essere molto quando tra perché tutto"
        .split()
    ),
    "pt": frozenset(
        "o a os as de que e do da dos das em um uma não para com por se na no mais como mas "
        "ao é são foi também muito quando entre porque isso está pelo pela"
        .split()
    ),
    "nl": frozenset(
        "de het een en van is dat niet in op te met voor zijn er aan ook als maar bij door "
        "om naar dan wat nog wordt worden deze kan hij zij wij geen omdat"
        .split()
    ),
    "pl": frozenset(
        "i w z na nie się to jest że do o jak ale po co tak od za przez są był była było "
        "dla tylko czy może już jego jej także oraz bardzo kiedy"
        .split()
    ),
}

_SCRIPT_RES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("kana", re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")),
    ("hangul", re.compile("[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")),
    ("han", re.compile("[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]")),
    ("cyrillic", re.compile("[\u0400-\u04ff]")),
    ("greek", re.compile("[\u0370-\u03ff]")),
    ("arabic", re.compile("[\u0600-\u06ff\u0750-\u077f]")),
    ("hebrew", re.compile("[\u0590-\u05ff]")),
    ("devanagari", re.compile("[\u0900-\u097f]")),
    ("thai", re.compile("[\u0e00-\u0e7f]")),
    ("latin", re.compile("[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]")),
)
_LETTER_RE = re.compile(r"[^\W\d_]")
_SCRIPT_LANG = {"hangul": "ko", "greek": "el", "arabic": "ar", "hebrew": "he", "devanagari": "hi", "thai": "th"}
SUPPORTED_LANGUAGES: tuple[str, ...] = tuple(sorted({*_STOPWORDS, "ja", "zh", "ru", "uk", *_SCRIPT_LANG.values()}))
_LATIN_TOKEN_RE = re.compile(r"[^\W\d_]+")


def detect_language(text: str) -> str | None:
    """ISO 639-1 code of the dominant language of `text`, or None when unsure.

    Non-Latin scripts decide by script (kana present -> ja; Han without kana -> zh; Cyrillic
    -> ru, or uk when Ukrainian-only letters appear; Hangul, Greek, Arabic, Hebrew,
    Devanagari, Thai). Latin-script text decides by weighted function-word counts over
    en, fr, de, es, it, pt, nl, pl: the winner needs at least 3 weighted hits, 1.5x the
    runner-up, and hits on at least 8 % of the tokens.
    """
    letters = len(_LETTER_RE.findall(text))
    if letters == 0:
        return None
    counts = {name: len(pattern.findall(text)) for name, pattern in _SCRIPT_RES}
    if counts.get("kana", 0) >= max(2, 0.05 * letters) and counts.get("kana", 0) + counts.get("han", 0) >= 0.5 * letters:
        return "ja"
    top_script = max(counts, key=lambda k: (counts[k], k))
    if counts[top_script] < 0.5 * letters:
        return None
    if top_script == "han":
        return "zh"
    if top_script == "cyrillic":
        return "uk" if re.search("[ієїґІЄЇҐ]", text) else "ru"
    if top_script in _SCRIPT_LANG:
        return _SCRIPT_LANG[top_script]
    if top_script != "latin":
        return None
    tokens = _LATIN_TOKEN_RE.findall(text.casefold())
    if not tokens:
        return None
    scores = dict.fromkeys(_STOPWORDS, 0.0)
    hits = dict.fromkeys(_STOPWORDS, 0)
    for token in tokens:
        owners = _STOPWORD_OWNERS.get(token)
        if owners:
            weight = 1.0 / len(owners)
            for lang in owners:
                scores[lang] += weight
                hits[lang] += 1
    ranked = sorted(scores, key=lambda k: (-scores[k], k))
    best, second = ranked[0], ranked[1]
    if scores[best] < 3 or scores[best] < 1.5 * scores[second] or hits[best] < 0.08 * len(tokens):
        return None
    return best


_STOPWORD_OWNERS: dict[str, tuple[str, ...]] = {}
for _lang, _words in sorted(_STOPWORDS.items()):
    for _w in _words:
        _STOPWORD_OWNERS[_w] = _STOPWORD_OWNERS.get(_w, ()) + (_lang,)


# --- the rules -------------------------------------------------------------------------

class RuleError(ValueError):
    """A malformed rule (a dataset bug, never a model failure)."""


def _bounds(rule: Mapping[str, Any], value: int, noun: str) -> tuple[bool, str]:
    low, high = rule.get("min"), rule.get("max")
    ok = (low is None or value >= low) and (high is None or value <= high)
    if low is not None and low == high:
        need = f"exactly {low}"
    elif low is not None and high is not None:
        need = f"between {low} and {high}"
    elif low is not None:
        need = f"at least {low}"
    else:
        need = f"at most {high}"
    return ok, f"found {value} {noun}, need {need}"


def _counter(noun: str, measure: Callable[[_Text, Mapping[str, Any]], int]):
    def check(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
        return _bounds(rule, measure(t, rule), noun)

    return check


def _section_count(t: _Text, rule: Mapping[str, Any]) -> int:
    marker = rule.get("marker", "SECTION")
    pattern = re.compile(r"\s*" + re.escape(marker) + r"\s+(\d+)\b")
    numbers = [int(m.group(1)) for line in t.lines if (m := pattern.match(line))]
    if numbers != list(range(1, len(numbers) + 1)):
        return -1  # numbering must run 1, 2, 3, ... in order
    return len(numbers)


def _check_sections(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    n = _section_count(t, rule)
    if n < 0:
        return False, f"{rule.get('marker', 'SECTION')} headers are not numbered 1, 2, 3, ... in order"
    return _bounds(rule, n, "sections")


def _check_keywords_include(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    missing = [k for k in rule["keywords"] if _count_phrase(t.tokens, k) == 0]
    return not missing, f"missing keywords: {missing}" if missing else "all keywords present"


def _check_keywords_exclude(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    present = [k for k in rule["keywords"] if _count_phrase(t.tokens, k) > 0]
    return not present, f"forbidden keywords present: {present}" if present else "no forbidden keyword"


def _check_paragraph_first_word(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    index = rule["index"]
    paras = t.paragraphs
    if len(paras) < index:
        return False, f"only {len(paras)} paragraphs, need paragraph {index}"
    first = words(paras[index - 1])
    got = first[0] if first else ""
    ok = got.replace("’", "'").lower() == rule["word"].replace("’", "'").lower()
    return ok, f"paragraph {index} starts with {got!r}, need {rule['word']!r}"


def _check_starts_with(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    ok = t.folded.startswith(_fold(rule["phrase"]))
    return ok, "starts with the phrase" if ok else f"does not start with {rule['phrase']!r}"


def _check_ends_with(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    ok = t.folded.endswith(_fold(rule["phrase"]))
    return ok, "ends with the phrase" if ok else f"does not end with {rule['phrase']!r}"


def _check_quotes(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    s = t.raw.strip()
    ok = len(s) >= 3 and s[0] == '"' and s[-1] == '"' and bool(s[1:-1].strip())
    return ok, "wrapped in double quotes" if ok else "not wrapped in double quotation marks"


def _check_json(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    s = t.raw.strip()
    fenced = JSON_FENCE_RE.match(s)
    if fenced:
        s = fenced.group(1)
    try:
        value = json.loads(s)
    except ValueError as exc:
        return False, f"not valid JSON: {exc}"
    if not isinstance(value, (dict, list)):
        return False, "JSON is not an object or an array"
    keys = rule.get("keys") or []
    if keys:
        if not isinstance(value, dict):
            return False, "JSON is not an object"
        missing = [k for k in keys if k not in value]
        if missing:
            return False, f"JSON object lacks keys {missing}"
    return True, "valid JSON"


def _check_title(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    ok = TITLE_RE.search(t.raw) is not None
    return ok, "has a <<title>>" if ok else "no title in double angular brackets"


def _check_postscript(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    marker = rule.get("marker", "P.S.").casefold()
    for i, line in enumerate(t.lines):
        s = line.lstrip()
        if i > 0 and s.casefold().startswith(marker) and s[len(marker) :].strip():
            return True, "has a postscript"
    return False, f"no postscript line starting with {rule.get('marker', 'P.S.')!r} after the body"


def _check_two_responses(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    sep = rule.get("separator", "******")
    parts = t.raw.split(sep)
    if len(parts) != 2:
        return False, f"{len(parts)} parts separated by {sep!r}, need exactly 2"
    a, b = parts[0].strip(), parts[1].strip()
    if not a or not b:
        return False, "one of the two responses is empty"
    if _fold(a) == _fold(b):
        return False, "the two responses are identical"
    return True, "two different responses"


def _check_repeat_prompt(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    prompt = _fold(rule["prompt"])
    folded = t.folded
    if not folded.startswith(prompt):
        return False, "does not begin by repeating the request"
    if not folded[len(prompt) :].strip():
        return False, "repeats the request but gives no answer after it"
    return True, "repeats the request, then answers"


def _check_answer_choice(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    found = [o for o in rule["options"] if _fold(o) in t.folded]
    return len(found) == 1, f"options present: {found}, need exactly one"


def _check_upper(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    ok = any(c.isalpha() for c in t.raw) and t.raw == t.raw.upper()
    return ok, "all capital letters" if ok else "not entirely in capital letters"


def _check_lower(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    ok = any(c.isalpha() for c in t.raw) and t.raw == t.raw.lower()
    return ok, "all lowercase" if ok else "not entirely in lowercase letters"


def _check_no_commas(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    n = sum(t.raw.count(c) for c in COMMAS)
    return n == 0, f"{n} commas"


def _check_forbidden_chars(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    present = sorted({c for c in rule["chars"] if c in t.raw})
    return not present, f"forbidden characters present: {present}" if present else "no forbidden character"


def _check_language(rule: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    got = t.get("language", detect_language)
    return got == rule["language"], f"detected language {got!r}, need {rule['language']!r}"


_COUNT = {"min": "count", "max": "count"}
# name -> (checker, {param: type}, required params, what it checks)
RULES: dict[str, tuple[Callable[[Mapping[str, Any], _Text], tuple[bool, str]], dict[str, str], tuple[str, ...], str]] = {
    "word_count": (_counter("words", lambda t, r: len(t.words)), _COUNT, (), "number of words"),
    "sentence_count": (_counter("sentences", lambda t, r: len(t.sentences)), _COUNT, (), "number of sentences"),
    "paragraph_count": (_counter("paragraphs", lambda t, r: len(t.paragraphs)), _COUNT, (), "number of paragraphs (blank-line separated)"),
    "line_count": (_counter("lines", lambda t, r: len(t.lines)), _COUNT, (), "number of non-blank lines"),
    "char_count": (_counter("characters", lambda t, r: len(t.raw.strip())), _COUNT, (), "characters of the stripped text"),
    "bullet_count": (_counter("bullet points", lambda t, r: sum(1 for l in t.lines if _is_bullet(l))), _COUNT, (), "number of bullet lines (* - + • then a space)"),
    "numbered_item_count": (_counter("numbered items", lambda t, r: sum(1 for l in t.lines if NUMBERED_RE.match(l.lstrip()))), _COUNT, (), "number of lines starting '1. ' or '1) '"),
    "highlight_count": (_counter("highlighted sections", lambda t, r: len(HIGHLIGHT_RE.findall(t.raw))), _COUNT, (), "markdown *highlighted* or **bold** spans on one line"),
    "placeholder_count": (_counter("placeholders", lambda t, r: len(PLACEHOLDER_RE.findall(t.raw))), _COUNT, (), "square-bracket placeholders such as [address]"),
    "section_count": (_check_sections, {**_COUNT, "marker": "str"}, (), "lines starting '<marker> N', numbered 1, 2, 3, ... (marker defaults to SECTION)"),
    "keyword_frequency": (_counter("occurrences", lambda t, r: _count_phrase(t.tokens, r["keyword"])), {**_COUNT, "keyword": "str"}, ("keyword",), "whole-word, case-insensitive occurrences of a keyword"),
    "letter_frequency": (_counter("occurrences", lambda t, r: t.raw.lower().count(r["letter"].lower())), {**_COUNT, "letter": "letter"}, ("letter",), "case-insensitive occurrences of one letter"),
    "capital_word_count": (_counter("all-capital words", lambda t, r: sum(1 for w in t.words if w == w.upper() and any(c.isalpha() for c in w))), _COUNT, (), "words written entirely in capital letters"),
    "keywords_include": (_check_keywords_include, {"keywords": "list"}, ("keywords",), "every keyword appears (whole words, any case)"),
    "keywords_exclude": (_check_keywords_exclude, {"keywords": "list"}, ("keywords",), "no keyword appears (whole words, any case)"),
    "paragraph_first_word": (_check_paragraph_first_word, {"index": "pos", "word": "str"}, ("index", "word"), "paragraph <index> (1-based) starts with <word>"),
    "starts_with": (_check_starts_with, {"phrase": "str"}, ("phrase",), "the stripped text starts with the phrase (any case)"),
    "ends_with": (_check_ends_with, {"phrase": "str"}, ("phrase",), "the stripped text ends with the phrase (any case)"),
    "wrapped_in_quotes": (_check_quotes, {}, (), 'the whole stripped text is wrapped in "double quotes"'),
    "json_format": (_check_json, {"keys": "list"}, (), "the whole text (optionally in one ``` fence) is a JSON object or array"),
    "title": (_check_title, {}, (), "a title in double angular brackets, <<like this>>"),
    "postscript": (_check_postscript, {"marker": "str"}, (), "a line after the body starting with the marker (default P.S.)"),
    "two_responses": (_check_two_responses, {"separator": "str"}, (), "exactly two different responses separated by ****** "),
    "repeat_prompt": (_check_repeat_prompt, {"prompt": "str"}, ("prompt",), "starts by repeating the request verbatim (any case/spacing), then answers"),
    "answer_choice": (_check_answer_choice, {"options": "list"}, ("options",), "contains exactly one of the options"),
    "all_uppercase": (_check_upper, {}, (), "entirely in capital letters"),
    "all_lowercase": (_check_lower, {}, (), "entirely in lowercase letters"),
    "no_commas": (_check_no_commas, {}, (), "no comma at all"),
    "forbidden_chars": (_check_forbidden_chars, {"chars": "str"}, ("chars",), "none of the given characters"),
    "response_language": (_check_language, {"language": "lang"}, ("language",), "the detected language is the given ISO 639-1 code"),
}
COMBINATORS = ("all", "any")


def _param_error(name: str, key: str, kind: str, value: Any) -> str | None:
    if kind == "count":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            return f"{name}.{key} must be a non-negative integer, got {value!r}"
    elif kind == "pos":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"{name}.{key} must be a positive integer, got {value!r}"
    elif kind == "str":
        if not isinstance(value, str) or not value.strip():
            return f"{name}.{key} must be a non-empty string, got {value!r}"
    elif kind == "letter":
        if not isinstance(value, str) or len(value) != 1 or not value.isalpha():
            return f"{name}.{key} must be a single letter, got {value!r}"
    elif kind == "lang":
        if value not in SUPPORTED_LANGUAGES:
            return f"{name}.{key} must be one of {', '.join(SUPPORTED_LANGUAGES)}, got {value!r}"
    elif kind == "list":
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
            return f"{name}.{key} must be a non-empty list of non-empty strings, got {value!r}"
    return None


def validate(answer: Any, path: str = "answer") -> list[str]:
    """Every problem with a rule set, as readable strings (empty when well formed).

    The top level must be {"all": [...]}; nested {"all"/"any": [...]} are allowed.
    """
    if not isinstance(answer, dict) or set(answer) != {"all"}:
        return [f'{path} must be {{"all": [rule, ...]}}, got {answer!r}'[:300]]
    return _validate_node(answer, path)


def _validate_node(node: Any, path: str) -> list[str]:
    if not isinstance(node, dict):
        return [f"{path} must be an object, got {node!r}"[:300]]
    if set(node) & set(COMBINATORS):
        if len(node) != 1:
            return [f"{path}: a combinator object has exactly one key ('all' or 'any')"]
        (key, items), = node.items()
        if not isinstance(items, list) or not items:
            return [f"{path}.{key} must be a non-empty list"]
        errors: list[str] = []
        for i, item in enumerate(items):
            errors.extend(_validate_node(item, f"{path}.{key}[{i}]"))
        return errors
    name = node.get("rule")
    if name not in RULES:
        return [f"{path}: unknown rule {name!r}; known: {', '.join(sorted(RULES))}"]
    _, params, required, _ = RULES[name]
    errors = []
    unknown = sorted(set(node) - set(params) - {"rule"})
    if unknown:
        errors.append(f"{path} ({name}): unknown parameters {unknown}")
    for key in required:
        if key not in node:
            errors.append(f"{path} ({name}): missing parameter {key!r}")
    for key, kind in params.items():
        if key in node:
            problem = _param_error(name, key, kind, node[key])
            if problem:
                errors.append(f"{path} ({problem})")
    if params.get("min") == "count" and "min" not in node and "max" not in node:
        errors.append(f"{path} ({name}): needs min and/or max")
    if isinstance(node.get("min"), int) and isinstance(node.get("max"), int) and node["min"] > node["max"]:
        errors.append(f"{path} ({name}): min > max")
    return errors


def _check_node(node: Mapping[str, Any], t: _Text) -> tuple[bool, str]:
    if "all" in node:
        results = [_check_node(item, t) for item in node["all"]]
        bad = [why for ok, why in results if not ok]
        return not bad, "; ".join(bad) if bad else "all passed"
    if "any" in node:
        results = [_check_node(item, t) for item in node["any"]]
        ok = any(r for r, _ in results)
        return ok, "one alternative passed" if ok else "no alternative passed: " + "; ".join(w for _, w in results)
    checker = RULES[node["rule"]][0]
    return checker(node, t)


_VALIDATED: dict[int, Any] = {}  # id(answer) -> answer, for rule sets already validated
_VALIDATED_MAX = 65_536


def _top_rules(answer: Any) -> list[Mapping[str, Any]]:
    """The validated top-level rules of `answer`.

    Validation is memoised per answer object, because rescoring checks the same rows over
    and over: rule sets are treated as immutable once evaluated (they are dataset rows).
    The memo holds the object itself, so an id is never confused with a later object's.
    """
    if _VALIDATED.get(id(answer)) is answer:
        return answer["all"]
    errors = validate(answer)
    if errors:
        raise RuleError("; ".join(errors))
    if len(_VALIDATED) >= _VALIDATED_MAX:
        _VALIDATED.clear()
    _VALIDATED[id(answer)] = answer
    return answer["all"]


def explain(answer: Mapping[str, Any], text: str) -> list[tuple[Mapping[str, Any], bool, str]]:
    """(rule, passed, reason) for every top-level rule of `answer`."""
    t = _Text(text)
    return [(rule, *_check_node(rule, t)) for rule in _top_rules(answer)]


def evaluate(answer: Mapping[str, Any], text: str) -> tuple[bool, list[Mapping[str, Any]]]:
    """(every rule passed, the failing top-level rules in order). Raises RuleError for a
    malformed rule set."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    t = _Text(text)
    failed = [rule for rule in _top_rules(answer) if not _check_node(rule, t)[0]]
    return not failed, failed


# --- self-test -------------------------------------------------------------------------

_PARA3 = "First paragraph here.\n\nSecond one, with a comma.\n\nThird and last."
# (rule, passing text, failing text): every rule appears at least once.
_CASES: list[tuple[dict[str, Any], str, str]] = [
    ({"rule": "word_count", "min": 3, "max": 4}, "don't stop now", "one two three four five"),
    ({"rule": "word_count", "max": 2}, "3.5", "3.5 7"),
    ({"rule": "sentence_count", "min": 2, "max": 2}, "Pi is 3.14 roughly. Yes!", "Only one sentence here."),
    ({"rule": "sentence_count", "min": 3}, "One... Two?! Three", "One. Two.Three"),
    ({"rule": "paragraph_count", "min": 3, "max": 3}, _PARA3, "One.\nStill one.\n\nTwo."),
    ({"rule": "paragraph_count", "min": 2, "max": 2}, "a\n \t\nb", "a\n\n\n\n"),
    ({"rule": "line_count", "min": 2, "max": 2}, "\n\none\n\n   \ntwo\n", "one\ntwo\nthree"),
    ({"rule": "char_count", "max": 5}, "  abcde  ", "abcdef"),
    ({"rule": "bullet_count", "min": 3, "max": 3}, "Intro\n* a\n  - b\n• c\n*not\n-not", "* a\n- b\n+c"),
    ({"rule": "numbered_item_count", "min": 2}, "1. first\n2) second", "1.first\n2 second"),
    ({"rule": "highlight_count", "min": 2}, "Use *this part* and **that part** too.", "Use * this * and ** that** only *a\nb*."),
    ({"rule": "placeholder_count", "min": 2}, "Send it to [name] at [address].", "Send it to [ ] at []."),
    ({"rule": "section_count", "min": 2, "max": 2}, "SECTION 1\nIntro\n\nSECTION 2: More", "SECTION 1\nIntro\nSECTION 3\nBad order"),
    ({"rule": "section_count", "marker": "PART", "min": 1}, "PART 1 - setup", "Part 1 - setup"),
    ({"rule": "keyword_frequency", "keyword": "moon", "min": 2, "max": 2}, "The Moon and the moon.", "The moon, moons and moonlight."),
    ({"rule": "keyword_frequency", "keyword": "high tide", "min": 1}, "At HIGH  tide the water rises.", "A high-tide mark."),
    ({"rule": "letter_frequency", "letter": "z", "min": 3}, "Zebras zigzag.", "Zebras run."),
    ({"rule": "letter_frequency", "letter": "q", "max": 0}, "No such letter.", "Quiet."),
    ({"rule": "capital_word_count", "min": 2, "max": 3}, "THIS is VERY good.", "This is Very good."),
    ({"rule": "keywords_include", "keywords": ["gravity", "don't"]}, "Gravity: don’t ignore it.", "gravitational pull, do not"),
    ({"rule": "keywords_exclude", "keywords": ["very", "really"]}, "Everything is fine.", "It is really fine."),
    ({"rule": "paragraph_first_word", "index": 2, "word": "However"}, "Intro.\n\nHowever, no.", "Intro.\n\nBut however."),
    ({"rule": "paragraph_first_word", "index": 3, "word": "Finally"}, _PARA3.replace("Third", "Finally, third"), _PARA3),
    ({"rule": "starts_with", "phrase": "Dear reader"}, "  dear READER, hello.", "Hello, dear reader."),
    ({"rule": "ends_with", "phrase": "Any other questions?"}, "That is all. Any other questions?\n", "Any other questions? Bye."),
    ({"rule": "wrapped_in_quotes"}, '  "All of it, quoted."  ', '"Only the start, quoted."  not the end'),
    ({"rule": "json_format"}, '```json\n{"a": [1, 2]}\n```', "Here: {\"a\": 1}"),
    ({"rule": "json_format", "keys": ["name"]}, '{"name": "x", "age": 3}', '["name"]'),
    ({"rule": "title"}, "<<The Tides>>\nText.", "<< >> and <<two\nlines>>"),
    ({"rule": "postscript"}, "Body text.\n\nP.S. One more thing.", "P.S. at the very start.\nbody"),
    ({"rule": "postscript", "marker": "P.P.S"}, "Body.\np.p.s call me", "Body.\nP.P.S"),
    ({"rule": "two_responses"}, "First take.\n******\nSecond take.", "Same.\n******\nSame."),
    ({"rule": "two_responses"}, "A\n******\nB", "A\n******\nB\n******\nC"),
    ({"rule": "repeat_prompt", "prompt": "Describe the   Moon."}, "describe the moon.\nIt is grey.", "The Moon. Describe the Moon."),
    ({"rule": "repeat_prompt", "prompt": "Describe the Moon."}, "Describe the Moon. Grey.", "Describe the Moon."),
    ({"rule": "answer_choice", "options": ["My answer is yes.", "My answer is no."]}, "my answer is yes.", "My answer is yes. My answer is no."),
    ({"rule": "all_uppercase"}, "HELLO, WORLD 42!", "HELLO, World"),
    ({"rule": "all_lowercase"}, "hello, world 42!", "hello, World"),
    ({"rule": "all_lowercase"}, "ok", "42 !"),
    ({"rule": "no_commas"}, "No commas here.", "One, two."),
    ({"rule": "no_commas"}, "Still none.", "全角，逗号"),
    ({"rule": "forbidden_chars", "chars": "!?"}, "Calm statement.", "Really?"),
    ({"rule": "response_language", "language": "fr"}, "Le chat est sur la table et il dort dans la maison avec nous.", "The cat is on the table and it sleeps in the house with us."),
    ({"rule": "response_language", "language": "en"}, "The cat is on the table and it sleeps in the house with us.", "Der Hund ist nicht in dem Haus und die Katze ist auch nicht da."),
    ({"rule": "response_language", "language": "de"}, "Der Hund ist nicht in dem Haus und die Katze ist auch nicht da.", "El perro no está en la casa y el gato tampoco está con los niños."),
    ({"rule": "response_language", "language": "es"}, "El perro no está en la casa y el gato tampoco está con los niños.", "Il cane non è nella casa e il gatto non è con i bambini della famiglia."),
    ({"rule": "response_language", "language": "it"}, "Il cane non è nella casa e il gatto non è con i bambini della famiglia.", "O cão não está em casa e o gato também não está com as crianças da família."),
    ({"rule": "response_language", "language": "pt"}, "O cão não está em casa e o gato também não está com as crianças da família.", "De hond is niet in het huis en de kat is er ook niet bij de kinderen."),
    ({"rule": "response_language", "language": "nl"}, "De hond is niet in het huis en de kat is er ook niet bij de kinderen.", "Pies nie jest w domu i kot też nie jest z dziećmi, to jest pewne."),
    ({"rule": "response_language", "language": "pl"}, "Pies nie jest w domu i kot też nie jest z dziećmi, to jest pewne.", "Собака не дома, и кошка тоже не с детьми."),
    ({"rule": "response_language", "language": "ru"}, "Собака не дома, и кошка тоже не с детьми.", "Собака не вдома, і кішка теж не з дітьми."),
    ({"rule": "response_language", "language": "uk"}, "Собака не вдома, і кішка теж не з дітьми.", "犬は家にいません。猫も子供たちと一緒にいません。"),
    ({"rule": "response_language", "language": "ja"}, "犬は家にいません。猫も子供たちと一緒にいません。", "狗不在家里，猫也不和孩子们在一起。"),
    ({"rule": "response_language", "language": "zh"}, "狗不在家里，猫也不和孩子们在一起。", "개는 집에 없고 고양이도 아이들과 함께 있지 않습니다."),
    ({"rule": "response_language", "language": "ko"}, "개는 집에 없고 고양이도 아이들과 함께 있지 않습니다.", "12345 !!!"),
    ({"rule": "response_language", "language": "el"}, "Ο σκύλος δεν είναι στο σπίτι.", "Le chien n'est pas à la maison."),
]

# (answer, passing text, failing text) for the combinators and the top level.
_COMPOSED: list[tuple[dict[str, Any], str, str]] = [
    ({"all": [{"rule": "no_commas"}, {"rule": "word_count", "min": 2}]}, "two words", "two, words"),
    (
        {"all": [{"any": [{"rule": "title"}, {"rule": "all_uppercase"}]}, {"rule": "word_count", "max": 3}]},
        "SHOUT IT",
        "Quiet please",
    ),
    ({"all": [{"all": [{"rule": "ends_with", "phrase": "done"}]}]}, "all done", "done already"),
]

# (function, input, expected) for the shared definitions.
_DEFINITIONS: list[tuple[Callable[[str], list[str]], str, list[str]]] = [
    (words, "don't stop at 3.5 well-known e-mails’ end", ["don't", "stop", "at", "3", "5", "well-known", "e-mails", "end"]),
    (words, "café naïve -x- it's'", ["caf", "na", "ve", "x", "it's"]),
    (lines, "\n x\n  a\n\n \nb  \n", ["x", "  a", "b"]),
    (paragraphs, "\n\na\nb\n \n\nc\n\n", ["a\nb", "c"]),
    (sentences, "Dr. Who? Yes!! 3.14 is pi... ok", ["Dr", " Who", " Yes", " 3.14 is pi", " ok"]),
    (sentences, "No terminal punctuation", ["No terminal punctuation"]),
    (bullets, "* a\n*b\n- c\n -d\n  + e\n• f\n1. g", ["* a", "- c", "  + e", "• f"]),
    (numbered_items, "1. a\n2) b\n3.c\n 10. d", ["1. a", "2) b", " 10. d"]),
]


def self_test(verbose: bool = False) -> list[str]:
    """Run every case; return the failures (empty when all pass)."""
    failures: list[str] = []
    covered_pass: set[str] = set()
    covered_fail: set[str] = set()
    for rule, good, bad in _CASES:
        errors = validate({"all": [rule]})
        if errors:
            failures.append(f"malformed self-test rule {rule}: {errors}")
            continue
        ok, failed = evaluate({"all": [rule]}, good)
        if ok and not failed:
            covered_pass.add(rule["rule"])
        else:
            failures.append(f"{rule} should PASS on {good!r}: {explain({'all': [rule]}, good)[0][2]}")
        ok, failed = evaluate({"all": [rule]}, bad)
        if not ok and failed == [rule]:
            covered_fail.add(rule["rule"])
        else:
            failures.append(f"{rule} should FAIL on {bad!r}")
    for answer, good, bad in _COMPOSED:
        if not evaluate(answer, good)[0]:
            failures.append(f"{answer} should PASS on {good!r}")
        if evaluate(answer, bad)[0]:
            failures.append(f"{answer} should FAIL on {bad!r}")
    for fn, text, expected in _DEFINITIONS:
        got = fn(text)
        if got != expected:
            failures.append(f"{fn.__name__}({text!r}) = {got!r}, expected {expected!r}")
    for name in RULES:
        if name not in covered_pass:
            failures.append(f"rule {name!r} has no passing self-test case")
        if name not in covered_fail:
            failures.append(f"rule {name!r} has no failing self-test case")
    for lang in SUPPORTED_LANGUAGES:
        if not any(r["rule"] == "response_language" and r["language"] == lang for r, _, _ in _CASES):
            if lang not in {"ar", "he", "hi", "th"}:
                failures.append(f"language {lang!r} has no self-test case")
    for bad_answer in ({"any": []}, {"all": [{"rule": "nope"}]}, {"all": [{"rule": "word_count"}]},
                       {"all": [{"rule": "word_count", "min": 3, "max": 1}]}, {"all": [{"rule": "title", "x": 1}]},
                       {"all": [{"rule": "letter_frequency", "letter": "ab", "min": 1}]}, ["word_count"]):
        if not validate(bad_answer):
            failures.append(f"validate() accepted the malformed rule set {bad_answer!r}")
    if verbose:
        print(f"{len(_CASES)} rule cases, {len(_COMPOSED)} composed, {len(_DEFINITIONS)} definition cases, {len(RULES)} rules")
    return failures


def _main(argv: Iterable[str]) -> int:
    args = list(argv)
    if "--list" in args:
        for name, (_, params, required, what) in sorted(RULES.items()):
            shown = ", ".join(f"{k}{'' if k in required else '?'}" for k in params)
            print(f"{name:22s} {{{shown}}}  {what}")
        return 0
    if "--self-test" in args:
        failures = self_test(verbose=True)
        for failure in failures:
            print(f"FAIL {failure}", file=sys.stderr)
        print("self-test: " + ("OK" if not failures else f"{len(failures)} failure(s)"))
        return 1 if failures else 0
    print("usage: rules.py --self-test | --list", file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(_main(sys.argv[1:]))
    except BrokenPipeError:  # e.g. `rules.py --list | head`
        sys.exit(0)
