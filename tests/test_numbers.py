"""Rule numbers: one spelling of their shape, rule order, parents, and what uses the shape."""

import re

import pytest
from rulesarchive.corpus.numbers import (
    CHAPTER,
    NUMBER,
    RULE,
    RULE_NUMBER,
    SECTION,
    cited_numbers,
    nearest_numbers,
    parent_of,
    parse_citations,
    rule_sort_key,
    typed_number,
)
from rulesarchive.differ.align import compact_ranges
from rulesarchive.differ.texts import only_references

SAMPLES = ["7", "70", "702", "7020", "702.19", "702.19b", "704.5aa", "702.19abc", "702.b", "1.5"]


def test_numbers_sort_in_rule_order_not_string_order():
    numbers = [
        "100.10",
        "100.2",
        "100.1a",
        "100.1",
        "702.190",
        "702.19b",
        "702.19",
        "704.5z",
        "704.5aa",
    ]
    assert sorted(numbers, key=rule_sort_key) == [
        "100.1",
        "100.1a",
        "100.2",
        "100.10",
        "702.19",
        "702.19b",
        "702.190",
        "704.5z",
        "704.5aa",
    ]


def test_parents():
    assert parent_of("702.19b") == "702.19"
    assert parent_of("702.19") == "702"
    assert parent_of("702") is None


def test_pieces_spell_sections_chapters_rules_and_sub_rules():
    def shapes(piece: str) -> list[str]:
        return [number for number in SAMPLES if re.fullmatch(piece, number)]

    assert shapes(SECTION) == ["7"]
    assert shapes(CHAPTER) == ["702"]
    assert shapes(RULE) == ["702.19"]
    assert shapes(NUMBER) == ["702.19", "702.19b", "704.5aa"]
    assert shapes(RULE_NUMBER.pattern) == ["702", "702.19", "702.19b", "704.5aa"]
    assert RULE_NUMBER.fullmatch("704.5aa").groups() == ("704", "5", "aa")  # type: ignore[union-attr]


def test_parent_of_agrees_with_the_pattern():
    # parent_of uses string operations for speed; it must accept exactly what NUMBER does.
    assert [n for n in SAMPLES if parent_of(n) is not None] == [
        n for n in SAMPLES if re.fullmatch(NUMBER, n)
    ]


# Two-letter sub-rules: no release has one yet, but 704.5 reached 'z' in 2025, so the next
# would be 704.5aa. These read it as one letter, or not at all, before the shared pattern.
def test_a_citation_of_a_two_letter_sub_rule_is_the_whole_number():
    assert cited_numbers("See rule 704.5aa and 704.5z.") == ["704.5aa", "704.5z"]


def test_a_run_of_moved_sub_rules_goes_on_past_z():
    moves = [("704.5x", "704.5y"), ("704.5y", "704.5z"), ("704.5z", "704.5aa")]
    assert compact_ranges(moves) == [("704.5x–704.5z", "704.5y–704.5aa")]


def test_a_range_ending_in_two_letters_is_renumbered_as_a_whole():
    moved = {"704.5y": "704.5z", "704.5z": "704.5aa", "704.5aa": "704.5ab"}
    assert only_references("See rules 704.5y-aa.", "See rules 704.5z-ab.", moved)


def test_a_range_to_the_end_of_its_list_grows_with_a_rule_moved_into_the_list():
    kept = {number: number for number in ("301.5", "301.5a", "301.5b", "301.5c", "301.5d")}
    moved = kept | {"301.6": "301.6", "301.7": "301.5e"}
    assert only_references("Rules 301.5a-d apply.", "Rules 301.5a-e apply.", moved)
    # a range that stopped short of its list's end does not grow
    shorter = moved | {"301.5e": "301.5e", "301.7": "301.5f"}
    assert not only_references("Rules 301.5a-d apply.", "Rules 301.5a-e apply.", shorter)


def test_a_citation_spells_out_its_first_number_and_a_range_end_written_in_full():
    text = "See rules 702.19b–d, 903.6–903.11, rules 306–311 and 111, and 119.7–8."
    spelled = [
        [(text[a:b], number) for a, b, number in citation.spans]
        for citation in parse_citations(text)
    ]
    assert spelled == [
        [("702.19b", "702.19b")],
        [("903.6", "903.6"), ("903.11", "903.11")],
        [("306", "306"), ("311", "311")],
        [("111", "111")],
        [("119.7", "119.7")],
    ]
    assert cited_numbers(text) == ["702.19b", "903.6", "903.11", "119.7"]


