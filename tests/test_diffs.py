"""The diff workers (rulesarchive.diffs) leave Ctrl-C to their parent."""

import multiprocessing
import os
import signal

import pytest

from rulesarchive import diffs


def _handler_after_quiet(_index: int) -> bool:
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_a_worker_ignores_ctrl_c_so_the_parent_alone_stops_the_pool(tmp_path):
    # A worker interrupted while it held the task queue's lock hung the parent for ever.
    where = (str(tmp_path), str(tmp_path), str(tmp_path / "derived"), "cr", os.getpid())
    context = multiprocessing.get_context("fork")
    with context.Pool(1, initializer=diffs._start_worker, initargs=where) as pool:
        assert pool.map(_handler_after_quiet, [0]) == [True]
    assert signal.getsignal(signal.SIGINT) != signal.SIG_IGN  # the parent still takes it
