"""One language's releases as the exports write them: every rule with its line of descent."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from rulesarchive.corpus.model import DocKind, Document, GlossaryEntry, Heading, Release, Rule
from rulesarchive.differ import sections
from rulesarchive.differ.language import Language
from rulesarchive.differ.lineage import Line
from rulesarchive.differ.release_report import release_label, release_summary
from rulesarchive.differ.report_types import ReleaseJson
from rulesarchive.differ.translations import TranslationReport


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


def release_row(text: ReleaseText) -> ReleaseJson:
    """Return a release as the exports list it: as `releases --format json` prints a CR
    release; a tournament document's with the same keys, `rule_count` its sections' texts and
    parts (the rules it exports), `glossary_count` 0 (the export's `meta` names the kind)."""
    release = text.release
    if release.kind == DocKind.CR:
        return release_summary(release)
    source = release.source
    return {
        **release_label(release),
        "rule_count": len(text.rules),
        "glossary_count": 0,
        "flags": list(release.flags),
        "source": source.name,
        "sha256": source.sha256,
        "encoding": source.encoding,
    }


@dataclass(frozen=True, slots=True)
class Collected:
    """A language gathered for export: releases, diffs and lines, each release's text, the
    citations each release's changes put right (`fixes[i]`, by rule number in release i), and
    a translated language's reports against English (`translations[i]`, as the library gives
    them; none for English, or without it)."""

    gathered: Language
    texts: tuple[ReleaseText, ...]
    fixes: tuple[dict[str, tuple[str, ...]], ...] = ()
    translations: tuple[TranslationReport, ...] = ()

    def fixes_of(self, index: int) -> dict[str, tuple[str, ...]]:
        """Return the citations release `index`'s changes put right, by rule number."""
        return self.fixes[index] if index < len(self.fixes) else {}


# What an export keeps of a release's document as gathering passes it.
DocumentParts = tuple[tuple[str, ...], tuple[Heading, ...], tuple[GlossaryEntry, ...], bool]


def document_parts(document: Document) -> DocumentParts:
    """Return what an export keeps of a document: its rule numbers in order (a tournament
    document's sections' and parts' addresses), headings, glossary and whether it is an
    excerpt (the rules themselves come from the lines)."""
    numbers = tuple(sys.intern(unit.number) for unit in sections.units(document))
    return numbers, sections.headings(document), document.glossary, document.excerpt


def collected(
    gathered: Language,
    parts: list[DocumentParts],
    fixes: tuple[dict[str, tuple[str, ...]], ...] = (),
    translations: tuple[TranslationReport, ...] = (),
) -> Collected:
    """Return a gathered language with each release's text (`parts`: each release's)."""
    printed = _printed_by_release(gathered.lines, len(gathered.releases))
    texts = []
    for index, (numbers, headings, glossary, excerpt) in enumerate(parts):
        rules = tuple(printed[index][number].pop(0) for number in numbers)
        printed[index] = {}  # release what is no longer needed as we go
        texts.append(ReleaseText(gathered.releases[index], rules, headings, glossary, excerpt))
    return Collected(gathered, tuple(texts), fixes, translations)


def _printed_by_release(lines: list[Line], count: int) -> list[dict[str, list[tuple[str, Rule]]]]:
    """Return, per release, each number's (line id, rule) pairs (two for a number printed twice)."""
    printed: list[dict[str, list[tuple[str, Rule]]]] = [{} for _ in range(count)]
    for line in lines:
        for stretch in line.stretches:
            pair = (line.id, stretch.rule)
            for index in range(stretch.first, stretch.last + 1):
                printed[index].setdefault(stretch.rule.number, []).append(pair)
    return printed
