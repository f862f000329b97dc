"""Parse the plain text of a Comprehensive Rules document into a Document (not yet normalised)."""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Rule
from rulesarchive.corpus.numbers import CHAPTER, LETTERS, RULE, SECTION, parent_of, rule_sort_key
from rulesarchive.scraper.errors import InputError

# After the number: a space, the end, a capital after a period, or (the Korean text's
# '302.4b생물의 방어력은') a Hangul syllable glued to it.
_RULE = re.compile(
    rf"(?P<chapter>{CHAPTER})\.(?P<rule>\d+)(?P<letters>(?:{LETTERS})?)(?P<dot>\.)?"
    r"(?P<space>\s+|$|(?<=\.)(?=[A-Z])|(?=[\uac00-\ud7a3]))(?P<text>.*)"
)
# '702. 37a Text' in 2011-2012 originals: a space slipped in after the chapter's period.
_SPLIT_RULE = re.compile(
    rf"(?P<chapter>{CHAPTER})\.\s+(?P<rule>\d+)(?P<letters>(?:{LETTERS})?)\.?\s+(?P<text>.*)"
)
# '408.f Card text…' in 1999-11-01: the rule's number left out of a sub-rule after 408.2e.
_NO_RULE = re.compile(rf"(?P<chapter>{CHAPTER})\.(?P<letter>[a-z])\s+(?P<text>.*)")
_SECTION = re.compile(rf"(?P<number>{SECTION})\.\s+(?P<title>\D.*)")
_CHAPTER = re.compile(rf"(?P<number>{CHAPTER})\.\s+(?P<title>\D.*)")
_EXAMPLE = re.compile(r"(?:Example|EXAMPLE|Examples|Esempio|例如)\s*[:：]\s*")
_DECORATION = re.compile(r"[-=_*]{4,}")
# A chapter kept empty: '211. [This section has been intentionally left blank to preserve the
# ordering of other rules.]' (2007-10 to 2009-05), a heading however long.
_BRACKETED = re.compile(r"\[[^\[\]]+\]\s*")
_DECORATION_CHARS = "-=_*"  # what a decoration starts with: the pattern is tried only then
_CJK = re.compile("[\u4e00-\u9fff]")
_HANGUL = re.compile("[\uac00-\ud7a3]")  # the precomposed syllables
_SENTENCE_END = re.compile(r"""[.:;!?)"”’'。）」]\s*$""")

_MONTH_NAMES = (
    "January February March April May June July August September October November December"
)
_MONTHS = {name: index for index, name in enumerate(_MONTH_NAMES.split(), start=1)}
_DATE_EN = re.compile(
    r"(?:effective|current)\s+as\s+of\s+(?P<month>[A-Z][a-z]+)\.?\s+(?P<day>\d{1,2}),\s*(?P<year>\d{4})"
)
_DATE_ZH = re.compile(
    r"此规则于\s*(?P<year>\d{4})\s*年\s*(?P<month>\d{1,2})\s*月\s*(?P<day>\d{1,2})\s*日"
)
# '이 규칙은 2021년 11월 19일부터 시행됩니다.' (these rules take effect from 2021-11-19)
_DATE_KO = re.compile(
    r"이 규칙은\s*(?P<year>\d{4})\s*년\s*(?P<month>\d{1,2})\s*월\s*(?P<day>\d{1,2})\s*일"
)


class Part(StrEnum):
    """The parts of a document besides its rules, found by their headings."""

    INTRODUCTION = "introduction"
    CONTENTS = "contents"
    GLOSSARY = "glossary"
    CREDITS = "credits"
    APPENDIX = "appendix"


_HEADINGS = {
    Part.INTRODUCTION: ("Introduction", "引言", "介绍", "序言", "소개"),
    Part.CONTENTS: ("Contents", "Table of Contents", "目录", "목차"),
    Part.GLOSSARY: ("Glossary", "词汇表", "术语表", "Glossario", "용어사전"),
    Part.CREDITS: ("Credits", "版权信息", "制作人员", "Crediti"),
    # The 2022-06-10 Chinese text ends its glossary with a list of provisional translations.
    Part.APPENDIX: ("暂译名称列表",),
}
# What the Korean translation prints under its glossary heading instead of the glossary:
# '<생략>', "omitted".
_OMITTED = ("<생략>", "(생략)")


