"""Canonical typography of rule text: what "normalised" means everywhere in rulesarchive."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from enum import StrEnum
from itertools import accumulate, repeat
from operator import add


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
# A pass over the text: the new text and how many places it changed.
Step = Callable[[str], tuple[str, int]]
_DASH = re.compile(r"(—|―|--)")


def _close_dashes(text: str) -> tuple[str, int]:
    """Drop the spaces before a dash, then make every dash an em dash without spaces after it.

    What the patterns `[ \t]+(?=[—―]|--)` -> '' and then `(?:—|―|--)[ \t]*` -> '—' do, in
    the same two passes, but split at the dashes: those patterns tried a match at every space.
    """
    if "―" not in text and "--" not in text:
        return _close_em_dashes(text)
    pieces = _DASH.split(text)
    changed = 0
    for at in range(0, len(pieces) - 1, 2):
        stripped = pieces[at].rstrip(" \t")
        if stripped != pieces[at]:
            pieces[at] = stripped
            changed += 1
    if changed:  # '- --' became '---': the second pass reads the dashes anew
        pieces = _DASH.split("".join(pieces))
    for at in range(1, len(pieces), 2):
        after = pieces[at + 1].lstrip(" \t")
        if pieces[at] != "—" or after != pieces[at + 1]:
            pieces[at], pieces[at + 1] = "—", after
            changed += 1
    return "".join(pieces), changed


def _close_em_dashes(text: str) -> tuple[str, int]:
    """Do what _close_dashes does for a text whose only dashes are em dashes (most are).

    Splitting at one character is many times quicker than at a pattern, and with em dashes
    alone the second pass finds the same dashes as the first.
    """
    pieces = text.split("—")
    changed = 0
    for at in range(len(pieces) - 1):
        stripped = pieces[at].rstrip(" \t")
        if stripped != pieces[at]:
            pieces[at] = stripped
            changed += 1
    for at in range(1, len(pieces)):
        stripped = pieces[at].lstrip(" \t")
        if stripped != pieces[at]:
            pieces[at] = stripped
            changed += 1
    return "—".join(pieces), changed


def _replace(pairs: tuple[tuple[str, str], ...]) -> Step:
    """Return a pass replacing literal strings in turn, each occurrence counted as a change.

    str.replace finds a literal far quicker than a pattern does; no replacement may hold a
    string replaced after it.
    """

    def apply(text: str) -> tuple[str, int]:
        changed = 0
        for old, new in pairs:
            found = text.count(old)
            if found:
                text = text.replace(old, new)
                changed += found
        return text, changed

    return apply


def _substitute(pattern: str, replacement: Replacement) -> Step:
    """Return a pass of re.sub that counts only the matches that really change the text.

    A replacement given as a string must change every match: all are counted.
    """
    compiled = re.compile(pattern)
    if isinstance(replacement, str):
        return lambda text: compiled.subn(replacement, text)

    def apply(text: str) -> tuple[str, int]:
        changed = 0

        def swap(match: re.Match[str]) -> str:
            nonlocal changed
            new = replacement(match)
            if new != match.group():
                changed += 1
            return new

        return compiled.sub(swap, text), changed

    return apply


# (kind, pass, needles), applied in order.  Canonical forms: straight quotes, an unspaced em dash,
# the ™ and ® signs, no underscore italics, single spaces.  Every pattern starts with a literal
# character rather than a look-behind: they run over ~100 MB of rules in a full ingest.  A pass
# changes something only where one of its needles occurs: looking for those first (`in`, far
# quicker than a pattern) skips the passes a document gives no work; short needles with a rare
# last character are searched quickest.
class Normalisation(StrEnum):
    """A kind of typographic change normalisation makes (each release counts them)."""

    QUOTES = "quotes"
    DASHES = "dashes"
    ITALICS = "italics"
    TRADEMARK = "trademark"
    REGISTERED = "registered"
    URLS = "urls"
    ELLIPSIS = "ellipsis"
    WHITESPACE = "whitespace"
    PLACEHOLDERS = (
        "placeholders"  # a `?` a 2008 file printed for a lost quote (scraper.placeholders)
    )


_STEPS: tuple[tuple[Normalisation, Step, tuple[str, ...]], ...] = (
    (Normalisation.QUOTES, _replace(tuple((mark, "'") for mark in "‘’‚‛′`")), tuple("‘’‚‛′`")),
    (Normalisation.QUOTES, _replace(tuple((mark, '"') for mark in "“”„‟″")), tuple("“”„‟″")),
    (Normalisation.DASHES, _close_dashes, ("—", "―", "--")),
    # A spaced hyphen or en dash is a dash ('Artifact - Equipment'); an unspaced one is a hyphen
    # or a range ('non-Aura', '614.1c–d') and survives.
    (Normalisation.DASHES, _substitute(r" [-–] (?=\S)", "—"), (" -", "–")),
    (Normalisation.DASHES, _substitute(r"–(?=\w)", _range_dash), ("–",)),
    (Normalisation.ITALICS, _substitute(r"__([^_\n\x00]+?)__(?![\w_])", _italics), ("_",)),
    (Normalisation.ITALICS, _substitute(r"_([^_\n\x00]+?)_(?![\w_])", _italics), ("_",)),
    # 'Vanguard_(TM)', 'DCI_(R)': the mark after an italicised name keeps its underscore.
    (
        Normalisation.TRADEMARK,
        _replace((("_(tm)", "™"), ("_(TM)", "™"), ("(tm)", "™"), ("(TM)", "™"))),
        ("(tm)", "(TM)"),
    ),
    (Normalisation.REGISTERED, _substitute(r"_?\((?:r|R)\)", _registered), ("(r)", "(R)")),
    # '<www.wizards.com>' (2000s) and '[www.wizards.com]' (1999): the bare address.
    (
        Normalisation.URLS,
        _substitute(r"[<\[]((?:https?://|www\.)[^\s<>\[\]]+)[>\]]", _inner),
        ("://", "www."),
    ),
    (Normalisation.ELLIPSIS, _replace((("…", "..."),)), ("…",)),
    (
        Normalisation.WHITESPACE,
        _substitute(r"  +|[\t\u00a0\u2009\u202f][ \t\u00a0\u2009\u202f]*", " "),
        ("  ", "\t", "\u00a0", "\u2009", "\u202f"),
    ),
)


def normalise_text(text: str, counts: Counter[Normalisation] | None = None) -> str:
    """Return text in canonical typography, adding what changed per kind to counts."""
    return normalise_texts([text], counts)[0]


def normalise_texts(texts: list[str], counts: Counter[Normalisation] | None = None) -> list[str]:
    """Normalise many texts in one pass of each pattern (a whole document at once)."""
    joined = _apply(_STEPS[:_QUOTE_STEPS], _SEPARATOR.join(texts), counts)
    if joined.count(_SEPARATOR) != len(texts) - 1:  # a text holding a NUL: all together
        texts = _apply(_STEPS[_QUOTE_STEPS:], joined, counts).split(_SEPARATOR)
        return [_stripped(text, counts) for text in texts]
    texts = joined.split(_SEPARATOR)
    # The other steps change a text only where one of their needles is: each group of them runs
    # over the texts holding one (a few in ten), joined apart; the others are left as they are.
    for steps, needles in _GROUPS:
        chosen = _holding(joined, texts, needles, steps is _ADDRESS_STEPS)
        if not chosen:
            continue
        # A text followed by another stays followed by one: the look-ahead of ' - ' sees it.
        last = [""] if chosen[-1] != len(texts) - 1 else []
        done = _apply(steps, _SEPARATOR.join([texts[at] for at in chosen] + last), counts)
        for at, text in zip(chosen, done.split(_SEPARATOR), strict=False):
            texts[at] = text
        joined = _SEPARATOR.join(texts)
    return [_stripped(text, counts) for text in texts]


def _apply(
    steps: tuple[tuple[Normalisation, Step, tuple[str, ...]], ...],
    joined: str,
    counts: Counter[Normalisation] | None,
) -> str:
    for kind, step, needles in steps:
        if not any(needle in joined for needle in needles):
            continue
        joined, changed = step(joined)
        if changed and counts is not None:
            counts[kind] += changed
    return joined


def _stripped(text: str, counts: Counter[Normalisation] | None) -> str:
    stripped = text.strip()
    if counts is not None and stripped != text:
        counts[Normalisation.WHITESPACE] += 1
    return stripped


_QUOTE_STEPS = 2  # the first steps: str.replace over the whole document (cheap; most texts)
_ADDRESS_STEPS = tuple(step for step in _STEPS if step[0] == Normalisation.URLS)
_AT_ADDRESSES = _STEPS.index(_ADDRESS_STEPS[0])


def _needles(
    steps: tuple[tuple[Normalisation, Step, tuple[str, ...]], ...],
) -> tuple[tuple[str, re.Pattern[str]], ...]:
    found = dict.fromkeys(needle for _kind, _step, needles in steps for needle in needles)
    return tuple((needle, re.compile(re.escape(needle))) for needle in found)


# The steps after the quotes in three groups, each with the patterns of its needles: the urls
# step alone, since the steps before it can take away the spaces that end an address.
_GROUPS = tuple(
    (steps, _needles(steps))
    for steps in (_STEPS[_QUOTE_STEPS:_AT_ADDRESSES], _ADDRESS_STEPS, _STEPS[_AT_ADDRESSES + 1 :])
)
# What ends an address the urls step reads: it runs on through texts free of these.
_ADDRESS_END = re.compile(r"[\s<>\[\]]")


def _holding(
    joined: str, texts: list[str], needles: tuple[tuple[str, re.Pattern[str]], ...], addresses: bool
) -> list[int]:
    """Return, in order, the texts holding a needle (joined: the texts joined).

    For `addresses`: an address opened at the end of a text ('see <www.') may close in a later
    one when the texts between hold no space or bracket; those texts and the one that ends it
    come with it.
    """
    present = [(needle, pattern) for needle, pattern in needles if needle in joined]
    if not present:
        return []
    # Where each text starts in `joined`: the lengths before it plus a separator each.
    starts = list(map(add, accumulate(map(len, texts), initial=0), range(len(texts))))
    chosen: set[int] = set()
    for _needle, pattern in present:
        places = [found.start() for found in pattern.finditer(joined)]
        chosen.update(map(bisect_right, repeat(starts, len(places)), places))
    chosen = {at - 1 for at in chosen}
    for at in sorted(chosen) if addresses else ():
        opened = max(texts[at].rfind(needle) for needle, _pattern in present)
        if _ADDRESS_END.search(texts[at], opened):
            continue  # every address it opens ends in it
        while at + 1 < len(texts):
            at += 1
            chosen.add(at)
            if _ADDRESS_END.search(texts[at]):
                break
    return sorted(chosen)
