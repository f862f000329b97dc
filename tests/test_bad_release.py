"""One bad release folder costs only itself: the others stay listed and readable."""

import json
import marshal
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from rulesarchive.corpus import derived, store
from rulesarchive.corpus.lookup import find_release
from rulesarchive.system import once

from rulesarchive.cli import main
from tests.samples import modern_text

DATES = ["April 1, 2011", "May 1, 2011", "July 15, 2011"]


@pytest.fixture
def archive(tmp_path):
    paths = []
    for at, date in enumerate(DATES):
        paths.append(tmp_path / f"{at}.txt")
        paths[-1].write_text(modern_text(date=date))
    root = tmp_path / "archive"
    result = CliRunner().invoke(main, ["--archive", str(root), "ingest", *map(str, paths)])
    assert result.exit_code == 0, result.output
    return root


def _new_process(monkeypatch) -> None:
    """Forget what this process learnt of damaged releases, as a command of its own would."""
    monkeypatch.setattr(store, "_UNREADABLE", {})
    monkeypatch.setattr(once, "_SAID", set())
    monkeypatch.setattr(store, "_NAMED", set())


def _spoil(root, key: str, **changes) -> None:
    path = root / key / "release.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, **changes}))


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        (
            {"effective_date": "2011-05-02"},
            "says en/2011-05-02, not en/2011-05-01 as its folder does",
        ),
        ({"language": "ko"}, "says ko/2011-05-01, not en/2011-05-01 as its folder does"),
        ({"flags": 5}, "unreadable release metadata (flags is not a list)"),
        ({"rule_count": "many"}, "unreadable release metadata (rule_count is not a whole number)"),
        (
            {"section_count": "a"},
            "unreadable release metadata (section_count is not a whole number)",
        ),
        ({"notes": [1, 2]}, "unreadable release metadata (notes holds other than strings)"),
        (
            {"normalisation": {"a": "b"}},
            "unreadable release metadata (normalisation holds other than whole numbers)",
        ),
        ({"source": {"name": 5}}, "unreadable release metadata (source holds other than strings)"),
        ({"source": {"extra": ""}}, "unreadable release metadata (source has no field 'extra')"),
    ],
)
def test_a_bad_release_json_is_named_and_left_out(archive, changes, why):
    _spoil(archive, "en/2011-05-01", **changes)
    run = CliRunner().invoke
    listed = run(main, ["--archive", str(archive), "releases"])
    assert listed.exit_code == 0
    assert [line.split()[1] for line in listed.stdout.splitlines()] == ["2011-04-01", "2011-07-15"]
    warning = f"WARNING: {archive / 'en/2011-05-01/release.json'}: {why}"
    assert [line for line in listed.stderr.splitlines() if "2011-05-01" in line] == [
        f"{warning}: left out"
    ]
    rule = run(main, ["--archive", str(archive), "rule", "400.6"])
    assert rule.exit_code == 0 and "2011-07-15" in rule.stdout
    old = run(main, ["--archive", str(archive), "rule", "400.6", "--release", "2011-04-01"])
    assert old.exit_code == 0 and "2011-04-01" in old.stdout


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (
            lambda data: {key: value for key, value in data.items() if key != "set_name"},
            "set_name is missing",
        ),
        (lambda _data: [], "not an object"),
    ],
)
def test_a_release_json_missing_a_field_or_no_object_is_named(archive, text, why):
    path = archive / "en/2011-05-01/release.json"
    path.write_text(json.dumps(text(json.loads(path.read_text()))))
    listed = CliRunner().invoke(main, ["--archive", str(archive), "releases"])
    assert listed.exit_code == 0
    assert f"WARNING: {path}: unreadable release metadata ({why}): left out" in listed.stderr


def test_a_build_names_a_bad_release_json_where_it_lives(archive, tmp_path):
    """A build reads a snapshot of the archive; the warning names the archive's own file."""
    _spoil(archive, "en/2011-05-01", flags=5)
    out = tmp_path / "site"
    built = CliRunner().invoke(main, ["--archive", str(archive), "build", "--out", str(out)])
    assert built.exit_code == 0, built.output
    warning = f"WARNING: {archive / 'en/2011-05-01/release.json'}: unreadable release metadata"
    said = [line for line in built.stderr.splitlines() if "release.json" in line]
    assert said and all(line.startswith(warning) for line in said), said


