"""One English rule across time beside each of its translations.

Each English change of the rule's wording is set against each translation: the first
translated release whose English base holds the change followed it, so many English releases
later; a translation whose newest base is older has not followed it yet. Each translated
release says which English release it translates, which English wording of the rule that is,
and whether it is current or stale as its translation report says. Nothing is worked out here
that the reports (differ.translations) and the lines of descent (differ.lineage) do not hold.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulesarchive.corpus.model import Release, Rule
from rulesarchive.differ.kinds import WORDING, Kind, TranslationStatus
from rulesarchive.differ.lineage import Line
from rulesarchive.differ.translations import RuleStatus, TranslationReport

# The line of a translated rule number in one of its language's releases (by index).
Holder = Callable[[str, int], Line | None]


@dataclass(frozen=True, slots=True)
class TranslatedRelease:
    """What a translated release's report says, indexed by the English base's numbers."""

    release: Release
    base: Release | None
    base_index: int  # of the base among the English releases; -1 for none
    by_english: dict[str, RuleStatus]  # english_base_number -> status (current/stale/missing)


@dataclass(frozen=True, slots=True)
class Track:
    """One translated language: its releases' reports, oldest first, and its rules' lines."""

    language: str
    releases: tuple[TranslatedRelease, ...]
    holder: Holder


@dataclass(frozen=True, slots=True)
class Rendering:
    """One translated release against the English rule."""

    release: Release
    base: Release
    english_number: str | None  # the rule's number in the base; None: the base lacks it
    number: str | None  # the translated rule; None: not translated
    status: TranslationStatus | None  # current, stale or missing; None: the base lacks it
    stale_since: Release | None
    translates: Release | None  # the English release whose wording of the rule the base prints
    reworded: bool | None  # its wording differs from the release before's (None: none before)


@dataclass(frozen=True, slots=True)
class Follow:
    """How one translation answered one English change."""

    language: str
    release: Release | None  # the first translated release whose base holds it; None: not yet
    base: Release | None
    later: int | None  # English releases from the change to that base (0: the same release)
    status: TranslationStatus | None  # of the rule in that release (None: the base lacks it)
    reworded: bool | None  # its wording changed since its last release before the change
    first: bool = False  # that release is the language's first: it had nothing to follow from


@dataclass(frozen=True, slots=True)
class EnglishChange:
    """One change of the English rule's wording (or its coming or going), and the follows."""

    release: Release
    number: str  # the rule's number after the change (before it, for `removed`)
    kind: Kind
    follows: tuple[Follow, ...]  # one per translated language


@dataclass(frozen=True, slots=True)
class RuleTranslations:
    """An English rule beside its translations, across time."""

    number: str
    numbers: tuple[str, ...]  # every number the English rule had, oldest first
    release: Release  # the English release the number was asked in
    changes: tuple[EnglishChange, ...]  # since the first release any translation translates
    renderings: tuple[tuple[str, tuple[Rendering, ...]], ...]  # by language


def translated_release(report: TranslationReport, english: Sequence[Release]) -> TranslatedRelease:
    """Index a translation report by the English base numbers its rules translate."""
    by_english: dict[str, RuleStatus] = {}
    for status in report.rules:
        if status.english_base_number and status.status != TranslationStatus.EXTRA:
            by_english.setdefault(status.english_base_number, status)
    index = english.index(report.base) if report.base in english else -1
    return TranslatedRelease(report.release, report.base, index, by_english)


def compare_rule(
    line: Line, english: Sequence[Release], tracks: Sequence[Track], at: int
) -> RuleTranslations:
    """Set an English rule's line of descent beside each translation (`at`: where the rule
    was asked for, an index into `english`)."""
    renderings = tuple((track.language, _renderings(line, track, english)) for track in tracks)
    position = {release.effective_date: index for index, release in enumerate(english)}
    bases = [r.base for _, found in renderings for r in found if r.english_number]
    first = min((position[base.effective_date] for base in bases), default=len(english))
    changes = tuple(
        EnglishChange(
            english[index],
            number,
            kind,
            tuple(_follow(language, found, position, index) for language, found in renderings),
        )
        for index, number, kind in _changes(line, len(english))
        if index > first
    )
    number = line.number_at(at) or line.rule.number
    return RuleTranslations(number, line.numbers, english[at], changes, renderings)


def _changes(line: Line, count: int) -> list[tuple[int, str, Kind]]:
    """The English line's wording changes: (release index, number, kind), oldest first."""
    found = []
    if line.first > 0:
        found.append((line.first, line.stretches[0].rule.number, Kind.ADDED))
    for stretch in line.stretches[1:]:
        if stretch.change is not None and stretch.change.kind in WORDING:
            found.append((stretch.first, stretch.rule.number, stretch.change.kind))
    if line.last < count - 1:
        found.append((line.last + 1, line.rule.number, Kind.REMOVED))
    return found


def _renderings(line: Line, track: Track, english: Sequence[Release]) -> tuple[Rendering, ...]:
    """Each translated release of a track (with a base) against the English line."""
    found = []
    wording: tuple[str, tuple[str, ...]] | None = None  # the translation's, the release before
    for index, translated in enumerate(track.releases):
        if translated.base is None:
            continue
        english_number = line.number_at(translated.base_index)
        status = translated.by_english.get(english_number) if english_number else None
        number = None
        rule = None
        if status is not None and status.status != TranslationStatus.MISSING:
            number = status.number
            rule = _printed(track.holder(number, index), index)
        now = (rule.text, rule.examples) if rule else None
        found.append(
            Rendering(
                translated.release,
                translated.base,
                english_number,
                number,
                status.status if status else None,
                status.stale_since if status else None,
                _translates(line, translated.base_index, english) if english_number else None,
                None if now is None or wording is None else now != wording,
            )
        )
        wording = now
    return tuple(found)


def _printed(line: Line | None, index: int) -> Rule | None:
    """The rule as a line prints it in release `index`."""
    if line is None:
        return None
    return next((s.rule for s in line.stretches if s.first <= index <= s.last), None)


def _translates(line: Line, index: int, english: Sequence[Release]) -> Release:
    """The English release that gave the rule the wording release `index` prints."""
    start = line.first
    for stretch in line.stretches:
        if stretch.first > index:
            break
        if stretch.change is not None and stretch.change.kind in WORDING:
            start = stretch.first
    return english[start]


def _follow(
    language: str, renderings: Sequence[Rendering], position: dict[dt.date, int], change: int
) -> Follow:
    """The first translated release whose English base holds the change at `change`
    (`position`: each English release's index, by date)."""
    before = None  # the translation's rule in its last release based before the change
    for rendering in renderings:
        base = position[rendering.base.effective_date]
        if base < change:
            before = rendering
            continue
        reworded = None
        if before is not None and before.number and rendering.number:
            reworded = _wording_changed(renderings, before, rendering)
        return Follow(
            language,
            rendering.release,
            rendering.base,
            base - change,
            rendering.status,
            reworded,
            before is None and rendering is renderings[0],
        )
    return Follow(language, None, None, None, None, None)


def _wording_changed(renderings: Sequence[Rendering], since: Rendering, until: Rendering) -> bool:
    """Whether any release after `since`, up to `until`, reworded the translated rule."""
    inside = renderings[renderings.index(since) + 1 : renderings.index(until) + 1]
    return any(rendering.reworded for rendering in inside)
