"""Work done in a forked process while the build goes on."""

from __future__ import annotations

import os
import signal
import time

import pytest
from rulesarchive.site_builder.forked import Beside, aside
from rulesarchive.site_builder.workers import _until
from rulesarchive.system.processes import usable_cores

needs_two_cores = pytest.mark.skipif(usable_cores() < 2, reason="done in place")


@needs_two_cores
def test_the_work_is_done_in_another_process_and_its_result_comes_back():
    wait = aside(lambda: {"pid": os.getpid(), "report": ("a", 1)})
    result = wait()
    assert result["pid"] != os.getpid() and result["report"] == ("a", 1)


def test_work_that_fails_aside_is_done_again_in_place_and_fails_there_as_it_would():
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            raise ValueError("only in the forked process")
        return parent

    def missing() -> None:
        raise LookupError("no zh-Hans releases in the archive")

    assert aside(work)() == parent
    with pytest.raises(LookupError, match="no zh-Hans releases"):
        aside(missing)()


@needs_two_cores
def test_ready_tells_whether_waiting_would_return_at_once(tmp_path):
    go = tmp_path / "go"

    def work() -> str:
        while not go.exists():
            time.sleep(0.01)
        return "checked"

    wait = aside(work)
    assert not wait.ready()
    go.touch()
    deadline = time.monotonic() + 10
    while not wait.ready() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert wait.ready()
    assert wait() == "checked"


def test_until_takes_jobs_till_ready_and_leaves_the_rest_in_the_iterator():
    jobs = iter(range(10))
    asked = []

    def ready() -> bool:
        asked.append(True)
        return len(asked) > 3

    assert list(_until(jobs, ready)) == [0, 1, 2]  # type: ignore[arg-type]
    assert list(jobs) == [3, 4, 5, 6, 7, 8, 9]  # none taken and lost
    assert list(_until(iter([1]), lambda: False)) == [1]  # type: ignore[arg-type]


@needs_two_cores
def test_a_failed_build_stops_the_work_it_started_beside(tmp_path):
    done = tmp_path / "done"

    def work() -> None:
        time.sleep(1)
        done.touch()

    with pytest.raises(RuntimeError, match="template exploded"), Beside() as beside:
        waited = beside.start(lambda: "waited for")
        assert waited() == "waited for"
        beside.start(work)
        raise RuntimeError("template exploded")
    time.sleep(2)
    assert not done.exists()


@needs_two_cores
def test_a_wait_interrupted_stops_the_work_it_waited_for():
    def interrupt(_signal, _frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        wait = aside(lambda: time.sleep(30))
        started = time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            wait()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - started < 10  # not the 30 s of the work
