"""Lines of descent: each rule followed through every release of a language, with a stable id.

A line is one rule's life: the releases it appears in, under whatever numbers it had, each
step taken from the release diffs (the same alignment the changelogs show). Its id is the date
of the release it first appears in and the number it had there (`1999-04-23/217.1d` for
today's 400.6): it never changes when the rule is renumbered, so a permalink built on it never
breaks. `rulesarchive history`, the site's rule pages and the translations all read lines.

The trace of a language (its lines and which line holds each number of its newest release)
can be extended a release at a time (`extend_trace`): the library keeps it, by chapter.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.differ.changes import Change
from rulesarchive.differ.history import History, Version, version_of
from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.words import Diff, diff_words
from rulesarchive.system.lazy import lazy_module

# Tracing (aligning, classifying) is loaded when a trace is extended: reading kept lines
# and telling a history needs none of it.
if TYPE_CHECKING:
    from rulesarchive.differ import align, classify, sections
    from rulesarchive.differ.classify import ReleaseDiff
else:
    align = lazy_module("rulesarchive.differ.align")
    classify = lazy_module("rulesarchive.differ.classify")
    sections = lazy_module("rulesarchive.differ.sections")


@dataclass(frozen=True, slots=True)
class Stretch:
    """Releases first..last (indexes into the language's releases) printing the rule alike.

    `change` is what the release diff said of the rule at `first` (None where the line begins);
    `split_from` and `merged_from` what it said of the rule's origin there (split from 100.2,
    merged from 705.1 and 705.2).
    """

    first: int
    last: int
    rule: Rule
    change: Change | None = None
    split_from: str | None = None
    merged_from: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Line:
    """One rule's line of descent."""

    id: str
    stretches: tuple[Stretch, ...]

    @property
    def numbers(self) -> tuple[str, ...]:
        """Every number the rule had, oldest first; one it came back to is named again.

        205.3b became 204.3b and then 205.3b again: (205.3b, 204.3b, 205.3b).
        """
        numbers: list[str] = []
        for stretch in self.stretches:
            if not numbers or numbers[-1] != stretch.rule.number:
                numbers.append(stretch.rule.number)
        return tuple(numbers)

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

    def number_at(self, index: int) -> str | None:
        """Return the rule's number in release `index`, or None when it was not there."""
        for stretch in self.stretches:
            if stretch.first <= index <= stretch.last:
                return stretch.rule.number
        return None


@dataclass(frozen=True, slots=True)
class Trace:
    """Where following a language's rules stopped: its lines after its first `count` releases.

    `holder` names the line holding each number of the last of them (the first, for a number
    printed twice): what following one more release needs, so a release added at the end
    costs one diff, not the whole history again.
    """

    count: int
    lines: tuple[Line, ...]
    holder: dict[str, str]


EMPTY_TRACE = Trace(0, (), {})


def trace_lines(
    releases: list[Release], steps: Iterable[tuple[Document, ReleaseDiff | None]]
) -> list[Line]:
    """Follow every rule through the releases, oldest first.

    `steps` gives each release's document with its diff from the release before (None for the
    first), in the order of `releases`; each is consumed and dropped, so tracing a language's
    whole history holds only the distinct versions of its rules.
    """
    return list(extend_trace(EMPTY_TRACE, releases, steps).lines)


def extend_trace(
    trace: Trace, releases: list[Release], steps: Iterable[tuple[Document, ReleaseDiff | None]]
) -> Trace:
    """Follow the rules on through the releases after the trace's, as `trace_lines` does.

    `steps` gives the documents of `releases[trace.count:]`, each with its diff from the
    release before. Lines the new releases do not touch are kept as they were (same objects).
    """
    kept = {line.id: line for line in trace.lines}
    growing: dict[str, list[Stretch]] = {}  # line id -> its stretches, the last still growing
    holder = trace.holder  # rule number in the previous release -> line id
    count = trace.count
    for index, (document, diff) in enumerate(steps, start=trace.count):
        changes = _changes_by_new_number(diff)
        split_from, merged_from = _origins(diff)
        now: dict[str, str] = {}
        taken: set[str] = set()
        for rule in sections.units(document):
            change = changes.get(rule.number)
            old_number = rule.number if diff is not None and change is None else None
            if change is not None:
                old_number = change.old_number
            line_id = holder.get(old_number) if old_number else None
            if line_id is None or line_id in taken:  # added, or a number printed twice
                line_id = _new_id(releases[index], rule.number, kept, growing)
                growing[line_id] = []
                change = change if change is not None and change.kind == Kind.ADDED else None
            stretches = growing.get(line_id)
            if stretches is None:
                stretches = growing[line_id] = list(kept[line_id].stretches)
            origin = (split_from.get(rule.number), merged_from.get(rule.number, ()))
            last = stretches[-1] if stretches else None
            if (
                last is not None
                and last.rule == rule
                and last.last == index - 1
                and origin == (None, ())
            ):
                stretches[-1] = Stretch(
                    last.first, index, last.rule, last.change, last.split_from, last.merged_from
                )
            else:
                stretches.append(Stretch(index, index, rule, change, *origin))
            now.setdefault(rule.number, line_id)
            taken.add(line_id)
        holder = now
        count = index + 1
    lines = [
        Line(line_id, tuple(growing[line_id])) if line_id in growing else line
        for line_id, line in kept.items()
    ]
    lines += [
        Line(line_id, tuple(stretches))
        for line_id, stretches in growing.items()
        if line_id not in kept
    ]
    return Trace(count, tuple(lines), holder)


