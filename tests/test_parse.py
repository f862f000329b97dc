"""Parsing both eras into rules, examples, headings, glossary and credits."""

import datetime as dt

import pytest
from rulesarchive.scraper.integrity import find_damage
from rulesarchive.scraper.parse import (
    detect_language,
    find_effective_date,
    is_hard_wrapped,
    parse_document,
)

from tests.samples import korean_text, modern_text, old_era_text


def test_modern_document_parts():
    document = parse_document(modern_text())
    assert document.effective_date == dt.date(2024, 11, 8)
    assert document.language == "en"
    assert document.introduction.startswith("This document is the ultimate authority")
    assert document.contents[:2] == ("1. Game Concepts", "100. General")
    assert [h.number for h in document.headings] == ["1", "100", "4", "400"]
    assert document.credits.startswith("Comprehensive Rules Design")
    assert find_damage(document) == []


def test_a_chapter_left_blank_is_a_heading_not_the_end_of_the_rule_before():
    blank = (
        "211. [This section has been intentionally left blank to preserve the ordering of "
        "other rules.]"
    )
    text = old_era_text().replace("217. Zones\n\n217.1.", f"{blank}\n\n217. Zones\n\n217.1.", 1)
    document = parse_document(text)
    assert [h.number for h in document.headings][-3:] == ["2", "211", "217"]
    assert document.headings[-2].title.startswith("[This section has been intentionally left")
    assert not [rule.number for rule in document.rules if "left blank" in rule.text]


def test_examples_belong_to_their_rule():
    rule = parse_document(modern_text()).rule("400.7")
    assert rule.text == "An object that moves from one zone to another becomes a new object."
    assert rule.examples == (
        "A player casts “Giant Growth” targeting a creature.",
        "A second example for rule 400.7.",
    )


def test_glossary_numbered_senses_stay_with_their_term():
    glossary = parse_document(modern_text()).glossary
    assert [entry.term for entry in glossary][:3] == ["Ability", "Non-Aura Card", "Sample Term 0"]
    assert glossary[0].text.splitlines()[:2] == [
        "1. Text on an object that explains what that object does or can do.",
        "2. An activated or triggered ability on the stack. This kind of ability is an object.",
    ]


def test_numbered_meanings_after_blank_lines_stay_in_one_entry():
    # 1999-11-01 and 2003-05-26 separate a term's numbered meanings by blank lines.
    glossary_block = (
        "Glossary\n\nCounter\nCounter has two meanings in the Magic game.\n\n"
        "1. To counter a spell or ability is to cancel it.\n\n"
        "2. A counter is a marker placed on a permanent.\n\nCounts As\nSome older cards.\n\n"
    )
    text = modern_text().replace("Glossary\n\n", glossary_block, 1)
    glossary = parse_document(text).glossary
    assert [entry.term for entry in glossary][:2] == ["Counter", "Counts As"]
    assert glossary[0].text.splitlines() == [
        "Counter has two meanings in the Magic game.",
        "1. To counter a spell or ability is to cancel it.",
        "2. A counter is a marker placed on a permanent.",
    ]


def test_a_term_glued_to_its_first_meaning_is_repaired_and_noted():
    # 2021-06-18 prints "Ability1. Text on an object…" (and ten more terms alike).
    text = modern_text().replace("Ability\n1. Text", "Ability1. Text", 1)
    document = parse_document(text)
    assert document.glossary[0].term == "Ability"
    assert document.glossary[0].text.startswith("1. Text on an object")
    assert "typo: glossary term 'Ability' glued to its meaning 1" in document.notes


def test_old_era_sub_rules_and_indented_glossary_continuations():
    document = parse_document(old_era_text())
    assert document.effective_date == dt.date(2008, 10, 1)
    assert document.rule("217.1d").text.endswith("its owner looks at it.")
    assert document.rule("217.1").text == "General"
    ability = document.glossary[0]
    assert ability.term == "Ability"
    assert ability.text.split("\n")[1].startswith("The general categories")


def test_typo_stray_period_after_letter():
    text = modern_text().replace("400.7a Effects", "400.7a. Effects")
    document = parse_document(text)
    assert document.rule("400.7a").text.startswith("Effects")
    assert any("stray period" in note for note in document.notes)


