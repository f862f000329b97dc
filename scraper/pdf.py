"""The text of a PDF, laid out as the TXT files are: pdfminer.six's layout analysis, then tidied.

pypdf's default mode loses lines and the glossary of the 2002-10-07 PDF (453 rules and one
glossary entry where its TXT twin has 500 and 214); pdfminer.six keeps the reading order.
Its output still carries layout: a form feed and a blank line at each page end, and blank
lines for the gaps between text boxes. Those are undone here, so the parser sees paragraphs.
"""

from __future__ import annotations

import io
import re

from rulesarchive.corpus.numbers import NUMBER
from rulesarchive.scraper.errors import InputError
from rulesarchive.system.extras import extra_needed

# What may start a paragraph after a gap: a rule, a section or chapter heading.
_NUMBERED = re.compile(rf"{NUMBER}\.?\s|\d{{1,3}}\.\s\S")
_ENDS_SENTENCE = re.compile(r"""[.:;!?)”"’]$""")
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
        from pdfminer.high_level import extract_text
        from pdfminer.layout import LAParams

    check_streams(data)
    try:
        text = extract_text(io.BytesIO(data), laparams=LAParams())
    except Exception as error:  # pdfminer's parse errors, of every kind
        first = (str(error).strip().splitlines() or [""])[0][:200]
        raise InputError(f"not a readable PDF file ({type(error).__name__}: {first})") from None
    return tidy_pdf_text(text)


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
        len(after) <= 60
        and stripped[:1].isupper()
        and not after.startswith("Example")
        and not re.search(r"[.,;:]$", after)
    )
    return looks_like_a_term and (bool(_ENDS_SENTENCE.search(before)) or len(before) <= 60)
