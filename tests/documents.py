"""Write a rules text as the PDF and DOCX files Wizards publishes (small, made for the tests)."""

from __future__ import annotations

import io
import textwrap


def text_to_pdf(text: str, width: int = 95, lines_per_page: int = 55) -> bytes:
    """Return a PDF printing the text in Helvetica, wrapped at `width` characters, paginated."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += textwrap.wrap(paragraph, width) or [""]
    pages = [lines[at : at + lines_per_page] for at in range(0, len(lines), lines_per_page)]
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    pages_id = len(objects) + 1 + 2 * len(pages)
    kids = []
    for page in pages:
        stream = b"\n".join(
            [b"BT /F1 10 Tf 12 TL 40 800 Td", *(_show(line) for line in page), b"ET"]
        )
        content = add(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        kids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 842] "
                b"/Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>"
                % (pages_id, font, content)
            )
        )
    references = b" ".join(b"%d 0 R" % kid for kid in kids)
    add(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (references, len(kids)))
    catalog = add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        catalog,
        xref,
    )
    return bytes(out)


def _show(line: str) -> bytes:
    escaped = line.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(")
    return b"(" + escaped.replace(b")", b"\\)") + b") Tj T*"


def text_to_docx(text: str) -> bytes:
    """Return a DOCX with one paragraph per line of the text."""
    import docx

    document = docx.Document()
    for line in text.split("\n"):
        document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()
