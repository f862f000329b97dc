"""The static site: whole pages against golden files, links, escaping, data, atomic builds."""

from __future__ import annotations

import io
import json
import os
import posixpath
import re
import sqlite3
import time
from pathlib import Path
from urllib.parse import urlsplit
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner
from jinja2 import Environment
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.model import example_label
from rulesarchive.differ.glossary import is_term
from rulesarchive.site_builder import build as build_module
from rulesarchive.site_builder import changelog, paths
from rulesarchive.site_builder import output as output_module
from rulesarchive.site_builder.build import BuildError, build_site, sample_archive
from rulesarchive.site_builder.render import environment
from rulesarchive.site_builder.search import fragment_bundle as bundle_of
from rulesarchive.system.processes import usable_cores

from rulesarchive import progress as progress_module
from rulesarchive.cli import main
from rulesarchive.library import Library
from tests.linkcheck import broken_links
from tests.site_fixture import HOSTILE, fixture_archive

GOLDEN = Path(__file__).parent / "golden" / "site"
GOLDEN_PAGES = [
    "index.html",
    "en/releases/2011-05-01/index.html",
    "en/releases/2011-09-30/check.html",
    "en/r/2010-02-01/400.6/index.html",
    "en/r/2010-02-01/400.6/translations.html",
    "en/glossary/trample/index.html",
    "en/r/2010-02-01/400.8/index.html",
    "en/chapters/702/index.html",
    "en/releases/2011-05-01/rules.html",
    "zh-Hans/r/2014-02-01/400.6/index.html",
    "zh-Hans/goto.html",
    "ko/r/2016-11-11/400.6/index.html",
    "ko/translation.html",
    "404.html",
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


def test_a_chapter_links_each_rules_glossary_terms_once_as_its_rule_pages_do(site):
    chapter = BeautifulSoup((site / "en/chapters/702/index.html").read_text(), "html.parser")
    banding = chapter.find(id="702.19b").find_parent("li")
    terms = banding.find_all("a", class_="term", string=re.compile("^trample$", re.I))
    assert len(terms) == 1  # in its text; its example says 'trample' again, unlinked
    assert terms[0]["href"] == "../../glossary/trample/index.html"
    rule_page = (site / "en/r/2019-05-03/702.19b/index.html").read_text()
    assert 'class="term" href="../../../glossary/trample/index.html">trample</a>' in rule_page


def test_a_past_release_reads_whole_and_its_citations_stay_in_it(site):
    whole = site / "en/releases/2010-02-01/rules.html"
    soup = BeautifulSoup(whole.read_text(encoding="utf-8"), "html.parser")
    main = soup.find("main")
    # 400.8 of 2010 cites 702.19, then Trample (Banding holds the number today): the link
    # leads to the 702.19 printed on this page, not to today's rule.
    cite = main.find(id="400.8").find("a", string="702.19")
    assert cite["href"] == "#702.19"
    assert main.find(id="702.19").get_text().startswith("702.19 Trample is a static ability")
    ids = {element["id"] for element in main.find_all(id=True)}
    inside = [a["href"] for a in main.find_all("a") if a["href"].startswith("#")]
    assert inside and all(href[1:] in ids for href in inside)
    outside = {a["href"] for a in main.find_all("a") if not a["href"].startswith("#")}
    assert outside == {"original.txt", "index.html", "../2010-10-01/rules.html"}
    assert main.find(id="702").get_text() == "702. Keyword Abilities"
    terms = [term.get_text() for term in main.select("dl.glossary dt")]
    assert terms == ["Zone", "Trample"]  # in the order printed


def test_a_release_offers_its_original_file_with_its_source_and_digest(site):
    archive = Library(site.parent / "archive")
    for release in archive.releases():
        folder = site / release.language / "releases" / release.effective_date.isoformat()
        original = folder / f"original.{release.source.format}"
        assert original.read_bytes() == archive.original(release)
        soup = BeautifulSoup((folder / "rules.html").read_text(encoding="utf-8"), "html.parser")
        facts = soup.select_one("dl.facts")
        assert facts.find("code").get_text() == release.source.sha256
        assert facts.find("a")["href"] == original.name
        changelog = (folder / "index.html").read_text(encoding="utf-8")
        assert '<a href="rules.html">' in changelog


def test_the_list_of_releases_links_each_read_whole_and_asks_for_a_date(site):
    soup = BeautifulSoup((site / "en/index.html").read_text(encoding="utf-8"), "html.parser")
    rows = soup.select("tr[data-since]")
    assert [row.select_one("a.whole")["href"] for row in rows][-1:] == [
        "../en/releases/2010-02-01/rules.html"
    ]
    form = soup.select_one("form.in-force")
    assert form.find("input")["name"] == "date" and form.find("input")["type"] == "date"
    scripts = [script["src"] for script in soup.find_all("script")]
    assert scripts == ["../static/asof.js", "../static/inforce.js"]


def test_no_broken_internal_link_or_anchor(site):
    assert broken_links(site) == []


def test_nothing_is_loaded_from_outside_the_site(site):
    for path, soup in _pages(site):
        for element in soup.find_all(["script", "link", "img", "iframe"]):
            if element.name == "link" and {"canonical", "alternate"} & set(element["rel"]):
                continue  # names the page, loads nothing
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


def _number_map(site: Path, language: str) -> dict:
    script = (site / f"data/{language}/numbers.js").read_text(encoding="utf-8")
    return json.loads(script.split(f"[{json.dumps(language)}]=", 1)[1].rstrip(";"))


def test_a_number_resolves_to_the_rules_that_held_it_with_their_periods(site):
    # 702.18 was Banding; Deathtouch took the number when it was inserted in 2011-09-30.
    numbers = _number_map(site, "en")
    # A number several rules held names each with its period, the one holding it now first:
    # the lookup opens none of them by itself (unless a date picks one).
    assert numbers["702.18"] == [
        ["2011-09-30/702.18", "2011-09-30", None],
        ["2010-02-01/702.18", "2010-02-01", "2011-06-17", "702.19"],  # Banding's number now
    ]
    assert numbers["702.19"][0] == ["2010-02-01/702.18", "2011-09-30", None]
    assert numbers["702.19b"] == [["2019-05-03/702.19b", "2019-05-03", None]]
    assert numbers["702"] == 0 and numbers["7"] == 0  # a chapter, a section
    assert not (site / "en/n").exists()  # no page per number: goto.html and 404.html resolve
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
    assert not (site / "data/en/2019-05-03.json").exists()  # one format per release
    script = (site / "data/en/2019-05-03.js").read_text().splitlines()
    release = json.loads(script[1].rstrip(";"))  # a step from 2019-01-25
    assert release["effective_date"] == "2019-05-03" and release["base"] == "2019-01-25"
    assert release["changed"]["400.9"] == [HOSTILE, []]
    first = json.loads((site / "data/en/2010-02-01.js").read_text().splitlines()[1].rstrip(";"))
    assert first["base"] is None and first["rules"][0][0] == "100.1"  # the year's first: whole
    step = json.loads((site / "data/en/2011-05-01.js").read_text().splitlines()[1].rstrip(";"))
    assert step["base"] == "2011-04-01" and list(step["changed"]) == ["400.6"]
    assert list(step["was"]) == ["400.6"] and "its owner looks" in step["was"]["400.6"][0]
    assert step["numbers"] == ["100.1", "400.6", "400.8", "702.18", "702.19"]
    history = json.loads((site / "data/en/history/400.json").read_text())["2010-02-01/400.6"]
    assert history["numbers"] == ["400.6"] and len(history["versions"]) == 11
    assert history["page"] == "en/r/2010-02-01/400.6/index.html"


def test_search_index_is_built_with_the_site(site):
    assert (site / "pagefind" / "en" / "pagefind.js").exists()
    assert list((site / "pagefind" / "en").glob("index/*"))
    # Its results are gathered a file per first two characters of their names, not a file
    # each (see search.js, which answers Pagefind's fetch of one from them).
    assert not (site / "pagefind" / "en" / "fragment").exists()
    bundles = list((site / "pagefind" / "en" / "fragments").glob("*.json"))
    fragments = {
        name: value for path in bundles for name, value in json.loads(path.read_text()).items()
    }
    assert all(bundle_of(name) + ".json" in {path.name for path in bundles} for name in fragments)
    urls = {fragment["url"] for fragment in fragments.values()}
    assert "/en/r/2010-02-01/400.6/" in urls and len(bundles) <= len(fragments)


def test_rebuild_writes_only_what_changed(tmp_path):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    first = build_site(archive, out, index_search=False)
    again = build_site(archive, out, index_search=False)
    third = build_site(archive, out, index_search=False)
    assert first.written == first.pages and again.written == 0 and third.written == 0
    assert out.is_symlink() and (out / "index.html").exists()
    output_module.wait_for_pruning()
    kept = sorted(p.name for p in tmp_path.iterdir())
    # one copy, and the lock that serialises builds
    assert kept in (
        [".site.a", ".site.lock", "archive", "site"],
        [".site.b", ".site.lock", "archive", "site"],
    )


def test_a_failed_build_leaves_the_previous_site(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    before = (out / "index.html").read_text()

    def broken():
        yield from ()
        raise RuntimeError("template exploded")

    monkeypatch.setattr(
        build_module.LanguagePages, "shares", lambda self: (broken(), broken(), broken())
    )
    with pytest.raises(RuntimeError):  # another base URL: a build that must render
        build_site(archive, out, base_url="https://example.org/", index_search=False)
    assert (out / "index.html").read_text() == before


@pytest.mark.skipif(usable_cores() < 2, reason="nothing is worked out beside the build")
def test_a_failed_build_stops_what_it_was_working_out_beside_it(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    started, checked = tmp_path / "started", tmp_path / "checked"

    def slow_check(*_args):
        started.write_text(str(os.getpid()))
        time.sleep(60)  # longer than any build of the fixture, however loaded the machine
        checked.touch()

    def broken(self):
        raise RuntimeError("template exploded")

    monkeypatch.setattr(type(archive), "check", slow_check)
    monkeypatch.setattr(build_module.LanguagePages, "shares", broken)
    with pytest.raises(RuntimeError, match="template exploded"):
        build_site(archive, tmp_path / "site", index_search=False)
    if started.exists():  # it had begun: it is stopped, not left to finish
        worker = int(started.read_text())
        deadline = time.monotonic() + 30
        while _running(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(worker)
    assert not checked.exists()


def _running(pid: int) -> bool:
    """Tell whether a process runs (a zombie, ended but not yet waited for, does not)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return status.rpartition(")")[2].split()[0] != "Z"


def test_cli_build_on_an_empty_archive_says_how_to_fill_it(tmp_path):
    result = CliRunner().invoke(
        main, ["--archive", str(tmp_path / "none"), "build", "--out", str(tmp_path / "site")]
    )
    assert result.exit_code != 0
    assert f"Error: no releases in {tmp_path / 'none'}, no such folder (fill" in result.output
    assert not (tmp_path / "site").exists()


def test_cli_build_where_the_site_cannot_be_written_says_so_in_one_line(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    result = CliRunner().invoke(
        main, ["--archive", str(archive.root), "build", "--out", str(blocked / "site")]
    )
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"Error: {blocked}: the site cannot be written (")

    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    before = (out / "index.html").read_text()

    def disk_full(self, path, data):
        raise OSError(28, "No space left on device")  # as a write says it: naming no file

    monkeypatch.setattr("rulesarchive.site_builder.output.Output._put", disk_full)
    with pytest.raises(
        BuildError, match=r"the site cannot be written \(No space left on device\)$"
    ):
        build_site(archive, out, base_url="https://example.org/", index_search=False)
    assert (out / "index.html").read_text() == before


def test_cli_build_sample(tmp_path):
    result = CliRunner().invoke(main, ["build", "--sample", "--out", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "demo" / "en" / "releases" / "2019-01-25" / "rules.html").exists()
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


def test_reference_check_pages_link_both_rules_and_rule_pages_mark_the_citation(site):
    check = BeautifulSoup((site / "en/releases/2011-09-30/check.html").read_text(), "html.parser")
    row = check.select_one("tr.stale")
    links = [(a.get_text(), a["href"]) for a in row.select("a")]
    assert links[:3] == [
        ("400.8", "../../r/2010-02-01/400.8/index.html"),  # the citing rule
        # Each as it stood in the release checked: its version there.
        ("702.19", "../../r/2010-02-01/702.18/index.html#v2011-09-30"),  # what the number names
        ("702.20", "../../r/2010-02-01/702.19/index.html#v2011-09-30"),  # the rule it meant
    ]
    for release in ("2010-02-01", "2019-05-03"):
        assert (site / f"en/releases/{release}/check.html").exists()
    # 400.8 cites 702.19b since 2019-05-03: the changelog says it fixed the stale citation,
    # and its page marks nothing any more
    fixed = (site / "en/releases/2019-05-03/index.html").read_text()
    assert "Fixes the citation of 702.19 (" in fixed
    rule = BeautifulSoup((site / "en/r/2010-02-01/400.8/index.html").read_text(), "html.parser")
    assert rule.select_one("dd.reference-problems") is None
    trample = BeautifulSoup((site / "en/r/2010-02-01/702.19/index.html").read_text(), "html.parser")
    mark = trample.select_one("dd.reference-problems")
    assert mark.get_text() == "dangling 510.1c-d (since 2010-02-01)"
    assert mark.select_one("a")["href"] == "../../../releases/2019-05-03/check.html"


def test_a_long_changelog_is_split_by_section_with_working_anchors(tmp_path, monkeypatch):
    monkeypatch.setattr(changelog, "SPLIT_AT", 1)
    out = tmp_path / "site"
    build_site(fixture_archive(tmp_path / "archive"), out, index_search=False)
    main = BeautifulSoup((out / "en/releases/2019-05-03/index.html").read_text(), "html.parser")
    parts = [a["href"] for a in main.select("#parts a")]
    assert parts == ["4/index.html", "7/index.html"]
    part = (out / "en/releases/2019-05-03/4/index.html").read_text()
    assert 'id="rule-400.8"' in part and 'id="rule-702.19b"' not in part
    zh = (out / "zh-Hans/translation.html").read_text()
    assert "../en/releases/2019-05-03/4/index.html#rule-400.8" in zh
    assert broken_links(out) == []


@pytest.mark.parametrize(
    ("term", "shown"),
    [
        ("1. A player draws a card by putting the top card", False),  # a numbered definition
        ("Ability1. Text on an object that explains", False),
        ("?As Though?", False),  # quotes lost in decoding
        ("Abilities, 402", False),  # an index line
        ('"Ability" and "effect" are often confused. An', False),
        ("As Though", True),
        ("Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)", True),
        ("1996 World Champion", True),
        ("Roll a d20", True),
    ],
)
def test_the_glossary_shows_only_entries_that_read_as_terms(term, shown):
    assert is_term(term) is shown


def test_a_current_term_keeps_the_plain_slug_on_a_clash():
    slugs = paths.glossary_slugs(["as though", "as-though"])  # current first
    assert slugs == ["as-though", "as-though-2"]
    # two terms of one name (a term renamed to a removed one's): a page each
    assert paths.glossary_slugs(["legendary", "legendary"]) == ["legendary", "legendary-2"]


def test_build_reports_its_progress_stage_by_stage(tmp_path):
    seen: list[tuple[str, int, int]] = []
    archive = fixture_archive(tmp_path / "archive")
    build_site(archive, tmp_path / "site", index_search=False, progress=lambda *s: seen.append(s))
    stages = list(dict.fromkeys(stage for stage, _, _ in seen))
    assert stages == [
        *("reading en", "reading zh-Hans", "reading ko"),
        *("rendering en", "rendering zh-Hans", "rendering ko"),
        "writing the JSON API",
    ]
    last = {stage: (done, total) for stage, done, total in seen}
    assert all(done == total > 0 for done, total in last.values())


def test_cli_build_draws_a_progress_bar_on_a_terminal(tmp_path, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(progress_module.sys, "stderr", terminal)
    with progress_module.stages() as progress:
        progress("rendering en", 50, 100)
        progress("rendering en", 100, 100)
    assert "rendering en" in terminal.getvalue() and "100%" in terminal.getvalue()


def test_pages_follow_web_conventions(site):
    rule = BeautifulSoup((site / "en/r/2010-02-01/400.6/index.html").read_text(), "html.parser")
    url = "http://localhost:8000/en/r/2010-02-01/400.6/index.html"
    assert rule.find("link", rel="canonical")["href"] == url
    assert rule.find("meta", property="og:url")["content"] == url
    assert rule.find("meta", property="og:type")["content"] == "article"
    assert rule.find("meta", attrs={"name": "description"})["content"].startswith("If an object")
    alternates = {link["hreflang"]: link["href"] for link in rule.select("link[hreflang]")}
    assert alternates == {
        "en": url,
        "zh-Hans": "http://localhost:8000/zh-Hans/r/2014-02-01/400.6/index.html",
        "ko": "http://localhost:8000/ko/r/2016-11-11/400.6/index.html",
    }
    whole = BeautifulSoup((site / "en/releases/2014-02-01/rules.html").read_text(), "html.parser")
    alternates = {link["hreflang"]: link["href"] for link in whole.select("link[hreflang]")}
    assert alternates == {
        "en": "http://localhost:8000/en/releases/2014-02-01/rules.html",
        "zh-Hans": "http://localhost:8000/zh-Hans/releases/2014-02-01/rules.html",
    }
    # a page the other languages lack: the switch leads to their nearest, no alternate claims it
    term = BeautifulSoup((site / "en/glossary/trample/index.html").read_text(), "html.parser")
    assert not term.select("link[hreflang]")
    assert [a["href"] for a in term.select("nav.languages a")] == [
        "../../../zh-Hans/glossary/index.html",
        "../../../ko/glossary/index.html",
    ]
    robots = (site / "robots.txt").read_text()
    assert "Sitemap: http://localhost:8000/sitemap.xml" in robots
    sitemap = (site / "sitemap.xml").read_text()
    assert f"<loc>{url}</loc><lastmod>2019-01-25</lastmod>" in sitemap
    assert (
        "<loc>http://localhost:8000/en/releases/2011-05-01/index.html</loc>"
        + ("<lastmod>2011-05-01</lastmod>")
        in sitemap
    )
    assert "goto.html" not in sitemap


def _flat(messages: dict, prefix: str = "") -> dict[str, str]:
    flat = {}
    for key, value in messages.items():
        if isinstance(value, dict):
            flat |= _flat(value, f"{prefix}{key}.")
        else:
            flat[prefix + key] = value
    return flat


@pytest.mark.parametrize("language", ["zh-Hans", "ko"])
def test_a_message_catalogue_says_every_string_with_the_same_blanks(language):
    folder = Path(__file__).resolve().parents[1] / "templates" / "messages"
    english = _flat(json.loads((folder / "en.json").read_text(encoding="utf-8")))
    own = _flat(json.loads((folder / f"{language}.json").read_text(encoding="utf-8")))
    assert own.keys() == english.keys()
    for key, text in english.items():
        assert sorted(re.findall(r"{\w+}", own[key])) == sorted(re.findall(r"{\w+}", text)), key
    # what a document of the language prints before an example (the Korean prints English)
    assert example_label(language) == {"zh-Hans": "例如：", "ko": "Example: "}[language]


def test_every_page_of_every_language_has_the_language_switch(site):
    kinds = set()
    for page in sorted(site.glob("*/**/*.html")):
        path = page.relative_to(site).as_posix()
        language, _, rest = path.partition("/")
        if language not in {"en", "zh-Hans", "ko"}:
            continue
        kinds.add(rest.split("/")[0])
        switch = BeautifulSoup(page.read_text(), "html.parser").select("nav.languages > *")
        assert [entry.get_text() for entry in switch] == ["English", "简体中文", "한국어"], path
        assert [entry["lang"] for entry in switch if entry.get("aria-current")] == [language]
    assert kinds >= {"index.html", "releases", "r", "chapters", "glossary", "translation.html"}


def test_the_korean_pages_say_what_the_translation_omits_and_when_its_content_is(site):
    glossary = BeautifulSoup((site / "ko/glossary/index.html").read_text(), "html.parser")
    assert "용어사전이 실려 있지 않습니다" in glossary.select_one("main").get_text()
    status = BeautifulSoup((site / "ko/translation.html").read_text(), "html.parser")
    assert status.select_one(".printed-date").get_text() == (
        "표시된 날짜는 2019-01-25이지만, 내용은 그 날짜의 영어 버전이 아니라 2019-05-03 영어 "
        "버전을 번역한 것입니다."
    )
    assert status.select_one("html")["lang"] == "ko"


def test_the_not_found_page_works_under_a_sub_path(tmp_path):
    out = tmp_path / "site"
    build_site(
        fixture_archive(tmp_path / "archive"),
        out,
        base_url="https://example.org/rules/",
        index_search=False,
    )
    soup = BeautifulSoup((out / "404.html").read_text(), "html.parser")
    links = [tag.get("href") or tag.get("src") for tag in soup.find_all(["a", "link", "script"])]
    internal = [link for link in links if link and not link.startswith(("http", "data:", "#"))]
    assert internal and all(link.startswith("/rules/") for link in internal), internal


def test_templates_are_kept_compiled_between_builds(tmp_path, monkeypatch):
    first = environment(DerivedData(tmp_path)).get_template("rule.html")
    assert [(row.kind, row.entries) for row in DerivedData(tmp_path).summary()] == [("template", 1)]
    monkeypatch.setattr(Environment, "compile", lambda *a, **k: pytest.fail("compiled again"))
    kept = environment(DerivedData(tmp_path)).get_template("rule.html")
    assert kept.blocks.keys() == first.blocks.keys()
    monkeypatch.undo()
    with sqlite3.connect(tmp_path / "derived.sqlite") as connection:
        connection.execute("UPDATE entries SET value = x'00'")
    again = environment(DerivedData(tmp_path)).get_template("rule.html")
    assert again.blocks.keys() == first.blocks.keys()


def test_the_pages_every_language_has_link_each_other_in_head_and_header(site):
    for rest in ("index.html", "chapters/index.html", "glossary/index.html", "compare.html"):
        for language, other in (("en", "zh-Hans"), ("zh-Hans", "en")):
            assert (site / other / rest).exists()
            page = BeautifulSoup((site / language / rest).read_text(), "html.parser")
            alternates = {
                link["hreflang"]: link["href"]
                for link in page.select("head link[rel=alternate][hreflang]")
            }
            assert alternates[other] == f"http://localhost:8000/{other}/{rest}", (language, rest)
            switch = page.select_one(f"nav.languages a[hreflang={other}]")
            assert (site / language / rest).parent.joinpath(switch["href"]).resolve() == (
                site / other / rest
            ).resolve()


def test_references_in_the_texts_beside_a_rule_link_where_each_text_stands(site):
    page = BeautifulSoup((site / "en/r/2010-02-01/400.8/index.html").read_text(), "html.parser")
    pair = page.select_one(".translations .side-by-side")
    chinese = [a["href"] for a in pair.select(".translated .text a")]
    english = [a["href"] for a in pair.select(".english .text a")]
    # The Chinese text of 2014-02-01 links the Chinese rules; the English it translates, the
    # English rules as that text first stood (anchored: a later release leaves them as they are).
    assert chinese == [
        "../../../../zh-Hans/r/2014-02-01/400.6/index.html#v2014-02-01",
        "../../../../zh-Hans/r/2014-02-01/702.19/index.html#v2014-02-01",
    ]
    assert english == ["../400.6/index.html#v2010-02-01", "../702.19/index.html#v2010-02-01"]


def test_a_translated_rules_problems_are_said_in_the_pages_language():
    from rulesarchive.corpus.model import Rule
    from rulesarchive.differ.translations import check_structure
    from rulesarchive.site_builder.render import messages, say_problem

    translated = Rule("1.1", "见规则 702.19。埃尔维什神秘家(Llanowar Elves)3 个", ("例如",))
    english = Rule("1.1", "Some words, and 5 things.", ())
    problems = check_structure(translated, english)
    assert len(problems) == 4  # examples, citations, names, numbers: every kind it words
    chinese = [say_problem(problem, messages("zh-Hans")) for problem in problems]
    assert chinese[:2] == ["1 个范例，英文版有 0 个", "引用 702.19，英文版引用 无"]
    assert not any(re.search(r"English|cites|examples|numbers|names", said) for said in chinese)
    assert [say_problem(p, messages("en")) for p in problems] == list(problems)


def _version_anchor_misses(site: Path, language: str) -> tuple[int, list[str]]:
    """Check every version anchor a rule page's history links to: a link in a version of
    date D must land on the cited rule's version in force at D; one on the old side of its
    diff (<del>), on the version in force in the last release printing that old text.
    Return how many anchored links there are, and the misses."""
    releases = sorted(p.name for p in (site / language / "releases").iterdir() if p.is_dir())
    anchors: dict[str, list[str]] = {}  # rule page -> its versions' dates, oldest first

    def versions_of(page: str) -> list[str]:
        if page not in anchors:
            soup = BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")
            found = soup.select(".history .version[id^=v]")
            anchors[page] = sorted(tag["id"][1:] for tag in found)
        return anchors[page]

    count, misses = 0, []
    for path in sorted((site / language / "r").rglob("index.html")):
        page = path.relative_to(site).as_posix()
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        history = [(v["id"][1:], v) for v in soup.select(".history .version[id^=v]")]
        history.sort(key=lambda item: item[0])
        for at, (date, version) in enumerate(history):
            reference = max(
                (k for k in range(at) if "truncation" not in history[k][1]["class"]), default=None
            )
            after = history[reference + 1][0] if reference is not None else date
            old_date = max(r for r in releases if r < after) if reference is not None else date
            for link in version.select("a[href*='#v']"):
                href, _, anchor = link["href"].partition("#v")
                target = posixpath.normpath(posixpath.join(posixpath.dirname(page), href))
                when = old_date if link.find_parent("del") else date
                wanted = max(d for d in versions_of(target) if d <= when)
                count += 1
                if anchor != wanted:
                    misses.append(f"{page} v{date}: {link.text} -> #v{anchor}, in force #v{wanted}")
    return count, misses


@pytest.mark.parametrize("language", ["en", "zh-Hans", "ko"])
def test_version_anchors_land_on_the_version_in_force_at_the_citing_texts_date(site, language):
    count, misses = _version_anchor_misses(site, language)
    assert count > 0 or language != "en"
    assert misses == []


def test_each_member_of_a_cited_list_is_a_link_even_one_written_as_its_letter(site):
    from rulesarchive.site_builder.refs import References

    class Holders:  # the rules every number is held by, in one release
        language, headings, glossary = "en", (), ()
        releases = (type("Release", (), {"effective_date": None})(),)

        @staticmethod
        def holder(number, _index):
            return type("Line", (), {"id": number, "numbers": (number,)})()

    refs = References(Holders(), {})  # type: ignore[arg-type]
    html = refs.html("en/x.html", "See rules 608.3a and b, rules 306–311, and 601 and 602.", 0)
    linked = re.findall(r"<a [^>]*>([^<]*)</a>", str(html))
    assert linked == ["608.3a", "b", "306", "311", "601", "602"]
