"""The line index: the rows `history` reads, brought up to date from the lines of descent.

corpus.line_index keeps the file (ARCHIVE/.cache/lines.sqlite) and its schema; this module
fills it from the traced lines and answers a rule's history from it, reading one line's rows.
"""

from __future__ import annotations

import logging
import sqlite3

from rulesarchive.corpus.line_index import (
    IndexState,
    LineIndex,
    LineRow,
    VersionRow,
    existing_index,
    index_path,
    open_index,
)
from rulesarchive.corpus.model import Release
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.cache import code_fingerprint
from rulesarchive.differ.history import History, Version
from rulesarchive.differ.lineage import (
    Line,
    extended_trace,
    language_lines,
    line_versions,
    release_digests,
)
from rulesarchive.differ.words import Phrase

log = logging.getLogger(__name__)


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
    trace = extended_trace(archive, releases, most_new)
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
