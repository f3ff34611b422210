"""Language tags (translation/languages.py): names for every FLORES+ target, the naming
rule for scripts and regions, fallbacks that never raise, the normal form, FLORES codes,
and the prompt template built and parsed with those names."""

from __future__ import annotations

import pytest

from atlas_assets.translation import prompt
from atlas_assets.translation.languages import flores_to_bcp47, label, language_name, normalize_tag
from atlas_assets.translation.schema import is_bcp47

# 39 FLORES+ devtest targets (English is the source), as a multi-model benchmark runs them,
# with the name each gets. A changed name changes every prompt for that target.
FLORES_TARGETS = {
    "arb_Arab": "Standard Arabic",
    "apc_Arab_nort3139": "North Levantine Arabic",
    "ben_Beng": "Bangla",
    "ces_Latn": "Czech",
    "deu_Latn": "German",
    "ell_Grek": "Greek",
    "fin_Latn": "Finnish",
    "fra_Latn": "French",
    "guj_Gujr": "Gujarati",
    "hau_Latn": "Hausa",
    "heb_Hebr": "Hebrew",
    "hin_Deva": "Hindi",
    "hun_Latn": "Hungarian",
    "ind_Latn": "Indonesian",
    "ita_Latn": "Italian",
    "jpn_Jpan": "Japanese",
    "kor_Hang": "Korean (Hangul)",
    "mar_Deva": "Marathi",
    "nld_Latn": "Dutch",
    "npi_Deva": "Nepali",
    "pes_Arab": "Iranian Persian",
    "pol_Latn": "Polish",
    "por_Latn": "Portuguese",
    "quy_Latn": "Ayacucho Quechua",
    "ron_Latn": "Romanian",
    "rus_Cyrl": "Russian",
    "spa_Latn": "Spanish",
    "swe_Latn": "Swedish",
    "swh_Latn": "Swahili",
    "tam_Taml": "Tamil",
    "tel_Telu": "Telugu",
    "tha_Thai": "Thai",
    "tur_Latn": "Turkish",
    "ukr_Cyrl": "Ukrainian",
    "urd_Arab": "Urdu",
    "vie_Latn": "Vietnamese",
    "yor_Latn": "Yoruba",
    "zho_Hans": "Chinese",
    "zho_Hant": "Chinese (Traditional)",
}


def test_every_flores_target_has_a_real_distinct_name():
    assert len(FLORES_TARGETS) == 39
    names = {code: language_name(flores_to_bcp47(code)) for code in FLORES_TARGETS}
    assert names == FLORES_TARGETS
    for code, name in names.items():
        tag = flores_to_bcp47(code)
        assert name != tag and code.split("_")[0] not in name and "_" not in name and "Unknown" not in name, (code, name)
    assert len(set(names.values())) == 39


@pytest.mark.parametrize(
    "tag, name",
    [
        # the default script is not named; another script of the same language is
        ("eng-Latn", "English"), ("eng", "English"), ("en", "English"), ("EN-latn-us", "English (United States)"),
        ("kas-Arab", "Kashmiri"), ("kas-Deva", "Kashmiri (Devanagari)"),
        ("ace-Latn", "Acehnese"), ("ace-Arab", "Acehnese (Arabic)"),
        ("srp-Cyrl", "Serbian"), ("srp-Latn", "Serbian (Latin)"),
        ("pan-Guru", "Punjabi"), ("pan-Arab", "Punjabi (Arabic)"),
        ("arb-Latn", "Standard Arabic (Latin)"), ("cmn-Hans", "Mandarin Chinese"), ("cmn-Hant", "Mandarin Chinese (Traditional)"),
        # the default follows the region: Taiwan writes Hant, Montenegro Latin, Pakistan Arabic
        ("zh-Hant-TW", "Chinese (Taiwan)"), ("sr-Latn-ME", "Serbian (Montenegro)"), ("pa-Arab-PK", "Punjabi (Pakistan)"),
        # else the macrolanguage's default (acm, apc -> ar; quy -> qu)
        ("acm-Arab", "Mesopotamian Arabic"), ("quy-Latn", "Ayacucho Quechua"),
        # a language CLDR knows no default script for keeps its script
        ("lus-Latn", "Mizo (Latin)"),
        # deprecated codes are read as their replacements; the registry's qualifier is dropped
        ("prs-Arab", "Persian (Afghanistan)"), ("iw", "Hebrew"), ("npi-Deva", "Nepali"),
        # names that carry parentheses of their own
        ("luo-Latn", "Luo (Kenya and Tanzania)"),
        ("pt-BR", "Portuguese (Brazil)"), ("crk", "Plains Cree"), ("en-Qaaa", "English (Qaaa)"),
        # private use (a FLORES+ 2 Glottocode) is not named: the tag carries it
        ("apc-Arab-x-nort3139", "North Levantine Arabic"), ("twi-Latn-x-akua1239", "Twi"),
    ],
)  # fmt: skip
def test_naming_rule(tag, name):
    assert language_name(tag) == name


@pytest.mark.parametrize(
    "tag", ["xx-Zzzz", "qaa", "und", "x-private", "", "en\n", "eng_Latn", "en_US", "abcdefgh", "en--US", "a" * 10_000, "😀"]
)
def test_a_tag_without_a_name_is_its_own_name(tag):
    assert language_name(tag) == tag
    assert label(tag) == tag


