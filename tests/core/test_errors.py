"""One error base and one wording: every error a user can cause derives from AtlasError,
and pydantic's problems read the same in every module."""

from __future__ import annotations

import importlib

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from atlas_assets.core.errors import AtlasError, located, validation_messages

USER_ERRORS = [
    ("atlas_assets.corpus.cards", "CardsError"),
    ("atlas_assets.corpus.errata", "ErrataError"),
    ("atlas_assets.evals.config", "ConfigError"),
    ("atlas_assets.simulator.profiles", "ProfileError"),
    ("atlas_assets.translation.flores", "FloresError"),
    ("atlas_assets.translation.schema", "CorpusError"),
    ("autobench.benchmark", "BenchmarkError"),
    ("autobench.evals_format", "FormatError"),
    ("autobench.evaluators", "EvaluatorConfigError"),
    ("autobench.files", "DatasetIntegrityError"),
    ("autobench.files", "DocumentError"),
    ("autobench.generation", "PublicationError"),
    ("autobench.yamlio", "YamlError"),
]


@pytest.mark.parametrize("module, name", USER_ERRORS)
def test_every_user_error_is_an_atlas_error_and_still_a_value_error(module, name):
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, AtlasError) and issubclass(cls, ValueError)


def test_located_names_option_file_line_and_field_in_one_order():
    assert (
        located("must be > 0", option="--votes", path="v.jsonl", line=12, field="weight")
        == "--votes: v.jsonl:12: field 'weight': must be > 0"
    )
    assert located("no such file", option="--dataset", path="x.json") == "--dataset: x.json: no such file"
    assert located("bad", path="x.json", field="id") == "x.json: field 'id': bad"
    assert located("plain") == "plain"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    count: int
    name: str = "x"


def test_validation_messages_word_missing_unknown_and_wrong_types_once():
    with pytest.raises(ValidationError) as caught:
        _Strict.model_validate({"name": 3, "colour": "red"})
    got = dict(validation_messages(caught.value, ("settings",)))
    assert got == {
        "settings.count": "required field is missing",
        "settings.name": "Input should be a valid string (got int: '3')",
        "settings.colour": "unknown field (not in the schema)",
    }
    with pytest.raises(ValidationError) as caught:
        _Strict.model_validate({"count": 1, "a|b\n": 1})
    assert validation_messages(caught.value) == [("'a|b\\n'", "unknown field (not in the schema)")]  # one line, quoted
