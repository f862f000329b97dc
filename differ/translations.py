"""Translations against the English they came from: base release, alignment, staleness.

A translated release is tied to the English release it translates: among the English
releases around its printed date, the one whose rule numbers match it best (the one of its
printed date on a tie). Each translated rule is paired with the English rule it translates
in that base release (by number and by the evidence of its text, see translation_align) and
checked by structure (same number of examples, same cited rules, same numbers in the text); it
is stale when the English rule changed in wording after the base release (typography and
truncation do not count).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.corpus.numbers import parse_citations, rule_sort_key
from rulesarchive.differ.kinds import WORDING, Kind, TranslationStatus
from rulesarchive.differ.translation_align import (
    ENGLISH_NAME,
    QUANTITY,
    Shift,
    TranslationAlignment,
    align_translation,
)

if TYPE_CHECKING:  # a diff's class is loaded by whoever made the diff
    from rulesarchive.differ.classify import ReleaseDiff


class RuleStatus(NamedTuple):
    """One rule of a translation: `current`, `stale`, `missing` or `extra`.

    Immutable like the model's dataclasses, but a tuple (as a diff's Change): a report holds
    one for every rule, and the kept reports are read back at every `translations`, where
    a frozen dataclass took about three times as long to make.
    """

    number: str
    status: TranslationStatus
    stale_since: Release | None = None
    english_number: str | None = None  # where the English rule is now, if not at `number`
    problems: tuple[str, ...] = ()  # structure that does not match the English rule
    english_base_number: str | None = None  # the English rule it translates, in the base


@dataclass(frozen=True, slots=True)
class TranslationReport:
    """A translated release against its base English release."""

    release: Release
    base: Release | None
    rules: tuple[RuleStatus, ...]
    shifts: tuple[Shift, ...] = ()  # where translated numbers are not the English base's
    # the English release of the translation's printed date, when its content is another's
    printed_date_release: Release | None = None

    @property
    def counts(self) -> dict[str, int]:
        """Rules per status, and how many have structure problems (`mismatched`)."""
        counts = Counter(rule.status for rule in self.rules)
        found = {status.value: counts[status] for status in TranslationStatus}
        found["mismatched"] = sum(1 for rule in self.rules if rule.problems)
        return found


# How far from its printed date a translation's English base may be, in English releases.
LOOK_BACK = 8
LOOK_AHEAD = 4


def base_release(
    translated: Release,
    document: Document,
    english: list[Release],
    numbers_of: Callable[[Release], AbstractSet[str]],
) -> Release | None:
    """Return the English release a translation translates (None when none is old enough).

    Of the English release of its printed date, the LOOK_BACK before it and, when the archive
    has the release of its date, the LOOK_AHEAD after it, the one whose rule numbers match
    the translation's best: a translation revised for a later English release keeps its date
    (ko 2017-07-08 translates en 2017-08-25). A tie goes to the release of the printed date,
    then to the latest before it. With no English release of its date, none after it is
    taken: zh-Hans 2024-03-08 translates an update the archive lacks, made on en 2024-02-02,
    and en 2024-04-12 matches it better only by holding that update's new chapter.
    """
    date = translated.effective_date
    candidates = base_candidates(translated, english)
    if not candidates:
        return None
    same_day = printed_date_release(translated, candidates)
    mine = {rule.number for rule in document.rules}

    def preference(release: Release) -> tuple[float, bool, bool, int]:
        theirs = numbers_of(release)
        if document.excerpt:  # some chapters: how many of its numbers the release has
            score = len(mine & theirs) / (len(mine) or 1)
        else:
            score = len(mine & theirs) / (len(mine | theirs) or 1)
        before = release.effective_date < date
        day = release.effective_date.toordinal()
        return score, release is same_day, before, day if before else -day  # the closest

    return max(candidates, key=preference)


def base_candidates(translated: Release, english: list[Release]) -> list[Release]:
    """Return the English releases `base_release` chooses from, oldest first: the LOOK_BACK
    before the printed date and, when one is of that date, it and the LOOK_AHEAD after it."""
    date = translated.effective_date
    candidates = [r for r in english if r.effective_date < date][-LOOK_BACK:]
    same_day = printed_date_release(translated, english)
    if same_day is not None:
        candidates += [same_day, *[r for r in english if r.effective_date > date][:LOOK_AHEAD]]
    return candidates


def printed_date_release(translated: Release, english: list[Release]) -> Release | None:
    """Return the English release of a translation's printed (effective) date, if any."""
    return next((r for r in english if r.effective_date == translated.effective_date), None)