def test_typo_space_inside_number():
    text = modern_text().replace("400.7a Effects", "400. 7a Effects")
    document = parse_document(text)
    assert document.rule("400.7a") is not None
    assert any("read as 400.7a" in note for note in document.notes)


def test_typo_rule_left_out_of_a_sub_rule_number():
    # 1999-11-01 prints '408.f' and '408.g' after 408.2e
    text = modern_text().replace("400.7a Effects", "400.7a First.\n\n400.b Effects")
    document = parse_document(text)
    assert document.rule("400.7a").text == "First."
    assert document.rule("400.7b").text.startswith("Effects")
    assert "typo: '400.b' read as 400.7b" in document.notes


def test_out_of_sequence_sub_rule_is_renumbered_and_noted():
    text = modern_text().replace("400.7a Effects", "400.7a First.\n\n400.6b Effects")
    document = parse_document(text)
    assert document.rule("400.7b").text == (
        "Effects that change the characteristics of a permanent spell continue to apply."
    )
    assert any("'400.6b' out of sequence, read as 400.7b" in note for note in document.notes)


def test_missing_space_after_number():
    document = parse_document(modern_text().replace("400.1. A zone", "400.1.A zone"))
    assert document.rule("400.1").text.startswith("A zone")


def test_hard_wrapped_paragraphs_are_rejoined():
    wrapped = "\n".join(
        [
            "100. General",
            "",
            "100.1. These rules apply to any game with two or more players, and they are",
            "long enough to wrap at a fixed width like the 1999-2004 files. Snow-",
            "Covered lands are lands.",
            "",
            "100.2. Short rule.",
        ]
        + [
            f"filler line {n} of a wrapped document, short enough to look wrapped."
            for n in range(60)
        ]
    )
    lines = wrapped.split("\n")
    assert is_hard_wrapped(lines)
    document = parse_document("1. The Game\n\n" + wrapped)
    assert document.rule("100.1").text.endswith(
        "fixed width like the 1999-2004 files. Snow-Covered lands are lands."
    )


def test_damage_is_found():
    cut = modern_text(footer=False).rstrip()[:-20]
    problems = find_damage(parse_document(cut))
    assert "ends early: no glossary" in problems
    assert any("cut mid-sentence" in problem for problem in problems)
    assert any("only 4 rules" in p for p in find_damage(parse_document(modern_text(filler=1))))


def test_effective_dates_in_english_and_chinese():
    assert find_effective_date("These rules are current as of April 23, 1999.") == dt.date(
        1999, 4, 23
    )
    assert find_effective_date("此规则于2024年11月8日起生效。") == dt.date(2024, 11, 8)
    assert detect_language("此规则于2024年11月8日起生效。规则") == "zh-Hans"
    assert find_effective_date("이 규칙은 2017년 1월 20일부터 시행됩니다.") == dt.date(2017, 1, 20)
    assert detect_language("이 규칙은 2017년 1월 20일부터 시행됩니다.") == "ko"


def test_a_few_hangul_letters_do_not_make_an_english_text_korean():
    assert detect_language(modern_text() + "\n매직 " * 20) == "en"


def test_korean_document_parts():
    document = parse_document(korean_text())
    assert document.language == "ko"
    assert document.effective_date == dt.date(2021, 11, 19)
    assert document.title == "매직: 더 개더링 종합 규칙서"
    assert document.introduction == "이 문서는 시험을 위해 쓴 작은 규칙서입니다."
    # the contents give the English title after the Korean; the body headings as printed
    assert document.contents[:2] == ("1. 게임의 컨셉 Game Concepts", "100. 일반 General")
    assert [(h.number, h.title) for h in document.headings] == [
        ("1", "게임의 컨셉"),
        ("100", "일반"),
        ("4", "구역"),
        ("400", "일반"),
    ]
    example = "한 플레이어가 생물을 목표로 Giant Growth를 발동합니다."
    assert document.rule("400.7").examples == (example,)


