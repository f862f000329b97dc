"""Time every read command as a user waits for it, beside a baseline.

Usage: python benchmarks/cli.py [--archive DIR] [--rounds N] [--against OTHER/bin/rulesarchive]
(default: ingest ../shared/cr-archive/en/*.txt and zh-Hans/*.txt into a temp dir). The derived
data lives in a temporary folder of this run (RULESARCHIVE_CACHE, for every process it starts
and in process), never in the user's own cache.
Baselines: Python starting (`python -c pass`), `grep` of the rule, `git diff --no-index
--word-diff` of the two rules.txt, `git log -L` in two repositories of the English releases:
`rulesarchive export git` (one file per rule, rules/<id>.txt) and one commit per release
of the whole rules.txt. With --against, the baseline is the same command of another
installation (say, an older commit's worktree with its own environment) on the same archive;
an older one keeps its derived data in ARCHIVE/.cache.
Runs every command twice (warm: its derived data kept, its bytecode written), then times each
command and its baseline as whole processes, interleaved: with hyperfine when it is installed
(one short hyperfine run of both per round, rounds alternating which goes first), else with
this script's own loop. "cold" rows empty the derived data before every run (the temporary
folder and ARCHIVE/.cache removed): a command's first run after `rulesarchive cache clear`.
Targets (2-core machine): every read command warm <= 0.15 s median, `--help` <= 0.15 s.
Also: the peak memory of a warm `history`, and in process, loading one release from its packed
form against parsing its document.json.
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
from collections.abc import Callable
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
PAIR = ("2024-11-08", "2025-02-07")
RULE = "400.6"
TARGET = 0.15  # seconds, median: every read command warm and --help


def main() -> None:
    """Set up the archive and the git repositories, then print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, help="Use this archive instead of ingesting.")
    parser.add_argument("--rounds", type=int, default=6, help="Interleaved rounds (default 6).")
    parser.add_argument(
        "--against", type=Path, help="Another installation's rulesarchive: the baseline column."
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as scratch:
        derived = Path(scratch) / "derived"
        os.environ["RULESARCHIVE_CACHE"] = str(derived)  # inherited by every process started
        root = options.archive or Path(scratch) / "archive"
        if options.archive is None:
            files = sorted((SHARED / "en").glob("*.txt"))
            files += sorted((SHARED / "zh-Hans").glob("*.txt"))  # for `translations`
            run(ours(root, "ingest", *map(str, files)))
        if options.against:
            baselines = other_baselines(root, options.against)
        else:
            repository = Path(scratch) / "git"
            run(ours(root, "export", "git", str(repository), "--lang", "en"))
            whole = Path(scratch) / "git-whole"
            commit_each_release(root, whole)
            baselines = git_baselines(root, repository, whole)
        print_machine()
        print_comparisons(
            make_tasks(root, derived, baselines),
            options.rounds,
            "other" if options.against else "baseline",
        )
        print()
        print_history_memory(ours(root, "history", RULE), "rulesarchive")
        if options.against:
            other = [str(options.against), "--archive", str(root), "history", RULE]
            print_history_memory(other, str(options.against))
        print_loading(root, derived)


def environment() -> dict[str, str]:
    """Return the environment of every timed process: bytecode cached as an install has it."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def ours(root: Path, *arguments: str) -> list[str]:
    """Return the command line of `rulesarchive` (the installed script) on this archive."""
    script = Path(sys.executable).parent / "rulesarchive"
    return [str(script), "--archive", str(root), *arguments]


def run(command: list[str]) -> None:
    """Run a command to its end, quietly."""
    subprocess.run(command, check=True, capture_output=True, env=environment())


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


# (task, our command, baseline command, what to remove before each run: nothing when warm)
Task = tuple[str, list[str], list[str], list[str]]
# (name, command) of each baseline of a read command, given its label and arguments
Baselines = Callable[[str, list[str]], list[tuple[str, list[str]]]]
COLD = (f"rule {RULE}", f"diff {PAIR[0]} -> {PAIR[1]}")  # cheap enough to time from nothing


def read_commands(root: Path) -> list[tuple[str, list[str]]]:
    """Return each read command's label and arguments."""
    newest = english_dates(root)[-1]
    return [
        ("--help", ["--help"]),
        ("releases", ["releases"]),
        (f"rule {RULE}", ["rule", RULE]),
        (f"diff {PAIR[0]} -> {PAIR[1]}", ["diff", *PAIR]),
        (f"changelog {newest}", ["changelog"]),
        (f"history {RULE}", ["history", RULE]),
        ("check", ["check"]),
        ("translations", ["translations"]),
    ]


def make_tasks(root: Path, derived: Path, baselines: Baselines) -> list[Task]:
    """Return every read command warm, and the COLD ones cold, each beside its baselines."""
    forget = [str(derived), str(root / ".cache")]  # this one's derived data, and an older one's
    found = []
    for label, arguments in read_commands(root):
        for name, baseline in baselines(label, arguments):
            task = f"{label} | {name}" if name else label
            found.append((task, ours(root, *arguments), baseline, []))
            if label in COLD:
                found.append((f"cold {task}", ours(root, *arguments), baseline, forget))
    return found


def git_baselines(root: Path, repository: Path, whole: Path) -> Baselines:
    """Return the baselines of git, grep and Python starting."""
    dates = english_dates(root)

    def word_diff(old: str, new: str) -> list[str]:
        texts = [str(root / "en" / date / "rules.txt") for date in (old, new)]
        return ["git", "diff", "--no-index", "--word-diff", *texts]

    python = ("python -c pass", [sys.executable, "-c", "pass"])
    grep = ["grep", "-m1", f"^{re.escape(RULE)} ", str(root / "en" / dates[-1] / "rules.txt")]
    numbers = (repository / "numbers.txt").read_text(encoding="utf-8").splitlines()
    line_id = next(line.split()[1] for line in numbers if line.split()[0] == RULE)
    per_rule = ["git", "-C", str(repository), "log", "-p", f"rules/{line_id}.txt"]
    per_release = ["git", "-C", str(whole), "log", "-L", f"/^{RULE} /,+1:rules.txt"]
    found = {
        f"rule {RULE}": [("grep rules.txt", grep)],
        f"diff {PAIR[0]} -> {PAIR[1]}": [("git word-diff", word_diff(*PAIR))],
        f"changelog {dates[-1]}": [("git word-diff", word_diff(*dates[-2:]))],
        f"history {RULE}": [
            ("git log rules/<id>.txt", per_rule),
            ("git log -L rules.txt", per_release),
        ],
    }
    return lambda label, _arguments: found.get(label, [python])


def other_baselines(root: Path, other: Path) -> Baselines:
    """Return the baseline of another installation: the same command on the same archive."""
    return lambda _label, arguments: [("", [str(other), "--archive", str(root), *arguments])]


def print_comparisons(tasks: list[Task], rounds: int, baseline_name: str) -> None:
    """Warm every command up, time both sides interleaved and print median, best and ratio."""
    for _task, command, baseline, _forget in tasks:
        for _ in range(2):  # writes the bytecode and fills the derived data: "warm"
            subprocess.run(command, capture_output=True, check=True, env=environment())
            subprocess.run(baseline, capture_output=True, env=environment())  # git diff exits 1
    timer = "hyperfine" if shutil.which("hyperfine") else "own loop"
    print(f"\nwhole process, {rounds} interleaved rounds ({timer}); median (best) in seconds")
    print(
        f"{'task | baseline':50} {'rulesarchive':>14} {baseline_name:>14} {'ratio':>6}  "
        f"target (median)"
    )
    # the cold rows empty the derived data: they come last, the warm ones find it filled
    for task, command, baseline, forget in sorted(tasks, key=lambda task: bool(task[3])):
        prepare = ["rm", "-rf", *forget] if forget else None
        ours_times, base_times = interleaved(command, baseline, rounds, prepare)
        median = statistics.median(ours_times)
        ratio = median / statistics.median(base_times)
        verdict = "-" if forget else f"<= {TARGET} s {'met' if median <= TARGET else 'NOT met'}"
        print(
            f"{task:50} {_figure(ours_times):>14} {_figure(base_times):>14} {ratio:6.2f}  {verdict}"
        )


def _figure(times: list[float]) -> str:
    return f"{statistics.median(times):.3f} ({min(times):.3f})"


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


def print_history_memory(command: list[str], label: str) -> None:
    """Print the peak memory of one warm `history` run by `command`."""
    run(command)  # the cold rows emptied the derived data
    probe = (
        "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe, *command], capture_output=True, text=True, env=environment()
    )
    print(f"history {RULE}, warm, {label}: peak memory {int(found.stdout) / 1024:.0f} MB")


def print_loading(root: Path, derived: Path) -> None:
    """Print the time to load one release from its packed form and from document.json.

    Then a consecutive pair's diff_documents on documents loaded each way: the packed form
    must not make the differ slower (it compares and hashes the rules' texts, interned by both).
    """
    from rulesarchive.corpus.derived import DerivedData
    from rulesarchive.corpus.store import Archive, document_from_json
    from rulesarchive.differ.classify import diff_documents

    archive = Archive(root, derived=DerivedData(derived))
    releases = {r.effective_date.isoformat(): r for r in archive.releases("en")}
    old, new = releases[PAIR[0]], releases[PAIR[1]]
    path = root / new.key / "document.json"
    archive.load(old), archive.load(new)  # the packed forms exist from here on

    def best(action, runs: int = 20) -> float:
        return min(_timed(action) for _ in range(runs))

    def from_json(release):
        text = (root / release.key / "document.json").read_text(encoding="utf-8")
        return document_from_json(json.loads(text))

    packed = best(lambda: archive.load(new))
    parsed = best(lambda: document_from_json(json.loads(path.read_text(encoding="utf-8"))))
    print(
        f"load {new.key}: packed {packed * 1000:.1f} ms, document.json "
        f"{parsed * 1000:.1f} ms ({parsed / packed:.1f}x faster), best of 20"
    )
    pairs = {
        "packed": (archive.load(old), archive.load(new)),
        "json": (from_json(old), from_json(new)),
    }
    differ = {
        kind: best(lambda pair=pair: diff_documents(*pair), 10) for kind, pair in pairs.items()
    }
    print(
        f"diff_documents {PAIR[0]} -> {PAIR[1]}: loaded packed {differ['packed'] * 1000:.1f} ms, "
        f"from document.json {differ['json'] * 1000:.1f} ms, best of 10"
    )


def _timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
