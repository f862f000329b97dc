"""Click commands; each opens the archive and calls one library function."""

from __future__ import annotations

import datetime as dt
import errno
import io
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulesarchive.corpus.model import LANGUAGES
from rulesarchive.defaults import ARCHIVE_VARIABLE, DEFAULT_ARCHIVE, DIFF_FORMATS, INTERRUPTED
from rulesarchive.errors import reported_errors
from rulesarchive.logs import LineHandler, configure_logging
from rulesarchive.options import (
    format_option,
    language_option,
    languages_option,
    release_option,
)
from rulesarchive.scraper.settings import MAX_BYTES, HttpSettings

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

    from rulesarchive.corpus.store import Archive
    from rulesarchive.scraper.ingest import Outcome

# Each command imports what it uses when it runs: `--help` and the reading commands never pay
# for requests, bs4, jinja2 or pdfminer.


class _Commands(click.Group):
    """The command group: every command's domain errors become one-line errors here."""

    def invoke(self, ctx: click.Context):
        try:
            with reported_errors():
                return super().invoke(ctx)
        except KeyboardInterrupt:  # as a shell reports a command stopped by Ctrl-C (128 + 2)
            click.echo("\nAborted!", err=True)
            sys.exit(INTERRUPTED)


@click.group(cls=_Commands)
@click.option(
    "--archive",
    "archive_path",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_ARCHIVE,
    show_default=True,
    envvar=ARCHIVE_VARIABLE,
    help="Archive folder (env RULESARCHIVE_ARCHIVE).",
)
@click.option(
    "-v",
    "--verbose",
    count=True,
    help="Log what happens: retries, waits, cache hits (-vv: debugging detail).",
)
@click.option("-q", "--quiet", is_flag=True, help="Log errors only.")
@click.version_option(package_name="rulesarchive")
@click.pass_context
def main(ctx: click.Context, archive_path: Path, verbose: int, quiet: bool) -> None:
    """Keep, normalise and diff every Comprehensive Rules release."""
    from rulesarchive.corpus.store import Archive

    if isinstance(sys.stdout, io.TextIOWrapper):  # a terminal that can't show '→' gets '?'
        sys.stdout.reconfigure(errors="replace")
    configure_logging(verbose, quiet)
    ctx.obj = Archive(archive_path)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@language_option("Language of the documents (default: detected).", default=None)
@click.option(
    "--effective-date", type=click.DateTime(["%Y-%m-%d"]), help="Override the printed date."
)
@click.option("--set-name", help='Override the set, e.g. "Foundations (FDN)".')
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
    archive: Archive, paths: tuple[Path, ...], lang, effective_date, set_name, force, max_size
) -> None:
    """Store documents (.txt .docx .pdf .rtf, Italian wiki pages) as releases in the archive."""
    from rulesarchive.scraper.ingest import Overrides, ingest_paths

    date = effective_date.date() if isinstance(effective_date, dt.datetime) else None
    overrides = Overrides(lang, date, set_name, force, max_size * 2**20)
    with _progress(len(paths), "Ingesting") as advance:
        outcomes = ingest_paths(archive, paths, overrides, progress=advance)
    _prepare(archive, outcomes)
    if any(outcome.status == "failed" for outcome in outcomes):
        sys.exit(1)


