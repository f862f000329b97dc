"""Compare texts the way a reader does: typography aside, and knowing a cut-short copy."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rulesarchive.corpus.numbers import CHAPTER, LETTERS, NUMBER
from rulesarchive.differ.words import Diff, Phrase, phrases_of, words_of

# str.replace runs at memchr speed; str.translate with a table is 20x slower on rule texts.
_FLATTENED = (('"', ""), ("'", ""), ("™", ""), ("®", ""), ("—", "-"), ("–", "-"))
_TEXT_MARKS = re.compile(r"\((?:tm|r)\)", re.IGNORECASE)
# A cited rule, chapter or range: '702.19b', '613', '608.2c-k' (ranges are hyphens once
# normalised); not a part of a longer number, nor '1/1'.
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_CITED = re.compile(rf"(?<![0-9A-Za-z./])({NUMBER}|{CHAPTER})(?:[-–]({LETTERS})\b)?(?!\.?\d|/)")
_PLACEHOLDER_APOSTROPHE = re.compile(r"(?<=\w)\?(?=\w)")
_CUT_AFTER = 24  # characters a cut copy has at least
_COMPLETE = re.compile(r"""[.:;!?)\]"'”’。）」]$""")


@lru_cache(maxsize=1 << 14)  # a rule's key is asked for by several steps and both releases
def typography_key(text: str) -> str:
    """Flatten quotes, dashes, marks and spacing: equal keys differ only in typography."""
    for mark, flat in _FLATTENED:
        text = text.replace(mark, flat)
    if "(" in text:
        text = _TEXT_MARKS.sub("", text)
    # One space at most around a dash once spaces are collapsed: 'a - b', 'a—b' -> 'a-b'.
    return " ".join(text.split()).replace(" -", "-").replace("- ", "-")


@lru_cache(maxsize=1 << 14)
def words_key(text: str) -> str:
    """Keep only the words, lower-cased: equal keys differ in punctuation, case or markup only.

    Two versions with the same words are never a change in wording, whatever their quotes,
    dashes, parentheses, capitals, italics markers or spacing (or a `?` that a 2008 file printed
    for a lost quote or dash).
    """
    if "?" in text:  # 'can?t' is "can't", whose key has no apostrophe
        text = _PLACEHOLDER_APOSTROPHE.sub("", text)
    return " ".join(words_of(typography_key(text)))


def same_words(old: Sequence[str], new: Sequence[str]) -> bool:
    """Tell whether two lists of texts (a rule's examples, say) say the same words in order."""
    return len(old) == len(new) and all(
        a == b or words_key(a) == words_key(b) for a, b in zip(old, new, strict=True)
    )


def is_truncation(old_key: str, new_key: str) -> bool:
    """Tell whether one text is a cut-short copy of the other (a scraping artefact).

    A cut copy breaks off mid-sentence after some words; a title ('Artifacts') that grew into
    a sentence is not one.
    """
    shorter, longer = sorted((old_key, new_key), key=len)
    return (
        len(shorter) >= _CUT_AFTER and longer.startswith(shorter) and not _COMPLETE.search(shorter)
    )


def only_references(old: str, new: str, number_map: dict[str, str]) -> bool:
    """True when the new text is the old one with its cited numbers moved as `number_map` says.

    Lists and ranges count ('613 and 614' -> '614 and 615', '608.2c-k' -> '608.2c-m'), and
    anything else that changed must be typography.
    """
    if words_key(old) == words_key(new):
        return False
    return words_key(_renumbered(old, number_map)) == words_key(new)


def _renumbered(text: str, number_map: dict[str, str]) -> str:
    """Rewrite each cited number (and a range's closing letter) as `number_map` moves it."""

    def moved(match: re.Match[str]) -> str:
        number, letter = match.group(1), match.group(2)
        now = number_map.get(number, number)
        if letter is None:
            return now
        end = number.rstrip(_LETTERS) + letter
        end_now = number_map.get(end, end)
        parent, tail = end_now.rstrip(_LETTERS), end_now[len(end_now.rstrip(_LETTERS)) :]
        return f"{now}-{tail}" if tail and parent == now.rstrip(_LETTERS) else f"{now}-{letter}"

    return _CITED.sub(moved, text)


def wording_phrases(diff: Diff) -> tuple[Phrase, ...]:
    """Return a diff's phrase changes that change words (a dash or comma alone is left out)."""
    return tuple(
        phrase for phrase in phrases_of(diff) if words_key(phrase.old) != words_key(phrase.new)
    )
