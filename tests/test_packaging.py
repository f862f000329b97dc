"""The installed distribution is one import package, `rulesarchive`, with its data files."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_holds_one_import_package_with_templates_and_data(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("rulesarchive-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {
        name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")
    }
    assert top_level == {"rulesarchive"}
    for shipped in (
        "rulesarchive/corpus/store.py",
        "rulesarchive/differ/align.py",
        "rulesarchive/scraper/parse.py",
        "rulesarchive/site_builder/build.py",
        "rulesarchive/templates/base.html",
        "rulesarchive/corpus/data/releases.json",
    ):
        assert shipped in names, shipped
    assert any(name.startswith("rulesarchive/templates/static/") for name in names)
    assert any(name.startswith("rulesarchive/site_builder/sample/") for name in names)
