"""Rule numbers sort in rule order and know their parents."""

from rulesarchive.corpus.numbers import parent_of, rule_sort_key


def test_numbers_sort_in_rule_order_not_string_order():
    numbers = [
        "100.10",
        "100.2",
        "100.1a",
        "100.1",
        "702.190",
        "702.19b",
        "702.19",
        "704.5z",
        "704.5aa",
    ]
    assert sorted(numbers, key=rule_sort_key) == [
        "100.1",
        "100.1a",
        "100.2",
        "100.10",
        "702.19",
        "702.19b",
        "702.190",
        "704.5z",
        "704.5aa",
    ]


def test_parents():
    assert parent_of("702.19b") == "702.19"
    assert parent_of("702.19") == "702"
    assert parent_of("702") is None
