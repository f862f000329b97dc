"""Work done in a forked process while the build goes on (the second core), waited for later.

The translation reports compare whole releases and need nothing the build gathers; a
translation's missing diffs need nothing English does; the English reference check needs
only English. So each is worked out beside the build's own work (gathering English or the
translations) on the core that work leaves idle, instead of before or after it. The build
runs no thread when it forks, so forking is safe.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from multiprocessing import get_context
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

from rulesarchive.system.processes import Ended, usable_cores, watch_parent

T = TypeVar("T")


class Aside(Generic[T]):
    """Work started beside the build: call it to wait for its result, ask `ready` first."""

    def __init__(self, work: Callable[[], T]) -> None:
        self.work = work
        self._child: BaseProcess | None = None
        self._waited = False
        if usable_cores() < 2:
            return  # done when waited for, in this process
        context = get_context("fork")
        self._receiving, sending = context.Pipe(duplex=False)
        parent = os.getpid()

        def run() -> None:
            watch_parent(parent)
            try:
                sending.send((Ended.DONE, work()))
            except BaseException:
                sending.send((Ended.FAILED, None))
            finally:
                sending.close()
                os._exit(0)

        child = context.Process(target=run, daemon=True)
        try:
            child.start()
        except OSError:  # no process to be had (a limit on them): done when waited for, here
            self._receiving.close()
            return
        finally:
            sending.close()
        self._child = child

    def ready(self) -> bool:
        """Tell whether waiting would return at once (the work is done, or failed)."""
        return self._child is None or self._waited or self._receiving.poll()

    def __call__(self) -> T:
        """Wait for the result; if the process failed or died, do the work here (so a failure
        is raised here, as it would have been without the fork)."""
        if self._child is None:
            return self.work()
        try:
            outcome, value = self._receiving.recv()
        except EOFError:
            outcome, value = Ended.FAILED, None
        except BaseException:  # interrupted while waiting: the work is not wanted either
            self._child.terminate()
            raise
        finally:
            self._receiving.close()
            self._child.join()
            self._waited = True
        return value if outcome == Ended.DONE else self.work()

    def stop(self) -> None:
        """Stop the work if it is still being done (the build failed: its result is not wanted)."""
        if self._child is not None and not self._waited:
            self._child.terminate()
            self._child.join()
            self._receiving.close()
            self._waited = True


class Beside:
    """The work a build starts beside it (`start`), stopped when the build fails.

    A context manager: work not yet waited for when the block raises is stopped, so a failed
    or interrupted build leaves nothing running.
    """

    def __init__(self) -> None:
        self.started: list[Aside[Any]] = []  # of any result: only ever stopped here

    def start(self, work: Callable[[], T]) -> Aside[T]:
        """Start `work` beside the build (see `aside`)."""
        started = aside(work)
        self.started.append(started)
        return started

    def __enter__(self) -> Beside:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:
            for started in self.started:
                with contextlib.suppress(Exception):  # the others are stopped all the same
                    started.stop()


def aside(work: Callable[[], T]) -> Aside[T]:
    """Start `work` in a forked process; return what waits for its result (and tells whether
    it is in). Its result comes back pickled."""
    return Aside(work)