@dataclass(slots=True)
class _RuleBuilder:
    number: str
    lines: list[str]
    examples: list[list[str]] = field(default_factory=list)

    def add(self, text: str) -> None:
        (self.examples[-1] if self.examples else self.lines).append(text)

    def build(self) -> Rule:
        if not self.examples and len(self.lines) == 1:
            return Rule(self.number, self.lines[0].strip())
        text = " ".join(self.lines).strip()
        examples = tuple(" ".join(example).strip() for example in self.examples)
        return Rule(self.number, text, examples)


def parse_document(text: str, language: str | None = None) -> Document:
    """Parse a rules text: date, introduction, contents, rules, glossary, credits."""
    lines = [line.rstrip() for line in text.split("\n")]
    language = language or detect_language(text)
    wrapped = is_hard_wrapped(lines)
    body_start = _find_body_start(lines)
    glossary_at = _find_heading(lines, Part.GLOSSARY, body_start)
    after_rules = glossary_at if glossary_at is not None else body_start
    credits_at = _find_heading(lines, Part.CREDITS, after_rules)
    if credits_at is None:
        credits_at = _find_heading(lines, Part.APPENDIX, after_rules)
    body_end = glossary_at if glossary_at is not None else (credits_at or len(lines))
    notes: list[str] = []
    headings, rules = _parse_rules(lines[body_start:body_end], wrapped, notes)
    glossary: tuple[GlossaryEntry, ...] = ()
    omitted_at = _glossary_omitted(lines, glossary_at)
    if omitted_at is not None:
        notes.append(f"glossary omitted by the translator ({lines[omitted_at].strip()!r})")
        credits_at = credits_at if credits_at is not None else omitted_at
    elif glossary_at is not None:
        glossary_end = credits_at if credits_at is not None else len(lines)
        glossary = tuple(_parse_glossary(lines[glossary_at + 1 : glossary_end], wrapped, notes))
    credits = ""
    if credits_at is not None:
        credits = "\n".join(line.strip() for line in lines[credits_at + 1 :] if line.strip())
    contents_at = _find_heading(lines, Part.CONTENTS, 0, body_start)
    intro_at = _find_heading(lines, Part.INTRODUCTION, 0, contents_at or body_start)
    introduction = ""
    if intro_at is not None:
        introduction = _join_block(lines[intro_at + 1 : contents_at or body_start], wrapped)
    contents: tuple[str, ...] = ()
    if contents_at is not None:
        contents = tuple(
            line.strip()
            for line in lines[contents_at + 1 : body_start]
            if line.strip() and not _DECORATION.fullmatch(line.strip())
        )
    return Document(
        language=language,
        effective_date=find_effective_date(text),
        title=next(
            (
                line.strip()
                for line in lines
                if line.strip() and not _DECORATION.fullmatch(line.strip())
            ),
            "",
        ),
        introduction=introduction,
        contents=contents,
        headings=tuple(headings),
        rules=tuple(rules),
        glossary=glossary,
        credits=credits,
        notes=tuple(notes),
        glossary_omitted=omitted_at is not None,
    )


def _glossary_omitted(lines: list[str], glossary_at: int | None) -> int | None:
    """Return the line under the glossary heading that says the glossary is omitted, if any."""
    if glossary_at is None:
        return None
    first = next((i for i in range(glossary_at + 1, len(lines)) if lines[i].strip()), None)
    return first if first is not None and lines[first].strip() in _OMITTED else None


def detect_language(text: str) -> str:
    """Guess the language of a rules document: 'zh-Hans', 'ko', 'it' or 'en'."""
    sample = text[:200_000]
    # Counted only when a lead byte shows there is something to count: the pattern's pass
    # over a long English text is slow.
    encoded = b"" if sample.isascii() else sample.encode("utf-8", "surrogatepass")
    for language, pattern, leads in (
        ("zh-Hans", _CJK, _CJK_LEAD_BYTES),
        ("ko", _HANGUL, _HANGUL_LEAD_BYTES),
    ):
        found = any(lead in encoded for lead in leads) and len(pattern.findall(sample))
        if found > len(sample) * 0.05:
            return language
    if "Regolamento" in sample or "Esempio:" in sample:
        return "it"
    return "en"


