"""Comprehensive Rules numbers: parsing, ordering and parents."""

from __future__ import annotations

import re

RULE_NUMBER = re.compile(r"(\d{3})(?:\.(\d+)([a-z]{0,2}))?")
# A citation in running text: '614.15', '601.2b' (and the first rule of a range such as
# '601.2f–h'); a chapter alone ('rule 702') is not a rule.
CITATION = re.compile(r"(?<![\d.])(\d{3}\.\d+[a-z]?)(?![\d])")


def rule_sort_key(number: str) -> tuple[int, int, int, str]:
    """Order rule numbers as the rules do: 100.2 < 100.10, 704.5k < 704.5m < 704.5aa."""
    match = RULE_NUMBER.fullmatch(number)
    if match is None:
        return (10_000, 0, 0, number)
    chapter, rule, letters = match.groups()
    return (int(chapter), int(rule) if rule else -1, len(letters or ""), letters or "")


def parent_of(number: str) -> str | None:
    """Return the rule a sub-rule belongs to: '702.19' for '702.19b', None for '702.19'."""
    match = RULE_NUMBER.fullmatch(number)
    if match is None or not match.group(2):
        return None
    if match.group(3):
        return f"{match.group(1)}.{match.group(2)}"
    return match.group(1)


def cited_numbers(text: str) -> list[str]:
    """Return the rule numbers a text cites, in order, each once."""
    return list(dict.fromkeys(match.group(1) for match in CITATION.finditer(text)))
