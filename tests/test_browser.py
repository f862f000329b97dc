"""The built site in a real browser: Debian's chromium driven by playwright, headless."""

from __future__ import annotations

import os
import re
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
    shown = change.locator("> p.text")
    assert shown.locator("del").inner_text().strip() == "its owner looks"
    assert shown.locator("ins").inner_text().strip() == "all players look"
    change.get_by_role("link", name="400.6").click()
    assert page.locator("h1").inner_text().strip() == "400.6 · Zones"
    headings = page.locator(".history .when").all_inner_texts()
    assert headings[0].startswith("2019-01-25") and "2011-05-01 · New Phyrexia" in headings
    assert page.locator("details.truncation").count() == 2


def test_search_a_phrase_and_land_on_the_rule(page, base_url):
    page.goto(base_url + "search.html")
    page.get_by_label("Search rules, examples and the glossary").fill("mutually exclusive")
    page.get_by_role("button", name="Search").click()
    first = page.locator("#search-results li a").first
    first.wait_for()
    assert first.inner_text().startswith("400.6 · ")  # the rule itself, titled with its section
    assert page.locator("#search-status").inner_text().startswith("1 rule or term matches")
    first.click()
    page.wait_for_url("**/en/r/2010-02-01/400.6/")
    assert "mutually exclusive" in page.locator("article .text").inner_text()


def _go_to(page, base_url, typed, language="en"):
    page.goto(base_url + f"{language}/index.html")
    page.locator("#goto-number").fill(typed)
    page.locator("form.goto button").click()


def test_a_number_several_rules_held_lists_them_and_a_date_picks_one(page, base_url):
    # Banding was 702.18 until 2011-09-30 inserted Deathtouch there; Banding moved to 702.19.
    _go_to(page, base_url, "702.18")
    page.wait_for_url("**/en/goto.html?n=702.18")
    holders = page.locator("ul.holders li").all_inner_texts()
    assert holders[0].startswith("702.18: 702.18 from 2011-09-30 to now")  # no silent refresh
    assert len(holders) == 2
    _go_to(page, base_url, "702.18 as of 2011")
    page.wait_for_url("**/r/2010-02-01/702.18/index.html")  # Banding, then 702.18
    _go_to(page, base_url, "702.18 @2012-01")
    page.wait_for_url("**/r/2011-09-30/702.18/index.html")
    assert "Deathtouch" in page.locator("article .text").inner_text()
    # An old number page's address is answered by the not-found page, its date too.
    page.goto(base_url + "en/n/702.18/index.html?date=2009")
    page.wait_for_function("document.querySelector('#goto-status').textContent.includes('2009')")
    assert "No rule held 702.18 on 2009" in page.locator("#goto-status").inner_text()


def test_a_number_one_rule_held_opens_it(page, base_url):
    page.goto(base_url + "en/n/702.19b/index.html")
    page.wait_for_url("**/r/2019-05-03/702.19b/index.html")


def test_the_page_of_a_reused_number_lists_its_holders_newest_first(page, base_url, site):
    page.goto(base_url + "en/n/702.19/index.html")  # an old number page: the 404 resolves it
    page.locator("ul.holders li").first.wait_for()
    holders = page.locator("ul.holders li").all_inner_texts()
    assert holders[0].startswith("702.19: 702.19 from 2011-09-30 to now")  # Banding
    assert holders[1].startswith("702.20: 702.19 from 2010-02-01 to 2011-06-17")  # Trample


@pytest.mark.parametrize("typed", ["702.19B", "rule 702.19b", "CR 702.19b", " 702 .19 b "])
def test_a_number_is_read_in_any_case_with_rule_or_cr_and_spaces(page, base_url, typed):
    _go_to(page, base_url, typed)
    page.wait_for_url("**/r/2019-05-03/702.19b/index.html")


