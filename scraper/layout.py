"""Take the page layout out of a tournament document's text, counting what was taken.

What a printed page adds to the text and is no part of it: running headers and footers, page
numbers, the table of contents (with dot leaders, or a list of numbered titles the body then
repeats), words broken at line ends, small capitals split from their first letter
('M ARKED CARDS'), and the Usenet headers and poster's note of the 1994 post.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from enum import StrEnum


class Layout(StrEnum):
    """A kind of layout noise removed from a tournament document (each release counts them)."""

    PAGE_NUMBERS = "page-numbers"
    RUNNING_HEADERS = "running-headers"
    CONTENTS = "contents"
    HYPHENATION = "hyphenation"
    SMALL_CAPS = "small-caps"
    SPLIT_WORDS = "split-words"
    USENET_HEADERS = "usenet-headers"


# 'Page 3', '3', '- 3 -', 'Page 3 of 40', '3 of 40'
PAGE_NUMBER = re.compile(r"(?:page\s+)?-?\s*\d{1,3}\s*-?(?:\s+of\s+\d{1,3})?", re.IGNORECASE)
# A contents line: dot leaders ('1.1 Tournament Types .......... 5', '. . . . 5') or a tab
# before the page number (the 2009 text copy: '1.1\tTournament Types\t3').
CONTENTS_LINE = re.compile(r"(?:\.\s?){4,}\s*\d*\s*$|…{2,}\s*\d*\s*$|\t\d{1,3}\s*$")
_CONTENTS_HEADING = re.compile(r"(?:table\s+of\s+)?contents(?:\s+page)?", re.IGNORECASE)
_HEADER_LINE = re.compile(r"[A-Z][\w-]*: ")  # 'Newsgroups: rec.games.board'
_RULE_LINE = re.compile(r"[=_-]{20,}")  # the line the 1994 poster drew under the note
_SPLIT_CAPS = re.compile(r"(?<![\w'’])([A-Z]) ([A-Z]{2,})(?=\b)")
_SPLIT_TITLE = re.compile(r"^(\d{1,3}\.?\s+)([A-Z]) ([A-Z]{2,}\b)")
_NUMBERS = re.compile(r"\d+")
_WORD = re.compile(r"[^\W\d_]+")
_SPACES = re.compile(r"\s+")
_MONTH_NAMES = re.compile(
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December)\b"
)
_EDGE = 3  # lines at the top and the bottom of a page where headers and footers are looked for
_REPEATED_SHARE = 0.3  # a header or footer is on at least this share of the pages


def strip_layout(pages: Sequence[str], counts: Counter[str]) -> list[str]:
    """Return the lines of a document's pages without their layout ('' for a blank line)."""
    drawn = [_page_lines(page) for page in pages]
    if drawn:
        drawn[0] = _without_usenet_headers(drawn[0], counts)
    repeated = _repeated_edges(drawn)
    offset = _page_offset(drawn)
    lines: list[str] = []
    for at, page in enumerate(drawn):
        lines += _without_edges(page, repeated, None if offset is None else at + offset, counts)
    lines = _without_contents(lines, counts)
    words = _words(lines)
    return _joined_splits([_joined_caps(line, words, counts) for line in lines], counts)


def _page_lines(page: str) -> list[str]:
    return [line.strip() if line.strip() else "" for line in page.split("\n")]


def _without_usenet_headers(lines: list[str], counts: Counter[str]) -> list[str]:
    """Drop a Usenet post's headers and, above a drawn line, the poster's note."""
    if not lines or not lines[0].startswith("From: ") or not _HEADER_LINE.match(lines[1] or ""):
        return lines
    end = lines.index("") if "" in lines else len(lines)
    ruled = next(
        (at for at in range(end, min(len(lines), 60)) if _RULE_LINE.fullmatch(lines[at])), None
    )
    end = ruled + 1 if ruled is not None else end
    counts[Layout.USENET_HEADERS] += sum(1 for line in lines[:end] if line)
    return lines[end:]


