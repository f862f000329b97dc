"""Scraping over real HTTP: a local server stands in for Wizards, GitHub, the wiki and Wayback.

It serves the real documents of ../shared/cr-archive at the paths the real sites use (under a
mirror root, as `--mirror` expects) and injects faults. Each fault test checks the outcome and
that the archive is intact.
"""

from __future__ import annotations

import datetime as dt
import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rulesarchive.corpus.catalogue import policy_files
from rulesarchive.corpus.model import DocKind
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.http import Fetcher, FetchError, HttpSettings
from rulesarchive.scraper.scrape import scrape
from rulesarchive.scraper.sources import SOURCE_HOSTS, document_links, policy_links
from werkzeug import Request, Response

from rulesarchive.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
RULES_PAGE = "/magic.wizards.com/en/rules"
CURRENT_TXT = "/media.wizards.com/2025/downloads/MagicCompRules 20251114.txt"
PAST_TXT = "/media.wizards.com/2026/downloads/MagicCompRules 20260116.txt"
NOT_YET = dt.date(2026, 6, 1)  # a --since after every catalogued release: only the current one
FAST = HttpSettings(read_timeout=0.5, retries=2, backoff=0.0, per_host_interval=0.0)


@pytest.fixture(autouse=True)
def set_list(request) -> None:
    """Serve a small copy of Scryfall's /sets to every test that runs the local server."""
    if "httpserver" in request.fixturenames:
        server = request.getfixturevalue("httpserver")
        server.expect_request("/api.scryfall.com/sets").respond_with_data(
            (FIXTURES / "scryfall_sets.json").read_bytes(), content_type="application/json"
        )


@pytest.fixture
def current_txt(shared_archive: Path) -> bytes:
    return (shared_archive / "en" / "2025-11-14.txt").read_bytes()


@pytest.fixture
def archive(tmp_path: Path) -> Archive:
    return Archive(tmp_path / "archive")


@pytest.fixture
def waits() -> list[float]:
    return []


@pytest.fixture
def fetcher(httpserver, archive: Archive, waits: list[float]) -> Fetcher:
    mirror = httpserver.url_for("/").rstrip("/")
    return Fetcher(archive.derived, FAST, mirror=mirror, sleep=waits.append, hosts=SOURCE_HOSTS)


def serve_rules_page(httpserver) -> None:
    page = (FIXTURES / "wizards_rules_page.html").read_text(encoding="utf-8")
    httpserver.expect_request(RULES_PAGE).respond_with_data(page, content_type="text/html")


def scrape_english(archive, fetcher, since=NOT_YET):
    _, outcomes = scrape(archive, fetcher, ("en",), since)
    return outcomes


def intact(archive: Archive) -> bool:
    """No half-written release folder or cache file is left behind."""
    return not list(archive.root.rglob(".incoming-*"))


def requests_to(httpserver, path: str) -> list[Request]:
    return [request for request, _ in httpserver.log if request.path == path]


def test_rules_page_links_best_format_first():
    page = (FIXTURES / "wizards_rules_page.html").read_text(encoding="utf-8")
    links = document_links(page)
    assert links[:3] == [
        "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt",
        "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.docx",
        "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.pdf",
    ]
    without_txt = page.replace("20251114.txt", "20251114.html")
    assert document_links(without_txt)[0].endswith(".docx")


def test_current_release_then_304_downloads_nothing(httpserver, archive, fetcher, current_txt):
    serve_rules_page(httpserver)
    httpserver.expect_request(CURRENT_TXT, headers={"If-None-Match": '"v1"'}).respond_with_data(
        "", status=304
    )
    httpserver.expect_request(CURRENT_TXT).respond_with_data(
        current_txt, content_type="text/plain", headers={"ETag": '"v1"'}
    )
    (first,) = scrape_english(archive, fetcher)
    assert first.status == "added", first.message
    release = archive.get("en", dt.date(2025, 11, 14))
    source = release.source
    assert source.url.endswith("MagicCompRules%2020251114.txt")
    assert source.final_url == source.url and source.etag == '"v1"' and source.fetched_at
    (second,) = scrape_english(archive, fetcher)
    assert second.status == "unchanged"
    last = requests_to(httpserver, CURRENT_TXT)[-1]
    assert last.headers["If-None-Match"] == '"v1"'
    assert httpserver.log[-1][1].status_code == 304
    assert intact(archive)


