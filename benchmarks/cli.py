"""Time the command line as a user waits for it, beside git and Python doing the least they can.

Usage: python benchmarks/cli.py [--archive DIR] [--rounds N]
(default: ingest ../shared/cr-archive/en/*.txt into a temp dir). Makes two git repositories of
the English releases: `rulesarchive export git` (rules one file per section, rules/400.txt) and
one commit per release of the whole normalised rules.txt (issue 13's baseline for `history`).
Runs every command twice (its caches filled: warm), then times each command and its baseline
as whole processes, interleaved: with hyperfine when it is installed (one short hyperfine run
of both per round, rounds alternating which goes first), else with this script's own loop.
Repeated `diff`, `changelog` and `history` print their kept output (rulesarchive.launch);
"first" rows remove the kept outputs before every run: `diff` then prints the report kept
beside its cached diff, `changelog` the changelog kept of its release (by an ingest, or by
the warm-up's first run), `history` runs the library (diff, check and line index cached);
"library" removes the kept changelogs too: `changelog` runs the library.
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
        whole = Path(scratch) / "git-whole"
        commit_each_release(root, whole)
        print_machine()
        print_comparisons(comparisons(root, repository, whole), options.rounds)
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


def english_dates(root: Path) -> list[str]:
    """Return the effective dates of the archive's English releases, oldest first."""
    return sorted(
        path.name for path in (root / "en").iterdir() if re.fullmatch(r"\d{4}-\d\d-\d\d", path.name)
    )


def commit_each_release(root: Path, repository: Path) -> None:
    """Make a git repository with one commit per English release of its whole rules.txt."""
    git = ["git", "-C", str(repository)]
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    for date in english_dates(root):
        shutil.copyfile(root / "en" / date / "rules.txt", repository / "rules.txt")
        stamp = f"{date}T00:00:00+0000"
        dated = {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        subprocess.run([*git, "add", "rules.txt"], check=True)
        subprocess.run(
            [
                *git,
                "-c",
                "user.name=bench",
                "-c",
                "user.email=bench@localhost",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                date,
            ],
            check=True,
            env=dated,
        )


# (task, our command, baseline command, the folders of ARCHIVE/.cache removed before each run)
Task = tuple[str, list[str], list[str], tuple[str, ...]]
WARM: tuple[str, ...] = ()
FIRST = ("outputs",)  # the first time a command line is asked
LIBRARY = ("outputs", "changelogs")  # and no changelog kept by an ingest or another command


def comparisons(root: Path, repository: Path, whole: Path) -> list[Task]:
    """Return each whole-process comparison (see Task)."""
    dates = english_dates(root)

    def word_diff(old: str, new: str) -> list[str]:
        texts = [str(root / "en" / date / "rules.txt") for date in (old, new)]
        return ["git", "diff", "--no-index", "--word-diff", *texts]

    per_section = ["git", "-C", str(repository), "log", "-L", f"/^{RULE} /,+1:rules/400.txt"]
    per_release = ["git", "-C", str(whole), "log", "-L", f"/^{RULE} /,+1:rules.txt"]
    diff, changelog = ours(root, "diff", *PAIR), ours(root, "changelog")
    history = ours(root, "history", RULE)
    last_pair = word_diff(*dates[-2:])
    return [
        ("--help | python -c pass", ours(root, "--help"), [sys.executable, "-c", "pass"], WARM),
        (f"diff {PAIR[0]} -> {PAIR[1]} | git word-diff", diff, word_diff(*PAIR), WARM),
        (f"changelog {dates[-1]} | git word-diff", changelog, last_pair, WARM),
        # the first time a command line is asked: its diff (and check) cached, as after an
        # ingest or a build, its output not kept yet; a changelog is then read from the one
        # kept of its release (in every format, by an ingest or by an earlier command line)
        (f"first diff {PAIR[0]} -> {PAIR[1]} | git word-diff", diff, word_diff(*PAIR), FIRST),
        (f"first changelog {dates[-1]} | git word-diff", changelog, last_pair, FIRST),
        (f"library changelog {dates[-1]} | git word-diff", changelog, last_pair, LIBRARY),
        (f"history {RULE} | git log -L rules/400.txt", history, per_section, WARM),
        (f"first history {RULE} | git log -L rules/400.txt", history, per_section, FIRST),
        (f"first history {RULE} | git log -L rules.txt", history, per_release, FIRST),
    ]


def print_comparisons(tasks: list[Task], rounds: int) -> None:
    """Warm every command up, time both sides interleaved and print median, best and ratio."""
    for _task, command, baseline, _forgotten in tasks:
        for _ in range(2):  # writes the bytecode and fills the caches: what "warm" means here
            subprocess.run(command, capture_output=True, check=True, env=environment())
            subprocess.run(baseline, capture_output=True, env=environment())  # git diff exits 1
    timer = "hyperfine" if shutil.which("hyperfine") else "own loop"
    print(f"\nwhole process, {rounds} interleaved rounds ({timer}); median (best) in seconds")
    print(f"{'task | baseline':50} {'rulesarchive':>16} {'baseline':>16} {'ratio':>6}")
    for task, command, baseline, forgotten in tasks:
        prepare = forget(command, forgotten) if forgotten else None
        ours_times, base_times = interleaved(command, baseline, rounds, prepare)
        ratio = statistics.median(ours_times) / statistics.median(base_times)
        print(f"{task:50} {_figure(ours_times):>16} {_figure(base_times):>16} {ratio:6.2f}")


def _figure(times: list[float]) -> str:
    return f"{statistics.median(times):.3f} ({min(times):.3f})"


def forget(command: list[str], folders: tuple[str, ...]) -> list[str]:
    """Return the command that removes these cache folders of the archive `command` reads."""
    archive = Path(command[command.index("--archive") + 1])
    return ["rm", "-rf", *(str(archive / ".cache" / folder) for folder in folders)]


def interleaved(
    command: list[str], baseline: list[str], rounds: int, prepare: list[str] | None = None
) -> tuple[list, list]:
    """Return the times of both commands, taken in alternating order round after round.

    `prepare` runs before every run of either (untimed).
    """
    times: dict[int, list[float]] = {0: [], 1: []}
    for round_number in range(rounds):
        order = [0, 1] if round_number % 2 == 0 else [1, 0]
        commands = [command, baseline]
        if shutil.which("hyperfine"):
            found = hyperfine([commands[index] for index in order], prepare)
            for index, values in zip(order, found, strict=True):
                times[index] += values
        else:
            for index in order:
                for _ in range(3):
                    if prepare:
                        subprocess.run(prepare, check=True)
                    times[index].append(timed(commands[index]))
    return times[0], times[1]


def hyperfine(commands: list[list[str]], prepare: list[str] | None = None) -> list[list[float]]:
    """Run hyperfine on the commands (no shell between) and return each one's times."""
    with tempfile.NamedTemporaryFile(suffix=".json") as export:
        arguments = ["hyperfine", "-N", "-i", "--warmup", "1", "--runs", "3", "--style", "none"]
        if prepare:
            arguments += ["--prepare", shlex.join(prepare)]
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
    """Print the peak memory of one first `history` (its line index warm; no kept output)."""
    subprocess.run(forget(ours(root), FIRST), check=True)
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
    print(f"\nfirst history {RULE}, warm: peak memory {int(found.stdout) / 1024:.0f} MB")


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
