"""A language's history as the site and the exports show it: its releases, their diffs, the
lines of descent of its rules and of its glossary terms, and what each release numbers."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Release
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.glossary import is_term, term_key
from rulesarchive.differ.lineage import Line


@dataclass(frozen=True, slots=True)
class GlossaryLine:
    """One glossary term through the releases, renamings included: (first, last, entry)
    stretches, oldest first; `key` is the term key of its last, `id` its permanent id."""

    key: str
    stretches: tuple[tuple[int, int, GlossaryEntry], ...]
    id: str = ""

    @property
    def keys(self) -> tuple[str, ...]:
        """Every term key the line went by, in the order it last did (its own `key` last: a
        term renamed and renamed back went by its key first, too)."""
        newest_first = (term_key(entry.term) for _first, _last, entry in reversed(self.stretches))
        return tuple(dict.fromkeys(newest_first))[::-1]


@dataclass(frozen=True, slots=True)
class HeadingLine:
    """A section or chapter heading through the releases, renumbered or renamed: (first, last,
    heading) stretches, oldest first; `id` is its permanent id."""

    stretches: tuple[tuple[int, int, Heading], ...]
    id: str = ""


@dataclass
class Language:
    """Everything the site shows of one language's releases."""

    language: str
    releases: list[Release]
    diffs: list[ReleaseDiff | None]
    lines: list[Line]
    glossary: list[GlossaryLine]
    headings: tuple[Heading, ...]
    holders: dict[str, list[Line]] = field(default_factory=dict)  # number -> lines, ever
    by_id: dict[str, Line] = field(default_factory=dict)
    prefix: list[str] = field(default_factory=list)  # [i]: what releases 0..i say, summed up
    numbers: list[tuple[str, ...]] = field(default_factory=list)  # [i]: release i's, in order
    release_headings: list[tuple[Heading, ...]] = field(default_factory=list)  # [i]: release i's
    aliases: dict[str, str] = field(default_factory=dict)  # retired id -> the line's id now
    glossary_aliases: dict[str, str] = field(default_factory=dict)  # the same, of the glossary
    heading_lines: list[HeadingLine] = field(default_factory=list)
    heading_aliases: dict[str, str] = field(default_factory=dict)  # the same, of the headings

    def __post_init__(self) -> None:
        for line in self.lines:
            self.by_id[line.id] = line
            for number in dict.fromkeys(line.numbers):
                self.holders.setdefault(number, []).append(line)
        digest = hashlib.sha1()
        for release in self.releases:
            digest.update(f"{release.key}|{release.set_code}|{release.set_name}|".encode())
            digest.update(release.content_sha256.encode())
            self.prefix.append(digest.hexdigest())

    def lines_by_id(self, ids: Iterable[str]) -> list[Line]:
        """Return the lines with these ids."""
        return [self.by_id[line_id] for line_id in ids]

    def heading_ids(self, index: int) -> dict[str, str]:
        """Return the permanent id of each heading release `index` prints, by its number."""
        return {
            heading.number: line.id
            for line in self.heading_lines
            for first, last, heading in line.stretches
            if first <= index <= last and line.id
        }

    def term_ids(self, index: int) -> dict[str, str]:
        """Return the permanent id of each glossary term release `index` prints, by term key."""
        return {
            term_key(entry.term): term.id
            for term in self.glossary
            for first, last, entry in term.stretches
            if first <= index <= last and term.id
        }

    def holder(self, number: str, index: int) -> Line | None:
        """Return the line that printed `number` in release `index`, if any."""
        for line in self.holders.get(number, ()):
            for stretch in line.stretches:
                if stretch.first <= index <= stretch.last and stretch.rule.number == number:
                    return line
        return None


@dataclass
class DocumentSummary:
    """What the first `count` releases' documents say beside their rules: glossary lines, the
    numbers each release prints, its headings. Kept, it spares reading those documents again."""

    count: int = 0
    glossary: dict[str, list[tuple[int, int, GlossaryEntry]]] = field(default_factory=dict)
    numbers: list[tuple[str, ...]] = field(default_factory=list)
    headings: list[tuple[Heading, ...]] = field(default_factory=list)

    def add(self, index: int, document: Document) -> None:
        """Add the next release's document."""
        assert index == self.count
        _grow_glossary(self.glossary, index, document)
        numbers = tuple(sys.intern(rule.number) for rule in document.rules)
        # The same tuple as the release before's when equal: kept once in the cache.
        if self.numbers and self.numbers[-1] == numbers:
            numbers = self.numbers[-1]
        self.numbers.append(numbers)
        headings = document.headings
        if self.headings and self.headings[-1] == headings:
            headings = self.headings[-1]
        self.headings.append(headings)
        self.count += 1

    def language(
        self,
        language: str,
        releases: list[Release],
        diffs: list[ReleaseDiff | None],
        lines: list[Line],
    ) -> Language:
        """Return the language these documents, diffs and lines tell of."""
        return Language(
            language,
            releases,
            diffs,
            lines,
            follow_renames(self.glossary, diffs),
            self.headings[-1] if self.headings else (),
            numbers=self.numbers,
            release_headings=self.headings,
            heading_lines=follow_headings(self.headings, diffs),
        )


