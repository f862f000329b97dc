"""Get the text out of a rules file: TXT, DOCX, PDF or RTF (DOC is refused clearly)."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from pathlib import PurePath

from rulesarchive.scraper.decode import check_not_garbled, decode_bytes
from rulesarchive.scraper.errors import InputError


@dataclass(frozen=True, slots=True)
class Extracted:
    """The plain text of a document and how it was read."""

    text: str
    format: str
    encoding: str
    repairs: tuple[str, ...] = ()


def sniff_format(data: bytes, name: str = "") -> str:
    """Name the container format from the bytes, falling back to the file extension."""
    head = data[:512].lstrip()
    if data.startswith(b"%PDF"):
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        return "docx"
    if data.startswith(b"{\\rtf"):
        return "rtf"
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        return "doc"
    if head[:15].lower().startswith((b"<!doctype html", b"<html")):
        return "html"
    suffix = PurePath(name).suffix.lower().lstrip(".")
    return suffix if suffix in {"doc", "html", "htm"} else "txt"


def extract_text(data: bytes, name: str = "") -> Extracted:
    """Return the text of a document of any supported format."""
    if not data:
        raise InputError("empty file")
    kind = sniff_format(data, name)
    if kind == "txt":
        decoded = decode_bytes(data)
        return Extracted(decoded.text, "txt", decoded.encoding, decoded.repairs)
    if kind == "docx":
        return _checked(_docx_text(data), "docx", "utf-8 (DOCX XML)")
    if kind == "pdf":
        return _checked(_pdf_text(data), "pdf", "PDF text")
    if kind == "rtf":
        return _checked(_rtf_text(data), "rtf", "cp1252 (RTF)")
    if kind in {"html", "htm"}:
        raise InputError("HTML page, not a rules document")
    raise InputError(f"unsupported format '{kind}' (convert it to .txt, .docx, .pdf or .rtf)")


def _checked(text: str, kind: str, encoding: str) -> Extracted:
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x0b", "\n")
    check_not_garbled(text)
    return Extracted(text, kind, encoding)


def _docx_text(data: bytes) -> str:
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError) as error:
        raise InputError(f"not a readable DOCX file ({error})") from None
    # Wizards' DOCX files separate paragraphs with empty ones, exactly as their TXT files do.
    return "\n".join(paragraph.text for paragraph in document.paragraphs)


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        return "\n".join(page.extract_text() or "" for page in reader.pages)
    except PdfReadError as error:
        raise InputError(f"not a readable PDF file ({error})") from None


def _rtf_text(data: bytes) -> str:
    from striprtf.striprtf import rtf_to_text

    return rtf_to_text(data.decode("latin-1"), encoding="cp1252", errors="replace")
