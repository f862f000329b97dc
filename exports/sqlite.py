"""`export sqlite`: every release, rule, heading, glossary entry and change in one SQLite file.

With the lines of descent and their versions (`lines`, `versions`, see exports.lines; here
`first`, `last` and `compared` are `releases.id`). The
versions are worked out in forked workers while the rules are written; the translations are
the library's reports (`Collected.translations`).
"""

from __future__ import annotations

import dataclasses
import errno
import json
import multiprocessing
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import ParamSpec, TypeVar

from rulesarchive.corpus.model import Rule
from rulesarchive.differ.glossary import term_key
from rulesarchive.differ.kinds import TranslationStatus
from rulesarchive.differ.report import diff_data
from rulesarchive.differ.report_types import ChangeJson, DiffJson
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.exports import ExportError, ExportMeta
from rulesarchive.exports.collect import Collected, ReleaseText, release_row
from rulesarchive.exports.lines import LINE_TABLES, LineRow, line_row, write_lines
from rulesarchive.exports.place import staged
from rulesarchive.system.processes import usable_cores

P = ParamSpec("P")
R = TypeVar("R")
# A translated rule as translation_rows gives it: release, base, number, status, stale since,
# English number, problems (JSON), printed-date release (releases by key), English line id.
TranslationRow = tuple[
    str, str | None, str, TranslationStatus, str | None, str | None, str, str | None, str | None
]
# The same with the releases by row id and the English line by its row, as the table holds it.
_TranslationColumns = tuple[
    int, int | None, str, TranslationStatus, int | None, str | None, str, int | None, int | None
]
# A rule's columns after release, position, number, line id and line: printed text, printed
# examples (JSON), normalised text and examples (None where equal to the printed).
_RuleColumns = tuple[str, str, str | None, str | None]

