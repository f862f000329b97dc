"""The differ on the real archive: typography flattening, the 2009 rewrite, rule histories."""

import datetime as dt
import itertools

from rulesarchive.corpus.lookup import find_release
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.words import phrases_of


def _diff(archive, old, new):
    return diff_documents(
        archive.load(find_release(archive, old)), archive.load(find_release(archive, new))
    )


def _of_kind(diff, kind):
    """The diff's changes of one kind."""
    return [change for change in diff.changes if change.kind == kind]


def test_flattened_typography_of_2019_01_25_is_typography(ingested):
    archive, _ = ingested
    for old, new in (("2018-10-05", "2019-01-25"), ("2019-01-25", "2019-05-03")):
        result = _diff(archive, old, new)
        assert len(_of_kind(result, "typography")) > 1000
        assert len(_of_kind(result, "substantive")) < 20
    wording = {
        c.new_number for c in _of_kind(_diff(archive, "2018-10-05", "2019-01-25"), "substantive")
    }
    assert "114.6" in wording


def test_magic_2010_rewrite_maps_surviving_rules(ingested):
    archive, _ = ingested
    result = _diff(archive, "2009-05-01", "2009-07-08")
    moves = dict(result.renumbering)
    assert len(moves) > 500
    assert moves["217.1d"] == "400.6"


def test_history_follows_400_6_back_through_the_renumbering(library):
    history = library.history("400.6")
    assert history.numbers[0] == "217.1d" and history.numbers[-1] == "400.6"
    by_date = {v.effective_date: v for v in history.versions}
    assert by_date[dt.date(2011, 5, 1)].kind == "substantive"
    assert [(p.old, p.new) for p in by_date[dt.date(2011, 5, 1)].phrases] == [
        ("its owner looks", "all players look")
    ]
    assert by_date[dt.date(2019, 1, 25)].kind == "typography"
    assert ("Exquisite Archangel", "this creature") in [
        (p.old, p.new) for p in by_date[dt.date(2025, 2, 7)].example_phrases
    ]
    assert by_date[dt.date(2025, 2, 7)].kind == "example"


def test_history_of_the_legend_rule_goes_back_to_the_legend_rule(library):
    history = library.history("704.5j")
    assert history.numbers == ("420.5e", "704.5k", "704.5j")
    assert all("legend" in v.text.casefold() for v in history.versions)


def test_history_kinds_are_the_release_diffs_kinds(library):
    by_date = {v.effective_date: v for v in library.history("100.2a").versions}
    assert by_date[dt.date(2018, 4, 27)].kind == "sweep"
    assert [(p.old, p.new) for p in by_date[dt.date(2018, 4, 27)].phrases] == [
        ("his or her", "their")
    ]


def test_the_2008_placeholders_fake_no_version_of_400_6(library):
    versions = library.history("400.6").versions
    around = [
        v for v in versions if dt.date(2008, 1, 1) <= v.effective_date <= dt.date(2009, 7, 31)
    ]
    assert [v.kind for v in around if v.kind not in {"typography", "unchanged"}] == [
        "substantive",
        "substantive",
    ]  # 2008-10-01 and 2009-02-01 changed the wording; the '?' files changed nothing


def test_real_splits_and_example_and_glossary_diffs(ingested):
    archive, _ = ingested
    splits = _diff(archive, "2025-09-19", "2025-11-14").splits
    # 500.5's sentences went to 500.4 (effects that end as a step begins), 500.5a and 500.5b
    assert (("500.5",), ("500.4", "500.5a", "500.5b")) in [(s.old, s.new) for s in splits]
    result = _diff(archive, "2024-11-08", "2025-02-07")
    by_number = {c.new_number: c for c in result.changes}
    assert by_number["616.1g"].kind == "example"
    assert ("Voice of All", "this creature") in [
        (p.old, p.new) for d in by_number["616.1g"].example_diffs for p in phrases_of(d)
    ]
    added_terms = {c.new_term for c in result.glossary if c.kind == "added"}
    assert {"Exhaust", "Max Speed", "Start Your Engines!"} <= added_terms


def _pairs(archive, old, new):
    return {(c.old_number, c.new_number) for c in _diff(archive, old, new).changes}


