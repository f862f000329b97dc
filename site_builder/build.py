"""Build the whole static site into a staging folder, then swap it into place."""

from __future__ import annotations

import datetime as dt
import errno
import gc
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import resources
from itertools import chain
from pathlib import Path
from urllib.parse import urlsplit

from jinja2 import Environment
from rulesarchive.corpus.derived import code_version
from rulesarchive.corpus.model import DocKind, Document, Release
from rulesarchive.corpus.store import no_releases
from rulesarchive.differ.language import Language
from rulesarchive.differ.references import LanguageCheck
from rulesarchive.differ.release_report import release_label
from rulesarchive.differ.translation_compare import Track
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.site_builder import feeds, json_api, paths, search, tournament_site
from rulesarchive.site_builder.checks import CheckPages
from rulesarchive.site_builder.compare_pages import tracks_of
from rulesarchive.site_builder.document_pages import TEMPLATE, document_context
from rulesarchive.site_builder.forked import Aside, Beside
from rulesarchive.site_builder.link_cache import LinkCache
from rulesarchive.site_builder.output import Output, building, built_from
from rulesarchive.site_builder.pages import LanguagePages, language_salt
from rulesarchive.site_builder.release_data import (
    data_path,
    is_keyframe,
    moves_path,
    moves_script,
    release_script,
)
from rulesarchive.site_builder.release_pages import ReleasePages
from rulesarchive.site_builder.render import (
    LANGUAGE_NAMES,
    Job,
    environment,
    memo,
    messages,
    render_job,
)
from rulesarchive.site_builder.source import Source
from rulesarchive.site_builder.translations import Pairing, pair_translations
from rulesarchive.site_builder.workers import make_files, make_until

LANGUAGE_ORDER = ("en", "zh-Hans", "it", "ko")


def sample_archive() -> Path:
    """Return the folder of the small demo archive shipped in the package (`build --sample`)."""
    return Path(__file__).parent / "sample"


# Told what the build is doing: a stage ('reading en'), how far it is and how far it goes.
Progress = Callable[[str, int, int], None]


