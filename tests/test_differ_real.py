"""The differ on the real archive: typography flattening, the 2009 rewrite, rule histories."""

import datetime as dt

from rulesarchive.corpus.lookup import find_release
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.history import rule_history
from rulesarchive.differ.words import phrases_of


def _diff(archive, old, new):
    return diff_documents(
        archive.load(find_release(archive, old)), archive.load(find_release(archive, new))
    )


def test_flattened_typography_of_2019_01_25_is_typography(ingested):
    archive, _ = ingested
    for old, new in (("2018-10-05", "2019-01-25"), ("2019-01-25", "2019-05-03")):
        result = _diff(archive, old, new)
        assert len(result.of_kind("typography")) > 1000
        assert len(result.of_kind("substantive")) < 20
    wording = {
        c.new_number for c in _diff(archive, "2018-10-05", "2019-01-25").of_kind("substantive")
    }
    assert "114.6" in wording


def test_magic_2010_rewrite_maps_surviving_rules(ingested):
    archive, _ = ingested
    result = _diff(archive, "2009-05-01", "2009-07-08")
    moves = dict(result.renumbering)
    assert len(moves) > 500
    assert moves["217.1d"] == "400.6"


def test_history_follows_400_6_back_through_the_renumbering(ingested):
    archive, _ = ingested
    history = rule_history(archive, "400.6")
    assert history.numbers[0] == "217.1d" and history.numbers[-1] == "400.6"
    by_date = {v.effective_date: v for v in history.versions}
    assert by_date[dt.date(2011, 5, 1)].kind == "substantive"
    assert [(p.old, p.new) for p in by_date[dt.date(2011, 5, 1)].phrases] == [
        ("its owner looks", "all players look")
    ]
    assert by_date[dt.date(2019, 1, 25)].kind == "typography"


def test_real_splits_and_example_and_glossary_diffs(ingested):
    archive, _ = ingested
    splits = _diff(archive, "2025-09-19", "2025-11-14").splits
    assert (("500.5",), ("500.5a", "500.5b")) in [(s.old, s.new) for s in splits]
    result = _diff(archive, "2024-11-08", "2025-02-07")
    by_number = {c.new_number: c for c in result.changes}
    assert by_number["616.1g"].kind == "example"
    assert ("Voice of All", "this creature") in [
        (p.old, p.new) for d in by_number["616.1g"].example_diffs for p in phrases_of(d)
    ]
    added_terms = {c.new_term for c in result.glossary if c.kind == "added"}
    assert {"Exhaust", "Max Speed", "Start Your Engines!"} <= added_terms
