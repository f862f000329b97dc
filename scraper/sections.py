"""Parse a tournament document (MTR, IPG) into its numbered sections.

Its text comes without layout (scraper.layout). A heading is a number and a title on a line
of its own ('3.9 Sleeves', '2.1. Game Play Error — Missed Trigger', '101. Deck Problem—...',
'Appendix B—Time Limits'), taken only where its number follows the headings before it, so a
numbered list in a section is no heading. An IPG infraction's parts (Definition, Examples,
Philosophy, Additional Remedy, Upgrade...) stand alone on their lines; a Penalty that opens
with its table of Rules Enforcement Levels (2007-2010) is the table, the text after it the
Additional Remedy.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from rulesarchive.corpus.model import DocKind, Document, Section, SectionPart
from rulesarchive.scraper.layout import Layout

# 'Effective July 23, 2021', 'Effective — March 20, 2008', 'Effective Mar 1, 2008'
MONTH = r"(?P<month>[A-Z][a-z]{2,8})\.?"
EFFECTIVE = re.compile(
    rf"Effective(?:\s+date)?\s*[:—–-]?\s*{MONTH}\s+(?P<day>\d{{1,2}}),?\s+(?P<year>\d{{4}})",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"(?P<number>\d{1,3}(?:\.\d{1,2}){0,2})\.?\s+(?P<title>\S.*)")
_APPENDIX = re.compile(r"appendix\s+(?P<number>[A-Z])\b\s*[—–:.-]*\s*(?P<title>.*)", re.IGNORECASE)
# A title in capitals with the first line of the other column after it (two-column pages).
_CAPITALS_THEN_TEXT = re.compile(r"(?P<title>[A-Z][A-Z'’&/,\- ]*[A-Z])\s+(?P<rest>[A-Z][a-z].*)")
# The words a title leaves in lower case ('Withdrawing from an Event').
_SMALL_WORDS = frozenset(
    "a an and as at by for from in into of on or per the to vs with".split()  # noqa: SIM905
)
_PART_NAMES = (
    "Definition",
    "Examples",
    "Example",
    "Philosophy",
    "Additional Remedy",
    "Upgrade",
    "Penalty",
)
_PARTS = {name.casefold(): name for name in _PART_NAMES}
# An IPG infraction's penalty printed at the end of its title line ('... Missed Trigger No
# Penalty'): kept as its 'Penalty' part.
_PENALTIES = (
    r"(?P<penalty>No Penalty|Warning|Game Loss|Match Loss|Disqualification"
    r"|(?:Warning|Game Loss|Match Loss)\s*/\s*(?:Game Loss|Match Loss|Disqualification))"
)
_PENALTY = re.compile(rf"\s+{_PENALTIES}$")
# A penalty box's value, on the line under its 'Penalty' (2011-2015; '*': see the text).
_BOXED = re.compile(rf"(?:{_PENALTIES}|None)\*?")
_PENALTY_THEN_PART = re.compile(rf"{_PENALTIES}\s+(?P<name>Definition)", re.IGNORECASE)
# The Rules Enforcement Level table that opens an IPG infraction's Penalty (2007-09-20 to
# 2010-04-01): its levels on a line, each level's penalty on the next ('Warning Game Game':
# the PDF prints 'Game' where its cell cut 'Game Loss' short).
_LEVELS = {
    "All Levels": ("All Levels",),
    "Regular Competitive Professional": ("Regular", "Competitive", "Professional"),
}
_CELL = r"Disqualification(?: with(?:out)? prize)?|(?:Game|Match)(?: Loss)?|Caution|Warning|N/A"
_CELLS = re.compile(rf"(?:{_CELL})(?: (?:{_CELL}))*")
# A part named at the start of its first paragraph: 'Upgrade: If the triggered ability...'
_INLINE_PART = re.compile(
    r"(?P<name>Upgrade|Additional Remedy|Philosophy|Definition):\s+(?P<text>\S.*)"
)
# An item's start: a bullet, a list's letter, or a changes appendix's section ('3.4: Players
# decide...', IPG 2018-10-05 Appendix B: an item, however long the line before).
_BULLET = re.compile(r"(?:[•◦▪●·]|[-–]\s|\(?[A-Za-z0-9]\)\s|[A-H]\.\s|\d{1,3}(?:\.\d{1,2})?:\s)")
_ENDS_SENTENCE = re.compile(r"""[.!?:;"”')]$""")
# A changes appendix's entry: what it changed, then a colon ('Section 125 – 128: ', '3.3 (123):
# ', 'Appendix A: '; 'General: ', 'Repeat Offenses: ' after a sentence's end, for a name
# opening a wrapped line is a set's: 'Ravnica: City of Guilds, ...').
_CHANGES = re.compile(r"changes\s+from\s+previous", re.IGNORECASE)
_ENTRY = re.compile(
    r"(?:(?P<numbered>(?:Sections?\s+)?\d{1,3}(?:[.,/–-]\s?\d{1,3}|\s[–-]\s\d{1,3})*"
    r"(?:\s\([^()]{1,12}\))?|Appendix\s[A-Z])|[A-Z][a-z]+(?:\s[A-Z][a-z]+){0,2}):\s"
)
# A line and the next one's first word shorter than this share of a full line were not wrapped
# there: a proportional font puts 103 to 115 characters on a full line of 113 (MTR 2017).
_FITTED = 0.9
_LINE_END_HYPHEN = re.compile(r"(?P<word>[\w-]*\w)-$")
_WORD = re.compile(r"\w+(?:-\w+)*")
# Endings no word is alone: a word broken before one, its head no word the document prints
# either, is one word ('eligi-' 'ble', MTR 2000-06-01, which prints 'eligible' nowhere else).
# The shared documents print no such pair but that one: 'multi-day', 'Double-faced' stay.
_ENDINGS = frozenset(
    [
        "ble",
        "bles",
        "tion",
        "tions",
        "ment",
        "ments",
        "ness",
        "ity",
        "ities",
        "ous",
        "ive",
        "ing",
        "ings",
        "ance",
        "ence",
        "ly",
        "ed",
    ]
)
_POST_PART = re.compile(r"[A-Z][A-Za-z' ]{3,40}:")  # 'Floor Rules:' in the 1994 post
_POST_ITEM = re.compile(r"(?P<number>\d{1,2})\.\s+(?P<text>\S.*)")


