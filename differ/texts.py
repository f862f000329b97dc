"""Compare texts the way a reader does: typography aside, and knowing a cut-short copy."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from rulesarchive.differ.words import Diff, Phrase, phrases_of, words_of

# str.replace runs at memchr speed; str.translate with a table is 20x slower on rule texts.
_FLATTENED = (('"', ""), ("'", ""), ("™", ""), ("®", ""), ("—", "-"), ("–", "-"))
_TEXT_MARKS = re.compile(r"\((?:tm|r)\)", re.IGNORECASE)
_REFERENCE = re.compile(r"\d{3}(?:\.\d+[a-z]*)?")
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


def only_references(phrases: Sequence[Phrase], number_map: dict[str, str]) -> bool:
    """True when every changed phrase is a rule number that moved exactly as the renumbering did."""
    if not phrases:
        return False
    for phrase in phrases:
        if not (_REFERENCE.fullmatch(phrase.old) and _REFERENCE.fullmatch(phrase.new)):
            return False
        if number_map.get(phrase.old) != phrase.new:
            return False
    return True


def wording_phrases(diff: Diff) -> tuple[Phrase, ...]:
    """Return a diff's phrase changes that change words (a dash or comma alone is left out)."""
    return tuple(
        phrase for phrase in phrases_of(diff) if words_key(phrase.old) != words_key(phrase.new)
    )
