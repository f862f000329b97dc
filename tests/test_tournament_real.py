"""Every MTR and IPG of ../shared/policy-archive, ingested: kinds, dates, sections, no layout."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
from rulesarchive.corpus.model import DocKind, Document, Release, Section, SectionPart
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.outcome import Status

from rulesarchive.api import Archive as ApiArchive
from tests.conftest import POLICY
from tests.made_once import made_once

NOT_DOCUMENTS = {"mtr-2020-04-17.pdf", "ipg-2020-04-17.pdf"}  # a download tool's logs
# Where a version's sections change by more than a third, and why (read in the sources).
NEW_NUMBERING = {
    ("mtr", dt.date(2000, 6, 1)): "the 1994 post's two lists became the 100-series Floor Rules",
    ("mtr", dt.date(2005, 9, 20)): "sections 150-172, multiplayer tournaments, were added",
    ("mtr", dt.date(2009, 7, 1)): "the Floor Rules became the Tournament Rules, sections 1-10",
    ("ipg", dt.date(2007, 9, 20)): "the Penalty Guidelines became the Penalty Guide",
}
# Dates the documents print that are not the dates in their file names (read in the sources).
NAMED_OTHERWISE = {
    "ipg-2008-03-01.pdf": "2008-03-20",  # released March 1, effective March 20
    "mtr-2000-06-15.pdf": "2000-06-01",
    "mtr-2002-02-19.pdf": "2001-11-01",
    "mtr-2003-12-01.pdf": "2003-09-01",
    "mtr-2006-12-01.pdf": "2006-12-20",
    "mtr-2009-06-20.txt": "2009-07-01",
    "mtr-2011-10-10.pdf": "2010-10-01",  # its changes appendix ends at September 20, 2010
    "mtr-2013-09-17.pdf": "2013-09-27",
    "mtr-2014-05-19.pdf": "2014-05-02",
    "mtr-2015-03-23.pdf": "2015-03-27",
    "mtr-2016-04-05.pdf": "2016-04-08",
    "mtr-2020-09-25.pdf": "2020-09-28",
    "mtr-2021-03-21.pdf": "2021-04-23",
}
_LEADERS = re.compile(r"(?:\.\s?){5,}|…{2,}")
_PAGE = re.compile(r"(?:page\s+)?\d{1,3}(?:\s+of\s+\d{1,3})?", re.IGNORECASE)
_CONTENTS_ENTRY = re.compile(
    r"(?:\d{1,3}(?:\.\d{1,2})*\.?|Appendix [A-F]\W*)\s+[A-Za-z].{0,80}\s\d{1,3}"
)


@pytest.fixture(scope="session")
def policy_ingested(policy_archive: Path, tmp_path_factory: pytest.TempPathFactory):
    """Ingest every file of the policy archive once per run; return (root, outcomes)."""
    from rulesarchive.corpus.derived import DerivedData
    from rulesarchive.scraper.ingest import ingest_paths

    def ingest(folder: Path) -> list:
        archive = Archive(folder, derived=DerivedData(None))
        paths = sorted(policy_archive.glob("*/*.*"))
        return ingest_paths(archive, [p for p in paths if p.suffix in {".pdf", ".txt"}])

    return made_once(tmp_path_factory, "policy-archive", ingest)


@pytest.fixture(scope="session")
def documents(policy_ingested) -> dict[DocKind, list[tuple[Release, Document]]]:
    root, _outcomes = policy_ingested
    found = {}
    for kind in (DocKind.MTR, DocKind.IPG):
        archive = Archive(root, kind=kind, cache=False)
        found[kind] = [(release, archive.load(release)) for release in archive.releases()]
    return found


def test_every_document_is_stored_and_the_two_logs_are_refused_in_one_line(policy_ingested):
    root, outcomes = policy_ingested
    failed = {Path(o.name).name: o.message for o in outcomes if o.status == Status.FAILED}
    assert set(failed) == NOT_DOCUMENTS
    for name, message in failed.items():
        assert name in message and "holds no PDF" in message and "\n" not in message
        assert not list(root.glob(f"*/en/{name[4:14]}/original.txt"))
    added = [o for o in outcomes if o.status == Status.ADDED]
    assert len(added) == 64 + 46 - len(NOT_DOCUMENTS)
    for outcome in added:
        assert outcome.release is not None
        assert outcome.release.kind.value == Path(outcome.name).name[:3]


def test_the_printed_dates_are_read_and_the_file_names_that_disagree_reported(policy_ingested):
    _root, outcomes = policy_ingested
    reported = {}
    for outcome in outcomes:
        if outcome.release and "as its file name says" in outcome.message:
            reported[Path(outcome.name).name] = outcome.release.effective_date.isoformat()
    assert reported == NAMED_OTHERWISE


def test_the_cover_that_misprints_its_year_is_mended(documents):
    mtr = {release.source.name: release for release, _ in documents[DocKind.MTR]}
    misprinted = mtr["mtr-2021-02-05.pdf"]
    assert misprinted.effective_date == dt.date(2021, 2, 5)  # the cover says 2020
    assert any("misprint of the year" in note for note in misprinted.notes)


def test_section_counts_are_plausible_from_version_to_version(documents):
    for kind, versions in documents.items():
        for (before, _), (release, document) in pairwise(versions):
            ratio = release.section_count / before.section_count
            if (kind.value, release.effective_date) in NEW_NUMBERING:
                continue
            assert 0.75 <= ratio <= 1.25, (release.key, before.section_count, ratio)
            assert release.section_count == len(document.sections) >= 30


def test_no_section_holds_a_page_number_running_header_or_contents_line(documents):
    for versions in documents.values():
        for release, document in versions:
            # a running header repeats the cover's title (the 1994 post has no pages)
            paged = release.source.format == "pdf"  # a text copy's numbers are its tables
            title = document.title if paged else "\0"
            for section in document.sections:
                assert not _CONTENTS_ENTRY.fullmatch(f"{section.number} {section.title}")
                # the tiebreakers' fractions print each denominator on a line of its own
                numbered = paged and not section.title.startswith("Tiebreaker")
                texts = [*section.paragraphs, *(t for p in section.parts for t in p.paragraphs)]
                for text in texts:
                    where = f"{release.key} {section.number}: {text[:80]!r}"
                    assert not _LEADERS.search(text), where
                    assert not (numbered and _PAGE.fullmatch(text)), where
                    assert not _CONTENTS_ENTRY.fullmatch(text), where
                    assert title not in text, where


def test_every_modern_mtr_has_its_ten_sections_and_appendices(documents):
    for release, document in documents[DocKind.MTR]:
        if release.effective_date < dt.date(2009, 7, 1):
            continue
        numbers = [section.number for section in document.sections]
        assert [n for n in numbers if "." not in n] == [*map(str, range(1, 11)), *"ABCDEF"][
            : len([n for n in numbers if "." not in n])
        ], release.key
        assert {"3.9", "2.10", "A"} <= set(numbers), release.key


def test_every_part_of_an_infraction_has_an_address_of_its_own(documents):
    # The one exception is the source's: IPG 2016-04-08 prints Cheating as '4.4.' after 4.7
    # (it is 4.8), a number that follows no heading, so its parts read as Stalling's.
    misprinted = {("ipg/en/2016-04-08", "4.7")}
    for release, document in documents[DocKind.IPG]:
        for section in document.sections:
            names = [part.name for part in section.parts]
            if (release.key, section.number) not in misprinted:
                assert len(names) == len(set(names)), (release.key, section.number, names)


def test_missed_trigger_is_an_infraction_with_its_parts_in_every_ipg_since_2007(documents):
    numbers = set()
    for release, document in documents[DocKind.IPG]:
        if release.effective_date < dt.date(2007, 9, 20):
            continue
        found = [s for s in document.sections if s.title.endswith("Error—Missed Trigger")]
        assert len(found) == 1, release.key
        trigger = found[0]
        numbers.add(trigger.number)
        names = [part.name for part in trigger.parts]
        assert {"Definition", "Philosophy"} <= set(names), (release.key, names)
        assert document.section(f"{trigger.number}/philosophy").paragraphs, release.key  # type: ignore[union-attr]
    # 123 in the Penalty Guide's 100-series, then 3.3, 3.1 (Game Play Errors were section 3
    # until 2012-06-29), 2.1
    assert numbers == {"123", "3.3", "3.1", "2.1"}


def test_an_mtr_changelog_tells_sweeps_paragraphs_and_sections_apart(policy_ingested):
    # MTR 2018-04-27: "his or her" became "their" throughout, 2.13's game layout became 4.6
    # and Block Constructed (6.7) went (read in the two PDFs).
    root, _outcomes = policy_ingested
    found = ApiArchive(root, cache=False, doc="mtr").changelog("2018-04-27")
    assert found.old.effective_date == dt.date(2018, 1, 19)
    data = found.to_json()
    sweep = next(s for s in data["sweeps"] if (s["old"], s["new"]) == ("his or her", "their"))
    assert len(sweep["rules"]) >= 20 and "3.9" in sweep["rules"]
    headings = {
        (c["kind"], c["old_number"], c["new_number"], c["new_text"] or c["old_text"])
        for c in data["changes"]
        if c["heading"]
    }
    assert ("added", None, "4.6", "Game Layout") in headings
    assert ("removed", "6.7", None, "Block Constructed Format Deck Construction") in headings
    layout = next(c for c in data["changes"] if c["new_number"] == "2.13" and not c["heading"])
    removed = [p["old"] for p in layout["paragraphs"] if p["kind"] == "removed"]
    assert removed[0].startswith("Players in video feature matches") and len(removed) == 9


def test_missed_triggers_philosophy_is_followed_through_its_numbers_and_its_upgrade_split_off(
    policy_ingested, tmp_path
):
    # Missed Trigger is 123 in the Penalty Guide of 2007-09-20 (none before), 3.3 on
    # 2009-07-01, 3.1 on 2010-01-01, 2.1 on 2012-10-01; on 2015-07-17 its penalty became
    # None and its Upgrade took the Warning paragraph out of its Philosophy (read in the PDFs).
    root, _outcomes = policy_ingested
    archive = ApiArchive(root, cache=tmp_path, doc="ipg")  # the IPG's lines traced once
    philosophy = archive.history("2.1/Philosophy")
    numbers = ("123/philosophy", "3.3/philosophy", "3.1/philosophy", "2.1/philosophy")
    assert philosophy.numbers == numbers
    first = {
        n: min(v.effective_date for v in philosophy.versions if v.number == n) for n in numbers
    }
    assert list(first.values()) == [
        dt.date(2007, 9, 20),
        dt.date(2009, 7, 1),
        dt.date(2010, 1, 1),
        dt.date(2012, 10, 1),
    ]
    assert philosophy.versions[0].kind == "added"
    # when it stopped being a Warning: 2015-07-17 (the summary table says "None" too)
    penalty_history = archive.history("2.1/penalty")
    assert penalty_history.numbers[0] == "123/penalty"
    penalty = {v.effective_date: v.text for v in penalty_history.versions}
    assert penalty[dt.date(2012, 10, 1)] == "Warning*"  # its box alone, not the text after it
    assert penalty[dt.date(2015, 7, 17)] == "None"
    assert penalty[dt.date(2016, 4, 8)] == "No Penalty"
    upgrade = archive.history("2.1/upgrade").versions[0]
    assert (upgrade.effective_date, upgrade.split_from) == (dt.date(2015, 7, 17), "2.1/philosophy")


# Where an infraction's penalty box is not the penalty the IPG's quick reference (Appendix A)
# gives it, and why (read in the PDFs).
_BOXES_OTHERWISE = {
    # the box says Game Loss, the appendix Warning: the document disagrees with itself
    ("2014-05-02", "Deck/Decklist Problem"): ("Game Loss",),
    # the page of Stalling and Cheating draws one box, Cheating's: Stalling prints none
    ("2014-07-18", "Stalling"): None,
    ("2014-09-26", "Stalling"): None,
    ("2015-01-23", "Stalling"): None,
}
_QUICK_ROW = re.compile(
    r"(?P<name>.+?)\s+(?P<penalty>Warning\*?|Game Loss|Match Loss|Disqualification|None)"
)


def test_every_infractions_penalty_is_the_one_the_quick_reference_gives(documents):
    # From 2010-07-01 each infraction prints its penalty in a box, which the page draws where
    # its text ends (2011-2015): the box goes to its infraction, its text stays in its part.
    checked = 0
    for release, document in documents[DocKind.IPG]:
        if release.effective_date < dt.date(2010, 7, 1):
            continue
        appendix = document.section("A")
        assert isinstance(appendix, Section) and "QUICK" in appendix.title.upper(), release.key
        rows = dict(
            (m["name"].split("—")[-1].strip(), m["penalty"])
            for row in appendix.paragraphs
            if (m := _QUICK_ROW.fullmatch(row))
        )
        for section in document.sections:
            if "—" not in section.title or section.title.split("—")[-1] not in rows:
                continue
            name = section.title.split("—")[-1]
            penalties = [part.paragraphs for part in section.parts if part.name == "Penalty"]
            expected = (rows[name],) if rows[name] != "None" else ("None",)
            found = penalties[0] if penalties else None
            if found == ("No Penalty",):  # the title line's words for the appendix's None
                found = ("None",)
            key = (release.effective_date.isoformat(), name)
            assert len(penalties) <= 1, (key, penalties)
            assert found == _BOXES_OTHERWISE.get(key, expected), (key, found)
            checked += 1
    assert checked > 500


def test_missed_triggers_parts_hold_their_own_paragraphs_from_2011_to_2015(documents):
    # IPG 2013-02-08 (read in the PDF): the Definition runs on past the page's penalty box
    # ('Warning*') with two paragraphs; Examples, Philosophy and Additional Remedy follow.
    ipg = {release.effective_date: document for release, document in documents[DocKind.IPG]}
    for date, document in ipg.items():
        if not dt.date(2011, 1, 1) <= date <= dt.date(2015, 12, 31):
            continue
        trigger = next(s for s in document.sections if s.title.endswith("Missed Trigger"))
        penalty = document.section(f"{trigger.number}/penalty")
        assert isinstance(penalty, SectionPart), date
        assert penalty.paragraphs in {("Warning",), ("Warning*",), ("None",)}, date
    definition = ipg[dt.date(2013, 2, 8)].section("2.1/definition")
    assert isinstance(definition, SectionPart)
    assert definition.paragraphs[0].startswith("A triggered ability triggers, but the player")
    assert definition.paragraphs[-2].startswith("Players may not cause triggered abilities")
    assert definition.paragraphs[-1].startswith("If a triggered ability would have no impact")
    trigger = ipg[dt.date(2013, 2, 8)].section("2.1")
    assert isinstance(trigger, Section)
    assert [(p.name, len(p.paragraphs)) for p in trigger.parts] == [
        ("Penalty", 1),
        ("Definition", 10),
        ("Examples", 4),
        ("Philosophy", 4),
        ("Additional Remedy", 3),
    ]


def test_a_hyphen_the_documents_print_at_a_line_end_is_kept(documents):
    # 462 lines of the 109 documents end in a hyphen; the documents print all but three as
    # hyphens ('previously-unknown', 'DCI-sanctioned', 'counter-clockwise'). The three words the
    # layout broke are the MTR 2000-06-01's 'side-board' and 'orga-nizer' (it prints
    # 'sideboard' and 'organizer') and its 'eligi-ble' (broken before an ending, 'eligible'
    # printed nowhere else).
    joined = re.compile(r"previouslyunknown|counterclockwise|singleelimination|statebased")
    mended: Counter[str] = Counter()
    for versions in documents.values():
        for release, document in versions:
            mended[release.key] = dict(release.normalisation).get("hyphenation", 0)
            for section in document.sections:
                texts = [*section.paragraphs, *(t for p in section.parts for t in p.paragraphs)]
                assert not any(joined.search(text) for text in texts), release.key
                assert not any("DCI- sanctioned" in text for text in texts), release.key
    assert +mended == {"mtr/en/2000-06-01": 3}
    for release, document in documents[DocKind.IPG]:
        if release.effective_date >= dt.date(2017, 1, 20):
            assert document.section("1.3").title == "RANDOMIZING A LIBRARY", release.key  # type: ignore[union-attr]


def test_citations_are_followed_to_the_version_of_the_document_in_force_that_day(
    policy_ingested, tmp_path
):
    # The MTR cites the CR: 'the Magic Comprehensive Rules (see section 101.5a)' from
    # 2006-12-20 to 2009-04-01, when the CR in force (10th Edition's, 2007-07-13) had 101.5
    # and no 101.5a; 'Comprehensive Rules, Section 806.6a' for Two-Headed Giant mulligans from
    # 2010-10-01, when the CR of that day had moved Two-Headed Giant from 806 to 810 (read in
    # the documents). The IPG's 'MTR section 4.3' is the MTR of its own day's 4.3.
    from rulesarchive.corpus.derived import DerivedData
    from rulesarchive.differ import report
    from rulesarchive.scraper.ingest import ingest_paths

    from rulesarchive.library import Library

    policy_root, _outcomes = policy_ingested
    root = tmp_path / "archive"
    shutil.copytree(policy_root, root, copy_function=os.link)
    cr = POLICY.parent / "cr-archive" / "en"
    ingest_paths(
        Archive(root, derived=DerivedData(None)),
        [cr / f"{date}.txt" for date in ("2007-07-13", "2010-10-01", "2013-07-11")],
    )
    mtr = Library(root, DerivedData(None), DocKind.MTR).check()
    lives = {
        (p.rule, p.cites): (p.since.effective_date.isoformat(), p.fixed.effective_date.isoformat())
        for p in mtr.problems
        if p.fixed
    }
    assert lives[("113", "CR 101.5a")] == ("2007-09-20", "2009-07-01")
    assert lives[("9.4", "CR 806.6a")] == ("2010-10-01", "2013-07-19")
    ipg = Library(root, DerivedData(None), DocKind.IPG)
    release = ipg.find("2013-02-08")
    checked = ipg.check_release(release)
    cited = {(r.rule, r.citation.doc, r.citation.first) for r in checked.references}
    assert ("2.1/definition", "mtr", "4.3") in cited
    assert checked.problems == ()
    cites = {(r["rule"], r["cites"]) for r in report.check_data(checked)["references"]}
    assert ("2.1/definition", "MTR 4.3") in cites  # as `check --doc ipg --format json` prints
    # 'Section 2 no longer exists' (2010-07-01 to 2012-06-29): the one IPG citation of a
    # section its version does not hold
    assert [(p.rule, p.cites) for p in ipg.check().problems] == [("introduction", "2")]


def test_a_section_or_part_is_looked_up_as_a_rule_is(policy_ingested):
    root, _outcomes = policy_ingested
    ipg = ApiArchive(root, cache=False, doc="ipg")
    penalty = ipg.rule("2.1/Penalty", release="2013-02-08")
    assert (penalty.rule.number, penalty.rule.text) == ("2.1/penalty", "Warning*")
    assert penalty.to_text().endswith("-- IPG, effective 2013-02-08\n")
    dice = ApiArchive(root, cache=False, doc="mtr").rule("3.9", release="2021-07-23")
    assert dice.to_json()["text"].startswith("Some game actions use a die roll")
    with pytest.raises(LookupError, match=r"has no text of its own: 2\.1/penalty"):
        ipg.rule("2.1")


def test_each_penalty_goes_with_its_infraction_when_the_sections_are_renumbered(
    policy_ingested, tmp_path
):
    # IPG 2012-10-01 (read in the PDFs): Looking at Extra Cards went from 3.3 to 2.2 and
    # Slow Play from 4.3 to 3.3, both with the penalty "Warning". Under the same address
    # the same word is not the same part: each penalty follows its own infraction.
    root, _outcomes = policy_ingested
    archive = ApiArchive(root, cache=tmp_path, doc="ipg")
    renumbering = archive.diff("2012-06-29", "2012-10-01").to_json()["renumbering"]
    moves = {move["old"]: move["new"] for move in renumbering}
    assert moves["3.3/penalty"] == "2.2/penalty" and moves["4.3/penalty"] == "3.3/penalty"
    assert moves["3.3/definition"] == "2.2/definition"
    # ... and the history of Looking at Extra Cards' penalty is its own back to 2001: a
    # Caution or Warning by REL, a Warning from 2010-07-01 (never Slow Play's text).
    penalty = archive.history("2.2/penalty")
    assert penalty.numbers == (
        "122/penalty",
        "211/penalty",
        "3.5/penalty",
        "3.3/penalty",
        "2.2/penalty",
    )
    texts = {v.effective_date: v.text for v in penalty.versions}
    assert texts[max(texts)] == texts[dt.date(2010, 7, 1)] == "Warning"
    assert not any("extra turn" in text.casefold() for text in texts.values())


def _paragraphs(documents, kind: DocKind, date: str, number: str) -> tuple[str, ...]:
    document = next(d for r, d in documents[kind] if r.effective_date.isoformat() == date)
    section = document.section(number)
    assert section is not None, (kind, date, number)
    return section.paragraphs


def test_the_audits_paragraph_and_word_faults_are_mended(documents):
    # MTR 2017-07-14's 2.13 and Appendix D ran paragraphs together where no line was wrapped;
    # 2017-06-19's 6.5 split '(effective April 28,' / '2017)'; IPG 2015-07-17 read 'rou nd'.
    spectators = "Spectators are also permitted to record matches provided that they do so"
    assert f"{spectators} unobtrusively." in _paragraphs(
        documents, DocKind.MTR, "2017-07-14", "2.13"
    )
    appendix = _paragraphs(documents, DocKind.MTR, "2017-07-14", "D")
    assert any(paragraph.startswith("For Ixalan, the recommended") for paragraph in appendix)
    vintage = _paragraphs(documents, DocKind.MTR, "2017-06-19", "6.5")
    assert "• Gitaxian Probe (effective April 28, 2017)" in vintage
    fine = _paragraphs(documents, DocKind.IPG, "2015-07-17", "1.1")
    match_loss = next(paragraph for paragraph in fine if paragraph.startswith("Match Losses are"))
    assert match_loss.endswith("be paired for the next round.")


_TABLED = re.compile(
    r"All Levels: [\w/ ]+|Regular: [\w/ ]+; Competitive: [\w/ ]+; Professional: [\w/ ]+"
)


def test_a_penalty_table_is_the_penalty_and_the_text_after_it_the_additional_remedy(documents):
    # IPG 2007-09-20 to 2010-04-01 (read in the PDFs): each infraction's Penalty opens with its
    # Rules Enforcement Level table, then the procedure the IPG names Additional Remedy from
    # 2010-07-01 on; 'Game' is the PDF's own, a cell that cut 'Game Loss' short.
    ipg = {release.effective_date: document for release, document in documents[DocKind.IPG]}
    tabled = [d for date, d in ipg.items() if dt.date(2007, 9, 20) <= date <= dt.date(2010, 4, 1)]
    penalties = [
        part.paragraphs
        for document in tabled
        for section in document.sections
        for part in section.parts
        if part.name == "Penalty"
    ]
    assert len(tabled) == 6 and len(penalties) == 199
    assert all(len(p) == 1 and _TABLED.fullmatch(p[0]) for p in penalties), penalties
    before = ipg[dt.date(2008, 9, 20)]
    assert _part(before, "123/penalty") == (
        "Regular: Caution; Competitive: Warning; Professional: Warning",
    )
    assert _part(before, "112/penalty") == (
        "Regular: Warning; Competitive: Game; Professional: Game",
    )
    assert _part(before, "132/penalty") == (
        "Regular: Warning; Competitive: Match Loss; Professional: Match Loss",
    )
    assert _part(before, "135/penalty") == ("All Levels: Warning",)
    assert before.section("135/additional-remedy") is None  # its table is all its Penalty
    remedy = _part(before, "123/additional-remedy")
    assert remedy[0].startswith('If the trigger instruction is optional ("may")')
    assert len(remedy) == 6
    # the last table's remedy is the next version's Additional Remedy, word for word
    assert _part(ipg[dt.date(2010, 4, 1)], "3.1/additional-remedy") == _part(
        ipg[dt.date(2010, 7, 1)], "3.1/additional-remedy"
    )


def _part(document: Document, address: str) -> tuple[str, ...]:
    part = document.section(address)
    assert isinstance(part, SectionPart), address
    return part.paragraphs


def test_missed_triggers_additional_remedy_is_followed_back_through_the_penalty_tables(
    policy_ingested, tmp_path
):
    root, _outcomes = policy_ingested
    archive = ApiArchive(root, cache=tmp_path, doc="ipg")
    remedy = archive.history("2.1/additional-remedy")
    assert remedy.numbers == (
        "123/additional-remedy",
        "3.3/additional-remedy",
        "3.1/additional-remedy",
        "2.1/additional-remedy",
    )
    assert remedy.versions[0].effective_date == dt.date(2007, 9, 20)
    # the penalty: a Warning at every level, then a Caution at Regular, then the Warning alone
    # of the IPG that no longer covers Regular events (2010-07-01)
    penalty: list[tuple[dt.date | None, str]] = []
    for version in archive.history("2.1/penalty").versions:  # renumbered: versions alike
        if not penalty or penalty[-1][1] != version.text:
            penalty.append((version.effective_date, version.text))
    assert penalty[:3] == [
        (dt.date(2007, 9, 20), "All Levels: Warning"),
        (dt.date(2008, 3, 20), "Regular: Caution; Competitive: Warning; Professional: Warning"),
        (dt.date(2010, 7, 1), "Warning"),
    ]


# An entry's label and colon that the changes appendices print after a sentence's end.
_GLUED_ENTRY = re.compile(
    r"(?<=[.!?)]) (?:Sections? \d{1,3}(?:\.\d{1,2})?|\d{1,3}(?:\.\d{1,2})?|Appendix [A-Z]"
    r"|General|Introduction|Framework|Repeat Offenses): "
)


def test_no_changes_appendix_runs_two_entries_together(documents):
    # IPG 2008-03-20, Appendix B (read in the PDF): 'General: ... (some deviation now
    # acceptable).' and '212: ... Game Rule Violation.' fill their lines, the entries after
    # them ('General: Making it clear ...', 'Appendix A: Added missing entry ...') are their own.
    checked = 0
    for versions in documents.values():
        for release, document in versions:
            for section in document.sections:
                if section.number.isalpha() and "CHANGES FROM" in section.title.upper():
                    checked += 1
                    for paragraph in section.paragraphs:
                        assert not _GLUED_ENTRY.search(paragraph), (release.key, paragraph)
    assert checked >= 100
    ipg = {release.effective_date: document for release, document in documents[DocKind.IPG]}
    changes = ipg[dt.date(2008, 3, 20)].section("B")
    assert isinstance(changes, Section)
    intentional = (
        "General: Making it clear that intentional infractions may be Cheating or Unsporting "
        "Conduct, but not always."
    )
    assert intentional in changes.paragraphs
    assert "Appendix A: Added missing entry for Failure to Reveal." in changes.paragraphs
