"""Diffs of releases: kept by both releases' contents, and worked out on every core when many
are missing.

Tracing a whole language or exporting it reads every consecutive pair's diff; those missing
are made by worker processes first (started the platform's way: forked, or spawned), each loading
the releases of its run once and keeping its diffs in the derived store, where the walk then
finds them.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rulesarchive.corpus.derived import DerivedData, Kind, entry_key
from rulesarchive.corpus.model import DocKind, Document, Release
from rulesarchive.corpus.store import Archive
from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:
    from rulesarchive.differ.classify import ReleaseDiff

# Loaded when a diff is worked out (a kept one is read without them; see rulesarchive.system.lazy).
if TYPE_CHECKING:  # the modules themselves, for their types
    import multiprocessing

    from rulesarchive.differ import classify
    from rulesarchive.system import processes
else:
    classify = lazy_module("rulesarchive.differ.classify")
    multiprocessing = lazy_module("multiprocessing")
    processes = lazy_module("rulesarchive.system.processes")

log = logging.getLogger(__name__)

RUN = 8  # consecutive pairs a worker diffs at a time: it loads each release of a run once


class Diffs:
    """The diffs of an archive's releases, kept in its derived store."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive
        self.derived = archive.derived

    def get(
        self, old: Release, new: Release, documents: dict[str, Document] | None = None
    ) -> ReleaseDiff:
        """Return the diff of two releases; their documents are read only to diff them
        (`documents`: those at hand, by release key)."""
        at_hand = documents or {}

        def make() -> ReleaseDiff:
            before = at_hand.get(old.key) or self.archive.load(old)
            after = at_hand.get(new.key) or self.archive.load(new)
            return classify.diff_documents(before, after)

        return self.derived.cached(
            _key(old, new), make, classify.ReleaseDiff, f"diff {old.key} -> {new.key}"
        )

    def has(self, old: Release, new: Release) -> bool:
        """Tell whether the diff of two releases is kept."""
        return self.derived.has(_key(old, new))

    def missing(self, releases: list[Release]) -> list[int]:
        """Return the indexes of the releases whose diff from the one before is not kept."""
        return [i for i in range(1, len(releases)) if not self.has(releases[i - 1], releases[i])]

    def make_missing(self, releases: list[Release]) -> int:
        """Work out on every core the diffs of consecutive releases that are not kept.

        Return how many were worked out; none with one core, or when fewer than two are
        missing (the walk that needs them makes those).
        """
        missing = self.missing(releases) if self.derived.folder is not None else []
        cores = processes.usable_cores()
        if len(missing) < 2 or cores < 2:
            return 0
        runs = [missing[start : start + RUN] for start in range(0, len(missing), RUN)]
        workers = min(cores, len(runs))
        where = (
            str(self.archive.root),
            _pinned(self.archive),
            str(self.derived.folder),
            self.archive.kind.value,
        )
        context = multiprocessing.get_context()  # the platform's way to start processes
        with context.Pool(
            workers, initializer=_start_worker, initargs=(*where, os.getpid())
        ) as pool:
            pool.map(_diff_run, [[(releases[i - 1], releases[i]) for i in run] for run in runs])
        for index in missing:  # said here: the workers' own log lines would interleave
            old, new = releases[index - 1], releases[index]
            log.info(
                "diff %s -> %s: not in the cache, computing (%d workers)", old.key, new.key, workers
            )
        return len(missing)

    def make_here(self, releases: list[Release]) -> int:
        """Work out in this process the diffs of consecutive releases that are not kept (for
        a process of its own beside other work); return how many."""
        missing = self.missing(releases)
        _diff_pairs(self, [(releases[i - 1], releases[i]) for i in missing])
        return len(missing)


def _key(old: Release, new: Release) -> str:
    return entry_key(Kind.DIFF, old.content_sha256, new.content_sha256)


def _pinned(archive: Archive) -> str:
    """Where the archive's releases are read (a snapshot's copy, or its root)."""
    return str(archive.data_folder)


# The diffs of the worker process (see `_start_worker`).
_WORKER: list[Diffs] = []


def _start_worker(root: str, data: str, folder: str, kind: str, parent: int) -> None:
    """Open the archive in a worker; keep it from logging what its parent says for it, or
    taking Ctrl-C: the parent alone stops the pool (a worker interrupted while it holds the
    task queue's lock leaves the others, and the parent ending the pool, waiting for ever)."""
    processes.watch_parent(parent)
    logging.disable(logging.INFO)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    archive = Archive(root, derived=DerivedData(Path(folder)), kind=DocKind(kind))
    if Path(data) != archive.data_folder:  # a snapshot's copy
        archive = Archive(root, pinned=Path(data), derived=archive.derived, kind=DocKind(kind))
    _WORKER[:] = [Diffs(archive)]


def _diff_run(pairs: list[tuple[Release, Release]]) -> None:
    _diff_pairs(_WORKER[0], pairs)


def _diff_pairs(diffs: Diffs, pairs: list[tuple[Release, Release]]) -> None:
    """Diff consecutive pairs, each release's document read once."""
    documents: dict[str, Document] = {}
    load: Callable[[Release], Document] = diffs.archive.load
    for old, new in pairs:
        for release in (old, new):
            if release.key not in documents:
                documents[release.key] = load(release)
        diffs.get(old, new, documents)
        documents.pop(old.key)
