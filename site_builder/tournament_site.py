"""Write a tournament document kind's pages (see tournament_pages) and its search index.

Its documents are read once per build (the 110 of the shared folder in a fifth of a second):
their titles head every page, and a version read whole is made from its own. Every kind is
gathered before any is written: a kind's citations lead into the others' pages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from jinja2 import Environment
from rulesarchive.corpus.model import DocKind, Document, Release
from rulesarchive.differ.language import Language
from rulesarchive.differ.sections import units
from rulesarchive.site_builder import paths, search
from rulesarchive.site_builder.output import Output
from rulesarchive.site_builder.pages import Shared, language_salt
from rulesarchive.site_builder.release_data import (
    data_path,
    is_keyframe,
    moves_path,
    moves_script,
    release_script,
)
from rulesarchive.site_builder.render import Job, fingerprint, memo, render_job
from rulesarchive.site_builder.source import Source
from rulesarchive.site_builder.tournament_links import CitationLinks
from rulesarchive.site_builder.tournament_pages import (
    Titles,
    TournamentPages,
    kind_word,
    section_titles,
    whole_context,
)

WHOLE = "doc_document.html"


def document_links(sources: list[Source], t: dict[str, str]) -> list[dict[str, str]]:
    """The home page's links to each tournament document kind the archive holds."""
    found = []
    for source in sources:
        kind = source.releases()[0].kind
        page = f"{paths.folder(kind, source.releases()[0].language)}/index.html"
        found.append({"kind": kind, "name": kind_word(t, "doc_names", kind), "href": page})
    return found


@dataclass(frozen=True, slots=True)
class Gathered:
    """A tournament document kind as a build reads it: its releases and lines of descent
    (`data`, of its one language) and each release's document."""

    source: Source
    data: Language
    documents: list[Document]


def gather_kind(source: Source) -> Gathered:
    """Read a kind's releases, lines of descent and documents."""
    releases = source.releases()
    documents: list[Document] = []
    data = source.gather(
        releases[0].language, on_document=lambda _i, _r, document: documents.append(document)
    )
    if len(documents) != len(releases):  # some were not walked: read them
        documents = [source.load(release) for release in releases]
    return Gathered(source, data, documents)


def write_kind(
    output: Output,
    env: Environment,
    gathered: Gathered,
    cited: dict[DocKind, Language],
    options: tuple[str, list[str]],
    index: Callable[[str, str], None] | None,
) -> None:
    """Write every page of one kind's releases (of its one language), its citations linked
    into `cited` (what the build gathered of each kind), and, when its indexed pages changed,
    start indexing them for search (`index(name, glob)`); `options`: the base URL and the
    site's languages."""
    source, data, documents = gathered.source, gathered.data, gathered.documents
    base_url, languages = options
    releases = data.releases
    kind, language = releases[0].kind, releases[0].language
    shared, salt = language_salt(language, languages, base_url)
    # A page links into the releases of every kind cited: a release added to one remakes it.
    cited_releases = sorted(
        (str(k), [r.content_sha256 for r in d.releases]) for k, d in cited.items()
    )
    salt = memo(salt, str(kind), cited_releases)
    titles = Titles(
        tuple(document.title for document in documents),
        tuple(section_titles(document) for document in documents),
        documents[-1],
    )
    links = CitationLinks(kind, source, cited)
    pages = TournamentPages(kind, data, titles, shared["t"], (salt, links))
    for planned in pages.jobs():
        if not output.kept(planned.path, planned.memo):
            _write(output, env, shared, salt, planned.make(), planned.memo)
    for at in range(len(releases)):
        _write_whole(output, env, source, (shared, salt), releases, at, documents[at], links)
        _write_data(output, salt, releases, at, documents)
    output.write(moves_path(data), moves_script(data))
    folder = f"{paths.folder(kind, language)}/r/"

    def indexed(path: str) -> bool:
        return path.startswith(folder)

    if index is not None and search.index_is_stale(output, str(kind), indexed):
        output.stage_for_indexing(filter(indexed, output.produced))
        index(str(kind), f"{folder}**/index.html")


def _write(
    output: Output, env: Environment, shared: Shared, salt: str, job: Job, known: str
) -> None:
    output.write(job.path, render_job(env, shared, job), fingerprint(job, salt), known)


def _write_whole(
    output: Output,
    env: Environment,
    source: Source,
    salted: tuple[Shared, str],
    releases: list[Release],
    at: int,
    document: Document,
    links: CitationLinks,
) -> None:
    """Write a version read whole and its original file, unless they are as last built."""
    shared, salt = salted
    name = kind_word(shared["t"], "doc_names", releases[at].kind)
    release = releases[at]
    neighbours = (
        releases[at - 1] if at else None,
        releases[at + 1] if at + 1 < len(releases) else None,
    )
    page = paths.document_page(release)
    known_by = memo(salt, page, (release, neighbours))
    if not output.kept(page, known_by):
        job = Job(page, WHOLE, whole_context(release, document, neighbours, name, links))
        _write(output, env, shared, salt, job, known_by)
    original = paths.original_file(release)
    if not output.fresh(original, release.source.sha256):
        output.write(original, source.original(release), release.source.sha256)


def _write_data(
    output: Output, salt: str, releases: list[Release], at: int, documents: list[Document]
) -> None:
    """Write a version's data file for the compare page, unless it is as last built: known by
    the version and the one before (whose units a step is written from)."""
    release = releases[at]
    previous = releases[at - 1] if at else None
    path = data_path(release)
    known_by = memo(salt, path, (release, previous))
    if output.kept(path, known_by):
        return
    steps = None  # a keyframe is written whole
    if previous is not None and not is_keyframe(release, previous):
        steps = (previous, _as_units(documents[at - 1]))
    output.write(path, release_script(release, _as_units(documents[at]), steps), memo=known_by)


def _as_units(document: Document) -> Document:
    """A tournament document whose rules are its units (its sections' texts and parts), as
    the compare page pairs them."""
    return replace(document, rules=units(document))
