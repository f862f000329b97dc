"""Every command has help text and is documented in the README."""

from pathlib import Path

import pytest

from rulesarchive.cli import main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(main.commands))
def test_command_has_help_and_readme_section(name):
    command = main.commands[name]
    assert command.help, f"{name} has no help"
    assert f"rulesarchive {name}" in README or f"`{name}`" in README
    for param in command.params:
        for option in getattr(param, "opts", []):
            if option.startswith("--"):
                assert option in README, f"{name} {option} is not in the README"


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    test_command = next(
        line for line in README.splitlines() if "pytest" in line and "pip install" in line
    )
    assert test_command.strip() in ci
