"""Work done in a forked process while the build goes on (the second core), waited for later.

The translation reports compare whole releases and need nothing the build gathers; a
translation's missing diffs need nothing English does; the English reference check needs
only English. So each is worked out beside the build's own work (gathering English or the
translations) on the core that work leaves idle, instead of before or after it. The build
runs no thread when it forks, so forking is safe.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from multiprocessing import get_context
from typing import TypeVar

from rulesarchive.corpus.children import watch_parent

T = TypeVar("T")


def aside(work: Callable[[], T]) -> Callable[[], T]:
    """Start `work` in a forked process; return what waits for its result.

    Its result comes back pickled. If the process fails or dies, the waiting does the work
    itself: a failure is then raised here, as it would have been without the fork.
    """
    if (os.cpu_count() or 1) < 2:
        return work
    context = get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    parent = os.getpid()

    def run() -> None:
        watch_parent(parent)
        try:
            sending.send(("done", work()))
        except BaseException:
            sending.send(("failed", None))
        finally:
            sending.close()
            os._exit(0)

    child = context.Process(target=run, daemon=True)
    child.start()
    sending.close()

    def wait() -> T:
        try:
            outcome, value = receiving.recv()
        except EOFError:
            outcome, value = "failed", None
        finally:
            receiving.close()
            child.join()
        return value if outcome == "done" else work()

    return wait
