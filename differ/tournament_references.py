"""The reference check of a tournament document (MTR, IPG): its citations followed across
documents.

An MTR or IPG cites its own sections ('see section 3.9'), the other's ('MTR section 4.3',
'section 2.1 of the IPG') and the Comprehensive Rules ('(CR 702.2)', 'Comprehensive Rules,
rule 103.4c'), as corpus.numbers.parse_citations reads them. A citation means the version of
the document it names that was in force on the citing version's date (its own version for a
section of its own); one naming a section or rule that version does not hold is `dangling`.
Values in and out: the library finds the versions in force.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from rulesarchive.corpus.model import DocKind, Document, Release
from rulesarchive.corpus.numbers import PART, Citation, parse_citations
from rulesarchive.differ.kinds import Place, ProblemKind
from rulesarchive.differ.references import LanguageCheck, Problem, ProblemLives, Reference


@dataclass(frozen=True, slots=True)
class InForce:
    """The version of a document in force on a date, and every number it holds."""

    release: Release
    numbers: frozenset[str]


def document_numbers(document: Document) -> frozenset[str]:
    """Return the numbers a document holds: its sections, or its rules, chapters and sections."""
    if document.kind == DocKind.CR:
        return frozenset(
            [rule.number for rule in document.rules]
            + [heading.number for heading in document.headings]
        )
    return frozenset(section.number for section in document.sections)


def tournament_references(document: Document) -> tuple[Reference, ...]:
    """Return every citation a tournament document makes, by the unit citing it ('3.9',
    '2.1/philosophy', 'introduction')."""
    return tuple(
        Reference(unit, citation, Place.TEXT)
        for unit, text in _texts(document)
        for citation in parse_citations(text, documents=True)
    )


def _texts(document: Document) -> Iterator[tuple[str, str]]:
    """Yield each paragraph with its unit; not the appendix of changes, which names the
    sections of the version before as often as its own ('Section 6.8: Modern format moved
    to section 6.4')."""
    for paragraph in document.introduction.splitlines():
        yield "introduction", paragraph
    for section in document.sections:
        if _CHANGES.search(section.title):
            continue
        for paragraph in section.paragraphs:
            yield section.number, paragraph
        for part in section.parts:
            address = f"{section.number}{PART}{part.name.casefold().replace(' ', '-')}"
            for paragraph in part.paragraphs:
                yield address, paragraph


_KINDS = {kind.value: kind for kind in DocKind}
_CHANGES = re.compile(r"changes\s+from\s+previous", re.IGNORECASE)


def cited_kind(citation: Citation, citing: DocKind) -> DocKind | None:
    """Return the kind of document a citation names (its own document's when it names none;
    None for one the archive does not keep: the DCI Universal Tournament Rules)."""
    return _KINDS.get(citation.doc) if citation.doc else citing


def check_tournament(
    release: Release,
    references: Sequence[Reference],
    in_force: Callable[[DocKind], InForce | None],
) -> tuple[Problem, ...]:
    """Return the citations of a release naming a number the cited version does not hold
    (a document the archive has no version of in force that day is not checked)."""
    problems = []
    for reference in references:
        kind = cited_kind(reference.citation, release.kind)
        target = in_force(kind) if kind else None
        if target is None or all(n in target.numbers for n in reference.citation.numbers):
            continue
        problems.append(
            Problem(
                reference.rule,
                reference.citation.named_from(release.kind.value),
                ProblemKind.DANGLING,
                None,
                False,
                release,
                source=reference.rule,
            )
        )
    return tuple(dict.fromkeys(problems))


def follow_tournament(
    checked: Sequence[tuple[Release, Sequence[Reference], tuple[Problem, ...]]],
) -> LanguageCheck:
    """Join each release's problems into lives (since, fixed), oldest release first."""
    lives = ProblemLives()
    for release, references, problems in checked:
        units = {reference.rule: reference.rule for reference in references}
        lives.add(release, list(problems), len(references), units)
    return lives.result("en", [release for release, _references, _problems in checked])
