"""Make a language's files: its jobs split in two shares, the second in a forked process.

Working out a page's context and rendering it is pure Python, so one process uses one core.
The rule pages (about half of the work) are made in a child forked once the language is
gathered: it shares everything the parent gathered without copying or pickling it, writes its
files into the staging folder itself and sends back only what the manifest keeps of them.
"""

from __future__ import annotations

import datetime as dt
import os
import traceback
from collections.abc import Callable, Iterable
from multiprocessing import get_context
from multiprocessing.connection import Connection

from rulesarchive.corpus.children import watch_parent
from rulesarchive.site_builder.output import Output
from rulesarchive.site_builder.pages import LanguagePages
from rulesarchive.site_builder.render import Job

FORK_FROM = 1500  # jobs in the child's share below which forking costs more than it saves

# Told how far the making of a language's files is: (done, total).
Tell = Callable[[int, int], None]


def make_files(
    pages: LanguagePages,
    shares: tuple[Iterable[Job], Iterable[Job]],
    expected: int,
    output: Output,
    tell: Tell,
) -> None:
    """Make every job of both shares; `expected`: about how many the second share holds."""
    first, second = shares
    if expected < FORK_FROM or (os.cpu_count() or 1) < 2:
        _make(pages, [*first, *second], output, tell)
        return
    output.flush()  # no copy running (nor its pool's thread) when the child is forked
    receiving, sending = get_context("fork").Pipe(duplex=False)
    child = get_context("fork").Process(
        target=_child, args=(pages, second, output, sending, os.getpid()), daemon=True
    )
    child.start()
    sending.close()
    try:
        _make(pages, list(first), output, tell)
        outcome = receiving.recv()
    except EOFError:
        outcome = ("failed", "the process making the rule pages ended without a word")
    finally:
        child.join()
    if outcome[0] == "failed":
        raise RuntimeError(f"making the pages of {pages.language}: {outcome[1]}")
    produced, changed, written, lastmod = outcome[1]
    output.produced.update(produced)
    output.changed.update(changed)
    output.written += written
    pages.lastmod.update(lastmod)


def _make(pages: LanguagePages, jobs: Iterable[Job], output: Output, tell: Tell) -> None:
    """Make the jobs whose fingerprint changed (told as they go when `jobs` is a list)."""
    total = len(jobs) if isinstance(jobs, list) else 0
    for done, job in enumerate(jobs, 1):
        fingerprint = pages.fingerprint(job)
        if not output.fresh(job.path, fingerprint):
            output.write(job.path, pages.render(job).content, fingerprint)
        if total and (done % 100 == 0 or done == total):
            tell(done, total)


def _child(
    pages: LanguagePages, jobs: Iterable[Job], output: Output, sending: Connection, parent: int
) -> None:
    watch_parent(parent)
    try:
        before = set(output.produced)
        written = output.written
        _make(pages, jobs, output, lambda _done, _total: None)
        pages.refs.links.save("rules")
        made = {path: entry for path, entry in output.produced.items() if path not in before}
        lastmod: dict[str, dt.date] = {path: pages.lastmod[path] for path in made}
        sending.send(
            ("made", (made, output.changed & made.keys(), output.written - written, lastmod))
        )
    except BaseException:
        sending.send(("failed", traceback.format_exc(limit=-3)))
    finally:
        sending.close()
        os._exit(0)
