"""Diffs, histories and changelogs of tournament documents (MTR, IPG), on small hand-made ones:
the CR's differ with sections and their parts as its units."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace

import pytest
from click.testing import CliRunner
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.model import DocKind, Document, Provenance, Release, Section, SectionPart
from rulesarchive.corpus.numbers import container
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.lineage import line_history, trace_lines
from rulesarchive.differ.renumbering import shift_text, summarise_renumbering
from rulesarchive.differ.report import selected
from rulesarchive.differ.sections import (
    address,
    align_paragraphs,
    diff_paragraphs,
    paragraph_changes,
    texts_of,
    units,
)
from rulesarchive.differ.words import Phrase, diff_words
from rulesarchive.scraper.ingest import ingest_bytes

from rulesarchive.api import Archive as ApiArchive
from rulesarchive.cli import main

LONG = (
    "Players must keep their decks in sleeves that are all the same colour and size.",
    "Sleeves with holographic patterns may be refused by the Head Judge at any time.",
    "A player may ask a judge to inspect the sleeves of an opponent between games.",
)


def _mtr(*sections: Section, date: dt.date = dt.date(2018, 1, 19)) -> Document:
    return Document("en", date, kind=DocKind.MTR, sections=sections)


def _ipg(*sections: Section) -> Document:
    return Document("en", dt.date(2016, 7, 22), kind=DocKind.IPG, sections=sections)


MISSED_TRIGGER = Section(
    "2.1",
    "Game Play Error — Missed Trigger",
    parts=(
        SectionPart("Penalty", ("No Penalty",)),
        SectionPart("Philosophy", ("Triggered abilities are common and invisible to most.",)),
        SectionPart("Additional Remedy", ("If the ability is a delayed trigger, resolve it now.",)),
    ),
)


def test_a_tournament_documents_units_are_its_sections_texts_and_their_parts():
    sections = (Section("2", "Game Play Errors"), MISSED_TRIGGER, Section("3.9", "S", LONG))
    document = replace(_ipg(*sections), introduction="INTRODUCTION\nJudges are neutral.")
    numbers = [unit.number for unit in units(document)]
    assert numbers == [
        "introduction",
        "2.1/penalty",
        "2.1/philosophy",
        "2.1/additional-remedy",
        "3.9",
    ]
    assert units(document)[-1].text == "\n".join(LONG)  # one paragraph a line
    assert document.section("2.1/additional-remedy") is not None  # the address the model reads


@pytest.mark.parametrize(
    ("typed", "address_"),
    [
        ("2.1/Additional Remedy", "2.1/additional-remedy"),
        ("3.9.", "3.9"),
        ("appendix b", "B"),
        ("2.1/philosophy", "2.1/philosophy"),
        ("Introduction", "introduction"),
    ],
)
def test_an_address_is_read_as_typed(typed: str, address_: str):
    assert address(typed) == address_


@pytest.mark.parametrize(
    ("number", "heading"),
    [("702.19b", "702"), ("2.1/philosophy", "2.1"), ("3.10", "3.10"), ("101/penalty", "101")],
)
def test_a_unit_stands_under_its_chapter_or_section(number: str, heading: str):
    assert container(number) == heading


def test_a_paragraph_inserted_before_a_reworded_one_is_added_not_a_rewrite_of_both():
    old = [LONG[0], LONG[1]]
    new = [LONG[0], "Proxies are issued by the Head Judge only.", LONG[1].replace("any", "no")]
    assert align_paragraphs(old, new) == [
        (LONG[0], LONG[0]),
        ("", new[1]),
        (LONG[1], new[2]),
    ]
    kinds = [change.kind for change in paragraph_changes("\n".join(old), "\n".join(new))]
    assert kinds == ["added", "changed"]


def test_a_short_paragraph_that_lost_words_is_reworded_not_removed_and_added():
    # MTR 2007-12-20: '• Lorwyn™ (Effective October 20, 2007)' became '• Lorwyn™'.
    (change,) = paragraph_changes("• Lorwyn™ (Effective October 20, 2007)", "• Lorwyn™")
    assert (change.kind, change.phrases) == (
        "changed",
        (Phrase("(Effective October 20, 2007)", ""),),
    )
    assert [c.kind for c in paragraph_changes("• Pioneer", LONG[0])] == ["removed", "added"]


def test_a_paragraph_printed_as_two_on_the_other_side_is_paired_with_both():
    # The 2019-10-04 MTR's 1.4 ran three paragraphs into one that the 2020-01-24 MTR prints
    # apart: only the words that changed are a change, not the paragraphs' layout.
    joined = f"{LONG[1]} {LONG[2]}"
    assert align_paragraphs([LONG[0], joined], [LONG[0], LONG[1], LONG[2]]) == [
        (LONG[0], LONG[0]),
        (joined, f"{LONG[1]}\n{LONG[2]}"),
    ]
    edited = LONG[2].replace("between games", "between rounds")
    (change,) = paragraph_changes(f"{LONG[0]}\n{joined}", f"{LONG[0]}\n{LONG[1]}\n{edited}")
    assert (change.kind, change.phrases) == ("changed", (Phrase("games", "rounds"),))
    assert paragraph_changes(joined, f"{LONG[1]}\n{LONG[2]}") == ()


def test_a_comma_or_full_stop_added_is_an_edit_of_its_paragraph_not_left_out():
    # MTR 2007-12-20's 126 added a comma beside a reworded phrase; IPG 2018-10-05's Appendix B
    # a full stop to a paragraph of a section that changed elsewhere.
    old = "(Effective October 20, 2008, following “Rock” the following sets will leave.)"
    new = "(In the fall of 2008, following “Rock”, the following sets will leave.)"
    (change,) = paragraph_changes(old, new)
    assert change.phrases == (Phrase("Effective October 20,", "In the fall of"), Phrase("", ","))
    issued = "1: Clearer wording around when a Game Loss is issued"
    changes = paragraph_changes(f"{LONG[0]}\n{issued}", f"{LONG[1]}\n{LONG[0]}\n{issued}.")
    assert [(c.kind, c.phrases) for c in changes] == [
        ("added", ()),
        ("changed", (Phrase("", "."),)),
    ]
    # a dash or spacing printed otherwise is no edit of a paragraph (the unit's kind says so)
    assert paragraph_changes("say go - then  stop", "say go — then stop") == ()


def test_a_paragraph_diff_rebuilds_both_texts_and_is_the_word_diff_for_one_paragraph():
    old, new = "\n".join(LONG), "\n".join((LONG[0], "A new rule.", LONG[2]))
    assert texts_of(diff_paragraphs(old, new)) == (old, new)
    assert texts_of(diff_paragraphs(new, "")) == (new, "")
    assert diff_paragraphs(LONG[0], LONG[1]) == diff_words(LONG[0], LONG[1])  # every CR rule


def test_a_paragraph_removed_from_a_long_section_is_shown_as_removed():
    old = _mtr(Section("3.9", "Sleeves", LONG))
    new = _mtr(Section("3.9", "Sleeves", (LONG[0], LONG[2])))
    (change,) = [c for c in diff_documents(old, new).changes if c.kind != Kind.UNCHANGED]
    assert change.kind == Kind.SUBSTANTIVE
    assert paragraph_changes(change.old_text, change.new_text)[0][:2] == ("removed", LONG[1])


def test_a_section_renumbered_and_renamed_keeps_its_line_and_its_parts_follow_it():
    old = _ipg(MISSED_TRIGGER, Section("3.1", "Communication", LONG))
    moved = Section("2.2", "Game Play Error — Forgotten Trigger", parts=MISSED_TRIGGER.parts)
    new = _ipg(
        Section("2.1", "Game Play Error — Looking at Extra Cards", ("Peeking.",)),
        moved,
        Section("3.1", "Communication", LONG),
    )
    diff = diff_documents(old, new)
    assert ("2.1/philosophy", "2.2/philosophy") in diff.renumbering
    assert ("2.1/penalty", "2.2/penalty") in diff.renumbering
    heading = next(c for c in diff.headings if c.new_number == "2.2")
    assert (heading.old_number, heading.kind) == ("2.1", Kind.SUBSTANTIVE)  # renamed
    assert [c.new_number for c in diff.headings if c.kind == Kind.ADDED] == ["2.1"]


def test_typography_and_a_sweep_are_told_apart_from_a_substantive_change():
    old = _mtr(
        Section("1.1", "A", ("A player reads his or her cards aloud to the table.",)),
        Section("1.2", "B", ("Each player shuffles his or her deck before each game.",)),
        Section("1.3", "C", ("Judges may check his or her sleeves between rounds.",)),
        Section("1.4", "D", ('Players say "pass" when done.',)),
        Section("1.5", "E", ("A match is three games long.",)),
    )
    new = _mtr(
        Section("1.1", "A", ("A player reads their cards aloud to the table.",)),
        Section("1.2", "B", ("Each player shuffles their deck before each game.",)),
        Section("1.3", "C", ("Judges may check their sleeves between rounds.",)),
        Section("1.4", "D", ("Players say “pass” when done.",)),
        Section("1.5", "E", ("A match is five games long.",)),
    )
    diff = diff_documents(old, new)
    kinds = {change.new_number: change.kind for change in diff.changes}
    assert kinds == {
        "1.1": Kind.SWEEP,
        "1.2": Kind.SWEEP,
        "1.3": Kind.SWEEP,
        "1.4": Kind.TYPOGRAPHY,
        "1.5": Kind.SUBSTANTIVE,
    }
    assert [(s.old, s.new, s.rules) for s in diff.sweeps] == [
        ("his or her", "their", ("1.1", "1.2", "1.3"))
    ]


def test_a_verb_that_only_agrees_with_the_new_subject_belongs_to_the_sweep():
    # MTR 2018-04-27: 'he or she has' -> 'they have' is the sweep 'he or she' -> 'they'.
    said = ("he or she has", "he or she is", "he or she notices", "he or she")
    old = _mtr(*(Section(f"1.{n}", "T", (f"If {s} a card, stop.",)) for n, s in enumerate(said)))
    now = ("they have", "they are", "they notice", "they")
    new = _mtr(*(Section(f"1.{n}", "T", (f"If {s} a card, stop.",)) for n, s in enumerate(now)))
    diff = diff_documents(old, new)
    assert {change.kind for change in diff.changes} == {Kind.SWEEP}
    assert [(s.old, s.new, len(s.rules)) for s in diff.sweeps] == [("he or she", "they", 4)]


def test_a_part_rewritten_under_its_address_is_one_change_and_never_a_cut_copy():
    # IPG 2008-09-20: 137's penalty table was rewritten (no word in common but 'Warning');
    # 151's lost 'without Prize' at its end, which is no copy cut short.
    table = SectionPart("Penalty", ("All Levels: Warning",))
    levels = SectionPart(
        "Penalty", ("Regular: Caution; Competitive: Warning; Professional: Warning",)
    )
    old_dq = SectionPart("Penalty", ("All Levels: Disqualification without Prize",))
    new_dq = SectionPart("Penalty", ("All Levels: Disqualification",))
    title = "Tournament Error—Player Communication Violation"
    old = _ipg(Section("137", title, parts=(table,)), Section("151", "Stalling", parts=(old_dq,)))
    new = _ipg(Section("137", title, parts=(levels,)), Section("151", "Stalling", parts=(new_dq,)))
    kinds = {(c.old_number, c.new_number, c.kind) for c in diff_documents(old, new).changes}
    assert kinds == {
        ("137/penalty", "137/penalty", Kind.SUBSTANTIVE),
        ("151/penalty", "151/penalty", Kind.SUBSTANTIVE),
    }


def test_an_infractions_parts_go_with_it_whatever_their_words():
    # IPG 2012-10-01: Missed Trigger went from 3.1 to 2.1; its Penalty, "Warning", is printed
    # by other infractions too, and its Philosophy was rewritten: each stays Missed Trigger's.
    warning = SectionPart("Penalty", ("Warning",))
    old = _ipg(
        Section(
            "3.1", "Game Play Error — Missed Trigger", parts=(warning, MISSED_TRIGGER.parts[1])
        ),
        Section("3.2", "Game Play Error — Looking at Extra Cards", parts=(warning,)),
    )
    rewritten = SectionPart("Philosophy", ("Opponents need not point out these abilities.",))
    new = _ipg(
        Section("2.1", "Game Play Error — Missed Trigger", parts=(warning, rewritten)),
        Section("2.2", "Game Play Error — Looking at Extra Cards", parts=(warning,)),
    )
    diff = diff_documents(old, new)
    assert set(diff.renumbering) == {
        ("3.1/penalty", "2.1/penalty"),
        ("3.1/philosophy", "2.1/philosophy"),
        ("3.2/penalty", "2.2/penalty"),
    }
    rewrite = next(c for c in diff.changes if c.new_number == "2.1/philosophy")
    assert rewrite.kind == Kind.SUBSTANTIVE


def _release(date: dt.date, kind: DocKind = DocKind.IPG) -> Release:
    return Release("en", date, "", "", 0, 0, date.isoformat(), Provenance(), kind=kind)


def test_a_part_is_followed_across_releases_through_its_renumbering():
    first = _ipg(Section("3.1", "Game Play Error — Missed Trigger", parts=MISSED_TRIGGER.parts))
    second = _ipg(MISSED_TRIGGER)
    philosophy = SectionPart("Philosophy", ("Triggered abilities are common and often unseen.",))
    third = _ipg(Section("2.1", MISSED_TRIGGER.title, parts=(MISSED_TRIGGER.parts[0], philosophy)))
    releases = [
        _release(dt.date(2012, 6, 29)),
        _release(dt.date(2012, 10, 1)),
        _release(dt.date(2013, 2, 8)),
    ]
    documents = [first, second, third]
    steps = [(documents[0], None)] + [
        (documents[i], diff_documents(documents[i - 1], documents[i])) for i in (1, 2)
    ]
    history = line_history(trace_lines(releases, steps), releases, "2.1/philosophy", 2)
    assert history.numbers == ("3.1/philosophy", "2.1/philosophy")
    assert [v.kind for v in history.versions] == [Kind.UNCHANGED, Kind.UNCHANGED, Kind.SUBSTANTIVE]


# A line longer than the paragraphs', so that each of them reads as a paragraph of its own.
WIDE = "Each level has its own expectations of players and of the judges who serve them. " * 2


def _mtr_text(date: str, sleeves: tuple[str, ...], title: str = "Sleeves") -> bytes:
    body = "\n".join(sleeves)
    return f"""MAGIC: THE GATHERING TOURNAMENT RULES