@dataclass
class _Open:
    """The section being read: its heading and the lines of its text and of each part."""

    number: str
    title: str
    lines: list[str] = field(default_factory=list)
    parts: list[tuple[str, list[str]]] = field(default_factory=list)
    penalty: str | None = None  # an IPG infraction's penalty, wherever the page printed it

    def add(self, line: str) -> None:
        (self.parts[-1][1] if self.parts else self.lines).append(line)

    def open_part(self, name: str, lines: list[str]) -> None:
        """Open a part; a part printed again right after itself goes on as its next paragraph
        (IPG 2017-04-28 on: Deck Problem's three 'Upgrade:' paragraphs are its one Upgrade)."""
        if self.parts and self.parts[-1][0] == name:
            self.parts[-1][1].extend(["", *lines])  # a blank line: a paragraph of its own
        else:
            self.parts.append((name, lines))


@dataclass
class _Boxes:
    """The IPG's penalty boxes (2011-2015) and the infractions they belong to.

    A page draws its infractions' boxes ('Penalty' over 'Warning*') in one run where its
    text ends (or begins), in the order of the infractions on it: a run goes to the
    infractions opened since the run before, the last of them when it holds fewer boxes, and
    a box left over to the next infraction opened (its heading is further down the page).
    """

    waiting: list[_Open] = field(default_factory=list)
    left: list[str] = field(default_factory=list)

    def opened(self, section: _Open) -> None:
        if self.left:
            section.penalty = self.left.pop(0)
        else:
            self.waiting.append(section)

    def drawn(self, run: list[str]) -> None:
        taking = self.waiting[-len(run) :]
        for section, penalty in zip(taking, run, strict=False):
            section.penalty = penalty
        self.left = run[len(taking) :]
        self.waiting = []


