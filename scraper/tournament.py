"""Read a tournament document (MTR, IPG): its kind, its printed date, its text without layout."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import replace
from pathlib import PurePath

from rulesarchive.corpus.model import DocKind, Document
from rulesarchive.scraper.errors import InputError
from rulesarchive.scraper.extract import Extracted, Format, extract_text
from rulesarchive.scraper.layout import strip_layout
from rulesarchive.scraper.pdf import pdf_pages
from rulesarchive.scraper.sections import EFFECTIVE, MONTH, parse_tournament

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            "jan january",
            "feb february",
            "mar march",
            "apr april",
            "may",
            "jun june",
            "jul july",
            "aug august",
            "sep sept september",
            "oct october",
            "nov november",
            "dec december",
        ),
        start=1,
    )
    for name in names.split()
}
# The Usenet post's 'Date: 26 Jan 94 12:30:31' (it prints no effective date).
_POSTED = re.compile(rf"^Date:\s+(?P<day>\d{{1,2}}) {MONTH} (?P<year>\d{{2,4}})", re.MULTILINE)
# Each kind's titles, as its documents print them (the first found in the opening names it).
_TITLES = (
    (DocKind.IPG, re.compile(r"penalty\s+guide|infraction\s+procedure\s+guide", re.IGNORECASE)),
    (DocKind.MTR, re.compile(r"tournament\s+rules|floor\s+rules", re.IGNORECASE)),
    (DocKind.CR, re.compile(r"comprehensive\s+rules", re.IGNORECASE)),
)
_OPENING = 1500  # characters in which a document names itself
_NAMED_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def detect_kind(text: str) -> DocKind | None:
    """Name the kind of document from the title its opening prints, or None."""
    opening = text[:_OPENING]
    found = [(match.start(), kind) for kind, title in _TITLES if (match := title.search(opening))]
    return min(found)[1] if found else None


def document_kind(data: bytes, container: Format) -> DocKind:
    """Name the kind of a file's document from its opening (a PDF's first page): CR if unsure."""
    if container not in (Format.PDF, Format.TXT):
        return DocKind.CR
    if container == Format.TXT:
        # The titles are ASCII: the opening's bytes as Latin-1, a UTF-16 file's NULs left out,
        # name them without decoding the whole file (the CR's reading does that).
        return detect_kind(data[: 8 * _OPENING].replace(b"\0", b"").decode("latin-1")) or DocKind.CR
    try:
        opening = "\n".join(pdf_pages(data, 1))
    except InputError:
        return DocKind.CR  # the CR's reading says what is wrong with the file
    return detect_kind(opening) or DocKind.CR


def find_printed_date(text: str) -> dt.date | None:
    """Return the effective date a tournament document prints (a post's date for the 1994 one)."""
    opening = text[:4000]
    for pattern in (EFFECTIVE, _POSTED):
        match = pattern.search(opening)
        month = _MONTHS.get(match["month"].casefold()) if match else None
        if match and month:
            year = int(match["year"])
            return dt.date(year + 1900 if year < 100 else year, month, int(match["day"]))
    return None


def read_tournament(
    data: bytes, name: str, kind: DocKind, limit: int
) -> tuple[Document, Extracted]:
    """Extract, strip the layout of and parse a tournament document (not yet normalised)."""
    extracted = extract_text(data, name, limit, pages=True)
    counts: Counter[str] = Counter()
    lines = strip_layout(extracted.pages or (extracted.text,), counts)
    document = parse_tournament(lines, kind, counts)
    if not document.sections:
        raise InputError(f"no numbered sections found: not a {kind.upper()} document?")
    printed, repaired = _mended_year(find_printed_date(extracted.text), extracted.text)
    notes = document.notes + repaired + _date_notes(printed, name)
    layout = tuple(sorted((str(what), count) for what, count in counts.items() if count))
    return replace(document, effective_date=printed, notes=notes, normalisation=layout), extracted


def _mended_year(printed: dt.date | None, text: str) -> tuple[dt.date | None, tuple[str, ...]]:
    """Mend a cover that misprints its year: the text names the same day in another year more
    often than in the printed one (the 2021-02-05 MTR's cover says 'February 5, 2020'; its
    changes appendix and its new-set dates say February 5, 2021)."""
    if printed is None:
        return None, ()
    day = f"{printed:%B} {printed.day}, "
    years = Counter(int(match) for match in re.findall(rf"{day}(\d{{4}})", text))
    year, count = max(years.items(), key=lambda item: (item[1], item[0]), default=(0, 0))
    if year in (0, printed.year) or count < 2 or count <= years[printed.year]:
        return printed, ()
    mended = printed.replace(year=year)
    return mended, (
        f"the cover prints {printed.isoformat()}, a misprint of the year: the text names "
        f"{day}{year} {count} times and {day}{printed.year} {years[printed.year]} time(s)",
    )


def _date_notes(printed: dt.date | None, name: str) -> tuple[str, ...]:
    """Say where the date in the file's name is not the date the document prints."""
    named = _NAMED_DATE.search(PurePath(name).name)
    if printed is None or named is None or named.group() == printed.isoformat():
        return ()
    return (f"prints the date {printed.isoformat()}, not {named.group()} as its file name says",)
