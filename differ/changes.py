"""What a rule (or heading) did between two releases: the kinds of change and the Change tuple."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.texts import typography_key
from rulesarchive.differ.words import Diff, Phrase, diff_words


class Change(NamedTuple):
    """What happened to one rule between two releases.

    Immutable like the model's dataclasses, but a tuple: a release diff makes thousands of
    these (1,414 when the 2019-01-25 release flattened its typography), and a frozen
    dataclass takes three times as long to create.
    """

    kind: Kind
    old_number: str | None
    new_number: str | None
    old_text: str
    new_text: str
    phrases: tuple[Phrase, ...] = ()
    diff: Diff = ()
    old_examples: tuple[str, ...] = ()
    new_examples: tuple[str, ...] = ()

    @property
    def example_diffs(self) -> tuple[Diff, ...]:
        """Word diffs of the examples that differ, paired in order (worked out when asked)."""
        return self.example_diffs_by(diff_words)

    def example_diffs_by(self, diff: Callable[[str, str], Diff]) -> tuple[Diff, ...]:
        """`example_diffs`, each worked out by `diff` (`diff_words`, or one that keeps them)."""
        if self.old_examples == self.new_examples:  # most changes: nothing to pair
            return ()
        pairs = align_examples(self.old_examples, self.new_examples)
        return tuple(diff(old, new) for old, new in pairs if old != new)

    @property
    def moved(self) -> bool:
        """Tell whether the rule's number changed."""
        return bool(self.old_number and self.new_number and self.old_number != self.new_number)


def align_examples(old: Sequence[str], new: Sequence[str]) -> list[tuple[str, str]]:
    """Pair a rule's examples across two versions ('' for an added or removed example).

    Examples equal but for typography anchor the pairing; between anchors, examples pair in
    order, so an example inserted first does not make every later one look rewritten.
    """
    matcher = SequenceMatcher(
        None, [typography_key(e) for e in old], [typography_key(e) for e in new], autojunk=False
    )
    pairs: list[tuple[str, str]] = []
    for _, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        olds, news = old[old_start:old_end], new[new_start:new_end]
        for index in range(max(len(olds), len(news))):
            pairs.append(
                (olds[index] if index < len(olds) else "", news[index] if index < len(news) else "")
            )
    return pairs
