"""Click commands; each opens the archive and calls one library function."""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import click

from rulesarchive.corpus.lookup import find_release, previous_release
from rulesarchive.corpus.present import release_summary, rule_view
from rulesarchive.corpus.store import Archive, ArchiveError
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.history import read_scraped_history, rule_history
from rulesarchive.differ.report import (
    diff_data,
    diff_text,
    history_data,
    history_text,
    translation_data,
    translation_text,
)
from rulesarchive.differ.translations import translated_languages, translation_report
from rulesarchive.scraper.http import Fetcher
from rulesarchive.scraper.ingest import Outcome, Overrides, ingest_paths
from rulesarchive.scraper.scrape import LANGUAGES
from rulesarchive.scraper.scrape import scrape as run_scrape
from rulesarchive.site_builder.build import BuildError, build_site, sample_archive
from rulesarchive.site_builder.search import SearchIndexError
from rulesarchive.site_builder.serve import make_server

FORMAT = click.Choice(["text", "json"])
DIFF_FORMAT = click.Choice(["text", "markdown", "json"])


@click.group()
@click.option(
    "--archive",
    "archive_path",
    type=click.Path(file_okay=False, path_type=Path),
    default="archive",
    show_default=True,
    envvar="RULESARCHIVE_ARCHIVE",
    help="Archive folder (env RULESARCHIVE_ARCHIVE).",
)
@click.version_option(package_name="rulesarchive")
@click.pass_context
def main(ctx: click.Context, archive_path: Path) -> None:
    """Keep, normalise and diff every Comprehensive Rules release."""
    ctx.obj = Archive(archive_path)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--lang", help="Language of the documents (default: detected).")
@click.option(
    "--effective-date", type=click.DateTime(["%Y-%m-%d"]), help="Override the printed date."
)
@click.option("--set-name", help='Override the set, e.g. "Foundations (FDN)".')
@click.option(
    "--force", is_flag=True, help="Store damaged documents (flagged) and replace differing ones."
)
@click.pass_obj
def ingest(
    archive: Archive, paths: tuple[Path, ...], lang, effective_date, set_name, force
) -> None:
    """Store documents (.txt .docx .pdf .rtf, Italian wiki pages) as releases in the archive."""
    date = effective_date.date() if isinstance(effective_date, dt.datetime) else None
    overrides = Overrides(lang, date, set_name, force)
    with _progress(len(paths), "Ingesting") as advance:
        outcomes = ingest_paths(archive, paths, overrides, progress=lambda _: advance())
    for outcome in outcomes:
        _report(outcome)
    if any(outcome.status == "failed" for outcome in outcomes):
        sys.exit(1)


@main.command()
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), help="Only releases from this date on.")
@click.option(
    "--lang",
    "languages",
    multiple=True,
    type=click.Choice(LANGUAGES),
    help="Only this language (repeatable; default: all).",
)
@click.option("--dry-run", is_flag=True, help="Only say what would be fetched.")
@click.option("--mirror", help="Fetch every URL from MIRROR/<host>/<path> instead (offline use).")
@click.pass_obj
def scrape(archive: Archive, since, languages, dry_run: bool, mirror: str | None) -> None:
    """Fetch the releases the archive lacks from Wizards and the translations, and ingest them."""
    fetcher = Fetcher(archive.root / ".cache" / "http", mirror=mirror)
    day = since.date() if isinstance(since, dt.datetime) else None
    with _progress_after_plan("Fetching") as progress:
        try:
            planned, outcomes = run_scrape(
                archive, fetcher, languages or LANGUAGES, day, dry_run, progress
            )
        except KeyboardInterrupt:
            click.echo("interrupted: what was stored is kept; run scrape again to resume", err=True)
            sys.exit(130)
    if dry_run:
        for item in planned:
            click.echo(
                f"would fetch {item.label}: {item.urls[0] if item.urls else item.bundle_url}"
            )
    for outcome in outcomes:
        _report(outcome)
    if not dry_run and not outcomes:
        click.echo("nothing to fetch: the archive has every known release")
    if any(outcome.status == "failed" for outcome in outcomes):
        sys.exit(1)


