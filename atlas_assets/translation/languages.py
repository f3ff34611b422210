"""Language tags in one place: their English names, their normal form, FLORES codes.

Names and normalisation come from `langcodes` (IANA language subtag registry + Unicode
CLDR, its data in `language_data`); nothing here keeps a table of its own.

    language_name(tag) -> str     rus-Cyrl -> "Russian", zho-Hant -> "Chinese (Traditional)"
    label(tag) -> str             "Russian (rus-Cyrl)": how prompts, reports and the CLI show a tag
    normalize_tag(tag) -> str     the form to compare tags in: eng-Latn -> "en"
    flores_to_bcp47(code) -> str  eng_Latn -> "eng-Latn", apc_Arab_nort3139 -> "apc-Arab-x-nort3139"

Names. The English name of the language subtag (after langcodes' normalisation: eng ->
en, a deprecated code -> its replacement, e.g. prs -> fa-AF), with the IANA registry's
" (individual language)" qualifier dropped (swh is "Swahili", not "Swahili (individual
language)": the tag shown beside the name says which). Then, in parentheses, the script
and the region when there are any, except that the language's default script is not
named: the script CLDR's likely subtags give the language (for its region, if the tag has
one: zh-TW is written in Hant), else its ISO 639-3 macrolanguage's (apc, acm -> ar -> Arab;
quy -> qu -> Latn). So rus-Cyrl is "Russian", zho-Hans "Chinese", zho-Hant "Chinese
(Traditional)", kas-Arab "Kashmiri", kas-Deva "Kashmiri (Devanagari)", pt-BR "Portuguese
(Brazil)"; a language CLDR knows no default script for keeps its script (lus-Latn "Mizo
(Latin)"), so two scripts of one language never share a name. Variants, extensions and
private use (the Glottocode of a FLORES+ 2 code) are not named: the tag carries them.
A tag that is not well-formed BCP 47 (schema.is_bcp47), or whose language subtag has no
English name (xx-Zzzz, qaa), is its own name: naming never raises.

Normal form. `langcodes.standardize_tag` semantics (BCP 47 case conventions; deprecated
codes replaced; an ISO 639-2/3 code with an ISO 639-1 equivalent shortened, eng -> en,
zho -> zh; a script dropped only when the registry marks it as the language's
Suppress-Script, eng-Latn -> en but zho-Hans and arb-Arab keep theirs; no macrolanguage
folding, arb stays arb; private use kept). A tag that is not well-formed raises ValueError.

FLORES codes. `language_Script` (ISO 639-3 + ISO 15924) and FLORES+ 2's
`language_Script_glottocode` (a Glottolog languoid, 4 lowercase letters or digits + 4
digits). The Glottocode becomes a private-use subtag, `-x-nort3139`: a well-formed tag in
which two varieties of one language and script (twi_Latn_akua1239, twi_Latn_asan1239)
stay distinct. Anything else raises ValueError naming the code.
"""

from __future__ import annotations

import re
from functools import lru_cache

import langcodes
from langcodes.data_dicts import LIKELY_SUBTAGS, MACROLANGUAGES
from langcodes.tag_parser import LanguageTagError
from language_data.names import code_to_names

from atlas_assets.translation.schema import is_bcp47

__all__ = ["flores_to_bcp47", "is_flores_code", "label", "language_name", "normalize_tag"]

_INDIVIDUAL = " (individual language)"
_FLORES = re.compile(r"(?P<language>[a-z]{3})_(?P<script>[A-Z][a-z]{3})(?:_(?P<glottocode>[a-z0-9]{4}[0-9]{4}))?")


def _parse(tag: str) -> langcodes.Language:
    """The tag parsed by langcodes (normalised); ValueError unless well-formed BCP 47."""
    problem = f"{tag!r} is not a well-formed BCP 47 language tag (e.g. en, crk, pt-BR, zh-Hant)"
    if not is_bcp47(tag):
        raise ValueError(problem)
    try:
        return langcodes.Language.get(tag)
    except LanguageTagError as exc:
        raise ValueError(f"{problem}: {exc}") from None


def _english(code: str) -> str | None:
    name: str | None = code_to_names(code).get("en")
    return name


def _default_script(language: str, territory: str | None) -> str | None:
    """CLDR's likely script for the language (in its region), else for its macrolanguage."""
    for candidate in (language, MACROLANGUAGES.get(language)):
        if candidate is None:
            continue
        base = langcodes.Language.make(language=candidate, territory=territory)
        if any(tag in LIKELY_SUBTAGS for tag in base.broader_tags() if not tag.startswith("und")):
            return base.maximize().script
    return None


@lru_cache(maxsize=4096)
def language_name(tag: str) -> str:
    """The English name of a BCP 47 tag (module docstring); the tag itself when it has none."""
    try:
        lang = _parse(tag)
    except ValueError:
        return tag
    if not lang.language:
        return tag
    name = _english(lang.language)
    if name is None:
        return tag
    qualifiers = []
    if lang.script and lang.script != _default_script(lang.language, lang.territory):
        qualifiers.append(_english(lang.script) or lang.script)
    if lang.territory:
        qualifiers.append(_english(lang.territory) or lang.territory)
    name = name.removesuffix(_INDIVIDUAL)
    return f"{name} ({', '.join(qualifiers)})" if qualifiers else name


def label(tag: str) -> str:
    """`Name (tag)`, or the tag alone when it has no name."""
    name = language_name(tag)
    return tag if name == tag else f"{name} ({tag})"


@lru_cache(maxsize=4096)
def normalize_tag(tag: str) -> str:
    """The normal form of a BCP 47 tag (module docstring)."""
    return langcodes.standardize_tag(_parse(tag))


def is_flores_code(code: str) -> bool:
    return _FLORES.fullmatch(code) is not None


def flores_to_bcp47(code: str) -> str:
    """A FLORES code as a BCP 47 tag: eng_Latn -> eng-Latn, apc_Arab_nort3139 -> apc-Arab-x-nort3139."""
    match = _FLORES.fullmatch(code)
    if match is None:
        raise ValueError(f"{code!r} is not a FLORES code (language_Script or language_Script_glottocode, e.g. eng_Latn, apc_Arab_nort3139)")
    tag = f"{match['language']}-{match['script']}"
    return f"{tag}-x-{match['glottocode']}" if match["glottocode"] else tag
