"""Normalise a whole document (corpus.typography), keeping the printed text beside it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import accumulate
from operator import add

from rulesarchive.corpus.model import Document, GlossaryEntry, Rule, Section, SectionPart
from rulesarchive.corpus.typography import Normalisation, normalise_texts


def normalise_document(document: Document) -> Document:
    """Normalise every rule, example and glossary entry, keeping the printed text beside it."""
    if document.sections:
        return _normalised_sections(document)
    counts: Counter[Normalisation] = Counter()
    rules = document.rules
    # Columns rather than a call per rule: a full ingest normalises 300,000 of them.
    texts = [rule.original or rule.text for rule in rules]  # as printed
    examples = [rule.original_examples or rule.examples for rule in rules]
    # Each rule's text then its examples: rule `at`'s text is at starts[at] of `printed`.
    starts = list(map(add, range(len(rules)), accumulate(map(len, examples), initial=0)))
    printed: list[str] = []
    done = 0
    for at in [at for at, printed_examples in enumerate(examples) if printed_examples]:
        printed += texts[done : at + 1]
        printed += examples[at]
        done = at + 1
    printed += texts[done:]
    for entry in document.glossary:
        printed.append(entry.term)
        printed += entry.printed_text.split("\n")
    canonical = normalise_texts(printed, counts)
    normalised = list(rules)
    # Most rules are left as printed: only the others become new objects.
    for at in [
        at
        for at, (rule, text) in enumerate(
            zip(rules, map(canonical.__getitem__, starts), strict=True)
        )
        if text != rule.text or rule.original or examples[at]
    ]:
        start = starts[at]
        rule = rules[at]
        if not examples[at] and not rule.original:  # most: a text as printed, now changed
            normalised[at] = Rule(rule.number, canonical[start], (), rule.text)
            continue
        new_examples = tuple(canonical[start + 1 : start + 1 + len(examples[at])])
        normalised[at] = _normalised_rule(rule, canonical[start], new_examples)
    glossary = []
    at = len(rules) + sum(map(len, examples))  # the glossary's first term
    for entry in document.glossary:
        lines = 1 + entry.printed_text.count("\n")
        glossary.append(_normalised_entry(entry, canonical[at], canonical[at + 1 : at + 1 + lines]))
        at += 1 + lines
    return replace(
        document,
        rules=tuple(normalised),
        glossary=tuple(glossary),
        # by name: documents are stored as JSON and packed with marshal, which takes no enum
        normalisation=tuple(sorted((kind.value, n) for kind, n in counts.items())),
    )


def _normalised_rule(rule: Rule, text: str, examples: tuple[str, ...]) -> Rule:
    original = rule.printed_text if text != rule.printed_text else ""
    original_examples = rule.printed_examples if examples != rule.printed_examples else ()
    if (text, examples, original, original_examples) == (
        rule.text,
        rule.examples,
        rule.original,
        rule.original_examples,
    ):
        return rule
    return Rule(rule.number, text, examples, original, original_examples)


def _normalised_entry(entry: GlossaryEntry, term: str, lines: list[str]) -> GlossaryEntry:
    text = "\n".join(lines)
    return GlossaryEntry(term, text, entry.printed_text if text != entry.printed_text else "")


def _normalised_sections(document: Document) -> Document:
    """Normalise a tournament document's introduction, section titles and paragraphs (the
    printed paragraphs kept).

    Its layout counts (scraper.layout), already in `normalisation`, are kept beside the
    typography's.
    """
    typography: Counter[Normalisation] = Counter()
    introduction = document.introduction.split("\n")
    printed: list[str] = list(introduction)
    for section in document.sections:
        printed += [section.title, *section.printed_paragraphs]
        for part in section.parts:
            printed += part.printed_paragraphs
    canonical = iter(normalise_texts(printed, typography))
    introduction = [next(canonical) for _ in introduction]
    sections = []
    for section in document.sections:
        title = next(canonical)
        paragraphs, original = _taken(canonical, section.printed_paragraphs)
        parts = tuple(
            SectionPart(part.name, *_taken(canonical, part.printed_paragraphs))
            for part in section.parts
        )
        sections.append(Section(section.number, title, paragraphs, parts, original))
    counts = Counter(dict(document.normalisation))
    counts.update({kind.value: count for kind, count in typography.items()})
    return replace(
        document,
        introduction="\n".join(introduction),
        sections=tuple(sections),
        normalisation=tuple(sorted(counts.items())),
    )


def _taken(
    canonical: Iterator[str], printed: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Take the normalised forms of `printed`; return them and the printed (or () if the same)."""
    texts = tuple(next(canonical) for _ in printed)
    return texts, (printed if texts != printed else ())
