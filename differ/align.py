"""Pair the rules of two releases: same number, moved, renumbered, added, removed."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from rulesarchive.corpus.model import Rule
from rulesarchive.corpus.numbers import rule_sort_key
from rulesarchive.differ.texts import typography_key
from rulesarchive.differ.words import contained, similarity, tokenise, word_bag, words_of

SAME_NUMBER_SIMILARITY = 0.5
MOVED_SIMILARITY = 0.6
KEPT_SHARE = 0.8  # a rule that grew (or shrank) a lot but kept this share of its words
_MIN_KEPT_WORDS = 6
_RARE = 25  # a word in more rules than this does not help find a rule's new place


class Pair(NamedTuple):
    """One rule in two releases; `old` or `new` is None for an added or removed rule."""

    old: Rule | None
    new: Rule | None


def align_rules(old: Sequence[Rule], new: Sequence[Rule]) -> list[Pair]:
    """Pair every rule of `old` with its counterpart in `new`, or with None."""
    matched: dict[int, int] = {}  # old index -> new index
    new_by_number = {rule.number: index for index, rule in enumerate(new)}
    # 1. Same number, same text (most rules of a release: compare the text before any key).
    same_number: list[tuple[int, int]] = []  # same number, other text: paired in steps 1b and 3
    for index, rule in enumerate(old):
        other = new_by_number.get(rule.number)
        if other is None:
            continue
        if rule.text == new[other].text:
            matched[index] = other
        else:
            same_number.append((index, other))
    for index, other in same_number:
        if typography_key(old[index].text) == typography_key(new[other].text):
            matched[index] = other
    # 2. Same text found under one other number only: a move or a renumbering.
    _match_unique_texts(old, new, matched)
    # 3. Same number, text still alike: an edit in place.
    taken = set(matched.values())
    for index, other in same_number:
        if index in matched or other in taken:
            continue
        old_text, new_text = old[index].text, new[other].text
        if similarity(
            old_text, new_text, SAME_NUMBER_SIMILARITY
        ) >= SAME_NUMBER_SIMILARITY or _grown_or_cut(old_text, new_text):
            matched[index] = other
            taken.add(other)
    # 4. Moved and edited: look for a similar rule elsewhere, preferring the same chapter.
    _match_similar(old, new, matched)
    # 5. Identical short texts ('Reserved for future use.') paired in order, within a chapter.
    _match_in_order(old, new, matched)
    return _pairs_in_order(old, new, matched)


def _grown_or_cut(old: str, new: str) -> bool:
    """Tell whether the shorter text's words nearly all live on in the longer one."""
    shorter, longer = sorted((word_bag(old), word_bag(new)), key=Counter.total)
    return shorter.total() >= _MIN_KEPT_WORDS and contained(shorter, longer) >= KEPT_SHARE


def _match_unique_texts(old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]) -> None:
    taken = set(matched.values())
    old_by_key: dict[str, list[int]] = defaultdict(list)
    new_by_key: dict[str, list[int]] = defaultdict(list)
    for index, rule in enumerate(old):
        if index not in matched:
            old_by_key[typography_key(rule.text)].append(index)
    for index, rule in enumerate(new):
        if index not in taken:
            new_by_key[typography_key(rule.text)].append(index)
    for key, olds in old_by_key.items():
        news = new_by_key.get(key, [])
        if len(olds) == 1 and len(news) == 1 and len(key) > 20:
            matched[olds[0]] = news[0]


def _match_similar(old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]) -> None:
    taken = set(matched.values())
    free_new = [index for index in range(len(new)) if index not in taken]
    if not free_new:
        return
    words_new = {index: set(words_of(new[index].text)) for index in free_new}
    frequency: dict[str, int] = defaultdict(int)
    for words in words_new.values():
        for word in words:
            frequency[word] += 1
    index_by_word: dict[str, list[int]] = defaultdict(list)
    for index, words in words_new.items():
        for word in words:
            if frequency[word] <= _RARE:
                index_by_word[word].append(index)
    for index, rule in enumerate(old):
        if index in matched:
            continue
        votes: dict[int, int] = defaultdict(int)
        for word in set(words_of(rule.text)):
            for candidate in index_by_word.get(word, ()):
                if candidate not in taken:
                    votes[candidate] += 1
        best = _most_similar(
            rule, [(c, new[c]) for c in sorted(votes, key=lambda c: (-votes[c], c))[:8]]
        )
        if best is not None:
            matched[index] = best
            taken.add(best)


