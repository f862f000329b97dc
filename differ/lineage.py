"""Lines of descent: each rule followed through every release of a language, with a stable id.

A line is one rule's life: the releases it appears in, under whatever numbers it had, each
step taken from the release diffs (the same alignment the changelogs show). Its id is the date
of the release it first appears in and the number it had there (`1999-04-23/217.1d` for
today's 400.6): it never changes when the rule is renumbered, so a permalink built on it never
breaks. `rulesarchive history`, the site's rule pages and the translations all read lines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulesarchive.corpus.cache import cache_folder, cached
from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.align import Pair
from rulesarchive.differ.cache import cached_diff, code_fingerprint, diff_folder
from rulesarchive.differ.changes import Change
from rulesarchive.differ.classify import ReleaseDiff, classify_pair
from rulesarchive.differ.history import History, Version, version_of


@dataclass(frozen=True, slots=True)
class Stretch:
    """Releases first..last (indexes into the language's releases) printing the rule alike.

    `change` is what the release diff said of the rule at `first` (None where the line begins).
    """

    first: int
    last: int
    rule: Rule
    change: Change | None = None


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


def trace_lines(
    releases: list[Release], steps: Iterable[tuple[Document, ReleaseDiff | None]]
) -> list[Line]:
    """Follow every rule through the releases, oldest first.

    `steps` gives each release's document with its diff from the release before (None for the
    first), in the order of `releases`; each is consumed and dropped, so tracing a language's
    whole history holds only the distinct versions of its rules.
    """
    growing: dict[str, list[list]] = {}  # line id -> [first, last, rule, change] stretches
    holder: dict[str, str] = {}  # rule number in the previous release -> line id
    for index, (document, diff) in enumerate(steps):
        changes = _changes_by_new_number(diff)
        now: dict[str, str] = {}
        taken: set[str] = set()
        for rule in document.rules:
            change = changes.get(rule.number)
            old_number = rule.number if diff is not None and change is None else None
            if change is not None:
                old_number = change.old_number
            line_id = holder.get(old_number) if old_number else None
            if line_id is None or line_id in taken:  # added, or a number printed twice
                line_id = _new_id(releases[index], rule.number, growing)
                growing[line_id] = []
                change = change if change is not None and change.kind == "added" else None
            stretches = growing[line_id]
            if stretches and stretches[-1][2] == rule and stretches[-1][1] == index - 1:
                stretches[-1][1] = index
            else:
                stretches.append([index, index, rule, change])
            now.setdefault(rule.number, line_id)
            taken.add(line_id)
        holder = now
    return [
        Line(line_id, tuple(Stretch(*stretch) for stretch in stretches))
        for line_id, stretches in growing.items()
    ]


def _new_id(release: Release, number: str, taken: dict[str, list[list]]) -> str:
    line_id = f"{release.effective_date.isoformat()}/{number}"
    copy = 2
    while line_id in taken:
        line_id = f"{release.effective_date.isoformat()}/{number}~{copy}"
        copy += 1
    return line_id


def _changes_by_new_number(diff: ReleaseDiff | None) -> dict[str, Change]:
    """Map each rule number of a release to what its diff says of it (unlisted: identical)."""
    if diff is None:
        return {}
    return {change.new_number: change for change in diff.changes if change.new_number is not None}


def line_versions(line: Line, releases: list[Release]) -> tuple[Version, ...]:
    """Return the line's versions, oldest first, each as its release diff classified it.

    A version after a cut-short copy is compared again with the last complete version, so a
    truncated copy never fakes a change; a cut copy that came first is itself the truncation.
    """
    versions: list[Version] = []
    complete: int | None = None  # position of the last version that was not cut short
    first_kind = "added" if line.first > 0 else "unchanged"
    for stretch in line.stretches:
        change = stretch.change
        reference = line.stretches[complete] if complete is not None else None
        if reference is not None and (change is None or versions[-1].kind == "truncation"):
            change = classify_pair(Pair(reference.rule, stretch.rule))
        kind = change.kind if change is not None else first_kind
        if (
            complete is not None
            and reference
            and kind == "truncation"
            and _longer(stretch, reference)
        ):
            # the copy taken as complete was itself cut: it is the truncation
            versions[complete] = version_of(
                reference.rule, _span(reference, releases), "truncation"
            )
            change, kind = None, first_kind
        compared = releases[reference.first] if reference is not None and change else None
        versions.append(version_of(stretch.rule, _span(stretch, releases), kind, change, compared))
        if kind != "truncation":
            complete = len(versions) - 1
    return tuple(versions)


def _longer(stretch: Stretch, other: Stretch) -> bool:
    return len(stretch.rule.text) > len(other.rule.text)


def _span(stretch: Stretch, releases: list[Release]) -> tuple[Release, Release, int]:
    return releases[stretch.first], releases[stretch.last], stretch.last - stretch.first + 1


def lines_key(releases: list[Release]) -> str:
    """Name a language's lines by the code that traced them and every release's content."""
    digest = hashlib.sha256()
    for release in releases:
        digest.update(f"{release.key}:{release.content_sha256};".encode())
    return f"lines:{code_fingerprint()}:{digest.hexdigest()}"


def language_lines(archive: Archive, language: str, cache: bool = True) -> list[Line]:
    """Return every line of a language, traced from the release diffs (kept in the cache)."""
    releases = archive.releases(language)
    folder = cache_folder(archive.root, "lines") if cache else None
    diffs = diff_folder(archive.root) if cache else None
    return cached(
        folder,
        lines_key(releases),
        lambda: trace_lines(releases, walk(archive, releases, diffs)),
        f"lines of descent {language}",
    )


def walk(
    archive: Archive, releases: list[Release], diffs: Path | None = None
) -> Iterator[tuple[Document, ReleaseDiff | None]]:
    """Yield each release's document with its (cached) diff from the one before, oldest first."""
    previous: Document | None = None
    for index, release in enumerate(releases):
        document = archive.load(release)
        diff = None
        if previous is not None:
            diff = cached_diff(diffs, releases[index - 1], release, previous, document)
        yield document, diff
        previous = document


def rule_history(
    archive: Archive, number: str, language: str = "en", reference: Release | None = None
) -> History:
    """Every version of the rule numbered `number` in `reference` (default: the newest release).

    Without a reference, a number no longer in use names the rule that held it last.
    """
    releases = archive.releases(language)
    if not releases:
        raise LookupError(f"no {language} releases in the archive")
    at = releases.index(reference) if reference else len(releases) - 1
    lines = language_lines(archive, language)
    line = next((line for line in lines if line.number_at(at) == number), None)
    if line is None and reference is None:
        held = [line for line in lines if number in line.numbers]
        line = max(held, key=lambda line: line.last, default=None)
    if line is None:
        raise LookupError(f"no rule {number} in {releases[at].key}")
    return History(number, line.numbers, line_versions(line, releases))
