"""The pages of a tournament document (MTR, IPG): its releases, each release's changelog and
text read whole, and the history of each section and part, under `<kind>/<language>/`.

The kind is a parameter: the MTR's pages and the IPG's are the same pages of other data, made
from what the library gathers of the kind (releases, diffs, lines of descent) as the CR's are.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import cast

from markupsafe import Markup
from rulesarchive.corpus.model import DocKind, Document, Release
from rulesarchive.corpus.numbers import PART
from rulesarchive.differ.changes import Change
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.history import Version
from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.language import Language
from rulesarchive.differ.lineage import Line, line_versions
from rulesarchive.differ.sections import INTRODUCTION, units
from rulesarchive.differ.words import DELETE, INSERT, Diff
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.release_pages import SHOWN_FIRST
from rulesarchive.site_builder.render import Context, Job, Memoised, memo
from rulesarchive.site_builder.tournament_links import CitationLinks, Span, linked_piece

FOLDED = (Kind.TYPOGRAPHY, Kind.UNCHANGED)  # changelogs list them by address, histories fold them


def kind_word(t: dict[str, str], table: str, kind: DocKind) -> str:
    """A document kind's word in a table of `t` ('doc_names', 'doc_short'): `messages` types
    the tables of the messages as strings, as it does every other entry."""
    return cast("dict[str, str]", t[table])[kind]


@dataclass(frozen=True, slots=True)
class Titles:
    """What each release of a kind calls itself and its sections (read from its document)."""

    document: tuple[str, ...]  # by release index: the title it prints
    sections: tuple[dict[str, str], ...]  # by release index: section number -> title
    newest: Document  # the newest release's document: its contents on the kind's home page


class TournamentPages:
    """Every page of one tournament document kind in one language."""

    def __init__(
        self,
        kind: DocKind,
        data: Language,
        titles: Titles,
        t: dict[str, str],
        salted: tuple[str, CitationLinks],
    ) -> None:
        self.kind = kind
        salt, self.links = salted
        self.salt = salt
        self.data = data
        self.titles = titles
        self.t = t
        self.name = kind_word(t, "doc_names", kind)
        self.folder = paths.folder(kind, data.language)
        self.index_of = {release.effective_date: i for i, release in enumerate(data.releases)}
        self.newest_units = [unit.number for unit in units(titles.newest)]

    def jobs(self) -> Iterator[Memoised]:
        """Yield every page, each known by what it is made from: the build keeps a page whose
        inputs are last build's without working out its context."""
        prefix = self.data.prefix
        yield self._memoised(self.home_path(), prefix[-1], self.home)
        compare = paths.compare_page(self.kind, self.data.language)
        yield self._memoised(compare, prefix[-1], self.compare)
        for index, release in enumerate(self.data.releases):
            made_of = (prefix[index], index == len(prefix) - 1)
            yield self._memoised(
                paths.release_page(release), made_of, partial(self.changelog, index)
            )
        for line in self.data.lines:
            yield self._memoised(
                self.section_path(line), (prefix[-1], line.id), partial(self.section, line)
            )

    def _memoised(self, path: str, inputs: object, make: Callable[[], Job]) -> Memoised:
        return Memoised(path, memo(self.salt, path, (self.kind, inputs)), make)

    def home_path(self) -> str:
        """Return the kind's home page: its releases and its newest contents."""
        return f"{self.folder}/index.html"

    def section_path(self, line: Line) -> str:
        """Return the page of a section's (or part's) line of descent."""
        return paths.section_page(self.kind, self.data.language, line.id)

    def home(self) -> Job:
        """The kind's releases newest first, and the contents of its newest release."""
        page = self.home_path()
        rows = []
        for index, release in enumerate(self.data.releases):
            counts = _counts(self.data.diffs[index])
            rows.append(
                {
                    "release": release,
                    "title": self.titles.document[index],
                    "href": paths.relative(page, paths.release_page(release)),
                    "whole_href": paths.relative(page, paths.document_page(release)),
                    "substantive": counts[Kind.SUBSTANTIVE] + counts[Kind.SWEEP],
                    "added": counts[Kind.ADDED],
                    "removed": counts[Kind.REMOVED],
                }
            )
        newest = len(self.data.releases) - 1
        contents = [
            {
                "number": section.number,
                "title": section.title,
                "units": self._units_of(page, section.number),
            }
            for section in self.titles.newest.sections
        ]
        return self._page(
            "doc_releases.html",
            page,
            title=self.name,
            rows=list(reversed(rows)),
            introduction=self._unit_href(page, INTRODUCTION, newest),
            contents=contents,
            compare_href=paths.relative(page, paths.compare_page(self.kind, self.data.language)),
        )

    def compare(self) -> Job:
        """The page that compares any two versions in the browser, as the CR's does releases
        (its script, its data files made of the versions' units, and the kind's moves)."""
        return self._page(
            "compare.html",
            paths.compare_page(self.kind, self.data.language),
            title=self.t["doc_compare_title"].format(name=self.name),
            releases=[{"release": release} for release in reversed(self.data.releases)],
            note=self.t["doc_compare_note"],
            result=self.t["doc_compare_result"],
            folder=self.folder,
            data_folder=paths.data_folder(self.kind, self.data.language),
            sections=True,
        )

    def _units_of(self, page: str, section: str) -> list[dict[str, str]]:
        """The section's text and parts in the newest release, each linked to its history."""
        newest = len(self.data.releases) - 1
        found = []
        for number in self.newest_units:
            head, _, part = number.partition(PART)
            if head == section:
                shown = part.replace("-", " ").capitalize() if part else ""
                found.append({"part": shown, "href": self._unit_href(page, number, newest)})
        return found

    def _unit_href(self, page: str, number: str, index: int) -> str:
        """The link to the history of the unit printed under `number` in release `index`."""
        line = self.data.holder(number, index)
        return paths.relative(page, self.section_path(line)) if line else ""

    def changelog(self, index: int) -> Job:
        """A release against the one before: its changes by kind, each paragraph by paragraph."""
        release = self.data.releases[index]
        diff = self.data.diffs[index]
        page = paths.release_page(release)
        previous = self.data.releases[index - 1] if index else None
        groups: dict[str, list[Context]] = {
            kind: [] for kind in (*SHOWN_FIRST, Kind.SWEEP, *FOLDED)
        }
        for change in diff.changes if diff else ():
            groups.setdefault(change.kind, []).append(self._change_view(page, index, change))
        headings = [
            {
                "kind": _heading_kind(change),
                "old": change.old_number,
                "new": change.new_number,
                "old_title": change.old_text,
                "new_title": change.new_text,
            }
            for change in (diff.headings if diff else ())
        ]
        return self._page(
            "doc_release.html",
            page,
            title=f"{self.name} · {release.effective_date}",
            release=release,
            printed_title=self.titles.document[index],
            previous=previous,
            previous_href=paths.relative(page, paths.release_page(previous)) if previous else "",
            whole_href=paths.relative(page, paths.document_page(release)),
            home_href=paths.relative(page, self.home_path()),
            groups=groups,
            shown=(*SHOWN_FIRST, Kind.SWEEP),
            quiet=[item for kind in FOLDED for item in groups[kind]],
            headings=headings,
            renumbering=list(diff.renumbering) if diff else [],
            unchanged=diff.unchanged if diff else 0,
        )

    def _change_view(self, page: str, index: int, change: Change) -> Context:
        """One change: its address, the section's title, its text or diff by paragraph."""
        if change.new_number:
            line, at = self.data.holder(change.new_number, index), index
        else:
            line, at = self.data.holder(change.old_number or "", index - 1), index - 1
        number = change.new_number or change.old_number or ""
        href = paths.relative(page, self.section_path(line)) if line else ""
        if line and any(stretch.first == index for stretch in line.stretches):
            href += f"#v{self.data.releases[index].effective_date}"  # a version begins there
        if change.kind == Kind.ADDED:
            diff: Diff = ((INSERT, change.new_text),)
        elif change.kind == Kind.REMOVED:
            diff = ((DELETE, change.old_text),)
        else:
            diff = change.diff
        new = self.data.releases[index].effective_date
        old = self.data.releases[index - 1].effective_date if index else new
        shown = paragraphs_html(diff, self.links.diff_spans(page, diff, old, new))
        return {
            "change": change,
            "number": number,
            "title": self._title(number, at),
            "moved": bool(change.old_number and change.new_number != change.old_number),
            "href": href,
            "paragraphs": shown,
        }

    def _title(self, number: str, index: int) -> str:
        """The title of the section an address stands in, as release `index` prints it."""
        if number == INTRODUCTION:
            return self.t["introduction"]
        section, _, part = number.partition(PART)
        title = self.titles.sections[index].get(section, "")
        return f"{title} · {part.replace('-', ' ').capitalize()}" if part else title

    def section(self, line: Line) -> Job:
        """A section's (or part's) every version, newest first, each change a diff."""
        page = self.section_path(line)
        releases = self.data.releases
        versions = line_versions(line, releases)
        current = line.last == len(releases) - 1
        number = line.rule.number
        title = self._title(number.partition(PART)[0], line.last)
        views = [self._version_view(page, version) for version in reversed(versions)]
        short = kind_word(self.t, "doc_short", self.kind)
        return self._page(
            "doc_section.html",
            page,
            title=f"{short} {_shown_number(number)} · {title}".strip(" ·"),
            number=_shown_number(number),
            section_title=title,
            current=current,
            last_release=releases[line.last],
            text_paragraphs=[
                self.links.html(page, p, releases[line.last].effective_date)
                for p in line.rule.text.split("\n")
            ],
            numbers=[_shown_number(n) for n in line.numbers],
            versions=views,
            folded=FOLDED,
            home_href=paths.relative(page, self.home_path()),
            whole_href=paths.relative(page, paths.document_page(releases[line.last])),
        )

    def _version_view(self, page: str, version: Version) -> Context:
        """One version: when, under what number, of what kind, and its text or diff."""
        shown: Diff = version.diff or ((0, version.text),)
        release = self.data.releases[self.index_of[version.effective_date or dt.date.min]]
        new = release.effective_date
        spans = self.links.diff_spans(page, shown, version.compared_with or new, new)
        return {
            "version": version,
            "anchor": f"v{version.effective_date}",
            "number": _shown_number(version.number),
            "changelog_href": paths.relative(page, paths.release_page(release)),
            "paragraphs": paragraphs_html(shown, spans),
        }

    def _page(self, template: str, path: str, **context: object) -> Job:
        """A page's job with what every page of the kind shows."""
        context.setdefault("description", context.get("title", ""))
        context |= {
            "root": paths.root_of(path),
            "kind": self.kind,
            "document_name": self.name,
            "switches": [],
            "alternates": [],
            "canonical": "",
            "og_type": "website",
        }
        return Job(path, template, context)


