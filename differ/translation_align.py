"""Align a translated release with its English base by number and by evidence in the text.

A translation can be made from an English release the archive lacks: zh-Hans 2024-03-08
translates the Fallout update, which inserted chapter 725 (rad counters), so its 726-730 are
the English base's 725-729. Pairing by number alone compares different rules there.

The alignment works top down, one small sequence at a time: the chapters of each section
(7xx with 7xx), then the rule groups of each paired chapter (702.19 with its lettered rules),
then the rules of each paired group. Each sequence is aligned by dynamic programming over
evidence that survives translation: the rules cited (a citation of the rule's own chapter
counts relative to it), numbers in the text, English card names, example counts and the
shape of lettered rules. The same number earns a bonus and a different number a penalty, so
a run of items shifts only when its evidence agrees far better shifted.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from rulesarchive.corpus.model import Rule
from rulesarchive.corpus.numbers import RULE_NUMBER, cited_numbers
from rulesarchive.differ.kinds import ShiftLevel

# Scores of a pairing: evidence agreement in [0, 1] plus SAME_NUMBER, or minus OTHER_NUMBER.
# Shifting a run therefore needs SAME_NUMBER + OTHER_NUMBER more agreement per item, and a
# pair under different numbers needs agreement above OTHER_NUMBER to be worth making at all.
SAME_NUMBER = 0.1
OTHER_NUMBER = 0.3
OPEN_SHIFT = 0.6  # paid once by each run of pairs under different numbers
NEUTRAL = 0.5  # agreement of two items that carry no evidence at all
BAND = 3  # how far an item may move beyond the difference in length of its sequence
_UNREACHABLE = float("-inf")
_Key = TypeVar("_Key")  # what a multiset of evidence counts
# A multiset of evidence and its size (counted once: it is compared with many).
_Evidence = tuple[Counter[_Key], int]
_NOTHING: Counter[Any] = Counter()  # the evidence of an item that has none: shared, never changed

# A card's English name kept in parentheses after its translated one, as the Italian wiki
# writes "Essenza del Selvaggio (Essence of the Wild)".
ENGLISH_NAME = re.compile(r"\(([A-Z][A-Za-z'’,-]*(?: [A-Za-z'’,-]+)*)\)")
# 20, 1/1, and 704 in "see rule 704."; not a part of a rule number such as 702.19
QUANTITY = re.compile(r"(?<![\d.])\d+(?:/\d+)?(?!\d|\.\d)")
_CAPITALISED = re.compile(r"[A-Z][A-Za-z'’-]{2,}")
_HAN = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True, slots=True)
class Shift:
    """Translated chapters or rules that translate English ones of other numbers.

    `english` lists the English base numbers in the same order, or is empty when the base
    has no counterpart (a chapter inserted by an English release the archive lacks).
    """

    level: ShiftLevel
    translated: tuple[str, ...]
    english: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TranslationAlignment:
    """Which English base rule each translated rule translates."""

    rules: dict[str, str]  # translated rule number -> English base rule number
    chapters: dict[str, str]  # translated chapter -> English base chapter
    shifts: tuple[Shift, ...] = ()
    unpaired_english: frozenset[str] = field(default_factory=frozenset)

    def renumber(self, number: str) -> str:
        """Return the English number of a rule or chapter the translation cites by its own."""
        if number in self.rules:
            return self.rules[number]
        chapter = self.chapters.get(number[:3])
        return chapter + number[3:] if chapter else number


@dataclass(frozen=True, slots=True)
class _Item:
    """A chapter, a rule group or a rule, with the evidence of all the rules it holds."""

    key: str  # its own part of the number: '725', '19' or 'b'
    cites: _Evidence[str]
    numbers: _Evidence[str]
    examples: _Evidence[tuple[str, int]]
    shape: _Evidence[str]
    names: frozenset[str]


def align_translation(
    translated: Sequence[Rule], english: Sequence[Rule], excerpt: bool = False
) -> TranslationAlignment:
    """Pair each translated rule with the English base rule it translates.

    For an `excerpt` (some chapters only) English chapters it does not quote are not paired.
    """
    mine_by_chapter = _chapters(_read(rule, True) for rule in translated)
    theirs_by_chapter = _chapters(_read(rule, False) for rule in english)
    chapters: dict[str, str] = {}
    for section in sorted({c[0] for c in mine_by_chapter} | {c[0] for c in theirs_by_chapter}):
        mine = [c for c in mine_by_chapter if c[0] == section]
        theirs = [c for c in theirs_by_chapter if c[0] == section]
        pairs = _align(
            [_item(c, "", mine_by_chapter[c], _same) for c in mine],
            [_item(c, "", theirs_by_chapter[c], _same) for c in theirs],
        )
        chapters.update((mine[i], theirs[j]) for i, j in pairs)
    renumber = TranslationAlignment({}, chapters).renumber
    rules: dict[str, str] = {}
    for chapter, base in chapters.items():
        rules.update(_align_chapter(mine_by_chapter[chapter], theirs_by_chapter[base], renumber))
    paired = set(rules.values())
    quoted = set(chapters.values()) if excerpt else set(theirs_by_chapter)
    unpaired = frozenset(
        r.number for c in quoted for r in theirs_by_chapter[c] if r.number not in paired
    )
    shifts = _chapter_shifts(mine_by_chapter, chapters)
    shifts += _rule_shifts(mine_by_chapter, chapters, rules)
    return TranslationAlignment(rules, chapters, shifts, unpaired)


@dataclass(frozen=True, slots=True)
class _Reading:
    """What one rule says that survives translation, read once."""

    number: str
    translated: bool
    cites: tuple[str, ...]
    quantities: tuple[str, ...]
    examples: int
    names: frozenset[str]  # a translation's English name words; all capitalised words of English


@lru_cache(maxsize=2**15)
def _read(rule: Rule, translated: bool) -> _Reading:
    """Read the evidence of one rule (once per process: most English bases, and releases of
    one translation, print most rules alike)."""
    text = " ".join((rule.text, *rule.examples))
    names = _name_words(text) if translated else set(_CAPITALISED.findall(text))
    return _Reading(
        rule.number,
        translated,
        tuple(cited_numbers(text)),
        tuple(sorted(set(QUANTITY.findall(rule.text)))),
        len(rule.examples),
        frozenset(names),
    )


def _same(number: str) -> str:
    return number


def _chapters(readings: Iterable[_Reading]) -> dict[str, list[_Reading]]:
    """Group rules by chapter in document order, keeping the first copy of a repeated number."""
    chapters: dict[str, list[_Reading]] = {}
    seen = set()
    for reading in readings:
        if reading.number not in seen:
            seen.add(reading.number)
            chapters.setdefault(reading.number[:3], []).append(reading)
    return chapters


def _align_chapter(
    translated: list[_Reading], english: list[_Reading], renumber: Callable[[str], str]
) -> dict[str, str]:
    """Pair the rules of two chapters: their groups first, then the rules of each group."""
    mine, theirs = _groups(translated), _groups(english)
    chapter, base = translated[0].number[:3], english[0].number[:3]
    pairs = {}
    groups = _align(
        [_item(group, chapter, rules, renumber) for group, rules in mine],
        [_item(group, base, rules, renumber) for group, rules in theirs],
    )
    for i, j in groups:
        (group, rules), (base_group, base_rules) = mine[i], theirs[j]
        if [r.number for r in rules] == [group] and [r.number for r in base_rules] == [base_group]:
            pairs[group] = base_group  # a group rule with no lettered rules on either side
            continue
        for k, m in _align(
            [_item(rule.number, group, [rule], renumber) for rule in rules],
            [_item(rule.number, base_group, [rule], renumber) for rule in base_rules],
        ):
            pairs[rules[k].number] = base_rules[m].number
    return pairs


def _groups(rules: list[_Reading]) -> list[tuple[str, list[_Reading]]]:
    """Split a chapter's rules into groups: '702.19' with its lettered rules."""
    groups: dict[str, list[_Reading]] = {}
    for rule in rules:
        match = RULE_NUMBER.fullmatch(rule.number)
        group = f"{match.group(1)}.{match.group(2)}" if match and match.group(2) else rule.number
        groups.setdefault(group, []).append(rule)
    return list(groups.items())


