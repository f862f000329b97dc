"""Compare texts the way a reader does: typography aside, and knowing a cut-short copy."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from rulesarchive.corpus.numbers import Citation, parse_citations, rule_sort_key
from rulesarchive.differ.words import Diff, Phrase, phrases_of, words_of
from rulesarchive.system.lazy import lazy_module

# Normalising (some thirty patterns) is loaded by the first title keyed: reading kept
# results (a diff, a history, a check) keys none.
if TYPE_CHECKING:
    from rulesarchive.corpus import typography
else:
    typography = lazy_module("rulesarchive.corpus.typography")

# str.replace runs at memchr speed; str.translate with a table is 20x slower on rule texts.
# The Æ ligature is a way of printing AE: 'Æther', 'AEther' (the TXT files of 2013) and
# 'Aether' (Oracle since 2016) are one card name, as are 'Ærathi' and 'AErathi'.
_FLATTENED = (
    *(('"', ""), ("'", ""), ("™", ""), ("®", ""), ("—", "-"), ("–", "-")),
    *(("Æ", "Ae"), ("æ", "ae")),
)
_AE_SPELLED = re.compile(r"\bAE(?=[a-z])")
_TEXT_MARKS = re.compile(r"\((?:tm|r)\)", re.IGNORECASE)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
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
    if "AE" in text:
        text = _AE_SPELLED.sub("Ae", text)
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


def title_key(title: str) -> str:
    """Key a section's or chapter's title as printed (curly quotes, italics markers, a final
    point) or as a citation quotes it: equal keys name the same title."""
    return words_key(typography.normalise_text(title))


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
    old = _MISPRINTED_NUMBER.sub(r"\1.\2", old)
    return words_key(_renumbered(old, number_map)) == words_key(new)


# A rule number printed with a comma for its point ('See rule 419,8', the glossary's Source of
# Damage until 2003-12-01): mending it is a citation fix, as moving it is.
_MISPRINTED_NUMBER = re.compile(r"(?<=\b[Rr]ule )(\d{3}),(\d{1,3}[a-z]?)\b")


def _renumbered(text: str, number_map: dict[str, str]) -> str:
    """Rewrite each number the text cites (and a range's closing letters) as `number_map` moves
    it: the citations are those the reference check reads (corpus.numbers.parse_citations)."""
    pieces = []
    position = 0
    for citation in parse_citations(text):
        for start, end, number in citation.spans:
            pieces += [text[position:start], number_map.get(number, number)]
            position = end
        tail = text[citation.last_at : citation.end] if citation.last_at >= 0 else ""
        if tail.isalpha():  # '702.19b–d': the letters of the range's end, moved alike
            moved = _moved_letters(citation, tail, number_map)
            pieces += [text[position : citation.last_at], moved]
            position = citation.end
    return "".join(pieces) + text[position:]


def _moved_letters(citation: Citation, letters: str, number_map: dict[str, str]) -> str:
    """Return the closing `letters` of a range written short, once the numbers moved: those of
    its end's new number while it stays under its first's new parent, else as they were."""
    now = number_map.get(citation.first, citation.first)
    end_now = number_map.get(citation.last, citation.last)
    parent = end_now.rstrip(_LETTERS)
    moved = end_now[len(parent) :]
    if not moved or parent != now.rstrip(_LETTERS):
        return letters
    if _last_of_list(number_map, citation.last) == citation.last:
        # the range ran to the end of its list ('301.5a–d' of 301.5a–d): it still does when a
        # rule moved in after its end (301.7 became 301.5e, and the range '301.5a–e')
        moved = _last_of_list(number_map.values(), end_now)[len(parent) :]
    return moved


def _last_of_list(numbers: Iterable[str], number: str) -> str:
    """Return the last of `numbers` under the rule `number` is a sub-rule of (301.5d of
    301.5a–d for 301.5b)."""
    parent = number.rstrip(_LETTERS)
    siblings = [n for n in numbers if n != parent and n.rstrip(_LETTERS) == parent]
    return max(siblings, key=rule_sort_key, default=number)


def printed_phrases(diff: Diff) -> tuple[Phrase, ...]:
    """Return a diff's phrase changes that change words or punctuation (a comma or a full stop
    added is one; quotes, dashes and spacing printed otherwise are not)."""
    return tuple(
        phrase
        for phrase in phrases_of(diff)
        if typography_key(phrase.old) != typography_key(phrase.new)
    )


def wording_phrases(diff: Diff) -> tuple[Phrase, ...]:
    """Return a diff's phrase changes that change words (a dash or comma alone is left out)."""
    return tuple(
        phrase for phrase in phrases_of(diff) if words_key(phrase.old) != words_key(phrase.new)
    )
