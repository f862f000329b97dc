"""Put back the quotes, apostrophes and dashes that some files print as a literal `?`.

The 2008-02-01 … 2009-05-01 text files were saved through a code page that lacked curly quotes,
dashes and the ™/® signs, so `it's` reads `it?s` and `Creature — Elf` reads `Creature ? Elf`.
Where a neighbouring release prints the same words, the marks it prints between them are what
the `?` stood for. The printed text keeps its `?`; only the normalised text is repaired.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from difflib import SequenceMatcher

from rulesarchive.corpus.model import Document, GlossaryEntry, Rule
from rulesarchive.corpus.typography import Normalisation, normalise_texts

# Words and what stands between them: re.split with a group alternates separator, word, ...
_WORD = re.compile(r"([^\W_]+)")
# 'can?t', 'player?s', 'you?re': inside a word a `?` can only have been an apostrophe.
_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\?(?=(?:s|t|ll|re|ve|d|m)\b)")
# '?Untap this permanent.?': a question mark never opens a word, nor follows a full stop.
_QUOTES = re.compile(r"(?:(?<=^)|(?<=[\s(]))\?(?=\w)|(?<=[.,])\?")


def repair_placeholders(document: Document, neighbours: Sequence[Document]) -> Document:
    """Replace each placeholder `?` by the mark a neighbour prints in the same words.

    A `?` inside a word ('can?t') is an apostrophe, and one that opens a word or follows a full
    stop ('means ?Untap this.?') a quote, whatever the neighbours say.
    """
    asking = {_words(text) for text in _texts(document) if "?" in text}
    if not asking:
        return document
    # Only what a text holding a `?` will look up: most releases print a handful of real
    # question marks, and their neighbours' thousands of other texts need no entry.
    numbers = {rule.number for rule in document.rules if "?" in rule.text}
    known: dict[tuple[str, ...], str] = {}
    by_number: dict[str, Rule] = {}
    # A neighbour is read as printed (its own repairs undone), so what it offers does not hang
    # on which of its own neighbours were stored when it was repaired.
    for neighbour in map(unrepaired, neighbours):
        for text in _texts(neighbour):
            if (words := _words(text)) in asking:
                known.setdefault(words, text)
        for rule in neighbour.rules:
            if rule.number in numbers:
                by_number.setdefault(rule.number, rule)
    counts: Counter[Normalisation] = Counter()

    def repaired(text: str, number: str = "") -> str:
        if "?" not in text:
            return text
        model = known.get(_words(text))
        if model is None:  # words changed too: take the marks of the words that did not
            model = by_number[number].text if number in by_number else ""
        if model:
            text = _restore(text, model, counts)
        text, apostrophes = _APOSTROPHE.subn("'", text)
        text, quotes = _QUOTES.subn('"', text)
        counts[Normalisation.PLACEHOLDERS] += apostrophes + quotes
        return text

    # Only texts holding a `?` can change: the others are kept without a look.
    rules = list(document.rules)
    for at in [
        at
        for at, rule in enumerate(rules)
        if "?" in rule.text or (rule.examples and _asks(rule.examples))
    ]:
        rules[at] = _repaired_rule(rules[at], repaired)
    glossary = list(document.glossary)
    for at in [at for at, entry in enumerate(glossary) if "?" in entry.text]:
        entry = glossary[at]
        glossary[at] = _repaired_entry(entry, "\n".join(map(repaired, entry.text.split("\n"))))
    if not counts:
        return document
    # stored by name; a sum of Counters keeps the positive counts only, as before
    named = Counter({kind.value: n for kind, n in counts.items()})
    normalisation = Counter(dict(document.normalisation)) + named
    return replace(
        document,
        rules=tuple(rules),
        glossary=tuple(glossary),
        normalisation=tuple(sorted(normalisation.items())),
    )


def _asks(examples: tuple[str, ...]) -> bool:
    return any("?" in example for example in examples)


def unrepaired(document: Document) -> Document:
    """Return a stored document as it read before its placeholders were repaired.

    Only a text printed with a `?` can have been repaired: it is normalised again from its
    printed form and the count of repairs is dropped, so repairing the result with the same
    neighbours gives the document back.
    """
    rules = list(document.rules)
    for at, rule in enumerate(rules):
        if "?" in rule.printed_text or _asks(rule.printed_examples):
            printed, examples = rule.printed_text, rule.printed_examples
            text, *normalised = normalise_texts([printed, *examples])
            rules[at] = Rule(
                rule.number,
                text,
                tuple(normalised),
                printed if printed != text else "",
                examples if tuple(normalised) != examples else (),
            )
    glossary = list(document.glossary)
    for at, entry in enumerate(glossary):
        if "?" in entry.printed_text:
            text = "\n".join(normalise_texts(entry.printed_text.split("\n")))
            glossary[at] = GlossaryEntry(
                entry.term, text, entry.printed_text if text != entry.printed_text else ""
            )
    counts = tuple(item for item in document.normalisation if item[0] != _PLACEHOLDERS)
    return replace(document, rules=tuple(rules), glossary=tuple(glossary), normalisation=counts)


_PLACEHOLDERS = Normalisation.PLACEHOLDERS.value


def _texts(document: Document) -> Iterable[str]:
    for rule in document.rules:
        yield rule.text
        yield from rule.examples
    for entry in document.glossary:
        yield from entry.text.split("\n")


# Consecutive releases share most of their texts: a batch ingest looks at each text of a
# neighbour again and again.
@functools.lru_cache(maxsize=32768)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.casefold()))


def _restore(text: str, model: str, counts: Counter[Normalisation]) -> str:
    """Take the model's separators wherever the text's hold a `?` the model's do not.

    Only separators between words that both texts share in the same order count: the words
    around a `?` must be the model's words around its mark.
    """
    mine, theirs = _WORD.split(text), _WORD.split(model)
    my_words = [word.casefold() for word in mine[1::2]]
    their_words = [word.casefold() for word in theirs[1::2]]
    blocks: list[tuple[int, int, int]]
    if my_words == their_words:  # most models: the blocks SequenceMatcher finds, at once
        blocks = [(0, 0, len(my_words))] if my_words else []
        blocks.append((len(my_words), len(my_words), 0))
    else:
        matcher = SequenceMatcher(None, my_words, their_words, autojunk=False)
        blocks = list(matcher.get_matching_blocks())
    for my_start, their_start, size in blocks:
        # The separator before word k sits at 2k; inside a shared run of words (and at a
        # shared start or end of both texts) separators correspond.
        first = 0 if my_start == their_start == 0 else 1
        last = (
            size + 1
            if (my_start + size, their_start + size)
            == (
                len(my_words),
                len(their_words),
            )
            else size
        )
        for offset in range(first, last):
            mine_at, theirs_at = 2 * (my_start + offset), 2 * (their_start + offset)
            if "?" in mine[mine_at] and "?" not in theirs[theirs_at]:
                mine[mine_at] = theirs[theirs_at]
                counts[Normalisation.PLACEHOLDERS] += 1
    return "".join(mine)


def _repaired_rule(rule: Rule, repaired: Callable[..., str]) -> Rule:
    text = repaired(rule.text, rule.number)
    examples = tuple(map(repaired, rule.examples))
    if text == rule.text and examples == rule.examples:
        return rule
    printed, printed_examples = rule.printed_text, rule.printed_examples
    return Rule(
        rule.number,
        text,
        examples,
        original=printed if printed != text else "",
        original_examples=printed_examples if printed_examples != examples else (),
    )


def _repaired_entry(entry: GlossaryEntry, text: str) -> GlossaryEntry:
    if text == entry.text:
        return entry
    return GlossaryEntry(entry.term, text, entry.printed_text)
