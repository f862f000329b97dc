"""Fetch what the archive lacks from the sources, and ingest it like a local file."""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TypedDict
from urllib.parse import unquote, urlsplit

from rulesarchive.corpus.catalogue import load_catalogue, policy_files
from rulesarchive.corpus.model import LANGUAGES, DocKind, Provenance
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.http import Fetched, Fetcher, FetchError, now
from rulesarchive.scraper.ingest import Overrides, ingest_bytes, recover_leftovers
from rulesarchive.scraper.outcome import Outcome, Status
from rulesarchive.scraper.sources import (
    POLICY_PAGE,
    RULES_PAGE,
    chinese_downloads,
    document_links,
    italian_page_html,
    italian_pages,
    policy_links,
    scryfall_sets,
    wayback_capture,
)
from rulesarchive.scraper.wiki import page_date

_FORMAT_ORDER = (".txt", ".docx", ".pdf", ".rtf", ".doc")
# Languages read from files only. The Korean translation is one file in one repository
# (youbeebee/kormtgcr), each release a revision of it: there is no file per release to fetch.
OFFLINE = {
    "ko": "no online source for ko: ingest its files (rulesarchive ingest --lang ko FILE...)"
}
SCRAPED = tuple(language for language in LANGUAGES if language not in OFFLINE)


@dataclass(frozen=True, slots=True)
class Planned:
    """One document to fetch: the URLs to try in order, or bytes already in hand (wiki pages)."""

    language: str
    label: str  # what the user sees: 'en current release', 'en 2009-07-11', ...
    urls: tuple[str, ...] = ()
    date: dt.date | None = None
    checksums: tuple[tuple[str, str], ...] = ()
    bundle: bytes = b""  # the wiki pages of one date, fetched during planning
    bundle_url: str = ""
    wayback: bool = True  # dead wizards.com URLs: try the Wayback Machine's capture
    kind: DocKind = DocKind.CR


def plan(
    archive: Archive,
    fetcher: Fetcher,
    languages: tuple[str, ...] = SCRAPED,
    since: dt.date | None = None,
    kinds: tuple[DocKind, ...] = (DocKind.CR,),
) -> tuple[list[Planned], list[Outcome]]:
    """List what to fetch; discovery failures come back as failed outcomes, not exceptions.

    A language with no online source (OFFLINE) is one `skipped` outcome saying so. The
    tournament documents among `kinds` are English only: planned when English is asked for.
    """
    planned: list[Planned] = []
    failures: list[Outcome] = []
    steps: dict[str, Callable[[], list[Planned]]] = {
        "en": lambda: _english(archive, fetcher, since, failures),
        "zh-Hans": lambda: _chinese(archive, fetcher, since),
        "it": lambda: _italian(archive, fetcher, since),
    }
    for language in languages if DocKind.CR in kinds else ():  # translations are of the CR
        if language in OFFLINE:
            failures.append(Outcome(language, Status.SKIPPED, OFFLINE[language]))
            continue
        try:
            planned += steps[language]()
        except FetchError as error:
            failures.append(Outcome(language, Status.FAILED, f"{language}: {error}"))
    if "en" in languages:
        for kind in kinds:
            if kind != DocKind.CR:
                planned += _tournament(archive.of_kind(kind), fetcher, kind, since, failures)
    return planned, failures


def _english(
    archive: Archive, fetcher: Fetcher, since: dt.date | None, failures: list[Outcome]
) -> list[Planned]:
    """Plan the current release from the rules page and the catalogued ones the archive lacks.

    The catalogue needs no network: when the rules page cannot be read (offline), its failure
    is reported and the catalogued releases are still planned.
    """
    planned, links = [], []
    try:
        page = fetcher.get(RULES_PAGE)
        links = document_links(page.body.decode("utf-8", "replace"), page.final_url)
        if not links:
            raise FetchError(f"{RULES_PAGE}: no TXT, DOCX or PDF link on the rules page")
        planned.append(Planned("en", "en current release", tuple(links), wayback=False))
    except FetchError as error:
        failures.append(Outcome("en", Status.FAILED, f"en current release: {error}"))
    for entry in load_catalogue():
        if "en" not in entry.languages or not entry.urls:
            continue
        if since and entry.effective_date < since:
            continue
        if archive.get("en", entry.effective_date) is not None or set(entry.urls) & set(links):
            continue  # stored already, or the current release itself
        urls = tuple(sorted(entry.urls, key=_format_rank))
        planned.append(
            Planned("en", f"en {entry.effective_date}", urls, entry.file_date, entry.sha256)
        )
    return planned


def _tournament(
    archive: Archive,
    fetcher: Fetcher,
    kind: DocKind,
    since: dt.date | None,
    failures: list[Outcome],
) -> list[Planned]:
    """Plan a tournament document's current release (WPN's rules documents page) and its
    archived copies the archive lacks: none whose bytes or file date a release already has
    (a file's date is its archive's, not always the one the document prints)."""
    planned = []
    try:
        page = fetcher.get(POLICY_PAGE)
        links = policy_links(page.body.decode("utf-8", "replace"), kind, page.final_url)
        if not links:
            raise FetchError(f"{POLICY_PAGE}: no {kind.name} PDF link on the page")
        label = f"{kind.value} current release"
        planned.append(Planned("en", label, tuple(links), wayback=False, kind=kind))
    except FetchError as error:
        failures.append(
            Outcome(kind.value, Status.FAILED, f"{kind.value} current release: {error}")
        )
    stored = archive.releases("en")
    held = {r.source.sha256 for r in stored} | {r.effective_date.isoformat() for r in stored}
    for file in policy_files(kind):
        if (since and file.file_date < since) or {file.sha256, file.file_date.isoformat()} & held:
            continue
        label = f"{kind.value} {file.file_date}"
        checksums = ((file.url, file.sha256),)
        planned.append(Planned("en", label, (file.url,), file.file_date, checksums, kind=kind))
    return planned


