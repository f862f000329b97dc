"""Cross-references between rules: which rule numbers a rule's text cites."""

from __future__ import annotations

import re

# '614.15', '601.2b' (and the first rule of a range such as '601.2f–h'); a chapter alone
# ('rule 702') is not a rule page, so it is not linked.
_CITATION = re.compile(r"(?<![\d.])(\d{3}\.\d+[a-z]?)(?![\d])")


def cited_numbers(text: str) -> list[str]:
    """Return the rule numbers a text cites, in order, each once."""
    return list(dict.fromkeys(match.group(1) for match in _CITATION.finditer(text)))


def split_citations(text: str) -> list[tuple[str, str]]:
    """Split text into ('text', ...) and ('number', ...) pieces, for linking the numbers."""
    pieces: list[tuple[str, str]] = []
    position = 0
    for match in _CITATION.finditer(text):
        if match.start() > position:
            pieces.append(("text", text[position : match.start()]))
        pieces.append(("number", match.group(1)))
        position = match.end()
    if position < len(text):
        pieces.append(("text", text[position:]))
    return pieces
