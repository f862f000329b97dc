"""What the changelogs and histories say, on the real archive: sweeps, glossary renames,
renumbering, the numbers a rule held (issue 31)."""

import itertools
import re

import pytest
from rulesarchive.differ.kinds import GlossaryKind, Kind
from rulesarchive.differ.sweeps import STOP_WORDS
from rulesarchive.differ.words import words_of

NOTATION = re.compile(r"\{o(\w+)\}")  # 2004's '{oW}', '{o2}', '{oT}'; '{W}' from 2005-02-01


def _diff(library, old, new):
    return library.diff(library.find(old), library.find(new))


@pytest.fixture(scope="module")
def notation_change(library):
    return _diff(library, "2004-10-01", "2005-02-01")


def test_the_2005_notation_change_is_one_sweep_over_rules_and_glossary(notation_change):
    sweeps = [s for s in notation_change.sweeps if NOTATION.fullmatch(s.old)]
    assert len(sweeps) == 1
    (sweep,) = sweeps
    assert NOTATION.sub(r"{\1}", sweep.old) == sweep.new
    # every rule and glossary entry whose only change is the notation is in it, as a sweep
    only_notation = [
        c
        for c in notation_change.changes
        if c.old_text != c.new_text and NOTATION.sub(r"{\1}", c.old_text) == c.new_text
    ]
    assert len(only_notation) >= 14
    assert {c.kind for c in only_notation} == {Kind.SWEEP}
    assert {c.new_number for c in only_notation} <= set(sweep.rules)
    entries = [
        c
        for c in notation_change.glossary
        if c.old_text != c.new_text and NOTATION.sub(r"{\1}", c.old_text) == c.new_text
    ]
    assert len(entries) == 12
    assert {c.kind for c in entries} == {GlossaryKind.SWEEP}
    assert {c.new_term for c in entries} == set(sweep.glossary)


def test_no_rule_is_substantive_for_the_notation_alone(notation_change):
    for change in notation_change.changes:
        if change.kind == Kind.SUBSTANTIVE:
            assert NOTATION.sub(r"{\1}", change.old_text) != change.new_text, change.new_number


def test_no_sweep_is_stop_words_alone_in_any_english_pair(library):
    releases = library.releases("en")
    found = []
    for old, new in itertools.pairwise(releases):
        for sweep in library.diff(old, new).sweeps:
            if set(words_of(f"{sweep.old} {sweep.new}")) <= STOP_WORDS:
                found.append((str(new.effective_date), sweep.old, sweep.new))
    assert found == []
    assert {"the", "a", "is", "also", "in"} <= STOP_WORDS  # 2009-07-11, 2014-06-01's noise


def test_a_glossary_term_renamed_and_reworded_is_renamed(notation_change):
    renamed = {(c.old_term, c.new_term): c for c in notation_change.glossary if c.renamed}
    assert set(renamed) == {
        ("APNAP", "APNAP Order"),
        ("Active Player, Nonactive Player Rule", "Active Player, Nonactive Player Order"),
    }
    terms = {
        c.old_term or c.new_term for c in notation_change.glossary if c.kind in {"added", "removed"}
    }
    assert not terms & {"APNAP", "APNAP Order"}


def test_glossary_lines_say_a_rename_once_and_a_citation_fix_is_reference(library):
    from rulesarchive.api import Comparison, Release

    found = library.changelog(library.find("2026-04-17"))
    by_term = {c.new_term: c for c in found.result.glossary}
    assert by_term["Map"].kind == GlossaryKind.REFERENCE  # only 110.10 -> 111.10, a fix
    text = Comparison(
        Release.of(found.old), Release.of(found.new), found.result, found.fixes
    ).to_text()
    assert "  renamed Removed from Combat → Remove from Combat\n" in text
    assert "  reference Map: “110.10” → “111.10”; fixes the citation of 110.10\n" in text
    # a number misprinted with a comma, mended: 'See rule 419,8' (2003-10-01 → 2003-12-01)
    mended = library.changelog(library.find("2003-12-01")).result.glossary
    (damage,) = [c for c in mended if c.new_term == "Source of Damage"]
    assert damage.kind == GlossaryKind.REFERENCE