def _below(number: str, prefix: str) -> str:
    """Return the part of a number below a prefix: '19b' below '702', 'b' below '702.19'."""
    return number[len(prefix) :].lstrip(".") if number.startswith(prefix) else number


def _item(
    number: str, parent: str, rules: Sequence[_Reading], renumber: Callable[[str], str]
) -> _Item:
    """Gather the evidence of the rules under a number; citations of their chapter made relative.

    A translation's citations are first renumbered into English chapters (`renumber`).
    """
    translated = rules[0].translated
    own = renumber(number[:3]) if translated else number[:3]

    def relative(cited: str) -> str:
        cited = renumber(cited) if translated else cited
        return "~" + cited[3:] if cited[:3] == own else cited

    paths = [_below(rule.number, number) for rule in rules]
    return _Item(
        _below(number, parent) if parent else number,
        _multiset([relative(cited) for rule in rules for cited in rule.cites]),
        _multiset(
            [relative(q) if len(q) == 3 and q.isdigit() else q for r in rules for q in r.quantities]
        ),
        _multiset([(path, r.examples) for path, r in zip(paths, rules, strict=True) if r.examples]),
        _multiset([path for path in paths if path]),
        frozenset().union(*(rule.names for rule in rules)),
    )


def _multiset(found: list[_Key]) -> _Evidence[_Key]:
    return (Counter(found), len(found)) if found else (_NOTHING, 0)


