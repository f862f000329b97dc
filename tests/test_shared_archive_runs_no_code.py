"""An archive folder is data others may have written (a zip, a network share, a repository of
releases): nothing read from it runs code. Pickles and marshalled code are planted wherever
derived data was ever kept inside an archive, and every command runs past them."""

from __future__ import annotations

import marshal
import os
import pickle
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesarchive.cli import main
from tests.samples import modern_text

# Every kind of derived data earlier versions kept in ARCHIVE/.cache (files and folders).
CACHE_PATHS = (
    "releases",
    "documents",
    "http",
    "diffs",
    "lines",
    "checks",
    "gathered",
    "links",
    "templates",
    "outputs",
    "changelogs",
)


class _Payload:
    """Unpickled, it makes the marker folder: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def _plant(archive: Path, marker: Path) -> None:
    cache = archive / ".cache"
    evil = pickle.dumps(_Payload(marker))
    code = marshal.dumps(compile(f"import os; os.mkdir({str(marker)!r})", "planted", "exec"))
    for kind in CACHE_PATHS:
        folder = cache / kind
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("0" * 32, "f" * 32, "planted"):
            for suffix in (".pickle", ".marshal", ".report", ".txt", ".json", ".body"):
                (folder / f"{name}{suffix}").write_bytes(evil if suffix != ".marshal" else code)
    (cache / "sets.json").write_bytes(evil)
    for name in ("lines.sqlite", "derived.sqlite"):
        with sqlite3.connect(cache / name) as connection:
            connection.execute("CREATE TABLE entries (key TEXT, kind TEXT, value BLOB)")
            connection.execute("INSERT INTO entries VALUES ('x', 'diff', ?)", (evil,))
    (archive / "derived.sqlite").write_bytes((cache / "derived.sqlite").read_bytes())


@pytest.fixture
def planted(tmp_path):
    archive = tmp_path / "archive"
    texts = []
    for date, who in (("April 1, 2011", "its owner"), ("May 1, 2011", "all players")):
        path = tmp_path / f"{date}.txt"
        path.write_text(modern_text(date=date, who=who))
        texts.append(str(path))
    marker = tmp_path / "code-ran"
    _plant(archive, marker)
    result = CliRunner().invoke(main, ["--archive", str(archive), "ingest", *texts[:1]])
    assert result.exit_code == 0, result.output
    return archive, marker, texts


COMMANDS = [
    ["releases"],
    ["rule", "400.6"],
    ["history", "400.6"],
    ["diff", "2011-04-01", "2011-05-01"],
    ["changelog"],
    ["check"],
    ["check", "--all", "--format", "json"],
    ["cache"],
]


def test_no_command_runs_code_planted_in_the_archive(planted, tmp_path):
    archive, marker, texts = planted
    run = CliRunner().invoke
    assert run(main, ["--archive", str(archive), "ingest", texts[1]]).exit_code == 0
    for args in COMMANDS:
        result = run(main, ["--archive", str(archive), *args])
        assert result.exit_code == 0, (args, result.output)
        assert not marker.exists(), args
    site = run(main, ["--archive", str(archive), "build", "--out", str(tmp_path / "site")])
    assert site.exit_code == 0, site.output
    for fmt in ("sqlite", "json", "git"):
        dest = tmp_path / f"export-{fmt}"
        exported = run(main, ["--archive", str(archive), "export", fmt, str(dest)])
        assert exported.exit_code == 0, exported.output
    assert not marker.exists()
    pickle.loads(pickle.dumps(_Payload(marker)))  # the payload does run when unpickled
    assert marker.exists()
