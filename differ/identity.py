"""Permanent ids for lines of descent: match a trace's lines to a registry, mint the rest.

The trace (differ.lineage) names its lines by where they begin in the releases at hand, a
name that moves when an older release is added or the aligner pairs rules otherwise. Here each
line is given its permanent id instead. An id names the version it was minted from
('2009-07-11/508.3': 508.3 as the release of 2009-07-11 printed it), and the line that holds
that version keeps it, whatever the aligner later pairs with it; other ids go to the line that
holds most of their (release, number) versions. Where two lines claim one id (a split), the
one holding more of it keeps it and the other gets a new id; where a line holds versions of
two ids no other line holds (a merge), it keeps the one named by its earliest version (else the
live one naming the earliest version) and the other becomes its alias. A line the registry
knows nothing of is minted an id: its trace name, unless that was ever given (then `~2`...).

An archive holding every release the registry lists records its lines' versions anew (a better
aligner's pairs are kept). One lacking some of them traces poorer lines (a rule renumbered across
a missing release looks like two): it changes no version the registry holds, each staying with
the id that recorded it (an alias included), adds only the releases the registry does not list,
and names a line made of recorded versions alone for the time being, without recording it. So
the ids of such an archive, and its registry, depend on which releases it holds, never on the
order they came in, and completing it gives the whole archive's registry.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from rulesarchive.corpus.ids import Registry, Run, mint_order, named_version
from rulesarchive.corpus.model import Release
from rulesarchive.differ.lineage import Line, Trace

Point = tuple[dt.date, str]  # a rule number as one release printed it
_UNBORN: Point = (dt.date.max, "")  # sorts after every version an id names


@dataclass(frozen=True, slots=True)
class Identity:
    """Each line's permanent id (by its trace name), and the registry that records them."""

    ids: dict[str, str]
    registry: Registry


def assign_ids(lines: Sequence[Line], releases: Sequence[Release], registry: Registry) -> Identity:
    """Give every line its permanent id, and return them with the registry brought up to date."""
    dates = [release.effective_date for release in releases]
    return assign_points(
        [line.id for line in lines], [list(_points(line, dates)) for line in lines], dates, registry
    )


def assign_points(
    names: Sequence[str],
    points: Sequence[list[Point]],
    dates: Sequence[dt.date],
    registry: Registry,
) -> Identity:
    """Give every line its permanent id, a line given by its trace name and its versions (the
    (release, number) points it holds: a rule's number, a glossary term's key, a heading's
    number), and return them with the registry brought up to date."""
    owners = registry.owners()
    # a retired id (an alias) comes back to the line that holds the version it names
    # of two ids naming one version ('~2'), the live one before a retired one
    registered = sorted(
        {*registry.ids, *registry.aliases}, key=lambda i: (i in registry.aliases, mint_order(i))
    )
    version_of = {line_id: named_version(line_id) for line_id in registered}
    named: dict[Point, list[str]] = {}
    for line_id in registered:
        named.setdefault(version_of[line_id], []).append(line_id)
    at_hand, listed = set(dates), set(registry.releases)
    anew = at_hand if listed <= at_hand else at_hand - listed
    votes: list[Counter[str]] = []
    born: list[set[Point]] = []
    for found in points:
        counted = Counter(owners[p] for p in found if p in owners)
        # an id is the line's that holds the version it names, even where an older aligner
        # recorded that version under another id
        counted.update({line_id: 0 for p in found for line_id in named.get(p, ())})
        holds = set(found)
        # a version of a release not at hand counts as held when the registry gives the line
        # some of that id's versions
        born.append(
            {
                version_of[i]
                for i, count in counted.items()
                if version_of[i] in holds or (count and version_of[i][0] not in at_hand)
            }
        )
        votes.append(counted)
    rank = {line_id: order for order, line_id in enumerate(registered)}
    ids = _matched(votes, born, rank, version_of)
    taken = set(ids.values())
    aliases = {alias: to for alias, to in registry.aliases.items() if alias not in taken}
    for place, counted in enumerate(votes):
        # a merge: the ids only this line holds name one rule; the one named by the line's
        # earliest version stays (else the live one naming the earliest version)
        merged = [i for i in counted if i == ids.get(place) or i not in taken]
        if len(merged) > 1:
            ids[place] = min(merged, key=lambda i: (_held(version_of[i], born[place]), rank[i]))
            aliases |= {line_id: ids[place] for line_id in merged if line_id != ids[place]}
            taken.update(merged)
    given = set(registered) | set(aliases)
    for_now: set[str] = set()  # named for the time being: made of recorded versions alone
    for place, name in enumerate(names):
        if place not in ids:
            ids[place] = _mint(name, given)
            given.add(ids[place])
            if all(date not in anew for date, _number in points[place]):
                for_now.add(ids[place])
    held = _points_by_id(owners, points, ids, anew)
    known = tuple(sorted(set(registry.releases) | set(dates)))
    order = [
        *registry.ids,
        *(ids[place] for place in range(len(names)) if ids[place] not in for_now),
    ]
    runs = {
        line_id: _runs(held.get(line_id, []), known)
        for line_id in dict.fromkeys(order)
        if line_id not in aliases or line_id in held
    }
    given_ids = {name: ids[place] for place, name in enumerate(names)}
    return Identity(given_ids, Registry(known, runs, aliases))


