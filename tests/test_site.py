"""The static site: whole pages against golden files, links, escaping, data, atomic builds."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from rulesarchive.site_builder import build as build_module
from rulesarchive.site_builder.build import build_site, sample_archive

from rulesarchive.cli import main
from tests.linkcheck import broken_links
from tests.site_fixture import fixture_archive

GOLDEN = Path(__file__).parent / "golden" / "site"
GOLDEN_PAGES = [
    "index.html",
    "en/releases/2011-05-01/index.html",
    "en/r/2010-02-01/400.6/index.html",
    "en/n/702.19/index.html",
    "en/glossary/trample/index.html",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site-test")
    archive = fixture_archive(folder / "archive")
    out = folder / "site"
    build_site(archive, out)
    return out


@pytest.mark.parametrize("page", GOLDEN_PAGES)
def test_pages_match_golden_files(site, page, request):
    built = (site / page).read_text(encoding="utf-8")
    golden = GOLDEN / page
    if request.config.getoption("--update-golden"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(built, encoding="utf-8")
    assert golden.exists(), f"no golden file {golden}: run pytest --update-golden"
    assert built == golden.read_text(encoding="utf-8")


def _pages(site: Path):
    for path in sorted(site.rglob("*.html")):
        if "pagefind" not in path.parts:
            yield path, BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_no_broken_internal_link_or_anchor(site):
    assert broken_links(site) == []


def test_nothing_is_loaded_from_outside_the_site(site):
    for path, soup in _pages(site):
        for element in soup.find_all(["script", "link", "img", "iframe"]):
            address = element.get("src") or element.get("href") or ""
            scheme = urlsplit(address).scheme
            assert scheme in {"", "data"} and not address.startswith("//"), (path, address)


def test_rule_text_is_escaped_and_a_missing_citation_is_flagged(site):
    page = next((site / "en" / "r" / "2019-05-03").glob("400.9/index.html"))
    html = page.read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    soup = BeautifulSoup(html, "html.parser")
    assert soup.select_one("span.dangling").get_text() == "999.99"
    cites = {a.get_text() for a in soup.select("dl.facts a")}
    assert "400.6" in cites


def test_every_old_number_resolves_to_the_rules_permanent_page(site):
    # 702.18 was Banding; Deathtouch took the number when it was inserted in 2011-09-30.
    stub = BeautifulSoup((site / "en/n/702.19/index.html").read_text(), "html.parser")
    refresh = stub.find("meta", attrs={"http-equiv": "refresh"})["content"]
    assert refresh.endswith("../../r/2010-02-01/702.18/index.html")  # Banding, now 702.19
    history = (site / "en/r/2010-02-01/702.18/index.html").read_text()
    assert "702.18 → 702.19" in history


def test_rule_history_labels_truncation_and_typography_and_shows_the_change(site):
    soup = BeautifulSoup((site / "en/r/2010-02-01/400.6/index.html").read_text(), "html.parser")
    kinds = [tag.get_text() for tag in soup.select(".version .kind")]
    assert kinds.count("truncation") == 2 and kinds.count("substantive") == 2
    change = soup.select_one("section.version.substantive .diff")
    assert change.find("del").get_text().strip(" ,") == "all players look"
    assert "its owner will be able to look at it in that zone" in change.find("ins").get_text()


def test_feed_sitemap_and_json_data(site):
    feed = ElementTree.fromstring((site / "feed.atom").read_bytes())
    entries = feed.findall("{http://www.w3.org/2005/Atom}entry")
    assert entries and "2019-05-03" in entries[0].find("{http://www.w3.org/2005/Atom}title").text
    sitemap = (site / "sitemap.xml").read_text()
    assert "http://localhost:8000/en/r/2010-02-01/400.6/index.html" in sitemap
    assert "/n/" not in sitemap
    release = json.loads((site / "data/en/2019-05-03.json").read_text())
    assert release["effective_date"] == "2019-05-03"
    assert ["400.9", release["rules"][-1][1], []] == release["rules"][-1]
    history = json.loads((site / "data/en/r/2010-02-01/400.6.json").read_text())
    assert history["numbers"] == ["400.6"] and len(history["versions"]) == 11
    assert history["page"] == "en/r/2010-02-01/400.6/index.html"


def test_search_index_is_built_with_the_site(site):
    assert (site / "pagefind" / "en" / "pagefind.js").exists()
    assert list((site / "pagefind" / "en").glob("index/*"))


def test_rebuild_writes_only_what_changed(tmp_path):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    first = build_site(archive, out, index_search=False)
    again = build_site(archive, out, index_search=False)
    third = build_site(archive, out, index_search=False)
    assert first.written == first.pages and again.written == 0 and third.written == 0
    assert out.is_symlink() and (out / "index.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.a", ".site.b", "archive", "site"]


def test_a_failed_build_leaves_the_previous_site(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    before = (out / "index.html").read_text()

    def broken(self):
        yield from ()
        raise RuntimeError("template exploded")

    monkeypatch.setattr(build_module.LanguagePages, "jobs", broken)
    with pytest.raises(RuntimeError):
        build_site(archive, out, index_search=False)
    assert (out / "index.html").read_text() == before


def test_cli_build_on_an_empty_archive_says_how_to_fill_it(tmp_path):
    result = CliRunner().invoke(
        main, ["--archive", str(tmp_path / "none"), "build", "--out", str(tmp_path / "site")]
    )
    assert result.exit_code != 0
    assert re.search(r"has no releases: fill it with `rulesarchive scrape`", result.output)
    assert not (tmp_path / "site").exists()


def test_cli_build_sample(tmp_path):
    result = CliRunner().invoke(main, ["build", "--sample", "--out", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "demo" / "en" / "n" / "400.6" / "index.html").exists()
    assert "built" in result.output
    assert not (sample_archive() / ".cache").exists()  # nothing written into the package


def test_releases_coming_and_going_never_leave_a_file_missing(tmp_path):
    archive = fixture_archive(tmp_path / "archive")
    aside = tmp_path / "aside"
    aside.mkdir()
    out = tmp_path / "site"
    for date in ["2011-02-04", "2014-02-01", "2019-05-03", "2014-02-01", "2011-02-04"]:
        folder = archive.root / "en" / date
        if folder.exists():
            folder.rename(aside / date)
        else:
            (aside / date).rename(folder)
        build_site(archive, out, index_search=False)
        live = out.resolve()
        files = json.loads((live / ".manifest.json").read_text())["files"]
        assert [path for path in files if not (live / path).exists()] == []
        kept = {p.relative_to(live).as_posix() for p in live.rglob("*") if p.is_file()}
        assert kept - set(files) == {".manifest.json"}