def _edge_key(line: str) -> str:
    """Return a line with its numbers, month names and spaces masked: a footer's page number,
    date ('Updated June 1, 2000') or section range ('120.-126.') changes from page to page."""
    return _SPACES.sub("", _NUMBERS.sub("#", _MONTH_NAMES.sub("M", line)))


def _edges(page: list[str]) -> list[int]:
    """Return where the first and last few lines of a page are."""
    filled = [at for at, line in enumerate(page) if line]
    edge = min(_EDGE, len(filled) // 3)  # a short page: its middle is no header or footer
    return filled[:edge] + filled[len(filled) - edge :]


def _repeated_edges(pages: list[list[str]]) -> set[str]:
    """Return the header and footer lines (masked: _edge_key) that many pages repeat."""
    if len(pages) < 3:
        return set()
    seen: Counter[str] = Counter()
    words: dict[str, int] = {}
    for page in pages:
        for line in {page[at] for at in _edges(page)}:
            words[_edge_key(line)] = len(line.split())
        seen.update({_edge_key(page[at]) for at in _edges(page)})
    least = max(3, _REPEATED_SHARE * len(pages))
    # A word or two alone ('Definition', 'Game Loss') is an IPG's part name or penalty, which
    # can open or end many pages: a header has a number, or more words.
    return {key for key, count in seen.items() if count >= least and ("#" in key or words[key] > 2)}


def _page_offset(pages: list[list[str]]) -> int | None:
    """Return what most pages' printed number is more than their place (None: none printed,
    or a text file's one 'page')."""
    if len(pages) < 3:
        return None
    offsets: Counter[int] = Counter(
        int(page[at]) - place
        for place, page in enumerate(pages)
        for at in _edges(page)
        if page[at].isdigit()
    )
    return offsets.most_common(1)[0][0] if offsets else None


def _without_edges(
    page: list[str], repeated: set[str], number: int | None, counts: Counter[str]
) -> list[str]:
    """Drop a page's headers, footers and page number: at its edges, or (the number, drawn
    amid the text, 2011-01-01 IPG) anywhere when it is the number the page's place gives."""
    dropped = {at for at, line in enumerate(page) if number is not None and line == str(number)}
    counts[Layout.PAGE_NUMBERS] += len(dropped)
    for at in _edges(page):
        if at in dropped:
            continue
        if PAGE_NUMBER.fullmatch(page[at]):
            dropped.add(at)
            counts[Layout.PAGE_NUMBERS] += 1
        elif _edge_key(page[at]) in repeated:
            dropped.add(at)
            counts[Layout.RUNNING_HEADERS] += 1
    return [line for at, line in enumerate(page) if at not in dropped]


def _without_contents(lines: list[str], counts: Counter[str]) -> list[str]:
    """Drop the table of contents: dot-leader lines, or the titles listed under 'Contents'."""
    head = min(max(len(lines) // 4, 100), len(lines))  # where a table of contents may be
    leaders = [at for at in range(head) if CONTENTS_LINE.search(lines[at])]
    if leaders:
        first, last = leaders[0], leaders[-1]
        heading = _contents_heading(lines, first)
        first = heading if heading is not None else first
        counts[Layout.CONTENTS] += sum(1 for line in lines[first : last + 1] if line)
        return lines[:first] + lines[last + 1 :]
    heading = _contents_heading(lines, head)
    if heading is None:
        return lines
    entry = next((at for at in range(heading + 1, head) if lines[at]), None)
    again = None
    if entry is not None:
        again = next(
            (at for at in range(entry + 1, len(lines)) if _same_title(lines[at], lines[entry])),
            None,
        )
    end = again if again is not None else heading + 1
    counts[Layout.CONTENTS] += sum(1 for line in lines[heading:end] if line)
    return lines[:heading] + lines[end:]


def _contents_heading(lines: list[str], before: int) -> int | None:
    return next(
        (at for at in range(min(before + 1, len(lines))) if _CONTENTS_HEADING.fullmatch(lines[at])),
        None,
    )


def _same_title(line: str, entry: str) -> bool:
    """Tell the body's heading of a contents entry ('10. FORMAT OF INFRACTIONS' for '10 Format
    of Infractions')."""

    def key(text: str) -> str:
        return re.sub(r"[\W_]+", "", text).casefold()

    return bool(line) and key(line) == key(entry)


def _words(lines: list[str]) -> frozenset[str]:
    """Return the words of the running text, casefolded (a word in capitals is left out: it
    may be a small-capitals fragment, 'ECK' of 'D ECK')."""
    return frozenset(
        word.casefold() for line in lines for word in _WORD.findall(line) if not word.isupper()
    )


def _joined_splits(lines: list[str], counts: Counter[str]) -> list[str]:
    """Join the words the PDF's text layer split in two ('the next rou nd', IPG 2015-07-17):
    where the joined word is printed elsewhere in the document and neither piece is printed
    but in this pair ('rou', 'nd'), the second piece in lower case (or both in capitals:
    'GATHERI NG'). Two words that join into a third ('any one') are each printed elsewhere."""
    words = Counter(word for line in lines for word in _printed_words(line))
    pairs = Counter((a.casefold(), b.casefold()) for line in lines for _, a, b in _pairs(line))

    def split(a: str, b: str) -> bool:
        seen = pairs[a.casefold(), b.casefold()]
        return (
            (b.islower() or (a.isupper() and b.isupper()))
            and words[(a + b).casefold()] > 0
            and words[a.casefold()] == seen == words[b.casefold()]
        )

    mended = []
    for line in lines:
        splits = {at for at, a, b in _pairs(line) if split(a, b)}
        if not splits:
            mended.append(line)
            continue
        tokens = line.split(" ")
        for at in sorted(splits, reverse=True):
            if not {at - 1, at + 1} & splits:  # 'a b c' read as 'ab c' and 'a bc': neither
                tokens[at : at + 2] = [tokens[at] + tokens[at + 1]]
                counts[Layout.SPLIT_WORDS] += 1
        mended.append(" ".join(tokens))
    return mended


_OPENING = "\"'“‘(["
_CLOSING = "\"'”’)].,;:!?"


def _printed_words(line: str) -> Iterator[str]:
    """Yield the words of a line, casefolded: its space-parted tokens that are all letters
    once the punctuation around them is taken off ('customerservice@...' is none)."""
    for token in line.split():
        word = token.strip(_OPENING + _CLOSING)
        if word.isalpha():
            yield word.casefold()


def _pairs(line: str) -> Iterator[tuple[int, str, str]]:
    """Yield each two neighbouring tokens of a line that may be one word split in two: where
    the first one's letters end it and the second one's begin it."""
    tokens = line.split(" ")
    for at in range(len(tokens) - 1):
        a, b = tokens[at].lstrip(_OPENING), tokens[at + 1].rstrip(_CLOSING)
        if a.isalpha() and b.isalpha():
            yield at, a, b


def _joined_caps(line: str, words: frozenset[str], counts: Counter[str]) -> str:
    """Join a small-capitals title's first letter to the rest ('100. D ECK PROBLEMS'); a
    letter that is a word ('1.3. RANDOMIZING A LIBRARY') stays apart where the text prints the
    word after it and not the two joined."""

    def join(match: re.Match[str]) -> str:
        *number, first, rest = match.groups()
        if first in "AI" and rest.casefold() in words and (first + rest).casefold() not in words:
            return match.group()
        counts[Layout.SMALL_CAPS] += 1
        return "".join(number) + first + rest

    letters = [char for char in line if char.isalpha()]
    if letters and all(char.isupper() for char in letters):
        return _SPLIT_CAPS.sub(join, line)
    return _SPLIT_TITLE.sub(join, line)  # a numbered title, with the other column's first line