def test_a_chapter_number_opens_the_chapter_and_a_section_its_place(page, base_url):
    _go_to(page, base_url, "702")
    page.wait_for_url("**/en/chapters/702/index.html")
    _go_to(page, base_url, "rule 7")
    page.wait_for_url("**/en/chapters/index.html#s7")


def test_search_number_shortcut_resolves_like_the_rule_box(page, base_url):
    page.goto(base_url + "search.html?q=rule%20702.19b&lang=en")
    page.get_by_role("link", name="Rule 702.19b").click()
    page.wait_for_url("**/r/2019-05-03/702.19b/index.html")
    page.goto(base_url + "search.html?q=rule%20702.18&lang=en")  # two rules held it
    page.get_by_role("link", name="Rule 702.18").click()
    page.wait_for_url("**/en/goto.html?n=702.18")
    assert page.locator("ul.holders li").count() == 2


def test_a_translation_lookup_of_an_english_only_number_offers_english(page, base_url):
    _go_to(page, base_url, "400.9", language="zh-Hans")
    page.locator("#goto-suggestions a").wait_for()
    assert "英文版" in page.locator("#goto-status").inner_text()
    page.locator("#goto-suggestions a").click()
    page.wait_for_url("**/en/r/2019-05-03/400.9/index.html")


def test_a_mistyped_number_page_is_resolved_by_the_not_found_page(page, base_url):
    page.goto(base_url + "en/n/702.19B/index.html")
    page.wait_for_url("**/r/2019-05-03/702.19b/index.html")


def test_a_number_that_never_existed_gets_suggestions(page, base_url):
    response = page.goto(base_url + "en/n/400.65/index.html")
    assert response.status == 404
    page.locator("#goto-suggestions a").first.wait_for()
    assert "400.6" in page.locator("#goto-suggestions").inner_text()


def test_a_missing_chinese_page_says_so_in_chinese(page, base_url):
    response = page.goto(base_url + "zh-Hans/no/such/page.html")
    assert response.status == 404
    page.wait_for_function("document.documentElement.lang === 'zh-Hans'")
    assert page.locator("main h1").inner_text() == "找不到页面"
    assert "词汇表" in page.locator("header.site nav").first.inner_text()
    assert "万智牌完整规则" in page.locator("footer").inner_text()
    page.goto(base_url + "zh-Hans/n/400.65/index.html")
    page.locator("#goto-suggestions a").first.wait_for()
    assert "没有" in page.locator("#goto-status").inner_text()
    page.goto(base_url + "en/no/such/page.html")
    assert page.locator("main h1").inner_text() == "Not found"


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
    link = rule.get_by_role("link", name="400.6", exact=True).get_attribute("href")
    assert link.endswith("en/releases/2016-09-30/rules.html#400.6")  # as that release printed it
    assert "rules changed" in page.locator("#compare-status").inner_text()


def test_the_rules_in_force_on_a_date_open_that_release_whole(page, base_url):
    page.goto(base_url + "index.html")
    page.locator("#in-force-date").fill("2012-03-01")
    page.locator("form.in-force button").click()
    page.wait_for_url("**/en/releases/2011-09-30/rules.html")
    assert page.locator('[id="702.18"]').inner_text().startswith("702.18 Deathtouch")
    page.goto(base_url + "en/index.html?date=2009")
    page.wait_for_function("document.querySelector('#in-force-none').textContent !== ''")
    assert "first is of 2010-02-01" in page.locator("#in-force-none").inner_text()


def test_pages_work_from_file_urls(page, site):
    page.goto((site / "en" / "r" / "2010-02-01" / "400.6" / "index.html").as_uri())
    assert page.locator("h1").inner_text().strip() == "400.6 · Zones"
    page.get_by_role("link", name="Compare").click()
    page.wait_for_url("**/en/compare.html")
    page.wait_for_load_state("load")  # compare.js picks a default on load: choose after it
    page.select_option("#old", "2011-04-01")
    page.select_option("#new", "2011-05-01")
    page.get_by_role("button", name="Compare").click()
    page.locator("#compare-result li").first.wait_for()
    assert page.locator("#compare-result ins").first.inner_text().strip() == "all players look"
    # Two releases in a row: the later one's file alone, not the keyframe it steps from.
    loaded = page.evaluate("Object.keys(window.RULESARCHIVE_RELEASES)")
    assert loaded == ["2011-05-01"]


