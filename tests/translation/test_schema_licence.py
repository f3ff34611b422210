"""Corpus licences: SPDX expressions judged by `license-expression` (atlas_assets/translation/spdx.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from atlas_assets.translation import spdx
from atlas_assets.translation.schema import validate_data
from tests.helpers.translation import REPO


def licence_problems(doc, licence):
    doc["dataset"]["license"] = licence
    report = validate_data(doc, "t.json")
    return [(p.severity, p.field, p.message) for p in report.problems]


@pytest.mark.parametrize(
    "licence",
    [
        "MIT",
        "CC0-1.0",
        "CC-BY-NC-SA-4.0",
        "MIT OR Apache-2.0",
        "(MIT OR Apache-2.0) AND CC-BY-4.0",
        "GPL-2.0-or-later WITH Classpath-exception-2.0",
        "Apache-2.0+",
        "LicenseRef-edtekla-research",
        "DocumentRef-spdx-tool-1.2:LicenseRef-MIT-Style-2",
        "LicenseRef-x AND (CC-BY-SA-4.0 OR MIT)",
    ],
)
def test_valid_spdx_expressions_pass_without_a_word(example_doc, licence):
    assert licence_problems(example_doc, licence) == []


@pytest.mark.parametrize(
    "licence, suggested",
    [
        ("CC BY-NC-SA 4.0", "CC-BY-NC-SA-4.0"),  # the spec's own spellings
        ("CC BY-SA 4.0", "CC-BY-SA-4.0"),
        ("CC BY 4.0", "CC-BY-4.0"),
        ("cc-by-sa 4.0", "CC-BY-SA-4.0"),
        ("Apache 2.0", "Apache-2.0"),
        ("apache license 2.0", "Apache-2.0"),
        ("Apache License, Version 2.0", "Apache-2.0"),
        ("MIT License", "MIT"),
        ("GPLv3", "GPL-3.0-only or GPL-3.0-or-later"),
        ("CC0", "CC0-1.0"),
        ("Apahce-2.0", "Apache-2.0"),
        ("MIT License OR Apache License 2.0", "MIT OR Apache-2.0"),
        ("CC BY-NC-SA 4.0 AND MIT", "CC-BY-NC-SA-4.0"),
    ],
)
def test_a_non_spdx_spelling_is_an_error_that_suggests_the_spdx_id(example_doc, licence, suggested):
    ((severity, field, message),) = licence_problems(example_doc, licence)
    assert (severity, field) == ("error", "dataset.license")
    assert f"did you mean {suggested}?" in message, message


@pytest.mark.parametrize(
    "licence, warning",
    [
        ("GPL-3.0", "'GPL-3.0' is a deprecated or informal SPDX id: write GPL-3.0-only (or GPL-3.0-or-later for this version or later)"),
        ("GPL-2.0+", "'GPL-2.0+' is a deprecated or informal SPDX id: write GPL-2.0-or-later"),
        ("mit", "'mit': write MIT (the SPDX list's spelling)"),
        ("MIT and Apache-2.0", "'and': operators are written in upper case (AND)"),
        ("GPL-2.0-only with Classpath-exception-2.0", "'with': operators are written in upper case (WITH)"),
    ],
)
def test_deprecated_ids_and_other_spellings_warn_with_the_current_id(example_doc, licence, warning):
    assert licence_problems(example_doc, licence) == [("warning", "dataset.license", warning)]


@pytest.mark.parametrize(
    "licence, says",
    [
        ("", "must be an SPDX licence expression"),
        ("   ", "must be an SPDX licence expression"),
        ("MIT\n", "'MIT\\n' contains a newline or another control character; an SPDX expression is one line"),
        ("\nMIT", "contains a newline"),
        ("MIT\nAND Apache-2.0", "contains a newline"),
        ("MIT\tOR Apache-2.0", "control character"),
        ("MIT\r", "control character"),
        (" MIT", "' MIT' has leading or trailing whitespace"),
        ("MIT ", "has leading or trailing whitespace"),
        ("MIT AND", "not a valid SPDX expression: AND requires two or more licenses"),
        ("MIT OR", "not a valid SPDX expression: OR requires two or more licenses"),
        ("(MIT", "not a valid SPDX expression: Invalid expression"),
        ("MIT)", "not a valid SPDX expression: Unbalanced parenthesis"),
        ("()", "not a valid SPDX expression: misplaced operators or parentheses"),
        ("ORAND AND () ) ", "has leading or trailing whitespace"),
        ("ORAND AND () )", "not a valid SPDX expression"),
        ("(AND DocumentRef-a: OR", "not a valid SPDX expression"),
        ("MIT WITH Apache-2.0", "cannot be used as an exception"),
        ("Classpath-exception-2.0", "can only be used as an exception"),
        ("MIT/Apache-2.0", "not a valid SPDX expression: Invalid license key"),
        ("LicenseRef-", "'LicenseRef-' is not a valid LicenseRef (LicenseRef- and a name of letters, digits, '.' or '-')"),
        ("Foo-1.0", "'Foo-1.0' is not an SPDX licence id; a licence outside the SPDX list is written LicenseRef-<name>"),
        ("BSD", "'BSD' is not an SPDX licence id"),
    ],
)
def test_malformed_licences_are_errors_of_the_licence_field(example_doc, licence, says):
    found = licence_problems(example_doc, licence)
    assert [(s, f) for s, f, _ in found] == [("error", "dataset.license")] and says in found[0][2], found


def test_hostile_licences_are_refused_with_a_short_message(example_doc):
    hostile = [
        "x" * 10_000,
        "MIT AND " * 1250 + "MIT)",
        "(" * 20_000 + "MIT",
        " AND ".join(f"Foo{i}" for i in range(2000)),
        "CC BY 4.0 " * 1000 + "x",
    ]
    for licence in hostile:
        found = licence_problems(example_doc, licence)
        assert [(s, f) for s, f, _ in found] == [("error", "dataset.license")] and len(found[0][2]) < 500, found
    ((_, _, many),) = licence_problems(example_doc, hostile[3])
    assert "'Foo4' is not an SPDX licence id; ... and 1995 more" in many
    assert licence_problems(example_doc, "(" * 20_000 + "MIT" + ")" * 20_000) == []  # deep but valid
    example_doc["dataset"]["license"] = 3
    assert [p.message for p in validate_data(example_doc).errors] == ["Input should be a valid string (got int: '3')"]


def test_a_hundred_corpora_licences_build_the_licensing_once(example_doc, monkeypatch):
    calls = []
    real = spdx.get_spdx_licensing
    monkeypatch.setattr(spdx, "get_spdx_licensing", lambda: calls.append(1) or real())
    for cached in (spdx._licensing, spdx._ids_by_spelling, spdx.check):
        cached.cache_clear()
    licences = [
        f"LicenseRef-corpus-{n}" if n % 4 == 0 else ("CC-BY-SA-4.0 OR MIT", "CC BY-NC-SA 4.0", f"Apache-License-{n}")[n % 3]
        for n in range(100)
    ]
    reports = [validate_data(example_doc | {"dataset": {**example_doc["dataset"], "license": licence}}) for licence in licences]
    assert calls == [1]  # the tables are built once for every corpus (timing: the note's figures, not a test)
    assert sum(r.ok for r in reports) == 25 + len([n for n in range(100) if n % 4 and n % 3 == 0])


def test_the_licensing_is_built_on_the_first_check_not_on_import():
    code = (
        "from atlas_assets.translation import schema, spdx; assert spdx._licensing.cache_info().currsize == 0; "
        "schema.is_bcp47('en'); spdx.check('MIT'); assert spdx._licensing.cache_info().currsize == 1"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr


def test_the_cli_names_the_spdx_id_for_the_spec_spelling(example_doc, write_corpus):
    example_doc["dataset"]["license"] = "CC BY-NC-SA 4.0"
    path = write_corpus(example_doc)
    result = subprocess.run(
        [str(REPO / ".venv" / "bin" / "atlas"), "translation", "validate", str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert (
        f"ERROR {path}: dataset field dataset.license: 'CC BY-NC-SA 4.0' is not an SPDX licence id (did you mean CC-BY-NC-SA-4.0?); "
        "a licence outside the SPDX list is written LicenseRef-<name>"
    ) in result.stderr