SCHEMA = (
    """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE releases (
    id INTEGER PRIMARY KEY,
    language TEXT NOT NULL,
    effective_date TEXT NOT NULL,
    set_code TEXT NOT NULL,
    set_name TEXT NOT NULL,
    rule_count INTEGER NOT NULL,
    glossary_count INTEGER NOT NULL,
    flags TEXT NOT NULL,  -- JSON list, as `releases --format json`
    source TEXT NOT NULL,  -- the file ingested
    sha256 TEXT NOT NULL,
    encoding TEXT NOT NULL,
    UNIQUE (language, effective_date)
);
CREATE TABLE rules (
    id INTEGER PRIMARY KEY,
    release_id INTEGER NOT NULL REFERENCES releases (id),
    position INTEGER NOT NULL,  -- printed order in its release, from 0
    number TEXT NOT NULL,
    line_id TEXT NOT NULL,  -- permanent id, the same in every release
    line INTEGER NOT NULL REFERENCES lines (id),
    text TEXT NOT NULL,  -- as printed
    examples TEXT NOT NULL,  -- JSON list, as printed
    normalised_text TEXT,  -- NULL where equal to text
    normalised_examples TEXT  -- JSON list; NULL where equal to examples
);
CREATE TABLE headings (
    id INTEGER PRIMARY KEY,
    release_id INTEGER NOT NULL REFERENCES releases (id),
    position INTEGER NOT NULL,
    number TEXT NOT NULL,
    title TEXT NOT NULL,
    line_id TEXT  -- the heading's permanent id, renumbered or renamed (a CR heading's)
);
CREATE TABLE glossary (
    id INTEGER PRIMARY KEY,
    release_id INTEGER NOT NULL REFERENCES releases (id),
    position INTEGER NOT NULL,
    term TEXT NOT NULL,
    text TEXT NOT NULL,
    normalised_text TEXT NOT NULL,
    line_id TEXT  -- the term's permanent id, renamed or not; NULL: an entry not read as a term
);
CREATE TABLE changes (
    id INTEGER PRIMARY KEY,
    old_release_id INTEGER NOT NULL REFERENCES releases (id),
    new_release_id INTEGER NOT NULL REFERENCES releases (id),
    kind TEXT NOT NULL,  -- substantive, sweep, reference, example, typography, ...
    heading INTEGER NOT NULL,  -- 1: a heading's change, 0: a rule's
    old_number TEXT,  -- NULL: added
    new_number TEXT,  -- NULL: removed
    line_id TEXT,
    line INTEGER REFERENCES lines (id),
    moved INTEGER NOT NULL,  -- 1: renumbered
    old_text TEXT NOT NULL,
    new_text TEXT NOT NULL,
    phrases TEXT NOT NULL,  -- JSON list of {"old", "new"}: the reworded phrases
    old_examples TEXT NOT NULL,
    new_examples TEXT NOT NULL,
    example_phrases TEXT NOT NULL,
    fixes TEXT NOT NULL  -- JSON list: the citations the change put right
);
CREATE TABLE renumbering (
    id INTEGER PRIMARY KEY,
    old_release_id INTEGER NOT NULL REFERENCES releases (id),
    new_release_id INTEGER NOT NULL REFERENCES releases (id),
    old_number TEXT NOT NULL,
    new_number TEXT NOT NULL
);
CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    old_release_id INTEGER NOT NULL REFERENCES releases (id),
    new_release_id INTEGER NOT NULL REFERENCES releases (id),
    old TEXT NOT NULL,
    new TEXT NOT NULL,
    rules TEXT NOT NULL  -- JSON list of rule numbers
);
CREATE TABLE splits (
    id INTEGER PRIMARY KEY,
    old_release_id INTEGER NOT NULL REFERENCES releases (id),
    new_release_id INTEGER NOT NULL REFERENCES releases (id),
    old_numbers TEXT NOT NULL,  -- JSON list
    new_numbers TEXT NOT NULL  -- JSON list
);
CREATE TABLE merges (
    id INTEGER PRIMARY KEY,
    old_release_id INTEGER NOT NULL REFERENCES releases (id),
    new_release_id INTEGER NOT NULL REFERENCES releases (id),
    old_numbers TEXT NOT NULL,  -- JSON list
    new_numbers TEXT NOT NULL  -- JSON list
);
CREATE TABLE glossary_changes (
    id INTEGER PRIMARY KEY,
    old_release_id INTEGER NOT NULL REFERENCES releases (id),
    new_release_id INTEGER NOT NULL REFERENCES releases (id),
    kind TEXT NOT NULL,
    old_term TEXT,
    new_term TEXT,
    old_text TEXT NOT NULL,
    new_text TEXT NOT NULL,
    phrases TEXT NOT NULL,  -- JSON list of {"old", "new"}: the reworded phrases
    fixes TEXT NOT NULL  -- JSON list: the citations the change put right
);
CREATE TABLE translations (
    id INTEGER PRIMARY KEY,
    release_id INTEGER NOT NULL REFERENCES releases (id),
    base_release_id INTEGER REFERENCES releases (id),  -- the English release translated
    number TEXT NOT NULL,
    status TEXT NOT NULL,  -- current, stale, missing, extra
    stale_since_release_id INTEGER REFERENCES releases (id),
    english_number TEXT,
    problems TEXT NOT NULL,  -- JSON list
    printed_date_release_id INTEGER REFERENCES releases (id),
    english_line INTEGER REFERENCES lines (id)  -- the English rule translated
);
"""
    + LINE_TABLES
)
INDEXES = """
CREATE UNIQUE INDEX rules_by_release ON rules (release_id, position);
CREATE INDEX rules_by_number ON rules (number, release_id);
CREATE INDEX rules_by_line ON rules (line_id, release_id);
CREATE INDEX rules_by_line_row ON rules (line);
CREATE UNIQUE INDEX headings_by_release ON headings (release_id, position);
CREATE UNIQUE INDEX glossary_by_release ON glossary (release_id, position);
CREATE INDEX glossary_by_term ON glossary (term);
CREATE INDEX glossary_by_line ON glossary (line_id);
CREATE INDEX headings_by_line ON headings (line_id);
CREATE INDEX changes_by_pair ON changes (new_release_id, old_release_id);
CREATE INDEX changes_by_line ON changes (line_id);
CREATE INDEX changes_by_number ON changes (new_number);
CREATE INDEX renumbering_by_pair ON renumbering (new_release_id, old_release_id);
CREATE INDEX sweeps_by_pair ON sweeps (new_release_id, old_release_id);
CREATE INDEX splits_by_pair ON splits (new_release_id, old_release_id);
CREATE INDEX merges_by_pair ON merges (new_release_id, old_release_id);
CREATE INDEX glossary_changes_by_pair ON glossary_changes (new_release_id, old_release_id);
CREATE INDEX translations_by_release ON translations (release_id, number);
CREATE INDEX lines_by_language ON lines (language, position);
CREATE INDEX versions_by_release ON versions (first, last);
"""
# Full-text search, declared as sqlite-utils and Datasette look for it (content="<table>"):
# `sqlite-utils search` and Datasette's ?_search= then find it. The trigram tables search
# Chinese (and Korean), which unicode61 cannot split into words, by any three characters.
SEARCH = """
CREATE VIRTUAL TABLE rules_fts USING fts5 (
    number, text, examples, content="rules", content_rowid="id",
    tokenize="unicode61 remove_diacritics 2"
);
CREATE VIRTUAL TABLE glossary_fts USING fts5 (
    term, text, content="glossary", content_rowid="id", tokenize="unicode61 remove_diacritics 2"
);
CREATE VIRTUAL TABLE changes_fts USING fts5 (
    old_text, new_text, content="changes", content_rowid="id",
    tokenize="unicode61 remove_diacritics 2"
);
CREATE VIRTUAL TABLE rules_trigram USING fts5 (
    text, examples, content="rules", content_rowid="id", tokenize="trigram"
);
CREATE VIRTUAL TABLE glossary_trigram USING fts5 (
    term, text, content="glossary", content_rowid="id", tokenize="trigram"
);
CREATE VIRTUAL TABLE changes_trigram USING fts5 (
    old_text, new_text, content="changes", content_rowid="id", tokenize="trigram"
);
INSERT INTO rules_fts (rules_fts) VALUES ('rebuild');
INSERT INTO glossary_fts (glossary_fts) VALUES ('rebuild');
INSERT INTO changes_fts (changes_fts) VALUES ('rebuild');
INSERT INTO rules_trigram (rules_trigram) VALUES ('rebuild');
INSERT INTO glossary_trigram (glossary_trigram) VALUES ('rebuild');
INSERT INTO changes_trigram (changes_trigram) VALUES ('rebuild');
"""
# What the rules said on a date: each release with the day it was superseded (none for the
# newest), and each rule with the days its release was in force. On a date D:
#   SELECT number, text FROM rules_in_force WHERE language = 'en'
#     AND in_force_from <= D AND (in_force_until IS NULL OR in_force_until > D)
VIEWS = """
CREATE VIEW release_periods AS
SELECT id, language, effective_date AS in_force_from,
    lead(effective_date) OVER (PARTITION BY language ORDER BY effective_date) AS in_force_until
FROM releases;
CREATE VIEW rules_in_force AS
SELECT rules.id AS rule_id, periods.language, periods.in_force_from, periods.in_force_until,
    rules.number, rules.line_id, rules.text, rules.examples
FROM rules JOIN release_periods AS periods ON periods.id = rules.release_id;
"""
# The rules of a language holding some characters, in their text or examples: a word of
# Chinese or Korean, which unicode61 keeps inside a whole run of characters. The trigram table
# answers LIKE from its index for three characters or more, and by reading every row for fewer
# (a trigram MATCH finds nothing under three: '消灭', destroy, is two).
RULES_WITH_CHARACTERS = (
    "SELECT rules.id, releases.effective_date, rules.number, rules.line_id, rules.text,"
    " rules.examples FROM rules_trigram JOIN rules ON rules.id = rules_trigram.rowid"
    " JOIN releases ON releases.id = rules.release_id WHERE releases.language = :language"
    " AND (rules_trigram.text LIKE '%' || :characters || '%'"
    " OR rules_trigram.examples LIKE '%' || :characters || '%')"
    " ORDER BY releases.effective_date, rules.position"
)
RULES_ON_DATE = (
    "SELECT number, line_id, text, examples, in_force_from FROM rules_in_force"
    " WHERE language = :language AND in_force_from <= :date"
    " AND (in_force_until IS NULL OR in_force_until > :date)"
)