EVERY_KIND = [
    "index.html",
    "en/index.html",
    "en/releases/2011-05-01/index.html",
    "en/releases/2019-05-03/index.html",
    "en/releases/2011-05-01/rules.html",
    "en/r/2010-02-01/400.6/index.html",
    "en/r/2019-05-03/702.19b/index.html",
    "en/chapters/index.html",
    "en/chapters/702/index.html",
    "en/glossary/index.html",
    "en/glossary/trample/index.html",
    "en/compare.html?old=2011-04-01&new=2019-05-03",
    "en/goto.html?n=999.1",
    "search.html?q=trample&lang=en",
    "en/no/such/page.html",
    "zh-Hans/index.html",
    "zh-Hans/r/2014-02-01/400.6/index.html",
    "zh-Hans/translation.html",
    "zh-Hans/chapters/702/index.html",
    "ko/index.html",
    "ko/r/2016-11-11/400.6/index.html",
    "ko/translation.html",
    "ko/chapters/702/index.html",
    "ko/glossary/index.html",
    "search.html?q=결속&lang=ko",
]


@pytest.mark.parametrize("path", EVERY_KIND)
def test_no_page_kind_scrolls_sideways_at_phone_width(browser, base_url, path):
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    tab = context.new_page()
    tab.goto(base_url + path)
    tab.wait_for_load_state("networkidle")
    width = tab.evaluate("document.documentElement.scrollWidth")
    background = tab.evaluate("getComputedStyle(document.body).backgroundColor")
    wrapping = tab.evaluate(
        "[...document.querySelectorAll('table.releases td:first-child a, .date')]"
        ".filter(e => e.getClientRects().length > 1).length"
    )
    context.close()
    assert width <= 390
    assert background == "rgb(22, 20, 15)"
    assert wrapping == 0  # dates never wrap


