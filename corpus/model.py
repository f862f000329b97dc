"""Frozen dataclasses for documents, rules and releases."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum

# The closed set of languages the archive holds; a code is also a folder name, so only these
# are ever used as one.  Add a language here (and to the scraper's sources) to support it.
LANGUAGES = ("en", "zh-Hans", "it", "ko")

# What a document of a language prints before each example (the parser keeps examples without
# it): the Korean documents print the English label.
_EXAMPLE_LABELS = {"zh-Hans": "例如：", "it": "Esempio: "}


def example_label(language: str) -> str:
    """Return what a document of `language` prints before an example ('Example: ')."""
    return _EXAMPLE_LABELS.get(language, "Example: ")


class DocKind(StrEnum):
    """Which rules text a document is: the same core keeps, parses and lists each kind."""

    CR = "cr"  # Comprehensive Rules: numbered rules, glossary
    MTR = "mtr"  # Magic Tournament Rules (formerly DCI (Universal) Tournament / Floor Rules)
    IPG = "ipg"  # Infraction Procedure Guide (formerly DCI Penalty Guidelines)


class Lines(StrEnum):
    """What a language's lines of descent follow, each kind with its registry of permanent ids:
    the value is the registry's file name in the archive."""

    RULES = "ids.tsv"
    GLOSSARY = "glossary-ids.tsv"  # glossary terms, by term key
    HEADINGS = "heading-ids.tsv"  # sections and chapters, by number


@dataclass(frozen=True, slots=True)
class Rule:
    """One numbered rule as it reads in one document."""

    number: str
    text: str
    examples: tuple[str, ...] = ()
    original: str = ""
    original_examples: tuple[str, ...] = ()

    @property
    def printed_text(self) -> str:
        """Return the text as the document printed it."""
        return self.original or self.text

    @property
    def printed_examples(self) -> tuple[str, ...]:
        """Return the examples as the document printed them."""
        return self.original_examples or self.examples


@dataclass(frozen=True, slots=True)
class Heading:
    """A section ('7', 'Additional Rules') or chapter ('702', 'Keyword Abilities') title."""

    number: str
    title: str


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """One glossary term with its definition (numbered senses kept in the text)."""

    term: str
    text: str
    original: str = ""

    @property
    def printed_text(self) -> str:
        """Return the definition as the document printed it."""
        return self.original or self.text


@dataclass(frozen=True, slots=True)
class SectionPart:
    """A named piece of a section: an IPG infraction's Definition, Philosophy, Upgrade..."""

    name: str
    paragraphs: tuple[str, ...]
    original: tuple[str, ...] = ()  # the paragraphs as printed, where normalising changed them

    @property
    def printed_paragraphs(self) -> tuple[str, ...]:
        """Return the paragraphs as the document printed them."""
        return self.original or self.paragraphs


@dataclass(frozen=True, slots=True)
class Section:
    """A numbered section of a tournament document ('3.9', 'Appendix B'): many paragraphs.

    `number` is its address ('3', '3.9', '101', 'B'); `paragraphs` come before any part.
    """

    number: str
    title: str
    paragraphs: tuple[str, ...] = ()
    parts: tuple[SectionPart, ...] = ()
    original: tuple[str, ...] = ()  # the paragraphs as printed, where normalising changed them

    @property
    def printed_paragraphs(self) -> tuple[str, ...]:
        """Return the paragraphs as the document printed them."""
        return self.original or self.paragraphs

    def part(self, name: str) -> SectionPart | None:
        """Return the part of this name ('philosophy', 'Additional Remedy'), or None."""
        wanted = name.casefold().replace("-", " ")
        return next((part for part in self.parts if part.name.casefold() == wanted), None)


@dataclass(frozen=True, slots=True)
class Document:
    """A whole rules document of one kind, parsed (and usually normalised).

    A Comprehensive Rules document has rules and a glossary; a tournament document (MTR, IPG)
    has sections instead.
    """

    language: str
    effective_date: dt.date | None
    title: str = ""
    introduction: str = ""
    contents: tuple[str, ...] = ()
    headings: tuple[Heading, ...] = ()
    rules: tuple[Rule, ...] = ()
    glossary: tuple[GlossaryEntry, ...] = ()
    credits: str = ""
    notes: tuple[str, ...] = ()
    normalisation: tuple[tuple[str, int], ...] = ()
    set_name: str = ""  # as the document states it, where it does (the Italian wiki does)
    excerpt: bool = False  # quotes some chapters only (a wiki page), not the whole rules
    glossary_omitted: bool = False  # the translator printed "omitted" for the glossary (ko)
    kind: DocKind = DocKind.CR
    sections: tuple[Section, ...] = ()

    def section(self, address: str) -> Section | SectionPart | None:
        """Return the section '2.1' or its part '2.1/philosophy', or None."""
        number, _, part = address.partition("/")
        found = next((section for section in self.sections if section.number == number), None)
        if found is None or not part:
            return found
        return found.part(part)

    def rule(self, number: str) -> Rule | None:
        """Return the rule with this number, or None."""
        for rule in self.rules:
            if rule.number == number:
                return rule
        return None


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where the bytes of a release came from: the file and, when they were fetched, the URL.

    The one record of it: the fetcher fills the URL, the times and the validators, ingest the
    file name, digest, format and encoding; release.json stores it under "source". A local
    file has no URL.
    """

    name: str = ""
    sha256: str = ""
    format: str = ""
    encoding: str = ""
    url: str = ""
    final_url: str = ""
    fetched_at: str = ""
    etag: str = ""
    last_modified: str = ""


class Flag(StrEnum):
    """What a release's metadata says of it beside its text."""

    DAMAGED = "damaged"  # stored with --force although its checks failed
    EXCERPT = "excerpt"  # it quotes some chapters only (the Italian wiki)
    TYPOS_REPAIRED = "typos-repaired"  # known typos of the original were repaired (and noted)
    SAMPLE = "sample"  # written for the shipped demo archive, not a published document


@dataclass(frozen=True, slots=True)
class Release:
    """The metadata of one stored release: a document of one language and effective date."""

    language: str
    effective_date: dt.date
    set_code: str
    set_name: str
    rule_count: int
    glossary_count: int
    content_sha256: str
    source: Provenance
    flags: tuple[Flag, ...] = ()
    notes: tuple[str, ...] = ()
    normalisation: tuple[tuple[str, int], ...] = ()
    decode_repairs: tuple[str, ...] = field(default=())
    kind: DocKind = DocKind.CR
    section_count: int = 0

    @property
    def key(self) -> str:
        """Return 'en/2024-11-08' (a CR) or 'mtr/en/2021-07-23', the release's place."""
        place = f"{self.language}/{self.effective_date.isoformat()}"
        return place if self.kind == DocKind.CR else f"{self.kind}/{place}"

    @property
    def label(self) -> str:
        """Return 'FDN 2024-11-08' or just the date when the set is unknown."""
        date = self.effective_date.isoformat()
        return f"{self.set_code} {date}" if self.set_code else date