def parse_tournament(lines: list[str], kind: DocKind, counts: Counter[str]) -> Document:
    """Parse a tournament document's lines (without layout) into its sections."""
    wrapping = _Wrapping(_line_width(lines), _words(lines), counts)
    dated = next((at for at, line in enumerate(lines[:40]) if EFFECTIVE.search(line)), None)
    title = next((line for line in lines if line), "")
    if counts[Layout.USENET_HEADERS]:
        preamble, sections = _parse_post(lines)
        notes: tuple[str, ...] = (
            "the 1994 post numbers each part's rules from 1: rule 3 of its second part is 2.3",
        )
    else:
        start = dated + 1 if dated is not None else 1
        preamble, sections = _parse_sections(lines[start:], kind)
        notes = ()
    return Document(
        language="en",
        effective_date=None,
        title=title,
        introduction="\n".join(_paragraphs(preamble, wrapping)),
        sections=tuple(_section(opened, wrapping) for opened in sections),
        notes=notes,
        kind=kind,
    )


@dataclass(frozen=True)
class _Wrapping:
    """What joining a document's hard-wrapped lines reads: the length of its full lines, the
    words it prints whole (casefolded), and the counts of what was mended."""

    width: int
    words: frozenset[str]
    counts: Counter[str]

    def joined(self, text: str, line: str) -> str:
        """Join a line to the text before it that ends in a hyphen: the hyphen stays, as the
        CR's reading keeps it ('previously-' 'unknown', 'DCI-' 'sanctioned'), but for a word
        the layout broke ('orga-' 'nizer'), one the document prints whole and never
        hyphenated, or broken before its ending ('eligi-' 'ble')."""
        broken = _LINE_END_HYPHEN.search(text)
        after = _WORD.match(line)
        if broken and after and line[:1].islower():
            left = broken["word"].rsplit("-", 1)[-1].casefold()
            right = after.group().split("-", 1)[0].casefold()
            printed = left + right in self.words and f"{left}-{right}" not in self.words
            if printed or self._ending(left, right):
                self.counts[Layout.HYPHENATION] += 1
                return text[:-1] + line
        return text + line

    def _ending(self, left: str, right: str) -> bool:
        """Tell whether a word was broken before its ending: the ending is no word alone and
        neither is the head the document prints ('eligi-' 'ble')."""
        return right in _ENDINGS and left not in self.words and right not in self.words


def _words(lines: list[str]) -> frozenset[str]:
    """Return the words and hyphenated compounds the lines print whole, casefolded (not the
    pieces of a word broken at a line end)."""
    found: set[str] = set()
    broken_before = False
    for line in lines:
        words = _WORD.findall(line)
        broken = line.endswith("-")
        whole = words[int(broken_before) : len(words) - int(broken)]
        found.update(word.casefold() for word in whole)
        found.update(piece.casefold() for word in whole for piece in word.split("-"))
        broken_before = broken
    return frozenset(found)


def _line_width(lines: list[str]) -> int:
    """Return the length of a full line of the text (a paragraph's last line is shorter)."""
    lengths = sorted(len(line) for line in lines if line)
    return lengths[int(len(lengths) * 0.9)] if lengths else 80


