"""Cross-references between rules: rule numbers in a text, split out for linking."""

from __future__ import annotations

from rulesarchive.corpus.numbers import CITATION


def split_citations(text: str) -> list[tuple[str, str]]:
    """Split text into ('text', ...) and ('number', ...) pieces, for linking the numbers."""
    pieces: list[tuple[str, str]] = []
    position = 0
    for match in CITATION.finditer(text):
        if match.start() > position:
            pieces.append(("text", text[position : match.start()]))
        pieces.append(("number", match.group(1)))
        position = match.end()
    if position < len(text):
        pieces.append(("text", text[position:]))
    return pieces
