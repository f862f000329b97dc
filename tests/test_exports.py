"""`rulesarchive export sqlite|json|git`: each checked with the tool its users would use."""

import asyncio
import datetime as dt
import json
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from rulesarchive.corpus.model import Document, Rule
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.kinds import WORDING
from rulesarchive.exports.jsonfiles import SCHEMA_FILES, schema_path
from rulesarchive.exports.sqlite import (
    INDEXES,
    RULES_WITH_CHARACTERS,
    SCHEMA,
    SEARCH,
    VIEWS,
    datasette_metadata,
)
from rulesarchive.site_builder.build import sample_archive

from rulesarchive.cli import main
from rulesarchive.library import Library
from tests.site_fixture import fixture_archive, save_release

# Every version of the rule printed as NUMBER in the newest release of a language.
EVERY_VERSION = """
SELECT releases.effective_date, rules.number, rules.text
FROM rules JOIN releases ON releases.id = rules.release_id
WHERE rules.line_id = (
    SELECT rules.line_id FROM rules JOIN releases ON releases.id = rules.release_id
    WHERE releases.language = ? AND rules.number = ?
    ORDER BY releases.effective_date DESC LIMIT 1)
ORDER BY releases.effective_date
"""


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """A copy of the shipped sample archive (exports cache diffs inside the archive)."""
    root = tmp_path_factory.mktemp("sample") / "archive"
    shutil.copytree(sample_archive(), root)
    return root


def export(archive_root, fmt, dest, *options):
    result = CliRunner().invoke(
        main, ["--archive", str(archive_root), "export", fmt, str(dest), *options]
    )
    assert result.exit_code == 0, result.output
    return result.output


