"""Tournament documents (MTR, IPG): kind, printed date, layout, sections, storage by kind."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter

import pytest
from rulesarchive.corpus.model import DocKind, Document, Provenance, Release, Section, SectionPart
from rulesarchive.corpus.store import (
    Archive,
    document_from_json,
    pack_document,
    release_to_json,
    render_document_json,
    render_rules_text,
    unpack_document,
)
from rulesarchive.scraper.errors import InputError
from rulesarchive.scraper.extract import extract_text
from rulesarchive.scraper.ingest import Overrides, ingest_bytes, read_document
from rulesarchive.scraper.layout import Layout, strip_layout
from rulesarchive.scraper.sections import parse_tournament
from rulesarchive.scraper.tournament import detect_kind, find_printed_date

FULL = "x" * 90  # a full line of the page, for the paragraph joining to measure against

IPG_TEXT = f"""MAGIC INFRACTION PROCEDURE GUIDE
Effective July 22, 2016
CONTENTS
1. General Philosophy ........................................ 3
2. Game Play Errors ........................................... 7
2.1. Game Play Error — Missed Trigger ......................... 7
1. GENERAL PHILOSOPHY
Judges are neutral arbiters and enforcers of policy and rules. A judge shouldn't intervene in a
game unless he or she believes a rules violation has occurred.
2. GAME PLAY ERRORS
Game Play Errors are caused by incorrect or inaccurate play of the game. Players demonstrate
awareness of their triggers.
2.1. Game Play Error — Missed Trigger No Penalty
Definition
A triggered ability triggers, but the player controlling the ability doesn't demon-
strate awareness of the trigger's existence.
Examples
A. Knight of Infamy attacks alone.
B. A player forgets to remove the final time counter.
Philosophy
Triggered abilities are common and invisible.
Additional Remedy
If the triggered ability is a delayed one, the opponent chooses.
Upgrade
{FULL}
"""


def _parse(text: str, kind: DocKind = DocKind.IPG) -> tuple[Document, Counter[str]]:
    counts: Counter[str] = Counter()
    return parse_tournament(strip_layout([text], counts), kind, counts), counts


@pytest.mark.parametrize(
    ("opening", "kind"),
    [
        ("MAGIC: THE GATHERING® TOURNAMENT RULES\nEffective July 23, 2021", DocKind.MTR),
        ("DCI™ PENALTY GUIDELINES\nSee the DCI Universal Tournament Rules", DocKind.IPG),
        ("MAGIC INFRACTION PROCEDURE GUIDE\nSee the Magic Tournament Rules", DocKind.IPG),
        ("Subject: MTG: Official Tournament Rules", DocKind.MTR),
        ("MAGIC: THE GATHERING® DCI™ Floor Rules", DocKind.MTR),
        ("Magic: The Gathering Comprehensive Rules\nsee the Tournament Rules", DocKind.CR),
        ("A shopping list", None),
    ],
)
def test_the_kind_is_the_first_title_the_opening_prints(opening: str, kind: DocKind | None):
    assert detect_kind(opening) == kind


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("TOURNAMENT RULES\nEffective July 23, 2021\n", dt.date(2021, 7, 23)),
        ("Release — March 1, 2008\nEffective — March 20, 2008\n", dt.date(2008, 3, 20)),
        ("DCI FLOOR RULES\nEffective Mar 1, 2008\n", dt.date(2008, 3, 1)),
        ("Effective    September 20, 2007\n", dt.date(2007, 9, 20)),
        ("From: someone\nDate: 26 Jan 94 12:30:31\n\nrules", dt.date(1994, 1, 26)),
        ("Tournament Rules, no date", None),
    ],
)
def test_the_printed_effective_date_is_read(text: str, date: dt.date | None):
    assert find_printed_date(text) == date


def test_page_numbers_running_headers_and_dot_leaders_are_removed_and_counted():
    words = ["alpha", "beta", "gamma", "delta", "epsilon"]
    bodies = [[f"The {word} paragraph, line {line}." for line in range(4)] for word in words]
    pages = [
        "\n".join(
            [f"Tournament Rules — updated {n}", *body, f"Magic Tournament Rules Page {n}", str(n)]
        )
        for n, body in enumerate(bodies, start=1)
    ]
    header, rest = pages[0].split("\n", 1)
    pages[0] = f"{header}\nContents\n1. Fundamentals ........ 2\n1.1 Types ......... 2\n{rest}"
    counts: Counter[str] = Counter()
    lines = strip_layout(pages, counts)
    assert [line for line in lines if line] == [line for body in bodies for line in body]
    assert counts[Layout.PAGE_NUMBERS] == 5
    assert counts[Layout.RUNNING_HEADERS] == 10
    assert counts[Layout.CONTENTS] == 3


def test_a_part_name_at_many_page_edges_is_no_running_header():
    pages = [
        f"Definition\nText of infraction {n}.\nMore.\nAnd more.\nPenalty\nWarning" for n in "abcdef"
    ]
    counts: Counter[str] = Counter()
    assert strip_layout(pages, counts).count("Definition") == 6
    assert not counts[Layout.RUNNING_HEADERS]


def test_contents_without_leaders_end_where_the_body_repeats_their_first_entry():
    text = "GUIDE\nCONTENTS\n10 Format of Infractions\n20 Penalties\n10. FORMAT OF INFRACTIONS\nx"
    counts: Counter[str] = Counter()
    lines = strip_layout([text], counts)
    assert lines == ["GUIDE", "10. FORMAT OF INFRACTIONS", "x"]
    assert counts[Layout.CONTENTS] == 3


def test_usenet_headers_and_the_posters_note_are_no_part_of_the_rules():
    post = "From: a@b\nNewsgroups: rec.games\nDate: 26 Jan 94\n\nHere it is.\n" + "=" * 40
    counts: Counter[str] = Counter()
    assert strip_layout([post + "\nDeck rules:\n"], counts) == ["Deck rules:", ""]
    assert counts[Layout.USENET_HEADERS] == 5


def test_an_infraction_has_its_penalty_and_its_parts_as_addressable_pieces():
    document, counts = _parse(IPG_TEXT)
    assert [s.number for s in document.sections] == ["1", "2", "2.1"]
    trigger = document.sections[2]
    assert trigger.title == "Game Play Error — Missed Trigger"
    assert [part.name for part in trigger.parts] == [
        "Penalty",
        "Definition",
        "Examples",
        "Philosophy",
        "Additional Remedy",
        "Upgrade",
    ]
    definition = document.section("2.1/definition")
    assert isinstance(definition, SectionPart)
    assert definition.paragraphs == (
        "A triggered ability triggers, but the player controlling the ability doesn't "
        "demonstrate awareness of the trigger's existence.",
    )
    assert document.section("2.1/examples").paragraphs == (  # type: ignore[union-attr]
        "A. Knight of Infamy attacks alone.",
        "B. A player forgets to remove the final time counter.",
    )
    assert document.section("2.1/penalty").paragraphs == ("No Penalty",)  # type: ignore[union-attr]
    assert counts[Layout.HYPHENATION] == 1
    assert counts[Layout.CONTENTS] == 4  # 'CONTENTS' and its three entries


def test_a_numbered_list_inside_a_section_is_no_heading():
    text = f"""TOURNAMENT RULES