def _new_id(release: Release, number: str, *taken: Mapping[str, object]) -> str:
    line_id = f"{release.effective_date.isoformat()}/{number}"
    copy = 2
    while any(line_id in ids for ids in taken):
        line_id = f"{release.effective_date.isoformat()}/{number}~{copy}"
        copy += 1
    return line_id


def _changes_by_new_number(diff: ReleaseDiff | None) -> dict[str, Change]:
    """Map each rule number of a release to what its diff says of it (unlisted: identical)."""
    if diff is None:
        return {}
    return {change.new_number: change for change in diff.changes if change.new_number is not None}


def _origins(diff: ReleaseDiff | None) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Map the new numbers a diff split off to the rule they came from (not the rule that
    carries on the whole's line), and those merged into to the rules merged."""
    if diff is None:
        return {}, {}
    heirs = {change.new_number for change in diff.changes if change.old_number is not None}
    heirs |= {split.old[0] for split in diff.splits}  # unchanged under its number: unlisted
    split_from = {
        part: split.old[0] for split in diff.splits for part in split.new if part not in heirs
    }
    merged_from = {merge.new[0]: merge.old for merge in diff.merges}
    return split_from, merged_from


def line_versions(
    line: Line, releases: list[Release], diff: Callable[[str, str], Diff] = diff_words
) -> tuple[Version, ...]:
    """Return the line's versions, oldest first, each as its release diff classified it.

    A version after a cut-short copy is compared again with the last complete version, so a
    truncated copy never fakes a change; a cut copy that came first is itself the truncation.
    `diff` works out the examples' word diffs (the site's keeps them across builds).
    """
    versions: list[Version] = []
    complete: int | None = None  # position of the last version that was not cut short
    first_kind = Kind.ADDED if line.first > 0 else Kind.UNCHANGED
    for stretch in line.stretches:
        change = stretch.change
        reference = line.stretches[complete] if complete is not None else None
        if reference is not None and (change is None or versions[-1].kind == Kind.TRUNCATION):
            change = classify.classify_pair(align.Pair(reference.rule, stretch.rule))
        kind = change.kind if change is not None else first_kind
        if (
            complete is not None
            and reference
            and kind == Kind.TRUNCATION
            and _longer(stretch, reference)
        ):
            # the copy taken as complete was itself cut: it is the truncation
            versions[complete] = version_of(
                reference.rule, _span(reference, releases), Kind.TRUNCATION, diff=diff
            )
            change, kind = None, first_kind
        compared = releases[reference.first] if reference is not None and change else None
        span = _span(stretch, releases)
        version = version_of(stretch.rule, span, kind, change, compared, diff)
        if stretch.split_from or stretch.merged_from:
            version = replace(
                version, split_from=stretch.split_from, merged_from=stretch.merged_from
            )
        versions.append(version)
        if kind != Kind.TRUNCATION:
            complete = len(versions) - 1
    return tuple(versions)


def _longer(stretch: Stretch, other: Stretch) -> bool:
    return len(stretch.rule.text) > len(other.rule.text)


def _span(stretch: Stretch, releases: list[Release]) -> tuple[Release, Release, int]:
    return releases[stretch.first], releases[stretch.last], stretch.last - stretch.first + 1


def release_digests(releases: list[Release]) -> list[str]:
    """Return, for each n, a hash of the first n releases' keys and contents ([0]: of none)."""
    digest = hashlib.sha256()
    found = [digest.hexdigest()]
    for release in releases:
        digest.update(f"{release.key}:{release.content_sha256};".encode())
        found.append(digest.hexdigest())
    return found


def line_history(
    lines: Iterable[Line], releases: list[Release], number: str, at: int, latest: bool = False
) -> History:
    """Return the history of the line printing `number` in release `at`, from the lines.

    With `latest`, a number not printed there names the line that held it last.
    """
    line = line_of(lines, number, at, latest)
    if line is None:
        raise LookupError(f"no rule {number} in {releases[at].key}")
    return History(number, line.numbers, line_versions(line, releases))


def line_of(lines: Iterable[Line], number: str, at: int, latest: bool = False) -> Line | None:
    """Return the line printing `number` in release `at` (None if none does).

    With `latest`, a number not printed there names the line that held it last.
    """
    lines = list(lines)
    line = next((line for line in lines if line.number_at(at) == number), None)
    if line is None and latest:
        held = [line for line in lines if number in line.numbers]
        line = max(held, key=lambda line: line.last, default=None)
    return line
