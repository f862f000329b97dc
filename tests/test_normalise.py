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