# The first byte of a character's UTF-8 between U+4000 and U+9FFF, and so of every _CJK one;
# between U+A000 and U+DFFF, and so of every _HANGUL one.
_CJK_LEAD_BYTES = tuple(bytes([lead]) for lead in range(0xE4, 0xEA))
_HANGUL_LEAD_BYTES = tuple(bytes([lead]) for lead in range(0xEA, 0xEE))


def find_effective_date(text: str) -> dt.date | None:
    """Return the date the document says it is effective (or current) as of."""
    match = _DATE_EN.search(text)
    if match and match.group("month") in _MONTHS:
        month = _MONTHS[match.group("month")]
        return dt.date(int(match.group("year")), month, int(match.group("day")))
    for pattern in (_DATE_ZH, _DATE_KO):
        match = pattern.search(text)
        if match:
            year, month, day = (int(match.group(part)) for part in ("year", "month", "day"))
            return dt.date(year, month, day)
    return None


def is_hard_wrapped(lines: list[str]) -> bool:
    """Tell whether paragraphs are broken across lines (1999-2004 texts, PDF text)."""
    lengths = sorted(map(len, filter(str.strip, lines)))
    if not lengths or lengths[int(len(lengths) * 0.99)] >= 160:
        return False
    # Short lines alone prove nothing (a short document): wrapped rules run on to a next line.
    rule_lines = [i for i, line in enumerate(lines[:-1]) if _RULE.match(line.strip())]
    run_on = [
        i for i in rule_lines if lines[i + 1].strip() and not _opens_paragraph(lines[i + 1].strip())
    ]
    return len(run_on) > 0.2 * len(rule_lines)


def _find_heading(lines: list[str], kind: Part, start: int, end: int | None = None) -> int | None:
    names = _HEADINGS[kind]
    found = None
    for index in range(start, len(lines) if end is None else end):
        if lines[index].strip().strip("-= ") in names:
            found = index
            if kind in (Part.INTRODUCTION, Part.CONTENTS):
                return found
    return found


def _find_body_start(lines: list[str]) -> int:
    """Return the line of the first section heading of the rules proper (after the contents)."""
    first_rule = next(
        (index for index, line in enumerate(lines) if _RULE.match(line.strip())), None
    )
    if first_rule is None:
        raise InputError("no numbered rules found: not a Comprehensive Rules document")
    for index in range(first_rule - 1, max(-1, first_rule - 12), -1):
        if _SECTION.fullmatch(lines[index].strip()):
            return index
    return first_rule


def _paragraphs(lines: list[str], wrapped: bool) -> Iterator[str]:
    """Yield the paragraphs of a block of lines, re-joining hard-wrapped ones."""
    if not wrapped:  # a paragraph a line
        for raw in lines:
            line = raw.strip()
            if line and not (line[0] in _DECORATION_CHARS and _DECORATION.fullmatch(line)):
                yield line
        return
    current: list[str] = []
    for raw in lines:
        line = raw.strip()
        if not line or (line[0] in _DECORATION_CHARS and _DECORATION.fullmatch(line)):
            if current:
                yield _join_lines(current)
                current = []
            continue
        if not wrapped or not current or _starts_paragraph(line, current[-1]):
            if current:
                yield _join_lines(current)
            current = [line]
        else:
            current.append(line)
    if current:
        yield _join_lines(current)


def _opens_paragraph(line: str) -> bool:
    """Tell whether a line looks like the start of a rule, heading or example."""
    numbered = _RULE.match(line) or _SECTION.fullmatch(line) or _CHAPTER.fullmatch(line)
    return bool(numbered or _EXAMPLE.match(line))


def _starts_paragraph(line: str, previous: str) -> bool:
    """In wrapped text, a number opens a paragraph only after a finished sentence or heading."""
    if _EXAMPLE.match(line):
        return True
    if _opens_paragraph(line):
        return bool(_SENTENCE_END.search(previous)) or bool(_CHAPTER.fullmatch(previous))
    return False


def _join_lines(parts: list[str]) -> str:
    text = parts[0]
    for part in parts[1:]:
        # 'Snow-' + 'Covered': a line-end hyphen is a real hyphen in these files, not a break.
        glue = "" if re.search(r"\w-$", text) else " "
        text += glue + part
    return text


def _join_block(lines: list[str], wrapped: bool) -> str:
    return "\n".join(_paragraphs(lines, wrapped))


