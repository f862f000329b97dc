"""The Python API: typed results whose to_json() is what the CLI prints, and a cheap import."""

import datetime as dt
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from rulesarchive.corpus import model
from rulesarchive.site_builder.build import sample_archive

from rulesarchive import (
    Archive,
    ArchiveError,
    Comparison,
    History,
    Release,
    RuleText,
    UnknownRelease,
    UnknownRule,
)
from rulesarchive.cli import main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    # a copy: reading histories stores their lines in the archive's cache
    root = tmp_path_factory.mktemp("sample") / "archive"
    shutil.copytree(sample_archive(), root)
    return Archive(root)


def cli_json(root: Path, *args: str):
    result = CliRunner().invoke(main, ["--archive", str(root), *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_releases_and_release_match_the_cli(sample):
    releases = sample.releases("en")
    assert all(isinstance(release, Release) for release in releases)
    assert all(isinstance(release, model.Release) for release in releases)
    assert [r.to_json() for r in releases] == cli_json(sample.root, "releases")
    assert sample.release("KLD").effective_date == dt.date(2016, 9, 30)
    assert sample.release(dt.date(2016, 9, 30)) == sample.release("2016-09-30")
    assert sample.release() == releases[-1]


def test_rule_matches_the_cli_and_takes_a_release_object(sample):
    kld = sample.release("KLD")
    found = sample.rule("400.6", release=kld)
    assert isinstance(found, RuleText)
    assert found.release == kld and found.number == "400.6"
    assert found.to_json() == cli_json(sample.root, "rule", "400.6", "--release", "KLD")
    with pytest.raises(ArchiveError, match=r"no rule 999\.9"):
        sample.rule("999.9")
    with pytest.raises(ArchiveError, match="set code 'XYZ'"):
        sample.release("XYZ")


def test_diff_and_changelog_match_the_cli(sample):
    comparison = sample.diff("WWK", "RNA")
    assert isinstance(comparison, Comparison)
    assert comparison.to_json() == cli_json(sample.root, "diff", "WWK", "RNA")
    assert all(change.kind != "unchanged" for change in comparison.changes)
    changelog = sample.changelog("KLD")
    assert changelog.old == sample.release("JOU")
    assert changelog.to_json() == cli_json(sample.root, "changelog", "KLD")
    with pytest.raises(ArchiveError, match="oldest"):
        sample.changelog("WWK")


def test_history_matches_the_cli(sample):
    history = sample.history("400.6")
    assert isinstance(history, History)
    assert history.versions[-1].effective_date == dt.date(2019, 1, 25)
    assert history.to_json() == cli_json(sample.root, "history", "400.6")


def test_import_rulesarchive_loads_nothing_else():
    code = "import sys, rulesarchive; print([m for m in sys.modules if 'rulesarchive.' in m])"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]"


def test_a_command_loads_the_answer_it_prints_and_no_other(sample):
    code = (
        "import sys; from rulesarchive.cli import main; sys.argv[1:] = ['--archive', sys.argv[1],"
        " 'rule', '400.6']\ntry: main()\nexcept SystemExit: pass\n"
        "print([m for m in sys.modules if m.startswith('rulesarchive.answers.')], file=sys.stderr)"
    )
    command = [sys.executable, "-c", code, str(sample.root)]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "400.6" in result.stdout
    assert result.stderr.strip().splitlines()[-1] == "['rulesarchive.answers.rule_text']"


def test_readme_example_runs_on_the_real_archive(ingested, tmp_path, monkeypatch, capsys):
    archive, _ = ingested
    (tmp_path / "archive").symlink_to(archive.root)
    monkeypatch.chdir(tmp_path)
    section = README.split("## Python API", 1)[1]
    (example,) = re.findall(r"```python\n(.*?)```", section.split("\n## ", 1)[0], re.S)
    exec(compile(example, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("2024-11-08 Magic: The Gathering Foundations ")
    assert any(line.startswith("400.6 If an object would move") for line in printed)
    assert any(line.startswith("2011-05-01 400.6 [") for line in printed)  # New Phyrexia
    assert any(line.startswith("700.9 [") for line in printed)  # changed in Foundations
    assert printed[-2] == "400.6"
    assert json.loads(printed[-1])["substantive"] > 100


def test_one_argument_order_with_the_old_one_deprecated(sample):
    by_keyword = sample.history("400.6", release="2011-05-01", lang="en")
    with pytest.warns(DeprecationWarning, match="by keyword"):
        old_order = sample.history("400.6", "en", "2011-05-01")
    assert old_order.to_json() == by_keyword.to_json()
    with pytest.warns(DeprecationWarning):
        assert sample.rule("400.6", "KLD").release.set_code == "KLD"


def test_one_error_class_per_kind_of_failure(sample):
    for call in (lambda: sample.rule("999.9"), lambda: sample.history("999.9")):
        with pytest.raises(UnknownRule, match=r"no rule 999\.9"):
            call()
    with pytest.raises(UnknownRelease):
        sample.release("XYZ")
    with pytest.raises(UnknownRelease):
        sample.in_force("2000-01-01")
    assert issubclass(UnknownRule, LookupError) and issubclass(UnknownRule, ArchiveError)


def test_rules_in_force_on_a_date_and_by_permanent_id(sample):
    assert sample.in_force("2011-01-01").effective_date.isoformat() == "2010-10-01"
    assert sample.rule_on("400.6", "2011-01-01").release.effective_date.isoformat() == "2010-10-01"
    by_id = sample.rule_by_id("2010-02-01/400.6")
    assert by_id.number == "400.6" and by_id.text == sample.rule("400.6").text
    assert sample.history_of_id("2010-02-01/702.18").numbers == ("702.18", "702.19")
    with pytest.raises(UnknownRule):
        sample.rule_by_id("1999-01-01/1.1")
