"""Lines of descent kept by chapter (rulesarchive.lines), traced a release at a time, and the
histories `history` reads from them.

They are derived data: whatever happens to them (extended at ingest, a release inserted, a
part gone, nothing kept at all), `history` answers exactly as the lines traced from nothing do.
"""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from click.testing import CliRunner
from rulesarchive.corpus.derived import DerivedData, Kind
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.identity import rename_lines
from rulesarchive.differ.lineage import EMPTY_TRACE, extend_trace, line_history, trace_lines
from rulesarchive.differ.report import history_data, history_text

from rulesarchive import lines as kept_lines
from rulesarchive.cli import main
from rulesarchive.library import Library

# Around the Magic 2010 rewrite (2009-07-08): 217.1d became 400.6.
SMALL = ("2009-02-01", "2009-05-01", "2009-07-08", "2009-09-04", "2009-10-05", "2010-02-01")


def _ingest(root, paths) -> None:
    result = CliRunner().invoke(main, ["--archive", str(root), "ingest", *map(str, paths)])
    assert result.exit_code == 0, result.output


def _history(root, *args: str) -> str:
    result = CliRunner().invoke(main, ["--archive", str(root), "history", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _from_nothing(root) -> list:
    """The lines of the archive's English releases traced from nothing (nothing kept)."""
    library = Library(root, DerivedData(None))
    releases = library.releases("en")
    return trace_lines(releases, library.walk(releases))


def _kept(root) -> list:
    """The lines kept for all the archive's English releases (None: not kept)."""
    library = Library(root)
    releases = library.releases("en")
    trace = kept_lines.kept_trace(library.derived, releases)
    return list(trace.lines) if trace.count == len(releases) else None


@pytest.fixture(scope="module")
def small(shared_archive, tmp_path_factory):
    """Six English releases around the 2009 rewrite, ingested (nothing traced yet)."""
    root = tmp_path_factory.mktemp("small") / "archive"
    _ingest(root, [shared_archive / "en" / f"{day}.txt" for day in SMALL])
    return root


@pytest.fixture
def archive_copy(small, tmp_path):
    root = tmp_path / "archive"
    shutil.copytree(small, root)
    return root


# History from the kept chapters, on the real archive


EN_RULES = ("400.6", "704.5j", "100.2a", "205.3b", "702.19b", "601.2f", "217.1d", "800.4a")
ZH_RULES = ("104.6", "100.1", "702.19b", "601.2f")


@pytest.mark.parametrize(
    ("language", "number"),
    [("en", number) for number in EN_RULES] + [("zh-Hans", number) for number in ZH_RULES],
)
def test_history_from_one_chapter_equals_history_from_all_the_lines(library, language, number):
    releases = library.releases(language)
    trace = library.trace(language)
    from_lines = line_history(trace.lines, releases, number, len(releases) - 1, latest=True)
    told = library.history(number, language)
    assert told == from_lines
    data = history_data(told)
    assert json.dumps(data, ensure_ascii=False) == json.dumps(
        history_data(from_lines), ensure_ascii=False
    )
    assert history_text(data) == history_text(history_data(from_lines))
    assert len(told.versions) > 1 or language == "zh-Hans"


def test_history_of_a_renumbered_rule_named_in_an_old_release(library):
    releases = library.releases("en")
    old = library.find("2009-05-01")
    told = library.history("217.1d", "en", old)
    assert told == line_history(library.trace("en").lines, releases, "217.1d", releases.index(old))
    assert told.numbers == ("217.1d", "400.6")


def test_lines_traced_a_release_at_a_time_equal_lines_traced_from_nothing(library):
    for language in ("en", "zh-Hans"):
        releases = library.releases(language)
        from_nothing = trace_lines(releases, library.walk(releases))
        start = len(releases) - 3
        trace = extend_trace(EMPTY_TRACE, releases[:start], library.walk(releases[:start]))
        for count in range(start + 1, len(releases) + 1):
            steps = library.walk(releases[:count], start=count - 1)
            trace = extend_trace(trace, releases[:count], steps)
        assert trace.count == len(releases)
        assert list(trace.lines) == from_nothing
        # as kept by chapter, named by their permanent ids
        named = rename_lines(from_nothing, library.line_ids(language))
        assert list(library.trace(language).lines) == named


# Keeping the lines up to date, on six releases


def test_an_ingest_at_the_end_extends_the_kept_lines_as_a_trace_from_nothing_makes_them(
    archive_copy, shared_archive
):
    before = _history(archive_copy, "400.6")
    _ingest(archive_copy, [shared_archive / "en" / "2010-04-23.txt"])
    assert _kept(archive_copy) == _from_nothing(archive_copy)  # extended by the ingest
    after = _history(archive_copy, "400.6")
    assert after != before and "2010-04-23" in after


def test_a_release_inserted_in_the_middle_makes_the_reader_trace_again(tmp_path, shared_archive):
    root = tmp_path / "archive"
    _ingest(root, [shared_archive / "en" / f"{day}.txt" for day in SMALL if day != "2009-09-04"])
    _history(root, "400.6")
    _ingest(root, [shared_archive / "en" / "2009-09-04.txt"])
    assert _kept(root) is None  # left to the next reader by the ingest
    assert "2009-09-04" in _history(root, "400.6", "--all")
    assert _kept(root) == _from_nothing(root)


def test_parts_gone_from_the_store_are_worked_out_again(archive_copy, derived_data):
    expected = {number: _history(archive_copy, number) for number in ("400.6", "100.1", "702.2")}
    with sqlite3.connect(derived_data / "derived.sqlite") as connection:
        kept = connection.execute("SELECT key FROM entries WHERE kind = 'lines'").fetchall()
        connection.executemany("DELETE FROM entries WHERE key = ?", kept[::2])  # as if pruned
    kept_lines._READ.clear()  # as a new process: nothing read yet
    assert {number: _history(archive_copy, number) for number in expected} == expected
    Library(archive_copy).trace("en")  # as a site build reads them
    assert _kept(archive_copy) == _from_nothing(archive_copy)


def test_history_answers_when_nothing_can_be_kept(archive_copy, monkeypatch):
    expected = _history(archive_copy, "217.1d")
    monkeypatch.setattr(DerivedData, "default", lambda: DerivedData(None))
    assert _history(archive_copy, "217.1d") == expected


def test_history_reads_no_release_and_one_chapter_of_the_kept_lines(archive_copy, monkeypatch):
    expected = _history(archive_copy, "400.6", "--format", "json")
    read: list[str] = []
    get = DerivedData.get

    def counted(self, key, expect):
        read.append(key.partition(":")[0])
        return get(self, key, expect)

    def refuse(*_args, **_kwargs):
        raise AssertionError("history read a release")

    monkeypatch.setattr(Archive, "load", refuse)
    monkeypatch.setattr(DerivedData, "get", counted)
    kept_lines._READ.clear()  # as a new process: nothing read yet
    assert _history(archive_copy, "400.6", "--format", "json") == expected
    # the releases' listing, the state of the trace, chapter 400's part, the lines' ids
    assert read == [Kind.LISTING, Kind.LINES, Kind.LINES, Kind.LINES]


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
    history = Library(archive_copy).history("400.6")
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
