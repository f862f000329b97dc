"""Decoding: BOMs, UTF-8, cp1252, Mac Roman, card-name bytes, line endings, garbling."""

import pytest
from rulesarchive.scraper.decode import decode_bytes
from rulesarchive.scraper.errors import InputError


def test_utf8_bom_is_removed():
    assert decode_bytes("\ufeffRule 100.1 – dash".encode()).text == "Rule 100.1 – dash"


@pytest.mark.parametrize("codec,bom", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")])
def test_utf16_with_bom(codec, bom):
    decoded = decode_bytes(bom + "player’s “turn”".encode(codec))
    assert decoded.text == "player’s “turn”"
    assert decoded.encoding == f"{codec} (BOM)"


def test_utf16_without_bom_needs_strong_evidence():
    assert decode_bytes("plain ascii text".encode("utf-16-le")).encoding == "utf-16-le (no BOM)"
    with pytest.raises(InputError, match="NUL"):
        decode_bytes(b"abc\x00\x01\x02defgh\x00")


def test_even_length_cp1252_is_not_mistaken_for_utf16():
    decoded = decode_bytes("Don’t".encode("cp1252"))
    assert (decoded.text, decoded.encoding) == ("Don’t", "cp1252")


def test_plain_ascii_is_reported_as_ascii():
    assert decode_bytes(b"100.1. Rules").encoding == "ascii"


def test_mac_roman_typography_is_detected():
    decoded = decode_bytes("player’s “card” — it’s Magic™".encode("mac_roman"))
    assert decoded.text == "player’s “card” — it’s Magic™"
    assert decoded.encoding == "mac-roman"


@pytest.mark.parametrize(
    "raw,expected",
    [
        (b"Dand\x83n, El-Hajj\x83j", "Dandân, El-Hajjâj"),  # cp437 bytes (2006-07-15, 2013)
        (b"El-Hajj\x89j", "El-Hajjâj"),  # Mac Roman byte (2006-10-01 .. 2007-09-07)
        (b"Jun\xa3n Efreet, Juz\xa0m Djinn", "Junún Efreet, Juzám Djinn"),
        (b"Ring of Ma'r\x96f, \x92ther Storm", "Ring of Ma'rûf, Æther Storm"),
    ],
)
def test_card_name_bytes_from_other_code_pages_are_repaired(raw, expected):
    decoded = decode_bytes(raw + b" \x93quoted\x94")
    assert decoded.text == expected + " “quoted”"
    assert decoded.repairs


def test_cp1252_range_dash_between_letters_is_kept():
    assert decode_bytes(b"rules 702.1a\x96g and \x93x\x94").text == "rules 702.1a–g and “x”"


def test_unknown_word_with_wrong_code_page_byte_is_refused():
    with pytest.raises(InputError, match="garbled"):
        decode_bytes(b"Unknown Card Ab\x83cd \x93x\x94")


@pytest.mark.parametrize("text", ["player’s â€™turn", "caf\ufffd", "Ã©t\u00e9 mojibake"])
def test_mojibake_and_replacement_characters_are_refused(text):
    with pytest.raises(InputError, match="garbled"):
        decode_bytes(text.encode())


@pytest.mark.parametrize(
    "raw,text",
    [
        (b"a\r\nb\r\n", "a\nb\n"),
        (b"a\rb\r", "a\nb\n"),
        (b"a\nb\n", "a\nb\n"),
        (b"a\rb\r\r\nHeading\r", "a\nb\n\nHeading\n"),
    ],
)
def test_line_endings_become_lf(raw, text):
    assert decode_bytes(raw).text == text


def test_mixed_cr_crlf_heading_form_keeps_blank_line():
    assert decode_bytes(b"last rule.\r\r\nGlossary\r").text == "last rule.\n\nGlossary\n"


def test_damaged_utf16_without_bom_is_named_as_such():
    text = ("100.1. A rule text here. " * 400).encode("utf-16-le")
    assert decode_bytes(text).encoding == "utf-16-le (no BOM)"
    one_byte_lost = text[:15001] + text[15002:]
    every_300 = b"".join(text[at : at + 300] for at in range(0, len(text), 301))
    for damaged in (one_byte_lost, every_300):
        with pytest.raises(InputError, match="damaged UTF-16 text without a byte-order mark"):
            decode_bytes(damaged)
    with pytest.raises(InputError, match="binary data"):
        decode_bytes(bytes(range(256)) * 10)
