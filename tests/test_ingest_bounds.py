"""One file costs only itself: a killed worker, a file past the memory or time bound."""

import os
import signal

import pytest
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper import ingest
from rulesarchive.scraper.ingest import ingest_paths
from rulesarchive.system import processes

from tests.samples import modern_text

DATES = ["November 8, 2024", "February 7, 2025", "April 4, 2025", "June 6, 2025", "July 25, 2025"]

pytestmark = pytest.mark.skipif(not processes._BOUNDED, reason="rlimits and CPU timers are Linux's")


def _files(tmp_path, hostile_at: int) -> list:
    paths = []
    for at, date in enumerate(DATES):
        paths.append(tmp_path / ("hostile.txt" if at == hostile_at else f"{at}.txt"))
        paths[-1].write_text(modern_text(date=date))
    return paths


def _reading_hostile(monkeypatch, action) -> None:
    """Make reading hostile.txt do `action` in the worker (the pool forks after this)."""
    read = ingest._read_data

    def reading(data, path, overrides):
        if path.name == "hostile.txt":
            action()
        return read(data, path, overrides)

    monkeypatch.setattr(ingest, "_read_data", reading)


def test_a_killed_worker_costs_only_its_file(tmp_path, monkeypatch):
    # What the OOM killer does to the worker reading it: the pool breaks, the others go on.
    _reading_hostile(monkeypatch, lambda: os.kill(os.getpid(), signal.SIGKILL))
    archive = Archive(tmp_path / "archive")
    outcomes = ingest_paths(archive, _files(tmp_path, hostile_at=1))
    assert [o.status for o in outcomes] == ["added", "failed", "added", "added", "added"]
    assert outcomes[1].message.endswith(
        "hostile.txt: the process reading it was killed "
        "(past 1 GB of memory or 60 s, or by the system)"
    )
    assert len(archive.releases("en")) == 4


def test_a_file_needing_more_than_the_memory_bound_is_refused_in_one_line(tmp_path, monkeypatch):
    _reading_hostile(monkeypatch, lambda: bytearray(3 * 2**30))  # 3 GB, as the Flate PDF took
    outcomes = ingest_paths(Archive(tmp_path / "archive"), _files(tmp_path, hostile_at=0))
    assert [o.status for o in outcomes] == ["failed", "added", "added", "added", "added"]
    assert outcomes[0].message.endswith(
        "hostile.txt: refused: reading it takes more than 1 GB of memory"
    )


def test_a_file_past_the_time_bound_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(processes, "TIME_LIMIT", 1)

    def spin():
        while True:
            pass

    _reading_hostile(monkeypatch, spin)
    outcomes = ingest_paths(Archive(tmp_path / "archive"), _files(tmp_path, hostile_at=4))
    assert [o.status for o in outcomes] == ["added", "added", "added", "added", "failed"]
    assert "hostile.txt: refused: reading it took more than 1 s" in outcomes[4].message