@main.command()
@click.option("--since", type=click.DateTime(["%Y-%m-%d"]), help="Only releases from this date on.")
@languages_option("Only this language (repeatable; default: all).")
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
    archive: Archive, since, languages, dry_run: bool, mirror, deadline, document_deadline
) -> None:
    """Fetch the releases the archive lacks from Wizards and the translations, and ingest them."""
    from rulesarchive.scraper.http import Fetcher
    from rulesarchive.scraper.scrape import scrape as run_scrape

    settings = HttpSettings(document_deadline=document_deadline, run_deadline=deadline)
    fetcher = Fetcher(archive.root / ".cache" / "http", settings, mirror=mirror)
    day = since.date() if isinstance(since, dt.datetime) else None
    with _progress_after_plan("Fetching") as progress:
        try:
            planned, outcomes = run_scrape(
                archive, fetcher, languages or LANGUAGES, day, dry_run, progress.start
            )
        except KeyboardInterrupt:
            click.echo("interrupted: what was stored is kept; run scrape again to resume", err=True)
            sys.exit(INTERRUPTED)
    if dry_run:
        for item in planned:
            click.echo(
                f"would fetch {item.label}: {item.urls[0] if item.urls else item.bundle_url}"
            )
    for outcome in outcomes:
        if outcome not in progress.shown:
            _report(outcome)
    if not dry_run and not outcomes:
        click.echo("nothing to fetch: the archive has every known release")
    _prepare(archive, outcomes)
    if any(outcome.status == "failed" for outcome in outcomes):
        sys.exit(1)


def _prepare(archive: Archive, outcomes) -> None:
    """After storing releases: their diffs, check, line index and newest changelog, as far as
    that is cheap."""
    from rulesarchive.differ.after_ingest import prepare_after_ingest
    from rulesarchive.reading import keep_newest_changelogs

    stored = [o.release for o in outcomes if o.release and o.status in ("added", "replaced")]
    keep_newest_changelogs(archive, prepare_after_ingest(archive, stored))


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
    from rulesarchive.corpus.store import Archive
    from rulesarchive.site_builder.build import build_site, sample_archive

    source = Archive(sample_archive(), cache=False) if sample else archive
    _note_leftovers(source)
    if not base_url.endswith("/"):
        base_url += "/"
    with _stages() as progress:
        report = build_site(source, out, base_url, progress=progress, cache=not sample)
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
    from rulesarchive.site_builder.serve import make_server

    try:
        server = make_server(site, port, host)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"port {port} on {host} is in use (stop what uses it, or give another --port)"
            ) from None
        raise click.ClickException(f"cannot serve on {host}:{port} ({error.strerror})") from None
    click.echo(f"serving {site} at http://{host}:{port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        server.server_close()


@main.command()
@language_option("Only this language.", default=None)
@format_option()
@click.pass_obj
def releases(archive: Archive, lang: str | None, output: str) -> None:
    """List the releases in the archive, oldest first."""
    from rulesarchive.corpus.present import release_summary

    if not archive.root.is_dir():
        raise click.ClickException(
            f"no archive at {archive.root} (fill one with 'rulesarchive ingest FILES' or "
            "'rulesarchive scrape', or point --archive at it)"
        )
    found = archive.releases(lang)
    _note_leftovers(archive)
    if not found:
        click.echo(f"no {lang + ' ' if lang else ''}releases in {archive.root}", err=True)
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
@release_option("Effective date (2024-11-08) or set code (FDN); default newest.")
@language_option()
@format_option()
@click.pass_obj
def rule(archive: Archive, number: str, reference: str | None, lang: str, output: str) -> None:
    """Print one rule with its examples."""
    from rulesarchive.corpus.lookup import find_release
    from rulesarchive.corpus.present import rule_view

    release = find_release(archive, reference, lang)
    found = archive.load(release).rule(number.rstrip("."))
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
@language_option()
@format_option(DIFF_FORMATS)
@click.pass_obj
def diff(archive: Archive, old: str, new: str, lang: str, output: str) -> None:
    """Show what changed, rule by rule, between any two releases."""
    from rulesarchive.reading import diff_output

    answer = _Answer(archive, "diff", old, new, lang, output)
    answer.print(diff_output(archive, old, new, lang, output))


@main.command()
@click.argument("reference", metavar="[RELEASE]", required=False)
@language_option()
@format_option(DIFF_FORMATS)
@click.pass_obj
def changelog(archive: Archive, reference: str | None, lang: str, output: str) -> None:
    """Show a release's changes against the release before it (default: the newest)."""
    from rulesarchive.kept import KeptChangelog
    from rulesarchive.reading import changelog_outputs

    answer = _Answer(archive, "changelog", reference or "", lang, output)
    made = changelog_outputs(archive, reference, lang)
    if answer.print(made.texts[output]):
        KeptChangelog(archive.root, lang, made.date, answer.kept.state).keep(made.texts)


@main.command()
@click.argument("language", type=click.Choice(LANGUAGES), required=False)
@release_option("Translated release (default: the newest).")
@click.option("--stale", "only_stale", is_flag=True, help="List only the stale rules.")
@format_option()
@click.pass_obj
def translations(archive: Archive, language, reference, only_stale: bool, output: str) -> None:
    """Compare translations with the English they came from: current, stale, missing, extra."""
    from rulesarchive.corpus.lookup import find_release
    from rulesarchive.differ.report import translation_data, translation_text
    from rulesarchive.differ.translations import translated_languages, translation_report

    languages = [language] if language else translated_languages(archive)
    if not languages:
        raise click.ClickException("no translated releases in the archive")
    reports = []
    for lang in languages:
        release = find_release(archive, reference, lang) if reference else None
        reports.append(translation_data(translation_report(archive, lang, release), only_stale))
    if output == "json":
        data = reports[0] if language else reports
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(translation_text(report) for report in reports), nl=False)


