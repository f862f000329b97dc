"""The library's log records as lines on stderr, for the CLI and the quick path alike."""

from __future__ import annotations

import logging
import sys


class LineHandler(logging.Handler):
    """Write each record as a line on the stderr of the moment (CliRunner's, in tests)."""

    records = 0  # how many were shown, in this process

    def emit(self, record: logging.LogRecord) -> None:
        """Write the record and count it."""
        LineHandler.records += 1
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):  # stderr closed: the record cannot be shown
            return


def configure_logging(verbose: int = 0, quiet: bool = False) -> None:
    """Show the library's log records on stderr: warnings by default, more with -v, less with -q."""
    levels = {0: logging.WARNING, 1: logging.INFO}
    level = logging.ERROR if quiet else levels.get(verbose, logging.DEBUG)
    logger = logging.getLogger("rulesarchive")
    logger.setLevel(level)
    for handler in [h for h in logger.handlers if isinstance(h, LineHandler)]:
        logger.removeHandler(handler)
    handler = LineHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    logger.addHandler(handler)
