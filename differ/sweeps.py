"""Find sweeps: one edit repeated across the rules and glossary entries of a release."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rulesarchive.differ.texts import words_key
from rulesarchive.differ.words import Diff, Phrase, phrase_edits, words_of

SWEEP_MIN_PLACES = 3  # rules and glossary entries an edit must be made in

# Words too common to make a sweep on their own: an edit that only adds, drops or swaps these
# ('' -> 'is', 'the' -> 'a' in 2009-07-11) is a fragment of rewrites, not one edit repeated.
STOP_WORDS = frozenset(
    {"a", "an", "the", "is", "are", "be", "been", "was", "were", "also", "in", "on", "at", "of"}
    | {"to", "by", "for", "with", "from", "as", "and", "or", "it", "that", "this", "these"}
    | {"those", "than", "then", "there"}
)

# A symbol's notation: capitals and numerals ('W', '2', 'T' of 2004's '{oW}', '{o2}', '{oT}').
_SYMBOL = re.compile(r"[A-Z0-9]+")
_BRACKETS = "{[(", "}])"
_ARTICLES = frozenset({"a", "an", "the"})
# A verb's forms after 'he or she' and after 'they' that are not the plural plus -s
# ('hasn' is "hasn't" as words are split).
_AGREEMENT = frozenset(
    {("has", "have"), ("is", "are"), ("was", "were"), ("does", "do")}
    | {("hasn", "haven"), ("isn", "aren"), ("wasn", "weren"), ("doesn", "don")}
)


@dataclass(frozen=True, slots=True)
class Sweep:
    """One edit made across many rules (and glossary entries, by term) of a release."""

    old: str
    new: str
    rules: tuple[str, ...]
    glossary: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Edited:
    """The word diff of one rule or glossary entry, to be searched for sweeps."""

    place: str  # the rule's new number, or the entry's term
    diff: Diff
    glossary: bool = False


def find_sweeps(edited: Sequence[Edited]) -> list[Sweep]:
    """Find the edits made in at least SWEEP_MIN_PLACES rules and glossary entries.

    A phrase repeated whole is one sweep; a phrase that is not is looked into: its edits
    between unchanged punctuation are counted on their own ('{oW}, {oU}' -> '{W}, {U}' is
    two edits of the 2005-02-01 notation change). Inflections of one rename count together
    ('general' -> 'commander' in 903.3, 'generals' -> 'commanders' in 903.6), and so do a
    symbol's forms ('{oW}' -> '{W}', '{o2}' -> '{2}'), and a subject's with the verbs that
    agree with it ('he or she has' -> 'they have' is 'he or she' -> 'they'); the sweep is
    named by its most frequent form. An edit of stop words only is never a sweep.
    """
    phrases = _tally((item, phrase) for item in edited for phrase, _ in _wording(item.diff))
    tally = {key: found for key, found in phrases.items() if len(found[0]) >= SWEEP_MIN_PLACES}
    whole = set(tally)
    _tally(
        (
            (item, edit)
            for item in edited
            for phrase, parts in _wording(item.diff)
            if edit_key(phrase) not in whole
            for edit in parts
        ),
        tally,
    )
    order = {(item.place, item.glossary): index for index, item in enumerate(edited)}
    sweeps = []
    for places, forms in tally.values():
        if len(places) >= SWEEP_MIN_PLACES:
            # named by its most frequent form, a form without an agreeing verb first
            (old, new), _ = min(
                forms.items(),
                key=lambda item: (_without_agreement(*item[0]) != item[0], -item[1], item[0]),
            )
            ordered = sorted(places, key=order.__getitem__)
            rules = tuple(place for place, glossary in ordered if not glossary)
            terms = tuple(place for place, glossary in ordered if glossary)
            sweeps.append(Sweep(old, new, rules, terms))
    return sorted(sweeps, key=lambda sweep: (sweep.old, sweep.new))


_Places = dict[tuple[str, bool], None]  # (rule number or term, in the glossary), in order


_Tally = dict[tuple[str, str], tuple[_Places, Counter[tuple[str, str]]]]


def _tally(found: Iterable[tuple[Edited, Phrase]], tally: _Tally | None = None) -> _Tally:
    """Count where each edit (by key) was made, and in which forms (added to `tally`)."""
    tally = {} if tally is None else tally
    for item, edit in found:
        if is_stop_edit(edit):
            continue
        places, forms = tally.setdefault(edit_key(edit), ({}, Counter()))
        places[(item.place, item.glossary)] = None
        forms[(edit.old, edit.new)] += 1
    return tally


def is_swept(diff: Diff, swept: set[tuple[str, str]]) -> bool:
    """Tell whether every phrase of a diff is a sweep's, whole or edit by edit (`swept`: the
    sweeps' keys)."""
    phrases = _wording(diff)
    return bool(phrases) and all(
        edit_key(phrase) in swept or (edits and all(edit_key(edit) in swept for edit in edits))
        for phrase, edits in phrases
    )