def test_alignment_prefers_the_better_match_to_the_same_number(ingested):
    archive, _ = ingested
    # texts that moved down one place follow their text, not their old number
    assert {("613.2", "613.3"), ("613.3", "613.4"), (None, "613.2")} <= _pairs(
        archive, "2020-01-24", "2020-04-17"
    )
    assert {("702.124i", "702.124j"), (None, "702.124i")} <= _pairs(
        archive, "2025-09-19", "2025-11-14"
    )
    assert {("702.36c", "702.36d"), ("702.36d", "702.36e")} <= _pairs(
        archive, "2015-01-23", "2015-03-27"
    )


def test_a_rule_rewritten_in_place_is_one_change(ingested):
    archive, _ = ingested
    changes = {c.new_number: c for c in _diff(archive, "2019-01-25", "2019-05-03").changes}
    assert changes["117.9b"].old_number == "117.9b"
    assert changes["117.9b"].kind == "substantive"


def test_template_look_alikes_do_not_cross_pair_across_2009(ingested):
    archive, _ = ingested
    pairs = _pairs(archive, "2009-05-01", "2009-07-11")
    assert ("502.63a", "702.2a") in pairs  # deathtouch's first rule, not poisonous
    assert ("502.69a", "702.67a") in pairs  # poisonous
    assert ("410.2", "603.2") in pairs  # the trigger rule follows its opening sentence
    removed = [c for c in _diff(archive, "2009-05-01", "2009-07-11").changes if c.kind == "removed"]
    assert len(removed) < 120


def test_no_change_of_the_same_words_is_a_wording_change(ingested):
    archive, _ = ingested
    from rulesarchive.differ.texts import words_key

    releases = archive.releases("en")
    documents = [archive.load(release) for release in releases]
    for before, after in itertools.pairwise(documents):
        for change in diff_documents(before, after).changes:
            if change.kind in {"substantive", "sweep", "truncation"}:
                assert words_key(change.old_text) != words_key(change.new_text), change


def test_sections_and_chapters_are_diffed(ingested):
    archive, _ = ingested
    dungeons = _diff(archive, "2021-06-18", "2021-07-23").headings
    assert ("added", None, "309", "Dungeons") in [
        (c.kind, c.old_number, c.new_number, c.new_text) for c in dungeons
    ]
    assert ("309", "310") in [(c.old_number, c.new_number) for c in dungeons]  # Planes moved
    kindred = _diff(archive, "2024-04-12", "2024-06-07").headings
    assert [(c.kind, c.old_text, c.new_text) for c in kindred] == [
        ("substantive", "Tribals", "Kindreds")
    ]
    m10 = {
        (c.old_number, c.new_number) for c in _diff(archive, "2009-05-01", "2009-07-11").headings
    }
    assert ("103", "101") in m10  # The Magic Golden Rules


def test_a_rule_follows_its_chapter_when_the_chapter_moved_by_title(ingested):
    archive, _ = ingested

    def pairs(old, new):
        return {c.old_number: c.new_number for c in _diff(archive, old, new).changes}

    # 806 'Two-Headed Giant Variant' became 810; 808.2 (Team vs. Team) reads the same
    assert pairs("2010-04-23", "2010-06-18")["806.3"] == "810.3"
    # 'Hand Modifier' 209 -> 210; the vanguard chapter's own hand modifier rule 310.6 -> 311.6
    far = pairs("2010-04-23", "2021-02-15")
    assert (far["209.1"], far["210.1"], far["310.6"], far["310.7"]) == (
        "210.1",
        "211.1",
        "311.6",
        "311.7",
    )


def test_a_range_that_grows_with_its_list_is_a_reference_update(ingested):
    # 301.7 became 301.5e, so 301.6's 'Rules 301.5a-d apply to Fortifications' became
    # '301.5a-e': the range still covers every Equipment rule, the wording did not change
    archive, _ = ingested
    changes = {c.new_number: c for c in _diff(archive, "2013-07-13", "2013-09-27").changes}
    assert changes["301.5e"].old_number == "301.7"
    assert changes["301.6"].kind == "reference"
