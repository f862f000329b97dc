"""The reference check kept in the cache and extended a release at a time: always the same
check as the one from nothing."""

import dataclasses
import shutil

import pytest
from rulesarchive.corpus.cache import cache_folder
from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.differ.cache import diff_folder
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.lineage import trace_lines
from rulesarchive.differ.references import (
    CheckState,
    LanguageCheck,
    Snapshot,
    check_kept,
    check_language,
    check_snapshots,
    check_translated_kept,
    check_translated_releases,
    snapshots,
)
from rulesarchive.site_builder.checks import check_gathered
from rulesarchive.site_builder.gather import gather

from tests.test_references import doc, release

# Five releases: a rule renumbered (a stale citation), fixed later, a dangling one, a glossary.
DOCUMENTS = [
    doc(("100.1", "Follow rule 100.2."), ("100.2", "Draw a card.")),
    doc(("100.1", "Follow rule 100.2."), ("100.3", "Draw a card."), ("100.4", "See rule 999.9.")),
    doc(("100.1", "Follow rule 100.3."), ("100.3", "Draw a card."), ("100.4", "See rule 999.9.")),
    doc(
        ("100.1", "Follow rule 100.3."), ("100.3", "Draw two cards."), ("100.4", "See rule 100.1.")
    ),
    doc(("100.1", "Follow rule 100.3 and 100.5."), ("100.3", "Draw two cards.")),
]


def shots_of(documents) -> tuple[list, list[Snapshot]]:
    releases = [release(day + 1) for day in range(len(documents))]
    steps = [
        (document, diff_documents(documents[i - 1], document) if i else None)
        for i, document in enumerate(documents)
    ]
    lines = trace_lines(releases, steps)
    return releases, snapshots(lines, [d.glossary for d in documents])


class Shots:
    """The snapshots of the first `count` releases, saying from which release they were asked."""

    def __init__(self, shots: list[Snapshot], count: int) -> None:
        self.shots, self.count, self.starts = shots, count, []

    def __call__(self, start: int) -> list[Snapshot]:
        self.starts.append(start)
        return self.shots[start : self.count]


def kept(releases, shots, count, folder, code="") -> tuple[LanguageCheck, list[int]]:
    asked = Shots(shots, count)
    return check_kept("en", releases[:count], asked, folder, code), asked.starts


def test_a_check_extended_by_one_and_by_two_releases_is_the_check_from_nothing(tmp_path):
    releases, shots = shots_of(DOCUMENTS)
    whole = check_snapshots("en", releases, shots)
    assert whole.problems  # something to follow: a stale and a dangling citation, a fix
    assert kept(releases, shots, 2, tmp_path)[1] == [0]
    for count, start in ((3, 2), (5, 3)):
        result, starts = kept(releases, shots, count, tmp_path)
        assert starts == [start]
        assert result == check_snapshots("en", releases[:count], shots[:count])
    assert result == whole
    again, starts = kept(releases, shots, 5, tmp_path)
    assert (again, starts) == (whole, [])  # all kept: nothing asked for
    assert len(list(tmp_path.iterdir())) == 1  # each kept state replaces the one it extends


def test_snapshots_from_a_release_on_are_those_of_every_release_from_it():
    releases, shots = shots_of(DOCUMENTS)
    documents = DOCUMENTS
    steps = [
        (document, diff_documents(documents[i - 1], document) if i else None)
        for i, document in enumerate(documents)
    ]
    lines = trace_lines(releases, steps)
    assert snapshots(lines, [d.glossary for d in documents], start=3) == shots[3:]


def test_a_changed_or_inserted_release_or_other_code_checks_from_nothing(tmp_path):
    releases, shots = shots_of(DOCUMENTS)
    kept(releases, shots, 4, tmp_path)
    changed = list(releases)
    changed[1] = dataclasses.replace(changed[1], content_sha256="f" * 64)
    result, starts = kept(changed, shots, 5, tmp_path)
    assert starts == [0] and result == check_snapshots("en", changed, shots)
    inserted = [releases[0], release(9), *releases[1:4]]
    moved = [shots[0], shots[0], *shots[1:4]]
    result, starts = kept(inserted, moved, 5, tmp_path)
    assert starts == [0] and result == check_snapshots("en", inserted, moved)
    assert kept(releases, shots, 5, tmp_path, code="other code")[1] == [0]
    assert kept(releases, shots, 5, tmp_path)[1] == [4]  # the state kept at first is still good


def test_an_unreadable_kept_state_or_an_unwritable_cache_checks_from_nothing(tmp_path):
    releases, shots = shots_of(DOCUMENTS)
    whole = check_snapshots("en", releases, shots)
    for spoil in (lambda data: b"not a pickle", lambda data: data[:100]):  # or cut short
        folder = tmp_path / "checks"
        shutil.rmtree(folder, ignore_errors=True)
        kept(releases, shots, 4, folder)
        [entry] = folder.iterdir()
        entry.write_bytes(spoil(entry.read_bytes()))
        assert kept(releases, shots, 5, folder) == (whole, [0])
    blocked = tmp_path / "a file"
    blocked.write_text("")
    for _ in range(2):  # nothing can be kept under a file: checked from nothing each time
        assert kept(releases, shots, 5, blocked / "checks") == (whole, [0])


