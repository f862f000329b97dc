"""How a rule's history is shown: which versions were renumbered, what their examples changed."""

from __future__ import annotations

from collections.abc import Callable

from rulesarchive.differ.changes import align_examples
from rulesarchive.differ.history import Version
from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.words import Diff


def renumbered_positions(versions: tuple[Version, ...]) -> set[int]:
    """Positions (newest first) of the versions whose number differs from the one before."""
    return {
        len(versions) - 1 - position
        for position in range(1, len(versions))
        if versions[position].number != versions[position - 1].number
    }


def example_diffs(
    versions: tuple[Version, ...], diff: Callable[[str, str], Diff]
) -> dict[int, list[Diff]]:
    """Word diffs of each version's examples against the last complete version before it.

    `diff` works a word diff out (the site's keeps them across builds: `LinkCache.word_diff`).
    """
    found: dict[int, list[Diff]] = {}
    reference: Version | None = None
    for position, version in enumerate(versions):
        if reference is not None and version.examples != reference.examples:
            pairs = align_examples(reference.examples, version.examples)
            found[len(versions) - 1 - position] = [diff(old, new) for old, new in pairs]
        if version.kind != Kind.TRUNCATION:
            reference = version
    return found
