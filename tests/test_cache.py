"""The derived-data cache: values come back equal, computed once, whatever the garbage collector."""

from __future__ import annotations

import datetime as dt
import gc

from rulesarchive.corpus.cache import cached, collection_paused
from rulesarchive.corpus.model import Provenance, Release, Rule


def _release() -> Release:
    source = Provenance("cr.txt", "ab" * 32, "txt", "utf-8")
    return Release("en", dt.date(2024, 11, 8), "FDN", "Foundations", 1, 0, "cd" * 32, source)


def test_dataclasses_come_back_equal_and_are_computed_once(tmp_path):
    value = {"rules": (Rule("400.6", "text", ("an example",)),), "release": _release()}
    calls = []

    def compute():
        calls.append(1)
        return value

    assert cached(tmp_path, "key", compute) == value
    assert cached(tmp_path, "key", compute) == value
    assert len(calls) == 1


def test_a_shared_object_stays_one_object(tmp_path):
    rule = Rule("400.6", "text")
    cached(tmp_path, "shared", lambda: (rule, rule))
    first, second = cached(tmp_path, "shared", lambda: (None, None))  # read back from disk
    assert first == rule and first is second


def test_pausing_collection_restores_it():
    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