CHINESE = [
    Document("zh-Hans", None, rules=(Rule("100.1", "见规则100.2。"), Rule("100.2", "抓一张牌。"))),
    Document("zh-Hans", None, rules=(Rule("100.1", "见规则100.2。"), Rule("100.3", "抓一张牌。"))),
    Document("zh-Hans", None, rules=(Rule("100.1", "见规则100.3。"), Rule("100.3", "抓两张牌。"))),
]


def chinese(day: int) -> Release:
    return dataclasses.replace(release(day), language="zh-Hans")


class Translated:
    """The translated check kept in `folder`, saying from which release documents were asked."""

    def __init__(self, folder, english_documents) -> None:
        self.folder, self.starts = folder, []
        self.english = dict(english_documents)

    def __call__(self, releases, documents, english) -> LanguageCheck:
        def documents_from(start: int):
            self.starts.append(start)
            return documents[start : len(releases)]

        return check_translated_kept(
            "zh-Hans", releases, documents_from, english, self.rules, self.folder
        )

    def rules(self, release: Release):
        return self.english[release.key].rules


def test_a_translation_goes_on_from_its_first_release_after_an_english_release_added(tmp_path):
    english = [release(day) for day in (1, 3, 5, 7)]
    releases = [chinese(day) for day in (2, 4, 6)]
    check = Translated(tmp_path, {r.key: d for r, d in zip(english, DOCUMENTS, strict=False)})

    def whole(count: int, bases: list[Release]) -> LanguageCheck:
        return check_translated_releases(
            "zh-Hans", releases[:count], CHINESE[:count], bases, check.rules
        )

    assert check(releases[:2], CHINESE, english[:2]) == whole(2, english[:2])
    assert check(releases, CHINESE, english[:2]) == whole(3, english[:2])  # one added
    assert check(releases, CHINESE, english[:3]) == whole(3, english[:3])  # English of day 5
    assert check(releases, CHINESE, english) == whole(3, english)  # of day 7: after them all
    assert check.starts == [0, 2, 2]
    assert whole(3, english[:2]) != whole(3, english[:3])  # day 6 is checked against day 5


@pytest.fixture(scope="module")
def gathered(ingested):
    archive, _ = ingested
    found = {}
    for language in ("en", "zh-Hans"):
        headings = []
        data = gather(
            archive,
            language,
            cache=diff_folder(archive.root),
            on_document=lambda _i, _r, document, h=headings: h.append(document.headings),
        )
        found[language] = (data, headings)
    return archive, found


@pytest.fixture(scope="module")
def english(gathered):
    archive, found = gathered
    return archive, *found["en"]


def test_on_the_real_archive_the_extended_check_is_the_check_from_nothing(english, tmp_path):
    _, data, headings = english
    whole = check_gathered(data, None, headings)
    releases = data.releases
    shots = snapshots(data.lines, _glossaries(data), headings)
    assert check_snapshots("en", releases, shots) == whole
    count = len(releases)
    kept(releases, shots, count - 3, tmp_path)
    one, starts = kept(releases, shots, count - 2, tmp_path)
    assert starts == [count - 3]
    assert one == check_snapshots("en", releases[: count - 2], shots[: count - 2])
    two, starts = kept(releases, shots, count, tmp_path)
    assert (two, starts) == (whole, [count - 2])


def test_the_site_keeps_its_checks_and_reads_them_back(gathered, tmp_path):
    _, found = gathered
    (english, english_headings), (chinese, chinese_headings) = found["en"], found["zh-Hans"]
    for data, base, headings in (
        (english, None, english_headings),
        (chinese, english, chinese_headings),
    ):
        whole = check_gathered(data, base, headings)
        assert check_gathered(data, base, headings, tmp_path) == whole  # kept
        assert check_gathered(data, base, headings, tmp_path) == whole  # read back
    # English: its last state; a translation: the state after each of its releases
    assert len(list(tmp_path.iterdir())) == 1 + len(chinese.releases)


def test_the_check_command_goes_on_from_the_kept_check(english, monkeypatch):
    archive, _, _ = english
    shutil.rmtree(cache_folder(archive.root, "checks"), ignore_errors=True)  # derived data only
    load = archive.load
    for language, added in (("en", 2), ("zh-Hans", 1)):
        releases = archive.releases(language)
        whole = check_language(archive, language, cache=False)
        check_language(archive, language, until=releases[-added - 1])  # kept
        loaded = []
        monkeypatch.setattr(archive, "load", lambda r, seen=loaded: seen.append(r) or load(r))
        assert check_language(archive, language) == whole
        # the new releases alone are read (and a translation's English bases)
        assert [r for r in loaded if r.language == language] == releases[-added:]
        monkeypatch.setattr(archive, "load", load)


def test_the_check_command_goes_on_from_the_check_the_site_kept(english, monkeypatch):
    # Both read the same snapshots (the site's from its gathered lines, the command's from
    # the documents), so after a site build the command checks no release again.
    archive, data, headings = english
    folder = cache_folder(archive.root, "checks")
    shutil.rmtree(folder, ignore_errors=True)  # derived data only
    whole = check_language(archive, "en", cache=False)
    assert check_gathered(data, None, headings, folder) == whole
    monkeypatch.setattr(archive, "load", lambda release: pytest.fail(f"{release.key} read"))
    monkeypatch.setattr(CheckState, "extend", lambda *args: pytest.fail("checked again"))
    assert check_language(archive, "en") == whole


def _glossaries(data):
    from rulesarchive.site_builder.checks import _glossaries

    return _glossaries(data)
