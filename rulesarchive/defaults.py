"""Defaults of the command line that the quick path reads without importing click."""

DEFAULT_ARCHIVE = "archive"
ARCHIVE_VARIABLE = "RULESARCHIVE_ARCHIVE"
DEFAULT_LANGUAGE = "en"
DEFAULT_FORMAT = "text"
DIFF_FORMATS = ("text", "markdown", "json")  # what `diff` and `changelog` print
TEXT_FORMATS = ("text", "json")  # what the other reading commands print
INTERRUPTED = 130  # exit status after Ctrl-C, as a shell gives a command stopped by SIGINT