Effective July 1, 2009
1. Tournament Fundamentals
1.1 Tournament Types
Players must follow these steps:
1. Shuffle the deck
2. Present it
1.2 Registration
Players register. {FULL}
"""
    document, _counts = _parse(text, DocKind.MTR)
    assert [s.number for s in document.sections] == ["1", "1.1", "1.2"]
    assert document.sections[1].paragraphs == (
        "Players must follow these steps:",
        "1. Shuffle the deck",
        "2. Present it",
    )


def test_a_heading_in_the_left_column_keeps_its_title_apart_from_the_text_beside_it():
    text = f"""PENALTY GUIDELINES
Effective November 1, 2001
10. FORMAT OF INFRACTIONS
{FULL}
20. DEFINITION OF PENALTIES
{FULL}
30. APPLYING PENALTIES The DCI Penalty Guidelines apply to every game the DCI sanctions.
"""
    document, _counts = _parse(text)
    applying = document.section("30")
    assert isinstance(applying, Section)
    assert applying.title == "APPLYING PENALTIES"
    assert applying.paragraphs[0].startswith("The DCI Penalty Guidelines apply")


def test_a_file_named_pdf_holding_a_download_log_is_refused_in_one_line():
    log = b"--2020-04-25 11:01:39--  https://example.org/mtr.pdf\nResolving example.org\n"
    with pytest.raises(InputError, match=r"named \.pdf but holds no PDF") as raised:
        extract_text(log, "mtr-2020-04-17.pdf")
    assert "\n" not in str(raised.value)


def test_a_tournament_document_round_trips_through_its_json_and_packed_forms():
    document, _counts = read_document(IPG_TEXT.encode(), "ipg.txt", Overrides())
    assert document.kind == DocKind.IPG
    assert document.effective_date == dt.date(2016, 7, 22)
    assert document_from_json(json.loads(render_document_json(document))) == document
    assert unpack_document(pack_document(document)) == document
    assert "2.1 Philosophy: Triggered abilities are common and invisible." in (
        render_rules_text(document)
    )


def test_typography_is_normalised_in_sections_and_the_printed_text_kept():
    document, _ = read_document(IPG_TEXT.encode(), "ipg.txt", Overrides())
    definition = document.section("2.1/definition")
    assert isinstance(definition, SectionPart)
    assert definition.paragraphs[0].endswith(
        "doesn't demonstrate awareness of the trigger's existence."
    )
    assert document.section("2.1").title == "Game Play Error—Missed Trigger"  # type: ignore[union-attr]
    assert dict(document.normalisation)["dashes"] >= 1


def test_a_tournament_release_is_stored_under_its_kind_and_a_cr_archive_never_lists_it(tmp_path):
    outcome = ingest_bytes(Archive(tmp_path), IPG_TEXT.encode(), "ipg-2016-07-22.txt")
    assert outcome.message.startswith("added ipg/en/2016-07-22 (3 sections)")
    assert (tmp_path / "ipg" / "en" / "2016-07-22" / "release.json").is_file()
    assert Archive(tmp_path).releases() == []
    stored = Archive(tmp_path, kind=DocKind.IPG).releases()
    assert [(r.kind, r.section_count, r.key) for r in stored] == [
        (DocKind.IPG, 3, "ipg/en/2016-07-22")
    ]
    loaded = Archive(tmp_path, kind=DocKind.IPG).load(stored[0])
    assert loaded.section("2.1/upgrade") is not None


def test_a_file_named_by_another_date_than_it_prints_is_reported(tmp_path):
    outcome = ingest_bytes(Archive(tmp_path), IPG_TEXT.encode(), "ipg-2016-07-01.txt")
    assert "prints the date 2016-07-22, not 2016-07-01 as its file name says" in outcome.message


def test_the_kind_given_overrides_the_title():
    text = IPG_TEXT.replace("MAGIC INFRACTION PROCEDURE GUIDE", "A GUIDE")
    document, _ = read_document(text.encode(), "x.txt", Overrides(kind=DocKind.IPG))
    assert document.kind == DocKind.IPG


def test_a_cr_release_json_is_written_as_before_there_were_other_kinds():
    release = Release(
        "en", dt.date(2024, 11, 8), "FDN", "Foundations", 1, 1, "0" * 64, Provenance()
    )
    data = release_to_json(release)
    assert "kind" not in data and "section_count" not in data
    assert release.key == "en/2024-11-08"


def test_what_an_interrupted_write_of_any_kind_left_is_found_and_removed(tmp_path):
    staging = tmp_path / "mtr" / "en" / ".incoming-x"
    staging.mkdir(parents=True)
    archive = Archive(tmp_path)
    assert archive.leftovers() == [staging]
    archive.recover()
    assert not staging.exists()


def test_a_cover_that_misprints_its_year_is_mended_from_the_text(tmp_path):
    text = IPG_TEXT.replace("July 22, 2016", "July 22, 2015") + (
        "\nAppendix A—Changes\nJuly 22, 2016\nKaladesh (effective July 22, 2016)\n"
    )
    document, _ = read_document(text.encode(), "ipg-2016-07-22.txt", Overrides())
    assert document.effective_date == dt.date(2016, 7, 22)
    assert document.notes == (
        "the cover prints 2015-07-22, a misprint of the year: the text names "
        "July 22, 2016 2 times and July 22, 2015 1 time(s)",
    )


def test_a_part_named_inline_or_after_the_penalty_is_still_a_part():
    text = f"""PENALTY GUIDE
