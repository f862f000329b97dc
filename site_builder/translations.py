"""Pair the rule pages of each translation with the English rule pages they translate."""

from __future__ import annotations

from dataclasses import dataclass, field

from corpus.model import Release, Rule
from differ.translations import TranslationReport
from site_builder.gather import Language


@dataclass(frozen=True, slots=True)
class Counterpart:
    """A translated rule beside the English of its base release."""

    language: str
    line_id: str  # of the translated rule, in its language
    rule: Rule  # as the newest translated release prints it
    release: Release
    english: Rule  # as the base English release printed it
    base: Release
    status: str  # current or stale
    stale_since: Release | None
    problems: tuple[str, ...]


@dataclass
class Pairing:
    """Every translation's counterparts, by English line, and the way back."""

    by_english: dict[str, list[Counterpart]] = field(default_factory=dict)
    to_english: dict[tuple[str, str], str] = field(default_factory=dict)  # (lang, line) -> en


def pair_translations(
    english: Language, translations: list[tuple[Language, TranslationReport]]
) -> Pairing:
    """Pair the newest release of each translation with the English lines of its base."""
    pairing = Pairing()
    for other, report in translations:
        if report.base is None or report.base not in english.releases:
            continue
        base_index = english.releases.index(report.base)
        newest = len(other.releases) - 1
        for status in report.rules:
            if status.status not in {"current", "stale"}:
                continue
            english_line = english.holder(status.number, base_index)
            translated_line = other.holder(status.number, newest)
            if english_line is None or translated_line is None:
                continue
            english_rule = next(
                s.rule for s in english_line.stretches if s.first <= base_index <= s.last
            )
            pairing.by_english.setdefault(english_line.id, []).append(
                Counterpart(
                    other.language,
                    translated_line.id,
                    translated_line.rule,
                    other.releases[newest],
                    english_rule,
                    report.base,
                    status.status,
                    status.stale_since,
                    status.problems,
                )
            )
            pairing.to_english[(other.language, translated_line.id)] = english_line.id
    return pairing
