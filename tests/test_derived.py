"""The store of derived data: values come back equal, computed once, kept by what they are
made from, in the user's own folder, within a size limit."""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import logging
import marshal
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rulesarchive.corpus import derived
from rulesarchive.corpus import store as store_module
from rulesarchive.corpus.derived import (
    Access,
    DerivedData,
    Kind,
    collection_paused,
    entry_key,
)
from rulesarchive.corpus.model import Provenance, Release, Rule
from rulesarchive.corpus.store import Archive
from rulesarchive.site_builder.build import sample_archive
from rulesarchive.system import files

from rulesarchive import lines as kept_lines
from rulesarchive.cli import main
from rulesarchive.library import Library

SAMPLE = sample_archive()  # read only: what the tests keep goes to their own cache folders


@pytest.fixture(autouse=True)
def _warnings_caught(caplog):
    """Catch the store's warnings at whatever level an earlier command left its logger (-q)."""
    caplog.set_level(logging.WARNING, logger="rulesarchive")


def _release() -> Release:
    source = Provenance("cr.txt", "ab" * 32, "txt", "utf-8")
    return Release("en", dt.date(2024, 11, 8), "FDN", "Foundations", 1, 0, "cd" * 32, source)


def test_dataclasses_come_back_equal_and_are_computed_once(tmp_path):
    value = {"rules": (Rule("400.6", "text", ("an example",)),), "release": _release()}
    calls = []

    def compute():
        calls.append(1)
        return value

    key = entry_key(Kind.DIFF, "a", "b")
    assert DerivedData(tmp_path).cached(key, compute, dict) == value
    assert DerivedData(tmp_path).cached(key, compute, dict) == value  # another process, as it were
    assert len(calls) == 1


def test_a_shared_object_stays_one_object(tmp_path):
    rule = Rule("400.6", "text")
    key = entry_key(Kind.DIFF, "shared")
    DerivedData(tmp_path).cached(key, lambda: (rule, rule), tuple)
    first, second = DerivedData(tmp_path).cached(key, lambda: (None, None), tuple)  # read back
    assert first == rule and first is second


def test_a_key_names_the_kind_the_code_and_the_inputs(monkeypatch):
    key = entry_key(Kind.DIFF, "old", "new")
    assert key.startswith("diff:")
    assert key == entry_key(Kind.DIFF, "old", "new")
    assert key not in {entry_key(Kind.CHECK, "old", "new"), entry_key(Kind.DIFF, "new", "old")}
    monkeypatch.setattr(derived, "code_version", lambda: "other code")
    assert entry_key(Kind.DIFF, "old", "new") != key  # other code: never found
    # What a server answered does not depend on the code that asked.
    assert entry_key(Kind.HTTP, "https://x") == entry_key(Kind.HTTP, "https://x")