def _parse_sections(lines: list[str], kind: DocKind) -> tuple[list[str], list[_Open]]:
    preamble: list[str] = []
    sections: list[_Open] = []
    boxes = _Boxes()
    ipg = kind == DocKind.IPG
    for line, run in _without_boxes(lines) if ipg else ((line, []) for line in lines):
        if run:
            boxes.drawn(run)
            continue
        heading = _heading(line, sections[-1] if sections else None)
        if heading:
            number, title, rest = heading
            penalty = _PENALTY.search(title) if ipg and "—" in title else None
            opened = _Open(number, title[: penalty.start()] if penalty else title)
            if penalty:
                opened.penalty = penalty["penalty"]
            elif ipg and "—" in title:
                boxes.opened(opened)
            sections.append(opened)
            if rest:
                opened.add(rest)
        elif sections and ipg and (part := _part_opened(line)):
            sections[-1].open_part(*part)
        elif sections:
            sections[-1].add(line)
        else:
            preamble.append(line)
    return preamble, sections


def _without_boxes(lines: list[str]) -> Iterator[tuple[str, list[str]]]:
    """Yield each line with no run, and each run of penalty boxes as ('', its penalties): a box
    is no part of the text it was drawn amid (a paragraph goes on across it).

    A run is lines of 'Penalty' and penalties, as the page's content stream drew them: a box's
    label may be drawn apart from its penalty (2014-07-18: a page ends 'Penalty', the next
    draws that box's 'Disqualification' before its own boxes). 'Warning Definition' (2010-07
    to 2011-01) is a box printed on its infraction's first part.
    """
    at = 0
    while at < len(lines):
        end = at
        while end < len(lines) and (lines[end] == "Penalty" or _BOXED.fullmatch(lines[end])):
            end += 1
        values = [line for line in lines[at:end] if line != "Penalty"]
        if values and "Penalty" in lines[at:end]:
            yield "", values
            at = end
        elif penalised := _PENALTY_THEN_PART.fullmatch(lines[at]):
            yield "", [penalised["penalty"]]
            yield penalised["name"].title(), []
            at += 1
        elif lines[at] == "Penalty" and _PENALTY_THEN_PART.fullmatch(_next(lines, at)):
            at += 1  # the label over 'Warning Definition'
        else:
            yield lines[at], []
            at += 1


def _next(lines: list[str], at: int) -> str:
    return lines[at + 1] if at + 1 < len(lines) else ""


def _heading(line: str, last: _Open | None) -> tuple[str, str, str] | None:
    """Return the number, title and any text after it of a heading that follows `last`."""
    match = _NUMBERED.fullmatch(line) or _APPENDIX.fullmatch(line)
    if not match or not _follows(match["number"].upper(), last.number if last else None):
        return None
    title, rest = match["title"].strip(), ""
    split = _CAPITALS_THEN_TEXT.fullmatch(title)
    if split and len(split["title"]) > 3 and _is_prose(split["rest"]):
        title, rest = split["title"], split["rest"]
    if not _looks_like_title(title) or (match.re is _APPENDIX and not title):
        return None
    return match["number"].upper(), title, rest


def _is_prose(text: str) -> bool:
    """Tell a sentence's words ('The DCI Penalty Guidelines apply') from a title's ('Magic
    TOURNAMENT RULES')."""
    letters = [char for char in text if char.isalpha()]
    return len(text.split()) >= 4 and sum(char.islower() for char in letters) > 0.6 * len(letters)


def _looks_like_title(title: str) -> bool:
    """Tell a title ('Conceding or Intentionally Drawing Games') from a numbered list item's
    words ('2. Present it'): short, no closing punctuation, its words capitalised."""
    words = [word for word in re.findall(r"[A-Za-z][\w'’-]*", title) if word not in _SMALL_WORDS]
    return (
        0 < len(title) <= 90
        and not re.search(r"[.,;:]$", title)
        and bool(words)
        and all(word[0].isupper() for word in words)
    )