@main.command()
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
@click.pass_obj
def history(archive: Archive, number, lang, reference, from_file, every_release, output) -> None:
    """Show every version of a rule, following it through renumbering."""
    if from_file:
        from rulesarchive.differ.history import read_scraped_history
        from rulesarchive.differ.report import history_data, history_text

        data = history_data(read_scraped_history(from_file, number or ""))
        if output == "json":
            click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        else:
            click.echo(history_text(data), nl=False)
        return
    if not number:
        raise click.UsageError("give a rule NUMBER or --from-file FILE")
    from rulesarchive.reading import history_output

    plain = reference is None and not every_release  # a line the quick path recognises
    answer = _Answer(archive, "history", number, lang, output) if plain else None
    text = history_output(archive, number, lang, output, reference, every_release)
    if answer is not None:
        answer.print(text)
    else:
        click.echo(text, nl=False)


@main.command()
@click.argument("fmt", metavar="FORMAT", type=click.Choice(["sqlite", "json", "git"]))
@click.argument("dest", type=click.Path(path_type=Path))
@languages_option("Only this language (repeatable; default: all, or en for git).", closed=False)
@click.pass_obj
def export(archive: Archive, fmt: str, dest: Path, languages: tuple[str, ...]) -> None:
    """Export the archive as a SQLite database, JSON files or a git repository."""
    from rulesarchive.site_builder.exports.export import export_archive

    say = (lambda message: click.echo(f"{message}…", err=True)) if sys.stderr.isatty() else None
    report = export_archive(archive, fmt, dest, languages, progress=say)
    click.echo(
        f"exported {report.releases} releases ({', '.join(report.languages)}) as {fmt} "
        f"to {dest} in {report.seconds:.1f} s"
    )


def _note_leftovers(archive: Archive) -> None:
    """Say on stderr that an interrupted run left folders behind (they are never read)."""
    leftovers = archive.leftovers()
    if leftovers:
        click.echo(
            f"note: {len(leftovers)} unfinished folder(s) of an interrupted run in "
            f"{archive.root} (ignored; the next ingest removes them)",
            err=True,
        )


@main.command()
@click.argument("reference", metavar="RELEASE", required=False)
@language_option()
@click.option(
    "--all", "every", is_flag=True, help="Every problem of every release, with when it was fixed."
)
@format_option()
@click.option("--strict", is_flag=True, help="Exit with status 1 when there are problems.")
@click.pass_obj
def check(archive: Archive, reference, lang: str, every: bool, output: str, strict: bool) -> None:
    """Check every citation of a release (default: newest): dangling, stale, self."""
    from rulesarchive.corpus.lookup import find_release
    from rulesarchive.differ.references import check_language, check_release
    from rulesarchive.differ.report import check_all_data, check_all_text, check_data, check_text

    release = find_release(archive, reference, lang)
    checked = check_language(archive, lang, until=release)
    if every:
        data = check_all_data(checked)
    else:
        data = check_data(check_release(archive, checked, release))
    if output == "json":
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo((check_all_text if every else check_text)(data), nl=False)
    if strict and any(problem.get("fixed") is None for problem in data["problems"]):
        sys.exit(1)  # with --all, only the problems still open count