Effective January 1, 2011
1. GENERAL PHILOSOPHY
{FULL}
2. GAME PLAY ERRORS
{FULL}
2.1. Game Play Error — Missed Trigger
Warning Definition
A triggered ability triggers and is forgotten.
Upgrade: If the ability is usually considered detrimental, the penalty is a Warning.
"""
    document, _counts = _parse(text)
    trigger = document.section("2.1")
    assert isinstance(trigger, Section)
    assert [(part.name, part.paragraphs) for part in trigger.parts] == [
        ("Penalty", ("Warning",)),
        ("Definition", ("A triggered ability triggers and is forgotten.",)),
        (
            "Upgrade",
            ("If the ability is usually considered detrimental, the penalty is a Warning.",),
        ),
    ]


def test_a_part_printed_again_after_itself_is_one_part_of_many_paragraphs():
    # IPG 2017-04-28 on: Deck Problem prints 'Upgrade:' three times in a row; one address
    # ('3.5/upgrade') names one part, or its line of descent would split in three.
    text = f"""INFRACTION PROCEDURE GUIDE
Effective April 28, 2017
1. GENERAL PHILOSOPHY
{FULL}
3. TOURNAMENT ERRORS
{FULL}
3.1. Tournament Error — Deck Problem
Warning Definition
The contents of a deck do not match the registration.
Upgrade: If the deck is discovered to be incorrect, the penalty is a Game Loss.
Upgrade: If an incorrect card becomes visible, the penalty is a Game Loss.
"""
    document, _counts = _parse(text)
    problem = document.section("3.1")
    assert isinstance(problem, Section)
    assert [part.name for part in problem.parts] == ["Penalty", "Definition", "Upgrade"]
    assert problem.parts[-1].paragraphs == (
        "If the deck is discovered to be incorrect, the penalty is a Game Loss.",
        "If an incorrect card becomes visible, the penalty is a Game Loss.",
    )


def test_penalty_boxes_drawn_where_a_page_ends_go_to_their_infractions_not_into_the_text():
    # IPG 2011-2015: a page draws its infractions' boxes ('Penalty' over 'Warning') in one run
    # after its text, in their order; the text of the next page goes on with the part before.
    text = f"""INFRACTION PROCEDURE GUIDE