@main.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default="site",
    show_default=True,
    help="Folder of the site.",
)
@click.option(
    "--base-url",
    default="http://localhost:8000/",
    show_default=True,
    help="Where the site will be served (for the feed and sitemap).",
)
@click.option("--sample", is_flag=True, help="Build a demo site from the shipped sample archive.")
@click.pass_obj
def build(archive: Archive, out: Path, base_url: str, sample: bool) -> None:
    """Render the archive as a static site (histories, changelogs, search, feed, data)."""
    source = Archive(sample_archive()) if sample else archive
    if not base_url.endswith("/"):
        base_url += "/"
    try:
        with _stages() as progress:
            report = build_site(source, out, base_url, progress=progress, cache=not sample)
    except (BuildError, SearchIndexError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(
        f"built {out}: {report.pages} files ({report.written} written) for "
        f"{', '.join(report.languages)} in {report.seconds:.1f} s"
    )


@main.command()
@click.option(
    "--out",
    "site",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default="site",
    show_default=True,
    help="Folder of the built site.",
)
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True)
def serve(site: Path, port: int, host: str) -> None:
    """Preview the built site at http://HOST:PORT/ (Ctrl-C stops)."""
    server = make_server(site, port, host)
    click.echo(f"serving {site} at http://{host}:{port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.server_close()


@main.command()
@click.option("--lang", help="Only this language.")
@click.option("--format", "output", type=FORMAT, default="text", show_default=True)
@click.pass_obj
def releases(archive: Archive, lang: str | None, output: str) -> None:
    """List the releases in the archive, oldest first."""
    found = archive.releases(lang)
    if output == "json":
        click.echo(
            json.dumps(
                [release_summary(release) for release in found], indent=2, ensure_ascii=False
            )
        )
        return
    for release in found:
        flags = f"  [{', '.join(release.flags)}]" if release.flags else ""
        click.echo(
            f"{release.language:8} {release.effective_date}  {release.set_code:5} "
            f"{release.set_name:45} "
            f"{release.rule_count:5} rules {release.glossary_count:4} glossary{flags}"
        )


@main.command()
@click.argument("number")
@click.option(
    "--release", "reference", help="Effective date (2024-11-08) or set code (FDN); default newest."
)
@click.option("--lang", default="en", show_default=True)
@click.option("--format", "output", type=FORMAT, default="text", show_default=True)
@click.pass_obj
def rule(archive: Archive, number: str, reference: str | None, lang: str, output: str) -> None:
    """Print one rule with its examples."""
    try:
        release = find_release(archive, reference, lang)
        found = archive.load(release).rule(number.rstrip("."))
    except ArchiveError as error:
        raise click.ClickException(str(error)) from None
    if found is None:
        raise click.ClickException(f"no rule {number} in {release.key} ({release.set_name})")
    view = rule_view(found, release)
    if output == "json":
        click.echo(json.dumps(view, indent=2, ensure_ascii=False))
        return
    click.echo(f"{view['number']} {view['text']}")
    for example in view["examples"]:
        click.echo(f"  Example: {example}")
    click.echo(f"  -- {release.set_name} ({release.set_code}), effective {release.effective_date}")


@main.command()
@click.argument("old")
@click.argument("new")
@click.option("--lang", default="en", show_default=True)
@click.option("--format", "output", type=DIFF_FORMAT, default="text", show_default=True)
@click.pass_obj
def diff(archive: Archive, old: str, new: str, lang: str, output: str) -> None:
    """Show what changed, rule by rule, between any two releases."""
    try:
        old_release, new_release = (
            find_release(archive, old, lang),
            find_release(archive, new, lang),
        )
        result = diff_documents(archive.load(old_release), archive.load(new_release))
    except ArchiveError as error:
        raise click.ClickException(str(error)) from None
    _print_diff(diff_data(old_release, new_release, result), output)


@main.command()
@click.argument("reference", metavar="RELEASE", required=False)
@click.option("--lang", default="en", show_default=True)
@click.option("--format", "output", type=DIFF_FORMAT, default="text", show_default=True)
@click.pass_obj
def changelog(archive: Archive, reference: str | None, lang: str, output: str) -> None:
    """Show a release's changes against the release before it (default: the newest)."""
    try:
        release = find_release(archive, reference, lang)
        before = previous_release(archive, release)
        if before is None:
            raise ArchiveError(f"{release.key} is the oldest {lang} release: nothing to compare")
        result = diff_documents(archive.load(before), archive.load(release))
    except ArchiveError as error:
        raise click.ClickException(str(error)) from None
    _print_diff(diff_data(before, release, result), output)


@main.command()
@click.argument("language", required=False)
@click.option("--release", "reference", help="Translated release (default: the newest).")
@click.option("--stale", "only_stale", is_flag=True, help="List only the stale rules.")
@click.option("--format", "output", type=FORMAT, default="text", show_default=True)
@click.pass_obj
def translations(archive: Archive, language, reference, only_stale: bool, output: str) -> None:
    """Compare translations with the English they came from: current, stale, missing, extra."""
    languages = [language] if language else translated_languages(archive)
    if not languages:
        raise click.ClickException("no translated releases in the archive")
    reports = []
    for lang in languages:
        try:
            release = find_release(archive, reference, lang) if reference else None
            reports.append(translation_data(translation_report(archive, lang, release), only_stale))
        except (LookupError, ArchiveError) as error:
            raise click.ClickException(str(error)) from None
    if output == "json":
        data = reports[0] if language else reports
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(translation_text(report) for report in reports), nl=False)


