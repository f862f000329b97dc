"""Time `export sqlite` and `export git` of the whole shared archive, and a query of the result.

Usage: python benchmarks/export.py
Ingests ../shared/cr-archive (English and zh-Hans) into a temporary archive, then runs each
export twice in a child process (its peak memory is its own; its forked workers' largest peak
beside it, with the CPU time of both): from nothing (no derived data) and again (the rerun,
diffs and lines of descent kept), with the load average after each. The derived data lives in
a temporary folder of this run (RULESARCHIVE_CACHE), never in the user's own cache. Then
times the query of every version of rule 400.6 in the SQLite file, a row per release and a row
per version (best of 20). Targets (2-core machine): sqlite <= 30 s, git <= 60 s, both <= 500 MB;
the query <= 10 ms.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import ingest_paths

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
CHILD = """
import json, resource, sys
from pathlib import Path
from rulesarchive.export import export_archive
from rulesarchive.library import Library
report = export_archive(Library(sys.argv[1]), sys.argv[2], Path(sys.argv[3]))
me, workers = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(json.dumps({"releases": report.releases, "seconds": report.seconds,
                  "peak_mb": me.ru_maxrss / 1024, "worker_peak_mb": workers.ru_maxrss / 1024,
                  "cpu": me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime}))
"""
EVERY_VERSION = """
SELECT releases.effective_date, rules.number, rules.text
FROM rules JOIN releases ON releases.id = rules.release_id
WHERE rules.line_id = (
    SELECT rules.line_id FROM rules JOIN releases ON releases.id = rules.release_id
    WHERE releases.language = 'en' AND rules.number = '400.6'
    ORDER BY releases.effective_date DESC LIMIT 1)
ORDER BY releases.effective_date
"""
EVERY_CHANGE = """
SELECT first.effective_date, last.effective_date, versions.number, versions.kind, versions.text
FROM versions JOIN lines ON lines.id = versions.line
JOIN releases AS first ON first.id = versions.first
JOIN releases AS last ON last.id = versions.last
WHERE lines.language = 'en' AND lines.line_id = (
    SELECT rules.line_id FROM rules JOIN releases ON releases.id = rules.release_id
    WHERE releases.language = 'en' AND rules.number = '400.6'
    ORDER BY releases.effective_date DESC LIMIT 1)
ORDER BY versions.position
"""


def timed_export(archive: Path, fmt: str, dest: Path) -> dict:
    """Export in a child process; return its report."""
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(archive), fmt, str(dest)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def timed_query(path: Path, query: str = EVERY_VERSION) -> tuple[int, float]:
    """Return the rows of a query (every version of 400.6) and the best time of 20 runs, in ms."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    best = float("inf")
    for _ in range(20):
        started = time.perf_counter()
        rows = connection.execute(query).fetchall()
        best = min(best, time.perf_counter() - started)
    connection.close()
    return len(rows), best * 1000


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        derived = root / "derived"
        os.environ["RULESARCHIVE_CACHE"] = str(derived)  # the exports'
        archive = Archive(root / "archive", cache=False)
        english = sorted((SHARED / "en").glob("*.txt"))
        ingest_paths(archive, english + sorted((SHARED / "zh-Hans").glob("*.txt")))
        print(
            f"{'export':22} {'releases':>8} {'seconds':>8} {'CPU s':>6} {'peak MB':>8} "
            f"{'worker MB':>9} {'size MB':>8} {'load':>5}"
        )
        for fmt, dest in (("sqlite", root / "rules.sqlite"), ("git", root / "rules.git")):
            for label in ("from nothing", "rerun"):
                if label == "from nothing":
                    shutil.rmtree(derived, ignore_errors=True)
                figures = timed_export(archive.root, fmt, dest)
                load = os.getloadavg()[0]
                size = sum(p.stat().st_size for p in [dest, *dest.rglob("*")] if p.is_file())
                print(
                    f"{fmt + ', ' + label:22} {figures['releases']:8d} "
                    f"{figures['seconds']:8.1f} {figures['cpu']:6.1f} {figures['peak_mb']:8.0f} "
                    f"{figures['worker_peak_mb']:9.0f} {size / 2**20:8.0f} {load:5.1f}"
                )
        rows, milliseconds = timed_query(root / "rules.sqlite")
        print(f"every version of 400.6, a row per release: {rows} rows in {milliseconds:.2f} ms")
        rows, milliseconds = timed_query(root / "rules.sqlite", EVERY_CHANGE)
        print(f"every version of 400.6, a row per version: {rows} rows in {milliseconds:.2f} ms")


if __name__ == "__main__":
    main()