class BuildError(Exception):
    """The site cannot be built; the message says why and what to do, in one line."""


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build did."""

    pages: int  # files the site has
    written: int  # files written this time (the others were already up to date)
    seconds: float
    languages: tuple[str, ...]


def build_site(
    archive: Source,
    out: Path,
    base_url: str = "http://localhost:8000/",
    progress: Progress | None = None,
    index_search: bool = True,
    diffs: Sequence[tuple[Release, Release]] = (),
    documents: Sequence[Source] = (),
) -> BuildReport:
    """Render every language of the archive into `out`; the old site stays till the new is whole.

    `archive` is the library (see `source`): what it keeps makes a rebuild cost what changed.
    `diffs` are the pairs of releases whose diff the JSON API gives (see `json_api`).
    `documents` are the library's views of the other kinds of document (MTR, IPG) that have
    releases: each gets its own pages (see `tournament_site`).
    """
    languages = _languages(archive)
    if not languages:
        raise BuildError(no_releases(archive.root))
    try:
        with building(out):
            options = _Options(base_url, index_search, tuple(diffs))
            return _build(archive, Path(out), options, progress, languages, tuple(documents))
    except OSError as error:  # a write names no file: a full disk is the site's to say
        if _under(error.filename, Path(out).parent) or error.errno in _FULL:
            raise _unwritable(error, out) from None
        raise


@dataclass(frozen=True, slots=True)
class _Options:
    """What a build is asked for besides the archive and the folder."""

    base_url: str
    index_search: bool
    diffs: tuple[tuple[Release, Release], ...]


def _build(
    archive: Source,
    out: Path,
    options: _Options,
    progress: Progress | None,
    languages: list[str],
    documents: tuple[Source, ...],
) -> BuildReport:
    """Build the site, holding its lock."""
    started = time.perf_counter()
    state = _state(archive, languages, options, documents)
    built = built_from(out)
    if built is not None and built[0] == state:  # nothing changed since the last build
        return BuildReport(built[1], 0, time.perf_counter() - started, tuple(languages))
    output = Output(out)
    indexer = search.Indexer(output.staging)
    # `_render` leaves what it gathers out of the collector's passes (gc.freeze) till the end;
    # a caller's own freeze is the caller's to end, and with it, this build's.
    frozen_by_caller = gc.get_freeze_count() > 0
    try:
        indexing = indexer if options.index_search else None
        with Beside() as beside:  # what it started beside is stopped if it fails
            _render(archive, output, indexing, languages, options, progress, beside, documents)
        output.finish(state)
        indexer.wait()
    except BaseException:
        indexer.stop()
        output.abandon()
        output.prune()
        raise
    finally:
        if not frozen_by_caller:
            gc.unfreeze()
    output.commit()
    output.prune()
    return BuildReport(
        len(output.produced), output.written, time.perf_counter() - started, tuple(languages)
    )


_FULL = (errno.ENOSPC, errno.EDQUOT)


def _unwritable(error: OSError, out: Path) -> BuildError:
    """The one-line error of a site that cannot be written (a full disk, a read-only folder)."""
    where = error.filename if error.filename is not None else out
    return BuildError(f"{where}: the site cannot be written ({error.strerror or error})")


def _under(path: object, folder: Path) -> bool:
    return isinstance(path, (str, Path)) and Path(path).is_relative_to(folder)


def _render(
    archive: Source,
    output: Output,
    indexer: search.Indexer | None,
    languages: list[str],
    options: _Options,
    progress: Progress | None,
    beside: Beside,
    documents: tuple[Source, ...],
) -> None:
    base_url = options.base_url
    env = environment(archive.derived)
    gathered: dict[str, Language] = {}
    tell = progress or (lambda _stage, _done, _total: None)

    def reports_of_translations() -> dict[str, list[TranslationReport]]:
        """Every translated release's report, oldest first (the newest is the language's)."""
        return {
            language: [archive.translation(language, r) for r in archive.releases(language)]
            for language in languages
            if language != "en"
        }

    # A rebuild's reports are worked out beside the gathering. A first build's, and the other
    # languages' missing diffs, beside the first language's walk, once its diffs are made on
    # every core: the walk takes one (before, the reports would diff its releases after each
    # base again, beside the workers diffing every pair).
    translated: Callable[[], dict[str, list[TranslationReport]]] = reports_of_translations
    if output.previous and len(languages) > 1:
        translated = beside.start(reports_of_translations)
    diffs_aside: dict[str, Callable[[], int]] = {}

    def beside_the_walk() -> None:
        nonlocal translated
        diffs_aside.update(_diffs_aside(archive, languages[1:], beside))
        if not output.previous and len(languages) > 1:
            translated = beside.start(reports_of_translations)

    checks_aside: dict[str, Aside[LanguageCheck]] = {}
    dates = {
        language: {release.effective_date.isoformat() for release in archive.releases(language)}
        for language in languages
    }
    for language in languages:
        if language in diffs_aside:
            diffs_aside.pop(language)()  # its diffs in the cache: gathering reads them
        releases = archive.releases(language)
        whole = _WholeReleases(output, archive, env, dates, base_url)
        held: dict[str, Document] = {}  # the release before, for its steps
        walked: set[int] = set()

        def on_document(index: int, release: Release, document: Document) -> None:
            before = releases[index - 1] if index else None  # noqa: B023 (used while looping)
            _release_data(output, archive, release, before, held | {release.key: document})  # noqa: B023
            whole.write(releases, index, document)  # noqa: B023
            held.clear()  # noqa: B023
            held[release.key] = document  # noqa: B023
            walked.add(index)  # noqa: B023
            tell(f"reading {language}", index + 1, len(releases))  # noqa: B023

        gathered[language] = archive.gather(
            language,
            on_document=on_document,
            kept=True,
            diffs_made=beside_the_walk if language == languages[0] else None,
        )
        for index, release in enumerate(releases):
            if index not in walked:  # taken from the kept summary: made only if missing
                _release_data(output, archive, release, releases[index - 1] if index else None, {})
                whole.write(releases, index)
        # What is gathered lives till the build ends: the collector's full passes over it cost
        # a sixth of a rebuild, and touched every page a forked process shares with this one.
        gc.freeze()
        if len(languages) > 1 and "en" in gathered:
            checks_aside[language] = beside.start(
                partial(archive.check, language, gathered[language], gathered["en"])
            )
    every_report = translated()
    reports = {language: found[-1] for language, found in every_report.items() if found}
    pairing = Pairing()
    tracks: list[Track] = []
    if "en" in gathered:
        pairing = pair_translations(
            gathered["en"], [(gathered[lang], report) for lang, report in reports.items()]
        )
        tracks = tracks_of(
            gathered["en"], [(gathered[lang], found) for lang, found in every_report.items()]
        )
    first_pages: LanguagePages | None = None
    lastmod: dict[str, dt.date] = {}
    every_check: dict[str, LanguageCheck] = {}
    kept: dict[str, LinkCache] = {}  # each language's, saved once the API is written too
    for language, data in gathered.items():
        english = gathered.get("en") if language != "en" else None
        links = LinkCache(archive.derived, language, str(Path(archive.root).resolve()))
        kept[language] = links
        pages = LanguagePages(
            env,
            data,
            languages,
            pairing,
            reports.get(language),
            english,
            base_url,
            links,
            others={lang: other for lang, other in gathered.items() if lang != language},
            tracks=tracks if language == "en" else None,
        )
        first_pages = first_pages or pages
        rules, unchecked, others = pages.shares()
        if language in checks_aside:
            # While the check is worked out beside, this process makes the pages that do not
            # show it (a core would wait idle): the rest of them in its share below.
            check = checks_aside.pop(language)
            make_until(pages, unchecked, output, check.ready)
            checked = check()
        else:
            checked = archive.check(language, data, gathered.get("en"))
        every_check[language] = checked
        checks = CheckPages(pages, checked)
        make_files(
            pages,
            (chain(unchecked, others, checks.jobs()), rules),
            len(data.lines),
            output,
            lambda done, total: tell(f"rendering {language}", done, total),  # noqa: B023
        )
        lastmod.update(pages.lastmod)
        indexed = partial(search.in_index, language)
        if indexer is not None and search.index_is_stale(output, language, indexed):
            tell(f"indexing {language} for search", 0, 0)
            output.stage_for_indexing(filter(indexed, output.produced))
            indexer.start(language)
    assert first_pages is not None
    read = [tournament_site.gather_kind(document) for document in documents]
    tell("writing the JSON API", 0, 1)
    tournament = [(kind.source, kind.data) for kind in read]
    request = json_api.Request(gathered, every_check, reports, options.diffs, tournament, kept)
    json_api.write_api(output, archive, request, base_url)
    for links in kept.values():  # the rule pages' part is saved by the process that made them
        links.save("others")
    tell("writing the JSON API", 1, 1)
    cited = {kind.data.releases[0].kind: kind.data for kind in read}
    if "en" in gathered:
        cited[DocKind.CR] = gathered["en"]
    for kind in read:
        tell(f"rendering {kind.data.releases[0].kind}", 0, 1)
        start = indexer.start if indexer is not None else None
        tournament_site.write_kind(output, env, kind, cited, (base_url, languages), start)
    kinds = tournament_site.document_links(list(documents), first_pages.t)
    _site_pages(output, first_pages, gathered, base_url, lastmod, kinds)


def _diffs_aside(
    archive: Source, languages: list[str], beside: Beside
) -> dict[str, Callable[[], int]]:
    """Start working out, each in a process beside the build, the languages' missing diffs."""
    return {
        language: beside.start(partial(archive.make_diffs, language, True))
        for language in languages
        if archive.missing_diffs(language)
    }


