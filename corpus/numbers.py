"""Comprehensive Rules numbers: parsing, ordering and parents."""

from __future__ import annotations

import bisect
import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache

# What a rule number is, in pieces: every pattern that matches rule numbers is built from
# these. No release so far has a two-letter sub-rule, but 704.5 reached 704.5z on 2025-02-07
# and a sub-rule after it would be 704.5aa, so every pattern reads up to two letters.
SECTION = r"\d"  # a section: '7'
CHAPTER = r"\d{3}"  # a chapter: '702'
RULE = rf"{CHAPTER}\.\d+"  # a rule: '702.19'
LETTERS = r"[a-z]{1,2}"  # a sub-rule's letters: 'b' in '702.19b'
NUMBER = rf"{RULE}(?:{LETTERS})?"  # a rule or a sub-rule: '702.19', '702.19b'

# Magic 2010's rules (effective 2009-07-11) numbered every rule anew: 14% of its numbers were
# in use before, mostly for other rules. A rule number, or a count of rules, of a release
# before it says nothing of a release after it.
RENUMBERED = dt.date(2009, 7, 11)


def numbering_era(date: dt.date) -> int:
    """Return the numbering a release of this date uses: 0 before Magic 2010's, 1 from it."""
    return int(date >= RENUMBERED)


RULE_NUMBER = re.compile(rf"({CHAPTER})(?:\.(\d+)((?:{LETTERS})?))?")


def rule_sort_key(number: str) -> tuple[int, int, int, str]:
    """Order rule numbers as the rules do: 100.2 < 100.10, 704.5k < 704.5m < 704.5aa."""
    match = RULE_NUMBER.fullmatch(number)
    if match is None:
        return (10_000, 0, 0, number)
    chapter, rule, letters = match.groups()
    return (int(chapter), int(rule) if rule else -1, len(letters or ""), letters or "")


# What people put around a number they type ("CR 702.19B", "rule 400.6.", " 704 "); the site
# reads typed numbers the same way (templates/static/rulenumber.js).
_TYPED_PREFIX = re.compile(r"^(?:cr|rules?)(?=[\s.\d])\.?", re.IGNORECASE)
_TYPED = re.compile(r"[0-9](?:[0-9]{2}(?:\.[0-9]+[a-z]{0,2})?)?")


def typed_number(text: str) -> str | None:
    """Return the section, chapter or rule number a person typed ('CR 702.19B' -> '702.19b'),
    or None: a "CR" or "rule" before it, spaces, a closing period and letter case are forgiven."""
    number = re.sub(r"\s+", "", _TYPED_PREFIX.sub("", text.strip())).lower()
    number = number[:-1] if number.endswith(".") else number
    return number if _TYPED.fullmatch(number) else None


