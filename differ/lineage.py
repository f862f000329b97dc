"""Lines of descent: each rule followed through every release of a language, with a stable id.

A line is one rule's life: the releases it appears in, under whatever numbers it had. Its id
is the date of the release it first appears in and the number it had there
(`1999-04-23/217.1d` for today's 400.6): it never changes when the rule is renumbered, so a
permalink built on it never breaks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.history import Sighting, Version, history_of


@dataclass(frozen=True, slots=True)
class Stretch:
    """Releases first..last (indexes into the language's releases) printing the rule alike."""

    first: int
    last: int
    rule: Rule


@dataclass(frozen=True, slots=True)
class Line:
    """One rule's line of descent."""

    id: str
    stretches: tuple[Stretch, ...]

    @property
    def numbers(self) -> tuple[str, ...]:
        """Every number the rule had, oldest first."""
        return tuple(dict.fromkeys(stretch.rule.number for stretch in self.stretches))

    @property
    def first(self) -> int:
        """Index of the release the rule first appears in."""
        return self.stretches[0].first

    @property
    def last(self) -> int:
        """Index of the last release the rule appears in."""
        return self.stretches[-1].last

    @property
    def rule(self) -> Rule:
        """The rule as its last release prints it."""
        return self.stretches[-1].rule


def trace_lines(
    releases: list[Release], steps: Iterable[tuple[Document, ReleaseDiff | None]]
) -> list[Line]:
    """Follow every rule through the releases, oldest first.

    `steps` gives each release's document with its diff from the release before (None for the
    first), in the order of `releases`; each is consumed and dropped, so tracing a language's
    whole history holds only the distinct versions of its rules.
    """
    growing: dict[str, list[list]] = {}  # line id -> [first, last, rule] stretches
    holder: dict[str, str] = {}  # rule number in the previous release -> line id
    for index, (document, diff) in enumerate(steps):
        came_from = _came_from(document, diff)
        now: dict[str, str] = {}
        taken: set[str] = set()
        for rule in document.rules:
            old_number = came_from.get(rule.number)
            line_id = holder.get(old_number) if old_number else None
            if line_id is None or line_id in taken:  # added, or a number printed twice
                line_id = _new_id(releases[index], rule.number, growing)
                growing[line_id] = []
            stretches = growing[line_id]
            if stretches and stretches[-1][2] == rule and stretches[-1][1] == index - 1:
                stretches[-1][1] = index
            else:
                stretches.append([index, index, rule])
            now.setdefault(rule.number, line_id)
            taken.add(line_id)
        holder = now
    return [
        Line(line_id, tuple(Stretch(first, last, rule) for first, last, rule in stretches))
        for line_id, stretches in growing.items()
    ]


def _new_id(release: Release, number: str, taken: dict[str, list[list]]) -> str:
    line_id = f"{release.effective_date.isoformat()}/{number}"
    copy = 2
    while line_id in taken:
        line_id = f"{release.effective_date.isoformat()}/{number}~{copy}"
        copy += 1
    return line_id


def _came_from(document: Document, diff: ReleaseDiff | None) -> dict[str, str | None]:
    """Map each rule number of a release to its number in the release before (None: added)."""
    if diff is None:
        return {}
    came_from: dict[str, str | None] = {rule.number: rule.number for rule in document.rules}
    for change in diff.changes:
        if change.new_number is not None:
            came_from[change.new_number] = change.old_number
    return came_from


def line_versions(line: Line, releases: list[Release]) -> tuple[Version, ...]:
    """Return the line's versions, oldest first, each classified against the last good one."""
    sightings = [
        Sighting(
            releases[stretch.first].effective_date,
            releases[stretch.first].set_code,
            releases[stretch.first].set_name,
            stretch.rule,
        )
        for stretch in line.stretches
    ]
    return history_of(sightings, first_is_addition=line.first > 0)
