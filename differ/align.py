"""Pair the rules of two releases: same number, moved, renumbered, added, removed."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from corpus.model import Rule
from corpus.numbers import rule_sort_key
from differ.words import tokenise

SAME_NUMBER_SIMILARITY = 0.5
MOVED_SIMILARITY = 0.6
_RARE = 25  # a word in more rules than this does not help find a rule's new place

_DASHES = re.compile(r"\s*[-—–]\s*")
_MARKS = re.compile(r"[\"'™®]|\((?:tm|r)\)", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Pair:
    """One rule in two releases; `old` or `new` is None for an added or removed rule."""

    old: Rule | None
    new: Rule | None


def typography_key(text: str) -> str:
    """Flatten quotes, dashes, marks and spacing: equal keys differ only in typography."""
    text = _MARKS.sub("", text)
    text = _DASHES.sub("-", text)
    return _SPACES.sub(" ", text).strip()


def similarity(old: str, new: str) -> float:
    """Return how alike two texts are, 0..1, over word tokens."""
    a, b = tokenise(old), tokenise(new)
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < 0.3 or matcher.quick_ratio() < 0.3:
        return matcher.quick_ratio()
    return matcher.ratio()


def align_rules(old: Sequence[Rule], new: Sequence[Rule]) -> list[Pair]:
    """Pair every rule of `old` with its counterpart in `new`, or with None."""
    matched: dict[int, int] = {}  # old index -> new index
    new_by_number = {rule.number: index for index, rule in enumerate(new)}
    # 1. Same number, same text (most rules of a release: compare the text before any key).
    for index, rule in enumerate(old):
        other = new_by_number.get(rule.number)
        if other is not None and rule.text == new[other].text:
            matched[index] = other
    taken = set(matched.values())
    keys_old = _KeyList(old)
    keys_new = _KeyList(new)
    for index, rule in enumerate(old):
        other = new_by_number.get(rule.number)
        free = index not in matched and other is not None and other not in taken
        if free and keys_old[index] == keys_new[other]:
            matched[index] = other
    # 2. Same text found under one other number only: a move or a renumbering.
    _match_unique_texts(keys_old, keys_new, matched)
    # 3. Same number, text still alike: an edit in place.
    taken = set(matched.values())
    for index, rule in enumerate(old):
        other = new_by_number.get(rule.number)
        if index in matched or other is None or other in taken:
            continue
        if similarity(old[index].text, new[other].text) >= SAME_NUMBER_SIMILARITY:
            matched[index] = other
            taken.add(other)
    # 4. Moved and edited: look for a similar rule elsewhere, preferring the same chapter.
    _match_similar(old, new, matched)
    # 5. Identical short texts ('Reserved for future use.') paired in order, within a chapter.
    _match_in_order(old, new, keys_old, keys_new, matched)
    return _pairs_in_order(old, new, matched)


class _KeyList:
    """Typography keys computed only for the rules left to pair (the costly part of aligning)."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules: Sequence[Rule] = rules
        self.cache: dict[int, str] = {}

    def __getitem__(self, index: int) -> str:
        if index not in self.cache:
            self.cache[index] = typography_key(self.rules[index].text)
        return self.cache[index]

    def __len__(self) -> int:
        return len(self.rules)


def _match_unique_texts(keys_old: _KeyList, keys_new: _KeyList, matched: dict[int, int]) -> None:
    taken = set(matched.values())
    old_by_key: dict[str, list[int]] = defaultdict(list)
    new_by_key: dict[str, list[int]] = defaultdict(list)
    for index in range(len(keys_old)):
        if index not in matched:
            old_by_key[keys_old[index]].append(index)
    for index in range(len(keys_new)):
        if index not in taken:
            new_by_key[keys_new[index]].append(index)
    for key, olds in old_by_key.items():
        news = new_by_key.get(key, [])
        if len(olds) == 1 and len(news) == 1 and len(key) > 20:
            matched[olds[0]] = news[0]


def _match_similar(old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]) -> None:
    taken = set(matched.values())
    free_new = [index for index in range(len(new)) if index not in taken]
    if not free_new:
        return
    words_new = {index: set(_words(new[index].text)) for index in free_new}
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
        for word in set(_words(rule.text)):
            for candidate in index_by_word.get(word, ()):
                if candidate not in taken:
                    votes[candidate] += 1
        best, best_score = None, MOVED_SIMILARITY
        for candidate in sorted(votes, key=lambda c: (-votes[c], c))[:8]:
            score = similarity(rule.text, new[candidate].text)
            if new[candidate].number[:3] == rule.number[:3]:
                score += 0.05  # same chapter: the likelier home among near-equals
            if score > best_score:
                best, best_score = candidate, score
        if best is not None:
            matched[index] = best
            taken.add(best)


def _match_in_order(
    old: Sequence[Rule],
    new: Sequence[Rule],
    keys_old: _KeyList,
    keys_new: _KeyList,
    matched: dict[int, int],
) -> None:
    taken = set(matched.values())
    waiting: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, rule in enumerate(new):
        if index not in taken:
            waiting[(rule.number[:3], keys_new[index])].append(index)
    for index, rule in enumerate(old):
        if index in matched:
            continue
        queue = waiting.get((rule.number[:3], keys_old[index]))
        if queue:
            matched[index] = queue.pop(0)


def _pairs_in_order(
    old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]
) -> list[Pair]:
    """Return pairs in the new release's order; a removed rule follows its old predecessor."""
    by_new = {new_index: old_index for old_index, new_index in matched.items()}
    pairs = [Pair(old[by_new[i]] if i in by_new else None, rule) for i, rule in enumerate(new)]
    removed = [rule for index, rule in enumerate(old) if index not in matched]
    for rule in removed:
        key = rule_sort_key(rule.number)
        at = next(
            (
                i
                for i, pair in enumerate(pairs)
                if pair.new and rule_sort_key(pair.new.number) > key
            ),
            len(pairs),
        )
        pairs.insert(at, Pair(rule, None))
    return pairs


def _words(text: str) -> list[str]:
    return [token.lower() for token in tokenise(text) if token[0].isalnum()]


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
    if None in positions:
        return False
    (po, pn, co, cn) = positions
    same_parents = po[0] == co[0] and pn[0] == cn[0]
    return same_parents and pn[1] - po[1] == cn[1] - co[1] and co[1] - po[1] == 1