def _hide(folder, monkeypatch) -> None:
    """Refuse to list a folder, as another user finds one of mode 000 (the tests run as root,
    whom no mode stops)."""
    hidden = str(folder)
    listdir, isfile, stat = store.os.listdir, store.os.path.isfile, store.os.stat

    def refused(path):
        if str(path) == hidden:
            raise PermissionError(13, "Permission denied", path)
        return listdir(path)

    def stat_refused(path, *args, **kwargs):
        if str(path).startswith(hidden + os.sep):
            raise PermissionError(13, "Permission denied", path)
        return stat(path, *args, **kwargs)

    monkeypatch.setattr(store.os, "listdir", refused)
    monkeypatch.setattr(store.os, "stat", stat_refused)
    monkeypatch.setattr(store.os.path, "isfile", lambda p: not p.startswith(hidden) and isfile(p))


def test_a_release_folder_that_cannot_be_read_is_named_and_left_out(archive, monkeypatch):
    """As another user finds a folder of mode 000."""
    hidden = str(archive / "en/2011-05-01")
    _hide(hidden, monkeypatch)
    listed = CliRunner().invoke(main, ["--archive", str(archive), "releases"])
    assert listed.exit_code == 0
    assert [line.split()[1] for line in listed.stdout.splitlines()] == ["2011-04-01", "2011-07-15"]
    assert listed.stderr.splitlines() == [
        f"WARNING: {hidden}: cannot be read (Permission denied): left out"
    ]


def _spoil_document(root, key: str, spoil) -> None:
    path = root / key / "document.json"
    data = json.loads(path.read_text())
    spoil(data)
    path.write_text(json.dumps(data))


def _int_number(data) -> None:
    data["rules"][1]["number"] = 100


def _listed_text(data) -> None:
    data["rules"][1]["text"] = ["Sample", "rule"]


def _listed_original(data) -> None:
    data["rules"][1]["original"] = ["printed"]


def _numbered_term(data) -> None:
    data["glossary"][0]["term"] = 7


@pytest.mark.parametrize(
    ("spoil", "why"),
    [
        (_int_number, "100 is not a rule number"),
        (_listed_text, "intern() argument must be str, not list"),
        (_listed_original, "list ['printed'] where texts were expected"),
        (_numbered_term, "int 7 where texts were expected"),
    ],
)
def test_a_bad_document_json_is_named_and_left_out(archive, tmp_path, monkeypatch, spoil, why):
    _spoil_document(archive, "en/2011-05-01", spoil)
    run = CliRunner().invoke
    warning = f"WARNING: {archive / 'en/2011-05-01/document.json'}: unreadable document ({why})"
    site = tmp_path / "site"
    # history may answer from lines derived at ingest (keyed by content, still true): it
    # reads no document then, and has nothing to warn about
    for command, warned in (
        (["history", "100.2"], False),
        (["changelog"], True),
        (["build", "--out", str(site)], True),
    ):
        _new_process(monkeypatch)
        result = run(main, ["--archive", str(archive), *command])
        assert result.exit_code == 0, (command, result.output)
        said = [line for line in result.stderr.splitlines() if "2011-05-01" in line]
        assert (
            said == [f"{warning}: left out"] if warned else said in ([], [f"{warning}: left out"])
        )
    assert (site / "en/releases/2011-04-01").is_dir() and (site / "en/releases/2011-07-15").is_dir()
    assert not (site / "en/releases/2011-05-01").exists()
    changelog = run(main, ["--archive", str(archive), "changelog"])
    assert "2011-04-01 → Magic 2012 (M12) 2011-07-15" in changelog.stdout
    history = run(main, ["--archive", str(archive), "history", "100.2"])
    assert history.exit_code == 0 and "2011-04-01 … 2011-07-15" in history.stdout


def test_a_packed_document_with_wrong_types_is_refused(archive):
    """The packed copy is checked as document.json is (a bad one is read afresh from JSON)."""
    opened = store.Archive(archive, cache=False)
    (release, *_) = opened.releases("en")
    columns = list(marshal.loads(store.pack_document(opened.load(release))))
    assert store.unpack_document(marshal.dumps(tuple(columns))).rules
    for at, spoilt in ((8, (["a list"],)), (9, ((1,),)), (13, (7,)), (2, 1.5)):
        bad = [*columns]
        bad[at] = spoilt
        with pytest.raises(TypeError, match="where"):
            store.unpack_document(marshal.dumps(tuple(bad)))


