"""Canonical typography of rule text: what "normalised" means everywhere in rulesarchive."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable


def _preceded_by_word(match: re.Match[str]) -> bool:
    at = match.start()
    return at > 0 and match.string[at - 1].isalnum()


def _range_dash(match: re.Match[str]) -> str:
    return "-" if _preceded_by_word(match) else match.group()


def _registered(match: re.Match[str]) -> str:
    return "®" if _preceded_by_word(match) or match.group()[0] == "_" else match.group()


def _italics(match: re.Match[str]) -> str:
    at = match.start()
    inside_word = at > 0 and (match.string[at - 1].isalnum() or match.string[at - 1] == "_")
    return match.group() if inside_word else match.group(1)


def _inner(match: re.Match[str]) -> str:
    return match.group(1)


# Joins a document's texts so each pattern runs once; decoding rejects NUL, no pattern spans it.
_SEPARATOR = "\x00"
Replacement = str | Callable[[re.Match[str]], str]

# (kind, pattern, replacement), applied in order.  Canonical forms: straight quotes, an unspaced
# em dash, the ™ and ® signs, no underscore italics, single spaces.  Every pattern starts with a
# literal character rather than a look-behind: they run over ~100 MB of rules in a full ingest.
_RULES: tuple[tuple[str, re.Pattern[str], Replacement], ...] = (
    ("quotes", re.compile(r"[‘’‚‛′`]"), "'"),
    ("quotes", re.compile(r"[“”„‟″]"), '"'),
    ("dashes", re.compile(r"[ \t]+(?=[—―]|--)"), ""),
    ("dashes", re.compile(r"(?:—|―|--)[ \t]*"), "—"),
    # A spaced hyphen or en dash is a dash ('Artifact - Equipment'); an unspaced one is a hyphen
    # or a range ('non-Aura', '614.1c–d') and survives.
    ("dashes", re.compile(r" [-–] (?=\S)"), "—"),
    ("dashes", re.compile(r"–(?=\w)"), _range_dash),
    ("italics", re.compile(r"__([^_\n\x00]+?)__(?![\w_])"), _italics),
    ("italics", re.compile(r"_([^_\n\x00]+?)_(?![\w_])"), _italics),
    # 'Vanguard_(TM)', 'DCI_(R)': the mark after an italicised name keeps its underscore.
    ("trademark", re.compile(r"_?\((?:tm|TM)\)"), "™"),
    ("registered", re.compile(r"_?\((?:r|R)\)"), _registered),
    # '<www.wizards.com>' (2000s) and '[www.wizards.com]' (1999): the bare address.
    ("urls", re.compile(r"[<\[]((?:https?://|www\.)[^\s<>\[\]]+)[>\]]"), _inner),
    ("ellipsis", re.compile(r"…"), "..."),
    ("whitespace", re.compile(r"  +|[\t\u00a0\u2009\u202f][ \t\u00a0\u2009\u202f]*"), " "),
)


def _apply(pattern: re.Pattern[str], replacement: Replacement, text: str) -> tuple[str, int]:
    """Substitute, counting only the matches that really change the text."""
    changed = 0

    def swap(match: re.Match[str]) -> str:
        nonlocal changed
        new = replacement(match) if callable(replacement) else replacement
        if new != match.group():
            changed += 1
        return new

    return pattern.sub(swap, text), changed


def normalise_text(text: str, counts: Counter[str] | None = None) -> str:
    """Return text in canonical typography, adding what changed per kind to counts."""
    return normalise_texts([text], counts)[0]


def normalise_texts(texts: list[str], counts: Counter[str] | None = None) -> list[str]:
    """Normalise many texts in one pass of each pattern (a whole document at once)."""
    joined = _SEPARATOR.join(texts)
    for kind, pattern, replacement in _RULES:
        joined, changed = _apply(pattern, replacement, joined)
        if changed and counts is not None:
            counts[kind] += changed
    result = []
    for text in joined.split(_SEPARATOR):
        stripped = text.strip()
        if counts is not None and stripped != text:
            counts["whitespace"] += 1
        result.append(stripped)
    return result
