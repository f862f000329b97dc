"""Align the glossary entries of two releases by term, and say how each definition changed."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple

from rulesarchive.corpus.model import GlossaryEntry
from rulesarchive.corpus.numbers import parse_citations
from rulesarchive.differ.kinds import GlossaryKind
from rulesarchive.differ.texts import (
    is_truncation,
    only_references,
    typography_key,
    wording_phrases,
    words_key,
)
from rulesarchive.differ.words import Diff, Phrase, diff_words, word_bag, words_of


class GlossaryChange(NamedTuple):
    """One glossary entry between two releases; a renamed entry has two different terms.

    A tuple, like Change, for the hundreds a typography release makes.
    """

    kind: GlossaryKind
    old_term: str | None
    new_term: str | None
    old_text: str
    new_text: str
    phrases: tuple[Phrase, ...] = ()
    diff: Diff = ()

    @property
    def renamed(self) -> bool:
        """Tell whether the term itself changed (beyond typography and case)."""
        return bool(self.old_term and self.new_term and self.old_term != self.new_term)


def diff_glossaries(
    old: Sequence[GlossaryEntry],
    new: Sequence[GlossaryEntry],
    number_map: dict[str, str] | None = None,
) -> list[GlossaryChange]:
    """Pair entries by term (ignoring case and typography), then renamed entries by definition.

    Entries unchanged to the letter are left out; the rest come in the glossary's own order,
    alphabetical by term. A definition whose only change is a rule number that moved as
    `number_map` (the release's renumbering) says is a `reference` change.
    """
    identical = set(map(_EVERY_FIELD, old)) & set(map(_EVERY_FIELD, new))
    old = [entry for entry in old if _EVERY_FIELD(entry) not in identical]
    new = [entry for entry in new if _EVERY_FIELD(entry) not in identical]
    # Same term and words, other printing: typography, with no term matching needed.
    old_by_words = {(entry.term, entry.text): entry for entry in old}
    retyped = []
    rest = []
    for entry in new:
        before = old_by_words.pop((entry.term, entry.text), None)
        if before is None:
            rest.append(entry)
        else:
            retyped.append(
                GlossaryChange(
                    GlossaryKind.TYPOGRAPHY, before.term, entry.term, before.text, entry.text
                )
            )
    old, new = list(old_by_words.values()), rest
    old_by_term = {term_key(entry.term): entry for entry in old}
    partner = {  # new entry's term key -> its old entry
        term_key(entry.term): old_by_term.pop(term_key(entry.term))
        for entry in new
        if term_key(entry.term) in old_by_term
    }
    # Left over on both sides: a term renamed with its definition kept.
    orphans = {typography_key(entry.text): entry for entry in old_by_term.values()}
    for entry in new:
        if term_key(entry.term) not in partner:
            before = orphans.pop(typography_key(entry.text), None)
            if before is not None:
                partner[term_key(entry.term)] = before
    # Then a term renamed with its definition reworded ('APNAP' -> 'APNAP Order', 2005-02-01).
    added = [entry for entry in new if term_key(entry.term) not in partner]
    for before, after in renamed_entries(list(orphans.values()), added):
        partner[term_key(after.term)] = before
        del orphans[typography_key(before.text)]
    # Then a term renamed and rewritten whose definition cites the same rules, renumbered
    # ('State-Based Effects', rule 420 -> 'State-Based Actions', rule 704: 2009-07-11).
    added = [entry for entry in new if term_key(entry.term) not in partner]
    for before, after in _citing_alike(list(orphans.values()), added, number_map or {}):
        partner[term_key(after.term)] = before
        del orphans[typography_key(before.text)]
    changes: list[GlossaryChange] = []
    for entry in new:
        before = partner.get(term_key(entry.term))
        if before is None:
            changes.append(GlossaryChange(GlossaryKind.ADDED, None, entry.term, "", entry.text))
        else:
            changes.append(_compare(before, entry, number_map or {}))
    changes += [
        GlossaryChange(GlossaryKind.REMOVED, entry.term, None, entry.text, "")
        for entry in orphans.values()
    ]
    changes += retyped
    return sorted(changes, key=lambda change: (change.new_term or change.old_term or "").casefold())


_EVERY_FIELD = attrgetter("term", "text", "original")

_AMBIGUOUS = 0.1  # a rival candidate this close makes a pairing a guess (a merge, a split)


def renamed_entries(
    removed: Sequence[GlossaryEntry], added: Sequence[GlossaryEntry]
) -> list[tuple[GlossaryEntry, GlossaryEntry]]:
    """Pair removed and added entries that are one entry renamed and reworded, best first.

    Their definitions share most words, or fewer when the terms share words, or the shorter
    term begins the longer ('Teams' -> 'Teams Variant'). An entry whose best partner has a
    rival nearly as good ('Sorcery Type' and 'Instant Type' -> 'Spell Type') is left alone.
    """
    removed = [entry for entry in removed if is_term(entry.term)]
    added = [entry for entry in added if is_term(entry.term)]
    scored = [
        (score, i, j)
        for i, before in enumerate(removed)
        for j, after in enumerate(added)
        if (score := _rename_score(before, after)) is not None
    ]
    scored.sort(key=lambda item: (-item[0], item[1], item[2]))
    taken_old: set[int] = set()
    taken_new: set[int] = set()
    pairs = []
    for score, i, j in scored:
        if i in taken_old or j in taken_new:
            continue
        rivals = [
            other
            for other, k, m in scored
            if (k == i) != (m == j) and k not in taken_old and m not in taken_new
        ]
        taken_old.add(i)
        taken_new.add(j)
        if not rivals or max(rivals) <= score - _AMBIGUOUS:
            pairs.append((removed[i], added[j]))
    return pairs


def _citing_alike(
    removed: Sequence[GlossaryEntry], added: Sequence[GlossaryEntry], number_map: dict[str, str]
) -> list[tuple[GlossaryEntry, GlossaryEntry]]:
    """Pair a removed and an added term whose definitions cite the same rules (the old one's
    as the release renumbered them), where no other removed or added term cites those."""
    olds: dict[frozenset[str], list[GlossaryEntry]] = {}
    for entry in filter(lambda entry: is_term(entry.term), removed):
        cited = frozenset(number_map.get(number, number) for number in _cited(entry.text))
        olds.setdefault(cited, []).append(entry)
    news: dict[frozenset[str], list[GlossaryEntry]] = {}
    for entry in filter(lambda entry: is_term(entry.term), added):
        news.setdefault(frozenset(_cited(entry.text)), []).append(entry)
    return [
        (befores[0], news[cited][0])
        for cited, befores in olds.items()
        if cited and len(befores) == 1 and len(news.get(cited, ())) == 1
    ]


def _cited(text: str) -> list[str]:
    """The rules and chapters a definition cites ('See rule 420, ...': '420')."""
    return [number for citation in parse_citations(text) for _start, _end, number in citation.spans]


def _rename_score(before: GlossaryEntry, after: GlossaryEntry) -> float | None:
    """How alike two entries are (definitions' shared words, then terms'), or None."""
    old_bag, new_bag = word_bag(before.text), word_bag(after.text)
    text = (old_bag & new_bag).total() / max(old_bag.total(), new_bag.total(), 1)
    old_words, new_words = _rename_words(before.term), _rename_words(after.term)
    shorter, longer = sorted((old_words, new_words), key=len)
    shared = len(set(old_words) & set(new_words)) / max(1, len(set(shorter)))
    begins = bool(shorter) and longer[: len(shorter)] == shorter
    if text >= 0.6 or (shared >= 0.5 and text >= 0.35) or (begins and text >= 0.1):
        return text + shared / 2
    return None


def _rename_words(term: str) -> list[str]:
    """A term's words, singular, without its '(Obsolete)' or '(Informal)'."""
    key = term_key(term).removesuffix(" (informal)")
    return [word.removesuffix("s") for word in words_of(key)]


def _compare(old: GlossaryEntry, new: GlossaryEntry, number_map: dict[str, str]) -> GlossaryChange:
    if old.text == new.text:
        same = old.printed_text == new.printed_text and old.term == new.term
        # a term respelled: 'You, Your' -> 'You/Your'
        kind = GlossaryKind.UNCHANGED if same else GlossaryKind.TYPOGRAPHY
        if _term_words(old.term) != _term_words(new.term):
            kind = GlossaryKind.RENAMED  # 'Tribal' -> 'Tribal (Obsolete)' too, paired by its key
        return GlossaryChange(kind, old.term, new.term, old.text, new.text)
    diff = diff_words(old.text, new.text)
    phrases = wording_phrases(diff)
    if words_key(old.text) == words_key(new.text) or not phrases:  # no phrase changes a word
        kind = GlossaryKind.TYPOGRAPHY
    elif is_truncation(typography_key(old.text), typography_key(new.text)):
        kind = GlossaryKind.TRUNCATION
    elif only_references(old.text, new.text, number_map):
        kind = GlossaryKind.REFERENCE
    else:
        kind = GlossaryKind.SUBSTANTIVE
    if kind == GlossaryKind.TYPOGRAPHY and _term_words(old.term) != _term_words(new.term):
        kind = GlossaryKind.RENAMED
    return GlossaryChange(kind, old.term, new.term, old.text, new.text, phrases, diff)


@lru_cache(maxsize=1 << 12)
def term_key(term: str) -> str:
    """'Face-Down', 'Face Down' and 'face down' are one term, and so are 'Control, Controller'
    and 'Control/Controller', and 'Isn?t' (a 2008 file's lost apostrophe) and 'Isnt';
    'Tribal (Obsolete)' is 'Tribal'."""
    return _term_words(term).removesuffix(" (obsolete)")


# Separators of a term's spellings (Chinese ones full-width), and the quotes and apostrophes
# (or the `?` a 2008 file printed for one) that come and go in them.
_TERM_SPELLING = str.maketrans(
    {"-": " ", "/": " ", ",": " ", "／": " ", "，": " ", "?": None, "'": None, '"': None}
)


def same_term(old: str, new: str) -> bool:
    """Tell whether two spellings name one term (case, typography and separators aside)."""
    return _term_words(old) == _term_words(new)


def _term_words(term: str) -> str:
    return " ".join(typography_key(term).casefold().translate(_TERM_SPELLING).split())


# What a parse of an old glossary let through as a term: a numbered definition ('1. A player
# draws...', 'Ability1. Text on...'), an index line ('Card, 200.1'), a sentence, a term in
# mis-decoded quotes ('?As Though?'). Only entries that read as terms are shown and checked.
_NOT_A_TERM = re.compile(r"\d\.(?:\s|$)|^\d+\.|^[^\w{]|,\s*\d|\.\s|\.$")


def is_term(term: str) -> bool:
    """Tell whether a glossary entry's term reads as a term (not a fragment of a bad parse)."""
    return not _NOT_A_TERM.search(term)


def checked_glossary(entries: Iterable[GlossaryEntry]) -> tuple[GlossaryEntry, ...]:
    """Return a release's glossary as the reference check reads it: its terms, in one order.

    The same from a document and from the site's glossary lines (which drop what is not a
    term and keep entries by term), so the two keep one check between them.
    """
    return tuple(sorted(filter(_reads_as_term, entries), key=_entry_order))


def _reads_as_term(entry: GlossaryEntry) -> bool:
    return is_term(entry.term)


def _entry_order(entry: GlossaryEntry) -> tuple[str, str, str, str]:
    return term_key(entry.term), entry.term, entry.text, entry.original