def follow_renames(
    by_key: dict[str, list[tuple[int, int, GlossaryEntry]]], diffs: Sequence[ReleaseDiff | None]
) -> list[GlossaryLine]:
    """Return the glossary's lines: a term's stretches, joined where a release renamed it (its
    diff pairs the old term with the new one), each line in the order of its last key's first
    stretch. A term back after a gap goes on its old line, unless that line went on under
    another name."""
    renamed: dict[tuple[int, str], str] = {}  # (release, new key) -> the key it was renamed from
    for index, diff in enumerate(diffs):
        for change in diff.glossary if diff is not None else ():
            if change.old_term and change.new_term:
                old, new = term_key(change.old_term), term_key(change.new_term)
                if old != new:
                    renamed[index, new] = old
    segments = sorted(  # a release printing two spellings of a term has two segments of it
        (
            (first, key, last, entry)
            for key, stretches in by_key.items()
            for first, last, entry in stretches
        ),
        key=lambda segment: segment[:2],
    )
    chain_of: dict[tuple[int, str], list[tuple[int, int, GlossaryEntry]]] = {}  # by last, key
    latest: dict[str, list[tuple[int, int, GlossaryEntry]]] = {}  # a key's newest segment's
    chains: list[list[tuple[int, int, GlossaryEntry]]] = []
    for first, key, last, entry in segments:
        chain = None
        if (first, key) in renamed:
            chain = chain_of.pop((first - 1, renamed[first, key]), None)
        if chain is None and key in latest:
            before = latest[key]
            chain = chain_of.pop((before[-1][1], key), None)
        if chain is None:
            chain = []
            chains.append(chain)
        chain.append((first, last, entry))
        chain_of[last, key] = chain
        latest[key] = chain
    order = {key: place for place, key in enumerate(by_key)}
    lines = [
        GlossaryLine(term_key(chain[-1][2].term), tuple(chain))
        for chain in sorted(chains, key=lambda chain: order[term_key(chain[-1][2].term)])
    ]
    return lines


def follow_headings(
    release_headings: Sequence[tuple[Heading, ...]], diffs: Sequence[ReleaseDiff | None]
) -> list[HeadingLine]:
    """Return the headings' lines: a heading goes on under the number its release's diff moves
    it to (renamed or not), else under its own number; one the diff adds begins a line."""
    chains: list[list[tuple[int, int, Heading]]] = []
    held: dict[str, list[tuple[int, int, Heading]]] = {}  # number -> its chain, last release
    for index, printed in enumerate(release_headings):
        diff = diffs[index] if index < len(diffs) else None
        came_from: dict[str, str | None] = {}  # new number -> the old one (None: added)
        moved_away: set[str] = set()
        for change in diff.headings if diff is not None else ():
            if change.new_number is not None:
                came_from[change.new_number] = change.old_number
            if change.old_number is not None:
                moved_away.add(change.old_number)
        now: dict[str, list[tuple[int, int, Heading]]] = {}
        for heading in printed:
            number = heading.number
            old = came_from.get(number, None if number in moved_away else number)
            chain = held.pop(old, None) if old is not None else None
            if chain is None:
                chain = []
                chains.append(chain)
            if chain and chain[-1][2] == heading and chain[-1][1] == index - 1:
                chain[-1] = (chain[-1][0], index, heading)
            else:
                chain.append((index, index, heading))
            now[number] = chain
        held = now
    return [HeadingLine(tuple(chain)) for chain in chains]


def _grow_glossary(
    glossary: dict[str, list[tuple[int, int, GlossaryEntry]]], index: int, document: Document
) -> None:
    for entry in filter(lambda entry: is_term(entry.term), document.glossary):
        stretches = glossary.setdefault(term_key(entry.term), [])
        if stretches and stretches[-1][2] == entry and stretches[-1][1] == index - 1:
            stretches[-1] = (stretches[-1][0], index, entry)
        else:
            stretches.append((index, index, entry))


def data_version(languages: Iterable[Language], schema_version: int) -> str:
    """Return the version of the data read from languages: a hash of every release's content
    and every permanent id of its rules, glossary terms and headings (and the schema's
    version), the same on every machine for the same archive; no clock in it."""
    digest = hashlib.sha256(f"schema {schema_version}\n".encode())
    for language in languages:
        for release in language.releases:
            digest.update(f"{release.key} {release.content_sha256}\n".encode())
        for line in language.lines:
            digest.update(f"{line.id}\n".encode())
        for alias, line_id in sorted(language.aliases.items()):
            digest.update(f"{alias} {line_id}\n".encode())
        named = [term.id for term in language.glossary]
        named += [heading.id for heading in language.heading_lines]
        digest.update("".join(f"{line_id}\n" for line_id in named if line_id).encode())
        retired = {**language.glossary_aliases, **language.heading_aliases}
        digest.update("".join(f"{alias} {to}\n" for alias, to in sorted(retired.items())).encode())
    return digest.hexdigest()[:16]