def _state(
    archive: Source, languages: list[str], options: _Options, documents: tuple[Source, ...]
) -> str:
    """Sum up what a build makes the site from: the releases, the code and the options."""
    digest = hashlib.sha1(repr((code_version(), languages, options)).encode())
    for source in (archive, *documents):
        for release in source.releases():  # a release's content is its content_sha256
            digest.update(repr(release).encode())
    return digest.hexdigest()


def _languages(archive: Source) -> list[str]:
    found = {release.language for release in archive.releases()}
    return [
        *[lang for lang in LANGUAGE_ORDER if lang in found],
        *sorted(found - set(LANGUAGE_ORDER)),
    ]


def _release_data(
    output: Output,
    archive: Source,
    release: Release,
    previous: Release | None,
    documents: dict[str, Document],
) -> None:
    """Write a release's data file (whole, or the steps from the release before).

    `documents` holds those of the release and the one before when they are at hand; any
    other is read only when the file must be made.
    """
    inputs = [release_label(release), release.content_sha256]
    if previous is not None and not is_keyframe(release, previous):
        inputs += [release_label(previous), previous.content_sha256]
    fingerprint = repr(inputs)
    path = data_path(release)
    if output.fresh(path, fingerprint):
        return

    def document(of: Release) -> Document:
        return documents.get(of.key) or archive.load(of)

    steps = None  # a keyframe is written whole
    if previous is not None and not is_keyframe(release, previous):
        steps = (previous, document(previous))
    output.write(path, release_script(release, document(release), steps), fingerprint)


class _WholeReleases:
    """Write each release's page read whole and its original file, in the build's own
    process: the walk of a language's releases has each document at hand (see
    `document_pages`); a release the walk did not read is read only when its page is stale.

    A page is known by what it is made from (as a `render.Memoised` is): the release (its
    content hash), the releases either side, which languages have a release of its date,
    and the code; made again only when that changed. Not fingerprinted: when its inputs
    changed, so has the page (a neighbour's link), and a fingerprint costs a sixth of it.
    """

    def __init__(
        self,
        output: Output,
        archive: Source,
        env: Environment,
        dates: dict[str, set[str]],
        base_url: str,
    ) -> None:
        self.output = output
        self.archive = archive
        self.env = env
        self.dates = dates
        self.base_url = base_url

    def write(self, releases: list[Release], index: int, document: Document | None = None) -> None:
        """Write release `index`'s page and original file, unless they are as last built."""
        release = releases[index]
        neighbours = (
            releases[index - 1] if index else None,
            releases[index + 1] if index + 1 < len(releases) else None,
        )
        shared, salt = language_salt(release.language, list(self.dates), self.base_url)
        date = release.effective_date.isoformat()
        page = paths.document_page(release)
        inputs = (release, neighbours, [date in held for held in self.dates.values()])
        known_by = memo(salt, page, inputs)
        if not self.output.kept(page, known_by, None):
            loaded = document or self.archive.load(release)
            context = document_context(release, loaded, neighbours, self.dates, self.base_url)
            content = render_job(self.env, shared, Job(page, TEMPLATE, context))
            self.output.write(page, content, memo=known_by)
        original = paths.original_file(release)
        if not self.output.fresh(original, release.source.sha256):
            self.output.write(original, self.archive.original(release), release.source.sha256)


