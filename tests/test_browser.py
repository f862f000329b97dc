"""The built site in a real browser: Debian's chromium driven by playwright, headless."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from rulesarchive.site_builder.build import build_site
from rulesarchive.site_builder.serve import make_server

from tests.site_fixture import fixture_archive

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} not found (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=FLAGS
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("browser-site")
    out = folder / "site"
    build_site(fixture_archive(folder / "archive"), out)
    return out


@pytest.fixture(scope="module")
def base_url(site):
    server = make_server(site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    outside: list[str] = []
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(("http://127.0.0.1", "file://"))
            else (outside.append(route.request.url), route.abort())
        ),
    )
    tab = context.new_page()
    yield tab
    context.close()
    assert outside == [], "the site asked for something outside itself"


def test_home_to_release_to_highlighted_change_to_history(page, base_url):
    page.goto(base_url + "index.html")
    page.get_by_role("link", name="2011-05-01").click()
    assert page.locator("h1").inner_text().startswith("2011-05-01")
    change = page.locator("section.substantive li.change").first
    assert change.locator("del").inner_text().strip() == "its owner looks"
    assert change.locator("ins").inner_text().strip() == "all players look"
    change.get_by_role("link", name="400.6").click()
    assert page.locator("h1").inner_text().strip() == "400.6"
    headings = page.locator(".history .when").all_inner_texts()
    assert headings[0].startswith("2019-01-25") and "2011-05-01 · New Phyrexia" in headings
    assert page.locator("details.truncation").count() == 2


def test_search_a_phrase_and_land_on_the_rule(page, base_url):
    page.goto(base_url + "search.html")
    page.get_by_label("Search rules, examples and the glossary").fill("mutually exclusive")
    page.get_by_role("button", name="Search").click()
    first = page.locator("#search-results li a").first
    first.wait_for()
    first.click()
    page.wait_for_url("**/r/2010-02-01/400.6/**")
    assert "mutually exclusive" in page.locator("article .text").inner_text()


def test_an_old_number_leads_to_its_rule(page, base_url):
    page.goto(base_url + "en/index.html")
    page.get_by_label("Rule", exact=True).fill("702.18")
    page.get_by_role("button", name="Go", exact=True).click()
    page.wait_for_url("**/r/2010-02-01/702.18/index.html")  # Banding, 702.18 until 2011
    assert "Banding" in page.locator("article .text").inner_text()


def test_a_number_that_never_existed_gets_suggestions(page, base_url):
    response = page.goto(base_url + "en/n/400.65/index.html")
    assert response.status == 404
    page.locator("#goto-suggestions a").first.wait_for()
    assert "400.6" in page.locator("#goto-suggestions").inner_text()


def test_compare_two_releases_in_the_browser(page, base_url):
    page.goto(base_url + "en/compare.html")
    page.select_option("#old", "2011-04-01")
    page.select_option("#new", "2016-09-30")
    page.get_by_role("button", name="Compare").click()
    page.locator("#compare-result li").first.wait_for()
    rule = page.locator("#compare-result li").filter(
        has=page.get_by_role("link", name="400.6", exact=True)
    )
    assert "will be able to look at it in that zone" in rule.locator("ins").first.inner_text()
    assert "rules differ" in page.locator("#compare-status").inner_text()


def test_pages_work_from_file_urls(page, site):
    page.goto((site / "en" / "r" / "2010-02-01" / "400.6" / "index.html").as_uri())
    assert page.locator("h1").inner_text().strip() == "400.6"
    page.get_by_role("link", name="Compare").click()
    page.wait_for_url("**/en/compare.html")
    page.wait_for_load_state("load")  # compare.js picks a default on load: choose after it
    page.select_option("#old", "2011-04-01")
    page.select_option("#new", "2011-05-01")
    page.get_by_role("button", name="Compare").click()
    page.locator("#compare-result li").first.wait_for()
    assert page.locator("#compare-result ins").first.inner_text().strip() == "all players look"


def test_readable_at_phone_width_in_dark_mode(browser, base_url):
    context = browser.new_context(viewport={"width": 375, "height": 800}, color_scheme="dark")
    tab = context.new_page()
    tab.goto(base_url + "en/r/2010-02-01/400.6/index.html")
    width = tab.evaluate("document.documentElement.scrollWidth")
    background = tab.evaluate("getComputedStyle(document.body).backgroundColor")
    context.close()
    assert width <= 375
    assert background == "rgb(22, 20, 15)"


def test_searching_a_number_finds_the_rule_and_the_rules_citing_it(page, base_url):
    page.goto(base_url + "search.html?q=400.6&lang=en")
    page.locator("#search-results li").nth(2).wait_for()
    titles = page.locator("#search-results li > a").all_inner_texts()
    assert titles[0] == "Rule 400.6"
    assert {"400.6", "400.8", "400.9"} <= set(titles)


def test_translation_side_by_side_with_badge_and_language_switch(page, base_url):
    page.goto(base_url + "en/r/2010-02-01/400.6/index.html")
    pair = page.locator(".translations .side-by-side").first
    assert "所有牌手查看它" in pair.locator(".translated .text").inner_text()
    assert "all players look at it" in pair.locator(".english .text").inner_text()
    badge = pair.locator(".outdated")
    assert "may be outdated" in badge.inner_text()
    badge.get_by_role("link").click()
    page.wait_for_url("**/en/releases/2016-09-30/index.html#rule-400.6")
    assert page.locator("#rule-400\\.6").is_visible()
    page.go_back()
    page.locator("nav.languages").get_by_role("link", name="简体中文").click()
    page.wait_for_url("**/zh-Hans/r/2014-02-01/400.6/index.html")
    assert page.locator("h1").inner_text().strip() == "400.6"
    english = page.locator(".translations .side-by-side")
    assert "all players look at it" in english.locator(".english .text").inner_text()
    english.locator(".outdated").get_by_role("link").click()
    page.wait_for_url("**/en/releases/2016-09-30/index.html#rule-400.6")
    page.go_back()
    page.locator("nav.languages").get_by_role("link", name="English").click()
    page.wait_for_url("**/en/r/2010-02-01/400.6/index.html")


def test_translation_status_page_lists_stale_rules(page, base_url):
    page.goto(base_url + "zh-Hans/index.html")
    page.get_by_role("link", name="Translation status against the English").click()
    stale = page.locator("#stale li")
    assert stale.count() == 2
    assert {"400.6", "702.20"} == {
        item.get_by_role("link").first.inner_text() for item in stale.all()
    }


def test_search_excerpts_show_markup_in_rule_text_as_text(page, base_url):
    page.goto(base_url + "search.html?q=alert&lang=en")
    result = page.locator("#search-results li p").first
    result.wait_for()
    assert '"<script>alert(1)</script>"' in result.inner_text()
    assert page.locator("#search-results script").count() == 0
