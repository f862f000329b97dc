"""Time this differ against `git diff --no-index --word-diff` on the same normalised texts.

Usage: python benchmarks/diff.py [--archive DIR] [--doubled] [--differ-only]   (default: ingest
../shared into a temp dir; --doubled: also history's memory with every English release ingested
twice; --differ-only: the pairs and the chain only, e.g. run interleaved against an older
checkout put first on PYTHONPATH)
Targets (2-core machine): a consecutive pair no slower than git (ratio <= 1); the 2009 rewrite
under 10 s; the whole English chain, loading releases from the archive, under 10 s; < 500 MB.
Also `rulesarchive history 400.6` as a whole process, cold (no derived data: `rulesarchive
cache clear` first) and warm, with peak memory, beside `git log -L` on a repository of one
commit per release (`rulesarchive export git`). Target: warm <= 0.3 s, memory flat in the
number of releases. The derived data lives in a temporary folder of this run
(RULESARCHIVE_CACHE, in process and for every process started), never in the user's own cache.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import itertools
import os
import pkgutil
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulesarchive.corpus.lookup import find_release
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.classify import diff_documents
from rulesarchive.scraper.ingest import Overrides, ingest_paths

from rulesarchive import differ

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
PAIRS = [("2024-11-08", "2025-02-07"), ("2018-10-05", "2019-01-25"), ("2009-05-01", "2009-07-08")]


REPEATS = 5  # pairs are timed as the best of this many runs, for both tools


def git_word_diff(archive: Archive, old, new, repeats: int = 1) -> float:
    """Time git's word diff of the two releases' normalised rules.txt (best of `repeats`)."""
    paths = [str(archive.root / release.key / "rules.txt") for release in (old, new)]
    command = ["git", "diff", "--no-index", "--word-diff", *paths]
    return min(timed(lambda: subprocess.run(command, capture_output=True)) for _ in range(repeats))


def ours(archive: Archive, old, new) -> float:
    """Time this differ on the two loaded documents (best of REPEATS)."""
    documents = archive.load(old), archive.load(new)

    def cold_diff() -> None:
        forget()  # each run starts with nothing remembered
        diff_documents(*documents)

    return min(timed(cold_diff) for _ in range(REPEATS))


def forget() -> None:
    """Clear everything the differ remembers between diffs: its caches, the kept word counts."""
    for module in pkgutil.iter_modules(differ.__path__):
        for name, value in vars(
            importlib.import_module(f"{differ.__name__}.{module.name}")
        ).items():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
            elif name in ("_FREQUENCIES", "_FIELDS"):  # kept by the releases' identity
                value.clear()


def environment() -> dict[str, str]:
    """Return the environment of every timed process: bytecode cached as an install has it."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def history_runs(archive: Archive, number: str = "400.6") -> dict[str, float]:
    """Time `rulesarchive history NUMBER` as a user runs it: cold (no derived data), warm (best
    of 5).

    Cold diffs every pair and traces the lines of descent, kept by chapter; warm reads the
    rule's chapter. Peak memory of each, whole process.
    """
    arguments = ["--archive", str(archive.root), "history", number]
    command = [sys.executable, "-m", "rulesarchive", *arguments]
    forget = [sys.executable, "-m", "rulesarchive", "cache", "clear"]

    def run() -> None:
        subprocess.run(command, capture_output=True, check=True, env=environment())

    subprocess.run(forget, capture_output=True, check=True)
    cold_peak = peak_memory(arguments)  # the cold run, measured
    subprocess.run(forget, capture_output=True, check=True)
    cold = timed(run)
    warm = min(timed(run) for _ in range(5))
    return {"cold": cold, "warm": warm, "cold_peak": cold_peak, "warm_peak": peak_memory(arguments)}


def peak_memory(arguments: list[str]) -> float:
    """Run the CLI with these arguments; return its peak memory in MB.

    Through /usr/bin/time: a child forked from this (large) process would count this
    process's memory as its own (Linux keeps the high-water mark across exec).
    """
    command = ["/usr/bin/time", "-f", "%M", sys.executable, "-m", "rulesarchive", *arguments]
    result = subprocess.run(command, capture_output=True, text=True, check=True, env=environment())
    return int(result.stderr.strip().splitlines()[-1]) / 1024