def test_label_and_cache():
    assert label("rus-Cyrl") == "Russian (rus-Cyrl)" and label("zho-Hant") == "Chinese (Traditional) (zho-Hant)"
    language_name("hin-Deva")
    before = language_name.cache_info().hits
    for _ in range(1000):
        language_name("hin-Deva")
    assert language_name.cache_info().hits == before + 1000


@pytest.mark.parametrize(
    "tag, normal",
    [
        ("eng-Latn", "en"), ("eng", "en"), ("en", "en"), ("EN-latn-us", "en-US"), ("rus-Cyrl", "ru"), ("fra-FR", "fr-FR"),
        ("pt-br", "pt-BR"), ("zho-Hans", "zh-Hans"), ("zho-Hant", "zh-Hant"), ("zh-cmn-Hans", "zh-Hans"),
        ("arb-Arab", "arb-Arab"), ("cmn-Hans", "cmn-Hans"), ("swh-Latn", "swh-Latn"), ("kas-Deva", "ks-Deva"),
        ("crk", "crk"), ("iw", "he"), ("prs-Arab", "fa-AF"), ("sgn-US", "ase"),
        ("apc-Arab-x-nort3139", "apc-Arab-x-nort3139"), ("de-DE-1901", "de-DE-1901"), ("x-private", "x-private"),
    ],
)  # fmt: skip
def test_normal_form(tag, normal):
    assert normalize_tag(tag) == normal
    assert normalize_tag(normal) == normal  # idempotent


@pytest.mark.parametrize("tag", ["", "en_US", "eng_Latn", "en--US", "abcdefgh", "en\n", "i-klingon", "-en", "en-"])
def test_normalize_refuses_malformed_tags_naming_them(tag):
    with pytest.raises(ValueError, match="not a well-formed BCP 47") as info:
        normalize_tag(tag)
    assert repr(tag) in str(info.value)


@pytest.mark.parametrize(
    "code, tag",
    [("eng_Latn", "eng-Latn"), ("zho_Hant", "zho-Hant"), ("apc_Arab_nort3139", "apc-Arab-x-nort3139"),
     ("twi_Latn_akua1239", "twi-Latn-x-akua1239"), ("twi_Latn_asan1239", "twi-Latn-x-asan1239"), ("dik_Latn_sout2832", "dik-Latn-x-sout2832")],
)  # fmt: skip
def test_flores_codes(code, tag):
    assert flores_to_bcp47(code) == tag
    assert is_bcp47(tag) and normalize_tag(tag).endswith(tag.partition("-x-")[2])


@pytest.mark.parametrize(
    "code",
    ["", "eng", "eng-Latn", "eng_latn", "en_Latn", "eng_LATN", "eng_Latn_", "eng_Latn_nort313", "eng_Latn_NORT3139",
     "eng_Latn_nort3139_x", "eng_Latn\n", " eng_Latn", "../eng_Latn", "eng_Latn.devtest"],
)  # fmt: skip
def test_malformed_flores_codes_are_refused_naming_them(code):
    with pytest.raises(ValueError, match="not a FLORES code") as info:
        flores_to_bcp47(code)
    assert repr(code) in str(info.value)


def test_prompts_name_every_flores_target():
    for code, name in FLORES_TARGETS.items():
        tag = flores_to_bcp47(code)
        user = prompt.messages("The river is wide.", "eng-Latn", tag)[1]["content"]
        assert user.startswith(f"Translate the following text from English (eng-Latn) into {name} ({tag}). Reply with"), user
        assert f"{tag} ({tag})" not in user


@pytest.mark.parametrize(
    "source_language, target_language",
    [("eng-Latn", "zho-Hant"), ("zho-Hant", "eng-Latn"), ("zho-Hant", "luo-Latn"), ("luo-Latn", "zh-Hant-TW"),
     ("en", "fr"), ("eng-Latn", "apc-Arab-x-nort3139"), ("xx-Zzzz", "qaa"), ("en", "EN-latn-us")],
)  # fmt: skip
@pytest.mark.parametrize(
    "source",
    ["The river is wide.", "", "two\n\nparagraphs\n", "(en) into French (fr). Reply with the translation only, without quotes, notes or explanations.\n\nx",
     "Chinese (Traditional) (zho-Hant)"],
)  # fmt: skip
def test_parse_user_turn_round_trips_names_with_parentheses(source_language, target_language, source):
    user = prompt.messages(source, source_language, target_language)[1]["content"]
    assert prompt.parse_user_turn(user) == (source_language, target_language, source)


def test_parse_user_turn_refuses_turns_the_template_did_not_make():
    user = prompt.messages("Hello.", "eng-Latn", "zho-Hant")[1]["content"]
    assert prompt.parse_user_turn(user.replace("Chinese (Traditional)", "Chinese")) is None  # a name the tag does not have
    assert prompt.parse_user_turn(user.replace("English", "Russian")) is None
    assert prompt.parse_user_turn(user.replace("(zho-Hant)", "(zho Hant)")) is None
    assert prompt.parse_user_turn(user.replace(". Reply", ".  Reply")) is None
    assert prompt.parse_user_turn("Translate this: Hello.") is None
    assert prompt.parse_user_turn(user.replace("Translate the following text from English (eng-Latn) into ", "Translate into ")) is None


def test_the_template_text_and_its_digest_are_unchanged():
    # The names are rendered into each request (fingerprinted there), not into the template:
    # naming every tag properly leaves translate-v1's digest as it was.
    info = prompt.template_info()
    assert info["id"] == "translate-v1"
    assert info["sha256"] == "a5dd144d6909f32806441a4ca4affea2d0ad28bd9f3a0792ef8d9a49dbb73224"