Effective February 8, 2013
1. GENERAL PHILOSOPHY
{FULL}
2. GAME PLAY ERRORS
{FULL}
2.1. Game Play Error — Missed Trigger
Definition
A triggered ability triggers, but the player forgets it.
Penalty
Warning*

Players may not cause triggered abilities controlled by an opponent to be missed.
Examples
A. Knight of Infamy attacks alone.
2.2. Game Play Error — Looking at Extra Cards
Definition
A player looks at a card they were not entitled to see.
2.3. Game Play Error — Drawing Extra Cards
Definition
A player draws a card. The examples go on after the boxes:
Examples
A. A player draws 4 cards after casting Ancestral Recall.
Penalty
Warning
Penalty
Game Loss
B. A player puts a creature into the graveyard and draws.
2.4. Game Play Error — Improper Drawing at Start of Game
Definition
A player draws too many cards at the start.
Penalty
Disqualification
Penalty
"""
    document, _counts = _parse(text)

    def parts(number: str) -> list[tuple[str, tuple[str, ...]]]:
        section = document.section(number)
        assert isinstance(section, Section)
        return [(part.name, part.paragraphs) for part in section.parts]

    assert parts("2.1")[:2] == [
        ("Penalty", ("Warning*",)),
        (
            "Definition",
            (
                "A triggered ability triggers, but the player forgets it.",
                "Players may not cause triggered abilities controlled by an opponent to be missed.",
            ),
        ),
    ]
    assert parts("2.2")[0] == ("Penalty", ("Warning",))
    assert parts("2.3")[0] == ("Penalty", ("Game Loss",))
    assert parts("2.3")[-1] == (
        "Examples",
        (
            "A. A player draws 4 cards after casting Ancestral Recall.",
            "B. A player puts a creature into the graveyard and draws.",
        ),
    )
    # a box's label drawn apart from its penalty (IPG 2014-07-18) is no text either
    assert parts("2.4") == [
        ("Penalty", ("Disqualification",)),
        ("Definition", ("A player draws too many cards at the start.",)),
    ]


def test_a_hyphen_at_a_line_end_stays_unless_the_document_prints_the_word_whole():
    # 'previously-unknown' and 'DCI-sanctioned' are the words the documents print (as the CR's
    # reading keeps 'Snow-Covered'); 'orga-nizer' (MTR 2000-06-01) is a word the layout broke,
    # and so is 'eligi-ble' (printed nowhere else): broken before an ending no word is alone.
    # 'multi-day' is a compound whose pieces the document prints nowhere alone either.
    text = f"""TOURNAMENT RULES
