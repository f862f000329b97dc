"""The MTR's and IPG's citations on the site, on real documents: each leads to the section or
CR rule of the version in force on the citing version's date."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from rulesarchive.corpus.model import DocKind
from rulesarchive.scraper.ingest import ingest_paths
from rulesarchive.site_builder.build import build_site

from rulesarchive.library import Library
from tests.linkcheck import broken_links
from tests.made_once import made_once

# Two versions of each, and the two English CRs in force on their dates: the MTR printed
# 2015-03-27 cites the CR of 2015-01-23, the one of 2015-07-17 the CR of that day.
POLICY_FILES = (
    "mtr/mtr-2015-03-23.pdf",
    "mtr/mtr-2015-07-17.pdf",
    "ipg/ipg-2015-03-27.pdf",
    "ipg/ipg-2015-07-17.pdf",
)
CR_FILES = ("en/2015-01-23.txt", "en/2015-07-17.txt")
_LINK = re.compile(r'<a href="([^"#][^"]*)">([^<]*)</a>')  # not a heading's own anchor


@pytest.fixture(scope="module")
def site(
    shared_archive: Path, policy_archive: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """Build a site of two real CRs and the MTRs and IPGs of their time."""

    def build(folder: Path) -> None:
        library = Library(folder / "archive")
        ingest_paths(library.archive, [shared_archive / name for name in CR_FILES])
        ingest_paths(library.archive, [policy_archive / name for name in POLICY_FILES])
        kinds = [library.of_kind(DocKind.MTR), library.of_kind(DocKind.IPG)]
        build_site(library, folder / "site", index_search=False, documents=kinds)

    folder, _ = made_once(tmp_path_factory, "tournament-links", build)
    return folder / "site"


def _links(page: Path, shown: str) -> list[Path]:
    """The pages the links of a page showing `shown` lead to, resolved from the page."""
    html = page.read_text(encoding="utf-8")
    found = [href for href, text in _LINK.findall(html) if text == shown]
    return [(page.parent / urlsplit(href).path).resolve() for href in found]


def _anchors(page: Path, shown: str) -> list[str]:
    html = page.read_text(encoding="utf-8")
    return [urlsplit(href).fragment for href, text in _LINK.findall(html) if text == shown]


def _heading(page: Path) -> str:
    html = page.read_text(encoding="utf-8")
    return re.sub(r"<[^>]+>", "", html[html.index("<h1>") : html.index("</h1>")])


def _whole(site: Path, kind: str, date: str) -> Path:
    return site / kind / "en" / "releases" / date / "rules.html"


def test_a_section_of_its_own_document_links_to_that_sections_page(site):
    # MTR 2.11 (Tiebreakers): "... as described in section 2.12"
    page = _whole(site, "mtr", "2015-07-17")
    [target] = _links(page, "2.12")
    assert target.is_file()
    assert _heading(target).startswith("MTR 2.12 ·")
    assert target.is_relative_to((site / "mtr" / "en" / "r").resolve())


def test_an_ipg_citation_of_the_mtr_links_to_the_mtr_section_in_force(site):
    # IPG 2.1 Missed Trigger, Philosophy: "Out-of-Order Sequencing rules (MTR section 4.3)"
    for date in ("2015-03-27", "2015-07-17"):
        page = _whole(site, "ipg", date)
        targets = _links(page, "4.3")
        assert targets, date
        for target, anchor in zip(targets, _anchors(page, "4.3"), strict=True):
            assert _heading(target).startswith("MTR 4.3 ·")
            assert f'id="{anchor}"' in target.read_text(encoding="utf-8")
            assert anchor <= f"v{date}"  # the version in force then, not a later one


def test_a_cr_citation_links_to_the_rule_of_the_cr_in_force(site):
    # MTR 2.3: "... (see Comprehensive Rules, rule 103.4)"; MTR 9.4 cites 103.4c.
    for date, cr in (("2015-03-27", "2015-01-23"), ("2015-07-17", "2015-07-17")):
        page = _whole(site, "mtr", date)
        for number in ("103.4", "103.4c"):
            [target] = _links(page, number)
            assert target.is_file()
            assert target.is_relative_to((site / "en" / "r").resolve())
            assert _heading(target).startswith(number)
            [anchor] = _anchors(page, number)
            assert anchor <= f"v{cr}"
            assert f'id="{anchor}"' in target.read_text(encoding="utf-8")


def test_citations_link_on_section_pages_and_changelogs_too(site):
    sections = (site / "mtr" / "en" / "r").rglob("index.html")
    page = next(p for p in sections if _heading(p).startswith("MTR 2.3 ·"))
    assert all(target.is_file() for target in _links(page, "103.4"))
    assert _links(page, "103.4")


def test_every_link_target_written_exists(site):
    assert broken_links(site) == []
