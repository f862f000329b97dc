"""Word diffs with diff-match-patch on word tokens (CJK by character), as phrase changes."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import islice
from typing import TYPE_CHECKING

from rulesarchive.system.lazy import lazy_module

# The pure-Python library runs only where the C++ build is missing (see diff_chars).
if TYPE_CHECKING:
    import diff_match_patch
else:
    diff_match_patch = lazy_module("diff_match_patch")

try:
    from fast_diff_match_patch import diff as _fast_diff
except ImportError:  # a platform without its wheel (PyPy, say)
    _fast_diff = None

DELETE, EQUAL, INSERT = -1, 0, 1
Diff = tuple[tuple[int, str], ...]

# One token per word, per run of spaces, per punctuation mark, and per CJK character (Chinese
# has no spaces: a changed character must not replace the whole sentence).
_CJK_RANGES = (("\u3040", "\u30ff"), ("\u3400", "\u9fff"), ("\uf900", "\ufaff"))
_CJK = "".join(f"{low}-{high}" for low, high in _CJK_RANGES)
# A dotted number is one token, so that a changed reference is one phrase: not built from
# corpus.numbers, as sizes ('2.5 inches', '(6.3 cm') must stay one token too.
_TOKEN = rf"\d+\.\d+[a-z]*|[{_CJK}]|[^\W{_CJK}]+|\s+|[^\w\s]"
_WORD = rf"\d+\.\d+[a-z]*|[{_CJK}]|[^\W_{_CJK}]+"
# The same two patterns for an ASCII text, spelt with the ASCII members of each class (\s is
# also \x1c-\x1f): they match the same tokens a sixth quicker, and most texts are ASCII.
_SPACE = r"\t-\r\x1c-\x1f "
_ASCII_TOKEN = re.compile(rf"[0-9]+\.[0-9]+[a-z]*|\w+|[{_SPACE}]+|[^\w{_SPACE}]", re.ASCII)
_ASCII_WORD = re.compile(r"[0-9]+\.[0-9]+[a-z]*|[a-z0-9]+")  # of a lower-cased text
_OPS = {"=": EQUAL, "-": DELETE, "+": INSERT}


def diff_chars(old: str, new: str) -> list[tuple[int, str]]:
    """Run diff-match-patch's diff_main (no time limit) on two strings of encoded tokens.

    The C++ build of the same algorithm (fast-diff-match-patch) is used where it is installed:
    it gives the same output about ten times faster. Elsewhere the pure-Python library runs.
    """
    if _fast_diff is None:
        diffs: list[tuple[int, str]] = _engine().diff_main(old, new, False)
        return diffs
    pieces = _fast_diff(old, new, timelimit=0, checklines=False, cleanup="No", counts_only=False)
    return [(_OPS[op], text) for op, text in pieces]


@cache
def _engine() -> diff_match_patch.diff_match_patch:
    engine = diff_match_patch.diff_match_patch()
    engine.Diff_Timeout = 0  # deterministic output; rule texts are short
    return engine


@dataclass(frozen=True, slots=True)
class Phrase:
    """One changed phrase: what it said, what it says now ('' for a pure insertion/deletion)."""

    old: str
    new: str


@cache
def _unicode(pattern: str) -> re.Pattern[str]:
    """Compile a pattern for texts that are not ASCII when one first comes: the Unicode
    classes cost more to compile than the rest of this module takes to import, and a command
    that diffs no text (a kept diff, an English history) never needs them."""
    return re.compile(pattern)


def tokenise(text: str) -> list[str]:
    """Split text into word, space, punctuation and CJK-character tokens."""
    return (_ASCII_TOKEN if text.isascii() else _unicode(_TOKEN)).findall(text)


def diff_words(old: str, new: str) -> Diff:
    """Return the word-level diff of two texts as (op, text) pairs, semantically cleaned up."""
    if old == new:
        return ((EQUAL, old),) if old else ()
    head, tail = _common_ends(old, new)
    old_tokens = tokenise(old[head : len(old) - tail])
    new_tokens = tokenise(new[head : len(new) - tail])
    # The cut above stops short of a token it cannot prove whole ('zone' before ',' / ' and').
    same_head, same_tail = _common_token_ends(old_tokens, new_tokens)
    end_old, end_new = len(old_tokens) - same_tail, len(new_tokens) - same_tail
    vocabulary: dict[str, str] = {}
    encoded_old = _encode(old_tokens[same_head:end_old], vocabulary)
    encoded_new = _encode(new_tokens[same_head:end_new], vocabulary)
    diffs = diff_chars(encoded_old, encoded_new)
    decode = {char: token for token, char in vocabulary.items()}
    words = [(op, "".join(map(decode.__getitem__, text))) for op, text in diffs]
    equal_head = old[:head] + "".join(old_tokens[:same_head])
    equal_tail = "".join(old_tokens[end_old:]) + old[len(old) - tail :]
    return tuple(
        _absorb_small_equalities(
            _merge_equalities([(EQUAL, equal_head), *words, (EQUAL, equal_tail)])
        )
    )


def _common_token_ends(old: list[str], new: list[str]) -> tuple[int, int]:
    """Count the tokens the two lists share at the start and, after that, at the end."""
    shortest = min(len(old), len(new))
    head = 0
    while head < shortest and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < shortest - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def _common_ends(old: str, new: str) -> tuple[int, int]:
    """Return how many characters the texts share at the start and then at the end.

    Both are cut back to token boundaries, so that only the changed middle is tokenised.
    """
    shared = _shared_prefix(old, new)
    head = shared
    while head and not _ends_token(old, head, at_difference=head == shared):
        head -= 1
    old_rest, new_rest = old[head:], new[head:]
    tail = _shared_prefix(old_rest[::-1], new_rest[::-1])
    suffix = old_rest[len(old_rest) - tail :]
    start = 0
    while start < tail and not _starts_token(suffix, start):
        start += 1
    return head, tail - start


def _shared_prefix(a: str, b: str) -> int:
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _ends_token(text: str, at: int, *, at_difference: bool) -> bool:
    """Tell whether a token ends before text[at] whatever follows the shared head."""
    if _is_cjk(text[at - 1]):
        return True
    return not at_difference and text[at].isspace() and not text[at - 1].isspace()


def _starts_token(suffix: str, at: int) -> bool:
    """Tell whether a token starts at suffix[at] whatever precedes the shared tail."""
    if _is_cjk(suffix[at]):
        return True
    return at > 0 and suffix[at - 1].isspace() and not suffix[at].isspace()


def _is_cjk(char: str) -> bool:
    return any(low <= char <= high for low, high in _CJK_RANGES)


def _merge_equalities(diffs: list[tuple[int, str]]) -> list[tuple[int, str]]:
    merged: list[tuple[int, str]] = []
    for op, text in diffs:
        if merged and op == EQUAL and merged[-1][0] == EQUAL:
            merged[-1] = (EQUAL, merged[-1][1] + text)
        elif text:
            merged.append((op, text))
    return merged


def words_of(text: str) -> list[str]:
    """Return the words of a text, lower-cased: the tokens that are not space or punctuation."""
    text = text.lower()
    return (_ASCII_WORD if text.isascii() else _unicode(_WORD)).findall(text)


def first_words(text: str, count: int) -> list[str]:
    """Return the first `count` words of a text, lower-cased (reading no further)."""
    text = text.lower()
    words = (_ASCII_WORD if text.isascii() else _unicode(_WORD)).finditer(text)
    return [match.group() for match in islice(words, count)]


# A rule's words are asked for by several steps (aligning, splits), and for both releases of a
# chain's pairs: the counters are shared, never changed.
@lru_cache(maxsize=1 << 15)
def word_bag(text: str) -> Counter[str]:
    """Count the words of a text, lower-cased (spaces and punctuation left out)."""
    return Counter(words_of(text))


def contained(part: Counter[str], whole: Counter[str]) -> float:
    """Return the share of `part`'s words (with their counts) that are found in `whole`."""
    return (part & whole).total() / (part.total() or 1)


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


