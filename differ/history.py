"""A rule's life story: every version across releases, following it through renumbering."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.corpus.store import Archive
from rulesarchive.corpus.typography import normalise_text
from rulesarchive.differ.align import align_rules
from rulesarchive.differ.classify import compare_texts
from rulesarchive.differ.texts import is_truncation, typography_key
from rulesarchive.differ.words import Diff, Phrase, diff_words, phrases_of, similarity

_SAME_LINE = 0.8  # same number and this alike: no need to align the whole release


@dataclass(frozen=True, slots=True)
class Version:
    """One version of a rule: where it stood, what it said, and how it changed."""

    effective_date: dt.date | None
    set_code: str
    set_name: str
    number: str
    text: str
    examples: tuple[str, ...]
    kind: str
    phrases: tuple[Phrase, ...] = ()
    diff: Diff = ()
    compared_with: dt.date | None = None


@dataclass(frozen=True, slots=True)
class History:
    """Every version of one rule, oldest first, and every number it had."""

    rule: str
    numbers: tuple[str, ...]
    versions: tuple[Version, ...]


@dataclass(frozen=True, slots=True)
class Sighting:
    """A rule as one release printed it."""

    effective_date: dt.date | None
    set_code: str
    set_name: str
    rule: Rule


def history_of(sightings: Sequence[Sighting], first_is_addition: bool) -> tuple[Version, ...]:
    """Classify each sighting (oldest first) against the last complete version before it."""
    first_kind = "added" if first_is_addition else "unchanged"
    versions: list[Version] = []
    last_good: int | None = None  # index of the last version that was not cut short
    for sighting in sightings:
        rule = sighting.rule
        if last_good is None:
            versions.append(_version(sighting, first_kind, (), None))
            last_good = len(versions) - 1
            continue
        reference = sightings[last_good]
        diff = diff_words(reference.rule.text, rule.text)
        kind = compare_texts(reference.rule, rule, {}, diff)
        if kind == "truncation" and len(rule.text) > len(reference.rule.text):
            # The copy taken as the first complete one was itself cut: it is the truncation,
            # and this one is the first complete version (no change is faked).
            versions[last_good] = replace(
                versions[last_good], kind="truncation", phrases=(), diff=()
            )
            versions.append(_version(sighting, first_kind, (), None))
        else:
            versions.append(_version(sighting, kind, diff, reference.effective_date))
        if kind != "truncation" or len(rule.text) > len(reference.rule.text):
            last_good = len(versions) - 1
    return tuple(versions)


def _version(sighting: Sighting, kind: str, diff: Diff, compared_with: dt.date | None) -> Version:
    rule = sighting.rule
    shown = kind not in {"unchanged", "truncation"}
    return Version(
        sighting.effective_date,
        sighting.set_code,
        sighting.set_name,
        rule.number,
        rule.printed_text,
        rule.printed_examples,
        kind,
        phrases_of(diff) if shown else (),
        diff if shown else (),
        compared_with,
    )


def rule_history(
    archive: Archive, number: str, language: str = "en", reference: Release | None = None
) -> History:
    """Follow a rule from a release (default the newest) back and forward through every release."""
    releases = archive.releases(language)
    if not releases:
        raise LookupError(f"no {language} releases in the archive")
    start = releases.index(reference) if reference else len(releases) - 1
    documents: dict[int, Document] = {}

    def load(index: int) -> Document:
        if index not in documents:
            documents[index] = archive.load(releases[index])
        return documents[index]

    rule = load(start).rule(number)
    if rule is None:
        raise LookupError(f"no rule {number} in {releases[start].key}")
    backward = _follow(load, start, rule, range(start - 1, -1, -1), backward=True)
    forward = _follow(load, start, rule, range(start + 1, len(releases)), backward=False)
    chain = [*reversed(backward), (start, rule), *forward]
    sightings = [
        Sighting(releases[i].effective_date, releases[i].set_code, releases[i].set_name, found)
        for i, found in chain
    ]
    first_is_addition = chain[0][0] > 0
    numbers = tuple(dict.fromkeys(found.number for _, found in chain))
    return History(number, numbers, history_of(sightings, first_is_addition))


def _follow(
    load: Callable[[int], Document], start: int, rule: Rule, indexes: range, backward: bool
) -> list[tuple[int, Rule]]:
    found: list[tuple[int, Rule]] = []
    current_index, current = start, rule
    for index in indexes:
        document = load(index)
        candidate = document.rule(current.number)
        if candidate is None or not _same_line(candidate, current):
            candidate = _aligned(load(current_index), document, current, backward)
        if candidate is None:
            break
        found.append((index, candidate))
        current_index, current = index, candidate
    return found


def _same_line(candidate: Rule, current: Rule) -> bool:
    """Tell whether a rule under the same number is still the same rule (no full alignment)."""
    candidate_key, current_key = typography_key(candidate.text), typography_key(current.text)
    if candidate_key == current_key or is_truncation(candidate_key, current_key):
        return True
    return similarity(candidate.text, current.text, _SAME_LINE) >= _SAME_LINE


def _aligned(known: Document, other: Document, rule: Rule, backward: bool) -> Rule | None:
    """Find the rule's counterpart in an adjacent release by aligning the two whole releases."""
    old, new = (other, known) if backward else (known, other)
    for pair in align_rules(old.rules, new.rules):
        mine = pair.new if backward else pair.old
        theirs = pair.old if backward else pair.new
        if mine is not None and mine.number == rule.number:
            return theirs
    return None


_DATE_LINE = re.compile(r"(?P<month>[A-Z][a-z]+) (?P<day>\d{1,2}), (?P<year>\d{4}) · (?P<set>.+)")


_MAX_HISTORY_BYTES = 4 * 2**20  # a real scraped history of one rule is a few kilobytes


def read_scraped_history(path: Path, number: str = "") -> History:
    """Read a scraped history: current text, then 'Month D, YYYY · Set' blocks, newest first."""
    try:
        with path.open("rb") as handle:  # bounded: `--from-file /dev/zero` must not eat memory
            raw = handle.read(_MAX_HISTORY_BYTES + 1)
        if len(raw) > _MAX_HISTORY_BYTES:
            raise ValueError(f"{path}: over {_MAX_HISTORY_BYTES // 2**20} MB, not a rule's history")
        text = raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot read ({error})") from None
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
        raise ValueError(f"{path}: no 'Month D, YYYY · Set Name' lines: not a scraped rule history")
    sightings = [
        Sighting(date, "", set_name, _printed_rule(number, " ".join(lines)))
        for date, set_name, lines in reversed(blocks)
        if lines
    ]
    return History(
        number, (number,) if number else (), history_of(sightings, first_is_addition=False)
    )


def _printed_rule(number: str, printed: str) -> Rule:
    text = normalise_text(printed)
    return Rule(number, text, (), printed if printed != text else "")
