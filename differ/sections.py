"""A tournament document (MTR, IPG) as the units the differ aligns like rules, and the
paragraphs of a unit's text aligned and diffed one by one.

A unit is a section's own text ('3.9') or one of its parts ('2.1/philosophy'), each a Rule
whose number is its address and whose text is its paragraphs, one a line; a section's title
is its heading. A Comprehensive Rules document's units are its rules and its headings its
headings: the same aligner, classifier, sweeps and lines of descent serve every kind.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

from rulesarchive.corpus.model import DocKind, Document, Heading, Rule, Section
from rulesarchive.corpus.numbers import PART
from rulesarchive.differ.align import Pair
from rulesarchive.differ.changes import Change
from rulesarchive.differ.headings import pair_titles
from rulesarchive.differ.kinds import ParagraphKind
from rulesarchive.differ.texts import printed_phrases, typography_key
from rulesarchive.differ.words import DELETE, EQUAL, INSERT, Diff, Phrase, diff_words, word_bag

INTRODUCTION = "introduction"  # the address of what a document says before its first section
PARAGRAPH_PAIRED = 0.5  # two paragraphs sharing this share of their words are one, changed
# ... or this share, when every word of the shorter is in the longer ('• Lorwyn™' and
# '• Lorwyn™ (Effective October 20, 2007)', MTR 2007-12-20)
PARAGRAPH_KEPT = 0.25


class ParagraphChange(NamedTuple):
    """One paragraph of a unit that was added, removed or reworded (`phrases`: its edits)."""

    kind: ParagraphKind
    old: str
    new: str
    phrases: tuple[Phrase, ...] = ()


def units(document: Document) -> tuple[Rule, ...]:
    """Return what the differ aligns of a document: its rules, or its introduction and its
    sections' texts and parts (a section with no paragraphs of its own is its heading only)."""
    if document.kind == DocKind.CR:
        return document.rules
    found: list[Rule] = []
    if document.introduction:  # the IPG's Introduction and Framework are policy too
        found.append(Rule(INTRODUCTION, document.introduction))
    for section in document.sections:
        if section.paragraphs:
            found.append(_unit(section.number, section.paragraphs, section.original))
        found += [
            _unit(part_address(section.number, part.name), part.paragraphs, part.original)
            for part in section.parts
            if part.paragraphs
        ]
    return tuple(found)


def _unit(number: str, paragraphs: tuple[str, ...], printed: tuple[str, ...]) -> Rule:
    return Rule(number, "\n".join(paragraphs), original="\n".join(printed))


def headings(document: Document) -> tuple[Heading, ...]:
    """Return a document's headings: a tournament document's section titles."""
    if document.kind == DocKind.CR:
        return document.headings
    return tuple(Heading(section.number, section.title) for section in document.sections)


def part_address(section: str, name: str) -> str:
    """Return a part's address: '2.1/additional-remedy' (Document.section reads it)."""
    return f"{section}{PART}{'-'.join(name.casefold().split())}"


def address(typed: str) -> str:
    """Return the address a person typed ('2.1/Additional Remedy', 'appendix b') as units
    name it ('2.1/additional-remedy', 'B')."""
    number, slash, part = typed.strip().partition(PART)
    number = number.strip().removesuffix(".")
    if number.casefold().startswith("appendix"):
        number = number[len("appendix") :].strip()
    if number.casefold() == INTRODUCTION:
        return INTRODUCTION
    number = number.upper() if number.isalpha() else number
    return part_address(number, part) if slash else number


def section_parts(section: Section) -> tuple[str, ...]:
    """Return the addresses of a section's parts that hold text."""
    return tuple(
        part_address(section.number, part.name) for part in section.parts if part.paragraphs
    )


def section_moves(headings: tuple[Sequence[Heading], Sequence[Heading]]) -> dict[str, str]:
    """Map the number of each section whose title is found on both sides to its new number."""
    old_headings, new_headings = headings
    return {
        old_headings[o].number: new_headings[n].number
        for o, n in pair_titles(old_headings, new_headings).items()
    }


def renumbered_units(
    old: Sequence[Rule], new: Sequence[Rule], moves: dict[str, str]
) -> tuple[list[Rule], list[Rule]]:
    """Return the units under an address whose section moved, on either side: one whose
    section went to another number, or one whose section came from another.

    The same words under the same address are not one unit when the sections moved: at the
    IPG of 2012-10-01, Looking at Extra Cards went from 3.3 to 2.2 and Slow Play from 4.3 to
    3.3, and each penalty ('Warning') goes with its own infraction.
    """
    came = {now: was for was, now in moves.items()}

    def moved(unit: Rule) -> bool:
        section = unit.number.partition(PART)[0]
        return moves.get(section, section) != section or came.get(section, section) != section

    numbers = {unit.number for unit in (*old, *new) if moved(unit)}
    return [u for u in old if u.number in numbers], [u for u in new if u.number in numbers]