@pytest.fixture
def package_files(tmp_path, monkeypatch):
    """A package of two files whose version is told (and kept) in tmp_path, not the real one."""
    files = {"a.py": "A = 1\n", "b.json": "{}\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    listing = [(f"pkg:{name}", str(tmp_path / name)) for name in files]
    monkeypatch.setattr(derived, "_package_files", lambda: listing)
    monkeypatch.setattr(derived, "_memo_path", lambda: tmp_path / "cache" / "code-version")
    monkeypatch.setattr(derived.sys, "dont_write_bytecode", False)
    monkeypatch.setattr(derived, "_SETTLED", 0)  # the files are as good as old
    derived.code_version.cache_clear()
    yield tmp_path
    derived.code_version.cache_clear()


def _version() -> str:
    derived.code_version.cache_clear()
    return derived.code_version()


def test_the_code_version_is_kept_and_follows_every_change(package_files, monkeypatch):
    first = _version()
    assert (package_files / "cache" / "code-version").read_text().split()[1] == first
    opened = []
    with monkeypatch.context() as reading:  # the module's open, in place of the builtin
        reading.setattr(derived, "open", lambda *args, **kw: opened.append(args), raising=False)
        assert _version() == first  # kept: no file read
    assert opened == []
    # the same size and modification time, other bytes: the change time tells
    path = package_files / "a.py"
    before = path.stat()
    path.write_text("A = 2\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    changed = _version()
    assert changed != first
    path.write_text("A = 1\n")  # back as it was: the version of those bytes again
    assert _version() == first


def test_a_file_changed_just_now_is_read_again_at_the_next_start(package_files, monkeypatch):
    monkeypatch.setattr(derived, "_SETTLED", 60 * 10**9)  # a change within its clock tick
    first = _version()
    assert not (package_files / "cache" / "code-version").exists()
    (package_files / "a.py").write_text("A = 2\n")
    assert _version() != first


def test_a_code_version_that_cannot_be_kept_is_told_all_the_same(package_files):
    (package_files / "cache").write_text("a file where the folder would be")
    assert _version() == _version()
    (package_files / "cache").unlink()
    (package_files / "cache").mkdir()
    (package_files / "cache" / "code-version").write_text("not a version")
    told = _version()
    assert (package_files / "cache" / "code-version").read_text().split()[1] == told


def test_the_code_version_is_kept_all_or_nothing(package_files, monkeypatch):
    """The memo is written by the package's one atomic writer: a write that fails leaves
    the memo as it was and nothing beside it."""
    memo = package_files / "cache" / "code-version"
    first = _version()
    kept = memo.read_bytes()
    assert [path.name for path in memo.parent.iterdir()] == ["code-version"]
    (package_files / "a.py").write_text("A = 2\n")

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", fail)
    assert _version() != first  # told all the same
    assert memo.read_bytes() == kept
    assert [path.name for path in memo.parent.iterdir()] == ["code-version"]


def test_content_named_values_are_written_once(tmp_path):
    store = DerivedData(tmp_path)
    first = store.put_contents(Kind.LINES, [("part", 1), ("part", 2)])
    again = store.put_contents(Kind.LINES, [("part", 2)])
    assert again == first[1:]
    assert store.get(first[0], tuple) == ("part", 1)
    assert [(row.kind, row.entries) for row in store.summary()] == [("lines", 2)]


def test_the_least_recently_used_go_beyond_the_limit(tmp_path, monkeypatch):
    store = DerivedData(tmp_path, limit=3000)
    clock = iter(range(10**9, 10**9 + 100, 10))  # ten seconds between two entries
    monkeypatch.setattr(derived.time, "time", lambda: next(clock))
    for name in "abcd":
        store.put(entry_key(Kind.DIFF, name), b"x" * 1000)
    kept = [name for name in "abcd" if store.has(entry_key(Kind.DIFF, name))]
    assert kept == ["c", "d"]  # within four fifths of the limit, the newest
    assert sum(row.size for row in store.summary()) <= 3000


def test_clear_empties_one_kind_or_all(tmp_path):
    store = DerivedData(tmp_path)
    store.put(entry_key(Kind.DIFF, "a"), 1)
    store.put(entry_key(Kind.CHECK, "a"), 2)
    assert store.clear(["diff"]) == 1
    assert [row.kind for row in store.summary()] == ["check"]
    assert store.clear() == 1 and store.summary() == []


def test_nothing_is_kept_without_a_folder():
    store = DerivedData(None)
    store.put(entry_key(Kind.DIFF, "a"), 1)
    assert store.get(entry_key(Kind.DIFF, "a"), int) is None
    assert store.cached(entry_key(Kind.DIFF, "a"), lambda: 2, int) == 2


@pytest.mark.skipif(os.name != "posix", reason="folder modes")
def test_a_folder_other_users_can_write_to_is_not_read(tmp_path, caplog):
    DerivedData(tmp_path).put(entry_key(Kind.DIFF, "a"), 1)
    tmp_path.chmod(0o777)
    try:
        assert DerivedData(tmp_path).get(entry_key(Kind.DIFF, "a"), int) is None
    finally:
        tmp_path.chmod(0o700)
    assert "other users can write to it" in caplog.text
    assert DerivedData(tmp_path).get(entry_key(Kind.DIFF, "a"), int) == 1


def test_a_damaged_file_is_made_anew(tmp_path, caplog):
    (tmp_path / derived.FILE_NAME).write_bytes(b"not a database at all" * 100)
    store = DerivedData(tmp_path)
    store.put(entry_key(Kind.DIFF, "a"), 1)
    assert store.get(entry_key(Kind.DIFF, "a"), int) == 1
    assert "damaged" in caplog.text


def test_an_unreadable_value_is_worked_out_again(tmp_path):
    store = DerivedData(tmp_path)
    key = entry_key(Kind.DIFF, "a")
    store.put(key, 1)
    with sqlite3.connect(tmp_path / derived.FILE_NAME) as connection:
        connection.execute("UPDATE entries SET value = x'8004deadbeef'")
    assert DerivedData(tmp_path).cached(key, lambda: 2, int) == 2
    assert DerivedData(tmp_path).get(key, int) == 2


def test_the_cache_command_shows_and_clears_what_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESARCHIVE_CACHE", str(tmp_path))
    DerivedData(tmp_path).put(entry_key(Kind.DIFF, "a"), b"x" * 2**20)
    shown = CliRunner().invoke(main, ["cache"])
    assert shown.exit_code == 0
    assert str(tmp_path / derived.FILE_NAME) in shown.output
    assert "diff" in shown.output and "1 entries" in shown.output
    cleared = CliRunner().invoke(main, ["cache", "clear"])
    assert cleared.exit_code == 0 and "deleted 1 entries" in cleared.output
    assert DerivedData(tmp_path).summary() == []


def test_pausing_collection_restores_it():
    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def _sql(folder: Path, script: str, *params: object) -> list[tuple]:
    """Run SQL on a cache's file as another program would; return the rows of a query."""
    with contextlib.closing(sqlite3.connect(folder / derived.FILE_NAME)) as connection, connection:
        if params or script.lstrip().upper().startswith("SELECT"):
            return connection.execute(script, params).fetchall()
        connection.executescript(script)
        return []


def _run(*args: str, archive: Path = SAMPLE) -> Result:
    return CliRunner().invoke(main, ["--archive", str(archive), *args])


# What the sample archive's readers answer: each reads several kinds of entries.
READERS = (
    ("rule", "100.1"),
    ("diff", "2011-05-01", "2011-06-17"),
    ("history", "400.6"),
    ("check", "2011-06-17"),
)


def _answers() -> list[str]:
    kept_lines._READ.clear()  # as a new process: nothing read yet
    results = [_run(*command) for command in READERS]
    assert all(result.exit_code == 0 for result in results), [r.output for r in results]
    assert not any("Traceback" in result.output for result in results)
    return [result.stdout for result in results]


# 1. What the caller expects: a value of another type is worked out again.


def test_a_value_of_another_type_is_worked_out_again(tmp_path):
    key = entry_key(Kind.DIFF, "a")
    DerivedData(tmp_path).put(key, 5)  # as other code (or a bug) would have kept it
    assert DerivedData(tmp_path).cached(key, _release, Release) == _release()
    assert DerivedData(tmp_path).get(key, Release) == _release()  # kept again, as it should be


@pytest.mark.parametrize(
    ("expect", "good", "bad"),
    [
        (
            tuple[Rule, ...],
            (Rule("1", "a"), Rule("2", "b")),
            [(1, 2, 3), "text", (Rule("1", "a"), 2)],
        ),
        (tuple[str, int], ("a", 1), [("a", "b"), ("a", 1, 2), ["a", 1]]),
        (tuple[dict, dict], ({}, {1: 2}), [({}, []), {}]),
        (bytes, b"packed", ["packed", 5]),
    ],
)
def test_a_tuple_type_checks_its_items(tmp_path, expect, good, bad):
    store = DerivedData(tmp_path)
    store.put(entry_key(Kind.DIFF, "good"), good)
    assert store.get(entry_key(Kind.DIFF, "good"), expect) == good
    for value in bad:
        store.put(entry_key(Kind.DIFF, "bad"), value)
        assert store.get(entry_key(Kind.DIFF, "bad"), expect) is None
        assert not store.has(entry_key(Kind.DIFF, "bad"))  # dropped


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("diff", 5),
        ("references", (1, 2, 3)),
        ("lines", ((1, 2),)),  # a part's shape, its items not lines
        ("check", "text"),
        ("document", b"not marshal data"),
        ("document", marshal.dumps((1,) * 20)),  # a packed document of the wrong structure
    ],
)
def test_readers_answer_alike_when_values_are_of_another_type(derived_data, kind, value):
    before = _answers()
    keys = [key for (key,) in _sql(derived_data, "SELECT key FROM entries WHERE kind = ?", kind)]
    assert keys
    DerivedData(derived_data).put_many([(key, value) for key in keys])  # their digests good
    assert _answers() == before