def test_500_then_success(httpserver, archive, fetcher, current_txt):
    serve_rules_page(httpserver)
    httpserver.expect_oneshot_request(CURRENT_TXT).respond_with_data("oops", status=500)
    httpserver.expect_request(CURRENT_TXT).respond_with_data(current_txt)
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "added"
    assert len(requests_to(httpserver, CURRENT_TXT)) == 2


def test_429_honours_retry_after(httpserver, archive, fetcher, waits, current_txt):
    serve_rules_page(httpserver)
    httpserver.expect_oneshot_request(CURRENT_TXT).respond_with_data(
        "slow down", status=429, headers={"Retry-After": "7"}
    )
    httpserver.expect_request(CURRENT_TXT).respond_with_data(current_txt)
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "added"
    assert 7 in waits


def test_read_timeout_is_retried(httpserver, archive, current_txt):
    serve_rules_page(httpserver)
    # The server answers one request at a time: the stalled answer ends halfway through the
    # second try's wait, however slow a loaded machine makes the rest (the first try's wait
    # and the stall were once the same, and the retries raced the server).
    settings = HttpSettings(read_timeout=1.0, retries=2, backoff=0.0, per_host_interval=0.0)
    mirror = httpserver.url_for("/").rstrip("/")
    fetcher = Fetcher(archive.derived, settings, mirror=mirror, hosts=SOURCE_HOSTS)

    def stall(request: Request) -> Response:
        time.sleep(settings.read_timeout * 1.5)
        return Response(current_txt)

    httpserver.expect_oneshot_request(CURRENT_TXT).respond_with_handler(stall)
    httpserver.expect_request(CURRENT_TXT).respond_with_data(current_txt)
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "added"
    assert len(requests_to(httpserver, CURRENT_TXT)) >= 2  # the stalled try, then more


