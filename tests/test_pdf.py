"""PDF text: page breaks and box gaps undone, decompression bombs refused."""

import io
import zlib

import pytest
from pypdf import PdfWriter
from pypdf.generic import NameObject, StreamObject
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.errors import InputError
from rulesarchive.scraper.ingest import ingest_bytes
from rulesarchive.scraper.pdf import pdf_text, tidy_pdf_text

from tests.documents import release_to_pdf, text_to_docx, text_to_pdf
from tests.samples import modern_text


def test_a_page_break_inside_a_paragraph_joins_its_lines():
    text = "A Legend that changes type is no longer\n\n\x0cand is subject to the Legend rule.\n"
    assert tidy_pdf_text(text) == (
        "A Legend that changes type is no longer\nand is subject to the Legend rule.\n"
    )


def test_a_term_after_a_page_break_keeps_its_definition_and_its_own_paragraph():
    text = "See rule 310.\n\nCombat Phase\n\n\x0cCombat is the third phase of the turn.\n"
    assert tidy_pdf_text(text) == (
        "See rule 310.\n\nCombat Phase\nCombat is the third phase of the turn.\n"
    )


def test_the_gap_before_an_example_is_not_a_new_entry():
    text = "“As though”\nTreat the game normally.\n\nExample: “Giant Spider may block.”\n"
    assert tidy_pdf_text(text) == (
        "“As though”\nTreat the game normally.\nExample: “Giant Spider may block.”\n"
    )


def test_rules_and_headings_start_paragraphs_and_marks_lose_their_space():
    text = "end of a rule\n\n101.2. The next rule, Unglued ™ and combat );\n\n2. Cards\n"
    assert tidy_pdf_text(text) == (
        "end of a rule\n\n101.2. The next rule, Unglued™ and combat);\n\n2. Cards\n"
    )


def test_spaces_the_glyph_spacing_adds_in_ranges_and_loyalty_costs_go():
    text = "See rules 601.2f– h and 903.6– 903.11. [- 3]: Destroy target creature.\n"
    assert (
        tidy_pdf_text(text)
        == "See rules 601.2f–h and 903.6–903.11. [-3]: Destroy target creature.\n"
    )


def test_a_decompression_bomb_is_refused_by_the_stream_limits():
    writer = PdfWriter()
    writer.add_blank_page(100, 100)
    bomb = StreamObject()
    bomb._data = zlib.compress(b"\0" * 80_000_000)  # 80 MB in 78 kB
    bomb[NameObject("/Filter")] = NameObject("/FlateDecode")
    writer._add_object(bomb)
    buffer = io.BytesIO()
    writer.write(buffer)
    with pytest.raises(InputError, match=r"not a readable PDF file \(LimitReachedError"):
        pdf_text(buffer.getvalue())


def test_many_streams_each_under_the_limit_are_refused_in_all_without_keeping_them():
    # Forty streams of 70 MB (under pypdf's 75 MB each) in a 2.9 MB file: 3 GB kept before.
    writer = PdfWriter()
    writer.add_blank_page(100, 100)
    packed = zlib.compress(b"\0" * 70 * 2**20, 9)
    for _ in range(40):
        stream = StreamObject()
        stream._data = packed
        stream[NameObject("/Filter")] = NameObject("/FlateDecode")
        writer._add_object(stream)
    buffer = io.BytesIO()
    writer.write(buffer)
    assert len(buffer.getvalue()) < 3 * 2**20
    with pytest.raises(InputError, match=r"its streams unpack to more than 256 MB"):
        pdf_text(buffer.getvalue())


def test_the_pdf_and_docx_of_one_release_ingest_as_the_same_release(tmp_path):
    archive = Archive(tmp_path)
    text = modern_text()
    assert ingest_bytes(archive, text_to_docx(text), "cr.docx").status == "added"
    # Wherever the lines wrap and the pages break. (Under 85 characters the sample, whose rules
    # are short, no longer looks hard-wrapped to the parser: real documents' rules are long.)
    for width in (85, 95, 110):
        pdf = ingest_bytes(archive, text_to_pdf(text, width), "cr.pdf")
        assert pdf.status == "unchanged", pdf.message
        assert "same text as cr.docx" in pdf.message
    # The TXT of one text is kept before the DOCX, in any order.
    txt = ingest_bytes(archive, text.encode(), "cr.txt")
    assert txt.status == "replaced" and "same text as cr.docx" in txt.message


def test_a_real_release_as_pdf_and_docx_is_the_document_of_its_txt(shared_archive, tmp_path):
    # The archive has no PDF and DOCX of one release: make them from a real TXT, the PDF laid
    # out as Wizards' are (wrapped at the margin, running header, page numbers) with page
    # breaks in the glossary before a term, after a term and inside an entry's meanings.
    source = (shared_archive / "en" / "2014-02-01.txt").read_bytes()
    text = source.decode("cp1252").replace("\r\n", "\n")  # as Wizards stored it
    meaning = next(line for line in text.split("\n") if line.startswith("1. A zone. A player"))
    breaks = {"Hand": "before", "Haste": "after", meaning: "after"}
    archive = Archive(tmp_path)
    stored = ingest_bytes(archive, source, "cr.txt")
    assert stored.status == "added"
    for name, data in (("cr.docx", text_to_docx(text)), ("cr.pdf", release_to_pdf(text, breaks))):
        outcome = ingest_bytes(archive, data, name)
        assert outcome.status == "unchanged" and "same text as cr.txt" in outcome.message, name
    document = archive.load(stored.release)
    hand = next(entry for entry in document.glossary if entry.term == "Hand")
    assert hand.text.count("\n") == 2  # two meanings and the citation, each on its own line