def _follows(number: str, last: str | None) -> bool:
    """Tell whether a heading numbered `number` may come after one numbered `last`."""
    if number.isalpha():  # appendices: A, then the next letter
        if last is None or not last.isalpha():
            return number == "A"
        return ord(number) == ord(last) + 1
    if last is not None and last[0].isalpha():
        return False  # nothing numbered after the appendices
    parts = [int(part) for part in number.split(".")]
    if last is None:
        return parts[0] in (1, 10, 100) and all(part <= 1 for part in parts[1:])
    before = [int(part) for part in last.split(".")]
    if len(parts) == 1:  # the next section: '4' after '3.12', '110' after '106', '200' after '164'
        step = parts[0] - before[0]
        return 0 < step <= 10 or (parts[0] % 100 == 0 and 0 < step <= 100)
    if len(parts) == len(before) + 1:  # a first subsection: '3.1' after '3'
        return parts[:-1] == before and parts[-1] <= 2
    if len(parts) > len(before):
        return False
    same_level = before[: len(parts)]  # the next subsection: '3.10' after '3.9' or '3.9.2'
    return parts[:-1] == same_level[:-1] and 0 < parts[-1] - same_level[-1] <= 3


def _part_opened(line: str) -> tuple[str, list[str]] | None:
    """Return the part a line opens, with its first text: 'Philosophy' alone, or 'Upgrade: If
    the triggered ability...' (2011 on)."""
    name = _PARTS.get(line.rstrip(":").strip().casefold())
    if name:
        return name, []
    inline = _INLINE_PART.fullmatch(line)
    if inline:
        return _PARTS[inline["name"].casefold()], [inline["text"]]
    return None


def _parse_post(lines: list[str]) -> tuple[list[str], list[_Open]]:
    """Read the 1994 post: parts ('Floor Rules:') of rules numbered from 1 in each."""
    preamble: list[str] = []
    sections: list[_Open] = []
    parts = 0
    for at, line in enumerate(lines):
        before = lines[at - 1] if at else ""
        if _POST_PART.fullmatch(line) and not before:
            parts += 1
            sections.append(_Open(str(parts), line.rstrip(":")))
        elif sections and not before and (item := _POST_ITEM.fullmatch(line)):
            sections.append(_Open(f"{parts}.{item['number']}", ""))
            sections[-1].add(item["text"])
        elif sections:
            sections[-1].add(line)
        else:
            preamble.append(line)
    return preamble, sections


def _section(opened: _Open, wrapping: _Wrapping) -> Section:
    penalty = [("Penalty", [opened.penalty])] if opened.penalty else []
    parts = tuple(
        SectionPart(name, tuple(_paragraphs(lines, wrapping)))
        for name, lines in _split_tables(penalty + opened.parts)
    )
    entries = opened.number.isalpha() and bool(_CHANGES.search(opened.title))
    paragraphs = tuple(_paragraphs(opened.lines, wrapping, entries))
    return Section(opened.number, opened.title, paragraphs, parts)


def _split_tables(parts: list[tuple[str, list[str]]]) -> Iterator[tuple[str, list[str]]]:
    """Yield the parts, a Penalty that opens with its Rules Enforcement Level table split in
    two: the table alone ('Regular: Caution; Competitive: Warning; Professional: Warning'),
    and the text after it as the Additional Remedy, the name the IPG gives that text from
    2010-07-01 on, so that its history runs back through the tables' versions."""
    for name, lines in parts:
        table = _penalty_table(lines) if name == "Penalty" else None
        if table is None:
            yield name, lines
            continue
        penalty, rest = table
        yield name, [penalty]
        if any(rest):
            yield "Additional Remedy", rest


def _penalty_table(lines: list[str]) -> tuple[str, list[str]] | None:
    """Return the Rules Enforcement Level table that opens a Penalty's lines, each level with
    its penalty, and the lines after it; None if the lines open with no such table."""
    filled = [at for at, line in enumerate(lines) if line][:2]
    if len(filled) < 2:
        return None
    levels = _LEVELS.get(lines[filled[0]])
    row = lines[filled[1]]
    cells = re.findall(_CELL, row) if _CELLS.fullmatch(row) else []
    if levels is None or len(cells) != len(levels):
        return None
    penalty = "; ".join(f"{level}: {cell}" for level, cell in zip(levels, cells, strict=True))
    return penalty, lines[filled[1] + 1 :]