def cut_short(body: bytes) -> Response:
    response = Response(body[: len(body) // 2])
    response.headers["Content-Length"] = str(len(body))
    response.headers["Connection"] = "close"
    return response


def test_a_body_cut_short_is_retried(httpserver, archive, fetcher, current_txt):
    serve_rules_page(httpserver)
    httpserver.expect_oneshot_request(CURRENT_TXT).respond_with_response(cut_short(current_txt))
    httpserver.expect_request(CURRENT_TXT).respond_with_data(current_txt)
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "added"
    assert archive.get("en", dt.date(2025, 11, 14)).rule_count > 3000


def test_a_body_always_cut_short_is_rejected_never_ingested(
    httpserver, archive, fetcher, current_txt
):
    serve_rules_page(httpserver)
    httpserver.expect_request(CURRENT_TXT).respond_with_handler(lambda _: cut_short(current_txt))
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "failed"
    assert "gave up after 3 tries" in outcome.message
    assert archive.releases() == [] and intact(archive)


def test_redirect_records_the_final_url(httpserver, archive, fetcher, current_txt):
    serve_rules_page(httpserver)
    moved = "/media.wizards.com/2025/downloads/moved/MagicCompRules%2020251114.txt"
    httpserver.expect_request(CURRENT_TXT).respond_with_data(
        "", status=301, headers={"Location": moved}
    )
    httpserver.expect_request(moved.replace("%20", " ")).respond_with_data(current_txt)
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "added"
    source = archive.get("en", dt.date(2025, 11, 14)).source
    assert (
        source.final_url
        == "https://media.wizards.com/2025/downloads/moved/MagicCompRules%2020251114.txt"
    )


def test_404_is_not_retried_and_falls_back_to_the_next_format(httpserver, archive, fetcher):
    serve_rules_page(httpserver)
    httpserver.expect_request(CURRENT_TXT).respond_with_data("gone", status=404)
    docx = CURRENT_TXT.replace(".txt", ".docx")
    httpserver.expect_request(docx).respond_with_data("gone", status=404)
    pdf = CURRENT_TXT.replace(".txt", ".pdf")
    httpserver.expect_request(pdf).respond_with_data("gone", status=404)
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "failed"
    assert "HTTP 404" in outcome.message
    assert len(requests_to(httpserver, CURRENT_TXT)) == 1
    assert archive.releases() == []


def test_html_instead_of_the_text_is_rejected(httpserver, archive, fetcher):
    serve_rules_page(httpserver)
    soft_404 = "<!DOCTYPE html><html><body>Page not found</body></html>"
    for suffix in (".txt", ".docx", ".pdf"):
        httpserver.expect_request(CURRENT_TXT.replace(".txt", suffix)).respond_with_data(
            soft_404, content_type="text/html"
        )
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "failed"
    assert "HTML page where a rules document was expected" in outcome.message
    assert archive.releases() == [] and intact(archive)


def test_a_dead_past_url_falls_back_to_the_wayback_machine(
    httpserver, archive, fetcher, shared_archive
):
    serve_rules_page(httpserver)
    httpserver.expect_request(CURRENT_TXT).respond_with_data(
        (shared_archive / "en" / "2025-11-14.txt").read_bytes()
    )
    httpserver.expect_request(PAST_TXT).respond_with_data("gone", status=404)
    original = "https://media.wizards.com/2026/downloads/MagicCompRules%2020260116.txt"
    httpserver.expect_request(
        "/archive.org/wayback/available", query_string={"url": original, "timestamp": "20260116"}
    ).respond_with_json(
        {"archived_snapshots": {"closest": {"available": True, "timestamp": "20260120000000"}}}
    )
    capture = f"/web.archive.org/web/20260120000000id_/{original}".replace("%20", " ")
    httpserver.expect_request(capture).respond_with_data(
        (shared_archive / "en" / "2026-01-16.txt").read_bytes()
    )
    outcomes = scrape_english(archive, fetcher, since=dt.date(2026, 1, 1))
    assert {o.status for o in outcomes} == {"added"}, [o.message for o in outcomes]
    past = archive.get("en", dt.date(2026, 1, 16))
    assert past.source.url.startswith("https://web.archive.org/web/20260120000000id_/")


def test_chinese_translation_from_the_github_repositories(
    httpserver, archive, fetcher, shared_archive
):
    repo = "HeliumOctahelide/magic-comp-rules-zh-cn"
    raw = f"https://raw.githubusercontent.com/{repo}/main/plain_text/20260417_Zh.txt"
    httpserver.expect_request(
        f"/api.github.com/repos/{repo}/contents/plain_text"
    ).respond_with_json(
        [
            {"name": "20260417_Zh.txt", "download_url": raw},
            {"name": "README.md", "download_url": ""},
        ]
    )
    other = "/api.github.com/repos/athenacykes/magic-comp-rules-zh-cn/contents/plain_text"
    httpserver.expect_request(other).respond_with_data("not found", status=404)
    httpserver.expect_request(
        f"/raw.githubusercontent.com/{repo}/main/plain_text/20260417_Zh.txt"
    ).respond_with_data((shared_archive / "zh-Hans" / "2026-04-17.txt").read_bytes())
    _, outcomes = scrape(archive, fetcher, ("zh-Hans",))
    assert [o.status for o in outcomes] == ["added"], [o.message for o in outcomes]
    release = archive.get("zh-Hans", dt.date(2026, 4, 17))
    assert release.rule_count > 3000 and release.source.url == raw


def test_italian_wiki_through_the_mediawiki_api(httpserver, archive, fetcher):
    api = "/magicthegathering.fandom.com/it/api.php"
    httpserver.expect_request(
        api,
        query_string={
            "action": "query",
            "list": "search",
            "format": "json",
            "srlimit": "500",
            "srsearch": '"Tratto dal Regolamento"',
        },
    ).respond_with_json(
        {
            "query": {
                "search": [{"title": "Interazione di effetti di sostituzione e/o di prevenzione"}]
            }
        }
    )
    html = (FIXTURES / "it_wiki_616.html").read_text(encoding="utf-8")
    httpserver.expect_request(
        api,
        query_string={
            "action": "parse",
            "format": "json",
            "page": "Interazione di effetti di sostituzione e/o di prevenzione",
        },
    ).respond_with_json({"parse": {"title": "Interazione", "text": {"*": html}}})
    _, outcomes = scrape(archive, fetcher, ("it",))
    assert [o.status for o in outcomes] == ["added"], [o.message for o in outcomes]
    release = archive.get("it", dt.date(2024, 11, 23))
    assert release.set_name == "Fondamenti di Magic: the Gathering"
    assert "excerpt" in release.flags
    document = archive.load(release)
    assert document.rule("616.1f").examples[0].startswith("Esempio: ci sono due permanenti")
    assert "slip: 616.1e appears twice" in document.notes


def test_interrupted_scrape_keeps_what_it_finished_and_resumes(
    httpserver, archive, shared_archive, waits
):
    mirror = httpserver.url_for("/").rstrip("/")
    repo = "HeliumOctahelide/magic-comp-rules-zh-cn"
    names = {"20260227_Zh.txt": "2026-02-27.txt", "20260417_Zh.txt": "2026-04-17.txt"}
    listing = [
        {
            "name": name,
            "download_url": f"https://raw.githubusercontent.com/{repo}/main/plain_text/{name}",
        }
        for name in names
    ]
    httpserver.expect_request(
        f"/api.github.com/repos/{repo}/contents/plain_text"
    ).respond_with_json(listing)
    other = "/api.github.com/repos/athenacykes/magic-comp-rules-zh-cn/contents/plain_text"
    httpserver.expect_request(other).respond_with_data("not found", status=404)
    for name, stored in names.items():
        httpserver.expect_request(
            f"/raw.githubusercontent.com/{repo}/main/plain_text/{name}"
        ).respond_with_data((shared_archive / "zh-Hans" / stored).read_bytes())

    class Killed(Fetcher):
        def get(self, url, **options):
            if url.endswith("20260417_Zh.txt"):
                raise KeyboardInterrupt
            return super().get(url, **options)

    killed = Killed(archive.derived, FAST, mirror=mirror, sleep=waits.append)
    with pytest.raises(KeyboardInterrupt):
        scrape(archive, killed, ("zh-Hans",))
    assert [r.effective_date for r in archive.releases("zh-Hans")] == [dt.date(2026, 2, 27)]
    assert intact(archive)
    again = Fetcher(archive.derived, FAST, mirror=mirror, sleep=waits.append)
    planned, outcomes = scrape(archive, again, ("zh-Hans",))
    assert [p.label for p in planned] == ["zh-Hans 2026-04-17"]
    assert [o.status for o in outcomes] == ["added"]


def test_fetch_error_names_the_url(httpserver, fetcher):
    httpserver.expect_request("/example.org/missing.txt").respond_with_data("", status=410)
    with pytest.raises(FetchError, match=r"^https://example.org/missing.txt: HTTP 410"):
        fetcher.get("https://example.org/missing.txt", document=True)


def test_cli_scrape_with_mirror_and_dry_run(httpserver, tmp_path, current_txt):
    serve_rules_page(httpserver)
    httpserver.expect_request(CURRENT_TXT).respond_with_data(current_txt)
    mirror = httpserver.url_for("/")
    runner = CliRunner()
    folder = str(tmp_path / "archive")
    command = ["--archive", folder, "scrape", "--mirror", mirror, "--lang", "en"]
    command += ["--since", "2026-06-01"]
    dry = runner.invoke(main, [*command, "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "would fetch en current release: https://media.wizards.com/" in dry.output
    assert Archive(folder).releases() == []
    real = runner.invoke(main, command)
    assert real.exit_code == 0, real.output
    assert "added en/2025-11-14" in real.output
    assert (
        json.loads(
            runner.invoke(main, ["--archive", folder, "releases", "--format", "json"]).output
        )[0]["effective_date"]
        == "2025-11-14"
    )


@pytest.mark.parametrize(
    ("header", "expected"),
    [("1.5", 1.5), ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0), ("soon", None), ("-3", 0.0)],
)
def test_retry_after_in_seconds_dates_or_garbage_never_raises(
    httpserver, fetcher, waits, header, expected
):
    path = "/example.org/busy.txt"
    httpserver.expect_oneshot_request(path).respond_with_data(
        "busy", status=503, headers={"Retry-After": header}
    )
    httpserver.expect_request(path).respond_with_data("fine")
    assert fetcher.get("https://example.org/busy.txt").body == b"fine"
    if expected is not None:
        assert waits[-1] == expected  # FAST's backoff is 0, so the wait is what was asked


def test_a_retry_after_longer_than_the_longest_wait_gives_up_at_once(httpserver, fetcher, waits):
    path = "/example.org/later.txt"
    httpserver.expect_request(path).respond_with_data(
        "later", status=429, headers={"Retry-After": "3600"}
    )
    with pytest.raises(FetchError, match="asks to retry after 3600 s"):
        fetcher.get("https://example.org/later.txt")
    assert waits == [] and len(requests_to(httpserver, path)) == 1


def test_a_redirect_loop_is_one_clear_error(httpserver, archive, fetcher):
    serve_rules_page(httpserver)
    for suffix in (".txt", ".docx", ".pdf"):
        path = CURRENT_TXT.replace(".txt", suffix)
        httpserver.expect_request(path).respond_with_data(
            "", status=302, headers={"Location": path.replace(" ", "%20")}
        )
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "failed"
    assert "redirect loop (more than 30 redirects)" in outcome.message


def test_a_server_dripping_bytes_meets_the_document_deadline(httpserver, archive):
    def drip(_request: Request) -> Response:
        def body():
            for _ in range(100):
                yield b"x"
                time.sleep(0.2)

        return Response(body(), headers={"Content-Length": "100"})

    httpserver.expect_request("/example.org/drip.txt").respond_with_handler(drip)
    settings = HttpSettings(read_timeout=5, retries=2, backoff=0, document_deadline=1.0)
    mirror = httpserver.url_for("/").rstrip("/")
    fetcher = Fetcher(None, settings, mirror=mirror)
    started = time.monotonic()
    with pytest.raises(
        FetchError, match=r"body too slow \(\d+ bytes read when the deadline of 1 s"
    ):
        fetcher.get("https://example.org/drip.txt")
    assert time.monotonic() - started < 3


def test_the_run_deadline_stops_the_run_with_one_line(httpserver, archive, fetcher):
    serve_rules_page(httpserver)
    fetcher.time_left = lambda: 0.0  # the plan was made; then the run's time ran out
    _, outcomes = scrape(archive, fetcher, ("en",), NOT_YET)
    assert [o.status for o in outcomes] == ["failed"]
    assert "the run's deadline passed: 1 document(s) not fetched" in outcomes[0].message
    assert requests_to(httpserver, CURRENT_TXT) == []


def test_an_unknown_host_fails_at_once_and_only_once(waits):
    fetcher = Fetcher(None, FAST, sleep=waits.append)
    for _ in range(2):
        with pytest.raises(
            FetchError, match=r"offline\.invalid/a\.txt: cannot resolve the host name"
        ):
            fetcher.get("https://offline.invalid/a.txt")
    assert waits == []


def test_dry_run_offline_lists_the_catalogue_quickly(tmp_path):
    started = time.monotonic()
    result = CliRunner().invoke(
        main,
        ["--archive", str(tmp_path / "a"), "scrape", "--dry-run", "--mirror", "http://x.invalid"],
    )
    assert time.monotonic() - started < 10
    assert result.exit_code == 1  # the discovery pages could not be read
    assert "would fetch en 2001-07-23: http://www.wizards.com/dci/oracle/" in result.output
    assert "error: en current release: https://magic.wizards.com/en/rules: cannot resolve" in (
        result.output
    )


RESOLVE_FAILS = "error: set list: https://api.scryfall.com/sets: cannot resolve the host name"


def test_korean_has_no_online_source_and_says_so_in_one_line(tmp_path):
    command = ["--archive", str(tmp_path / "a"), "scrape", "--mirror", "http://x.invalid"]
    note = "note: no online source for ko: ingest its files (rulesarchive ingest --lang ko FILE...)"
    dry = CliRunner().invoke(main, [*command, "--lang", "ko", "--dry-run"])
    assert (dry.exit_code, dry.output) == (0, note + "\n")
    run = CliRunner().invoke(main, [*command, "--lang", "ko"])
    assert run.output.splitlines() == [note, RESOLVE_FAILS]  # offline: the set list fails
    every = CliRunner().invoke(main, [*command, "--dry-run"])  # ko is not scraped by default
    assert "ko" not in every.output.replace("wizards.com/", "")


def test_scrape_keeps_scryfalls_set_list_for_later_ingests(httpserver, archive, fetcher):
    serve_rules_page(httpserver)
    httpserver.expect_request(CURRENT_TXT).respond_with_data("gone", status=404)
    for suffix in (".docx", ".pdf"):
        httpserver.expect_request(CURRENT_TXT.replace(".txt", suffix)).respond_with_data(
            "gone", status=404
        )
    scrape_english(archive, fetcher)
    sets = {found.code: found for found in archive.sets()}
    assert sets["MKM"].name == "Murders at Karlov Manor"
    assert sets["MKM"].released_at == dt.date(2024, 2, 9) and sets["MKM"].set_type == "expansion"
    assert "BIG" not in sets and "BROKEN" not in sets


def test_a_set_list_that_cannot_be_fetched_is_one_error(httpserver, archive, fetcher):
    httpserver.clear_all_handlers()
    serve_rules_page(httpserver)
    httpserver.expect_request("/api.scryfall.com/sets").respond_with_data("gone", status=404)
    httpserver.expect_request(CURRENT_TXT).respond_with_data("gone", status=404)
    for suffix in (".docx", ".pdf"):
        httpserver.expect_request(CURRENT_TXT.replace(".txt", suffix)).respond_with_data(
            "gone", status=404
        )
    outcomes = scrape_english(archive, fetcher)
    assert outcomes[0].message == "set list: https://api.scryfall.com/sets: HTTP 404 NOT FOUND"
    assert archive.sets() is None


def test_a_body_longer_than_its_content_length_is_an_error(httpserver, fetcher):
    body = b"x" * 200_000

    def too_long(_request: Request) -> Response:
        # One write: the excess travels with the body's last bytes, as from a real server.
        response = Response([body + b"tail the server should not send"])
        response.headers["Content-Length"] = str(len(body))
        response.headers["Connection"] = "close"
        return response

    httpserver.expect_request("/example.org/long.txt").respond_with_handler(too_long)
    with pytest.raises(FetchError, match="body longer than its Content-Length of 200000 bytes"):
        fetcher.get("https://example.org/long.txt")


def test_a_malformed_github_listing_costs_only_its_source(
    httpserver, archive, fetcher, shared_archive
):
    # One repository answers an object (a rate limit), the other lists a file that is no date.
    repo = "athenacykes/magic-comp-rules-zh-cn"
    raw = f"https://raw.githubusercontent.com/{repo}/main/plain_text/20260417_Zh.txt"
    httpserver.expect_request(
        "/api.github.com/repos/HeliumOctahelide/magic-comp-rules-zh-cn/contents/plain_text"
    ).respond_with_json({"message": "API rate limit exceeded"})
    httpserver.expect_request(
        f"/api.github.com/repos/{repo}/contents/plain_text"
    ).respond_with_json(
        [
            {"name": "20261399_Zh.txt", "download_url": raw.replace("0417", "1399")},
            {"name": "20260417_Zh.txt", "download_url": raw},
            "not an entry",
        ]
    )
    httpserver.expect_request(
        f"/raw.githubusercontent.com/{repo}/main/plain_text/20260417_Zh.txt"
    ).respond_with_data((shared_archive / "zh-Hans" / "2026-04-17.txt").read_bytes())
    _, outcomes = scrape(archive, fetcher, ("zh-Hans",))
    assert [o.status for o in outcomes] == ["added"], [o.message for o in outcomes]


def test_a_wiki_answering_an_html_challenge_costs_only_its_source(httpserver, archive, fetcher):
    challenge = "<!DOCTYPE html><html><title>Just a moment...</title></html>"
    httpserver.expect_request("/magicthegathering.fandom.com/it/api.php").respond_with_data(
        challenge, content_type="text/html"
    )
    _, outcomes = scrape(archive, fetcher, ("it",))
    assert [o.status for o in outcomes] == ["failed"]
    assert outcomes[0].message.startswith("it: https://magicthegathering.fandom.com/it/api.php?")
    assert "not a JSON answer" in outcomes[0].message


def test_a_content_length_of_other_digits_is_one_error(httpserver, fetcher):
    def superscript(_request: Request) -> Response:
        response = Response([b"body"])
        response.headers["Content-Length"] = "\u00b2"  # '²'.isdigit() is True
        return response

    httpserver.expect_request("/example.org/two.txt").respond_with_handler(superscript)
    with pytest.raises(FetchError, match="invalid Content-Length '²'"):
        fetcher.get("https://example.org/two.txt")


def test_a_redirect_to_another_host_is_refused(httpserver, archive, fetcher):
    serve_rules_page(httpserver)
    elsewhere = httpserver.url_for(CURRENT_TXT).replace("localhost", "127.0.0.2")
    httpserver.expect_request(CURRENT_TXT).respond_with_data(
        "", status=302, headers={"Location": elsewhere}
    )
    for other in (".docx", ".pdf"):
        httpserver.expect_request(CURRENT_TXT.replace(".txt", other)).respond_with_data(
            "gone", status=404
        )
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "failed"
    assert f"redirected to 127.0.0.2:{httpserver.port}, not a host of the sources" in (
        outcome.message
    )
    assert "\n" not in outcome.message and intact(archive)
    assert len(requests_to(httpserver, CURRENT_TXT)) == 1  # refused, not retried


def test_links_to_other_hosts_are_not_fetched(httpserver, archive, fetcher):
    page = (FIXTURES / "wizards_rules_page.html").read_text(encoding="utf-8")
    planted = '<a href="https://evil.example/MagicCompRules%2020251114.txt">rules</a>'
    page = planted + page.replace("media.wizards.com", "evil.example")
    assert document_links(page) == []
    httpserver.expect_request(RULES_PAGE).respond_with_data(page, content_type="text/html")
    (outcome,) = scrape_english(archive, fetcher)
    assert outcome.status == "failed" and "no TXT, DOCX or PDF link" in outcome.message
    assert [r.path for r, _ in httpserver.log if "evil.example" in r.path] == []
    assert document_links(planted + "<a href='/x/Rules.txt'>rules</a>") == [
        "https://magic.wizards.com/x/Rules.txt"
    ]


def test_a_fetcher_for_the_sources_talks_to_no_other_host(waits):
    fetcher = Fetcher(None, FAST, sleep=waits.append, hosts=SOURCE_HOSTS)
    with pytest.raises(FetchError, match=r"evil\.example/a\.txt: not a host of the sources"):
        fetcher.get("https://evil.example/a.txt")
    assert fetcher.allowed("https://media.wizards.com/a.txt")
    assert not fetcher.allowed("https://notwizards.com/a.txt")


def test_headers_sent_a_byte_at_a_time_meet_the_deadline(waits):
    """requests' timeout bounds each read: a byte a second never trips it; the deadline does."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def drip() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"x" * 30:
                if stop.wait(0.5):
                    return
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    return

    threading.Thread(target=drip, daemon=True).start()
    settings = HttpSettings(read_timeout=2, retries=2, backoff=0, document_deadline=2.0)
    mirror = f"http://127.0.0.1:{listener.getsockname()[1]}"
    fetcher = Fetcher(None, settings, mirror=mirror, sleep=waits.append, hosts=SOURCE_HOSTS)
    started = time.monotonic()
    try:
        with pytest.raises(
            FetchError, match=r"a\.txt: headers too slow \(not all in when the deadline of 2 s"
        ):
            fetcher.get("https://media.wizards.com/a.txt")
        assert time.monotonic() - started < 4
    finally:
        stop.set()
        listener.close()


POLICY_PAGE = "/wpn.wizards.com/en/rules-documents"
CURRENT_MTR = "/media.wizards.com/ContentResources/WPN/MTG_MTR_2021_Jul23_EN.pdf"
ARCHIVED = "/raw.githubusercontent.com/multimeric/VensersJournal/"
SUMMER_2021 = dt.date(2021, 7, 1)  # the catalogue's one MTR file from here on: 2021-07-23


@pytest.fixture
def mtr_2021(shared_archive: Path) -> bytes:
    return (shared_archive.parent / "policy-archive" / "mtr" / "mtr-2021-07-23.pdf").read_bytes()


def serve_policy_page(httpserver) -> None:
    page = (FIXTURES / "wpn_rules_documents.html").read_text(encoding="utf-8")
    httpserver.expect_request(POLICY_PAGE).respond_with_data(page, content_type="text/html")


def archived_path(kind: DocKind, date: dt.date) -> str:
    (found,) = [file for file in policy_files(kind) if file.file_date == date]
    return "/" + found.url.removeprefix("https://")


def test_policy_page_links_each_documents_english_pdf():
    page = (FIXTURES / "wpn_rules_documents.html").read_text(encoding="utf-8")
    wpn = "https://media.wizards.com/ContentResources/WPN/"
    assert policy_links(page, DocKind.MTR) == [wpn + "MTG_MTR_2021_Jul23_EN.pdf"]
    assert policy_links(page, DocKind.IPG) == [wpn + "MTG_IPG_2021_Feb05_EN.pdf"]


def test_the_policy_catalogue_holds_every_document_and_no_download_log(shared_archive):
    rows = (shared_archive.parent / "policy-archive" / "MANIFEST.tsv").read_text().splitlines()
    logs = {"mtr/mtr-2020-04-17.pdf", "ipg/ipg-2020-04-17.pdf"}
    files = {
        file.sha256: file for kind in (DocKind.MTR, DocKind.IPG) for file in policy_files(kind)
    }
    manifest = {row.split("\t")[0]: row.split("\t")[4] for row in rows[1:]}
    assert {path for path, sha256 in manifest.items() if sha256 not in files} == logs
    assert len(files) == 108 and all(
        f.url.startswith("https://raw.githubusercontent.com/") for f in files.values()
    )
    ikoria = files[manifest["mtr/mtr-2020-04-17-ikoria.pdf"]]
    assert ikoria.file_date == dt.date(2020, 4, 17) and ikoria.url.endswith("/IKO/raw/mtr.pdf")


def test_scrape_mtr_fetches_the_current_and_the_archived_copies(
    httpserver, archive, fetcher, mtr_2021
):
    serve_policy_page(httpserver)
    httpserver.expect_request(CURRENT_MTR).respond_with_data(
        mtr_2021, content_type="application/pdf"
    )
    archived = archived_path(DocKind.MTR, dt.date(2021, 7, 23))
    httpserver.expect_request(archived).respond_with_data(mtr_2021, content_type="application/pdf")
    planned, outcomes = scrape(archive, fetcher, ("en",), SUMMER_2021, kinds=(DocKind.MTR,))
    assert [item.label for item in planned] == ["mtr current release", "mtr 2021-07-23"]
    assert [o.status for o in outcomes] == ["added", "unchanged"], [o.message for o in outcomes]
    (release,) = archive.of_kind(DocKind.MTR).releases("en")
    assert release.kind == DocKind.MTR and release.effective_date == dt.date(2021, 7, 23)
    assert release.source.url.endswith("MTG_MTR_2021_Jul23_EN.pdf")
    assert archive.releases("en") == []  # no CR asked for: the rules page is not read
    assert requests_to(httpserver, RULES_PAGE) == []
    # The archived copy's bytes are stored already: the next run plans the current one only.
    planned, outcomes = scrape(archive, fetcher, ("en",), SUMMER_2021, kinds=(DocKind.MTR,))
    assert [item.label for item in planned] == ["mtr current release"]
    assert [o.status for o in outcomes] == ["unchanged"]
    assert intact(archive)


def test_an_archived_copy_whose_bytes_differ_is_refused(httpserver, archive, fetcher, mtr_2021):
    httpserver.expect_request(POLICY_PAGE).respond_with_data("gone", status=404)
    archived = archived_path(DocKind.MTR, dt.date(2021, 7, 23))
    httpserver.expect_request(archived).respond_with_data(mtr_2021 + b"% changed")
    _, outcomes = scrape(archive, fetcher, ("en",), SUMMER_2021, kinds=(DocKind.MTR,))
    assert [o.status for o in outcomes] == ["failed", "failed"]
    assert outcomes[0].message.startswith("mtr current release: ")
    assert "sha256" in outcomes[1].message, outcomes[1].message
    assert archive.of_kind(DocKind.MTR).releases("en") == [] and intact(archive)


def test_scrape_doc_on_the_command_line(tmp_path):
    command = [
        "--archive",
        str(tmp_path / "a"),
        "scrape",
        "--dry-run",
        "--mirror",
        "http://x.invalid",
    ]
    result = CliRunner().invoke(main, [*command, "--doc", "ipg", "--since", "2021-01-01"])
    assert result.exit_code == 1  # WPN's page could not be read; nothing else was asked for
    assert result.output.splitlines() == [
        "would fetch ipg 2021-02-05: https://raw.githubusercontent.com/multimeric/VensersJournal/"
        "c13883b05eabb5fb7beac60200ea14e18ab47062/static/ipg/ipg-2021-02-05.pdf",
        "error: ipg current release: https://wpn.wizards.com/en/rules-documents: cannot resolve"
        " the host name",
    ]


def test_a_pdf_pypdf_mends_says_nothing_on_the_output(shared_archive, tmp_path):
    # MTR 2011-01-01's cross-reference table is damaged: pypdf mends it and logs a warning,
    # which a worker printed on scrape's output ("incorrect startxref pointer(4)"). In a
    # process of its own: pytest's log capture would take the warning.
    pdf = shared_archive.parent / "policy-archive" / "mtr" / "mtr-2011-01-01.pdf"
    script = (
        "import sys; from pathlib import Path\n"
        "from rulesarchive.corpus.store import Archive\n"
        "from rulesarchive.scraper.ingest import ingest_bytes\n"
        "data = Path(sys.argv[1]).read_bytes()\n"
        "print(ingest_bytes(Archive(Path(sys.argv[2])), data, 'mtr.pdf').message)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(pdf), str(tmp_path / "a")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert (done.stdout, done.stderr) == ("added mtr/en/2011-01-01 (94 sections)\n", "")