Effective June 1, 2000
1. FUNDAMENTALS
The organizer of a DCI-
sanctioned tournament may reveal a previously-
unknown card. If the orga-
nizer agrees, the end-of-
match procedure starts. Players are eligi-
ble for a multi-
day event.
The {FULL}
"""
    document, counts = _parse(text, DocKind.MTR)
    assert document.sections[0].paragraphs[0] == (
        "The organizer of a DCI-sanctioned tournament may reveal a previously-unknown card. "
        "If the organizer agrees, the end-of-match procedure starts. Players are eligible for "
        "a multi-day event."
    )
    assert counts[Layout.HYPHENATION] == 2


def test_a_one_letter_word_in_a_title_in_capitals_is_no_small_capital():
    text = "RANDOMIZING A LIBRARY\nA library is randomized.\n100. D ECK PROBLEMS\ndeck\nI NFO"
    counts: Counter[str] = Counter()
    assert strip_layout([text], counts) == [
        "RANDOMIZING A LIBRARY",
        "A library is randomized.",
        "100. DECK PROBLEMS",
        "deck",
        "INFO",
    ]
    assert counts[Layout.SMALL_CAPS] == 2


def test_a_line_the_next_ones_first_word_would_have_fitted_on_ends_its_paragraph():
    # MTR 2017-07-14, 2.13: 'Spectators are ... unobtrusively.' (87 characters of 113) was
    # read into the next paragraph (2017-06-19 had a page break there); its Appendix D ran a
    # list's last item (94) into 'For Ixalan, ...'. A line cut at the margin still goes on.
    ixalan = "For Ixalan, the recommended booster mix for Limited tournaments is (effective"
    ixalan += " September 29, 2017 through"
    text = f"""TOURNAMENT RULES
Effective July 14, 2017
1. FUNDAMENTALS
{"y" * 70} coverage.
Spectators are also permitted to record matches provided that they do so unobtrusively.
The Head Judge of a World Championship, World Magic Cup, or Pro Tour tournament may, in his
{FULL} Pro Tour tournament.
• Two-Headed Giant Booster Draft – 4 Hour of Devastation, 2 Amonkhet (per team, in order)
{ixalan}
January 18, 2018):
"""
    document, _ = _parse(text, DocKind.MTR)
    assert [paragraph[:24] for paragraph in document.sections[0].paragraphs] == [
        "yyyyyyyyyyyyyyyyyyyyyyyy",
        "Spectators are also perm",
        "The Head Judge of a Worl",
        "• Two-Headed Giant Boost",
        "For Ixalan, the recommen",
    ]
    assert document.sections[0].paragraphs[-1].endswith("through January 18, 2018):")


def test_a_parenthesis_left_open_goes_on_in_the_line_that_closes_it():
    # MTR 2017-04-28 to 2017-06-19, 6.5's list in narrow columns: '• Gitaxian Probe
    # (effective April 28,' then '2017)'; a bullet, or a line closing nothing, is no end of it.
    text = f"""TOURNAMENT RULES
