"""A language's lines of descent as the derived store keeps them: by chapter.

After its first n releases, a language's trace (differ.lineage.Trace) is kept as one part per
chapter, each the lines that held a number of that chapter in some release, with their
places in the trace; and a state naming the parts, kept under the digest of those n releases.
A stretch that lasts to the last release is kept open-ended, so a chapter the next release
does not touch keeps the same content, hence the same part: a release added at the end
writes the parts of the chapters it touched and a new state. `history` reads one part.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from rulesarchive.corpus.derived import DerivedData, Kind, collection_paused, entry_key
from rulesarchive.corpus.model import Release
from rulesarchive.differ.lineage import EMPTY_TRACE, Line, Trace, release_digests

OPEN = -1  # the `last` of a stretch that lasts to the trace's last release

Part = tuple[tuple[int, Line], ...]  # (place in the trace, line), lasting stretches open-ended

# The parts this process read, by key: a trace extended from them and kept again rewrites only
# the chapters whose part is no longer equal (comparing is cheap: the rules are shared).
_READ: dict[str, Part] = {}


@dataclass(frozen=True, slots=True)
class KeptIds:
    """The permanent id of each line of a trace (by the trace's name for it), as kept, with
    the digest of the registry that records them."""

    ids: dict[str, str]
    registry: str


@dataclass(frozen=True, slots=True)
class _State:
    """A trace after its first `count` releases: its parts by chapter, and `holder` (see Trace)."""

    count: int
    parts: tuple[tuple[str, str], ...]  # (chapter, key of its part)
    holder: dict[str, str]


def trace_keys(releases: list[Release]) -> list[str]:
    """Return, for each n, the key of the state of the trace of the first n releases."""
    return [entry_key(Kind.LINES, "trace", digest) for digest in release_digests(releases)]


def trace_key(releases: list[Release]) -> str:
    """Return the key of the state of the trace of all `releases` (`trace_keys(...)[-1]`)."""
    return entry_key(Kind.LINES, "trace", release_digests(releases)[-1])


def kept_trace(derived: DerivedData, releases: list[Release]) -> Trace:
    """Return the kept trace of the most of `releases` (from the first), or an empty one."""
    keys = trace_keys(releases)
    state = derived.latest(keys, _State)
    while state is not None:
        lines = _lines(derived, state, [key for _chapter, key in state.parts])
        if lines is not None:
            return Trace(state.count, tuple(lines), state.holder)
        # a part is gone (pruned): the state before it, if any, is the best there is
        state = derived.latest(keys[: state.count], _State)
    return EMPTY_TRACE


def keep_trace(derived: DerivedData, releases: list[Release], trace: Trace, since: int) -> None:
    """Keep the trace of all `releases`, in place of the kept one of their first `since`."""
    if since >= len(releases) or derived.folder is None:
        return
    last = trace.count - 1
    parts: dict[str, list[tuple[int, Line]]] = {}
    for place, line in enumerate(trace.lines):
        opened = _opened(line, last)
        for chapter in dict.fromkeys(number.partition(".")[0] for number in line.numbers):
            parts.setdefault(chapter, []).append((place, opened))
    keys = trace_keys(releases)
    before = derived.get(keys[since], _State) if since else None
    kept = dict(before.parts) if before is not None else {}
    chosen: dict[str, str] = {}
    for chapter, part in parts.items():
        key = kept.get(chapter)
        if key in _READ and _READ[key] == tuple(part) and derived.has(key):
            chosen[chapter] = key  # the chapter the new releases left alone
    changed = sorted(parts.keys() - chosen.keys())
    made = derived.put_contents(Kind.LINES, (tuple(parts[chapter]) for chapter in changed))
    chosen.update(zip(changed, made, strict=True))
    derived.touch(chosen[chapter] for chapter in parts.keys() - set(changed))
    state = _State(trace.count, tuple(sorted(chosen.items())), trace.holder)
    derived.keep_latest(keys, state, trace.count, since)


def chapter_lines(derived: DerivedData, releases: list[Release], chapter: str) -> list[Line] | None:
    """Return the lines that held a number of a chapter, from the kept trace of exactly
    `releases`, in trace order; None when that trace is not kept."""
    state = derived.get(trace_key(releases), _State)
    if state is None or state.count != len(releases):
        return None
    wanted = [key for name, key in state.parts if name == chapter]
    return _lines(derived, state, wanted)


def _lines(derived: DerivedData, state: _State, keys: Iterable[str]) -> list[Line] | None:
    """Read parts and return their lines in trace order, closed at the state's last release;
    None when a part is missing."""
    found: dict[int, Line] = {}
    last = state.count - 1
    with collection_paused():
        for key in keys:
            part = _READ.get(key) or derived.get(key, Part)
            if part is None:
                return None
            _READ[key] = part
            for place, line in part:
                if place not in found:
                    found[place] = _closed(line, last)
    return [found[place] for place in sorted(found)]


def _opened(line: Line, last: int) -> Line:
    final = line.stretches[-1]
    if final.last != last:
        return line
    return Line(line.id, (*line.stretches[:-1], replace(final, last=OPEN)))


def _closed(line: Line, last: int) -> Line:
    final = line.stretches[-1]
    if final.last != OPEN:
        return line
    return Line(line.id, (*line.stretches[:-1], replace(final, last=last)))
