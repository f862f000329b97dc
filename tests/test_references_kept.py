"""The reference check kept in the derived store and extended a release at a time: always the
same check as the one from nothing."""

import dataclasses
import sqlite3

import pytest
from rulesarchive.corpus import derived
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.lineage import trace_lines
from rulesarchive.differ.references import (
    CheckState,
    LanguageCheck,
    Snapshot,
    check_snapshots,
    check_translated_releases,
    snapshots,
)

from rulesarchive.checks import check_english, check_translation, translation_keys
from rulesarchive.library import Library, _glossaries
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


def kept(releases, shots, count, store: DerivedData) -> tuple[LanguageCheck, list[int]]:
    asked = Shots(shots, count)
    checked = check_english(store, releases[:count], asked)
    assert checked is not None
    return checked, asked.starts


def _entries(store: DerivedData) -> list[tuple[str, int]]:
    return [(row.kind, row.entries) for row in store.summary()]


def test_a_check_extended_by_one_and_by_two_releases_is_the_check_from_nothing(tmp_path):
    releases, shots = shots_of(DOCUMENTS)
    store = DerivedData(tmp_path)
    whole = check_snapshots("en", releases, shots)
    assert whole.problems  # something to follow: a stale and a dangling citation, a fix
    assert kept(releases, shots, 2, store)[1] == [0]
    for count, start in ((3, 2), (5, 3)):
        result, starts = kept(releases, shots, count, store)
        assert starts == [start]
        assert result == check_snapshots("en", releases[:count], shots[:count])
    assert result == whole
    again, starts = kept(releases, shots, 5, store)
    assert (again, starts) == (whole, [])  # all kept: nothing asked for
    # each kept state replaces the one it extends, and its check the check of that one
    assert _entries(store) == [("check", 2)]
    for count in range(1, 6):  # the check of the first releases is the whole check's beginning
        assert whole.until(releases[count - 1]) == check_snapshots(
            "en", releases[:count], shots[:count]
        )


def test_a_check_kept_whole_is_read_without_its_state(tmp_path, monkeypatch):
    releases, shots = shots_of(DOCUMENTS)
    store = DerivedData(tmp_path)
    whole = kept(releases, shots, 5, store)[0]
    # the state (ten times the check's size on the real archive) is not loaded again
    monkeypatch.setattr(DerivedData, "latest", lambda *args: pytest.fail("state loaded"))
    assert kept(releases, shots, 5, store) == (whole, [])


def test_snapshots_from_a_release_on_are_those_of_every_release_from_it():
    releases, shots = shots_of(DOCUMENTS)
    documents = DOCUMENTS
    steps = [
        (document, diff_documents(documents[i - 1], document) if i else None)
        for i, document in enumerate(documents)
    ]
    lines = trace_lines(releases, steps)
    assert snapshots(lines, [d.glossary for d in documents], start=3) == shots[3:]


def test_a_changed_or_inserted_release_or_other_code_checks_from_nothing(tmp_path, monkeypatch):
    releases, shots = shots_of(DOCUMENTS)
    store = DerivedData(tmp_path)
    kept(releases, shots, 4, store)
    changed = list(releases)
    changed[1] = dataclasses.replace(changed[1], content_sha256="f" * 64)
    result, starts = kept(changed, shots, 5, store)
    assert starts == [0] and result == check_snapshots("en", changed, shots)
    inserted = [releases[0], release(9), *releases[1:4]]
    moved = [shots[0], shots[0], *shots[1:4]]
    result, starts = kept(inserted, moved, 5, store)
    assert starts == [0] and result == check_snapshots("en", inserted, moved)
    with monkeypatch.context() as other:
        other.setattr(derived, "code_version", lambda: "other code")
        assert kept(releases, shots, 5, store)[1] == [0]
    assert kept(releases, shots, 5, store)[1] == [4]  # the state kept at first is still good


@pytest.mark.parametrize("spoil", ["x'00'", "substr(value, 1, 100)"])  # or cut short
def test_an_unreadable_kept_state_or_an_unwritable_cache_checks_from_nothing(tmp_path, spoil):
    releases, shots = shots_of(DOCUMENTS)
    whole = check_snapshots("en", releases, shots)
    store = DerivedData(tmp_path / "store")
    kept(releases, shots, 4, store)
    with sqlite3.connect(tmp_path / "store" / derived.FILE_NAME) as connection:
        connection.execute(f"UPDATE entries SET value = {spoil}")
    assert kept(releases, shots, 5, DerivedData(tmp_path / "store")) == (whole, [0])
    blocked = tmp_path / "a file"
    blocked.write_text("")
    for _ in range(2):  # nothing can be kept under a file: checked from nothing each time
        assert kept(releases, shots, 5, DerivedData(blocked / "store")) == (whole, [0])


CHINESE = [
    Document("zh-Hans", None, rules=(Rule("100.1", "见规则100.2。"), Rule("100.2", "抓一张牌。"))),
    Document("zh-Hans", None, rules=(Rule("100.1", "见规则100.2。"), Rule("100.3", "抓一张牌。"))),
    Document("zh-Hans", None, rules=(Rule("100.1", "见规则100.3。"), Rule("100.3", "抓两张牌。"))),
]


