"""Where the rules are published: Wizards' rules pages, the Wayback Machine, translation repos."""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, urljoin, urlsplit

from bs4 import BeautifulSoup
from rulesarchive.corpus.model import DocKind
from rulesarchive.corpus.sets import MagicSet
from rulesarchive.scraper.http import Fetcher, FetchError, on_hosts

log = logging.getLogger(__name__)

RULES_PAGE = "https://magic.wizards.com/en/rules"
# The tournament documents in force (MTR, IPG), linked as PDFs from WPN's rules documents page;
# their archived copies are catalogued (corpus/data/policy.json).
POLICY_PAGE = "https://wpn.wizards.com/en/rules-documents"
WAYBACK_AVAILABLE = "https://archive.org/wayback/available"
GITHUB_API = "https://api.github.com"
ZH_REPOSITORIES = (
    "HeliumOctahelide/magic-comp-rules-zh-cn",  # the continuation: newest files first
    "athenacykes/magic-comp-rules-zh-cn",
)
ITALIAN_WIKI_API = "https://magicthegathering.fandom.com/it/api.php"
ITALIAN_MARKER = "Tratto dal Regolamento"
SCRYFALL_SETS = "https://api.scryfall.com/sets"
# The hosts the scraper talks to, with their subdomains: the sources above, where their
# documents are (media.wizards.com, raw.githubusercontent.com) and the Wayback's captures.
SOURCE_HOSTS = (
    "wizards.com",
    "archive.org",
    "github.com",
    "githubusercontent.com",
    "fandom.com",
    "scryfall.com",
)
_MAX_SET_PAGES = 20
_PREFERENCE = (".txt", ".docx", ".pdf")  # TXT is the text itself; DOCX keeps paragraphs; PDF last
_ZH_FILE = re.compile(r"(\d{4})(\d{2})(\d{2})_Zh\.txt")


@dataclass(frozen=True, slots=True)
class Download:
    """One document to fetch: its URL and what is known of it before fetching."""

    url: str
    language: str
    date: dt.date | None = None  # the date the source gives (catalogue, file name)
    sha256: str = ""


def document_links(html: str, base_url: str = RULES_PAGE) -> list[str]:
    """Return the rules page's TXT, DOCX and PDF links, best format first.

    File names contain spaces and change pattern from year to year, so links are recognised by
    their extension alone (after undoing %20), not by a name pattern. Links to hosts other
    than the sources' (SOURCE_HOSTS) are left out: the scraper talks to no one else.
    """
    soup = BeautifulSoup(html, "html.parser")
    found: dict[str, int] = {}
    for anchor in soup.find_all("a", href=True):
        url = urljoin(base_url, str(anchor["href"]).strip())
        if not on_hosts(url, SOURCE_HOSTS):
            log.info("%s: a link to a host of no source, not followed", url)
            continue
        path = unquote(urlsplit(url).path).lower()
        for rank, suffix in enumerate(_PREFERENCE):
            if path.endswith(suffix):
                found.setdefault(_spaces_quoted(url), rank)
    return sorted(found, key=found.__getitem__)


# Language codes in the file names of WPN's translated documents (MTG_MTR_2024_Nov11_JP.pdf).
_OTHER_LANGUAGES = frozenset(
    {
        "cn",
        "cs",
        "ct",
        "de",
        "es",
        "fr",
        "it",
        "ja",
        "jp",
        "ko",
        "kr",
        "pt",
        "ru",
        "zh",
        "zhs",
        "zht",
    }
)


def policy_links(html: str, kind: DocKind, base_url: str = POLICY_PAGE) -> list[str]:
    """Return the English PDF links of one tournament document on WPN's rules documents page.

    A link is the document's when its file name holds `mtr` or `ipg` as a word of its own
    (MTG_MTR_2024_Nov11_EN.pdf, mtg_ipg_2020apr17_en.pdf); one naming another language is a
    translation, left out; one naming English comes first.
    """
    soup = BeautifulSoup(html, "html.parser")
    found: dict[str, int] = {}
    for anchor in soup.find_all("a", href=True):
        url = urljoin(base_url, str(anchor["href"]).strip())
        name = unquote(urlsplit(url).path).rpartition("/")[2].lower()
        if not name.endswith(".pdf") or not on_hosts(url, SOURCE_HOSTS):
            continue
        words = set(re.split(r"[^a-z0-9]+", name.removesuffix(".pdf")))
        if kind.value in words and not words & _OTHER_LANGUAGES:
            found.setdefault(_spaces_quoted(url), 0 if "en" in words else 1)
    return sorted(found, key=found.__getitem__)


def _spaces_quoted(url: str) -> str:
    return url.replace(" ", "%20")