# Every word of Latin letters, Hangul or digits (a rule number such as 800.4h is one word)
# whose letters lie on more than one line. Words over 25 characters (addresses, digests) may
# break; text clipped to a pixel (a phone's hidden long set name) is not read.
BROKEN_WORDS = r"""() => {
  const letters = "[\\p{Script=Latin}\\p{Script=Hangul}\\p{N}]+";
  const word = new RegExp(`${letters}(?:[.'’]${letters})*`, "gu");
  const broken = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const box = node.parentElement.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    for (const found of node.data.matchAll(word)) {
      if (found[0].length > 25) continue;
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
      const lines = new Set(boxes.map((r) => Math.round(r.bottom)));
      if (lines.size > 1) broken.push(found[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("path", EVERY_KIND)
def test_no_word_is_broken_inside_on_any_page_kind(browser, base_url, path, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    tab = context.new_page()
    tab.goto(base_url + path)
    tab.wait_for_load_state("networkidle")
    broken = tab.evaluate(BROKEN_WORDS)
    context.close()
    assert broken == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", EVERY_KIND)
def test_axe_finds_no_violation_on_any_page_kind(browser, base_url, path, scheme):
    from axe_playwright_python.sync_playwright import Axe

    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    tab = context.new_page()
    tab.goto(base_url + path)
    tab.wait_for_load_state("networkidle")
    results = Axe().run(tab)
    context.close()
    found = [
        (v["id"], [node["target"] for node in v["nodes"]][:3])
        for v in results.response["violations"]
    ]
    assert found == []


def test_every_page_has_a_skip_link_and_controls_of_24_px(page, base_url):
    page.goto(base_url + "en/compare.html")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "#main"
    sizes = page.evaluate(
        "[...document.querySelectorAll('button, select, input')]"
        ".map(e => e.getBoundingClientRect()).map(r => Math.min(r.width, r.height))"
    )
    assert sizes and min(sizes) >= 24


def test_rule_pages_are_titled_with_their_section(page, base_url):
    page.goto(base_url + "en/r/2019-05-03/702.19b/index.html")
    assert page.locator("h1").inner_text().startswith("702.19b · ")
    assert page.title().startswith("702.19b · ")


def test_chinese_pages_speak_chinese_in_a_chinese_face(page, base_url):
    page.goto(base_url + "zh-Hans/r/2014-02-01/400.6/index.html")
    navigation = page.locator("header.site nav[aria-label=站点]").inner_text()  # its label too
    assert "版本" in navigation and "词汇表" in navigation and "Releases" not in navigation
    assert page.locator("section.history h2").inner_text() == "历史"
    assert "首次出现" in page.locator("dl.facts").inner_text()
    chinese = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert chinese.startswith('"Noto Serif CJK SC"')  # full-width punctuation in a Chinese face
    page.goto(base_url + "en/index.html")
    english = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "CJK" not in english


def test_the_search_page_speaks_the_language_searched(page, base_url):
    page.goto(base_url + "search.html?q=400.6&lang=zh-Hans")
    page.wait_for_function("document.getElementById('search-status').textContent.includes('匹配')")
    assert page.locator("html").get_attribute("lang") == "zh-Hans"
    assert page.locator("h1").inner_text() == "搜索"
    assert page.locator("#search-results li > a").first.inner_text() == "规则 400.6"
    navigation = page.locator("header.site nav").first
    assert "词汇表" in navigation.inner_text() and "Glossary" not in navigation.inner_text()
    glossary = navigation.get_by_text("词汇表").get_attribute("href")
    assert glossary.endswith("/zh-Hans/glossary/index.html")
    assert "万智牌完整规则" in page.locator("footer").inner_text()
    page.select_option("#lang", "en")
    assert page.locator("h1").inner_text() == "Search"
    assert page.locator("html").get_attribute("lang") == "en"
    # The results are searched again, in the language chosen.
    page.wait_for_function("document.getElementById('search-status').textContent.includes('match')")
    assert page.locator("#search-results li > a").first.inner_text() == "Rule 400.6"
    assert "lang=en" in page.url


def test_korean_pages_speak_korean_in_a_korean_face(page, base_url):
    page.goto(base_url + "ko/r/2016-11-11/400.6/index.html")
    assert page.locator("html").get_attribute("lang") == "ko"
    navigation = page.locator("header.site nav[aria-label=사이트]").inner_text()
    assert "버전" in navigation and "용어사전" in navigation and "Releases" not in navigation
    assert page.locator("section.history h2").inner_text() == "변경 이력"
    assert "자원봉사 번역자" in page.locator("footer").inner_text()
    face = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert face.startswith('"Noto Serif KR"')  # a Korean face first
    english = page.evaluate("getComputedStyle(document.querySelector('.english')).fontFamily")
    assert english.startswith("Georgia") and "KR" not in english  # the English beside it
    switch = page.locator("nav.languages")
    assert switch.locator("[aria-current]").inner_text() == "한국어"
    switch.get_by_role("link", name="简体中文").click()  # the other translation of the rule
    page.wait_for_url("**/zh-Hans/r/2014-02-01/400.6/index.html")
    page.locator("nav.languages").get_by_role("link", name="한국어").click()
    page.wait_for_url("**/ko/r/2016-11-11/400.6/index.html")


@pytest.mark.parametrize(
    ("query", "rule"),
    [
        ("결속", "702.19"),  # a keyword, printed with a particle after it ('결속은')
        ("죽음의 손길", "702.18"),
        ("전장으로 이동한다면", "400.6"),
        ("702.19b", "702.19b"),
    ],
)
def test_korean_search_finds_the_rule(page, base_url, query, rule):
    page.goto(base_url + f"search.html?q={query}&lang=ko")
    page.wait_for_function("document.getElementById('search-status').textContent.includes('일치')")
    assert page.locator("html").get_attribute("lang") == "ko"
    rules = page.eval_on_selector_all(
        "#search-results > li", "items => items.map(li => li.dataset.rule)"
    )
    assert rule in rules[:3], rules


def test_the_korean_translation_page_says_its_content_is_a_later_english_release(page, base_url):
    page.goto(base_url + "ko/index.html")
    page.get_by_role("link", name="영어 원문 대비 번역 현황").click()
    page.wait_for_url("**/ko/translation.html")
    said = page.locator(".printed-date").inner_text()
    assert "2019-01-25" in said and "2019-05-03 영어 버전을 번역한 것" in said


def test_chinese_pages_have_a_chinese_footer(page, base_url):
    page.goto(base_url + "zh-Hans/r/2014-02-01/400.6/index.html")
    assert "万智牌完整规则" in page.locator("footer").inner_text()


def test_searching_a_number_finds_the_rule_and_the_rules_citing_it(page, base_url):
    page.goto(base_url + "search.html?q=400.6&lang=en")
    page.locator("#search-results li").nth(2).wait_for()
    titles = page.locator("#search-results li > a").all_inner_texts()
    assert titles[0] == "Rule 400.6"
    rules = page.eval_on_selector_all(
        "#search-results > li", "items => items.map(li => li.dataset.rule)"
    )
    assert {"400.6", "400.8", "400.9"} <= set(rules)
    assert rules.count("400.6") == 1  # the rule found by its number is not listed again


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
    assert page.locator("h1").inner_text().startswith("400.6 · ")
    english = page.locator(".translations .side-by-side")
    assert "all players look at it" in english.locator(".english .text").inner_text()
    english.locator(".outdated").get_by_role("link").click()
    page.wait_for_url("**/en/releases/2016-09-30/index.html#rule-400.6")
    page.go_back()
    page.locator("nav.languages").get_by_role("link", name="English").click()
    page.wait_for_url("**/en/r/2010-02-01/400.6/index.html")


def test_translation_status_page_lists_stale_rules(page, base_url):
    page.goto(base_url + "zh-Hans/index.html")
    page.get_by_role("link", name="与英文版对照的翻译状态").click()
    page.wait_for_url("**/zh-Hans/translation.html")
    stale = page.locator("#stale li")
    assert stale.count() == 3
    assert {"400.6", "400.8", "702.20"} == {
        item.get_by_role("link").first.inner_text() for item in stale.all()
    }


def test_search_excerpts_show_markup_in_rule_text_as_text(page, base_url):
    page.goto(base_url + "search.html?q=alert&lang=en")
    result = page.locator("#search-results li p").first
    result.wait_for()
    assert '"<script>alert(1)</script>"' in result.inner_text()
    assert page.locator("#search-results script").count() == 0


def _href(link) -> str:
    return link.evaluate("a => a.href")


def test_references_in_text_and_examples_link_to_rules_chapters_and_terms(page, base_url):
    page.goto(base_url + "en/r/2019-05-03/702.19b/index.html")
    text = page.locator("article .text").first
    assert _href(text.get_by_role("link", name="702.19")).endswith(
        "r/2010-02-01/702.18/index.html"  # Banding, 702.19 now
    )
    assert _href(text.get_by_role("link", name="400")).endswith("chapters/400/index.html")
    assert page.locator("article a.term", has_text="trample").count() == 1  # first use only
    example = page.locator("article .example").first
    example.get_by_role("link", name="7", exact=True).click()
    page.wait_for_url("**/en/chapters/index.html#s7")
    page.go_back()
    page.locator("article .example").get_by_role("link", name="702.20").click()
    assert "Trample" in page.locator("article .text").inner_text()


def test_rule_pages_link_parent_previous_and_next(page, base_url):
    page.goto(base_url + "en/r/2019-05-03/702.19b/index.html")
    nearby = page.locator("nav.neighbours")
    assert nearby.locator("a[rel=up]").inner_text() == "↑ 702.19"
    assert nearby.locator("a[rel=prev]").inner_text() == "← 400.9"  # the order it is printed in
    nearby.locator("a[rel=up]").click()
    assert "Banding" in page.locator("article .text").inner_text()


def test_references_inside_changelog_diffs_link_to_each_sides_release(page, base_url):
    page.goto(base_url + "en/releases/2019-05-03/index.html")
    change = page.locator("#rule-400\\.8")
    link = change.locator("ins").get_by_role("link", name="702.19b")
    assert _href(link).endswith("r/2019-05-03/702.19b/index.html")
    old = change.locator("del").get_by_role("link", name="702.19")
    # In 2019-01-25, 702.19 was Banding (702.18 when first seen), as printed since 2011-09-30.
    assert _href(old).endswith("r/2010-02-01/702.18/index.html#v2011-09-30")
    added = page.locator("#rule-702\\.19b .example ins")
    assert added.get_by_role("link", name="702.20").count() == 1


def test_chapter_pages_nest_sub_rules_with_an_anchor_each(page, base_url):
    page.goto(base_url + "en/chapters/702/index.html#702.19b")
    nested = page.locator("li:has(> [id='702.19']) > ol > li:has(> [id='702.19b'])")
    assert nested.count() == 1
    nested.get_by_role("link", name="702.20").click()
    assert "Trample" in page.locator("article .text").inner_text()


def test_compare_follows_renumbering_as_the_changelogs_align_it(page, base_url):
    # 2011-09-30 inserted Deathtouch at 702.18: Banding went to 702.19, Trample to 702.20.
    page.goto(base_url + "en/compare.html?old=2011-06-17&new=2011-09-30")
    page.locator("#compare-result li").first.wait_for()
    items = page.locator("#compare-result li h2").all_inner_texts()
    chapter_702 = [item for item in items if item.startswith("702")]
    assert chapter_702 == ["702.18 added"]  # Banding and Trample moved unchanged: no noise
    assert "2 renumbered" in page.locator("#compare-status").inner_text()
    assert "as the changelogs align them" in page.locator("#compare-status").inner_text()


def test_compare_backwards_pairs_the_same_rules(page, base_url):
    page.goto(base_url + "en/compare.html?old=2011-09-30&new=2011-06-17")
    page.locator("#compare-result li").first.wait_for()
    items = page.locator("#compare-result li h2").all_inner_texts()
    assert [item for item in items if item.startswith("702")] == ["702.18 removed"]


def test_compare_across_the_2009_renumbering_on_the_real_archive(page, real_site):
    page.goto((real_site / "en" / "compare.html").as_uri() + "?old=2009-05-01&new=2009-07-11")
    status = page.locator("#compare-status")
    page.wait_for_function(
        "document.getElementById('compare-status').textContent.includes(' between ')"
    )
    counts = dict(
        (kind, int(n))
        for n, kind in re.findall(r"(\d+) (?:rules )?(changed|added|removed)", status.inner_text())
    )
    # Paired by number, 2,455 rules "differed"; aligned, as the changelog counts them:
    changelog = (real_site / "en/releases/2009-07-11/index.html").read_text(encoding="utf-8")
    parts = changelog[changelog.index('id="parts"') :]  # split by section: sum the parts
    for kind in ("added", "removed"):
        assert counts[kind] == sum(int(n) for n in re.findall(rf"(\d+) {kind}\b", parts)), kind
    assert counts["changed"] < 700
    assert re.search(r"\d{3} renumbered", status.inner_text())


def test_the_chinese_compare_page_fits_a_phone_on_the_real_archive(browser, real_site):
    # Its release lists hold the longest set names, in a wider face than English's.
    context = browser.new_context(viewport={"width": 390, "height": 844})
    tab = context.new_page()
    tab.goto((real_site / "zh-Hans" / "compare.html").as_uri())
    width = tab.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= 390