def _ends_paragraph(line: str, width: int, following: str) -> bool:
    """Tell a paragraph's (or a list item's) last line: short, and most often a sentence's end;
    or a line the next one's first word would have fitted on, so not one the layout wrapped
    (MTR 2017-07-14's 'Spectators are ... unobtrusively.' of 87 characters, before 'The' in a
    text of 113: its page joined it to the next paragraph, as the 2017-06-19 page break did
    not)."""
    short = 0.75 if _ENDS_SENTENCE.search(line) else 0.5
    word = following.split(maxsplit=1)[0] if following else ""
    # a word, not a closing piece ('(REL)' under '... Rules Enforcement Level', IPG 2001)
    fitted = word[:1].isalnum() and len(line) + 1 + len(word) <= _FITTED * width
    return len(line) < short * width or fitted


def _unfinished(line: str, following: str) -> bool:
    """Tell a line that leaves a parenthesis open which the next one, no new item, closes: a
    list item wrapped in a narrow column (MTR 2017-04-28 and 2017-06-19, 6.5: '• Gitaxian
    Probe (effective April 28,' then '2017)'; 2016-07-22 draws '• Aether Revolt (effective'
    apart from its end, and the next paragraph stays its own)."""
    if not following or _BULLET.match(following):
        return False
    return line.count("(") > line.count(")") and following.count(")") > following.count("(")


def _going_on(lines: list[str]) -> list[bool]:
    """Tell, for each line, whether the text after it goes on in lower case: the same sentence
    (across a page's end, or after a short line)."""
    going_on = [False] * len(lines)
    following = ""
    for at in range(len(lines) - 1, -1, -1):
        going_on[at] = following[:1].islower()
        following = lines[at] or following
    return going_on


def _opens_item(line: str, before: str, entries: bool) -> bool:
    """Tell a line that starts an item: a bullet's, or (`entries`: in a changes appendix) an
    entry's, however long the line before (IPG 2008-03-20's 'General: ... acceptable).' fills
    its line, the next 'General: ' entry would not fit on it)."""
    if _BULLET.match(line):
        return True
    entry = _ENTRY.match(line) if entries else None
    if entry is None:
        return False
    return entry["numbered"] is not None or bool(_ENDS_SENTENCE.search(before))


def _paragraphs(lines: list[str], wrapping: _Wrapping, entries: bool = False) -> Iterator[str]:
    """Join hard-wrapped lines into paragraphs, mending words broken at line ends.

    A line is short against the paragraph's longest line so far, where it has one: a narrow
    column's lines (the early IPGs' right column) are all short against the page. The first
    line counts only while it is the only one: it may carry a label from the left column
    ('Disqualification:  A warning is always given...').
    """
    current = ""
    longest = 0  # of the current paragraph's lines before this one (the first while alone)
    lines_in = 0
    following = [*lines[1:], ""][: len(lines)]
    for line, goes_on, after in zip(lines, _going_on(lines), following, strict=True):
        ends = (not line and not goes_on) or _opens_item(line, current, entries)
        if ends and current and current not in "•◦▪●·":
            yield current
            current, longest, lines_in = "", 0, 0
        if not line:
            continue
        if not current:
            current = line
        elif current in "•◦▪●·":
            current = f"{current} {line}"
        elif _LINE_END_HYPHEN.search(current):
            current = wrapping.joined(current, line)
        else:
            current = f"{current} {line}"
        width = min(longest, wrapping.width) if longest else wrapping.width
        if not goes_on and not _unfinished(line, after) and _ends_paragraph(line, width, after):
            yield current
            current, longest, lines_in = "", 0, 0
        else:
            lines_in += 1
            longest = len(line) if lines_in <= 2 else max(longest, len(line))
    if current:
        yield current
