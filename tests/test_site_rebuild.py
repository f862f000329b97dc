"""The README's flow, built again and again: ingest, build, ingest more, build, whatever `--out`."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from filelock import FileLock
from rulesarchive.site_builder import output as output_module

from rulesarchive.cli import main
from tests.samples import modern_text


def _ingest(folder: Path, *dates: str) -> None:
    paths = []
    for date in dates:
        path = folder / f"{date.replace(' ', '-').replace(',', '')}.txt"
        path.write_text(modern_text(date=date))
        paths.append(str(path))
    result = CliRunner().invoke(main, ["--archive", str(folder / "archive"), "ingest", *paths])
    assert result.exit_code == 0, result.output


def _build(folder: Path, *out: str) -> str:
    result = CliRunner().invoke(main, ["--archive", str(folder / "archive"), "build", *out])
    assert result.exit_code == 0, result.output
    output_module.wait_for_pruning()
    return result.output


@pytest.mark.parametrize("how", ["default", "absolute", "through a symlink"])
def test_ingest_build_ingest_build_works_for_any_out(tmp_path, monkeypatch, how):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    out: tuple[str, ...] = ()
    top = work  # where the site's link and its folders are
    if how == "absolute":
        out = ("--out", str(work / "site"))
    elif how == "through a symlink":
        (tmp_path / "real").mkdir()
        (work / "linked").symlink_to(tmp_path / "real", target_is_directory=True)
        out = ("--out", "linked/site")
        top = tmp_path / "real"
    _ingest(work, "January 16, 2026", "February 27, 2026")
    _build(work, *out)
    _ingest(work, "April 17, 2026")
    said = _build(work, *out)

    site = top / "site"
    assert "for en" in said and "(0 written)" not in said
    assert (site / "en" / "releases" / "2026-04-17" / "index.html").is_file()
    assert (site / "pagefind" / "en" / "pagefind.js").is_file()  # search is whole again
    assert os.readlink(site) == ".site.a"  # the live folder was updated in place
    # Nothing of the earlier build is left: no staging slot, no set-aside copy, no old index.
    assert sorted(p.name for p in top.iterdir() if p.name.startswith(".")) == [
        ".site.a",
        ".site.lock",
    ]
    assert not list((site / "pagefind").glob(".*"))


def test_a_file_gone_from_the_live_site_is_made_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _ingest(tmp_path, "January 16, 2026")
    _build(tmp_path)
    page = tmp_path / "site" / "en" / "releases" / "2026-01-16" / "index.html"
    page.unlink()
    _ingest(tmp_path, "February 27, 2026")
    _build(tmp_path)
    assert page.is_file()


def test_a_second_build_of_the_same_site_waits_for_the_first(tmp_path):
    _ingest(tmp_path, "January 16, 2026")
    lock = FileLock(tmp_path / ".site.lock")
    lock.acquire()  # as a build running in another process holds it
    command = [sys.executable, "-m", "rulesarchive", "--archive", "archive", "build"]
    second = subprocess.Popen(
        command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(second.stderr), daemon=True)
    reader.start()
    waiting = "another build is writing site: waiting for it to finish"
    try:
        # however long the machine takes to start it, the second build says it waits...
        deadline = time.monotonic() + 120
        while not any(waiting in line for line in said) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert any(waiting in line for line in said), "".join(said)
        time.sleep(0.5)
        assert second.poll() is None  # ...and waits: not failing, not building beside the first
        assert not (tmp_path / "site").exists()
    finally:
        lock.release()
    second.wait(timeout=120)
    reader.join(timeout=10)
    second.stderr.close()
    assert second.returncode == 0, "".join(said)
    assert (tmp_path / "site" / "index.html").is_file()
