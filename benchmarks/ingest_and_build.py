"""Time the main job as a user runs it: ingest the shared archive, build the site, rebuild.

Usage: python benchmarks/ingest_and_build.py [--runs N] [--against OTHER/bin/rulesarchive]
Whole processes of the installed `rulesarchive`, each round in a new folder (archive, site and
derived data): `ingest` of the README main job's files (../shared/cr-archive/en/*.txt,
orig/en/*, zh-Hans/*.txt, ko/*.txt; some originals are refused on purpose, so it exits with 1)
but the newest English release, held back for later; `build` from nothing (no derived data, no
site); `build` again with nothing changed; `ingest` of the held-back release (which prepares its
diff and check, as for any release added at the end) and `build` again. The derived data
lives in the round's folder (RULESARCHIVE_CACHE), never in the user's own cache.
With --translations-later, the translations of the held-back release's date and after are
left out too: the release added is an English one whose translations are yet to come, as a
new English release usually is (by default the newest Chinese release, of the same date,
is in the archive first, and every page pairing it with the English changes).
With --against, another installation (say, an older commit's worktree with its own
environment; an older one keeps its derived data in ARCHIVE/.cache) runs the same in each
round, which goes first alternating.
Prints each step's median (best) wall-clock seconds and median CPU seconds (user + system, the
command's workers and pagefind included), with the load average before each round.
Targets (2-core machine): ingest + build from nothing <= 30 s; a build with nothing changed
<= 1 s; a build after one release added <= 3 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
INGEST = "ingest (main job, newest en held back)"
FULL = "build, from nothing"
JOB = "ingest + build from nothing"
NOTHING = "build, nothing changed"
ADD = "ingest, the newest en release"
ONE = "build, one release added"
TARGETS = {JOB: 30.0, NOTHING: 1.0, ONE: 3.0}  # seconds, median wall-clock

# Each step's wall-clock and CPU seconds.
Steps = dict[str, tuple[float, float]]


def main() -> None:
    """Run the rounds, then print each step's figures beside its target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="Rounds (default 3).")
    parser.add_argument(
        "--against", type=Path, help="Another installation's rulesarchive, run in turn."
    )
    parser.add_argument(
        "--translations-later",
        action="store_true",
        help="Leave out the translations of the held-back release's date and after.",
    )
    options = parser.parse_args()
    installations = {"rulesarchive": Path(sys.executable).parent / "rulesarchive"}
    if options.against:
        installations["other"] = options.against
    english = sorted((SHARED / "en").glob("*.txt"))
    files = english[:-1] + sorted((SHARED / "orig" / "en").iterdir())
    translations = sorted((SHARED / "zh-Hans").glob("*.txt")) + sorted(
        (SHARED / "ko").glob("*.txt")
    )
    if options.translations_later:  # files are named by their date
        translations = [path for path in translations if path.stem < english[-1].stem]
    files += translations
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"ingest: {len(files)} files, then {english[-1].name}")
    figures: dict[str, list[Steps]] = {name: [] for name in installations}
    for round_ in range(options.runs):
        names = list(installations)
        for name in names if round_ % 2 == 0 else names[::-1]:
            load = os.getloadavg()[0]
            steps = main_job(installations[name], files, english[-1])
            figures[name].append(steps)
            done = ", ".join(f"{step} {wall:.2f}" for step, (wall, _cpu) in steps.items())
            print(f"round {round_ + 1}, {name} (load {load:.1f}): {done}")
    print_summary(figures)


def environment(derived: Path) -> dict[str, str]:
    """Return the environment of every timed process: bytecode cached as an install has it,
    the derived data in `derived`."""
    found = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return found | {"RULESARCHIVE_CACHE": str(derived)}


def main_job(script: Path, files: list[Path], held: Path) -> Steps:
    """Run the main job and the rebuilds in a new folder; return each step's figures."""
    with tempfile.TemporaryDirectory(prefix="bench-main-job-") as scratch:
        folder = Path(scratch)
        env = environment(folder / "derived")
        command = [str(script), "--archive", str(folder / "archive")]
        build = [*command, "build", "--out", str(folder / "site")]
        steps = {INGEST: timed([*command, "ingest", *map(str, files)], env, refusals=True)}
        steps[FULL] = timed(build, env)
        steps[JOB] = (steps[INGEST][0] + steps[FULL][0], steps[INGEST][1] + steps[FULL][1])
        steps[NOTHING] = timed(build, env)
        steps[ADD] = timed([*command, "ingest", str(held)], env)
        steps[ONE] = timed(build, env)
    return steps


def timed(command: list[str], env: dict[str, str], refusals: bool = False) -> tuple[float, float]:
    """Run a command to its end; return its wall-clock and CPU seconds (with its children).

    With `refusals`, exit status 1 (files refused) is expected too.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ((0, 1) if refusals else (0,)):
        raise SystemExit(f"{' '.join(command[:4])} ...: exit {done.returncode}\n{done.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def print_summary(figures: dict[str, list[Steps]]) -> None:
    """Print each step's median (best) seconds and median CPU seconds per installation."""
    rounds = len(next(iter(figures.values())))
    print(f"\nwhole process, {rounds} rounds; seconds median (best), CPU seconds median")
    heading = "".join(f" {name:>14} {'CPU s':>6}" for name in figures)
    print(f"{'step':40}{heading}  target (median, this checkout)")
    for step in (INGEST, FULL, JOB, NOTHING, ADD, ONE):
        row = ""
        for runs in figures.values():
            walls = [steps[step][0] for steps in runs]
            cpu = statistics.median(steps[step][1] for steps in runs)
            row += f" {statistics.median(walls):7.2f} ({min(walls):5.2f}) {cpu:6.1f}"
        verdict = ""
        if step in TARGETS:
            median = statistics.median(steps[step][0] for steps in figures["rulesarchive"])
            verdict = f"<= {TARGETS[step]:g} s {'met' if median <= TARGETS[step] else 'NOT met'}"
        print(f"{step:40}{row}  {verdict}".rstrip())


if __name__ == "__main__":
    main()
