"""On the whole shared archive, the Python API and the command line give one answer: for every
reading command and a fixed sample of arguments in both languages, `to_json()` is what the
command prints with `--format json`, byte for byte."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulesarchive.api import Archive
from rulesarchive.cli import main

RULES = [
    ("400.6", None, "en"),
    ("702.19b", "2009-07-11", "en"),
    ("217.1d", "2005-10-01", "en"),
    ("100.1", None, "zh-Hans"),
    ("702.2a", "2024-03-08", "zh-Hans"),
]
DIFFS = [
    ("2009-05-01", "2009-07-11", "en"),
    ("2024-11-08", "2026-04-17", "en"),
    ("1999-04-23", "2026-04-17", "en"),
    ("2024-02-06", "2024-03-08", "zh-Hans"),
]
# with citation fixes (1999-11-01, 2006-02-01), the 2009 rewrite's successor, a sweep
CHANGELOGS = [
    (None, "en"),
    ("1999-11-01", "en"),
    ("2006-02-01", "en"),
    ("2011-05-01", "en"),
    ("2024-07-30", "en"),
    ("FDN", "en"),
    (None, "zh-Hans"),
    ("2024-03-08", "zh-Hans"),
]
HISTORIES = [
    ("400.6", "en", None),
    ("702.19b", "en", None),
    ("502.2", "en", "2005-10-01"),
    ("100.1", "zh-Hans", None),
    ("104.6", "zh-Hans", None),
]
CHECKS = [(None, "en"), ("2006-02-01", "en"), (None, "zh-Hans"), ("2024-03-08", "zh-Hans")]
TRANSLATIONS = [("zh-Hans", None, False), ("zh-Hans", "2024-03-08", False), ("zh-Hans", None, True)]


@pytest.fixture(scope="module")
def api(library) -> Archive:
    archive = Archive(library.root)
    archive.library = library  # the session's derived data: what one test works out, all read
    return archive


@pytest.fixture(scope="module")
def cli(library):
    def run(*args: str) -> str:
        result = CliRunner(env={"RULESARCHIVE_CACHE": str(library.derived.folder)}).invoke(
            main, ["--archive", str(library.root), *args, "--format", "json"]
        )
        assert result.exit_code == 0, result.output
        return result.stdout

    return run


def _printed(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("lang", [None, "en", "zh-Hans"])
def test_releases(api, cli, lang):
    args = ["--lang", lang] if lang else []
    assert _printed([r.to_json() for r in api.releases(lang)]) == cli("releases", *args)


@pytest.mark.parametrize(("number", "release", "lang"), RULES)
def test_rule(api, cli, number, release, lang):
    args = ["--release", release] if release else []
    assert _printed(api.rule(number, release=release, lang=lang).to_json()) == cli(
        "rule", number, *args, "--lang", lang
    )


@pytest.mark.parametrize(("old", "new", "lang"), DIFFS)
def test_diff(api, cli, old, new, lang):
    assert _printed(api.diff(old, new, lang=lang).to_json()) == cli(
        "diff", old, new, "--lang", lang
    )


@pytest.mark.parametrize(("release", "lang"), CHANGELOGS)
def test_changelog(api, cli, release, lang):
    args = [release] if release else []
    expected = cli("changelog", *args, "--lang", lang)
    assert _printed(api.changelog(release, lang=lang).to_json()) == expected


@pytest.mark.parametrize(("number", "lang", "release"), HISTORIES)
def test_history(api, cli, number, lang, release):
    args = ["--release", release] if release else []
    assert _printed(api.history(number, release=release, lang=lang).to_json()) == cli(
        "history", number, "--lang", lang, *args
    )


@pytest.mark.parametrize(("release", "lang"), CHECKS)
def test_check(api, cli, release, lang):
    args = [release] if release else []
    assert _printed(api.check(release, lang=lang).to_json()) == cli("check", *args, "--lang", lang)
    every = cli("check", *args, "--lang", lang, "--all")
    assert _printed(api.check_history(release, lang=lang).to_json()) == every


@pytest.mark.parametrize(("lang", "release", "stale"), TRANSLATIONS)
def test_translations(api, cli, lang, release, stale):
    args = [*(["--release", release] if release else []), *(["--stale"] if stale else [])]
    expected = cli("translations", lang, *args)
    assert _printed(api.translation(lang, release, stale).to_json()) == expected


def test_translations_of_every_language(api, cli):
    everyone = [api.translation(lang).to_json() for lang in api.translated_languages()]
    assert _printed(everyone) == cli("translations")


def test_a_changelog_marks_the_citations_it_put_right(api):
    """The API's changelog is the command's: the reference check runs for it too."""
    data = api.changelog("2006-02-01").to_json()
    assert any(change["fixes"] for change in data["changes"])
    assert any(change["kind"] == "reference" and change["fixes"] for change in data["changes"])