# 2. A digest of each key and value: damage, or a value under another key, is never read.


def test_a_flipped_bit_is_never_read(tmp_path):
    key = entry_key(Kind.DIFF, "a")
    DerivedData(tmp_path).put(key, "players")
    ((data,),) = _sql(tmp_path, "SELECT value FROM entries WHERE key = ?", key)
    _sql(tmp_path, "UPDATE entries SET value = ?", data.replace(b"players", b"playert"))
    assert DerivedData(tmp_path).cached(key, lambda: "players", str) == "players"


def test_values_not_as_written_are_said_once_a_file(tmp_path, caplog):
    keys = [entry_key(Kind.DIFF, name) for name in "ab"]
    DerivedData(tmp_path).put_many([(key, "players") for key in keys])
    _sql(tmp_path, "UPDATE entries SET value = ?", b"playert")
    store = DerivedData(tmp_path)
    assert [store.get(key, str) for key in keys] == [None, None]
    assert [record.getMessage() for record in caplog.records] == [
        f"cache {tmp_path / derived.FILE_NAME} is damaged (values not as written): "
        "working them out again"
    ]


def _empty(path: Path) -> None:
    """Leave the store's file empty, as a full disk or a copy of the file alone would."""
    gc.collect()  # the connections of the stores this process let go (they hold its locks)
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    path.write_bytes(b"")
    os.utime(path, (10**9, 10**9))


