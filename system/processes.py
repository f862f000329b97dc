"""Child processes that end with their parent (a killed command leaves no worker behind), and
how many cores they may use."""

from __future__ import annotations

import ctypes
import enum
import os
import signal
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1


class Ended(enum.StrEnum):
    """How a child's work ended, as it tells its parent."""

    DONE = "done"
    FAILED = "failed"


def usable_cores() -> int:
    """Return how many cores this process may run on (its affinity, where the system tells)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def watch_parent(parent: int) -> None:
    """Exit this (worker) process as soon as `parent` is gone; a pool initializer."""
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def die_with_parent() -> None:
    """Have the kernel kill this process when its parent dies; a Popen preexec_fn (Linux).

    Kept across exec, so a program that execs another (pagefind's launcher) is covered too.
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
