"""`rulesarchive export`: the archive for data tools (SQLite, JSON files, a git repository)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rulesarchive.corpus.model import DocKind
from rulesarchive.export import export_archive
from rulesarchive.library import Library
from rulesarchive.options import doc_option, languages_option


@click.command()
@click.argument("fmt", metavar="FORMAT", type=click.Choice(["sqlite", "json", "git"]))
@click.argument("dest", type=click.Path(path_type=Path))
@languages_option("Only this language (repeatable; default: all, or en for git).", closed=False)
@doc_option("Kind of document to export: cr, mtr or ipg.")
@click.pass_obj
def export(root: Path, fmt: str, dest: Path, languages: tuple[str, ...], doc: str) -> None:
    """Export the archive as a SQLite database, JSON files or a git repository."""
    say = (lambda message: click.echo(f"{message}…", err=True)) if sys.stderr.isatty() else None
    library = Library(root, kind=DocKind(doc))
    made = export_archive(library, fmt, dest, languages, progress=say)
    click.echo(
        f"exported {made.releases} releases ({', '.join(made.languages)}) as {fmt} "
        f"to {dest} in {made.seconds:.1f} s"
    )
