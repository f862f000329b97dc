"""The Italian wiki's quoted rules: the page text (seed 002) and the page HTML."""

import datetime as dt
from pathlib import Path

import pytest
from rulesarchive.scraper.errors import InputError
from rulesarchive.scraper.ingest import read_document
from rulesarchive.scraper.wiki import is_wiki_page, parse_wiki

FIXTURES = Path(__file__).parent / "fixtures"


def test_seed_text_layout():
    document = parse_wiki((FIXTURES / "seed_it_616.txt").read_bytes())
    assert document.language == "it" and document.excerpt
    assert document.effective_date == dt.date(2024, 11, 23)
    assert document.set_name == "Fondamenti di Magic: the Gathering"
    assert [rule.number for rule in document.rules][:3] == ["616.1", "616.1a", "616.1b"]
    assert len(document.rule("616.1f").examples) == 2
    assert document.rule("616.1f").examples[1].startswith("Esempio: Essenza del Selvaggio")
    assert document.headings[0].number == "616"


def test_html_page_keeps_slips_and_notes_them():
    document, extracted = read_document((FIXTURES / "it_wiki_616.html").read_bytes(), "page.html")
    assert extracted.format == "wiki"
    assert [rule.number for rule in document.rules].count("616.1e") == 2
    assert document.notes == (
        "slip: 616.2a is not under its rule 616.2",
        "slip: 616.1e appears twice",
    )
    # normalised like every document: the straight quotes stay, the printed text is kept
    assert document.rule("616.2").examples[0].startswith("Esempio: un effetto dice")


def test_a_page_without_its_source_line_is_refused():
    with pytest.raises(InputError, match="Tratto dal Regolamento"):
        parse_wiki(b"<h2>Regolamento</h2><ul><li>616.1. Tratto dal Regolamento</li></ul>")


@pytest.mark.parametrize(
    ("data", "page"),
    [
        (b"<p>Tratto dal Regolamento (Aggiornato a Bloomburrow, 2 agosto 2024)</p>", True),
        (b"x\nTRATTO DAL REGOLAMENTO\n(\taggiornato A Foundations, 15 novembre 2024)", True),
        (b"The pages quote it after 'Tratto dal Regolamento'.", False),
        (b"Tratto dal  Regolamento (Aggiornato a Foundations, 15 novembre 2024)", False),
        ("100.1. Nient’altro".encode(), False),
    ],
)
def test_a_wiki_page_is_told_by_its_source_line_in_any_case(data, page):
    assert is_wiki_page(data) is page
