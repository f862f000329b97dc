"""Options several commands share, declared once: `--lang`, `--format`, `--release`; and the
command line's defaults."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, TypeVar

import click

from rulesarchive.corpus.model import LANGUAGES, DocKind
from rulesarchive.differ.kinds import RENUMBERING, GlossaryKind, Kind

DEFAULT_ARCHIVE = "archive"
ARCHIVE_VARIABLE = "RULESARCHIVE_ARCHIVE"
DEFAULT_LANGUAGE = "en"
DEFAULT_FORMAT = "text"
DIFF_FORMATS = ("text", "markdown", "json")  # what `diff` and `changelog` print
TEXT_FORMATS = ("text", "json")  # what the other reading commands print
# What `--kind` picks: the kinds of change of rules and glossary entries, and the renumbering.
SELECTABLE_KINDS = (
    *(kind.value for kind in Kind if kind != Kind.UNCHANGED),
    GlossaryKind.RENAMED.value,
    RENUMBERING,
)
# A CR's section, chapter or rule; a tournament document's section, subsection or part
# ('3', '3.4', '3.4/definition'), appendix ('B') or introduction.
_SECTION = re.compile(
    r"\d|\d{3}(?:\.\d+[a-z]{0,2})?|\d{1,2}(?:\.\d{1,2})?(?:/[a-z-]+)?|[A-Z]|introduction"
)
INTERRUPTED = 130  # exit status after Ctrl-C, as a shell gives a command stopped by SIGINT
USAGE = 2  # exit status of a command line that cannot be taken, as click and getopt give

# A command's function (or a click command), as an option's decorator takes and returns it.
_Command = TypeVar("_Command", bound=Callable[..., object] | click.Command)


class Option(Protocol):
    """What each function below returns: click's decorator adding one option to a command,
    which returns the command it was given, its type kept."""

    def __call__(self, command: _Command, /) -> _Command: ...


def language_option(help: str | None = None, default: str | None = DEFAULT_LANGUAGE) -> Option:
    """Add `--lang L` (one language of the closed set; `default=None`: none given)."""
    return click.option(
        "--lang",
        type=click.Choice(LANGUAGES),
        default=default,
        show_default=default is not None,
        help=help or "Language of the releases.",
    )


def languages_option(help: str, closed: bool = True) -> Option:
    """Add a repeatable `--lang L`, passed as the tuple `languages` (empty: none given).

    `closed=False` leaves the check to the command (export: a failed export keeps the last).
    """
    kind = click.Choice(LANGUAGES) if closed else None
    return click.option("--lang", "languages", multiple=True, type=kind, help=help)


def doc_option(help: str, default: str | None = DocKind.CR.value) -> Option:
    """Add `--doc cr|mtr|ipg`, passed as `doc` (the kind of document; `default=None`: none)."""
    return click.option(
        "--doc",
        type=click.Choice([kind.value for kind in DocKind]),
        default=default,
        show_default=default is not None,
        help=help,
    )


def docs_option(help: str) -> Option:
    """Add a repeatable `--doc cr|mtr|ipg`, passed as the tuple `docs` (empty: none given)."""
    kinds = click.Choice([kind.value for kind in DocKind])
    return click.option("--doc", "docs", multiple=True, type=kinds, help=help)


def format_option(choices: tuple[str, ...] = TEXT_FORMATS) -> Option:
    """Add `--format`, passed as `output` (default text)."""
    return click.option(
        "--format",
        "output",
        type=click.Choice(choices),
        default=DEFAULT_FORMAT,
        show_default=True,
        help="Output format.",
    )


def release_option(help: str) -> Option:
    """Add `--release R`, passed as `reference` (an effective date or a set code)."""
    return click.option("--release", "reference", help=help)


def kind_option() -> Option:
    """Add a repeatable `--kind K` to `diff` and `changelog`, passed as the tuple `kinds`."""
    return click.option(
        "--kind",
        "kinds",
        multiple=True,
        type=click.Choice(SELECTABLE_KINDS),
        help="Show only changes of this kind (repeatable; renumbering: with splits and merges).",
    )


def section_option() -> Option:
    """Add `--section S` to `diff` and `changelog`: a section, chapter or rule, or glossary."""
    return click.option(
        "--section",
        callback=_section,
        help="Show only this section (7), chapter (702) or rule (702.19), or the glossary"
        " (MTR, IPG: a section 3, subsection 3.4, part 3.4/definition or appendix B).",
    )


def _section(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    if value is None or value == "glossary" or _SECTION.fullmatch(value):
        return value
    raise click.BadParameter(f"{value!r} is not a section, chapter or rule number, or glossary")