def test_each_damaged_release_is_said_once(archive, tmp_path, monkeypatch):
    """A bad release.json beside a bad document.json: a command run again without the
    document opens the archive anew, yet neither is said twice."""
    newer = tmp_path / "newer.txt"
    newer.write_text(modern_text(date="September 30, 2011"))
    added = CliRunner().invoke(main, ["--archive", str(archive), "ingest", str(newer)])
    assert added.exit_code == 0, added.output
    _spoil(archive, "en/2011-04-01", flags=5)
    _spoil_document(archive, "en/2011-07-15", _int_number)
    release = f"WARNING: {archive / 'en/2011-04-01/release.json'}: unreadable release metadata"
    document = f"WARNING: {archive / 'en/2011-07-15/document.json'}: unreadable document"
    for command, reads_documents in (
        (["releases"], False),
        (["changelog"], True),
        (["check"], True),
        (["export", "json", str(tmp_path / "json")], True),
    ):
        _new_process(monkeypatch)
        result = CliRunner().invoke(main, ["--archive", str(archive), *command])
        assert result.exit_code == 0, (command, result.output)
        said = result.stderr.splitlines()
        assert [line for line in said if line.startswith(release)] == [
            f"{release} (flags is not a list): left out"
        ], command
        assert len([line for line in said if line.startswith(document)]) == reads_documents
        assert len(said) == 1 + reads_documents, (command, said)


def test_a_dates_warning_is_said_once_when_the_command_runs_again(archive, monkeypatch):
    """`history` reads an older release's document, finds it unreadable and runs again
    without it: the date's "taking the one in force" is said once, as the damage is."""
    _spoil_document(archive, "en/2011-04-01", _int_number)
    assert CliRunner().invoke(main, ["cache", "clear"]).exit_code == 0  # lines read anew
    _new_process(monkeypatch)
    command = ["--archive", str(archive), "history", "100.2", "--release", "2011-05-15"]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "WARNING: no en release effective 2011-05-15: taking the one in force that day, "
        "2011-05-01 (New Phyrexia)",
        f"WARNING: {archive / 'en/2011-04-01/document.json'}: unreadable document "
        "(100 is not a rule number): left out",
    ]


@pytest.mark.parametrize("asked", ["2011-05-01", "2011-05-15"])
def test_a_dated_lookup_reads_the_named_release_json_alone(archive, tmp_path, monkeypatch, asked):
    """Whether the release a date names is damaged is told by its own release.json; the
    others are not read again once their listing is kept."""
    monkeypatch.setattr(derived, "_SETTLED", -(10**12))  # every file still for long enough
    kept = derived.DerivedData(tmp_path / "cache")
    store.Archive(archive, derived=kept).releases("en")  # the listing, kept
    read = []
    reader = store._read_release
    monkeypatch.setattr(
        store, "_read_release", lambda folder, *a: read.append(folder) or reader(folder, *a)
    )
    opened = store.Archive(archive, derived=kept)
    assert find_release(opened, asked).effective_date.isoformat() == "2011-05-01"
    assert [Path(folder).name for folder in read] == ["2011-05-01"]


@pytest.mark.parametrize(
    ("spoil", "why"),
    [
        ({"flags": 5}, "unreadable release metadata (flags is not a list)"),
        (
            {"effective_date": "2011-05-02"},
            "says en/2011-05-02, not en/2011-05-01 as its folder does",
        ),
    ],
)
def test_a_damaged_release_asked_for_by_set_code_is_an_error(archive, monkeypatch, spoil, why):
    """A damaged release whose release.json still names its set code, asked for by it: its
    damage in one line, as by its date, not 'no release with set code'."""
    _spoil(archive, "en/2011-05-01", **spoil)
    run = CliRunner().invoke
    _new_process(monkeypatch)
    result = run(main, ["--archive", str(archive), "rule", "400.6", "--release", "nph"])
    assert result.exit_code == 1, result.output
    release_json = archive / "en/2011-05-01/release.json"
    assert result.stderr == f"Error: {release_json}: {why}: the release asked for is damaged\n"
    _spoil(archive, "en/2011-05-01", set_code="XYZ")  # another code: NPH names no release
    _new_process(monkeypatch)
    result = run(main, ["--archive", str(archive), "rule", "400.6", "--release", "NPH"])
    assert result.exit_code == 1 and "no en release with set code 'NPH'" in result.stderr


