"""Hostile files that amplify inside the size limit, each made here by a small generator: each
is refused in one line naming it, and the batch's other files are stored."""

from __future__ import annotations

import io
import os
import random
import struct
import zipfile
import zlib

import pytest
from click.testing import CliRunner
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper import pdf
from rulesarchive.scraper.ingest import ingest_bytes, ingest_paths
from rulesarchive.system import processes

from rulesarchive.cli import main
from tests.documents import pdf_of_objects, text_to_docx
from tests.samples import modern_text

DATES = ["November 8, 2024", "February 7, 2025", "April 4, 2025"]

pytestmark = pytest.mark.skipif(not processes._BOUNDED, reason="rlimits and CPU timers are Linux's")


def _batch(tmp_path, name: str, hostile: bytes) -> list[str]:
    """Ingest the hostile file between good ones; return its one line, after checking the rest."""
    paths = [tmp_path / f"{at}.txt" for at in range(len(DATES))]
    for path, date in zip(paths, DATES, strict=True):
        path.write_text(modern_text(date=date))
    (tmp_path / name).write_bytes(hostile)
    paths.insert(1, tmp_path / name)
    archive = Archive(tmp_path / "archive")
    outcomes = ingest_paths(archive, paths)
    assert [o.status for o in outcomes] == ["added", "failed", "added", "added"]
    assert len(archive.releases("en")) == len(DATES)
    message = outcomes[1].message
    assert "\n" not in message
    assert message.startswith(f"{tmp_path / name}: ")
    return message


def _stream(data: bytes, flate: bool = False) -> bytes:
    extra = b" /Filter /FlateDecode" if flate else b""
    return b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(data), extra, data)