def cli_json(archive_root, *args):
    result = CliRunner().invoke(main, ["--archive", str(archive_root), *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def git(repo, *args):
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def test_sqlite_tables_keys_and_search(sample, tmp_path):
    dest = tmp_path / "rules.sqlite"
    assert "exported 11 releases (en) as sqlite" in export(sample, "sqlite", dest)
    db = sqlite3.connect(dest)
    versions = db.execute(EVERY_VERSION, ("en", "400.6")).fetchall()
    assert [v[0] for v in versions] == [
        r.effective_date.isoformat() for r in Archive(sample).releases()
    ]
    assert {v[1] for v in versions} == {"400.6"}
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    keys = {row[2] for row in db.execute("PRAGMA foreign_key_list(rules)")}
    assert keys == {"releases", "lines"}
    indexes = {row[1] for row in db.execute("SELECT * FROM sqlite_master WHERE type = 'index'")}
    assert {"rules_by_line", "rules_by_number", "changes_by_pair"} <= indexes
    found = db.execute(
        "SELECT rules.number FROM rules_fts JOIN rules ON rules.id = rules_fts.rowid "
        "WHERE rules_fts MATCH '\"all players look\"'"
    ).fetchall()
    assert found and {number for (number,) in found} == {"400.6"}
    meta = dict(db.execute("SELECT key, value FROM meta"))
    assert meta["schema_version"] == "1" and meta["rulesarchive_version"]


def test_sqlite_search_is_found_by_sqlite_utils_and_datasette(sample, tmp_path):
    dest = tmp_path / "rules.sqlite"
    export(sample, "sqlite", dest)
    found = subprocess.run(
        [
            sys.executable,
            "-m",
            "sqlite_utils",
            "search",
            str(dest),
            "rules",
            "all players look",
            *COLUMNS,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert {row["number"] for row in json.loads(found)} == {"400.6"}
    assert {row["line_id"] for row in json.loads(found)} == {"2010-02-01/400.6"}
    metadata = json.loads((tmp_path / "rules.metadata.json").read_text())
    rows = asyncio.run(_datasette(dest, metadata, "/rules/rules.json?_search=deathtouch"))
    assert rows and {row["number"] for row in rows} == {"702.18"}  # not every rule
    on_date = "/rules/rules_on_date.json?language=en&date=2011-01-01"
    in_force = asyncio.run(_datasette(dest, metadata, on_date))
    assert {row["in_force_from"] for row in in_force} == {"2010-10-01"}


COLUMNS = ["-c", "number", "-c", "line_id"]


async def _datasette(path, metadata, url):
    from datasette.app import Datasette

    response = await Datasette([str(path)], metadata=metadata).client.get(
        url + "&_shape=array&_size=max"
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_sqlite_keys_flags_and_tables_of_a_diff(sample, tmp_path):
    dest = tmp_path / "rules.sqlite"
    export(sample, "sqlite", dest)
    db = sqlite3.connect(dest)
    tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    for table in tables:
        if table.endswith(("_fts", "_trigram")) or "_fts_" in table or "_trigram_" in table:
            continue
        columns = db.execute(f"PRAGMA table_info({table})").fetchall()
        assert any(column[5] for column in columns), f"{table} has no primary key"
    assert {"sweeps", "splits", "merges", "glossary_changes", "line_aliases"} <= set(tables)
    for table, column in (("lines", "first"), ("versions", "compared"), ("rules", "line")):
        keys = db.execute(f"PRAGMA foreign_key_list({table})").fetchall()
        assert any(key[3] == column for key in keys), (table, column)
    changes = cli_json(sample, "changelog", "2011-05-01")["changes"]
    rows = db.execute(
        "SELECT count(*) FROM changes JOIN releases ON releases.id = new_release_id "
        "WHERE effective_date = '2011-05-01' AND heading = 0 AND kind = 'substantive'"
    ).fetchone()[0]
    assert rows == sum(1 for c in changes if c["kind"] == "substantive" and not c["heading"])


def test_sqlite_chinese_is_searched_by_trigrams(tmp_path):
    """unicode61 keeps a run of Chinese whole; the trigram table finds three characters by
    MATCH, and any number (a word of two) by the metadata's query, in Datasette too."""
    dest = tmp_path / "x.sqlite"
    db = sqlite3.connect(dest)
    db.executescript(SCHEMA + VIEWS)
    db.execute(
        "INSERT INTO releases VALUES (1, 'zh-Hans', '2024-01-01', '', '', 1, 0, '', '', '', '')"
    )
    db.execute("INSERT INTO lines VALUES (1, 'zh-Hans', 'a', 0, 1, 1, '[]')")
    destroy = "消灭永久物即是将其从战场移到其拥有者的坟墓场。"  # 701.7 (zh-Hans)
    example = '["例如：一个「消灭」效应。"]'
    rows = [(1, 0, "701.7", destroy, "[]"), (2, 1, "701.8", "牺牲永久物。", example)]
    db.executemany("INSERT INTO rules VALUES (?, 1, ?, ?, 'a', 1, ?, ?, NULL, NULL)", rows)
    db.execute(
        "INSERT INTO changes VALUES (1, 1, 1, 'added', 0, NULL, '701.7', 'a', 1, 0, '', ?,"
        " '[]', '[]', '[]', '[]', '[]')",
        (destroy,),
    )
    db.executescript(INDEXES + SEARCH)
    db.commit()
    # unicode61 finds the word only where punctuation sets it apart
    assert db.execute("SELECT rowid FROM rules_fts WHERE rules_fts MATCH '消灭'").fetchall() == [
        (2,)
    ]
    assert db.execute(
        "SELECT rowid FROM rules_trigram WHERE rules_trigram MATCH '战场移'"
    ).fetchall() == [(1,)]
    assert db.execute(
        "SELECT rowid FROM changes_trigram WHERE changes_trigram MATCH '战场移'"
    ).fetchall() == [(1,)]
    word = {"language": "zh-Hans", "characters": "消灭"}
    assert [row[2] for row in db.execute(RULES_WITH_CHARACTERS, word)] == ["701.7", "701.8"]
    db.close()
    metadata = datasette_metadata(dest, {"data_version": "x"})
    url = "/x/rules_with_characters.json?language=zh-Hans&characters=%E6%B6%88%E7%81%AD"
    found = asyncio.run(_datasette(dest, metadata, url))
    assert [row["number"] for row in found] == ["701.7", "701.8"]


def test_sqlite_changes_are_the_diff_json(sample, tmp_path):
    dest = tmp_path / "rules.sqlite"
    export(sample, "sqlite", dest)
    db = sqlite3.connect(dest)
    rows = db.execute(
        "SELECT kind, old_number, new_number, phrases FROM changes "
        "JOIN releases ON releases.id = changes.new_release_id "
        "WHERE releases.effective_date = '2016-09-30' ORDER BY changes.id"
    ).fetchall()
    expected = cli_json(sample, "changelog", "2016-09-30")["changes"]
    assert rows == [
        (c["kind"], c["old_number"], c["new_number"], json.dumps(c["phrases"])) for c in expected
    ]


def test_an_export_replaces_the_old_one_whole_and_a_failure_keeps_it(sample, tmp_path):
    dest = tmp_path / "rules.sqlite"
    export(sample, "sqlite", dest)
    first = sqlite3.connect(dest).execute("SELECT count(*) FROM rules").fetchone()
    export(sample, "sqlite", dest)  # rerun: replaced, not appended to
    assert sqlite3.connect(dest).execute("SELECT count(*) FROM rules").fetchone() == first
    result = CliRunner().invoke(
        main, ["--archive", str(sample), "export", "sqlite", str(dest), "--lang", "xx"]
    )
    assert result.exit_code == 1
    assert "no xx releases" in result.output
    assert sqlite3.connect(dest).execute("SELECT count(*) FROM rules").fetchone() == first
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "rules.metadata.json",
        "rules.sqlite",
    ]


def test_a_sqlite_export_on_a_full_disk_is_one_line(sample, tmp_path, monkeypatch):
    """SQLite says a full disk its own way (OperationalError, SQLITE_FULL), not as OSError."""

    def full(*args):
        error = sqlite3.OperationalError("database or disk is full")
        error.sqlite_errorname = "SQLITE_FULL"
        raise error

    monkeypatch.setattr("rulesarchive.exports.sqlite._fill", full)
    dest = tmp_path / "rules.sqlite"
    result = CliRunner().invoke(main, ["--archive", str(sample), "export", "sqlite", str(dest)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {dest}: cannot be written (No space left on device)"
    ]
    assert list(tmp_path.iterdir()) == []


def test_an_export_never_replaces_something_else(sample, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("keep me")
    (tmp_path / "rules.txt").write_text("keep me too")
    for fmt, dest in (
        ("sqlite", "notes"),
        ("json", "notes"),
        ("git", "notes"),
        ("sqlite", "rules.txt"),
    ):
        result = CliRunner().invoke(
            main, ["--archive", str(sample), "export", fmt, str(tmp_path / dest)]
        )
        assert result.exit_code == 1 and "exists and is not" in result.output, (fmt, dest)
    assert (tmp_path / "notes" / "mine.txt").read_text() == "keep me"
    assert (tmp_path / "rules.txt").read_text() == "keep me too"


def test_json_export_validates_against_its_shipped_schema(sample, tmp_path):
    dest = tmp_path / "json"
    export(sample, "json", dest)
    assert sorted(path.name for path in dest.iterdir()) == sorted(["en.json", *SCHEMA_FILES])
    data = json.loads((dest / "en.json").read_text(encoding="utf-8"))
    schema = json.loads(schema_path("export.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema, format_checker=jsonschema.FormatChecker())
    assert data["meta"]["schema_version"] == 1 and data["meta"]["language"] == "en"
    assert data["meta"]["doc"] == "cr"
    newest = data["releases"][-1]
    assert newest["effective_date"] == "2019-01-25"
    (rule,) = [rule for rule in newest["rules"] if rule["number"] == "400.6"]
    assert rule["id"] == "2010-02-01/400.6"  # as the sample's registry (en/ids.tsv) records it
    assert rule["text"] == cli_json(sample, "rule", "400.6")["text"]
    (line,) = [line for line in data["lines"] if line["id"] == rule["id"]]
    assert line["versions"] == cli_json(sample, "history", "400.6")["versions"]
    assert newest["changes"] == cli_json(sample, "changelog", "2019-01-25")
    assert data["releases"][0]["changes"] is None
    again = tmp_path / "again"
    export(sample, "json", again)
    version = json.loads((again / "en.json").read_text(encoding="utf-8"))["meta"]["data_version"]
    assert version == data["meta"]["data_version"]  # no clock in it


def test_diff_and_history_json_validate_against_their_schemas(sample):
    for schema_name, args in (
        ("diff.schema.json", ("diff", "WWK", "RNA")),
        ("diff.schema.json", ("changelog", "KLD")),
        ("history.schema.json", ("history", "400.6")),
    ):
        schema = json.loads(schema_path(schema_name).read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.validate(
            cli_json(sample, *args), schema, format_checker=jsonschema.FormatChecker()
        )


def test_git_export_answers_history_with_log_and_blame(sample, tmp_path):
    dest = tmp_path / "rules.git"
    export(sample, "git", dest)
    releases = Archive(sample).releases("en")
    log = git(dest, "log", "--reverse", "--format=%ad|%s", "--date=short").splitlines()
    assert log == [
        f"{r.effective_date}|{r.set_name} ({r.set_code})"
        if r.set_code
        else f"{r.effective_date}|{r.set_name}"
        for r in releases
    ]
    assert git(dest, "tag").split() == [r.effective_date.isoformat() for r in releases]
    assert git(dest, "status", "--porcelain") == ""
    numbers = dict(line.split() for line in (dest / "numbers.txt").read_text().splitlines())
    path = f"rules/{numbers['400.6']}.txt"
    assert (dest / path).read_text(encoding="utf-8").startswith("If an object would move")
    # When did "all players look" come in, and when did it go?
    picks = git(dest, "log", "-S", "all players look", "--format=%ad", "--date=short").split()
    assert picks[0] == "2016-09-30" and picks[-1] == "2011-05-01"
    # The README's recipes: the rule's file changes where history sees its wording change.
    versions = cli_json(sample, "history", "400.6")["versions"]
    worded = [v["effective_date"] for v in versions if v is versions[0] or v["kind"] in WORDING]
    assert log_dates(dest, path) == worded[::-1]
    # Its text alone (line 1) changes where its text was reworded, not where only its examples
    # were (the text then still printed with other dashes or quotes keeps its old wording).
    texts = [v["effective_date"] for v in versions if v is versions[0] or v["kind"] in TEXT_KINDS]
    lines = git(dest, "log", "-L", f"1,1:{path}", "--format=%ad", "--date=short", "--no-patch")
    assert lines.split() == texts[::-1]
    assert blame_dates(dest, path)[0] == texts[-1]


TEXT_KINDS = {"substantive", "sweep", "reference"}


def log_dates(repo, path):
    return git(repo, "log", "--format=%ad", "--date=short", "--", path).split()


def blame_dates(repo, path):
    """Return, per line of the file, the date of the commit that last changed it."""
    blame = git(repo, "blame", "--line-porcelain", path).splitlines()
    return [
        dt.datetime.fromtimestamp(int(line.split()[1]), dt.UTC).date().isoformat()
        for line in blame
        if line.startswith("author-time ")
    ]


RULE = "A creature dealt damage is destroyed; its controller-or its owner-chooses how."
REWORDED = RULE.replace("how.", "how and when.")
EXAMPLE = "Example: A 1/1 deals 1."
FIXTURE_RELEASES = [  # (date, the fixture's 702.18b text and example, a new 702.18b before it)
    (dt.date(2030, 1, 1), RULE, EXAMPLE, None),
    (dt.date(2030, 2, 1), REWORDED, EXAMPLE, None),
    (dt.date(2030, 3, 1), REWORDED, EXAMPLE, "Deathtouch counts once."),
    (dt.date(2030, 4, 1), REWORDED.replace("-", "—"), EXAMPLE, "Deathtouch counts once."),
    (dt.date(2030, 5, 1), REWORDED.replace("-", "—"), EXAMPLE[:-1] + " damage.", "Deathtouch."),
]


def test_git_export_follows_a_renumbered_rule_past_a_dash_flip(tmp_path):
    """A rule reworded, then renumbered, then reprinted with em dashes, then given a new
    example: its file's log lists its two wordings and the new example, `log -L` and blame of
    its text name the rewording, the commit of the move names it."""
    library = Library(tmp_path / "archive")
    for date, text, example, inserted in FIXTURE_RELEASES:
        rules = [
            Rule("702.18", "Deathtouch is a static ability."),
            Rule("702.18a", "A creature with deathtouch destroys what it damages."),
            *([Rule("702.18b", inserted)] if inserted else []),
            Rule("702.18c" if inserted else "702.18b", text, (example,)),
            Rule("702.19", "Banding is a static ability."),
        ]
        document = Document("en", date, rules=tuple(rules))
        save_release(library, document, "", f"Fixture {date}")
    dest = tmp_path / "rules.git"
    export(library.root, "git", dest)
    numbers = dict(line.split() for line in (dest / "numbers.txt").read_text().splitlines())
    assert numbers["702.18c"] == "2030-01-01/702.18b"
    path = "rules/2030-01-01/702.18b.txt"
    assert (dest / path).read_text(encoding="utf-8").splitlines() == [
        REWORDED,  # the em dashes of 2030-04-01 are typography: not written, nor in 2030-05-01
        "Example: A 1/1 deals 1 damage.",
    ]
    assert log_dates(dest, path) == ["2030-05-01", "2030-02-01", "2030-01-01"]
    text = git(dest, "log", "-L", f"1,1:{path}", "--format=%ad", "--date=short", "--no-patch")
    assert text.split() == ["2030-02-01", "2030-01-01"]
    assert blame_dates(dest, path) == ["2030-02-01", "2030-05-01"]
    moved = git(dest, "log", "--grep", "702.18b → ", "--format=%ad%n%b", "--date=short")
    assert moved.split("\n")[0] == "2030-03-01"
    assert "\nRenumbered:\n702.18b → 702.18c\n" in moved
    first = git(dest, "rev-parse", "HEAD")
    export(library.root, "git", tmp_path / "again")
    assert git(tmp_path / "again", "rev-parse", "HEAD") == first


def test_git_export_is_reproducible_and_takes_one_language(sample, tmp_path):
    export(sample, "git", tmp_path / "a")
    export(sample, "git", tmp_path / "b")
    export(sample, "git", tmp_path / "b")  # a rerun replaces the repository
    export(sample, "json", tmp_path / "json")
    export(sample, "json", tmp_path / "json")
    assert git(tmp_path / "a", "rev-parse", "HEAD") == git(tmp_path / "b", "rev-parse", "HEAD")
    result = CliRunner().invoke(
        main,
        [
            "--archive",
            str(sample),
            "export",
            "git",
            str(tmp_path / "c"),
            "--lang",
            "en",
            "--lang",
            "it",
        ],
    )
    assert result.exit_code == 1 and "one language" in result.output


def test_sqlite_translations_are_the_librarys_reports(tmp_path):
    """The export asks the library for each translated release's report, as the CLI and the
    site do: every rule's status and problems as `translations` gives them."""
    library = fixture_archive(tmp_path / "archive")
    dest = tmp_path / "rules.sqlite"
    export(library.root, "sqlite", dest)
    db = sqlite3.connect(dest)
    query = (
        "SELECT number, status, problems FROM translations JOIN releases "
        "ON releases.id = release_id WHERE language = ? AND effective_date = ? "
        "ORDER BY translations.id"
    )
    for language in ("ko", "zh-Hans"):
        for release in library.releases(language):
            report = library.translation(language, release)
            expected = [
                (rule.number, rule.status, json.dumps(list(rule.problems), ensure_ascii=False))
                for rule in report.rules
            ]
            rows = db.execute(query, (language, release.effective_date.isoformat())).fetchall()
            assert rows and rows == expected, release.key


def test_real_archive_sqlite_follows_400_6_and_matches_the_cli(ingested, tmp_path):
    archive, _ = ingested
    dest = tmp_path / "rules.sqlite"
    export(archive.root, "sqlite", dest)
    db = sqlite3.connect(dest)
    versions = db.execute(EVERY_VERSION, ("en", "400.6")).fetchall()
    history = cli_json(archive.root, "history", "400.6")
    assert versions[0][:2] == (history["versions"][0]["effective_date"], "217.1d")
    # one row per release; the history's versions are runs of releases printing it alike
    assert len(versions) == sum(v["releases"] for v in history["versions"])
    dates = [v[0] for v in versions]
    assert [v["effective_date"] for v in history["versions"]] == [
        date for date in dates if any(v["effective_date"] == date for v in history["versions"])
    ]
    report = cli_json(archive.root, "translations", "zh-Hans", "--release", "2024-03-08")
    counts = dict(
        db.execute(
            "SELECT status, count(*) FROM translations JOIN releases ON releases.id = release_id "
            "WHERE language = 'zh-Hans' AND effective_date = '2024-03-08' GROUP BY status"
        ).fetchall()
    )
    assert counts == {k: v for k, v in report["counts"].items() if k != "mismatched" and v}
    renumbered = db.execute(
        "SELECT count(*) FROM renumbering JOIN releases ON releases.id = new_release_id "
        "WHERE language = 'en' AND effective_date = '2009-07-11'"
    ).fetchone()[0]
    assert renumbered == len(cli_json(archive.root, "changelog", "2009-07-11")["renumbering"])
    substantive = cli_json(archive.root, "changelog", "2011-05-01", "--kind", "substantive")
    assert db.execute(
        "SELECT count(*) FROM changes JOIN releases ON releases.id = new_release_id "
        "WHERE language = 'en' AND effective_date = '2011-05-01' AND kind = 'substantive' "
        "AND heading = 0"
    ).fetchone() == (substantive["counts"]["substantive"],)
    # a Chinese word of two characters ('消灭', destroy): found as LIKE finds it in `rules`
    word = {"language": "zh-Hans", "characters": "消灭"}
    found = db.execute(RULES_WITH_CHARACTERS, word).fetchall()
    liked = db.execute(
        "SELECT count(*) FROM rules JOIN releases ON releases.id = release_id "
        "WHERE language = :language "
        "AND (text LIKE '%' || :characters || '%' OR examples LIKE '%' || :characters || '%')",
        word,
    ).fetchone()[0]
    assert len(found) == liked > 500


def test_real_archive_git_answers_the_readme_recipes_as_history_does(ingested, tmp_path):
    """The README's git recipes, run as written on the whole archive: each says what `history
    400.6` says (its text last reworded in 2016-09-30, though its dashes flipped in 2019)."""
    archive, _ = ingested
    dest = tmp_path / "rules.git"
    export(archive.root, "git", dest)
    recipes = git_recipes()
    assert run_recipe(dest, recipes["grep"]) == "400.6 2001-07-23/217.1d\n"
    versions = cli_json(archive.root, "history", "400.6")["versions"]
    worded = [v["effective_date"] for v in versions if v is versions[0] or v["kind"] in WORDING]
    texts = [v["effective_date"] for v in versions if v is versions[0] or v["kind"] in TEXT_KINDS]
    assert texts[-1] == "2016-09-30"
    dated = ["--format=@%ad", "--date=short"]  # each commit's date on a line of its own
    assert recipe_dates(dest, recipes["log -p"], *dated) == worded[::-1]
    assert recipe_dates(dest, recipes["log -L"], *dated) == texts[::-1]
    blame = run_recipe(dest, recipes["blame"], "--date=short").splitlines()
    assert blame[0].split(" (rulesarchive ")[1].startswith(texts[-1])
    assert recipe_dates(dest, recipes["log --grep"], *dated) == ["2009-07-11"]


def git_recipes():
    """Return the README's git recipes (the block of commands that greps numbers.txt), each by
    its git subcommand and first option."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    (block,) = [b for b in readme.split("\n\n") if b.startswith("      grep '^400.6 ' numbers")]
    commands = [shlex.split(line.split("#")[0]) for line in block.splitlines()]
    return {
        "grep" if words[0] == "grep" else " ".join(words[1:3]).split(" rules/")[0]: words
        for words in commands
    }


def run_recipe(repo, words, *options):
    """Run a README recipe in `repo` (a git command given `options` after its subcommand)."""
    if words[0] == "grep":
        command = [*words[:-1], str(repo / words[-1])]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return git(repo, words[1], *options, *words[2:])


def recipe_dates(repo, words, *options):
    """Return the dates of the commits a git recipe lists (`options` print each as '@date')."""
    return re.findall(r"^@(\S+)$", run_recipe(repo, words, *options), re.M)


@pytest.mark.parametrize("fmt", ["sqlite", "json", "git"])
def test_an_unwritable_destination_is_one_line(sample, fmt):
    result = CliRunner().invoke(main, ["--archive", str(sample), "export", fmt, "/proc/x"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: /proc/x: cannot be written (")
    assert result.output.count("\n") == 1


@pytest.mark.parametrize("fmt", ["sqlite", "json", "git"])
def test_a_destination_under_a_file_says_which_is_not_a_folder(sample, tmp_path, fmt):
    """Not mkdir's "File exists": the part of the path that is a file, not a folder."""
    (tmp_path / "notes").write_text("a file")
    for dest, file in (
        (tmp_path / "notes/x", tmp_path / "notes"),
        (Path("/dev/null/x"), "/dev/null"),
    ):
        result = CliRunner().invoke(main, ["--archive", str(sample), "export", fmt, str(dest)])
        assert result.exit_code == 1
        assert result.output == f"Error: {dest}: cannot be written ({file} is not a folder)\n"
    assert (tmp_path / "notes").read_text() == "a file"


def test_an_export_killed_while_replacing_its_folder_is_mended_by_the_next(sample, tmp_path):
    dest = tmp_path / "json"
    export(sample, "json", dest)
    kept = sorted(path.name for path in dest.iterdir())
    dest.rename(tmp_path / ".json.retired")  # killed after setting the old one aside
    export(sample, "json", dest)
    assert sorted(path.name for path in dest.iterdir()) == kept
    assert sorted(path.name for path in tmp_path.iterdir()) == ["json"]
    export(sample, "json", dest)  # replaced in one step: nothing is left beside it
    assert sorted(path.name for path in tmp_path.iterdir()) == ["json"]


def test_a_translated_rule_names_the_english_rule_it_translates(tmp_path):
    library = fixture_archive(tmp_path / "archive")
    export(library.root, "json", tmp_path / "json")
    english = json.loads((tmp_path / "json" / "en.json").read_text(encoding="utf-8"))
    chinese = json.loads((tmp_path / "json" / "zh-Hans.json").read_text(encoding="utf-8"))
    (base,) = [r for r in english["releases"] if r["effective_date"] == "2014-02-01"]
    english_ids = {rule["number"]: rule["id"] for rule in base["rules"]}
    rules = chinese["releases"][0]["rules"]
    assert rules and all(rule["english_id"] == english_ids[rule["number"]] for rule in rules)
    export(library.root, "sqlite", tmp_path / "rules.sqlite")
    db = sqlite3.connect(tmp_path / "rules.sqlite")
    rows = db.execute(
        "SELECT translations.number, lines.line_id FROM translations "
        "JOIN lines ON lines.id = translations.english_line "
        "JOIN releases ON releases.id = translations.release_id WHERE releases.language = 'zh-Hans'"
    ).fetchall()
    assert len(rows) == len(rules) and all(english_ids[n] == line for n, line in rows)
