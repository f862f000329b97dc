"""The `rulesarchive` command: the reading commands without click, else the CLI.

A plain `diff`, `changelog` or `history` command line (see parse_request) is answered here,
without importing click: from its kept output when the same line was asked on an unchanged
archive (rulesarchive.kept), a `diff` of two releases named by date from the report kept
beside their cached diff (rulesarchive.quick), else by the library (rulesarchive.reading).
Any other command line, or one the library fails on (the CLI then reports the error), runs
the click commands of rulesarchive.cli.
"""

from __future__ import annotations

import os
import sys

from rulesarchive.defaults import (
    ARCHIVE_VARIABLE,
    DEFAULT_ARCHIVE,
    DEFAULT_FORMAT,
    DEFAULT_LANGUAGE,
    DIFF_FORMATS,
    INTERRUPTED,
    TEXT_FORMATS,
)

TYPE_CHECKING = False  # not typing's: this module must stay as cheap to import as it can
if TYPE_CHECKING:
    from collections.abc import Mapping

# The reading commands answered here: their positional arguments (fewest, most) and formats.
_ARGUMENTS = {"diff": (2, 2), "changelog": (0, 1), "history": (1, 1)}
_FORMATS = {"diff": DIFF_FORMATS, "changelog": DIFF_FORMATS, "history": TEXT_FORMATS}


def main() -> None:
    """Run the command line."""
    request = parse_request(sys.argv[1:], os.environ) if _writes_utf8(sys.stdout) else None
    try:
        text = answer(request) if request else None
    except KeyboardInterrupt:  # Ctrl-C while the library works: as the CLI says it
        sys.stderr.write("\nAborted!\n")
        sys.exit(INTERRUPTED)
    if text is None or not _prints_as_click_does(text, sys.stdout):
        from rulesarchive.cli import main as commands

        commands()
        return
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `| head`: as click does, stop quietly with status 1
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (the flush at exit must find a file)
        sys.exit(1)


def _prints_as_click_does(text: str, stream) -> bool:
    """Tell whether writing the text as it is prints what click.echo would: click strips
    terminal escapes off a stream that is not a terminal, and replaces what UTF-8 cannot
    encode (a lone surrogate, which only a hand-edited document can hold)."""
    if "\x1b" in text and not stream.isatty():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _writes_utf8(stream) -> bool:
    """Tell whether text written to the stream comes out as UTF-8, as click.echo writes it.

    On another encoding click replaces what cannot be encoded; the CLI does that itself.
    """
    return (getattr(stream, "encoding", None) or "").lower().replace("-", "") == "utf8"


def answer(request: list[str]) -> str | None:
    """Return the output of a parsed request (see parse_request), or None: the CLI must run."""
    text = kept_output(request)
    if text is None:
        text = library_output(request)
    return text


def kept_answer(argv: list[str], environ: Mapping[str, str]) -> str | None:
    """Return the kept output (or report) of this command line, or None when there is none."""
    request = parse_request(argv, environ)
    return kept_output(request) if request else None


def kept_output(request: list[str]) -> str | None:
    """Return the kept report of a `diff`, or the kept output of a request; else None."""
    root, *values = request
    if values[0] == "diff":  # its report first: as quick to read, and there the first time
        from rulesarchive.quick import report_answer

        text = report_answer(root, *values[1:])
        if text is not None:
            return text
    from rulesarchive.kept import KeptOutput, kept_changelog

    text = KeptOutput(root, *values).read()
    if text is None and values[0] == "changelog":  # the release's, kept by ingest or by another
        reference, language, output = values[1:]
        text = kept_changelog(root, reference, language, output)
    return text


def library_output(request: list[str]) -> str | None:
    """Return the output the library makes for a request, kept for the next time; None on error.

    Errors are left to the CLI, which runs again and reports them as it does every error.
    """
    from rulesarchive import reading
    from rulesarchive.corpus.store import Archive
    from rulesarchive.kept import KeptChangelog, KeptOutput
    from rulesarchive.logs import LineHandler, configure_logging

    root, command, *values = request
    *arguments, language, output = values
    archive = Archive(root)
    configure_logging()
    kept = KeptOutput(root, command, *values)  # named by the archive as it is now
    logged = LineHandler.records
    changelog = None
    try:
        if command == "diff":
            old, new = arguments
            text = reading.diff_output(archive, old, new, language, output)
        elif command == "changelog":
            changelog = reading.changelog_outputs(archive, arguments[0] or None, language)
            text = changelog.texts[output]
        else:
            text = reading.history_output(archive, arguments[0], language, output)
    except Exception:  # any failure: the CLI runs again and reports it its way
        return None
    if LineHandler.records == logged:  # a replay would not say what was logged
        kept.keep(text)
        if changelog is not None:
            KeptChangelog(root, language, changelog.date, kept.state).keep(changelog.texts)
    return text


def parse_request(argv: list[str], environ: Mapping[str, str]) -> list[str] | None:
    """Return [archive, command, values...] of a plain reading command line, else None.

    Only the plainest form is recognised (`--archive`, the arguments, `--lang`, `--format`
    of one of the command's formats); anything else (-v, --help, --all, a repeated option)
    goes to click, which parses it fully.
    """
    archive = environ.get(ARCHIVE_VARIABLE) or DEFAULT_ARCHIVE
    rest = list(argv)
    if rest[:1] == ["--archive"] and len(rest) > 1:
        archive, rest = rest[1], rest[2:]
    elif rest[:1] and rest[0].startswith("--archive="):
        archive, rest = rest[0].partition("=")[2], rest[1:]
    if not archive or not rest or rest[0] not in _ARGUMENTS:
        return None
    command, tokens = rest[0], rest[1:]
    options = {"--lang": DEFAULT_LANGUAGE, "--format": DEFAULT_FORMAT}
    given: set[str] = set()
    arguments = []
    while tokens:
        token = tokens.pop(0)
        name, equals, value = token.partition("=")
        if name in options and name not in given and (equals or tokens):
            options[name] = value if equals else tokens.pop(0)
            given.add(name)
        elif token.startswith("-") or not token:
            return None  # an option click must parse, or an empty RELEASE (an error there)
        else:
            arguments.append(token)
    fewest, most = _ARGUMENTS[command]
    if not fewest <= len(arguments) <= most or options["--format"] not in _FORMATS[command]:
        return None
    arguments += [""] * (most - len(arguments))  # changelog without RELEASE: the newest
    return [archive, command, *arguments, options["--lang"], options["--format"]]