def _page_pdf(content: bytes, extra: list[bytes] = ()) -> bytes:
    """A one-page PDF drawing `content` in Helvetica (objects 1-4), then `extra` objects."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    page = (
        b"<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 1 0 R >> >> /Contents 2 0 R >>"
    )
    pages = b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>"
    objects = [font, _stream(content), pages, page, *extra, b"<< /Type /Catalog /Pages 3 0 R >>"]
    return pdf_of_objects(objects, len(objects))


def flate_bomb_pdf(streams: int = 40, size: int = 70 * 10**6) -> bytes:
    """The issue's 2.9 MB PDF: `streams` Flate streams of zeros, each under pypdf's 75 MB."""
    packed = zlib.compress(bytes(size), 9)
    return _page_pdf(b"BT /F1 10 Tf 40 700 Td (x) Tj ET", [_stream(packed, True)] * streams)


def scattered_words_pdf(words: int = 2000) -> bytes:
    """The issue's 14 KB page: words at scattered places, which pdfminer's layout takes long on."""
    place = random.Random(29)
    shown = b"".join(
        b"BT /F1 %d Tf %d %d Td (w%d) Tj ET\n"
        % (place.randint(4, 14), place.randint(0, 600), place.randint(0, 780), at)
        for at in range(words)
    )
    return _page_pdf(shown)


def understated_docx(inflated: int = 600 * 2**20) -> bytes:
    """A DOCX whose document.xml says it is 200 bytes (with those bytes' CRC) but inflates to
    `inflated` bytes: every other part as Word writes it, stored."""
    with zipfile.ZipFile(io.BytesIO(text_to_docx("x"))) as real:
        parts = {info.filename: real.read(info) for info in real.infolist()}
    head = b'<?xml version="1.0"?><w:document xmlns:w="x"><w:body>'
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = 2**20
    start = packer.compress(head) + packer.flush(zlib.Z_FULL_FLUSH)
    # After a full flush the packer starts afresh: one packed chunk of spaces stands for all.
    spaces = packer.compress(b" " * chunk) + packer.flush(zlib.Z_FULL_FLUSH)
    packed = start + spaces * (inflated // chunk) + packer.flush()
    declared = head + b" " * (200 - len(head))
    return _zip(parts, "word/document.xml", packed, declared)


def _zip(parts: dict[str, bytes], liar: str, packed: bytes, declared: bytes) -> bytes:
    """Write a zip by hand: `parts` stored, except `liar`, deflated from `packed`, whose headers
    give the size and CRC of `declared`."""
    out, directory = bytearray(), bytearray()
    for name, data in parts.items():
        method, body, told = (8, packed, declared) if name == liar else (0, data, data)
        fixed = struct.pack(
            "<HHHHHIII", 20, 0, method, 0, 0, zlib.crc32(told), len(body), len(told)
        )  # version, flags, method, time, date, crc, packed size, size
        encoded = name.encode()
        directory += b"PK\x01\x02" + struct.pack("<H", 20) + fixed
        directory += struct.pack("<HHHHHII", len(encoded), 0, 0, 0, 0, 0, len(out)) + encoded
        out += b"PK\x03\x04" + fixed + struct.pack("<HH", len(encoded), 0) + encoded + body
    end = struct.pack("<HHHHIIH", 0, 0, len(parts), len(parts), len(directory), len(out), 0)
    return bytes(out + directory + b"PK\x05\x06" + end)


def minimal_rules_txt(lines: int) -> bytes:
    """The issue's 28 MB TXT: nothing but the shortest rule lines."""
    return b"".join(b"%d.%d a\n" % (100 + at // 9000 % 800, at % 9000) for at in range(lines))


def test_a_pdf_of_flate_streams_unpacking_to_gigabytes_is_refused(tmp_path):
    hostile = flate_bomb_pdf()
    assert len(hostile) < 3 * 2**20
    message = _batch(tmp_path, "bomb.pdf", hostile)
    assert message.endswith(
        f"bomb.pdf: its streams unpack to more than {pdf.MAX_UNPACKED // 2**20} MB "
        "(a decompression bomb, not a rules document)"
    )


def test_a_docx_understating_a_part_is_read_in_bounded_chunks(tmp_path, monkeypatch):
    # Trusted, the header's 200 bytes would be inflated to 600 MB at once: past this bound.
    monkeypatch.setattr(processes, "MEMORY_LIMIT", 300 * 2**20)
    hostile = understated_docx()
    assert len(hostile) < 2 * 2**20
    message = _batch(tmp_path, "liar.docx", hostile)
    # Only the 200 bytes said are read (a document cut short), not 600 MB (MemoryError).
    assert "liar.docx: not a readable DOCX file (XMLSyntaxError: Premature end" in message


def test_a_page_of_scattered_words_is_stopped_by_the_time_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(processes, "TIME_LIMIT", 1)
    hostile = scattered_words_pdf()
    assert len(hostile) < 80_000
    message = _batch(tmp_path, "words.pdf", hostile)
    assert message.endswith(
        "words.pdf: refused: reading it took more than 1 s of CPU time "
        "(a rules document takes a few seconds)"
    )


def test_a_text_of_minimal_rule_lines_is_stopped_by_the_time_bound(tmp_path, monkeypatch):
    monkeypatch.setattr(processes, "TIME_LIMIT", 1)
    message = _batch(tmp_path, "lines.txt", minimal_rules_txt(400_000))
    assert "lines.txt: refused: reading it took more than 1 s of CPU time" in message


def test_a_scraped_document_is_read_under_the_same_bounds(tmp_path, monkeypatch):
    # The scraper stores what it fetched through ingest_bytes: read in a bounded worker too.
    monkeypatch.setattr(processes, "TIME_LIMIT", 1)
    archive = Archive(tmp_path / "archive")
    outcome = ingest_bytes(archive, scattered_words_pdf(), "words.pdf")
    assert (outcome.status, outcome.message) == (
        "failed",
        "words.pdf: refused: reading it took more than 1 s of CPU time "
        "(a rules document takes a few seconds)",
    )
    assert ingest_bytes(archive, modern_text().encode(), "cr.txt").status == "added"


def test_a_named_pipe_is_refused_not_waited_on(tmp_path):
    """Opening a FIFO waits for a writer: for ever, given `*` in a folder holding one."""
    pipe, good = tmp_path / "pipe.txt", tmp_path / "good.txt"
    os.mkfifo(pipe)
    good.write_text(modern_text(date=DATES[0]))
    outcomes = ingest_paths(Archive(tmp_path / "archive"), [pipe, good])
    assert [o.status for o in outcomes] == ["failed", "added"]
    assert outcomes[0].message == f"{pipe}: a named pipe, not a file: give a file"


def test_a_file_name_with_control_characters_is_one_escaped_line(tmp_path):
    """A newline would make two lines of one file's; ESC would drive the terminal."""
    bad = tmp_path / "two\nlines\x1b[2J.txt"
    bad.write_text("no rules here\n")
    result = CliRunner().invoke(main, ["--archive", str(tmp_path / "archive"), "ingest", str(bad)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: {tmp_path}/two\\x0alines\\x1b[2J.txt: no numbered rules found: "
        "not a Comprehensive Rules document"
    ]
