"""The site's MTR and IPG pages: releases, changelogs, section histories, versions read whole,
search; the CR's pages as they were without them."""

from __future__ import annotations

import filecmp
import re
from pathlib import Path

import pytest
from rulesarchive.corpus.model import DocKind

from rulesarchive.library import Library
from tests.linkcheck import broken_links
from tests.tournament_fixture import tournament_sites

# Files every page of the site lists or sums up: what a new kind of page changes.
SITE_WIDE = {"index.html", "search.html", "sitemap.xml", ".manifest.json"}


@pytest.fixture(scope="module")
def sites(policy_archive: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Build the shipped sample (CR only), then the same with the MTRs and IPGs ingested."""
    return tournament_sites(policy_archive, tmp_path_factory)


def _text(page: Path, inline: bool = False) -> str:
    """A page's main text, tags taken out, <ins> and <del> kept as [+ +] and [- -]; `inline`:
    links and marks inside a text taken out as a reader reads them, with no space."""
    html = page.read_text(encoding="utf-8")
    html = html[html.index("<main") : html.index("</main>")]
    if inline:
        html = re.sub(r"</?(?:a|span)\b[^>]*>", "", html)
    html = html.replace("<ins>", "[+").replace("</ins>", "+]")
    html = html.replace("<del>", "[-").replace("</del>", "-]")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def test_the_cr_pages_are_as_they_were_without_the_tournament_documents(sites):
    cr_only, site = sites
    compared = 0
    for page in cr_only.resolve().rglob("*.html"):
        relative = page.relative_to(cr_only.resolve()).as_posix()
        if relative not in SITE_WIDE:
            assert filecmp.cmp(page, site / relative, shallow=False), relative
            compared += 1
    assert compared > 20


def test_the_cr_data_files_are_as_they_were_and_each_kind_has_its_own(sites):
    cr_only, site = sites
    data = cr_only.resolve() / "data" / "en"
    for script in data.glob("*.js"):  # each release's data file and the moves
        assert filecmp.cmp(script, site / "data" / "en" / script.name, shallow=False), script
    assert (site / "data/mtr-en/moves.js").is_file()
    assert (site / "data/ipg-en/2015-07-17.js").is_file()
    assert sorted(p.name for p in (site / "data").iterdir()) == ["en", "ipg-en", "mtr-en"]


def test_the_home_page_and_the_search_lead_to_each_document(sites):
    _, site = sites
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="mtr/en/index.html">Magic Tournament Rules</a>' in home
    assert '<a href="ipg/en/index.html">Infraction Procedure Guide</a>' in home
    search = (site / "search.html").read_text(encoding="utf-8")
    assert '<option value="ipg" data-document>Infraction Procedure Guide</option>' in search
    assert (site / "pagefind" / "mtr" / "pagefind.js").is_file()
    assert (site / "pagefind" / "ipg" / "pagefind.js").is_file()


def test_a_kinds_home_lists_its_releases_and_its_newest_sections(sites):
    _, site = sites
    home = site / "mtr" / "en" / "index.html"
    text = _text(home)
    assert text.index("2009-07-01") < text.index("2008-03-01")  # newest first
    html = home.read_text(encoding="utf-8")
    assert 'href="releases/2009-07-01/index.html"' in html
    assert 'href="releases/2008-03-01/rules.html"' in html
    assert re.search(r'<a href="r/[^"]+/index.html">3\.10 Marked Cards</a>', html)


def test_a_changelog_shows_parts_added_and_paragraphs_removed_and_links_their_history(sites):
    _, site = sites
    page = site / "ipg" / "en" / "releases" / "2015-07-17" / "index.html"
    text = _text(page)
    assert "removed 1.1: DEFINITION OF RULES ENFORCEMENT LEVEL (REL)" in text
    assert "2.1/upgrade · Game Play Error—Missed Trigger · Upgrade" in text
    # General Philosophy lost its paragraph on treating players equally: one deletion
    assert "[-All players are treated equally according to the guidelines" in text
    assert "Changes since 2015-03-27 ." in text
    html = page.read_text(encoding="utf-8")
    assert 'href="../../r/2015-03-27/2.1/philosophy/index.html#v2015-07-17"' in html


def test_a_parts_page_holds_its_text_and_every_version(sites):
    _, site = sites
    page = site / "ipg" / "en" / "r" / "2015-03-27" / "2.1" / "philosophy" / "index.html"
    text = _text(page)
    assert text.startswith(" IPG 2.1 Philosophy · Game Play Error—Missed Trigger")
    assert "Triggered abilities are common and invisible" in text
    html = page.read_text(encoding="utf-8")
    assert 'id="v2015-07-17"' in html and 'id="v2015-03-27"' in html
    assert 'data-pagefind-filter="status:current"' in html
    # the Upgrade went out of it: a deletion in the newest version's diff
    newest = html[html.index('id="v2015-07-17"') : html.index('id="v2015-03-27"')]
    assert "<del>" in newest


def test_a_version_read_whole_prints_every_section_and_part(sites):
    _, site = sites
    library = Library(sites[1].parent / "archive", kind=DocKind.IPG)
    release = library.releases()[-1]
    document = library.load(release)
    page = site / "ipg" / "en" / "releases" / "2015-07-17" / "rules.html"
    html = page.read_text(encoding="utf-8")
    for section in document.sections:
        assert f'id="s{section.number}"' in html
    missed = document.section("2.1/philosophy")
    assert missed is not None
    text = _text(page, inline=True)  # its citation of MTR 4.3 is a link
    for paragraph in missed.printed_paragraphs:
        assert re.sub(r"\s+", " ", paragraph) in text
    assert (page.parent / "original.pdf").read_bytes() == library.original(release)


def test_every_link_of_the_site_leads_somewhere(sites):
    _, site = sites
    assert broken_links(site) == []
