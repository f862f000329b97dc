"""The package imports, and `rule`, `diff` and `history` work, where neither fcntl nor fork is
there (Windows): worker processes are spawned, locks are filelock's."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from rulesarchive.cli import main
from tests.samples import modern_text
from tests.test_architecture import MODULES

# Run first in the child: fcntl and fork gone, processes spawned, as on Windows.
PRELUDE = """
import multiprocessing, os, sys
sys.modules["fcntl"] = None
for name in ("fork", "forkpty", "register_at_fork"):
    if hasattr(os, name):
        delattr(os, name)
multiprocessing.set_start_method("spawn", force=True)
"""


def _run(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", PRELUDE + code, *args], capture_output=True, text=True, timeout=300
    )


def test_every_module_imports_without_fcntl_or_fork():
    names = sorted(name for name in MODULES if not name.endswith("__main__"))
    done = _run(
        "import importlib, sys\nfor name in sys.argv[1:]: importlib.import_module(name)", *names
    )
    assert done.returncode == 0, done.stderr


def test_rule_diff_and_history_work_with_spawned_workers(tmp_path, derived_data):
    paths = []
    months = ["January", "February", "March", "April", "May"]
    dates = [f"{month} {day}, 2011" for month in months for day in (1, 15)]
    for index, date in enumerate(dates):  # more than are traced without workers
        paths.append(tmp_path / f"{date}.txt")
        who = "its owner" if index % 2 else "all players"
        paths[-1].write_text(modern_text(date=date, who=who, filler=320 + index))  # all differ
    archive = str(tmp_path / "archive")
    assert (
        CliRunner().invoke(main, ["--archive", archive, "ingest", *map(str, paths)]).exit_code == 0
    )
    expected = {
        command: CliRunner().invoke(main, ["--archive", archive, *command]).output
        for command in (
            ("rule", "400.6"),
            ("diff", "2011-01-01", "2011-05-15"),
            ("history", "400.6"),
        )
    }
    code = (
        "import json, sys\n"
        "from click.testing import CliRunner\n"
        "from rulesarchive.cli import main\n"
        "import rulesarchive.diffs as diffs\n"
        "assert not hasattr(__import__('os'), 'fork')\n"
        "out = {}\n"
        "for command in json.loads(sys.argv[2]):\n"
        "    result = CliRunner().invoke(main, ['-v', '--archive', sys.argv[1], *command])\n"
        "    assert result.exit_code == 0, result.output\n"
        "    out[' '.join(command)] = result.stdout\n"
        "    out['log ' + command[0]] = result.stderr\n"
        "print(json.dumps(out))\n"
    )
    import json
    import os

    fresh = tmp_path / "fresh-cache"  # nothing kept: the history's diffs are worked out anew
    env = {**os.environ, "RULESARCHIVE_CACHE": str(fresh)}
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + code, archive, json.dumps([list(c) for c in expected])],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    assert "not in the cache, computing (2 workers)" in answers.pop("log history")  # spawned
    answers = {command: output for command, output in answers.items() if command[:4] != "log "}
    assert answers == {" ".join(command): output for command, output in expected.items()}