def _parse_rules(
    lines: list[str], wrapped: bool, notes: list[str]
) -> tuple[list[Heading], list[Rule]]:
    headings: list[Heading] = []
    # Each rule's number and first paragraph; a builder only for a rule of more paragraphs
    # (by its index): most rules are one paragraph, built at once at the end.
    numbers: list[str] = []
    firsts: list[str] = []
    builders: dict[int, _RuleBuilder] = {}
    for paragraph in _paragraphs(lines, wrapped):
        match = _RULE.match(paragraph)
        if match:  # (what _rule_number does first, inline: most paragraphs are rules)
            chapter, rule, letters, dot, space, text = match.groups()
            number = f"{chapter}.{rule}{letters}"
            if letters and dot:
                notes.append(f"typo: '{number}.' has a stray period after the sub-rule letter")
            if not space and text:
                notes.append(f"typo: no space after '{number}.'")
            numbers.append(number)
            firsts.append(text)
            continue
        numbered, rest = _rule_number(paragraph, numbers[-1] if numbers else None, notes)
        if numbered is not None:
            numbers.append(numbered)
            firsts.append(rest)
            continue
        heading = _SECTION.fullmatch(paragraph) or _CHAPTER.fullmatch(paragraph)
        if heading and (len(paragraph) < 90 or _BRACKETED.fullmatch(heading.group("title"))):
            headings.append(Heading(heading.group("number"), heading.group("title").strip()))
            continue
        if not numbers:
            notes.append(f"text before the first rule ignored: {paragraph[:60]!r}")
            continue
        current = builders.get(len(numbers) - 1)
        if current is None:
            current = _RuleBuilder(numbers[-1], [firsts[-1]] if firsts[-1] else [])
            builders[len(numbers) - 1] = current
        example = _EXAMPLE.match(paragraph)
        if example:
            current.examples.append([paragraph[example.end() :]])
        else:
            current.add(paragraph)
    rules = list(map(Rule, numbers, map(str.strip, firsts)))
    for at, builder in builders.items():
        rules[at] = builder.build()
    return headings, _repair_order(rules, notes)


def _repair_order(rules: list[Rule], notes: list[str]) -> list[Rule]:
    """Renumber a rule whose printed number is out of sequence when one reading fits.

    Real slips: '502.35b' printed after 502.36a (2004-06-01), a second '702.30d' (2009-09-04),
    '505.54.' for 505.5 (2010-06-18), '432.2b' for 423.2b (2006-10-01); in the Korean
    translation (2016-11-11 on) '702.85' for 702.85b after 702.85a, '702.212' for 702.22b
    between 702.22a and 702.22c, and runs of sub-rules under the next group's number.
    """
    keys = [_sort_key(rule.number) for rule in rules]  # each number's key worked out once
    if all(keys[at] > keys[at - 1] for at in range(1, len(keys))):
        return list(rules)
    repaired = _rehome_runs(rules, notes)
    keys = [_sort_key(rule.number) for rule in repaired]
    for index in range(1, len(repaired)):
        if keys[index] > keys[index - 1]:
            continue
        for at, candidates in (
            (index - 1, _misprints(repaired[index - 1].number)),
            # the rule before alone is out of line: the next sub-rule of the one before it
            (index - 1, _next_sub_rule(repaired, index - 1)),
            (index, _successors(repaired[index - 1].number, repaired[index].number)),
            (index, _misprints(repaired[index].number)),
        ):
            fitting = [c for c in candidates if _fits(repaired, at, c)]
            if fitting:
                old = repaired[at]
                notes.append(f"typo: '{old.number}' out of sequence, read as {fitting[0]}")
                repaired[at] = Rule(
                    fitting[0], old.text, old.examples, old.original, old.original_examples
                )
                keys[at] = rule_sort_key(fitting[0])
                break
    return repaired


