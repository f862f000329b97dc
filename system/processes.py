"""Child processes that end with their parent (a killed command leaves no worker behind), and
how many cores they may use."""

from __future__ import annotations

import contextlib
import ctypes
import enum
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

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


# What one task of a bounded worker (reading one file) may use: address space beyond the
# worker's own at its start, and CPU seconds. Past the time, the task raises OverLimit; a task
# stuck where Python cannot interrupt it is killed by the kernel a little later.
MEMORY_LIMIT = 2**30
TIME_LIMIT = 60
_TIME_GRACE = 15


_BOUNDED = sys.platform.startswith("linux")  # where rlimits, itimers and /proc are all there


class OverLimit(BaseException):
    """A bounded task ran past its CPU time.

    Raised from a signal handler anywhere in a library, it is no Exception, as KeyboardInterrupt
    is not: a library's `except Exception` (pdfminer's callers' own) would call it a bad file.
    """


def bound_worker(parent: int) -> None:
    """Pool initializer: end with `parent`, and cap the memory the worker may take (Linux)."""
    watch_parent(parent)
    if not _BOUNDED:
        return
    import resource

    size = _address_space()
    if size is not None:
        resource.setrlimit(resource.RLIMIT_AS, (size + MEMORY_LIMIT, resource.RLIM_INFINITY))
    signal.signal(signal.SIGPROF, _over_time)


@contextlib.contextmanager
def time_limit() -> Iterator[None]:
    """Raise OverLimit in this (bounded worker) process after TIME_LIMIT s of CPU time."""
    if not _BOUNDED:
        yield
        return
    import resource

    seconds = TIME_LIMIT
    used = sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    resource.setrlimit(resource.RLIMIT_CPU, (int(used + seconds + _TIME_GRACE), hard))
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))


def _over_time(signum: int, frame: object) -> None:
    raise OverLimit(f"took more than {TIME_LIMIT} s of CPU time")


def _address_space() -> int | None:
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None
