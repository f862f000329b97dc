"""Get the text out of a rules file: TXT, DOCX, PDF or RTF (DOC is refused clearly)."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import PurePath

from rulesarchive.scraper.decode import check_not_garbled, decode_bytes
from rulesarchive.scraper.errors import InputError
from rulesarchive.scraper.pdf import pdf_pages, pdf_text
from rulesarchive.scraper.settings import MAX_BYTES
from rulesarchive.system.extras import extra_needed


@dataclass(frozen=True, slots=True)
class Extracted:
    """The plain text of a document and how it was read."""

    text: str
    format: Format
    encoding: str
    repairs: tuple[str, ...] = ()
    pages: tuple[str, ...] = ()  # a PDF's pages as drawn, when asked for


class Format(StrEnum):
    """A file's format as sniffed: those read, and those refused clearly."""

    TXT = "txt"
    DOCX = "docx"
    PDF = "pdf"
    RTF = "rtf"
    WIKI = "wiki"  # a page of the Italian MTG wiki (read by scraper.wiki)
    DOC = "doc"  # refused: convert it
    HTML = "html"  # refused: a web page, not a rules document


def sniff_format(data: bytes, name: str = "") -> Format:
    """Name the container format from the bytes, falling back to the file extension."""
    head = data[:512].lstrip()
    if data.startswith(b"%PDF"):
        return Format.PDF
    if data.startswith(b"PK\x03\x04"):
        return Format.DOCX
    if data.startswith(b"{\\rtf"):
        return Format.RTF
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        return Format.DOC
    if head[:15].lower().startswith((b"<!doctype html", b"<html")):
        return Format.HTML
    suffix = PurePath(name).suffix.lower().lstrip(".")
    if suffix == "doc":
        return Format.DOC
    return Format.HTML if suffix in {"html", "htm"} else Format.TXT


def extract_text(
    data: bytes, name: str = "", limit: int = MAX_BYTES, pages: bool = False
) -> Extracted:
    """Return the text of a document of any supported format (at most `limit` characters).

    With `pages`, a PDF's pages are also kept as drawn, apart (`Extracted.pages`), for the
    layout to be read from them (scraper.layout) rather than tidied as a CR's text is.
    """
    if not data:
        raise InputError("empty file")
    if len(data) > limit:
        raise InputError(f"{len(data)} bytes is over the size limit of {limit}")
    kind = sniff_format(data, name)
    if kind != Format.PDF and PurePath(name).suffix.lower() == ".pdf":
        raise InputError(
            f"named .pdf but holds no PDF, not a document (it starts {_opening(data)})"
        )
    if kind == Format.PDF and pages:
        drawn = tuple(map(_line_ends, pdf_pages(data)))
        return replace(_checked("\n".join(drawn), kind, "PDF text", limit), pages=drawn)
    if kind == Format.TXT:
        decoded = decode_bytes(data)
        return Extracted(decoded.text, kind, decoded.encoding, decoded.repairs)
    if kind == Format.DOCX:
        return _checked(_docx_text(data, limit), kind, "utf-8 (DOCX XML)", limit)
    if kind == Format.PDF:
        return _checked(pdf_text(data), kind, "PDF text", limit)
    if kind == Format.RTF:
        return _checked(_rtf_text(data), kind, "cp1252 (RTF)", limit)
    if kind == Format.HTML:
        raise InputError("HTML page, not a rules document")
    raise InputError(f"unsupported format '{kind}' (convert it to .txt, .docx, .pdf or .rtf)")


def _opening(data: bytes) -> str:
    """Quote the first line of a file that is not what its name says (a download log...)."""
    line = data[:200].decode("utf-8", "replace").strip().split("\n")[0].strip()
    return repr(line[:60])


def _checked(text: str, kind: Format, encoding: str, limit: int) -> Extracted:
    if len(text) > limit:
        raise InputError(f"{kind.upper()} holds {len(text)} characters of text, over the limit")
    text = _line_ends(text)
    check_not_garbled(text)
    return Extracted(text, kind, encoding)


def _line_ends(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x0b", "\n")


def _docx_text(data: bytes, limit: int) -> str:
    with extra_needed():
        import docx

    _check_zip_sizes(data, 2 * limit)
    try:
        document = docx.Document(io.BytesIO(_stored_zip(data)))
    except Exception as error:  # zip, XML (lxml) and python-docx errors alike: the file is bad
        raise InputError(f"not a readable DOCX file ({_reason(error)})") from None
    # Wizards' DOCX files separate paragraphs with empty ones, exactly as their TXT files do.
    return "\n".join(paragraph.text for paragraph in document.paragraphs)


def _check_zip_sizes(data: bytes, limit: int) -> None:
    """Refuse a zip whose parts unpack to more than `limit` bytes (a zip bomb).

    zipfile never returns more than a part's declared size, so checking the declared sizes
    bounds what unpacking can cost, read a chunk at a time (_stored_zip).
    """
    try:
        parts = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise InputError(f"not a readable DOCX file ({_reason(error)})") from None
    total = sum(part.file_size for part in parts)
    if total > limit:
        raise InputError(f"DOCX parts unpack to {total} bytes, over the limit of {limit}")


_CHUNK = 2**20


def _stored_zip(data: bytes) -> bytes:
    """Return the zip again with every part stored, each inflated a chunk at a time.

    zipfile's one-call read of a part inflates all of it before cutting it to its declared
    size: 1 MB that says 200 bytes inflates to 1 GB. Stored, the parts cost python-docx no
    inflating.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as packed, zipfile.ZipFile(out, "w") as stored:
        for part in packed.infolist():
            with packed.open(part) as reading:
                chunks = iter(lambda: reading.read(_CHUNK), b"")
                stored.writestr(part.filename, b"".join(chunks))
    return out.getvalue()


def _reason(error: BaseException) -> str:
    first = (str(error).strip().splitlines() or [""])[0][:200]
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def _rtf_text(data: bytes) -> str:
    with extra_needed():
        from striprtf.striprtf import rtf_to_text

    text: str = rtf_to_text(data.decode("latin-1"), encoding="cp1252", errors="replace")
    return text
