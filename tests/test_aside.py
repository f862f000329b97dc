"""Work done in a forked process while the build goes on."""

from __future__ import annotations

import os

import pytest
from rulesarchive.site_builder.aside import aside

needs_two_cores = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="done in place")


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
