"""Word diffs with diff-match-patch on word tokens (CJK by character), as phrase changes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from diff_match_patch import diff_match_patch

DELETE, EQUAL, INSERT = -1, 0, 1
Diff = tuple[tuple[int, str], ...]

# One token per word, per run of spaces, per punctuation mark, and per CJK character (Chinese
# has no spaces: a changed character must not replace the whole sentence).
_CJK = "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff"
# A rule number ('614.12b') is one token, so that a changed reference is one phrase.
_TOKEN = re.compile(rf"\d+\.\d+[a-z]*|[{_CJK}]|[^\W{_CJK}]+|\s+|[^\w\s]")
_ENGINE = diff_match_patch()
_ENGINE.Diff_Timeout = 0  # deterministic output; rule texts are short


@dataclass(frozen=True, slots=True)
class Phrase:
    """One changed phrase: what it said, what it says now ('' for a pure insertion/deletion)."""

    old: str
    new: str


def tokenise(text: str) -> list[str]:
    """Split text into word, space, punctuation and CJK-character tokens."""
    return _TOKEN.findall(text)


def diff_words(old: str, new: str) -> Diff:
    """Return the word-level diff of two texts as (op, text) pairs, semantically cleaned up."""
    if old == new:
        return ((EQUAL, old),) if old else ()
    vocabulary: dict[str, str] = {}
    encoded_old = _encode(tokenise(old), vocabulary)
    encoded_new = _encode(tokenise(new), vocabulary)
    diffs = _ENGINE.diff_main(encoded_old, encoded_new, False)
    decode = {char: token for token, char in vocabulary.items()}
    words = [(op, "".join(decode[char] for char in text)) for op, text in diffs]
    return tuple(_absorb_small_equalities(words))


def _absorb_small_equalities(diffs: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Fold a lone word or space between two edits into them ('its owner looks').

    diff-match-patch's own semantic cleanup weighs lengths and swallows whole clauses that a
    reader sees as unchanged; a phrase here stops at the first unchanged pair of words.
    """
    result: list[tuple[int, str]] = []
    pending_delete, pending_insert = "", ""
    for index, (op, text) in enumerate(diffs):
        between_edits = 0 < index < len(diffs) - 1 and (pending_delete or pending_insert)
        if op == EQUAL and between_edits and _small(text):
            pending_delete += text
            pending_insert += text
            continue
        if op == EQUAL:
            result.extend(_edits(pending_delete, pending_insert))
            pending_delete, pending_insert = "", ""
            result.append((EQUAL, text))
        elif op == DELETE:
            pending_delete += text
        else:
            pending_insert += text
    result.extend(_edits(pending_delete, pending_insert))
    return result


def _small(text: str) -> bool:
    return sum(1 for token in tokenise(text) if token[0].isalnum()) <= 1


def _edits(deleted: str, inserted: str) -> list[tuple[int, str]]:
    if deleted == inserted:
        return [(EQUAL, deleted)] if deleted else []
    return [(op, text) for op, text in ((DELETE, deleted), (INSERT, inserted)) if text]


def _encode(tokens: list[str], vocabulary: dict[str, str]) -> str:
    chars = []
    for token in tokens:
        char = vocabulary.get(token)
        if char is None:
            # Skip the surrogate range: those code points cannot stand alone in a str.
            code = len(vocabulary) + 1
            char = chr(code + 0x800 if code >= 0xD800 else code)
            vocabulary[token] = char
        chars.append(char)
    return "".join(chars)


def phrases_of(diff: Diff) -> tuple[Phrase, ...]:
    """Group each run of deletions and insertions into one phrase change."""
    found: list[Phrase] = []
    old: list[str] = []
    new: list[str] = []
    for op, text in diff:
        if op == EQUAL:
            if old or new:
                found.append(Phrase("".join(old).strip(), "".join(new).strip()))
                old, new = [], []
            continue
        (old if op == DELETE else new).append(text)
    if old or new:
        found.append(Phrase("".join(old).strip(), "".join(new).strip()))
    return tuple(found)