def export_sqlite(collected: Sequence[Collected], dest: Path, meta: ExportMeta) -> None:
    """Write the languages into a new SQLite file at `dest` (replaced whole, never half), and
    Datasette's metadata beside it (`metadata_path`)."""
    with staged(dest, _is_sqlite, "a SQLite file") as path:
        connection = sqlite3.connect(path)
        try:
            _fill(connection, collected, meta)
            problems = connection.execute("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise ExportError(f"{dest}: the export refers to missing rows ({problems[:3]})")
        except sqlite3.OperationalError as error:  # SQLite's word for a full disk
            if getattr(error, "sqlite_errorname", "") != "SQLITE_FULL":
                raise
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)) from None
        finally:
            connection.close()
    with staged(metadata_path(dest), Path.is_file, "a JSON file") as path:
        path.write_text(json.dumps(datasette_metadata(dest, meta), indent=2) + "\n")


def metadata_path(dest: Path) -> Path:
    """Return where Datasette's metadata of a SQLite export goes: rules.sqlite ->
    rules.metadata.json (`datasette rules.sqlite -m rules.metadata.json`)."""
    return dest.with_name(f"{dest.stem}.metadata.json")


def datasette_metadata(dest: Path, meta: ExportMeta) -> dict[str, object]:
    """Return the Datasette metadata of an export: what each table holds, its search, and the
    queries of the rules in force on a date and of the rules holding some characters."""
    searched = {"rules": "rules_fts", "glossary": "glossary_fts", "changes": "changes_fts"}
    tables = {
        name: {"description": text}
        | ({"fts_table": searched[name], "fts_pk": "id"} if name in searched else {})
        for name, text in TABLE_DESCRIPTIONS.items()
    }
    return {
        "title": "Magic: The Gathering Comprehensive Rules, every release",
        "description": f"rulesarchive export (data version {meta.get('data_version', '')})",
        "source": "Wizards of the Coast",
        "databases": {
            dest.stem: {
                "tables": tables,
                "queries": {
                    "rules_on_date": {
                        "title": "The rules in force on a date",
                        "sql": RULES_ON_DATE,
                    },
                    "rules_with_characters": {
                        "title": "The rules holding some characters (a Chinese or Korean word)",
                        "sql": RULES_WITH_CHARACTERS,
                    },
                },
            }
        },
    }


