"""The CLI wiring, through click's CliRunner, and one real run of the installed command."""

import json
import subprocess
import sys

from click.testing import CliRunner

from rulesarchive.cli import main
from tests.samples import modern_text


def _archive_with_two_releases(tmp_path):
    old = tmp_path / "old.txt"
    old.write_text(modern_text(date="April 1, 2011", who="its owner"))
    new = tmp_path / "new.txt"
    new.write_text(modern_text(date="May 1, 2011"))
    archive = tmp_path / "archive"
    result = CliRunner().invoke(main, ["--archive", str(archive), "ingest", str(old), str(new)])
    assert result.exit_code == 0, result.output
    return archive


def test_ingest_reports_each_file_and_fails_when_one_fails(tmp_path):
    bad = tmp_path / "bad.doc"
    bad.write_bytes(b"\xd0\xcf\x11\xe0 binary word document")
    good = tmp_path / "good.txt"
    good.write_text(modern_text())
    result = CliRunner().invoke(main, ["--archive", str(tmp_path / "a"), "ingest", str(bad), str(good)])
    assert result.exit_code == 1
    assert "added en/2024-11-08 FDN" in result.output
    assert f"error: {bad}: unsupported format 'doc'" in result.output


def test_releases_json_keys(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    result = CliRunner().invoke(main, ["--archive", str(archive), "releases", "--format", "json"])
    data = json.loads(result.output)
    assert [r["effective_date"] for r in data] == ["2011-04-01", "2011-05-01"]
    assert {"language", "effective_date", "set_code", "set_name", "rule_count", "glossary_count", "flags"} <= set(data[0])
    assert (data[1]["set_code"], data[1]["set_name"]) == ("NPH", "New Phyrexia")


def test_rule_by_date_set_code_and_default_newest(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    run = CliRunner().invoke
    old = json.loads(run(main, ["--archive", str(archive), "rule", "400.6", "--release", "2011-04-01", "--format", "json"]).output)
    assert "its owner looks at it" in old["text"]
    new = json.loads(run(main, ["--archive", str(archive), "rule", "400.6", "--release", "NPH", "--format", "json"]).output)
    assert "all players look at it" in new["text"]
    newest = json.loads(run(main, ["--archive", str(archive), "rule", "400.7", "--format", "json"]).output)
    assert {"number", "text", "examples", "effective_date"} <= set(newest)
    assert newest["effective_date"] == "2011-05-01"
    assert len(newest["examples"]) == 2
    text = run(main, ["--archive", str(archive), "rule", "400.7"]).output
    assert "Example: A player casts" in text


def test_rule_errors_are_one_line(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    result = CliRunner().invoke(main, ["--archive", str(archive), "rule", "999.9"])
    assert result.exit_code == 1
    assert "no rule 999.9 in en/2011-05-01" in result.output
    empty = CliRunner().invoke(main, ["--archive", str(tmp_path / "none"), "rule", "100.1"])
    assert empty.exit_code == 1 and "rulesarchive ingest" in empty.output


def test_archive_from_environment(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    result = CliRunner().invoke(main, ["releases"], env={"RULESARCHIVE_ARCHIVE": str(archive)})
    assert "2011-05-01" in result.output


def test_python_dash_m_end_to_end(tmp_path):
    source = tmp_path / "cr.txt"
    source.write_text(modern_text())
    archive = tmp_path / "archive"
    run = [sys.executable, "-m", "rulesarchive", "--archive", str(archive)]
    subprocess.run([*run, "ingest", str(source)], check=True, capture_output=True)
    result = subprocess.run([*run, "rule", "100.2"], check=True, capture_output=True, text=True)
    assert result.stdout.startswith("100.2 Sample rule number 2")