@lru_cache(maxsize=1 << 12)  # the words between two edits: ' the ', ', ', ' a ' again and again
def _small(text: str) -> bool:
    return sum(1 for token in tokenise(text) if token[0].isalnum()) <= 1


def _edits(deleted: str, inserted: str) -> list[tuple[int, str]]:
    if deleted == inserted:
        return [(EQUAL, deleted)] if deleted else []
    return [(op, text) for op, text in ((DELETE, deleted), (INSERT, inserted)) if text]


def _encode(tokens: list[str], vocabulary: dict[str, str]) -> str:
    """Spell the tokens as one character each, growing the shared vocabulary."""
    for token in dict.fromkeys(tokens):  # new tokens in order of appearance: deterministic codes
        if token not in vocabulary:
            # Skip the surrogate range: those code points cannot stand alone in a str.
            code = len(vocabulary) + 1
            vocabulary[token] = chr(code + 0x800 if code >= 0xD800 else code)
    return "".join(map(vocabulary.__getitem__, tokens))


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


_CLOSING = {"{": "}", "[": "]", "(": ")"}


# Unchanged punctuation parts two edits; hyphens, dashes and apostrophes stand inside words and
# ranges ('in-play', "card's", '409.1f-h').
_PUNCTUATION = re.compile(r"[^\w\s'’\-–—]")