def nearest_numbers(number: str, numbers: Iterable[str], count: int = 2) -> list[str]:
    """Return the numbers in use just before and after one not in use, in rule order."""
    ordered = sorted(set(numbers), key=rule_sort_key)
    keys = [rule_sort_key(known) for known in ordered]
    at = bisect.bisect_left(keys, rule_sort_key(number))
    return ordered[max(at - count // 2, 0) : at + (count + 1) // 2]


def parent_of(number: str) -> str | None:
    """Return the rule a sub-rule belongs to: '702.19' for '702.19b', None for '702.19'."""
    # String operations, not RULE_NUMBER: the aligner asks this of every rule of a release.
    chapter, dot, rest = number.partition(".")
    digits = rest.rstrip("abcdefghijklmnopqrstuvwxyz")
    letters = len(rest) - len(digits)
    if not (dot and len(chapter) == 3 and chapter.isdigit() and digits.isdigit() and letters <= 2):
        return None
    return f"{chapter}.{digits}" if letters else chapter


# A tournament document's sections are addressed by number ('3.9', '101', 'B') and their parts
# by name after the number: '2.1/philosophy' (see differ.sections).
PART = "/"
_CR_NUMBER = re.compile(r"\d{3}(?:\.|$)")  # a CR chapter or rule, or an old 100-series section


def part_name(address: str) -> str:
    """Return the part an address names ('philosophy' of '2.1/philosophy'; '' for a section's
    own text or a CR rule)."""
    return address.partition(PART)[2]


def container(number: str) -> str:
    """Return the heading a unit stands under: a CR rule's chapter ('702' for 702.19b), a
    part's section ('2.1' for 2.1/philosophy), a section's own text its section."""
    if _CR_NUMBER.match(number):
        return number[:3]
    return number.partition(PART)[0]


def cited_numbers(text: str) -> list[str]:
    """Return the rule numbers a text spells out in its citations, in order, each once."""
    return list(
        dict.fromkeys(
            number
            for citation in parse_citations(text)
            for _start, _end, number in citation.spans
            if "." in number
        )
    )


# A citation as the rules write it: a rule ('601.2f'), a range of sub-rules ('702.19b–d',
# '119.7–8', '903.6–903.11'), and, after "rule", "section" or "chapter", a chapter ('704'),
# a range of chapters ('306–311') or a section ('section 5'); a chapter given with its title
# ('See 719, "Prototype Cards."'). A bare three-digit number elsewhere is a quantity, not a
# citation. The one parser of citations: the reference check, the site's links, the
# translations' comparison and the renumbering of references all read it. The translations'
# words for these are read too, where they cannot mean anything else (see below).
_END = rf"(?:{NUMBER}|\d{{1,3}}(?:{LETTERS})?|{LETTERS})"
_TAIL = r"(?![\d]|\.\d|[a-z])"  # not 702.190 read as 702.19, nor section 3.4 as 3
_ITEM = rf"(?<![\d.])(?:{NUMBER}|{CHAPTER})(?:\s?[–-]\s?{_END})?{_TAIL}"
# Chinese: 规则704 (rule 704), 规则111和707 (rules 111 and 707), 第8章 (section 8).
# Korean: 규칙 708 (rule 708), 규칙 601.2b와 601.2e-h (and: 와/과 glued to the number before,
# 및 spaced), 규칙 704 또는 705 (or). '7장' is seven cards, never a chapter: not read.
_SEPARATOR = (
    r"(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+|\s*[、和或及与]\s*"
    r"|(?:와|과)\s+|\s+(?:및|또는)\s+)"
    r"(?:rules?\s+|规则\s*|규칙\s*)?"
)
# A list's sub-rule written short, its letter alone: 'rules 608.3a and b' (608.3b).
_SHORT = r"(?<![\w.])[a-z](?![\w]|\.\d)"
_LED_LIST = (
    rf"(?:\b(?:[Rr]ules?|[Cc]hapters?)\s+|规则\s*|규칙\s*){_ITEM}"
    rf"(?:{_SEPARATOR}(?:{_ITEM}|{_SHORT}))*"
)
_SHORT_MEMBER = rf"{_SEPARATOR}(?P<first>{_SHORT})"
# A rule or a chapter not after a digit or a point, said after its first digit: a pattern that
# starts with a digit is searched digit to digit, three times as fast as one that starts with
# the look-behind (the same matches as (?<![\d.])(?:NUMBER|CHAPTER)).
_NUMBER_OR_CHAPTER = rf"\d(?<![\d.]\d)\d\d(?:\.\d+(?:{LETTERS})?)?"
_PARTS = rf"(?P<first>{_NUMBER_OR_CHAPTER})(?:\s?[–-]\s?(?P<last>{_END}))?{_TAIL}"
# 'section 5', and a chapter after it ('section 101, "Starting the Game"', 2001-2009)
_SECTION = rf"(?:\b[Ss]ections?\s+|第)(?P<first>{CHAPTER}|{SECTION}){_TAIL}(?P<last>)"
# Korean: '8절 "Multiplayer Rules."' (section 8: the counter after the number). Only with the
# section's title after it, as every Korean release writes it: 절 also begins other words
# ('절차', a procedure).
_SECTION_BEFORE_WORD = rf"(?<![\d.])(?P<first>{SECTION})(?P<last>)(?=절\s*,?\s*[“\"])"
# The title a chapter or section citation gives: rule 704, “State-Based Actions.”
_TITLE = r"\s*,?\s*[“\"]([^”\"]+?)[,.;]?[”\"]"
# A chapter with its title, with no word before it ('and 729, "Merging with Permanents."')
_TITLED = rf"(?P<first>\d(?<![\d.]\d)\d\d){_TAIL}(?P<last>)(?={_TITLE})"
_DIGIT = re.compile(r"\d")
# The tournament documents' citations (MTR, IPG): a section of their own ('section 3.9',
# 'sections 76 and 77' of the Universal Tournament Rules), or of a document they name before
# the number ('MTR section 4.3', '(CR 702.2)', 'IPG 2.1', 'Comprehensive Rules, rule 103.4c',
# 'Comprehensive Rules (see section 606.6a)')
# or after it ('section 4.1 of the Magic Tournament Rules').
_TOURNAMENT_NUMBER = r"\d{1,3}(?:\.\d{1,2}(?:[a-z]{1,2})?)?"
_OWN_SECTION = rf"\b[Ss]ections?\s+(?P<first>\d{{1,2}}\.\d{{1,2}}|\d{{2}}){_TAIL}(?P<last>)"
_NAMED_NUMBER = (
    rf"\b(?:MTR|IPG|CR)\s+(?:[Ss]ections?\s+)?(?P<first>{_TOURNAMENT_NUMBER}){_TAIL}(?P<last>)"
)
# The DCI Universal Tournament Rules, which the Floor Rules (the MTR until 2009) worked with,
# are a document of their own: 'utr'.
_DOCUMENT_NAMES = (
    ("cr", r"(?:Magic\s+)?Comprehensive\s+[Rr]ules|CR"),
    ("utr", r"(?:DCI\s+)?Universal\s+Tournament\s+Rules|UTR"),
    ("mtr", r"(?:Magic\s+)?(?:DCI\s+)?(?:Tournament|Floor)\s+Rules|MTR"),
    ("ipg", r"(?:Magic\s+)?(?:Infraction\s+Procedure\s+Guide|Penalty\s+Guide(?:lines)?)|IPG"),
)
_NAMED_BEFORE = (
    "(?:"
    + "|".join(rf"(?P<{doc}>\b(?:{names}))" for doc, names in _DOCUMENT_NAMES)
    + r")\s*[,(]?\s*(?:see\s+)?(?:(?:[Ss]ections?|[Rr]ules?)\s+)?$"
)
_NAMED_AFTER = (
    r"\s+(?:of|in)\s+(?:the\s+|this\s+)?(?:"
    + "|".join(rf"(?P<{doc}>{names})\b" for doc, names in _DOCUMENT_NAMES)
    + ")"
)
_NAMING_WORDS = ("MTR", "IPG", "CR", "UTR", "Comprehensive", "Tournament", "Floor", "Guide")


@cache
def _pattern(text: str) -> re.Pattern[str]:
    """Compile one of the citation patterns above, once, when first used: most commands read
    no citation, and compiling them all cost every start several milliseconds."""
    return re.compile(text)


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation in a text: a number, or a range from `first` to `last`, as written."""

    written: str
    first: str
    last: str
    start: int
    end: int
    title: str = ""  # the title a chapter or section citation gives, as written
    last_at: int = -1  # where a range's end stands, as written ('d' in '702.19b–d'); -1: none
    doc: str = ""  # the document it names ('cr', 'mtr', 'ipg', 'utr'); '': the citing one's own

    def named_from(self, citing: str) -> str:
        """Return the citation as a report names it from a document of kind `citing` ('cr',
        'mtr', 'ipg'): 'MTR 4.3' for another document's section, else as written."""
        named = self.doc and self.doc != citing
        return f"{self.doc.upper()} {self.written}" if named else self.written

    @property
    def numbers(self) -> tuple[str, ...]:
        """The cited number, or the two ends of a range."""
        return (self.first,) if self.first == self.last else (self.first, self.last)

    @property
    def spans(self) -> tuple[tuple[int, int, str], ...]:
        """Each number spelled out in the text: (start, end, number); the end of a range
        written short ('702.19b–d', '119.7–8') is not spelled out."""
        if not self.written.startswith(self.first):  # a list member written short: 'b'
            return ()
        first = (self.start, self.start + len(self.first), self.first)
        if self.last_at < 0 or self.end - self.last_at != len(self.last):
            return (first,)
        return first, (self.last_at, self.end, self.last)


@cache
def parse_citations(text: str, documents: bool = False) -> tuple[Citation, ...]:
    """Return every citation in a text, in order of position (remembered: texts recur).

    `documents`: read it as a tournament document's (MTR, IPG) text: its sections ('section
    3.9') and the documents a citation names ('MTR section 4.3', '(CR 702.2)') too. A CR text's
    citations never name another document: the Comprehensive Rules' own reading is unchanged.
    """
    if not _DIGIT.search(text):  # most texts: nothing to cite with
        return ()
    found: dict[int, Citation] = {}
    # Each pattern is tried only where its words are in the text: `in` is far quicker.
    if "ule" in text or "hapter" in text or "规则" in text or "규칙" in text:
        for listed in _pattern(_LED_LIST).finditer(text):
            for match in _pattern(_PARTS).finditer(text, listed.start(), listed.end()):
                found[match.start()] = _citation(match)
            for match in _pattern(_SHORT_MEMBER).finditer(text, listed.start(), listed.end()):
                short = _short_member(match, found)
                if short is not None:
                    found[short.start] = short
    for pattern, words in (
        (_SECTION, ("ection", "第")),
        (_SECTION_BEFORE_WORD, ("절",)),
        (_TITLED, ('"', "“")),
    ):
        if any(word in text for word in words):
            for match in _pattern(pattern).finditer(text):
                found.setdefault(match.start("first"), _citation(match))
    if documents:
        _add_tournament_citations(text, found)
    for match in _pattern(_PARTS).finditer(text):
        if "." in match.group("first") and not _inside(match.start(), found):
            found[match.start()] = _citation(match)
    if documents and any(word in text for word in _NAMING_WORDS):
        return tuple(_named_document(found[start], text) for start in sorted(found))
    return tuple(found[start] for start in sorted(found))


def _add_tournament_citations(text: str, found: dict[int, Citation]) -> None:
    """Add a tournament document's citations of sections ('section 3.9', 'MTR 4.3')."""
    if "ection" in text or "MTR" in text or "IPG" in text or "CR" in text:
        for pattern in (_NAMED_NUMBER, _OWN_SECTION):
            for match in _pattern(pattern).finditer(text):
                if not _inside(match.start("first"), found):
                    found[match.start("first")] = _citation(match)


def _named_document(citation: Citation, text: str) -> Citation:
    """Name the document a citation cites where the text names it just before the number
    ('MTR section 4.3', 'Comprehensive Rules, rule 103.4c') or after it ('section 4.1 of the
    Magic Tournament Rules')."""
    before = _pattern(_NAMED_BEFORE).search(text, max(0, citation.start - 50), citation.start)
    after = _pattern(_NAMED_AFTER).match(text, citation.end)
    named = before or after
    if named is None:
        return citation
    doc = next(doc for doc, _names in _DOCUMENT_NAMES if named.group(doc))
    return replace(citation, doc=doc)


def _short_member(match: re.Match[str], found: dict[int, Citation]) -> Citation | None:
    """The sub-rule a list member written as its letter names: the next letters of the
    member before it ('608.3a and b' -> 608.3b); None where the letter does not follow on
    (a word: 'rule 506.4c, and a ...')."""
    start = match.start("first")
    before = [c for at, c in found.items() if at < start]
    if not before:
        return None
    previous = max(before, key=lambda c: c.start).last
    rule = previous.rstrip("abcdefghijklmnopqrstuvwxyz")
    letter = match.group("first")
    if len(previous) - len(rule) != 1 or letter <= previous[-1]:
        return None
    return Citation(letter, rule + letter, rule + letter, start, match.end())


def _inside(position: int, found: dict[int, Citation]) -> bool:
    return any(c.start <= position < c.end for c in found.values())


def _citation(match: re.Match[str]) -> Citation:
    first, tail = match.group("first"), match.group("last")
    start, end, text = match.start("first"), match.end(), match.string
    titled = "." not in first and not tail and _pattern(_TITLE).match(text, end)
    title = titled.group(1) if titled else ""
    last_at = match.start("last") if tail else -1
    return Citation(text[start:end], first, _range_end(first, tail), start, end, title, last_at)


def _range_end(first: str, tail: str | None) -> str:
    """Spell a range's end in full: '702.19b'+'d' -> '702.19d', '119.7'+'8' -> '119.8'."""
    if not tail:
        return first
    if "." in tail or ("." not in first and len(tail) == len(first)):
        return tail
    chapter, _, rest = first.partition(".")
    if tail.isalpha():
        return f"{chapter}.{rest.rstrip('abcdefghijklmnopqrstuvwxyz')}{tail}"
    return f"{chapter}.{tail}" if rest else tail
