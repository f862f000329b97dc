"""The store of derived data: values come back equal, computed once, kept by what they are
made from, in the user's own folder, within a size limit."""

from __future__ import annotations

import datetime as dt
import gc
import os
import sqlite3

import pytest
from click.testing import CliRunner
from rulesarchive.corpus import derived
from rulesarchive.corpus.derived import DerivedData, Kind, collection_paused, entry_key
from rulesarchive.corpus.model import Provenance, Release, Rule

from rulesarchive.cli import main


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
    assert DerivedData(tmp_path).cached(key, compute) == value
    assert DerivedData(tmp_path).cached(key, compute) == value  # another process, as it were
    assert len(calls) == 1


def test_a_shared_object_stays_one_object(tmp_path):
    rule = Rule("400.6", "text")
    key = entry_key(Kind.DIFF, "shared")
    DerivedData(tmp_path).cached(key, lambda: (rule, rule))
    first, second = DerivedData(tmp_path).cached(key, lambda: (None, None))  # read back
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


def test_content_named_values_are_written_once(tmp_path):
    store = DerivedData(tmp_path)
    first = store.put_contents(Kind.LINES, [("part", 1), ("part", 2)])
    again = store.put_contents(Kind.LINES, [("part", 2)])
    assert again == first[1:]
    assert store.get(first[0]) == ("part", 1)
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
    assert store.get(entry_key(Kind.DIFF, "a")) is None
    assert store.cached(entry_key(Kind.DIFF, "a"), lambda: 2) == 2


@pytest.mark.skipif(os.name != "posix", reason="folder modes")
def test_a_folder_other_users_can_write_to_is_not_read(tmp_path, caplog):
    DerivedData(tmp_path).put(entry_key(Kind.DIFF, "a"), 1)
    tmp_path.chmod(0o777)
    try:
        assert DerivedData(tmp_path).get(entry_key(Kind.DIFF, "a")) is None
    finally:
        tmp_path.chmod(0o700)
    assert "other users can write to it" in caplog.text
    assert DerivedData(tmp_path).get(entry_key(Kind.DIFF, "a")) == 1


def test_a_damaged_file_is_made_anew(tmp_path, caplog):
    (tmp_path / derived.FILE_NAME).write_bytes(b"not a database at all" * 100)
    store = DerivedData(tmp_path)
    store.put(entry_key(Kind.DIFF, "a"), 1)
    assert store.get(entry_key(Kind.DIFF, "a")) == 1
    assert "damaged" in caplog.text


def test_an_unreadable_value_is_worked_out_again(tmp_path):
    store = DerivedData(tmp_path)
    key = entry_key(Kind.DIFF, "a")
    store.put(key, 1)
    with sqlite3.connect(tmp_path / derived.FILE_NAME) as connection:
        connection.execute("UPDATE entries SET value = x'8004deadbeef'")
    assert DerivedData(tmp_path).cached(key, lambda: 2) == 2
    assert DerivedData(tmp_path).get(key) == 2


def test_a_read_only_cache_is_read_and_only_slower(tmp_path, monkeypatch):
    store = DerivedData(tmp_path)
    store.put(entry_key(Kind.DIFF, "a"), 1)
    store.close()
    connect = sqlite3.connect  # as on read-only media (root may write any file)
    monkeypatch.setattr(
        derived.sqlite3,
        "connect",
        lambda path, **kw: connect(f"file:{path}?mode=ro", uri=True, **kw),
    )
    read_only = DerivedData(tmp_path)
    assert read_only.get(entry_key(Kind.DIFF, "a")) == 1
    assert read_only.cached(entry_key(Kind.DIFF, "b"), lambda: 2) == 2
    assert not read_only.has(entry_key(Kind.DIFF, "b"))


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
