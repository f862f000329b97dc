"""Pair the rule pages of each translation with the English rule pages they translate."""

from __future__ import annotations

from dataclasses import dataclass, field

from rulesarchive.corpus.model import Release, Rule
from rulesarchive.differ.kinds import TranslationStatus
from rulesarchive.differ.language import Language
from rulesarchive.differ.lineage import Line
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.site_builder.changelog import change_page


@dataclass(frozen=True, slots=True)
class Counterpart:
    """A translated rule beside the English of its base release."""

    language: str
    line_id: str  # of the translated rule, in its language
    rule: Rule  # as the newest translated release prints it
    release: Release
    english: Rule  # as the base English release printed it
    base: Release
    status: TranslationStatus  # current or stale
    stale_since: Release | None
    problems: tuple[str, ...]
    english_line_id: str
    change: str  # from the site root: where the English changelog shows the change, or ''


@dataclass
class Pairing:
    """Every translation's counterparts, by English line, and by translated line."""

    by_english: dict[str, list[Counterpart]] = field(default_factory=dict)
    by_translation: dict[tuple[str, str], Counterpart] = field(default_factory=dict)


def pair_translations(
    english: Language, translations: list[tuple[Language, TranslationReport]]
) -> Pairing:
    """Pair the newest release of each translation with the English lines of its base.

    A translated rule is paired with the English rule the report aligned it with, which is
    not the one of the same number where the translation's chapters are shifted.
    """
    pairing = Pairing()
    for other, report in translations:
        if report.base is None or report.base not in english.releases:
            continue
        base_index = english.releases.index(report.base)
        newest = len(other.releases) - 1
        for status in report.rules:
            if status.status not in {TranslationStatus.CURRENT, TranslationStatus.STALE}:
                continue
            base_number = status.english_base_number or status.number
            english_line = english.holder(base_number, base_index)
            translated_line = other.holder(status.number, newest)
            if english_line is None or translated_line is None:
                continue
            counterpart = Counterpart(
                other.language,
                translated_line.id,
                translated_line.rule,
                other.releases[newest],
                _printed_in(english_line, base_index),
                report.base,
                status.status,
                status.stale_since,
                status.problems,
                english_line.id,
                _change_in(english, english_line, status.stale_since),
            )
            pairing.by_english.setdefault(english_line.id, []).append(counterpart)
            pairing.by_translation[(other.language, translated_line.id)] = counterpart
    return pairing


def _printed_in(line: Line, index: int) -> Rule:
    return next(s.rule for s in line.stretches if s.first <= index <= s.last)


def _change_in(english: Language, line: Line, release: Release | None) -> str:
    """Where a release's changelog lists this rule's change (its number then, or last)."""
    if release is None:
        return ""
    index = english.releases.index(release)
    numbers = [s.rule.number for s in line.stretches if s.first <= index <= s.last]
    number = numbers[0] if numbers else line.stretches[-1].rule.number  # removed there
    return change_page(release, english.diffs[index], number)
