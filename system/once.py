"""Say each problem once a process: a command that reads the archive again (running again
without an unreadable release, opening the archive anew) repeats no warning it gave."""

from __future__ import annotations

import logging
from collections.abc import Hashable

# The problems said in this process, each by its key (what is wrong, and where).
_SAID: set[Hashable] = set()


def say_once(
    logger: logging.Logger, key: Hashable, message: str, *args: object, level: int = logging.WARNING
) -> None:
    """Log a message unless one of the same key was logged in this process."""
    if key not in _SAID:
        _SAID.add(key)
        logger.log(level, message, *args)