TABLE_DESCRIPTIONS = {
    "releases": "One row per release: language, effective date, set, source file.",
    "rules": "Every rule as each release printed it; line_id is its permanent id.",
    "headings": "The chapter and section headings of each release; line_id is the heading's"
    " permanent id, the same through renumberings and renamings.",
    "glossary": "The glossary entries of each release; line_id is the term's permanent id, the"
    " same through renamings.",
    "changes": "What changed between consecutive releases; heading = 1 for headings, fixes: "
    "the citations the change put right.",
    "renumbering": "Rules that moved, between consecutive releases.",
    "sweeps": "One wording change made across many rules at once.",
    "splits": "One rule split into several.",
    "merges": "Several rules merged into one.",
    "glossary_changes": "Glossary entries added, removed or reworded.",
    "translations": "Each translated rule against the English release it translates.",
    "lines": "Each rule's line of descent: its permanent id, releases and numbers.",
    "line_aliases": "Retired ids, each naming the line it was merged into.",
    "versions": "Each version of a line of descent, as `rulesarchive history` tells it.",
    "rules_in_force": "Each rule with the days its release was in force.",
}


def _is_sqlite(path: Path) -> bool:
    if not path.is_file():
        return False
    with path.open("rb") as handle:
        return handle.read(16) == b"SQLite format 3\x00"


