"""One language's releases as the exports write them: every rule with its line of descent."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Release, Rule
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.ahead import diff_ahead
from rulesarchive.differ.cache import diff_folder
from rulesarchive.differ.lineage import Line
from rulesarchive.site_builder.exports import ExportError
from rulesarchive.site_builder.gather import Language, gather


@dataclass(frozen=True, slots=True)
class ReleaseText:
    """One release: its rules in printed order, each with the id of its line of descent."""

    release: Release
    rules: tuple[tuple[str, Rule], ...]
    headings: tuple[Heading, ...]
    glossary: tuple[GlossaryEntry, ...]
    excerpt: bool

    def document(self) -> Document:
        """Return the release's rules as a Document (what the differ's functions take)."""
        rules = tuple(rule for _, rule in self.rules)
        return Document(
            self.release.language, self.release.effective_date, rules=rules, excerpt=self.excerpt
        )


@dataclass(frozen=True, slots=True)
class Collected:
    """A language gathered for export: releases, diffs and lines, and each release's text."""

    gathered: Language
    texts: tuple[ReleaseText, ...]


def collect(archive: Archive, language: str, cache: bool = True) -> Collected:
    """Gather a language once (diffs cached in the archive, as the site's) and keep its text."""
    kept: list[tuple[tuple[str, ...], tuple[Heading, ...], tuple[GlossaryEntry, ...], bool]] = []

    def keep(_index: int, _release: Release, document: Document) -> None:
        numbers = tuple(sys.intern(rule.number) for rule in document.rules)
        kept.append((numbers, document.headings, document.glossary, document.excerpt))

    gathered = gather(archive, language, diff_folder(archive.root) if cache else None, keep)
    printed = _printed_by_release(gathered.lines, len(gathered.releases))
    texts = []
    for index, (numbers, headings, glossary, excerpt) in enumerate(kept):
        rules = tuple(printed[index][number].pop(0) for number in numbers)
        printed[index] = {}  # release what is no longer needed as we go
        texts.append(ReleaseText(gathered.releases[index], rules, headings, glossary, excerpt))
    return Collected(gathered, tuple(texts))


def collect_languages(
    archive: Archive,
    languages: Sequence[str],
    cache: bool = True,
    progress: Callable[[str], None] | None = None,
) -> list[Collected]:
    """Collect each language (default every language, English first: translations need it)."""
    stored = sorted({release.language for release in archive.releases()})
    chosen = list(languages) or stored
    unknown = [language for language in chosen if language not in stored]
    if not stored:
        raise ExportError(
            f"the archive at {archive.root} has no releases: fill it with `rulesarchive ingest`"
        )
    if unknown:
        raise ExportError(f"no {', '.join(unknown)} releases in the archive at {archive.root}")
    chosen.sort(key=lambda language: (language != "en", language))
    if cache:  # the diffs not yet cached, worked out on every core first
        for language in chosen:
            diff_ahead(archive, archive.releases(language), diff_folder(archive.root))
    collected = []
    for language in chosen:
        if progress:
            progress(f"reading and diffing the {language} releases")
        collected.append(collect(archive, language, cache))
    return collected


def _printed_by_release(lines: list[Line], count: int) -> list[dict[str, list[tuple[str, Rule]]]]:
    """Return, per release, each number's (line id, rule) pairs (two for a number printed twice)."""
    printed: list[dict[str, list[tuple[str, Rule]]]] = [{} for _ in range(count)]
    for line in lines:
        for stretch in line.stretches:
            pair = (line.id, stretch.rule)
            for index in range(stretch.first, stretch.last + 1):
                printed[index].setdefault(stretch.rule.number, []).append(pair)
    return printed
