"""Find rules that were split in two (or more) and rules that were merged into one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulesarchive.differ.align import Pair
from rulesarchive.differ.words import contained, word_bag

CONTAINED = 0.8  # share of a part's words found in the whole
STILL_THERE = 0.5  # a part this present in the other side's rule was not moved out of it
_WINDOW = 4  # the parts of a split sit next to each other: look this many pairs either way
_MIN_WORDS = 4  # 'Reserved for future use.' is contained in too much to mean anything


@dataclass(frozen=True, slots=True)
class Split:
    """Old rules whose text now lives in the new rules (one old to many, or many to one)."""

    old: tuple[str, ...]
    new: tuple[str, ...]


def find_splits(pairs: Sequence[Pair]) -> tuple[list[Split], list[Split]]:
    """Return (splits, merges) among aligned pairs, looking near each added or removed rule.

    A split: an added rule whose words were in a nearby old rule and are gone from that old
    rule's new version. A merge: the same the other way round, for a removed rule.
    """
    splits = _gather(pairs, "new")
    merges = _gather(pairs, "old")
    return (
        [Split((whole,), tuple(parts)) for whole, parts in splits if len(parts) > 1],
        [Split(tuple(parts), (whole,)) for whole, parts in merges if len(parts) > 1],
    )


def _gather(pairs: Sequence[Pair], side: str) -> list[tuple[str, list[str]]]:
    """For side 'new' (splits): each old rule with the added parts taken from it."""
    other = "old" if side == "new" else "new"
    found: dict[int, list[str]] = {}
    for index, pair in enumerate(pairs):
        part = getattr(pair, side)
        if part is None or getattr(pair, other) is not None:
            continue  # only added rules (for splits) or removed rules (for merges)
        words = word_bag(part.text)
        if words.total() < _MIN_WORDS:
            continue
        best, best_share = None, CONTAINED
        for near in range(max(0, index - _WINDOW), min(len(pairs), index + _WINDOW + 1)):
            whole, successor = getattr(pairs[near], other), getattr(pairs[near], side)
            if whole is None or near == index or len(whole.text) < len(part.text) * CONTAINED:
                continue  # too short to hold the part
            share = contained(words, word_bag(whole.text))
            if share >= best_share and (
                successor is None or contained(words, word_bag(successor.text)) < STILL_THERE
            ):
                best, best_share = near, share
        if best is not None:
            found.setdefault(best, []).append(part.number)
    result = []
    for near, parts in sorted(found.items()):
        whole, successor = getattr(pairs[near], other), getattr(pairs[near], side)
        kept = [successor.number] if successor is not None else []
        result.append((whole.number, sorted({*kept, *parts}, key=_order(pairs, side))))
    return result


def _order(pairs: Sequence[Pair], side: str) -> Callable[[str], int]:
    position = {getattr(p, side).number: i for i, p in enumerate(pairs) if getattr(p, side)}
    return position.__getitem__
