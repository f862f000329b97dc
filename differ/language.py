"""A language's history as the site and the exports show it: its releases, their diffs, the
lines of descent of its rules and of its glossary terms, and what each release numbers."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Release
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.glossary import is_term, term_key
from rulesarchive.differ.lineage import Line


@dataclass(frozen=True, slots=True)
class GlossaryLine:
    """One glossary term through the releases: (first, last, entry) stretches, oldest first."""

    key: str
    stretches: tuple[tuple[int, int, GlossaryEntry], ...]


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
            [
                GlossaryLine(key, tuple((a, b, entry) for a, b, entry in stretches))
                for key, stretches in self.glossary.items()
            ],
            self.headings[-1] if self.headings else (),
            numbers=self.numbers,
            release_headings=self.headings,
        )


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
    and every rule's permanent id (and the schema's version), the same on every machine for
    the same archive; no clock in it."""
    digest = hashlib.sha256(f"schema {schema_version}\n".encode())
    for language in languages:
        for release in language.releases:
            digest.update(f"{release.key} {release.content_sha256}\n".encode())
        for line in language.lines:
            digest.update(f"{line.id}\n".encode())
        for alias, line_id in sorted(language.aliases.items()):
            digest.update(f"{alias} {line_id}\n".encode())
    return digest.hexdigest()[:16]