@lru_cache(maxsize=1 << 12)
def phrase_edits(diff: Diff) -> tuple[tuple[Phrase, tuple[Phrase, ...]], ...]:
    """Return each phrase of a diff with the edits it is made of (a word between brackets
    shown within them).

    A phrase absorbs the lone word or the punctuation between two edits, as a reader sees
    them; its edits are its parts between unchanged punctuation ('{oW}, {oU}' -> '{W}, {U}'
    is '{oW}' -> '{W}' and '{oU}' -> '{U}', each shown within its brackets): an edit
    repeated across a release is found in these.
    """
    found: list[tuple[Phrase, tuple[Phrase, ...]]] = []
    before = ""
    old: list[str] = []
    new: list[str] = []
    for op, text in (*diff, (EQUAL, "")):
        if op != EQUAL:
            (old if op == DELETE else new).append(text)
            continue
        if old or new:
            deleted, inserted = "".join(old), "".join(new)
            edits = _split_edit(deleted, inserted, before, text)
            found.append((_bracketed(deleted, inserted, before, text), tuple(edits)))
            old, new = [], []
        before = text
    return tuple(found)


def _split_edit(old: str, new: str, before: str, after: str) -> list[Phrase]:
    """Split one changed run at the unchanged text (other than spaces) inside it."""
    if not old or not new:
        return [Phrase(old.strip(), new.strip())]
    vocabulary: dict[str, str] = {}
    encoded_old = _encode(tokenise(old), vocabulary)
    encoded_new = _encode(tokenise(new), vocabulary)
    decode = {char: token for token, char in vocabulary.items()}
    runs = [
        (op, "".join(map(decode.__getitem__, text)))
        for op, text in diff_chars(encoded_old, encoded_new)
    ]
    edits: list[Phrase] = []
    olds: list[str] = []
    news: list[str] = []
    for op, text in (*runs, (EQUAL, after)):
        if op == EQUAL and (_PUNCTUATION.search(text) or text is after):
            if olds or news:
                edits.append(_bracketed("".join(olds), "".join(news), before, text))
                olds, news = [], []
            before = text
        elif op == EQUAL:
            if olds or news:  # words and spaces between two changes keep them one edit
                olds.append(text)
                news.append(text)
        else:
            (olds if op == DELETE else news).append(text)
    return edits


def _bracketed(old: str, new: str, before: str, after: str) -> Phrase:
    """An edit of a word between brackets, shown within them ('{oW}' -> '{W}')."""
    old, new = old.strip(), new.strip()
    opening = before[-1:]
    if old and new and opening in _CLOSING and after[:1] == _CLOSING[opening]:
        return Phrase(f"{opening}{old}{after[0]}", f"{opening}{new}{after[0]}")
    return Phrase(old, new)