def _site_pages(
    output: Output,
    main: LanguagePages,
    gathered: dict[str, Language],
    base_url: str,
    lastmod: dict[str, dt.date],
    documents: list[dict[str, str]],
) -> None:
    """The pages of the whole site: home, search, not found, static files, feed, sitemap, data.

    They are rendered by the first language's pages (its releases are the home page's).
    """
    first = main.data
    others = [
        {
            "language": lang,
            "name": LANGUAGE_NAMES.get(lang, lang),
            "href": paths.language_home(lang),
        }
        for lang in gathered
        if lang != first.language
    ]
    home = main.page(
        "home.html",
        paths.home(),
        title="Comprehensive Rules history",
        rows=ReleasePages(main).release_rows(),
        others=others,
        documents=documents,
    )
    output.write(home.path, main.render(home).content)
    # One page for every language: its words in each, shown as the chosen language asks.
    wording = (
        *("search", "search_label", "search_placeholder", "search_searching", "search_rule"),
        *("search_matches", "search_matches_one", "search_needs_http"),
    )
    search_messages = {
        lang: {key: messages(lang)[key] for key in wording} | _page_words(messages(lang))
        for lang in gathered
    }
    search_page = main.page(
        "search.html",
        "search.html",
        title="Search",
        languages=list(gathered),
        documents=documents,
        search_messages=search_messages,
    )
    output.write("search.html", main.render(search_page).content)
    # Served for a missing page at any depth: links from the site root the base URL names.
    root = urlsplit(base_url).path or "/"
    notfound = main.page(
        "notfound.html",
        "404.html",
        root=root if root.endswith("/") else root + "/",
        title="Not found",
        not_found=True,
        canonical="",
        lookup_languages=[],  # lookup.js loads the map of the language the address names
        lookup_messages={lang: _lookup_messages(messages(lang)) for lang in gathered},
    )
    output.write("404.html", main.render(notfound).content)
    static = resources.files("rulesarchive.templates").joinpath("static")
    for item in static.iterdir():
        if item.is_file():
            output.write(f"static/{item.name}", item.read_bytes())
    for language, data in gathered.items():
        labels = [release_label(release) for release in data.releases]
        output.write(f"data/{language}/releases.json", json.dumps(labels, ensure_ascii=False))
        output.write(moves_path(data), moves_script(data))
    releases = [release for data in gathered.values() for release in data.releases]
    output.write("feed.atom", feeds.atom(releases, base_url))
    newest = max(release.effective_date for release in releases)
    lastmod = {"index.html": newest, "search.html": newest} | lastmod
    output.write("sitemap.xml", feeds.sitemap(sorted(output.produced), base_url, lastmod))
    output.write("robots.txt", f"User-agent: *\nAllow: /\nSitemap: {base_url}sitemap.xml\n")


def _lookup_messages(t: dict[str, str]) -> dict[str, str]:
    """The words of the not-found page and its number lookup in one language (its script
    shows a language's own when the missing page's path is of that language)."""
    keys = {"ask": "goto_ask", "going": "goto_going", "english": "goto_english"}
    keys |= {"englishLink": "goto_english_link", "missing": "goto_missing"}
    keys |= {"unreadable": "goto_unreadable", "perhaps": "goto_perhaps"}
    keys |= {"notFound": "not_found", "notFoundText": "not_found_text"}
    keys |= {"allReleases": "all_releases"}  # and "search", a word of the page
    keys |= {"holders": "number_holders", "asOf": "number_as_of", "noneThen": "number_none_then"}
    keys |= {"from": "from", "to": "to", "now": "now"}
    return {name: t[key] for name, key in keys.items()} | _page_words(t)


def _page_words(t: dict[str, str]) -> dict[str, str]:
    """The words of a page's header and footer in one language, for the pages every language
    shares (static/speak.js puts them in the language asked for)."""
    keys = ("releases", "rules", "glossary", "compare", "search", "rule_box", "go", "footer")
    return {key: t[key] for key in (*keys, "site_nav", "goto_title")}
