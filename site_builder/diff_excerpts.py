"""Shorten a long rule's word diff to the changed sentences with some context around them."""

from __future__ import annotations

import re

LONG = 600  # characters of rule text beyond which a changelog shows the changes only
_CONTEXT = 160  # at most this much unchanged text on each side of a change
_SENTENCE_END = re.compile(r"(?<=[.;:!?。；：])\s*")
ELLIPSIS = "…"


def condense(pieces: tuple[tuple[int, str], ...]) -> tuple[tuple[int, str], ...] | None:
    """Return the diff with long unchanged stretches cut to their nearest sentence; None if short.

    The changed sentences stay whole where they are short, so a one-word change in a long
    rule (205.3m's creature types) reads as that sentence, not the whole rule.
    """
    if sum(len(text) for op, text in pieces if op >= 0) < LONG:
        return None
    shown: list[tuple[int, str]] = []
    last = len(pieces) - 1
    for position, (op, text) in enumerate(pieces):
        if op != 0:
            shown.append((op, text))
            continue
        head = _head(text) if position > 0 else ""
        tail = _tail(text) if position < last else ""
        if len(head) + len(tail) + 3 >= len(text):
            shown.append((0, text))
            continue
        cut = f"{head}{' ' if head else ''}{ELLIPSIS}{' ' if tail else ''}{tail}"
        shown.append((0, cut))
    condensed = tuple(shown)
    if sum(len(text) for _, text in condensed) > 0.8 * sum(len(text) for _, text in pieces):
        return None
    return condensed


def _head(text: str) -> str:
    """The unchanged text after a change, up to the end of its sentence (or a little)."""
    match = _SENTENCE_END.search(text)
    end = match.start() if match and match.start() <= _CONTEXT else _CONTEXT
    return _words(text[:end], keep="start")


def _tail(text: str) -> str:
    """The unchanged text before a change, from the start of its sentence (or a little)."""
    starts = [m.end() for m in _SENTENCE_END.finditer(text) if m.end() < len(text)]
    start = starts[-1] if starts and len(text) - starts[-1] <= _CONTEXT else len(text) - _CONTEXT
    return _words(text[max(start, 0) :], keep="end")


def _words(text: str, keep: str) -> str:
    """Trim a cut to whole words."""
    if len(text) < _CONTEXT:
        return text
    if keep == "start":
        return text.rsplit(" ", 1)[0]
    return text.split(" ", 1)[-1]
