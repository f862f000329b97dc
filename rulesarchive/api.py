"""The Python API: an archive's releases, rules, diffs and histories as typed objects.

Wiring only, like the CLI: each method calls the library function the matching command calls,
and each result's `to_json()` is exactly what that command prints with `--format json`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields
from pathlib import Path

from rulesarchive.corpus import model
from rulesarchive.corpus.lookup import find_release, previous_release
from rulesarchive.corpus.present import release_summary, rule_view
from rulesarchive.corpus.store import Archive as Store
from rulesarchive.corpus.store import ArchiveError
from rulesarchive.differ import history as histories
from rulesarchive.differ.changes import Change
from rulesarchive.differ.classify import ReleaseDiff, diff_documents
from rulesarchive.differ.report import diff_data, history_data
from rulesarchive.differ.rule_index import rule_history

__all__ = ["Archive", "ArchiveError", "Comparison", "History", "Release", "RuleText"]

ReleaseRef = str | dt.date | model.Release | None


@dataclass(frozen=True, slots=True)
class Release(model.Release):
    """A stored release (a corpus.model.Release) that prints as `releases --format json`."""

    @classmethod
    def of(cls, release: model.Release) -> Release:
        """Return the API form of a model release."""
        return cls(**{field.name: getattr(release, field.name) for field in fields(release)})

    def to_json(self) -> dict:
        """Return the object `rulesarchive releases --format json` prints for this release."""
        return release_summary(self)


@dataclass(frozen=True, slots=True)
class RuleText:
    """One rule as one release prints it."""

    rule: model.Rule
    release: Release

    @property
    def number(self) -> str:
        """The rule's number in this release ('400.6')."""
        return self.rule.number

    @property
    def text(self) -> str:
        """The text as printed (`rule.text` is the normalised text)."""
        return self.rule.printed_text

    @property
    def examples(self) -> tuple[str, ...]:
        """The examples as printed."""
        return self.rule.printed_examples

    def to_json(self) -> dict:
        """Return what `rulesarchive rule NUMBER --format json` prints."""
        return rule_view(self.rule, self.release)


@dataclass(frozen=True, slots=True)
class Comparison:
    """What changed between two releases: `result` is the differ's ReleaseDiff."""

    old: Release
    new: Release
    result: ReleaseDiff

    @property
    def changes(self) -> tuple[Change, ...]:
        """Every rule change, `unchanged` ones excepted, in rule order."""
        return tuple(change for change in self.result.changes if change.kind != "unchanged")

    @property
    def renumbering(self) -> tuple[tuple[str, str], ...]:
        """Every (old, new) pair of numbers of a rule that moved."""
        return self.result.renumbering

    def to_json(self) -> dict:
        """Return what `rulesarchive diff OLD NEW --format json` prints."""
        return diff_data(self.old, self.new, self.result)


@dataclass(frozen=True, slots=True)
class History(histories.History):
    """Every version of one rule, oldest first (differ.history.History), printable as JSON."""

    def to_json(self) -> dict:
        """Return what `rulesarchive history NUMBER --format json` prints."""
        return history_data(self)


class Archive:
    """A folder of releases, as `rulesarchive --archive DIR` reads it.

    Releases are named as on the command line: an effective date ('2024-11-08' or a
    datetime.date), a catalogue file date, a set code ('FDN'), or a Release; None is the newest.
    """

    def __init__(self, root: Path | str = "archive") -> None:
        self.store = Store(root)

    def releases(self, lang: str | None = "en") -> list[Release]:
        """Return the releases of a language (None: all), oldest first."""
        return [Release.of(release) for release in self.store.releases(lang)]

    def release(self, reference: ReleaseRef = None, lang: str = "en") -> Release:
        """Return one release, named by date or set code; the newest if None."""
        return Release.of(self._find(reference, lang))

    def rule(self, number: str, release: ReleaseRef = None, lang: str = "en") -> RuleText:
        """Return a rule as a release (default the newest) prints it."""
        found = self._find(release, lang)
        rule = self.store.load(found).rule(number.rstrip("."))
        if rule is None:
            raise ArchiveError(f"no rule {number} in {found.key} ({found.set_name})")
        return RuleText(rule, Release.of(found))

    def diff(self, old: ReleaseRef, new: ReleaseRef, lang: str = "en") -> Comparison:
        """Return what changed, rule by rule, between any two releases."""
        before, after = self._find(old, lang), self._find(new, lang)
        result = diff_documents(self.store.load(before), self.store.load(after))
        return Comparison(Release.of(before), Release.of(after), result)

    def changelog(self, release: ReleaseRef = None, lang: str = "en") -> Comparison:
        """Return a release's changes (default the newest) against the release before it."""
        after = self._find(release, lang)
        before = previous_release(self.store, after)
        if before is None:
            raise ArchiveError(f"{after.key} is the oldest {lang} release: nothing to compare")
        return self.diff(before, after, lang)

    def history(self, number: str, lang: str = "en", release: ReleaseRef = None) -> History:
        """Return every version of a rule, named by its number in `release` (default newest)."""
        found = rule_history(self.store, number.rstrip("."), lang, self._find(release, lang))
        return History(found.rule, found.numbers, found.versions)

    def _find(self, reference: ReleaseRef, lang: str) -> model.Release:
        """Return the stored release (the model object) a reference names."""
        if isinstance(reference, model.Release):
            stored = self.store.get(reference.language, reference.effective_date)
            if stored is None:
                raise ArchiveError(f"no release {reference.key} in {self.store.root}")
            return stored
        if isinstance(reference, dt.date):
            reference = reference.isoformat()
        return find_release(self.store, reference, lang)
