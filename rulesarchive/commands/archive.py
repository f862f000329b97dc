"""The commands that fill the archive: `ingest` and `scrape`."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from rulesarchive.corpus.model import DocKind
from rulesarchive.library import Library
from rulesarchive.options import (
    INTERRUPTED,
    doc_option,
    docs_option,
    language_option,
    languages_option,
)
from rulesarchive.progress import outcomes, planned, report
from rulesarchive.scraper.ingest import Overrides, ingest_paths
from rulesarchive.scraper.outcome import STORED, Outcome, Status
from rulesarchive.scraper.settings import MAX_BYTES, HttpSettings


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@language_option("Language of the documents (default: detected).", default=None)
@click.option(
    "--effective-date", type=click.DateTime(["%Y-%m-%d"]), help="Override the printed date."
)
@click.option("--set-name", help='Override the set, e.g. "Foundations (FDN)".')
@doc_option("Kind of the documents: cr, mtr or ipg (default: named by their titles).", None)
@click.option(
    "--force",
    is_flag=True,
    help="Store damaged documents (flagged), replace differing ones, accept a --lang that "
    "contradicts the text's script.",
)
@click.option(
    "--max-size",
    type=click.IntRange(1),
    default=MAX_BYTES // 2**20,
    show_default=True,
    help="Refuse files (and extracted texts) larger than this many MB.",
)
@click.pass_obj
def ingest(
    root: Path,
    paths: tuple[Path, ...],
    lang: str | None,
    effective_date: dt.datetime | None,
    set_name: str | None,
    doc: str | None,
    force: bool,
    max_size: int,
) -> None:
    """Store documents (.txt .docx .pdf .rtf, Italian wiki pages) as releases in the archive."""
    library = Library(root)
    date = effective_date.date() if isinstance(effective_date, dt.datetime) else None
    kind = DocKind(doc) if doc else None
    overrides = Overrides(lang, date, set_name, force, max_size * 2**20, kind)
    with outcomes(len(paths), "Ingesting") as advance:
        done = ingest_paths(library.archive, paths, overrides, progress=advance)
    _prepare(library, done)
    if any(outcome.status == Status.FAILED for outcome in done):
        sys.exit(1)


@click.command()
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), help="Only releases from this date on.")
@languages_option("Only this language (repeatable; default: all with an online source).")
@docs_option("Kind of document: cr, mtr or ipg (repeatable; default: cr).")
@click.option("--dry-run", is_flag=True, help="Only say what would be fetched.")
@click.option("--mirror", help="Fetch every URL from MIRROR/<host>/<path> instead (offline use).")
@click.option(
    "--deadline",
    type=click.FloatRange(min=1),
    default=HttpSettings().run_deadline,
    show_default=True,
    help="Stop fetching after this many seconds (what was stored is kept).",
)
@click.option(
    "--document-deadline",
    type=click.FloatRange(min=1),
    default=HttpSettings().document_deadline,
    show_default=True,
    help="Give up one document after this many seconds (tries, waits and download).",
)
@click.pass_obj
def scrape(
    root: Path,
    since: dt.datetime | None,
    languages: tuple[str, ...],
    docs: tuple[str, ...],
    dry_run: bool,
    mirror: str | None,
    deadline: float,
    document_deadline: float,
) -> None:
    """Fetch the releases the archive lacks from Wizards and the translations, and ingest them.

    The tournament documents (MTR, IPG) with `--doc`.
    """
    # the network code (the `scrape` extra) is loaded only here: ingesting files needs none
    from rulesarchive.scraper.http import Fetcher
    from rulesarchive.scraper.scrape import SCRAPED
    from rulesarchive.scraper.scrape import scrape as run_scrape
    from rulesarchive.scraper.sources import SOURCE_HOSTS

    library = Library(root)
    settings = HttpSettings(document_deadline=document_deadline, run_deadline=deadline)
    fetcher = Fetcher(library.derived, settings, mirror=mirror, hosts=SOURCE_HOSTS)
    day = since.date() if isinstance(since, dt.datetime) else None
    with planned("Fetching") as progress:
        try:
            kinds = tuple(DocKind(doc) for doc in docs) or (DocKind.CR,)
            plan, done = run_scrape(
                library.archive,
                fetcher,
                languages or SCRAPED,
                day,
                dry_run,
                progress.start,
                kinds,
            )
        except KeyboardInterrupt:
            click.echo("interrupted: what was stored is kept; run scrape again to resume", err=True)
            sys.exit(INTERRUPTED)
    if dry_run:
        for item in plan:
            click.echo(
                f"would fetch {item.label}: {item.urls[0] if item.urls else item.bundle_url}"
            )
    for outcome in done:
        if outcome not in progress.shown:
            report(outcome)
    if not dry_run and not done:
        click.echo("nothing to fetch: the archive has every known release")
    _prepare(library, done)
    if any(outcome.status == Status.FAILED for outcome in done):
        sys.exit(1)


def _prepare(library: Library, done: Sequence[Outcome]) -> None:
    """After storing releases: their diffs, check and lines of descent, where that is cheap."""
    stored = [o.release for o in done if o.release and o.status in STORED]
    try:
        library.prepare(stored)
    except OSError as error:  # a full disk: what was stored is whole, what follows it is not
        where = error.filename or library.root
        raise click.ClickException(
            f"{where}: cannot be written ({error.strerror or error}); "
            "the releases said stored are kept"
        ) from None
