"""The linked texts kept across builds: found only when everything their HTML is made of is."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest
from rulesarchive.corpus import derived
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.model import GlossaryEntry, Rule
from rulesarchive.site_builder import build as build_module
from rulesarchive.site_builder import pages as pages_module
from rulesarchive.site_builder import paths, workers
from rulesarchive.site_builder.build import build_site
from rulesarchive.site_builder.link_cache import LinkCache
from rulesarchive.site_builder.refs import References

from rulesarchive.library import Library
from tests.site_fixture import fixture_archive, save_release, save_reworded


def _links(archive: Library) -> LinkCache:
    """The linked texts the last build of the archive kept (as the build reads them)."""
    return LinkCache(archive.derived, "en", str(archive.root.resolve()))


RULE_PAGE = "en/r/2010-02-01/400.6/index.html"


def _site(folder) -> dict[str, bytes]:
    live = folder.resolve()
    return {
        path.relative_to(live).as_posix(): path.read_bytes()
        for path in live.rglob("*")
        if path.is_file() and path.name != ".manifest.json"
    }


def test_a_text_found_in_the_cache_links_what_it_linked_and_marks_its_terms(tmp_path):
    archive = fixture_archive(tmp_path / "archive")
    data = archive.gather("en")
    glossary = {term.key: f"en/glossary/{term.key}.html" for term in data.glossary}
    text = "An attacking creature with trample, see rule 702.19 and rule 704."
    newest = len(data.releases) - 1
    made = []
    for _ in range(2):  # the second from a cache the first saved
        links = _links(archive)
        refs = References(data, glossary, links)
        seen: set[str] = set()
        made.append((str(refs.html(RULE_PAGE, text, newest, seen)), seen))
        links.save("others")
    assert made[0] == made[1]
    assert "<a " in made[0][0]
    assert made[0][1], "the glossary terms the text links are marked as linked on the page"
    assert len(_links(archive).found) == 1


def test_a_change_in_where_a_link_leads_reaches_the_page(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    assert _links(archive).found  # the rebuild below finds texts linked before
    rule_page = paths.rule_page

    def moved(language, line):  # every rule page moves: every link to one must follow
        return rule_page(language, line).replace("/r/", "/rule/")

    monkeypatch.setattr(paths, "rule_page", moved)
    # As if code changed, as it would (the pages' salt; the link cache keeps its entries).
    monkeypatch.setattr(build_module, "built_from", lambda out: None)
    monkeypatch.setattr(pages_module, "code_version", lambda: "paths.py changed")
    build_site(archive, out, index_search=False)
    build_site(Library(archive.root, DerivedData(None)), tmp_path / "fresh", index_search=False)
    assert _site(out) == _site(tmp_path / "fresh")
    assert (
        "rule/2010-02-01/400.6/"
        in (out / "en" / "releases" / "2014-02-01" / "index.html").read_text()
    )


def test_a_glossary_page_renamed_reaches_the_terms_linked_to_it(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    glossary_page = paths.glossary_page
    monkeypatch.setattr(paths, "glossary_page", lambda lang, slug: glossary_page(lang, slug + "-x"))
    monkeypatch.setattr(build_module, "built_from", lambda out: None)
    monkeypatch.setattr(pages_module, "code_version", lambda: "paths.py changed")
    build_site(archive, out, index_search=False)
    build_site(Library(archive.root, DerivedData(None)), tmp_path / "fresh", index_search=False)
    assert _site(out) == _site(tmp_path / "fresh")
    assert '-x/index.html">' in "".join(
        page.decode() for path, page in _site(out).items() if "/r/" in path
    )


def test_a_rebuild_from_the_cache_in_two_processes_is_a_build_from_nothing(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    release = archive.root / "en" / "2019-05-03"
    release.rename(tmp_path / "aside")
    monkeypatch.setattr(workers, "FORK_FROM", 0)
    build_site(archive, tmp_path / "site", index_search=False)
    (tmp_path / "aside").rename(release)  # one release added, as after an ingest
    build_site(archive, tmp_path / "site", index_search=False)
    build_site(Library(archive.root, DerivedData(None)), tmp_path / "fresh", index_search=False)
    assert _site(tmp_path / "site") == _site(tmp_path / "fresh")
    links = _links(archive)
    assert {part: links.derived.has(links._key(part)) for part in ("rules", "others")} == {
        "rules": True,
        "others": True,
    }


def test_texts_kept_by_other_code_are_never_read(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    build_site(archive, tmp_path / "site", index_search=False)
    found = _links(archive).found
    assert found
    with monkeypatch.context() as other:
        other.setattr(derived, "code_version", lambda: "other code")
        assert not _links(archive).found
        _links(archive).save("others")  # kept apart, for that code alone
    assert _links(archive).found == found


def test_a_word_diff_is_worked_out_once_across_builds(tmp_path, monkeypatch):
    from rulesarchive.site_builder import link_cache

    old, new = "Trample is a static ability.", "Trample is a keyword ability."
    first = LinkCache(DerivedData(tmp_path), "en")
    diff = first.word_diff(old, new)
    assert (-1, "static") in diff and (1, "keyword") in diff
    first.save("others")
    monkeypatch.setattr(link_cache, "diff_words", lambda *texts: pytest.fail("worked out again"))
    assert LinkCache(DerivedData(tmp_path), "en").word_diff(old, new) == diff


def test_the_pages_a_rebuild_keeps_by_their_memo_keep_their_linked_texts(tmp_path):
    """A Chinese release leaves most English pages (rule pages, changelogs) as they were,
    linking nothing of them: their texts stay in the cache for the next English release."""
    archive = fixture_archive(tmp_path / "archive")
    build_site(archive, tmp_path / "site", index_search=False)
    before = _links(archive).found
    save_reworded(
        archive, "zh-Hans", "100.1", "。", dt.date(2014, 5, 2), ("JOU", "Journey into Nyx")
    )
    build_site(archive, tmp_path / "site", index_search=False)
    assert _links(archive).found == before


def test_a_forked_process_saves_only_the_pages_it_made(tmp_path):
    links = LinkCache(DerivedData(tmp_path), "en")
    links.put("en/glossary/zone/index.html", b"k1", ("<a>zone</a>", ()))  # the parent's
    inherited = set(links.used)
    links.put(RULE_PAGE, b"k2", ("<a>400.6</a>", ()))
    links.forget(inherited)
    links.save("rules")
    assert set(LinkCache(DerivedData(tmp_path), "en").found) == {RULE_PAGE}


def test_a_new_glossary_term_links_again_only_the_texts_that_hold_it(tmp_path, monkeypatch):
    """A text of the newest release linked by the last build with the glossary of the
    release before is taken as it was, unless a term that came or went could be in it."""
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    newest = archive.load(archive.releases("en")[-1])
    glossary = (*newest.glossary, GlossaryEntry("Multiplayer Game", "A game of three or more."))
    newer = replace(newest, effective_date=dt.date(2019, 6, 14), glossary=glossary)
    save_release(archive, newer, "M20", "Core Set 2020")
    linked: list[str] = []
    link = References._html

    def _html(self, page, text, index, terms, found, targets):
        if terms is not None and self.data.language == "en" and page.startswith("en/r/"):
            linked.append(text)
        return link(self, page, text, index, terms, found, targets)

    monkeypatch.setattr(References, "_html", _html)
    monkeypatch.setattr(workers, "FORK_FROM", 10**9)  # every page in this process
    build_site(archive, out, index_search=False)
    assert linked == [rule.text for rule in newest.rules if rule.number == "100.1"]
    assert "glossary/multiplayer-game/" in (out / RULE_PAGE.replace("400.6", "100.1")).read_text()


def test_a_new_term_matched_in_any_case_links_the_text_again(tmp_path):
    """IGNORECASE matches 'ı' (dotless) for 'i', which neither casefold nor lower gives: a
    text holding a new term only that way is linked again too."""
    archive = fixture_archive(tmp_path / "archive")
    newest = archive.load(archive.releases("en")[-1])
    rules = (*newest.rules, Rule("100.2", "A Multıplayer Game is played by many."))
    glossary = (*newest.glossary, GlossaryEntry("Game", "A game."))
    one = replace(newest, effective_date=dt.date(2019, 6, 14), rules=rules, glossary=glossary)
    save_release(archive, one, "M20", "Core Set 2020")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    glossary = (*glossary, GlossaryEntry("Multiplayer Game", "A game of three or more."))
    save_release(
        archive, replace(one, effective_date=dt.date(2019, 7, 12), glossary=glossary), "HA1", "HA1"
    )
    build_site(archive, out, index_search=False)
    fresh = tmp_path / "fresh"
    build_site(Library(archive.root, DerivedData(None)), fresh, index_search=False)
    page = "en/r/2019-06-14/100.2/index.html"
    assert (out / page).read_text() == (fresh / page).read_text()


def test_the_history_entries_of_a_language_that_gained_no_release_are_kept(tmp_path):
    """A build that keeps English's history files whole (only a translation gained a
    release) carries their kept entries to the next build, which would else make them all."""
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    kept = _links(archive).texts_found
    assert sum(len(texts) for texts in kept.values()) > 0
    save_reworded(archive, "zh-Hans", "100.1", "（改）", dt.date(2019, 6, 14), ("M20", "M20"))
    build_site(archive, out, index_search=False)
    assert _links(archive).texts_found == kept


def test_a_section_number_changed_in_a_word_diff_links_with_the_words_before_it(tmp_path):
    archive = fixture_archive(tmp_path / "archive")
    data = archive.gather("en")
    refs = References(data, {}, LinkCache(None, "en"))
    newest = len(data.releases) - 1
    # 'rule' stands in the equal piece, the numbers alone in the deleted and inserted ones.
    pieces = [(0, "See rule "), (-1, "400"), (1, "702"), (0, ", and rule 702.19.")]
    html = str(refs.diff_html(RULE_PAGE, pieces, newest, before=newest))
    deleted = html[html.index("<del>") : html.index("</del>")]
    inserted = html[html.index("<ins>") : html.index("</ins>")]
    assert "<a href=" in deleted and ">400</a>" in deleted
    assert "<a href=" in inserted and ">702</a>" in inserted
    assert html.count("<a href=") == 3  # and 702.19, found in its own piece as before
    # A piece alone shows no section reference: the same pieces without 'rule' link none.
    alone = str(refs.diff_html(RULE_PAGE, [(0, "See "), (-1, "400"), (1, "702")], newest, newest))
    assert "<a " not in alone


def test_both_ends_of_a_range_written_short_are_linked(tmp_path):
    archive = fixture_archive(tmp_path / "archive")
    data = archive.gather("en")
    refs = References(data, {}, LinkCache(None, "en"))
    newest = len(data.releases) - 1
    html = str(refs.html(RULE_PAGE, "See rules 400.6–8.", newest))
    assert ">400.6</a>–<a " in html and ">8</a>." in html
    assert html.count("<a href=") == 2