def wayback_capture(fetcher: Fetcher, url: str, near: dt.date | None) -> str | None:
    """Return the raw Wayback Machine capture of a URL closest to a date, if there is one."""
    query = f"?url={quote(url, safe='')}"
    if near:
        query += f"&timestamp={near:%Y%m%d}"
    try:
        answer = json.loads(fetcher.get(WAYBACK_AVAILABLE + query).body)
    except (FetchError, ValueError):
        return None
    closest = (answer.get("archived_snapshots") or {}).get("closest") or {}
    if not closest.get("available") or not closest.get("timestamp"):
        return None
    # id_ asks for the bytes as captured, without the Wayback toolbar rewritten into them.
    return f"https://web.archive.org/web/{closest['timestamp']}id_/{url}"


def chinese_downloads(fetcher: Fetcher) -> list[Download]:
    """List the plain-text files of the Simplified Chinese translation, one per date."""
    downloads: dict[dt.date, Download] = {}
    problems = []
    for repository in ZH_REPOSITORIES:
        listing = f"{GITHUB_API}/repos/{repository}/contents/plain_text"
        try:
            entries = json.loads(fetcher.get(listing).body)
        except (FetchError, ValueError) as error:
            problems.append(str(error))
            continue
        if not isinstance(entries, list):  # an error object, a rate limit: not a listing
            problems.append(f"{listing}: not a folder listing ({str(entries)[:100]})")
            continue
        for entry in entries:
            found = _zh_download(entry)
            if found and found.date:
                downloads.setdefault(found.date, found)
    if not downloads and problems:
        raise FetchError(problems[0])
    return [downloads[date] for date in sorted(downloads)]


def _zh_download(entry: object) -> Download | None:
    """Read one entry of a GitHub listing: a YYYYMMDD_Zh.txt file and its URL, else None.

    A name that is not a date (20261399_Zh.txt) is no release: it is passed over.
    """
    if not isinstance(entry, dict) or not isinstance(entry.get("download_url"), str):
        return None
    match = _ZH_FILE.fullmatch(str(entry.get("name", "")))
    if not match:
        return None
    try:
        date = dt.date(*map(int, match.groups()))
    except ValueError:
        return None
    return Download(entry["download_url"], "zh-Hans", date)


def _json_answer(fetcher: Fetcher, url: str) -> dict[str, Any]:
    """Fetch an API's JSON object; a page that is not one (an HTML challenge) is a FetchError."""
    body = fetcher.get(url).body
    try:
        answer = json.loads(body)
    except ValueError:
        raise FetchError(f"{url}: not a JSON answer ({body[:60]!r}...)") from None
    if not isinstance(answer, dict):
        raise FetchError(f"{url}: not a JSON object")
    return answer


def italian_pages(fetcher: Fetcher) -> list[str]:
    """Return the titles of the Italian wiki pages that quote the rules."""
    query = (
        f"{ITALIAN_WIKI_API}?action=query&list=search&format=json&srlimit=500"
        f"&srsearch={quote(chr(34) + ITALIAN_MARKER + chr(34))}"
    )
    answer = _json_answer(fetcher, query)
    try:
        return sorted(str(hit["title"]) for hit in answer.get("query", {}).get("search", []))
    except (TypeError, KeyError, AttributeError):
        raise FetchError(f"{query}: not a search answer") from None


def italian_page_html(fetcher: Fetcher, title: str) -> tuple[str, str]:
    """Return (URL, HTML) of one wiki page, through the MediaWiki parse API."""
    url = f"{ITALIAN_WIKI_API}?action=parse&format=json&page={quote(title)}"
    answer = _json_answer(fetcher, url)
    try:
        return url, str(answer["parse"]["text"]["*"])
    except (KeyError, TypeError):
        error = answer.get("error")
        why = error.get("info") if isinstance(error, dict) else None
        raise FetchError(f"{url}: {why or 'no page in the answer'}") from None


def scryfall_sets(fetcher: Fetcher) -> list[MagicSet]:
    """Return every set of Scryfall's public set list (code, name, released_at, set_type)."""
    found: list[MagicSet] = []
    url: str | None = SCRYFALL_SETS
    for _ in range(_MAX_SET_PAGES):
        if not url:
            break
        try:
            answer = json.loads(fetcher.get(url).body)
            found += read_set_list(answer)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise FetchError(f"{url}: not Scryfall's set list ({error})") from None
        url = answer.get("next_page") if answer.get("has_more") else None
    return found


def read_set_list(answer: dict[str, Any]) -> list[MagicSet]:
    """Read one page of Scryfall's /sets answer, leaving out sets that belong to another."""
    return [
        magic_set
        for item in answer["data"]
        if not item.get("parent_set_code")  # promos, tokens, bonus sheets: not a main set
        and (magic_set := _magic_set(item))
    ]


def _magic_set(item: dict[str, Any]) -> MagicSet | None:
    """Read one set; None for one without a code, a name or a release date."""
    try:
        return MagicSet(
            item["code"].upper(),
            item["name"],
            dt.date.fromisoformat(item["released_at"]),
            item.get("set_type", ""),
        )
    except (KeyError, TypeError, AttributeError, ValueError):
        return None