def _name_words(text: str) -> set[str]:
    """Return the words of English card names a translation keeps."""
    words = {w for name in ENGLISH_NAME.findall(text) for w in _CAPITALISED.findall(name)}
    if _HAN.search(text):  # in Chinese any capitalised Latin word is a name: 'Shahrazad'
        words.update(_CAPITALISED.findall(text))
    return words


def _agreement(mine: _Item, theirs: _Item) -> float:
    """Return how well two items' evidence agrees, from 0 to 1."""
    overlaps = (
        _overlap(mine.cites, theirs.cites),
        _overlap(mine.numbers, theirs.numbers),
        _overlap(mine.examples, theirs.examples),
        _overlap(mine.shape, theirs.shape),
    )
    scores = [score for score in overlaps if score is not None]
    if mine.names:
        scores.append(len(mine.names & theirs.names) / len(mine.names))
    return sum(scores) / len(scores) if scores else NEUTRAL


def _overlap(a: _Evidence[_Key], b: _Evidence[_Key]) -> float | None:
    """Return the Jaccard index of two multisets (None for two empty ones: no evidence)."""
    (mine, size), (theirs, other_size) = a, b
    if not size and not other_size:
        return None
    if len(theirs) < len(mine):
        mine, theirs = theirs, mine
    shared = sum(min(count, theirs[key]) for key, count in mine.items() if key in theirs)
    return shared / (size + other_size - shared)