@main.command()
@click.argument("number", required=False)
@click.option("--lang", default="en", show_default=True)
@click.option("--release", "reference", help="Name the rule by its number in this release.")
@click.option(
    "--from-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Read a scraped per-rule history instead of the archive.",
)
@click.option("--format", "output", type=FORMAT, default="text", show_default=True)
@click.pass_obj
def history(archive: Archive, number, lang, reference, from_file, output) -> None:
    """Show every version of a rule, following it through renumbering."""
    try:
        if from_file:
            found = read_scraped_history(from_file, number or "")
        elif number:
            release = find_release(archive, reference, lang)
            found = rule_history(archive, number.rstrip("."), lang, release)
        else:
            raise click.UsageError("give a rule NUMBER or --from-file FILE")
    except (ArchiveError, LookupError, ValueError) as error:
        raise click.ClickException(str(error)) from None
    data = history_data(found)
    if output == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(history_text(data), nl=False)


def _print_diff(data: dict, output: str) -> None:
    if output == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(diff_text(data, markdown=output == "markdown"), nl=False)


def _report(outcome: Outcome) -> None:
    if outcome.status == "failed":
        click.echo(f"error: {outcome.message}", err=True)
    else:
        click.echo(outcome.message)


class _progress:
    """A progress bar on a terminal (stderr); nothing when piped."""

    def __init__(self, total: int, label: str) -> None:
        self.bar = None
        if total > 1 and sys.stderr.isatty():
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr)

    def __enter__(self):
        if self.bar is None:
            return lambda: None
        bar = self.bar.__enter__()
        return lambda: bar.update(1)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


class _progress_after_plan:
    """Like _progress, for jobs that learn their length once planned (scrape)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: _progress | None = None

    def __enter__(self):
        def start(total: int):
            self.bar = _progress(total, self.label)
            advance = self.bar.__enter__()
            return lambda _outcome: advance()

        return start

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


class _stages:
    """A progress bar per stage of a long job (build) on a terminal; nothing when piped."""

    def __init__(self) -> None:
        self.stage = ""
        self.bar = None
        self.shown = 0

    def __enter__(self):
        return self.update if sys.stderr.isatty() else None

    def update(self, stage: str, done: int, total: int) -> None:
        """Move the bar of `stage` to `done` of `total` (a new stage gets a new bar)."""
        if stage != self.stage:
            self.__exit__(None, None, None)
            self.stage, self.shown = stage, 0
            if total <= 0:
                click.echo(f"{stage}…", err=True)
                return
            self.bar = click.progressbar(length=total, label=stage, file=sys.stderr)
            self.bar.__enter__()
        if self.bar is not None:
            self.bar.update(done - self.shown)
            self.shown = done

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)
            self.bar = None
