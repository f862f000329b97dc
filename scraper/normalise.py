"""Normalise a whole document (corpus.typography), keeping the printed text beside it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from rulesarchive.corpus.model import Document, GlossaryEntry, Rule
from rulesarchive.corpus.typography import normalise_texts


def normalise_document(document: Document) -> Document:
    """Normalise every rule, example and glossary entry, keeping the printed text beside it."""
    counts: Counter[str] = Counter()
    printed: list[str] = []
    for rule in document.rules:
        printed.append(rule.printed_text)
        printed.extend(rule.printed_examples)
    for entry in document.glossary:
        printed.append(entry.term)
        printed.extend(entry.printed_text.split("\n"))
    canonical = iter(normalise_texts(printed, counts))
    rules = tuple(_normalised_rule(rule, canonical) for rule in document.rules)
    glossary = tuple(_normalised_entry(entry, canonical) for entry in document.glossary)
    return replace(
        document,
        rules=rules,
        glossary=glossary,
        normalisation=tuple(sorted(counts.items())),
    )


def _normalised_rule(rule: Rule, canonical: Iterator[str]) -> Rule:
    text = next(canonical)
    examples = tuple(next(canonical) for _ in rule.printed_examples)
    original = rule.printed_text if text != rule.printed_text else ""
    original_examples = rule.printed_examples if examples != rule.printed_examples else ()
    if (text, examples, original, original_examples) == (
        rule.text,
        rule.examples,
        rule.original,
        rule.original_examples,
    ):
        return rule  # most rules: typography left them as printed (no new object to make)
    return Rule(rule.number, text, examples, original, original_examples)


def _normalised_entry(entry: GlossaryEntry, canonical: Iterator[str]) -> GlossaryEntry:
    term = next(canonical)
    text = "\n".join(next(canonical) for _ in entry.printed_text.split("\n"))
    return GlossaryEntry(term, text, entry.printed_text if text != entry.printed_text else "")