def _rehome_runs(rules: list[Rule], notes: list[str]) -> list[Rule]:
    """Give a run of sub-rules printed under a group that has not begun to the group before.

    The Korean translation prints 201.2's sub-rules as '201.3a'-'201.3c' before 201.3 itself
    (2016-11-11 to 2018-08-10), and 702.102's last ones as '702.105c'-'702.105e' before 702.103
    (2017-01-20 to 2019-10-04). Only a run whose group is printed after it and whose letters
    go on from the current group's last: en 2021-09-24's 724.3a-c, with no 724.3, stay.
    """
    out = list(rules)
    last_at = {rule.number: at for at, rule in enumerate(out)}
    group, letters_before = "", ""
    at = 0
    while at < len(out):
        base, letters = _split_number(out[at].number)
        if not letters:
            group, letters_before = base, ""
        elif base == group:
            letters_before = letters
        elif (
            group
            and last_at.get(base, -1) > at
            and _sort_key(base) > _sort_key(group)
            and letters == _next_letter(letters_before)
        ):
            end = at
            while end < len(out):
                moved_base, moved_letters = _split_number(out[end].number)
                if moved_base != base or not moved_letters:
                    break
                old = out[end]
                new = group + moved_letters
                notes.append(f"typo: '{old.number}' out of sequence, read as {new}")
                out[end] = Rule(new, old.text, old.examples, old.original, old.original_examples)
                letters_before = moved_letters
                end += 1
            at = end
            continue
        at += 1
    return out


# Releases share most rule numbers: a worker reading many works each one's key out once.
_sort_key = functools.lru_cache(maxsize=65536)(rule_sort_key)
_NUMBER_PARTS = re.compile(rf"({RULE})((?:{LETTERS})?)")


def _split_number(number: str) -> tuple[str, str]:
    """Return a rule number's rule and its sub-rule letters: ('702.19', 'b')."""
    match = _NUMBER_PARTS.fullmatch(number)
    assert match  # a rule number, as the parse read it
    return match.group(1), match.group(2)


def _next_letter(letters: str) -> str | None:
    """Return the sub-rule letter after `letters` ('a' after none; l and o are never used)."""
    if not letters:
        return "a"
    if len(letters) != 1:
        return None
    following = chr(ord(letters) + 1)
    return {"l": "m", "o": "p"}.get(following, following)


def _key(rules: list[Rule], index: int) -> tuple[int, int, int, str]:
    return rule_sort_key(rules[index].number)


def _fits(rules: list[Rule], at: int, number: str) -> bool:
    # A reading stays in a neighbour's chapter: the Korean '702.86' (for 702.86b) must not
    # be read as 720.86 in the middle of chapter 702.
    chapters = {rules[i].number[:3] for i in (at - 1, at + 1) if 0 <= i < len(rules)}
    if number == rules[at].number or number[:3] not in chapters:
        return False
    key = rule_sort_key(number)
    after = at == 0 or key > _key(rules, at - 1)
    if at + 1 >= len(rules):
        return after
    # The next rule may carry the same misprint (501.2-501.6 printed for 510.2-510.6).
    following = rules[at + 1].number
    return after and any(key < rule_sort_key(n) for n in [following, *_misprints(following)])


def _successors(previous: str, rule: str) -> list[str]:
    """Numbers the rule after `previous` was probably meant to have."""
    prev_base, prev_letters = _split_number(previous)
    base, letters = _split_number(rule)
    candidates = []
    following = _next_letter(prev_letters)
    if letters and len(prev_letters) == 1 and following:
        candidates.append(prev_base + following)
    if letters:
        candidates.append(prev_base + letters)
    elif base == prev_base and prev_letters and following:
        candidates.append(prev_base + following)  # the letter left out: '702.85' after 702.85a
    return candidates


def _next_sub_rule(rules: list[Rule], at: int) -> list[str]:
    """The number after the rule before `at`, when `at` alone is out of line with its neighbours."""
    if at < 1 or at + 1 >= len(rules):
        return []
    if _sort_key(rules[at - 1].number) >= _sort_key(rules[at + 1].number):
        return []
    base, letters = _split_number(rules[at - 1].number)
    following = _next_letter(letters)
    return [base + following] if following else []


def _misprints(number: str) -> list[str]:
    """Numbers a misprinted number may stand for: swapped chapter digits, a doubled digit."""
    chapter, rest = number[:3], number[3:]
    candidates = [
        chapter[:i] + chapter[i + 1] + chapter[i] + chapter[i + 2 :] + rest for i in range(2)
    ]
    base_match = re.match(RULE, number)
    assert base_match  # a rule number
    base = base_match.group()
    if base == number and len(base) > 5:
        candidates.append(base[:-1])
    return candidates


