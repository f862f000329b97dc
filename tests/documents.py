"""Write a rules text as the PDF and DOCX files Wizards publishes (small, made for the tests)."""

from __future__ import annotations

import io


def text_to_pdf(text: str, width: int = 95, lines_per_page: int = 55) -> bytes:
    """Return a PDF printing the text in 10-point Helvetica, wrapped as a typesetter does at
    the width of about `width` characters (5 points each), paginated."""
    from reportlab.lib.utils import simpleSplit

    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += simpleSplit(paragraph, "Helvetica", 10, width * 5) or [""]
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
    return pdf_of_objects(objects, catalog)


def pdf_of_objects(objects: list[bytes], root: int) -> bytes:
    """Return a PDF file of these objects (numbered from 1), `root` the catalog's number."""
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
        root,
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


def release_to_pdf(text: str, breaks: dict[str, str] | None = None) -> bytes:
    """Return a PDF laid out as Wizards prints a release: Times on letter pages, paragraphs
    wrapped to the margins, a running header and the page number on every page.

    `breaks` forces page breaks: before the line equal to each key, within the paragraph
    after which its value's line ends ('after' the term of an entry, 'inside' a multi-line one).
    """
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfgen import canvas

    breaks = breaks or {}
    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, pagesize=letter, invariant=True)
    width, height = letter
    left, top, bottom, size, leading = 54, height - 72, 72, 10, 12
    state = {"y": top, "number": 1}

    def new_page() -> None:
        page.setFont("Helvetica", 8)
        page.drawString(left, height - 40, "Magic: The Gathering Comprehensive Rules")
        page.drawCentredString(width / 2, 40, str(state["number"]))
        page.showPage()
        state["y"], state["number"] = top, state["number"] + 1

    lines = text.replace("\r\n", "\n").split("\n")
    for at, line in enumerate(lines):
        if breaks.get(line) == "before" or (at and breaks.get(lines[at - 1]) == "after"):
            new_page()
        if not line:
            state["y"] -= leading / 2
            continue
        for piece in simpleSplit(line, "Times-Roman", size, width - 2 * left) or [""]:
            if state["y"] < bottom:
                new_page()
            page.setFont("Times-Roman", size)
            page.drawString(left, state["y"], piece)
            state["y"] -= leading
    new_page()
    page.save()
    return buffer.getvalue()
