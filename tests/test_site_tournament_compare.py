"""The MTR's and the IPG's compare pages: any two versions, section by section and part by
part, from the CR's compare script and each version's units as its data file."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from rulesarchive.corpus.model import DocKind
from rulesarchive.scraper.ingest import ingest_paths
from rulesarchive.site_builder.build import build_site, sample_archive
from rulesarchive.site_builder.serve import make_server

from rulesarchive.library import Library
from tests.made_once import made_once
from tests.test_browser import browser, page  # noqa: F401  (the browser fixtures)

# MTR 2015-07-17 took the Rules Enforcement Levels in as section 1.12 (the file of 2015-03-23
# is the version effective 2015-03-27); the IPG of the same day gave them up (its section
# 1.1), its 1.2 and 1.3 becoming 1.1 and 1.2, and split Upgrades out of the Philosophies.
FILES = (
    "mtr/mtr-2015-03-23.pdf",
    "mtr/mtr-2015-06-16.pdf",
    "mtr/mtr-2015-07-17.pdf",
    "ipg/ipg-2015-03-27.pdf",
    "ipg/ipg-2015-07-17.pdf",
)
DATES = {
    "mtr": ["2015-03-27", "2015-06-16", "2015-07-17"],
    "ipg": ["2015-03-27", "2015-07-17"],
}


@pytest.fixture(scope="module")
def site(policy_archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped sample (CR) with three MTRs and two IPGs of 2015 ingested, built."""

    def build(folder: Path) -> None:
        root = folder / "archive"
        shutil.copytree(sample_archive(), root)
        library = Library(root)
        ingest_paths(library.archive, [policy_archive / name for name in FILES])
        kinds = [library.of_kind(DocKind.MTR), library.of_kind(DocKind.IPG)]
        build_site(library, folder / "site", index_search=False, documents=kinds)

    folder, _ = made_once(tmp_path_factory, "tournament-compare-site", build)
    return folder / "site"


@pytest.fixture(scope="module")
def base_url(site: Path):
    server = make_server(site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _data(path: Path) -> dict:
    """A data file's JSON (its second line, see release_data)."""
    return json.loads(path.read_text(encoding="utf-8").splitlines()[1].removesuffix(";"))


@pytest.mark.parametrize(
    ("kind", "name"), [("mtr", "Magic Tournament Rules"), ("ipg", "Infraction Procedure Guide")]
)
def test_a_kinds_home_links_its_compare_page_which_lists_every_version(site, kind, name):
    home = BeautifulSoup((site / kind / "en/index.html").read_text(), "html.parser")
    link = home.select_one("main a.compare")
    assert link is not None and link["href"] == "compare.html"
    compare = BeautifulSoup((site / kind / "en/compare.html").read_text(), "html.parser")
    assert compare.select_one("main h1").get_text() == f"Compare versions of the {name}"
    options = [option["value"] for option in compare.select("#old option")]
    assert options == list(reversed(DATES[kind]))  # newest first, as the CR's
    scripts = [script.get("src") for script in compare.select("script[src]")]
    assert f"../../data/{kind}-en/moves.js" in scripts
    assert "../../static/compare.js" in scripts


@pytest.mark.parametrize("kind", ["mtr", "ipg"])
def test_every_version_has_a_data_file_of_its_sections_and_parts(site, kind):
    folder = site / "data" / f"{kind}-en"
    assert sorted(p.stem for p in folder.glob("2*.js")) == DATES[kind]
    first = _data(folder / f"{DATES[kind][0]}.js")
    assert first["base"] is None  # the first is whole; the others are steps from it
    numbers = [rule[0] for rule in first["rules"]]
    assert "introduction" in numbers
    assert "3.9" in numbers if kind == "mtr" else "2.1/philosophy" in numbers
    assert all(_data(folder / f"{d}.js")["base"] for d in DATES[kind][1:])


def test_the_moves_follow_the_ipgs_sections_renumbered(site):
    moves = (site / "data/ipg-en/moves.js").read_text(encoding="utf-8")
    steps = json.loads(moves.partition('["en"]=')[2].removesuffix(";"))
    assert steps["2015-07-17"] == [["1.1", None], ["1.2", "1.1"], ["1.3", "1.2"]]


def test_the_mtr_compares_two_versions_in_the_browser(page, base_url):  # noqa: F811
    page.goto(base_url + "mtr/en/compare.html")
    page.select_option("#old", "2015-03-27")
    page.select_option("#new", "2015-07-17")
    page.get_by_role("button", name="Compare").click()
    page.locator("#compare-result li").first.wait_for()
    added = page.locator("#compare-result li.added").filter(
        has=page.get_by_role("link", name="1.12", exact=True)
    )
    assert "Rules Enforcement Levels (REL) are a means" in added.locator("ins").inner_text()
    link = added.get_by_role("link", name="1.12", exact=True).get_attribute("href")
    assert link == "../../mtr/en/releases/2015-07-17/rules.html#s1.12"
    assert "sections and parts changed, 1 added" in page.locator("#compare-status").inner_text()


def test_the_ipg_compare_follows_a_renumbered_section_in_the_browser(page, base_url, site):  # noqa: F811
    page.goto(base_url + "ipg/en/compare.html?old=2015-03-27&new=2015-07-17")
    page.locator("#compare-result li").first.wait_for()
    result = page.locator("#compare-result")
    penalties = result.locator("li.changed").filter(has_text="(was 1.2)")
    assert penalties.get_by_role("link").inner_text() == "1.1"
    assert "A Warning is an officially tracked penalty" in penalties.inner_text()
    removed = result.locator("li.removed").filter(has=page.get_by_role("link", name="1.1"))
    assert "Rules Enforcement Level is a means" in removed.locator("del").inner_text()
    upgrade = result.locator("li.added").filter(
        has=page.get_by_role("link", name="2.1/upgrade", exact=True)
    )
    href = upgrade.get_by_role("link").get_attribute("href")
    assert href == "../../ipg/en/releases/2015-07-17/rules.html#s2.1-upgrade"
    whole = (site / "ipg/en/releases/2015-07-17/rules.html").read_text(encoding="utf-8")
    assert 'id="s2.1-upgrade"' in whole  # the link leads to the part as that version printed it
    assert "2 renumbered" in page.locator("#compare-status").inner_text()