def chinese(day: int) -> Release:
    return dataclasses.replace(release(day), language="zh-Hans")


class Translated:
    """The translated check kept in `store`, saying from which release documents were asked."""

    def __init__(self, store: DerivedData, english_documents) -> None:
        self.store, self.starts = store, []
        self.english = dict(english_documents)

    def __call__(self, releases, documents, english) -> LanguageCheck:
        def documents_from(start: int):
            self.starts.append(start)
            return documents[start : len(releases)]

        return check_translation(
            self.store, "zh-Hans", releases, documents_from, english, self.rules
        )

    def rules(self, release: Release):
        return self.english[release.key].rules


def test_a_translation_goes_on_from_its_first_release_after_an_english_release_added(tmp_path):
    english = [release(day) for day in (1, 3, 5, 7)]
    releases = [chinese(day) for day in (2, 4, 6)]
    english_documents = {r.key: d for r, d in zip(english, DOCUMENTS, strict=False)}
    check = Translated(DerivedData(tmp_path), english_documents)

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


def test_a_translation_printed_on_an_english_date_is_checked_again_when_one_follows():
    # with an English release of its date, its base may be one of the next few (ko 2017-07-08
    # translates en 2017-08-25): an English release added after it may change its check
    english = [release(day) for day in (1, 3, 5)]
    dated, undated = [chinese(3)], [chinese(4)]
    assert translation_keys("zh-Hans", dated, english[:2]) != translation_keys(
        "zh-Hans", dated, english
    )
    # without one, it was made from an English release the archive lacks: only earlier ones
    assert translation_keys("zh-Hans", undated, english[:2]) == translation_keys(
        "zh-Hans", undated, english
    )


@pytest.fixture(scope="module")
def gathered(library):
    return {language: library.gather(language) for language in ("en", "zh-Hans")}


def test_on_the_real_archive_the_extended_check_is_the_check_from_nothing(gathered, tmp_path):
    data = gathered["en"]
    store = DerivedData(tmp_path)
    releases = data.releases
    shots = snapshots(data.lines, _glossaries(data), data.release_headings)
    whole = check_snapshots("en", releases, shots)
    count = len(releases)
    kept(releases, shots, count - 3, store)
    one, starts = kept(releases, shots, count - 2, store)
    assert starts == [count - 3]
    assert one == check_snapshots("en", releases[: count - 2], shots[: count - 2])
    two, starts = kept(releases, shots, count, store)
    assert (two, starts) == (whole, [count - 2])


def test_the_site_keeps_its_checks_and_reads_them_back(library, gathered, tmp_path):
    english, chinese = gathered["en"], gathered["zh-Hans"]
    fresh = Library(library.root, DerivedData(None))
    store = Library(library.root, DerivedData(tmp_path))
    for language, data, base in (("en", english, None), ("zh-Hans", chinese, english)):
        whole = fresh.check(language, data, base)
        assert store.check(language, data, base) == whole  # kept
        assert store.check(language, data, base) == whole  # read back
        assert fresh.check(language) == whole  # the same check from the documents
    # English: its last state; a translation: the state after each of its releases; and the
    # check of each language's releases, beside its state
    assert (".", sum(n for k, n in _entries(store.derived) if k == "check")) == (
        ".",
        1 + len(chinese.releases) + 2,
    )


def test_the_check_command_goes_on_from_the_kept_check(library, tmp_path, monkeypatch):
    store = Library(library.root, DerivedData(tmp_path))
    load = store.archive.load
    for language, added in (("en", 2), ("zh-Hans", 1)):
        releases = store.releases(language)
        whole = Library(library.root, library.derived).check(language)
        if language == "en":  # kept for all but the last releases
            store._check_english(releases[:-added])
        else:
            store._check_translation(language, releases[:-added])
        for old, new in zip(releases[-added - 1 :], releases[-added:], strict=False):
            store.diff(old, new)  # as the ingest that added them did
        loaded = []
        monkeypatch.setattr(store.archive, "load", lambda r, seen=loaded: seen.append(r) or load(r))
        assert store.check(language) == whole
        # the new releases alone are read (and a translation's English bases)
        assert [r for r in loaded if r.language == language] == releases[-added:]
        monkeypatch.setattr(store.archive, "load", load)


def test_the_check_command_goes_on_from_the_check_the_site_kept(
    library, gathered, tmp_path, monkeypatch
):
    # Both read the same snapshots (the site's from its gathered lines, the command's from
    # the documents), so after a site build the command checks no release again.
    store = Library(library.root, DerivedData(tmp_path))
    whole = Library(library.root, library.derived).check("en")
    assert store.check("en", gathered["en"]) == whole
    monkeypatch.setattr(store.archive, "load", lambda release: pytest.fail(f"{release.key} read"))
    monkeypatch.setattr(CheckState, "extend", lambda *args: pytest.fail("checked again"))
    assert store.check("en") == whole
