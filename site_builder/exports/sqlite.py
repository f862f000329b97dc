"""`export sqlite`: every release, rule, heading, glossary entry and change in one SQLite file."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

from rulesarchive.corpus.model import Rule
from rulesarchive.corpus.present import release_summary
from rulesarchive.differ.report import diff_data
from rulesarchive.differ.translations import base_release, compare_translation
from rulesarchive.site_builder.exports import ExportError
from rulesarchive.site_builder.exports.collect import Collected, ReleaseText
from rulesarchive.site_builder.exports.place import staged

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE releases (
    id INTEGER PRIMARY KEY,
    language TEXT NOT NULL,
    effective_date TEXT NOT NULL,
    set_code TEXT NOT NULL,
    set_name TEXT NOT NULL,
    rule_count INTEGER NOT NULL,
    glossary_count INTEGER NOT NULL,
    flags TEXT NOT NULL,
    source TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    encoding TEXT NOT NULL,
    UNIQUE (language, effective_date)
);
CREATE TABLE rules (
    id INTEGER PRIMARY KEY,
    release_id INTEGER NOT NULL REFERENCES releases (id),
    position INTEGER NOT NULL,
    number TEXT NOT NULL,
    line_id TEXT NOT NULL,
    text TEXT NOT NULL,
    examples TEXT NOT NULL,
    normalised_text TEXT,
    normalised_examples TEXT
);
CREATE TABLE headings (
    release_id INTEGER NOT NULL REFERENCES releases (id),
    number TEXT NOT NULL,
    title TEXT NOT NULL
);
CREATE TABLE glossary (
    release_id INTEGER NOT NULL REFERENCES releases (id),
    position INTEGER NOT NULL,
    term TEXT NOT NULL,
    text TEXT NOT NULL,
    normalised_text TEXT NOT NULL
);
CREATE TABLE changes (
    id INTEGER PRIMARY KEY,
    old_release_id INTEGER NOT NULL REFERENCES releases (id),
    new_release_id INTEGER NOT NULL REFERENCES releases (id),
    kind TEXT NOT NULL,
    old_number TEXT,
    new_number TEXT,
    line_id TEXT,
    moved INTEGER NOT NULL,
    old_text TEXT NOT NULL,
    new_text TEXT NOT NULL,
    phrases TEXT NOT NULL,
    old_examples TEXT NOT NULL,
    new_examples TEXT NOT NULL,
    example_phrases TEXT NOT NULL
);
CREATE TABLE renumbering (
    old_release_id INTEGER NOT NULL REFERENCES releases (id),
    new_release_id INTEGER NOT NULL REFERENCES releases (id),
    old_number TEXT NOT NULL,
    new_number TEXT NOT NULL
);
CREATE TABLE translations (
    release_id INTEGER NOT NULL REFERENCES releases (id),
    base_release_id INTEGER REFERENCES releases (id),
    number TEXT NOT NULL,
    status TEXT NOT NULL,
    stale_since_release_id INTEGER REFERENCES releases (id),
    english_number TEXT,
    problems TEXT NOT NULL
);
"""
INDEXES = """
CREATE UNIQUE INDEX rules_by_release ON rules (release_id, position);
CREATE INDEX rules_by_number ON rules (number, release_id);
CREATE INDEX rules_by_line ON rules (line_id, release_id);
CREATE INDEX headings_by_release ON headings (release_id);
CREATE INDEX glossary_by_release ON glossary (release_id);
CREATE INDEX glossary_by_term ON glossary (term);
CREATE INDEX changes_by_pair ON changes (new_release_id, old_release_id);
CREATE INDEX changes_by_line ON changes (line_id);
CREATE INDEX changes_by_number ON changes (new_number);
CREATE INDEX renumbering_by_pair ON renumbering (new_release_id, old_release_id);
CREATE INDEX translations_by_release ON translations (release_id, number);
CREATE VIRTUAL TABLE rules_fts USING fts5 (
    text, content='rules', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
INSERT INTO rules_fts (rules_fts) VALUES ('rebuild');
"""


