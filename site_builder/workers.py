"""Make a language's files: the other pages in this process, the rule pages (and the English
rules' pages across translations) shared out.

Working out a page's context and rendering it is pure Python, so one process uses one core.
A child forked once the language is gathered shares everything the parent gathered without
copying or pickling it; it makes rule pages, writes them into the staging folder itself and
sends back only what the manifest keeps of them.
The shared pages are claimed in small runs from a counter both processes share: the parent
makes the other pages first, then claims shared pages too, so both cores work till the end
whichever share costs more (after one new release the shared pages are most of the work; from
nothing, the changelogs weigh more).
"""

from __future__ import annotations

import datetime as dt
import os
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.sharedctypes import Synchronized

from rulesarchive.site_builder.output import Output
from rulesarchive.site_builder.pages import LanguagePages
from rulesarchive.site_builder.render import Job, Memoised
from rulesarchive.system.processes import Ended, usable_cores, watch_parent

FORK_FROM = 1500  # rule pages below which forking costs more than it saves
RUN = 32  # rule pages claimed at a time (a few tens of milliseconds of work)

# Told how far the making of a language's files is: (done, total).
Tell = Callable[[int, int], None]


def make_files(
    pages: LanguagePages,
    shares: tuple[Iterable[Job | Memoised], Sequence[Callable[[], Job | Memoised]]],
    expected: int,
    output: Output,
    tell: Tell,
) -> None:
    """Make every job of both shares (the second: makers of jobs); `expected`: about how many
    rule pages there are."""
    first, second = shares
    if expected < FORK_FROM or usable_cores() < 2:
        _make(pages, [*first, *(make() for make in second)], output, tell)
        return
    context = get_context("fork")
    claimed = context.Value("q", 0)  # the next rule page to claim
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(
        target=_child, args=(pages, second, claimed, output, sending, os.getpid()), daemon=True
    )
    child.start()
    sending.close()
    try:
        _make(pages, list(first), output, tell)
        _make(pages, _claim(second, claimed), output, tell)
        outcome = receiving.recv()
    except EOFError:
        outcome = (Ended.FAILED, "the process making the rule pages ended without a word")
    except BaseException:
        # Failed or interrupted (a SIGINT to this process alone): the child's pages are not
        # wanted, and it may be blocked sending them to a pipe nobody reads any more.
        child.kill()
        raise
    finally:
        child.join()
    if outcome[0] == Ended.FAILED:
        raise RuntimeError(f"making the pages of {pages.language}: {outcome[1]}")
    produced, changed, written, lastmod = outcome[1]
    output.produced.update(produced)
    output.changed.update(changed)
    output.written += written
    pages.lastmod.update(lastmod)


def make_until(
    pages: LanguagePages, jobs: Iterator[Job | Memoised], output: Output, ready: Callable[[], bool]
) -> None:
    """Make jobs from `jobs` in this process till `ready()` (or till there are none left); the
    rest stay in the iterator. For the time the build waits for work done beside it."""
    _make(pages, _until(jobs, ready), output, lambda _done, _total: None)


def _until(jobs: Iterator[Job | Memoised], ready: Callable[[], bool]) -> Iterator[Job | Memoised]:
    while not ready():
        job = next(jobs, None)
        if job is None:
            return
        yield job


def _claim(
    makers: Sequence[Callable[[], Job | Memoised]], claimed: Synchronized[int]
) -> Iterator[Job | Memoised]:
    """Yield the jobs of the runs of makers this process claims, till none is left."""
    while True:
        with claimed.get_lock():
            start = claimed.value
            claimed.value = start + RUN
        if start >= len(makers):
            return
        for make in makers[start : start + RUN]:
            yield make()


def _make(pages: LanguagePages, jobs: Iterable[Job | Memoised], output: Output, tell: Tell) -> None:
    """Make the jobs whose fingerprint changed (told as they go when `jobs` is a list)."""
    total = len(jobs) if isinstance(jobs, list) else 0
    for done, item in enumerate(jobs, 1):
        if isinstance(item, Memoised) and output.kept(item.path, item.memo, item.finer):
            pages.refs.links.keep(item.path)
        else:
            job, memo = (item.make(), item.memos()) if isinstance(item, Memoised) else (item, "")
            fingerprint = pages.fingerprint(job)
            if not output.fresh(job.path, fingerprint, memo):
                output.write(job.path, pages.render(job).content, fingerprint, memo)
        if total and (done % 100 == 0 or done == total):
            tell(done, total)


def _child(
    pages: LanguagePages,
    makers: Sequence[Callable[[], Job | Memoised]],
    claimed: Synchronized[int],
    output: Output,
    sending: Connection,
    parent: int,
) -> None:
    watch_parent(parent)
    try:
        before = set(output.produced)
        inherited = set(pages.refs.links.used)  # the parent's pages: it saves their texts
        written = output.written
        _make(pages, _claim(makers, claimed), output, lambda _done, _total: None)
        pages.refs.links.forget(inherited)
        pages.refs.links.save("rules")
        made = {path: entry for path, entry in output.produced.items() if path not in before}
        lastmod: dict[str, dt.date] = {path: pages.lastmod[path] for path in made}
        changed = output.changed & made.keys()
        sending.send((Ended.DONE, (made, changed, output.written - written, lastmod)))
    except BaseException:
        sending.send((Ended.FAILED, traceback.format_exc(limit=-3)))
    finally:
        sending.close()
        os._exit(0)