def test_an_emptied_file_is_said_and_made_anew(tmp_path, caplog):
    key = entry_key(Kind.DIFF, "a")
    DerivedData(tmp_path / "new").put(key, 1)
    assert not caplog.records  # a file made now is no damage
    path = tmp_path / "new" / derived.FILE_NAME
    _empty(path)
    assert DerivedData(tmp_path / "new").cached(key, lambda: 2, int) == 2
    assert [record.getMessage() for record in caplog.records] == [
        f"cache {path} is damaged (an empty file): making it anew"
    ]


def test_a_build_says_an_emptied_store_in_one_line(tmp_path, derived_data):
    DerivedData(derived_data).put(entry_key(Kind.DIFF, "a"), 1)
    path = derived_data / derived.FILE_NAME
    _empty(path)
    built = CliRunner().invoke(main, ["build", "--sample", "--out", str(tmp_path / "site")])
    assert built.exit_code == 0, built.output
    assert built.stderr.splitlines() == [
        f"WARNING: cache {path} is damaged (an empty file): making it anew"
    ]
    assert path.stat().st_size > 0


def test_values_moved_between_keys_are_never_read(tmp_path):
    first, second = entry_key(Kind.DIFF, "first"), entry_key(Kind.DIFF, "second")
    DerivedData(tmp_path).put_many([(first, "first"), (second, "second")])
    rows = {
        key: (value, digest)
        for key, value, digest in _sql(tmp_path, "SELECT key, value, digest FROM entries")
    }
    for key, other in ((first, second), (second, first)):  # value and digest, swapped
        _sql(tmp_path, "UPDATE entries SET value = ?, digest = ? WHERE key = ?", *rows[other], key)
    store = DerivedData(tmp_path)
    assert store.get(first, str) is None and store.get(second, str) is None


def test_a_flipped_bit_in_a_document_is_not_printed(derived_data):
    before = _answers()
    documents = _sql(derived_data, "SELECT key, value FROM entries WHERE kind = 'document'")
    assert all(b"players" in value for _key, value in documents)
    for key, value in documents:
        flipped = value.replace(b"players", b"playerr")
        _sql(derived_data, "UPDATE entries SET value = ? WHERE key = ?", flipped, key)
    assert _answers() == before