def _most_similar(rule: Rule, candidates: list[tuple[int, Rule]]) -> int | None:
    """Return the index of the candidate most like `rule` (above MOVED_SIMILARITY), if any.

    Candidates are ranked by their shared words, in any order (cheap); only the best two get
    the exact, order-aware measure.
    """
    bag = Counter(tokenise(rule.text))
    size = bag.total()
    ranked = []
    for index, candidate in candidates:
        other = Counter(tokenise(candidate.text))
        bonus = 0.05 if candidate.number[:3] == rule.number[:3] else 0.0  # same chapter
        shared = 2 * (bag & other).total() / ((size + other.total()) or 1)
        ranked.append((-(shared + bonus), index, candidate, bonus))
    for upper_bound, index, candidate, bonus in sorted(ranked)[:2]:
        if -upper_bound <= MOVED_SIMILARITY:
            break
        floor = MOVED_SIMILARITY - bonus
        if similarity(rule.text, candidate.text, floor) + bonus > MOVED_SIMILARITY:
            return index
    return None


def _match_in_order(old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]) -> None:
    taken = set(matched.values())
    waiting: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, rule in enumerate(new):
        if index not in taken:
            waiting[(rule.number[:3], typography_key(rule.text))].append(index)
    for index, rule in enumerate(old):
        if index in matched:
            continue
        queue = waiting.get((rule.number[:3], typography_key(rule.text)))
        if queue:
            matched[index] = queue.pop(0)


def _pairs_in_order(
    old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]
) -> list[Pair]:
    """Return pairs in the new release's order; a removed rule follows its old predecessor."""
    by_new = {new_index: old_index for old_index, new_index in matched.items()}
    removed_before: dict[int, list[Rule]] = defaultdict(list)  # new index -> removed rules
    for index, rule in enumerate(old):
        if index not in matched:
            at = bisect_right(new, rule_sort_key(rule.number), key=_number_key)
            removed_before[at].append(rule)
    pairs: list[Pair] = []
    for index, rule in enumerate(new):
        if index in removed_before:
            pairs.extend(Pair(gone, None) for gone in removed_before[index])
        pairs.append(Pair(old[by_new[index]] if index in by_new else None, rule))
    pairs.extend(Pair(gone, None) for gone in removed_before.get(len(new), ()))
    return pairs


def _number_key(rule: Rule) -> tuple[int, int, int, str]:
    return rule_sort_key(rule.number)


def renumbering(pairs: Sequence[Pair]) -> list[tuple[str, str]]:
    """Return every (old number, new number) of a rule that kept its line but changed number."""
    return [
        (pair.old.number, pair.new.number)
        for pair in pairs
        if pair.old and pair.new and pair.old.number != pair.new.number
    ]


def compact_ranges(moves: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Fold runs of shifted numbers: 702.140..702.190 -> 702.141..702.191 as one ('a–b', 'c–d')."""
    ranges: list[list[tuple[str, str]]] = []
    for old, new in moves:
        if ranges and _continues(ranges[-1][-1], (old, new)):
            ranges[-1].append((old, new))
        else:
            ranges.append([(old, new)])
    return [
        (run[0][0], run[0][1])
        if len(run) == 1
        else (f"{run[0][0]}–{run[-1][0]}", f"{run[0][1]}–{run[-1][1]}")
        for run in ranges
    ]


_PARTS = re.compile(r"(\d{3})\.(\d+)([a-z]?)")


def _position(number: str) -> tuple[str, int] | None:
    """Return (parent, ordinal): ('903.11', 5) for 903.11e, ('702', 140) for 702.140."""
    match = _PARTS.fullmatch(number)
    if match is None:
        return None
    chapter, rule, letter = match.groups()
    if letter:
        return f"{chapter}.{rule}", ord(letter)
    return chapter, int(rule)


def _continues(previous: tuple[str, str], current: tuple[str, str]) -> bool:
    """Tell whether a move shifts like the one before it: the next rule, the same offset."""
    positions = [_position(number) for number in (*previous, *current)]
    (po, pn, co, cn) = positions
    if po is None or pn is None or co is None or cn is None:
        return False
    same_parents = po[0] == co[0] and pn[0] == cn[0]
    return same_parents and pn[1] - po[1] == cn[1] - co[1] and co[1] - po[1] == 1