def doubled_history_peak(
    archive: Archive, folder: Path, number: str = "400.6"
) -> tuple[int, float]:
    """Return the releases and warm `history` peak memory of the archive with its releases doubled.

    The copy holds every English release again, 30 years later (same texts, new dates; stored
    with --force, since the neighbour check takes the oldest, short ones for damaged copies).
    """
    doubled = Archive(folder / "doubled")
    shutil.copytree(archive.root / "en", doubled.root / "en")
    for path in sorted((SHARED / "en").glob("*.txt")):
        day = dt.date.fromisoformat(path.stem)
        later = Overrides(effective_date=day.replace(year=day.year + 30), force=True)
        ingest_paths(doubled, [path], later)
    arguments = ["--archive", str(doubled.root), "history", number]
    subprocess.run([sys.executable, "-m", "rulesarchive", *arguments], capture_output=True)
    return len(doubled.releases("en")), peak_memory(arguments)


def git_log_follow(archive: Archive, folder: Path, number: str = "400.6") -> float:
    """Time `git log -L` of the rule's line in a repository of one commit per release."""
    repository = folder / "rules-git"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "rulesarchive",
            "--archive",
            str(archive.root),
            "export",
            "git",
            str(repository),
        ],
        capture_output=True,
        check=True,
    )
    chapter = number.split(".")[0]
    command = ["git", "-C", str(repository), "log", "-L", f"/^{number} /,+1:rules/{chapter}.txt"]
    return min(
        timed(lambda: subprocess.run(command, capture_output=True, check=True)) for _ in range(3)
    )


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--archive", type=Path)
    parser.add_argument(
        "--doubled", action="store_true", help="Also measure history with the releases doubled."
    )
    parser.add_argument(
        "--differ-only", action="store_true", help="Only the pairs and the chain, not git's."
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["RULESARCHIVE_CACHE"] = str(Path(folder) / "derived")
        archive = Archive(args.archive or Path(folder) / "archive")
        if args.archive is None:
            ingest_paths(archive, sorted((SHARED / "en").glob("*.txt")))
        print(f"{'pair':27} {'rulesarchive':>12} {'git':>8} {'ratio':>6}")
        for old_ref, new_ref in PAIRS:
            old, new = find_release(archive, old_ref), find_release(archive, new_ref)
            mine, git = ours(archive, old, new), git_word_diff(archive, old, new, REPEATS)
            print(f"{old_ref} -> {new_ref}   {mine:10.3f} s {git:6.3f} s {mine / git:6.2f}")
        releases = archive.releases("en")
        forget()
        start, cpu = time.perf_counter(), time.process_time()
        previous = archive.load(releases[0])
        for release in releases[1:]:
            current = archive.load(release)
            diff_documents(previous, current)
            previous = current
        chain, cpu = time.perf_counter() - start, time.process_time() - cpu
        label = f"chain of {len(releases) - 1} pairs"
        if args.differ_only:
            print(f"{label:27} {chain:10.3f} s (CPU {cpu:.3f} s, load {os.getloadavg()[0]:.1f})")
            return
        git_chain = sum(git_word_diff(archive, a, b) for a, b in itertools.pairwise(releases))
        print(f"{label:27} {chain:10.3f} s {git_chain:6.3f} s {chain / git_chain:6.2f}")
        print(f"chain CPU {cpu:.3f} s, load average {os.getloadavg()[0]:.1f}")
        runs = history_runs(archive)
        git_log = git_log_follow(archive, Path(folder))
        for kind in ("cold", "warm"):
            label = f"history 400.6, {kind}"
            print(f"{label:27} {runs[kind]:10.3f} s {git_log:6.3f} s {runs[kind] / git_log:6.2f}")
        print(
            f"history peak memory (whole process): cold {runs['cold_peak']:.0f} MB, "
            f"warm {runs['warm_peak']:.0f} MB ({len(releases)} releases)"
        )
        if args.doubled:
            count, peak = doubled_history_peak(archive, Path(folder))
            print(f"history warm, releases doubled: peak memory {peak:.0f} MB ({count} releases)")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
