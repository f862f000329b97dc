"""`export --doc mtr|ipg`: a tournament document's sections and parts exported as rules are."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from rulesarchive.exports.jsonfiles import schema_path

from rulesarchive.cli import main
from tests.made_once import made_once

# The Floor Rules' last version and the Tournament Rules renumbered into sections 1-10.
FILES = ("mtr/mtr-2008-03-01.txt", "mtr/mtr-2009-06-20.txt")


@pytest.fixture(scope="module")
def archive(policy_archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of two real MTRs (and no CR)."""

    def ingest(folder: Path) -> None:
        paths = [str(policy_archive / name) for name in FILES]
        result = CliRunner().invoke(main, ["--archive", str(folder / "archive"), "ingest", *paths])
        assert result.exit_code == 0, result.output

    folder, _ = made_once(tmp_path_factory, "mtr-archive", ingest)
    return folder / "archive"


def _run(archive: Path, *arguments: str) -> str:
    result = CliRunner().invoke(main, ["--archive", str(archive), *arguments])
    assert result.exit_code == 0, result.output
    return result.output


def test_sqlite_holds_the_sections_and_parts_as_rules_and_names_the_kind(archive, tmp_path):
    dest = tmp_path / "mtr.sqlite"
    _run(archive, "export", "sqlite", str(dest), "--doc", "mtr")
    db = sqlite3.connect(dest)
    assert dict(db.execute("SELECT key, value FROM meta"))["doc"] == "mtr"
    dates = [row[0] for row in db.execute("SELECT effective_date FROM releases ORDER BY id")]
    assert dates == ["2008-03-01", "2009-07-01"]
    (text,) = db.execute(
        "SELECT rules.text FROM rules JOIN releases ON releases.id = release_id"
        " WHERE effective_date = '2009-07-01' AND number = '3.10'"
    ).fetchone()
    printed = json.loads(_run(archive, "rule", "3.10", "--doc", "mtr", "--format", "json"))
    assert text == printed["text"]
    assert text.startswith("Players are responsible for ensuring that their cards")
    (title,) = db.execute(
        "SELECT title FROM headings JOIN releases ON releases.id = release_id"
        " WHERE effective_date = '2009-07-01' AND number = '3.10'"
    ).fetchone()
    assert title == "Marked Cards"
    count = db.execute("SELECT rule_count FROM releases WHERE effective_date = '2009-07-01'")
    rules = db.execute(
        "SELECT count(*) FROM rules JOIN releases ON releases.id = release_id"
        " WHERE effective_date = '2009-07-01'"
    )
    assert count.fetchone() == rules.fetchone()


def test_json_validates_and_its_changes_are_the_changelogs(archive, tmp_path):
    dest = tmp_path / "json"
    _run(archive, "export", "json", str(dest), "--doc", "mtr")
    data = json.loads((dest / "en.json").read_text(encoding="utf-8"))
    schema = json.loads(schema_path("export.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema, format_checker=jsonschema.FormatChecker())
    assert data["meta"]["doc"] == "mtr"
    changelog = json.loads(_run(archive, "changelog", "--doc", "mtr", "--format", "json"))
    assert data["releases"][-1]["changes"] == changelog


def test_a_kind_the_archive_lacks_is_one_line_and_status_1(archive, tmp_path):
    result = CliRunner().invoke(
        main, ["--archive", str(archive), "export", "json", str(tmp_path / "x"), "--doc", "ipg"]
    )
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ")
    assert not (tmp_path / "x").exists()