def pair_by_section(
    old: Sequence[Rule], new: Sequence[Rule], went: dict[str, str]
) -> tuple[list[Rule], list[Rule], list[Pair]]:
    """Pair the units of sections whose title is found on both sides (same number, or once
    each; `went`, see `section_moves`): a section's text and each part go with it, whatever
    their words. A Penalty ('Warning', printed in many infractions) is the Penalty of its
    infraction. Return the units left to align and the pairs made."""
    new_by_address = {unit.number: unit for unit in new}
    pairs: list[Pair] = []
    taken: set[str] = set()
    for unit in old:
        section, slash, part = unit.number.partition(PART)
        now = went.get(section)
        other = new_by_address.get(f"{now}{slash}{part}") if now is not None else None
        if other is not None and other.number not in taken:
            pairs.append(Pair(unit, other))
            taken.add(other.number)
    paired = {pair.old.number for pair in pairs if pair.old is not None}
    return (
        [unit for unit in old if unit.number not in paired],
        [unit for unit in new if unit.number not in taken],
        pairs,
    )


def in_order(pairs: Sequence[Pair], new: Sequence[Rule]) -> list[Pair]:
    """Return pairs in the new document's order, a removed unit after the pair before it."""
    position = {unit.number: index for index, unit in enumerate(new)}
    placed: list[tuple[float, int, Pair]] = []
    last = -1.0
    for index, pair in enumerate(pairs):
        if pair.new is not None:
            last = position[pair.new.number]
        placed.append((last if pair.new is not None else last + 0.5, index, pair))
    return [pair for _, _, pair in sorted(placed, key=lambda item: item[:2])]


def pair_in_place(pairs: Sequence[Pair], heading_changes: Sequence[Change]) -> list[Pair]:
    """Pair a unit removed and a unit added at the address it went to with its section, as
    one change: an address names a section's text or part whatever its words (IPG
    2008-09-20: 137's Penalty table 'All Levels: Warning' became 'Regular: Caution;
    Competitive: Warning; Professional: Warning'; 2012-10-01: 3.1's Penalty went with Missed
    Trigger to 2.1), unlike a CR rule's number."""
    went = _sections_went(heading_changes)
    added = {
        pair.new.number: index
        for index, pair in enumerate(pairs)
        if pair.old is None and pair.new is not None
    }
    joined: dict[int, int] = {}  # added pair's index -> removed pair's index
    for index, pair in enumerate(pairs):
        if pair.old is None or pair.new is not None:
            continue
        section, slash, part = pair.old.number.partition(PART)
        now = went(section)
        if now is not None and f"{now}{slash}{part}" in added:
            joined.setdefault(added[f"{now}{slash}{part}"], index)
    dropped = set(joined.values())
    return [
        Pair(pairs[joined[index]].old, pair.new) if index in joined else pair
        for index, pair in enumerate(pairs)
        if index not in dropped
    ]


def _sections_went(heading_changes: Sequence[Change]) -> Callable[[str], str | None]:
    """Return where each old section went: its new number, or None when it went nowhere or
    its number now names another section."""
    moves = {c.old_number: c.new_number for c in heading_changes if c.old_number and c.new_number}
    gone = {c.old_number for c in heading_changes if c.new_number is None}
    taken = {c.new_number for c in heading_changes if c.new_number and c.old_number != c.new_number}

    def went(section: str) -> str | None:
        if section in moves:
            return moves[section]
        return None if section in gone or section in taken else section

    return went


def align_paragraphs(old: Sequence[str], new: Sequence[str]) -> list[tuple[str, str]]:
    """Pair the paragraphs of two versions of a unit ('' for one added or removed).

    Paragraphs equal but for typography anchor the pairing; between anchors, a paragraph
    pairs with the next one sharing most of its words (PARAGRAPH_PAIRED), in order, so a
    paragraph inserted before a reworded one is an addition, not a rewrite of both.
    """
    matcher = SequenceMatcher(
        None, [typography_key(p) for p in old], [typography_key(p) for p in new], autojunk=False
    )
    pairs: list[tuple[str, str]] = []
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        olds, news = old[old_start:old_end], new[new_start:new_end]
        if tag == "equal":
            pairs += zip(olds, news, strict=True)
        else:
            pairs += _pair_block(olds, news)
    return pairs


def _pair_block(old: Sequence[str], new: Sequence[str]) -> list[tuple[str, str]]:
    """Pair a run of differing paragraphs in order, each with its likest successor; a
    paragraph printed as several on the other side (a page's layout joining or breaking them)
    pairs with all of them, so its rewrapping is no change."""
    pairs: list[tuple[str, str]] = []
    start = 0  # new paragraphs before this are placed
    index = 0
    while index < len(old):
        scored = [(_likeness(old[index], new[at]), -at) for at in range(start, len(new))]
        best, at = max(scored, default=(0.0, 0))
        if not _paired(best, old[index], new[-at] if scored else ""):
            pairs.append((old[index], ""))
            index += 1
            continue
        old_end, first, last = _grown(old, new, (index, -at, start), best)
        pairs += [("", added) for added in new[start:first]]
        pairs.append(("\n".join(old[index:old_end]), "\n".join(new[first:last])))
        index, start = old_end, last
    pairs += [("", added) for added in new[start:]]
    return pairs