class _Answer:
    """A reading command's output: printed, and kept for the quick path (rulesarchive.launch)."""

    def __init__(self, archive: Archive, *request: str) -> None:
        from rulesarchive.kept import KeptOutput

        self.kept = KeptOutput(archive.root, *request)  # named by the archive as it is now
        self.logged = LineHandler.records

    def print(self, text: str) -> bool:
        """Print the output and keep it, unless something was logged (a replay would not say
        it); tell whether nothing was."""
        click.echo(text, nl=False)
        if LineHandler.records != self.logged:
            return False
        self.kept.keep(text)
        return True


def _report(outcome: Outcome) -> None:
    if outcome.status == "failed":
        click.echo(f"error: {outcome.message}", err=True)
    elif outcome.status == "recovered":
        click.echo(f"note: {outcome.message}", err=True)
    else:
        click.echo(outcome.message)


@contextmanager
def _progress(total: int, label: str) -> Iterator[Callable[[Outcome], None]]:
    """Report each outcome as it comes, under a progress bar on a terminal (stderr).

    Lines are printed as files are done, not after the bar ends: after Ctrl-C the user has
    seen what was stored.
    """
    hidden = total <= 1 or not sys.stderr.isatty()
    with click.progressbar(length=total, label=label, file=sys.stderr, hidden=hidden) as bar:

        def advance(outcome: Outcome) -> None:
            if not hidden:
                sys.stderr.write("\r\033[K")  # clear the bar's line; the update redraws it
            _report(outcome)
            if outcome.status != "recovered":
                bar.update(1)

        yield advance


class _Plan:
    """The progress of a job that learns its length once planned (scrape)."""

    def __init__(self, label: str, stack: ExitStack) -> None:
        self.label = label
        self.stack = stack
        self.shown: list[Outcome] = []

    def start(self, total: int) -> Callable[[Outcome], None]:
        """Open the bar for `total` jobs; return the callback for each outcome."""
        advance = self.stack.enter_context(_progress(total, self.label))

        def report(outcome: Outcome) -> None:
            self.shown.append(outcome)
            advance(outcome)

        return report


@contextmanager
def _progress_after_plan(label: str) -> Iterator[_Plan]:
    """Like _progress, for jobs that learn their length once planned (scrape)."""
    with ExitStack() as stack:
        yield _Plan(label, stack)


class _Stages:
    """A progress bar per stage of a long job (build); hidden when stderr is not a terminal."""

    def __init__(self, stack: ExitStack) -> None:
        self.stack = stack  # holds the bar of the current stage
        self.hidden = not sys.stderr.isatty()
        self.stage = ""
        self.bar: ProgressBar | None = None
        self.shown = 0

    def update(self, stage: str, done: int, total: int) -> None:
        """Move the bar of `stage` to `done` of `total` (a new stage gets a new bar)."""
        if stage != self.stage:
            self.stack.close()
            self.stage, self.shown, self.bar = stage, 0, None
            if total <= 0:
                if not self.hidden:
                    click.echo(f"{stage}…", err=True)
                return
            bar = click.progressbar(length=total, label=stage, file=sys.stderr, hidden=self.hidden)
            self.bar = self.stack.enter_context(bar)
        if self.bar is not None:
            self.bar.update(done - self.shown)
            self.shown = done


@contextmanager
def _stages() -> Iterator[Callable[[str, int, int], None]]:
    """Yield the progress callback of a long job (build)."""
    with ExitStack() as stack:
        yield _Stages(stack).update