def _rule_number(paragraph: str, previous: str | None, notes: list[str]) -> tuple[str | None, str]:
    """Return (number, text) when the paragraph starts a rule, repairing known typos."""
    match = _RULE.match(paragraph)
    if match:
        number = f"{match['chapter']}.{match['rule']}{match['letters']}"
        if match["letters"] and match["dot"]:
            notes.append(f"typo: '{number}.' has a stray period after the sub-rule letter")
        if not match["space"] and match["text"]:
            notes.append(f"typo: no space after '{number}.'")
        return number, match["text"]
    split = _SPLIT_RULE.match(paragraph)
    if split and previous and previous.startswith(split["chapter"]):
        number = f"{split['chapter']}.{split['rule']}{split['letters']}"
        if rule_sort_key(number) > rule_sort_key(previous):
            notes.append(f"typo: '{paragraph[: len(number) + 2]}' read as {number}")
            return number, split["text"]
    lost = _NO_RULE.match(paragraph)
    if lost and previous and previous.startswith(f"{lost['chapter']}."):
        stem, letter = previous[:-1], previous[-1]
        if parent_of(previous) == stem and ord(lost["letter"]) == ord(letter) + 1:
            number = stem + lost["letter"]
            notes.append(f"typo: '{lost['chapter']}.{lost['letter']}' read as {number}")
            return number, lost["text"]
    return None, ""


# A numbered meaning of a term ("1. To counter a spell…"), kept inside the term's entry.
_SENSE = re.compile(r"\d{1,2}\.\s")
# 2021-06-18 prints "Ability1. Text on an object…": the term glued to its first meaning.
_GLUED_SENSE = re.compile(r"(?P<term>[A-Za-z][A-Za-z ,'’-]*[A-Za-z])(?P<sense>1\.\s.+)")


def _parse_glossary(lines: list[str], wrapped: bool, notes: list[str]) -> Iterator[GlossaryEntry]:
    """Yield glossary entries: a term on its own line, then its definition."""
    term: str | None = None
    body: list[str] = []
    previous_blank = True
    for at, raw in enumerate(lines):
        if not raw.strip():
            previous_blank = True
            body.append("")
            continue
        unindented = not raw[:1].isspace()
        if (
            unindented
            and not wrapped
            and body  # (what _term_without_blank looks at first: most lines stop here)
            and _term_without_blank(raw, body, lines[at + 1 : at + 2])
        ):
            notes.append(f"glossary term {raw.strip()!r} read without the blank line before it")
            previous_blank = True
        if (
            unindented
            and (previous_blank or term is None)
            and not _DECORATION.fullmatch(raw.strip())
            and not (term is not None and _SENSE.match(raw))
        ):
            if term is not None:
                yield _glossary_entry(term, body, wrapped)
            term, body = raw.strip(), []
            glued = _GLUED_SENSE.fullmatch(term)
            if glued:
                notes.append(f"typo: glossary term {glued['term']!r} glued to its meaning 1")
                term, body = glued["term"], [glued["sense"]]
        else:
            body.append(raw)
        previous_blank = False
    if term is not None:
        yield _glossary_entry(term, body, wrapped)


# A term: a few words, capitalised, with no closing punctuation ('Affinity', 'Day Bound').
_TERM_LINE = re.compile(r"[A-Z0-9][\w'’ ,/()+-]{0,40}[\w)]")
_DEFINITION_END = (".", ".”", '."', "”", ")")


def _term_without_blank(raw: str, body: list[str], after: list[str]) -> bool:
    """Tell a term printed right under the last definition (2021-07-23 'Affinity').

    Only after a definition that ended its sentence, when a definition follows it.
    """
    line = raw.strip()
    return (
        bool(body)
        and body[-1].strip().endswith(_DEFINITION_END)
        and _TERM_LINE.fullmatch(line) is not None
        and len(line.split()) <= 5
        and not _SENSE.match(line)
        and bool(after)
        and bool(after[0].strip())
    )


def _glossary_entry(term: str, body: list[str], wrapped: bool) -> GlossaryEntry:
    paragraphs: list[str] = []
    for raw in body:
        line = raw.strip()
        if not line:
            paragraphs.append("")
            continue
        new_paragraph = (
            not wrapped
            or not paragraphs
            or not paragraphs[-1]
            or raw.startswith("     ")
            or bool(_EXAMPLE.match(line))
            or bool(re.match(r"\d+\.\s", line))
        )
        if new_paragraph:
            paragraphs.append(line)
        else:
            paragraphs[-1] = _join_lines([paragraphs[-1], line])
    return GlossaryEntry(term, "\n".join(p for p in paragraphs if p))
