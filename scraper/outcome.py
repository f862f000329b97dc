"""What happened to one file given to ingest or scrape: its status and one line to say so."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rulesarchive.corpus.model import Release


class Status(StrEnum):
    """What happened to one file (or, `recovered`, to what an interrupted run left)."""

    ADDED = "added"
    REPLACED = "replaced"
    REPAIRED = "repaired"  # a stored release repaired again from a neighbour stored since
    UNCHANGED = "unchanged"
    FAILED = "failed"
    RECOVERED = "recovered"  # leftovers of an interrupted run, cleaned up first
    SKIPPED = "skipped"  # a language asked for that has no online source


# the outcomes that stored a release
STORED = frozenset({Status.ADDED, Status.REPLACED, Status.REPAIRED})


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened to one file, said in one line (`message`)."""

    name: str
    status: Status
    message: str
    release: Release | None = None
    also: tuple[Outcome, ...] = ()  # what storing it did to other releases (repairs redone)
