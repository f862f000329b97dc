"""The CLI wiring, through click's CliRunner, and one real run of the installed command."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.store import ArchiveError
from rulesarchive.scraper import ingest as ingest_module

from rulesarchive import progress as progress_module
from rulesarchive.cli import COMMANDS, main
from rulesarchive.errors import reported_errors
from tests.samples import ZONE_RULES, modern_text


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
    result = CliRunner().invoke(
        main, ["--archive", str(tmp_path / "a"), "ingest", str(bad), str(good)]
    )
    assert result.exit_code == 1
    assert "added en/2024-11-08 FDN" in result.output
    assert f"error: {bad}: unsupported format 'doc'" in result.output


def test_releases_json_keys(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    result = CliRunner().invoke(main, ["--archive", str(archive), "releases", "--format", "json"])
    data = json.loads(result.output)
    assert [r["effective_date"] for r in data] == ["2011-04-01", "2011-05-01"]
    assert {
        "language",
        "effective_date",
        "set_code",
        "set_name",
        "rule_count",
        "glossary_count",
        "flags",
    } <= set(data[0])
    assert (data[1]["set_code"], data[1]["set_name"]) == ("NPH", "New Phyrexia")


def test_rule_by_date_set_code_and_default_newest(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    run = CliRunner().invoke
    old = json.loads(
        run(
            main,
            [
                "--archive",
                str(archive),
                "rule",
                "400.6",
                "--release",
                "2011-04-01",
                "--format",
                "json",
            ],
        ).output
    )
    assert "its owner looks at it" in old["text"]
    new = json.loads(
        run(
            main,
            ["--archive", str(archive), "rule", "400.6", "--release", "NPH", "--format", "json"],
        ).output
    )
    assert "all players look at it" in new["text"]
    newest = json.loads(
        run(main, ["--archive", str(archive), "rule", "400.7", "--format", "json"]).output
    )
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


def test_diff_and_changelog_take_kind_and_section(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    run = CliRunner().invoke
    base = ["--archive", str(archive), "changelog", "NPH", "--format", "json"]
    whole = json.loads(run(main, base).output)
    for options, kept in (
        (["--kind", "substantive"], 1),
        (["--kind", "added", "--kind", "renumbering"], 0),
        (["--section", "4"], 1),
        (["--section", "400"], 1),
        (["--section", "400.6"], 1),
        (["--section", "400.7"], 0),
        (["--section", "glossary"], 0),
    ):
        data = json.loads(run(main, [*base, *options]).output)
        assert set(data) == set(whole) and data["counts"] == whole["counts"]
        assert len(data["changes"]) == kept, options
    text = run(main, ["--archive", str(archive), "diff", "2011-04-01", "NPH", "--kind", "added"])
    assert "400.6" not in text.output
    refused = run(main, [*base, "--section", "4a"])
    assert refused.exit_code == 2 and "'4a' is not a section, chapter or rule" in refused.output


def test_python_dash_m_end_to_end(tmp_path):
    source = tmp_path / "cr.txt"
    source.write_text(modern_text())
    archive = tmp_path / "archive"
    run = [sys.executable, "-m", "rulesarchive", "--archive", str(archive)]
    subprocess.run([*run, "ingest", str(source)], check=True, capture_output=True)
    result = subprocess.run([*run, "rule", "100.2"], check=True, capture_output=True, text=True)
    assert result.stdout.startswith("100.2 Sample rule number 2")


def test_diff_and_changelog_json(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    run = CliRunner().invoke
    result = run(main, ["--archive", str(archive), "diff", "2011-04-01", "NPH", "--format", "json"])
    data = json.loads(result.output)
    assert {"old", "new", "changes", "renumbering", "sweeps"} <= set(data)
    [change] = data["changes"]
    assert {"kind", "old_number", "new_number", "old_text", "new_text", "phrases"} <= set(change)
    assert change["kind"] == "substantive"
    assert change["phrases"] == [{"old": "its owner looks", "new": "all players look"}]
    again = run(main, ["--archive", str(archive), "changelog", "NPH", "--format", "json"])
    assert json.loads(again.output) == data
    markdown = run(main, ["--archive", str(archive), "changelog", "--format", "markdown"]).output
    assert markdown.startswith("# Duel Decks: Knights vs. Dragons (DDG) 2011-04-01 → New Phyrexia")
    assert "- substantive 400.6: “its owner looks” → “all players look”" in markdown


def test_history_cli_from_archive_and_from_file(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    run = CliRunner().invoke
    data = json.loads(
        run(main, ["--archive", str(archive), "history", "400.6", "--format", "json"]).output
    )
    assert data["rule"] == "400.6"
    assert [v["kind"] for v in data["versions"]] == ["unchanged", "substantive"]
    assert {
        "effective_date",
        "until",
        "releases",
        "set_name",
        "number",
        "text",
        "kind",
        "phrases",
        "example_phrases",
    } <= set(data["versions"][0])
    text = run(main, ["--archive", str(archive), "history", "400.6"]).output
    lines = text.splitlines()
    assert lines[0].startswith("400.6 If an object would move")  # the current text first
    assert "“its owner looks” → “all players look”" in text
    every = run(main, ["--archive", str(archive), "history", "400.6", "--all"]).output
    assert "2011-04-01 · Duel Decks: Knights vs. Dragons (DDG) · 400.6 · unchanged" in every
    seed = Path(__file__).parent / "fixtures" / "seed_400_6_history.txt"
    text = run(main, ["history", "--from-file", str(seed), "400.6"]).output
    assert "2011-05-01 · New Phyrexia · 400.6 · substantive" in text
    missing = run(main, ["--archive", str(archive), "history"])
    assert missing.exit_code != 0


def test_releases_of_a_missing_archive_is_an_error(tmp_path):
    result = CliRunner().invoke(main, ["--archive", str(tmp_path / "missing"), "releases"])
    assert result.exit_code == 1
    assert f"no releases in {tmp_path / 'missing'}, no such folder (fill the" in result.output
    (tmp_path / "empty").mkdir()
    empty = CliRunner().invoke(main, ["--archive", str(tmp_path / "empty"), "releases"])
    assert empty.exit_code == 0 and f"no releases in {tmp_path / 'empty'}" in empty.output


def test_an_impossible_date_is_called_a_date(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    result = CliRunner().invoke(
        main, ["--archive", str(archive), "rule", "400.6", "--release", "2024-13-45"]
    )
    assert result.exit_code == 1
    assert "2024-13-45 is not a valid date (give YYYY-MM-DD)" in result.output
    assert "set code" not in result.output


def test_a_readme_is_not_a_rules_document(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# Notes\n\nWiki pages say 'Tratto dal Regolamento …' before a quote.\n")
    result = CliRunner().invoke(main, ["--archive", str(tmp_path / "a"), "ingest", str(readme)])
    assert result.exit_code == 1
    assert result.output.startswith(f"error: {readme}: no numbered rules found: not a Comp")


def test_changelog_help_shows_the_release_as_optional():
    result = CliRunner().invoke(main, ["changelog", "--help"])
    assert "changelog [OPTIONS] [RELEASE]" in result.output


def test_each_file_is_reported_as_soon_as_it_is_stored(tmp_path, monkeypatch):
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text(modern_text())
    second.write_text(modern_text(date="February 7, 2025"))
    real = ingest_module.read_document

    def interrupted(data, name, overrides):
        if name.endswith("second.txt"):
            raise KeyboardInterrupt
        return real(data, name, overrides)

    monkeypatch.setattr(ingest_module, "read_document", interrupted)
    result = CliRunner().invoke(
        main, ["--archive", str(tmp_path / "a"), "ingest", str(first), str(second)]
    )
    assert result.exit_code == 130 and "Aborted!" in result.output  # Ctrl-C during the second
    assert "added en/2024-11-08 FDN" in result.output


def test_gitignore_covers_the_site_link_and_its_folders():
    lines = (Path(__file__).parents[1] / ".gitignore").read_text().splitlines()
    assert {"/site", "/.site.a/", "/.site.b/"} <= set(lines)


def test_a_language_outside_the_closed_set_is_a_usage_error(tmp_path):
    for args in (["ingest", "--lang", "/abs", "x.txt"], ["releases", "--lang", "../../x"]):
        result = CliRunner().invoke(main, ["--archive", str(tmp_path), *args])
        assert result.exit_code == 2
        assert "Invalid value for '--lang'" in result.output


def test_history_from_an_endless_file_stops_at_a_limit():
    result = CliRunner().invoke(main, ["history", "--from-file", "/dev/zero"])
    assert result.exit_code == 1
    assert "over 4 MB, not a rule's history" in result.output


def test_build_from_a_tampered_release_is_one_line(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    path = archive / "en" / "2011-05-01" / "release.json"
    path.write_text(path.read_text().replace('"language": "en"', '"language": "../../../x"'))
    result = CliRunner().invoke(
        main, ["--archive", str(archive), "build", "--out", str(tmp_path / "site")]
    )
    # It costs only itself: left out, said in one line, the other release built.
    assert result.exit_code == 0, result.output
    assert "says ../../../x/2011-05-01, not en/2011-05-01 as its folder does: left out" in (
        result.output
    )
    assert (tmp_path / "site" / "en" / "r" / "2011-04-01").is_dir()
    assert not (tmp_path / "site" / "en" / "r" / "2011-05-01").exists()
    assert not (tmp_path / "x").exists() and not (tmp_path.parent / "x").exists()


def test_leftovers_of_an_interrupted_run_are_reported_not_read(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    leftover = archive / "en" / ".incoming-x1"
    leftover.mkdir()
    (leftover / "release.json").write_text("{}")
    listed = CliRunner().invoke(main, ["--archive", str(archive), "releases"])
    assert listed.exit_code == 0
    assert "note: 1 unfinished folder(s) of an interrupted run" in listed.output
    assert listed.output.count("\nen ") + listed.output.startswith("en ") == 2
    source = tmp_path / "old.txt"
    again = CliRunner().invoke(main, ["--archive", str(archive), "ingest", str(source)])
    assert "note: removed en/.incoming-x1 (left by an interrupted run)" in again.output
    assert not leftover.exists()


def test_check_reports_problems_their_life_and_fixes(tmp_path, derived_data):
    wrong = ZONE_RULES.format(who="all players", s="") + "400.8. See rule 400.9 for zones.\n"
    right = wrong.replace("See rule 400.9", "See rule 400.1")
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text(modern_text(date="April 1, 2011", zone_rules=wrong))
    new.write_text(modern_text(date="May 1, 2011", zone_rules=right))
    archive = ["--archive", str(tmp_path / "archive")]
    run = CliRunner().invoke
    assert run(main, [*archive, "ingest", str(old), str(new)]).exit_code == 0
    result = run(main, [*archive, "check", "2011-04-01", "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) == {"language", "release", "references", "problems"}
    assert {"rule": "400.8", "cites": "400.9", "in": "text"} in data["references"]
    assert [(p["rule"], p["cites"], p["kind"], p["since"]) for p in data["problems"]] == [
        ("400.7", "400.7", "self", "2011-04-01"),  # "Example: A second example for rule 400.7."
        ("400.8", "400.9", "dangling", "2011-04-01"),
        ("Glossary: Ability", "113", "dangling", "2011-04-01"),  # the sample has no chapter 113
    ]
    strict = run(main, [*archive, "check", "--strict"])
    assert strict.exit_code == 1
    assert "dangling Glossary: Ability cites 113 [since 2011-04-01]" in strict.output
    every = json.loads(run(main, [*archive, "check", "--all", "--format", "json"]).output)
    assert [(p["cites"], p["fixed"]) for p in every["problems"]] == [
        ("400.7", None),
        ("400.9", "2011-05-01"),
        ("113", None),
    ]
    assert run(main, [*archive, "check", "--all", "--strict"]).exit_code == 1  # 400.7 is open
    assert run(main, [*archive, "check", "2011-04-01", "--all", "--strict"]).exit_code == 1
    changelog = run(main, [*archive, "changelog"]).output
    assert "reference 400.8: “400.9” → “400.1”; fixes the citation of 400.9" in changelog
    assert "check" in {row.kind for row in DerivedData(derived_data).summary()}  # kept by content
    again = tmp_path / "again.txt"
    again.write_text(modern_text(date="June 17, 2011", zone_rules=wrong))  # wrong once more
    assert run(main, [*archive, "ingest", str(again)]).exit_code == 0
    every = json.loads(run(main, [*archive, "check", "--all", "--format", "json"]).output)
    assert len(every["releases"]) == 3
    assert [(p["since"], p["fixed"]) for p in every["problems"] if p["cites"] == "400.9"] == [
        ("2011-04-01", "2011-05-01"),
        ("2011-06-17", None),
    ]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _ingest_three(tmp_path, monkeypatch, stderr: io.StringIO) -> str:
    """Ingest three releases with stderr replaced; return what went to stdout."""
    paths = []
    for number, date in enumerate(["April 1, 2011", "May 1, 2011", "June 17, 2011"]):
        paths.append(tmp_path / f"{number}.txt")
        paths[-1].write_text(modern_text(date=date))
    monkeypatch.setattr(sys, "stderr", stderr)
    stdout = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stdout)
    main.main(["--archive", str(tmp_path / "a"), "ingest", *map(str, paths)], standalone_mode=False)
    return stdout.getvalue()


def test_ingest_draws_a_progress_bar_on_a_terminal(tmp_path, monkeypatch):
    terminal = _Terminal()
    said = _ingest_three(tmp_path, monkeypatch, terminal)
    assert "Ingesting" in terminal.getvalue() and "100%" in terminal.getvalue()
    assert said.count("added en/") == 3


def test_ingest_is_quiet_on_stderr_when_piped(tmp_path, monkeypatch):
    piped = io.StringIO()
    said = _ingest_three(tmp_path, monkeypatch, piped)
    assert piped.getvalue() == ""
    assert said.count("added en/") == 3


def test_build_stages_are_silent_when_piped(monkeypatch):
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", piped)
    with progress_module.stages() as progress:
        progress("reading en", 0, 0)
        progress("rendering en", 100, 100)
    assert piped.getvalue() == ""


@pytest.mark.parametrize(
    "error",
    [ArchiveError("archive/en/2011-04-01/release.json: unreadable"), LookupError("no rule 9")],
)
def test_domain_errors_become_one_line(error):
    with pytest.raises(click.ClickException) as raised, reported_errors():
        raise error
    assert raised.value.message == str(error)


def test_bugs_keep_their_traceback():
    with pytest.raises(KeyError), reported_errors():
        raise KeyError("a bug, not bad input")


def _command(name: str) -> click.Command:
    found = main.get_command(click.Context(main), name)
    assert found is not None
    return found


def test_the_shared_options_keep_their_names_and_defaults():
    for name in ("rule", "diff", "changelog", "history", "check"):
        lang = next(p for p in _command(name).params if p.name == "lang")
        assert (lang.opts, lang.default) == (["--lang"], "en")
    output = next(p for p in _command("diff").params if p.name == "output")
    assert (output.opts, output.default) == (["--format"], "text")
    assert list(output.type.choices) == ["text", "markdown", "json"]


def test_help_lists_every_command_with_its_own_short_help_and_loads_none():
    for name, (_module, line) in COMMANDS.items():
        assert _command(name).get_short_help_str(limit=200) == line, name
    command = [sys.executable, "-X", "importtime", "-m", "rulesarchive", "--help"]
    shown = subprocess.run(command, capture_output=True, text=True, check=True)
    assert all(name in shown.stdout for name in COMMANDS)
    imported = {line.split("|")[-1].strip() for line in shown.stderr.splitlines()}
    assert not {name for name in imported if name.startswith("rulesarchive.commands")}
    assert "rulesarchive.library" not in imported and "rulesarchive.corpus.store" not in imported


def test_a_document_rewritten_in_place_is_read_afresh(tmp_path):
    """What is derived from a document is named by its content, not by its file's stamps."""
    archive = _archive_with_two_releases(tmp_path)
    before = CliRunner().invoke(main, ["--archive", str(archive), "rule", "100.2"])
    assert before.output.startswith("100.2 Sample rule number 2")
    document = archive / "en" / "2011-05-01" / "document.json"
    stat = document.stat()
    document.write_text(document.read_text().replace("rule number 2 ", "rule NUMBER 2 "))
    os.utime(document, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same time
    assert document.stat().st_size == stat.st_size
    after = CliRunner().invoke(main, ["--archive", str(archive), "rule", "100.2"])
    assert after.output.startswith("100.2 Sample rule NUMBER 2")


def test_a_stdout_that_cannot_show_every_character_gets_replacements(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    command = [sys.executable, "-m", "rulesarchive", "-q", "--archive", str(archive), "changelog"]
    made = subprocess.run(command, capture_output=True, check=True).stdout.decode()
    assert "“" in made  # a phrase change is quoted
    latin = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    again = subprocess.run(command, capture_output=True, env=latin)
    assert again.returncode == 0, again.stderr
    assert again.stdout.decode("latin-1") == made.encode("latin-1", "replace").decode("latin-1")


def test_ctrl_c_in_a_command_ends_with_aborted_and_130(tmp_path, monkeypatch):
    from rulesarchive.api import Archive

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Archive, "changelog", interrupted)
    result = CliRunner().invoke(main, ["--archive", str(tmp_path), "changelog"])
    assert result.exit_code == 130 and result.stderr == "\nAborted!\n"


def test_a_rule_number_is_read_as_people_type_it(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    for typed in ["CR 400.6", "rule 400.6.", "400.6"]:
        for command in (["rule", typed], ["history", typed]):
            result = CliRunner().invoke(main, ["--archive", str(archive), *command])
            assert result.exit_code == 0, (command, result.output)
            assert "all players look at it" in result.output


def test_an_unknown_number_names_the_nearest_ones(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    for command in ("rule", "history"):
        result = CliRunner().invoke(main, ["--archive", str(archive), command, "400.66"])
        assert result.exit_code == 1
        assert result.output.startswith("Error: no rule 400.66 in en/2011-05-01")
        assert result.output.rstrip().endswith("; nearest: 400.7a")
    garbage = CliRunner().invoke(main, ["--archive", str(archive), "rule", "abc"])
    assert garbage.exit_code == 1
    assert "'abc' is not a rule number" in garbage.output


def test_a_date_between_releases_names_the_release_in_force(tmp_path):
    archive = _archive_with_two_releases(tmp_path)
    run = CliRunner().invoke
    between = run(main, ["--archive", str(archive), "rule", "400.6", "--release", "2011-04-20"])
    assert between.exit_code == 0
    assert "its owner looks at it" in between.stdout
    assert "taking the one in force that day, 2011-04-01" in between.stderr
    before = run(main, ["--archive", str(archive), "rule", "400.6", "--release", "2000-01-01"])
    assert before.exit_code == 1
    assert "no en release effective 2000-01-01: the first is 2011-04-01" in before.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rule"], "Error: Missing argument 'NUMBER'. (see 'rulesarchive rule --help')"),
        (["--bogus", "releases"], "Error: No such option '--bogus'."),
        (["nosuch"], "Error: No such command 'nosuch'. (see 'rulesarchive --help')"),
    ],
)
def test_a_command_line_that_cannot_be_taken_is_one_line_with_status_2(args, message):
    result = CliRunner().invoke(main, args, prog_name="rulesarchive")
    assert result.exit_code == 2
    assert result.output.startswith(message)
    assert result.output.count("\n") == 1


def test_build_reads_the_archive_as_it_was_when_it_started(tmp_path, monkeypatch):
    archive = _archive_with_two_releases(tmp_path)
    later = tmp_path / "later.txt"
    later.write_text(modern_text(date="June 1, 2011"))
    seen = []

    def build_site(library, out, base_url, progress, diffs, documents):
        added = CliRunner().invoke(main, ["--archive", str(archive), "ingest", str(later)])
        assert added.exit_code == 0, added.output  # an ingest while the build reads
        seen.append([str(release.effective_date) for release in library.releases("en")])
        raise click.ClickException("stopped after reading")

    monkeypatch.setattr("rulesarchive.commands.site.build_site", build_site)
    result = CliRunner().invoke(
        main, ["--archive", str(archive), "build", "--out", str(tmp_path / "site")]
    )
    assert "stopped after reading" in result.output
    assert seen == [["2011-04-01", "2011-05-01"]]
    assert not [path for path in archive.iterdir() if path.name.startswith(".snapshot-")]


@pytest.mark.parametrize(
    "command",
    [
        ["releases"],
        ["rule", "100.1"],
        ["history", "100.1"],
        ["changelog"],
        ["diff", "2020-01-01", "2021-01-01"],
        ["check"],
        ["translations"],
        ["build", "--out", "SITE"],
        ["export", "json", "OUT"],
    ],
)
def test_every_command_says_no_archive_in_one_wording(tmp_path, command):
    missing = tmp_path / "missing"
    command = [str(tmp_path / part) if part in ("SITE", "OUT") else part for part in command]
    result = CliRunner().invoke(main, ["--archive", str(missing), *command])
    assert result.exit_code == 1
    hint = "(fill the archive with 'rulesarchive ingest FILES' or 'rulesarchive scrape', "
    assert re.fullmatch(
        rf"Error: no (en )?releases in {re.escape(str(missing))}, no such folder {re.escape(hint)}"
        r"or point --archive at one\)\n",
        result.output,
    )


def test_the_process_ends_without_walking_its_objects_again():
    # an atexit handler registered before the CLI's runs after it (last in, first out)
    code = (
        "import atexit, gc\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "from rulesarchive.cli import main\n"
        "main(['--version'])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stdout.splitlines()[-1] == "frozen True"