def test_history_names_each_number_and_when_it_took_it(api_archive):
    text = api_archive.history("702.19b").to_text()
    assert "numbers: 702.19b (from 2013-07-13) ← 702.18b (from 2011-07-15)" in text
    lines = text.splitlines()
    assert any(
        line.startswith("2011-07-15 · no change in wording")
        and line.endswith("renumbered 702.17b → 702.18b on 2011-07-15")
        for line in lines
    )
    assert any(
        line.startswith("2013-07-13 … ")
        and line.endswith("renumbered 702.18b → 702.19b on 2013-07-13")
        for line in lines
    )
    every = api_archive.history("702.19b").to_text(every_release=True).splitlines()
    assert "2013-07-13 · Magic 2014 (M14) · 702.19b · renumbered 702.18b → 702.19b" in every
    assert not any(line.startswith("2013-07-13 ") and line.endswith("unchanged") for line in every)
    assert "701.4a (from 2009-07-11)" in api_archive.history("701.5a").to_text()


@pytest.fixture(scope="module")
def api_archive(library):
    from rulesarchive.api import Archive

    archive = Archive(library.root, cache=False)
    archive.library = library  # the session's derived data
    return archive


def _changelog_text(library, date, **selection):
    from rulesarchive.api import Comparison, Release

    found = library.changelog(library.find(date))
    old, new = Release.of(found.old), Release.of(found.new)
    return Comparison(old, new, found.result, found.fixes, **selection).to_text()


def _renumbering_lines(text):
    return text.split("\nRenumbering:\n", 1)[1].splitlines() if "\nRenumbering:\n" in text else []


def test_a_chapter_shift_is_one_line_of_the_renumbering(library):
    assert _renumbering_lines(_changelog_text(library, "2026-04-17")) == [
        "  714.3b → 714.3c",  # the old 714.3a was split into 714.3a and 714.3b
        "  722–732 → 723–733, with their 103 rules",
    ]
    lines = _renumbering_lines(_changelog_text(library, "2009-07-11"))
    assert 0 < len(lines) < 400  # 1,148 moves; 655 lines when ranges restarted at each letter
    assert "  702.21–702.142 → 702.22–702.143, with their 324 sub-rules" in _renumbering_lines(
        _changelog_text(library, "2021-04-22")
    )


def test_every_changelog_prints_one_change_a_line(library):
    releases = library.releases("en")
    for release in releases[1:]:
        text = _changelog_text(library, release.effective_date.isoformat())
        glossary = text.split("\nGlossary:\n", 1)[1] if "\nGlossary:\n" in text else ""
        for line in glossary.split("\n\n", 1)[0].splitlines():
            assert line.startswith("  "), (release.effective_date, line)


def test_changelog_keeps_only_the_kinds_and_section_asked_for(library):
    text = _changelog_text(library, "2009-07-11", section="7", kinds=("substantive",))
    changes = [line for line in text.splitlines() if line.startswith("substantive ")]
    assert changes and all(" 7" in line.split(":")[0] for line in changes)
    assert not any(line.startswith(("added ", "removed ", "sweep:")) for line in text.splitlines())
    assert "\nGlossary:\n" not in text
    glossary = _changelog_text(library, "2005-02-01", section="glossary")
    assert "renamed APNAP → APNAP Order" in glossary and "\nRenumbering:" not in glossary


def test_a_chapter_heading_follows_its_rules(library):
    m10 = {
        (c.old_number, c.new_number) for c in _diff(library, "2009-05-01", "2009-07-11").headings
    }
    assert {("300", "500"), ("600", "800"), ("312", "512")} <= m10  # 'General' x2, End Phase
    assert ("300", "300") not in m10
    eighth = _diff(library, "2003-05-26", "2003-07-01").headings
    renamed = {(c.old_text, c.new_text) for c in eighth if c.old_number == c.new_number}
    assert {("Spells", "Spells on the Stack"), ("Spell Type", "Spells")} <= renamed
