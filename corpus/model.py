"""Frozen dataclasses for documents, rules and releases."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum

# The closed set of languages the archive holds; a code is also a folder name, so only these
# are ever used as one.  Add a language here (and to the scraper's sources) to support it.
LANGUAGES = ("en", "zh-Hans", "it", "ko")


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
class Document:
    """A whole Comprehensive Rules document, parsed (and usually normalised)."""

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

    @property
    def key(self) -> str:
        """Return 'en/2024-11-08', the release's place in the archive."""
        return f"{self.language}/{self.effective_date.isoformat()}"

    @property
    def label(self) -> str:
        """Return 'FDN 2024-11-08' or just the date when the set is unknown."""
        date = self.effective_date.isoformat()
        return f"{self.set_code} {date}" if self.set_code else date