def _align(mine: list[_Item], theirs: list[_Item]) -> list[tuple[int, int]]:
    """Align two sequences in order for the best total score; return the paired indexes.

    State 1 at a cell means its last step paired items of different numbers: a run of such
    pairs pays OPEN_SHIFT once, so a lone rule never moves on one lucky piece of evidence.
    Of equal options, the first wins: the same number, then a gap.
    """
    if _identity_wins(mine, theirs):
        return [(i, i) for i in range(len(mine))]
    n, m = len(mine), len(theirs)
    band = abs(n - m) + BAND
    # best[state][i][j]: the best score of aligning mine[:i] with theirs[:j] ending in
    # `state`; back: the cell and state it came from.
    best = [[[_UNREACHABLE] * (m + 1) for _ in range(n + 1)] for _ in range(2)]
    back: list[list[list[tuple[int, int, int]]]] = [
        [[(0, 0, 0)] * (m + 1) for _ in range(n + 1)] for _ in range(2)
    ]
    best[0][0][0] = 0.0
    kept_rows, shifted_rows = best
    for i in range(n + 1):
        kept_row, shifted_row = kept_rows[i], shifted_rows[i]
        kept_up, shifted_up = kept_rows[i - 1], shifted_rows[i - 1]  # unused in row 0
        for j in range(max(0, i - band), min(m, i + band) + 1):
            value, came = _UNREACHABLE, None
            if i and j:
                score = _agreement(mine[i - 1], theirs[j - 1])
                if mine[i - 1].key == theirs[j - 1].key:
                    value, came = kept_up[j - 1] + score + SAME_NUMBER, (0, i - 1, j - 1)
                    other = shifted_up[j - 1] + score + SAME_NUMBER
                    if other > value:
                        value, came = other, (1, i - 1, j - 1)
                else:
                    score -= OTHER_NUMBER
                    shift, shift_came = shifted_up[j - 1] + score, (1, i - 1, j - 1)
                    other = kept_up[j - 1] + score - OPEN_SHIFT
                    if other > shift:
                        shift, shift_came = other, (0, i - 1, j - 1)
                    shifted_row[j], back[1][i][j] = shift, shift_came
            if i:
                if came is None or kept_up[j] > value:
                    value, came = kept_up[j], (0, i - 1, j)
                if shifted_up[j] > value:
                    value, came = shifted_up[j], (1, i - 1, j)
            if j:
                if came is None or kept_row[j - 1] > value:
                    value, came = kept_row[j - 1], (0, i, j - 1)
                if shifted_row[j - 1] > value:
                    value, came = shifted_row[j - 1], (1, i, j - 1)
            if came is not None:
                kept_row[j], back[0][i][j] = value, came
    state = 0 if best[0][n][m] >= best[1][n][m] else 1
    pairs = []
    i, j = n, m
    while i or j:
        previous, before_i, before_j = back[state][i][j]
        if (before_i, before_j) == (i - 1, j - 1):
            pairs.append((before_i, before_j))
        state, i, j = previous, before_i, before_j
    return pairs[::-1]


def _identity_wins(mine: list[_Item], theirs: list[_Item]) -> bool:
    """Say whether pairing by position must win: same numbers, each pair agreeing enough.

    A pair under another number scores at most 1 - OTHER_NUMBER, which a same-number pair
    agreeing this well already reaches, so no other alignment can score more.
    """
    return len(mine) == len(theirs) and all(
        a.key == b.key and _agreement(a, b) >= 1 - OTHER_NUMBER - SAME_NUMBER
        for a, b in zip(mine, theirs, strict=True)
    )


def _chapter_shifts(
    chapters: dict[str, list[_Reading]], pairs: dict[str, str]
) -> tuple[Shift, ...]:
    """Runs of consecutive chapters paired with another number, or with none."""
    runs: list[Shift] = []
    for chapter in chapters:
        base = pairs.get(chapter)
        if base == chapter:
            continue
        english = (base,) if base else ()
        last = runs[-1] if runs else None
        if (
            last
            and _follows(last.translated[-1], chapter)
            and bool(last.english) == bool(english)
            and (not english or _follows(last.english[-1], english[0]))
        ):
            runs[-1] = Shift(
                ShiftLevel.CHAPTER, (*last.translated, chapter), last.english + english
            )
        else:
            runs.append(Shift(ShiftLevel.CHAPTER, (chapter,), english))
    return tuple(runs)


def _follows(before: str, after: str) -> bool:
    return before.isdigit() and after.isdigit() and int(after) == int(before) + 1


def _rule_shifts(
    chapters: dict[str, list[_Reading]], chapter_pairs: dict[str, str], pairs: dict[str, str]
) -> tuple[Shift, ...]:
    """Runs of rules paired with another number than their chapter's pairing implies."""
    runs: list[list[tuple[str, str]]] = []
    for chapter, rules in chapters.items():
        base = chapter_pairs.get(chapter)
        run: list[tuple[str, str]] = []
        for rule in rules if base else ():
            english = pairs.get(rule.number)
            if english is not None and base is not None and english != base + rule.number[3:]:
                run.append((rule.number, english))
                continue
            if run:
                runs.append(run)
            run = []
        if run:
            runs.append(run)
    return tuple(
        Shift(ShiftLevel.RULE, tuple(t for t, _ in run), tuple(e for _, e in run)) for run in runs
    )