def _fill(connection: sqlite3.Connection, collected: Sequence[Collected], meta: ExportMeta) -> None:
    # A throwaway file until renamed into place: no journal, no waiting for the disk.
    connection.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
    connection.executescript(SCHEMA + VIEWS)
    connection.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
    ids = _release_ids(collected)
    rows = _line_rows(collected)
    with _Workers(collected) as workers:
        for language in collected:
            _insert_language(connection, language, ids, rows)
        for language, lines in zip(collected, workers.lines(), strict=True):
            name = language.gathered.language
            write_lines(
                connection,
                name,
                (
                    (rows[name, line.id], place, _by_release_id(line, language, ids))
                    for place, line in enumerate(lines)
                ),
            )
            connection.executemany(
                "INSERT INTO line_aliases VALUES (?, ?, ?)",
                (
                    (name, alias, rows[name, line_id])
                    for alias, line_id in sorted(language.gathered.aliases.items())
                    if (name, line_id) in rows
                ),
            )
    for language in (translated for translated in collected if translated.translations):
        for text, report in zip(language.texts, language.translations, strict=True):
            connection.executemany(
                "INSERT INTO translations VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (_with_ids(row, ids, rows) for row in translation_rows(text, report, collected[0])),
            )
    connection.executescript(INDEXES + SEARCH)
    connection.commit()


def _line_rows(collected: Sequence[Collected]) -> dict[tuple[str, str], int]:
    """Number the lines 1, 2, ... in the order they are written, by (language, line id)."""
    rows: dict[tuple[str, str], int] = {}
    for language in collected:
        for line in language.gathered.lines:
            rows[language.gathered.language, line.id] = len(rows) + 1
    return rows


def _release_ids(collected: Sequence[Collected]) -> dict[str, int]:
    """Number the releases 1, 2, ... in the order they are written."""
    keys = [text.release.key for language in collected for text in language.texts]
    return {key: number for number, key in enumerate(keys, start=1)}


def _with_ids(
    row: TranslationRow, ids: dict[str, int], lines: dict[tuple[str, str], int]
) -> _TranslationColumns:
    """Name a translation row's releases (keys, or None) by their ids, and its English line."""
    release, base, number, status, stale_since, english_number, problems, printed, english = row
    return (
        ids[release],
        ids[base] if base else None,
        number,
        status,
        ids[stale_since] if stale_since else None,
        english_number,
        problems,
        ids[printed] if printed else None,
        lines.get(("en", english)) if english else None,
    )


def _by_release_id(line: LineRow, language: Collected, ids: dict[str, int]) -> LineRow:
    """Name the releases of a line's versions by their ids instead of their positions."""
    place = [ids[text.release.key] for text in language.texts]
    return dataclasses.replace(
        line,
        versions=tuple(
            dataclasses.replace(
                version,
                first=place[version.first],
                last=place[version.last],
                compared=None if version.compared is None else place[version.compared],
            )
            for version in line.versions
        ),
    )


# What forked workers read: the collected languages.
_SHARED: Sequence[Collected] | None = None


class _Workers:
    """Work out the lines' versions, in forked workers where possible.

    They run while the main process writes the rules; without fork or a second core they are
    worked out in this process when asked for.
    """

    def __init__(self, collected: Sequence[Collected]) -> None:
        self._shared = collected
        self._lines = list(range(len(collected)))
        self._pool: multiprocessing.pool.Pool | None = None
        self._line_results: dict[int, AsyncResult[list[LineRow]]] = {}

    def __enter__(self) -> _Workers:
        global _SHARED
        cores = usable_cores()
        if cores > 1 and "fork" in multiprocessing.get_all_start_methods():
            _SHARED = self._shared
            self._pool = multiprocessing.get_context("fork").Pool(min(cores, 2))
            _SHARED = None  # the workers hold their copy
            for index in self._lines:  # in the order they are needed
                self._line_results[index] = self._pool.apply_async(_work_lines, (index,))
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()

    def lines(self) -> Iterator[list[LineRow]]:
        """Yield each language's lines, as the line index keeps them."""
        for index in self._lines:
            if index in self._line_results:
                yield self._line_results[index].get()
            else:
                yield _in_place(_work_lines, self._shared, index)


