"""Time the command line as a user waits for it, beside git and Python doing the least they can.

Usage: python benchmarks/cli.py [--archive DIR] [--rounds N]
(default: ingest ../shared/cr-archive/en/*.txt into a temp dir). Makes a git repository of the
releases with `rulesarchive export git`, runs every command once (its caches filled: warm),
then times each command and its baseline as whole processes, interleaved: with hyperfine when
it is installed (one short hyperfine run of both per round, rounds alternating which goes
first), else with this script's own loop. Warm `diff` and `changelog` print their kept output
(rulesarchive.launch); the same with `-q` run the click commands every time (diffs cached).
Targets (2-core machine): `--help` <= 0.1 s; `diff` of a consecutive pair and `changelog`
<= 0.15 s and within 5x of `git diff --no-index --word-diff`; `history 400.6` <= 0.3 s, no
slower than `git log -L`.
Also in process: loading one release from its cached form against parsing its document.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
PAIR = ("2024-11-08", "2025-02-07")
RULE = "400.6"


def main() -> None:
    """Set up the archive and the git repository, then print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, help="Use this archive instead of ingesting.")
    parser.add_argument("--rounds", type=int, default=6, help="Interleaved rounds (default 6).")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as scratch:
        root = options.archive or Path(scratch) / "archive"
        if options.archive is None:
            run_ours(root, "ingest", *sorted(map(str, (SHARED / "en").glob("*.txt"))))
        repository = Path(scratch) / "git"
        run_ours(root, "export", "git", str(repository), "--lang", "en")
        print_machine()
        print_comparisons(comparisons(root, repository), options.rounds)
        print_history_memory(root)
        print_loading(root)


def environment() -> dict[str, str]:
    """Return the environment of every timed process: bytecode cached as an install has it."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def ours(root: Path, *arguments: str) -> list[str]:
    """Return the command line of `rulesarchive` (the installed script) on this archive."""
    script = Path(sys.executable).parent / "rulesarchive"
    return [str(script), "--archive", str(root), *arguments]


def run_ours(root: Path, *arguments: str) -> None:
    """Run one rulesarchive command to its end, quietly."""
    subprocess.run(ours(root, *arguments), check=True, capture_output=True, env=environment())


def comparisons(root: Path, repository: Path) -> list[tuple[str, list[str], list[str]]]:
    """Return (task, our command, baseline command) for each whole-process comparison."""
    dates = sorted(
        path.name for path in (root / "en").iterdir() if re.fullmatch(r"\d{4}-\d\d-\d\d", path.name)
    )

    def word_diff(old: str, new: str) -> list[str]:
        texts = [str(root / "en" / date / "rules.txt") for date in (old, new)]
        return ["git", "diff", "--no-index", "--word-diff", *texts]

    git_log = ["git", "-C", str(repository), "log", "-L", f"/^{RULE} /,+1:rules/400.txt"]
    return [
        ("--help | python -c pass", ours(root, "--help"), [sys.executable, "-c", "pass"]),
        (
            f"diff {PAIR[0]} -> {PAIR[1]} | git word-diff",
            ours(root, "diff", *PAIR),
            word_diff(*PAIR),
        ),
        (
            f"changelog {dates[-1]} | git word-diff",
            ours(root, "changelog"),
            word_diff(dates[-2], dates[-1]),
        ),
        # -q sends the command line to click every time: the cost of a command line asked for
        # the first time (its diff cached, as after a build, its output not yet kept)
        (
            f"-q diff {PAIR[0]} -> {PAIR[1]} | git word-diff",
            ours(root, "-q", "diff", *PAIR),
            word_diff(*PAIR),
        ),
        (
            f"-q changelog {dates[-1]} | git word-diff",
            ours(root, "-q", "changelog"),
            word_diff(dates[-2], dates[-1]),
        ),
        (f"history {RULE} | git log -L", ours(root, "history", RULE), git_log),
    ]


def print_comparisons(tasks: list[tuple[str, list[str], list[str]]], rounds: int) -> None:
    """Warm every command up, time both sides interleaved and print median, best and ratio."""
    for _task, command, baseline in tasks:
        for _ in range(2):  # writes the bytecode and fills the caches: what "warm" means here
            subprocess.run(command, capture_output=True, check=True, env=environment())
            subprocess.run(baseline, capture_output=True, env=environment())  # git diff exits 1
    timer = "hyperfine" if shutil.which("hyperfine") else "own loop"
    print(f"\nwhole process, {rounds} interleaved rounds ({timer}); median (best) in seconds")
    print(f"{'task | baseline':50} {'rulesarchive':>16} {'baseline':>16} {'ratio':>6}")
    for task, command, baseline in tasks:
        ours_times, base_times = interleaved(command, baseline, rounds)
        ratio = statistics.median(ours_times) / statistics.median(base_times)
        print(f"{task:50} {_figure(ours_times):>16} {_figure(base_times):>16} {ratio:6.1f}")


def _figure(times: list[float]) -> str:
    return f"{statistics.median(times):.3f} ({min(times):.3f})"


def interleaved(command: list[str], baseline: list[str], rounds: int) -> tuple[list, list]:
    """Return the times of both commands, taken in alternating order round after round."""
    times: dict[int, list[float]] = {0: [], 1: []}
    for round_number in range(rounds):
        order = [0, 1] if round_number % 2 == 0 else [1, 0]
        commands = [command, baseline]
        if shutil.which("hyperfine"):
            found = hyperfine([commands[index] for index in order])
            for index, values in zip(order, found, strict=True):
                times[index] += values
        else:
            for index in order:
                times[index] += [timed(commands[index]) for _ in range(3)]
    return times[0], times[1]


def hyperfine(commands: list[list[str]]) -> list[list[float]]:
    """Run hyperfine on the commands (no shell between) and return each one's times."""
    with tempfile.NamedTemporaryFile(suffix=".json") as export:
        arguments = ["hyperfine", "-N", "-i", "--warmup", "1", "--runs", "3", "--style", "none"]
        arguments += ["--export-json", export.name, *map(shlex.join, commands)]
        subprocess.run(arguments, check=True, capture_output=True, env=environment())
        results = json.loads(Path(export.name).read_text())["results"]
    return [result["times"] for result in results]