Effective {date}
1. TOURNAMENT FUNDAMENTALS
1.1 Tournament Types
Sanctioned tournaments are run at one of three Rules Enforcement Levels. {WIDE}
3. TOURNAMENT MECHANICS
3.1 Tiebreakers
Tiebreakers are applied in order until the tie is broken. {WIDE}
3.2 {title}
{body}
""".encode()


@pytest.fixture
def mtr_archive(tmp_path):
    """An archive of two hand-made MTRs: 3.2 Sleeves loses a paragraph and is renamed."""
    archive = Archive(tmp_path, derived=DerivedData(None))
    ingest_bytes(archive, _mtr_text("January 19, 2018", LONG), "mtr-2018-01-19.txt")
    later = (LONG[0], LONG[2].replace("between games", "between rounds"))
    ingest_bytes(archive, _mtr_text("April 27, 2018", later, "Card Sleeves"), "mtr-2018-04-27.txt")
    return tmp_path


def _run(root, *arguments: str) -> str:
    result = CliRunner().invoke(main, ["--archive", str(root), *arguments])
    assert result.exit_code == 0, result.output
    return result.output


def test_changelog_doc_mtr_shows_paragraphs_removed_and_reworded_and_the_rename(mtr_archive):
    text = _run(mtr_archive, "changelog", "--doc", "mtr")
    assert text.startswith("MTR 2018-01-19 → 2018-04-27\n")
    assert "substantive 3.2:" in text
    assert f"    - ¶ {LONG[1]}" in text
    assert "    ~ ¶ “games” → “rounds”" in text
    assert "renamed 3.2: “Sleeves” → “Card Sleeves”" in text


def test_diff_doc_mtr_json_keeps_the_cr_keys_and_adds_the_paragraphs(mtr_archive, tmp_path):
    data = json.loads(
        _run(mtr_archive, "diff", "--doc", "mtr", "2018-01-19", "2018-04-27", "--format", "json")
    )
    cr_keys = {
        "old",
        "new",
        "counts",
        "changes",
        "renumbering",
        "sweeps",
        "splits",
        "merges",
        "glossary",
    }
    assert cr_keys < set(data) and data["doc"] == "mtr"
    (change,) = [c for c in data["changes"] if not c["heading"]]
    assert [p["kind"] for p in change["paragraphs"]] == ["removed", "changed"]
    assert change["paragraphs"][1]["phrases"] == [{"old": "games", "new": "rounds"}]


def test_history_doc_mtr_follows_a_section_and_says_where_a_part_is_missing(mtr_archive):
    data = json.loads(_run(mtr_archive, "history", "--doc", "mtr", "3.2", "--format", "json"))
    assert data["doc"] == "mtr" and data["numbers"] == ["3.2"]
    assert [v["kind"] for v in data["versions"]] == ["unchanged", "substantive"]
    assert data["versions"][1]["paragraphs"][0] == {
        "kind": "removed",
        "old": LONG[1],
        "new": "",
        "phrases": [],
    }
    result = CliRunner().invoke(
        main, ["--archive", str(mtr_archive), "history", "--doc", "mtr", "3.7"]
    )
    assert result.exit_code == 1
    assert "no section 3.7 in the MTR 2018-04-27; sections beside it: 3, 3.1, 3.2" in result.output


def test_the_api_takes_the_kind_and_a_cr_command_never_reads_the_mtr(mtr_archive):
    archive = ApiArchive(mtr_archive, cache=False, doc="mtr")
    assert archive.history("3.2").numbers == ("3.2",)
    assert archive.changelog().new.kind == DocKind.MTR
    result = CliRunner().invoke(main, ["--archive", str(mtr_archive), "changelog"])
    assert result.exit_code == 1 and "no en releases" in result.output


def test_a_section_renumbered_carries_its_parts_in_the_renumbering_summary():
    moves = [
        ("3.3", "2.2"),
        ("3.3/definition", "2.2/definition"),
        ("3.3/penalty", "2.2/penalty"),
        ("4.7/penalty", "3.6/penalty"),
    ]
    assert [shift_text(shift) for shift in summarise_renumbering(moves)] == [
        "3.3 → 2.2, with its 2 parts",
        "4.7/penalty → 3.6/penalty",
    ]


def test_section_picks_a_tournament_section_subsection_or_part(mtr_archive):
    def changed(section: str) -> list[str]:
        text = _run(mtr_archive, "diff", "--doc", "mtr", "2018-01-19", "2018-04-27",
                    "--section", section, "--format", "json")  # fmt: skip
        return [c["new_number"] for c in json.loads(text)["changes"] if not c["heading"]]

    assert changed("3") == changed("3.2") == ["3.2"]
    assert changed("1") == changed("3.1") == changed("B") == []


def test_a_tournament_section_holds_its_subsections_and_parts_only():
    data = {
        "changes": [
            {"kind": "substantive", "old_number": n, "new_number": n, "heading": False}
            for n in ("1.1", "10.1", "3.4", "3.4/definition", "3.40", "702.19b")
        ],
        "glossary": [],
        "sweeps": [],
        "renumbering": [],
        "splits": [],
        "merges": [],
        "counts": {},
    }

    def kept(section: str) -> list[str]:
        return [c["new_number"] for c in selected(data, section=section)["changes"]]

    assert kept("1") == ["1.1"]  # not MTR 10.1
    assert kept("10") == ["10.1"]
    assert kept("3.4") == ["3.4", "3.4/definition"]
    assert kept("3.4/definition") == ["3.4/definition"]
    assert kept("7") == kept("702") == kept("702.19") == ["702.19b"]