def check_structure(
    translated: Rule, english: Rule, renumber: Callable[[str], str] | None = None
) -> tuple[str, ...]:
    """Say where a translated rule's structure differs from its English rule.

    `renumber` turns a number the translation cites into the English base's number for the
    same rule, where the two are numbered differently (a shifted chapter).
    """
    renumber = renumber or _unchanged
    problems = []
    if len(translated.examples) != len(english.examples):
        problems.append(f"{len(translated.examples)} examples, English has {len(english.examples)}")
    theirs, english_text, their_quantities, spelled = _english_reading(english)
    mine = tuple(sorted({renumber(number) for number in _citations(translated)}, key=rule_sort_key))
    if mine != theirs:
        problems.append(f"cites {_listed(mine)}, English cites {_listed(theirs)}")
    names = ENGLISH_NAME.findall(" ".join((translated.text, *translated.examples)))
    unknown = sorted({name for name in names if not _glossed(name, english_text)})
    if unknown:
        problems.append(f"names {', '.join(unknown)} are not in the English")
    # a three-digit quantity is a chapter cited ("see rule 730"): renumbered like citations
    mine_quantities = tuple(
        sorted(
            {
                renumber(q) if q.isdigit() and len(q) == 3 else q
                for q in _quantities(translated)
                if q in their_quantities or q not in spelled
            }
        )
    )
    if mine_quantities and their_quantities and mine_quantities != their_quantities:
        problems.append(
            f"numbers {_listed(mine_quantities)}, English has {_listed(their_quantities)}"
        )
    return tuple(problems)


@lru_cache(maxsize=2**15)
def _english_reading(
    english: Rule,
) -> tuple[tuple[str, ...], str, tuple[str, ...], frozenset[str]]:
    """What `check_structure` reads of an English rule: its citations, its text with its
    examples, its quantities and the numbers it spells out. Read once per process: the
    English bases of a language's translations print most rules alike."""
    return (
        tuple(_citations(english)),
        " ".join((english.text, *english.examples)),
        tuple(_quantities(english)),
        frozenset(_spelled_numbers(english.text)),
    )


def _unchanged(number: str) -> str:
    return number


def _citations(rule: Rule) -> list[str]:
    return sorted(set(_cited(rule)), key=rule_sort_key)


def _cited(rule: Rule) -> list[str]:
    """Every number a rule cites (chapters and the ends of ranges too), in order, once each."""
    found = (c.numbers for text in (rule.text, *rule.examples) for c in parse_citations(text))
    return list(dict.fromkeys(number for numbers in found for number in numbers))


def citation_differences(translated: Rule, english: Rule) -> list[tuple[str, str | None]]:
    """Pair each number only the translation cites with the one the English cites instead.

    In order: the first number the translation alone cites goes with the first number the
    English alone cites (None when the English has no more).
    """
    mine, theirs = _cited(translated), _cited(english)
    lacking = [number for number in theirs if number not in mine]
    extra = [number for number in mine if number not in theirs]
    return [(number, lacking[i] if i < len(lacking) else None) for i, number in enumerate(extra)]


def _references(*texts: str) -> list[str]:
    """Return the rules and chapters some texts cite (the ends of ranges too), sorted."""
    return sorted({n for text in texts for c in parse_citations(text) for n in c.numbers})


def _glossed(name: str, english: str) -> bool:
    """Tell whether an English name a translation keeps in parentheses is in the English.

    A translator glosses terms too, capitalised ("혼성 마나(Hybrid mana)" for "hybrid mana"),
    and two card names in one pair of parentheses ("(Word of Command, Opposition Agent)" for
    "(Word of Command and Opposition Agent)"): letter case does not count, nor do the commas.
    """
    english = english.casefold()
    return name.casefold() in english or all(
        part.strip().casefold() in english for part in name.split(",")
    )