def timed(command: list[str]) -> float:
    """Return the seconds one run of a command takes, start to exit."""
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, env=environment())
    return time.perf_counter() - start


def print_machine() -> None:
    """Print what the figures were taken on."""
    model = next(
        (line.split(":", 1)[1].strip() for line in _lines(["lscpu"]) if "Model name" in line), "?"
    )
    cores = _lines(["nproc"])[0]
    load = os.getloadavg()[0]
    print(f"machine: {cores} cores, {model}, Python {sys.version.split()[0]}, load {load:.1f}")


def _lines(command: list[str]) -> list[str]:
    return subprocess.run(command, capture_output=True, text=True).stdout.splitlines()


def print_history_memory(root: Path) -> None:
    """Print the peak memory of one warm `history` process (its only child's maxrss)."""
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe, *ours(root, "history", RULE)],
        capture_output=True,
        text=True,
        env=environment(),
    )
    print(f"\nhistory {RULE}, warm: peak memory {int(found.stdout) / 1024:.0f} MB")


def print_loading(root: Path) -> None:
    """Print the time to load one release from its cached form and from document.json.

    Then a consecutive pair's diff_documents on documents loaded each way: the cached form
    must not make the differ slower (it compares and hashes the rules' texts, interned by both).
    """
    from rulesarchive.corpus.store import Archive, document_from_json
    from rulesarchive.differ.classify import diff_documents

    archive = Archive(root)
    releases = {r.effective_date.isoformat(): r for r in archive.releases("en")}
    old, new = releases[PAIR[0]], releases[PAIR[1]]
    path = root / new.key / "document.json"
    archive.load(old), archive.load(new)  # the cached forms exist from here on

    def best(action, runs: int = 20) -> float:
        return min(_timed(action) for _ in range(runs))

    def from_json(release):
        text = (root / release.key / "document.json").read_text(encoding="utf-8")
        return document_from_json(json.loads(text))

    cached = best(lambda: archive.load(new))
    parsed = best(lambda: document_from_json(json.loads(path.read_text(encoding="utf-8"))))
    print(
        f"load {new.key}: cached {cached * 1000:.1f} ms, document.json "
        f"{parsed * 1000:.1f} ms ({parsed / cached:.1f}x faster), best of 20"
    )
    pairs = {
        "cached": (archive.load(old), archive.load(new)),
        "json": (from_json(old), from_json(new)),
    }
    differ = {
        kind: best(lambda pair=pair: diff_documents(*pair), 10) for kind, pair in pairs.items()
    }
    print(
        f"diff_documents {PAIR[0]} -> {PAIR[1]}: loaded cached {differ['cached'] * 1000:.1f} ms, "
        f"from document.json {differ['json'] * 1000:.1f} ms, best of 10"
    )


def _timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
