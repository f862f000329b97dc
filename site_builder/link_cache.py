"""Linked rule texts kept across builds: a text's HTML is worked out again only when it changed.

The word diffs of glossary histories and of rules' examples are kept the same way (by both
texts): every build shows every history, and a new release changes few of them. So are the
entries of the rules' history files and the rules' documents in the JSON API (`kept_text`),
by what they are made from.

An entry's key is everything its HTML is made from: the page it is on, the text, where each of
its references leads, the glossary terms (and their pages) it may link, the terms already
linked on the page. When a release is added, what the older texts' links resolve to is mostly
the same (a reference to the newest release gains a version anchor, a term its slug): those
texts are looked up, not linked again, and the ones whose links changed miss.

Kept in the derived store per archive, language and share of the pages (the rule pages are
made in a forked process), by page: the entries of the pages a build made, and of those it
kept as they were (by their memo, without linking anything: `keep`), nothing else. The word
diffs are kept whole: a pair of texts once shown stays in the history.
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable

from rulesarchive.corpus.derived import DerivedData, Kind, entry_key
from rulesarchive.differ.words import Diff, diff_words

# The parts pages are made in: the forked rule pages, and the rest in the building process.
PARTS = ("rules", "others")

Linked = tuple[str, tuple[str, ...]]  # the HTML, the glossary terms it linked
WordDiff = Callable[[str, str], Diff]  # `diff_words`, or `LinkCache.word_diff`


class LinkCache:
    """The linked texts of one language, read from the last build, kept for the next one."""

    def __init__(self, derived: DerivedData | None, language: str, archive: str = "") -> None:
        """Read what the last build of `archive` (its folder) kept in `derived` (None: none)."""
        self.derived = derived if derived is not None else DerivedData(None)
        self.language = language
        self.archive = archive
        self.found: dict[str, dict[bytes, Linked]] = {}  # page -> key -> HTML, last build's
        self.used: dict[str, dict[bytes, Linked]] = {}  # by this build (for the next one)
        self.diffs_found: dict[bytes, Diff] = {}  # word diffs, the same way
        self.diffs_used: dict[bytes, Diff] = {}
        self.texts_found: dict[str, dict[bytes, str]] = {}  # other texts, by page, the same way
        self.texts_used: dict[str, dict[bytes, str]] = {}
        for part in PARTS:
            # texts' HTML, word diffs and other texts (the dicts' items are not checked)
            kept = self.derived.get(
                self._key(part),
                tuple[
                    dict[str, dict[bytes, Linked]], dict[bytes, Diff], dict[str, dict[bytes, str]]
                ],
            )
            if kept is not None:
                self.found.update(kept[0])
                self.diffs_found.update(kept[1])
                self.texts_found.update(kept[2])

    @staticmethod
    def key(*inputs: object) -> bytes:
        """Return the key of a text's HTML made from `inputs` (strings, numbers, tuples)."""
        # marshal's version 2 writes equal values as equal bytes (no references to objects
        # seen before), twice as quick as repr.
        return hashlib.sha1(marshal.dumps(inputs, 2)).digest()  # type: ignore[arg-type]

    def get(self, page: str, key: bytes) -> Linked | None:
        """Return the HTML kept under `key` for a text of `page`, if any."""
        used = self.used.setdefault(page, {})
        value = used.get(key) or self.found.get(page, {}).get(key)
        if value is not None:
            used[key] = value
        return value

    def last_build(self, page: str, key: bytes) -> Linked | None:
        """Return what the last build kept under `key` for a text of `page`, if any, without
        keeping it for the next build (as `get` does)."""
        return self.found.get(page, {}).get(key)

    def put(self, page: str, key: bytes, value: Linked) -> None:
        """Keep the HTML of a text of `page` under `key`."""
        self.used.setdefault(page, {})[key] = value

    def keep(self, page: str) -> None:
        """Carry over the entries of a page kept as it was, which this build links nothing of
        (else the next build that makes it would link all of it again)."""
        if page in self.found:
            self.used.setdefault(page, {}).update(self.found[page])
        if page in self.texts_found:
            self.texts_used.setdefault(page, {}).update(self.texts_found[page])

    def forget(self, pages: set[str]) -> None:
        """Leave the entries of these pages out of what this process saves (a forked process
        does not save again what the process it was forked from made and saves)."""
        for page in pages:
            self.used.pop(page, None)
            self.texts_used.pop(page, None)

    def word_diff(self, old: str, new: str) -> Diff:
        """Return the word diff of two texts (`differ.words.diff_words`), kept across builds."""
        key = self.key(old, new)
        kept = self.diffs_used.get(key) or self.diffs_found.get(key)
        if kept is None:
            kept = diff_words(old, new)
        self.diffs_used[key] = kept
        return kept

    def kept_text(self, page: str, key: bytes, make: Callable[[], str]) -> str:
        """Return a text of `page` kept under `key` (see `key`), made by `make` if none is."""
        used = self.texts_used.setdefault(page, {})
        kept = used.get(key) or self.texts_found.get(page, {}).get(key)
        if kept is None:
            kept = make()
        used[key] = kept
        return kept

    def save(self, part: str) -> None:
        """Keep what this process used for the next build, as the share `part` of the pages."""
        if self.derived.folder is not None:
            diffs = self.diffs_found | self.diffs_used
            self.derived.put(self._key(part), (self.used, diffs, self.texts_used))

    def _key(self, part: str) -> str:
        # One entry per archive and share: the next build replaces it.
        return entry_key(Kind.LINKS, self.archive, self.language, part)