def test_a_korean_number_glued_to_its_text_is_read():
    document = parse_document(korean_text())
    assert document.rule("100.319a").text == "생물은 전장에 있는 지속물입니다."
    assert "typo: no space after '100.319a.'" in document.notes


def test_an_omitted_glossary_is_no_damage():
    document = parse_document(korean_text())
    assert document.glossary == () and document.glossary_omitted
    assert "glossary omitted by the translator ('<생략>')" in document.notes
    assert document.credits == "유한회사 위자드 오브 더 코스트에 의해 발행됨. 시험용 문장입니다."
    assert find_damage(document) == []
    # a glossary heading with nothing under it is still a document that ends early
    cut = parse_document(korean_text().split("<생략>")[0])
    assert not cut.glossary_omitted and "ends early: no glossary" in find_damage(cut)


def _numbers_read(printed: list[str]) -> list[str]:
    lines = [f"{number} 규칙입니다." for number in printed]
    text = "이 규칙은 2021년 11월 19일부터 시행됩니다.\n\n" + "\n\n".join(lines)
    return [rule.number for rule in parse_document(text).rules]


@pytest.mark.parametrize(
    ("printed", "meant"),
    [
        pytest.param(  # ko 2016-11-11 to 2018-08-10
            ["201.1.", "201.2.", "201.3a", "201.3b", "201.3c", "201.3.", "201.3a"],
            ["201.1", "201.2", "201.2a", "201.2b", "201.2c", "201.3", "201.3a"],
            id="sub-rules under the next number, printed before it",
        ),
        pytest.param(  # ko 2017-01-20 to 2019-10-04
            ["702.102.", "702.102a", "702.102b", "702.105c", "702.105d", "702.103.", "702.105."],
            ["702.102", "702.102a", "702.102b", "702.102c", "702.102d", "702.103", "702.105"],
            id="sub-rules under another group",
        ),
        pytest.param(  # ko 2016-11-11 to 2021-02-15
            ["702.22.", "702.22a", "702.212", "702.22c", "702.23."],
            ["702.22", "702.22a", "702.22b", "702.22c", "702.23"],
            id="a digit for a letter",
        ),
        pytest.param(  # ko 2021-11-19: never 720.86, in the middle of chapter 702
            ["702.86.", "702.86a", "702.86", "702.87.", "702.87a"],
            ["702.86", "702.86a", "702.86b", "702.87", "702.87a"],
            id="a letter dropped",
        ),
        pytest.param(  # ko 2020-04-17 on
            ["120.4.", "120.4a", "120.4b", "120.4c", "120.4c", "120.5."],
            ["120.4", "120.4a", "120.4b", "120.4c", "120.4d", "120.5"],
            id="a number printed twice",
        ),
        pytest.param(  # ko 2016-11-11 to 2017-09-29
            ["716.4.", "717.1.", "716.1a", "717.2."],
            ["716.4", "717.1", "717.1a", "717.2"],
            id="a sub-rule under the group before",
        ),
        pytest.param(  # en 2021-09-24 prints 724.3a-c with no 724.3: nothing to repair
            ["724.2.", "724.3a", "724.3b", "725.1."],
            ["724.2", "724.3a", "724.3b", "725.1"],
            id="sub-rules whose group is never printed stay",
        ),
    ],
)
def test_the_translators_numbering_slips_are_read_as_meant(printed, meant):
    assert _numbers_read(printed) == meant


def test_a_glossary_term_printed_without_a_blank_line_before_it_is_still_a_term():
    from rulesarchive.scraper.parse import _parse_glossary

    lines = [
        "Adventurer Card",
        "Cards with a two-part card frame. See rule 716, “Adventurer Cards.”",
        "Affinity",
        "A keyword ability that reduces how much mana you need to spend to cast a spell.",
        "",
        "Afflict",
        "A keyword ability.",
    ]
    notes: list[str] = []
    entries = list(_parse_glossary(lines, wrapped=False, notes=notes))
    assert [entry.term for entry in entries] == ["Adventurer Card", "Affinity", "Afflict"]
    assert entries[0].text.endswith("“Adventurer Cards.”")
    assert notes == ["glossary term 'Affinity' read without the blank line before it"]
