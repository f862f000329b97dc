"""The quick path: a repeated `diff`/`changelog` answers from its kept output, byte for byte,
and never from a stale one (after an ingest, an edit of a release, a change of the code)."""

import io
import logging
import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner
from rulesarchive.differ import cache as differ_cache
from rulesarchive.differ.cache import diff_folder

from rulesarchive import kept, launch, reading
from rulesarchive.cli import main
from rulesarchive.launch import kept_answer, library_output, parse_request
from rulesarchive.quick import report_answer
from tests.samples import modern_text

DATES = ["April 1, 2011", "May 1, 2011", "June 17, 2011"]
FORMATS = ["text", "markdown", "json"]


def ingest(archive, tmp_path, *dates):
    paths = []
    for date in dates:
        paths.append(tmp_path / f"{date}.txt")
        who = "its owner" if date == DATES[0] else "all players"
        paths[-1].write_text(modern_text(date=date, who=who))
    result = CliRunner().invoke(main, ["--archive", str(archive), "ingest", *map(str, paths)])
    assert result.exit_code == 0, result.output


def cli(archive, *args) -> str:
    result = CliRunner().invoke(main, ["--archive", str(archive), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture
def archive(tmp_path):
    archive = tmp_path / "archive"
    ingest(archive, tmp_path, *DATES[:2])
    return archive


@pytest.mark.parametrize(
    "args",
    [
        ["diff", "2011-04-01", "2011-05-01"],
        ["diff", "DDG", "NPH", "--format", "json"],
        ["changelog", "--format=markdown", "--lang", "en"],
        ["changelog", "NPH"],
    ],
)
def test_a_repeated_command_is_answered_byte_for_byte_from_its_kept_output(archive, args):
    argv = ["--archive", str(archive), *args]
    first = kept_answer(argv, {})
    made = cli(archive, *args)
    # Never asked: the CLI must run; but two releases named by date have the report kept
    # beside their diff, which ingest made for the release it added at the end.
    assert first == (made if args == ["diff", "2011-04-01", "2011-05-01"] else None)
    assert made and kept_answer(argv, {}) == made


def test_the_newest_changelog_is_made_afresh_after_an_ingest(archive, tmp_path):
    argv = ["--archive", str(archive), "changelog"]
    before = cli(archive, "changelog")
    ingest(archive, tmp_path, DATES[2])
    kept_by_ingest = kept_answer(argv, {})
    shutil.rmtree(archive / ".cache" / "changelogs")
    assert kept_answer(argv, {}) is None
    after = cli(archive, "changelog")
    assert after != before and "2011-06-17" in after
    assert kept_answer(argv, {}) == after == kept_by_ingest


@pytest.mark.parametrize(
    "args",
    [
        *(["changelog", "--format", output] for output in FORMATS),
        ["changelog", "2011-06-17", "--lang", "en"],
    ],
)
def test_an_ingest_keeps_the_newest_changelog_in_every_format(archive, tmp_path, args):
    cli(archive, "check")  # a kept check, which the ingest extends
    ingest(archive, tmp_path, DATES[2])
    answered = kept_answer(["--archive", str(archive), *args], {})
    shutil.rmtree(archive / ".cache" / "changelogs")
    assert answered is not None and answered == cli(archive, *args)


def test_an_ingest_with_no_check_to_extend_keeps_no_changelog(archive, tmp_path):
    ingest(archive, tmp_path, DATES[2])  # no kept check: the first changelog checks
    assert kept_answer(["--archive", str(archive), "changelog"], {}) is None
    assert not (archive / ".cache" / "changelogs").exists()


@pytest.mark.parametrize(
    "values",
    [
        ("NPH", "en", "text"),  # a set code: the library looks it up
        ("2011-05-02", "en", "text"),  # no release's folder bears it
        ("", "zh-Hans", "text"),  # no such releases
    ],
)
def test_a_changelog_only_the_library_can_name_is_not_read(archive, values):
    cli(archive, "changelog", "--format", "json")  # keeps the newest (2011-05-01) in every format
    assert kept.kept_changelog(str(archive), "2011-05-01", "en", "text") is not None
    assert kept.kept_changelog(str(archive), *values) is None


def test_a_kept_changelog_of_another_state_of_the_archive_is_not_read(archive, tmp_path):
    cli(archive, "changelog")
    assert kept.kept_changelog(str(archive), "", "en", "markdown") is not None
    (archive / "en" / ".retired-2011-05-01-1").mkdir()  # a replace under way: left to the store
    assert kept.kept_changelog(str(archive), "", "en", "markdown") is None
    (archive / "en" / ".retired-2011-05-01-1").rmdir()
    metadata = archive / "en" / "2011-04-01" / "release.json"
    metadata.write_text(metadata.read_text().replace('"DDG"', '"XXX"'))
    assert kept.kept_changelog(str(archive), "", "en", "markdown") is None


def test_a_first_changelog_after_an_ingest_imports_neither_click_nor_the_library(archive, tmp_path):
    cli(archive, "check")
    ingest(archive, tmp_path, DATES[2])
    command = [sys.executable, "-X", "importtime", "-m", "rulesarchive", "--archive", str(archive)]
    found = subprocess.run([*command, "changelog"], capture_output=True)
    imported = {line.split(b"|")[-1].strip() for line in found.stderr.splitlines()}
    assert found.returncode == 0 and "2011-06-17" in found.stdout.decode()
    for heavy in (b"click", b"rulesarchive.reading", b"rulesarchive.corpus.store"):
        assert heavy not in imported


def test_a_release_rewritten_in_place_is_read_afresh(archive):
    argv = ["--archive", str(archive), "changelog", "2011-05-01"]
    cli(archive, *argv[2:])
    document = archive / "en" / "2011-05-01" / "document.json"
    stat = document.stat()
    document.write_bytes(document.read_bytes())  # the same bytes, a new time
    os.utime(document, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert kept_answer(argv, {}) is None


def test_a_change_of_the_code_is_never_answered_from_older_outputs(archive, monkeypatch):
    argv = ["--archive", str(archive), "changelog", "2011-05-01"]
    cli(archive, *argv[2:])
    assert kept_answer(argv, {}) is not None
    monkeypatch.setattr(kept, "_fingerprint", "the code of another version")
    assert kept_answer(argv, {}) is None


def test_an_output_that_logged_something_is_not_kept(archive):
    cli(archive, "-v", "changelog")  # logs the diff cache's answer
    assert kept_answer(["--archive", str(archive), "changelog"], {}) is None


def test_errors_are_not_kept(archive):
    argv = ["--archive", str(archive), "diff", "2011-04-01", "1999-01-01"]
    assert CliRunner().invoke(main, argv).exit_code == 1
    assert kept_answer(argv, {}) is None


@pytest.mark.parametrize(
    "argv",
    [
        ["-v", "diff", "A", "B"],
        ["diff", "A", "B", "--help"],
        ["diff", "A"],
        ["diff", "A", "B", "C"],
        ["diff", "A", "B", "--lang", "en", "--lang", "zh-Hans"],
        ["diff", "A", "B", "--format"],
        ["changelog", ""],
        ["changelog", "--", "A"],
        ["--archive=", "changelog"],
        ["rule", "100.1"],
        ["history"],
        ["history", "400.6", "--all"],
        ["history", "400.6", "--release", "FDN"],
        ["history", "400.6", "--format", "markdown"],
        ["diff", "A", "B", "--format", "html"],
        [],
    ],
)
def test_anything_but_a_plain_reading_command_goes_to_click(argv):
    assert parse_request(argv, {}) is None


def test_a_request_names_its_archive_values_and_defaults():
    assert parse_request(["changelog"], {}) == ["archive", "changelog", "", "en", "text"]
    found = parse_request(["diff", "--format=json", "A", "B"], {"RULESARCHIVE_ARCHIVE": "/a"})
    assert found == ["/a", "diff", "A", "B", "en", "json"]
    found = parse_request(["--archive", "/b", "changelog", "FDN", "--lang", "zh-Hans"], {})
    assert found == ["/b", "changelog", "FDN", "zh-Hans", "text"]


def test_the_installed_command_answers_the_same_bytes_without_importing_click(archive):
    command = [sys.executable, "-m", "rulesarchive", "--archive", str(archive), "changelog"]
    first = subprocess.run(command, capture_output=True, check=True)
    timed = [sys.executable, "-X", "importtime", *command[1:]]
    second = subprocess.run(timed, capture_output=True, check=True)
    assert second.stdout == first.stdout and b"substantive 400.6" in first.stdout
    imported = {line.split(b"|")[-1].strip() for line in second.stderr.splitlines()}
    assert b"click" not in imported and b"rulesarchive.kept" in imported


def test_only_the_latest_outputs_are_kept(archive, monkeypatch):
    monkeypatch.setattr(kept, "LIMIT", 2)
    folder = archive / ".cache" / "outputs"
    seen: set = set()
    for second, args in enumerate((["diff", "DDG", "NPH"], ["changelog"], ["changelog", "NPH"])):
        cli(archive, *args)
        for path in set(folder.iterdir()) - seen:  # kept in this order, whatever the clock says
            os.utime(path, ns=(0, (second + 1) * 10**9))
            seen.add(path)
    assert len(list(folder.iterdir())) == 2
    assert kept_answer(["--archive", str(archive), "diff", "DDG", "NPH"], {}) is None
    assert kept_answer(["--archive", str(archive), "changelog", "NPH"], {}) is not None


def test_only_a_utf8_stdout_is_answered_from_kept_outputs(archive):
    command = [sys.executable, "-m", "rulesarchive", "--archive", str(archive), "changelog"]
    made = subprocess.run(command, capture_output=True, check=True).stdout
    ascii_out = {**os.environ, "PYTHONIOENCODING": "ascii"}
    timed = [sys.executable, "-X", "importtime", *command[1:]]
    again = subprocess.run(timed, capture_output=True, check=True, env=ascii_out)
    assert again.stdout == made  # click writes UTF-8 all the same; the quick path stood aside
    assert b"click" in {line.split(b"|")[-1].strip() for line in again.stderr.splitlines()}


def test_a_stdout_that_cannot_show_every_character_gets_replacements(archive):
    command = [sys.executable, "-m", "rulesarchive", "-q", "--archive", str(archive), "changelog"]
    made = subprocess.run(command, capture_output=True, check=True).stdout.decode()
    latin = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    again = subprocess.run(command, capture_output=True, env=latin)
    assert again.returncode == 0, again.stderr
    assert again.stdout.decode("latin-1") == made.encode("latin-1", "replace").decode("latin-1")


def diff_every_pair(archive) -> None:
    """Diff every consecutive pair as a site build or an ingest does, and keep no output."""
    cli(archive, "history", "400.6")
    shutil.rmtree(archive / ".cache" / "outputs")


@pytest.mark.parametrize("output", FORMATS)
def test_a_first_diff_is_answered_byte_for_byte_from_the_report_beside_its_diff(archive, output):
    diff_every_pair(archive)
    argv = ["--archive", str(archive), "diff", "2011-04-01", "2011-05-01", "--format", output]
    answered = kept_answer(argv, {})
    assert answered is not None and answered == cli(archive, *argv[2:])


def test_after_an_ingest_the_new_pair_is_answered_from_its_report(archive, tmp_path):
    diff_every_pair(archive)  # and makes the line index, which an ingest extends
    ingest(archive, tmp_path, DATES[2])
    answered = report_answer(str(archive), "2011-05-01", "2011-06-17", "en", "text")
    assert answered is not None and answered == cli(archive, "diff", "2011-05-01", "2011-06-17")


def test_a_report_is_kept_where_the_quick_path_looks_for_it(archive):
    cli(archive, "-q", "diff", "2011-05-01", "2011-04-01")
    # this pair's, and the one ingest made for the release it added (2011-04-01 -> 2011-05-01)
    assert [path.suffix for path in diff_folder(archive).iterdir()].count(".report") == 2
    assert report_answer(str(archive), "2011-05-01", "2011-04-01", "en", "text") is not None


@pytest.mark.parametrize(
    "values",
    [
        ("DDG", "2011-05-01", "en", "text"),  # a set code: the CLI looks it up
        ("2011-04-01", "2011-05-01", "zh-Hans", "text"),  # no such releases
        ("2011-04-01", "2011-05-01", "en", "html"),  # not a format: click says so
        ("2011-04-01", "2011-04-01", "en", "text"),  # a pair never diffed
    ],
)
def test_a_diff_without_its_report_goes_to_the_cli(archive, values):
    diff_every_pair(archive)
    assert report_answer(str(archive), *values) is None


def test_a_report_of_releases_relabelled_since_is_not_read(archive):
    diff_every_pair(archive)
    metadata = archive / "en" / "2011-05-01" / "release.json"
    metadata.write_text(metadata.read_text().replace('"NPH"', '"XXX"'))
    assert report_answer(str(archive), "2011-04-01", "2011-05-01", "en", "text") is None


def test_a_report_made_by_other_code_is_not_read(archive, monkeypatch):
    diff_every_pair(archive)
    assert report_answer(str(archive), "2011-04-01", "2011-05-01", "en", "json") is not None
    monkeypatch.setattr(differ_cache, "_package_digest", lambda package: "another version")
    assert report_answer(str(archive), "2011-04-01", "2011-05-01", "en", "json") is None


def test_a_first_diff_answered_from_its_report_imports_neither_click_nor_the_differ(archive):
    diff_every_pair(archive)
    command = [sys.executable, "-X", "importtime", "-m", "rulesarchive", "--archive", str(archive)]
    found = subprocess.run([*command, "diff", "2011-04-01", "2011-05-01"], capture_output=True)
    assert found.returncode == 0 and found.stdout.decode() == cli(
        archive, "diff", "2011-04-01", "2011-05-01"
    )
    imported = {line.split(b"|")[-1].strip() for line in found.stderr.splitlines()}
    assert b"rulesarchive.differ.cache" in imported
    for heavy in (b"click", b"rulesarchive.corpus.store", b"rulesarchive.differ.classify"):
        assert heavy not in imported


@pytest.mark.parametrize(
    "args",
    [
        *(["changelog", "--format", output] for output in FORMATS),
        ["changelog", "DDG", "--lang", "en"],  # the oldest: an error, reported by click
        ["diff", "DDG", "NPH", "--format", "markdown"],  # a set code: no report looked for
        ["history", "400.6"],
        ["history", "400.6.", "--format", "json"],
        ["history", "999.9"],  # no such rule: an error, reported by click
    ],
)
def test_a_first_reading_command_runs_the_library_without_click(archive, args):
    command = [sys.executable, "-X", "importtime", "-m", "rulesarchive", "--archive", str(archive)]
    found = subprocess.run([*command, *args], capture_output=True)
    imported = {line.split(b"|")[-1].strip() for line in found.stderr.splitlines()}
    expected = CliRunner().invoke(main, ["--archive", str(archive), *args])
    assert found.stdout.decode() == expected.stdout and found.returncode == expected.exit_code
    if expected.exit_code == 0:
        assert b"click" not in imported and b"rulesarchive.reading" in imported
    else:  # the library failed: click ran the command again and said why
        assert b"click" in imported
        assert found.stderr.decode().endswith(expected.stderr)


def test_a_repeated_history_is_answered_from_its_kept_output(archive):
    argv = ["--archive", str(archive), "history", "400.6", "--format", "json"]
    made = cli(archive, *argv[2:])
    assert kept_answer(argv, {}) == made and '"rule": "400.6"' in made
    cli(archive, "history", "400.6", "--all")  # not a line the quick path recognises
    assert kept_answer(["--archive", str(archive), "history", "400.6", "--all"], {}) is None


def test_a_history_that_logged_something_is_not_kept(archive):
    cli(archive, "-v", "history", "400.6")  # logs the caches' answers as it works
    assert kept_answer(["--archive", str(archive), "history", "400.6"], {}) is None


def test_an_output_the_library_logged_about_is_printed_but_not_kept(archive, monkeypatch):
    def logging_history(*_arguments) -> str:
        logging.getLogger("rulesarchive.differ").warning("line index damaged: making it again")
        return "400.6 ...\n"

    monkeypatch.setattr(reading, "history_output", logging_history)
    request = [str(archive), "history", "400.6", "en", "text"]
    assert library_output(request) == "400.6 ...\n"
    assert kept_answer(["--archive", str(archive), "history", "400.6"], {}) is None


def test_ctrl_c_while_the_library_works_ends_as_the_cli_ends_it(monkeypatch, capsys):
    def interrupted(_request):
        raise KeyboardInterrupt

    monkeypatch.setattr(launch, "answer", interrupted)
    monkeypatch.setattr(sys, "argv", ["rulesarchive", "changelog"])
    with pytest.raises(SystemExit) as ended:
        launch.main()
    assert ended.value.code == 130 and capsys.readouterr().err == "\nAborted!\n"


class _Stream(io.StringIO):
    def __init__(self, terminal: bool) -> None:
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


@pytest.mark.parametrize(
    ("text", "terminal", "as_is"),
    [
        ("substantive 100.1: “any” → “all”\n", False, True),
        ("apply to \x1b[1many\x1b[0m Magic\n", True, True),  # click keeps them on a terminal
        ("apply to \x1b[1many\x1b[0m Magic\n", False, False),  # and strips them off one
        ("apply to any \udc80Magic\n", True, False),  # click replaces what UTF-8 cannot say
    ],
)
def test_an_output_click_would_print_otherwise_goes_to_click(text, terminal, as_is):
    assert launch._prints_as_click_does(text, _Stream(terminal)) is as_is


def test_an_output_utf8_cannot_encode_is_not_kept(archive):
    kept.KeptOutput(str(archive), "changelog", "", "en", "text").keep("any \udc80Magic\n")
    assert kept_answer(["--archive", str(archive), "changelog"], {}) is None
    assert list((archive / ".cache" / "outputs").glob("*.incoming")) == []


def test_a_folder_that_cannot_be_listed_is_stamped_so(archive, monkeypatch):
    (archive / "private").mkdir()
    listdir = os.listdir

    def refusing(path):
        if os.path.basename(path) == "private":
            raise PermissionError(13, "Permission denied", path)
        return listdir(path)

    monkeypatch.setattr(kept.os, "listdir", refusing)
    assert "private/:unlisted" in kept.archive_state(str(archive))


def test_an_ingest_keeps_the_newest_translated_changelog_when_its_check_is_kept(
    shared_archive, tmp_path
):
    archive = tmp_path / "zh"
    english = sorted((shared_archive / "en").glob("*.txt"))[-4:]
    chinese = sorted((shared_archive / "zh-Hans").glob("*.txt"))[-3:]
    cli(archive, "ingest", *map(str, english + chinese[:2]))
    argv = ["--archive", str(archive), "changelog", "--lang", "zh-Hans", "--format", "json"]
    assert kept_answer(argv, {}) is None  # no kept check to extend: left to the first reader
    cli(archive, "changelog", "--lang", "zh-Hans")  # checks the translations and keeps it
    cli(archive, "ingest", str(chinese[2]))
    kept_by_ingest = kept_answer(argv, {})
    shutil.rmtree(archive / ".cache" / "changelogs")
    assert kept_by_ingest is not None and kept_by_ingest == cli(archive, *argv[2:])
    assert f'"effective_date": "{chinese[2].stem}"' in kept_by_ingest