def _wording(diff: Diff) -> list[tuple[Phrase, list[Phrase]]]:
    """A diff's phrases that change words, each with its edits that do."""
    return [
        (phrase, [edit for edit in edits if _changes_words(edit)])
        for phrase, edits in phrase_edits(diff)
        if _changes_words(phrase)
    ]


def _changes_words(edit: Phrase) -> bool:
    return words_key(edit.old) != words_key(edit.new)


def is_stop_edit(edit: Phrase) -> bool:
    """Tell whether both sides of an edit are stop words only (or nothing)."""
    return all(word in STOP_WORDS for word in (*words_of(edit.old), *words_of(edit.new)))


def edit_key(edit: Phrase) -> tuple[str, str]:
    """Key an edit so that the forms of one edit are equal: word stems, a verb that agrees
    with the new subject ('he or she has' -> 'they have' is 'he or she' -> 'they'), and a
    symbol's notation with the symbol left out ('{oW}' -> '{W}' and '{o2}' -> '{2}' are
    'o*' -> '*')."""
    old, new = _unbracketed(edit.old), _unbracketed(edit.new)
    notation = _notation(old, new)
    if notation is not None:
        return notation
    old, new = _without_agreement(old, new)
    old_words, new_words = _stem(old).split(), _stem(new).split()
    # 'an EDH' -> 'a Commander' is the edit 'EDH' -> 'Commander', its article agreeing
    if len(old_words) > 1 and len(new_words) > 1 and {old_words[0], new_words[0]} <= _ARTICLES:
        old_words, new_words = old_words[1:], new_words[1:]
    return " ".join(old_words), " ".join(new_words)


def _without_agreement(old: str, new: str) -> tuple[str, str]:
    """Leave out the verb closing both sides of an edit where it only agrees with the subject
    the edit changed ('he or she notices' -> 'they notice', MTR 2018-04-27)."""
    old_words, new_words = old.split(), new.split()
    if len(old_words) < 2 or len(new_words) < 2 or old_words[:-1] == new_words[:-1]:
        return old, new
    one, other = old_words[-1].casefold(), new_words[-1].casefold()
    if _agrees(one, other) or _agrees(other, one):
        return " ".join(old_words[:-1]), " ".join(new_words[:-1])
    return old, new


def _agrees(singular: str, plural: str) -> bool:
    """Tell whether two forms are one verb's, with a singular and a plural subject."""
    return (singular, plural) in _AGREEMENT or singular in {f"{plural}s", f"{plural}es"}


def _unbracketed(text: str) -> str:
    if len(text) > 2 and text[0] in _BRACKETS[0] and text[-1] in _BRACKETS[1]:
        return text[1:-1]
    return text


def _notation(old: str, new: str) -> tuple[str, str] | None:
    """A symbol that gained or lost a prefix or suffix: the change of notation, else None."""
    for longer, shorter, flip in ((old, new, False), (new, old, True)):
        if not _SYMBOL.fullmatch(shorter) or len(longer) <= len(shorter) or " " in longer:
            continue
        if longer.endswith(shorter) or longer.startswith(shorter):
            pattern = longer.replace(shorter, "*", 1)
            return ("*", pattern) if flip else (pattern, "*")
    return None


@lru_cache(maxsize=1 << 12)
def _stem(text: str) -> str:
    """Strip plural and verb endings of each word: 'commanders' and 'commander' are one."""
    return " ".join(map(_stem_word, words_of(text)))


def _stem_word(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for ending, shortest in (("ing", 6), ("ed", 5), ("es", 5), ("s", 4)):
        if word.endswith(ending) and len(word) >= shortest and not word.endswith("ss"):
            return word[: -len(ending)]
    return word
