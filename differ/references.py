"""The reference check: every citation of every release, checked against the renumbering.

A citation is checked where it stands (rule text, example or glossary definition) and
against the line of descent of the rule it cites. When a citation first appears in a rule,
it means the rule that holds the number then; while the citing rule keeps the citation, it
keeps meaning that rule. Problems:

- `dangling`: no rule, chapter or section holds the number (and none did when it was written);
- `stale`: the rule it meant has moved on (renumbered or removed) and the number now points at
  another rule or at nothing; the suggestion is the number the meant rule holds now;
- `self`: a rule cites itself, or a range's ends are out of order.

A problem with no suggestion from the lineage may get a guess: the rule of the cited chapter
whose words the citing text shares most.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Release, Rule
from rulesarchive.corpus.numbers import Citation, parent_of, parse_citations, rule_sort_key
from rulesarchive.differ.glossary import term_key
from rulesarchive.differ.kinds import GlossaryKind, Kind, Place, ProblemKind
from rulesarchive.differ.texts import title_key
from rulesarchive.differ.words import Phrase
from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:  # a diff's class is loaded by whoever made the diff
    from rulesarchive.differ import translations
    from rulesarchive.differ.classify import ReleaseDiff
    from rulesarchive.differ.lineage import Line
else:  # only a translation's check compares with its English base
    translations = lazy_module("rulesarchive.differ.translations")

GLOSSARY = "Glossary: "  # the `rule` of a citation in a glossary definition
_GUESS_MIN = 0.2  # share of the citing text's words a guessed rule must have
_WORD = re.compile(r"[a-z]{4,}")


@dataclass(frozen=True, slots=True)
class Reference:
    """One citation as it stands in a release: who cites, what, and where."""

    rule: str  # the citing rule's number, or "Glossary: <term>"
    citation: Citation
    place: Place


@dataclass(frozen=True, slots=True)
class Problem:
    """A citation that points at the wrong place, from the release it appeared in."""

    rule: str
    cites: str  # as written: '405.3c', '112.5a-j'
    kind: ProblemKind
    suggestion: str | None
    guess: bool  # the suggestion comes from matching words, not from the lineage
    since: Release
    fixed: Release | None = None  # the first release without it (None: it is still there)
    place: Place = Place.TEXT
    source: str = ""  # the citing rule's line id, or "glossary/<term key>"


@dataclass(frozen=True, slots=True)
class ReleaseCheck:
    """One release: how many references it makes and its problems (each with `since`)."""

    release: Release
    references: tuple[Reference, ...]
    problems: tuple[Problem, ...]


@dataclass(frozen=True, slots=True)
class LanguageCheck:
    """Every release of a language: the problems present in each, and each problem's life."""

    language: str
    releases: tuple[Release, ...]
    present: tuple[tuple[Problem, ...], ...]  # [i]: the problems of release i
    counts: tuple[int, ...]  # [i]: how many references release i makes
    problems: tuple[Problem, ...]  # every problem once, with since and fixed
    # [i]: the citations release i put right, by rule number (or "Glossary: <term>")
    fixes: tuple[dict[str, tuple[str, ...]], ...] = ()

    def at(self, release: Release) -> tuple[Problem, ...]:
        """Return the problems of one release."""
        return self.present[self.releases.index(release)]

    def until(self, release: Release) -> LanguageCheck:
        """Return the check of the releases up to this one, as if the later ones were not there.

        Each release is checked against the ones before it only, so the check of the first
        releases is this check's beginning: a problem fixed later is still open then.
        """
        count = self.releases.index(release) + 1
        if count == len(self.releases):
            return self
        last = release.effective_date
        return LanguageCheck(
            self.language,
            self.releases[:count],
            self.present[:count],
            self.counts[:count],
            tuple(
                problem
                if problem.fixed is None or problem.fixed.effective_date <= last
                else replace(problem, fixed=None)
                for problem in self.problems
                if problem.since.effective_date <= last
            ),
            self.fixes[:count],
        )


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What one release cites with: its rules by line id, its glossary and headings."""

    rules: tuple[tuple[str, Rule], ...]
    glossary: tuple[GlossaryEntry, ...]
    headings: tuple[Heading, ...] = ()  # for the titles chapter and section citations give


def find_references(rules: Iterable[Rule], glossary: Iterable[GlossaryEntry]) -> list[Reference]:
    """Return every citation in rule texts, examples and glossary definitions, in order."""
    found = []
    for rule in rules:
        for place, text in _texts(rule):
            found += [Reference(rule.number, citation, place) for citation in parse_citations(text)]
    for entry in glossary:
        found += [
            Reference(GLOSSARY + entry.term, citation, Place.GLOSSARY)
            for citation in parse_citations(entry.text)
        ]
    return found


def _texts(rule: Rule) -> Iterator[tuple[Place, str]]:
    yield Place.TEXT, rule.text
    for example in rule.examples:
        yield Place.EXAMPLE, example


def snapshots(
    lines: Sequence[Line],
    glossaries: Sequence[Sequence[GlossaryEntry]],
    headings: Sequence[tuple[Heading, ...]] | None = None,
    start: int = 0,
) -> list[Snapshot]:
    """Rebuild each release's rules (by line id) from the lines, beside its glossary (and
    headings, where known): of every release, or of those from `start` on."""
    rules: list[list[tuple[str, Rule]]] = [[] for _ in glossaries[start:]]
    for line in lines:
        if line.last < start:
            continue
        for stretch in line.stretches:
            held = (line.id, stretch.rule)  # one pair shared by the releases of the stretch
            for index in range(max(stretch.first, start), stretch.last + 1):
                rules[index - start].append(held)
    titles = headings[start:] if headings else [()] * len(rules)
    return [
        Snapshot(tuple(r), tuple(g), h)
        for r, g, h in zip(rules, glossaries[start:], titles, strict=True)
    ]


def check_snapshots(
    language: str, releases: Sequence[Release], shots: Iterable[Snapshot]
) -> LanguageCheck:
    """Check every release in order, following each citation from the release it appeared in."""
    state = CheckState()
    state.extend(releases, shots)
    return state.result(language, releases)


class CheckState:
    """Where checking a language's releases stopped: its first `count` releases checked.

    It holds their findings so far and all that checking one more release needs (what each
    citation means, the last release's lines, the vocabulary, the problems still open), so a
    release added at the end costs one release's check, not the whole history again.
    """

    def __init__(self) -> None:
        """Start before the first release."""
        self.meanings: Meanings = {}
        self.previous: set[str] = set()  # the line ids of the last release checked
        self.vocabulary = _Vocabulary()
        self.lives = ProblemLives()

    def extend(self, releases: Sequence[Release], shots: Iterable[Snapshot]) -> None:
        """Check the releases after the ones checked so far; `shots` are theirs, in order."""
        memo: dict[int, _Cited | None] = {}
        for release, shot in zip(releases[self.count :], shots, strict=True):
            lines = {line_id for line_id, _ in shot.rules}
            self.vocabulary.update(shot)
            numbers = _Release.of(
                shot, lines - self.previous, self.previous - lines, self.vocabulary
            )
            found, self.meanings, count = _check_release(
                release, shot, numbers, self.meanings, memo
            )
            terms = {f"glossary/{term_key(e.term)}": GLOSSARY + e.term for e in shot.glossary}
            self.lives.add(release, found, count, numbers.number_of | terms)
            self.previous = lines

    @property
    def count(self) -> int:
        """Return how many releases are checked."""
        return self.lives.count

    def result(self, language: str, releases: Sequence[Release]) -> LanguageCheck:
        """Return the check of the releases checked so far (the first `count` of `releases`)."""
        return self.lives.result(language, releases)


def follow_problems(
    language: str,
    releases: Sequence[Release],
    checked: Iterable[tuple[list[Problem], int, dict[str, str]]],
) -> LanguageCheck:
    """Join each release's problems (with its count and its rule numbers by source) into lives.

    A problem lives while its rule cites the same thing wrongly release after release; the
    first release without it fixed it, when the rule is still there.
    """
    lives = ProblemLives()
    for release, (found, count, numbers) in zip(releases, checked, strict=True):
        lives.add(release, found, count, numbers)
    return lives.result(language, releases)


class ProblemLives:
    """The problems of the releases seen so far, joined into lives (see `follow_problems`).

    Kept, it is where checking a translated language stopped: after a translated release
    added at the end, that release alone is checked.
    """

    def __init__(self) -> None:
        self.opened: dict[tuple[str, str], Problem] = {}  # (source, cites) -> problem, latest
        self.present: list[tuple[Problem, ...]] = []
        self.counts: list[int] = []
        self.fixes: list[dict[str, tuple[str, ...]]] = []
        self.ended: list[Problem] = []

    def add(
        self, release: Release, found: list[Problem], count: int, numbers: dict[str, str]
    ) -> None:
        """Follow the problems on into one more release."""
        opened = self.opened
        problems = {}
        for finding in found:
            key = (finding.source, finding.cites)
            since = opened[key].since if key in opened else release
            problems[key] = replace(finding, since=since)
        fixed: dict[str, list[str]] = {}
        for key in [key for key in opened if key not in problems]:
            self.ended.append(replace(opened.pop(key), fixed=release))
            if key[0] in numbers:  # the rule is still there: its citation was put right
                fixed.setdefault(numbers[key[0]], []).append(key[1])
        opened.update(problems)
        self.present.append(tuple(sorted(problems.values(), key=_problem_order)))
        self.counts.append(count)
        self.fixes.append({number: tuple(cites) for number, cites in fixed.items()})

    @property
    def count(self) -> int:
        """Return how many releases are seen."""
        return len(self.counts)

    def result(self, language: str, releases: Sequence[Release]) -> LanguageCheck:
        """Return the check of the releases seen so far (the first `count` of `releases`)."""
        return LanguageCheck(
            language,
            tuple(releases[: self.count]),
            tuple(self.present),
            tuple(self.counts),
            tuple(sorted(self.ended + list(self.opened.values()), key=_life_order)),
            tuple(self.fixes),
        )


# A problem's place in a report: the rules in rule order, then the glossary, by what is cited.
_Order = tuple[bool, tuple[int] | tuple[int, int, int, str], str, str]


def _problem_order(problem: Problem) -> _Order:
    glossary = problem.rule.startswith(GLOSSARY)
    return (
        glossary,
        (0,) if glossary else rule_sort_key(problem.rule),
        problem.rule,
        problem.cites,
    )


def _life_order(problem: Problem) -> tuple[dt.date, *_Order]:
    return (problem.since.effective_date, *_problem_order(problem))


@dataclass
class _Release:
    """One release's numbers, for looking citations up."""

    shot: Snapshot
    holder: dict[str, str]  # number -> line id
    number_of: dict[str, str]  # line id -> number
    chapters: set[str]  # chapters and sections
    born: set[str]  # lines new in this release
    gone: set[str]  # lines of the release before that are not in this one
    vocabulary: _Vocabulary | None = None  # the release's, kept up to date by the caller
    common: frozenset[str] | None = None  # see `share`

    @classmethod
    def of(
        cls,
        shot: Snapshot,
        born: set[str],
        gone: set[str],
        vocabulary: _Vocabulary | None = None,
    ) -> _Release:
        holder: dict[str, str] = {}
        for line_id, rule in shot.rules:
            holder.setdefault(rule.number, line_id)
        number_of = {line_id: number for number, line_id in holder.items()}
        chapters = {number[:3] for number in holder}
        chapters |= {chapter[0] for chapter in chapters}
        return cls(shot, holder, number_of, chapters, born, gone, vocabulary)

    def holds(self, number: str) -> bool:
        return number in self.holder or ("." not in number and number in self.chapters)

    @cached_property
    def titles(self) -> dict[str, str]:
        """Each chapter's and section's title, compared loosely (see differ.texts.title_key)."""
        return {heading.number: title_key(heading.title) for heading in self.shot.headings}

    @cached_property
    def text_of(self) -> dict[str, str]:
        """Each line's rule text (asked for by the few citations that need their words)."""
        return {line_id: rule.text for line_id, rule in self.shot.rules}

    @cached_property
    def texts(self) -> dict[str, list[tuple[str, str]]]:
        """Each chapter's rules as (number, text)."""
        texts: dict[str, list[tuple[str, str]]] = {}
        for _, rule in self.shot.rules:
            texts.setdefault(rule.number[:3], []).append((rule.number, rule.text))
        return texts

    def share(self, text: str, other: str) -> float:
        """Return the share of the text's telling words that the other text has too."""
        if self.common is None:
            vocabulary = self.vocabulary or _Vocabulary()
            if self.vocabulary is None:
                vocabulary.update(self.shot)
            self.common = vocabulary.common(len(self.shot.rules))
        words = _words(text) - self.common
        return len(words & _words(other)) / len(words) if words else 0.0


class _Vocabulary:
    """How many rules of a release each word is in, updated release by release."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.texts: dict[str, str] = {}  # line id -> its text in the release

    def update(self, shot: Snapshot) -> None:
        """Move the counts to the next release: only the texts that changed are counted."""
        now = {line_id: rule.text for line_id, rule in shot.rules}
        for line_id, text in self.texts.items():
            if now.get(line_id) != text:
                self.counts.subtract(_words(text))
        for line_id, text in now.items():
            if self.texts.get(line_id) != text:
                self.counts.update(_words(text))
        self.texts = now

    def common(self, rules: int) -> frozenset[str]:
        """Words in more than one rule of twenty ("player", "creature") tell no rule apart."""
        often = max(rules / 20, 3)
        return frozenset(word for word, n in self.counts.items() if n > often)


Meanings = dict[str, tuple[tuple[str, ...], dict[str, str | None]]]
"""Per citing rule (line id) or glossary term: its texts, and the line each number it cites
means (None: the number was held by no rule when it was written)."""


def _check_release(
    release: Release,
    shot: Snapshot,
    numbers: _Release,
    before: Meanings,
    memo: dict[int, _Cited | None],
) -> tuple[list[Problem], Meanings, int]:
    """Return a release's problems (`since` still itself), what its citations mean, a count."""
    meanings: Meanings = {}
    found: list[Problem] = []
    count = 0
    for source, number, _, cited in _sources(shot, memo):
        meant = _meanings(cited, before.get(source), numbers)
        meanings[source] = (cited.texts, meant)
        for place, text, citations in cited.places:
            count += len(citations)
            for citation in citations:
                verdict = _judge(citation, number, meant, numbers)
                if verdict is None:
                    continue
                kind, suggestion = verdict
                problem = Problem(
                    number,
                    citation.written,
                    kind,
                    suggestion,
                    False,
                    release,
                    place=place,
                    source=source,
                )
                if suggestion is None and kind != ProblemKind.SELF:
                    problem = _with_guess(problem, citation, text, numbers)
                found.append(problem)
    return found, meanings, count


def _sources(
    shot: Snapshot, memo: dict[int, _Cited | None]
) -> Iterator[tuple[str, str, Rule | None, _Cited]]:
    """Yield each rule and glossary entry that cites something: (source, number, rule, cited).

    `memo` holds what each rule object cites, by identity (one lookup per rule and release, no
    hashing of its fields); the caller keeps the rules alive while it uses the memo.
    """
    for line_id, rule in shot.rules:
        if id(rule) not in memo:
            memo[id(rule)] = _cited_in(tuple(_texts(rule)))
        cited = memo[id(rule)]
        if cited is not None:
            yield line_id, rule.number, rule, cited
    for entry in shot.glossary:
        cited = _cited_by_entry(entry.text)
        if cited is not None:
            yield f"glossary/{term_key(entry.term)}", GLOSSARY + entry.term, None, cited


@dataclass(frozen=True, slots=True)
class _Cited:
    """What a rule or a glossary definition cites: (place, text, citations), and every number."""

    texts: tuple[str, ...]
    places: tuple[tuple[Place, str, tuple[Citation, ...]], ...]
    ends: tuple[str, ...]


@cache
def _cited_by_entry(text: str) -> _Cited | None:
    return _cited_in(((Place.GLOSSARY, text),))


def _cited_in(texts: tuple[tuple[Place, str], ...]) -> _Cited | None:
    places = tuple((place, text, parse_citations(text)) for place, text in texts)
    ends = tuple(end for _, _, found in places for citation in found for end in citation.numbers)
    if not ends:
        return None
    return _Cited(tuple(text for _, text in texts), places, ends)


def _meanings(
    cited: _Cited,
    before: tuple[tuple[str, ...], dict[str, str | None]] | None,
    numbers: _Release,
) -> dict[str, str | None]:
    """Say which line each number a rule cites means.

    A number newly cited means the rule holding it now. A number cited before keeps its meaning
    while the text stands. When the text was edited, a number was brought up to date (or newly
    cited) when it now names a rule the old citations meant, or when the rule it meant is cited
    under its new number too: it means the rule holding it now. And a number whose rule now
    fits the text better than the one it meant (see `_fits`) means its rule now.
    """
    holder = numbers.holder
    if before is None:
        return {end: holder.get(end) for end in cited.ends}
    old_texts, old = before
    edited = old_texts != cited.texts
    meant: dict[str, str | None] = {}
    for end in cited.ends:
        now = holder.get(end)
        was = old.get(end, now)
        if was == now:
            meant[end] = now
            continue
        updated = edited and (now in old.values() or _followed(was, end, cited.ends, numbers))
        moved_on = updated or (was is not None and _fits(" ".join(cited.texts), now, was, numbers))
        meant[end] = now if moved_on else was
    return meant


def _judge(
    citation: Citation,
    number: str,
    meanings: dict[str, str | None],
    numbers: _Release,
) -> tuple[ProblemKind, str | None] | None:
    """Say what is wrong with one citation, if anything: (kind, suggestion)."""
    if citation.first == number == citation.last:
        # A rule's own number printed twice at its start (602.2a in 2005-08-01) is a typo,
        # not a citation.
        return (ProblemKind.SELF, None) if citation.start else None
    if citation.first != citation.last and rule_sort_key(citation.last) < rule_sort_key(
        citation.first
    ):
        return ProblemKind.SELF, None
    ends: list[str | None] = []
    stale = dangling = False
    for end in citation.numbers:
        meant, holder = meanings[end], numbers.holder.get(end)
        if meant is not None and meant != holder:
            stale = True
            ends.append(numbers.number_of.get(meant))
        elif meant is None and not numbers.holds(end):
            dangling = True
            ends.append(None)
        else:
            ends.append(end)
    if not (stale or dangling):
        return _retitled(citation, numbers)
    suggestion = None if None in ends else _spelled(ends)
    return (ProblemKind.STALE if stale else ProblemKind.DANGLING), suggestion


def _retitled(citation: Citation, numbers: _Release) -> tuple[ProblemKind, str | None] | None:
    """A chapter or section cited by the title another one has is stale: suggest that one.

    Chapters have no lines of descent; their titles tell ("see rule 727, Day and Night" once
    Day and Night was 728). A title no heading has (a typo, an old wording) tells nothing.
    """
    if not citation.title:
        return None
    wanted = title_key(citation.title)
    if numbers.titles.get(citation.first, wanted) == wanted:
        return None
    others = [
        number
        for number, title in numbers.titles.items()
        if title == wanted and len(number) == len(citation.first)
    ]
    return (ProblemKind.STALE, others[0]) if len(others) == 1 else None


def _followed(line: str | None, end: str, cited: tuple[str, ...], numbers: _Release) -> bool:
    """Tell whether the rule a number meant is cited under its new number in the same text."""
    now = numbers.number_of.get(line) if line else None
    return now is not None and now != end and now in cited


def _fits(text: str, holder: str | None, meant: str, numbers: _Release) -> bool:
    """Tell whether the rule now holding a number fits the citing text better than the one meant.

    Then the citation was pointed at it on purpose (the rules insert a step and keep "proceed to
    rule 616.1c"), or the lineage confused two rules of one pattern (701.44b and 701.47b read
    alike but for the keyword), or lost a rewritten rule: either way not a stale citation.
    """
    if holder is None:
        return False
    # One rule out and one in under the same number: most likely a rewrite the differ could not
    # pair ("212.6. Land" became "212.6. Lands" in 2007-05-01); the citation gets the doubt.
    if holder in numbers.born and meant in numbers.gone:
        return True
    if parent_of(numbers.number_of.get(meant, "")) == numbers.number_of[holder]:
        return True  # the rule meant became a sub-rule of the number: still covered
    mine = numbers.share(text, numbers.text_of[holder])
    if meant not in numbers.text_of:
        return mine >= _GUESS_MIN
    return mine > numbers.share(text, numbers.text_of[meant])


def _spelled(ends: list[str | None]) -> str:
    """Write a number or a range the way the rules do: '112.6a–j'."""
    first, last = ends[0] or "", ends[-1] or ""
    if first == last:
        return first
    head = first.rstrip("abcdefghijklmnopqrstuvwxyz")
    if head != first and last.startswith(head) and last[len(head) :].isalpha():
        return f"{first}–{last[len(head) :]}"
    return f"{first}–{last}"


def _with_guess(problem: Problem, citation: Citation, text: str, numbers: _Release) -> Problem:
    """Offer the rule of the cited chapter that shares most words with the citing text."""
    chapter = citation.first[:3]
    words = _words(text)
    if not words or "." not in citation.first:
        return problem
    best, score = None, 0.0
    for number, candidate in numbers.texts.get(chapter, ()):
        if number == problem.rule:
            continue
        shared = numbers.share(text, candidate)
        if shared > score:
            best, score = number, shared
    if best is None or score < _GUESS_MIN:
        return problem
    return replace(problem, suggestion=best, guess=True)


@cache
def _words(text: str) -> frozenset[str]:
    return frozenset(word[:5] for word in _WORD.findall(text.lower()))  # "amass", "amassed"


def release_references(document: Document) -> tuple[Reference, ...]:
    """Return every citation a release's document makes, in order."""
    return tuple(find_references(document.rules, document.glossary))


def mark_fixes(diff: ReleaseDiff, fixes: dict[str, tuple[str, ...]]) -> ReleaseDiff:
    """Call a change `reference` when all it changed was citations the check saw wrong before."""
    if not fixes:
        return diff
    changes = tuple(
        change._replace(kind=Kind.REFERENCE)
        if change.kind in {Kind.SUBSTANTIVE, Kind.SWEEP}
        and _only_fixes(change.phrases, fixes.get(change.new_number or "", ()))
        else change
        for change in diff.changes
    )
    glossary = tuple(
        change._replace(kind=GlossaryKind.REFERENCE)
        if change.kind in {GlossaryKind.SUBSTANTIVE, GlossaryKind.SWEEP}
        and _only_fixes(change.phrases, fixes.get(f"{GLOSSARY}{change.new_term or ''}", ()))
        else change
        for change in diff.glossary
    )
    return replace(diff, changes=changes, glossary=glossary)


def _only_fixes(phrases: Sequence[Phrase], fixes: Sequence[str]) -> bool:
    """Tell whether every phrase puts right one of the citations the check saw wrong."""
    wrong = set(fixes)
    if not wrong or not phrases:
        return False
    return all(phrase.old in wrong and _is_citation(phrase.new) for phrase in phrases)


def _is_citation(text: str) -> bool:
    found = parse_citations(text)
    return len(found) == 1 and found[0].written == text


def check_translated(
    release: Release,
    document: Document,
    base: Sequence[Rule] | None,
    memo: dict[int, _Cited | None] | None = None,
) -> tuple[list[Problem], int, dict[str, str]]:
    """Check a translated release against the rules of the English release it translates.

    A number is held when the English base (or the translation) has it; a cited number the
    English rule of the same number does not cite, where the English cites another in its
    place, is `stale` with the English number as the suggestion (the English was renumbered
    and the translation kept the old number, or mistyped it). `memo` is as for `_sources`.
    """
    english = {rule.number: rule for rule in base or ()}
    held = [(rule.number, rule) for rule in (*english.values(), *document.rules)]
    numbers = _Release.of(Snapshot(tuple(held), ()), set(), set())
    shot = Snapshot(tuple((rule.number, rule) for rule in document.rules), document.glossary)
    found: list[Problem] = []
    count = 0
    for source, number, rule, cited in _sources(shot, {} if memo is None else memo):
        theirs = english.get(number)
        instead = dict(translations.citation_differences(rule, theirs)) if rule and theirs else {}
        meant = {end: numbers.holder.get(end) for end in cited.ends}
        for place, _, citations in cited.places:
            count += len(citations)
            for citation in citations:
                verdict = _judge(citation, number, meant, numbers)
                if verdict is None and instead.get(citation.first):
                    verdict = (ProblemKind.STALE, instead[citation.first])
                if verdict is not None:
                    kind, suggestion = verdict
                    found.append(
                        Problem(
                            number,
                            citation.written,
                            kind,
                            suggestion,
                            False,
                            release,
                            place=place,
                            source=source,
                        )
                    )
    return found, count, {rule.number: rule.number for rule in document.rules}


def check_translated_releases(
    language: str,
    releases: Sequence[Release],
    documents: Iterable[Document],
    english: Sequence[Release],
    english_rules: Callable[[Release], Sequence[Rule]],
) -> LanguageCheck:
    """Check each translated release, oldest first, against the English release it translates."""
    lives = ProblemLives()
    follow_translated(lives, releases, documents, english, english_rules)
    return lives.result(language, releases)


def follow_translated(
    lives: ProblemLives,
    releases: Sequence[Release],
    documents: Iterable[Document],
    english: Sequence[Release],
    english_rules: Callable[[Release], Sequence[Rule]],
    seen: Callable[[ProblemLives], None] = lambda _lives: None,
) -> None:
    """Check the translated releases after the ones `lives` has seen; `documents` are theirs.

    `seen` is shown `lives` after each release.
    """
    numbers: dict[str, set[str]] = {}
    candidates = list(english)

    def numbers_of(release: Release) -> set[str]:
        if release.key not in numbers:
            numbers[release.key] = {rule.number for rule in english_rules(release)}
        return numbers[release.key]

    memo: dict[int, _Cited | None] = {}
    kept = []  # the documents, so that the memo's identities stay theirs
    for release, document in zip(releases[lives.count :], documents, strict=True):
        kept.append(document)
        base = translations.base_release(release, document, candidates, numbers_of)
        base_rules = english_rules(base) if base else None
        lives.add(release, *check_translated(release, document, base_rules, memo))
        seen(lives)
