"""One language's releases as the exports write them: every rule with its line of descent."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Release, Rule
from rulesarchive.differ.language import Language
from rulesarchive.differ.lineage import Line


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
    """A language gathered for export: releases, diffs and lines, each release's text, and the
    citations each release's changes put right (`fixes[i]`, by rule number in release i)."""

    gathered: Language
    texts: tuple[ReleaseText, ...]
    fixes: tuple[dict[str, tuple[str, ...]], ...] = ()

    def fixes_of(self, index: int) -> dict[str, tuple[str, ...]]:
        """Return the citations release `index`'s changes put right, by rule number."""
        return self.fixes[index] if index < len(self.fixes) else {}


# What an export keeps of a release's document as gathering passes it.
DocumentParts = tuple[tuple[str, ...], tuple[Heading, ...], tuple[GlossaryEntry, ...], bool]


def document_parts(document: Document) -> DocumentParts:
    """Return what an export keeps of a document: its rule numbers in order, headings,
    glossary and whether it is an excerpt (the rules themselves come from the lines)."""
    numbers = tuple(sys.intern(rule.number) for rule in document.rules)
    return numbers, document.headings, document.glossary, document.excerpt


def collected(
    gathered: Language,
    parts: list[DocumentParts],
    fixes: tuple[dict[str, tuple[str, ...]], ...] = (),
) -> Collected:
    """Return a gathered language with each release's text (`parts`: each release's)."""
    printed = _printed_by_release(gathered.lines, len(gathered.releases))
    texts = []
    for index, (numbers, headings, glossary, excerpt) in enumerate(parts):
        rules = tuple(printed[index][number].pop(0) for number in numbers)
        printed[index] = {}  # release what is no longer needed as we go
        texts.append(ReleaseText(gathered.releases[index], rules, headings, glossary, excerpt))
    return Collected(gathered, tuple(texts), fixes)


def _printed_by_release(lines: list[Line], count: int) -> list[dict[str, list[tuple[str, Rule]]]]:
    """Return, per release, each number's (line id, rule) pairs (two for a number printed twice)."""
    printed: list[dict[str, list[tuple[str, Rule]]]] = [{} for _ in range(count)]
    for line in lines:
        for stretch in line.stretches:
            pair = (line.id, stretch.rule)
            for index in range(stretch.first, stretch.last + 1):
                printed[index].setdefault(stretch.rule.number, []).append(pair)
    return printed
