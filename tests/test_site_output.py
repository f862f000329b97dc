"""The site folder being built: nothing read from the archive steers a write outside it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rulesarchive.site_builder.output import MANIFEST, Output, building, inside_site


@pytest.mark.parametrize(
    "path",
    ["en/r/100.1/index.html", "index.html", "zh-Hans/c/2024-11-08/index.html", "a..b/c"],
)
def test_paths_inside_the_site_are_taken(path):
    assert inside_site(path)


@pytest.mark.parametrize(
    "path",
    [
        "../victim/PWNED/index.html",
        "en/r/../../../victim/index.html",
        "/etc/passwd",
        "en//index.html",
        "en/./index.html",
        "en\\..\\x",
        "C:/x",
        "en/r/1\n00.1/index.html",
        "",
    ],
)
def test_paths_that_could_leave_the_site_are_refused(path):
    assert not inside_site(path)


def test_a_write_outside_the_site_is_refused_and_nothing_is_written(tmp_path):
    output = Output(tmp_path / "site")
    with pytest.raises(ValueError, match="not a path inside the site"):
        output.write("en/r/../../../../victim/PWNED/index.html", "<p>owned</p>")
    output.abandon()
    assert not (tmp_path / "victim").exists()
    assert not list(tmp_path.rglob("PWNED"))


def test_a_manifest_naming_a_file_outside_the_site_deletes_nothing_there(tmp_path):
    first = Output(tmp_path / "site")
    first.write("index.html", "<p>home</p>")
    first.finish()
    first.commit()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    manifest = tmp_path / "site" / MANIFEST
    data = json.loads(manifest.read_text())
    data["files"]["../victim.txt"] = ["0" * 64, "", ""]  # a tampered manifest
    manifest.write_text(json.dumps(data))

    second = Output(tmp_path / "site")  # builds a site without that file: it would go
    second.write("index.html", "<p>home again</p>")
    second.finish()
    second.commit()

    assert victim.read_text() == "keep me"
    assert (tmp_path / "site" / "index.html").read_text() == "<p>home again</p>"


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_folder_where_no_lock_can_be_made_is_an_error_not_a_wait():
    """filelock takes a lock file it cannot create for one another build holds."""
    out = Path("/proc/rulesarchive-site")
    with pytest.raises(OSError) as raised, building(out):
        pass
    assert raised.value.filename == str(out)