# Numbers the English spells out where a translation writes digits: "four" for 4장 (four
# cards), "two-player" for 2인전, "seven" for 7장, "second" for 2번째.
_CARDINALS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth"
_NUMBER_WORDS = (
    {word: str(value) for value, word in enumerate(_CARDINALS.split())}
    | {"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "hundred": "100"}
    | {word: str(value) for value, word in enumerate(_ORDINALS.split(), start=1)}
)
_WORD = re.compile(r"\w+")


def _spelled_numbers(text: str) -> set[str]:
    """Return the numbers a text spells out in words, as digits."""
    # Every word looked up: a third of the time of one pattern of the forty words
    return {
        _NUMBER_WORDS[word] for word in map(str.lower, _WORD.findall(text)) if word in _NUMBER_WORDS
    }


def _quantities(rule: Rule) -> list[str]:
    return sorted(set(QUANTITY.findall(rule.text)))  # "2 or 2" and "two or 2" say the same


def _listed(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "nothing"


def compare_translation(
    translated: Release,
    document: Document,
    base: Release | None,
    base_document: Document | None,
    later: list[tuple[Release, ReleaseDiff]],
    alignment: TranslationAlignment | None = None,
    printed: Release | None = None,
    structure: Structure | None = None,
) -> TranslationReport:
    """Pair a translation's rules with its base English rules and follow them to today.

    `later` holds each English release after the base, oldest first, with its diff from the
    release before it. `alignment` and `structure`: of the two documents, when already worked
    out (neither depends on `later`). `printed`: the English release of the translation's
    printed date, where there is one.
    """
    if base is None or base_document is None:
        rules = tuple(RuleStatus(rule.number, TranslationStatus.EXTRA) for rule in document.rules)
        return TranslationReport(translated, None, rules)  # no English release to be printed
    english: dict[str, Rule] = {}
    for rule in base_document.rules:
        english.setdefault(rule.number, rule)
    if alignment is None:
        alignment = align_translation(document.rules, base_document.rules, document.excerpt)
    if structure is None:
        structure = structure_problems(document, base_document, alignment)
    problems = dict(structure.problems)
    # The translated rule of each base number (the last copy, as a number printed twice
    # pairs): what it cites is read only where an English change is a `reference` one.
    translating = {
        alignment.rules[rule.number]: rule
        for rule in document.rules
        if rule.number in alignment.rules
    }

    def translated_cites(base_number: str) -> list[str] | None:
        rule = translating.get(base_number)
        return _references(rule.text, *rule.examples) if rule is not None else None

    stale_since, now_at = _follow(list(english), later, translated_cites)
    statuses = []
    seen = set()
    for rule in document.rules:
        if rule.number in seen:
            continue  # a number printed twice: the first copy stands for it
        seen.add(rule.number)
        base_number = alignment.rules.get(rule.number)
        if base_number is None:
            statuses.append(RuleStatus(rule.number, TranslationStatus.EXTRA))
            continue
        since = stale_since.get(base_number)
        now = now_at.get(base_number)
        statuses.append(
            RuleStatus(
                rule.number,
                TranslationStatus.STALE if since else TranslationStatus.CURRENT,
                since,
                now if now != rule.number else None,
                problems.get(rule.number, ()),
                base_number,
            )
        )
    for number in english:
        if number in alignment.unpaired_english:
            missing = TranslationStatus.MISSING
            statuses.append(RuleStatus(number, missing, english_base_number=number))
    disagrees = printed if printed != base else None
    return TranslationReport(translated, base, tuple(statuses), alignment.shifts, disagrees)


@dataclass(frozen=True, slots=True)
class Structure:
    """Where a translation's rules differ in structure from the English rules they translate:
    (translated number, problems) for each rule with any (see `check_structure`)."""

    problems: tuple[tuple[str, tuple[str, ...]], ...]


def structure_problems(
    document: Document, base_document: Document, alignment: TranslationAlignment
) -> Structure:
    """Check each paired rule of a translation (the first copy of a number printed twice)
    against the English rule it translates in the base."""
    english: dict[str, Rule] = {}
    for rule in base_document.rules:
        english.setdefault(rule.number, rule)
    found: dict[str, tuple[str, ...]] = {}
    for rule in document.rules:
        base_number = alignment.rules.get(rule.number)
        if rule.number in found or base_number is None:
            continue
        problems = check_structure(rule, english[base_number], alignment.renumber)
        found[rule.number] = problems
    return Structure(tuple((number, found[number]) for number in found if found[number]))


def _follow(
    numbers: list[str],
    later: list[tuple[Release, ReleaseDiff]],
    translated_cites: Callable[[str], list[str] | None] | None = None,
) -> tuple[dict[str, Release], dict[str, str | None]]:
    """Follow base rule numbers through later diffs: first wording change, and number now.

    A `reference` change does not count where the translation already cites what the English
    cites after it (`translated_cites`, by base number): the translation was made from an
    English release later than its base, as zh-Hans 2024-03-08 cites 726.2a where its base
    en 2024-02-02 cites 725.2a.
    """
    now_at: dict[str, str | None] = {number: number for number in numbers}
    stale_since: dict[str, Release] = {}
    # The base numbers at each number now: a diff costs its changes, not the base's rules.
    holding: dict[str, list[str]] = {number: [number] for number in numbers}
    for release, diff in later:
        by_old = {change.old_number: change for change in diff.changes if change.old_number}
        moved = [
            (holding.pop(current), by_old[current]) for current in by_old if current in holding
        ]
        for base_numbers, change in moved:
            for base_number in base_numbers:
                if change.kind in WORDING and not (
                    change.kind == Kind.REFERENCE
                    and translated_cites is not None
                    and translated_cites(base_number)
                    == _references(change.new_text, *change.new_examples)
                    != _references(change.old_text, *change.old_examples)
                ):
                    stale_since.setdefault(base_number, release)
                now_at[base_number] = change.new_number
            if change.new_number:
                holding.setdefault(change.new_number, []).extend(base_numbers)
    return stale_since, now_at
