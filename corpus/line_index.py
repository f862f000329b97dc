"""The line index: each language's lines of descent and their versions, in one SQLite file.

Layout: ARCHIVE/.cache/lines.sqlite. Derived data, never a source of truth: the release
folders are. Per language it keeps the releases it was made from (their count and a hash of
their keys and contents, with the code that made it), so a reader can tell cheaply whether it
still answers for the archive; a file that is missing, unreadable or of another format is made
anew. `rulesarchive history` reads one line's rows from it, whatever the number of releases.

The differ works out what goes in (lines, versions); this module only keeps the rows. The same
tables (`lines`, `versions`) are written into `export sqlite`'s file.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulesarchive.corpus.cache import cache_folder
from rulesarchive.corpus.model import Release

FORMAT = "line-index-1"
LINE_TABLES = """
CREATE TABLE lines (
    id INTEGER PRIMARY KEY,
    language TEXT NOT NULL,
    line_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    first INTEGER NOT NULL,
    last INTEGER NOT NULL,
    numbers TEXT NOT NULL,
    UNIQUE (language, line_id)
);
CREATE TABLE versions (
    line INTEGER NOT NULL REFERENCES lines (id),
    position INTEGER NOT NULL,
    first INTEGER NOT NULL,
    last INTEGER NOT NULL,
    number TEXT NOT NULL,
    text TEXT NOT NULL,
    examples TEXT NOT NULL,
    kind TEXT NOT NULL,
    phrases TEXT NOT NULL,
    example_phrases TEXT NOT NULL,
    diff TEXT NOT NULL,
    compared INTEGER,
    PRIMARY KEY (line, position)
) WITHOUT ROWID;
CREATE INDEX versions_by_number ON versions (number, first);
"""
_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE languages (
    language TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    count INTEGER NOT NULL,
    digest TEXT NOT NULL
);
CREATE TABLE line_releases (
    language TEXT NOT NULL,
    position INTEGER NOT NULL,
    effective_date TEXT NOT NULL,
    set_code TEXT NOT NULL,
    set_name TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    PRIMARY KEY (language, position)
) WITHOUT ROWID;
{LINE_TABLES}
"""


@dataclass(frozen=True, slots=True)
class VersionRow:
    """One version of a line: releases first..last (positions in the language) printed it.

    `compared` is the position of the release it was compared with (None: not compared).
    """

    first: int
    last: int
    number: str
    text: str
    examples: tuple[str, ...]
    kind: str
    phrases: tuple[tuple[str, str], ...]
    example_phrases: tuple[tuple[str, str], ...]
    diff: tuple[tuple[int, str], ...]
    compared: int | None


@dataclass(frozen=True, slots=True)
class LineRow:
    """One line of descent as the index keeps it: id, numbers (oldest first) and versions."""

    id: str
    numbers: tuple[str, ...]
    versions: tuple[VersionRow, ...]


@dataclass(frozen=True, slots=True)
class IndexState:
    """What a language's part of the index was made from: code, release count and their hash."""

    code: str
    count: int
    digest: str


def index_path(archive_root: Path) -> Path:
    """Return where an archive keeps its line index."""
    return cache_folder(archive_root, "lines.sqlite")


