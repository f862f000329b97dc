"""Reject documents that are cut short, implausibly small or out of order."""

from __future__ import annotations

import re

from rulesarchive.corpus.model import Document
from rulesarchive.corpus.numbers import rule_sort_key

MIN_RULES = 300
_COMPLETE_ENDING = re.compile(r"""[.:;!?)\]"'”’。）」]$""")


def find_damage(document: Document) -> list[str]:
    """Return what is wrong with a parsed document; an empty list means it looks whole."""
    problems = []
    if len(document.rules) < MIN_RULES:
        problems.append(f"only {len(document.rules)} rules (a complete document has {MIN_RULES}+)")
    if not document.glossary:
        problems.append("ends early: no glossary")
    if not document.credits:
        problems.append("ends early: no credits")
    if document.rules and not _COMPLETE_ENDING.search(document.rules[-1].printed_text.strip()):
        last = document.rules[-1]
        problems.append(f"ends early: rule {last.number} is cut mid-sentence")
    for before, after in zip(document.rules, document.rules[1:], strict=False):
        if rule_sort_key(after.number) <= rule_sort_key(before.number):
            problems.append(f"rule numbers out of order: {after.number} after {before.number}")
            break
    return problems


def compare_with_neighbours(rule_count: int, neighbour_counts: list[int]) -> str | None:
    """Say why a rule count is far below the releases around it, or return None."""
    if not neighbour_counts:
        return None
    expected = min(neighbour_counts)
    if rule_count < 0.8 * expected:
        return f"only {rule_count} rules where neighbouring releases have {expected} or more"
    return None
