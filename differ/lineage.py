"""Lines of descent: each rule followed through every release of a language, with a stable id.

A line is one rule's life: the releases it appears in, under whatever numbers it had, each
step taken from the release diffs (the same alignment the changelogs show). Its id is the date
of the release it first appears in and the number it had there (`1999-04-23/217.1d` for
today's 400.6): it never changes when the rule is renumbered, so a permalink built on it never
breaks. `rulesarchive history`, the site's rule pages and the translations all read lines.

The trace of a language (its lines and which line holds each number of its newest release)
is kept in the cache and extended a release at a time. `history` reads the line index
(corpus.line_index), which this module brings up to date from the trace.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulesarchive.corpus.cache import (
    cache_folder,
    collection_paused,
    entry_path,
    read_entry,
    write_entry,
)
from rulesarchive.corpus.line_index import (
    IndexState,
    LineIndex,
    LineRow,
    VersionRow,
    existing_index,
    index_path,
    open_index,
)
from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.align import Pair
from rulesarchive.differ.cache import (
    cached_diff,
    code_fingerprint,
    diff_folder,
    has_cached_diff,
)
from rulesarchive.differ.changes import Change
from rulesarchive.differ.classify import ReleaseDiff, classify_pair
from rulesarchive.differ.history import History, Version, version_of
from rulesarchive.differ.words import Phrase

log = logging.getLogger(__name__)


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
    growing: dict[str, list[list]] = {}  # line id -> [first, last, rule, change] stretches
    holder = trace.holder  # rule number in the previous release -> line id
    count = trace.count
    for index, (document, diff) in enumerate(steps, start=trace.count):
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
                line_id = _new_id(releases[index], rule.number, kept, growing)
                growing[line_id] = []
                change = change if change is not None and change.kind == "added" else None
            stretches = growing.get(line_id)
            if stretches is None:
                stretches = growing[line_id] = [
                    list(stretch) for stretch in _stretches(kept[line_id])
                ]
            if stretches and stretches[-1][2] == rule and stretches[-1][1] == index - 1:
                stretches[-1][1] = index
            else:
                stretches.append([index, index, rule, change])
            now.setdefault(rule.number, line_id)
            taken.add(line_id)
        holder = now
        count = index + 1
    lines = [
        Line(line_id, tuple(Stretch(*stretch) for stretch in growing[line_id]))
        if line_id in growing
        else line
        for line_id, line in kept.items()
    ]
    lines += [
        Line(line_id, tuple(Stretch(*stretch) for stretch in stretches))
        for line_id, stretches in growing.items()
        if line_id not in kept
    ]
    return Trace(count, tuple(lines), holder)


def _stretches(line: Line) -> Iterator[tuple]:
    for stretch in line.stretches:
        yield stretch.first, stretch.last, stretch.rule, stretch.change


def _new_id(release: Release, number: str, *taken: dict) -> str:
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
    return f"lines:{code_fingerprint()}:{release_digests(releases)[-1]}"


def release_digests(releases: list[Release]) -> list[str]:
    """Return, for each n, a hash of the first n releases' keys and contents ([0]: of none)."""
    digest = hashlib.sha256()
    found = [digest.hexdigest()]
    for release in releases:
        digest.update(f"{release.key}:{release.content_sha256};".encode())
        found.append(digest.hexdigest())
    return found


def language_lines(archive: Archive, language: str, cache: bool = True) -> list[Line]:
    """Return every line of a language, traced from the release diffs (kept in the cache)."""
    return list(language_trace(archive, language, cache).lines)


def language_trace(archive: Archive, language: str, cache: bool = True) -> Trace:
    """Return the trace of a language's lines, extending the one kept for its first releases.

    Releases added at the end cost one diff each; one inserted before the kept ones means
    following every release again.
    """
    releases = archive.releases(language)
    if not cache:
        return extend_trace(EMPTY_TRACE, releases, walk(archive, releases))
    trace = _extended_trace(archive, releases, None)
    assert trace is not None  # no limit given: always traced
    return trace


