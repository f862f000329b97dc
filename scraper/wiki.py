"""Read the rules quoted on the Italian MTG wiki: a page's HTML, or the same text line by line.

A page quotes one chapter under an h2 `Regolamento`: a line `Tratto dal Regolamento
(Aggiornato a <set>, <date>)`, then the chapter heading (`616. Interazione ...`) and its rules
as nested lists, `616.1.` for a rule, `616.1a` for a sub-rule, `Esempio:` items for examples.
Community pages contain slips (a sub-rule under the wrong rule, a number twice): they are kept
and noted, never fatal.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import Document, Heading, Rule
from rulesarchive.corpus.numbers import CHAPTER, NUMBER, parent_of
from rulesarchive.scraper.errors import InputError
from rulesarchive.system.extras import extra_needed

if TYPE_CHECKING:
    from bs4 import Tag

MARKER = "Tratto dal Regolamento"
_SOURCE_LINE = re.compile(
    r"Tratto dal Regolamento\s*\(\s*Aggiornato a\s+(?P<set>.+?),\s*"
    r"(?P<day>\d{1,2})\s+(?P<month>[A-Za-z]+)\s+(?P<year>\d{4})\s*\)",
    re.IGNORECASE,
)
_MARKER_LINE = re.compile(rb"Tratto dal Regolamento\s*\(\s*Aggiornato a", re.IGNORECASE)
_MARKER_WORDS = MARKER.lower().encode()  # what every _MARKER_LINE begins with, lowered
_MONTHS = [
    "gennaio",
    "febbraio",
    "marzo",
    "aprile",
    "maggio",
    "giugno",
    "luglio",
    "agosto",
    "settembre",
    "ottobre",
    "novembre",
    "dicembre",
]
_HEADING = re.compile(rf"(?P<number>{CHAPTER})\.\s+(?P<title>\S.*)")
_RULE = re.compile(rf"(?P<number>{NUMBER})\.?\s+(?P<text>\S.*)")
_EXAMPLE = re.compile(r"Esempio\s*:", re.IGNORECASE)


@dataclass
class _PageRule:
    """A rule as a page quotes it, its text and examples growing line by line."""

    number: str
    text: str
    examples: list[str] = field(default_factory=list)


@dataclass
class _Page:
    """What one page contributes, gathered line by line."""

    set_name: str = ""
    date: dt.date | None = None
    headings: list[Heading] = field(default_factory=list)
    rules: list[_PageRule] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def is_wiki_page(data: bytes) -> bool:
    """Tell whether bytes are a wiki page (or a bundle of pages) quoting the rules."""
    # The whole source line, not the bare words: a README that mentions the marker is no page.
    head = data[:1_000_000]
    # A pattern ignoring case is tried at every byte: the bare words are looked for first.
    if _MARKER_WORDS not in head.lower():
        return False
    return _MARKER_LINE.search(head) is not None


def parse_wiki(data: bytes) -> Document:
    """Parse a page's HTML, a JSON bundle {"pages": [{"title", "html"}]}, or plain text lines."""
    text = data.decode("utf-8-sig")
    if text.lstrip().startswith("{"):
        try:
            pages = [page["html"] for page in json.loads(text)["pages"]]
        except (ValueError, KeyError, TypeError) as error:
            raise InputError(f"not a wiki page bundle ({error})") from None
        return merge_pages([_read_lines(_html_lines(html)) for html in pages])
    if "<li" in text or "<h2" in text:
        return merge_pages([_read_lines(_html_lines(text))])
    return merge_pages([_read_lines(text.splitlines())])


def merge_pages(pages: list[_Page]) -> Document:
    """Join the chapters quoted by several pages of one date into one (partial) document."""
    dated = [page for page in pages if page.date]
    if not dated:
        raise InputError("no 'Tratto dal Regolamento (Aggiornato a <set>, <date>)' line")
    dates = {page.date for page in dated}
    if len(dates) > 1:
        raise InputError(f"pages of different dates: {', '.join(sorted(map(str, dates)))}")
    rules, headings, notes = [], [], []
    for page in dated:
        rules += [Rule(rule.number, rule.text, tuple(rule.examples)) for rule in page.rules]
        headings += page.headings
        notes += page.notes
    return Document(
        "it",
        dated[0].date,
        title="Regolamento Completo (estratto dal wiki)",
        headings=tuple(headings),
        rules=tuple(rules),
        notes=tuple(notes),
        set_name=dated[0].set_name,
        excerpt=True,
    )


def _html_lines(html: str) -> list[str]:
    """Flatten the part of a page under its `Regolamento` heading into lines of text."""
    # bs4 is imported here, not at the top: every ingest asks is_wiki_page, few read a page.
    with extra_needed():
        from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    start = next((h for h in soup.find_all(["h2", "h3"]) if "Regolamento" in h.get_text()), None)
    if start is None:
        return []
    lines: list[str] = []
    for element in start.find_all_next():
        if element.name == "h2" and element is not start:
            break
        if element.name == "li":
            lines.append(_own_text(element))
        elif element.name in {"p", "dd", "h3", "h4"} and element.find_parent("li") is None:
            lines.append(element.get_text(" ", strip=True))
    return lines


def _own_text(item: Tag) -> str:
    """Text of a list item without its nested lists (those are items of their own)."""
    from bs4.element import NavigableString, Tag

    parts = []
    for child in item.children:
        if isinstance(child, NavigableString):
            parts.append(str(child))
        elif isinstance(child, Tag) and child.name not in {"ul", "ol", "dl"}:
            parts.append(child.get_text())
    return " ".join("".join(parts).split())


def _read_lines(lines: list[str]) -> _Page:
    page = _Page()
    seen: set[str] = set()
    for raw in lines:
        line = " ".join(raw.split())
        if not line:
            continue
        source = _SOURCE_LINE.search(line)
        if source:
            page.set_name = source["set"].strip()
            page.date = _italian_date(source["day"], source["month"], source["year"])
            continue
        if page.date is None:
            continue  # the page's own prose, before the quoted rules
        if _EXAMPLE.match(line) and page.rules:
            page.rules[-1].examples.append(line)
        elif rule := _RULE.fullmatch(line):
            number = rule["number"]
            _note_slips(page, number, seen)
            seen.add(number)
            page.rules.append(_PageRule(number, rule["text"]))
        elif heading := _HEADING.fullmatch(line):
            page.headings.append(Heading(heading["number"], heading["title"]))
        elif page.rules:
            page.rules[-1].text += " " + line  # a rule's text that went on in a second block
    return page


def _note_slips(page: _Page, number: str, seen: set[str]) -> None:
    if number in seen:
        page.notes.append(f"slip: {number} appears twice")
    parent = parent_of(number)
    if parent and "." in parent and parent not in seen:
        page.notes.append(f"slip: {number} is not under its rule {parent}")


def _italian_date(day: str, month: str, year: str) -> dt.date:
    try:
        return dt.date(int(year), _MONTHS.index(month.lower()) + 1, int(day))
    except ValueError:
        raise InputError(f"unreadable date '{day} {month} {year}'") from None


def page_date(html: str) -> dt.date | None:
    """Return the date a page's `Tratto dal Regolamento (...)` line gives, if it has one."""
    from bs4 import BeautifulSoup

    source = _SOURCE_LINE.search(BeautifulSoup(html, "html.parser").get_text(" "))
    if source is None:
        return None
    try:
        return _italian_date(source["day"], source["month"], source["year"])
    except InputError:
        return None
