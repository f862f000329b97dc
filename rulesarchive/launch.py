"""The `rulesarchive` command: a reading command's kept output when it has one, else the CLI.

`diff` and `changelog` asked again on an unchanged archive print their kept output (see
rulesarchive.kept), and a first `diff` of two releases named by date prints the report kept
beside their cached diff (rulesarchive.quick), without importing click or the library; any
other command line, or one with neither, runs the click commands of rulesarchive.cli.
"""

from __future__ import annotations

import os
import sys

from rulesarchive.defaults import (
    ARCHIVE_VARIABLE,
    DEFAULT_ARCHIVE,
    DEFAULT_FORMAT,
    DEFAULT_LANGUAGE,
)

TYPE_CHECKING = False  # not typing's: this module must stay as cheap to import as it can
if TYPE_CHECKING:
    from collections.abc import Mapping

# The reading commands answered here: their positional arguments (fewest, most).
_ARGUMENTS = {"diff": (2, 2), "changelog": (0, 1)}


def main() -> None:
    """Run the command line."""
    text = kept_answer(sys.argv[1:], os.environ) if _writes_utf8(sys.stdout) else None
    if text is None:
        from rulesarchive.cli import main as commands

        commands()
        return
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `| head`: as click does, stop quietly with status 1
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (the flush at exit must find a file)
        sys.exit(1)


def _writes_utf8(stream) -> bool:
    """Tell whether text written to the stream comes out as UTF-8, as click.echo writes it.

    On another encoding click replaces what cannot be encoded; the CLI does that itself.
    """
    return (getattr(stream, "encoding", None) or "").lower().replace("-", "") == "utf8"


def kept_answer(argv: list[str], environ: Mapping[str, str]) -> str | None:
    """Return the kept output (or report) of this command line, or None when the CLI must run."""
    request = parse_request(argv, environ)
    if request is None:
        return None
    from rulesarchive.kept import KeptOutput

    root, *values = request
    text = KeptOutput(root, *values).read()
    if text is None and values[0] == "diff":
        from rulesarchive.quick import report_answer

        text = report_answer(root, *values[1:])
    return text


def parse_request(argv: list[str], environ: Mapping[str, str]) -> list[str] | None:
    """Return [archive, command, values...] of a plain `diff`/`changelog` line, else None.

    Only the plainest form is recognised (`--archive`, the arguments, `--lang`, `--format`);
    anything else (-v, --help, a repeated option) goes to click, which parses it fully.
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
    if not fewest <= len(arguments) <= most:
        return None
    arguments += [""] * (most - len(arguments))  # changelog without RELEASE: the newest
    return [archive, command, *arguments, options["--lang"], options["--format"]]