def whole_context(
    release: Release,
    document: Document,
    neighbours: tuple[Release | None, Release | None],
    name: str,
    links: CitationLinks,
) -> Context:
    """The context of a tournament document's release read whole, as it was printed, its
    citations linked."""
    page = paths.document_page(release)
    before, after = neighbours

    def printed(paragraphs: tuple[str, ...]) -> list[Markup]:
        return [links.html(page, paragraph, release.effective_date) for paragraph in paragraphs]

    sections = [
        {
            "number": section.number,
            "title": section.title,
            "depth": 2 if "." in section.number.rstrip(".") else 1,
            "paragraphs": printed(section.printed_paragraphs),
            "parts": [
                {"name": part.name, "paragraphs": printed(part.printed_paragraphs)}
                for part in section.parts
            ],
        }
        for section in document.sections
    ]
    return {
        "title": f"{name} · {release.effective_date}",
        "description": f"{name} · {release.effective_date}",
        "document_name": name,
        "printed_title": document.title,
        "release": release,
        "introduction": printed(tuple(document.introduction.split("\n")))
        if document.introduction
        else [],
        "sections": sections,
        "original_href": paths.relative(page, paths.original_file(release)),
        "changelog_href": paths.relative(page, paths.release_page(release)),
        "previous": _neighbour(page, before),
        "following": _neighbour(page, after),
        "root": paths.root_of(page),
        "switches": [],
        "alternates": [],
        "canonical": "",
        "og_type": "website",
    }


