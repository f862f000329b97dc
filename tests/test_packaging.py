"""The installed distribution is one import package, `rulesarchive`, with its data files."""

import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner
from rulesarchive.exports.jsonfiles import SCHEMA_FILES

from rulesarchive.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (path,) = folder.glob("rulesarchive-*.whl")
    return zipfile.ZipFile(path)


def test_wheel_holds_one_import_package_with_templates_and_data(wheel):
    names = wheel.namelist()
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
        "rulesarchive/corpus/data/ids/en.tsv",
        "rulesarchive/py.typed",
        "rulesarchive/api.py",
        "rulesarchive/library.py",
        "rulesarchive/commands/rules.py",
        "rulesarchive/system/processes.py",
        "rulesarchive/exports/sqlite.py",
        *(f"rulesarchive/exports/schemas/{name}" for name in SCHEMA_FILES),
        "rulesarchive/site_builder/json_api.py",
    ):
        assert shipped in names, shipped
    assert any(name.startswith("rulesarchive/templates/static/") for name in names)
    assert any(name.startswith("rulesarchive/site_builder/sample/") for name in names)


def test_wheel_metadata_names_licence_authors_urls_and_extras(wheel):
    (metadata_name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    metadata = Parser().parsestr(wheel.read(metadata_name).decode())
    assert metadata["License-Expression"] == "MIT"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel.namelist())
    assert "rulesarchive contributors" in metadata["Author"]
    assert "Typing :: Typed" in metadata.get_all("Classifier")
    assert any(url.startswith("Source, https://") for url in metadata.get_all("Project-URL"))
    requires = metadata.get_all("Requires-Dist")
    assert "click>=8.2" in requires
    assert 'fast-diff-match-patch>=2.1; extra == "fast"' in requires
    assert not any(r.startswith("fast-diff-match-patch") and "extra" not in r for r in requires)
    # the default install reads an archive; each heavier job is an extra
    for package, extra in (("pypdf", "formats"), ("pagefind", "site"), ("requests", "scrape")):
        assert any(r.startswith(package) and f'extra == "{extra}"' in r for r in requires)
        assert not any(r.startswith(package) and "extra" not in r for r in requires)


# A command run with the optional packages made unimportable, as on a default install.
WITHOUT_EXTRAS = """
import sys
for name in ("docx", "pdfminer", "pypdf", "striprtf", "jinja2", "markupsafe", "feedgen",
             "pagefind", "requests", "bs4"):
    sys.modules[name] = None
from rulesarchive.cli import main
main(sys.argv[1:], prog_name="rulesarchive")
"""


def _without_extras(*args):
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_EXTRAS, *args], capture_output=True, text=True
    )


def test_the_default_install_reads_an_archive_and_names_the_extra_a_job_needs(tmp_path):
    from rulesarchive.site_builder.build import sample_archive

    archive = tmp_path / "archive"
    shutil.copytree(sample_archive(), archive)
    read = _without_extras("--archive", str(archive), "rule", "400.6")
    assert read.returncode == 0 and read.stdout.startswith("400.6 "), read.stderr
    history = _without_extras("--archive", str(archive), "history", "400.6", "--format", "json")
    assert history.returncode == 0, history.stderr
    built = _without_extras("--archive", str(archive), "build", "--out", str(tmp_path / "site"))
    assert built.returncode == 1
    assert built.stderr.count("\n") == 1
    assert "pip install 'rulesarchive[site]'" in built.stderr


def test_version_option_prints_the_installed_version():
    result = CliRunner().invoke(main, ["--version"], prog_name="rulesarchive")
    assert result.exit_code == 0
    assert result.output == f"rulesarchive, version {version('rulesarchive')}\n"
