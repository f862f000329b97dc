"""A text cut at spans (the citations or links found in it), and markup woven between the
pieces: the one loop that every linked text of the site goes through."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def cut_at_spans(
    text: str, spans: Iterable[tuple[int, int, T]]
) -> tuple[tuple[tuple[str, str, T], ...], str]:
    """Cut a text at spans (start, end, value), in the order given: (the text before, the
    text covered, the value) for each, and the rest. A span starting inside the one before
    is left out (the first found is kept)."""
    pieces = []
    position = 0
    for start, end, value in spans:
        if start < position:
            continue
        pieces.append((text[position:start], text[start:end], value))
        position = end
    return tuple(pieces), text[position:]


def weave(
    text: str,
    spans: Iterable[tuple[int, int, T]],
    plain: Callable[[str], str],
    link: Callable[[str, T], str],
) -> str:
    """Return a text with each span's covered text as `link` renders it and the text between
    as `plain` does (called in the text's order)."""
    pieces, rest = cut_at_spans(text, spans)
    parts = []
    for before, covered, value in pieces:
        parts += [plain(before), link(covered, value)]
    parts.append(plain(rest))
    return "".join(parts)
