"""The lines of descent and their versions as the SQLite export keeps them: `lines`, `versions`.

One row per line (its id, place, first and last release, numbers), and one per version of it
(the releases first..last printing it alike, its text, kind of change and phrases, word diff,
and the release it was compared with), as `rulesarchive history` tells them.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from rulesarchive.corpus.model import Release
from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.lineage import Line, line_versions

LINE_TABLES = """
CREATE TABLE lines (
    id INTEGER PRIMARY KEY,
    language TEXT NOT NULL,
    line_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    first INTEGER NOT NULL REFERENCES releases (id),
    last INTEGER NOT NULL REFERENCES releases (id),
    numbers TEXT NOT NULL,  -- JSON list, oldest first
    UNIQUE (language, line_id)
);
CREATE TABLE line_aliases (
    language TEXT NOT NULL,
    alias TEXT NOT NULL,  -- a retired id, naming `line` now
    line INTEGER NOT NULL REFERENCES lines (id),
    PRIMARY KEY (language, alias)
);
CREATE TABLE versions (
    line INTEGER NOT NULL REFERENCES lines (id),
    position INTEGER NOT NULL,
    first INTEGER NOT NULL REFERENCES releases (id),
    last INTEGER NOT NULL REFERENCES releases (id),
    number TEXT NOT NULL,
    text TEXT NOT NULL,
    examples TEXT NOT NULL,
    kind TEXT NOT NULL,
    phrases TEXT NOT NULL,
    example_phrases TEXT NOT NULL,
    diff TEXT NOT NULL,  -- JSON list of [op, text] pairs: -1 removed, 0 kept, 1 added
    compared INTEGER REFERENCES releases (id),  -- the release it was compared with
    PRIMARY KEY (line, position)
) WITHOUT ROWID;
CREATE INDEX versions_by_number ON versions (number, first);
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
    kind: Kind
    phrases: tuple[tuple[str, str], ...]
    example_phrases: tuple[tuple[str, str], ...]
    diff: tuple[tuple[int, str], ...]
    compared: int | None


@dataclass(frozen=True, slots=True)
class LineRow:
    """One line of descent as the tables keep it: id, numbers (oldest first) and versions."""

    id: str
    numbers: tuple[str, ...]
    versions: tuple[VersionRow, ...]


def line_row(line: Line, releases: list[Release], positions: dict[dt.date, int]) -> LineRow:
    """Return a line as the tables keep it (`positions`: each release's date -> position)."""
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
                version.kind,
                tuple((phrase.old, phrase.new) for phrase in version.phrases),
                tuple((phrase.old, phrase.new) for phrase in version.example_phrases),
                version.diff,
                positions[version.compared_with] if version.compared_with else None,
            )
            for stretch, version in zip(line.stretches, versions, strict=True)
        ),
    )


def write_lines(
    connection: sqlite3.Connection, language: str, lines: Iterable[tuple[int, int, LineRow]]
) -> None:
    """Insert lines (each with its row id and position) and their versions into `lines` and
    `versions`."""
    for row, position, line in lines:
        connection.execute(
            "INSERT INTO lines VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                row,
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
                (row, index, *_version_columns(version))
                for index, version in enumerate(line.versions)
            ),
        )


# A version's columns after the line's row id and its index: first, last, number, text,
# examples, kind, phrases, example phrases, diff (JSON texts but kind), compared.
_VersionColumns = tuple[int, int, str, str, str, str, str, str, str, int | None]


def _version_columns(version: VersionRow) -> _VersionColumns:
    return (
        version.first,
        version.last,
        version.number,
        version.text,
        _json(version.examples),
        str(version.kind),
        _json(version.phrases),
        _json(version.example_phrases),
        _json(version.diff),
        version.compared,
    )


_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _json(value: object) -> str:
    return _encode(value) if value else "[]"
