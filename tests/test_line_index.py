"""The line index (ARCHIVE/.cache/lines.sqlite) and the lines of descent traced a release at a time.

The index is derived data: whatever happens to it (stale, damaged, missing, extended at
ingest), `history` answers exactly as the lines traced from nothing do.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from rulesarchive.corpus.line_index import existing_index, index_path
from rulesarchive.corpus.lookup import find_release
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.cache import diff_folder
from rulesarchive.differ.lineage import (
    EMPTY_TRACE,
    extend_trace,
    language_lines,
    trace_lines,
    walk,
)
from rulesarchive.differ.report import history_data, history_text
from rulesarchive.differ.rule_index import line_history, rule_history

from rulesarchive.cli import main

# Around the Magic 2010 rewrite (2009-07-08): 217.1d became 400.6.
SMALL = ("2009-02-01", "2009-05-01", "2009-07-08", "2009-09-04", "2009-10-05", "2010-02-01")


def _ingest(root, paths) -> None:
    result = CliRunner().invoke(main, ["--archive", str(root), "ingest", *map(str, paths)])
    assert result.exit_code == 0, result.output


def _history(root, *args: str) -> str:
    result = CliRunner().invoke(main, ["--archive", str(root), "history", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _dump(root) -> dict:
    """Every row of the index, row ids replaced by line ids (what two builds must agree on)."""
    connection = sqlite3.connect(index_path(root))
    try:
        return {
            "languages": connection.execute("SELECT * FROM languages ORDER BY 1").fetchall(),
            "releases": connection.execute(
                "SELECT * FROM line_releases ORDER BY language, position"
            ).fetchall(),
            "lines": connection.execute(
                "SELECT language, line_id, position, first, last, numbers FROM lines"
                " ORDER BY language, position"
            ).fetchall(),
            "versions": connection.execute(
                "SELECT lines.language, lines.line_id, versions.position, first, last, number,"
                " text, examples, kind, phrases, example_phrases, diff, compared FROM versions"
                " JOIN (SELECT id, language, line_id FROM lines) AS lines"
                " ON lines.id = versions.line ORDER BY 1, 2, 3"
            ).fetchall(),
        }
    finally:
        connection.close()


def _rebuilt_dump(root) -> dict:
    """Dump the index a copy of the archive makes from nothing (no index, no kept trace)."""
    fresh = root.parent / f"{root.name}-fresh"
    shutil.copytree(root, fresh)
    index_path(fresh).unlink(missing_ok=True)
    shutil.rmtree(fresh / ".cache" / "lines", ignore_errors=True)
    _history(fresh, "100.1")
    return _dump(fresh)


@pytest.fixture(scope="module")
def small(shared_archive, tmp_path_factory):
    """Six English releases around the 2009 rewrite, ingested without an index."""
    root = tmp_path_factory.mktemp("small") / "archive"
    _ingest(root, [shared_archive / "en" / f"{day}.txt" for day in SMALL])
    return root


@pytest.fixture
def archive_copy(small, tmp_path):
    root = tmp_path / "archive"
    shutil.copytree(small, root)
    return root


# History through the index, on the real archive


EN_RULES = ("400.6", "704.5j", "100.2a", "205.3b", "702.19b", "601.2f", "217.1d", "800.4a")
ZH_RULES = ("104.6", "100.1", "702.19b", "601.2f")


@pytest.mark.parametrize(
    ("language", "number"),
    [("en", number) for number in EN_RULES] + [("zh-Hans", number) for number in ZH_RULES],
)
def test_history_via_the_index_equals_history_from_the_lines(ingested, language, number):
    archive, _ = ingested
    releases = archive.releases(language)
    from_lines = line_history(
        language_lines(archive, language), releases, number, len(releases) - 1, latest=True
    )
    indexed = rule_history(archive, number, language)
    assert indexed == from_lines
    data = history_data(indexed)
    assert json.dumps(data, ensure_ascii=False) == json.dumps(
        history_data(from_lines), ensure_ascii=False
    )
    assert history_text(data) == history_text(history_data(from_lines))
    assert len(indexed.versions) > 1 or language == "zh-Hans"


def test_history_of_a_renumbered_rule_named_in_an_old_release(ingested):
    archive, _ = ingested
    releases = archive.releases("en")
    old = find_release(archive, "2009-05-01", "en")
    indexed = rule_history(archive, "217.1d", "en", old)
    assert indexed == line_history(
        language_lines(archive, "en"), releases, "217.1d", releases.index(old)
    )
    assert indexed.numbers == ("217.1d", "400.6")


def test_lines_traced_a_release_at_a_time_equal_lines_traced_from_nothing(ingested):
    archive, _ = ingested
    for language in ("en", "zh-Hans"):
        releases = archive.releases(language)
        diffs = diff_folder(archive.root)
        from_nothing = trace_lines(releases, walk(archive, releases, diffs))
        start = len(releases) - 3
        trace = extend_trace(EMPTY_TRACE, releases[:start], walk(archive, releases[:start], diffs))
        for count in range(start + 1, len(releases) + 1):
            steps = walk(archive, releases[:count], diffs, start=count - 1)
            trace = extend_trace(trace, releases[:count], steps)
        assert trace.count == len(releases)
        assert list(trace.lines) == from_nothing


# Keeping the index up to date, on six releases


def test_an_ingest_at_the_end_extends_the_index_as_a_rebuild_makes_it(archive_copy, shared_archive):
    before = _history(archive_copy, "400.6")
    _ingest(archive_copy, [shared_archive / "en" / "2010-04-23.txt"])
    assert _dump(archive_copy)["languages"][0][2] == len(SMALL) + 1  # extended by the ingest
    assert _dump(archive_copy) == _rebuilt_dump(archive_copy)
    after = _history(archive_copy, "400.6")
    assert after != before and "2010-04-23" in after


def test_a_release_inserted_in_the_middle_makes_the_reader_rebuild(tmp_path, shared_archive):
    root = tmp_path / "archive"
    _ingest(root, [shared_archive / "en" / f"{day}.txt" for day in SMALL if day != "2009-09-04"])
    _history(root, "400.6")
    _ingest(root, [shared_archive / "en" / "2009-09-04.txt"])
    assert _dump(root)["languages"][0][2] == len(SMALL) - 1  # left stale by the ingest
    assert "2009-09-04" in _history(root, "400.6", "--all")
    assert _dump(root) == _rebuilt_dump(root)
    archive = Archive(root)
    releases = archive.releases("en")
    assert language_lines(archive, "en") == trace_lines(releases, walk(archive, releases))


def test_a_stale_index_is_brought_up_to_date(archive_copy):
    expected = _history(archive_copy, "400.6", "--format", "json")
    connection = sqlite3.connect(index_path(archive_copy))
    with connection:  # as if other differ code made it, and rows went missing
        connection.execute("UPDATE languages SET code = 'other code'")
        connection.execute("DELETE FROM versions WHERE number = '400.6'")
    connection.close()
    assert _history(archive_copy, "400.6", "--format", "json") == expected
    assert _dump(archive_copy) == _rebuilt_dump(archive_copy)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "missing", "other format"])
def test_a_damaged_or_missing_index_is_made_again(archive_copy, damage):
    expected = _history(archive_copy, "400.6")
    path = index_path(archive_copy)
    if damage == "garbage":
        path.write_bytes(b"not a database at all" * 100)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:5000])
    elif damage == "missing":
        path.unlink()
    else:
        connection = sqlite3.connect(path)
        with connection:
            connection.execute("UPDATE meta SET value = 'line-index-0' WHERE key = 'format'")
        connection.close()
    assert _history(archive_copy, "400.6") == expected
    index = existing_index(archive_copy)
    assert index is not None
    with index:
        assert index.languages() == ["en"]


def test_history_answers_without_an_index_it_cannot_write(archive_copy):
    expected = _history(archive_copy, "217.1d")
    path = index_path(archive_copy)
    path.unlink()
    path.mkdir()  # a folder where the file should be: the index cannot be opened
    assert _history(archive_copy, "217.1d") == expected


def test_history_answers_when_the_kept_trace_cannot_be_replaced(
    archive_copy, shared_archive, monkeypatch
):
    _history(archive_copy, "400.6")  # the index and the kept trace of six releases
    later = ("2010-04-23", "2010-06-18", "2010-07-16", "2010-10-01")
    _ingest(archive_copy, [shared_archive / "en" / f"{day}.txt" for day in later])
    assert _dump(archive_copy)["languages"][0][2] == len(SMALL)  # left stale by the ingest
    unlink = Path.unlink

    def refuse(path, *args, **kwargs):
        if path.parent.name == "lines":  # a read-only cache (chmod does not stop root)
            raise PermissionError(13, "Permission denied", str(path))
        return unlink(path, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", refuse)
    monkeypatch.setattr("rulesarchive.corpus.cache.write_entry", lambda *_args: None)
    answer = _history(archive_copy, "400.6", "--format", "json")
    monkeypatch.undo()
    assert "2010-10-01" in answer
    assert answer == _history(archive_copy, "400.6", "--format", "json")


def test_an_ingest_leaves_an_archive_without_index_without_one(archive_copy, shared_archive):
    _ingest(archive_copy, [shared_archive / "en" / "2010-04-23.txt"])
    assert not index_path(archive_copy).exists()


def test_the_sqlite_export_holds_the_lines_and_versions_history_reads(archive_copy, tmp_path):
    dest = tmp_path / "rules.sqlite"
    result = CliRunner().invoke(
        main, ["--archive", str(archive_copy), "export", "sqlite", str(dest)]
    )
    assert result.exit_code == 0, result.output
    connection = sqlite3.connect(dest)
    rows = connection.execute(
        "SELECT versions.number, first.effective_date, last.effective_date, versions.kind,"
        " versions.text, versions.phrases FROM versions"
        " JOIN lines ON lines.id = versions.line"
        " JOIN releases AS first ON first.id = versions.first"
        " JOIN releases AS last ON last.id = versions.last"
        " WHERE lines.line_id = (SELECT line_id FROM rules WHERE number = '400.6'"
        "  ORDER BY release_id DESC LIMIT 1)"
        " ORDER BY versions.position"
    ).fetchall()
    connection.close()
    history = rule_history(Archive(archive_copy), "400.6")
    assert rows == [
        (
            version.number,
            version.effective_date.isoformat(),
            version.until.isoformat(),
            version.kind,
            version.text,
            json.dumps(
                [[p.old, p.new] for p in version.phrases], ensure_ascii=False, separators=(",", ":")
            ),
        )
        for version in history.versions
    ]
    assert rows[0][0] == "217.1d" and rows[-1][0] == "400.6" and len(rows) > 2


def test_history_from_an_up_to_date_index_reads_no_release_and_no_trace(archive_copy, monkeypatch):
    expected = _history(archive_copy, "400.6", "--format", "json")

    def refuse(*_args, **_kwargs):
        raise AssertionError("history read more than the index")

    monkeypatch.setattr(Archive, "load", refuse)
    monkeypatch.setattr("rulesarchive.corpus.cache.read_entry", refuse)
    assert _history(archive_copy, "400.6", "--format", "json") == expected