def _chinese(archive: Archive, fetcher: Fetcher, since: dt.date | None) -> list[Planned]:
    return [
        Planned("zh-Hans", f"zh-Hans {d.date}", (d.url,), d.date, wayback=False)
        for d in chinese_downloads(fetcher)
        if d.date and not (since and d.date < since) and archive.get("zh-Hans", d.date) is None
    ]


class _WikiPage(TypedDict):
    """One wiki page in a bundle of the pages of a date (what `wiki.parse_wiki` reads)."""

    title: str
    url: str
    html: str


def _italian(archive: Archive, fetcher: Fetcher, since: dt.date | None) -> list[Planned]:
    """Fetch the wiki pages (small) to learn their dates; bundle the pages of each date."""
    by_date: dict[dt.date, list[_WikiPage]] = defaultdict(list)
    first_url: dict[dt.date, str] = {}
    for title in italian_pages(fetcher):
        url, html = italian_page_html(fetcher, title)
        date = page_date(html)
        if date is None or (since and date < since):
            continue
        by_date[date].append({"title": title, "url": url, "html": html})
        first_url.setdefault(date, url)
    planned = []
    for date, pages in sorted(by_date.items()):
        if archive.get("it", date) is not None:
            continue
        bundle = json.dumps({"pages": pages}, ensure_ascii=False, indent=1).encode()
        label = f"it {date} ({len(pages)} wiki pages)"
        planned.append(Planned("it", label, date=date, bundle=bundle, bundle_url=first_url[date]))
    return planned


def fetch_and_ingest(archive: Archive, fetcher: Fetcher, item: Planned) -> Outcome:
    """Fetch one planned document (first URL that works, else its Wayback capture) and ingest it."""
    if item.bundle:
        provenance = Provenance(url=item.bundle_url, final_url=item.bundle_url, fetched_at=now())
        return ingest_bytes(
            archive, item.bundle, f"{item.language}-wiki.json", provenance=provenance
        )
    try:
        fetched = _first_that_works(fetcher, item)
    except FetchError as error:
        return Outcome(item.label, Status.FAILED, f"{item.label}: {error}")
    kind = item.kind if item.kind != DocKind.CR else None  # a CR names its own kind
    return ingest_bytes(
        archive,
        fetched.body,
        _file_name(fetched.url),
        Overrides(kind=kind),
        provenance=fetched.provenance,
    )


def _first_that_works(fetcher: Fetcher, item: Planned) -> Fetched:
    problems = []
    checksums = dict(item.checksums)
    for url in item.urls:
        try:
            return fetcher.get(url, document=True, sha256=checksums.get(url, ""))
        except FetchError as error:
            problems.append(str(error))
    if item.wayback:
        for url in item.urls:
            capture = wayback_capture(fetcher, url, item.date)
            if capture is None:
                continue
            try:
                fetched = fetcher.get(capture, document=True, sha256=checksums.get(url, ""))
            except FetchError as error:
                problems.append(str(error))
                continue
            return fetched
        problems.append("no Wayback Machine capture")
    raise FetchError("; ".join(problems))


def _format_rank(url: str) -> int:
    suffix = PurePosixPath(unquote(urlsplit(url).path)).suffix.lower()
    return _FORMAT_ORDER.index(suffix) if suffix in _FORMAT_ORDER else len(_FORMAT_ORDER)


def _file_name(url: str) -> str:
    return PurePosixPath(unquote(urlsplit(url).path)).name or "download"


def refresh_sets(archive: Archive, fetcher: Fetcher) -> list[Outcome]:
    """Fetch Scryfall's set list and keep it in the archive; a failure is one failed outcome."""
    try:
        sets = scryfall_sets(fetcher)
    except FetchError as error:
        return [Outcome("sets", Status.FAILED, f"set list: {error}")]
    archive.save_sets(sets)
    return []


def scrape(
    archive: Archive,
    fetcher: Fetcher,
    languages: tuple[str, ...] = SCRAPED,
    since: dt.date | None = None,
    dry_run: bool = False,
    progress: Callable[[int], Callable[[Outcome], None]] | None = None,
    kinds: tuple[DocKind, ...] = (DocKind.CR,),
) -> tuple[list[Planned], list[Outcome]]:
    """Plan, then fetch and ingest each document in turn (nothing but planning when dry_run).

    `progress(total)` is called once the plan is known and returns the callback for each
    outcome. Every release is stored atomically as it arrives, so an interrupted run keeps
    what it finished and the next run picks up where it stopped.
    """
    planned, outcomes = plan(archive, fetcher, languages, since, kinds)
    if dry_run:
        return planned, outcomes
    outcomes += recover_leftovers(archive)
    outcomes += refresh_sets(archive, fetcher)
    advance = progress(len(planned)) if progress else None
    for done, item in enumerate(planned):
        if fetcher.time_left() <= 0:
            left = len(planned) - done
            message = (
                f"the run's deadline passed: {left} document(s) not fetched "
                "(run scrape again to continue, or give a longer --deadline)"
            )
            outcomes.append(Outcome("scrape", Status.FAILED, message))
            break
        outcome = fetch_and_ingest(archive, fetcher, item)
        for each in (outcome, *outcome.also):  # and the releases it repaired again
            outcomes.append(each)
            if advance:
                advance(each)
    return planned, outcomes