def _grown(
    old: Sequence[str], new: Sequence[str], place: tuple[int, int, int], score: float
) -> tuple[int, int, int]:
    """Return the runs of paragraphs around a pair that read most alike: one paragraph, or
    several printed as one on the other side. `place` is the old paragraph's index, the new
    one's, and the first new paragraph not yet placed; returned: the old run's end, the new
    run's start and end."""
    index, first, start = place
    old_end, last = index + 1, first + 1
    while True:
        runs = []
        if old_end < len(old):
            runs.append((old_end + 1, first, last))
        if last < len(new):
            runs.append((old_end, first, last + 1))
        if first > start:
            runs.append((old_end, first - 1, last))
        scored = [
            (_likeness("\n".join(old[index:o]), "\n".join(new[f:n])), o, f, n) for o, f, n in runs
        ]
        if not scored or max(scored)[0] <= score:
            return old_end, first, last
        score, old_end, first, last = max(scored)


def _paired(likeness: float, one: str, other: str) -> bool:
    """Tell whether two paragraphs this alike are one paragraph, changed."""
    if likeness >= PARAGRAPH_PAIRED:
        return True
    shorter, longer = sorted((word_bag(one), word_bag(other)), key=Counter.total)
    return likeness >= PARAGRAPH_KEPT and not shorter - longer


def _likeness(one: str, other: str) -> float:
    """Return the Dice coefficient of two paragraphs' words."""
    a, b = word_bag(one), word_bag(other)
    total = a.total() + b.total()
    return 2 * (a & b).total() / total if total else 1.0


def diff_paragraphs(old: str, new: str) -> Diff:
    """Return the word diff of two texts, paragraph by paragraph: a paragraph added or
    removed is one insertion or deletion, a reworded one its word diff (a text of one
    paragraph, as every CR rule, is its word diff)."""
    if "\n" not in old and "\n" not in new:
        return diff_words(old, new)
    olds, news = old.split("\n"), new.split("\n")
    ops: list[tuple[int, str]] = []
    seen_old = seen_new = 0  # paragraphs of each side placed so far
    for before, after in align_paragraphs(olds, news):
        # the line break before a paragraph belongs to the side that has it
        breaks = (bool(before) and seen_old > 0, bool(after) and seen_new > 0)
        if breaks == (True, True):
            ops.append((EQUAL, "\n"))
        elif breaks[0]:
            ops.append((DELETE, "\n"))
        elif breaks[1]:
            ops.append((INSERT, "\n"))
        if before and after:
            ops += diff_words(before, after)
        elif before:
            ops.append((DELETE, before))
        elif after:
            ops.append((INSERT, after))
        seen_old += bool(before)
        seen_new += bool(after)
    return _merged(ops)


def _merged(ops: list[tuple[int, str]]) -> Diff:
    """Join neighbouring pieces of one operation; drop empty ones."""
    merged: list[tuple[int, str]] = []
    for op, text in ops:
        if not text:
            continue
        if merged and merged[-1][0] == op:
            merged[-1] = (op, merged[-1][1] + text)
        else:
            merged.append((op, text))
    return tuple(merged)


def texts_of(diff: Diff) -> tuple[str, str]:
    """Return the old and the new text a diff was made of."""
    old = "".join(text for op, text in diff if op != INSERT)
    new = "".join(text for op, text in diff if op != DELETE)
    return old, new


def paragraph_changes(old: str, new: str) -> tuple[ParagraphChange, ...]:
    """Return the paragraphs added, removed and reworded or repunctuated from one text to the
    other, each reworded one with its edits of words and punctuation (IPG 2018-10-05's
    Appendix B adds a full stop to a paragraph, MTR 2007-12-20's 126 a comma beside a reworded
    phrase: a section that changed elsewhere lists them too). A paragraph printed otherwise
    only (quotes, dashes, spacing, its lines) is left out: the unit's kind says so."""
    found: list[ParagraphChange] = []
    olds, news = old.split("\n") if old else [], new.split("\n") if new else []
    for before, after in align_paragraphs(olds, news):
        if not before:
            found.append(ParagraphChange(ParagraphKind.ADDED, "", after))
        elif not after:
            found.append(ParagraphChange(ParagraphKind.REMOVED, before, ""))
        elif typography_key(before) != typography_key(after):
            phrases = printed_phrases(diff_words(before, after))
            found.append(ParagraphChange(ParagraphKind.CHANGED, before, after, phrases))
    return tuple(found)
