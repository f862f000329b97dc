"""The reference check of a language as the derived store keeps it: where checking stopped.

Checking goes a release at a time, oldest first (differ.references), so what it holds after
its first n releases (a CheckState for English, the problems' lives for a translation) is kept
under a digest of those n releases: after a release added at the end, that release alone is
checked. A release changed or inserted before the end, or other code, finds nothing kept:
every release is checked again. The check of all n releases is kept beside (a tenth of the
state's size): a command that only reads the check loads that, not the state.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TypeVar

from rulesarchive.corpus.derived import DerivedData, Kind, collection_paused, entry_key
from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.differ.references import (
    CheckState,
    LanguageCheck,
    ProblemLives,
    Snapshot,
    follow_translated,
)
from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:
    from rulesarchive.differ import translations
else:  # only a translation's check reads how far its base may look ahead
    translations = lazy_module("rulesarchive.differ.translations")

State = TypeVar("State", CheckState, ProblemLives)


def check_english(
    derived: DerivedData,
    releases: Sequence[Release],
    shots_from: Callable[[int], Iterable[Snapshot]],
    fewest: int = 0,
) -> LanguageCheck | None:
    """Check every English release, going on from the state kept for the first ones.

    `shots_from(n)` gives the snapshots of `releases[n:]`. None, with nothing checked, when
    the kept state covers fewer than `fewest` releases.
    """
    keys = _keys("en", [repr(release) for release in releases])
    kept = derived.get(_result_key(keys), LanguageCheck)
    if kept is not None:
        return kept
    state = _kept_state(derived, keys, CheckState())
    since = state.count
    if since < fewest:
        return None
    if since < len(releases):
        with collection_paused():
            state.extend(releases, shots_from(since))
        derived.keep_latest(keys, state, state.count, since)
    return _kept_result(derived, keys, state.result("en", releases), since)


def check_translation(
    derived: DerivedData,
    language: str,
    releases: Sequence[Release],
    documents_from: Callable[[int], Iterable[Document]],
    english: Sequence[Release],
    english_rules: Callable[[Release], Sequence[Rule]],
) -> LanguageCheck:
    """Check every release of a translation against its English base, going on from the state
    kept for the first ones.

    `documents_from(n)` gives the documents of `releases[n:]`; `english` is oldest first. A
    translated release is checked against the English releases its base is chosen from (up
    to its date, and the few after it when one is of its date: see base_release): an English
    release added after all of those changes nothing, one added among them goes back to the
    first translated release it could be the base of (as a translated release changed or
    inserted does).
    """
    keys = translation_keys(language, releases, english)
    kept = derived.get(_result_key(keys), LanguageCheck)
    if kept is not None:
        return kept
    lives = _kept_state(derived, keys, ProblemLives())
    since = lives.count

    def keep(lives: ProblemLives) -> None:
        # after each release: an English release added goes back to any of them
        derived.keep_latest(keys, lives, lives.count, 0)

    if lives.count < len(releases):
        documents = documents_from(lives.count)
        with collection_paused():
            follow_translated(lives, releases, documents, english, english_rules, keep)
    return _kept_result(derived, keys, lives.result(language, releases), since)


def kept_translation_count(
    derived: DerivedData, language: str, releases: Sequence[Release], english: Sequence[Release]
) -> int:
    """Return how many of a translation's releases the kept check covers."""
    return _kept_state(derived, translation_keys(language, releases, english), ProblemLives()).count


def translation_keys(
    language: str, releases: Sequence[Release], english: Sequence[Release]
) -> list[str]:
    """The keys of a translated language's check after each release (see `_keys`): a release
    with the English releases its base is chosen from."""
    dates = [release.effective_date for release in english]
    english_keys = _keys("en", [repr(release) for release in english])
    steps = []
    for release in releases:
        seen = bisect_right(dates, release.effective_date)
        if seen and dates[seen - 1] == release.effective_date:  # then it may look ahead
            seen = min(seen + translations.LOOK_AHEAD, len(english))
        steps.append(f"{release!r}:{english_keys[seen]}")
    return _keys(language, steps)


def _keys(language: str, steps: Iterable[str]) -> list[str]:
    """Return, for each n, the key of a language's state after the first n steps ([0]: none).

    A step is a release's whole repr: a problem's `since` is the whole release.
    """
    digest = hashlib.sha256(language.encode())
    keys = [entry_key(Kind.CHECK, language, digest.hexdigest())]
    for step in steps:
        digest.update(step.encode())
        keys.append(entry_key(Kind.CHECK, language, digest.hexdigest()))
    return keys


def _result_key(keys: list[str]) -> str:
    """The key of the check of all the releases `keys` step through."""
    return entry_key(Kind.CHECK, "result", keys[-1])


def _kept_result(
    derived: DerivedData, keys: list[str], result: LanguageCheck, since: int
) -> LanguageCheck:
    """Keep the check of all the releases (when it covers them all) in place of the one of
    their first `since`, and return it."""
    count = len(result.releases)
    if count == len(keys) - 1:
        derived.put(_result_key(keys), result)
        if since and since != count:  # superseded, as the state it was read from
            derived.discard(_result_key(keys[: since + 1]))
    return result


def _kept_state(derived: DerivedData, keys: list[str], fresh: State) -> State:
    """Return the kept state of the most releases (from the first), or `fresh`."""
    return derived.latest(keys, type(fresh)) or fresh
