"""Align the section and chapter headings of two releases ('7 Additional Rules', '309 Dungeons').

A heading keeps its line when its title is found once on each side, or when the rules of its
chapter went to one other chapter (715's rules to 716: 715 became 716, whatever its title
says now), or when its number is left over on both sides. Headings are classified like rules:
`added`, `removed`, `substantive` (renamed), `typography`, or `unchanged` when only the number
moved.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from rulesarchive.corpus.model import Heading
from rulesarchive.corpus.numbers import container
from rulesarchive.differ.changes import Change
from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.texts import title_key, wording_phrases
from rulesarchive.differ.words import diff_words


def diff_headings(
    old: Sequence[Heading],
    new: Sequence[Heading],
    rule_moves: Sequence[tuple[str, str]],
    chapter_rules: ChapterRules | None = None,
) -> list[Change]:
    """Return every heading that was added, removed, renamed, retyped or renumbered.

    With `chapter_rules` (how many rules each old chapter holds, and how many of them stayed
    in it), chapters are paired by their rules before any
    title is looked at alone: 'General' is the title of ten chapters (300 General went to 500
    in 2009), and the 2003 'Spells' (401) became 'Spells on the Stack' while 213 took the
    title.
    """
    matched = _by_rules(old, new, rule_moves, chapter_rules) if chapter_rules else {}
    old_rest = [index for index in range(len(old)) if index not in matched]
    new_rest = sorted(set(range(len(new))) - set(matched.values()))
    rest = _pair_headings(
        [old[index] for index in old_rest],
        [new[index] for index in new_rest],
        chapter_moves(rule_moves),
    )
    matched |= {old_rest[o]: new_rest[n] for o, n in rest.items()}
    by_new = {new_index: old_index for old_index, new_index in matched.items()}
    changes = []
    for index, heading in enumerate(new):
        if index in by_new:
            change = _compare(old[by_new[index]], heading)
            if change is not None:
                changes.append(change)
        else:
            changes.append(Change(Kind.ADDED, None, heading.number, "", heading.title))
    changes += [
        Change(Kind.REMOVED, heading.number, None, heading.title, "")
        for index, heading in enumerate(old)
        if index not in matched
    ]
    return changes


def heading_moves(changes: Sequence[Change]) -> list[tuple[str, str]]:
    """Return (old number, new number) of each heading that kept its line under a new number."""
    return [
        (change.old_number, change.new_number)
        for change in changes
        if change.old_number and change.new_number and change.old_number != change.new_number
    ]


def chapters_by_title(old: Sequence[Heading], new: Sequence[Heading]) -> dict[str, str]:
    """Map each chapter whose title is found once on each side, under another number, to its
    new number ('209' Hand Modifier -> '210'), before any rule is aligned."""
    return {
        old[o].number: new[n].number
        for o, n in pair_titles(old, new).items()
        if len(old[o].number) == len(new[n].number) == 3 and old[o].number != new[n].number
    }


def chapter_moves(rule_moves: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Map a chapter to the one most of its moved rules went to ('715' -> '716'; a section
    to the one its text and parts went to: '2.1' -> '2.2')."""
    votes = _chapter_votes(rule_moves)
    return {chapter: max(targets, key=targets.__getitem__) for chapter, targets in votes.items()}


def _chapter_votes(rule_moves: Sequence[tuple[str, str]]) -> dict[str, Counter[str]]:
    """Count, for each chapter, the rules that moved to each other chapter."""
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for old, new in rule_moves:
        if container(old) != container(new):
            votes[container(old)][container(new)] += 1
    return votes


class ChapterRules(NamedTuple):
    """What the rules of each old chapter did: how many it held, how many stayed in it."""

    held: Mapping[str, int]
    stayed: Mapping[str, int]


