"""The words of a language's rules and glossary, for the search page to correct a misspelling.

Pagefind matches whole words and their beginnings only: "deathtuch" finds nothing of
deathtouch. The search page looks a word it does not know up in this list (most frequent
first) and searches for the nearest word instead, or for nothing when none is near.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from rulesarchive.differ.language import Language

# Latin-script words only: Chinese has no spaces to misspell between, and a Korean word
# carries its particles, which a nearest word would replace.
_WORD = re.compile(r"[a-z][a-z'’-]*[a-z]")


def vocabulary_of(data: Language, newest: int) -> list[str]:
    """Return the words of the newest release's rules, examples and glossary, most frequent
    first (ties alphabetically)."""
    counts: Counter[str] = Counter()
    texts = [
        text
        for line in data.lines
        if line.last == newest
        for text in (line.rule.printed_text, *line.rule.printed_examples)
    ]
    texts += [
        f"{entry.term} {entry.printed_text}"
        for term in data.glossary
        for _first, last, entry in term.stretches[-1:]
        if last == newest
    ]
    for text in texts:
        counts.update(_WORD.findall(text.lower()))
    return sorted(counts, key=lambda word: (-counts[word], word))


def vocabulary_json(data: Language, newest: int) -> str:
    """Return the vocabulary as the JSON list the search page reads."""
    return json.dumps(vocabulary_of(data, newest), ensure_ascii=False, separators=(",", ":"))