def export_sqlite(collected: Sequence[Collected], dest: Path, meta: dict) -> None:
    """Write the languages into a new SQLite file at `dest` (replaced whole, never half)."""
    with staged(dest, _is_sqlite, "a SQLite file") as path:
        connection = sqlite3.connect(path)
        try:
            _fill(connection, collected, meta)
            problems = connection.execute("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise ExportError(f"{dest}: the export refers to missing rows ({problems[:3]})")
        finally:
            connection.close()


def _is_sqlite(path: Path) -> bool:
    if not path.is_file():
        return False
    with path.open("rb") as handle:
        return handle.read(16) == b"SQLite format 3\x00"


def _fill(connection: sqlite3.Connection, collected: Sequence[Collected], meta: dict) -> None:
    # A throwaway file until renamed into place: no journal, no waiting for the disk.
    connection.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
    connection.executescript(SCHEMA)
    connection.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
    ids: dict[str, int] = {}  # release key -> id
    for language in collected:
        _insert_language(connection, language, ids)
    if collected and collected[0].gathered.language == "en":
        for language in collected[1:]:
            _insert_translations(connection, language, collected[0], ids)
    connection.executescript(INDEXES)
    connection.commit()


def _insert_language(connection: sqlite3.Connection, language: Collected, ids: dict) -> None:
    memo: dict[int, tuple] = {}
    for text in language.texts:
        summary = release_summary(text.release)
        summary["flags"] = json.dumps(summary["flags"])
        release_id = ids[text.release.key] = len(ids) + 1
        connection.execute(
            "INSERT INTO releases VALUES (:id, :language, :effective_date, :set_code, :set_name,"
            " :rule_count, :glossary_count, :flags, :source, :sha256, :encoding)",
            {"id": release_id, **summary},
        )
        connection.executemany(
            "INSERT INTO rules VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?)",
            _rule_rows(release_id, text, memo),
        )
        connection.executemany(
            "INSERT INTO headings VALUES (?, ?, ?)",
            ((release_id, heading.number, heading.title) for heading in text.headings),
        )
        connection.executemany(
            "INSERT INTO glossary VALUES (?, ?, ?, ?, ?)",
            (
                (release_id, position, entry.term, entry.printed_text, entry.text)
                for position, entry in enumerate(text.glossary)
            ),
        )
    _insert_changes(connection, language, ids)


def _rule_rows(release_id: int, text: ReleaseText, memo: dict[int, tuple]) -> Iterator[tuple]:
    # Most releases print most rules as the release before did, and the lines of descent share
    # one Rule object per version (all alive while exporting): each version's columns are made
    # once, keyed by the object.
    for position, (line_id, rule) in enumerate(text.rules):
        columns = memo.get(id(rule))
        if columns is None:
            columns = memo[id(rule)] = _rule_columns(rule)
        yield (release_id, position, rule.number, line_id, *columns)


def _rule_columns(rule: Rule) -> tuple:
    """Return text, examples, normalised text and examples (None where equal to the printed)."""
    return (
        rule.printed_text,
        _json(rule.printed_examples),
        rule.text if rule.original else None,
        _json(rule.examples) if rule.original_examples else None,
    )


def _insert_changes(connection: sqlite3.Connection, language: Collected, ids: dict) -> None:
    texts, diffs = language.texts, language.gathered.diffs
    for index in range(1, len(texts)):
        diff = diffs[index]
        if diff is None:
            continue
        old, new = texts[index - 1], texts[index]
        pair = (ids[old.release.key], ids[new.release.key])
        new_lines = {rule.number: line_id for line_id, rule in new.rules}
        old_lines = {rule.number: line_id for line_id, rule in old.rules}
        data = diff_data(old.release, new.release, diff)
        connection.executemany(
            "INSERT INTO changes VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (
                    *pair,
                    change["kind"],
                    change["old_number"],
                    change["new_number"],
                    new_lines.get(change["new_number"]) or old_lines.get(change["old_number"]),
                    change["moved"],
                    change["old_text"],
                    change["new_text"],
                    _json(change["phrases"]),
                    _json(change["old_examples"]),
                    _json(change["new_examples"]),
                    _json(change["example_phrases"]),
                )
                for change in data["changes"]
            ),
        )
        connection.executemany(
            "INSERT INTO renumbering VALUES (?, ?, ?, ?)",
            ((*pair, move["old"], move["new"]) for move in data["renumbering"]),
        )


def _insert_translations(
    connection: sqlite3.Connection, language: Collected, english: Collected, ids: dict
) -> None:
    """Each translated release against its English base, as `rulesarchive translations` says."""
    english_releases = english.gathered.releases
    numbers = {t.release.key: {rule.number for _, rule in t.rules} for t in english.texts}
    for text in language.texts:
        document = text.document()
        base = base_release(text.release, document, english_releases, lambda r: numbers[r.key])
        start = english_releases.index(base) if base else 0
        later = [
            (english_releases[index], diff)
            for index in range(start + 1, len(english_releases))
            if (diff := english.gathered.diffs[index]) is not None
        ]
        base_document = english.texts[start].document() if base else None
        report = compare_translation(text.release, document, base, base_document, later)
        connection.executemany(
            "INSERT INTO translations VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                (
                    ids[text.release.key],
                    ids[base.key] if base else None,
                    rule.number,
                    rule.status,
                    ids[rule.stale_since.key] if rule.stale_since else None,
                    rule.english_number,
                    _json(rule.problems),
                )
                for rule in report.rules
            ),
        )


_encode = json.JSONEncoder(ensure_ascii=False).encode


def _json(value: object) -> str:
    return _encode(value) if value else "[]"
