"""The text of a PDF, laid out as the TXT files are: pdfminer.six's layout analysis, then tidied.

pypdf's default mode loses lines and the glossary of the 2002-10-07 PDF (453 rules and one
glossary entry where its TXT twin has 500 and 214); pdfminer.six keeps the reading order.
Its output still carries layout: a form feed and a blank line at each page end, and blank
lines for the gaps between text boxes. Those are undone here, so the parser sees paragraphs.
"""

from __future__ import annotations

import io
import logging
import re
from collections import Counter
from typing import TYPE_CHECKING

from rulesarchive.corpus.numbers import NUMBER
from rulesarchive.scraper.errors import InputError
from rulesarchive.system.extras import extra_needed

# pypdf logs how it mends a damaged cross-reference table ("incorrect startxref pointer") as
# warnings, printed by a worker without a handler on the command's output: the text is read
# all the same, and a fault that stops the reading is an error it raises.
logging.getLogger("pypdf").setLevel(logging.ERROR)

if TYPE_CHECKING:  # the PDF extra, imported where used
    from pdfminer.layout import LTPage, LTTextBox, LTTextLine

# What may start a paragraph after a gap: a rule, a section or chapter heading (a glossary's
# numbered meaning, '2. All the cards in a player's hand.', ends with a full stop).
_NUMBERED = re.compile(rf"{NUMBER}\.?\s|\d{{1,3}}\.\s\S(?!.*\.$)")
# What starts a line of its own, never a wrapped line's rest: an example.
_OWN_LINE = re.compile(r"Example:")
_CITING = re.compile(r"\b(?:rules?|sections?)$")  # "See rule" / "411, ..."
_MEANING = re.compile(r"(\d{1,2})\.\s")
# An ended text: a sentence, or a citation left without its full stop (2014-02-01's
# Intervening "If" Clause, "See rule 603.4").
_ENDS_SENTENCE = re.compile(r"""[.:;!?)”"’]$|\brules? \d{3}\.\d+[a-z]?$""")
# Spaces the PDF's glyph spacing adds: before a mark or a closing parenthesis ("Unglued ™",
# "combat );" in 2002-10-07), after a range's en dash and inside a loyalty cost ("601.2f– h",
# "903.6– 903.11", "[- N]" in 2023-02-03, where the DOCX has none).
_EXTRA_SPACE = re.compile(
    r"(?<=\w) (?=[™®])|(?<=\w) (?=\)[;,.])"
    r"|(?<=\d–) (?=\d)|(?<=\d[a-z]–) (?=[a-z]\b)|(?<=\[[-+−]) (?=[\dX])"
)


def pdf_text(data: bytes) -> str:
    """Return the text of a PDF, one paragraph per blank-line-separated block."""
    with extra_needed():
        from pdfminer.high_level import extract_pages
        from pdfminer.layout import LAParams

    check_streams(data)
    try:
        pages = list(extract_pages(io.BytesIO(data), laparams=LAParams()))
    except Exception as error:  # pdfminer's parse errors, of every kind
        first = (str(error).strip().splitlines() or [""])[0][:200]
        raise InputError(f"not a readable PDF file ({type(error).__name__}: {first})") from None
    return tidy_pdf_text(layout_text(pages))


def layout_text(pages: list[LTPage]) -> str:
    """Write laid-out pages as pdfminer's extract_text does (a blank line after each text box,
    a form feed after each page), less the running headers and page numbers, and with the
    lines a paragraph was wrapped into joined: a line ends where the text did unless the next
    line's first word would not have fitted after it (glossary meanings keep their lines)."""
    from pdfminer.layout import LTTextBox, LTTextLine

    boxes = [[box for box in page if isinstance(box, LTTextBox)] for page in pages]
    running = _running(boxes)
    flat = []  # (page, box, line), in reading order
    for page, page_boxes in enumerate(boxes):
        kept = [box for box in page_boxes if _place(box) not in running]
        lines = [(b, line) for b, box in enumerate(kept) for line in box]
        lines = [(b, line) for b, line in lines if isinstance(line, LTTextLine)]
        flat += [(page, b, line) for b, line in lines]
    right = max((line.x1 for _, _, line in flat), default=0.0)  # the column's right margin
    out: list[str] = []
    for at, (page, box, line) in enumerate(flat):
        text = line.get_text().rstrip()  # an indent is kept: the parser reads it
        out.append(text.lstrip() if out and out[-1] == " " else text)
        following = flat[at + 1] if at + 1 < len(flat) else None
        if following is None:
            break
        # Boxes on one page are parted by a gap: only a box's lines or a page's last line wrap;
        # an example (and after a page break a rule) starts its own line.
        after = following[2].get_text()
        same_page = following[0] == page
        goes_on = (following[:2] == (page, box) or not same_page) and not _OWN_LINE.match(after)
        if same_page and line.y0 - following[2].y1 > line.height / 2:
            goes_on = False  # a gap between the two lines: a paragraph ended
        if not same_page and _NUMBERED.match(after):
            goes_on = False
        current = "".join(out).rpartition("\n")[2] if goes_on else ""
        goes_on = goes_on and not _next_meaning(current, after)
        # a line that starts in lower case, or follows "rule" (its number), goes on the one
        # before, however short that was
        lower = after.lstrip()[:1].islower() or bool(_CITING.search(text))
        goes_on = goes_on and (lower or _cut_at_margin(line, following[2], right))
        if goes_on:
            out.append(" ")
            continue
        out.append("\n")
        if following[:2] != (page, box):
            out.append("\n")  # a box ends
        if following[0] != page:
            out.append("\x0c")
    return "".join(out) + "\n"


