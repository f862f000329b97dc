"""Normalisation: one canonical typography, counted per kind; the printed text is kept."""

from collections import Counter

import pytest
from rulesarchive.corpus.model import Document, Rule
from rulesarchive.corpus.typography import normalise_text
from rulesarchive.scraper.normalise import normalise_document


@pytest.mark.parametrize(
    "printed",
    [
        "that object’s controller—or its owner",
        "that object's controller -- or its owner",
        "that object's controller--or its owner",
        "that object's controller — or its owner",
        "that object's  controller - or its owner",
    ],
)
def test_quote_and_dash_variants_normalise_alike(printed):
    assert normalise_text(printed) == "that object's controller—or its owner"


def test_marks_and_italics():
    assert (
        normalise_text("_Magic: The Gathering_(R) and _Magic_(TM)")
        == "Magic: The Gathering® and Magic™"
    )
    assert normalise_text("Magic: The Gathering® and Magic™") == "Magic: The Gathering® and Magic™"


@pytest.mark.parametrize("word", ["non-Aura", "one-shot", "Snow-Covered", "-1/-1", "+1/+1"])
def test_real_hyphens_survive(word):
    assert normalise_text(f"a {word} thing") == f"a {word} thing"


def test_range_en_dash_becomes_hyphen():
    assert normalise_text("rules 614.1c–d") == "rules 614.1c-d"


def test_counts_only_real_changes():
    counts = Counter()
    normalise_text("“quoted” and already 'plain' — dash", counts)
    assert counts == {"quotes": 2, "dashes": 2}
    counts.clear()
    normalise_text("canonical 'text'—here", counts)
    assert counts == {}


def test_document_keeps_printed_text_and_logs_counts():
    document = Document("en", None, rules=(Rule("100.1", "It’s “it”.", ("An – example",)),))
    normalised = normalise_document(document)
    rule = normalised.rules[0]
    assert rule.text == 'It\'s "it".'
    assert rule.printed_text == "It’s “it”."
    assert rule.examples == ("An—example",)
    assert rule.printed_examples == ("An – example",)
    assert dict(normalised.normalisation) == {"quotes": 3, "dashes": 1}


# Outputs and counts of the regular-expression passes these replaced (string splits and
# str.replace since): each dash form, a spaced hyphen before a double hyphen, marks.
@pytest.mark.parametrize(
    ("printed", "canonical", "counts"),
    [
        ("x - -- y", "x —- y", {"dashes": 2}),
        ("Creature — Elf", "Creature—Elf", {"dashes": 2}),
        ("a -- b", "a—b", {"dashes": 2}),
        ("a ―b", "a—b", {"dashes": 2}),
        ("x —  — y", "x——y", {"dashes": 3}),
        ("it’s “so”", 'it\'s "so"', {"quotes": 3}),
        ("DCI_(TM) and (tm)", "DCI™ and ™", {"trademark": 2}),
        ("end…", "end...", {"ellipsis": 1}),
    ],
)
def test_each_pass_changes_and_counts_as_the_patterns_did(printed, canonical, counts):
    found: Counter[str] = Counter()
    assert normalise_text(printed, found) == canonical
    assert found == counts
