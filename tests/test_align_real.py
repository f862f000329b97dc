"""Splits and merges on the real archive: found when the parts were reworded, the line of the
whole carried on by the part under its number, and the parts' histories saying where they
came from."""

import datetime as dt

import pytest
from rulesarchive.corpus.lookup import find_release
from rulesarchive.differ.classify import diff_documents


def _diff(archive, old, new):
    return diff_documents(
        archive.load(find_release(archive, old)), archive.load(find_release(archive, new))
    )


def _pairs(diff):
    return {(c.old_number, c.new_number) for c in diff.changes}


@pytest.mark.parametrize(
    ("old", "new", "whole", "parts"),
    [
        # the second part reworded into an intrinsic ability
        ("2026-02-27", "2026-04-17", "714.3a", ("714.3a", "714.3b")),
        # constructed play in a sub-rule of its own
        ("2009-05-01", "2009-07-11", "100.2", ("100.2", "100.2a")),
        # the exceptions, each reworded into a sub-rule of its own
        ("2005-10-01", "2006-02-01", "402.8", ("402.8", *(f"402.8{c}" for c in "abcdefg"))),
        # one rule for spells and activated abilities, one for triggered abilities
        ("2020-06-01", "2020-07-03", "610.3a", ("610.3a", "610.3b")),
        ("2007-02-01", "2007-05-01", "104.1", ("104.1", "104.1a")),
        ("2017-08-25", "2017-09-29", "112.10", ("112.10", "112.10b", "112.10c")),
        # artifact, enchantment ... each have their own unique set of subtypes; each part opens
        # with what 205.3d said of it and goes on with its list of types
        ("2009-05-01", "2009-07-11", "205.3d", tuple(f"204.3{c}" for c in "fghijk")),
    ],
)
def test_a_split_is_found_when_its_parts_were_reworded(ingested, old, new, whole, parts):
    archive, _ = ingested
    splits = {s.old: s.new for s in _diff(archive, old, new).splits}
    assert set(parts) <= set(splits[(whole,)])


@pytest.mark.parametrize(
    ("old", "new", "whole", "added"),
    [
        ("2026-02-27", "2026-04-17", "714.3a", "714.3b"),
        ("2005-10-01", "2006-02-01", "402.8", "402.8g"),
        ("2020-06-01", "2020-07-03", "610.3a", "610.3b"),
        ("2007-02-01", "2007-05-01", "104.1", "104.1a"),
        # the layer list keeps 613.1a in place; its copy effects went on to 613.2a
        ("2020-01-24", "2020-04-17", "613.1a", "613.2a"),
    ],
)
def test_the_part_under_the_wholes_number_carries_its_line(ingested, old, new, whole, added):
    archive, _ = ingested
    pairs = _pairs(_diff(archive, old, new))
    assert (whole, whole) in pairs and (None, added) in pairs


@pytest.mark.parametrize(
    ("old", "new", "parts", "whole"),
    [
        ("2022-04-29", "2022-06-10", ("705.1", "705.2"), "705.2"),
        ("2020-01-24", "2020-04-17", ("613.3c", "613.3d"), "613.4c"),
        # 'If an object has more than one name...' folded into 'Two or more objects have the
        # same name if they have at least one name in common'
        ("2020-11-20", "2021-02-05", ("201.2a", "201.2b"), "201.2a"),
    ],
)
def test_a_merge_is_found_when_the_whole_was_reworded(ingested, old, new, parts, whole):
    archive, _ = ingested
    assert (parts, (whole,)) in [(m.old, m.new) for m in _diff(archive, old, new).merges]


def test_a_rule_that_only_shares_words_with_a_part_keeps_its_successor(ingested):
    # 702.124f ('Partner with [name]') lives on in 702.124i; the new 702.124f ('Different
    # partner abilities are distinct') comes after 702.124a in the split: no line to carry
    archive, _ = ingested
    assert ("702.124f", "702.124i") in _pairs(_diff(archive, "2023-09-01", "2023-10-13"))


def test_a_split_part_says_where_it_came_from(library):
    versions = library.history("714.3b").versions
    assert versions[0].effective_date == dt.date(2026, 4, 17)
    assert versions[0].split_from == "714.3a" and versions[0].kind == "added"
    # the whole's own line goes on under its number
    assert library.history("714.3a").versions[0].effective_date < dt.date(2026, 1, 1)


def test_the_exception_split_from_402_8_starts_at_the_split(library):
    # 113.6m ('An ability whose cost or effect specifies that it moves the object...') was
    # split from 402.8 in 2006: its line does not go back to the 1999 general rule
    history = library.history("113.6m")
    assert history.versions[0].effective_date == dt.date(2006, 2, 1)
    assert history.versions[0].split_from == "402.8"
    general = library.history("113.6")
    assert general.numbers[0] == "402.8" and general.versions[0].effective_date.year == 1999