Effective April 28, 2017
1. FUNDAMENTALS
The following cards are restricted in Vintage tournaments: {FULL}
• Flash
• Gitaxian Probe (effective April 28,
2017)
• Gush (effective
• Imperial Seal (effective
The following cards are banned in Modern tournaments:
"""
    document, _ = _parse(text, DocKind.MTR)
    assert document.sections[0].paragraphs[1:] == (
        "• Flash",
        "• Gitaxian Probe (effective April 28, 2017)",
        "• Gush (effective",
        "• Imperial Seal (effective",
        "The following cards are banned in Modern tournaments:",
    )


def test_a_word_the_text_layer_split_is_joined_where_its_pieces_are_no_words():
    # IPG 2015-07-17: 'the next rou nd'; 'any one', 'in to' and 'Customer Service' (each
    # piece printed alone elsewhere, or the second one capitalised) stay apart.
    text = (
        "A round ends. Any one may go in to the next rou nd of MAGIC: THE GATHERI NG.\n"
        "Anyone goes into THE GATHERING any time. Write to Customer Service at\n"
        "customerservice@wizards.com or customer service."
    )
    counts: Counter[str] = Counter()
    assert strip_layout([text], counts)[0] == (
        "A round ends. Any one may go in to the next round of MAGIC: THE GATHERING."
    )
    assert strip_layout([text], counts)[1:] == text.split("\n")[1:]
    assert counts[Layout.SPLIT_WORDS] == 4  # twice each


def test_a_changes_appendixs_section_number_opens_an_item_however_long_the_line_before():
    # IPG 2018-10-05, Appendix B: '2.5: Partial fixes ... one of the categories.' is as long as
    # a full line, and '2.5: Permanents are the only type of object that untaps.' is its own.
    text = f"""INFRACTION PROCEDURE GUIDE
Effective October 5, 2018
1. GENERAL PHILOSOPHY
{FULL}
2.5: Partial fixes can cross categories as long as all the remedy falls into one of the categories.
2.5: Permanents are the only type of object that untaps.
"""
    document, _ = _parse(text, DocKind.IPG)
    assert document.sections[0].paragraphs[1:] == (
        "2.5: Partial fixes can cross categories as long as all the remedy falls into one of the "
        "categories.",
        "2.5: Permanents are the only type of object that untaps.",
    )


PENALTY_TABLES = f"""DCI PENALTY GUIDE
Effective September 20, 2008
1. GENERAL PHILOSOPHY
{FULL}
100. GAME PLAY ERRORS
{FULL}
101. Game Play Error — Missed Trigger
Philosophy
Triggers are invisible, so players will miss them on occasion.
Penalty
Regular Competitive Professional
Caution Warning Warning

If the trigger instruction is optional, issue no penalty.
102. Game Play Error — Failure to Reveal
Penalty
Regular Competitive Professional
Warning Match Loss Match Loss
103. Game Play Error — Game Rule Violation
Penalty
All Levels
Disqualification without prize

Back up the game.
"""


def test_a_penalty_table_is_the_penalty_and_the_text_after_it_the_additional_remedy():
    # IPG 2007-09-20 to 2010-04-01: a Rules Enforcement Level table opens each Penalty, then
    # the text the IPG names 'Additional Remedy' from 2010-07-01 on.
    document, _counts = _parse(PENALTY_TABLES)
    trigger = document.section("101")
    assert isinstance(trigger, Section)
    assert [(part.name, part.paragraphs) for part in trigger.parts] == [
        ("Philosophy", ("Triggers are invisible, so players will miss them on occasion.",)),
        ("Penalty", ("Regular: Caution; Competitive: Warning; Professional: Warning",)),
        ("Additional Remedy", ("If the trigger instruction is optional, issue no penalty.",)),
    ]
    reveal = document.section("102")
    assert isinstance(reveal, Section)  # a table alone: no remedy; 'Match Loss' is one cell
    assert [(part.name, part.paragraphs) for part in reveal.parts] == [
        ("Penalty", ("Regular: Warning; Competitive: Match Loss; Professional: Match Loss",)),
    ]
    assert document.section("103/penalty").paragraphs == (  # type: ignore[union-attr]
        "All Levels: Disqualification without prize",
    )
    assert document.section("103/additional-remedy").paragraphs == ("Back up the game.",)  # type: ignore[union-attr]


def test_a_penalty_opening_with_no_table_it_can_read_is_left_whole():
    # IPG 2001-11-01: the Penalty opens with its procedure, its 'REL 1 ... REL 5' table later;
    # a row whose cells do not match its levels is no table either.
    text = PENALTY_TABLES.replace("Caution Warning Warning", "Caution Warning").replace(
        "All Levels\nDisqualification without prize", "At all RELs, the player is disqualified."
    )
    document, _counts = _parse(text)
    assert document.section("101/penalty").paragraphs == (  # type: ignore[union-attr]
        "Regular Competitive Professional",
        "Caution Warning",
        "If the trigger instruction is optional, issue no penalty.",
    )
    assert document.section("103/penalty").paragraphs == (  # type: ignore[union-attr]
        "At all RELs, the player is disqualified.",
        "Back up the game.",
    )
    assert document.section("101/additional-remedy") is None


CHANGES = f"""DCI PENALTY GUIDE
Effective March 20, 2008
1. GENERAL PHILOSOPHY
{FULL}
Appendix A — PENALTY QUICK REFERENCE
{FULL}
Appendix B — CHANGES FROM PREVIOUS VERSION
General: Removal of instructions to not deviate for purposes of education (some deviation ok).
General: Making it clear that intentional infractions may be Cheating, but not always.
212: Further explanation of the difference between Drawing Extra Cards and a Game Rule Viol.
Appendix A: Added missing entry for Failure to Reveal, with the penalties for each level.
Repeat Offenses: Clarifying how previously upgraded and downgraded penalties interact with.
4.8, 4.9 (221, 222): Allowing a player to replace marked cards with basic lands, not others.
Appendix D: The tournament list of the Premier programs is updated, Grand Prix Trials are
Competitive.
Trademarks: Magic, Lorwyn, Shadowmoor, Eventide, Shards of Alara, Conflux, Alara Reborn, and
Ravnica: City of Guilds are property of Wizards of the Coast, Inc. in the U.S.A. and others.
"""


def test_a_changes_appendixs_entries_open_items_however_long_the_line_before():
    # IPG 2008-03-20 and 2009-07-01, Appendix B: entries as long as a full line, each opening
    # with what it changed and a colon; a set's name opening a wrapped line is no entry.
    document, _counts = _parse(CHANGES)
    changes = document.section("B")
    assert isinstance(changes, Section)
    assert [paragraph[:20] for paragraph in changes.paragraphs] == [
        "General: Removal of ",
        "General: Making it c",
        "212: Further explana",
        "Appendix A: Added mi",
        "Repeat Offenses: Cla",
        "4.8, 4.9 (221, 222):",
        "Appendix D: The tour",
        "Trademarks: Magic, L",
    ]
    assert changes.paragraphs[-1].endswith(
        "Ravnica: City of Guilds are property of Wizards of "
        "the Coast, Inc. in the U.S.A. and others."
    )


def test_a_label_and_a_colon_open_no_item_outside_a_changes_appendix():
    document, _counts = _parse(CHANGES.replace("CHANGES FROM PREVIOUS VERSION", "NOTES"))
    notes = document.section("B")
    assert isinstance(notes, Section)
    assert notes.paragraphs[0].startswith("General: Removal of instructions")
    assert "General: Making it clear" in notes.paragraphs[0]
