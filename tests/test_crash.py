"""kill -9 at random moments of ingest, replace and build: the archive and the live site hold.

Each trial starts a real `rulesarchive` process in a session of its own, kills that process
(not its children) at a random point of its run, then checks that no process of the session
survives, that the archive lists and reads only complete releases, and that the live site is
a whole build. The next trial's run must clean what the killed one left. The number of trials
is bounded (RULESARCHIVE_CRASH_TRIALS per kind, default 5).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rulesarchive.corpus.store import Archive

from tests.samples import modern_text

TRIALS = int(os.environ.get("RULESARCHIVE_CRASH_TRIALS", "5"))
DATES = ["April 1, 2011", "May 1, 2011", "June 17, 2011", "July 1, 2011", "October 1, 2011"]


def _run(args: list[str], cwd: Path, errors: int = subprocess.DEVNULL) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "rulesarchive", *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=errors,
        start_new_session=True,
        text=True,
    )


def _session_members(session: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[3]) == session:
            members.append(int(entry.name))
    return members


def _kill_at_random(process: subprocess.Popen, longest: float) -> None:
    time.sleep(random.uniform(0.05, longest))
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 5
    while _session_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _session_members(process.pid) == [], "a child process outlived its killed parent"


def _check_archive(root: Path) -> None:
    archive = Archive(root)
    for release in archive.releases():
        document = archive.load(release)
        assert len(document.rules) == release.rule_count
    listed = {release.key for release in archive.releases()}
    assert all(not key.split("/")[1].startswith(".") for key in listed)


def _check_site(out: Path) -> None:
    if out.is_symlink() or out.exists():
        assert (out / "index.html").is_file()
        assert (out / ".manifest.json").is_file()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_kill_minus_nine_at_random_points(tmp_path):
    random.seed(os.environ.get("RULESARCHIVE_CRASH_SEED"))
    files = []
    for n, date in enumerate(DATES):
        path = tmp_path / f"cr{n}.txt"
        path.write_text(modern_text(date=date, filler=600))
        files.append(str(path))
    changed = tmp_path / "changed.txt"
    changed.write_text(modern_text(date=DATES[2], filler=600, who="its owner"))
    archive, out = tmp_path / "archive", tmp_path / "site"
    ingest = ["--archive", str(archive), "ingest", *files]
    replace = ["--archive", str(archive), "ingest", "--force", str(changed)]
    restore = ["--archive", str(archive), "ingest", "--force", files[2]]
    build = ["--archive", str(archive), "build", "--out", str(out)]
    durations = {}
    for name, args in [("ingest", ingest), ("build", build), ("replace", replace)]:
        started = time.monotonic()
        assert _run(args, tmp_path).wait() == 0, name
        durations[name] = time.monotonic() - started
    for _ in range(TRIALS):
        for name, args in [("ingest", ingest), ("replace", restore), ("build", build)]:
            if name == "ingest":
                for child in archive.glob("en/20*"):
                    subprocess.run(["rm", "-rf", str(child)], check=True)
            background = _run(build, tmp_path, subprocess.PIPE) if name != "build" else None
            _kill_at_random(_run(args, tmp_path), durations[name])
            if background is not None:  # a build beside a writer never crashes
                assert "Traceback" not in background.communicate()[1]
            _check_archive(archive)
            _check_site(out)
            restore, replace = replace, restore  # alternate the text each replace stores
    assert _run(ingest, tmp_path).wait() in (0, 1)
    assert Archive(archive).leftovers() == []
    assert len(Archive(archive).releases()) == len(DATES)
    assert _run(build, tmp_path).wait() == 0
    _check_site(out)