@pytest.mark.parametrize(
    ("typed", "number"),
    [
        ("CR 702.19B", "702.19b"),
        ("rule 400.6.", "400.6"),
        ("Rules 100.1a", "100.1a"),
        ("  702. 19 ", "702.19"),
        ("CR702.19", "702.19"),
        (" 704 ", "704"),
        ("7", "7"),
        ("crap", None),
        ("702.19.3", None),
        ("", None),
    ],
)
def test_a_typed_number_is_read_as_the_site_reads_it(typed, number):
    assert typed_number(typed) == number


def test_the_nearest_numbers_are_the_ones_in_use_on_either_side():
    numbers = ["399.9", "400.1", "400.11", "401.1"]
    assert nearest_numbers("400.66", numbers) == ["400.11", "401.1"]
    assert nearest_numbers("100.1", numbers) == ["399.9"]
    assert nearest_numbers("999.1", numbers) == ["401.1"]


def test_korean_citations_after_the_word_for_rule_and_before_the_word_for_section():
    def cited(text: str) -> list[tuple[str, ...]]:
        return [citation.numbers for citation in parse_citations(text)]

    # 규칙 (rule) leads a list joined by 와/과 (and, glued to the number), 및 (and), 또는 (or)
    assert cited("규칙 708 '뒷면 상태의 주문 및 지속물'을 참조하세요.") == [("708",)]
    assert cited("규칙 704와 705, 규칙 306 또는 311을 따릅니다.") == [
        ("704",),
        ("705",),
        ("306",),
        ("311",),
    ]
    assert cited("규칙 601.2b와 601.2e-h를 따릅니다.") == [("601.2b",), ("601.2e", "601.2h")]
    # N절 (section N), with its title as every release writes it
    assert cited('8절 "Multiplayer Rules."을 보세요. (6절, "Spells."을 보세요)') == [("8",), ("6",)]
    # numbers that are no citations: seven cards (장), a step (절차), a quantity after 과
    assert cited("카드 7장을 뽑습니다. 4절차를 거칩니다. 생물 3과 4") == []


def test_a_list_member_written_as_its_letter_cites_the_sub_rule_it_names():
    text = "The instructions in rules 608.3a and b are always performed, as rule 506.4c, and a"
    cited = [(c.written, c.first) for c in parse_citations(text)]
    # 'b' follows on from 608.3a: 608.3b; 'a' after 506.4c is a word
    assert cited == [("608.3a", "608.3a"), ("b", "608.3b"), ("506.4c", "506.4c")]
    assert parse_citations(text)[1].spans == ()  # nothing spelled out for a renumbering
    assert [(c.written, c.first) for c in parse_citations("rules 702.5a, b, and c")][1:] == [
        ("b", "702.5b"),
        ("c", "702.5c"),
    ]


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        # IPG 2013-02-08, MTR 2009-07-01, 2006-12-20, 2014-02-07; IPG 2001-11-01
        ("rules (MTR section 4.3) may also apply", [("4.3", "mtr")]),
        ("considered Bribery (see section 5.2).", [("5.2", "")]),
        ("in the Magic Comprehensive rules, Section 101.4)", [("101.4", "cr")]),
        ("the Magic Comprehensive Rules (see section 606.6a).", [("606.6a", "cr")]),
        ("Refer to section 4.1 of the Magic Tournament Rules for", [("4.1", "mtr")]),
        ("as described in section 2.1 of the IPG.", [("2.1", "ipg")]),
        ("a trigger (CR 603.2) is put", [("603.2", "cr")]),
        ("(see the Universal Tournament Rules, section 18)", [("18", "utr")]),
        ("as described in Section 104.", [("104", "")]),
        ("See rule 702.19b and section 5.", [("702.19b", ""), ("5", "")]),
    ],
)
def test_a_tournament_documents_citations_name_the_document_they_cite(text, cited):
    assert [(c.first, c.doc) for c in parse_citations(text, documents=True)] == cited


def test_a_comprehensive_rules_text_names_no_other_document():
    text = "see rule 702.19b and section 3.4 of the Tournament Rules (MTR 4.3)"
    assert [(c.first, c.doc) for c in parse_citations(text)] == [("702.19b", "")]
