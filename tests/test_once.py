"""A problem is said once a process, however often it is met; other problems still are."""

import logging

from rulesarchive.system import once


def test_a_problem_is_said_once_by_its_key_not_its_words(monkeypatch, caplog):
    monkeypatch.setattr(once, "_SAID", set())
    caplog.set_level(logging.INFO, logger="rulesarchive")
    log = logging.getLogger("rulesarchive.test")
    for _ in range(3):
        once.say_once(log, ("damaged", "a"), "%s is damaged", "a")
    once.say_once(log, ("damaged", "b"), "%s is damaged", "a")  # another problem, same words
    once.say_once(log, ("slow", "a"), "%s is slow", "a", level=logging.INFO)
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.WARNING, "a is damaged"),
        (logging.WARNING, "a is damaged"),
        (logging.INFO, "a is slow"),
    ]
