"""Reject documents that are cut short, implausibly small or out of order."""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from rulesarchive.corpus.model import Document
from rulesarchive.corpus.numbers import rule_sort_key

MIN_RULES = 300
# Every real release has at least one glossary entry per 4.4 rules (2024-02-02: 673 for 2937);
# a tenth of that is a glossary the extraction lost (the 2002 PDF through pypdf: 1 entry).
MIN_GLOSSARY_PER_RULE = 0.1
_COMPLETE_ENDING = re.compile(r"""[.:;!?)\]"'”’。）」]$""")
# Releases share most rule numbers: a worker checking many works each one's key out once.
_sort_key = functools.lru_cache(maxsize=65536)(rule_sort_key)


def find_damage(document: Document) -> list[str]:
    """Return what is wrong with a parsed document; an empty list means it looks whole."""
    problems = []
    if len(document.rules) < MIN_RULES:
        problems.append(f"only {len(document.rules)} rules (a complete document has {MIN_RULES}+)")
    if document.glossary_omitted:
        pass  # the Korean translation prints '<생략>' ("omitted") under its glossary heading
    elif not document.glossary:
        problems.append("ends early: no glossary")
    elif len(document.glossary) < MIN_GLOSSARY_PER_RULE * len(document.rules):
        problems.append(
            f"a glossary of {len(document.glossary)} entries is far too small for "
            f"{len(document.rules)} rules (entries lost or merged in extraction)"
        )
    if not document.credits:
        problems.append("ends early: no credits")
    if document.rules and not _COMPLETE_ENDING.search(document.rules[-1].printed_text.strip()):
        last = document.rules[-1]
        problems.append(f"ends early: rule {last.number} is cut mid-sentence")
    keys = [_sort_key(rule.number) for rule in document.rules]
    for at in range(1, len(keys)):
        if keys[at] <= keys[at - 1]:
            after, before = document.rules[at].number, document.rules[at - 1].number
            problems.append(f"rule numbers out of order: {after} after {before}")
            break
    return problems


@dataclass(frozen=True, slots=True)
class Neighbour:
    """A stored release a document is measured against: its key, date and one count."""

    key: str
    effective_date: dt.date
    count: int


# Rules and glossary entries accumulate: within one numbering a release has nearly as many as
# any release before it, however far back. A later one may have far more: 2003-07-01 has 647
# rules where 2003-05-26 has 514, and 2003-10-01 has 299 glossary entries where 2002-10-07 has
# 214. So a later release counts only within a year, and with more slack.
LATER_WITHIN = dt.timedelta(days=365)
LATER_RATIO = 0.6


def compare_with_neighbours(
    count: int,
    effective_date: dt.date,
    neighbours: Iterable[Neighbour],
    what: str = "rules",
    ratio: float = 0.8,
) -> str | None:
    """Say why a count (of rules, of glossary entries) is far below a release around it.

    The verdict on a genuine document does not hang on which neighbours happen to be stored:
    the same files give the same archive in any order.
    """
    for neighbour in neighbours:
        later = neighbour.effective_date - effective_date
        if later.days < 0 and count < ratio * neighbour.count:
            return f"only {count} {what} where {neighbour.key} before it has {neighbour.count}"
        if later.days > 0 and later <= LATER_WITHIN and count < LATER_RATIO * neighbour.count:
            return (
                f"only {count} {what} where {neighbour.key}, {later.days} days later, "
                f"has {neighbour.count}"
            )
    return None