def _in_place(
    work: Callable[P, R], shared: Sequence[Collected], *args: P.args, **kwargs: P.kwargs
) -> R:
    """Do a task of `_Workers` in this process."""
    global _SHARED
    _SHARED = shared
    try:
        return work(*args, **kwargs)
    finally:
        _SHARED = None


def _work_lines(index: int) -> list[LineRow]:
    """Work out a language's lines (in a worker, or in this process)."""
    assert _SHARED is not None
    gathered = _SHARED[index].gathered
    releases = gathered.releases
    positions = {release.effective_date: place for place, release in enumerate(releases)}
    return [line_row(line, releases, positions) for line in gathered.lines]


def _insert_language(
    connection: sqlite3.Connection,
    language: Collected,
    ids: dict[str, int],
    lines: dict[tuple[str, str], int],
) -> None:
    memo: dict[int, _RuleColumns] = {}
    name = language.gathered.language
    for index, text in enumerate(language.texts):
        summary = release_row(text)
        heading_ids = language.gathered.heading_ids(index)
        term_ids = language.gathered.term_ids(index)
        release_id = ids[text.release.key]
        connection.execute(
            "INSERT INTO releases VALUES (:id, :language, :effective_date, :set_code, :set_name,"
            " :rule_count, :glossary_count, :flags, :source, :sha256, :encoding)",
            {"id": release_id, **summary, "flags": json.dumps(summary["flags"])},
        )
        connection.executemany(
            "INSERT INTO rules VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            _rule_rows(release_id, text, memo, lambda line_id: lines[name, line_id]),
        )
        connection.executemany(
            "INSERT INTO headings VALUES (NULL, ?, ?, ?, ?, ?)",
            (
                (
                    release_id,
                    position,
                    heading.number,
                    heading.title,
                    heading_ids.get(heading.number),
                )
                for position, heading in enumerate(text.headings)
            ),
        )
        connection.executemany(
            "INSERT INTO glossary VALUES (NULL, ?, ?, ?, ?, ?, ?)",
            (
                (
                    release_id,
                    position,
                    entry.term,
                    entry.printed_text,
                    entry.text,
                    term_ids.get(term_key(entry.term)),
                )
                for position, entry in enumerate(text.glossary)
            ),
        )
    _insert_changes(connection, language, ids, lines)


def _rule_rows(
    release_id: int,
    text: ReleaseText,
    memo: dict[int, _RuleColumns],
    line_row_of: Callable[[str], int],
) -> Iterator[tuple[int, int, str, str, int, str, str, str | None, str | None]]:
    # Most releases print most rules as the release before did, and the lines of descent share
    # one Rule object per version (all alive while exporting): each version's columns are made
    # once, keyed by the object.
    for position, (line_id, rule) in enumerate(text.rules):
        columns = memo.get(id(rule))
        if columns is None:
            columns = memo[id(rule)] = _rule_columns(rule)
        yield (release_id, position, rule.number, line_id, line_row_of(line_id), *columns)


def _rule_columns(rule: Rule) -> _RuleColumns:
    """Return text, examples, normalised text and examples (None where equal to the printed)."""
    return (
        rule.printed_text,
        _json(rule.printed_examples),
        rule.text if rule.original else None,
        _json(rule.examples) if rule.original_examples else None,
    )