# 3. An entry that cannot be read is a miss; a `used` not a number is as old as can be.


@pytest.mark.parametrize("used", ["'soon'", "x'00'", "1.5"])
def test_a_use_that_is_not_a_number_is_the_oldest(tmp_path, used):
    key = entry_key(Kind.DIFF, "a")
    DerivedData(tmp_path).put(key, 1)
    _sql(tmp_path, f"UPDATE entries SET used = {used}")
    assert DerivedData(tmp_path).get(key, int) == 1
    ((marked,),) = _sql(tmp_path, "SELECT used FROM entries")
    assert isinstance(marked, int) and marked > 10**9  # marked used now


# 4. The file (and its -wal, -shm) as private as the folder: pickles run code when read.


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="file modes")
@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_a_file_other_users_can_write_to_is_not_read(tmp_path, caplog, suffix):
    key = entry_key(Kind.DIFF, "a")
    store = DerivedData(tmp_path)
    store.put(key, 1)  # held open: its -wal and -shm are there
    path = tmp_path / (derived.FILE_NAME + suffix)
    path.chmod(0o666)
    other = DerivedData(tmp_path)
    assert other.get(key, int) is None and other.get(key, int) is None
    assert other.access() is Access.NONE
    warned = f"cache {path} not used: other users can write to it"
    assert caplog.text.count(warned) == 1  # once
    path.chmod(0o600)
    assert DerivedData(tmp_path).get(key, int) == 1


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown")
def test_a_file_owned_by_another_user_is_not_read(tmp_path, caplog):
    key = entry_key(Kind.DIFF, "a")
    DerivedData(tmp_path).put(key, 1)
    os.chown(tmp_path / derived.FILE_NAME, 4242, -1)
    assert DerivedData(tmp_path).get(key, int) is None
    assert f"{tmp_path / derived.FILE_NAME} not used: owned by another user" in caplog.text


# 5. Something else in the file's place: said once; tables of another layout: made anew.


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_a_folder_in_the_files_place_is_said_once(tmp_path, caplog, suffix):
    path = tmp_path / (derived.FILE_NAME + suffix)
    path.mkdir()
    store = DerivedData(tmp_path)
    store.put(entry_key(Kind.DIFF, "a"), 1)
    assert store.get(entry_key(Kind.DIFF, "a"), int) is None
    assert caplog.text.count(f"cache {path} not used: not a file") == 1
    assert store.access() is Access.NONE and store.reason.startswith("not a file")


@pytest.mark.parametrize(
    "change",
    [
        "ALTER TABLE entries DROP COLUMN digest",
        "DROP TABLE meta",
        "DROP TABLE entries; CREATE VIEW entries AS SELECT 1 AS key, 2 AS value",
        "CREATE TRIGGER kept AFTER INSERT ON entries BEGIN DELETE FROM meta; END",
        "UPDATE meta SET value = 'derived-1'",
    ],
)
def test_tables_of_another_layout_are_made_anew(tmp_path, change):
    key = entry_key(Kind.DIFF, "a")
    DerivedData(tmp_path).put(key, 1)
    _sql(tmp_path, change)
    store = DerivedData(tmp_path)
    assert store.get(key, int) is None
    store.put(key, 2)
    assert DerivedData(tmp_path).get(key, int) == 2


# 6. A file that cannot be written is read.


@pytest.fixture
def read_only_media(tmp_path, monkeypatch) -> Path:
    """A cache holding one entry (diff "a": 1), as copied onto read-only media: no -wal or
    -shm beside it, and none can be made (root may write any file: SQLite is told so)."""
    store = DerivedData(tmp_path)
    store.put(entry_key(Kind.DIFF, "a"), 1)
    store.close()
    assert sorted(path.name for path in tmp_path.iterdir()) == [derived.FILE_NAME]
    connect = sqlite3.connect

    def read_only(database, **options):
        if "immutable=1" not in str(database):  # what a WAL file needs to be read without -shm
            raise sqlite3.OperationalError("unable to open database file")
        return connect(database, **options)

    monkeypatch.setattr(derived.sqlite3, "connect", read_only)
    return tmp_path


