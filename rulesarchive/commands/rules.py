"""The commands that read the archive: `releases`, `rule`, `diff`, `changelog`, `history`,
`check`, `translations`, `compare`. Each asks the Python API one question and prints the
answer: its JSON (`to_json()`) or its text (`to_text()`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulesarchive.api import Archive, json_text, scraped_history
from rulesarchive.corpus.model import LANGUAGES
from rulesarchive.corpus.store import no_releases
from rulesarchive.differ.release_report import releases_text
from rulesarchive.library import Library
from rulesarchive.options import (
    DIFF_FORMATS,
    doc_option,
    format_option,
    kind_option,
    language_option,
    release_option,
    section_option,
)

# `--doc` of the commands that read one kind of document's releases
DOC_OPTION = doc_option("Kind of document: cr (Comprehensive Rules), mtr or ipg.")
if TYPE_CHECKING:  # the API's answers, each imported by the command that prints it
    from rulesarchive.answers import (
        Check,
        CheckHistory,
        Compared,
        Comparison,
        History,
        RuleText,
        Translation,
    )

    # What `_print` prints: the API's answers that print as JSON or text.
    Printed = RuleText | Comparison | History | Check | CheckHistory | Translation | Compared


def _print(result: Printed, output: str) -> None:
    """Print a result as JSON or text."""
    if output == "json":
        click.echo(json_text(result.to_json()), nl=False)
    else:
        click.echo(result.to_text(), nl=False)


def _print_comparison(result: Comparison, output: str) -> None:
    """Print a diff or changelog as JSON, Markdown or text."""
    if output == "markdown":
        click.echo(result.to_text(markdown=True), nl=False)
    else:
        _print(result, output)


@click.command()
@click.argument("number")
@release_option("Effective date (2024-11-08) or set code (FDN); default newest.")
@language_option()
@format_option()
@DOC_OPTION
@click.pass_obj
def rule(root: Path, number: str, reference: str | None, lang: str, output: str, doc: str) -> None:
    """Print one rule with its examples."""
    _print(Archive(root, doc=doc).rule(number, release=reference, lang=lang), output)


@click.command()
@click.argument("old")
@click.argument("new")
@language_option()
@kind_option()
@section_option()
@format_option(DIFF_FORMATS)
@DOC_OPTION
@click.pass_obj
def diff(
    root: Path,
    old: str,
    new: str,
    lang: str,
    kinds: tuple[str, ...],
    section: str | None,
    output: str,
    doc: str,
) -> None:
    """Show what changed, rule by rule, between any two releases."""
    found = Archive(root, doc=doc).diff(old, new, lang=lang, kinds=kinds, section=section)
    _print_comparison(found, output)


@click.command()
@click.argument("reference", metavar="[RELEASE]", required=False)
@language_option()
@kind_option()
@section_option()
@format_option(DIFF_FORMATS)
@DOC_OPTION
@click.pass_obj
def changelog(
    root: Path,
    reference: str | None,
    lang: str,
    kinds: tuple[str, ...],
    section: str | None,
    output: str,
    doc: str,
) -> None:
    """Show a release's changes against the release before it (default: the newest)."""
    found = Archive(root, doc=doc).changelog(reference, lang=lang, kinds=kinds, section=section)
    _print_comparison(found, output)


@click.command()
@click.argument("number", required=False)
@language_option()
@release_option("Name the rule by its number in this release.")
@click.option(
    "--from-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Read a scraped per-rule history instead of the archive.",
)
@click.option("--all", "every_release", is_flag=True, help="List every release, not only changes.")
@format_option()
@DOC_OPTION
@click.pass_obj
def history(
    root: Path,
    number: str | None,
    lang: str,
    reference: str | None,
    from_file: Path | None,
    every_release: bool,
    output: str,
    doc: str,
) -> None:
    """Show every version of a rule, following it through renumbering."""
    if from_file:
        found = scraped_history(from_file, number or "")
    elif not number:
        raise click.UsageError("give a rule NUMBER or --from-file FILE")
    else:
        found = Archive(root, doc=doc).history(number, release=reference, lang=lang)
    if output == "json":
        click.echo(json_text(found.to_json()), nl=False)
    else:
        click.echo(found.to_text(every_release=every_release and not from_file), nl=False)


@click.command()
@click.argument("reference", metavar="RELEASE", required=False)
@language_option()
@click.option(
    "--all", "every", is_flag=True, help="Every problem of every release, with when it was fixed."
)
@format_option()
@click.option("--strict", is_flag=True, help="Exit with status 1 when there are problems.")
@DOC_OPTION
@click.pass_obj
def check(
    root: Path,
    reference: str | None,
    lang: str,
    every: bool,
    output: str,
    strict: bool,
    doc: str,
) -> None:
    """Check every citation of a release (default: newest): dangling, stale, self."""
    archive = Archive(root, doc=doc)
    result = (
        archive.check_history(reference, lang=lang)
        if every
        else archive.check(reference, lang=lang)
    )
    _print(result, output)
    data = result.to_json()
    if strict and any(problem.get("fixed") is None for problem in data["problems"]):
        sys.exit(1)  # with --all, only the problems still open count


@click.command()
@click.argument("language", type=click.Choice(LANGUAGES), required=False)
@release_option("Translated release (default: the newest).")
@click.option("--stale", "only_stale", is_flag=True, help="List only the stale rules.")
@format_option()
@click.pass_obj
def translations(
    root: Path, language: str | None, reference: str | None, only_stale: bool, output: str
) -> None:
    """Compare translations with the English they came from: current, stale, missing, extra."""
    archive = Archive(root)
    languages = [language] if language else archive.translated_languages()
    if not languages:
        empty = not archive.releases(None)
        raise click.ClickException(
            no_releases(root) if empty else f"no translated releases in {root}"
        )
    found: list[Translation] = [
        archive.translation(lang, reference, only_stale) for lang in languages
    ]
    if output == "json":
        data = found[0].to_json() if language else [report.to_json() for report in found]
        click.echo(json_text(data), nl=False)
    else:
        click.echo("\n".join(report.to_text() for report in found), nl=False)


@click.command()
@click.argument("number")
@release_option("Name the English rule by its number in this release.")
@format_option()
@click.pass_obj
def compare(root: Path, number: str, reference: str | None, output: str) -> None:
    """Compare the translations of one rule with each other and the English, across time."""
    _print(Archive(root).compare(number, release=reference), output)


@click.command()
@language_option("Only this language.", default=None)
@doc_option("Kind of document: cr (Comprehensive Rules), mtr or ipg.")
@format_option()
@click.pass_obj
def releases(root: Path, lang: str | None, doc: str, output: str) -> None:
    """List the releases in the archive, oldest first."""
    if not root.is_dir():
        raise click.ClickException(no_releases(root))
    archive = Archive(root, doc=doc)
    found = archive.releases(lang)
    note_leftovers(archive.library)
    if not found:
        click.echo(no_releases(root, lang, doc), err=True)
    if output == "json":
        click.echo(json_text([release.to_json() for release in found]), nl=False)
    else:
        click.echo(releases_text(found), nl=False)


def note_leftovers(library: Library) -> None:
    """Say on stderr that an interrupted run left folders behind (they are never read)."""
    leftovers = library.archive.leftovers()
    if leftovers:
        click.echo(
            f"note: {len(leftovers)} unfinished folder(s) of an interrupted run in "
            f"{library.root} (ignored; the next ingest removes them)",
            err=True,
        )
