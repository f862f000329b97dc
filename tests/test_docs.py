"""Every command has help text and a README section that documents each of its options."""

import re
from pathlib import Path

import click
import pytest

from rulesarchive.cli import COMMANDS, main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def readme_section(command: str) -> str:
    """Return the README's section of a command: its heading down to the next heading."""
    heading = re.search(rf"^###+ `rulesarchive {command}\b.*$", README, re.M)
    assert heading, f"the README has no '### `rulesarchive {command} ...`' section"
    following = re.compile(r"^#{1,3} ", re.M).search(README, heading.end())
    return README[heading.start() : following.start() if following else len(README)]


def global_options_text() -> str:
    """Return the README's CLI reference up to the first command's section."""
    start = README.index("## CLI reference")
    return README[start : README.index("\n### ", start)]


def mentions(text: str, option: str) -> bool:
    """Tell whether the text names the option as a word (`--lang` is not `--language`)."""
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def long_options(command) -> list[str]:
    return [
        option
        for param in command.params
        for option in getattr(param, "opts", [])
        if option.startswith("--")
    ]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_command_has_help_and_each_option_in_its_own_readme_section(name):
    command = main.get_command(click.Context(main), name)
    assert command is not None
    assert command.help, f"{name} has no help"
    section = readme_section(name)
    for option in long_options(command):
        assert mentions(section, option), (
            f"{name} {option} is not in the README's section of {name}"
        )


def test_global_options_are_in_the_cli_reference():
    text = global_options_text()
    for option in [*long_options(main), "--version"]:
        assert mentions(text, option), f"{option} is not in the README's CLI reference"


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    test_command = next(
        line for line in README.splitlines() if "pytest" in line and "pip install" in line
    )
    assert test_command.strip() in ci
