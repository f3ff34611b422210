"""Every command and subcommand of the three command lines teaches: a summary, a
description, examples and its exit status; required options say so; no "(default: None)"."""

from __future__ import annotations

import argparse

import pytest

from atlas_assets.cli import build_parser as atlas_parser
from atlas_assets.ratings.cli import build_parser as ratings_parser
from autobench.cli import build_parser as autobench_parser


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...]):
    yield path, parser, None
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            summaries = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                for found in _walk(sub, (*path, name)):
                    yield found[0], found[1], found[2] if found[0] != (*path, name) else summaries.get(name)


COMMANDS = [found for build, prog in ((atlas_parser, "atlas"), (ratings_parser, "humaneval-ratings"), (autobench_parser, "autobench"))
            for found in _walk(build(), (prog,))]  # fmt: skip


def test_the_walk_finds_every_command_line_and_their_subcommands():
    names = {" ".join(path) for path, _, _ in COMMANDS}
    assert {
        "atlas eval run",
        "atlas translation report",
        "atlas sim serve",
        "humaneval-ratings verify",
        "autobench dataset generate",
    } <= names
    assert len(names) >= 25


@pytest.mark.parametrize("path, parser, summary", COMMANDS, ids=[" ".join(p) for p, _, _ in COMMANDS])
def test_help_teaches(path, parser, summary):
    text = parser.format_help()
    assert parser.description, "no description"
    if len(path) > 1:
        assert summary, "no one-line summary in the parent's command list"
    assert "example" in text, "no examples"
    assert "exit status" in text or "exit codes" in text, "no exit status"
    assert "(default: None)" not in text
    required = [a for a in parser._actions if a.required and a.option_strings]
    options = text[text.index("\noptions:") :]
    for action in required:
        line = next(line for line in options.splitlines() if line.startswith(f"  {action.option_strings[0]} "))
        block = options[options.index(line) :].split("\n  -")[0]
        assert "(required)" in block, f"{action.option_strings[0]} is required but its help does not say so"