def _insert_changes(
    connection: sqlite3.Connection,
    language: Collected,
    ids: dict[str, int],
    lines: dict[tuple[str, str], int],
) -> None:
    texts, diffs, name = language.texts, language.gathered.diffs, language.gathered.language
    for index in range(1, len(texts)):
        diff = diffs[index]
        if diff is None:
            continue
        old, new = texts[index - 1], texts[index]
        pair = (ids[old.release.key], ids[new.release.key])
        # by number (a change lacks one where it added or removed the rule)
        new_lines: dict[str | None, str] = {rule.number: line_id for line_id, rule in new.rules}
        old_lines: dict[str | None, str] = {rule.number: line_id for line_id, rule in old.rules}
        data = diff_data(old.release, new.release, diff, language.fixes_of(index))
        changes = []
        for change in data["changes"]:
            line_id: str | None = None
            line: int | None = None
            if not change["heading"]:
                line_id = new_lines.get(change["new_number"]) or old_lines.get(change["old_number"])
            if line_id is not None:
                line = lines.get((name, line_id))
            changes.append((*pair, *_change_columns(change, line_id, line)))
        connection.executemany(
            "INSERT INTO changes VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            changes,
        )
        _insert_pair_tables(connection, pair, data)


def _change_columns(
    change: ChangeJson, line_id: str | None, line: int | None
) -> tuple[object, ...]:
    return (
        change["kind"],
        change["heading"],
        change["old_number"],
        change["new_number"],
        line_id,
        line,
        change["moved"],
        change["old_text"],
        change["new_text"],
        _json(change["phrases"]),
        _json(change["old_examples"]),
        _json(change["new_examples"]),
        _json(change["example_phrases"]),
        _json(change["fixes"]),
    )


def _insert_pair_tables(
    connection: sqlite3.Connection, pair: tuple[int, int], data: DiffJson
) -> None:
    """Insert what a release diff says beside its changes: renumbering, sweeps, splits,
    merges and glossary changes."""
    connection.executemany(
        "INSERT INTO renumbering VALUES (NULL, ?, ?, ?, ?)",
        ((*pair, move["old"], move["new"]) for move in data["renumbering"]),
    )
    connection.executemany(
        "INSERT INTO sweeps VALUES (NULL, ?, ?, ?, ?, ?)",
        ((*pair, s["old"], s["new"], _json(s["rules"])) for s in data["sweeps"]),
    )
    for table, splits in (("splits", data["splits"]), ("merges", data["merges"])):
        connection.executemany(
            f"INSERT INTO {table} VALUES (NULL, ?, ?, ?, ?)",
            ((*pair, _json(s["old"]), _json(s["new"])) for s in splits),
        )
    connection.executemany(
        "INSERT INTO glossary_changes VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (
                *pair,
                g["kind"],
                g["old_term"],
                g["new_term"],
                g["old_text"],
                g["new_text"],
                _json(g["phrases"]),
                _json(g["fixes"]),
            )
            for g in data["glossary"]
        ),
    )


def translation_rows(
    text: ReleaseText, report: TranslationReport, english: Collected
) -> list[TranslationRow]:
    """A translated release's report against its English base (the library's, as
    `rulesarchive translations` says it) as rows: (release, base, number, status, stale since,
    English number, problems, printed-date release, English line id) per rule, releases by
    key."""
    base = report.base
    start = english.gathered.releases.index(base) if base else 0
    disagrees = report.printed_date_release.key if report.printed_date_release else None
    return [
        (
            text.release.key,
            base.key if base else None,
            rule.number,
            rule.status,
            rule.stale_since.key if rule.stale_since else None,
            rule.english_number,
            _json(rule.problems),
            disagrees,
            _english_line(english, start, rule.number) if base else None,
        )
        for rule in report.rules
    ]


def _english_line(english: Collected, index: int, number: str | None) -> str | None:
    """Return the id of the English rule printed as `number` in English release `index` (a
    translation numbers its rules as the English release it translates)."""
    line = english.gathered.holder(number, index) if number else None
    return line.id if line is not None else None


_encode = json.JSONEncoder(ensure_ascii=False).encode


def _json(value: object) -> str:
    return _encode(value) if value else "[]"
