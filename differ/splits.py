"""Find rules that were split in two (or more) and rules that were merged into one.

A part is weighed as the aligner weighs texts (rare words count most), so a part reworded on
the way ('As a Saga with read ahead enters, its controller chooses…' becoming 'Each Saga with
read ahead has the intrinsic abilities…') is still found in the rule it came from.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from rulesarchive.corpus.model import Rule
from rulesarchive.corpus.numbers import parent_of, parse_citations, rule_sort_key
from rulesarchive.differ.align import KEYWORDS, Evidence, Pair
from rulesarchive.differ.texts import words_key
from rulesarchive.differ.words import word_bag

PART_FOUND = 0.5  # weighted share of a part's words found in the whole it came from
ADDS = 0.1  # ... and the share of the whole's words the part adds to its successor's
CLOSE_FOUND = 0.7  # ... for a part of another rule close by (500.5's sentence in 500.4)
# Under the whole's own rule (402.8 into 402.8a-g) less is enough: parts reworded, each adding
# a little of what the whole said.
FAMILY_FOUND, FAMILY_ADDS = 0.4, 0.03
# A part as like the whole as its successor is (610.3a into one rule for spells and abilities
# and one for triggered abilities) is a part even when it adds nothing the successor lacks.
AS_LIKE, LIKE_FLOOR = 0.9, 0.3
# ... or, under the whole's rule, its first sentence found this much: a part a kind
# (204.3h 'Lands have their own unique set of subtypes; ...' and its list of land types)
OPENING_FOUND, _OPENING_WORDS = 0.9, 8
# A removed rule whose siblings mostly went under one new rule, found this much in one of that
# rule's sub-rules, was merged into it if it adds to it as a close part does, or if the rule it
# merged into used to cite the part's rule (414.1, 'To counter a spell...', into 701.5a in 2009:
# 501.3a said the same and ended 'See rule 414').
SIBLINGS_FOUND = 0.5
# An old rule that passed this much (weighted words, a clause) on to a sibling with a line of
# its own, most of what it lost (PASSED_SHARE), a good part of what the sibling gained
# (TAKEN_SHARE), was split into its successor and the sibling's, and merged into the latter.
PASSED_ON, PASSED_SHARE, TAKEN_SHARE = 25.0, 0.6, 0.3
# A whole whose successor is the whole less a sentence or more: its parts hold this much of the
# words the successor lost (by weight), or the cut was a deletion, the parts new rules.
CUT_FOUND = 0.2
_WINDOW = 4  # the parts of a split sit next to each other: look this many pairs either way
_MIN_WORDS = 4  # 'Reserved for future use.' is contained in too much to mean anything
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"])")
_SHORT = 3  # a word this long or shorter is never a plural ('has', 'is', 'its')


@dataclass(frozen=True, slots=True)
class Split:
    """Old rules whose text now lives in the new rules (one old to many, or many to one)."""

    old: tuple[str, ...]
    new: tuple[str, ...]


def find_splits(
    pairs: Sequence[Pair], likeness: Evidence
) -> tuple[list[Pair], list[Split], list[Split]]:
    """Return (pairs, splits, merges) among aligned pairs, looking near each added or removed
    rule.

    A split: an added rule whose words were in a nearby old rule and add to what that rule's
    new version keeps of it. A merge: the same the other way round, for a removed rule. The
    part of a split under the whole's own number carries the whole's line (104.1 split into
    104.1 and 104.1a goes on as 104.1), so the pairs come back with that settled.
    """
    pairs = list(pairs)
    splits = [
        (whole, parts)
        for whole, parts in _gather(pairs, likeness, "new")
        if _hold_the_cut(likeness, pairs[whole], [pairs[part] for part in parts])
    ]
    merges = _gather(pairs, likeness, "old")
    drop: set[int] = set()
    found_splits = [_settle(pairs, whole, parts, "new", drop, likeness) for whole, parts in splits]
    found_merges = [_settle(pairs, whole, parts, "old", drop, likeness) for whole, parts in merges]
    pairs = [pair for index, pair in enumerate(pairs) if index not in drop]
    split_parts = {whole: set(parts) for whole, parts in found_splits}
    merged_parts = {whole: set(parts) for whole, parts in found_merges}
    for moved, kept, into, heir in _passed_on(pairs, likeness):
        split_parts = _with(split_parts, moved, (kept, into))
        merged_parts = _with(merged_parts, into, (heir, moved))
    return (
        pairs,
        [Split((w,), _ordered(parts)) for w, parts in split_parts.items() if len(parts) > 1],
        [Split(_ordered(parts), (w,)) for w, parts in merged_parts.items() if len(parts) > 1],
    )


def _ordered(numbers: set[str]) -> tuple[str, ...]:
    return tuple(sorted(numbers, key=rule_sort_key))


def _with(found: dict[str, set[str]], whole: str, parts: tuple[str, str]) -> dict[str, set[str]]:
    """Add parts to a whole's, a whole not yet found going before the first whose parts come
    after its own (the others keep their order)."""
    if whole in found:
        found[whole].update(parts)
        return found
    key = min(map(rule_sort_key, parts))
    items = list(found.items())
    at = next(
        (i for i, (_, theirs) in enumerate(items) if min(map(rule_sort_key, theirs)) > key),
        len(items),
    )
    items.insert(at, (whole, set(parts)))
    return dict(items)


def _passed_on(pairs: Sequence[Pair], likeness: Evidence) -> list[tuple[str, str, str, str]]:
    """Return (old number, its new number, the sibling's new number, the sibling's old number)
    for each old rule that passed a clause or more on to a sibling that went on under its own
    line: most of what it lost went there, and that is a good part of what the sibling gained.

    2003-07-01 turned 310.1's opening (the players announce how combat damage is assigned)
    into the new 310.1, the old 310.2 (it goes on the stack) rewritten around it, and its
    restrictions went on as 310.2: 310.1 is split into 310.1 and 310.2, and 310.1 and 310.2
    are merged into 310.1. Both rules keep their lines; the report says where the text went.
    """
    weights = likeness.weights

    def mass(bag: Counter[str]) -> float:
        return sum(weights[word] * count for word, count in bag.items())

    both = [pair for pair in pairs if pair.old is not None and pair.new is not None]
    siblings: dict[str | None, list[Pair]] = defaultdict(list)  # by the old rule's parent
    for pair in both:
        assert pair.old is not None
        siblings[parent_of(pair.old.number)].append(pair)
    found = []
    for giver in both:
        assert giver.old is not None and giver.new is not None
        lost = word_bag(giver.old.text) - word_bag(giver.new.text)
        lost_mass = mass(lost)
        if lost_mass < PASSED_ON:
            continue
        for taker in siblings[parent_of(giver.old.number)]:
            assert taker.old is not None and taker.new is not None
            if taker is giver:
                continue
            gained = word_bag(taker.new.text) - word_bag(taker.old.text)
            passed = mass(lost & gained)
            if (
                passed >= PASSED_ON
                and passed >= PASSED_SHARE * lost_mass
                and passed >= TAKEN_SHARE * mass(gained)
            ):
                numbers = giver.old.number, giver.new.number, taker.new.number, taker.old.number
                found.append(numbers)
    return found


def _gather(pairs: list[Pair], likeness: Evidence, side: str) -> list[tuple[int, list[int]]]:
    """For side 'new' (splits): each pair whose old rule gave words to added rules, with the
    indexes of those added rules (for 'old', merges: removed rules and the new rule)."""
    other = "old" if side == "new" else "new"
    found: dict[int, list[int]] = {}
    homes = _homes(pairs, likeness) if side == "old" else {}
    for index, pair in enumerate(pairs):
        part = getattr(pair, side)
        if part is None or getattr(pair, other) is not None:
            continue  # only added rules (for splits) or removed rules (for merges)
        if word_bag(part.text).total() < _MIN_WORDS or not likeness.mass(part.text):
            continue
        best, best_share = None, 0.0
        for near in _near(pairs, index, part, other):
            whole, successor = getattr(pairs[near], other), getattr(pairs[near], side)
            close = abs(near - index) <= _WINDOW
            share = _gives(likeness, part, whole, successor, close)
            if share > best_share:
                best, best_share = near, share
        for near in homes.get(parent_of(part.number) or "", ()) if best is None else ():
            share = _joins(likeness, part, pairs[near])
            if share > best_share:
                best, best_share = near, share
        if best is not None:
            found.setdefault(best, []).append(index)
    return sorted(found.items())


def _homes(pairs: Sequence[Pair], likeness: Evidence) -> dict[str, list[int]]:
    """Map each old rule most of whose sub-rules (more than half, those that went unchanged
    in place included) went under one new rule to the pairs of that rule's sub-rules.

    In 2009 414 ('Countering Spells and Abilities') went into 701.5 ('Counter'): 414.2 is
    701.5b, and 414.1 is merged into 701.5a, which 501.3a already said.
    """
    went: dict[str, Counter[str]] = defaultdict(Counter)
    for pair in pairs:
        if pair.old is not None and pair.new is not None:
            old_parent, new_parent = parent_of(pair.old.number), parent_of(pair.new.number)
            if old_parent is not None and new_parent is not None:
                went[old_parent][new_parent] += 1
    children = Counter(filter(None, map(parent_of, (rule.number for rule in likeness.old_rules))))
    under: dict[str | None, list[int]] = defaultdict(list)  # kept pairs by the new parent
    for at, pair in enumerate(pairs):
        if pair.old is not None and pair.new:
            under[parent_of(pair.new.number)].append(at)
    homes: dict[str, list[int]] = {}
    for parent, places in went.items():
        place, count = places.most_common(1)[0]
        if place != parent and 2 * count > children[parent] - 1:  # less the one removed
            homes[parent] = under[place]
    return homes


def _joins(likeness: Evidence, part: Rule, home: Pair) -> float:
    """Return how much of a removed `part` a rule where its siblings went holds (0 unless it
    adds to it or was cited by its old version: see SIBLINGS_FOUND)."""
    if home.old is None or home.new is None:
        return 0.0
    whole, successor = home.new, home.old
    share = likeness.shared(part.text, whole.text) / likeness.mass(part.text)
    if share < SIBLINGS_FOUND:
        return 0.0
    if parent_of(part.number) in {citation.first for citation in parse_citations(successor.text)}:
        return share  # the rule that said it too sent readers to the part's rule
    kept = likeness.shared(whole.text, successor.text)
    both = likeness.shared(whole.text, f"{successor.text} {part.text}")
    return share if (both - kept) / (likeness.mass(whole.text) or 1.0) >= ADDS else 0.0


def _near(pairs: list[Pair], index: int, part: Rule, other: str) -> list[int]:
    """Pairs close enough to hold a part's whole: a few either way, or of the part's own rule."""
    stem = _stem(part.number)
    near = set(range(max(0, index - _WINDOW), min(len(pairs), index + _WINDOW + 1)))
    for step in (-1, 1):  # 402.8g's whole may be 402.8, seven pairs back
        at = index + step
        while 0 <= at < len(pairs) and _stem(_number(pairs[at])) == stem:
            near.add(at)
            at += step
    near.discard(index)
    return sorted(at for at in near if getattr(pairs[at], other))


def _number(pair: Pair) -> str:
    rule = pair.new or pair.old
    assert rule is not None
    return rule.number


def _stem(number: str) -> str:
    """The rule a number belongs to, itself included: 402.8 for 402.8 and 402.8g."""
    return number.rstrip(_LETTERS)


def _gives(
    likeness: Evidence, part: Rule, whole: Rule, successor: Rule | None, close: bool
) -> float:
    """Return how much of `part` came from `whole` (0 unless it adds to `successor`).

    A part is of the whole's rule or its successor's (204.3f of 205.3d, which became 204.3g;
    613.3d of 613.3c, merged into 613.4c), or `close` to it in the same section (500.5 into
    500.4, 500.5a and 500.5b): a rule of another section that reads alike (715.2a, 720.2a) is
    no part, nor is a rule of another keyword (Hexproof's 702.11g is no part of Protection's
    702.16h: the pairs between them are few only because the rules between did not change).
    """
    sections = {whole.number[:3], successor.number[:3] if successor else ""}
    if _stem(part.number) in {_stem(whole.number), _stem(successor.number if successor else "")}:
        found, adds = FAMILY_FOUND, FAMILY_ADDS
    elif close and part.number[:3] in sections - KEYWORDS:
        found, adds = CLOSE_FOUND, ADDS
    else:
        return 0.0
    part_mass = likeness.mass(part.text)
    share = likeness.shared(part.text, whole.text) / part_mass
    if share < found and found == FAMILY_FOUND:
        opening = _opening_share(likeness, part.text, whole.text)
        share = opening if opening >= OPENING_FOUND else share
    if share < found:
        return 0.0
    if successor is None:
        return share
    whole_mass = likeness.mass(whole.text) or 1.0
    kept = likeness.shared(whole.text, successor.text)
    both = likeness.shared(whole.text, f"{successor.text} {part.text}")
    if (both - kept) / whole_mass >= adds:
        return share
    like = likeness.likeness(whole.text, part.text)
    as_like = like >= LIKE_FLOOR and like >= AS_LIKE * likeness.likeness(whole.text, successor.text)
    return share if as_like else 0.0


def _hold_the_cut(likeness: Evidence, whole: Pair, parts: Sequence[Pair]) -> bool:
    """Tell whether a whole's parts hold what its successor lost, when the successor is the
    whole less some of its sentences (any other successor: yes).

    In 2024 702.11f lost its example sentence ('If an effect causes an object with such an
    ability to lose hexproof from [quality A], ...'), and a new 702.11g ('"Hexproof from each
    [characteristic]" is shorthand for ...') reads like it only in the words 702.11f kept.
    """
    if whole.old is None or whole.new is None:
        return True
    sentences = {words_key(text) for text in _SENTENCE_END.split(whole.old.text)}
    kept = [words_key(text) for text in _SENTENCE_END.split(whole.new.text)]
    if not all(sentence in sentences for sentence in kept):
        return True
    lost = word_bag(whole.old.text)
    successor = word_bag(whole.new.text)
    found = set().union(*(word_bag(pair.new.text) for pair in parts if pair.new))
    weights = likeness.weights
    mass = sum(weights[word] * count for word, count in lost.items() if word not in successor)
    held = sum(
        weights[word] * count
        for word, count in lost.items()
        if word not in successor and word in found
    )
    return not mass or held >= CUT_FOUND * mass


def _opening_share(likeness: Evidence, part: str, whole: str) -> float:
    """Return the weighted share of the words of `part`'s first sentence found in `whole`, a
    plural as its singular.

    A list split into a rule for each kind opens each part with what the whole said of it,
    and goes on with what is new ('Lands have their own unique set of subtypes; ... The land
    types are Desert, Forest, ...' out of 'Artifact, enchantment, land, and planeswalker each
    have their own unique set of possible subtypes').
    """
    opening = word_bag(_SENTENCE_END.split(part, maxsplit=1)[0])
    if opening.total() < _OPENING_WORDS:
        return 0.0
    found = set(map(_singular, word_bag(whole)))
    weights = likeness.weights
    mass = sum(weights[word] * count for word, count in opening.items())
    kept = sum(weights[word] * count for word, count in opening.items() if _singular(word) in found)
    return kept / mass if mass else 0.0


def _singular(word: str) -> str:
    return word[:-1] if len(word) > _SHORT and word.endswith("s") else word


def _settle(
    pairs: list[Pair], near: int, parts: list[int], side: str, drop: set[int], likeness: Evidence
) -> tuple[str, list[str]]:
    """Give a split whole's line to the part under its number when that part comes first
    (the list goes on in place: 714.3a into 714.3a and 714.3b), unless the successor has
    overtaken it; return (whole, parts in order).

    A merge keeps the pairing the aligner chose: the rule under the merged rule's number may
    be the one that gave it the fewest words (701.26b into 701.26b in 2019).

    A whole that had no successor leaves its pair (noted in `drop`) for the part's.
    """
    other = "old" if side == "new" else "new"
    whole: Rule = getattr(pairs[near], other)
    successor: Rule | None = getattr(pairs[near], side)
    numbers = [getattr(pairs[index], side).number for index in parts]
    if successor is not None:
        numbers.append(successor.number)
    first = min(numbers, key=rule_sort_key)
    same = [index for index in parts if getattr(pairs[index], side).number == whole.number]
    if same and first == whole.number and side == "new":
        part = getattr(pairs[same[0]], side)
        if successor is not None and _overtaken(likeness, whole, part, successor):
            return whole.number, sorted(numbers, key=rule_sort_key)
        pairs[same[0]] = _paired(whole, getattr(pairs[same[0]], side), side)
        if successor is None:
            drop.add(near)
        else:
            pairs[near] = _paired(None, successor, side)
    return whole.number, sorted(numbers, key=rule_sort_key)


def _overtaken(likeness: Evidence, whole: Rule, part: Rule, successor: Rule) -> bool:
    """Tell whether a whole's successor next to it in its list, more like it than the part
    under its number, also holds its first sentence better: a new rule was put before it.

    117.7a ('If a cost is reduced by an amount of colored mana...') went on as 117.7b in
    2016, after a new 117.7a. A rule that became the head of its own list (104.1, whose
    text went to 104.1a) goes on in place.
    """
    if parent_of(successor.number) != parent_of(whole.number):
        return False
    text = whole.text
    return likeness.likeness(text, part.text) < likeness.likeness(text, successor.text) and (
        _opening_share(likeness, text, part.text) < _opening_share(likeness, text, successor.text)
    )


def _paired(whole: Rule | None, part: Rule | None, side: str) -> Pair:
    return Pair(whole, part) if side == "new" else Pair(part, whole)
