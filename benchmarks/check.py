"""Time `rulesarchive check --all` over the whole real archive, as a user runs it.

Usage: python benchmarks/check.py [--archive DIR]   (default: ingest ../shared into a temp dir)
Each run is the whole process (`python -m rulesarchive ... check ...`: start-up, loading every
release, the lines of descent, the check, the output). The first run diffs every pair of
releases and caches the diffs in the archive; then the check is timed with the diffs cached,
and with its own result cached (`ARCHIVE/.cache/checks`, kept by the releases' content).
Target (2-core machine): `check --all` over the real archive within 10 s, whole process.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import ingest_paths

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
REPEATS = 3
RUNS = [  # label, arguments, repeats, whether the check's own cache is emptied before each run
    ("check --all (en), first run", ["check", "--all"], 1, True),
    ("check --all (en), diffs cached", ["check", "--all"], REPEATS, True),
    ("check --all (en), check cached", ["check", "--all"], REPEATS, False),
    ("check (en, newest release)", ["check"], REPEATS, False),
    ("check --all --lang zh-Hans, not cached", ["check", "--all", "--lang", "zh-Hans"], 1, True),
]


def timed(archive: Path, arguments: list[str], afresh: bool) -> tuple[float, float]:
    """Run the command in a fresh process; return its wall-clock and CPU (user + system) seconds.

    The CPU time says what the run costs whatever else the shared machine is doing. `afresh`
    empties the check's cache first (the diffs' cache stays).
    """
    if afresh:
        shutil.rmtree(archive / ".cache" / "checks", ignore_errors=True)
    command = [sys.executable, "-m", "rulesarchive", "--archive", str(archive), *arguments]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(archive: Path) -> None:
    """Print the best time of each run and the largest process's peak memory."""
    print(f"{'run':40} {'seconds':>8} {'CPU s':>7}")
    for label, arguments, repeats, afresh in RUNS:
        wall, cpu = min(timed(archive, arguments, afresh) for _ in range(repeats))
        print(f"{label:40} {wall:8.2f} {cpu:7.2f}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--archive", type=Path, help="An archive already holding the releases.")
    given = parser.parse_args().archive
    if given is not None:
        measure(given)
        return
    with tempfile.TemporaryDirectory() as folder:
        archive = Archive(Path(folder) / "archive")
        paths = sorted((SHARED / "en").glob("*.txt"))
        paths += sorted((SHARED / "orig" / "en").iterdir())
        paths += sorted((SHARED / "zh-Hans").glob("*.txt"))
        ingest_paths(archive, paths)
        measure(archive.root)


if __name__ == "__main__":
    main()