def _neighbour(page: str, release: Release | None) -> Context | None:
    if release is None:
        return None
    return {"release": release, "href": paths.relative(page, paths.document_page(release))}


def paragraphs_html(diff: Diff, spans: Sequence[Sequence[Span]]) -> list[Markup]:
    """Render a paragraph-wise word diff as one HTML paragraph per line of its text (a line
    break inserted or deleted starts a paragraph as one kept does), each piece's citations
    linked (`spans`, by piece: see CitationLinks.diff_spans)."""
    paragraphs: list[list[str]] = [[]]
    for (op, text), linked in zip(diff, spans, strict=True):
        offset = 0
        for at, piece in enumerate(text.split("\n")):
            if at:
                paragraphs.append([])
            if piece:
                safe = linked_piece(piece, offset, linked)
                tag = "del" if op == DELETE else "ins" if op == INSERT else ""
                paragraphs[-1].append(f"<{tag}>{safe}</{tag}>" if tag else safe)
            offset += len(piece) + 1
    return [Markup("".join(pieces)) for pieces in paragraphs if pieces]


def _shown_number(number: str) -> str:
    """An address as a reader writes it ('2.1 Philosophy' for '2.1/philosophy')."""
    section, _, part = number.partition(PART)
    return f"{section} {part.replace('-', ' ').capitalize()}" if part else section


def _heading_kind(change: Change) -> str:
    if change.old_number is None:
        return "added"
    if change.new_number is None:
        return "removed"
    return "renamed" if change.old_text != change.new_text else "moved"


def _counts(diff: ReleaseDiff | None) -> Counter[str]:
    return Counter(change.kind for change in diff.changes) if diff else Counter()


def section_titles(document: Document) -> dict[str, str]:
    """Return a tournament document's section titles by number."""
    return {section.number: section.title for section in document.sections}
