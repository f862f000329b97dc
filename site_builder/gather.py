"""Walk a language's releases once: diffs, lines of descent, glossary histories, the newest text."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rulesarchive.corpus.cache import (
    cache_folder,
    keep_progress,
    kept_progress,
)
from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Release
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.ahead import diff_ahead
from rulesarchive.differ.cache import cached_release_diff
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.glossary import is_term, term_key
from rulesarchive.differ.lineage import Line, release_digests, walk_and_trace
from rulesarchive.site_builder.render import code_version


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


def gather(
    archive: Archive,
    language: str,
    cache: Path | None = None,
    on_document: Callable[[int, Release, Document], None] | None = None,
    kept: bool = False,
    diffs_made: Callable[[], None] | None = None,
) -> Language:
    """Read every release of a language once, oldest first, diffing each with the one before.

    Diffs are cached under `cache`, keyed by the two releases' content hashes, so a rebuild
    after one new release diffs one pair. `on_document` sees each document as it passes
    (the per-release data files are written from it); only two documents are held at a time.
    With `kept` (and a cache), what the last gather read of the releases it shares with this
    one is taken from the cache (their glossaries, numbers and headings) and their diffs
    from the diff cache: their documents are not read, and `on_document` sees only the
    releases after them. `diffs_made` is called once the missing diffs are made on every
    core, before the walk, which takes one: the time to start work beside it.
    """
    releases = archive.releases(language)
    if cache is not None:  # a first build: the diffs worked out on every core before the walk
        diff_ahead(archive, releases, cache)
    if diffs_made is not None:
        diffs_made()
    keys = _summary_keys(releases)
    folder = cache_folder(archive.root, "gathered") if cache is not None else None
    found = kept_progress(folder, keys, _Summary) if folder is not None and kept else None
    summary = found or _Summary()
    start = summary.count
    diffs: list[ReleaseDiff | None] = [None] * len(releases)
    for index in range(1, start):
        old, new = releases[index - 1], releases[index]
        diffs[index] = cached_release_diff(cache, old, new, archive.load)

    def see(index: int, document: Document, diff: ReleaseDiff | None) -> None:
        diffs[index] = diff
        if index >= start:
            summary.add(index, document)
        if on_document:
            on_document(index, releases[index], document)

    trace = walk_and_trace(archive, releases, cache, see, start)
    if folder is not None and summary.count > start:
        keep_progress(folder, keys, summary, summary.count, start)
    return Language(
        language,
        releases,
        diffs,
        list(trace.lines),
        [
            GlossaryLine(key, tuple((a, b, entry) for a, b, entry in stretches))
            for key, stretches in summary.glossary.items()
        ],
        summary.headings[-1] if summary.headings else (),
        numbers=summary.numbers,
        release_headings=summary.headings,
    )


@dataclass
class _Summary:
    """What gathering the first `count` releases read from their documents, kept for the next."""

    count: int = 0
    glossary: dict[str, list[list]] = field(default_factory=dict)  # key -> [first, last, entry]
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


def _summary_keys(releases: list[Release]) -> list[str]:
    return [f"gathered:{code_version()}:{digest}" for digest in release_digests(releases)]


def _grow_glossary(glossary: dict[str, list[list]], index: int, document: Document) -> None:
    for entry in filter(lambda entry: is_term(entry.term), document.glossary):
        stretches = glossary.setdefault(term_key(entry.term), [])
        if stretches and stretches[-1][2] == entry and stretches[-1][1] == index - 1:
            stretches[-1][1] = index
        else:
            stretches.append([index, index, entry])