def _by_rules(
    old: Sequence[Heading],
    new: Sequence[Heading],
    rule_moves: Sequence[tuple[str, str]],
    rules: ChapterRules,
) -> dict[int, int]:
    """Pair chapters by what their rules did (old index -> new index): a chapter keeps its
    number and title unless most of its rules went elsewhere, and keeps its number where
    most of its rules stayed in it; a chapter of a title many chapters have ('General') goes
    where most of its rules went. The rest are paired by title (`_pair_headings`)."""
    went = _chapter_votes(rule_moves)
    new_at = {heading.number: index for index, heading in enumerate(new)}
    titles = Counter(title_key(heading.title) for heading in (*old, *new))
    matched: dict[int, int] = {}
    taken: set[int] = set()

    def pair(index: int, number: str | None) -> None:
        other = new_at.get(number) if number is not None else None
        if other is not None and other not in taken and index not in matched:
            matched[index] = other
            taken.add(other)

    went_to: dict[int, str | None] = {}
    for index, heading in enumerate(old):
        held = rules.held.get(heading.number, 0)
        most = went.get(heading.number, Counter()).most_common(1)
        went_to[index] = most[0][0] if most and held and most[0][1] * 2 > held else None
    for index, heading in enumerate(old):
        other = new_at.get(heading.number)
        same = other is not None and title_key(new[other].title) == title_key(heading.title)
        if same and went_to[index] is None and len(heading.number) == 3:
            pair(index, heading.number)
    for index, heading in enumerate(old):
        if rules.stayed.get(heading.number, 0) * 2 > rules.held.get(heading.number, 0) > 0:
            pair(index, heading.number)
    for index, heading in enumerate(old):
        if titles[title_key(heading.title)] > 2:
            pair(index, went_to[index])
    return matched


def _pair_headings(
    old: Sequence[Heading], new: Sequence[Heading], chapter_moves: dict[str, str]
) -> dict[int, int]:
    matched = pair_titles(old, new)
    taken = set(matched.values())
    free_new = {heading.number: index for index, heading in enumerate(new) if index not in taken}
    for index, heading in enumerate(old):
        if index in matched:
            continue
        # the chapter its rules went to, or else its own number if that is free on both sides
        target = chapter_moves.get(heading.number, heading.number)
        other = free_new.pop(target, None)
        if other is not None:
            matched[index] = other
    return matched


def pair_titles(old: Sequence[Heading], new: Sequence[Heading]) -> dict[int, int]:
    """Pair headings of the same number and title, then a title found once on each side
    (old index -> new index)."""
    new_by_number = {heading.number: index for index, heading in enumerate(new)}
    matched: dict[int, int] = {}
    for index, heading in enumerate(old):  # same number, same title: nothing to find
        other = new_by_number.get(heading.number)
        if other is not None and title_key(new[other].title) == title_key(heading.title):
            matched[index] = other
    old_by_title: dict[str, list[int]] = defaultdict(list)
    new_by_title: dict[str, list[int]] = defaultdict(list)
    taken = set(matched.values())
    for index, heading in enumerate(old):
        if index not in matched:
            old_by_title[title_key(heading.title)].append(index)
    for index, heading in enumerate(new):
        if index not in taken:
            new_by_title[title_key(heading.title)].append(index)
    for title, olds in old_by_title.items():
        news = new_by_title.get(title, [])
        if len(olds) == 1 and len(news) == 1:
            matched[olds[0]] = news[0]
    return matched


@lru_cache(maxsize=1 << 10)
def _compare(old: Heading, new: Heading) -> Change | None:
    if old.title == new.title or title_key(old.title) == title_key(new.title):
        if old.number == new.number:
            return None if old.title == new.title else _change(Kind.TYPOGRAPHY, old, new)
        return _change(Kind.UNCHANGED, old, new)
    diff = diff_words(old.title, new.title)
    return Change(
        Kind.SUBSTANTIVE, old.number, new.number, old.title, new.title, wording_phrases(diff), diff
    )


def _change(kind: Kind, old: Heading, new: Heading) -> Change:
    return Change(kind, old.number, new.number, old.title, new.title)