def _next_meaning(current: str, after: str) -> bool:
    """Tell whether a line is the next of a glossary entry's numbered meanings ('2. ' after a
    line that began '1. '): its own line, however full the line before."""
    this, then = _MEANING.match(current), _MEANING.match(after)
    if this is None or then is None:
        return False
    return int(then[1]) == int(this[1]) + 1


def _place(box: LTTextBox) -> tuple[int, str]:
    """Where a box stands and what it says, page numbers alike ('4' and '5' are '#')."""
    return round(box.y0), re.sub(r"\d+", "#", box.get_text().strip())


def _running(pages: list[list[LTTextBox]]) -> set[tuple[int, str]]:
    """The running headers and footers: boxes of one text at one height on most pages."""
    if len(pages) < 3:
        return set()
    seen = Counter(place for boxes in pages for place in {_place(box) for box in boxes})
    return {place for place, count in seen.items() if count >= len(pages) / 2}


def _cut_at_margin(line: LTTextLine, following: LTTextLine, right: float) -> bool:
    """Tell whether a line was wrapped: the first word of the line after it would not have
    fitted on it."""
    from pdfminer.layout import LTChar

    word = []
    for char in following:
        if not isinstance(char, LTChar) or not char.get_text().strip():
            break
        word.append(char)
    if not word:
        return False
    space = word[0].size * 0.25
    # the margin is at least as far as the longest line: a word that would have ended within
    # half a point of it did not fit
    return line.x1 + space + sum(char.width for char in word) > right - 0.5


# What a PDF's streams may unpack to in all: the real 2002-10-07 PDF's take 3 MB. Forty streams
# just under pypdf's own limit of 75 MB each made a 2.9 MB file take 3 GB.
MAX_UNPACKED = 256 * 2**20


# A bullet drawn from a symbol font comes out as the C1 control character U+0083 (the 2002-02-19
# MTR's 103 list items): it is the bullet it shows.
_SYMBOL_BULLETS = str.maketrans({"\x83": "•"})


def pdf_pages(data: bytes, first: int | None = None) -> list[str]:
    """Return the text of each page (or of the `first` pages) of a PDF, as its content stream
    draws it.

    For the tournament documents (MTR, IPG) rather than pdfminer.six's layout analysis, which
    splits '1.1 Tournament Types' into two boxes and puts a chapter's title after its first
    section: Word drew their pages in reading order, columns included. The pages are kept
    apart so that running headers, footers and page numbers can be told (scraper.layout).
    pypdf's own limits refuse a decompression bomb (see check_streams).
    """
    from pypdf import PdfReader

    try:
        pages = PdfReader(io.BytesIO(data)).pages
        return [page.extract_text().translate(_SYMBOL_BULLETS) for page in list(pages)[:first]]
    except Exception as error:  # pypdf's read errors and its limits, of every kind
        line = (str(error).strip().splitlines() or [""])[0][:200]
        raise InputError(f"not a readable PDF file ({type(error).__name__}: {line})") from None


def check_streams(data: bytes) -> None:
    """Decode every stream once through pypdf, whose limits refuse a decompression bomb.

    pdfminer.six inflates streams without a limit; pypdf stops at 75 MB a stream, and here
    at MAX_UNPACKED in all. Each stream is let go once measured (pypdf keeps what it read).
    """
    with extra_needed():
        from pypdf import PdfReader
        from pypdf.generic import IndirectObject, StreamObject

    unpacked = 0
    try:
        reader = PdfReader(io.BytesIO(data))
        for generation, numbers in reader.xref.items():
            for number in numbers:
                found = reader.get_object(IndirectObject(number, generation, reader))
                if isinstance(found, StreamObject):
                    unpacked += len(found.get_data())
                reader.resolved_objects.pop((generation, number), None)
                if unpacked > MAX_UNPACKED:
                    raise InputError(
                        f"its streams unpack to more than {MAX_UNPACKED // 2**20} MB "
                        "(a decompression bomb, not a rules document)"
                    )
    except InputError:
        raise
    except Exception as error:  # pypdf's read errors and its limits (LimitReachedError)
        first = (str(error).strip().splitlines() or [""])[0][:200]
        raise InputError(f"not a readable PDF file ({type(error).__name__}: {first})") from None


def tidy_pdf_text(text: str) -> str:
    """Undo page breaks and box gaps: keep a blank line only where a paragraph starts."""
    lines = [line.rstrip() for line in text.replace("\x0c", "").split("\n")]
    kept: list[str] = []
    for at, line in enumerate(lines):
        if line:
            kept.append(_EXTRA_SPACE.sub("", line))
            continue
        if not kept or not kept[-1]:
            continue
        following = next((other for other in lines[at + 1 :] if other), "")
        if _starts_paragraph(kept[-1], following):
            kept.append("")
    return "\n".join(kept) + "\n"


def _starts_paragraph(before: str, after: str) -> bool:
    """Tell a paragraph break from a gap inside one (a page end, an example's spacing)."""
    if _NUMBERED.match(after):
        return True
    stripped = after.strip("“”\"' ")
    looks_like_a_term = (
        len(after) <= 90
        and stripped[:1].isupper()
        and not after.startswith("Example")
        and not re.search(r"""[.,;:]["”’')]*$""", after)
    )
    return looks_like_a_term and (bool(_ENDS_SENTENCE.search(before)) or len(before) <= 60)
