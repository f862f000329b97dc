"""The diffs a language's history needs, worked out on every core before they are read.

Tracing a whole language or exporting it reads every consecutive pair's diff; those missing
from the cache are made here by forked workers, each loading the releases of its run once.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
from pathlib import Path

from rulesarchive.corpus.children import usable_cores
from rulesarchive.corpus.model import Document, Release
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.cache import cached_diff, has_cached_diff

log = logging.getLogger(__name__)

# The releases, and where their diffs go, that forked workers of `diff_ahead` read.
_AHEAD: tuple[Archive, list[Release], Path] | None = None


def diff_ahead(archive: Archive, releases: list[Release], folder: Path, chunk: int = 8) -> int:
    """Work out on every core the diffs of consecutive releases that `folder` lacks.

    Each goes into the cache, where `walk` then finds it. Pairs are handed out in runs of
    `chunk` (a worker loads each release of a run once). Return how many were worked out; none
    where processes cannot be forked or there is one core.
    """
    global _AHEAD
    missing = missing_diffs(releases, folder)
    cores = usable_cores()
    if len(missing) < 2 or cores < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 0
    runs = [missing[start : start + chunk] for start in range(0, len(missing), chunk)]
    workers = min(cores, len(runs))
    _AHEAD = (archive, releases, folder)
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_quiet) as pool:
            pool.map(_diff_run, runs, chunksize=1)
    finally:
        _AHEAD = None
    for index in missing:  # said here: the workers' own log lines would interleave
        old, new = releases[index - 1], releases[index]
        log.info(
            "diff %s -> %s: not in the cache, computing (%d workers)", old.key, new.key, workers
        )
    return len(missing)


def missing_diffs(releases: list[Release], folder: Path) -> list[int]:
    """Return the indexes of the releases whose diff from the one before `folder` lacks."""
    return [
        index
        for index in range(1, len(releases))
        if not has_cached_diff(folder, releases[index - 1], releases[index])
    ]


def diff_here(archive: Archive, releases: list[Release], folder: Path) -> int:
    """Work out in this process the diffs of consecutive releases that `folder` lacks.

    For a process of its own beside other work (the site build diffs a translation while it
    traces English); return how many were worked out.
    """
    global _AHEAD
    missing = missing_diffs(releases, folder)
    _AHEAD = (archive, releases, folder)
    try:
        _diff_run(missing)
    finally:
        _AHEAD = None
    return len(missing)


def _quiet() -> None:
    """Keep a forked worker from logging what its parent says for it, or taking Ctrl-C.

    The parent alone stops the pool on Ctrl-C: a worker interrupted while it holds the task
    queue's lock leaves the others, and the parent ending the pool, waiting for it for ever.
    """
    logging.disable(logging.INFO)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _diff_run(indexes: list[int]) -> None:
    """Work out the diffs ending at these release indexes (in a forked worker)."""
    assert _AHEAD is not None
    archive, releases, folder = _AHEAD
    documents: dict[int, Document] = {}
    for index in indexes:
        for needed in (index - 1, index):
            if needed not in documents:
                documents[needed] = archive.load(releases[needed])
        old, new = releases[index - 1], releases[index]
        cached_diff(folder, old, new, documents[index - 1], documents[index])
        documents.pop(index - 1)