@pytest.mark.parametrize("damaged", ["release.json", "document.json", ""])
def test_a_damaged_release_asked_for_by_date_is_an_error(archive, monkeypatch, damaged):
    """Not another release's text in its place, which a citation would pass on: an error in
    one line naming the file (or folder), whether the date is the release's or one it was in
    force."""
    if damaged == "release.json":
        _spoil(archive, "en/2011-05-01", flags=5)
    elif damaged == "document.json":
        _spoil_document(archive, "en/2011-05-01", _int_number)
    else:  # a folder of mode 000, as another user finds it
        _hide(archive / "en/2011-05-01", monkeypatch)
    run = CliRunner().invoke
    for asked in ("2011-05-01", "2011-06-01"):
        _new_process(monkeypatch)
        result = run(main, ["--archive", str(archive), "rule", "400.6", "--release", asked])
        assert result.exit_code == 1, result.output
        error = result.stderr.splitlines()[-1]
        assert error.startswith(
            f"Error: {archive / 'en/2011-05-01' / damaged}: ".replace("/: ", ": ")
        )
        assert error.endswith(": the release asked for is damaged")
        assert not result.stdout
    for sound in (["--release", "2011-04-02"], []):  # between two sound ones; the newest
        result = run(main, ["--archive", str(archive), "rule", "400.6", *sound])
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize("asked", [["2011-04-01", "2011-05-01"], ["2011-05-01", "2011-07-15"]])
def test_a_damaged_release_of_two_asked_for_is_said_once_as_the_error(archive, monkeypatch, asked):
    """`diff OLD NEW` with either damaged: the error alone, not first the warning that the
    listing read to find the other leaves it out."""
    _spoil(archive, "en/2011-05-01", flags=5)
    _new_process(monkeypatch)
    result = CliRunner().invoke(main, ["--archive", str(archive), "diff", *asked])
    assert result.exit_code == 1, result.output
    release_json = archive / "en/2011-05-01/release.json"
    why = "unreadable release metadata (flags is not a list)"
    assert result.stderr == f"Error: {release_json}: {why}: the release asked for is damaged\n"
    _new_process(monkeypatch)
    sound = CliRunner().invoke(
        main, ["--archive", str(archive), "diff", "2011-04-01", "2011-07-15"]
    )
    assert sound.exit_code == 0, sound.output
    assert sound.stderr.count("release.json") == 1  # the one left out, said once


@pytest.mark.parametrize("spoil", ["not json", '{"set_code": 5}'])
def test_a_release_too_damaged_to_say_its_set_code_is_known_by_the_catalogues(archive, spoil):
    """A release.json that names no set code (not JSON, or no code as a string): the set code
    asked for is the catalogue's for its date, so it is the damaged release's error, never the
    text of an older release of that code."""
    _spoil(archive, "en/2011-04-01", set_code="NPH")  # a sound, older release of the code
    release_json = archive / "en/2011-05-01/release.json"
    release_json.write_text(spoil)
    for code in ("NPH", "nph"):
        result = CliRunner().invoke(
            main, ["--archive", str(archive), "rule", "400.6", "--release", code]
        )
        assert result.exit_code == 1, result.output
        assert result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.startswith(f"Error: {release_json}: unreadable release metadata")
        assert result.stderr.endswith(": the release asked for is damaged\n")
        assert not result.stdout


def test_a_file_named_as_a_release_folder_is_no_release(archive):
    """As the listing leaves it out, so do dated lookups: not the release in force that day."""
    (archive / "en/2011-05-02").write_text("")
    result = CliRunner().invoke(
        main, ["--archive", str(archive), "rule", "400.6", "--release", "2011-06-01"]
    )
    assert result.exit_code == 0, result.output
    assert "effective 2011-05-01" in result.stdout


def test_only_a_date_as_the_readme_spells_it_is_a_date(archive):
    """Python reads 20110501 and 2011-W17-7 as dates; a user means neither."""
    run = CliRunner().invoke
    for typed in ("20110501", "2011-W17-7"):
        result = run(main, ["--archive", str(archive), "rule", "400.6", "--release", typed])
        assert result.exit_code == 1, result.output
        assert result.stderr == f"Error: no en release with set code {typed!r}\n"
    result = run(main, ["--archive", str(archive), "rule", "400.6", "--release", "2011-5-1"])
    assert result.stderr == "Error: 2011-5-1 is not a valid date (give YYYY-MM-DD)\n"