def test_a_cache_that_cannot_be_written_is_read_and_only_slower(read_only_media):
    store = DerivedData(read_only_media)
    assert store.get(entry_key(Kind.DIFF, "a"), int) == 1
    assert store.access() is Access.READ
    assert store.cached(entry_key(Kind.DIFF, "b"), lambda: 2, int) == 2
    assert not store.has(entry_key(Kind.DIFF, "b"))


# 7. The cache command: a cache not written or not used says so; kinds of a newer version.


def test_clearing_a_cache_that_cannot_be_written_is_an_error(read_only_media, monkeypatch):
    monkeypatch.setenv("RULESARCHIVE_CACHE", str(read_only_media))
    shown = CliRunner().invoke(main, ["cache"])
    assert shown.exit_code == 0
    assert "read only (unable to open database file)" in shown.stdout
    assert "diff" in shown.stdout and "1 entries" in shown.stdout
    cleared = CliRunner().invoke(main, ["cache", "clear"])
    path = read_only_media / derived.FILE_NAME
    assert cleared.exit_code == 1
    assert cleared.output == f"Error: {path}: cannot be written (unable to open database file)\n"


def test_kinds_of_a_newer_version_are_listed_and_cleared(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESARCHIVE_CACHE", str(tmp_path))
    DerivedData(tmp_path).put(entry_key(Kind.DIFF, "a"), 1)
    _sql(tmp_path, "INSERT INTO entries VALUES ('future:1', 'future', 3, 0, x'00', x'00')")
    shown = CliRunner().invoke(main, ["cache"])
    assert shown.exit_code == 0, shown.output
    assert [line.split()[0] for line in shown.stdout.splitlines()[1:]] == [
        "diff",
        "future",
        "total",
    ]
    cleared = CliRunner().invoke(main, ["cache", "clear"])
    assert cleared.exit_code == 0 and cleared.stdout == "deleted 2 entries\n"


def test_the_cache_command_says_why_no_cache_is_used(tmp_path, monkeypatch):
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("RULESARCHIVE_CACHE", str(blocked))
    shown = CliRunner().invoke(main, ["cache"])
    assert shown.exit_code == 0
    assert shown.stdout == f"cache: {blocked / derived.FILE_NAME} not in use (not a folder)\n"
    cleared = CliRunner().invoke(main, ["cache", "clear"])
    assert cleared.exit_code == 1
    assert cleared.stderr.splitlines()[-1] == (
        f"Error: {blocked / derived.FILE_NAME}: cannot be written (not a folder)"
    )


# 8. Never a cache inside the archive: it holds nothing but releases.


def test_a_cache_inside_the_archive_keeps_nothing(tmp_path, caplog):
    archive = tmp_path / "archive"
    shutil.copytree(SAMPLE, archive)
    (tmp_path / "link").symlink_to(archive)
    for folder in (archive, archive / "en" / "cache", tmp_path / "link" / "cache"):
        assert Library(archive, DerivedData(folder)).derived.folder is None
    assert caplog.text.count("inside the archive") == 3
    beside = tmp_path / "cache"
    assert Library(archive, DerivedData(beside)).derived.folder == beside
    assert Library(archive, DerivedData(tmp_path)).derived.folder == tmp_path  # its parent


def test_commands_with_the_cache_inside_the_archive_write_nothing_there(tmp_path, monkeypatch):
    archive = tmp_path / "archive"
    shutil.copytree(SAMPLE, archive)
    monkeypatch.setenv("RULESARCHIVE_CACHE", str(archive))
    result = _run("rule", "100.1", archive=archive)
    assert result.exit_code == 0 and result.stdout.startswith("100.1 ")
    assert "inside the archive" in result.stderr
    assert not list(archive.glob(f"{derived.FILE_NAME}*"))


# 9. Pruning gives the pages back; a file is never made without giving them back.


def test_pruning_gives_the_pages_back(tmp_path):
    store = DerivedData(tmp_path, limit=2**20)
    for name in range(16):
        store.put(entry_key(Kind.DIFF, str(name)), os.urandom(2**19))  # 8 MB put, 1 MB kept
    ((free,),) = _sql(tmp_path, "SELECT * FROM pragma_freelist_count")
    ((pages,),) = _sql(tmp_path, "SELECT * FROM pragma_page_count")
    ((size,),) = _sql(tmp_path, "SELECT * FROM pragma_page_size")
    assert free == 0 and pages * size < 2 * 2**20


def test_a_file_made_without_giving_pages_back_is_made_anew(tmp_path):
    with contextlib.closing(sqlite3.connect(tmp_path / derived.FILE_NAME)) as connection:
        connection.execute("PRAGMA journal_mode = WAL")  # as a first open racing another did
        for statement in derived._SCHEMA.values():
            connection.execute(statement)
        connection.execute("INSERT INTO meta VALUES ('format', ?)", (derived._FORMAT,))
        connection.commit()
    DerivedData(tmp_path).put(entry_key(Kind.DIFF, "a"), 1)
    assert _sql(tmp_path, "SELECT * FROM pragma_auto_vacuum") == [(2,)]
    assert DerivedData(tmp_path).get(entry_key(Kind.DIFF, "a"), int) == 1


# 10. A limit that is not a number is said; the archive's lock is its owner's to write.


@pytest.mark.parametrize("given", ["abc", "1.5", ""])
def test_a_limit_that_is_not_a_number_is_said_once(monkeypatch, caplog, given):
    monkeypatch.setenv(derived.LIMIT_VARIABLE, given)
    derived._limit.cache_clear()
    assert DerivedData(None).limit == DerivedData(None).limit == derived.DEFAULT_LIMIT
    warned = f"{derived.LIMIT_VARIABLE}={given!r} is not a whole number of megabytes"
    assert caplog.text.count(warned) == 1


@pytest.mark.skipif(os.name != "posix", reason="file modes")
def test_the_archive_lock_only_its_owner_writes(tmp_path):
    old = os.umask(0)
    try:
        with Archive(tmp_path, derived=DerivedData(None)).lock():
            pass
    finally:
        os.umask(old)
    assert (tmp_path / ".lock").stat().st_mode & 0o777 == 0o644


def _listing_archive(tmp_path: Path) -> Path:
    """A copy of the sample archive whose files changed long enough ago to be trusted."""
    root = tmp_path / "archive"
    shutil.copytree(sample_archive(), root, ignore=shutil.ignore_patterns("*.tsv", ".lock"))
    return root


def test_the_listing_is_kept_by_the_stamps_of_its_files(tmp_path, monkeypatch):
    monkeypatch.setattr(derived, "_SETTLED", -(10**12))  # every file still for long enough
    root, store = _listing_archive(tmp_path), DerivedData(tmp_path / "cache")
    first = Archive(root, derived=store).releases("en")
    monkeypatch.setattr(store_module, "_read_release", _not_read)
    assert Archive(root, derived=store).releases("en") == first  # kept: no release.json read
    monkeypatch.undo()
    monkeypatch.setattr(derived, "_SETTLED", -(10**12))
    release_json = root / "en" / first[-1].effective_date.isoformat() / "release.json"
    release_json.write_text(release_json.read_text().replace(first[-1].set_name, "Renamed"))
    again = Archive(root, derived=store).releases("en")  # another file: read afresh
    assert again[-1].set_name == "Renamed" and again[:-1] == first[:-1]


def test_a_listing_of_files_changed_just_now_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(derived, "_SETTLED", 60 * 10**9)  # a change within its clock tick
    root, store = _listing_archive(tmp_path), DerivedData(tmp_path / "cache")
    listed = Archive(root, derived=store).releases("en")
    assert listed and Kind.LISTING not in {kept.kind for kept in store.summary()}


def test_a_snapshots_listing_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(derived, "_SETTLED", -(10**12))
    root, store = _listing_archive(tmp_path), DerivedData(tmp_path / "cache")
    with Archive(root, derived=store).snapshot() as pinned:
        listed = pinned.releases("en")
    assert listed and Kind.LISTING not in {kept.kind for kept in store.summary()}


def _not_read(*_args: object, **_kwargs: object) -> Release:
    raise AssertionError("release.json read although its listing was kept")
