"""What the site reads: the library's calls the build makes (rulesarchive.library.Library).

The site builder renders; it reads releases, diffs, lines of descent, checks and translation
reports only through the library, which keeps them (and keeps the site's own derived data,
its linked texts and compiled templates, in its store).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.model import DocKind, Document, Release
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.language import Language
from rulesarchive.differ.references import LanguageCheck, ReleaseCheck
from rulesarchive.differ.tournament_references import InForce
from rulesarchive.differ.translations import TranslationReport


class Source(Protocol):
    """The library, as the site builder uses it."""

    @property
    def root(self) -> Path:
        """The archive's folder."""

    @property
    def derived(self) -> DerivedData:
        """The store of derived data."""

    def releases(self, language: str | None = None) -> list[Release]:
        """Return the releases of a language (None: every language), oldest first."""

    def load(self, release: Release) -> Document:
        """Return a release's document."""

    def original(self, release: Release) -> bytes:
        """Return the bytes a release was ingested from."""

    def gather(
        self,
        language: str,
        on_document: Callable[[int, Release, Document], None] | None = None,
        kept: bool = False,
        diffs_made: Callable[[], None] | None = None,
    ) -> Language:
        """Return a language's releases, diffs, lines of descent and glossary lines."""

    def make_diffs(self, language: str, here: bool = False) -> int:
        """Work out the language's missing diffs (on every core, or `here`); return how many."""

    def missing_diffs(self, language: str) -> int:
        """Return how many of the language's consecutive diffs are not kept."""

    def check(
        self, language: str, gathered: Language | None = None, english: Language | None = None
    ) -> LanguageCheck:
        """Return the reference check of every release of a language."""

    def translation(self, language: str, release: Release | None = None) -> TranslationReport:
        """Return a translated release against its English base."""

    def check_release(self, release: Release, checked: LanguageCheck | None = None) -> ReleaseCheck:
        """Return one release's references and their problems."""

    def diff(self, old: Release, new: Release) -> ReleaseDiff:
        """Return what changed between two releases of a language."""

    def in_force(self, kind: DocKind, date: dt.date) -> InForce | None:
        """Return the English version of a kind of document in force on a date, with the
        numbers it holds (None: none of that kind yet on that date)."""