class LineIndex:
    """An open line index (use as a context manager: it closes the file)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    def __enter__(self) -> LineIndex:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._db.close()

    def state(self, language: str) -> IndexState | None:
        """Return what the language's rows were made from (None: the index lacks it)."""
        row = self._db.execute(
            "SELECT code, count, digest FROM languages WHERE language = ?", (language,)
        ).fetchone()
        return IndexState(*row) if row else None

    def languages(self) -> list[str]:
        """Return the languages the index holds."""
        return [row[0] for row in self._db.execute("SELECT language FROM languages ORDER BY 1")]

    def line_at(self, language: str, number: str, position: int) -> LineRow | None:
        """Return the line that printed `number` in the release at `position` (first made)."""
        row = self._db.execute(
            "SELECT lines.id FROM versions JOIN lines ON lines.id = versions.line"
            " WHERE versions.number = ? AND versions.first <= ? AND versions.last >= ?"
            " AND lines.language = ? ORDER BY lines.position LIMIT 1",
            (number, position, position, language),
        ).fetchone()
        return self._line(row[0]) if row else None

    def last_holder(self, language: str, number: str) -> LineRow | None:
        """Return the line that had `number` at some time and lasted longest (first made)."""
        row = self._db.execute(
            "SELECT lines.id FROM versions JOIN lines ON lines.id = versions.line"
            " WHERE versions.number = ? AND lines.language = ?"
            " ORDER BY lines.last DESC, lines.position LIMIT 1",
            (number, language),
        ).fetchone()
        return self._line(row[0]) if row else None

    def line_lengths(self, language: str, since: int) -> dict[str, tuple[int, int]]:
        """Return, for each line still printed at position `since`, its row id and versions."""
        return {
            line_id: (row_id, count)
            for line_id, row_id, count in self._db.execute(
                "SELECT line_id, id, (SELECT count(*) FROM versions WHERE line = lines.id)"
                " FROM lines WHERE language = ? AND last >= ?",
                (language, since),
            )
        }

    def _line(self, row_id: int) -> LineRow:
        line_id, numbers = self._db.execute(
            "SELECT line_id, numbers FROM lines WHERE id = ?", (row_id,)
        ).fetchone()
        versions = self._db.execute(
            "SELECT first, last, number, text, examples, kind, phrases, example_phrases, diff,"
            " compared FROM versions WHERE line = ? ORDER BY position",
            (row_id,),
        )
        return LineRow(line_id, tuple(json.loads(numbers)), tuple(map(_version, versions)))

    def replace_language(
        self,
        language: str,
        state: IndexState,
        releases: list[Release],
        lines: Iterable[tuple[int, LineRow]],
    ) -> None:
        """Put the language's rows in place of what the index held for it (all or nothing).

        `lines` come with their positions (the order the lines began in).
        """
        with self._db:
            self._forget(language)
            self._db.executemany(
                "INSERT INTO line_releases VALUES (?, ?, ?, ?, ?, ?)",
                _release_rows(language, releases, 0),
            )
            write_lines(self._db, language, lines)
            self._set_state(language, state)

    def extend_language(
        self,
        language: str,
        state: IndexState,
        releases: list[Release],
        since: int,
        lines: Iterable[tuple[int, LineRow]],
        lasting: Iterable[tuple[int, int, int]],
    ) -> None:
        """Add the releases from position `since` on (all or nothing).

        `lines` are rewritten whole (new, or given new versions); `lasting` gives (row id,
        position of its last version, last release) for lines whose last version lasts longer.
        """
        with self._db:
            self._db.executemany(
                "INSERT INTO line_releases VALUES (?, ?, ?, ?, ?, ?)",
                _release_rows(language, releases[since:], since),
            )
            self._db.executemany(
                "UPDATE versions SET last = ? WHERE line = ? AND position = ?",
                ((last, row_id, position) for row_id, position, last in lasting),
            )
            self._db.executemany(
                "UPDATE lines SET last = ? WHERE id = ?",
                ((last, row_id) for row_id, _position, last in lasting),
            )
            rewritten = list(lines)
            ids = [(language, line.id) for _position, line in rewritten]
            self._db.executemany(
                "DELETE FROM versions WHERE line ="
                " (SELECT id FROM lines WHERE language = ? AND line_id = ?)",
                ids,
            )
            self._db.executemany("DELETE FROM lines WHERE language = ? AND line_id = ?", ids)
            write_lines(self._db, language, rewritten)
            self._set_state(language, state)

    def _forget(self, language: str) -> None:
        self._db.execute(
            "DELETE FROM versions WHERE line IN (SELECT id FROM lines WHERE language = ?)",
            (language,),
        )
        for table in ("lines", "line_releases", "languages"):
            self._db.execute(f"DELETE FROM {table} WHERE language = ?", (language,))

    def _set_state(self, language: str, state: IndexState) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO languages VALUES (?, ?, ?, ?)",
            (language, state.code, state.count, state.digest),
        )


def open_index(archive_root: Path) -> LineIndex:
    """Open the archive's line index, made anew when missing, unreadable or of another format."""
    found = existing_index(archive_root)
    if found is not None:
        return found
    path = index_path(archive_root)
    _make(path)
    return LineIndex(sqlite3.connect(path, timeout=30))


def existing_index(archive_root: Path) -> LineIndex | None:
    """Open the archive's line index; None when there is none readable of this format."""
    path = index_path(archive_root)
    if not path.exists():
        return None
    connection = sqlite3.connect(path, timeout=30)
    try:
        found = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if found == (FORMAT,):
            return LineIndex(connection)
    except sqlite3.DatabaseError:
        pass
    connection.close()
    return None


def _make(path: Path) -> None:
    """Write an empty index beside `path` and rename it into place (never a half-made one)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.incoming")
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary.unlink(missing_ok=True)
    try:
        connection = sqlite3.connect(temporary)
        try:
            connection.executescript(_SCHEMA)
            connection.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
            connection.commit()
        finally:
            connection.close()
        temporary.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise


def write_lines(
    connection: sqlite3.Connection, language: str, lines: Iterable[tuple[int, LineRow]]
) -> None:
    """Insert lines (each with its position) and their versions into `lines` and `versions`."""
    for position, line in lines:
        cursor = connection.execute(
            "INSERT INTO lines VALUES (NULL, ?, ?, ?, ?, ?, ?)",
            (
                language,
                line.id,
                position,
                line.versions[0].first,
                line.versions[-1].last,
                _json(line.numbers),
            ),
        )
        connection.executemany(
            "INSERT INTO versions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (cursor.lastrowid, index, *_version_columns(version))
                for index, version in enumerate(line.versions)
            ),
        )


def _version_columns(version: VersionRow) -> tuple:
    return (
        version.first,
        version.last,
        version.number,
        version.text,
        _json(version.examples),
        version.kind,
        _json(version.phrases),
        _json(version.example_phrases),
        _json(version.diff),
        version.compared,
    )


def _version(row: tuple) -> VersionRow:
    first, last, number, text, examples, kind, phrases, example_phrases, diff, compared = row
    return VersionRow(
        first,
        last,
        number,
        text,
        tuple(json.loads(examples)),
        kind,
        _pairs(phrases),
        _pairs(example_phrases),
        _pairs(diff),
        compared,
    )


def _pairs(text: str) -> tuple:
    return tuple(map(tuple, json.loads(text))) if text != "[]" else ()


def _release_rows(language: str, releases: list[Release], start: int) -> Iterator[tuple]:
    for offset, release in enumerate(releases):
        yield (
            language,
            start + offset,
            release.effective_date.isoformat(),
            release.set_code,
            release.set_name,
            release.content_sha256,
        )


_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _json(value: object) -> str:
    return _encode(value) if value else "[]"