def _extended_trace(
    archive: Archive, releases: list[Release], most_new: int | None
) -> Trace | None:
    """Extend the kept trace to `releases`; None when more than `most_new` are left to follow."""
    folder = cache_folder(archive.root, "lines")
    keys = [f"trace:{code_fingerprint()}:{digest}" for digest in release_digests(releases)]
    count, trace = _kept_trace(folder, keys)
    if count == len(releases):
        return trace
    if most_new is not None and len(releases) - count > most_new:
        return None
    log.info("lines of descent: following %d releases", len(releases) - count)
    if len(releases) - count > _AHEAD_FROM:
        diff_ahead(archive, releases[max(count - 1, 0) :], diff_folder(archive.root))
    with collection_paused():
        trace = extend_trace(
            trace, releases, walk(archive, releases, diff_folder(archive.root), start=count)
        )
        write_entry(entry_path(folder, keys[-1]), trace)
    if count:  # superseded: the extended trace answers everything it did
        entry_path(folder, keys[count]).unlink(missing_ok=True)
    return trace


# Following more releases than this, their diffs are worked out on every core first.
_AHEAD_FROM = 8


def _kept_trace(folder: Path, keys: list[str]) -> tuple[int, Trace]:
    """Return the kept trace of the most releases (keys[n] names the first n), or none."""
    for count in range(len(keys) - 1, 0, -1):
        path = entry_path(folder, keys[count])
        if path.exists():
            with collection_paused():
                found = read_entry(path)
            if isinstance(found, Trace) and found.count == count:
                return count, found
    return 0, EMPTY_TRACE


# The releases, and where their diffs go, that forked workers of `diff_ahead` read.
_AHEAD: tuple[Archive, list[Release], Path] | None = None


def diff_ahead(archive: Archive, releases: list[Release], folder: Path, chunk: int = 8) -> int:
    """Work out on every core the diffs of consecutive releases that `folder` lacks.

    Each goes into the cache, where `walk` then finds it. Pairs are handed out in runs of
    `chunk` (a worker loads each release of a run once). Return how many were worked out; none
    where processes cannot be forked or there is one core.
    """
    global _AHEAD
    missing = [
        index
        for index in range(1, len(releases))
        if not has_cached_diff(folder, releases[index - 1], releases[index])
    ]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    if len(missing) < 2 or cores < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 0
    runs = [missing[start : start + chunk] for start in range(0, len(missing), chunk)]
    workers = min(cores, len(runs))
    _AHEAD = (archive, releases, folder)
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_quiet) as pool:
            pool.map(_diff_run, runs, chunksize=1)
    finally:
        _AHEAD = None
    for index in missing:  # said here: the workers' own log lines would interleave
        old, new = releases[index - 1], releases[index]
        log.info(
            "diff %s -> %s: not in the cache, computing (%d workers)", old.key, new.key, workers
        )
    return len(missing)


def _quiet() -> None:
    """Keep a forked worker from logging what its parent says for it."""
    logging.disable(logging.INFO)


def _diff_run(indexes: list[int]) -> None:
    """Work out the diffs ending at these release indexes (in a forked worker)."""
    assert _AHEAD is not None
    archive, releases, folder = _AHEAD
    documents: dict[int, Document] = {}
    for index in indexes:
        for needed in (index - 1, index):
            if needed not in documents:
                documents[needed] = archive.load(releases[needed])
        old, new = releases[index - 1], releases[index]
        cached_diff(folder, old, new, documents[index - 1], documents[index])
        documents.pop(index - 1)


