"""Ingest the shared archive into fresh folders; print documents, rules, time, CPU, memory.

Usage: python benchmarks/ingest_all.py [--shared ../shared/cr-archive] [--runs N]
                                       [--against OTHER/bin/rulesarchive]
Two measures: in process, the whole shared archive (English TXT, the originals, zh-Hans);
then the 129 English TXT files as a user runs it, `rulesarchive --archive DIR ingest
../shared/cr-archive/en/*.txt` into an empty archive, each run a whole process (hyperfine when
it is installed, else this script's own loop), beside the same ingest in process.
With --against, only the whole-process runs: this checkout's command and another's (say, an
older commit's worktree with its own environment) taking turns, each run's wall-clock and CPU
seconds (user + system, the process and its workers; each part too) printed with the load
average.
Every run starts with no derived data: it lives in a temporary folder of this run
(RULESARCHIVE_CACHE, in process and for every process started), emptied before each
whole-process run, never in the user's own cache (an older installation keeps its own in
ARCHIVE/.cache, emptied with the archive).
Targets (2-core machine): the whole archive under 15 s and 500 MB; the 129 TXT in 5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import ingest_paths

DEFAULT_SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"


def main() -> None:
    """Print the in-process figures of the whole archive, then the 129 TXT as a whole process."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--runs", type=int, default=5, help="Whole-process runs (default 5).")
    parser.add_argument(
        "--against", type=Path, help="Another rulesarchive command to alternate with."
    )
    args = parser.parse_args()
    print_machine()
    texts = sorted((args.shared / "en").glob("*.txt"))
    with tempfile.TemporaryDirectory(prefix="bench-ingest-derived-") as scratch:
        derived = Path(scratch) / "derived"
        os.environ["RULESARCHIVE_CACHE"] = str(derived)  # inherited by every process started
        if args.against:
            print_interleaved(texts, args.against, args.runs, derived)
            return
        everything = texts + sorted((args.shared / "orig" / "en").iterdir())
        everything += sorted((args.shared / "zh-Hans").glob("*.txt"))
        print_in_process(everything, "whole shared archive")
        print_in_process(texts, "English TXT")
        print_whole_process(texts, args.runs, derived)


def environment() -> dict[str, str]:
    """Return the environment of every timed process: bytecode cached as an install has it."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def print_machine() -> None:
    """Print the cores, Python and the load average: the figures follow the machine's load."""
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load {load}")


def print_in_process(paths: list[Path], label: str) -> None:
    """Ingest into a temp archive in this process; print time, CPU (here and workers), memory."""
    megabytes = sum(path.stat().st_size for path in paths) / 1e6
    children_before = _children_cpu()
    with tempfile.TemporaryDirectory() as folder:
        archive = Archive(folder)
        start, cpu = time.perf_counter(), time.process_time()
        outcomes = ingest_paths(archive, paths)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        stored = archive.releases()
    workers = _children_cpu() - children_before
    rules = sum(release.rule_count for release in stored)
    failed = [outcome for outcome in outcomes if outcome.status == "failed"]
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"\n{label}, in process")
    print(f"documents read      {len(paths)} ({megabytes:.1f} MB)")
    print(f"releases stored     {len(stored)} ({len(failed)} refused)")
    print(f"rules               {rules}")
    print(f"seconds             {seconds:.2f}")
    print(f"CPU seconds         {cpu:.2f} main process, {workers:.2f} workers")
    print(f"throughput          {megabytes / seconds:.1f} MB/s")
    print(f"peak memory         {parent:.0f} MB main process, {largest:.0f} MB largest worker")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def print_whole_process(paths: list[Path], runs: int, derived: Path) -> None:
    """Time `rulesarchive --archive DIR ingest FILES` into an empty DIR, as whole processes."""
    script = Path(sys.executable).parent / "rulesarchive"
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as scratch:
        target = Path(scratch) / "archive"
        command = [str(script), "--archive", str(target), "ingest", *map(str, paths)]
        emptied = [target, derived]
        result = _hyperfine(command, emptied, runs) if shutil.which("hyperfine") else None
        tool = "hyperfine" if result else "own loop"
        times = result["times"] if result else _own_loop(command, emptied, runs)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"\n{len(paths)} English TXT, whole process ({tool}, {runs} runs, load after {load})")
    print(
        f"seconds             mean {statistics.mean(times):.2f}, median "
        f"{statistics.median(times):.2f}, best {min(times):.2f}, worst {max(times):.2f}"
    )
    if result:
        user, system = result["user"], result["system"]
        print(f"CPU seconds         {user:.2f} user + {system:.2f} system (mean)")


def print_interleaved(paths: list[Path], other: Path, runs: int, derived: Path) -> None:
    """Run this checkout's ingest and another's in turn (which goes first alternates)."""
    ours = Path(sys.executable).parent / "rulesarchive"
    figures: dict[str, list[tuple[float, float, float]]] = {"this": [], "other": []}
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as scratch:
        target = Path(scratch) / "archive"
        for round_ in range(runs):
            order = [("this", ours), ("other", other)]
            for label, script in order if round_ % 2 == 0 else order[::-1]:
                _empty([target, derived])
                command = [str(script), "--archive", str(target), "ingest", *map(str, paths)]
                load = os.getloadavg()[0]
                seconds, user, system = _timed(command)
                figures[label].append((seconds, user, system))
                print(
                    f"{label:6} {seconds:6.2f} s wall, {user + system:6.2f} s CPU "
                    f"({user:.2f} user + {system:.2f} system; load {load:.1f})"
                )
    for label, measured in figures.items():
        walls = [seconds for seconds, _user, _system in measured]
        cpus = [user + system for _seconds, user, system in measured]
        print(
            f"{label:6} wall median {statistics.median(walls):.2f} best {min(walls):.2f}; "
            f"CPU median {statistics.median(cpus):.2f} best {min(cpus):.2f} "
            f"(user median {statistics.median(m[1] for m in measured):.2f}, "
            f"system median {statistics.median(m[2] for m in measured):.2f})"
        )


def _timed(command: list[str]) -> tuple[float, float, float]:
    """Return the wall-clock, user and system CPU seconds (with children) of a command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment())
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def _hyperfine(command: list[str], emptied: list[Path], runs: int) -> dict | None:
    """Return hyperfine's result (times, user, system), each run with these folders removed.

    None if it fails.
    """
    with tempfile.NamedTemporaryFile(suffix=".json") as export:
        done = subprocess.run(
            [
                "hyperfine",
                "-N",
                "--style",
                "none",
                "--runs",
                str(runs),
                "--prepare",
                shlex.join(["rm", "-rf", *map(str, emptied)]),
                "--export-json",
                export.name,
                shlex.join(command),
            ],
            capture_output=True,
            text=True,
            env=environment(),
        )
        if done.returncode != 0:
            return None
        return json.loads(Path(export.name).read_text())["results"][0]


def _own_loop(command: list[str], emptied: list[Path], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        _empty(emptied)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment())
        times.append(time.perf_counter() - start)
    return times


def _empty(folders: list[Path]) -> None:
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
