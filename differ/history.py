"""A rule's life story: every version across releases, following it through renumbering."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import Release, Rule
from rulesarchive.differ.changes import Change
from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.texts import wording_phrases
from rulesarchive.differ.words import Diff, Phrase, diff_words
from rulesarchive.system.lazy import lazy_module

# Classifying is loaded only where a history is told from sightings (see lineage), and
# normalising only where a scraped history is read.
if TYPE_CHECKING:
    from rulesarchive.corpus import typography
    from rulesarchive.differ import align, classify
else:
    align = lazy_module("rulesarchive.differ.align")
    classify = lazy_module("rulesarchive.differ.classify")
    typography = lazy_module("rulesarchive.corpus.typography")


@dataclass(frozen=True, slots=True)
class Version:
    """One version of a rule: where it stood, what it said, and how it changed.

    A version lasts from `effective_date` to `until` (the last release printing it alike).
    """

    effective_date: dt.date | None
    set_code: str
    set_name: str
    number: str
    text: str
    examples: tuple[str, ...]
    kind: Kind
    phrases: tuple[Phrase, ...] = ()
    diff: Diff = ()
    compared_with: dt.date | None = None
    until: dt.date | None = None
    example_phrases: tuple[Phrase, ...] = ()
    releases: int = 1
    split_from: str | None = None  # the rule this one was split from, in the release before
    merged_from: tuple[str, ...] = ()  # the rules merged into this one, in the release before


@dataclass(frozen=True, slots=True)
class History:
    """Every version of one rule, oldest first, and every number it had."""

    rule: str
    numbers: tuple[str, ...]
    versions: tuple[Version, ...]


_SHOWN_PLAIN = {Kind.UNCHANGED, Kind.TRUNCATION}  # versions whose phrases are not shown


def version_of(
    rule: Rule,
    span: tuple[Release, Release, int] | None,
    kind: Kind,
    change: Change | None = None,
    compared_with: Release | None = None,
    diff: Callable[[str, str], Diff] = diff_words,
) -> Version:
    """Describe a rule as printed from span's first to its last release (`span[2]` releases);
    `diff` works out its examples' word diffs."""
    shown = change if change is not None and kind not in _SHOWN_PLAIN else None
    first, last, count = span if span else (None, None, 1)
    return Version(
        first.effective_date if first else None,
        first.set_code if first else "",
        first.set_name if first else "",
        rule.number,
        rule.printed_text,
        rule.printed_examples,
        kind,
        shown.phrases if shown else (),
        shown.diff if shown else (),
        compared_with.effective_date if compared_with else None,
        last.effective_date if last else None,
        _example_phrases(shown, diff) if shown and kind != Kind.ADDED else (),  # nothing before
        count,
    )


def _example_phrases(change: Change, diff: Callable[[str, str], Diff]) -> tuple[Phrase, ...]:
    return tuple(
        phrase for pieces in change.example_diffs_by(diff) for phrase in wording_phrases(pieces)
    )


@dataclass(frozen=True, slots=True)
class Sighting:
    """A rule as one source printed it (a scraped history has no release behind it)."""

    effective_date: dt.date | None
    set_code: str
    set_name: str
    rule: Rule


def history_of(sightings: Sequence[Sighting], first_is_addition: bool) -> tuple[Version, ...]:
    """Classify each sighting (oldest first) against the last complete version before it."""
    first_kind = Kind.ADDED if first_is_addition else Kind.UNCHANGED
    versions: list[Version] = []
    last_good: int | None = None  # index of the last version that was not cut short
    for sighting in sightings:
        if last_good is None:
            versions.append(_sighted(sighting, first_kind))
            last_good = len(versions) - 1
            continue
        reference = sightings[last_good]
        change = classify.classify_pair(align.Pair(reference.rule, sighting.rule))
        if change.kind == Kind.TRUNCATION and len(sighting.rule.text) > len(reference.rule.text):
            # The copy taken as the first complete one was itself cut: it is the truncation,
            # and this one is the first complete version (no change is faked).
            versions[last_good] = _sighted(reference, Kind.TRUNCATION)
            versions.append(_sighted(sighting, first_kind))
        else:
            versions.append(_sighted(sighting, change.kind, change, reference.effective_date))
        if change.kind != Kind.TRUNCATION or len(sighting.rule.text) > len(reference.rule.text):
            last_good = len(versions) - 1
    return tuple(versions)


def _sighted(
    sighting: Sighting,
    kind: Kind,
    change: Change | None = None,
    compared_with: dt.date | None = None,
) -> Version:
    version = version_of(sighting.rule, None, kind, change)
    return replace(
        version,
        effective_date=sighting.effective_date,
        until=sighting.effective_date,
        set_code=sighting.set_code,
        set_name=sighting.set_name,
        compared_with=compared_with,
    )


_DATE_LINE = re.compile(r"(?P<month>[A-Z][a-z]+) (?P<day>\d{1,2}), (?P<year>\d{4}) · (?P<set>.+)")


def parse_scraped_history(text: str, number: str = "", source: str = "") -> History:
    """Read a scraped history: current text, then 'Month D, YYYY · Set' blocks, newest first.

    `source` names where the text came from in the error raised for a text that is none.
    """
    blocks: list[tuple[dt.date | None, str, list[str]]] = [(None, "current", [])]
    for line in text.replace("\r\n", "\n").split("\n"):
        match = _DATE_LINE.fullmatch(line.strip())
        if match:
            date = dt.datetime.strptime(
                f"{match['month']} {match['day']} {match['year']}", "%B %d %Y"
            ).date()
            blocks.append((date, match["set"].strip(), []))
        elif line.strip():
            blocks[-1][2].append(line.strip())
    if len(blocks) < 2:
        raise ValueError(
            f"{source}: no 'Month D, YYYY · Set Name' lines: not a scraped rule history"
        )
    sightings = [
        Sighting(date, "", set_name, _printed_rule(number, " ".join(lines)))
        for date, set_name, lines in reversed(blocks)
        if lines
    ]
    return History(
        number, (number,) if number else (), history_of(sightings, first_is_addition=False)
    )


def _printed_rule(number: str, printed: str) -> Rule:
    text = typography.normalise_text(printed)
    return Rule(number, text, (), printed if printed != text else "")