def test_a_merge_is_a_version_of_the_rule_merged_into(library):
    by_date = {v.effective_date: v for v in library.history("705.2").versions}
    assert by_date[dt.date(2022, 6, 10)].merged_from == ("705.1", "705.2")


def test_the_1999_sub_rules_printed_without_their_rule_are_not_merged(ingested):
    archive, _ = ingested
    diff = _diff(archive, "1999-04-23", "1999-11-01")
    assert {("408.2f", "408.2f"), ("408.2g", "408.2g")} & _pairs(diff)
    assert not [m for m in diff.merges if "408.2e" in m.new]


def test_the_turn_structure_rewrite_places_priority_rules_by_their_step(ingested):
    # 2016-09-30 rewrote every step as '... the active player gets priority': each step's
    # rule comes from that step, not from another step that reads the same
    archive, _ = ingested
    pairs = _pairs(_diff(archive, "2016-08-26", "2016-09-30"))
    assert {
        ("504.3", "504.2"),
        ("507.3", "507.2"),
        ("508.3", "508.2"),
        ("509.5", "509.4"),
        ("510.4", "510.3"),
        # the end of combat step's priority rule now comes first, its triggers second
        ("511.2", "511.1"),
        ("511.1", "511.2"),
    } <= pairs
    crossed = {("503.2", "504.2"), ("511.2", "505.4"), ("513.2", "507.2"), ("504.3", "510.3")}
    assert not crossed & pairs


def test_a_removed_keyword_rule_is_not_paired_with_another_keywords_new_rule(ingested, library):
    # Prowl's 702.73b went with the combat damage change of 2009-09-04; Deathtouch's new
    # 702.2d (today's 702.2e) reads alike (last known information) but is not its successor
    archive, _ = ingested
    pairs = _pairs(_diff(archive, "2009-07-11", "2009-09-04"))
    assert ("702.73b", None) in pairs and (None, "702.2d") in pairs
    assert not any(number.startswith("702.73") for number in library.history("702.2e").numbers)


def test_a_rule_folded_into_its_neighbour_is_not_paired_with_the_next_one(ingested):
    # 201.2b's best match, 201.2a, went to the old 201.2a: 201.2b was merged into it, and the
    # new 201.2c (different names) is a new rule, not 201.2b rewritten
    archive, _ = ingested
    pairs = _pairs(_diff(archive, "2020-11-20", "2021-02-05"))
    assert {("201.2a", "201.2a"), ("201.2c", "201.2b"), ("201.2b", None), (None, "201.2c")} <= pairs


def test_a_new_keyword_rule_is_no_part_of_another_keywords_rule(ingested):
    # Hexproof's new 702.11g ('Hexproof from each [characteristic]') reads like Protection's
    # 702.16h, a few changed pairs away: it is no part of it
    archive, _ = ingested
    splits = _diff(archive, "2024-04-10", "2024-06-07").splits
    assert not [s for s in splits if "702.16h" in s.old and "702.11g" in s.new]


@pytest.mark.parametrize(
    ("old", "new", "moved", "added"),
    [
        # 'If a cost is reduced by an amount of colored mana, but...' went on as 117.7b; the
        # new 117.7a (generic mana reductions) was put before it
        ("2015-11-13", "2016-01-16", ("117.7a", "117.7b"), "117.7a"),
        # '"change any targets"' went on word for word as 114.6c
        ("2011-04-01", "2011-05-01", ("114.6b", "114.6c"), "114.6b"),
        # landcycling went on as typecycling; 502.18c speaks of cycling triggers
        ("2007-02-01", "2007-05-01", ("502.18c", "502.18d"), "502.18c"),
    ],
)
def test_a_rule_put_before_its_successor_does_not_take_its_line(ingested, old, new, moved, added):
    archive, _ = ingested
    pairs = _pairs(_diff(archive, old, new))
    assert moved in pairs and (None, added) in pairs


def test_a_rule_that_only_reads_like_one_of_another_chapter_does_not_move_there(ingested):
    # Commander's 903.9 (mana outside the color identity becomes colorless) was removed in
    # 2016; the new 106.10 (generic mana symbols add colorless mana) reads alike, but the
    # rules either side of both stayed in their chapters
    archive, _ = ingested
    pairs = _pairs(_diff(archive, "2015-11-13", "2016-01-16"))
    assert ("903.9", None) in pairs and (None, "106.10") in pairs


def test_a_rule_rewritten_between_the_same_neighbours_is_one_change(ingested):
    # 2009 gave 100.2 a sub-rule for constructed play (100.2a) and one for limited play
    # (100.2b): the old 100.3 ('For sealed deck or draft play, only forty cards...') is 100.2b,
    # both between 100.2 and the sideboard rules
    archive, _ = ingested
    assert ("100.3", "100.2b") in _pairs(_diff(archive, "2009-05-01", "2009-07-11"))


