"""The search index is made again only when what Pagefind reads of a language's pages changed."""

from __future__ import annotations

import datetime as dt

from rulesarchive.site_builder import search
from rulesarchive.site_builder.build import build_site
from rulesarchive.site_builder.search import indexed_part

from tests.site_fixture import fixture_archive, save_reworded

PAGE = (
    '<!doctype html><html lang="zh-Hans"><head><title>T</title>'
    '<meta data-pagefind-meta="title[content]" content="400.6 · 标题"></head>'
    '<body><nav><a href="../../en/r/400.6/">English</a></nav>'
    '<main data-pagefind-body><h1><span data-pagefind-meta="rule">400.6</span></h1>'
    '<p class="text">译文。</p>\n'
    '<section class="translations" data-pagefind-ignore><h2>English</h2>'
    "<section><p>{english}</p></section></section>\n"
    '<dl class="facts" data-pagefind-ignore><dt>check</dt><dd>{check}</dd></dl>'
    "</main></body></html>"
)


def _page(english: str = "The English text.", check: str = "", **changes: str) -> bytes:
    page = PAGE.format(english=english, check=check)
    for old, new in changes.items():
        page = page.replace(old.replace("_", " "), new)
    return page.encode()


def test_what_pagefind_leaves_out_does_not_count():
    first = indexed_part(_page())
    # the English counterpart (in a section inside the one left out), the check, the nav
    assert indexed_part(_page("Reworded, after a release.")) == first
    assert indexed_part(_page(check="727: should be 726")) == first
    assert indexed_part(_page().replace(b"../../en/r/400.6/", b"../../en/chapters/4/")) == first
    # a section left out altogether leaves its line's end behind
    gone = _page().replace(b'<dl class="facts" data-pagefind-ignore>', b"<dl>")
    assert indexed_part(gone) != first
    without = gone.replace(b"<dl><dt>check</dt><dd></dd></dl>", b"")
    assert indexed_part(without) == first


def test_what_pagefind_reads_counts():
    first = indexed_part(_page())
    assert indexed_part(_page().replace("译文".encode(), "新译文".encode())) != first  # the text
    assert indexed_part(_page().replace(b'lang="zh-Hans"', b'lang="ko"')) != first  # language
    # meta data is read anywhere: in the head, and inside an element left out
    assert indexed_part(_page().replace("标题".encode(), b"title")) != first
    filtered = _page(check='<span data-pagefind-filter="stale">yes</span>')
    assert indexed_part(filtered) != first
    assert indexed_part(filtered.replace(b">yes<", b">no<")) != indexed_part(filtered)
    own = _page().replace(
        b'facts" data-pagefind-ignore', b'facts" data-pagefind-ignore data-pagefind-meta="c"'
    )
    assert indexed_part(own) != first
    assert indexed_part(own.replace(b"<dt>check", b"<dt>checked")) != indexed_part(own)


def test_a_page_whose_end_is_missing_is_read_as_changed():
    cut = _page().split(b"</section></section>")[0]
    assert indexed_part(cut) is None
    assert indexed_part(_page().replace(b"</main>", b"")) is None


def test_a_page_without_a_body_mark_is_read_whole():
    page = (
        b'<html lang="en"><body><p>Words</p><div data-pagefind-ignore>kept out</div></body></html>'
    )
    assert indexed_part(page) == b'<html lang="en"><body><p>Words</p></body></html>'
    assert indexed_part(page.replace(b"kept out", b"other")) == indexed_part(page)


def test_a_release_reindexes_only_the_languages_whose_searched_text_changed(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out)
    started: list[str] = []
    start = search.Indexer.start
    monkeypatch.setattr(
        search.Indexer,
        "start",
        lambda self, language, pages="": started.append(language) or start(self, language, pages),
    )
    # English 400.6 reworded: the Korean page of 400.6 shows it, where it is not searched
    newest = archive.releases("en")[-1].effective_date
    after = newest + dt.timedelta(days=30)
    save_reworded(archive, "en", "400.6", " Reworded.", after, ("MH1", "Modern Horizons"))
    translated = out / "ko" / "r" / "2016-11-11" / "400.6" / "index.html"
    before = translated.read_bytes()
    build_site(archive, out)
    assert started == ["en"]
    assert translated.read_bytes() != before  # the page changed, its searched part did not
    assert indexed_part(translated.read_bytes()) == indexed_part(before)
    # the kept indexes are those a build from nothing makes
    fresh = tmp_path / "fresh"
    build_site(archive, fresh)
    for language in ("zh-Hans", "ko"):
        kept = out / "pagefind" / language / "fragments"
        made = fresh / "pagefind" / language / "fragments"
        assert {p.name: p.read_bytes() for p in kept.iterdir()} == {
            p.name: p.read_bytes() for p in made.iterdir()
        }