def walk(
    archive: Archive, releases: list[Release], diffs: Path | None = None, start: int = 0
) -> Iterator[tuple[Document, ReleaseDiff | None]]:
    """Yield each release's document with its (cached) diff from the one before, oldest first.

    From `start` on: the first diff yielded is from `releases[start - 1]`.
    """
    previous = archive.load(releases[start - 1]) if start > 0 else None
    for index in range(start, len(releases)):
        release = releases[index]
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

    Without a reference, a number no longer in use names the rule that held it last. Read from
    the line index (brought up to date first); from the lines in memory where it cannot be
    written.
    """
    releases = archive.releases(language)
    if not releases:
        raise LookupError(f"no {language} releases in the archive")
    at = releases.index(reference) if reference else len(releases) - 1
    try:
        row = _indexed_line(archive, language, number, at, reference is None)
    except (OSError, sqlite3.Error) as error:
        log.info("line index unusable (%s): following the lines in memory", error)
        lines = language_lines(archive, language)
        return line_history(lines, releases, number, at, reference is None)
    if row is None:
        raise LookupError(f"no rule {number} in {releases[at].key}")
    return History(
        number, row.numbers, tuple(_version(version, releases) for version in row.versions)
    )


def line_history(
    lines: list[Line], releases: list[Release], number: str, at: int, latest: bool = False
) -> History:
    """Return the history of the line printing `number` in release `at`, from the lines.

    With `latest`, a number not printed there names the line that held it last.
    """
    line = next((line for line in lines if line.number_at(at) == number), None)
    if line is None and latest:
        held = [line for line in lines if number in line.numbers]
        line = max(held, key=lambda line: line.last, default=None)
    if line is None:
        raise LookupError(f"no rule {number} in {releases[at].key}")
    return History(number, line.numbers, line_versions(line, releases))


def _indexed_line(
    archive: Archive, language: str, number: str, at: int, latest: bool
) -> LineRow | None:
    """Find the line in the index; an index found damaged is removed and made again, once."""
    for attempt in (1, 2):
        try:
            with open_index(archive.root) as index:
                refresh_language(index, archive, language)
                found = index.line_at(language, number, at)
                if found is None and latest:
                    found = index.last_holder(language, number)
                return found
        except sqlite3.OperationalError:
            raise  # locked or read-only: not damage
        except sqlite3.DatabaseError:
            if attempt == 2:
                raise
            log.warning("line index damaged: making it again")
            index_path(archive.root).unlink(missing_ok=True)
    return None


# How many releases an ingest follows into the line index; more are left to the next reader.
_MOST_AT_INGEST = 3


def update_line_index(archive: Archive) -> None:
    """After an ingest, extend the line index where that is cheap (a few releases at the end).

    No index: nothing to do (the first command that needs it makes it). Otherwise the index
    is left stale, for the next reader to bring up to date.
    """
    try:
        index = existing_index(archive.root)
        if index is None:
            return
        with index:
            for language in index.languages():
                refresh_language(index, archive, language, _MOST_AT_INGEST)
    except (OSError, sqlite3.Error) as error:
        log.warning("line index not updated (%s): the next reader brings it up to date", error)


def refresh_language(
    index: LineIndex, archive: Archive, language: str, most_new: int | None = None
) -> bool:
    """Bring the language's rows up to date with the archive; False when left stale.

    Releases added after the indexed ones are added (each new or changed line rewritten);
    anything else (a release inserted or changed, other differ code) rewrites the language.
    With `most_new`, only the first case, and for at most that many releases.
    """
    releases = archive.releases(language)
    digests = release_digests(releases)
    wanted = IndexState(code_fingerprint(), len(releases), digests[-1])
    state = index.state(language)
    if state == wanted:
        return True
    since = None
    if state and state.code == wanted.code and 0 < state.count <= len(releases):
        since = state.count if digests[state.count] == state.digest else None
    if most_new is not None and (since is None or len(releases) - since > most_new):
        return False
    trace = _extended_trace(archive, releases, most_new)
    if trace is None:
        return False
    positions = {release.effective_date: index for index, release in enumerate(releases)}
    if since is None:
        rows = ((i, line_row(line, releases, positions)) for i, line in enumerate(trace.lines))
        index.replace_language(language, wanted, releases, rows)
        return True
    stored = index.line_lengths(language, since - 1)
    rewritten, lasting = [], []
    for position, line in enumerate(trace.lines):
        if line.last < since:
            continue  # untouched by the new releases
        row_id, count = stored.get(line.id, (None, 0))
        if row_id is not None and count == len(line.stretches):  # its last version lasts on
            lasting.append((row_id, count - 1, line.last))
        else:
            rewritten.append((position, line_row(line, releases, positions)))
    index.extend_language(language, wanted, releases, since, rewritten, lasting)
    return True


def line_row(line: Line, releases: list[Release], positions: dict) -> LineRow:
    """Return a line as the index keeps it (`positions`: each release's date -> position)."""
    versions = line_versions(line, releases)
    return LineRow(
        line.id,
        line.numbers,
        tuple(
            VersionRow(
                stretch.first,
                stretch.last,
                version.number,
                version.text,
                version.examples,
                str(version.kind),
                tuple((phrase.old, phrase.new) for phrase in version.phrases),
                tuple((phrase.old, phrase.new) for phrase in version.example_phrases),
                version.diff,
                positions[version.compared_with] if version.compared_with else None,
            )
            for stretch, version in zip(line.stretches, versions, strict=True)
        ),
    )


def _version(row: VersionRow, releases: list[Release]) -> Version:
    first, last = releases[row.first], releases[row.last]
    return Version(
        first.effective_date,
        first.set_code,
        first.set_name,
        row.number,
        row.text,
        row.examples,
        row.kind,
        tuple(Phrase(old, new) for old, new in row.phrases),
        row.diff,
        releases[row.compared].effective_date if row.compared is not None else None,
        last.effective_date,
        tuple(Phrase(old, new) for old, new in row.example_phrases),
        row.last - row.first + 1,
    )