def _points(line: Line, dates: Sequence[dt.date]) -> Iterable[Point]:
    for stretch in line.stretches:
        for index in range(stretch.first, stretch.last + 1):
            yield dates[index], stretch.rule.number


def _held(version: Point, born: set[Point]) -> Point:
    """Sort key: the version an id names when the line holds it, else after every version."""
    return version if version in born else _UNBORN


def _matched(
    votes: Sequence[Counter[str]],
    born: Sequence[set[Point]],
    rank: dict[str, int],
    version_of: dict[str, Point],
) -> dict[int, str]:
    """Pair lines with registered ids: each id with the line holding the version it names
    (the earliest such version first, then a live id before a retired one and the first in
    mint_order, then the line sharing more of its versions: two lines claim one id whose
    version is of a release not at hand), then the pairs sharing most versions first."""
    # an id whose version some line holds goes to that line, or to none
    claimed = {
        line_id
        for place, counted in enumerate(votes)
        for line_id in counted
        if version_of[line_id] in born[place]
    }
    pairs = sorted(
        (
            (version_of[line_id], rank[line_id], -count, place, line_id)
            if version_of[line_id] in born[place]
            else (_UNBORN, 0, -count, place, line_id)
        )
        for place, counted in enumerate(votes)
        for line_id, count in counted.items()
        if line_id not in claimed or version_of[line_id] in born[place]
    )
    ids: dict[int, str] = {}
    taken: set[str] = set()
    for _version, _order, _count, place, line_id in pairs:
        if place not in ids and line_id not in taken:
            ids[place] = line_id
            taken.add(line_id)
    return ids


def _mint(name: str, given: set[str]) -> str:
    line_id, copy = name.partition("~")[0], 2
    candidate = line_id
    while candidate in given:
        candidate = f"{line_id}~{copy}"
        copy += 1
    return candidate


def _points_by_id(
    owners: dict[Point, str],
    points: Sequence[list[Point]],
    ids: dict[int, str],
    anew: set[dt.date],
) -> dict[str, list[Point]]:
    """Return each id's versions: the lines' own in the releases recorded anew, the registry's
    in the others (with the id that recorded them, though it be an alias now)."""
    held: dict[str, list[Point]] = {}
    for point, line_id in owners.items():
        if point[0] not in anew:
            held.setdefault(line_id, []).append(point)
    for place, found in enumerate(points):
        held.setdefault(ids[place], []).extend(point for point in found if point[0] in anew)
    return held


def _runs(points: list[Point], releases: Sequence[dt.date]) -> tuple[Run, ...]:
    """Group versions into runs over the releases: the same number in consecutive releases."""
    position = {date: index for index, date in enumerate(releases)}
    runs: list[Run] = []
    last_index = -2
    for date, number in sorted(points):
        index = position[date]
        if runs and runs[-1].number == number and index == last_index + 1:
            runs[-1] = replace(runs[-1], last=date)
        else:
            runs.append(Run(number, date, date))
        last_index = index
    return tuple(runs)


def rename_trace(trace: Trace, ids: dict[str, str]) -> Trace:
    """Return the trace with its lines named by their permanent ids."""
    return Trace(
        trace.count,
        tuple(rename_lines(trace.lines, ids)),
        {number: ids.get(name, name) for number, name in trace.holder.items()},
    )


def rename_lines(lines: Iterable[Line], ids: dict[str, str]) -> list[Line]:
    """Return the lines named by their permanent ids."""
    return [Line(ids.get(line.id, line.id), line.stretches) for line in lines]