def test_a_text_printed_in_two_sections_follows_its_siblings(ingested, library):
    # 2003-07-01 printed 'Any land with the supertype "basic" is a basic land...' as 205.4b
    # (supertypes) and 212.6f (lands); the old 214.9g (nonbasic lands) goes to the lands,
    # where its siblings 214.9a-f went (212.6, though titled 'Land', not 'Lands')
    archive, _ = ingested
    assert ("214.9g", "212.6f") in _pairs(_diff(archive, "2003-05-26", "2003-07-01"))
    assert "214.9g" in library.history("205.4c").numbers


def test_a_rule_whose_siblings_scattered_does_not_follow_one_of_them(ingested):
    # 2003-07-01 dissolved 415 ('Editing Spells'): 415.2 went to 415.7a, 415.3 to 213.5, 415.4
    # to 418.6a; the introduction 415.1 ('A few effects can "edit" a spell or ability...') was
    # dropped, not rewritten as 418.6d (a token's creature type changed by text-changing
    # effects, part of 415.4's example)
    archive, _ = ingested
    diff = _diff(archive, "2003-05-26", "2003-07-01")
    assert ("415.1", None) in _pairs(diff)
    assert (("415.4",), ("418.6a", "418.6b", "418.6c", "418.6d")) in [
        (s.old, s.new) for s in diff.splits
    ]


def test_a_new_rule_beside_a_cut_one_is_no_part_of_it(ingested):
    # 2024-06-07: 702.11f lost its example sentence and a new 702.11g ('Hexproof from each
    # [characteristic]') was added after it; 702.11g holds none of the lost sentence's words
    archive, _ = ingested
    diff = _diff(archive, "2024-04-12", "2024-06-07")
    assert not [s for s in diff.splits if "702.11f" in s.old]
    assert {("702.11f", "702.11f"), (None, "702.11g"), ("702.11g", "702.11h")} <= _pairs(diff)


@pytest.mark.parametrize(
    ("old", "new", "parts", "whole"),
    [
        # 414 ('Countering Spells and Abilities') went into 701.5 ('Counter'): 414.2 is 701.5b,
        # and 414.1 said what 501.3a said, which sent readers to 414
        ("2009-05-01", "2009-07-11", ("414.1", "501.3a"), "701.5a"),
        # 'Effects that remove an ability remove all instances of it.' joined 407.1 as 402.9
        ("2008-05-01", "2008-07-15", ("407.1", "407.3"), "402.9"),
        # the state triggers and when they trigger again, one rule
        ("1999-04-23", "1999-11-01", ("410.8a", "410.8b"), "410.11"),
    ],
)
def test_a_rule_merged_where_its_siblings_went_is_a_merge(ingested, old, new, parts, whole):
    archive, _ = ingested
    diff = _diff(archive, old, new)
    assert (parts, (whole,)) in [(m.old, m.new) for m in diff.merges]


def test_the_counter_rule_says_what_was_merged_into_it(library):
    # today's 701.6a was 501.3a, then 701.5a: 2009 merged 414.1 into it
    by_date = {v.effective_date: v for v in library.history("701.6a").versions}
    assert by_date[dt.date(2009, 7, 11)].merged_from == ("414.1", "501.3a")


@pytest.mark.parametrize(
    ("old", "new", "giver", "parts", "into", "merged"),
    [
        # 310.1's opening (the players announce how combat damage is assigned) went into the
        # new 310.1, written around the old 310.2; its restrictions went on as 310.2
        ("2003-05-26", "2003-07-01", "310.1", ("310.1", "310.2"), "310.1", ("310.1", "310.2")),
        # the first sentence of 410.1 ('When a phase or step begins...') went into 410.2
        ("1999-04-23", "1999-11-01", "410.1", ("410.1", "410.2"), "410.2", ("410.1", "410.2")),
        # snow-covered landwalk's own sentence went from 502.6b to 502.6c
        (
            "2003-05-26",
            "2003-07-01",
            "502.6b",
            ("502.6b", "502.6c"),
            "502.6c",
            ("502.6b", "502.6c"),
        ),
    ],
)
def test_a_clause_passed_on_to_a_sibling_is_a_split_and_a_merge(
    ingested, old, new, giver, parts, into, merged
):
    archive, _ = ingested
    diff = _diff(archive, old, new)
    assert ((giver,), parts) in [(s.old, s.new) for s in diff.splits]
    assert (merged, (into,)) in [(m.old, m.new) for m in diff.merges]


def test_the_combat_damage_rules_of_2003_keep_their_lines(ingested):
    # both go on: 310.1 as 310.2 (with its sub-rules 310.1a-d as 310.2a-d), 310.2 as 310.1
    archive, _ = ingested
    pairs = _pairs(_diff(archive, "2003-05-26", "2003-07-01"))
    assert {("310.1", "310.2"), ("310.2", "310.1"), ("310.1d", "310.2d")} <= pairs
