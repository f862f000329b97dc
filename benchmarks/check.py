"""Time `rulesarchive check --all` over the whole real archive, as a user runs it.

Usage: python benchmarks/check.py [--archive DIR]   (default: ingest ../shared into a temp dir)
Each run is the whole process (`python -m rulesarchive ... check ...`: start-up, loading every
release, the lines of descent, the check, the output). The first run starts with no derived
data: it diffs every pair of releases and keeps the diffs and the lines of descent; then the
check is timed with those kept (its own entries, kind `check`, removed before each run), and
with its own result kept. The derived data lives in a temporary folder of this run
(RULESARCHIVE_CACHE, in process and for every process started), never in the user's own cache.
Target (2-core machine): `check --all` over the real archive within 10 s, whole process.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulesarchive.corpus.derived import DerivedData, Kind
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import ingest_paths

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
REPEATS = 3
EVERYTHING: tuple[Kind, ...] = ()  # no kind named
CHECKS = (Kind.CHECK,)
RUNS = [  # label, arguments, repeats, the kinds of derived data removed before each run (or None)
    ("check --all (en), first run", ["check", "--all"], 1, EVERYTHING),
    ("check --all (en), diffs kept", ["check", "--all"], REPEATS, CHECKS),
    ("check --all (en), check kept", ["check", "--all"], REPEATS, None),
    ("check (en, newest release)", ["check"], REPEATS, None),
    ("check --all --lang zh-Hans, not kept", ["check", "--all", "--lang", "zh-Hans"], 1, CHECKS),
]


def environment() -> dict[str, str]:
    """Return the environment of every timed process: bytecode cached as an install has it."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def timed(
    archive: Path, arguments: list[str], forget: tuple[Kind, ...] | None
) -> tuple[float, float]:
    """Run the command in a fresh process; return its wall-clock and CPU (user + system) seconds.

    The CPU time says what the run costs whatever else the shared machine is doing. `forget`
    names the kinds of derived data removed first (none named: everything), untimed.
    """
    if forget is not None:
        derived = DerivedData.default()  # this run's (RULESARCHIVE_CACHE)
        derived.clear(forget)
        derived.close()
    command = [sys.executable, "-m", "rulesarchive", "--archive", str(archive), *arguments]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True, env=environment())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(archive: Path) -> None:
    """Print the best time of each run and the largest process's peak memory."""
    print(f"{'run':40} {'seconds':>8} {'CPU s':>7}")
    for label, arguments, repeats, forget in RUNS:
        wall, cpu = min(timed(archive, arguments, forget) for _ in range(repeats))
        print(f"{label:40} {wall:8.2f} {cpu:7.2f}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--archive", type=Path, help="An archive already holding the releases.")
    given = parser.parse_args().archive
    with tempfile.TemporaryDirectory() as folder:
        os.environ["RULESARCHIVE_CACHE"] = str(Path(folder) / "derived")
        if given is not None:
            measure(given)
            return
        archive = Archive(Path(folder) / "archive")
        paths = sorted((SHARED / "en").glob("*.txt"))
        paths += sorted((SHARED / "orig" / "en").iterdir())
        paths += sorted((SHARED / "zh-Hans").glob("*.txt"))
        ingest_paths(archive, paths)
        measure(archive.root)


if __name__ == "__main__":
    main()
